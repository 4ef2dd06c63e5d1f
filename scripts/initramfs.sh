#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the test initramfs: build/initramfs-$LTT_FLAVOUR.cpio.gz
#   /init          scripts/guest-init
#   /bin/busybox   from busybox-static, with its applet links
#   /ltt/          the selftests of selftests/Makefile, static, built
#                  against the kernel's own uapi headers; /ltt/tests lists
#                  them in run order
#   /usr/bin/      the contents of build/tools-static/, when it exists
#   /usr/share/ltt/scripts/  the scripts of `ltt watch` (tools-ltt/scripts)
#   /usr/bin/NAME  scripts/guest/NAME.c, static: what the guest scripts
#                  need that busybox lacks (udp-ping)
#   /              the contents of $LTT_INITRAMFS_EXTRA, when set (a
#                  directory: scripts/bench.sh adds its guest program)
# Needs scripts/kernel.sh to have run for this flavour.

source "$(dirname "$0")/lib.sh"

HDR=$LTT_BUILD/hdr-$LTT_FLAVOUR
TESTS_OUT=$LTT_BUILD/selftests-$LTT_FLAVOUR
ROOTFS=$LTT_BUILD/initramfs-$LTT_FLAVOUR.d
CPIO=$LTT_BUILD/initramfs-$LTT_FLAVOUR.cpio.gz
SELFTESTS=$LTT_ROOT/selftests

# The value of make variable $1 in selftests/Makefile (lib.mk left out).
selftests_var() {
	sed '/^include /d' "$SELFTESTS/Makefile" |
		make -s --no-print-directory -f - -f <(printf '__print:\n\t@echo $(%s)\n' "$1") \
			KHDR_INCLUDES= __print
}

# Compile selftests/$1.c to $TESTS_OUT/$1: ccache for the object, then a
# static link (ccache caches no links).
build_test() {
	local name=$1 ldlibs=$2

	ccache gcc -c -O2 -Wall -I "$HDR/include" \
		-I "$KTREE/tools/testing/selftests" -I "$SELFTESTS" \
		-o "$TESTS_OUT/$name.o" "$SELFTESTS/$name.c" ||
		die "selftests/$name.c does not build against the series' headers ($HDR): is the series up to date (make patches)?"
	# shellcheck disable=SC2086
	gcc -static -pthread -o "$TESTS_OUT/$name" "$TESTS_OUT/$name.o" $ldlibs
}

# Build the selftests into $TESTS_OUT; their run order into $TESTS_OUT/tests.
build_selftests() {
	local progs extended scripts ldlibs name

	rm -rf "$TESTS_OUT"
	mkdir -p "$TESTS_OUT"
	: >"$TESTS_OUT/tests"
	if [[ ! -f $SELFTESTS/Makefile ]]; then
		log "warning: no selftests/Makefile: the initramfs has no tests"
		return 0
	fi
	log "installing the kernel headers to $HDR"
	kmake -s headers_install INSTALL_HDR_PATH="$HDR"
	progs=$(selftests_var TEST_GEN_PROGS)
	extended=$(selftests_var TEST_GEN_PROGS_EXTENDED)
	scripts=$(selftests_var TEST_PROGS)
	ldlibs=$(selftests_var LDLIBS)
	for name in $progs $extended; do
		if [[ ! -f $SELFTESTS/$name.c ]]; then
			log "warning: selftests/Makefile lists $name but selftests/$name.c does not exist: skipped"
			continue
		fi
		build_test "$name" "$ldlibs"
		rm "$TESTS_OUT/$name.o"
		if [[ " $progs " == *" $name "* ]]; then
			echo "$name" >>"$TESTS_OUT/tests"
		fi
	done
	for name in $scripts; do
		install -m 755 "$SELFTESTS/$name" "$TESTS_OUT/$name"
		echo "$name" >>"$TESTS_OUT/tests"
	done
	if [[ -f $SELFTESTS/settings ]]; then
		cp "$SELFTESTS/settings" "$TESTS_OUT/settings"
	fi
	log "selftests:" $(cat "$TESTS_OUT/tests")
}

# busybox-static and its applet links.
install_busybox() {
	local applet

	[[ -x /bin/busybox ]] || die "/bin/busybox missing: run scripts/deps.sh (busybox-static)"
	ldd /bin/busybox >/dev/null 2>&1 &&
		die "/bin/busybox is dynamically linked: install busybox-static (scripts/deps.sh)"
	install -D -m 755 /bin/busybox "$ROOTFS/bin/busybox"
	for applet in $(/bin/busybox --list-full); do
		[[ -e $ROOTFS/$applet ]] && continue
		mkdir -p "$ROOTFS/$(dirname "$applet")"
		ln -s /bin/busybox "$ROOTFS/$applet"
	done
}

make_rootfs() {
	local c

	rm -rf "$ROOTFS"
	mkdir -p "$ROOTFS"/{dev,proc,sys,tmp,root,etc,usr/bin,ltt}
	install_busybox
	install -m 755 "$LTT_ROOT/scripts/guest-init" "$ROOTFS/init"
	printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
		'nobody:x:65534:65534:nobody:/nonexistent:/bin/false' >"$ROOTFS/etc/passwd"
	printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' >"$ROOTFS/etc/group"
	cp -a "$TESTS_OUT/." "$ROOTFS/ltt/"
	# Modules the selftests load sit beside them (samples/ltt/).
	find "$KOBJ/samples/ltt" -name '*.ko' -exec install -m 644 {} "$ROOTFS/ltt/" \; 2>/dev/null || true
	# Guest scripts (the demo, end-to-end recordings): /ltt/NAME.sh.
	install -m 755 "$LTT_ROOT"/scripts/guest/*.sh "$ROOTFS/ltt/"
	if [[ -d $LTT_BUILD/tools-static ]]; then
		cp -a "$LTT_BUILD/tools-static/." "$ROOTFS/usr/bin/"
	fi
	for c in "$LTT_ROOT"/scripts/guest/*.c; do
		gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static \
			-o "$ROOTFS/usr/bin/$(basename "$c" .c)" "$c" ||
			die "$c does not build"
	done
	# Where `ltt watch NAME` finds the scripts that ship.
	install -D -m 644 -t "$ROOTFS/usr/share/ltt/scripts" \
		"$LTT_ROOT"/tools-ltt/scripts/*.lua
	if [[ -n ${LTT_INITRAMFS_EXTRA:-} ]]; then
		cp -a "$LTT_INITRAMFS_EXTRA/." "$ROOTFS/"
	fi
	# The kernel opens /dev/console for init before anything is mounted.
	if [[ $(id -u) == 0 ]]; then
		mknod -m 600 "$ROOTFS/dev/console" c 5 1
	fi
}

main() {
	local start=$SECONDS

	[[ -f $KOBJ/.config ]] ||
		die "no kernel for flavour $LTT_FLAVOUR: run scripts/kernel.sh first"
	lock_flavour
	build_selftests
	make_rootfs
	(cd "$ROOTFS" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc -R 0:0 --quiet) | gzip -9n >"$CPIO.tmp"
	mv "$CPIO.tmp" "$CPIO"
	log "built $CPIO ($(du -h "$CPIO" | cut -f1)) in $(elapsed $start)"
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
