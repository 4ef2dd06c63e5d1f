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
EXTRA=$LTT_BUILD/watch-test-root

# What the guest's culprits need beyond busybox: ltt-fsops (static), and
# coreutils' install with its shared libraries (busybox-static has no
# install applet).
build_extra() {
	local lib

	rm -rf "$EXTRA"
	mkdir -p "$EXTRA/usr/bin"
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static \
		-o "$EXTRA/usr/bin/ltt-fsops" "$LTT_ROOT/scripts/watch/ltt-fsops.c" ||
		die "scripts/watch/ltt-fsops.c does not build"
	[[ -x /usr/bin/install ]] || die "/usr/bin/install missing (coreutils)"
	install -m 755 /usr/bin/install "$EXTRA/usr/bin/install"
	for lib in $(ldd /usr/bin/install | grep -o '/[^ ]*'); do
		install -D -m 755 "$lib" "$EXTRA$lib"
	done
}

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
	build_extra
	export LTT_INITRAMFS_EXTRA=$EXTRA
	boot_guest_script watch-test.sh "$DISK" 256M
	rm -rf "$OUT"
	mkdir -p "$OUT"
	tar -xf "$DISK" -C "$OUT" ||
		die "no results on $DISK: see build/boot-$LTT_FLAVOUR.log"
	host_replay
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
