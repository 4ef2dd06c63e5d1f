#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Seeking through the packet index: `ltt report --from/--to`, `ltt stats
# --from/--to` and `--from -S` on traces with an index (the fixtures
# made again with one, a trace of many packets, the guests' traces)
# print what the whole report prints in the window, names of processes
# and files included (what the records before the window said of them:
# the state dump, forks, execs, opens), and `--comm` selects the same;
# without the index, and with an index damaged in every way tried here,
# they print the same, and say nothing (a seek does not read the index);
# a damaged stream still fails by name.
#
#   tests/seek.sh LTT MKFIXTURES DIR
#
# DIR gets the indexed fixtures, which `make test` then fuzzes.

set -uo pipefail

export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=86:print_stacktrace=1}
export TZ=UTC

ltt=$1 mkfixtures=$2 dir=$3
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

rm -rf "$dir" && mkdir -p "$dir"
"$mkfixtures" --index "$dir" || { echo "seek.sh: mkfixtures failed" >&2; exit 1; }
# many packets (16 KiB), for the binary search; kept out of DIR (the
# fuzzer's): its copy below
"$mkfixtures" --index --subbuf 16384 --big-mix "$tmp/mix" 200000 ||
	{ echo "seek.sh: mkfixtures --big-mix failed" >&2; exit 1; }

# the report as it is: names included
bare() { cat; }

# the lines of a whole report from relative time REL (column 2: +S.N) on,
# and up to TO (or the end)
window() {
	awk -v from="$2" -v to="${3:-1e18}" \
		'{ t = substr($2, 2) + 0 } t >= from && t <= to' "$1"
}

# check_seek NAME TRACE FROM [TO]: report --from/--to against the window
check_seek() {
	local name=$1 trace=$2 from=$3 to=${4:-} want got args=(--from "$3")
	[[ -n $to ]] && args+=(--to "$to")
	want=$(window "$tmp/full" "$from" "$to" | bare)
	got=$("$ltt" report "${args[@]}" "$trace" 2>"$tmp/err" | bare)
	check "$name: the window's events" "$want" "$got"
	# (but what the whole trace says: containers-damaged's warnings)
	check "$name: nothing said" "" "$(grep -vxFf "$tmp/full.err" "$tmp/err")"
}

traces=("$dir"/*/ "$tmp/mix/" "$(dirname "$0")"/fixtures/guest-*/)
for t in "${traces[@]}"; do
	t=${t%/}
	n=${t##*/}
	"$ltt" report "$t" >"$tmp/full" 2>"$tmp/full.err"
	last=$(tail -1 "$tmp/full" | awk '{ print substr($2, 2) }')
	lines=$(wc -l <"$tmp/full")
	# the times of lines at 0, 1/3, 2/3 and the last, and between them
	for k in 1 $((lines / 3)) $((2 * lines / 3)) "$lines"; do
		at=$(sed -n "${k}p" "$tmp/full" | awk '{ print substr($2, 2) }')
		check_seek "$n --from $at" "$t" "$at"
	done
	mid=$(sed -n "$((lines / 2))p" "$tmp/full" | awk '{ print substr($2, 2) }')
	check_seek "$n --from $mid --to $last" "$t" "$mid" "$last"
	check_seek "$n --from 0 --to $mid" "$t" 0 "$mid"
	check "$n --from past the end: no line, the empty window said, status 1" "0 1 1" \
		"$("$ltt" report --from 100000 "$t" 2>/dev/null | wc -l) $("$ltt" report --from 100000 "$t" 2>&1 |
		   grep -c 'the window holds none of the trace') $("$ltt" report --from 100000 "$t" >/dev/null 2>&1; echo $?)"
	# --comm of the names at the window's start: those before it told
	comm=$(window "$tmp/full" "$mid" | awk '$7 != "?" { print $7 }' | sort | uniq -c |
	       sort -rn | awk 'NR == 1 { print $2 }')
	if [[ -n $comm ]]; then
		check "$n --comm $comm --from $mid: the window's lines of $comm" \
			"$(window "$tmp/full" "$mid" | c=$comm awk '$7 == ENVIRON["c"]')" \
			"$("$ltt" report --comm "$comm" --from "$mid" "$t" 2>/dev/null)"
	fi
	check "$n stats --from --to: the window's events" \
		"$(window "$tmp/full" "$mid" | grep -vc ' LOST ')" \
		"$("$ltt" stats --from "$mid" "$t" | sed -n 's/^Trace .*: \([0-9]*\) events.*/\1/p')"
done

# --from -S: the last S seconds (of the last record)
t=$tmp/mix
"$ltt" report "$t" >"$tmp/full"
last=$(tail -1 "$tmp/full" | awk '{ print substr($2, 2) }')
from=$(awk -v l="$last" 'BEGIN { printf "%.9f", l - 0.01 }')
check_seek "--from -0.01" "$t" "$from"
check "--from -0.01 is --from END-0.01" "$("$ltt" report --from "$from" "$t" | bare)" \
	"$("$ltt" report --from -0.01 "$t" | bare)"
check "--from -1000: all" "$(bare <"$tmp/full")" "$("$ltt" report --from -1000 "$t" | bare)"
check "stats --from -0.01" "$(window "$tmp/full" "$from" | wc -l)" \
	"$("$ltt" stats --from -0.01 "$t" | sed -n 's/^Trace .*: \([0-9]*\) events.*/\1/p')"
check "report --from -x: usage" 2 "$("$ltt" report --from -x "$t" >/dev/null 2>&1; echo $?)"

# Without its index, and with it damaged: the same, said when damaged
# (the time range of the window reads the index; the seek does not)
mid=$(sed -n "$(($(wc -l <"$tmp/full") * 3 / 4))p" "$tmp/full" | awk '{ print substr($2, 2) }')
want=$(window "$tmp/full" "$mid" | bare)
idx=$tmp/mix/index/channel0_0.idx
cp "$idx" "$tmp/idx.good"

# damage NAME COMMAND...: run COMMAND on the index, then report --from
damaged() {
	local name=$1 said=$2
	shift 2
	cp "$tmp/idx.good" "$idx"
	"$@"
	got=$("$ltt" report --from "$mid" "$t" 2>"$tmp/err" | bare)
	rc=$?
	check "index $name: the same events" "$want" "$got"
	check "index $name: status" 0 "$rc"
	if [[ $said == any ]]; then
		:	# a seek may never look at the entry
	elif [[ $said == said ]]; then
		check "index $name: a warning naming it" 1 \
			"$(grep -c "^ltt report: warning: $t/index/channel0_0.idx: .*index ignored, the packet headers of channel0_0 are read instead$" "$tmp/err")"
	else
		check "index $name: nothing said" "" "$(cat "$tmp/err")"
	fi
}
# the big-endian 64-bit word at byte @1 of the index, plus @2
poke() {
	python3 - "$idx" "$1" "$2" <<'EOF'
import struct, sys
path, at, add = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
b = bytearray(open(path, 'rb').read())
v, = struct.unpack_from('>Q', b, at)
struct.pack_into('>Q', b, at, (v + add) % (1 << 64))
open(path, 'wb').write(bytes(b))
EOF
}
n_ent=$((($(stat -c %s "$tmp/idx.good") - 16) / 72))
e=$((16 + 72 * (n_ent * 3 / 4)))	# an entry near the window
damaged "missing" quiet rm "$idx"
damaged "empty" said truncate -s 0 "$idx"
damaged "cut in an entry" quiet truncate -s $((16 + 72 * 5 + 30)) "$idx"
damaged "bad magic" said poke 0 1
damaged "entry offset" said poke $e 8
damaged "timestamp_end earlier" any poke $((e + 32)) -100000
damaged "timestamp_end later" said poke $((e + 32)) 1000000000
damaged "both times later" said eval 'poke $((e + 24)) 50000000; poke $((e + 32)) 50000000'
# a consistent lie: every entry's times earlier (the seek would land late)
shift_all() {
	python3 - "$idx" "$1" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
for at in range(16, len(b) - 71, 72):
    for f in (24, 32):
        v, = struct.unpack_from('>Q', b, at + f)
        struct.pack_into('>Q', b, at + f, max(v - int(sys.argv[2]), 0))
open(sys.argv[1], 'wb').write(bytes(b))
EOF
}
damaged "every entry's times earlier" said shift_all 10000000
damaged "packet_seq_num" said poke $((e + 64)) 1
# an entry for the packet after the last, which the file does not hold
# (yet: a trace being written, or a stream cut short)
next_entry() {
	python3 - "$idx" <<'EOF'
import struct, sys
b = open(sys.argv[1], 'rb').read()
e = list(struct.unpack('>9Q', b[-72:]))
e[0] += e[1] // 8
e[8] += 1
open(sys.argv[1], 'wb').write(b + struct.pack('>9Q', *e))
EOF
}
damaged "an entry past the file's end" quiet next_entry
damaged "a directory" said eval 'rm "$idx"; mkdir "$idx"'
rm -rf "$idx"
cp "$tmp/idx.good" "$idx"
# a report of the whole trace does not read the index
poke 0 1
check "a whole report: every event, with a damaged index" "$(cat "$tmp/full")" \
	"$("$ltt" report "$t" 2>"$tmp/err")"
check "a whole report: nothing said of the index" "" "$(cat "$tmp/err")"
cp "$tmp/idx.good" "$idx"

# A damaged stream still fails by name, with what could be read printed
s=$tmp/mix/channel0_1
size=$(stat -c %s "$s")
truncate -s $((size - 5000)) "$s"
out=$("$ltt" report --from "$mid" "$t" 2>"$tmp/err")
rc=$?
check "stream cut: status" 1 "$rc"
check "stream cut: named" 1 "$(grep -c "$t/channel0_1: offset [0-9]*: truncated" "$tmp/err")"
check "stream cut: cpu 0's events printed" \
	"$(window "$tmp/full" "$mid" | grep -c ' cpu 0 ')" "$(grep -c ' cpu 0 ' <<<"$out")"

echo "seek.sh: $pass passed, $fail failed"
[[ $fail == 0 ]]
