// SPDX-License-Identifier: GPL-2.0
/*
 * libltt's enable flags without a kernel: the word of an fd libltt did
 * not make reads "on" (the system call decides), and a clear word makes
 * LTT_EVENT_LOG() return before any call.  tests/cli.sh checks the rest
 * (ltt log on the fake kernel: flag, no call, an older kernel).
 */
#include <errno.h>
#include <stdint.h>

#include "tests.h"

void enable_flag_of_an_unknown_fd_is_always_on(void **state)
{
	(void)state;
	assert_true(ltt_event_on(ltt_event_flag(-1)));
	assert_true(ltt_event_on(ltt_event_flag(0)));
	assert_true(ltt_event_on(ltt_event_flag(1023)));
	assert_true(ltt_event_on(ltt_event_flag(1 << 20)));
	/* "On": the call is made, and fails for a bad fd. */
	assert_int_equal(ltt_event_log(-1, "x", 2), -1);
}

void enable_flag_clear_makes_no_call(void **state)
{
	const volatile uint32_t off = 0;

	(void)state;
	errno = 0;
	assert_int_equal(LTT_EVENT_LOG(-1, &off, "x", 2), 0);
	assert_int_equal(errno, 0);
	assert_int_equal(LTT_EVENT_LOG(-1, ltt_event_flag(-1), "x", 2), -1);
}
