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
# recorded on meanwhile, never stopped.  Then lttd --overwrite
# --snapshot-on trig records a workload that logs markers and, twice, the
# custom event trig (ltt log -e trig, whose type the first one makes):
# each trig must give a snapshot of its own, "(event trig)", holding that
# trig after the markers before it; the markers (user_message, custom
# events too) give none.  The snapshots go to /dev/vda as a tar, for the
# host to read with babeltrace2 and its own ltt.
#
#   snapshot-test.sh                    the test
#   snapshot-test.sh workload           what lttd records
#   snapshot-test.sh trigger-workload   what lttd --snapshot-on records

D=/tmp/flight
T=/tmp/trig
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

# wait_dir DIR: until it appears (a minute at most)
wait_dir() {
	t=0
	while [ ! -d "$1" ] && [ $t -lt 600 ]; do
		sleep 0.1
		t=$((t + 1))
	done
}

if [ "${1:-}" = trigger-workload ]; then
	log_markers 1 20
	ltt log -e trig "fire 1"
	wait_dir $T/snapshot-1
	log_markers 21 30
	ltt log -e trig "fire 2"
	wait_dir $T/snapshot-2
	log_markers 31 35
	exit 0
fi

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

# expect_seq NAME DIR WANT: DIR's markers and trig events, in order
# ("m1 m2 ... fire1 m21 ..."), are WANT
expect_seq() {
	got=$(ltt report -e user_message,trig "$2" |
		sed -n 's/.*text="marker \([0-9]*\)"$/m\1/p; s/.*text="fire \([0-9]*\)"$/fire\1/p' |
		tr '\n' ' ')
	if [ "$got" = "$3 " ]; then
		echo "ok: $1: $3"
	else
		echo "FAIL: $1: \"$got\", expected \"$3\""
		fails=$((fails + 1))
	fi
}
# markers FROM TO: "mFROM ... mTO"
markers() { seq -s ' ' "$1" "$2" | sed 's/\([0-9][0-9]*\)/m\1/g'; }

echo "# snapshot-test: lttd --overwrite --snapshot-on trig -s 256k -n 64 -o $T -- $self trigger-workload"
lttd --overwrite --snapshot-on trig -s 256k -n 64 -o $T -- $self trigger-workload 2>$T.err
rc=$?
cat $T.err
[ $rc = 0 ] || { echo "FAIL: lttd --snapshot-on exited with $rc"; fails=$((fails + 1)); }
ls $T
got=$(ls $T | tr '\n' ' ')
if [ "$got" = "snapshot-1 snapshot-2 snapshot-3 " ]; then
	echo "ok: --snapshot-on: 3 snapshots, 2 of trig and exit's"
else
	echo "FAIL: --snapshot-on: snapshots \"$got\", expected snapshot-1 snapshot-2 snapshot-3"
	fails=$((fails + 1))
fi
for n in 1 2; do
	if grep -q "^lttd: snapshot $n (event trig): $T/snapshot-$n: " $T.err; then
		echo "ok: snapshot $n: its reason is event trig"
	else
		echo "FAIL: snapshot $n: no line \"lttd: snapshot $n (event trig): ...\""
		fails=$((fails + 1))
	fi
done
if grep -q "^lttd: snapshot 3 (exit): " $T.err; then
	echo "ok: snapshot 3: exit's"
else
	echo "FAIL: snapshot 3: not exit's"
	fails=$((fails + 1))
fi
expect_seq "trigger snapshot 1" $T/snapshot-1 "$(markers 1 20) fire1"
expect_seq "trigger snapshot 2" $T/snapshot-2 "$(markers 1 20) fire1 $(markers 21 30) fire2"
expect_seq "trigger snapshot 3 (exit)" $T/snapshot-3 "$(markers 1 20) fire1 $(markers 21 30) fire2 $(markers 31 35)"
cp $T.err $T/lttd.err
if [ -b /dev/vda ]; then
	tar cf /dev/vda -C /tmp flight trig
	echo "# snapshot-test: snapshots written to /dev/vda"
fi
echo "# snapshot-test: $fails failures"
[ $fails = 0 ]
