#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the traced kernel under QEMU (TCG) with the test initramfs, stream
# the console to the terminal and to build/boot-$LTT_FLAVOUR.log, and judge
# the run.  It fails on a timeout, a missing summary line, a failed test,
# no test run, a CPU that did not come up, or a kernel splat in the log.
# The last line of output is the guest's LTT-SELFTESTS summary.
#
#   LTT_APPEND        more kernel command line (ltt.run=a,b  ltt.shell=1)
#   LTT_BOOT_TIMEOUT  seconds before QEMU is killed (default 1200)
#   LTT_SMP, LTT_MEM  CPUs and memory of the guest (default 2, 2G)
#   LTT_QEMU_ARGS     more QEMU arguments
#   LTT_CONSOLE_FROM  a regex: the terminal shows the console from the first
#                     line matching it (the log keeps it all); the demo
#                     starts at /init's first line

source "$(dirname "$0")/lib.sh"

BZIMAGE=$KOBJ/arch/x86/boot/bzImage
CPIO=$LTT_BUILD/initramfs-$LTT_FLAVOUR.cpio.gz
LOG=$LTT_BUILD/boot-$LTT_FLAVOUR.log
TIMEOUT=${LTT_BOOT_TIMEOUT:-1200}
SMP=${LTT_SMP:-2}
MEM=${LTT_MEM:-2G}
APPEND="console=ttyS0 panic=-1 oops=panic tsc=reliable no_timer_check ${LTT_APPEND:-}"
# Boot tracing for ltt_boot_test, which runs first and takes it over: on
# a full run, or one that lists it.  Forks, execs and exits only: a debug
# kernel's boot fills 4M per CPU of other events (wakeups) before the
# test runs.
case " ${LTT_APPEND:-} " in
*ltt.boot=* | *ltt.script=* | *ltt.shell=*) ;;
*ltt.run=*ltt_boot_test*) APPEND+=" ltt.boot=events=process_fork+process_exec+process_exit,size=4M" ;;
*ltt.run=*) ;;
*) APPEND+=" ltt.boot=events=process_fork+process_exec+process_exit,size=4M" ;;
esac

# Kernel log lines that fail a run whatever the tests say.
SPLATS=(
	'BUG:' 'WARNING:' 'Oops' 'Kernel panic' 'general protection fault'
	'KASAN' 'UBSAN' 'possible circular locking' 'inconsistent lock state'
	'sleeping function called from invalid context'
	'turning off the locking correctness validator'
	'kmemleak: .*suspected memory leak' 'unreferenced object'
)

# The console as the terminal shows it: from LTT_CONSOLE_FROM on, if set.
show_console() {
	if [[ -n ${LTT_CONSOLE_FROM:-} ]]; then
		sed -u -n "/${LTT_CONSOLE_FROM//\//\\/}/,\$p"
	else
		cat
	fi
}

# Run QEMU until the guest reboots or the timeout; sets $STATUS.
run_qemu() {
	local cmd stdin=/dev/null

	# No 5-level paging: with it, KASAN reports a wild access in the
	# first timer interrupt under TCG; and it is rare on real machines.
	# shellcheck disable=SC2206
	cmd=(qemu-system-x86_64 -cpu max,la57=off -smp "$SMP" -m "$MEM" -nographic
		-no-reboot -kernel "$BZIMAGE" -initrd "$CPIO" -append "$APPEND"
		${LTT_QEMU_ARGS:-})
	# Only the interactive shell reads the terminal.
	[[ $APPEND == *ltt.shell=1* ]] && stdin=/dev/stdin
	log "${cmd[*]}"
	set +e
	[[ -z ${LTT_CONSOLE_FROM:-} ]] ||
		log "the kernel's messages before /${LTT_CONSOLE_FROM}/ go to $LOG only"
	timeout --foreground -k 10 "$TIMEOUT" "${cmd[@]}" <"$stdin" 9>&- |
		tee "$LOG" 9>&- | show_console
	STATUS=${PIPESTATUS[0]}
	set -e
	sed -i 's/\r$//' "$LOG"
}

# Why the run in $LOG failed, one reason a line; nothing when it passed.
failures() {
	local summary n cpus splats

	if ((STATUS == 124)); then
		echo "QEMU killed after ${TIMEOUT}s (LTT_BOOT_TIMEOUT)"
	elif ((STATUS != 0)); then
		echo "QEMU exited with status $STATUS"
	fi
	cpus=$(sed -n 's/.*smp: Brought up [0-9]* nodes\{0,1\}, \([0-9]*\) CPUs\{0,1\}.*/\1/p' "$LOG")
	if [[ -z $cpus ]]; then
		echo "no 'smp: Brought up' line: the kernel did not finish booting"
	elif [[ $cpus != "$SMP" ]]; then
		echo "only $cpus of $SMP CPUs came up (is CONFIG_ACPI=y?)"
	fi
	splats=$(IFS='|'; grep -a -n -E "${SPLATS[*]}" "$LOG" | head -5 || true)
	[[ -z $splats ]] || echo "kernel splat in the log:"$'\n'"$splats"
	summary=$(summary_line)
	if [[ -z $summary ]]; then
		echo "no LTT-SELFTESTS summary line: the guest did not finish"
		return
	fi
	read -r -a n <<<"$(tr -cs '0-9' ' ' <<<"$summary")"
	((n[1] == 0)) || echo "${n[1]} failed:" \
		$(sed -n 's/^not ok [0-9]* selftests: ltt: \([^ ]*\).*/\1/p' "$LOG")
	((n[0] + n[1] + n[2] > 0)) || echo "no selftest ran"
}

summary_line() {
	sed -n 's/.*\(LTT-SELFTESTS: [0-9]* passed, [0-9]* failed, [0-9]* skipped\).*/\1/p' \
		"$LOG" | tail -1
}

main() {
	local start=$SECONDS reasons summary

	[[ -f $BZIMAGE ]] || die "no $BZIMAGE: run scripts/kernel.sh first"
	[[ -f $CPIO ]] || die "no $CPIO: run scripts/initramfs.sh first"
	# One boot of a flavour at a time: they share the log, the kernel
	# and the initramfs.
	lock_flavour
	run_qemu
	if [[ $APPEND == *ltt.shell=1* ]]; then
		log "shell session over (QEMU status $STATUS): no verdict"
		return 0
	fi
	reasons=$(failures)
	summary=$(summary_line)
	if [[ -n $reasons ]]; then
		while read -r line; do log "FAIL: $line"; done <<<"$reasons"
		log "verdict: FAIL after $(elapsed $start), flavour $LTT_FLAVOUR, log $LOG"
	else
		log "verdict: PASS after $(elapsed $start), flavour $LTT_FLAVOUR, log $LOG"
	fi
	echo "${summary:-LTT-SELFTESTS: no summary line}"
	[[ -z $reasons ]]
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
