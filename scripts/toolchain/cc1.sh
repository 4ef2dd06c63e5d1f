#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A cc1 for an architecture whose Debian cross compiler miscompiles the
# kernel, built from Debian's own GCC source with the fixes of
# scripts/toolchain/gcc-12-*.patch:
#
#   scripts/toolchain/cc1.sh TRIPLET     e.g. sh4-linux-gnu
#
# prints the directory holding the cc1; Debian's TRIPLET-gcc driver takes
# it with -B DIR/ (the assembler, linker, headers and libgcc stay
# Debian's).  Built once into build/toolchain/TRIPLET-HASH/, HASH of the
# source and patches, so a new patch builds a new cc1 and ccache, which
# hashes the command line, never mixes the objects of the two.  Needs
# Debian's gcc-12-source (scripts/deps.sh gcc-source); cold, about 25
# minutes of 2 CPUs.  DIR/cc1 is a wrapper of DIR/cc1.bin (see wrap()).

source "$(dirname "$0")/../lib.sh"

# This cc1 knows none of Debian's include directories: $dir/cc1, what
# the driver runs, gives them to $dir/cc1.bin where Debian's own cc1
# would search them (not under -nostdinc, after every -isystem).
wrap() {
	local triplet=$1 dir=$2 d inc=""

	for d in "$("$triplet-gcc" -print-file-name=include)" \
		"$("$triplet-gcc" -print-file-name=include-fixed)" \
		"/usr/$triplet/include"; do
		[[ ! -d $d ]] || inc+=" -isystem $d"
	done
	cat >"$dir/cc1" <<-END
	#!/bin/sh
	# Written by scripts/toolchain/cc1.sh: Debian's include directories.
	case " \$* " in
	*" -nostdinc "*) exec "$dir/cc1.bin" "\$@" ;;
	esac
	exec "$dir/cc1.bin" "\$@"$inc
	END
	chmod +x "$dir/cc1"
}

main() {
	local triplet=${1:?usage: cc1.sh TRIPLET} src=/usr/src/gcc-12 hash dir p
	local -a extra=()

	# The CPU Debian's driver and libraries are built for.
	case $triplet in
	sh4-*) extra=(--with-cpu=sh4 --with-multilib-list=m4,m4-nofpu) ;;
	esac

	[[ -f $src/gcc-12.2.0-dfsg.tar.xz ]] ||
		die "$src/gcc-12.2.0-dfsg.tar.xz is missing: run scripts/deps.sh gcc-source"
	hash=$( (ls -l "$src/gcc-12.2.0-dfsg.tar.xz"; echo "$triplet";
		 cat "$LTT_ROOT"/scripts/toolchain/gcc-12-*.patch "$0") |
		sha256sum | cut -c1-12)
	dir=$LTT_BUILD/toolchain/$triplet-$hash
	if [[ -x $dir/cc1 ]]; then
		echo "$dir"
		return 0
	fi
	log "building a cc1 for $triplet in $dir (about 25 minutes)"
	rm -rf "$dir"
	mkdir -p "$dir/obj"
	tar xf "$src/gcc-12.2.0-dfsg.tar.xz" -C "$dir"
	for p in "$LTT_ROOT"/scripts/toolchain/gcc-12-*.patch; do
		patch -d "$dir/gcc-12.2.0" -p1 -s <"$p" || die "$p does not apply"
	done
	# Only the C compiler proper: the driver, binutils and the target's
	# libraries are Debian's.
	(cd "$dir/obj" && ../gcc-12.2.0/configure --target="$triplet" \
		--prefix="$dir/inst" --enable-languages=c --disable-bootstrap \
		--disable-multilib --disable-nls --disable-werror \
		--without-headers --with-system-zlib --disable-shared \
		--disable-threads --disable-libssp --disable-libquadmath \
		--disable-libgomp --disable-libatomic "${extra[@]}") >"$dir/configure.log" 2>&1 ||
		die "configure failed: see $dir/configure.log"
	make -C "$dir/obj" -j"$LTT_JOBS" all-gcc >"$dir/make.log" 2>&1 ||
		die "make failed: see $dir/make.log"
	cp "$dir/obj/gcc/cc1" "$dir/cc1.bin"
	rm -rf "$dir/obj" "$dir/gcc-12.2.0"
	wrap "$triplet" "$dir"
	echo "$dir"
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
