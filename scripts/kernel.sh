#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the traced kernel, incrementally:
#   build/kobj-$LTT_FLAVOUR/arch/x86/boot/bzImage
#
# 1. Extract the pristine 6.12 source when missing (or use KSRC).
# 2. When series or patches/ changed: apply the series with no fuzz to a
#    hard-linked staged copy of the pristine tree, then copy into
#    build/ktree-$LTT_FLAVOUR only the files whose content differs, so that
#    unchanged files keep their mtimes and make rebuilds only what changed.
# 3. When a config fragment or the series changed: tinyconfig, then
#    scripts/config/ltt.config, scripts/config/$LTT_FLAVOUR.config and
#    selftests/config merged on top; a later fragment wins.  A flavour's
#    fragment may say, in lines of its own:
#      "# ltt-rig: no selftests/config"  no selftests, none of their
#                                        options (bench, noltt, deb)
#      "# ltt-rig: no ltt.config"        not the test machine's options
#      "# ltt-rig: base TARGET"          make TARGET (defconfig), not
#                                        tinyconfig; LTT_BASE_CONFIG=FILE
#                                        starts from that .config instead
#      "# ltt-rig: also FILE"            merge FILE (from the top of the
#                                        tree) before the flavour's own
# 4. make bzImage out of tree, through ccache.
#
#   scripts/kernel.sh           all of it
#   scripts/kernel.sh --tree    steps 1 and 2 only (for cross.sh)
#   scripts/kernel.sh --config  steps 1 to 3 (for kernel-deb.sh)

source "$(dirname "$0")/lib.sh"

STAGE=$LTT_BUILD/stage-$LTT_FLAVOUR

ensure_pristine() {
	if [[ -n ${KSRC:-} ]]; then
		[[ -f $KSRC/Makefile && -d $KSRC/kernel ]] ||
			die "KSRC=$KSRC is not a Linux source tree"
		return
	fi
	[[ -d $PRISTINE ]] && return
	[[ -f $LTT_TARBALL ]] ||
		die "$LTT_TARBALL is missing: run scripts/deps.sh (linux-source-6.12)"
	log "extracting $LTT_TARBALL to $PRISTINE"
	rm -rf "$PRISTINE.tmp"
	mkdir -p "$PRISTINE.tmp"
	tar -xf "$LTT_TARBALL" -C "$PRISTINE.tmp" --strip-components=1
	mv "$PRISTINE.tmp" "$PRISTINE"
}

# A fresh ktree (and kobj) whenever the pristine source is not the one the
# tree was made from: mtimes from another source would fool make.
ensure_ktree() {
	local source
	source=$(realpath "$PRISTINE")
	if [[ -d $KTREE && $(cat "$STAMPS/source" 2>/dev/null) == "$source" ]]; then
		return
	fi
	log "copying $source to $KTREE"
	rm -rf "$KTREE" "$KTREE.tmp" "$KOBJ" "$STAMPS"
	mkdir -p "$STAMPS"
	rsync -a --exclude=/.git "$source/" "$KTREE.tmp/"
	mv "$KTREE.tmp" "$KTREE"
	: >"$STAMPS/tree.files"
	echo "$source" >"$STAMPS/source"
}

# Paths the patches name in their headers, one a line (maybe a few more).
series_paths() {
	series_patches | while read -r p; do
		sed -n -E -e 's@^(---|\+\+\+) [^/]*/([^[:space:]]+).*@\2@p' \
			-e 's@^diff --git [^/]*/([^ ]+) [^/]*/([^ ]+)$@\1\n\2@p' \
			"$LTT_ROOT/patches/$p"
	done | sort -u
}

# $STAGE = pristine tree + the series.  Hard links make the copy cheap;
# the files the series touches get their own copies first, because quilt
# moves the originals to .pc/ and sets their mtimes.
stage_series() {
	local f

	rm -rf "$STAGE"
	cp -al "$PRISTINE/." "$STAGE" 2>/dev/null || {
		rm -rf "$STAGE"
		rsync -a --exclude=/.git "$PRISTINE/" "$STAGE/"
	}
	[[ -n $(series_patches) ]] || return 0
	series_paths | while read -r f; do
		[[ -f $STAGE/$f ]] || continue
		cp -p "$PRISTINE/$f" "$STAGE/$f.ltt-copy"
		mv "$STAGE/$f.ltt-copy" "$STAGE/$f"
	done
	ln -s "$LTT_ROOT/patches" "$STAGE/patches"
	cp "$LTT_ROOT/series" "$STAGE/series"
	(cd "$STAGE" && quilt --quiltrc - push -a -q --fuzz=0) ||
		die "the series does not apply to $PRISTINE with no fuzz: fix the patch named above (make patches)"
}

# Files the staged series touches, one a line.
staged_files() {
	[[ -n $(series_patches) ]] || return 0
	(cd "$STAGE" && quilt --quiltrc - files -a) | sort -u
}

# Make $KTREE/$1 equal to $STAGE/$1; new content gets a new mtime.
sync_file() {
	local src=$STAGE/$1 dst=$KTREE/$1

	if [[ -f $src ]]; then
		cmp -s "$src" "$dst" && return 0
		mkdir -p "$(dirname "$dst")"
		rm -f "$dst"
		cp --preserve=mode "$src" "$dst"
		echo "  updated $1"
	elif [[ -e $dst ]]; then
		rm -f "$dst"
		echo "  removed $1"
	fi
}

update_ktree() {
	local hash files=$STAMPS/tree.files

	hash=$(series_hash)
	[[ $(cat "$STAMPS/tree.hash" 2>/dev/null) == "$hash" ]] && return 0
	log "applying the series ($(series_patches | wc -l) patches)"
	stage_series
	staged_files >"$files.new"
	# Old and new files both: the series may have stopped touching some.
	sort -u "$files" "$files.new" >"$files.all"
	mv "$files.all" "$files"
	while read -r f; do
		sync_file "$f"
	done <"$files"
	mv "$files.new" "$files"
	echo "$hash" >"$STAMPS/tree.hash"
	rm -rf "$STAGE"
}

# Config fragments of this flavour, in merge order: a later one wins.
fragments() {
	local flavour=$LTT_ROOT/scripts/config/$LTT_FLAVOUR.config f

	if [[ $LTT_FLAVOUR == default ]] || ! rig_says 'no ltt.config'; then
		echo "$LTT_ROOT/scripts/config/ltt.config"
	fi
	if [[ $LTT_FLAVOUR != default ]]; then
		[[ -f $flavour ]] ||
			die "unknown flavour $LTT_FLAVOUR: no scripts/config/$LTT_FLAVOUR.config"
		sed -n 's/^# ltt-rig: also //p' "$flavour" | while read -r f; do
			[[ -f $LTT_ROOT/$f ]] || die "$flavour: no $f"
			echo "$LTT_ROOT/$f"
		done
		echo "$flavour"
		rig_says 'no selftests/config' && return
	fi
	if [[ -f $LTT_ROOT/selftests/config ]]; then
		echo "$LTT_ROOT/selftests/config"
	fi
}

# Does the flavour's fragment have the line "# ltt-rig: $1"?
rig_says() {
	local flavour=$LTT_ROOT/scripts/config/$LTT_FLAVOUR.config

	[[ -f $flavour ]] && grep -qx "# ltt-rig: $1" "$flavour"
}

# The configuration the fragments go on: a make target (tinyconfig, or
# the flavour's "# ltt-rig: base TARGET"), or LTT_BASE_CONFIG's file.
base_config() {
	local flavour=$LTT_ROOT/scripts/config/$LTT_FLAVOUR.config base=

	if [[ -n ${LTT_BASE_CONFIG:-} ]]; then
		echo "file $LTT_BASE_CONFIG"
		return
	fi
	if [[ -f $flavour ]]; then
		base=$(sed -n 's/^# ltt-rig: base //p' "$flavour" | tail -n 1)
	fi
	echo "target ${base:-tinyconfig}"
}

# Is CONFIG_$1 defined by some Kconfig file of the tree?
kconfig_defines() {
	grep -rqE --include='Kconfig*' "^[[:space:]]*(menu)?config[[:space:]]+$1\$" \
		"$KTREE"
}

# Every option of the fragments must have its value in .config (the last
# fragment's value, as merged), unless the tree does not define it (yet):
# CONFIG_LTT before the series adds it.
check_config() {
	local line sym want have bad=0
	local -A wanted=()
	local -a syms=()

	while read -r line; do
		if [[ $line =~ ^CONFIG_([A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]} want=${BASH_REMATCH[2]}
		elif [[ $line =~ ^#\ CONFIG_([A-Za-z0-9_]+)\ is\ not\ set ]]; then
			sym=${BASH_REMATCH[1]} want=n
		else
			continue
		fi
		[[ -v wanted[$sym] ]] || syms+=("$sym")
		wanted[$sym]=$want
	done < <(cat "${FRAGMENTS[@]}")
	for sym in "${syms[@]}"; do
		want=${wanted[$sym]}
		have=$(sed -n "s/^CONFIG_$sym=//p" "$KOBJ/.config")
		[[ ${have:-n} == "$want" ]] && continue
		if kconfig_defines "$sym"; then
			log "CONFIG_$sym=${have:-n}, wanted $want: a dependency is missing"
			bad=1
		else
			log "warning: CONFIG_$sym is not defined by this tree (yet)"
		fi
	done
	((bad == 0)) ||
		die "config fragments not satisfied: add the dependencies to scripts/config/*.config (see make O=$KOBJ menuconfig, search with /)"
}

configure() {
	local hash

	local base how what

	base=$(base_config)
	read -r how what <<<"$base"
	if [[ $how == file ]]; then
		[[ -f $what ]] || die "LTT_BASE_CONFIG=$what: no such file"
	fi
	# (tinyconfig, the first base, is not in the hash: trees configured
	# before there were others stay configured.)
	hash=$( { [[ $base == "target tinyconfig" ]] || echo "$base";
		[[ $how != file ]] || cat "$what";
		cat "${FRAGMENTS[@]}" "$STAMPS/tree.hash"; gcc --version; } | sha256sum)
	if [[ -f $KOBJ/.config && $(cat "$STAMPS/config.hash" 2>/dev/null) == "$hash" ]]; then
		return 0
	fi
	log "configuring $KOBJ: ${what##*/} + ${FRAGMENTS[*]#"$LTT_ROOT"/}"
	mkdir -p "$KOBJ"
	if [[ $how == file ]]; then
		cp "$what" "$KOBJ/.config"
		# A distribution's config names its own signing keys (Debian's
		# debian/certs/...), which this tree does not have.
		"$KTREE/scripts/config" --file "$KOBJ/.config" \
			--set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS "" \
			--set-str MODULE_SIG_KEY certs/signing_key.pem
	else
		kmake -s "$what"
	fi
	(cd "$KTREE" && scripts/kconfig/merge_config.sh -m -O "$KOBJ" \
		"$KOBJ/.config" "${FRAGMENTS[@]}") >"$STAMPS/merge_config.log"
	kmake -s olddefconfig
	check_config
	echo "$hash" >"$STAMPS/config.hash"
}

main() {
	local start=$SECONDS frags

	frags=$(fragments)
	mapfile -t FRAGMENTS <<<"$frags"
	lock_flavour
	ensure_pristine
	ensure_ktree
	update_ktree
	if [[ ${1:-} == --tree ]]; then
		return 0
	fi
	configure
	if [[ ${1:-} == --config ]]; then
		return 0
	fi
	log "building $KOBJ (-j$LTT_JOBS)"
	kmake bzImage
	# The sample modules the selftests load (samples/ltt/).
	if grep -q '^CONFIG_MODULES=y' "$KOBJ/.config"; then
		kmake modules
	fi
	log "built $KOBJ/arch/x86/boot/bzImage in $(elapsed $start)"
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
