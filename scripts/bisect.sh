#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build every prefix of the series, so that it bisects: patches are
# pushed one at a time onto build/ktree-bisect (a copy of the pristine
# tree) and vmlinux is built after each, with the default config
# fragments re-merged every time (a prefix may add Kconfig symbols).

source "$(dirname "$0")/lib.sh"

LTT_FLAVOUR=bisect
KTREE=$LTT_BUILD/ktree-bisect
KOBJ=$LTT_BUILD/kobj-bisect

FRAGMENTS=("$LTT_ROOT/scripts/config/ltt.config")
[[ -f $LTT_ROOT/selftests/config ]] && FRAGMENTS+=("$LTT_ROOT/selftests/config")
FRAGMENTS+=("$LTT_ROOT/scripts/config/bisect.config")

quilt_() { (cd "$KTREE" && quilt --quiltrc - "$@"); }

# A tree with no patch applied, its unchanged files keeping their mtimes.
reset_tree() {
	if [[ -d $KTREE/.pc ]]; then
		quilt_ pop -a -q >/dev/null || true
	fi
	if [[ ! -d $KTREE || -d $KTREE/.pc ]]; then
		# A real copy: quilt would touch the mtimes of hard-linked
		# pristine files.
		log "copying $PRISTINE to $KTREE"
		rm -rf "$KTREE" "$KOBJ"
		rsync -a --exclude=/.git "$PRISTINE/" "$KTREE/"
	fi
	rm -rf "$KTREE/patches" "$KTREE/series"
	ln -s "$LTT_ROOT/patches" "$KTREE/patches"
	cp "$LTT_ROOT/series" "$KTREE/series"
}

configure() {
	[[ -f $KOBJ/.config ]] || kmake -s tinyconfig
	(cd "$KTREE" && scripts/kconfig/merge_config.sh -m -O "$KOBJ" \
		"$KOBJ/.config" "${FRAGMENTS[@]}") >"$KOBJ/merge_config.log"
	kmake -s olddefconfig
}

main() {
	local p n=0 total start

	[[ -d $PRISTINE ]] || die "no pristine tree at $PRISTINE: run make kernel first"
	total=$(series_patches | wc -l)
	((total > 0)) || die "the series is empty: run make patches"
	lock_flavour
	reset_tree
	mkdir -p "$KOBJ"
	while read -r p; do
		n=$((n + 1))
		start=$SECONDS
		quilt_ push -q --fuzz=0 >/dev/null ||
			die "$p does not apply on top of the patches before it"
		configure
		if ! kmake -s vmlinux; then
			echo "bisect: prefix $n/$total (up to $p) does not build"
			echo "bisect: $((n - 1)) passed, 1 failed"
			return 1
		fi
		log "prefix $n/$total builds: $p ($(elapsed $start))"
	done < <(series_patches)
	echo "bisect: $n passed, 0 failed"
}

main "$@"; exit
