// SPDX-License-Identifier: GPL-2.0
/*
 * LTT per-CPU ring buffers.
 *
 * Each CPU owns a ring of sub-buffers; a sub-buffer holds one packet.
 * Writers on that CPU reserve space by moving a free-running write
 * offset with local_cmpxchg(), so task, softirq, irq and NMI context may
 * nest freely; they commit by adding their length to the sub-buffer's
 * commit count, and whoever completes a sub-buffer publishes it to the
 * reader.  No locks and no atomic operation visible to other CPUs are
 * taken on the write path.  Documentation/trace/ltt.rst has the details.
 *
 * Internals are prefixed lb_ (LTT buffer).
 */
#include <linux/anon_inodes.h>
#include <linux/cpu.h>
#include <linux/crc32.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <asm/shmparam.h>

#include "buffer.h"

DEFINE_PER_CPU(unsigned int, lb_nesting);

/* Where a reserved record goes and what its commit covers. */
struct lb_slot {
	unsigned long pos;	/* first byte of the record */
	unsigned long commit;	/* bytes to commit, packet header included */
	u64 ts;
	bool extended;		/* record header with full id and time */
};

/* The header of the packet that holds @pos. */
static __always_inline struct ltt_packet_header *
lb_header(const struct ltt_buf *buf, unsigned long pos)
{
	return lb_ptr(buf, pos & ~buf->sb_mask);
}

/* Wake the reader from a safe context; queued by the tracing context. */
static void lb_wakeup(struct irq_work *work)
{
	struct ltt_buf *buf = container_of(work, struct ltt_buf, wakeup);

	wake_up_interruptible(&buf->wait);
}

/*
 * The packet at @pkt is complete: every byte reserved in it is committed.
 * Count its records, reset the sub-buffer for its next lap and publish
 * it.  Nobody else touches this sub-buffer's state until the release
 * below, so plain local_set() is enough.
 */
void lb_complete(struct ltt_buf *buf, unsigned long pkt,
		 struct ltt_subbuf_state *sb)
{
	struct ltt_packet_header *h = lb_ptr(buf, pkt);
	unsigned long events = local_read(&sb->events);

	h->events = events;
	if (buf->checksum)
		h->checksum = ltt_packet_crc(h, h->content_size / BITS_PER_BYTE);
	sb->unread = events;
	local_set(&sb->events, 0);
	local_set(&sb->commit, 0);
	/* Publish: the records and the header before @ready. */
	smp_store_release(&sb->ready, pkt);
	irq_work_queue(&buf->wakeup);
}

/*
 * May a packet open at @pkt?  The previous lap of its sub-buffer must be
 * complete and, in discard mode, read.
 */
static __always_inline bool lb_can_open(struct ltt_buf *buf, unsigned long pkt)
{
	if (READ_ONCE(lb_state(buf, pkt)->ready) != pkt - lb_size(buf))
		return false;
	if (!buf->overwrite &&
	    pkt - atomic_long_read(&buf->consumed) >= lb_size(buf))
		return false;
	return true;
}

/* Fill in the header of the packet the caller just opened at @pkt. */
static void lb_open(struct ltt_buf *buf, unsigned long pkt, u64 ts)
{
	struct ltt_packet_header *h = lb_ptr(buf, pkt);
	struct ltt_subbuf_state *sb = lb_state(buf, pkt);

	/* Flight recorder: the packet overwritten was never read. */
	if (buf->overwrite && sb->unread) {
		local_add(sb->unread, &buf->lost);
		sb->unread = 0;
	}
	/* The closing fields belong to lb_close(), which may run first. */
	h->magic = LTT_PACKET_MAGIC;
	h->stream_id = 0;
	h->timestamp_begin = ts;
	/*
	 * @pkt's all bits, divided by the sub-buffer size: counted rather
	 * than taken from @pkt, whose bits stop at 4 GiB on a 32-bit kernel.
	 */
	sb->seq += buf->n_mask + 1;
	h->packet_seq_num = sb->seq;
	h->cpu_id = buf->cpu;
	/* Whose pid the owner lets the reader see. */
	h->pid = buf->ops->packet_pid(buf->owner, current);
	h->checksum = 0;
}

/*
 * Close the packet that ends at @end: fill in the closing fields of its
 * header and commit the rest of the sub-buffer as padding.
 */
static void lb_close(struct ltt_buf *buf, unsigned long end, u64 ts)
{
	struct ltt_packet_header *h = lb_header(buf, end);
	unsigned long used = lb_sb_off(buf, end);
	u64 lost = lb_widen_count(local_read(&buf->lost), buf->lost_reported);

	h->timestamp_end = ts;
	h->content_size = (u64)used * BITS_PER_BYTE;
	h->packet_size = (u64)ALIGN(used, 8) * BITS_PER_BYTE;
	h->events_discarded = lost;
	buf->lost_reported = lost;
	buf->produced_closed = lb_widen_count(local_read(&buf->produced),
					      buf->produced_closed);
	lb_commit(buf, end, lb_subbuf_size(buf) - used, false);
}

/*
 * Reserve room for a record of @payload bytes.  The timestamp is read
 * inside the cmpxchg loop so that records are in time order within a
 * buffer.  A record never crosses a sub-buffer: when it does not fit, the
 * current packet is closed and the record opens the next one.  Returns
 * false when the record is dropped (and counted lost).
 */
static __always_inline bool lb_reserve(struct ltt_buf *buf, unsigned int id,
				       unsigned int payload,
				       struct lb_slot *slot)
{
	unsigned long sbsize = lb_subbuf_size(buf);
	unsigned long old, new, sb_off, pkt = 0;
	bool open, close, ext_id = id >= LTT_HDR_ID_EXTENDED;
	unsigned int need;
	u64 last;

	do {
		old = local_read(&buf->offset);
		last = READ_ONCE(buf->last_ts);
		slot->ts = lb_clock(last);
		sb_off = lb_sb_off(buf, old);
		slot->extended = ext_id ||
			((slot->ts - last) >> LTT_HDR_TS_BITS);
		need = payload + (slot->extended ? LTT_HDR_EXTENDED_SIZE :
						   LTT_HDR_COMPACT_SIZE);
		open = false;
		close = false;
		if (sb_off && sb_off + need < sbsize) {
			slot->pos = old;
			slot->commit = need;
		} else {
			/* A new packet: its begin time makes a compact header. */
			slot->extended = ext_id;
			need = payload + (ext_id ? LTT_HDR_EXTENDED_SIZE :
						   LTT_HDR_COMPACT_SIZE);
			if (unlikely(LB_PKT_HDR + need >= sbsize))
				goto drop;
			close = sb_off != 0;
			pkt = old - sb_off + (close ? sbsize : 0);
			open = lb_can_open(buf, pkt);
			if (!open && !close)
				goto drop;
			slot->pos = open ? pkt + LB_PKT_HDR : pkt;
			slot->commit = open ? LB_PKT_HDR + need : 0;
		}
		new = slot->pos + (slot->commit ? need : 0);
	} while (local_cmpxchg(&buf->offset, old, new) != old);

	/*
	 * A snapshot reader copying the last lap of the sub-buffer that
	 * opens checks, after its copy, that the offset has not reached the
	 * new lap: the offset must be seen before the new lap's bytes.
	 * local_cmpxchg() orders nothing on powerpc or mips.  The caller
	 * keeps interrupts off meanwhile in a flight recorder, so that no
	 * nested writer writes the new lap before the barrier
	 * (Documentation/trace/ltt.rst, "Snapshots while recording").
	 */
	if (open && buf->overwrite) {
		/* The offset before the new lap: pairs with lb_snapshot_read(). */
		smp_wmb();
	}
	if (close)
		lb_close(buf, old, slot->ts);
	if (!slot->commit)
		goto drop;
	if (open)
		lb_open(buf, pkt, slot->ts);
	lb_advance(buf, slot->ts);
	return true;

drop:
	local_inc(&buf->lost);
	return false;
}

/**
 * lb_write_slow - record one event, in any case the fast path does not take
 * @buf: the buffer of the current CPU; preemption disabled, the write
 *	counted in produced and lb_nesting by ltt_buf_write()
 * @id: the event id
 * @rec: the fixed part of the record
 * @len: its size
 * @str: a string to append, or NULL
 * @slen: bytes of @str to store, its NUL included (0 without a string)
 *
 * A record that opens or closes a packet, or needs an extended header;
 * or one that is dropped, and counted lost.
 */
void lb_write_slow(struct ltt_buf *buf, unsigned int id, const void *rec,
		   unsigned int len, const char *str, unsigned int slen)
{
	/* Filled in by lb_reserve(): not zeroed at every event. */
	struct lb_slot slot __uninitialized;
	unsigned long flags = 0;
	bool ok;
	u8 *p;
	u32 word;
	u16 id16;

	/* Frozen for the next boot: the fast path fails there too. */
	if (unlikely(READ_ONCE(buf->frozen))) {
		local_inc(&buf->lost);
		return;
	}
	/* A flight recorder's reservation with lb_reserve()'s barrier. */
	if (buf->overwrite)
		local_irq_save(flags);
	ok = lb_reserve(buf, id, len + slen, &slot);
	if (buf->overwrite)
		local_irq_restore(flags);
	if (!ok)
		return;
	ltt_selftest_recurse(id);

	p = lb_ptr(buf, slot.pos);
	word = (slot.extended ? LTT_HDR_ID_EXTENDED : id) |
	       ((u32)slot.ts << LTT_HDR_ID_BITS);
	put_unaligned(word, (u32 *)p);
	p += sizeof(word);
	if (slot.extended) {
		id16 = id;
		put_unaligned(id16, (u16 *)p);
		put_unaligned(slot.ts, (u64 *)(p + sizeof(id16)));
		p += sizeof(id16) + sizeof(slot.ts);
	}
	lb_fill(p, rec, len, str, slen);
	lb_commit(buf, slot.pos, slot.commit, true);
}

/*
 * Hand the open packet, if any, to the reader.  Runs on the buffer's CPU,
 * or on any CPU once the writers are gone.
 */
static void lb_switch(struct ltt_buf *buf)
{
	unsigned long old, new, sb_off;
	u64 ts;

	if (READ_ONCE(buf->frozen))
		return;
	do {
		old = local_read(&buf->offset);
		sb_off = lb_sb_off(buf, old);
		if (!sb_off)
			return;
		ts = lb_clock(READ_ONCE(buf->last_ts));
		new = old - sb_off + lb_subbuf_size(buf);
	} while (local_cmpxchg(&buf->offset, old, new) != old);
	/* The next packet begins no earlier than this one ends. */
	lb_advance(buf, ts);
	lb_close(buf, old, ts);
}

/*
 * Discard mode: events dropped since the last packet closed are in no
 * packet header yet.  Tell the reader with an empty packet, or, when the
 * buffer is full, in the newest packet, which is not read yet.  The
 * writers are gone and the open packet is closed.
 */
static void lb_report_lost(struct ltt_buf *buf)
{
	unsigned long w = local_read(&buf->offset);
	struct ltt_packet_header *h;
	u64 ts = lb_clock(READ_ONCE(buf->last_ts));

	if (local_read(&buf->lost) == (unsigned long)buf->lost_reported)
		return;
	if (lb_can_open(buf, w)) {
		local_set(&buf->offset, w + lb_subbuf_size(buf));
		lb_open(buf, w, ts);
		lb_commit(buf, w, LB_PKT_HDR, false);
		lb_close(buf, w + LB_PKT_HDR, ts);
		return;
	}
	w -= lb_subbuf_size(buf);
	if (lb_state(buf, w)->ready != w)
		return;
	h = lb_ptr(buf, w);
	buf->lost_reported = lb_widen_count(local_read(&buf->lost),
					    buf->lost_reported);
	h->events_discarded = buf->lost_reported;
}

/* Periodic flush, so that a quiet CPU's events still reach the reader. */
static void lb_flush_timer(struct timer_list *t)
{
	struct ltt_buf *buf = from_timer(buf, t, flush_timer);

	/* A timer migrated off an offline CPU: the stop path flushes. */
	if (buf->cpu != smp_processor_id())
		return;
	/*
	 * Without a reader a flush would only use the sub-buffers up: a
	 * buffer nobody reads yet (one recording since boot, say) keeps
	 * its events in them.
	 */
	if (READ_ONCE(buf->has_reader))
		lb_switch(buf);
	if (READ_ONCE(buf->flushing))
		mod_timer(t, jiffies + buf->flush_jiffies);
}

/**
 * ltt_buf_start - arm the flush timer of a buffer
 * @buf: the buffer, its CPU online; CPU hotplug is excluded (the caller
 *	holds cpus_read_lock(), or is the CPU's online callback)
 *
 * A flight recorder has no timer: nobody reads it while it records, and
 * every packet closed early would push older events out of the ring.
 */
void ltt_buf_start(struct ltt_buf *buf)
{
	if (buf->overwrite || buf->flushing)
		return;
	WRITE_ONCE(buf->flushing, true);
	buf->flush_timer.expires = jiffies + buf->flush_jiffies;
	add_timer_on(&buf->flush_timer, buf->cpu);
}

/**
 * ltt_buf_cpu_offline - a buffer's CPU goes offline
 * @buf: the buffer; runs on its CPU, from the CPU's offline callback
 *
 * Takes the flush timer away, which would otherwise migrate and die,
 * and hands the open packet to the reader.  What the CPU still writes
 * before it is gone waits for its return or for the stop.
 */
void ltt_buf_cpu_offline(struct ltt_buf *buf)
{
	WRITE_ONCE(buf->flushing, false);
	/* On its own CPU the timer's handler cannot be running. */
	timer_delete(&buf->flush_timer);
	guard(preempt)();
	lb_switch(buf);
}

/**
 * ltt_buf_arm - writers may come
 * @buf: the buffer
 *
 * Called before the buffer's owner lets writers at it; undone by
 * ltt_buf_disarm() if the owner fails to.
 *
 * Return: 0, or -EBUSY when a reader holds a packet of a flight
 * recorder, which the writers would overwrite under it.
 */
int ltt_buf_arm(struct ltt_buf *buf)
{
	guard(mutex)(&buf->lock);
	if (buf->overwrite && buf->held)
		return -EBUSY;
	buf->was = buf->state;
	/* Pairs with smp_load_acquire() in lb_poll(). */
	smp_store_release(&buf->state, LTT_BUF_RECORDING);
	return 0;
}

/**
 * ltt_buf_disarm - undo ltt_buf_arm(), no writer having come
 * @buf: the buffer
 */
void ltt_buf_disarm(struct ltt_buf *buf)
{
	scoped_guard(mutex, &buf->lock)
		/* Pairs with smp_load_acquire() in lb_poll(). */
		smp_store_release(&buf->state, buf->was);
	/* A poller that saw it recording goes back to what it was. */
	wake_up_all(&buf->wait);
}

/**
 * ltt_buf_stop - flush a buffer whose writers are all gone
 * @buf: the buffer
 *
 * Closes the open packet and, for a flight recorder, points the reader at
 * the oldest packet still unread.  The caller tells the reader with
 * ltt_buf_stopped() once it may see the end.
 */
void ltt_buf_stop(struct ltt_buf *buf)
{
	unsigned long w, p;

	/* The timer re-arms itself until it sees this. */
	WRITE_ONCE(buf->flushing, false);
	timer_delete_sync(&buf->flush_timer);
	/* A snapshot of the reader's closes packets too. */
	guard(mutex)(&buf->lock);
	lb_switch(buf);
	if (!buf->overwrite)
		lb_report_lost(buf);
	if (buf->overwrite) {
		w = local_read(&buf->offset);
		for (p = w - lb_size(buf); p != w; p += lb_subbuf_size(buf))
			if (READ_ONCE(lb_state(buf, p)->ready) == p &&
			    lb_state(buf, p)->unread)
				break;
		atomic_long_set(&buf->consumed, p);
	}
	irq_work_sync(&buf->wakeup);
}

/**
 * ltt_buf_stopped - tell the reader a flushed buffer has ended
 * @buf: the buffer, flushed by ltt_buf_stop()
 *
 * The reader reads to the end and is then told so (-ENODATA, EPOLLHUP)
 * rather than to wait.
 */
void ltt_buf_stopped(struct ltt_buf *buf)
{
	scoped_guard(mutex, &buf->lock)
		/* The packets are closed before lb_poll() can see it. */
		smp_store_release(&buf->state, LTT_BUF_STOPPED);
	/* And a poller woken now sees it: no wakeup is lost. */
	wake_up_all(&buf->wait);
}

/*
 * A u64 that the buffer's CPU writes, read from another: on a 32-bit
 * kernel its halves may come from two writes, so read it until two reads
 * agree.  It changes once a packet.
 */
static u64 lb_read_u64(const u64 *p)
{
	u64 v, again;

	if (IS_ENABLED(CONFIG_64BIT))
		return READ_ONCE(*p);
	for (again = READ_ONCE(*p);; again = v) {
		v = READ_ONCE(*p);
		if (v == again)
			return v;
	}
}

/**
 * ltt_buf_status - read a buffer's accounting
 * @buf: the buffer
 * @st: filled in
 */
void ltt_buf_status(struct ltt_buf *buf, struct ltt_cpu_status *st)
{
	u64 produced = lb_read_u64(&buf->produced_closed);
	u64 lost = lb_read_u64(&buf->lost_reported);

	guard(mutex)(&buf->lock);
	st->cpu = buf->cpu;
	st->__reserved = 0;
	/* Widened after the reads above: the counters only grow. */
	st->produced = lb_widen_count(local_read(&buf->produced), produced);
	st->lost = lb_widen_count(local_read(&buf->lost), lost);
	st->delivered = buf->delivered;
}

/*
 * Where a new buffer's positions start: 0, or, for a selftest, short of
 * 4 GiB, where the offsets of a 32-bit kernel wrap (offset_wrap_mib).
 * The ring's start, so that the first packet is the first sub-buffer's.
 */
static unsigned long lb_origin(const struct ltt_buf *buf)
{
	u64 back = (u64)ltt_selftest_knob(LTT_KNOB_OFFSET_WRAP_MIB) << 20;

	back = round_up(back, lb_size(buf));
	if (!back || back >= BIT_ULL(32))
		return 0;
	return (unsigned long)(BIT_ULL(32) - back);
}

/**
 * ltt_buf_create - allocate one CPU's buffer
 * @cfg: its geometry, mode and owner, checked by the caller
 * @cpu: the CPU, which need not be online
 *
 * Return: the buffer or ERR_PTR(-ENOMEM).
 */
struct ltt_buf *ltt_buf_create(const struct ltt_buf_config *cfg,
			       unsigned int cpu)
{
	struct ltt_buf *buf;
	unsigned long i, origin;

	buf = kzalloc_node(sizeof(*buf), GFP_KERNEL_ACCOUNT, cpu_to_node(cpu));
	if (!buf)
		return ERR_PTR(-ENOMEM);
	/* Set up first: ltt_buf_destroy() may see a half-made buffer. */
	init_irq_work(&buf->wakeup, lb_wakeup);
	timer_setup(&buf->flush_timer, lb_flush_timer, TIMER_PINNED);
	init_waitqueue_head(&buf->wait);
	init_waitqueue_head(&buf->room);
	mutex_init(&buf->lock);
	buf->state = LTT_BUF_IDLE;
	buf->ops = cfg->ops;
	buf->owner = cfg->owner;
	buf->flush_jiffies = cfg->flush_jiffies;
	buf->cpu = cpu;
	buf->sb_order = ilog2(cfg->subbuf_size);
	buf->sb_mask = cfg->subbuf_size - 1;
	buf->n_mask = cfg->n_subbufs - 1;
	buf->size_mask = (unsigned long)cfg->subbuf_size * cfg->n_subbufs - 1;
	buf->overwrite = cfg->overwrite;
	buf->sb = kvcalloc(cfg->n_subbufs, sizeof(*buf->sb), GFP_KERNEL_ACCOUNT);
	if (cfg->mem) {
		/* The owner's, zeroed by it; freed by it. */
		buf->checksum = true;
		buf->data = cfg->mem + (size_t)cpu * lb_size(buf);
		buf->phys = cfg->mem_phys + (phys_addr_t)cpu * lb_size(buf);
	} else {
		/*
		 * Like vmalloc_user(), near the CPU, failing rather than
		 * OOM-killing, charged to the creator's memory cgroup.
		 */
		buf->data = __vmalloc_node_range(lb_size(buf), SHMLBA,
						 VMALLOC_START, VMALLOC_END,
						 GFP_KERNEL_ACCOUNT | __GFP_ZERO |
						 __GFP_RETRY_MAYFAIL | __GFP_NOWARN,
						 PAGE_KERNEL, VM_USERMAP,
						 cpu_to_node(cpu),
						 __builtin_return_address(0));
	}
	if (!buf->sb || !buf->data) {
		ltt_buf_destroy(buf);
		return ERR_PTR(-ENOMEM);
	}
	/* Pretend a lap -1 completed, so the first lap may open. */
	origin = lb_origin(buf);
	for (i = 0; i < cfg->n_subbufs; i++) {
		buf->sb[i].ready = origin + (i << buf->sb_order) - lb_size(buf);
		buf->sb[i].seq = (origin >> buf->sb_order) + (u64)i -
				 cfg->n_subbufs;
	}
	buf->origin = origin;
	buf->snap_end = origin;
	local_set(&buf->offset, origin);
	local_set(&buf->lost, 0);
	local_set(&buf->produced, 0);
	atomic_long_set(&buf->consumed, origin);
	return buf;
}

/**
 * ltt_buf_destroy - free a buffer nobody writes or maps any more
 * @buf: the buffer
 */
void ltt_buf_destroy(struct ltt_buf *buf)
{
	timer_shutdown_sync(&buf->flush_timer);
	irq_work_sync(&buf->wakeup);
	if (!buf->checksum)
		vfree(buf->data);
	kvfree(buf->sb);
	mutex_destroy(&buf->lock);
	kfree(buf);
}

/* The oldest packet, if complete; the caller holds the buffer's lock. */
static struct ltt_packet_header *lb_oldest(struct ltt_buf *buf)
{
	unsigned long c = atomic_long_read(&buf->consumed);

	/* Pairs with the release in lb_complete(). */
	if (smp_load_acquire(&lb_state(buf, c)->ready) != c)
		return NULL;
	return lb_ptr(buf, c);
}

/*
 * Take the oldest packet.  The reply is copied out after the lock is
 * dropped: a reply page that faults slowly (userfaultfd, FUSE) must not
 * hold the buffer's lock, which the owner's START and STOP wait for.
 */
static long lb_get_subbuf(struct ltt_buf *buf, struct ltt_subbuf __user *arg)
{
	struct ltt_packet_header *h;
	struct ltt_subbuf sub;
	unsigned long c;

	scoped_guard(mutex, &buf->lock) {
		if (buf->held || (buf->overwrite &&
				  buf->state == LTT_BUF_RECORDING))
			return -EBUSY;
		h = lb_oldest(buf);
		if (!h)
			return buf->state == LTT_BUF_STOPPED ? -ENODATA :
								-EAGAIN;
		c = atomic_long_read(&buf->consumed);
		sub.offset = (void *)h - buf->data;
		sub.size = h->packet_size / BITS_PER_BYTE;
		sub.seq = h->packet_seq_num;
		buf->held = true;
	}
	if (!copy_to_user(arg, &sub, sizeof(sub)))
		return 0;
	/* Nobody learnt of the packet: give it back, unless already put. */
	scoped_guard(mutex, &buf->lock)
		if (buf->held && atomic_long_read(&buf->consumed) == c)
			buf->held = false;
	return -EFAULT;
}

/*
 * May the writers open at least one more packet before they find the
 * reader behind?
 */
static bool lb_has_room(struct ltt_buf *buf)
{
	unsigned long used = local_read(&buf->offset) -
			     atomic_long_read(&buf->consumed);

	return used + lb_subbuf_size(buf) < lb_size(buf);
}

/**
 * ltt_buf_wait_room - wait for the reader to free a packet
 * @buf: a discard-mode buffer, of the CPU the caller runs on
 * @hurry: the wait ends when this reads true (ltt_buf_wake_room() wakes
 *	the waiter to look)
 * @timeout: in jiffies
 *
 * For a writer that may sleep and would rather wait than lose events
 * (the state dump): a dump larger than the buffer then loses nothing
 * while a reader keeps up.  There is nothing to wait for without a
 * reader, or with a free packet.
 *
 * Return: false when the wait timed out.
 */
bool ltt_buf_wait_room(struct ltt_buf *buf, const bool *hurry, long timeout)
{
	if (buf->overwrite || !READ_ONCE(buf->has_reader) || lb_has_room(buf))
		return true;
	return wait_event_timeout(buf->room, lb_has_room(buf) ||
				  READ_ONCE(*hurry), timeout);
}

/**
 * ltt_buf_wake_room - make ltt_buf_wait_room() look at its @hurry again
 * @buf: the buffer
 */
void ltt_buf_wake_room(struct ltt_buf *buf)
{
	wake_up(&buf->room);
}

static long lb_put_subbuf(struct ltt_buf *buf)
{
	struct ltt_packet_header *h;
	unsigned long c;
	long ret = 0;

	mutex_lock(&buf->lock);
	if (!buf->held) {
		ret = -EINVAL;
		goto out;
	}
	c = atomic_long_read(&buf->consumed);
	h = lb_ptr(buf, c);
	buf->delivered += h->events;
	lb_state(buf, c)->unread = 0;
	buf->held = false;
	/* The reader is done with the packet before a writer may reuse it. */
	atomic_long_set_release(&buf->consumed, c + lb_subbuf_size(buf));
	/* Pairs with the barrier of wait_event() in the state dump. */
	if (wq_has_sleeper(&buf->room))
		wake_up(&buf->room);
out:
	mutex_unlock(&buf->lock);
	return ret;
}

static void lb_switch_here(void *buf)
{
	lb_switch(buf);
}

/*
 * A snapshot of a flight recorder: close the packet its CPU writes, then
 * name the packets the ring holds.  The writers go on meanwhile.
 */
static long lb_snapshot(struct ltt_buf *buf, struct ltt_snapshot __user *arg)
{
	unsigned long sbsize = lb_subbuf_size(buf);
	struct ltt_snapshot snap;
	u64 w;

	if (!buf->overwrite)
		return -EINVAL;
	scoped_guard(mutex, &buf->lock) {
		cpus_read_lock();
		/* An offline CPU writes nothing: close its packet from here. */
		if (cpu_online(buf->cpu))
			smp_call_function_single(buf->cpu, lb_switch_here, buf, 1);
		else
			lb_switch(buf);
		cpus_read_unlock();
		/* All bits, though a 32-bit offset wraps at 4 GiB. */
		w = lb_widen(local_read(&buf->offset), buf->snap_end);
		buf->snap_end = w;
	}
	/*
	 * The packet open at @w, or the next one, takes its sub-buffer: the
	 * ring holds one packet less than it has sub-buffers.
	 */
	snap.end = w & ~(u64)(sbsize - 1);
	snap.begin = buf->origin;
	if (snap.end + sbsize > buf->origin + lb_size(buf))
		snap.begin = snap.end + sbsize - lb_size(buf);
	if (copy_to_user(arg, &snap, sizeof(snap)))
		return -EFAULT;
	return 0;
}

/*
 * Copy the packet at @req.pos out of a recording flight recorder, and
 * tell whether a writer came back to its sub-buffer meanwhile: a writer
 * moves the write offset before it writes, so a copy made before the
 * offset is seen short of the sub-buffer's next lap is whole.  The lock
 * only for the last snapshot's end, which gives the offset its high bits
 * on a 32-bit kernel (exact while less than 4 GiB are written between
 * two snapshots); the copy holds none: the fd holds the buffer, and
 * nothing here waits for the writers.
 */
static long lb_snapshot_read(struct ltt_buf *buf,
			     struct ltt_snapshot_read __user *arg)
{
	unsigned long sbsize = lb_subbuf_size(buf), at;
	struct ltt_snapshot_read req;
	struct ltt_packet_header *h;
	u64 size, pos, ref, w;

	if (!buf->overwrite)
		return -EINVAL;
	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	pos = req.pos;
	if (pos & (sbsize - 1) || pos < buf->origin)
		return -EINVAL;
	/* The positions of the last snapshot, all of their bits. */
	scoped_guard(mutex, &buf->lock)
		ref = buf->snap_end;
	w = lb_widen(local_read(&buf->offset), ref);
	if (pos >= w)
		return -EINVAL;
	if (w - pos > lb_size(buf))
		return -ESTALE;
	at = (unsigned long)pos;
	/* Pairs with the release in lb_complete(). */
	if (smp_load_acquire(&lb_state(buf, at)->ready) != at)
		return -EAGAIN;
	h = lb_ptr(buf, at);
	size = READ_ONCE(h->packet_size) / BITS_PER_BYTE;
	if (size < LB_PKT_HDR || size > sbsize)
		size = sbsize;	/* being overwritten: the check below says so */
	if (copy_to_user(u64_to_user_ptr(req.buf), h, size))
		return -EFAULT;
	ltt_selftest_sleep(LTT_KNOB_SNAPSHOT_DELAY_MS);
	/* The copy before the offset: pairs with lb_reserve()'s smp_wmb(). */
	smp_rmb();
	if (lb_widen(local_read(&buf->offset), ref) - pos > lb_size(buf))
		return -ESTALE;
	if (put_user(size, &arg->size))
		return -EFAULT;
	return 0;
}

static long lb_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ltt_buf *buf = file->private_data;
	struct ltt_buffer_info info = {
		.cpu = buf->cpu,
		.subbuf_size = lb_subbuf_size(buf),
		.n_subbufs = buf->n_mask + 1,
		.mmap_size = lb_size(buf),
	};

	switch (cmd) {
	case LTT_BUF_GET_SUBBUF:
		return lb_get_subbuf(buf, (struct ltt_subbuf __user *)arg);
	case LTT_BUF_PUT_SUBBUF:
		return lb_put_subbuf(buf);
	case LTT_BUF_INFO:
		if (copy_to_user((void __user *)arg, &info, sizeof(info)))
			return -EFAULT;
		return 0;
	case LTT_BUF_SNAPSHOT:
		return lb_snapshot(buf, (struct ltt_snapshot __user *)arg);
	case LTT_BUF_SNAPSHOT_READ:
		return lb_snapshot_read(buf,
					(struct ltt_snapshot_read __user *)arg);
	}
	return -ENOTTY;
}

static __poll_t lb_poll(struct file *file, poll_table *wait)
{
	struct ltt_buf *buf = file->private_data;
	int state;

	poll_wait(file, &buf->wait, wait);
	/* Pairs with ltt_buf_arm() and ltt_buf_stopped(): flushed if stopped. */
	state = smp_load_acquire(&buf->state);
	if (buf->overwrite && state == LTT_BUF_RECORDING)
		return 0;
	if (lb_oldest(buf))
		return EPOLLIN | EPOLLRDNORM;
	if (state == LTT_BUF_STOPPED)
		return EPOLLHUP;
	return 0;
}

static int lb_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct ltt_buf *buf = file->private_data;

	unsigned long pages = vma_pages(vma);

	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	vm_flags_clear(vma, VM_MAYWRITE);
	if (!buf->checksum)
		return remap_vmalloc_range(vma, buf->data, vma->vm_pgoff);
	/* The owner's memory: physically contiguous. */
	if (vma->vm_pgoff > lb_size(buf) >> PAGE_SHIFT ||
	    pages > (lb_size(buf) >> PAGE_SHIFT) - vma->vm_pgoff)
		return -EINVAL;
	return remap_pfn_range(vma, vma->vm_start,
			       PHYS_PFN(buf->phys) + vma->vm_pgoff,
			       pages << PAGE_SHIFT, vma->vm_page_prot);
}

static int lb_release(struct inode *inode, struct file *file)
{
	struct ltt_buf *buf = file->private_data;

	scoped_guard(mutex, &buf->lock) {
		WRITE_ONCE(buf->has_reader, false);
		buf->held = false;
	}
	buf->ops->put(buf->owner);
	return 0;
}

static const struct file_operations lb_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= lb_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.poll		= lb_poll,
	.mmap		= lb_mmap,
	.release	= lb_release,
	.llseek		= noop_llseek,
};

/**
 * ltt_buf_open_fd - give the reader an fd on a buffer
 * @buf: the buffer; the caller holds a reference to the buffer's owner
 *	that the fd takes over, and drops it itself on failure
 *
 * The fd's release hands the reference back through the owner's
 * &ltt_buf_ops.put.
 *
 * Return: the fd, or -EBUSY when the buffer already has a reader.
 */
int ltt_buf_open_fd(struct ltt_buf *buf)
{
	int fd;

	guard(mutex)(&buf->lock);
	if (buf->has_reader)
		return -EBUSY;
	fd = anon_inode_getfd("[ltt-buffer]", &lb_fops, buf,
			      O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		WRITE_ONCE(buf->has_reader, true);
	return fd;
}

/**
 * ltt_packet_crc - the checksum of a packet, as its checksum field holds it
 * @h: the packet
 * @len: its content, in bytes, header included (at least the header)
 *
 * zlib's crc32() of the @len bytes, the checksum field read as 0.
 *
 * Return: the checksum.
 */
u32 ltt_packet_crc(const struct ltt_packet_header *h, unsigned long len)
{
	static const u8 zero[sizeof(h->checksum)];
	size_t at = offsetof(struct ltt_packet_header, checksum);
	u32 crc;

	crc = crc32_le(~0U, (const u8 *)h, at);
	crc = crc32_le(crc, zero, sizeof(zero));
	at += sizeof(h->checksum);
	crc = crc32_le(crc, (const u8 *)h + at, len - at);
	return ~crc;
}

/**
 * ltt_buf_freeze - close a buffer for good, for the next boot to read
 * @buf: a buffer in its owner's memory (&ltt_buf_config.mem)
 * @lost: set to the events the buffer lost, those of a packet that
 *	could not be closed included
 *
 * For the end of the kernel: from any CPU, any context, no lock taken.
 * The open packet is closed where its last whole record ends and no
 * write follows.  Its writers must be stopped (the other CPUs in a
 * panic), or on the calling CPU: a write that raced from another CPU, or
 * one that was stopped half done, leaves the packet's checksum wrong,
 * and the next boot drops it, counted.
 *
 * Return: false when the open packet could not be closed (a record in
 * it was reserved and not committed).
 */
bool ltt_buf_freeze(struct ltt_buf *buf, u64 *lost)
{
	unsigned long w, used, pkt;
	struct ltt_subbuf_state *sb;
	struct ltt_packet_header *h;

	if (READ_ONCE(buf->frozen))
		return true;
	WRITE_ONCE(buf->frozen, true);
	/*
	 * No writer fits in what is left of the packet: the fast path fails
	 * there, the slow path sees @frozen.
	 */
	do {
		w = local_read(&buf->offset);
		used = lb_sb_off(buf, w);
		pkt = w - used;
	} while (used && local_cmpxchg(&buf->offset, w, pkt + buf->sb_mask) != w);
	*lost = lb_widen_count(local_read(&buf->lost), buf->lost_reported);
	if (!used)
		return true;
	sb = lb_state(buf, pkt);
	h = lb_ptr(buf, pkt);
	if ((unsigned long)local_read(&sb->commit) != used) {
		*lost += local_read(&sb->events);
		return false;
	}
	h->timestamp_end = READ_ONCE(buf->last_ts);
	h->content_size = (u64)used * BITS_PER_BYTE;
	h->packet_size = (u64)ALIGN(used, 8) * BITS_PER_BYTE;
	h->events_discarded = *lost;
	h->events = local_read(&sb->events);
	h->checksum = ltt_packet_crc(h, used);
	return true;
}
