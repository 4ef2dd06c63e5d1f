#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The flight recorder across a crash (make crash-test).  The guest's RAM
# is a file (QEMU's memory-backend-file), so that it outlives QEMU as RAM
# outlives a reset: each case boots the traced kernel with its boot
# session in a reserve_mem= region and ends that boot on purpose, then
# boots again on the same RAM, where scripts/guest/crash-test.sh collects
# the previous boot's trace with lttd --previous-boot and runs
# ltt_persist_test.  The host reads each trace with babeltrace2 and ltt
# report (tools-ltt/tests/e2e.sh: they must agree) and checks it:
#
#   panic   markers, then sysrq c: the markers are there, the panic is
#           the last event of its CPU with its message, every CPU has
#           packets, the wall-clock times are of the first boot, and the
#           two packets damaged on purpose, and only they, are missing
#           and counted
#   reboot  reboot -f: the markers, then the reboot event
#   flood   sysrq b while both CPUs flood: the emergency restart event,
#           both CPUs' packets
#   other   a panic, and the next boot is another build of the kernel:
#           flavour $LTT_CRASH_OTHER (default crashnext, the default
#           kernel with another release string and build id; make
#           check-debug runs it with the debug flavour)
#
#   LTT_CRASH_CASES  the cases to run (default: panic reboot flood; other
#                    builds a second kernel, which make check cannot
#                    afford, and runs in make check-debug)
#   LTT_CRASH_OTHER  the second kernel of the other case
#
# The traces stay in build/crash-test/CASE/.

source "$(dirname "$0")/lib.sh"

OUT=$LTT_BUILD/crash-test
LTT=$LTT_ROOT/tools-ltt/build/ltt
MEM=2G
REGION=8M
OTHER=${LTT_CRASH_OTHER:-crashnext}
TIMEOUT=900
APPEND_BASE="console=ttyS0 panic=1 tsc=reliable no_timer_check reserve_mem=$REGION:1G:ltt ltt.boot=persist=ltt ltt.script=crash-test.sh ltt.timeout=600"

SPLATS='BUG:|WARNING:|Oops|general protection fault|KASAN|UBSAN|possible circular locking|inconsistent lock state|sleeping function called from invalid context'

# boot FLAVOUR PHASE LOG: one boot on the case's RAM and disk
boot() {
	local flavour=$1 phase=$2 logf=$3 kobj=$LTT_BUILD/kobj-$1 status

	log "boot ($flavour, ltt.phase=$phase): $logf"
	set +e
	timeout --foreground -k 10 "$TIMEOUT" qemu-system-x86_64 \
		-cpu max,la57=off -smp 2 -m "$MEM" -nographic -no-reboot \
		-object "memory-backend-file,id=ram0,size=$MEM,mem-path=$RAM,share=on" \
		-machine memory-backend=ram0 \
		-drive "file=$DISK,format=raw,if=virtio" \
		-kernel "$kobj/arch/x86/boot/bzImage" \
		-initrd "$LTT_BUILD/initramfs-$flavour.cpio.gz" \
		-append "$APPEND_BASE ltt.phase=$phase" \
		</dev/null >"$logf" 2>&1
	status=$?
	set -e
	sed -i 's/\r$//' "$logf"
	((status != 124)) || die "$logf: QEMU killed after ${TIMEOUT}s"
}

# expect LOG REGEX WHAT: die unless LOG has a line matching REGEX
expect() {
	grep -a -q -E "$2" "$1" || die "$1: $3 (no line matching /$2/)"
}

# events DIR: ltt report's lines, times raw
events() { "$LTT" report --raw-time "$1"; }

# The first boot's log says it ended as it should; its wall-clock span.
check_first() {
	local logf=$1 case=$2

	expect "$logf" 'ltt: persist: recording into region ltt' "no persistent boot session"
	case $case in
	panic | other)
		expect "$logf" 'CRASH-TEST: panicking' "the workload did not run"
		expect "$logf" 'Kernel panic - not syncing: sysrq triggered crash' "no panic" ;;
	reboot)
		expect "$logf" 'CRASH-TEST: rebooting' "the workload did not run"
		expect "$logf" 'reboot: Restarting system' "no reboot" ;;
	flood)
		expect "$logf" 'CRASH-TEST: restarting under the flood' "no flood"
		expect "$logf" 'sysrq: Resetting' "no emergency restart" ;;
	esac
}

# The second boot collected the trace and passed ltt_persist_test.
check_second() {
	local logf=$1 splats

	expect "$logf" 'ltt: persist: the previous boot.s trace' "the kernel found no previous trace"
	expect "$logf" 'CRASH-TEST: lttd exit 0' "lttd --previous-boot failed"
	expect "$logf" 'CRASH-TEST: again exit 2' "lttd found a trace after it was freed"
	expect "$logf" 'LTT-SELFTESTS: 1 passed, 0 failed' "the collect phase failed"
	splats=$(grep -a -n -E "$SPLATS" "$logf" | head -5 || true)
	[[ -z $splats ]] || die "$logf: kernel splat:"$'\n'"$splats"
}

# check_trace CASE DIR FIRSTLOG SECONDLOG T0 T1
check_trace() {
	local case=$1 dir=$2 first=$3 second=$4 t0=$5 t1=$6 want last n cpu

	want="user_message crash"
	[[ $case != flood ]] || want=crash
	E2E_REQUIRE=$want "$LTT_ROOT/tools-ltt/tests/e2e.sh" "$dir" "$LTT" ||
		die "$case: babeltrace2 and ltt report disagree on $dir"
	events "$dir" >"$dir.txt"

	if [[ $case != flood ]]; then
		n=$("$LTT" report -e user_message "$dir" |
			sed -n 's/.*text="crash-test marker \([0-9]*\)"$/\1/p' | tr '\n' ' ')
		[[ $n == "$(seq -s ' ' 1 20) " ]] ||
			die "$case: markers \"$n\", expected 1..20"
	fi
	# The end: the last crash event, and nothing after it on its CPU.
	python3 - "$dir.txt" "$case" <<'PY' || die "$case: the end of the trace is wrong (see $dir.txt)"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
case = sys.argv[2]
kind = {'panic': 1, 'other': 1, 'reboot': 5, 'flood': 4}[case]
ev = []
for l in lines:
    m = re.match(r'(\d+) \S+ cpu (\d+) pid \d+ .*? (\w+): ?(.*)', l)
    if m:
        ev.append((int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)))
crash = [e for e in ev if e[2] == 'crash']
if not crash:
    sys.exit('no crash event')
last = crash[-1]
if not re.search(r'\bkind=%d\b' % kind, last[3]):
    sys.exit('last crash event %r, expected kind %d' % (last, kind))
if case in ('panic', 'other') and 'sysrq triggered crash' not in last[3]:
    sys.exit('the panic event has no message: %r' % (last,))
after = [e for e in ev if e[1] == last[1] and e[0] > last[0]]
if after:
    sys.exit('%d events after the crash event on CPU %d: %r' % (len(after), last[1], after[:3]))
cpus = sorted(set(e[1] for e in ev))
if cpus != [0, 1]:
    sys.exit('events of CPUs %r, expected 0 and 1' % cpus)
PY
	# Wall-clock time: the first boot's, as the host saw it.
	python3 - "$dir/.previous-boot" "$dir.txt" "$t0" "$t1" <<'PY' || die "$case: wall-clock times are not the first boot's"
import re, sys
kv = dict(l.split('=', 1) for l in open(sys.argv[1]).read().splitlines() if '=' in l)
off = int(kv['realtime_offset'])
t0, t1 = int(sys.argv[3]), int(sys.argv[4])
last = 0
for l in open(sys.argv[2]):
    m = re.match(r'\s*(\d+)\s', l)
    if m:
        last = max(last, int(m.group(1)))
wall = (last + off) / 1e9
if not t0 - 5 <= wall <= t1 + 5:
    sys.exit('last event at %.0f, the first boot ran %d..%d' % (wall, t0, t1))
PY
	if [[ $case == panic ]]; then
		check_damaged "$dir" "$first"
	fi
	log "$case: $(grep -c . "$dir.txt") events read the same with babeltrace2 and ltt report; $(grep -a 'packets kept' "$second" | sed 's/.*ltt: persist: //')"
}

# The packets damaged in the first boot are missing, and counted.
check_damaged() {
	local dir=$1 first=$2 seqs got damaged torn

	seqs=$(sed -n 's/.*CRASH-TEST: damaged 0 \([0-9]*\).*/\1/p' "$first" | sort -n | tr '\n' ' ')
	[[ $(wc -w <<<"$seqs") == 2 ]] || die "panic: the first boot damaged \"$seqs\", expected two packets"
	got=$(python3 - "$dir" <<'PY'
import os, struct, sys
d = sys.argv[1]
seqs = []
for f in sorted(os.listdir(d)):
    if not f.startswith('stream') and not f.startswith('channel'):
        continue
    data = open(os.path.join(d, f), 'rb').read()
    at = 0
    while at + 64 <= len(data):
        magic, sid, tb, te, cs, ps, seq, disc, cpu, n, pid, crc = struct.unpack_from('<IIQQQQQQIIiI', data, at)
        if cpu == 0:
            seqs.append(seq)
        at += ps // 8
print(' '.join(map(str, seqs)))
PY
)
	for s in $seqs; do
		[[ " $got " != *" $s "* ]] || die "panic: damaged packet $s of CPU 0 was kept"
	done
	damaged=$(sed -n 's/^cpu0\.n_damaged=//p' "$dir/.previous-boot")
	torn=$(sed -n 's/^cpu0\.open_lost=//p' "$dir/.previous-boot")
	[[ $damaged == $((2 + ${torn:-0})) ]] ||
		die "panic: CPU 0 counts $damaged damaged packets (open packet torn: $torn), expected 2 + torn"
	log "panic: packets $seqs of CPU 0, damaged on purpose, dropped and counted ($damaged damaged)"
}

run_case() {
	local case=$1 first=$1 flavour2=default t0 t1 dir

	RAM=$OUT/$case.ram
	DISK=$OUT/$case.img
	rm -rf "${OUT:?}/$case" "$OUT/$case".*
	truncate -s "$MEM" "$RAM"
	truncate -s 64M "$DISK"
	[[ $case == other ]] && { first=panic; flavour2=$OTHER; }
	t0=$(date +%s)
	boot default "$first" "$OUT/$case.boot1.log"
	t1=$(date +%s)
	check_first "$OUT/$case.boot1.log" "$case"
	boot "$flavour2" collect "$OUT/$case.boot2.log"
	check_second "$OUT/$case.boot2.log"
	mkdir -p "$OUT/$case"
	tar -xf "$DISK" -C "$OUT/$case" || die "$case: no trace on $DISK"
	dir=$OUT/$case/prev
	if [[ $case == other ]]; then
		grep -q "^release=.*" "$dir/.previous-boot" || die "other: no release in $dir/.previous-boot"
		grep -q "$(uname_of default)" "$dir/.previous-boot" ||
			die "other: the trace's release is not the first kernel's"
		expect "$OUT/$case.boot2.log" "LTT-INIT: Linux $(uname_of "$OTHER")" "the second boot is not the other build"
	fi
	check_trace "$case" "$dir" "$OUT/$case.boot1.log" "$OUT/$case.boot2.log" "$t0" "$t1"
	rm -f "$RAM"
}

# The release string of a flavour's kernel.
uname_of() { cat "$LTT_BUILD/kobj-$1/include/config/kernel.release"; }

main() {
	local cases=${LTT_CRASH_CASES:-panic reboot flood} c start=$SECONDS

	make -C "$LTT_ROOT/tools-ltt" -s all static 2>&1 | quiet_static_link
	"$LTT_ROOT/scripts/kernel.sh"
	"$LTT_ROOT/scripts/initramfs.sh"
	if [[ " $cases " == *" other "* ]]; then
		LTT_FLAVOUR=$OTHER "$LTT_ROOT/scripts/kernel.sh"
		LTT_FLAVOUR=$OTHER "$LTT_ROOT/scripts/initramfs.sh"
	fi
	mkdir -p "$OUT"
	lock_flavour
	for c in $cases; do
		run_case "$c"
	done
	log "PASS: $cases, in $((SECONDS - start)) s"
}

main "$@"; exit
