/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The knobs of CONFIG_LTT_SELFTEST (selftest.c), which widen race windows
 * so that a selftest hits them every time; without the option they are
 * no-ops that compile to nothing.  Every layer of kernel/ltt/ may use
 * them, so this header depends on none.
 */
#ifndef _KERNEL_LTT_SELFTEST_H
#define _KERNEL_LTT_SELFTEST_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/ltt.h>
#include <linux/types.h>
#include <linux/uidgid_types.h>

enum ltt_knob {
	LTT_KNOB_START_DELAY_MS,	/* START sleeps before the locks */
	LTT_KNOB_STOP_DELAY_MS,		/* a stop sleeps before STOPPED */
	LTT_KNOB_LOG_DELAY_US,		/* a custom event spins mid-write */
	LTT_KNOB_RECURSE_TRAP,		/* trap_entry writes recurse */
	LTT_KNOB_SNAPSHOT_DELAY_MS,	/* a snapshot read sleeps mid-copy */
	LTT_KNOB_IRQ_REPEAT,		/* a custom event again, in hardirq */
	LTT_KNOB_DUMP_DELAY_MS,		/* the state dump sleeps per record */
	LTT_KNOB_OFFSET_WRAP_MIB,	/* new buffers start this short of 4 GiB */
	LTT_NR_KNOBS
};

#ifdef CONFIG_LTT_SELFTEST
extern u32 ltt_knobs[LTT_NR_KNOBS];
extern unsigned long ltt_selftest_clock_back_ns;
void ltt_selftest_sleep(enum ltt_knob knob);
void ltt_selftest_spin(enum ltt_knob knob);
void __ltt_selftest_irq_repeat(unsigned int id, kuid_t owner,
			       const void *data, unsigned int size);

/* A knob's value, for the knobs that set a value rather than a delay. */
static inline u32 ltt_selftest_knob(enum ltt_knob knob)
{
	return READ_ONCE(ltt_knobs[knob]);
}

/* irq_repeat: log a custom event again from a hard interrupt, once. */
static __always_inline void ltt_selftest_irq_repeat(unsigned int id,
						    kuid_t owner,
						    const void *data,
						    unsigned int size)
{
	if (unlikely(READ_ONCE(ltt_knobs[LTT_KNOB_IRQ_REPEAT])))
		__ltt_selftest_irq_repeat(id, owner, data, size);
}

/* The clock's skew that clock_back_ns asks for, taken once. */
static __always_inline unsigned long ltt_selftest_clock_skew(void)
{
	if (likely(!READ_ONCE(ltt_selftest_clock_back_ns)))
		return 0;
	return xchg(&ltt_selftest_clock_back_ns, 0);
}

/* recurse_trap: a trap_entry write recurses, as a fault in it would. */
static __always_inline void ltt_selftest_recurse(unsigned int id)
{
	if (unlikely(READ_ONCE(ltt_knobs[LTT_KNOB_RECURSE_TRAP])) &&
	    id == LTT_EV_trap_entry)
		ltt_trap_entry(0, _THIS_IP_);
}
#else
static inline void ltt_selftest_sleep(enum ltt_knob knob)
{
}

static inline u32 ltt_selftest_knob(enum ltt_knob knob)
{
	return 0;
}

static inline void ltt_selftest_spin(enum ltt_knob knob)
{
}

static inline void ltt_selftest_irq_repeat(unsigned int id, kuid_t owner,
					   const void *data, unsigned int size)
{
}

static __always_inline unsigned long ltt_selftest_clock_skew(void)
{
	return 0;
}

static __always_inline void ltt_selftest_recurse(unsigned int id)
{
}
#endif

#endif /* _KERNEL_LTT_SELFTEST_H */
