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
}

main "$@"; exit
