// SPDX-License-Identifier: GPL-2.0
/*
 * LTT enable flags: a bit in a process's memory that the kernel keeps
 * set while some recording session would take a custom event of one
 * type from that process, so that the process tests one word before
 * LTT_CMD_EVENT_LOG and makes no system call while nobody records.
 *
 * A process registers the word at LTT_CMD_EVENT_CREATE, always in its
 * own memory; the registration belongs to the event file.  After every
 * change of what the recording sessions take (START, stop, masks, pid
 * filters) the flags are written again from the control path, which
 * may sleep; the write path never touches them.  A fork copies the
 * registrations of the parent's memory to the child's, and a worker
 * writes the child's word; after an exec or exit the old memory dies
 * and its registrations are reaped.
 */
#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/userfaultfd_k.h>
#include <linux/workqueue.h>
#include <trace/events/sched.h>

#include "internal.h"

/* Registrations in the whole system, so that none can take all memory. */
#define LTT_ENABLES_MAX		65536

struct ltt_enable {
	struct list_head node;		/* in ltt_enables or ltt_enables_new */
	struct kref ref;		/* the list, a queued fault-in */
	const struct file *owner;	/* the event file; only compared */
	struct mm_struct *mm;		/* mmgrab()bed */
	struct pid *tgid;		/* the process that has @mm */
	unsigned long addr;
	u32 bit;			/* BIT(enable_bit) */
	unsigned int id;		/* the event's */
	bool on;			/* the value last written */
	bool written;			/* @on is in the word */
	bool dead;			/* off the lists */
	struct work_struct fault;	/* fault the word in, then write it */
};

/*
 * ltt_enable_lock serialises writing the flags and every change of
 * ltt_enables; ltt_enable_list_lock guards both lists too, for the fork
 * probe, which runs with preemption off and only adds to ltt_enables_new.
 */
static DEFINE_MUTEX(ltt_enable_lock);
static DEFINE_SPINLOCK(ltt_enable_list_lock);
static LIST_HEAD(ltt_enables);
static LIST_HEAD(ltt_enables_new);
static unsigned int ltt_enables_n;	/* under ltt_enable_list_lock */
static bool ltt_enable_probed;		/* the fork probe is attached */

static void ltt_enable_sync_fn(struct work_struct *work);
static DECLARE_WORK(ltt_enable_sync_work, ltt_enable_sync_fn);

static void ltt_enable_free(struct kref *ref)
{
	struct ltt_enable *e = container_of(ref, struct ltt_enable, ref);

	mmdrop(e->mm);
	put_pid(e->tgid);
	kfree(e);
}

/* A registration of @id's word at @addr, bit @bit, in @mm of @tgid. */
static struct ltt_enable *ltt_enable_alloc(const struct file *owner,
					   struct mm_struct *mm,
					   struct pid *tgid, unsigned long addr,
					   u32 bit, unsigned int id, gfp_t gfp)
{
	struct ltt_enable *e = kzalloc(sizeof(*e), gfp);

	if (!e)
		return NULL;
	kref_init(&e->ref);
	e->owner = owner;
	mmgrab(mm);
	e->mm = mm;
	e->tgid = get_pid(tgid);
	e->addr = addr;
	e->bit = bit;
	e->id = id;
	return e;
}

/*
 * Fault @e's word in, writable, as its process would: not for a
 * userfaultfd range (no retry is allowed), nor beyond the permissions.
 */
static int ltt_enable_fault_in(struct ltt_enable *e)
{
	int ret;

	if (!mmget_not_zero(e->mm))
		return -ESRCH;
	mmap_read_lock(e->mm);
	ret = fixup_user_fault(e->mm, e->addr,
			       FAULT_FLAG_WRITE | FAULT_FLAG_REMOTE, NULL);
	mmap_read_unlock(e->mm);
	mmput(e->mm);
	return ret;
}

/*
 * Fault in @e's word here and now when that cannot wait for long: in
 * anonymous memory (a copy on write after a fork, a page not touched
 * yet, one swapped out) that no userfaultfd watches.  Files (FUSE) and
 * userfaultfd are left to a worker.  mmap_lock held.
 */
static bool ltt_enable_quick_fault(struct ltt_enable *e)
{
	struct vm_area_struct *vma = vma_lookup(e->mm, e->addr);

	return vma && vma_is_anonymous(vma) && !userfaultfd_armed(vma) &&
	       !fixup_user_fault(e->mm, e->addr,
				 FAULT_FLAG_WRITE | FAULT_FLAG_REMOTE, NULL);
}

/* Pin @e's page for writing, faulting it in if quick; mmap_lock held. */
static bool ltt_enable_pin(struct ltt_enable *e, struct page **page)
{
	unsigned int flags = FOLL_WRITE | FOLL_NOFAULT;

	if (pin_user_pages_remote(e->mm, e->addr, 1, flags, page, NULL) == 1)
		return true;
	return ltt_enable_quick_fault(e) &&
	       pin_user_pages_remote(e->mm, e->addr, 1, flags, page, NULL) == 1;
}

/*
 * Set or clear @e's bit: -EFAULT when its page could not be had quickly
 * (the caller faults it in, elsewhere), -ESRCH when the memory is gone.
 * The word is changed atomically: the process's other bits, and other
 * registrations' bits, may share it.
 */
static int ltt_enable_poke(struct ltt_enable *e, bool on)
{
	struct page *page;
	u32 *word, old, new;
	bool pinned;

	if (!mmget_not_zero(e->mm))
		return -ESRCH;
	mmap_read_lock(e->mm);
	pinned = ltt_enable_pin(e, &page);
	mmap_read_unlock(e->mm);
	if (pinned) {
		word = kmap_local_page(page) + offset_in_page(e->addr);
		old = READ_ONCE(*word);
		do {
			new = on ? old | e->bit : old & ~e->bit;
		} while (new != old && !try_cmpxchg(word, &old, new));
		kunmap_local(word);
		unpin_user_pages_dirty_lock(&page, 1, true);
		e->on = on;
		e->written = true;
	}
	mmput(e->mm);
	return pinned ? 0 : -EFAULT;
}

/* Would a recording session take @e's event from its process now? */
static bool ltt_enable_wanted(struct ltt_enable *e)
{
	struct task_struct *p = get_pid_task(e->tgid, PIDTYPE_TGID);
	bool on;

	if (!p)
		return false;
	on = ltt_custom_would_take(e->id, p, e->mm);
	put_task_struct(p);
	return on;
}

/* Take @e off its list; both locks held. */
static void ltt_enable_unlink(struct ltt_enable *e)
{
	list_del(&e->node);
	WRITE_ONCE(ltt_enables_n, ltt_enables_n - 1);
	e->dead = true;
}

/* A page that was not present: fault it in, then write the word. */
static void ltt_enable_fault_fn(struct work_struct *work)
{
	struct ltt_enable *e = container_of(work, struct ltt_enable, fault);

	if (!ltt_enable_fault_in(e)) {
		guard(mutex)(&ltt_enable_lock);
		if (!e->dead)
			ltt_enable_poke(e, ltt_enable_wanted(e));
	}
	kref_put(&e->ref, ltt_enable_free);
}

/* Write @e's word as the sessions want it; ltt_enable_lock held. */
static void ltt_enable_write(struct ltt_enable *e)
{
	bool on = ltt_enable_wanted(e);

	if (e->written && e->on == on)
		return;
	if (ltt_enable_poke(e, on) != -EFAULT)
		return;
	/* Not now, not here: a fault may wait for long. */
	kref_get(&e->ref);
	if (!schedule_work(&e->fault))
		kref_put(&e->ref, ltt_enable_free);
}

/*
 * Bring every flag up to date, and reap the registrations of memory
 * that died (an exec, an exit); ltt_enable_lock held.
 */
static void ltt_enable_sync_locked(void)
{
	struct ltt_enable *e, *tmp;
	LIST_HEAD(gone);

	lockdep_assert_held(&ltt_enable_lock);
	scoped_guard(spinlock, &ltt_enable_list_lock) {
		list_splice_init(&ltt_enables_new, &ltt_enables);
		list_for_each_entry_safe(e, tmp, &ltt_enables, node) {
			if (atomic_read(&e->mm->mm_users))
				continue;
			ltt_enable_unlink(e);
			list_add(&e->node, &gone);
		}
	}
	list_for_each_entry_safe(e, tmp, &gone, node)
		kref_put(&e->ref, ltt_enable_free);
	/* Only this lock's holders take entries off ltt_enables. */
	list_for_each_entry(e, &ltt_enables, node)
		ltt_enable_write(e);
}

/**
 * ltt_enable_sync - what the sessions take changed: rewrite the flags
 *
 * Called after START, stop, and mask and pid filter changes, without
 * the session locks.  May sleep.
 */
void ltt_enable_sync(void)
{
	guard(mutex)(&ltt_enable_lock);
	ltt_enable_sync_locked();
}

static void ltt_enable_sync_fn(struct work_struct *work)
{
	ltt_enable_sync();
}

/*
 * Copy to @copies the registrations on @list of @parent's memory, for
 * @child; ltt_enable_list_lock held.  Returns whether it copied any.
 */
static bool ltt_enable_copy(struct list_head *list, struct mm_struct *parent,
			    struct task_struct *child, struct list_head *copies)
{
	struct ltt_enable *e, *c;
	bool added = false;

	list_for_each_entry(e, list, node) {
		if (e->mm != parent || ltt_enables_n >= LTT_ENABLES_MAX)
			continue;
		c = ltt_enable_alloc(e->owner, child->mm, task_tgid(child),
				     e->addr, e->bit, e->id,
				     GFP_NOWAIT | __GFP_ACCOUNT | __GFP_NOWARN);
		if (!c)
			break;
		INIT_WORK(&c->fault, ltt_enable_fault_fn);
		list_add_tail(&c->node, copies);
		WRITE_ONCE(ltt_enables_n, ltt_enables_n + 1);
		added = true;
	}
	return added;
}

/*
 * A fork: the child's memory is a copy of the parent's, flags and all.
 * Copy the parent's registrations to the child, for a worker to write
 * the child's words; preemption is off here.  A copy that cannot be
 * allocated leaves the child's word as the parent's was.
 */
static void ltt_enable_fork(void *data, struct task_struct *parent,
			    struct task_struct *child)
{
	bool added = false;
	LIST_HEAD(copies);

	if (!child->mm || !parent->mm || child->mm == parent->mm ||
	    !READ_ONCE(ltt_enables_n))
		return;
	scoped_guard(spinlock, &ltt_enable_list_lock) {
		added = ltt_enable_copy(&ltt_enables, parent->mm, child,
					&copies);
		/* A parent's registration still new is one to copy too. */
		added |= ltt_enable_copy(&ltt_enables_new, parent->mm, child,
					 &copies);
		list_splice_tail(&copies, &ltt_enables_new);
	}
	if (added)
		schedule_work(&ltt_enable_sync_work);
}

/**
 * ltt_enable_register - keep an enable flag for a new event file
 * @owner: the event file, not yet installed
 * @id: the event's id
 * @addr: user address of the word, in the current process
 * @bit: the bit, 0 to 31
 *
 * Writes the word as the sessions want it now.  Returns 0, -EINVAL for a
 * misaligned word or a bit beyond 31, -EFAULT when the word is not
 * mapped writable, -ENOSPC when LTT_ENABLES_MAX registrations exist,
 * -ENOMEM.
 */
int ltt_enable_register(const struct file *owner, unsigned int id, u64 addr,
			u32 bit)
{
	struct ltt_enable *e;
	int ret;

	if (bit >= 32 || !IS_ALIGNED(addr, sizeof(u32)))
		return -EINVAL;
	if (!access_ok(u64_to_user_ptr(addr), sizeof(u32)) || !current->mm)
		return -EFAULT;

	guard(mutex)(&ltt_enable_lock);
	if (!ltt_enable_probed) {
		ret = register_trace_sched_process_fork(ltt_enable_fork, NULL);
		if (ret)
			return ret;
		ltt_enable_probed = true;
	}
	e = ltt_enable_alloc(owner, current->mm, task_tgid(current), addr,
			     BIT(bit), id, GFP_KERNEL_ACCOUNT);
	if (!e)
		return -ENOMEM;
	INIT_WORK(&e->fault, ltt_enable_fault_fn);
	ret = ltt_enable_fault_in(e);
	if (!ret && ltt_enable_poke(e, ltt_enable_wanted(e)))
		ret = -EFAULT;
	if (ret) {
		kref_put(&e->ref, ltt_enable_free);
		return ret == -ESRCH ? -EFAULT : ret;
	}
	scoped_guard(spinlock, &ltt_enable_list_lock) {
		if (ltt_enables_n >= LTT_ENABLES_MAX) {
			ret = -ENOSPC;
		} else {
			list_add_tail(&e->node, &ltt_enables);
			WRITE_ONCE(ltt_enables_n, ltt_enables_n + 1);
		}
	}
	if (ret)
		kref_put(&e->ref, ltt_enable_free);
	return ret;
}

/**
 * ltt_enable_unregister - an event file is released: drop its flags
 * @owner: the file
 *
 * The words of memory still alive are cleared: nothing logs through a
 * closed file.
 */
void ltt_enable_unregister(const struct file *owner)
{
	struct ltt_enable *e, *tmp;
	LIST_HEAD(gone);

	guard(mutex)(&ltt_enable_lock);
	scoped_guard(spinlock, &ltt_enable_list_lock) {
		list_splice_init(&ltt_enables_new, &ltt_enables);
		list_for_each_entry_safe(e, tmp, &ltt_enables, node) {
			if (e->owner != owner)
				continue;
			ltt_enable_unlink(e);
			list_add(&e->node, &gone);
		}
	}
	list_for_each_entry_safe(e, tmp, &gone, node) {
		if (e->written && e->on)
			ltt_enable_poke(e, false);
		kref_put(&e->ref, ltt_enable_free);
	}
	/* The new ones spliced in were not written yet. */
	ltt_enable_sync_locked();
}
