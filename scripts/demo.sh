#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo: boot the traced kernel, record a short mixed workload with
# lttd (scripts/guest/demo.sh), print `ltt stats` and the first lines of
# `ltt report`, and leave the trace on the host in build/demo-trace/.
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
	boot_guest_script demo.sh "$DISK" 64M
	rm -rf "$TRACE" "$BOOT_TRACE"
	tar -xf "$DISK" -C "$LTT_BUILD" ||
		die "no trace on $DISK: see build/boot-$LTT_FLAVOUR.log"
	[[ -f $TRACE/metadata ]] || die "$TRACE has no metadata"
	log "the trace is in $TRACE; on the host:"
	"$LTT_ROOT/tools-ltt/build/ltt" stats "$TRACE" | head -25
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
