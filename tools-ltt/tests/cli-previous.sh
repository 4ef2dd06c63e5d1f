#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The previous boot's trace on the command line: lttd --previous-boot-file
# IMAGE -o DIR (an image of tests/prevboot.h's crash trace, made by
# mkprevboot), and --previous-boot on the fake kernel (--by-boot-id,
# --free, the exit statuses of ENOENT, EPERM and a kernel without it);
# then ltt report, --tail and --symbols on what was written, and
# babeltrace2 reading it (tests/e2e.sh); missing, empty, truncated and
# garbage images.  Run by `make test` on ltt and lttd built with ASan and
# UBSan.
#
#   tests/cli-previous.sh LTT LTTD MKPREVBOOT [FAKE_KERNEL_SO]

set -uo pipefail

# verify_asan_link_order=0: fake-kernel.so is preloaded before ASan
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86}:verify_asan_link_order=0
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=86:print_stacktrace=1}

here=$(dirname "$0")
ltt=${1:?usage: $0 LTT LTTD MKPREVBOOT [FAKE_KERNEL_SO]}
lttd=${2:?}
mkprevboot=${3:?}
fake=${4:-$(dirname "$ltt")/fake-kernel.so}
map=$here/cli-previous.map
pass=0 fail=0

source "$here/check.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
boot_id=0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0

"$mkprevboot" "$tmp/img" || { echo "cli-previous.sh: mkprevboot failed" >&2; exit 1; }

# --- lttd --previous-boot-file ---------------------------------------------
out=$("$lttd" --previous-boot-file "$tmp/img" -o "$tmp/t" 2>"$tmp/err")
check "file: exit status" 0 $?
check "file: nothing on stderr" "" "$(cat "$tmp/err")"
check "file: the boot" "previous boot $boot_id: Linux 6.12.30-ltt x86_64" \
	"$(sed -n 1p <<<"$out")"
check "file: the end" "ended: panic: Kernel panic - not syncing: sysrq triggered crash" \
	"$(sed -n 2p <<<"$out")"
check "file: cpu 0" 1 "$(grep -c '^cpu 0: 2 packets kept, 0 damaged, the open packet lost, 0 events lost$' <<<"$out")"
check "file: cpu 1" 1 "$(grep -c '^cpu 1: 2 packets kept, 1 damaged, 0 events lost$' <<<"$out")"
check "file: where" 1 "$(grep -c "^wrote $tmp/t: 4 packets (.*), 1 damaged, 2 CPUs, 2 modules$" <<<"$out")"
check "file: the trace's files" "channel0_0 channel0_1 index metadata" \
	"$(ls "$tmp/t" | tr '\n' ' ' | sed 's/ $//')"
check "file: .previous-boot" "boot_id=$boot_id|stext=0xffffffff9a000000|end=panic|cpu0.open_lost=1|cpu1.n_damaged=1|module0=ltt_crashme 0xffffffffc0a00000 12288" \
	"$(grep -E '^(boot_id|end|stext|cpu0.open_lost|cpu1.n_damaged|module0)=' "$tmp/t/.previous-boot" | tr '\n' '|' | sed 's/|$//')"
check "file: the metadata's env" 3 \
	"$(grep -cE '^	(kernel_release = "6.12.30-ltt"|previous_boot_end = "panic"|previous_boot_id = "'$boot_id'");' "$tmp/t/metadata")"
"$lttd" --previous-boot-file "$tmp/img" -o "$tmp/t" >/dev/null 2>"$tmp/err"
check "file: again into the same DIR: refused" "1 1" \
	"$? $(grep -c 'holds a trace already' "$tmp/err")"

# babeltrace2 reads what was written as ltt does
e2e=$(E2E_REQUIRE="crash trap_entry" "$here/e2e.sh" "$tmp/t" "$ltt" 2>&1)
check "file: babeltrace2 and ltt report agree" 0 $?
check "file: e2e's count" 1 "$(grep -c 'agree on 1002 events (1 crash, 500 syscall_entry, 500 syscall_exit, 1 trap_entry)' <<<"$e2e")"

# --- ltt report ------------------------------------------------------------
rep=$("$ltt" report --utc "$tmp/t")
check "report: the header line" "# previous boot $boot_id: Linux 6.12.30-ltt, ended by panic: Kernel panic - not syncing: sysrq triggered crash" \
	"$(head -1 <<<"$rep")"
check "report: every event" 1003 "$(wc -l <<<"$rep")"
check "report: the crash last" 'cpu 0 pid 200 ? crash: kind=1(panic) ip=0xffffffff9a004542 message="Kernel panic - not syncing: sysrq triggered crash"' \
	"$(tail -1 <<<"$rep" | cut -d' ' -f3-)"
check "report: wall-clock times are the previous boot's" "00:00:04.002000000" \
	"$(tail -1 <<<"$rep" | cut -d' ' -f1)"
check "report --json: no header" 0 "$("$ltt" report --json "$tmp/t" | grep -c '^#')"

# --tail: the crash first, then each CPU's last second before its last event
tail=$("$ltt" report --utc --tail 1s "$tmp/t")
check "tail: exit status" 0 $?
check "tail: the sections" "# previous boot|# crash events|# cpu 0: the last 1.000000000 s before its last event|# cpu 1: the last 1.000000000 s before its last event" \
	"$(grep '^#' <<<"$tail" | sed 's/^\(# previous boot\) .*/\1/' | tr '\n' '|' | sed 's/|$//')"
check "tail: the crash right after its heading" "crash:" \
	"$(sed -n '/^# crash events/{n;p}' <<<"$tail" | awk '{ print $8 }')"
cpu0=$(sed -n '/^# cpu 0:/,/^# cpu 1:/p' <<<"$tail" | grep -v '^#')
cpu1=$(sed -n '/^# cpu 1:/,$p' <<<"$tail" | grep -v '^#')
# cpu0 ends at 4.002000: from 3.002000, calls at 3.01 .. 3.99 (99 of them),
# the trap and the crash; cpu1 ends at 2.990005: from 1.990005 on, the exit
# at 1.990005 and the 100 calls after it
check "tail: cpu 0's events" 200 "$(wc -l <<<"$cpu0")"
check "tail: cpu 0's first" "00:00:03.010000000" "$(head -1 <<<"$cpu0" | cut -d' ' -f1)"
check "tail: cpu 0 only" 0 "$(grep -vc ' cpu 0 ' <<<"$cpu0")"
check "tail: cpu 1's events" 201 "$(wc -l <<<"$cpu1")"
check "tail: cpu 1's first" "00:00:01.990005000 syscall_exit:" "$(head -1 <<<"$cpu1" | awk '{ print $1, $8 }')"
check "tail: cpu 1's last" "00:00:02.990005000" "$(tail -1 <<<"$cpu1" | cut -d' ' -f1)"
check "tail: cpu 1 only" 0 "$(grep -vc ' cpu 1 ' <<<"$cpu1")"
# 49 calls, the trap, the crash; and the crash in its own section
check "tail 500ms: cpu 0" 101 \
	"$("$ltt" report --tail 500ms --cpu 0 "$tmp/t" | grep -v '^#' | grep -c ' cpu 0 ')"
# the crash twice: first, then in its CPU's tail
check "tail -e: the selection holds" "2 0" \
	"$("$ltt" report --tail 1s -e crash "$tmp/t" | grep -c 'crash:') $("$ltt" report --tail 1s -e crash "$tmp/t" | grep -c syscall)"
check "tail --json: objects only" 0 "$("$ltt" report --json --tail 1s "$tmp/t" | grep -vc '^{')"
"$ltt" report --tail 1x "$tmp/t" >/dev/null 2>"$tmp/err"
check "tail: a bad duration" "2 1" "$? $(grep -c 'not a duration' "$tmp/err")"
"$ltt" report --tail 1s --from 1 "$tmp/t" >/dev/null 2>"$tmp/err"
check "tail: not with --from" 2 $?
check "tail: a trace without crash" "# none" \
	"$("$ltt" report --tail 1ms "$here/fixtures/basic" | sed -n 2p)"

# --symbols: the KASLR offset from .previous-boot (stext minus _stext)
sym=$("$ltt" report --symbols "$map" "$tmp/t")
check "symbols: the crash" 1 "$(grep -c 'crash: kind=1(panic) ip=0xffffffff9a004542(panic+0x42) ' <<<"$sym")"
check "symbols: the trap" 1 "$(grep -c 'trap_entry: trap=14(page_fault) ip=0xffffffff9a123410(do_fault+0x10)$' <<<"$sym")"
check "symbols: user addresses stay numbers" 0 "$(grep -c 'ip=0x7f0000401000(' <<<"$sym")"
check "symbols: e2e still agrees" 0 "$(E2E_REQUIRE=crash "$here/e2e.sh" "$tmp/t" "$ltt" >/dev/null 2>&1; echo $?)"
# without .previous-boot: no offset, the addresses are the map's own
cp -r "$tmp/t" "$tmp/noboot" && rm "$tmp/noboot/.previous-boot"
check "symbols: no offset without .previous-boot" 0 \
	"$("$ltt" report --symbols "$map" "$tmp/noboot" | grep -c '(panic+')"
check "symbols: no header without .previous-boot" 0 \
	"$("$ltt" report "$tmp/noboot" | grep -c '^#')"
printf 'not a map\n' >"$tmp/bad.map"
"$ltt" report --symbols "$tmp/bad.map" "$tmp/t" >/dev/null 2>"$tmp/err"
check "symbols: a bad map" "1 1" "$? $(grep -c 'not a System.map line' "$tmp/err")"

# --- bad images: exit 1, a message naming the image -------------------------
bad() {	# bad NAME FILE MESSAGE
	rm -rf "$tmp/bad"
	"$lttd" --previous-boot-file "$2" -o "$tmp/bad" >"$tmp/out" 2>"$tmp/err"
	check "bad image $1: exit status" 1 $?
	check "bad image $1: message" 1 "$(grep -c -- "$3" "$tmp/err")"
	check "bad image $1: nothing written" no "$([[ -e $tmp/bad ]] && echo yes || echo no)"
}
bad missing "$tmp/nosuch" "$tmp/nosuch: No such file or directory"
: >"$tmp/empty"
bad empty "$tmp/empty" "empty: no image of a previous boot's trace"
head -c 4000 /dev/urandom >"$tmp/garbage"
bad garbage "$tmp/garbage" "not an image of the previous boot's trace"
head -c 100 "$tmp/img" >"$tmp/short"
bad "cut in its header" "$tmp/short" "truncated in the"
head -c 20000 "$tmp/img" >"$tmp/cut"
bad "cut in its packets" "$tmp/cut" "the header says .* bytes, the image has 20000"
cp "$tmp/img" "$tmp/flipped"
printf '\xff' | dd of="$tmp/flipped" bs=1 seek=30000 conv=notrunc 2>/dev/null
bad "a byte changed" "$tmp/flipped" "checksum"

# --- lttd --previous-boot on the fake kernel --------------------------------
fk() { LD_PRELOAD=$fake FAKE_LTT_LOG=$tmp/log "$@"; }
rm -f "$tmp/log"
out=$(FAKE_LTT_PREVIOUS=$tmp/img fk "$lttd" --previous-boot -o "$tmp/crash" --by-boot-id --free 2>"$tmp/err")
check "kernel: exit status" 0 $?
check "kernel: into DIR/BOOT-ID" 1 "$([[ -f $tmp/crash/$boot_id/metadata ]] && echo 1)"
check "kernel: says where" 1 "$(grep -c "^wrote $tmp/crash/$boot_id: " <<<"$out")"
check "kernel: freed" "freed the kernel's copy of the previous boot's trace" "$(tail -1 <<<"$out")"
check "kernel: FREE after the write" "PREVIOUS_FREE" "$(cat "$tmp/log" 2>/dev/null)"
out=$(FAKE_LTT_PREVIOUS=$tmp/img fk "$lttd" --previous-boot -o "$tmp/crash" --by-boot-id 2>&1)
check "kernel: again in the same boot: done already" "0 1" \
	"$? $(grep -c "^already written: $tmp/crash/$boot_id: " <<<"$out")"
rm -f "$tmp/log"
FAKE_LTT_PREVIOUS=$tmp/garbage fk "$lttd" --previous-boot -o "$tmp/g" --free >/dev/null 2>"$tmp/err"
check "kernel: a bad image is kept" "1 1 no" \
	"$? $(grep -c 'the kernel.s copy is kept' "$tmp/err") $([[ -e $tmp/log ]] && echo yes || echo no)"
fk "$lttd" --previous-boot -o "$tmp/none" >"$tmp/out" 2>"$tmp/err"
check "kernel: none: exit 2" 2 $?
check "kernel: none: the message" 1 "$(grep -c "no previous boot's trace in this kernel" "$tmp/err")"
fk "$lttd" --free >/dev/null 2>&1
check "kernel: --free with none: exit 2" 2 $?
FAKE_LTT_PREVIOUS_ERRNO=1 fk "$lttd" --previous-boot >/dev/null 2>"$tmp/err"
check "kernel: EPERM: exit 3" "3 1" "$? $(grep -c 'needs CAP_PERFMON' "$tmp/err")"
FAKE_LTT_PREVIOUS_ERRNO=22 fk "$lttd" --previous-boot >/dev/null 2>"$tmp/err"
check "kernel: EINVAL: exit 4" "4 1" "$? $(grep -c 'does not keep the previous boot' "$tmp/err")"
out=$(FAKE_LTT_PREVIOUS=$tmp/img fk "$lttd" --previous-boot 2>&1)
check "kernel: no -o: a summary only" "0 1" "$? $(grep -c 'no -o DIR: nothing written' <<<"$out")"
out=$(FAKE_LTT_PREVIOUS=$tmp/img fk "$ltt" record --previous-boot -o "$tmp/rec" 2>&1)
check "ltt record --previous-boot" "0 1" "$? $([[ -f $tmp/rec/.previous-boot ]] && echo 1)"

# --- usage ------------------------------------------------------------------
usage() {	# usage NAME MESSAGE ARGS...
	local name=$1 msg=$2
	shift 2
	"$lttd" "$@" >/dev/null 2>"$tmp/err"
	check "usage $name" "2 1" "$? $(grep -c -- "$msg" "$tmp/err")"
}
usage "both sources" "give one" --previous-boot --previous-boot-file "$tmp/img"
usage "--free of a file" "not with --previous-boot-file" --previous-boot-file "$tmp/img" --free
usage "--by-boot-id without -o" "give -o DIR" --previous-boot --by-boot-id
usage "recording options" "record nothing" --previous-boot -o "$tmp/x" -e all
usage "a command" "record nothing" --previous-boot -o "$tmp/x" -- true
usage "--free with -o" "no -o DIR without --previous-boot" --free -o "$tmp/x"
check "lttd --help: --previous-boot" 1 "$("$lttd" --help | grep -c -- '--previous-boot ')"

echo "cli-previous.sh: $pass passed, $fail failed"
[[ $fail == 0 ]]
