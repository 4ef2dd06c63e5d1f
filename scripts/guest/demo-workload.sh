#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A short mixed workload for the demo and the end-to-end test: processes,
# files, a pipe and loopback UDP, and custom events: a module's (the
# kprobe samples, loaded while lttd records: the metadata follows) and
# user space's (ltt log).

for m in ltt_unlink ltt_kill; do
	[ -f /ltt/$m.ko ] && insmod /ltt/$m.ko
done
ltt log "demo workload starts"

for i in 1 2 3 4 5; do
	/bin/true
	echo "line $i" >/tmp/demo-file
	cat /tmp/demo-file >/dev/null
	ls /ltt >/dev/null
	echo hello | tr a-z A-Z >/dev/null
	rm /tmp/demo-file
done
# Loopback UDP: busybox's nc has no -u, so a program of ours
# (scripts/guest/udp-ping.c) sends datagrams to itself.
udp-ping 3
sleep 10 &
kill $!
ltt log "demo workload ends"
sleep 0.3
