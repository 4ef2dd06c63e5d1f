/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LTT buffer's write path, inline in each writer of write.c.
 *
 * The common case, a record that fits the open packet with a compact
 * header, is a clock read, one local_cmpxchg() on the write offset, the
 * copy and one local_add_return() on the sub-buffer's commit count.  The
 * rest (opening and closing packets, extended headers, drops) is
 * lb_write_slow() in buffer.c.  Documentation/trace/ltt.rst has the
 * design; buffer.c the reader side.
 */
#ifndef _KERNEL_LTT_BUFFER_H
#define _KERNEL_LTT_BUFFER_H

#include <linux/percpu.h>
#include <linux/timekeeping.h>
#include <linux/unaligned.h>

#include "internal.h"

#define LB_PKT_HDR	sizeof(struct ltt_packet_header)

/*
 * Writes in progress on this CPU.  Task, softirq, irq and NMI context
 * may nest, one write each; a deeper write recursed (a fault on the
 * buffer itself, a stale borrowed mm on ARM, whose trap hook writes
 * again) and is dropped, counted lost.
 */
DECLARE_PER_CPU(unsigned int, lb_nesting);
#define LB_NESTING_MAX	4

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
void ltt_clock_recording(void);

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
static inline void ltt_clock_recording(void)
{
}

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

/*
 * A clock this far behind the buffer's last record did not step back
 * after an NMI: @last is a torn read (a 64-bit value on 32-bit).
 */
#define LB_CLAMP_NS	(100 * NSEC_PER_MSEC)

/*
 * The clock for @buf's next record or packet end, given @last, the
 * buffer's last time as read once by the caller: the fast clock may step
 * back after an NMI that hit a timekeeper update, so never behind it.
 */
static __always_inline u64 lb_clock(u64 last)
{
	u64 ts = ltt_clock();

	if (unlikely(ts < last) && last - ts < LB_CLAMP_NS)
		return last;
	return ts;
}

/*
 * Move the buffer's last time to @ts, never back: a nested writer may
 * have gone past it.
 */
static __always_inline void lb_advance(struct ltt_buf *buf, u64 ts)
{
	if (ts > READ_ONCE(buf->last_ts))
		WRITE_ONCE(buf->last_ts, ts);
}

static __always_inline unsigned long lb_subbuf_size(const struct ltt_buf *buf)
{
	return buf->sb_mask + 1;
}

static __always_inline unsigned long lb_size(const struct ltt_buf *buf)
{
	return buf->size_mask + 1;
}

/* Offset of @pos within its sub-buffer. */
static __always_inline unsigned long lb_sb_off(const struct ltt_buf *buf,
					       unsigned long pos)
{
	return pos & buf->sb_mask;
}

static __always_inline struct ltt_subbuf_state *
lb_state(const struct ltt_buf *buf, unsigned long pos)
{
	return &buf->sb[(pos >> buf->sb_order) & buf->n_mask];
}

static __always_inline void *lb_ptr(const struct ltt_buf *buf,
				    unsigned long pos)
{
	return buf->data + (pos & buf->size_mask);
}

void lb_complete(struct ltt_buf *buf, unsigned long pkt,
		 struct ltt_subbuf_state *sb);
void lb_write_slow(struct ltt_buf *buf, unsigned int id, const void *rec,
		   unsigned int len, const char *str, unsigned int slen);

/* Commit @len bytes reserved at @pos; the last commit publishes. */
static __always_inline void lb_commit(struct ltt_buf *buf, unsigned long pos,
				      unsigned long len, bool event)
{
	struct ltt_subbuf_state *sb = lb_state(buf, pos);

	if (event)
		local_inc(&sb->events);
	if ((unsigned long)local_add_return(len, &sb->commit) ==
	    lb_subbuf_size(buf))
		lb_complete(buf, pos & ~buf->sb_mask, sb);
}

/*
 * Copy a record's fixed part: most are 16 bytes or less, which two
 * overlapping loads and stores copy without a call.
 */
static __always_inline void lb_copy(u8 *to, const u8 *from, unsigned int len)
{
	if (len >= 8 && len <= 16) {
		put_unaligned(get_unaligned((const u64 *)from), (u64 *)to);
		put_unaligned(get_unaligned((const u64 *)(from + len - 8)),
			      (u64 *)(to + len - 8));
	} else if (len >= 4 && len < 8) {
		put_unaligned(get_unaligned((const u32 *)from), (u32 *)to);
		put_unaligned(get_unaligned((const u32 *)(from + len - 4)),
			      (u32 *)(to + len - 4));
	} else {
		memcpy(to, from, len);
	}
}

/*
 * Fill a reserved record's payload at @p: the fixed part, then the
 * string, its NUL included (@slen bytes, 0 for none).  The string may
 * change under us; the NUL is ours.
 */
static __always_inline void lb_fill(u8 *p, const void *rec, unsigned int len,
				    const char *str, unsigned int slen)
{
	lb_copy(p, rec, len);
	if (slen) {
		memcpy(p + len, str, slen - 1);
		p[len + slen - 1] = '\0';
	}
}

/*
 * Reserve @need bytes with a compact header in the open packet, at the
 * time *@ts.  False when the record does not fit there, or its time delta
 * does not fit a compact header: the slow path's cases.
 */
static __always_inline bool lb_reserve_fast(struct ltt_buf *buf,
					    unsigned long need,
					    unsigned long *pos, u64 *ts)
{
	unsigned long old, off;
	u64 last;

	do {
		old = local_read(&buf->offset);
		last = READ_ONCE(buf->last_ts);
		*ts = lb_clock(last);
		off = lb_sb_off(buf, old);
		if (unlikely(!off || off + need > buf->sb_mask ||
			     (*ts - last) >> LTT_HDR_TS_BITS))
			return false;
	} while (local_cmpxchg(&buf->offset, old, old + need) != old);
	*pos = old;
	return true;
}

/**
 * ltt_buf_write - record one event in this CPU's buffer
 * @buf: the buffer of the current CPU; preemption must be disabled
 * @id: the event id
 * @rec: the fixed part of the record
 * @len: its size
 * @str: a string to append, or NULL
 * @slen: bytes of @str to store, its NUL included (0 without a string)
 *
 * An event that cannot be recorded (the buffer is full in discard mode,
 * the record is too big, the write recursed) is counted lost.
 */
static __always_inline void ltt_buf_write(struct ltt_buf *buf, unsigned int id,
					  const void *rec, unsigned int len,
					  const char *str, unsigned int slen)
{
	unsigned long pos, need = LTT_HDR_COMPACT_SIZE + len + slen;
	u32 word;
	u64 ts;
	u8 *p;

	local_inc(&buf->produced);
	if (unlikely(__this_cpu_inc_return(lb_nesting) > LB_NESTING_MAX)) {
		local_inc(&buf->lost);
		goto out;
	}
	if (unlikely(id >= LTT_HDR_ID_EXTENDED ||
		     !lb_reserve_fast(buf, need, &pos, &ts))) {
		lb_write_slow(buf, id, rec, len, str, slen);
		goto out;
	}
	lb_advance(buf, ts);
	ltt_selftest_recurse(id);
	p = lb_ptr(buf, pos);
	word = id | ((u32)ts << LTT_HDR_ID_BITS);
	put_unaligned(word, (u32 *)p);
	lb_fill(p + LTT_HDR_COMPACT_SIZE, rec, len, str, slen);
	lb_commit(buf, pos, need, true);
out:
	__this_cpu_dec(lb_nesting);
}

#endif /* _KERNEL_LTT_BUFFER_H */
