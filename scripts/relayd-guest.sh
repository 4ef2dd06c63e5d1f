#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lttd streaming the real kernel's trace to lttng-relayd, in the guest, on
# its loopback (scripts/guest/relayd.sh): Debian's lttng-relayd and
# babeltrace2, with their libraries and plugins, are copied into the
# initramfs; then, on the host, relayd's trace must equal lttd's local one
# event for event, and the live viewer must have seen events while lttd ran.
#
#   scripts/relayd-guest.sh    (make relayd-guest)

source "$(dirname "$0")/lib.sh"

DISK=$LTT_BUILD/relayd.img
OUT=$LTT_BUILD/relayd-guest
EXTRA=$LTT_BUILD/relayd-initramfs

# $1 and every shared library it needs, at their paths, under $EXTRA.
copy_with_libs() {
	local f

	for f in "$1" $(ldd "$1" | awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		[[ -e $EXTRA$f ]] || cp -L --parents "$f" "$EXTRA/"
	done
}

main() {
	local plugins=/usr/lib/x86_64-linux-gnu/babeltrace2/plugins p local_ relay

	rm -rf "$EXTRA"
	mkdir -p "$EXTRA"
	copy_with_libs /usr/bin/lttng-relayd
	copy_with_libs /usr/bin/babeltrace2
	for p in "$plugins"/babeltrace-plugin-{ctf,text,utils}.so; do
		copy_with_libs "$p"
	done
	LTT_INITRAMFS_EXTRA=$EXTRA LTT_BOOT_TIMEOUT=${LTT_BOOT_TIMEOUT:-600} \
		boot_guest_script relayd.sh "$DISK" 64M
	rm -rf "$OUT"
	mkdir -p "$OUT"
	tar -xf "$DISK" -C "$OUT" ||
		die "no results on $DISK: see build/boot-$LTT_FLAVOUR.log"
	local_=$OUT/relayd-test/local
	relay=$(ls -d "$OUT"/relayd-test/relayd/guest/demo-* | head -1)
	[[ -f $local_/metadata && -f $relay/metadata ]] ||
		die "no trace: $(cat "$OUT"/relayd-test/lttd.err)"
	local n m live seen lags median
	n=$(babeltrace2 "$local_" | wc -l)
	m=$(babeltrace2 "$relay" | wc -l)
	live=$(wc -l <"$OUT/relayd-test/live.txt")
	seen=$(cat "$OUT/relayd-test/seen-while-running")
	log "local trace $n events, relayd's $m, live viewer $live ($seen while lttd ran)"
	cmp -s <(babeltrace2 "$local_") <(babeltrace2 "$relay") ||
		die "relayd's trace ($relay) differs from lttd's local one ($local_)"
	cmp -s <("$LTT_ROOT/tools-ltt/build/ltt" report "$local_") \
		<("$LTT_ROOT/tools-ltt/build/ltt" report "$relay") ||
		die "ltt report reads relayd's trace otherwise than the local one"
	((seen > 0)) || die "the live viewer saw nothing while lttd ran"
	[[ -z $(sort "$OUT/relayd-test/live.txt" | comm -23 - <(babeltrace2 --no-delta --clock-cycles "$local_" | sort)) ]] ||
		die "the live viewer printed events the trace does not hold"
	# how far behind the view ran: now - the newest event's time, sampled
	# (a line still being written is no sample)
	lags=$(awk 'NF == 2 && length($2) == 20 { printf "%d\n", ($1 * 1e9 - $2) / 1e6 }' "$OUT/relayd-test/lag" | sort -n)
	median=$(sed -n "$((($(wc -l <<<"$lags") + 1) / 2))p" <<<"$lags")
	log "the live view ran behind by $median ms (median of $(wc -l <<<"$lags") samples), $(tail -1 <<<"$lags") ms at most"
	((${median:-99999} < 2000)) || die "the live view ran more than 2 s behind"
	log "PASS: relayd's trace = the local trace ($n events); live: $live events"
}

main "$@"; exit
