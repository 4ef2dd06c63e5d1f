#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The ltt command line on the fixtures: report's filters, stats' tables,
# exit statuses and messages.  Run by `make test` (before the cmocka
# binary, whose summary closes the output) on ltt built with ASan and
# UBSan.
#
#   tests/cli.sh [PATH_TO_LTT]

set -uo pipefail

# ltt built with ASan + UBSan: a report from them is a status no test expects
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=86:print_stacktrace=1}

ltt=${1:-$(dirname "$0")/../build/ltt}
lttd=$(dirname "$ltt")/lttd
fx=$(dirname "$0")/fixtures
pass=0 fail=0

source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

lines() { "$@" 2>/dev/null | wc -l; }

# A task's events before the state dump reaches it carry the name the
# dump gives it (read ahead): guest-mix's pid 54 (ltt) from its first line
for f in guest-mix guest-idle arch-s390x; do
	check "report $f: every task named from its first line" "" \
		"$("$ltt" report "$fx/$f" | head -300 | awk '$7 == "?"')"
done
check "report guest-mix: the first line's task" "pid 54 ltt" \
	"$("$ltt" report "$fx/guest-mix" | head -1 | awk '{ print $5, $6, $7 }')"

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
check "report line" "00:00:01.000001000 +0.000001000 cpu 0 pid 100 bash syscall_entry: id=57(fork) ip=0x7f0000401000" \
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
# CPU time has one definition: stats and analyze -a cpu give each task
# the same figure (guest-mix's rcu_sched last ran 4.5 ms before the
# trace's end, which analyze counted and stats did not)
cpu_of() {	# pid=ns lines of stats --json or analyze --json's tasks
	python3 -c 'import json, sys
d = json.load(sys.stdin)
for p in d.get("tasks", d.get("processes", [])):
    ns = p.get("ns", p.get("cpu_ns", 0))
    if p["pid"] and ns:
        print("%d=%d" % (p["pid"], ns))' | sort
}
for f in basic guest-mix guest-flight guest-idle lossy; do
	check "stats and analyze: one CPU time per task, $f" \
		"$("$ltt" stats -n 0 --json "$fx/$f" 2>/dev/null | cpu_of)" \
		"$("$ltt" analyze -a cpu -n 0 --json "$fx/$f" 2>/dev/null | cpu_of)"
done
check "stats times" 1 "$(grep -cE '^getppid +200 +100000 +500 +500 +500$' <<<"$stats")"
check "stats lost" 1 "$("$ltt" stats "$fx/lossy" | grep -c '^Events lost: 42 (and 3 packets')"
check "stats custom events" 3 \
	"$("$ltt" stats "$fx/lossy" | sed -n '/^Custom events:/,/^$/p' | grep -c ' custom_')"
check "stats kernel events hold no custom" 0 \
	"$("$ltt" stats -n 0 "$fx/lossy" | sed -n '/^Events by type:/,/^$/p' | grep -c ' custom_')"
# system calls are named from the table of the machine that recorded the
# trace (env.arch): i386's and ppc's getppid is 64, x86_64's semget
i386=$("$ltt" report "$fx/arch-i386")
check "report i386: getppid" 200 "$(grep -c ' syscall_entry: id=64(getppid) ' <<<"$i386")"
check "report i386: unlink" 1 "$(grep -c ' syscall_entry: id=10(unlink) ' <<<"$i386")"
check "report i386: no x86_64 names" 0 "$(grep -c '(semget)' <<<"$i386")"
check "report i386: --filter syscall" 200 \
	"$(lines "$ltt" report --filter 'syscall == "getppid"' "$fx/arch-i386")"
check "report i386: --syscalls" 200 \
	"$("$ltt" report --syscalls "$fx/arch-i386" | grep -c '\] getppid() = ')"
check "stats i386: getppid" 1 \
	"$("$ltt" stats "$fx/arch-i386" | grep -cE '^ +200  getppid +64$')"
check "watch i386: syscalls" "         200  getppid" \
	"$("$ltt" watch "$(dirname "$0")/../scripts/syscalls.lua" "$fx/arch-i386" | sed -n 3p)"
ppc=$("$ltt" report "$fx/arch-powerpc")
check "report ppc: getppid" 200 "$(grep -c ' syscall_entry: id=64(getppid) ' <<<"$ppc")"
check "report ppc: openat" 23 "$(grep -c ' syscall_entry: id=286(openat) ' <<<"$ppc")"
# A guest's trace from make check-arch: ARCH's getppid is number NR, and
# its traps are named by its own numbers (TRAP, e.g. 3(tlb_store)), not
# by x86's; the 200 calls are counted by stats too.  The report is left
# in $report.
guest_checks() {
	local arch=$1 nr=$2 trap=$3

	report=$("$ltt" report "$fx/arch-$arch")
	check "report $arch: getppid" 200 "$(grep -c " syscall_entry: id=$nr(getppid) " <<<"$report")"
	check "report $arch: traps named $trap" 1 \
		"$(grep -c " trap_entry: trap=$trap " <<<"$report" | grep -c '^[1-9]')"
	check "report $arch: no x86 trap names" 0 "$(grep -c '(debug)\|(page_fault)' <<<"$report")"
	check "stats $arch: getppid" 1 \
		"$("$ltt" stats "$fx/arch-$arch" | grep -cE "^ +200  getppid +$nr\$")"
}
# mips (32-bit, big-endian): o32's numbers start at 4000, and a trap is
# the Cause register's ExcCode, not an x86 vector
guest_checks mips 4064 '3(tlb_store)'
# s390x (64-bit, big-endian, two CPUs): a trap is the program
# interruption code, 0x11 a page translation exception
guest_checks s390x 64 '17(page_translation)'
check "report s390x: both CPUs" 2 "$(grep -o ' cpu [01] ' <<<"$report" | sort -u | wc -l)"
# arm (32-bit EABI, two CPUs): a trap is the fault status, 7 a page
# translation fault
guest_checks arm 64 '7(page_translation)'
# sh4 (32-bit, little-endian, musl): a trap is EXPEVT, 0x060 a TLB miss
# on a store; a 32-bit kernel's ip and ret are 4 bytes, and a failed
# call's ret reads negative
guest_checks sh4 64 '96(tlb_miss_store)'
check "report sh4: 4-byte ret is signed" 1 \
	"$(grep -c ' syscall_exit: ret=-3$' <<<"$report" | grep -c '^[1-9]')"
check "report sh4: no 4-byte ret read unsigned" 0 \
	"$(grep -c ' syscall_exit: ret=42949' <<<"$report")"
check "report ppc: traps are vectors" 0 \
	"$("$ltt" report "$fx/arch-powerpc" | grep -c ' trap_entry: trap=[0-9]*(\(debug\|page_fault\|nmi\))')"
check "report x86_64: getppid" 200 "$(grep -c ' syscall_entry: id=110(getppid) ' <<<"$all")"
# a machine without a table: numbers, not x86_64's names
archtmp=$(mktemp -d)
cp -r "$fx/basic" "$archtmp/riscv"
sed -i 's/arch = "x86_64";/arch = "riscv64";/' "$archtmp/riscv/metadata"
riscv=$("$ltt" report "$archtmp/riscv")
check "report unknown arch: numbers" 200 "$(grep -c ' syscall_entry: id=110 ip=' <<<"$riscv")"
check "report unknown arch: no names" 0 "$(grep -c ' syscall_entry: id=[0-9]*(' <<<"$riscv")"
check "report unknown arch: --syscalls" 200 \
	"$("$ltt" report --syscalls "$archtmp/riscv" | grep -cE '\] syscall_110\((\) = | <unfinished \.\.\.>$)')"
check "stats unknown arch" 1 \
	"$("$ltt" stats "$archtmp/riscv" | grep -cE '^ +200  \? +110$')"
rm -rf "$archtmp"

# options after the trace directory, as before it
check "report DIR --event" 4 "$(lines "$ltt" report "$fx/basic" --event sched_change)"
check "stats DIR -n" "$("$ltt" stats -n 1 "$fx/basic" | md5sum)" \
	"$("$ltt" stats "$fx/basic" -n 1 | md5sum)"
# several CPUs, process names
check "report --cpu list" "$(lines "$ltt" report "$fx/guest-mix")" \
	"$(lines "$ltt" report --cpu 0,1 "$fx/guest-mix")"
check "report --comm" "$("$ltt" report "$fx/basic" | grep -c ' pid [0-9]* worker ')" \
	"$(lines "$ltt" report --comm worker "$fx/basic")"
# a selection that keeps nothing says so, and is no error
out=$("$ltt" report "$fx/basic" --filter 'pid == 99999' 2>&1); rc=$?
check "report empty selection: status" 0 "$rc"
check "report empty selection: message" 1 "$(grep -c 'no event of .* matches the selection' <<<"$out")"
out=$("$ltt" report --pid 101 "$fx/basic" 2>&1 >/dev/null)
check "report selection that matches: no message" 0 "$(grep -c 'matches the selection' <<<"$out")"
"$ltt" log >/dev/null 2>&1; check "log without text" 2 "$?"
check "log --help" 0 "$("$ltt" log --help >/dev/null; echo $?)"

# errors: a message naming the problem, a non-zero status
out=$("$ltt" report /nonexistent 2>&1); rc=$?
check "report missing dir: status" 1 "$rc"
check "report missing dir: message" 1 "$(grep -c '^ltt report: /nonexistent: no such directory$' <<<"$out")"
out=$("$ltt" stats "$fx/basic/metadata" 2>&1); rc=$?
check "stats of a file: status" 1 "$rc"
check "stats of a file: message" 1 "$(grep -c 'basic/metadata: not a directory' <<<"$out")"
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
"$lttd" --discard -o /tmp/ltt-cli-never >/dev/null 2>&1
check "lttd --discard with -o: status" 2 "$?"
"$lttd" --discard --overwrite >/dev/null 2>&1
check "lttd --discard --overwrite: status" 2 "$?"
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

# lttd on a fake LTT kernel (tests/fake-kernel.c) whose START fails:
# one message, status 1, the command not run, no trace left behind
fake=$(dirname "$ltt")/fake-kernel.so
tmp=$(mktemp -d)
out=$(LD_PRELOAD=$fake FAKE_LTT_START=EBUSY timeout 20 "$lttd" -o "$tmp/busy" -- sh -c 'echo ran' 2>&1); rc=$?
check "lttd START fails: status" 1 "$rc"
check "lttd START fails: one message" "lttd: LTT_CMD_START: Device or resource busy" "$out"
check "lttd START fails: no trace left" 0 "$(ls -d "$tmp/busy" 2>/dev/null | wc -l)"
mkdir "$tmp/mine"
LD_PRELOAD=$fake FAKE_LTT_START=1 timeout 20 "$lttd" -q -o "$tmp/mine" >/dev/null 2>&1
check "lttd START fails (EPERM): status" 1 "$?"
check "lttd START fails: the user's directory stays, empty" "" "$(ls -A "$tmp/mine")"
out=$(LD_PRELOAD=$fake timeout 20 "$lttd" -q -o "$tmp/ok" -- true 2>&1); rc=$?
check "lttd on the fake kernel: status" 0 "$rc"
check "lttd on the fake kernel: the trace" "metadata" "$(ls "$tmp/ok")"
# whose session: a user's when lttd has neither CAP_PERFMON nor
# CAP_SYS_ADMIN (the kernel's perfmon_capable()), whose records write the
# other users' tasks as pid 0 (ltt report's <hidden>)
session() { grep -o 'session = "[a-z]*";' "$1/metadata"; }
caps=$((16#$(awk '/^CapEff/ { print $2 }' /proc/self/status)))
want=user; (( caps >> 38 & 1 || caps >> 21 & 1 )) && want=system
check "lttd: the metadata says whose session" "session = \"$want\";" "$(session "$tmp/ok")"
if [[ $want == system ]] && setpriv --bounding-set=-all --inh-caps=-all true 2>/dev/null; then
	setpriv --bounding-set=-all --inh-caps=-all env LD_PRELOAD="$fake" \
		timeout 20 "$lttd" -q -o "$tmp/user" -- true >/dev/null 2>&1
	check "lttd without capabilities: a user session" 'session = "user";' "$(session "$tmp/user")"
fi
# ltt log behind the enable flag: no EVENT_LOG while nobody would take it
# (the plain build: ASan will not be preloaded after the fake kernel)
flog() { rm -f "$tmp/flog"; env LD_PRELOAD=$fake FAKE_LTT_LOG="$tmp/flog" "$@" "$(dirname "$ltt")/ltt" log hello >/dev/null 2>&1; }
flog; check "ltt log, nobody records: status" 0 "$?"
check "ltt log, nobody records: a flag, no EVENT_LOG" "EVENT_CREATE user_message flag" "$(cat "$tmp/flog")"
flog FAKE_LTT_TAKEN=1
check "ltt log, recorded: EVENT_LOG" "EVENT_CREATE user_message flag,EVENT_LOG 6" "$(paste -sd, "$tmp/flog")"
flog FAKE_LTT_NO_FLAGS=1
check "ltt log, a kernel without flags: logs anyway" "EVENT_CREATE user_message,EVENT_LOG 6" "$(paste -sd, "$tmp/flog")"
rm -rf "$tmp"

# ltt watch: the shipped scripts name the fixture's culprits
scripts=$(dirname "$0")/../scripts
watch() { TZ=UTC "$ltt" watch "$@" 2>&1; }
check "watch who-modified" "/tmp/watched modified by pid 300 [rewriter] at 00:00:01.000005500: written (fd 4)" \
	"$(watch "$scripts/who-modified.lua" -a /tmp/watched "$fx/culprits")"
check "watch who-modified relative" "watched modified by pid 300 [rewriter] at 00:00:01.000005500: written (fd 4)" \
	"$(watch -a watched "$scripts/who-modified.lua" "$fx/culprits")"
check "watch who-unlinked" "/tmp/victim unlinked by pid 302 [rm] at 00:00:01.000011500 (unlink)" \
	"$(watch "$scripts/who-unlinked.lua" -a /tmp/victim "$fx/culprits")"
check "watch who-unlinked without the event" \
	"/tmp/victim: the trace has no unlink event (insmod ltt_unlink.ko); suspects: pid 302 [rm], pid 305 [unlinker]" \
	"$(watch "$scripts/who-unlinked.lua" -a /tmp/victim "$fx/culprits-plain")"
check "watch who-killed" "pid 304 [sleep] killed by pid 303 [killer] with signal 15 at 00:00:01.000008300: a process, by kill" \
	"$(watch "$scripts/who-killed.lua" -a 304 "$fx/culprits")"
check "watch who-killed without the event" "pid 304 [sleep] killed by pid 303 [killer] with signal 15 at 00:00:01.000008300: a process, by kill" \
	"$(watch "$scripts/who-killed.lua" -a 304 "$fx/culprits-plain")"
check "watch who-touched" "/tmp: 2 processes" \
	"$(watch "$scripts/who-touched.lua" -a /tmp "$fx/culprits" | head -1)"
check "watch who-modified: every way" 24 \
	"$(watch "$scripts/who-modified.lua" -a /etc/app.conf "$fx/fschanges" | grep -c '^/etc/app.conf modified by pid [0-9]* \[[a-z]*\] at [0-9:.]*: ')"
check "watch syscall-times-for-pid" "  write                    2000 ns for 2 calls" \
	"$(watch "$scripts/syscall-times-for-pid.lua" -a 300 "$fx/culprits" | sed -n 2p)"
check "watch syscalls" "         200  getppid" \
	"$(watch "$scripts/syscalls.lua" "$fx/basic" | sed -n 3p)"
check "watch syscalls-by-pid" "PID: 101 [worker] 203" \
	"$(watch "$scripts/syscalls-by-pid.lua" "$fx/basic" | sed -n 2p)"
check "watch allcounts" "         254  syscall_entry" \
	"$(watch "$scripts/allcounts.lua" "$fx/basic" | sed -n 2p)"
check "watch allcounts lost" "lost events: 42" \
	"$(watch "$scripts/allcounts.lua" "$fx/lossy" | tail -1)"
check "watch script by name" "$(watch "$scripts/allcounts.lua" "$fx/basic")" \
	"$(LTT_SCRIPTS=$scripts watch allcounts "$fx/basic")"
for s in "$scripts"/*.lua; do
	check "watch --follow = offline: $(basename "$s")" \
		"$(watch "$s" -a 304 "$fx/culprits")" "$(watch -f "$s" -a 304 "$fx/culprits")"
done
tmp=$(mktemp -d)
printf 'function syscall_entry(e)\n  x = = 1\nend\n' >"$tmp/syntax.lua"
out=$(watch "$tmp/syntax.lua" "$fx/basic"); rc=$?
check "watch syntax error: status" 1 "$rc"
check "watch syntax error: message" "ltt watch: $tmp/syntax.lua:2: unexpected symbol near '='" "$out"
printf 'function fs_open(e)\n  return e.fd .. nil\nend\nfunction end_watch() print("end") end\n' >"$tmp/runtime.lua"
out=$(watch "$tmp/runtime.lua" "$fx/basic"); rc=$?
check "watch runtime error: status" 1 "$rc"
check "watch runtime error: message" 1 "$(grep -c "^ltt watch: $tmp/runtime.lua:2: attempt to concatenate" <<<"$out")"
check "watch runtime error: no end_watch" 0 "$(grep -c '^end' <<<"$out")"
printf 'function no_such_event(e) error("x") end\n' >"$tmp/absent.lua"
watch "$tmp/absent.lua" "$fx/basic" >/dev/null
check "watch absent event: status" 0 "$?"
watch "$tmp/none.lua" "$fx/basic" >/dev/null
check "watch missing script: status" 1 "$?"
watch "$scripts/who-killed.lua" "$fx/basic" >/dev/null
check "watch script usage error: status" 1 "$?"
watch "$scripts/allcounts.lua" "$fx/basic" -- true >/dev/null
check "watch TRACE_DIR and CMD: status" 2 "$?"
watch --follow "$scripts/allcounts.lua" >/dev/null
check "watch --follow without TRACE_DIR: status" 2 "$?"
check "watch help" 1 "$("$ltt" watch --help | grep -c '^usage: ltt watch')"
rm -rf "$tmp"

tmp=$(mktemp -d)
cp -r "$fx/basic" "$tmp/"
truncate -s 5000 "$tmp/basic/channel0_0"
out=$("$ltt" report "$tmp/basic" 2>&1 >/dev/null); rc=$?
check "damaged: status" 1 "$rc"
check "damaged: message" 1 "$(grep -c "basic/channel0_0: offset [0-9]*: truncated" <<<"$out")"
rm -rf "$tmp"

# strings of the kernel's longest (255 characters): whole in values and notes
out=$("$ltt" report "$fx/strings")
path=$(sed -n 's/.* process_exec: pid=400 filename="\(.*\)"$/\1/p' <<<"$out")
check "long strings: the path" 255 "${#path}"
check "long strings: the fd's file" 1 "$(grep -cF "fs_close: fd=5($path)" <<<"$out")"
check "long strings: the text" 1 "$(grep -c ' note: text="say .\{300,\}"$' <<<"$out")"

# Hostile traces: what damage or an attacker can put in the files.
tmp=$(mktemp -d)

# far_future DIR OFFSET_S: basic's cpu1, its first packet only, at
# 2^63 - 2^32 ns of trace time, with the clock offset_s OFFSET_S
far_future() {
	mkdir -p "$1"
	sed "s/^\toffset_s = .*;/\toffset_s = $2;/" "$fx/basic/metadata" >"$1/metadata"
	python3 - "$fx/basic/channel0_1" "$1/channel0_1" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
d = d[:struct.unpack_from('<Q', d, 32)[0] // 8]
struct.pack_into('<QQ', d, 8, 0x7fffffff00000000, 0x7fffffffffffffff)
open(sys.argv[2], 'wb').write(d)
PY
}
far_future "$tmp/future" 1764460800
out=$("$ltt" report --utc "$tmp/future" 2>&1); rc=$?
check "far future: report status" 0 "$rc"
# the wall clock saturates at the int64_t bound, 2262-04-11 23:47:16.854775807
check "far future: report's clock" 52 "$(grep -c '^23:47:16.854775807 +0\.' <<<"$out")"
out=$(TZ=UTC "$ltt" stats "$tmp/future" 2>&1); rc=$?
check "far future: stats status" 0 "$rc"
check "far future: stats' clock" 1 "$(grep -c '^Trace .*: 52 events from 23:47:16.854775807 ' <<<"$out")"
printf 'function any_event(e)\n  if not seen then print(ltt.clock(e.ts)) end\n  seen = true\nend\n' >"$tmp/clock.lua"
check "far future: watch's ltt.clock" "23:47:16.854775807" "$(watch "$tmp/clock.lua" "$tmp/future")"
far_future "$tmp/negative" -9223372032
check "far future: --to past the int64_t range" 52 \
	"$(lines "$ltt" report --utc --to 00:00:05 "$tmp/negative")"
far_future "$tmp/offset" 9223372037
out=$("$ltt" report "$tmp/offset" 2>&1); rc=$?
check "clock offset out of range: status" 1 "$rc"
check "clock offset out of range: message" 1 \
	"$(grep -c "^ltt report: $tmp/offset/metadata: line 46: clock offset_s 9223372037 and offset 0: out of range" <<<"$out")"

# a FIFO named like a stream: refused, not waited on
cp -r "$fx/basic" "$tmp/fifo"
mkfifo "$tmp/fifo/channel0_9"
out=$(timeout 20 "$ltt" report "$tmp/fifo" 2>&1 >"$tmp/fifo.out"); rc=$?
check "FIFO: status" 1 "$rc"
check "FIFO: message" 1 "$(grep -c "^ltt report: $tmp/fifo/channel0_9: offset 0: a FIFO, not a regular file: not read" <<<"$out")"
check "FIFO: the streams are read" 517 "$(wc -l <"$tmp/fifo.out")"
rm "$tmp/fifo/channel0_9"
mkfifo "$tmp/fifo/metadata.new"
mv "$tmp/fifo/metadata.new" "$tmp/fifo/metadata"
out=$(timeout 20 "$ltt" stats "$tmp/fifo" 2>&1); rc=$?
check "FIFO metadata: status" 1 "$rc"
check "FIFO metadata: message" "ltt stats: $tmp/fifo/metadata: a FIFO, not a regular file: not read" "$out"

# output that cannot be written is a failure, said: stdout open read-only
# (EBADF), and a device of our own that /dev/full's numbers make (ENOSPC)
# when root; never the system's /dev/full
sinks=("1</dev/null")
if [[ $(id -u) == 0 ]] && mknod "$tmp/full" c 1 7 2>/dev/null && [[ -c $tmp/full ]]; then
	sinks+=(">\"\$tmp/full\"")
fi
for sink in "${sinks[@]}"; do
	for cmd in "report $fx/basic" "stats $fx/basic" "watch $scripts/allcounts.lua $fx/basic" \
		"report --help" "--help"; do
		out=$(eval "\"\$ltt\" $cmd $sink" 2>&1); rc=$?
		check "write error ($sink): ltt $cmd: status" 1 "$rc"
		check "write error ($sink): ltt $cmd: message" 1 \
			"$(grep -cE '^ltt( [a-z]+)?: standard output: .*: the (report|output) is incomplete$' <<<"$out")"
	done
done

# A file name of bytes that are not UTF-8 (0xff) and a control byte (ESC):
# basic with /etc/inittab renamed in place, the same length
mkdir -p "$tmp/badname"
cp -r "$fx/basic" "$tmp/badname/t"
python3 - "$tmp/badname/t" <<'EOF'
import glob, sys
for p in glob.glob(sys.argv[1] + '/channel0_*'):
    b = open(p, 'rb').read()
    open(p, 'wb').write(b.replace(b'/etc/inittab', b'/etc/in\xff\x1btab'))
EOF
# every line is JSON in valid UTF-8: the lines read, and the file names
# that hold the byte as its code point
json_ok() {
	python3 -c 'import json, sys
n = names = 0
for line in sys.stdin.buffer:
    d = json.loads(line.decode("utf-8"))
    n += 1
    names += d.get("fields", {}).get("filename") == "/etc/in\u00ff\u001btab"
print(n, names)'
}
check "report --json: valid UTF-8 for a name of byte 0xff" "517 1" \
	"$("$ltt" report --json "$tmp/badname/t" 2>&1 | json_ok 2>&1 | tail -1)"
check "report --syscalls --json: valid UTF-8 for a name of byte 0xff" \
	"$("$ltt" report --syscalls "$tmp/badname/t" | grep -vc ' <\.\.\. [a-z_0-9]* resumed>') 0" \
	"$("$ltt" report --syscalls --json "$tmp/badname/t" 2>&1 | json_ok 2>&1 | tail -1)"
# Names are the traced programs' to choose: the shipped scripts escape
# them (ltt.escape()), --syscalls as strace does (octal past ASCII)
touched=$("$ltt" watch "$(dirname "$0")/../scripts/who-touched.lua" -a /etc "$tmp/badname/t")
check "who-touched: the name escaped" 1 \
	"$(grep -cF '  /etc/in\xff\x1btab  ' <<<"$touched")"
check "who-touched: no raw ESC or 0xff" 0 "$(LC_ALL=C grep -c $'[\x1b\xff]' <<<"$touched")"
check "watch: ltt.escape()" 'a\x1b[2Jb\\c\xffd\xc3' \
	"$(printf 'function start_watch() print(ltt.escape("a\\27[2Jb\\\\c\\255d\\195")) end\n' \
		> "$tmp/escape.lua" && "$ltt" watch "$tmp/escape.lua" "$fx/basic")"
check "report --syscalls: a file past ASCII in octal" 1 \
	"$("$ltt" report --syscalls "$tmp/badname/t" | grep -cF 'read(3</etc/in\377?tab>) = 4096')"
cp -r "$fx/culprits" "$tmp/badname/c"
python3 - "$tmp/badname/c" <<'EOF'
import glob, sys
for p in glob.glob(sys.argv[1] + '/channel0_*'):
    b = open(p, 'rb').read()
    open(p, 'wb').write(b.replace(b'/tmp/watched', b'/tmp/\xffwa\x1b7ed'))
EOF
check "report --syscalls: a string as strace quotes it" 1 \
	"$("$ltt" report --syscalls "$tmp/badname/c" | grep -cF 'open("/tmp/\377wa\0337ed", O_WRONLY) = 4')"

# An empty time window: the same message and status from every command,
# nothing written
for c in report stats view export; do
	o=()
	[[ $c == view || $c == export ]] && o=(-o "$tmp/window.out")
	for w in "--to -99" "--from 99" "--from 0.00002 --to 0.00001"; do
		# shellcheck disable=SC2086
		out=$("$ltt" $c $w "${o[@]}" "$fx/basic" 2>&1); rc=$?
		check "$c $w: empty window: status" 1 "$rc"
		check "$c $w: empty window: one message" \
			"ltt $c: $w: the window holds none of the trace, which runs from 00:00:01.000000000 to 00:00:01.050214500" \
			"$(TZ=UTC "$ltt" $c $w "${o[@]}" "$fx/basic" 2>&1)"
	done
	check "$c: empty window: no output file" 0 "$(ls -A "$tmp" | grep -c window)"
done
# A stream file of 0 bytes (a recording that lost its first packet)
cp -r "$fx/basic" "$tmp/empty-stream"
: > "$tmp/empty-stream/channel0_2"
out=$("$ltt" report "$tmp/empty-stream" 2>&1 >/dev/null); rc=$?
check "empty stream: status" 0 "$rc"
check "empty stream: a warning naming it" 1 \
	"$(grep -c 'warning: .*empty-stream/channel0_2: an empty stream (0 bytes)' <<<"$out")"
check "empty stream: the others read" 517 "$("$ltt" report "$tmp/empty-stream" 2>/dev/null | wc -l)"
# What ltt does not honour is refused by name: a clock not in ns, a
# packet header of another layout
cp -r "$fx/basic" "$tmp/freq"
for v in 0 1 1000000; do
	sed -i "s/freq = [0-9]*;/freq = $v;/" "$tmp/freq/metadata"
	out=$("$ltt" report "$tmp/freq" 2>&1); rc=$?
	check "clock freq $v: status" 1 "$rc"
	check "clock freq $v: message" 1 "$(grep -c "freq/metadata: line [0-9]*: clock freq: " <<<"$out")"
done
cp -r "$fx/basic" "$tmp/header"
sed -i 's/uint32_t stream_id;/uint64_t stream_id;/' "$tmp/header/metadata"
out=$("$ltt" report "$tmp/header" 2>&1); rc=$?
check "packet header layout: status" 1 "$rc"
check "packet header layout: message" 1 "$(grep -c "header/metadata: line [0-9]*: packet.header: not ltt's layout" <<<"$out")"
# -p selects tasks (thread ids), and says so
check "report -p: help says tasks" 1 "$("$ltt" report --help | grep -c -- '-p, --pid.*only events of these tasks')"
# view and export: an output that cannot be written fails before the
# trace is read (no message about the trace, damaged here)
mkdir -p "$tmp/cut"
cp "$fx/guest-mix/metadata" "$fx/guest-mix/channel0_0" "$tmp/cut/"
head -c 40000 "$fx/guest-mix/channel0_1" > "$tmp/cut/channel0_1"
for c in view export; do
	out=$("$ltt" $c -o "$tmp/no/such/dir/out" "$tmp/cut" 2>&1); rc=$?
	check "$c: unwritable output: status" 1 "$rc"
	check "$c: unwritable output: said before the trace is read" \
		"ltt $c: $tmp/no/such/dir/out: No such file or directory" "$out"
done

rm -rf "$tmp"

echo "cli.sh: $pass passed, $fail failed"
[[ $fail == 0 ]]
