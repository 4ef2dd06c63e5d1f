#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The flight recorder's live snapshots in the guest: boot the traced
# kernel and run scripts/guest/snapshot-test.sh in it (its checks are the
# verdict of the boot), then read every snapshot it took on the host with
# babeltrace2 and ltt report (tools-ltt/tests/e2e.sh: they must agree),
# and check the markers again with the host's ltt.  The snapshots stay
# in build/snapshot-test/flight/.

source "$(dirname "$0")/lib.sh"

DISK=$LTT_BUILD/snapshot-test.img
OUT=$LTT_BUILD/snapshot-test
LTT=$LTT_ROOT/tools-ltt/build/ltt

# markers DIR: its marker numbers, in the order of the trace
markers() {
	"$LTT" report -e user_message "$1" |
		sed -n 's/.*text="marker \([0-9]*\)"$/\1/p' | tr '\n' ' '
}

# marks DIR: its markers and trig events, "m1 ... fire1 m21 ...", in order
marks() {
	"$LTT" report -e user_message,trig "$1" |
		sed -n 's/.*text="marker \([0-9]*\)"$/m\1/p; s/.*text="fire \([0-9]*\)"$/fire\1/p' |
		tr '\n' ' '
}

# mrange FROM TO: "mFROM ... mTO"
mrange() { seq -s ' ' "$1" "$2" | sed 's/\([0-9][0-9]*\)/m\1/g'; }

main() {
	local n last=(0 40 80 100)

	LTT_APPEND="ltt.timeout=300 ${LTT_APPEND:-}" \
		boot_guest_script snapshot-test.sh "$DISK" 256M
	rm -rf "$OUT"
	mkdir -p "$OUT"
	tar -xf "$DISK" -C "$OUT" ||
		die "no snapshots on $DISK: see build/boot-$LTT_FLAVOUR.log"
	for n in 1 2 3; do
		E2E_REQUIRE=user_message "$LTT_ROOT/tools-ltt/tests/e2e.sh" \
			"$OUT/flight/snapshot-$n" "$LTT" ||
			die "snapshot-$n: babeltrace2 and ltt report disagree"
		[[ $(markers "$OUT/flight/snapshot-$n") == "$(seq -s ' ' 1 "${last[n]}") " ]] ||
			die "snapshot-$n: markers $(markers "$OUT/flight/snapshot-$n"), expected 1..${last[n]}"
	done
	log "host: the 3 snapshots read the same with babeltrace2 and ltt report, markers 1..40, 1..80, 1..100 in order"

	# lttd --snapshot-on trig: a snapshot for each trig, then exit's
	local want=("" "$(mrange 1 20) fire1"
		    "$(mrange 1 20) fire1 $(mrange 21 30) fire2"
		    "$(mrange 1 20) fire1 $(mrange 21 30) fire2 $(mrange 31 35)")
	[[ $(ls "$OUT/trig" | grep -c '^snapshot-') == 3 ]] ||
		die "trig: snapshots $(ls "$OUT/trig" | tr '\n' ' '), expected snapshot-1..3"
	for n in 1 2; do
		grep -q "^lttd: snapshot $n (event trig): /tmp/trig/snapshot-$n: " "$OUT/trig/lttd.err" ||
			die "trig: snapshot $n's reason is not event trig (see $OUT/trig/lttd.err)"
	done
	for n in 1 2 3; do
		E2E_REQUIRE="user_message trig" "$LTT_ROOT/tools-ltt/tests/e2e.sh" \
			"$OUT/trig/snapshot-$n" "$LTT" ||
			die "trig/snapshot-$n: babeltrace2 and ltt report disagree"
		[[ $(marks "$OUT/trig/snapshot-$n") == "${want[n]} " ]] ||
			die "trig/snapshot-$n: \"$(marks "$OUT/trig/snapshot-$n")\", expected \"${want[n]}\""
	done
	log "host: --snapshot-on trig: snapshots 1 and 2 (event trig) and 3 (exit) read the same with babeltrace2 and ltt report, each trig after the markers before it"
}

main "$@"; exit
