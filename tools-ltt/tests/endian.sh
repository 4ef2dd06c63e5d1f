#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Traces of the other byte order, from the command line: each trace (by
# default every fixture, arch-* guests' included) is converted by
# bswap-trace to the other byte order, and
#   - ltt report, stats, analyze, watch, export and view print the same
#     for both (run on the same path, so that the names they print agree);
#   - babeltrace2 and ltt report agree on the converted trace (e2e.sh);
# then, on the first trace, the hostile case: a stream of the order the
# metadata does not say is an error naming that file, with a non-zero
# exit, and the other stream's events are still printed.
#
#   tests/endian.sh LTT BSWAP_TRACE [TRACE_DIR...]

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ltt=$(realpath "${1:?usage: $0 LTT BSWAP_TRACE [TRACE_DIR...]}")
bswap=$(realpath "${2:?usage: $0 LTT BSWAP_TRACE [TRACE_DIR...]}")
shift 2
(($#)) || set -- "$here"/fixtures/*/
scripts=$here/../scripts

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "endian: $*" >&2; exit 1; }

# Everything a command prints about trace $tmp/t (a link to one or the other)
outputs() {
	local out=$1 i=0 cmd
	mkdir -p "$out"
	while read -r cmd; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		"$ltt" $cmd "$tmp/t" >"$out/$i" 2>&1 || echo "exit $?" >>"$out/$i"
		echo "$cmd" >"$out/$i.cmd"
	done <<-EOF
	report --raw-time
	report
	report --syscalls
	report --syscalls --json
	stats
	stats --json
	analyze
	list
	watch $scripts/allcounts.lua
	watch $scripts/syscalls.lua
	watch $scripts/syscalls-by-pid.lua
	export -o $out/export.json
	view -o $out/view.html
	EOF
}

n=0
for dir; do
	dir=${dir%/}
	name=$(basename "$dir")
	conv=$tmp/conv/$name
	mkdir -p "$tmp/conv"
	"$bswap" "$dir" "$conv" || fail "$name: bswap-trace failed"
	ln -sfn "$(realpath "$dir")" "$tmp/t"
	outputs "$tmp/out-orig/$name"
	ln -sfn "$conv" "$tmp/t"
	outputs "$tmp/out-conv/$name"
	for f in "$tmp/out-orig/$name"/*; do
		[[ $f == *.cmd ]] && continue
		g=$tmp/out-conv/$name/${f##*/}
		if [[ ${f##*/} == export.json || ${f##*/} == view.html ]]; then
			sed -i "s|$tmp/out-[a-z]*/$name|OUT|g" "$f" "$g"
		fi
		cmp -s "$f" "$g" || {
			echo "endian: $name: ltt $(cat "$f.cmd" 2>/dev/null || echo "${f##*/}") differs on the converted trace:" >&2
			diff "$f" "$g" | head -10 >&2
			exit 1
		}
	done
	"$here/e2e.sh" "$conv" "$ltt" >"$tmp/e2e" 2>&1 || {
		cat "$tmp/e2e" >&2
		fail "$name: babeltrace2 and ltt report disagree on the converted trace"
	}
	n=$((n + 1))
done

# Hostile: the converted copy of the first trace with two streams, one
# of them left as it was
first=
for dir; do
	streams=("${dir%/}"/channel0_*)
	if ((${#streams[@]} >= 2)); then
		first=${dir%/}
		break
	fi
done
[[ $first ]] || fail "no trace with two streams for the hostile case"
name=$(basename "$first")
mixed=$tmp/mixed
cp -r "$tmp/conv/$name" "$mixed"
bad=$(basename "${streams[1]}")
cp "${streams[1]}" "$mixed/$bad"
rc=0
"$ltt" report --raw-time "$mixed" >"$tmp/mixed.out" 2>"$tmp/mixed.err" || rc=$?
((rc != 0)) || fail "ltt report exits 0 on a stream of the other byte order"
grep -q "$mixed/$bad: offset 0: .*byte-swapped.*its metadata says" "$tmp/mixed.err" ||
	fail "the error does not name $mixed/$bad and the byte orders: $(cat "$tmp/mixed.err")"
for s in "${streams[@]}"; do
	[[ $s == "${streams[1]}" ]] && continue
	c=${s##*channel0_}
	"$ltt" report --raw-time --cpu "$c" "$first" >>"$tmp/others"
done
got=$(wc -l <"$tmp/mixed.out")
want=$(wc -l <"$tmp/others")
((got == want && got > 0)) ||
	fail "ltt report printed $got lines of the streams it could read, expected $want"
for cmd in stats "watch $scripts/allcounts.lua"; do
	rc=0
	# shellcheck disable=SC2086
	"$ltt" $cmd "$mixed" >/dev/null 2>"$tmp/mixed.err" || rc=$?
	if ((rc == 0)) || ! grep -q "$bad: offset 0" "$tmp/mixed.err"; then
		fail "ltt $cmd: exit $rc, $(cat "$tmp/mixed.err")"
	fi
done

echo "endian: $n traces read the same in the other byte order (report, stats, analyze, list, watch, export, view; babeltrace2 agrees); a contradicting stream is refused by name"
