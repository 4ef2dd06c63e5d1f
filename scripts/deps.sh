#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages the LTT rig, tools and tests need.
# Fast when everything is there: apt runs only for missing packages.
#
#   scripts/deps.sh [GROUP...]   the packages of those groups; none: all
#
# Groups: tools (build and test tools-ltt), deb (the tools' Debian
# packages and their test, with tools), kernel (build the traced kernel
# and its Debian packages), guest (boot it under QEMU), cross (the build
# matrix's cross compilers), arch (make check-arch: cross libcs and
# the QEMU of every architecture), view (a browser), bench (make bench's
# compiler); and gcc-source (scripts/toolchain/cc1.sh), which none
# installs.

source "$(dirname "$0")/lib.sh"

declare -A GROUP=(
	# tools-ltt and their tests (lttng-tools: lttng-relayd, make relayd-test;
	# ltt export's test: babeltrace (1), LTTng's analyses, protoc)
	[tools]="gcc make libc6-dev pkgconf libcmocka-dev liblua5.4-dev babeltrace2
		lttng-tools babeltrace python3-lttnganalyses protobuf-compiler"
	# dpkg-buildpackage of debian/, lintian, the clean root of the test
	[deb]="dpkg-dev debhelper lintian debootstrap rsync"
	# kernel build and the series (bindeb-pkg: dpkg-dev)
	[kernel]="linux-source-6.12 gcc make libc6-dev flex bison bc libelf-dev
		libssl-dev openssl cpio kmod rsync python3 perl xz-utils gzip patch quilt
		ccache pahole git dpkg-dev"
	# guest
	[guest]="qemu-system-x86 busybox-static"
	# build matrix
	[cross]="gcc-i686-linux-gnu gcc-powerpc-linux-gnu gcc-sh4-linux-gnu
		gcc-s390x-linux-gnu gcc-mips-linux-gnu gcc-arm-linux-gnueabihf"
	# make check-arch: cross libcs for the static selftests, the machines
	[arch]="gcc-i686-linux-gnu gcc-powerpc-linux-gnu gcc-sh4-linux-gnu
		gcc-s390x-linux-gnu gcc-mips-linux-gnu gcc-arm-linux-gnueabihf
		libc6-dev-i386-cross libc6-dev-powerpc-cross libc6-dev-sh4-cross
		libc6-dev-s390x-cross libc6-dev-mips-cross libc6-dev-armhf-cross
		qemu-system-x86 qemu-system-ppc qemu-system-mips qemu-system-arm
		qemu-system-misc"
	# ltt view's test (make view-test): a real browser
	[view]="chromium"
	# scripts/toolchain/cc1.sh: Debian's GCC source, for a cc1 with a fix
	# Debian's cross compiler lacks (sh4); not in the default groups
	[gcc-source]="gcc-12-source g++ make flex bison libgmp-dev libmpfr-dev
		libmpc-dev zlib1g-dev patch xz-utils"
	# make bench's compile case: a compiler for the guest, and strace to
	# find the headers it opens
	[bench]="tcc strace"
)
# A group needs these too.
declare -A NEEDS=([deb]=tools)

# The packages of the groups "$@" (every group when none), one a line.
group_packages() {
	local g

	(($#)) || set -- tools deb kernel guest cross arch view bench
	for g in "$@"; do
		[[ -v GROUP[$g] ]] || die "no package group $g (${!GROUP[*]})"
		printf '%s\n' ${GROUP[$g]}
		if [[ -v NEEDS[$g] ]]; then
			group_packages ${NEEDS[$g]}
		fi
	done
}

# The packages of "$@" that are not installed.
missing_packages() {
	local p status
	for p in "$@"; do
		status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) || true
		[[ $status == installed ]] || echo "$p"
	done
}

main() {
	local missing packages
	packages=$(group_packages "$@" | sort -u)
	# shellcheck disable=SC2086
	missing=$(missing_packages $packages)
	if [[ -z $missing ]]; then
		return 0
	fi
	log "installing:" $missing
	[[ $(id -u) == 0 ]] ||
		die "missing packages:" $missing "- run scripts/deps.sh as root"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	# shellcheck disable=SC2086
	apt-get install -y --no-install-recommends $missing
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
