#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo: boot the traced kernel, record a short mixed workload with
# lttd (scripts/guest/demo.sh), print `ltt stats` and the first lines of
# `ltt report`, and leave the trace on the host in build/demo-trace/.
# The terminal shows the guest from /init on; the whole console is in
# build/boot-default.log (LTT_CONSOLE_FROM= shows it all).
#
#   scripts/demo.sh          the demo
#   scripts/demo.sh --e2e    then check that babeltrace2 and ltt report
#                            agree on it (tools-ltt/tests/e2e.sh); and
#                            boot with a boot session (BOOT_LINE), which
#                            the guest takes over first (lttd --boot):
#                            its trace, build/boot-trace/, checked the
#                            same way and by the start-up analysis
#                            (tools-ltt/tests/startup-e2e.sh)

source "$(dirname "$0")/lib.sh"

DISK=$LTT_BUILD/demo.img
TRACE=$LTT_BUILD/demo-trace
BOOT_TRACE=$LTT_BUILD/boot-trace
# Processes and scheduling from boot: what the start-up analysis reads.
# Wakeups left out: a debug kernel's boot overflows 4M per CPU of them.
BOOT_LINE=ltt.boot=events=process_fork+process_exec+process_exit+sched_change,size=4M

main() {
	local e2e=${1:-}

	[[ $e2e == --e2e ]] && export LTT_APPEND="${LTT_APPEND:-} $BOOT_LINE"
	# The kernel's boot messages stay in the log: the demo starts at /init.
	LTT_CONSOLE_FROM=${LTT_CONSOLE_FROM-^LTT-INIT:} \
		boot_guest_script demo.sh "$DISK" 64M
	rm -rf "$TRACE" "$BOOT_TRACE"
	tar -xf "$DISK" -C "$LTT_BUILD" ||
		die "no trace on $DISK: see build/boot-$LTT_FLAVOUR.log"
	[[ -f $TRACE/metadata ]] || die "$TRACE has no metadata"
	"$LTT_ROOT/tools-ltt/build/ltt" stats "$TRACE" >/dev/null ||
		die "the host's ltt cannot read $TRACE"
	log "the trace is in build/demo-trace/; on the host, read it with"
	log "  tools-ltt/build/ltt report build/demo-trace"
	log "  tools-ltt/build/ltt view build/demo-trace   (a timeline: demo-trace.html)"
	log "  babeltrace2 build/demo-trace"
	if [[ $e2e == --e2e ]]; then
		# Custom events of a module and of user space, decoded.
		E2E_REQUIRE="unlink kill user_message" \
		"$LTT_ROOT/tools-ltt/tests/e2e.sh" "$TRACE" \
			"$LTT_ROOT/tools-ltt/build/ltt"
		[[ -f $BOOT_TRACE/metadata ]] ||
			die "no boot trace in $DISK: see build/boot-$LTT_FLAVOUR.log"
		E2E_REQUIRE="process_exec user_message" \
		"$LTT_ROOT/tools-ltt/tests/e2e.sh" "$BOOT_TRACE" \
			"$LTT_ROOT/tools-ltt/build/ltt"
		"$LTT_ROOT/tools-ltt/tests/startup-e2e.sh" "$BOOT_TRACE" \
			"$LTT_ROOT/tools-ltt/build/ltt" "boot done"
	fi
}

main "$@"; exit
