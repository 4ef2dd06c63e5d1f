#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A static C library for an architecture whose Debian libc was built by a
# compiler that miscompiles it (sh4: Debian's static glibc hangs in its
# own start code), built from Debian's musl source with a mended compiler:
#
#   scripts/toolchain/musl.sh TRIPLET [CFLAG...]
#                                    e.g. sh4-linux-gnu -B build/toolchain/X/
#
# prints the directory it is installed in; TRIPLET-gcc CFLAG... -specs
# DIR/lib/musl-gcc.specs compiles and links against it.  Built once into
# build/toolchain/musl-TRIPLET-HASH/, HASH of the source, the compiler
# flags and this script.  The source comes from the deb-src twins of the
# machine's own apt sources (no host name here), fetched into
# build/toolchain/apt/; cold, under two minutes.

source "$(dirname "$0")/../lib.sh"

# Debian's musl source, unpacked with Debian's patches, into $1/musl-*;
# prints that directory.
musl_source() {
	local top=$1 apt=$1/apt f
	local -a opts

	f=$(ls -d "$top"/musl-[0-9]*/ 2>/dev/null | head -1)
	if [[ -n $f ]]; then
		echo "${f%/}"
		return 0
	fi
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" \
		"$apt/sources.list.d"
	# deb-src lines for the deb ones of the machine's sources, both
	# formats.
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		sed 's/^Types:.*\bdeb\b.*/Types: deb-src/' "$f" \
			>"$apt/sources.list.d/${f##*/}"
	done
	if [[ -f /etc/apt/sources.list ]]; then
		sed -n 's/^deb\s/deb-src /p' /etc/apt/sources.list \
			>"$apt/sources.list.d/sources.list"
	fi
	opts=(-o Dir::Etc::sourcelist=/dev/null
	      -o Dir::Etc::sourceparts="$apt/sources.list.d"
	      -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
	      -o APT::Sandbox::User=root)
	log "fetching Debian's musl source into $top"
	apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
		die "apt-get update of the deb-src lists failed: see $apt/update.log"
	(cd "$top" && apt-get "${opts[@]}" source musl) >"$apt/source.log" 2>&1 ||
		die "apt-get source musl failed: see $apt/source.log"
	f=$(ls -d "$top"/musl-[0-9]*/ 2>/dev/null | head -1)
	[[ -n $f ]] || die "no musl source in $top (see $apt/source.log)"
	echo "${f%/}"
}

main() {
	local triplet=${1:?usage: musl.sh TRIPLET [CFLAG...]} top=$LTT_BUILD/toolchain
	local src hash dir

	shift
	mkdir -p "$top"
	src=$(musl_source "$top")
	hash=$( (echo "$src $triplet $*"; cat "$0") | sha256sum | cut -c1-12)
	dir=$top/musl-$triplet-$hash
	if [[ -f $dir/lib/musl-gcc.specs ]]; then
		echo "$dir"
		return 0
	fi
	log "building ${src##*/} for $triplet in $dir"
	rm -rf "$dir"
	mkdir -p "$dir/obj"
	# Static only: the guests' programs are linked static.
	(cd "$dir/obj" && "$src/configure" --target="$triplet" --prefix="$dir" \
		--disable-shared --enable-wrapper=gcc CC="$triplet-gcc $*") \
		>"$dir/configure.log" 2>&1 ||
		die "configure failed: see $dir/configure.log"
	make -C "$dir/obj" -j"$LTT_JOBS" >"$dir/make.log" 2>&1 ||
		die "make failed: see $dir/make.log"
	make -C "$dir/obj" install >>"$dir/make.log" 2>&1 ||
		die "make install failed: see $dir/make.log"
	rm -rf "$dir/obj"
	echo "$dir"
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
