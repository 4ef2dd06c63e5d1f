// SPDX-License-Identifier: GPL-2.0
/*
 * LTT probes on interrupts, softirqs and tasklets.
 */
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <asm/irq_regs.h>
#include <trace/events/irq.h>

#include "internal.h"

/* The softirq running on this CPU: tells a tasklet from a hi-tasklet. */
static DEFINE_PER_CPU(unsigned int, ltt_softirq_vec);

static void ltt_probe_irq_entry(void *data, int irq, struct irqaction *action)
{
	struct pt_regs *regs = get_irq_regs();
	struct ltt_rec_irq_entry rec = {
		.irq = irq,
		.kernel = !regs || !user_mode(regs),
	};

	ltt_log_irq_entry(&rec);
}

static void ltt_probe_irq_exit(void *data, int irq, struct irqaction *action,
			       int ret)
{
	struct ltt_rec_irq_exit rec = {};

	ltt_log_irq_exit(&rec);
}

static void ltt_probe_softirq(void *data, unsigned int vec)
{
	struct ltt_rec_softirq rec = { .vec = vec };

	this_cpu_write(ltt_softirq_vec, vec);
	ltt_log_softirq(&rec);
}

static void ltt_probe_tasklet(void *data, struct tasklet_struct *t, void *func)
{
	if (this_cpu_read(ltt_softirq_vec) == HI_SOFTIRQ) {
		struct ltt_rec_tasklet_hi_action rec = {
			.func = ltt_code_addr(func),
		};

		ltt_log_tasklet_hi_action(&rec);
	} else {
		struct ltt_rec_tasklet_action rec = {
			.func = ltt_code_addr(func),
		};

		ltt_log_tasklet_action(&rec);
	}
}

static int ltt_irq_attach(void)
{
	int ret;

	ret = register_trace_irq_handler_entry(ltt_probe_irq_entry, NULL);
	if (ret)
		return ret;
	ret = register_trace_irq_handler_exit(ltt_probe_irq_exit, NULL);
	if (ret)
		goto no_exit;
	ret = register_trace_softirq_entry(ltt_probe_softirq, NULL);
	if (ret)
		goto no_softirq;
	ret = register_trace_tasklet_entry(ltt_probe_tasklet, NULL);
	if (ret)
		goto no_tasklet;
	return 0;

no_tasklet:
	unregister_trace_softirq_entry(ltt_probe_softirq, NULL);
no_softirq:
	unregister_trace_irq_handler_exit(ltt_probe_irq_exit, NULL);
no_exit:
	unregister_trace_irq_handler_entry(ltt_probe_irq_entry, NULL);
	return ret;
}

static void ltt_irq_detach(void)
{
	unregister_trace_tasklet_entry(ltt_probe_tasklet, NULL);
	unregister_trace_softirq_entry(ltt_probe_softirq, NULL);
	unregister_trace_irq_handler_exit(ltt_probe_irq_exit, NULL);
	unregister_trace_irq_handler_entry(ltt_probe_irq_entry, NULL);
}

const struct ltt_probe_group ltt_irq_probes = {
	.name	= "irq",
	.attach	= ltt_irq_attach,
	.detach	= ltt_irq_detach,
};
