# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers of the LTT rig scripts.  Source it; do not run it.
#
# Environment understood by every script:
#   LTT_FLAVOUR  build flavour: default, debug (adds scripts/config/debug.config)
#                or any NAME with a scripts/config/NAME.config
#   KSRC         pristine Linux 6.12 tree to use instead of Debian's
#                linux-source-6.12 (never modified)
#   LTT_JOBS     parallel make jobs (default: number of CPUs)

set -euo pipefail

LTT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LTT_BUILD=$LTT_ROOT/build
LTT_FLAVOUR=${LTT_FLAVOUR:-default}
LTT_JOBS=${LTT_JOBS:-$(nproc)}
LTT_TARBALL=/usr/src/linux-source-6.12.tar.xz

PRISTINE=${KSRC:-$LTT_BUILD/pristine-6.12}
KTREE=$LTT_BUILD/ktree-$LTT_FLAVOUR
KOBJ=$LTT_BUILD/kobj-$LTT_FLAVOUR
STAMPS=$LTT_BUILD/stamps-$LTT_FLAVOUR

export CCACHE_DIR=$LTT_BUILD/ccache
# Paths relative to the build directory: trees of all flavours share hits.
export CCACHE_BASEDIR=$LTT_BUILD
export KBUILD_BUILD_USER=ltt KBUILD_BUILD_HOST=rig

# Progress and errors, prefixed with the name of the running script.
log() { echo "$(basename "$0"): $*" >&2; }
die() { log "error: $*"; exit 1; }

# make in the patched tree, out of tree, through ccache.
kmake() {
	make -C "$KTREE" O="$KOBJ" CC="ccache gcc" HOSTCC="ccache gcc" \
		-j"$LTT_JOBS" "$@"
}

# Serialise the scripts working on one flavour (fd 9 stays open until exit).
lock_flavour() {
	mkdir -p "$LTT_BUILD"
	exec 9>"$LTT_BUILD/.lock-$LTT_FLAVOUR"
	if ! flock -n 9; then
		log "waiting for another build of flavour $LTT_FLAVOUR"
		flock 9
	fi
}

# Patch names in the series, one a line: comments, blanks and options dropped.
series_patches() {
	[[ -f $LTT_ROOT/series ]] || return 0
	sed -e 's/#.*//' "$LTT_ROOT/series" | awk 'NF { print $1 }'
}

# A hash of the series as it would be applied: its list and every patch.
series_hash() {
	{
		echo "pristine: $(realpath "$PRISTINE")"
		series_patches | while read -r p; do
			[[ -f $LTT_ROOT/patches/$p ]] ||
				die "series lists $p but patches/$p is missing: run make patches"
			echo "$p $(sha256sum <"$LTT_ROOT/patches/$p")"
		done
	} | sha256sum | cut -d' ' -f1
}

# Wall-clock seconds since $1 (a value of $SECONDS).
elapsed() { echo "$((SECONDS - $1))s"; }

# Copy stdin to stdout without the linker's expected warnings about a
# static program calling getaddrinfo() or dlopen() (lttd's relayd
# client, Lua's loader), each with its "in function" line before it.
quiet_static_link() {
	awk '/: in function `.*'"'"':$/ { held = $0; next }
	     /statically linked applications requires at runtime/ { held = ""; next }
	     { if (held != "") print held; held = ""; print }
	     END { if (held != "") print held }'
}

# Build the tools, the kernel and the initramfs, then boot the guest to
# run scripts/guest/$1 with a fresh raw disk $2 of size $3, on which the
# guest script leaves its results as a tar archive (demo, watch-test).
boot_guest_script() {
	local script=$1 disk=$2 size=$3

	make -C "$LTT_ROOT/tools-ltt" -s all static 2>&1 | quiet_static_link
	"$LTT_ROOT/scripts/kernel.sh"
	"$LTT_ROOT/scripts/initramfs.sh"
	rm -f "$disk"
	truncate -s "$size" "$disk"
	LTT_APPEND="ltt.script=$script ${LTT_APPEND:-}" \
	LTT_QEMU_ARGS="-drive file=$disk,format=raw,if=virtio ${LTT_QEMU_ARGS:-}" \
		"$LTT_ROOT/scripts/boot.sh"
}
