#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo, in the guest (ltt.script=demo.sh): lttd records a short mixed
# workload, ltt prints its statistics and first events, and the trace is
# written as a tar to the raw disk /dev/vda for scripts/demo.sh to unpack;
# with a boot session, its trace too, taken over first (lttd --boot).

set -e
ip link set lo up 2>/dev/null || true
# The console shows the demo, not the kernel's late informational
# messages (a mouse found mid-output); warnings and worse still show,
# and scripts/boot.sh still judges them.
dmesg -n 5 || true

# The boot session (ltt.boot=, which make e2e asks for): written out
# first, up to a marker, and its start-up told.
boot=
if grep -q 'ltt\.boot=' /proc/cmdline; then
	echo "# demo: lttd --boot -o /tmp/boot-trace -- ltt log \"demo: boot done\""
	lttd --boot -q -o /tmp/boot-trace -- ltt log "demo: boot done"
	echo "# demo: ltt analyze -a startup --until \"boot done\" /tmp/boot-trace"
	ltt analyze -a startup -n 8 --until "boot done" /tmp/boot-trace ||
		echo "# demo: ltt analyze -a startup: exit status $?"
	boot=boot-trace
fi

echo "# demo: lttd -o /tmp/demo-trace -- sh /ltt/demo-workload.sh"
lttd -q -o /tmp/demo-trace -- sh /ltt/demo-workload.sh
echo "# demo: ltt stats"
ltt stats /tmp/demo-trace
echo "# demo: ltt report (first 30 events)"
ltt report /tmp/demo-trace | head -30
if [ -b /dev/vda ]; then
	tar cf /dev/vda -C /tmp demo-trace $boot
	echo "# demo: trace written to /dev/vda"
fi
