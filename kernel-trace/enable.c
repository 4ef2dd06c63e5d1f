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
 * and cgroup filters, a task moved to another cgroup) the flags are
 * written again from the control path or a worker, which may sleep; the
 * write path never touches them.  A fork copies the
 * registrations of the parent's memory to the child's, from
 * copy_process() (ltt_fork(), which may sleep), and writes the child's
 * words; after an exec or exit the old memory dies and its
 * registrations are reaped.  Registrations are counted per user (the
 * user at the root of the caller's user namespaces, so that a range of
 * subordinate uids is still one user) as well as in the whole system.
 */
#include <linux/cred.h>
#include <linux/highmem.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>
#include <linux/userfaultfd_k.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "internal.h"

/* Registrations in the whole system, so that none can take all memory. */
#define LTT_ENABLES_MAX		65536

/* And per user, so that one user cannot take them all. */
#define LTT_ENABLES_USER_MAX	4096

struct ltt_enable {
	struct list_head node;		/* in ltt_enables, or a list of its own */
	struct kref ref;		/* the list, a queued fault-in */
	const struct file *owner;	/* the event file; only compared */
	struct mm_struct *mm;		/* mmgrab()bed */
	struct pid *tgid;		/* the process that has @mm */
	kuid_t uid;			/* whom it is counted against */
	unsigned long addr;
	u32 bit;			/* BIT(enable_bit) */
	unsigned int id;		/* the event's */
	bool on;			/* the value last written */
	bool written;			/* @on was in the word */
	bool dead;			/* off the lists */
	bool shared;			/* another has the same word and bit */
	struct work_struct fault;	/* fault the word in, then write it */
};

/*
 * The workers that fault words in: one may wait for as long as a page
 * does, so not on a workqueue that the rest of the kernel shares.
 */
static struct workqueue_struct *ltt_enable_wq;

/*
 * ltt_enable_lock serialises writing the flags and every change of
 * ltt_enables and of the counts.  Never held across a fault.
 */
static DEFINE_MUTEX(ltt_enable_lock);
static LIST_HEAD(ltt_enables);
static unsigned int ltt_enables_n;

/* Registrations per user (__kuid_val) and per memory, as xa_mk_value(). */
static DEFINE_XARRAY(ltt_enable_users);
static DEFINE_XARRAY(ltt_enable_mms);

/* Some process has registered a flag: forks call __ltt_fork(). */
DEFINE_STATIC_KEY_FALSE(ltt_enable_key);

/* The index of @mm in ltt_enable_mms; a shared index only costs a walk. */
static unsigned long ltt_enable_mm_index(const struct mm_struct *mm)
{
	return (unsigned long)mm / L1_CACHE_BYTES;
}

/* Add @delta to the count at @index of @xa; 0 or -ENOMEM. */
static int ltt_enable_count(struct xarray *xa, unsigned long index, int delta)
{
	void *old = xa_load(xa, index);
	unsigned long n = (old ? xa_to_value(old) : 0) + delta;

	if (!n) {
		xa_erase(xa, index);
		return 0;
	}
	return xa_err(xa_store(xa, index, xa_mk_value(n), GFP_KERNEL_ACCOUNT));
}

/*
 * Count @e in, and put it on ltt_enables; ltt_enable_lock held.  Returns
 * 0, -ENOSPC when its user or the system holds as many as it may, or
 * -ENOMEM.
 */
static int ltt_enable_add(struct ltt_enable *e)
{
	void *n = xa_load(&ltt_enable_users, __kuid_val(e->uid));
	int ret;

	lockdep_assert_held(&ltt_enable_lock);
	if (ltt_enables_n >= LTT_ENABLES_MAX ||
	    (n && xa_to_value(n) >= LTT_ENABLES_USER_MAX))
		return -ENOSPC;
	ret = ltt_enable_count(&ltt_enable_users, __kuid_val(e->uid), 1);
	if (ret)
		return ret;
	ret = ltt_enable_count(&ltt_enable_mms, ltt_enable_mm_index(e->mm), 1);
	if (ret) {
		ltt_enable_count(&ltt_enable_users, __kuid_val(e->uid), -1);
		return ret;
	}
	list_add_tail(&e->node, &ltt_enables);
	ltt_enables_n++;
	return 0;
}

static void ltt_enable_fault_fn(struct work_struct *work);

static void ltt_enable_free(struct kref *ref)
{
	struct ltt_enable *e = container_of(ref, struct ltt_enable, ref);

	mmdrop(e->mm);
	put_pid(e->tgid);
	kfree(e);
}

/*
 * A registration of @id's word at @addr, bit @bit, in @mm of @tgid,
 * counted against @uid.
 */
static struct ltt_enable *ltt_enable_alloc(const struct file *owner,
					   struct mm_struct *mm,
					   struct pid *tgid, kuid_t uid,
					   unsigned long addr, u32 bit,
					   unsigned int id)
{
	struct ltt_enable *e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);

	if (!e)
		return NULL;
	kref_init(&e->ref);
	INIT_WORK(&e->fault, ltt_enable_fault_fn);
	e->owner = owner;
	e->uid = uid;
	mmgrab(mm);
	e->mm = mm;
	e->tgid = get_pid(tgid);
	e->addr = addr;
	e->bit = bit;
	e->id = id;
	return e;
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

/*
 * Pin @e's page for writing.  Quick (@slow false): under
 * ltt_enable_lock, which everyone's control needs, so it never waits
 * for @e's mmap_lock, which a fault of the process may hold as long as
 * it likes (-EBUSY), and faults in only anonymous memory (-EFAULT for
 * the rest).  Slow: from a worker, with no lock of LTT's held, as long
 * as the page takes (a FUSE server, a frozen file system); -EFAULT
 * there is final: the word is not writable, or not pinnable
 * (memfd_secret()).  -ESRCH when the memory is gone.
 */
static int ltt_enable_pin(struct ltt_enable *e, struct page **page, bool slow)
{
	unsigned int flags = FOLL_WRITE | FOLL_NOFAULT;
	bool unlocked = false, faulted;
	int ret = -EFAULT;

	if (!mmget_not_zero(e->mm))
		return -ESRCH;
	if (slow) {
		mmap_read_lock(e->mm);
	} else if (!mmap_read_trylock(e->mm)) {
		mmput(e->mm);
		return -EBUSY;
	}
	if (pin_user_pages_remote(e->mm, e->addr, 1, flags, page, NULL) == 1) {
		ret = 0;
	} else {
		faulted = slow ? !fixup_user_fault(e->mm, e->addr, FAULT_FLAG_WRITE |
						   FAULT_FLAG_REMOTE, &unlocked) :
				 ltt_enable_quick_fault(e);
		if (faulted &&
		    pin_user_pages_remote(e->mm, e->addr, 1, flags, page, NULL) == 1)
			ret = 0;
	}
	mmap_read_unlock(e->mm);
	mmput(e->mm);
	return ret;
}

/*
 * Set or clear @e's bit in its pinned @page, and unpin it.  The word is
 * changed atomically: the process's other bits, and other
 * registrations' bits, may share it.  The pin dirtied the page
 * (FOLL_TOUCH of a writable entry), so the unpin takes no folio lock,
 * which a write() into a FUSE file may hold for as long as its server
 * likes.
 */
static void ltt_enable_set(struct ltt_enable *e, struct page *page, bool on)
{
	u32 *word, old, new;

	word = kmap_local_page(page) + offset_in_page(e->addr);
	old = READ_ONCE(*word);
	do {
		new = on ? old | e->bit : old & ~e->bit;
	} while (new != old && !try_cmpxchg(word, &old, new));
	kunmap_local(word);
	unpin_user_page(page);
	e->on = on;
	e->written = true;
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

/* Take @e off ltt_enables, and count it out; ltt_enable_lock held. */
static void ltt_enable_unlink(struct ltt_enable *e)
{
	lockdep_assert_held(&ltt_enable_lock);
	list_del(&e->node);
	ltt_enables_n--;
	ltt_enable_count(&ltt_enable_users, __kuid_val(e->uid), -1);
	ltt_enable_count(&ltt_enable_mms, ltt_enable_mm_index(e->mm), -1);
	e->dead = true;
}

/* Write @e's word later, from a worker. */
static void ltt_enable_defer(struct ltt_enable *e)
{
	kref_get(&e->ref);
	if (!queue_work(ltt_enable_wq, &e->fault))
		kref_put(&e->ref, ltt_enable_free);
}

/* Do @a and @b name the same bit of the same memory? */
static bool ltt_enable_same(const struct ltt_enable *a,
			    const struct ltt_enable *b)
{
	return a->mm == b->mm && a->addr == b->addr && a->bit == b->bit;
}

/* Does another live registration of @e's bit want it set? */
static bool ltt_enable_others_want(struct ltt_enable *e)
{
	struct ltt_enable *o;

	lockdep_assert_held(&ltt_enable_lock);
	list_for_each_entry(o, &ltt_enables, node)
		if (o != e && ltt_enable_same(o, e) && ltt_enable_wanted(o))
			return true;
	return false;
}

/*
 * What @e's bit should be now, in *@on: set while a session takes its
 * event, or that of another registration of the same bit (a dup()ed or
 * inherited event fd that outlived the one the process reused the bit
 * for); clear once its event file is closed, if it was ever set.
 * Returns false when the word is to be left alone.  ltt_enable_lock
 * held.
 */
static bool ltt_enable_target(struct ltt_enable *e, bool *on)
{
	if (e->dead && !(e->written && e->on))
		return false;
	*on = !e->dead && ltt_enable_wanted(e);
	if (!*on && e->shared && ltt_enable_others_want(e)) {
		if (e->dead)
			return false;
		*on = true;
	}
	return true;
}

/* Mark @e and the registrations of the same bit as sharing it. */
static void ltt_enable_mark_shared(struct ltt_enable *e)
{
	struct ltt_enable *o;

	lockdep_assert_held(&ltt_enable_lock);
	list_for_each_entry(o, &ltt_enables, node)
		if (ltt_enable_same(o, e)) {
			o->shared = true;
			e->shared = true;
		}
}

/*
 * A page that was not present, or whose memory was busy: pin it as its
 * process would fault it in, however long that takes, with no lock of
 * LTT's held; then write the word.  Ends whatever happens.
 */
static void ltt_enable_fault_fn(struct work_struct *work)
{
	struct ltt_enable *e = container_of(work, struct ltt_enable, fault);
	struct page *page;
	bool on;

	if (!ltt_enable_pin(e, &page, true)) {
		guard(mutex)(&ltt_enable_lock);
		if (ltt_enable_target(e, &on))
			ltt_enable_set(e, page, on);
		else
			unpin_user_page(page);
	}
	kref_put(&e->ref, ltt_enable_free);
}

/*
 * Write @e's word as it should be, or have a worker write it;
 * ltt_enable_lock held.  The word is written whatever was written
 * before: the process may have mapped another page there since
 * (dlclose() and dlopen(), MADV_DONTNEED), and only the word itself
 * tells.
 */
static void ltt_enable_write(struct ltt_enable *e)
{
	struct page *page;
	bool on;
	int ret;

	if (!ltt_enable_target(e, &on))
		return;
	ret = ltt_enable_pin(e, &page, false);
	if (!ret)
		ltt_enable_set(e, page, on);
	else if (ret != -ESRCH)
		ltt_enable_defer(e);
}

/*
 * Reap the registrations of memory that died (an exec, an exit);
 * ltt_enable_lock held.
 */
static void ltt_enable_reap(void)
{
	struct ltt_enable *e, *tmp;

	lockdep_assert_held(&ltt_enable_lock);
	list_for_each_entry_safe(e, tmp, &ltt_enables, node) {
		if (atomic_read(&e->mm->mm_users))
			continue;
		ltt_enable_unlink(e);
		kref_put(&e->ref, ltt_enable_free);
	}
}

/*
 * Bring every flag up to date, and reap the registrations of dead
 * memory; ltt_enable_lock held.
 */
static void ltt_enable_sync_locked(void)
{
	struct ltt_enable *e;

	lockdep_assert_held(&ltt_enable_lock);
	ltt_enable_reap();
	list_for_each_entry(e, &ltt_enables, node) {
		ltt_enable_write(e);
		cond_resched();
	}
}

/**
 * ltt_enable_sync - what the sessions take changed: rewrite the flags
 *
 * Called after START, stop, and mask, pid and cgroup filter changes,
 * and from a worker after a task moved to another cgroup, without
 * the session locks.  May sleep.
 */
void ltt_enable_sync(void)
{
	guard(mutex)(&ltt_enable_lock);
	ltt_enable_sync_locked();
}

static void ltt_enable_resync_fn(struct work_struct *work)
{
	ltt_enable_sync();
}

static DECLARE_WORK(ltt_enable_resync, ltt_enable_resync_fn);

/**
 * ltt_enable_moved - a task moved to another cgroup: the flags again, soon
 *
 * A session's cgroup filter may take a process's events now, or no more.
 * From the cgroup_attach probe, in atomic context: the flags are written
 * by a worker, once for any number of moves queued meanwhile, and only
 * once some process has registered a flag.
 */
void ltt_enable_moved(void)
{
	if (static_branch_unlikely(&ltt_enable_key))
		queue_work(system_unbound_wq, &ltt_enable_resync);
}

/**
 * __ltt_fork - a fork copied a process's memory: copy its flags too
 * @child: the new task, its pids attached
 * @clone_flags: how it was made
 *
 * Called from copy_process() through ltt_fork() once a process has
 * registered a flag; may sleep.  The child's memory is a copy of the
 * parent's, flags and all: the parent's registrations are copied to the
 * child, and the child's words written as the sessions want them.  A
 * copy over its user's count, or that cannot be allocated, leaves the
 * child's word as the parent's was.
 */
void __ltt_fork(struct task_struct *child, unsigned long clone_flags)
{
	struct mm_struct *parent = current->mm;
	struct ltt_enable *e, *c, *tmp;
	LIST_HEAD(copies);

	if ((clone_flags & CLONE_VM) || !parent || !child->mm ||
	    child->mm == parent)
		return;
	/* A fork of a process without flags costs a lookup. */
	if (!xa_load(&ltt_enable_mms, ltt_enable_mm_index(parent)))
		return;

	guard(mutex)(&ltt_enable_lock);
	list_for_each_entry(e, &ltt_enables, node) {
		if (e->mm != parent)
			continue;
		c = ltt_enable_alloc(e->owner, child->mm, task_tgid(child),
				     e->uid, e->addr, e->bit, e->id);
		if (!c)
			break;
		c->shared = e->shared;
		list_add_tail(&c->node, &copies);
	}
	list_for_each_entry_safe(c, tmp, &copies, node) {
		list_del(&c->node);
		if (ltt_enable_add(c)) {
			kref_put(&c->ref, ltt_enable_free);
			continue;
		}
		ltt_enable_write(c);
	}
}

/**
 * ltt_enable_register - keep an enable flag for a new event file
 * @owner: the event file, not yet installed
 * @id: the event's id
 * @addr: user address of the word, in the current process
 * @bit: the bit, 0 to 31
 *
 * Faults the word in, as the caller's own write would, before it takes
 * any lock: a page that does not come (a FUSE server that never answers,
 * a frozen file system) keeps the caller waiting, and nobody else.  Then
 * writes the word as the sessions want it now.
 *
 * Return: 0, -EINVAL for a misaligned word or a bit beyond 31, -EFAULT
 * when the word is not mapped writable (or cannot be pinned, as in
 * memfd_secret() memory), -ENOSPC when the caller's user holds
 * LTT_ENABLES_USER_MAX registrations or the system LTT_ENABLES_MAX,
 * -ENOMEM.
 */
int ltt_enable_register(const struct file *owner, unsigned int id, u64 addr,
			u32 bit)
{
	struct ltt_enable *e;
	struct page *page;
	bool on;
	int ret = 0;

	if (bit >= 32 || !IS_ALIGNED(addr, sizeof(u32)))
		return -EINVAL;
	if (addr != (unsigned long)addr || !current->mm ||
	    !access_ok(u64_to_user_ptr(addr), sizeof(u32)))
		return -EFAULT;
	if (!ltt_enable_wq)
		return -ENOMEM;

	e = ltt_enable_alloc(owner, current->mm, task_tgid(current),
			     ltt_charge_uid(), addr, BIT(bit), id);
	if (!e)
		return -ENOMEM;
	/* The caller's own memory: it waits as its own write would. */
	if (ltt_enable_pin(e, &page, true)) {
		kref_put(&e->ref, ltt_enable_free);
		return -EFAULT;
	}
	/* From now on forks copy registrations; never turned off again. */
	static_branch_enable(&ltt_enable_key);

	guard(mutex)(&ltt_enable_lock);
	ret = ltt_enable_add(e);
	if (ret == -ENOSPC) {
		/* Exited processes may still hold some: count them out. */
		ltt_enable_reap();
		ret = ltt_enable_add(e);
	}
	if (!ret)
		ltt_enable_mark_shared(e);
	if (ret) {
		unpin_user_page(page);
		kref_put(&e->ref, ltt_enable_free);
		return ret;
	}
	ltt_enable_target(e, &on);
	ltt_enable_set(e, page, on);
	return 0;
}

static int __init ltt_enable_init(void)
{
	ltt_enable_wq = alloc_workqueue("ltt_enable", WQ_UNBOUND, 0);
	return ltt_enable_wq ? 0 : -ENOMEM;
}
core_initcall(ltt_enable_init);

/**
 * ltt_enable_unregister - an event file is released: drop its flags
 * @owner: the file
 *
 * The words of memory still alive are cleared, at once or, when the
 * process's memory is busy, by a worker soon after: nothing logs
 * through a closed file.
 */
void ltt_enable_unregister(const struct file *owner)
{
	struct ltt_enable *e, *tmp;
	LIST_HEAD(gone);

	guard(mutex)(&ltt_enable_lock);
	list_for_each_entry_safe(e, tmp, &ltt_enables, node) {
		if (e->owner != owner)
			continue;
		ltt_enable_unlink(e);
		list_add(&e->node, &gone);
	}
	list_for_each_entry_safe(e, tmp, &gone, node) {
		/* Cleared now, or by a worker if its memory is busy. */
		ltt_enable_write(e);
		kref_put(&e->ref, ltt_enable_free);
	}
	ltt_enable_reap();
}
