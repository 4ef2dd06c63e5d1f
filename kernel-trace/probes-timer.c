// SPDX-License-Identifier: GPL-2.0
/*
 * LTT probes on timers: expiry and setitimer.  The tick and
 * schedule_timeout() have no tracepoint and are direct hooks
 * (<linux/ltt.h>).
 */
#include <linux/time64.h>
#include <linux/timer.h>
#include <trace/events/timer.h>

#include "internal.h"

static void ltt_probe_timer_expire(void *data, struct timer_list *timer,
				   unsigned long baseclk)
{
	struct ltt_rec_timer_expired rec = {};

	ltt_log_timer_expired(&rec);
}

static void ltt_probe_itimer(void *data, int which,
			     const struct itimerspec64 *const value,
			     unsigned long long expires)
{
	struct ltt_rec_timer_setitimer rec = {
		.which = which,
		.value_us = ltt_time_us(value->it_value.tv_sec,
					value->it_value.tv_nsec /
					NSEC_PER_USEC),
	};

	ltt_log_timer_setitimer(&rec);
}

static int ltt_timer_attach(void)
{
	int ret;

	ret = register_trace_timer_expire_entry(ltt_probe_timer_expire, NULL);
	if (ret)
		return ret;
	ret = register_trace_itimer_state(ltt_probe_itimer, NULL);
	if (ret)
		unregister_trace_timer_expire_entry(ltt_probe_timer_expire,
						    NULL);
	return ret;
}

static void ltt_timer_detach(void)
{
	unregister_trace_itimer_state(ltt_probe_itimer, NULL);
	unregister_trace_timer_expire_entry(ltt_probe_timer_expire, NULL);
}

const struct ltt_probe_group ltt_timer_probes = {
	.name	= "timer",
	.attach	= ltt_timer_attach,
	.detach	= ltt_timer_detach,
};
