#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the kernel's scripts/checkpatch.pl --strict on every patch of the
# series.  Any error, warning or check fails.

source "$(dirname "$0")/lib.sh"

main() {
	local p out bad=0 n=0

	# checkpatch.pl comes with the kernel: extract it if need be.
	"$LTT_ROOT/scripts/kernel.sh" --tree >/dev/null
	[[ -x $PRISTINE/scripts/checkpatch.pl ]] ||
		die "$PRISTINE/scripts/checkpatch.pl not found: set KSRC to a 6.12 tree"
	while read -r p; do
		n=$((n + 1))
		if out=$(cd "$PRISTINE" && scripts/checkpatch.pl --strict \
			--color=never "$LTT_ROOT/patches/$p" 2>&1); then
			echo "checkpatch: $p: clean"
		else
			echo "$out"
			echo "checkpatch: $p: NOT clean"
			bad=$((bad + 1))
		fi
	done < <(series_patches)
	((n > 0)) || die "the series is empty: run make patches"
	echo "checkpatch: $((n - bad)) passed, $bad failed"
	((bad == 0))
}

main "$@"
