#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The flight recorder across a crash, in the guest (ltt.script=crash-test.sh;
# the host side is scripts/crash-test.sh, which boots twice on the same
# RAM).  ltt.phase= on the kernel command line says which boot this is:
#
#   panic    floods both CPUs, logs markers, damages two closed packets
#            of CPU 0 on purpose (debugfs persist_damage, printed as
#            "CRASH-TEST: damaged CPU SEQ"), then panics (sysrq c)
#   reboot   logs markers, then reboot -f: an orderly restart
#   flood    floods both CPUs and restarts in the middle of it (sysrq b)
#   collect  the next boot: lttd --previous-boot writes the trace, which
#            goes to /dev/vda as a tar for the host, with lttd's output;
#            then ltt_persist_test, which frees the kernel's copy last,
#            and lttd --previous-boot again, which must find none
#
# Lines starting "CRASH-TEST:" are for the host.

phase=
for arg in $(cat /proc/cmdline); do
	case $arg in
	ltt.phase=*) phase=${arg#*=} ;;
	esac
done

# flood SECONDS: system calls on every CPU, in the background
flood() {
	for cpu in 0 1; do
		taskset -c "$cpu" sh -c "end=\$((\$(date +%s) + $1));
			while [ \$(date +%s) -lt \$end ]; do
				dd if=/dev/zero of=/dev/null bs=1 count=2000 2>/dev/null
			done" &
	done
}

markers() {
	i=1
	while [ "$i" -le "$1" ]; do
		ltt log "crash-test marker $i"
		i=$((i + 1))
	done
}

case $phase in
panic)
	flood 3
	wait
	markers 20
	echo "0 3 2" >/sys/kernel/debug/ltt/persist_damage || exit 1
	sed 's/^/CRASH-TEST: damaged /' /sys/kernel/debug/ltt/persist_damage
	echo "CRASH-TEST: panicking"
	echo c >/proc/sysrq-trigger
	;;
reboot)
	flood 2
	wait
	markers 20
	echo "CRASH-TEST: rebooting"
	reboot -f
	sleep 30
	;;
flood)
	flood 5
	sleep 2
	echo "CRASH-TEST: restarting under the flood"
	echo b >/proc/sysrq-trigger
	;;
collect)
	rc=0
	lttd --previous-boot -o /tmp/prev >/tmp/lttd.out 2>&1 || rc=$?
	sed 's/^/CRASH-TEST: lttd: /' /tmp/lttd.out
	echo "CRASH-TEST: lttd exit $rc"
	[ "$rc" = 0 ] || exit 1
	(cd /tmp && tar -cf /dev/vda prev lttd.out) || exit 1
	/ltt/ltt_persist_test || exit 1
	rc=0
	lttd --previous-boot -o /tmp/again >/tmp/again.out 2>&1 || rc=$?
	sed 's/^/CRASH-TEST: again: /' /tmp/again.out
	echo "CRASH-TEST: again exit $rc"
	[ "$rc" = 2 ] || exit 1
	;;
*)
	echo "crash-test.sh: no ltt.phase= (panic, reboot, flood, collect)"
	exit 1
	;;
esac
# A phase that ends the machine does not get here.
[ "$phase" = collect ] || exit 1
