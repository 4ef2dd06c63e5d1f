#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The `ltt watch` test: boot the traced kernel and run
# scripts/guest/watch-test.sh in it, where every script of
# tools-ltt/scripts must name the culprit of a workload, offline and live
# (its checks are the verdict of the boot).  The traces and the outputs
# come back on a raw virtio disk into build/watch-test/, and the host's
# ltt must print, on each trace, what the guest's printed.

source "$(dirname "$0")/lib.sh"

DISK=$LTT_BUILD/watch-test.img
OUT=$LTT_BUILD/watch-test

# Run each case of the guest again with the host's ltt: same output.
host_replay() {
	local out trace script args n=0 bad=0

	[[ -s $OUT/w/cases ]] || die "$OUT/w/cases: the guest noted no case"
	while read -r out trace script args; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		if ! TZ=UTC "$LTT_ROOT/tools-ltt/build/ltt" watch \
			"$LTT_ROOT/tools-ltt/scripts/$script.lua" $args \
			"$OUT/${trace#/tmp/}" 2>&1 | cmp -s - "$OUT/${out#/tmp/}"; then
			log "FAIL: host: $script $args ${trace#/tmp/}: not what the guest printed (${out#/tmp/})"
			bad=$((bad + 1))
		fi
	done <"$OUT/w/cases"
	((bad == 0)) || die "$bad of $n cases print otherwise on the host"
	log "host: the $n cases print what they printed in the guest"
}

main() {
	boot_guest_script watch-test.sh "$DISK" 256M
	rm -rf "$OUT"
	mkdir -p "$OUT"
	tar -xf "$DISK" -C "$OUT" ||
		die "no results on $DISK: see build/boot-$LTT_FLAVOUR.log"
	host_replay
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
