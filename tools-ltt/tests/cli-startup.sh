#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The command line of `ltt analyze -a startup` on the fixtures: --until
# found and not found, text and JSON against each other and against
# ltt report and ltt stats, a trace without sched_change, a damaged one,
# bad options.  Run by `make test`; the figures themselves are checked by
# tests/test-startup.c, a real boot trace by tests/startup-e2e.sh.
#
#   tests/cli-startup.sh [PATH_TO_LTT]

set -uo pipefail

ltt=${1:-$(dirname "$0")/../build/ltt}
ltt=$(realpath "$ltt")
here=$(dirname "$0")
fx=$(realpath "$here/fixtures")
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

# --help
help=$("$ltt" analyze --help)
check "help: --until" 1 "$(grep -c -- '--until NAME' <<<"$help")"
check "help: --buckets" 1 "$(grep -c -- '--buckets N' <<<"$help")"
check "help: startup in the list" 1 "$(grep -c 'syscalls,sched,irq,io,cpu,startup' <<<"$help")"

# --until sh on guest-mix: found, the same in text and JSON
mix=$fx/guest-mix
out=$("$ltt" analyze -a startup --until sh "$mix" 2>"$tmp/err"); rc=$?
check "until sh: status" 0 "$rc"
check "until sh: no message" "" "$(cat "$tmp/err")"
"$ltt" analyze -a startup --json --until sh "$mix" >"$tmp/json"
check "until sh: text and JSON agree" \
	"$(python3 -c 'import json, sys
g = json.load(open(sys.argv[1]))["startup"]["until"][0]
print("    sh: %d.%03d ms, exec of %s by pid %d" % (g["offset_ns"] // 1000000, g["offset_ns"] // 1000 % 1000, g["path"], g["pid"]))' "$tmp/json")" \
	"$(grep '^    sh: ' <<<"$out")"
check "until sh: the first exec of sh" \
	"$("$ltt" report "$mix" | grep -m1 -E 'process_exec: pid=[0-9]+ filename="[^"]*/sh"' | sed -E 's/.*pid=([0-9]+) .*/\1/')" \
	"$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["startup"]["until"][0]["pid"])' "$tmp/json")"

# every exec that ltt report prints; the milestones are the first ones
check "execs: as ltt report's" \
	"$("$ltt" report "$mix" | grep -c ' process_exec: ')" \
	"$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["startup"]["execs"]))' "$tmp/json")"
check "milestones: text and JSON agree" \
	"$(python3 -c 'import json, sys
for e in json.load(open(sys.argv[1]))["startup"]["execs"]:
    if e["first"]:
        print(e["pid"], e["path"])' "$tmp/json")" \
	"$("$ltt" analyze -a startup -n 0 "$mix" | awk '/^  Milestones/ { on = 1; getline; next } on && !NF { exit } on && $3 == "exec" { print $2, $4 }')"

# a process that execs twice: its execs chained, in text and JSON
check "two execs: JSON" "sh flood" \
	"$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["startup"]
p = [p for p in s["processes"] if p["pid"] == 55][0]
print(" ".join(s["execs"][e]["name"] for e in p["execs"]))' "$tmp/json")"
check "two execs: text" 1 "$("$ltt" analyze -a startup "$mix" | grep -c '^      55 flood (sh -> flood): seen ')"

# not found: exit 1, a message naming the trace, the rest printed
out=$("$ltt" analyze -a startup --until nosuch --until sh "$mix" 2>"$tmp/err"); rc=$?
check "until nosuch: status" 1 "$rc"
check "until nosuch: message" \
	"ltt analyze: $mix: no exec nor marker matches --until nosuch" "$(cat "$tmp/err")"
check "until nosuch: printed anyway" 1 "$(grep -c '^  Milestones' <<<"$out")"
check "until nosuch: said" 1 "$(grep -c '^    nosuch: not in the trace$' <<<"$out")"

# markers: the lossy fixture's custom events, by name
out=$("$ltt" analyze -a startup --until custom_125 "$fx/lossy" 2>&1); rc=$?
check "until a custom event: status" 0 "$rc"
check "until a custom event: a marker" 1 "$(grep -c '^    custom_125: 0.000 ms, custom_125$' <<<"$out")"
check "a name that needs escaping: one line" 1 "$(grep -c '^         300  we"ird.name? ' <<<"$out")"

# no sched_change: CPU time not recorded
out=$("$ltt" analyze -a startup "$fx/strings")
check "no sched_change: execs" 1 "$(grep -c 'CPU: not recorded, the trace has no sched_change' <<<"$out")"
check "no sched_change: CPUs" 1 "$(grep -c 'What ran on each CPU: not recorded' <<<"$out")"

# losses: as ltt stats counts them
check "lost: as ltt stats" \
	"$("$ltt" stats --json "$fx/lossy" | python3 -c 'import json, sys; print(json.load(sys.stdin)["lost"]["events"])')" \
	"$("$ltt" analyze -a startup "$fx/lossy" | sed -n 's/^  Lost events: \([0-9]*\) .*/\1/p')"

# a damaged trace: exit 1, the file named, what could be read printed
mkdir "$tmp/cut"
cp "$mix"/* "$tmp/cut/"
size=$(stat -c %s "$tmp/cut/channel0_0")
truncate -s $((size / 2 + 7)) "$tmp/cut/channel0_0"
out=$("$ltt" analyze -a startup "$tmp/cut" 2>"$tmp/err"); rc=$?
check "damaged: status" 1 "$rc"
check "damaged: the file named" 1 "$(grep -c "^ltt analyze: $tmp/cut/channel0_0: offset [0-9]*: " "$tmp/err")"
check "damaged: printed anyway" 1 "$(grep -c '^  Execs, the longest first' <<<"$out")"

# bad options
out=$("$ltt" analyze -a startup --buckets 0 "$mix" 2>&1); rc=$?
check "buckets 0: status" 2 "$rc"
check "buckets 0: message" 1 "$(grep -c '^ltt analyze: --buckets 0: 1 to 1000' <<<"$out")"
out=$("$ltt" analyze -a cpu --until sh "$mix" 2>&1); rc=$?
check "until without startup: status" 2 "$rc"
check "until without startup: message" 1 "$(grep -c '^ltt analyze: --until is for the startup analysis' <<<"$out")"
out=$("$ltt" analyze -a startup --until "" "$mix" 2>&1); rc=$?
check "empty until: status" 2 "$rc"

echo "cli-startup.sh: $pass passed, $fail failed"
[[ $fail == 0 ]]
