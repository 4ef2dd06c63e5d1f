// SPDX-License-Identifier: GPL-2.0
/*
 * The LTT trace clock on x86: CLOCK_MONOTONIC, read from the TSC.
 *
 * ktime_get_mono_fast_ns() costs a seqcount loop and an indirect call
 * to the clocksource; the write path pays it for every record.  Where
 * the TSC is what the kernel trusts for sched_clock() (constant rate,
 * synchronized across CPUs), a record's time is instead
 *
 *	ns0 + (tsc - tsc0) * mult >> 32
 *
 * from an anchor (tsc0, ns0) that pairs a TSC reading with the fast
 * clock.  A worker takes a fresh anchor every second while a session
 * records, so that the trace clock follows CLOCK_MONOTONIC wherever NTP
 * slews it; between anchors they part by the slew alone, at most 500 ppm.
 * There are two anchors: the worker fills the one no writer reads, a
 * grace period after the last switch, and switches.  Until the first
 * anchor, and whenever no session records, the writers read the fast
 * clock.  A step back at a
 * switch is absorbed by the write path's clamp (buffer.h, lb_clock()).
 * When the TSC loses the kernel's trust, the writers go back to the
 * fast clock.
 */
#include <linux/math64.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/syscore_ops.h>
#include <linux/workqueue.h>
#include <asm/tsc.h>

#include "clock.h"

struct ltt_tsc_anchor ltt_tsc_anchors[2];
unsigned int ltt_tsc_cur = LTT_TSC_OFF;

/* A session records: renew the anchor every second. */
static bool ltt_clock_wanted;

static void ltt_clock_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(ltt_clock_work, ltt_clock_work_fn);

/* Take a fresh anchor, or stop using the TSC.  Process context. */
static void ltt_tsc_anchor(void)
{
	unsigned int cur = READ_ONCE(ltt_tsc_cur), next = cur == 0;
	unsigned int khz = READ_ONCE(tsc_khz);
	struct ltt_tsc_anchor *a = &ltt_tsc_anchors[next];
	unsigned long flags;
	u64 tsc, ns;

	if (!boot_cpu_has(X86_FEATURE_TSC) || !khz || !sched_clock_stable()) {
		WRITE_ONCE(ltt_tsc_cur, LTT_TSC_OFF);
		return;
	}
	/* No writer still reads the anchor that was current before. */
	synchronize_rcu();
	a->mult = div_u64((u64)NSEC_PER_MSEC << LTT_TSC_SHIFT, khz);
	local_irq_save(flags);
	tsc = rdtsc_ordered();
	ns = ktime_get_mono_fast_ns();
	local_irq_restore(flags);
	/* A millisecond back: another CPU's TSC may be a little behind. */
	a->tsc0 = tsc - khz;
	a->ns0 = ns - mul_u64_u64_shr(khz, a->mult, LTT_TSC_SHIFT);
	/* The anchor's fields before the index that points writers at it. */
	smp_store_release(&ltt_tsc_cur, next);
}

/*
 * Every second while a session records.  Once none does, the writers go
 * back to the fast clock: an anchor kept across a long pause would be
 * off by the slew of the whole pause when recording starts again.
 */
static void ltt_clock_work_fn(struct work_struct *work)
{
	if (!READ_ONCE(ltt_clock_wanted)) {
		WRITE_ONCE(ltt_tsc_cur, LTT_TSC_OFF);
		return;
	}
	ltt_tsc_anchor();
	schedule_delayed_work(&ltt_clock_work, HZ);
}

/*
 * Across a suspend the TSC may restart: the fast clock, until the next
 * anchor.
 */
static int ltt_clock_suspend(void *data)
{
	WRITE_ONCE(ltt_tsc_cur, LTT_TSC_OFF);
	return 0;
}

static const struct syscore_ops ltt_clock_syscore_ops = {
	.suspend = ltt_clock_suspend,
};

static struct syscore ltt_clock_syscore = {
	.ops = &ltt_clock_syscore_ops,
};

static int __init ltt_clock_init(void)
{
	register_syscore(&ltt_clock_syscore);
	return 0;
}
core_initcall(ltt_clock_init);

/**
 * ltt_clock_recording - a session starts recording
 *
 * Called with ltt_record_lock held when the first session starts: the
 * anchor is refreshed now, then every second until none records.
 */
void ltt_clock_recording(void)
{
	WRITE_ONCE(ltt_clock_wanted, true);
	mod_delayed_work(system_wq, &ltt_clock_work, 0);
}

/**
 * ltt_clock_idle - the last recording session stops
 *
 * Called with ltt_record_lock held: the next renewal puts the writers
 * back on the fast clock, and stops.
 */
void ltt_clock_idle(void)
{
	WRITE_ONCE(ltt_clock_wanted, false);
}
