#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The flight recorder's live snapshots, in the guest
# (ltt.script=snapshot-test.sh; the host side is scripts/snapshot-test.sh).
# lttd --overwrite records a workload that logs markers (ltt log N) and
# asks for a snapshot twice with SIGUSR1, through lttd's pid file; lttd
# writes a last one when the workload ends.  Each snapshot must hold its
# markers in order, from the first, none missing (the ring is big
# enough), the second those logged after the first too: the recorder
# recorded on meanwhile, never stopped.  The snapshots go to /dev/vda as
# a tar, for the host to read with babeltrace2 and its own ltt.
#
#   snapshot-test.sh            the test
#   snapshot-test.sh workload   what lttd records

D=/tmp/flight
self=/ltt/snapshot-test.sh
fails=0

# log_markers FROM TO: one `ltt log` each, "marker N"
log_markers() {
	i=$1
	while [ "$i" -le "$2" ]; do
		ltt log "marker $i"
		i=$((i + 1))
	done
}

# snapshot N: SIGUSR1 to lttd, then wait for DIR/snapshot-N
snapshot() {
	kill -USR1 "$(cat $D/lttd.pid)"
	t=0
	while [ ! -d $D/snapshot-$1 ] && [ $t -lt 600 ]; do
		sleep 0.1
		t=$((t + 1))
	done
}

if [ "${1:-}" = workload ]; then
	log_markers 1 40
	snapshot 1
	log_markers 41 80
	snapshot 2
	log_markers 81 100
	exit 0
fi

# expect NAME DIR FROM TO: DIR's markers are FROM..TO, in order
expect() {
	got=$(ltt report -e user_message "$2" | sed -n 's/.*text="marker \([0-9]*\)"$/\1/p' | tr '\n' ' ')
	want=$(seq -s ' ' "$3" "$4")
	if [ "$got" = "$want " ]; then
		echo "ok: $1: markers $3..$4 in order"
	else
		echo "FAIL: $1: markers \"$got\", expected $3..$4"
		fails=$((fails + 1))
	fi
}

echo "# snapshot-test: lttd --overwrite -s 256k -n 64 -o $D -- $self workload"
lttd --overwrite -s 256k -n 64 -o $D -- $self workload 2>$D.err
rc=$?
cat $D.err
[ $rc = 0 ] || { echo "FAIL: lttd exited with $rc"; fails=$((fails + 1)); }
ls $D
expect "snapshot 1 (SIGUSR1)" $D/snapshot-1 1 40
expect "snapshot 2 (SIGUSR1)" $D/snapshot-2 1 80
expect "snapshot 3 (exit)" $D/snapshot-3 1 100
if grep -q 'without live snapshots' $D.err; then
	echo "FAIL: the kernel has no live snapshot: lttd stopped the recorder"
	fails=$((fails + 1))
fi
for n in 1 2 3; do
	echo "# snapshot-test: ltt stats $D/snapshot-$n"
	ltt stats $D/snapshot-$n | head -3
done
cp $D.err $D/lttd.err
if [ -b /dev/vda ]; then
	tar cf /dev/vda -C /tmp flight
	echo "# snapshot-test: snapshots written to /dev/vda"
fi
echo "# snapshot-test: $fails failures"
[ $fails = 0 ]
