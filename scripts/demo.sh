#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo: boot the traced kernel, record a short mixed workload with
# lttd (scripts/guest/demo.sh), print `ltt stats` and the first lines of
# `ltt report`, and leave the trace on the host in build/demo-trace/.
#
#   scripts/demo.sh          the demo
#   scripts/demo.sh --e2e    then check that babeltrace2 and ltt report
#                            agree on it (tools-ltt/tests/e2e.sh)

source "$(dirname "$0")/lib.sh"

DISK=$LTT_BUILD/demo.img
TRACE=$LTT_BUILD/demo-trace

main() {
	local e2e=${1:-}

	boot_guest_script demo.sh "$DISK" 64M
	rm -rf "$TRACE"
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
	fi
}

main "$@"; exit
