#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo, in the guest (ltt.script=demo.sh): lttd records a short mixed
# workload, ltt prints its statistics and first events, and the trace is
# written as a tar to the raw disk /dev/vda for scripts/demo.sh to unpack.

set -e
ip link set lo up 2>/dev/null || true

echo "# demo: lttd -o /tmp/demo-trace -- sh /ltt/demo-workload.sh"
lttd -q -o /tmp/demo-trace -- sh /ltt/demo-workload.sh
echo "# demo: ltt stats"
ltt stats /tmp/demo-trace
echo "# demo: ltt report (first 30 events)"
ltt report /tmp/demo-trace | head -30
if [ -b /dev/vda ]; then
	tar cf /dev/vda -C /tmp demo-trace
	echo "# demo: trace written to /dev/vda"
fi
