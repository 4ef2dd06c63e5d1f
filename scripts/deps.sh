#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages the LTT rig, tools and tests need.
# Fast when everything is there: apt runs only for missing packages.

source "$(dirname "$0")/lib.sh"

PACKAGES=(
	# kernel build and the series
	linux-source-6.12 gcc make libc6-dev flex bison bc libelf-dev
	libssl-dev cpio kmod rsync python3 perl xz-utils gzip patch quilt
	ccache pahole git
	# guest
	qemu-system-x86 busybox-static
	# build matrix
	gcc-i686-linux-gnu gcc-powerpc-linux-gnu gcc-sh4-linux-gnu
	gcc-s390x-linux-gnu gcc-mips-linux-gnu gcc-arm-linux-gnueabihf
	# tools-ltt and their tests
	libcmocka-dev liblua5.4-dev babeltrace2
	# ltt view's test (make -C tools-ltt view-test): a real browser
	chromium
)

# The packages of "$@" that are not installed.
missing_packages() {
	local p status
	for p in "$@"; do
		status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) || true
		[[ $status == installed ]] || echo "$p"
	done
}

main() {
	local missing
	missing=$(missing_packages "${PACKAGES[@]}")
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
