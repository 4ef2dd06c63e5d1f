/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LTT buffer: per-CPU rings of packets, written locklessly, read
 * through an fd that user space maps.
 *
 * The buffer is mechanism only.  It is handed bytes to record and told,
 * when it is made, its geometry, its mode, how often to hand a partial
 * packet to the reader and two callbacks of its owner (the packet
 * header's pid, the reader's last put); it knows nothing of sessions,
 * filters or users.  Documentation/trace/ltt.rst has the design.
 *
 * The write path's common case, a record that fits the open packet with
 * a compact header, is inline here: a clock read, one local_cmpxchg() on
 * the write offset, the copy and one local_add_return() on the
 * sub-buffer's commit count.  The rest (opening and closing packets,
 * extended headers, drops) is lb_write_slow() in buffer.c, with the
 * reader side.
 */
#ifndef _KERNEL_LTT_BUFFER_H
#define _KERNEL_LTT_BUFFER_H

#include <linux/irq_work.h>
#include <linux/ltt.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/timer.h>
#include <linux/unaligned.h>
#include <linux/wait.h>
#include <asm/local.h>

#include "clock.h"
#include "selftest.h"

struct task_struct;

/**
 * struct ltt_buf_ops - what a buffer asks of its owner
 * @packet_pid: the pid to write in the header of a packet that @t opens;
 *	called from the tracing context (any context, NMI included), once
 *	per packet
 * @put: the reader's fd on the buffer is gone: drop the reference that
 *	the caller of ltt_buf_open_fd() handed to it
 */
struct ltt_buf_ops {
	u32 (*packet_pid)(void *owner, struct task_struct *t);
	void (*put)(void *owner);
};

/**
 * struct ltt_buf_config - what a buffer is made with
 * @subbuf_size: bytes per packet, a power of two of at least
 *	%LTT_SUBBUF_MIN
 * @n_subbufs: packets in the ring, a power of two of at least 2
 * @overwrite: a flight recorder: the newest packets overwrite the oldest
 *	unread ones, which are counted lost; else the newest events are
 *	dropped, and counted, when the reader is behind
 * @flush_jiffies: how often a partial packet is handed to the reader
 *	(discard mode only)
 * @ops: the owner's callbacks
 * @owner: passed to them
 * @mem: NULL, or memory of the owner's for the rings, physically
 *	contiguous from @mem_phys and mapped by the kernel at @mem: CPU n's
 *	ring is the n-th ring-sized piece.  Its packets carry a checksum
 *	(persist.c: memory that outlives the boot)
 * @mem_phys: see @mem
 */
struct ltt_buf_config {
	unsigned int subbuf_size;
	unsigned int n_subbufs;
	bool overwrite;
	unsigned long flush_jiffies;
	const struct ltt_buf_ops *ops;
	void *owner;
	void *mem;
	phys_addr_t mem_phys;
};

/*
 * Per sub-buffer state; commit, events and seq are written by the owning
 * CPU.  The laps of one sub-buffer open one after the other (a lap opens
 * once the last is complete), so @seq needs no atomic operation.
 */
struct ltt_subbuf_state {
	local_t commit;			/* bytes committed, this lap */
	local_t events;			/* records committed, this lap */
	unsigned long unread;		/* records of the last lap, until read */
	unsigned long ready;		/* start of the last complete packet */
	u64 seq;			/* packet_seq_num of this lap's packet */
};

/* Where a buffer is in its life, for its reader. */
enum ltt_buf_state {
	LTT_BUF_IDLE,			/* never recorded */
	LTT_BUF_RECORDING,		/* writers may come */
	LTT_BUF_STOPPED,		/* flushed: what is left reads to the end */
};

/* One CPU's ring of sub-buffers. */
struct ltt_buf {
	/* The write path's: written by the owning CPU only ... */
	local_t offset;			/* write position, bytes, all laps */
	local_t produced;		/* events offered to the buffer */
	u64 last_ts;			/* timestamp of a recent record */
	/* ... and its geometry, set up once. */
	void *data;			/* vmalloc_user() or the owner's */
	struct ltt_subbuf_state *sb;
	unsigned long sb_mask;		/* sub-buffer size - 1 */
	unsigned long size_mask;	/* ring size - 1 */
	unsigned int sb_order;		/* log2(sub-buffer size) */
	unsigned int n_mask;		/* number of sub-buffers - 1 */

	local_t lost;			/* events dropped or overwritten */
	/*
	 * @lost and @produced as of the last packet closed, all of their
	 * bits: on a 32-bit kernel the local_t counters wrap at 2^32.
	 */
	u64 lost_reported;
	u64 produced_closed;

	/* Set up once. */
	const struct ltt_buf_ops *ops;
	void *owner;
	unsigned long flush_jiffies;
	unsigned int cpu;
	bool overwrite;
	bool checksum;			/* packets get a CRC: @data is the owner's */
	bool frozen;			/* ltt_buf_freeze(): no more writes */
	phys_addr_t phys;		/* of @data, when the owner's */
	bool flushing;			/* the flush timer re-arms itself */
	struct irq_work wakeup;
	struct timer_list flush_timer;

	/* Reader side, under @lock. */
	struct mutex lock;
	u64 origin;			/* position of the first packet */
	u64 snap_end;			/* @offset at the last snapshot, all bits */
	int state;			/* enum ltt_buf_state; poll reads it unlocked */
	int was;			/* @state before ltt_buf_arm() */
	atomic_long_t consumed ____cacheline_aligned_in_smp;
	u64 delivered;
	bool held;			/* a packet is taken (GET, no PUT yet) */
	bool has_reader;		/* a buffer fd is open */
	wait_queue_head_t wait;
	wait_queue_head_t room;		/* ltt_buf_wait_room() */
};

struct ltt_buf *ltt_buf_create(const struct ltt_buf_config *cfg,
			       unsigned int cpu);
void ltt_buf_destroy(struct ltt_buf *buf);
int ltt_buf_arm(struct ltt_buf *buf);
void ltt_buf_disarm(struct ltt_buf *buf);
void ltt_buf_start(struct ltt_buf *buf);
void ltt_buf_cpu_offline(struct ltt_buf *buf);
void ltt_buf_stop(struct ltt_buf *buf);
void ltt_buf_stopped(struct ltt_buf *buf);
bool ltt_buf_wait_room(struct ltt_buf *buf, const bool *hurry, long timeout);
void ltt_buf_wake_room(struct ltt_buf *buf);
void ltt_buf_status(struct ltt_buf *buf, struct ltt_cpu_status *st);
int ltt_buf_open_fd(struct ltt_buf *buf);
bool ltt_buf_freeze(struct ltt_buf *buf, u64 *lost);
u32 ltt_packet_crc(const struct ltt_packet_header *h, unsigned long len);

#define LB_PKT_HDR	sizeof(struct ltt_packet_header)

/*
 * The 64-bit value of the counter or position whose low bits are @now,
 * given @ref, a value of it from before, less than 2^BITS_PER_LONG
 * behind: on a 64-bit kernel simply @now.
 */
static __always_inline u64 lb_widen(unsigned long now, u64 ref)
{
	return ref + (unsigned long)(now - (unsigned long)ref);
}

/*
 * The same for a counter whose @ref is at most 2^(BITS_PER_LONG - 1)
 * behind, and which @now, read earlier or by a writer that an interrupt
 * overtook, may trail: then @ref.
 */
static __always_inline u64 lb_widen_count(unsigned long now, u64 ref)
{
	long d = (long)(now - (unsigned long)ref);

	return d < 0 ? ref : ref + d;
}

/*
 * Writes in progress on this CPU.  Task, softirq, irq and NMI context
 * may nest, one write each; a deeper write recursed (a fault on the
 * buffer itself, a stale borrowed mm on ARM, whose trap hook writes
 * again) and is dropped, counted lost.
 */
DECLARE_PER_CPU(unsigned int, lb_nesting);
#define LB_NESTING_MAX	4

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
