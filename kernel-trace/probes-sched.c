// SPDX-License-Identifier: GPL-2.0
/*
 * LTT probes on the scheduler: which task leaves a CPU and which comes in,
 * and which is woken.
 */
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <trace/events/sched.h>

#include "internal.h"

static void ltt_probe_sched_switch(void *data, bool preempt,
				   struct task_struct *prev,
				   struct task_struct *next,
				   unsigned int prev_state)
{
	/* A preempted task is still runnable, whatever its state. */
	ltt_write_sched_change(prev, next, preempt ? TASK_RUNNING : prev_state);
}

/* At sched_waking the task still has the state it is woken from. */
static void ltt_probe_sched_waking(void *data, struct task_struct *p)
{
	struct ltt_rec_process_wakeup rec = {
		.pid = p->pid,
		.state = READ_ONCE(p->__state),
	};

	ltt_log_process_wakeup(&rec);
}

static int ltt_sched_attach(void)
{
	int ret;

	ret = register_trace_sched_switch(ltt_probe_sched_switch, NULL);
	if (ret)
		return ret;
	ret = register_trace_sched_waking(ltt_probe_sched_waking, NULL);
	if (ret)
		unregister_trace_sched_switch(ltt_probe_sched_switch, NULL);
	return ret;
}

static void ltt_sched_detach(void)
{
	unregister_trace_sched_waking(ltt_probe_sched_waking, NULL);
	unregister_trace_sched_switch(ltt_probe_sched_switch, NULL);
}

const struct ltt_probe_group ltt_sched_probes = {
	.name	= "sched",
	.attach	= ltt_sched_attach,
	.detach	= ltt_sched_detach,
};
