#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The ltt command line on the fixtures: report's filters, stats' tables,
# exit statuses and messages.  Run by `make test` (before the cmocka
# binary, whose summary closes the output).
#
#   tests/cli.sh [PATH_TO_LTT]

set -uo pipefail

ltt=${1:-$(dirname "$0")/../build/ltt}
lttd=$(dirname "$ltt")/lttd
fx=$(dirname "$0")/fixtures
pass=0 fail=0

# check NAME EXPECTED ACTUAL
check() {
	if [[ $2 == "$3" ]]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "cli.sh: FAIL $1: expected \"$2\", got \"$3\"" >&2
	fi
}

lines() { "$@" 2>/dev/null | wc -l; }

all=$("$ltt" report "$fx/basic")
check "report: every event" 517 "$(wc -l <<<"$all")"
check "report --event" 4 "$(lines "$ltt" report --event sched_change "$fx/basic")"
check "report --event prefix" 507 "$(lines "$ltt" report -e 'syscall_*' "$fx/basic")"
check "report --pid" "$(grep -c ' pid 101 ' <<<"$all")" \
	"$(lines "$ltt" report --pid 101 "$fx/basic")"
check "report --pid list" "$(grep -c ' pid 10[01] ' <<<"$all")" \
	"$(lines "$ltt" report -p 100,101 "$fx/basic")"
check "report --cpu" 104 "$(lines "$ltt" report --cpu 1 "$fx/basic")"
check "report --from --to seconds" 3 \
	"$(lines "$ltt" report --from 0.000005 --to 0.000007 "$fx/basic")"
check "report --from --to clock" 3 \
	"$(lines "$ltt" report --utc --from 00:00:01.000005 --to 00:00:01.000007 "$fx/basic")"
check "report line" "00:00:01.000001000 +0.000001000 cpu 0 pid 100 bash syscall_entry: id=57(fork) ip=139637980925952" \
	"$("$ltt" report --utc "$fx/basic" | grep "id=57")"
check "report fd" 1 "$("$ltt" report "$fx/basic" | grep -c 'fs_close: fd=3(/etc/inittab)$')"
check "report lost" "00:00:01.000004000 +0.000004000 cpu 0 LOST 30 events, 3 packets" \
	"$("$ltt" report --utc "$fx/lossy" | grep 'LOST 30')"
check "report --event hides losses" 0 \
	"$("$ltt" report -e syscall_entry "$fx/lossy" | grep -c LOST)"

stats=$("$ltt" stats --pid 101 "$fx/basic")
check "stats events" 1 "$(grep -c '^Trace .*: 517 events' <<<"$stats")"
check "stats getppid" 1 "$(grep -cE '^ +200  getppid +110$' <<<"$stats")"
check "stats by process" 1 "$(grep -cE '^ +101  worker +203$' <<<"$stats")"
check "stats cpu time" 1 "$(grep -cE '^ +101  worker +0\.050210500 ' <<<"$stats")"
check "stats times" 1 "$(grep -cE '^getppid +200 +100000 +500 +500 +500$' <<<"$stats")"
check "stats lost" 1 "$("$ltt" stats "$fx/lossy" | grep -c '^Events lost: 42 (and 3 packets')"

# errors: a message naming the problem, a non-zero status
out=$("$ltt" report /nonexistent 2>&1); rc=$?
check "report missing dir: status" 1 "$rc"
check "report missing dir: message" 1 "$(grep -c '/nonexistent/metadata' <<<"$out")"
out=$("$ltt" report --event nosuch "$fx/basic" 2>&1); rc=$?
check "report bad event: status" 2 "$rc"
check "report bad event: message" 1 "$(grep -c 'no event matches "nosuch"' <<<"$out")"
"$ltt" report --from yesterday "$fx/basic" >/dev/null 2>&1
check "report bad time: status" 2 "$?"
"$ltt" stats --bogus "$fx/basic" >/dev/null 2>&1
check "stats bad option: status" 2 "$?"
"$ltt" nosuch >/dev/null 2>&1
check "unknown command: status" 2 "$?"
check "help" 0 "$("$ltt" --help >/dev/null; echo $?)"
check "command help" 1 "$("$ltt" report --help | grep -c '^usage: ltt report')"

# lttd's usage errors need no LTT kernel
out=$("$lttd" 2>&1); rc=$?
check "lttd without -o: status" 2 "$rc"
check "lttd without -o: message" 1 "$(grep -c 'give -o DIR' <<<"$out")"
out=$("$lttd" -s 1000 -o /nonexistent/x 2>&1); rc=$?
check "lttd bad geometry: status" 2 "$rc"
check "lttd bad geometry: message" 1 "$(grep -c 'sub-buffer size 1000: must be a power of two' <<<"$out")"
out=$("$lttd" -n 3 -o /nonexistent/x 2>&1)
check "lttd bad count: message" 1 "$(grep -c '3 sub-buffers: must be a power of two' <<<"$out")"
out=$("$lttd" -s 16M -n 32 -o /nonexistent/x 2>&1)
check "lttd too big: message" 1 "$(grep -c 'at most 256 MiB' <<<"$out")"
check "lttd help" 1 "$("$lttd" --help | grep -c '^usage: lttd')"
"$ltt" record --bogus >/dev/null 2>&1
check "record bad option: status" 2 "$?"

tmp=$(mktemp -d)
cp -r "$fx/basic" "$tmp/"
truncate -s 5000 "$tmp/basic/channel0_0"
out=$("$ltt" report "$tmp/basic" 2>&1 >/dev/null); rc=$?
check "damaged: status" 1 "$rc"
check "damaged: message" 1 "$(grep -c "basic/channel0_0: offset [0-9]*: truncated" <<<"$out")"
rm -rf "$tmp"

echo "cli.sh: $pass passed, $fail failed"
[[ $fail == 0 ]]
