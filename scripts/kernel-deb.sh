#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The traced kernel as Debian packages, made by the kernel's own
# `make bindeb-pkg`:
#   build/deb-kernel/linux-image-KVER-ltt_*.deb     the kernel and modules
#   build/deb-kernel/linux-headers-KVER-ltt_*.deb   for out-of-tree modules
#   build/deb-kernel/linux-libc-dev_*.deb           uapi headers, <linux/ltt.h>
#
# The tree is kernel.sh's (the pristine 6.12 source or KSRC, the series
# applied with no fuzz), flavour deb: x86_64_defconfig, or the .config
# LTT_BASE_CONFIG names (a distribution's, e.g. /boot/config-*: its
# signing keys are dropped), then tools-ltt/kernel/ltt.config and
# scripts/config/deb.config.  The package version is KVER-lttVERSION, the
# tools' version (tools-ltt/VERSION).  A full build of a distribution's
# configuration takes hours on two cores; x86_64_defconfig much less.
#
#   scripts/kernel-deb.sh
#   LTT_BASE_CONFIG=/boot/config-$(uname -r) scripts/kernel-deb.sh

export LTT_FLAVOUR=deb
source "$(dirname "$0")/lib.sh"

OUT=$LTT_BUILD/deb-kernel

main() {
	local start=$SECONDS kver pkgver deb

	"$LTT_ROOT/scripts/kernel.sh" --config
	lock_flavour
	kver=$(kmake -s kernelversion)
	pkgver=$kver-ltt$(cat "$LTT_ROOT/tools-ltt/VERSION")
	log "make bindeb-pkg in $KOBJ (-j$LTT_JOBS): linux-image-$kver-ltt $pkgver"
	# The packages land beside the object tree, in build/: moved to $OUT.
	rm -f "$LTT_BUILD"/linux-*_"$pkgver"_*.deb "$LTT_BUILD"/linux-ltt_"$pkgver"_*
	# dpkg-buildpackage -d: bindeb-pkg's control asks for
	# gcc-x86-64-linux-gnu, which Debian's native gcc is (scripts/deps.sh
	# kernel installs what the build needs).
	DEBFULLNAME="LTT maintainers" \
	DEBEMAIL=$(sed -n 's/^Maintainer: .*<\(.*\)>$/\1/p' "$LTT_ROOT/debian/control") \
	KDEB_SOURCENAME=linux-ltt KDEB_PKGVERSION=$pkgver \
	KDEB_CHANGELOG_DIST=$(. /etc/os-release && echo "$VERSION_CODENAME") \
		kmake bindeb-pkg DPKG_FLAGS=-d
	rm -rf "$OUT"
	mkdir -p "$OUT"
	mv "$LTT_BUILD"/linux-*_"$pkgver"_*.deb "$LTT_BUILD"/linux-ltt_"$pkgver"_* "$OUT/"
	for deb in "$OUT"/*.deb; do
		printf '  %-55s %10s bytes\n' "$(basename "$deb")" "$(stat -c %s "$deb")" >&2
	done
	# Not grep -q: dpkg-deb would die of the pipe that grep closed early.
	dpkg-deb -c "$OUT"/linux-libc-dev_*.deb | grep '/usr/include/linux/ltt.h$' >/dev/null ||
		die "linux-libc-dev has no <linux/ltt.h>"
	log "built in $OUT in $(elapsed "$start")"
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
