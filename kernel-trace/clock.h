/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LTT trace clock: CLOCK_MONOTONIC, safe in any context, read by the
 * buffer's write path at every record.  On x86 it scales the TSC from an
 * anchor that clock.c renews every second while a session records.
 */
#ifndef _KERNEL_LTT_CLOCK_H
#define _KERNEL_LTT_CLOCK_H

#include <linux/timekeeping.h>
#include <linux/types.h>

#include "selftest.h"

#ifdef CONFIG_X86_TSC
#include <linux/math64.h>
#include <asm/msr.h>

/* clock.c: CLOCK_MONOTONIC from the TSC and an anchor. */
struct ltt_tsc_anchor {
	u64 tsc0;		/* a TSC reading ... */
	u64 ns0;		/* ... and the fast clock's at that time */
	u64 mult;		/* ns = cycles * mult >> LTT_TSC_SHIFT */
};

#define LTT_TSC_SHIFT	32

#define LTT_TSC_OFF	2	/* ltt_tsc_cur: the TSC is not trusted */

extern struct ltt_tsc_anchor ltt_tsc_anchors[2];
extern unsigned int ltt_tsc_cur;

/* @cycles * @mult >> LTT_TSC_SHIFT, the product in 128 bits. */
static __always_inline u64 ltt_tsc_ns(u64 cycles, u64 mult)
{
#ifdef CONFIG_X86_64
	u64 lo, hi;

	/* mul_u64_u64_shr(), whose __int128 would realign the stack. */
	asm("mulq %[mult]" : "=a" (lo), "=d" (hi)
	    : "a" (cycles), [mult] "rm" (mult));
	return hi << (64 - LTT_TSC_SHIFT) | lo >> LTT_TSC_SHIFT;
#else
	return mul_u64_u64_shr(cycles, mult, LTT_TSC_SHIFT);
#endif
}

static __always_inline u64 ltt_clock_read(void)
{
	unsigned int cur = READ_ONCE(ltt_tsc_cur);
	const struct ltt_tsc_anchor *a;

	if (unlikely(cur >= LTT_TSC_OFF))
		return ktime_get_mono_fast_ns();
	a = &ltt_tsc_anchors[cur];
	/*
	 * Unordered: an irq that writes between the offset's read and this
	 * one is seen by the cmpxchg, whatever the CPU ran early.
	 */
	return a->ns0 + ltt_tsc_ns(rdtsc() - a->tsc0, a->mult);
}
#else
static __always_inline u64 ltt_clock_read(void)
{
	return ktime_get_mono_fast_ns();
}
#endif

/*
 * The trace clock: CLOCK_MONOTONIC, safe in any context, NMI included,
 * comparable across CPUs.
 */
static __always_inline u64 ltt_clock(void)
{
	return ltt_clock_read() - ltt_selftest_clock_skew();
}

#ifdef CONFIG_X86_TSC
void ltt_clock_recording(void);
void ltt_clock_idle(void);
#else
static inline void ltt_clock_recording(void)
{
}

static inline void ltt_clock_idle(void)
{
}
#endif

#endif /* _KERNEL_LTT_CLOCK_H */
