#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench, in the guest (ltt.script=bench.sh, driven by scripts/bench.sh):
# one boot's measurements, printed one a line for the host to collect:
#
#   BENCH-INFO key=value ...
#   BENCH case=CASE variant=VARIANT round=N ns=... [events= bytes= lost=]
#
# Kernel command line (all optional):
#   ltt.bench=full|disabled|profile
#                             full: the disabled-cost floods, then the
#                             rounds; disabled: the floods only (default
#                             full); profile: one flood of each variant
#                             of ltt.bench_profile=V,V (make profile)
#   ltt.bench_kernel=NAME     the flavour, for the disabled-cost lines
#   ltt.bench_rounds=R        rounds of every case and variant (default 3)
#   ltt.bench_cases=C,C       the cases of the rounds (default
#                             flood,mixed,uevent,compile,sustain)
#   ltt.bench_flood=N         getppid() calls per flood (default 1000000)
#   ltt.bench_uevent=N        user-space events per uevent run (200000)
#   ltt.bench_flood_buf=MIB   per-CPU buffer of both tracers in the flood
#                             (default 32: all of it, so that losses do
#                             not make the cost per event; 0: defaults)
#   ltt.bench_mixed=N,WORK    jobs per mixed run, hash passes per job
#   ltt.bench_compile=P       passes of the compile case (default 1)
#   ltt.bench_sustain=N       getppid() calls per CPU of the sustained
#                             case (default 1000000)
#   ltt.bench_disabled=N,REPS calls and runs of the untraced flood
#   ltt.bench_mark=MS         idle time around the console marks by which
#                             the host reads QEMU's CPU time (default 300;
#                             0: no marks)
#
# Each round runs every variant once, in an order rotated from round to
# round.  The workloads run on CPU 0, the tracers' consumers on CPU 1.
# The flood has two more variants, the floor under the cost of an event:
# ltt-norec (an LTT session whose probes run but record nothing: its
# only event is process_fork) and ftrace-norec (the events enabled,
# tracing_on 0).  Variants: untraced; ltt-discard (lttd --discard), ltt-tmpfs
# (lttd -o /tmp/...); ftrace-discard and ftrace-tmpfs (one
# `ltt-bench ftrace-read` per CPU splicing per_cpu/cpuN/trace_pipe_raw
# to /dev/null or to /tmp).  The flood records the syscall events only
# (LTT: syscall_*, ftrace: raw_syscalls); the mixed workload every LTT
# event and the ftrace events of $FTRACE_MIXED.  Buffers: both tracers'
# defaults, but for the flood (ltt.bench_flood_buf).
# The uevent case logs user-space events (ltt-bench uevent), nobody
# recording or a tracer recording them alone, with its consumer
# discarding: empty (the loop), ltt-off and uev-off (LTT's and
# user_events' enable words clear), ltt-on (lttd --discard -e the event),
# marker (ftrace's trace_marker) and uev-on (the user event enabled), the
# ftrace variants with one reader per CPU to /dev/null.
# ltt-two (flood and mixed): two sessions recording the same events at
# once, each with its own lttd --discard: what a second session costs.
# ltt-cgroup (flood and mixed): the workload in a cgroup of its own,
# lttd --discard --cgroup on it: what the in-kernel cgroup filter costs a
# recorded event.  ltt-cgroup-out (flood): the filter names an empty
# cgroup, the workload runs outside it: what an event the filter
# rejects costs.
# The compile case is a real compiler at work, as make -j1 runs it
# (ltt-bench compile: Debian's tcc compiling tools-ltt's C files, one
# process a file), with the mixed case's variants and events.  The
# sustain case floods every CPU at once (ltt-bench flood-all) with
# lttd at its default buffers, writing to tmpfs or discarding: the rate
# lttd keeps up with, and what it loses.

set -e
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
# A command failing under set -e: say what the tracers said.
trap 'rc=$?; [ $rc -eq 0 ] || { echo "# bench: failed (exit $rc)"; cat $W/out $W/lttd.err $W/lttd2.err 2>/dev/null; }' EXIT

T=/sys/kernel/tracing
W=/tmp/bench
# cgroup2, for the ltt-cgroup variants: the workload's cgroup and an
# empty one.
CG=/sys/fs/cgroup
CG_IN=$CG/bench-in
CG_OUT=$CG/bench-out
# ftrace's counterparts of LTT's event set (kernel-trace/probes-*.c and
# the direct hooks): missing ones are skipped and left out of BENCH-INFO.
FTRACE_FLOOD="raw_syscalls:sys_enter raw_syscalls:sys_exit"
FTRACE_MIXED="$FTRACE_FLOOD
	sched:sched_switch sched:sched_waking sched:sched_process_fork
	sched:sched_process_exec sched:sched_process_exit sched:sched_process_wait
	signal:signal_generate
	irq:irq_handler_entry irq:irq_handler_exit irq:softirq_entry
	irq:tasklet_entry irq_vectors:local_timer_entry
	timer:timer_expire_entry timer:itimer_state
	exceptions:page_fault_user exceptions:page_fault_kernel
	kmem:mm_page_alloc kmem:mm_page_free
	net:net_dev_queue net:netif_receive_skb
	sock:sock_send_length sock:sock_recv_length"

# The value of ltt.$1= on the kernel command line, else $2.
arg() {
	v=
	for a in $(cat /proc/cmdline); do
		case $a in
		ltt.$1=*) v=${a#*=} ;;
		esac
	done
	echo "${v:-$2}"
}

MODE=$(arg bench full)
KERNEL=$(arg bench_kernel unknown)
ROUNDS=$(arg bench_rounds 3)
CASES=$(arg bench_cases flood,mixed,uevent,compile,sustain | tr , ' ')
COMPILE_PASSES=$(arg bench_compile 1)
SUSTAIN_N=$(arg bench_sustain 1000000)
FLOOD_N=$(arg bench_flood 1000000)
UEVENT_N=$(arg bench_uevent 200000)
FLOOD_BUF=$(arg bench_flood_buf 32)
MIXED=$(arg bench_mixed 300,100)
MIXED_N=${MIXED%,*} MIXED_WORK=${MIXED#*,}
DISABLED=$(arg bench_disabled 2000000,5)
DISABLED_N=${DISABLED%,*} DISABLED_REPS=${DISABLED#*,}
CPUS=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
# The consumers' CPU: the workloads pin themselves to CPU 0.
ON1=
[ "$CPUS" -gt 1 ] && ON1="taskset -c 1"
PROFILE=$(arg bench_profile untraced,ltt-norec,ltt-discard,ltt-two,ftrace-discard | tr , ' ')
LTT_BENCH_MARK=$(arg bench_mark 300)
export LTT_BENCH_MARK

# "ns=N" from the workload's output file $1.
ns_of() { sed -n 's/^ns=//p' "$1"; }

# Sum of the sizes of files $@.
size_of() {
	s=0
	for f in "$@"; do
		[ -f "$f" ] && s=$((s + $(stat -c %s "$f")))
	done
	echo $s
}

# lttd's totals line ("lttd: DIR: E events in P packets, S, L lost") in
# $1 as "events=E lost=L".
lttd_totals() {
	sed -n 's/^lttd: .*: \([0-9]*\) events in [0-9]* packets, .*, \([0-9]*\) lost$/events=\1 lost=\2/p' "$1"
}

# Enable the ftrace events $@ (system:name); the enabled ones on stdout.
ftrace_events() {
	echo 0 >$T/tracing_on
	echo >$T/set_event
	for e in "$@"; do
		[ -d "$T/events/${e%%:*}/${e#*:}" ] || continue
		echo "$e" >>$T/set_event
		echo "$e"
	done
}

# Clear the buffers, start a reader per CPU writing to $1/cpuN, record.
ftrace_start() {
	echo >$T/trace
	n=0
	while [ $n -lt "$CPUS" ]; do
		if [ "$1" = /dev/null ]; then out=/dev/null; else out=$1/cpu$n; fi
		rm -f $W/reader$n	# not the last run's "ready"
		$ON1 ltt-bench ftrace-read $n "$out" >$W/reader$n &
		eval "reader$n=$!"
		n=$((n + 1))
	done
	n=0
	while [ $n -lt "$CPUS" ]; do
		until grep -q ready $W/reader$n 2>/dev/null; do sleep 0.05; done
		n=$((n + 1))
	done
	echo 1 >$T/tracing_on
}

# Stop recording and the readers; $more="events=E bytes=B lost=L".  Not
# in a subshell: it waits for the readers, children of this shell.
ftrace_stop() {
	echo 0 >$T/tracing_on
	n=0
	while [ $n -lt "$CPUS" ]; do
		eval "kill -TERM \$reader$n"
		eval "wait \$reader$n"
		n=$((n + 1))
	done
	bytes=0 events=0 lost=0
	n=0
	while [ $n -lt "$CPUS" ]; do
		b=$(sed -n 's/^bytes=//p' $W/reader$n)
		bytes=$((bytes + ${b:-0}))
		# shellcheck disable=SC2046
		set -- $(awk -F': ' '
			$1 == "read events" { r = $2 }
			$1 == "entries" { e = $2 }
			$1 == "overrun" { o = $2 }
			$1 == "dropped events" { d = $2 }
			END { print r + e, o + d }' $T/per_cpu/cpu$n/stats)
		events=$((events + $1)) lost=$((lost + $2))
		n=$((n + 1))
	done
	echo >$T/set_event
	more="events=$events bytes=$bytes lost=$lost"
}

# run_uevent VARIANT ROUND: one user-space event run, one BENCH line
# ($n is the ftrace helpers' loop counter: the calls are $un).
run_uevent() {
	v=$1 r=$2 more='' un=$UEVENT_N
	case $v in
	empty) ltt-bench uevent empty "$un" >$W/out ;;
	ltt-off) ltt-bench uevent ltt "$un" >$W/out ;;
	uev-off) ltt-bench uevent user_events "$un" >$W/out ;;
	ltt-on)
		# The type exists before lttd -e names it.
		rm -f $W/hold	# not the last run's "ready"
		ltt-bench uevent-hold >$W/hold &
		hold=$!
		until grep -q ready $W/hold 2>/dev/null; do sleep 0.05; done
		$ON1 lttd --discard -e ltt_bench_event -- \
			ltt-bench uevent ltt "$un" >$W/out 2>$W/lttd.err
		kill "$hold"
		wait "$hold" || true
		more=$(lttd_totals $W/lttd.err) ;;
	marker|uev-on)
		ftrace_events >/dev/null
		ftrace_start /dev/null
		if [ "$v" = marker ]; then
			ltt-bench uevent marker "$un" >$W/out
		else
			LTT_BENCH_UEV_ON=1 ltt-bench uevent user_events "$un" >$W/out
		fi
		ftrace_stop ;;
	esac
	ns=$(ns_of $W/out)
	logged=$(sed -n 's/^logged=//p' $W/out)
	case $v in
	*-on|marker) want=yes ;;
	*) want=no ;;
	esac
	[ -n "$ns" ] && [ "$logged" = "$want" ] || {
		echo "# bench: uevent $v: logged=$logged, not $want"
		cat $W/out $W/lttd.err 2>/dev/null
		exit 1
	}
	echo "BENCH case=uevent variant=$v round=$r ns=$ns calls=$un $more"
}

# run CASE VARIANT ROUND: one measurement, one BENCH line.
run() {
	c=$1 v=$2 r=$3 extra='' more=''
	# LTT's probes leave a second after the last session closes
	# (session.c, ltt_disarm): after an LTT variant they must be gone,
	# or an untraced or ftrace run pays LTT's floor too.
	case $v in
	ltt-*) LTT_WAS_ON=1 ;;
	*)	[ -z "${LTT_WAS_ON:-}" ] || sleep 1.5
		LTT_WAS_ON= ;;
	esac
	if [ "$c" = uevent ]; then
		run_uevent "$v" "$r"
		return
	fi
	if [ "$c" = flood ]; then
		cmd="ltt-bench flood $FLOOD_N" ltt_ev="-e syscall_*"
		ft_ev=$FTRACE_FLOOD extra="calls=$FLOOD_N" ft_kb=$FT_DEFAULT_KB
		if [ "$FLOOD_BUF" -gt 0 ]; then
			ltt_ev="$ltt_ev -s 1M -n $FLOOD_BUF" ft_kb=$((FLOOD_BUF * 1024))
		fi
	elif [ "$c" = sustain ]; then
		cmd="ltt-bench flood-all $SUSTAIN_N" ltt_ev="-e syscall_*"
		ft_ev=$FTRACE_FLOOD extra="calls=$((SUSTAIN_N * CPUS))" ft_kb=$FT_DEFAULT_KB
	elif [ "$c" = compile ]; then
		cmd="ltt-bench compile /usr/src/ltt-bench-cc $COMPILE_PASSES" ltt_ev=
		ft_ev=$FTRACE_MIXED ft_kb=$FT_DEFAULT_KB extra="calls=$COMPILE_PASSES"
	else
		cmd="ltt-bench mixed $MIXED_N $MIXED_WORK" ltt_ev=
		ft_ev=$FTRACE_MIXED ft_kb=$FT_DEFAULT_KB
	fi
	rm -rf $W/trace $W/ftrace
	case $v in
	untraced)
		$cmd >$W/out ;;
	ltt-discard|ltt-norec)
		[ "$v" = ltt-norec ] && ltt_ev="-e process_fork"
		# shellcheck disable=SC2086
		$ON1 lttd --discard $ltt_ev -- $cmd >$W/out 2>$W/lttd.err
		more=$(lttd_totals $W/lttd.err) ;;
	ftrace-norec)
		# shellcheck disable=SC2086
		ftrace_events $ft_ev >/dev/null
		$cmd >$W/out
		echo >$T/set_event ;;
	ltt-cgroup|ltt-cgroup-out)
		cg=$CG_IN
		[ "$v" = ltt-cgroup-out ] && cg=$CG_OUT
		# The workload joins $CG_IN before it execs; lttd stays out.
		# shellcheck disable=SC2086
		$ON1 lttd --discard --cgroup "$cg" $ltt_ev -- \
			sh -c "echo \$\$ >$CG_IN/cgroup.procs && exec $cmd" \
			>$W/out 2>$W/lttd.err
		more=$(lttd_totals $W/lttd.err) ;;
	ltt-two)
		# Two sessions recording the same events: the first around
		# the second, which runs the workload; the events of both.
		rm -f $W/two.ready
		# shellcheck disable=SC2086
		$ON1 lttd --discard $ltt_ev -- \
			sh -c "echo \$\$ >$W/two.tmp; mv $W/two.tmp $W/two.ready; exec sleep 3600" \
			2>$W/lttd2.err &
		two=$!
		until [ -e $W/two.ready ]; do sleep 0.05; done
		# shellcheck disable=SC2086
		$ON1 lttd --discard $ltt_ev -- $cmd >$W/out 2>$W/lttd.err
		kill "$(cat $W/two.ready)"
		wait "$two" || true
		set -- $(lttd_totals $W/lttd.err) $(lttd_totals $W/lttd2.err)
		e1=${1#events=} l1=${2#lost=} e2=${3#events=} l2=${4#lost=}
		more="events=$((e1 + e2)) lost=$((l1 + l2)) events1=$e1 events2=$e2" ;;
	ltt-tmpfs)
		# shellcheck disable=SC2086
		$ON1 lttd -o $W/trace $ltt_ev -- $cmd >$W/out 2>$W/lttd.err
		more="$(lttd_totals $W/lttd.err) bytes=$(size_of $W/trace/channel0_*)" ;;
	ftrace-discard|ftrace-tmpfs)
		# shellcheck disable=SC2086
		ftrace_events $ft_ev >/dev/null
		[ "$(cat $T/buffer_size_kb)" = "$ft_kb" ] || echo "$ft_kb" >$T/buffer_size_kb
		if [ "$v" = ftrace-tmpfs ]; then
			mkdir -p $W/ftrace
			ftrace_start $W/ftrace
		else
			ftrace_start /dev/null
		fi
		$cmd >$W/out
		ftrace_stop ;;
	esac
	ns=$(ns_of $W/out)
	[ -n "$ns" ] || { echo "# bench: $c $v gave no time"; cat $W/out $W/lttd.err 2>/dev/null; exit 1; }
	rm -rf $W/trace $W/ftrace
	echo "BENCH case=$c variant=$v round=$r ns=$ns $extra $more"
}

# The variants of case $2 in round $1, rotated left by $1 - 1.
variants() {
	k=$1
	if [ "$2" = flood ]; then
		set -- untraced ltt-discard ltt-tmpfs ftrace-discard ftrace-tmpfs \
			ltt-norec ftrace-norec ltt-two ltt-cgroup ltt-cgroup-out
	elif [ "$2" = uevent ]; then
		set -- empty ltt-off uev-off ltt-on marker uev-on
	elif [ "$2" = sustain ]; then
		set -- ltt-tmpfs ltt-discard
	elif [ "$2" = mixed ]; then
		set -- untraced ltt-discard ltt-tmpfs ftrace-discard ftrace-tmpfs \
			ltt-two ltt-cgroup
	else
		set -- untraced ltt-discard ltt-tmpfs ftrace-discard ftrace-tmpfs \
			ltt-two
	fi
	k=$(((k - 1) % $#))
	while [ "$k" -gt 0 ]; do
		x=$1
		shift
		set -- "$@" "$x"
		k=$((k - 1))
	done
	echo "$@"
}

main() {
	mkdir -p $W
	ip link set lo up
	mount -t cgroup2 cgroup2 $CG 2>/dev/null || true
	mkdir -p $CG_IN $CG_OUT 2>/dev/null || true
	echo "BENCH-INFO uname=$(uname -r) cpus=$CPUS kernel=$KERNEL mode=$MODE" \
		"mem_kb=$(sed -n 's/^MemTotal: *\([0-9]*\).*/\1/p' /proc/meminfo)"
	echo "BENCH-INFO flood_calls=$FLOOD_N mixed_jobs=$MIXED_N mixed_work=$MIXED_WORK" \
		"disabled_calls=$DISABLED_N disabled_reps=$DISABLED_REPS rounds=$ROUNDS" \
		"uevent_calls=$UEVENT_N compile_passes=$COMPILE_PASSES" \
		"compile_files=$(wc -l </usr/src/ltt-bench-cc/FILES 2>/dev/null || echo 0)" \
		"sustain_calls=$SUSTAIN_N"
	# The disabled cost: the flood, and the mixed workload (which goes
	# through LTT's direct hooks: traps, the tick, schedule_timeout()).
	[ "$MODE" = profile ] || ltt-bench mixed "$MIXED_N" "$MIXED_WORK" >/dev/null
	i=1
	[ "$MODE" = profile ] && i=$((DISABLED_REPS + 1))
	while [ $i -le "$DISABLED_REPS" ]; do
		ltt-bench flood "$DISABLED_N" >$W/out
		echo "BENCH case=disabled variant=$KERNEL round=$i calls=$DISABLED_N ns=$(ns_of $W/out)"
		ltt-bench mixed "$MIXED_N" "$MIXED_WORK" >$W/out
		echo "BENCH case=disabled-mixed variant=$KERNEL round=$i calls=1 ns=$(ns_of $W/out)"
		i=$((i + 1))
	done
	[ "$MODE" = full ] || [ "$MODE" = profile ] || return 0

	# shellcheck disable=SC2086
	echo "BENCH-INFO ftrace_mixed_events=$(ftrace_events $FTRACE_MIXED | tr '\n' ,)" \
		"ftrace_clock=$(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)"
	echo >$T/set_event
	# Enabling events gave the buffers their default size.
	FT_DEFAULT_KB=$(cat $T/buffer_size_kb)
	echo "BENCH-INFO ftrace_buffer_kb=$FT_DEFAULT_KB flood_buffer_mib=$FLOOD_BUF"
	# Warm up: page cache, first execs, the sockets' and ftrace's buffers.
	echo "# bench: warming up"
	if [ "$MODE" = profile ]; then
		# make profile: one flood of each variant, in this order, each
		# a window of the plugin's counts (round 0 the warm-up).
		run flood ftrace-discard 0
		for v in $PROFILE; do
			run flood "$v" 1
		done
		return 0
	fi
	run flood ftrace-discard 0 >/dev/null
	case " $CASES " in
	*" compile "*) run compile untraced 0 >/dev/null ;;
	esac
	case " $CASES " in
	*" mixed "*)
		run mixed ltt-discard 0 >/dev/null
		run mixed untraced 0 >/dev/null ;;
	esac
	r=1
	while [ $r -le "$ROUNDS" ]; do
		for c in $CASES; do
			for v in $(variants "$r" "$c"); do
				echo "# bench: round $r/$ROUNDS: $c $v"
				run "$c" "$v" "$r"
			done
		done
		r=$((r + 1))
	done
}

main
# The clocksource once the TSC has left its early calibration.
echo "BENCH-INFO kernel=$KERNEL" \
	"clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
