#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Streaming to lttng-relayd in the guest (ltt.script=relayd.sh), all on
# the guest's loopback: Debian's lttng-relayd (copied in with its
# libraries by scripts/relayd-guest.sh), lttd streaming the real kernel's
# trace of the demo workload to it while writing it locally too, and
# babeltrace2 -i lttng-live watching it live.  Everything goes as a tar
# to the raw disk /dev/vda for the host to compare.

ip link set lo up 2>/dev/null || true
export HOME=/root
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
out=/tmp/relayd-test
mkdir -p $out/relayd $HOME /var/run/lttng
# relayd gives its health socket to the group "tracing"
grep -q '^tracing:' /etc/group || echo 'tracing:x:990:' >>/etc/group

lttng-relayd -o $out/relayd -C tcp://127.0.0.1:5342 -D tcp://127.0.0.1:5343 \
	-L tcp://127.0.0.1:5344 >$out/relayd.log 2>&1 &
relayd=$!
i=0
until netstat -ltn 2>/dev/null | grep -q ':5342 '; do
	i=$((i + 1))
	[ $i -gt 100 ] && { echo "# relayd: lttng-relayd did not listen"; break; }
	sleep 0.1
done

echo "# relayd: lttd -o $out/local --relayd 127.0.0.1 -- the demo workload"
lttd -q -o $out/local --relayd 127.0.0.1 --session demo --hostname guest \
	-- sh -c 'sleep 3; sh /ltt/demo-workload.sh; sleep 2' 2>$out/lttd.err &
lttd=$!
i=0
until babeltrace2 -i lttng-live net://127.0.0.1:5344 2>/dev/null | grep -q guest/demo; do
	i=$((i + 1))
	[ $i -gt 50 ] && break
	sleep 0.1
done
# --clock-cycles: the trace clock's raw value, CLOCK_MONOTONIC ns, which
# /proc/uptime tells too (boot time: a guest does not suspend)
babeltrace2 --no-delta --clock-cycles -i lttng-live net://127.0.0.1:5344/host/guest/demo \
	>$out/live.txt 2>$out/live.err &
viewer=$!
seen=0
# every 0.2 s: the time now and that of the newest event in the view
while kill -0 $lttd 2>/dev/null; do
	if [ -s $out/live.txt ]; then
		seen=$(wc -l <$out/live.txt)
		echo "$(cut -d' ' -f1 /proc/uptime) $(tail -1 $out/live.txt | cut -d']' -f1 | tr -d '[')" >>$out/lag
	fi
	sleep 0.2
done
wait $lttd
echo "$?" >$out/lttd.status
echo "$seen" >$out/seen-while-running
sleep 3
kill $viewer $relayd 2>/dev/null
wait $viewer $relayd 2>/dev/null
cat $out/lttd.err
echo "# relayd: lttd status $(cat $out/lttd.status), $seen events seen live while it ran, $(wc -l <$out/live.txt) in all"
if [ -b /dev/vda ]; then
	tar cf /dev/vda -C /tmp relayd-test
	echo "# relayd: results written to /dev/vda"
fi
[ "$(cat $out/lttd.status)" = 0 ]
