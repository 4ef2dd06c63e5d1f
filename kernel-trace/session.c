// SPDX-License-Identifier: GPL-2.0
/*
 * LTT sessions: a session is an fd that owns one buffer per CPU, an event
 * mask and a pid filter.  Any number of sessions record at once (the
 * write path, write.c, serves each); closing its fd stops it, and the
 * buffers go with the last fd that maps them.
 */
#include <linux/anon_inodes.h>
#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/nsproxy.h>
#include <linux/nospec.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "internal.h"

/* Turns the direct hooks of <linux/ltt.h> on while a session records. */
DEFINE_STATIC_KEY_FALSE(ltt_hooks_key);

/*
 * Serialises starting and stopping (the changes of ltt_recording), and
 * attaching and detaching the probes.
 */
DEFINE_MUTEX(ltt_record_lock);

/*
 * Sessions that have started and exist: the probes are attached while
 * there is one, and for a second after the last one goes.
 */
static unsigned int ltt_armed;
bool ltt_attached;

/*
 * Lockdown forbids what reveals kernel memory (LOCKDOWN_PERF, under
 * which perf hides kernel registers): from the first START that finds
 * the kernel locked down, records carry no kernel address (trap IPs in
 * the kernel, tasklet and kthread functions) and no page frame.
 * Lockdown only rises, and so does this.
 */
bool ltt_redact;

/**
 * __ltt_redact_ip - a trap's IP as a locked-down kernel may record it
 * @ip: where the trap happened
 *
 * Return: 0 for an address of kernel code, @ip for a user one.
 */
unsigned long __ltt_redact_ip(unsigned long ip)
{
	return __kernel_text_address(ip) ? 0 : ip;
}

/* kernel.ltt_user_sessions: may the unprivileged record their own tasks? */
int ltt_user_sessions;

/* kernel.ltt_user_sessions_max: sessions an unprivileged user may hold. */
static int ltt_user_sessions_max = 4;

/*
 * kernel.ltt_user_sessions_total: what all of them may hold together;
 * each one started costs every event of the system a test.
 */
static int ltt_user_sessions_total = 64;
static unsigned int ltt_user_sessions_now;	/* under ltt_user_lock */

/* kernel.ltt_user_buffer_kb: per CPU, the most a user session may map. */
static int ltt_user_buffer_kb = 4096;

static const int ltt_sessions_limit = 1024;
static const int ltt_buffer_kb_min = 2 * LTT_SUBBUF_MIN / 1024;
static const int ltt_buffer_kb_max = LTT_BUFFER_MAX / 1024;

/* Sessions per unprivileged uid, as xa_mk_value() counts. */
static DEFINE_XARRAY(ltt_user_counts);
static DEFINE_MUTEX(ltt_user_lock);

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
	{
		.procname	= "ltt_user_sessions_max",
		.data		= &ltt_user_sessions_max,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= (void *)&ltt_sessions_limit,
	},
	{
		.procname	= "ltt_user_sessions_total",
		.data		= &ltt_user_sessions_total,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= (void *)&ltt_sessions_limit,
	},
	{
		.procname	= "ltt_user_buffer_kb",
		.data		= &ltt_user_buffer_kb,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= (void *)&ltt_buffer_kb_min,
		.extra2		= (void *)&ltt_buffer_kb_max,
	},
};

/*
 * The state dumps, each on the CPU of its START, and the probes'
 * detaching: work that may wait for a reader or a grace period, kept off
 * system_wq.
 */
static struct workqueue_struct *ltt_wq;

static int __init ltt_sysctl_init(void)
{
	/* Without memory for it at boot, system_wq does the work. */
	ltt_wq = alloc_workqueue("ltt", 0, 0) ?: system_wq;
	register_sysctl_init("kernel", ltt_sysctls);
	return 0;
}
core_initcall(ltt_sysctl_init);

/*
 * CPU hotplug: a CPU that comes online while a session records gets its
 * buffer's flush timer; one that goes offline takes it away and hands
 * its open packet over.  Both run on that CPU, with hotplug excluding
 * START's loop over the online CPUs; STOP waits for them with
 * synchronize_rcu() before it stops the buffers.
 */
static int ltt_cpu_online(unsigned int cpu)
{
	struct ltt_recording *r;
	struct ltt_session *s;
	unsigned int i;

	guard(preempt)();
	r = rcu_dereference_sched(ltt_recording);
	for (i = 0; i < ltt_recording_n(r); i++) {
		s = ltt_recording_at(r, i);
		if (s && s->bufs[cpu])
			ltt_buf_start(s->bufs[cpu]);
	}
	return 0;
}

static int ltt_cpu_offline(unsigned int cpu)
{
	struct ltt_recording *r;
	struct ltt_session *s;
	unsigned int i;

	guard(preempt)();
	r = rcu_dereference_sched(ltt_recording);
	for (i = 0; i < ltt_recording_n(r); i++) {
		s = ltt_recording_at(r, i);
		if (s && s->bufs[cpu])
			ltt_buf_cpu_offline(s->bufs[cpu]);
	}
	return 0;
}

static int __init ltt_hotplug_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "ltt:online",
					ltt_cpu_online, ltt_cpu_offline);
	return ret < 0 ? ret : 0;
}
late_initcall(ltt_hotplug_init);

/*
 * What a user session may record: events about what its own tasks ask
 * of the kernel, none that show its internals (addresses, interrupts,
 * memory) or other users' activity.  Custom events are checked as they
 * are logged: only those that user space made pass.
 */
static const u16 ltt_user_events[] = {
	LTT_EV_syscall_entry, LTT_EV_syscall_exit, LTT_EV_syscall_entry_compat,
	LTT_EV_sched_change,
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
	LTT_EV_cgroup_mkdir, LTT_EV_cgroup_rmdir, LTT_EV_cgroup_attach,
	LTT_EV_process_ns, LTT_EV_statedump_cgroup,
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
#ifdef CONFIG_CGROUPS
	&ltt_cgroup_probes,
#endif
};

static void ltt_disarm(void);
static void ltt_user_uncharge(kuid_t uid);

static void ltt_session_free(struct kref *ref)
{
	struct ltt_session *s = container_of(ref, struct ltt_session, ref);
	unsigned int cpu;

	if (s->armed)
		ltt_disarm();
	if (s->user)
		ltt_user_uncharge(s->uid);
	ltt_custom_sessions_put();

	if (s->persist)
		ltt_persist_attach(NULL);
	for (cpu = 0; s->bufs && cpu < nr_cpu_ids; cpu++)
		if (s->bufs[cpu])
			ltt_buf_destroy(s->bufs[cpu]);
	kfree(s->bufs);
	kfree(rcu_dereference_protected(s->pids, true));
	kfree(rcu_dereference_protected(s->cgroups, true));
	put_cred(s->cred);
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

/* Attach the probes and turn the hooks on, unless they are; both locks. */
static int ltt_attach(void)
{
	unsigned int n;
	int ret;

	if (ltt_attached)
		return 0;
	for (n = 0; n < ARRAY_SIZE(ltt_groups); n++) {
		ret = ltt_groups[n]->attach();
		if (ret) {
			ltt_detach(n);
			tracepoint_synchronize_unregister();
			return ret;
		}
	}
	static_branch_enable(&ltt_hooks_key);
	WRITE_ONCE(ltt_attached, true);
	return 0;
}

/* No session has started for a second: take the probes away. */
static void ltt_detach_fn(struct work_struct *work)
{
	guard(mutex)(&ltt_record_lock);
	if (ltt_armed || !ltt_attached)
		return;
	static_branch_disable(&ltt_hooks_key);
	ltt_detach(ARRAY_SIZE(ltt_groups));
	tracepoint_synchronize_unregister();
	WRITE_ONCE(ltt_attached, false);
}

static DECLARE_DELAYED_WORK(ltt_detach_work, ltt_detach_fn);

/*
 * @s starts: the probes must be attached, from its first START until it
 * is freed.  A session that never starts patches no kernel text and
 * marks no task for the system call tracepoints.  Both locks held.
 */
static int ltt_arm(struct ltt_session *s)
{
	int ret;

	if (s->armed)
		return 0;
	ret = ltt_attach();
	if (ret)
		return ret;
	ltt_armed++;
	s->armed = true;
	return 0;
}

/*
 * The last started session goes: the probes go a second later, so that
 * sessions made, started and closed in a loop patch kernel text once a
 * second at most.
 */
static void ltt_disarm(void)
{
	guard(mutex)(&ltt_record_lock);
	if (!--ltt_armed)
		mod_delayed_work(ltt_wq, &ltt_detach_work, HZ);
}

/*
 * A stop comes: the state dump that START queued waits for the reader
 * no more (what does not fit now is lost, and counted) and ends.  Called
 * first without the locks, so that a big dump (a process with thousands
 * of files) keeps waiting only the caller, not every session's control;
 * then again under them, where it finds nothing left to do.
 */
static void ltt_session_end_dump(struct ltt_session *s)
{
	unsigned int cpu;

	WRITE_ONCE(s->dump_hurry, true);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (s->bufs[cpu])
			ltt_buf_wake_room(s->bufs[cpu]);
	flush_work(&s->dump);
}

/* Stop recording @s, the recording session; both locks held. */
static void __ltt_session_stop(struct ltt_session *s)
{
	unsigned int cpu;

	ltt_session_end_dump(s);
	ltt_recording_del(s);
	/* No probe or hook, all under preempt_disable, still writes. */
	synchronize_rcu();
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (s->bufs[cpu])
			ltt_buf_stop(s->bufs[cpu]);
	ltt_selftest_sleep(LTT_KNOB_STOP_DELAY_MS);
	WRITE_ONCE(s->state, LTT_SESSION_STOPPED);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (s->bufs[cpu])
			ltt_buf_stopped(s->bufs[cpu]);
}

/* Undo ltt_buf_arm() on the buffers of @s's CPUs below @n. */
static void ltt_session_disarm_bufs(struct ltt_session *s, unsigned int n)
{
	unsigned int cpu;

	for (cpu = 0; cpu < n; cpu++)
		if (s->bufs[cpu])
			ltt_buf_disarm(s->bufs[cpu]);
}

/* Make @s one of the recording sessions; both locks held. */
static int __ltt_session_start(struct ltt_session *s)
{
	unsigned int cpu;
	int ret, was;

	if (s->state == LTT_SESSION_RECORDING)
		return -EBUSY;
	if (!ltt_redact && security_locked_down(LOCKDOWN_PERF))
		WRITE_ONCE(ltt_redact, true);
	ret = ltt_arm(s);
	if (ret)
		return ret;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		ret = s->bufs[cpu] ? ltt_buf_arm(s->bufs[cpu]) : 0;
		if (ret) {
			ltt_session_disarm_bufs(s, cpu);
			return ret;
		}
	}
	was = s->state;
	WRITE_ONCE(s->state, LTT_SESSION_RECORDING);
	ret = ltt_recording_add(s);
	if (ret) {
		WRITE_ONCE(s->state, was);
		ltt_session_disarm_bufs(s, nr_cpu_ids);
		return ret;
	}

	cpus_read_lock();
	for_each_online_cpu(cpu)
		if (s->bufs[cpu])
			ltt_buf_start(s->bufs[cpu]);
	cpus_read_unlock();

	/*
	 * Dump the state from a worker on this CPU, under the lock so that
	 * a stop finds it queued: the caller is often the only reader, and
	 * must be back reading for a big dump to fit.
	 */
	WRITE_ONCE(s->dump_hurry, false);
	queue_work(ltt_wq, &s->dump);
	return 0;
}

/**
 * ltt_session_start - start recording
 * @s: the session; the caller holds its file
 *
 * Other sessions may be recording: each records what it asks for.
 * Queues the state dump of the system into @s (statedump.c).
 *
 * Return: 0, or -EBUSY when @s records already or, in overwrite mode, a
 * reader holds a packet; -ENOMEM.
 */
int ltt_session_start(struct ltt_session *s)
{
	int ret;

	ltt_selftest_sleep(LTT_KNOB_START_DELAY_MS);
	scoped_guard(mutex, &ltt_record_lock) {
		guard(mutex)(&s->lock);
		ret = __ltt_session_start(s);
	}
	if (!ret)
		ltt_enable_sync();
	return ret;
}

/**
 * ltt_session_stop - stop recording and flush the buffers
 * @s: the session
 * @snapshot: a flight-recorder snapshot (overwrite mode only)
 *
 * Return: 0, or -EINVAL when @s is not recording or a snapshot is asked
 * of a discard-mode session.
 */
int ltt_session_stop(struct ltt_session *s, bool snapshot)
{
	if (READ_ONCE(s->state) == LTT_SESSION_RECORDING)
		ltt_session_end_dump(s);
	scoped_guard(mutex, &ltt_record_lock) {
		guard(mutex)(&s->lock);
		if (snapshot && s->mode != LTT_MODE_OVERWRITE)
			return -EINVAL;
		if (s->state != LTT_SESSION_RECORDING)
			return -EINVAL;
		__ltt_session_stop(s);
	}
	ltt_enable_sync();
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

	scoped_guard(mutex, &ltt_record_lock) {
		guard(mutex)(&s->lock);
		bitmap_copy(s->mask, mask, LTT_EVENTS_MAX);
		if (s->state == LTT_SESSION_RECORDING)
			ltt_recording_masks_changed();
	}
	ltt_enable_sync();
	return 0;
}

/*
 * May user session @s filter on @t?  Only on a task of its user that
 * the session's creator may read as a debugger would (whoever holds the
 * session fd now): a filter that selects another user's task would tell
 * when it runs.
 */
static bool ltt_user_may_filter(const struct ltt_session *s,
				struct task_struct *t)
{
	const struct cred *old;
	bool ok;

	if ((t->flags & PF_KTHREAD) || !ltt_user_owns(s, t))
		return false;
	old = override_creds(s->cred);
	ok = ptrace_may_access(t, PTRACE_MODE_READ_REALCREDS |
			       PTRACE_MODE_NOAUDIT);
	revert_creds(old);
	return ok;
}

/*
 * The global pid of the task the caller names @vnr, or 0 when there is
 * none, or none that user session @s may filter on.
 */
static pid_t ltt_filter_pid(const struct ltt_session *s, pid_t vnr)
{
	struct task_struct *t;
	pid_t nr;

	if (vnr <= 0)
		return 0;
	t = find_get_task_by_vpid(vnr);
	if (!t)
		return 0;
	nr = t->pid;
	if (s->user && !ltt_user_may_filter(s, t))
		nr = 0;
	put_task_struct(t);
	return nr;
}

/**
 * ltt_session_set_pids - record only some processes
 * @s: the session
 * @upids: user array of pids, as the caller's pid namespace sees them
 * @count: entries in @upids, 0 to remove the filter
 *
 * Return: 0, -EINVAL for too many pids, -ESRCH for a pid that does not
 * exist or, in a user session, whose task the caller may not ptrace.
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
			nr = ltt_filter_pid(s, set->pids[i]);
			if (!nr) {
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
	ltt_enable_sync();
	return 0;
}

#ifdef CONFIG_CGROUPS
/*
 * The cgroup v2 directory open as @fd, with a reference.  A path-only
 * (O_PATH) descriptor is refused as no open file: it names a directory
 * its holder may have no right to open.
 */
static struct cgroup *ltt_cgroup_from_fd(int fd)
{
	struct cgroup_subsys_state *css;
	struct fd f = fdget(fd);

	if (fd_empty(f))
		return ERR_PTR(-EBADF);
	css = css_tryget_online_from_dir(fd_file(f)->f_path.dentry, NULL);
	fdput(f);
	if (IS_ERR(css))
		return ERR_CAST(css);
	if (css->cgroup->root != &cgrp_dfl_root) {
		css_put(css);
		return ERR_PTR(-EBADF);
	}
	return css->cgroup;
}

/**
 * ltt_session_set_cgroups - record only some cgroup subtrees
 * @s: the session
 * @ufds: user array of file descriptors of cgroup v2 directories
 * @count: entries in @ufds, 0 to remove the filter
 *
 * The filter names each cgroup by its id and holds no reference: a
 * cgroup removed meanwhile holds no task, so passes nothing, and stays
 * freed.  The filter narrows what any session records, a user
 * session's too: a descriptor is all it takes.
 *
 * Return: 0, -EINVAL for too many, -EFAULT, -ENOMEM, -EBADF for a
 * descriptor that is not open on a cgroup v2 directory (an O_PATH one
 * is not), -ENOENT for one of a cgroup removed since.
 */
int ltt_session_set_cgroups(struct ltt_session *s, const s32 __user *ufds,
			    unsigned int count)
{
	struct ltt_cgset *set = NULL, *old;
	struct cgroup *cgrp;
	unsigned int i;
	s32 fd;

	if (count > LTT_CGROUPS_MAX)
		return -EINVAL;
	if (count) {
		set = kzalloc(struct_size(set, cg, count), GFP_KERNEL);
		if (!set)
			return -ENOMEM;
		set->n = count;
		for (i = 0; i < count; i++) {
			if (get_user(fd, ufds + i)) {
				kfree(set);
				return -EFAULT;
			}
			cgrp = ltt_cgroup_from_fd(fd);
			if (IS_ERR(cgrp)) {
				kfree(set);
				return PTR_ERR(cgrp);
			}
			set->cg[i].id = cgroup_id(cgrp);
			set->cg[i].level = cgrp->level;
			cgroup_put(cgrp);
		}
	}
	scoped_guard(mutex, &s->lock)
		old = rcu_replace_pointer(s->cgroups, set,
					  lockdep_is_held(&s->lock));
	if (old)
		kfree_rcu(old, rcu);
	ltt_enable_sync();
	return 0;
}
#else
int ltt_session_set_cgroups(struct ltt_session *s, const s32 __user *ufds,
			    unsigned int count)
{
	return -EOPNOTSUPP;
}
#endif

/**
 * ltt_session_status - fill in LTT_CMD_STATUS
 * @s: the session
 * @st: the reply; @st->n_cpus in: room at @ucpus, out: CPUs with a buffer
 * @ucpus: user array of struct ltt_cpu_status
 */
int ltt_session_status(struct ltt_session *s, struct ltt_status *st,
		       struct ltt_cpu_status __user *ucpus)
{
	unsigned int cpu, n = 0, room = min(st->n_cpus, nr_cpu_ids);
	struct ltt_cpu_status *cs = NULL;
	int ret = 0;

	if (room) {
		cs = kcalloc(room, sizeof(*cs), GFP_KERNEL);
		if (!cs)
			return -ENOMEM;
	}
	scoped_guard(mutex, &s->lock) {
		for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
			if (!s->bufs[cpu])
				continue;
			if (n < room)
				ltt_buf_status(s->bufs[cpu], &cs[n]);
			n++;
		}
		st->state = s->state == LTT_SESSION_RECORDING ?
			    LTT_STATE_RECORDING : LTT_STATE_STOPPED;
	}
	/* Not under the lock: the reply may fault slowly (userfaultfd). */
	if (copy_to_user(ucpus, cs, min(n, room) * sizeof(*cs)))
		ret = -EFAULT;
	kfree(cs);
	st->n_cpus = n;
	st->mode = s->mode;
	st->subbuf_size = s->subbuf_size;
	st->n_subbufs = s->n_subbufs;
	st->mono_ns = ktime_get_mono_fast_ns();
	st->real_ns = ktime_get_real_fast_ns();
	return ret;
}

/**
 * ltt_session_buffer_fd - open the reader's fd on one CPU's buffer
 * @s: the session
 * @cpu: the CPU
 *
 * Return: the fd, -EINVAL for a CPU that cannot exist, -ENODEV for one
 * without a buffer, -EBUSY when the buffer already has a reader.
 */
int ltt_session_buffer_fd(struct ltt_session *s, unsigned int cpu)
{
	int fd;

	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	cpu = array_index_nospec(cpu, nr_cpu_ids);
	scoped_guard(mutex, &s->lock) {
		if (!s->bufs[cpu])
			return -ENODEV;
		kref_get(&s->ref);
		fd = ltt_buf_open_fd(s->bufs[cpu]);
	}
	/* Not under the lock: a last put takes ltt_record_lock. */
	if (fd < 0)
		ltt_session_put(s);
	return fd;
}

static int ltt_session_release(struct inode *inode, struct file *file)
{
	struct ltt_session *s = file->private_data;

	if (READ_ONCE(s->state) == LTT_SESSION_RECORDING)
		ltt_session_end_dump(s);
	scoped_guard(mutex, &ltt_record_lock) {
		guard(mutex)(&s->lock);
		if (s->state == LTT_SESSION_RECORDING)
			__ltt_session_stop(s);
	}
	ltt_enable_sync();
	ltt_session_put(s);
	return 0;
}

static const struct file_operations ltt_session_fops = {
	.owner		= THIS_MODULE,
	.release	= ltt_session_release,
	.llseek		= noop_llseek,
};

/**
 * ltt_session_of - the session behind a session file
 * @file: the file, which the caller holds while it uses the session:
 *	the file's release stops and puts the session, and must not run
 *	in the middle of a command
 *
 * Return: the session, or ERR_PTR(-EINVAL) for a file that is not one.
 */
struct ltt_session *ltt_session_of(struct file *file)
{
	if (file->f_op != &ltt_session_fops)
		return ERR_PTR(-EINVAL);
	return file->private_data;
}

/*
 * Count a session against unprivileged @uid: -ENOSPC when it holds
 * kernel.ltt_user_sessions_max already, or all users together
 * kernel.ltt_user_sessions_total.
 */
static int ltt_user_charge(kuid_t uid)
{
	unsigned long n;
	void *e;
	int ret;

	guard(mutex)(&ltt_user_lock);
	e = xa_load(&ltt_user_counts, __kuid_val(uid));
	n = e ? xa_to_value(e) : 0;
	if (n >= READ_ONCE(ltt_user_sessions_max) ||
	    ltt_user_sessions_now >= READ_ONCE(ltt_user_sessions_total))
		return -ENOSPC;
	ret = xa_err(xa_store(&ltt_user_counts, __kuid_val(uid),
			      xa_mk_value(n + 1), GFP_KERNEL_ACCOUNT));
	if (!ret)
		ltt_user_sessions_now++;
	return ret;
}

static void ltt_user_uncharge(kuid_t uid)
{
	unsigned long n;

	guard(mutex)(&ltt_user_lock);
	ltt_user_sessions_now--;
	n = xa_to_value(xa_load(&ltt_user_counts, __kuid_val(uid)));
	if (n > 1)
		xa_store(&ltt_user_counts, __kuid_val(uid), xa_mk_value(n - 1),
			 GFP_KERNEL);
	else
		xa_erase(&ltt_user_counts, __kuid_val(uid));
}

/*
 * May the caller, who lacks CAP_PERFMON, make a user session?  Only when
 * kernel.ltt_user_sessions says so, and not as root without capabilities
 * (root's tasks are everybody's business) nor from a user, pid or
 * cgroup namespace of its own, whose uids, pids and cgroup paths the
 * records do not speak.
 */
/*
 * Records and pid filters speak pids of the initial pid namespace: from
 * another one they would name tasks by ids the caller does not know, and
 * show it tasks it cannot see.
 */
static bool ltt_in_init_pid_ns(void)
{
	return task_active_pid_ns(current) == &init_pid_ns;
}

/*
 * Records name cgroups by their paths from the root of the hierarchy: a
 * task in a cgroup namespace of its own must not learn them.
 */
static bool ltt_in_init_cgroup_ns(void)
{
#ifdef CONFIG_CGROUPS
	return current->nsproxy->cgroup_ns == &init_cgroup_ns;
#else
	return true;
#endif
}

static bool ltt_user_session_allowed(void)
{
	if (!READ_ONCE(ltt_user_sessions))
		return false;
	if (uid_eq(current_uid(), GLOBAL_ROOT_UID))
		return false;
	return current_user_ns() == &init_user_ns && ltt_in_init_pid_ns() &&
	       ltt_in_init_cgroup_ns();
}

/**
 * ltt_system_view_allowed - may the caller have a system session?
 *
 * A system session records every task: only a caller with CAP_PERFMON or
 * CAP_SYS_ADMIN (judged in the initial user namespace) in the initial pid
 * namespace gets one.
 */
bool ltt_system_view_allowed(void)
{
	return perfmon_capable() && ltt_in_init_pid_ns();
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

/* The packet header's pid: what the session may see of @t's (write.c). */
static u32 ltt_session_packet_pid(void *owner, struct task_struct *t)
{
	return ltt_session_pid(owner, t);
}

/* A reader's buffer fd held the session. */
static void ltt_session_buf_put(void *owner)
{
	ltt_session_put(owner);
}

static const struct ltt_buf_ops ltt_session_buf_ops = {
	.packet_pid	= ltt_session_packet_pid,
	.put		= ltt_session_buf_put,
};

/**
 * ltt_session_alloc - make a session and its buffers
 * @a: its attributes, with the defaults filled in and checked
 * @user: an unprivileged user's session, charged to that user
 * @persist: the boot session, its buffers in the region of
 *	ltt_persist_setup(), which @a's geometry fits
 *
 * Return: the session, with one reference, or ERR_PTR(-ENOMEM); nothing
 * is left behind on failure.
 */
struct ltt_session *ltt_session_alloc(const struct ltt_create *a, bool user,
				      bool persist)
{
	struct ltt_buf_config cfg = {
		.subbuf_size = a->subbuf_size,
		.n_subbufs = a->n_subbufs,
		.overwrite = a->mode == LTT_MODE_OVERWRITE,
		.flush_jiffies = max(msecs_to_jiffies(a->flush_ms), 1UL),
		.ops = &ltt_session_buf_ops,
	};
	struct ltt_session *s;
	struct ltt_buf *buf;
	unsigned int cpu;

	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s) {
		if (user)
			ltt_user_uncharge(current_uid());
		return ERR_PTR(-ENOMEM);
	}
	ltt_custom_sessions_get();
	kref_init(&s->ref);
	s->cred = get_current_cred();
	mutex_init(&s->lock);
	INIT_WORK(&s->dump, ltt_statedump_work);
	s->state = LTT_SESSION_NEW;
	s->mode = a->mode;
	s->subbuf_size = a->subbuf_size;
	s->n_subbufs = a->n_subbufs;
	s->user = user;
	s->uid = current_uid();
	bitmap_fill(s->mask, LTT_EVENTS_MAX);
	if (user)
		ltt_user_mask(s->mask);
	s->bufs = kcalloc(nr_cpu_ids, sizeof(*s->bufs), GFP_KERNEL_ACCOUNT);
	if (!s->bufs)
		goto nomem;

	/* Every possible CPU: one that comes online later records too. */
	cfg.owner = s;
	if (persist)
		ltt_persist_config(&cfg);
	for_each_possible_cpu(cpu) {
		buf = ltt_buf_create(&cfg, cpu);
		if (IS_ERR(buf))
			goto nomem;
		s->bufs[cpu] = buf;
	}
	if (persist) {
		s->persist = true;
		ltt_persist_attach(s->bufs);
	}
	return s;

nomem:
	ltt_session_put(s);
	return ERR_PTR(-ENOMEM);
}

/**
 * ltt_session_fd - a session fd for @s, which takes over the caller's
 *	reference
 * @s: the session
 *
 * Return: the fd, or a negative errno (the reference is dropped then).
 */
int ltt_session_fd(struct ltt_session *s)
{
	int ret = anon_inode_getfd("[ltt-session]", &ltt_session_fops, s,
				   O_RDWR | O_CLOEXEC);

	if (ret < 0)
		ltt_session_put(s);
	return ret;
}

/**
 * ltt_create_defaults - fill in and check the attributes of a session
 * @a: the attributes; zeroes take the defaults
 *
 * Return: 0, or -EINVAL.
 */
int ltt_create_defaults(struct ltt_create *a)
{
	if (a->flags || a->__reserved)
		return -EINVAL;
	a->subbuf_size = a->subbuf_size ?: LTT_SUBBUF_DEFAULT;
	a->n_subbufs = a->n_subbufs ?: LTT_SUBBUFS_DEFAULT;
	a->flush_ms = a->flush_ms ?: LTT_FLUSH_MS_DEFAULT;
	return ltt_check_geometry(a);
}

/**
 * ltt_session_create - make a session and its buffers, for user space
 * @attr: the attributes from user space
 *
 * Return: a session fd, -EPERM without CAP_PERFMON or CAP_SYS_ADMIN
 * (unless kernel.ltt_user_sessions allows a user session, whose buffer
 * may be at most kernel.ltt_user_buffer_kb per CPU) or with them in a
 * pid namespace other than the initial one, -ENOSPC when the
 * user holds kernel.ltt_user_sessions_max sessions or all users
 * kernel.ltt_user_sessions_total, -EINVAL for bad
 * attributes, -ENOMEM when the buffers do not fit.
 * Nothing is left behind on failure.
 */
int ltt_session_create(const struct ltt_create *attr)
{
	struct ltt_create a = *attr;
	struct ltt_session *s;
	bool user = !perfmon_capable();
	int ret;

	/* perfmon_capable() once: it is audited, and marks the task. */
	if (user ? !ltt_user_session_allowed() : !ltt_in_init_pid_ns())
		return -EPERM;
	ret = ltt_create_defaults(&a);
	if (ret)
		return ret;
	if (user && (u64)a.subbuf_size * a.n_subbufs >
		    (u64)READ_ONCE(ltt_user_buffer_kb) * 1024)
		return -EPERM;
	if (user) {
		ret = ltt_user_charge(current_uid());
		if (ret)
			return ret;
	}
	s = ltt_session_alloc(&a, user, false);
	if (IS_ERR(s))
		return PTR_ERR(s);
	return ltt_session_fd(s);
}
