// SPDX-License-Identifier: GPL-2.0
/*
 * LTT sessions: a session is an fd that owns one buffer per CPU, an event
 * mask and a pid filter.  One session records at a time; closing its fd
 * stops it, and the buffers go with the last fd that maps them.
 */
#include <linux/anon_inodes.h>
#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>

#include "internal.h"

struct ltt_session __rcu *ltt_current;

/* Turns the direct hooks of <linux/ltt.h> on while a session records. */
DEFINE_STATIC_KEY_FALSE(ltt_hooks_key);

/*
 * Serialises starting and stopping (ltt_current has one owner), and
 * attaching and detaching the probes.
 */
static DEFINE_MUTEX(ltt_record_lock);

/* Sessions that exist: the probes are attached while there is one. */
static unsigned int ltt_armed;

/* kernel.ltt_user_sessions: may the unprivileged record their own tasks? */
int ltt_user_sessions;

static struct ctl_table ltt_sysctls[] = {
	{
		.procname	= "ltt_user_sessions",
		.data		= &ltt_user_sessions,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

static int __init ltt_sysctl_init(void)
{
	register_sysctl_init("kernel", ltt_sysctls);
	return 0;
}
core_initcall(ltt_sysctl_init);

/*
 * What a user session may record: events about what its own tasks ask
 * of the kernel, none that show its internals (addresses, interrupts,
 * memory) or other users' activity.  Custom events are checked as they
 * are logged: only those that user space made pass.
 */
static const u16 ltt_user_events[] = {
	LTT_EV_syscall_entry, LTT_EV_syscall_exit, LTT_EV_sched_change,
	LTT_EV_process_fork, LTT_EV_process_exit, LTT_EV_process_exec,
	LTT_EV_process_wait, LTT_EV_process_signal,
	LTT_EV_fs_open, LTT_EV_fs_close, LTT_EV_fs_read, LTT_EV_fs_write,
	LTT_EV_fs_seek, LTT_EV_fs_ioctl, LTT_EV_fs_select, LTT_EV_fs_poll,
	LTT_EV_timer_setitimer, LTT_EV_timer_schedule_timeout,
	LTT_EV_socket_call, LTT_EV_socket_create, LTT_EV_socket_send,
	LTT_EV_socket_receive,
	LTT_EV_ipc_call, LTT_EV_ipc_msg_create, LTT_EV_ipc_sem_create,
	LTT_EV_ipc_shm_create,
	LTT_EV_statedump_process, LTT_EV_statedump_file,
};

/* Clear from @mask what a user session may not record. */
static void ltt_user_mask(unsigned long *mask)
{
	DECLARE_BITMAP(allowed, LTT_EVENTS_MAX);
	unsigned int i;

	bitmap_zero(allowed, LTT_EVENTS_MAX);
	for (i = 0; i < ARRAY_SIZE(ltt_user_events); i++)
		__set_bit(ltt_user_events[i], allowed);
	bitmap_set(allowed, LTT_NR_EVENTS, LTT_EVENTS_MAX - LTT_NR_EVENTS);
	bitmap_and(mask, mask, allowed, LTT_EVENTS_MAX);
}

static const struct ltt_probe_group *const ltt_groups[] = {
	&ltt_syscall_probes,
	&ltt_sched_probes,
	&ltt_process_probes,
	&ltt_irq_probes,
	&ltt_timer_probes,
	&ltt_mm_probes,
#ifdef CONFIG_NET
	&ltt_socket_probes,
	&ltt_net_probes,
#endif
};

/* Do the current task, or @also, pass the session's pid filter? */
static __always_inline bool ltt_pid_match(struct ltt_session *s, pid_t also)
{
	struct ltt_pidset *set = rcu_dereference_sched(s->pids);
	unsigned int i;

	if (!set)
		return true;
	for (i = 0; i < set->n; i++)
		if (set->pids[i] == current->pid ||
		    set->pids[i] == current->tgid ||
		    (also && set->pids[i] == also))
			return true;
	return false;
}

/* Does the current task belong to a user session's user? */
static __always_inline bool ltt_uid_match(struct ltt_session *s)
{
	return uid_eq(current_uid(), s->uid);
}

/**
 * ltt_pid_visible - may the recording session see @t's pid?
 * @t: a task that an event names
 *
 * Returns @t's pid, or 0 when a user session records and @t belongs to
 * another user.
 */
pid_t ltt_pid_visible(struct task_struct *t)
{
	struct ltt_session *s;
	bool visible;

	guard(preempt_notrace)();
	s = rcu_dereference_sched(ltt_current);
	if (!s || !s->user)
		return t->pid;
	scoped_guard(rcu)
		visible = uid_eq(task_uid(t), s->uid);
	return visible ? t->pid : 0;
}

/**
 * ltt_event_enabled - would an event of this id be recorded now?
 * @id: the event id
 *
 * Lets a probe skip costly work (copying a name from user space) for an
 * event that is masked off.
 */
bool ltt_event_enabled(unsigned int id)
{
	struct ltt_session *s;

	guard(preempt_notrace)();
	s = rcu_dereference_sched(ltt_current);
	return s && test_bit(id, s->mask);
}

/**
 * ltt_task_passes - does a task pass the recording session's pid filter?
 * @t: the task
 *
 * For records about another task than the current one (the state dump).
 */
bool ltt_task_passes(struct task_struct *t)
{
	struct ltt_session *s;
	struct ltt_pidset *set;
	unsigned int i;

	guard(preempt_notrace)();
	s = rcu_dereference_sched(ltt_current);
	if (!s)
		return false;
	if (s->user && !ltt_pid_visible(t))
		return false;
	set = rcu_dereference_sched(s->pids);
	if (!set)
		return true;
	for (i = 0; i < set->n; i++)
		if (set->pids[i] == t->pid || set->pids[i] == t->tgid)
			return true;
	return false;
}

/*
 * The current CPU's buffer in the recording session when an event @id
 * passes its mask and filters (see __ltt_write() for @also), or NULL.
 * Preemption disabled.
 */
static __always_inline struct ltt_buf *ltt_write_buf(unsigned int id,
						     pid_t also)
{
	struct ltt_session *s = rcu_dereference_sched(ltt_current);

	if (!s || !test_bit(id, s->mask) ||
	    (also >= 0 && !ltt_pid_match(s, also)))
		return NULL;
	/* In a user session, @also > 0 is a task of that user. */
	if (unlikely(s->user) && !also && !ltt_uid_match(s))
		return NULL;
	return s->bufs[smp_processor_id()];
}

/**
 * __ltt_write - record an event in the recording session, if any
 * @id: the event id
 * @rec: the fixed part of the record
 * @len: its size
 * @str: a string to append, or NULL
 * @also: another pid the event concerns, which passes the pid filter
 *	as the current task does (the task a sched_change switches to,
 *	given only when ltt_pid_visible()), 0 for none, or -1 when the
 *	caller applied the filter itself
 *
 * Called by the ltt_log_<name>() helpers, from any context.
 */
void __ltt_write(unsigned int id, const void *rec, unsigned int len,
		 const char *str, pid_t also)
{
	struct ltt_buf *buf;
	unsigned int slen = 0;

	guard(preempt_notrace)();
	buf = ltt_write_buf(id, also);
	if (!buf)
		return;
	if (str)
		slen = strnlen(str, LTT_STRING_MAX - 1) + 1;
	ltt_buf_write(buf, id, rec, len, str, slen);
}

/**
 * ltt_write_custom - record a custom event for the current task
 * @id: its type's id
 * @user: the type was made by user space (a user session records only
 *	those)
 * @data: the payload, checked against the type's layout
 * @size: its size
 */
void ltt_write_custom(unsigned int id, bool user, const void *data,
		      unsigned int size)
{
	struct ltt_buf *buf;

	guard(preempt_notrace)();
	buf = ltt_write_buf(id, 0);
	if (!buf || (!user && rcu_dereference_sched(ltt_current)->user))
		return;
	ltt_buf_write(buf, id, data, size, NULL, 0);
}

static void ltt_disarm(void);

static void ltt_session_free(struct kref *ref)
{
	struct ltt_session *s = container_of(ref, struct ltt_session, ref);
	unsigned int cpu;

	if (s->armed)
		ltt_disarm();

	for (cpu = 0; s->bufs && cpu < nr_cpu_ids; cpu++)
		if (s->bufs[cpu])
			ltt_buf_destroy(s->bufs[cpu]);
	kfree(s->bufs);
	kfree(rcu_dereference_protected(s->pids, true));
	kfree(s);
}

/**
 * ltt_session_put - drop a reference to a session
 * @s: the session
 */
void ltt_session_put(struct ltt_session *s)
{
	kref_put(&s->ref, ltt_session_free);
}

static void ltt_detach(unsigned int n)
{
	while (n--)
		ltt_groups[n]->detach();
}

/*
 * Attach the probes and turn the hooks on for the first session that is
 * made; they stay while sessions exist, so that starting and stopping
 * does not patch kernel text.
 */
static int ltt_arm(void)
{
	unsigned int n;
	int ret;

	guard(mutex)(&ltt_record_lock);
	if (ltt_armed++)
		return 0;
	for (n = 0; n < ARRAY_SIZE(ltt_groups); n++) {
		ret = ltt_groups[n]->attach();
		if (ret) {
			ltt_detach(n);
			tracepoint_synchronize_unregister();
			ltt_armed--;
			return ret;
		}
	}
	static_branch_enable(&ltt_hooks_key);
	ltt_custom_sessions_get();
	return 0;
}

/* And take them away with the last session. */
static void ltt_disarm(void)
{
	guard(mutex)(&ltt_record_lock);
	if (--ltt_armed)
		return;
	ltt_custom_sessions_put();
	static_branch_disable(&ltt_hooks_key);
	ltt_detach(ARRAY_SIZE(ltt_groups));
	tracepoint_synchronize_unregister();
}

/* Stop recording @s; both locks held. */
static void __ltt_session_stop(struct ltt_session *s)
{
	unsigned int cpu;

	RCU_INIT_POINTER(ltt_current, NULL);
	/* No probe or hook, all under preempt_disable, still writes. */
	synchronize_rcu();
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (s->bufs[cpu])
			ltt_buf_stop(s->bufs[cpu]);
	/* The packets are closed before lb_poll() can see STOPPED. */
	smp_store_release(&s->state, LTT_SESSION_STOPPED);
}

/**
 * ltt_session_start - start recording
 * @s: the session
 *
 * Returns 0, or -EBUSY when a session is already recording (or, in
 * overwrite mode, a reader holds a packet).
 */
int ltt_session_start(struct ltt_session *s)
{
	unsigned int cpu;

	guard(mutex)(&ltt_record_lock);
	guard(mutex)(&s->lock);
	if (rcu_access_pointer(ltt_current))
		return -EBUSY;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (s->bufs[cpu] && s->bufs[cpu]->held && s->bufs[cpu]->overwrite)
			return -EBUSY;

	/* Pairs with smp_load_acquire() in lb_poll(). */
	smp_store_release(&s->state, LTT_SESSION_RECORDING);
	rcu_assign_pointer(ltt_current, s);

	cpus_read_lock();
	for_each_online_cpu(cpu)
		if (s->bufs[cpu])
			ltt_buf_start(s->bufs[cpu]);
	cpus_read_unlock();

	ltt_statedump();
	return 0;
}

/**
 * ltt_session_stop - stop recording and flush the buffers
 * @s: the session
 * @snapshot: a flight-recorder snapshot (overwrite mode only)
 *
 * Returns 0, or -EINVAL when @s is not recording or a snapshot is asked
 * of a discard-mode session.
 */
int ltt_session_stop(struct ltt_session *s, bool snapshot)
{
	guard(mutex)(&ltt_record_lock);
	guard(mutex)(&s->lock);
	if (snapshot && s->mode != LTT_MODE_OVERWRITE)
		return -EINVAL;
	if (s->state != LTT_SESSION_RECORDING)
		return -EINVAL;
	__ltt_session_stop(s);
	return 0;
}

/**
 * ltt_session_set_events - choose the events to record
 * @s: the session
 * @umask: user bitmap of event ids, in u64 words
 * @nbits: bits in @umask; events past it are disabled
 */
int ltt_session_set_events(struct ltt_session *s, const u64 __user *umask,
			   unsigned int nbits)
{
	DECLARE_BITMAP(mask, LTT_EVENTS_MAX);
	u64 *words;

	if (nbits > LTT_EVENTS_MAX)
		return -EINVAL;
	words = memdup_array_user(umask, DIV_ROUND_UP(nbits, 64), sizeof(u64));
	if (IS_ERR(words))
		return PTR_ERR(words);
	bitmap_zero(mask, LTT_EVENTS_MAX);
	bitmap_from_arr64(mask, words, nbits);
	kfree(words);
	if (s->user)
		ltt_user_mask(mask);

	guard(mutex)(&s->lock);
	bitmap_copy(s->mask, mask, LTT_EVENTS_MAX);
	return 0;
}

/**
 * ltt_session_set_pids - record only some processes
 * @s: the session
 * @upids: user array of pids, as the caller's pid namespace sees them
 * @count: entries in @upids, 0 to remove the filter
 *
 * Returns 0, -EINVAL for too many pids, -ESRCH for a pid that does not
 * exist.
 */
int ltt_session_set_pids(struct ltt_session *s, const s32 __user *upids,
			 unsigned int count)
{
	struct ltt_pidset *set = NULL, *old;
	unsigned int i;
	pid_t nr;

	if (count > LTT_PIDS_MAX)
		return -EINVAL;
	if (count) {
		set = kzalloc(struct_size(set, pids, count), GFP_KERNEL);
		if (!set)
			return -ENOMEM;
		set->n = count;
		if (copy_from_user(set->pids, upids, count * sizeof(s32))) {
			kfree(set);
			return -EFAULT;
		}
		for (i = 0; i < count; i++) {
			rcu_read_lock();
			nr = pid_nr(find_vpid(set->pids[i]));
			rcu_read_unlock();
			if (set->pids[i] <= 0 || !nr) {
				kfree(set);
				return -ESRCH;
			}
			set->pids[i] = nr;
		}
	}
	scoped_guard(mutex, &s->lock)
		old = rcu_replace_pointer(s->pids, set,
					  lockdep_is_held(&s->lock));
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/**
 * ltt_session_status - fill in LTT_CMD_STATUS
 * @s: the session
 * @st: the reply; @st->n_cpus in: room at @ucpus, out: CPUs with a buffer
 * @ucpus: user array of struct ltt_cpu_status
 */
int ltt_session_status(struct ltt_session *s, struct ltt_status *st,
		       struct ltt_cpu_status __user *ucpus)
{
	struct ltt_cpu_status cs;
	unsigned int cpu, n = 0;

	guard(mutex)(&s->lock);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!s->bufs[cpu])
			continue;
		if (n < st->n_cpus) {
			ltt_buf_status(s->bufs[cpu], &cs);
			if (copy_to_user(&ucpus[n], &cs, sizeof(cs)))
				return -EFAULT;
		}
		n++;
	}
	st->n_cpus = n;
	st->state = s->state == LTT_SESSION_RECORDING ?
		    LTT_STATE_RECORDING : LTT_STATE_STOPPED;
	st->mode = s->mode;
	st->subbuf_size = s->subbuf_size;
	st->n_subbufs = s->n_subbufs;
	st->mono_ns = ktime_get_mono_fast_ns();
	st->real_ns = ktime_get_real_fast_ns();
	return 0;
}

/**
 * ltt_session_buffer_fd - open the reader's fd on one CPU's buffer
 * @s: the session
 * @cpu: the CPU
 *
 * Returns the fd, -EINVAL for a CPU that cannot exist, -ENODEV for one
 * without a buffer, -EBUSY when the buffer already has a reader.
 */
int ltt_session_buffer_fd(struct ltt_session *s, unsigned int cpu)
{
	int fd;

	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	guard(mutex)(&s->lock);
	if (!s->bufs[cpu])
		return -ENODEV;
	kref_get(&s->ref);
	fd = ltt_buf_open_fd(s->bufs[cpu]);
	if (fd < 0)
		kref_put(&s->ref, ltt_session_free);
	return fd;
}

static int ltt_session_release(struct inode *inode, struct file *file)
{
	struct ltt_session *s = file->private_data;

	scoped_guard(mutex, &ltt_record_lock) {
		guard(mutex)(&s->lock);
		if (s->state == LTT_SESSION_RECORDING)
			__ltt_session_stop(s);
	}
	ltt_session_put(s);
	return 0;
}

static const struct file_operations ltt_session_fops = {
	.owner		= THIS_MODULE,
	.release	= ltt_session_release,
	.llseek		= noop_llseek,
};

/**
 * ltt_session_get - the session behind a session fd
 * @fd: the fd
 *
 * Returns the session with a reference held, ERR_PTR(-EBADF) for a bad
 * fd or ERR_PTR(-EINVAL) for an fd that is not a session.
 */
struct ltt_session *ltt_session_get(int fd)
{
	CLASS(fd, f)(fd);
	struct ltt_session *s;

	if (fd_empty(f))
		return ERR_PTR(-EBADF);
	if (fd_file(f)->f_op != &ltt_session_fops)
		return ERR_PTR(-EINVAL);
	s = fd_file(f)->private_data;
	kref_get(&s->ref);
	return s;
}

static int ltt_check_geometry(const struct ltt_create *a)
{
	if (!is_power_of_2(a->subbuf_size) || a->subbuf_size < LTT_SUBBUF_MIN ||
	    a->subbuf_size > LTT_SUBBUF_MAX)
		return -EINVAL;
	if (!is_power_of_2(a->n_subbufs) || a->n_subbufs < 2 ||
	    a->n_subbufs > LTT_SUBBUFS_MAX)
		return -EINVAL;
	if ((u64)a->subbuf_size * a->n_subbufs > LTT_BUFFER_MAX)
		return -EINVAL;
	if (a->mode >= LTT_MODE_MAX || !a->flush_ms || a->flush_ms > 10000)
		return -EINVAL;
	return 0;
}

/**
 * ltt_session_create - make a session and its buffers
 * @attr: the validated-by-us attributes from user space
 *
 * Returns a session fd, -EPERM without CAP_PERFMON or CAP_SYS_ADMIN
 * (unless kernel.ltt_user_sessions allows a user session), -EINVAL for
 * bad attributes, -ENOMEM when the buffers do not fit.
 * Nothing is left behind on failure.
 */
int ltt_session_create(const struct ltt_create *attr)
{
	struct ltt_create a = *attr;
	struct ltt_session *s;
	struct ltt_buf *buf;
	unsigned int cpu;
	int ret;

	bool user = !perfmon_capable();

	if (user && !READ_ONCE(ltt_user_sessions))
		return -EPERM;
	if (a.flags || a.__reserved)
		return -EINVAL;
	a.subbuf_size = a.subbuf_size ?: LTT_SUBBUF_DEFAULT;
	a.n_subbufs = a.n_subbufs ?: LTT_SUBBUFS_DEFAULT;
	a.flush_ms = a.flush_ms ?: LTT_FLUSH_MS_DEFAULT;
	ret = ltt_check_geometry(&a);
	if (ret)
		return ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	kref_init(&s->ref);
	mutex_init(&s->lock);
	s->state = LTT_SESSION_NEW;
	s->mode = a.mode;
	s->subbuf_size = a.subbuf_size;
	s->n_subbufs = a.n_subbufs;
	s->flush_jiffies = max(msecs_to_jiffies(a.flush_ms), 1UL);
	s->user = user;
	s->uid = current_uid();
	bitmap_fill(s->mask, LTT_EVENTS_MAX);
	if (user)
		ltt_user_mask(s->mask);
	s->bufs = kcalloc(nr_cpu_ids, sizeof(*s->bufs), GFP_KERNEL);
	if (!s->bufs)
		goto nomem;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		buf = ltt_buf_create(s, cpu);
		if (IS_ERR(buf)) {
			cpus_read_unlock();
			goto nomem;
		}
		s->bufs[cpu] = buf;
	}
	cpus_read_unlock();

	ret = ltt_arm();
	if (ret) {
		ltt_session_put(s);
		return ret;
	}
	s->armed = true;
	ret = anon_inode_getfd("[ltt-session]", &ltt_session_fops, s,
			       O_RDWR | O_CLOEXEC);
	if (ret < 0)
		ltt_session_put(s);
	return ret;

nomem:
	ltt_session_put(s);
	return -ENOMEM;
}
