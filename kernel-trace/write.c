// SPDX-License-Identifier: GPL-2.0
/*
 * The LTT write path: which recording sessions take an event, and the
 * record each of them gets.
 *
 * Any number of sessions record at once.  The probes read an event's
 * arguments once; the write path walks the recording sessions (an array
 * that START and stop replace under RCU) and writes one record into the
 * current CPU's buffer of each session whose event mask, pid and
 * cgroup filters and user scope let the event through.  A session that
 * filters the event out costs a bit test.  The filters live here, and
 * only here.
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/pid_namespace.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/slab.h>

#include "internal.h"

struct ltt_recording __rcu *ltt_recording;
unsigned long ltt_wanted[BITS_TO_LONGS(LTT_EVENTS_MAX)];

/*
 * ltt_wanted becomes the union of the masks of @r's sessions
 * (ltt_record_lock held).  A word at a time: a bit set before and after
 * never reads clear.
 */
static void ltt_wanted_update(const struct ltt_recording *r)
{
	static DECLARE_BITMAP(want, LTT_EVENTS_MAX);
	unsigned int i;

	lockdep_assert_held(&ltt_record_lock);
	bitmap_zero(want, LTT_EVENTS_MAX);
	for (i = 0; r && i < r->n; i++)
		if (r->s[i])
			bitmap_or(want, want, r->s[i]->mask, LTT_EVENTS_MAX);
	for (i = 0; i < ARRAY_SIZE(ltt_wanted); i++)
		WRITE_ONCE(ltt_wanted[i], want[i]);
}

/**
 * ltt_recording_masks_changed - a recording session's mask changed
 *
 * Called with ltt_record_lock held, after the mask is written.
 */
void ltt_recording_masks_changed(void)
{
	ltt_wanted_update(rcu_dereference_protected(ltt_recording,
						    lockdep_is_held(&ltt_record_lock)));
}

/* Does @t pass the pid filter @set (NULL: no filter)? */
static __always_inline bool ltt_pid_in(const struct ltt_pidset *set,
				       const struct task_struct *t)
{
	unsigned int i;

	if (!set)
		return true;
	for (i = 0; i < set->n; i++)
		if (set->pids[i] == t->pid || set->pids[i] == t->tgid)
			return true;
	return false;
}

/*
 * Is @t in one of the cgroup subtrees of @set (NULL: no filter)?  A task
 * always has a css_set, the exiting and the idle ones too; its cgroup
 * holds its ancestors.  Preemption disabled.
 */
static __always_inline bool ltt_cg_in(const struct ltt_cgset *set,
				      struct task_struct *t)
{
#ifdef CONFIG_CGROUPS
	struct cgroup *cgrp;
	unsigned int i;
	int level;

	if (!set)
		return true;
	cgrp = rcu_dereference_sched(t->cgroups)->dfl_cgrp;
	for (i = 0; i < set->n; i++) {
		level = set->cg[i].level;
		if (cgrp->level >= level &&
		    cgroup_id(cgrp->ancestors[level]) == set->cg[i].id)
			return true;
	}
	return false;
#else
	return true;
#endif
}

/* Does @t pass both filters of session @s?  Preemption disabled. */
static __always_inline bool ltt_filters_pass(const struct ltt_session *s,
					     struct task_struct *t)
{
	return ltt_pid_in(rcu_dereference_sched(s->pids), t) &&
	       ltt_cg_in(rcu_dereference_sched(s->cgroups), t);
}

/**
 * ltt_user_owns - is @t one of a user session's own tasks?
 * @s: the user session
 * @t: the task
 *
 * All its uids must be the user's, as ptrace and perf require: a set-uid
 * program that the user starts (passwd, sudo) is not the user's.
 */
bool ltt_user_owns(const struct ltt_session *s, struct task_struct *t)
{
	const struct cred *c;

	guard(rcu)();
	c = __task_cred(t);
	return uid_eq(c->uid, s->uid) && uid_eq(c->euid, s->uid) &&
	       uid_eq(c->suid, s->uid) && uid_eq(c->fsuid, s->uid);
}

/*
 * May a user session record what the current task does?  Only in task
 * context (an interrupt is nobody's), and only while the task is the
 * user's and dumpable: one that was set-uid keeps its secrets.
 */
static bool ltt_user_current(const struct ltt_session *s)
{
	struct mm_struct *mm = current->mm;

	if (!in_task())
		return false;
	/* An exiting task let go of its mm, and kept what ptrace needs. */
	if (mm ? get_dumpable(mm) != SUID_DUMP_USER : !current->user_dumpable)
		return false;
	return ltt_user_owns(s, current);
}

/**
 * ltt_session_pid - @t's pid as session @s may see it
 * @s: the session
 * @t: a task that an event names
 *
 * Return: @t's pid, or 0 when @s is a user session and @t is not its
 * user's.
 */
pid_t ltt_session_pid(const struct ltt_session *s, struct task_struct *t)
{
	if (!s->user || ltt_user_owns(s, t))
		return t->pid;
	return 0;
}

/*
 * May user session @s record an event of the current task, or about
 * @other?  The task that lets it through must both be the user's and
 * pass the filters: a filter naming a pid that has since gone to
 * another user's task (or to a set-uid program) shows nothing of it.
 */
static bool ltt_user_takes(struct ltt_session *s, struct task_struct *other)
{
	if (ltt_filters_pass(s, current) && ltt_user_current(s))
		return true;
	return other && ltt_filters_pass(s, other) && ltt_user_owns(s, other);
}

/*
 * The current CPU's buffer of session @s, when event @id passes its mask
 * and filters, or NULL.  @other is a task the event is about as much as
 * the current one (the task a switch brings in): it may pass the pid
 * filter and the user scope instead.  Preemption disabled.
 */
static __always_inline struct ltt_buf *ltt_take(struct ltt_session *s,
						unsigned int id,
						struct task_struct *other)
{
	if (!test_bit(id, s->mask))
		return NULL;
	if (unlikely(s->user)) {
		if (!ltt_user_takes(s, other))
			return NULL;
	} else if (!ltt_filters_pass(s, current) &&
		   !(other && ltt_filters_pass(s, other))) {
		return NULL;
	}
	return s->bufs[smp_processor_id()];
}

/* The bytes of @str to store, its NUL included; 0 without a string. */
static __always_inline unsigned int ltt_str_len(const char *str)
{
	return str ? strnlen(str, LTT_STRING_MAX - 1) + 1 : 0;
}

/*
 * One record of event @id in each recording session that takes it, of
 * the current task or about @other (NULL: none); the body of
 * __ltt_write(), __ltt_write_str() and ltt_write_task().
 */
static __always_inline void ltt_write_sessions(unsigned int id,
					       const void *rec,
					       unsigned int len,
					       const char *str,
					       unsigned int slen,
					       struct task_struct *other)
{
	struct ltt_recording *r;
	struct ltt_session *s;
	struct ltt_buf *buf;
	unsigned int i;

	guard(preempt_notrace)();
	r = rcu_dereference_sched(ltt_recording);
	for (i = 0; i < ltt_recording_n(r); i++) {
		s = ltt_recording_at(r, i);
		if (!s)
			continue;
		buf = ltt_take(s, id, other);
		if (buf)
			ltt_buf_write(buf, id, rec, len, str, slen);
	}
}

/**
 * __ltt_write - record an event of the current task
 * @id: the event id
 * @rec: the record
 * @len: its size
 *
 * Called by the ltt_log_<name>() helpers, from any context: one record
 * in each recording session that takes the event.
 */
void __ltt_write(unsigned int id, const void *rec, unsigned int len)
{
	ltt_write_sessions(id, rec, len, NULL, 0, NULL);
}

/**
 * __ltt_write_str - record an event that ends in a string
 * @id: the event id
 * @rec: the fixed part of the record
 * @len: its size
 * @str: the string
 *
 * As __ltt_write(); the string is cut to LTT_STRING_MAX bytes, its NUL
 * included.
 */
void __ltt_write_str(unsigned int id, const void *rec, unsigned int len,
		     const char *str)
{
	ltt_write_sessions(id, rec, len, str, ltt_str_len(str), NULL);
}

/**
 * ltt_write_task - record an event about another task too
 * @id: the event id
 * @rec: the record
 * @len: its size
 * @other: the task it is about, as much as the current one (a child
 *	just made)
 *
 * As __ltt_write(), but a session whose filters let @other through
 * takes the event too.
 */
void ltt_write_task(unsigned int id, const void *rec, unsigned int len,
		    struct task_struct *other)
{
	if (ltt_wants(id))
		ltt_write_sessions(id, rec, len, NULL, 0, other);
}

/**
 * ltt_write_sched_change - record a context switch
 * @prev: the task that leaves the CPU
 * @next: the task that comes in
 * @state: @prev's state
 *
 * A session whose pid filter lists @next records the switch too; a user
 * session sees the other users' tasks as pid 0, and not their state.
 */
void ltt_write_sched_change(struct task_struct *prev,
			    struct task_struct *next, unsigned int state)
{
	struct ltt_rec_sched_change rec = { .out_state = state };
	struct ltt_recording *r;
	struct ltt_session *s;
	struct ltt_buf *buf;
	unsigned int i;

	if (!ltt_wants(LTT_EV_sched_change))
		return;
	guard(preempt_notrace)();
	r = rcu_dereference_sched(ltt_recording);
	for (i = 0; i < ltt_recording_n(r); i++) {
		s = ltt_recording_at(r, i);
		if (!s)
			continue;
		buf = ltt_take(s, LTT_EV_sched_change, next);
		if (!buf)
			continue;
		rec.in = ltt_session_pid(s, next);
		rec.out = ltt_session_pid(s, prev);
		/* Nor the state of another user's task. */
		rec.out_state = !s->user || rec.out ? state : 0;
		ltt_buf_write(buf, LTT_EV_sched_change, &rec, sizeof(rec),
			      NULL, 0);
	}
}

/*
 * Record event @id of the current task, about @target, whose pid each
 * session writes at @pid in @rec as it may see it.  With @other, the
 * filters may let the event through for @target too.
 */
static void ltt_write_about(unsigned int id, void *rec, unsigned int len,
			    s32 *pid, struct task_struct *target, bool other)
{
	struct ltt_recording *r;
	struct ltt_session *s;
	struct ltt_buf *buf;
	unsigned int i;

	if (!ltt_wants(id))
		return;
	guard(preempt_notrace)();
	r = rcu_dereference_sched(ltt_recording);
	for (i = 0; i < ltt_recording_n(r); i++) {
		s = ltt_recording_at(r, i);
		if (!s)
			continue;
		buf = ltt_take(s, id, other ? target : NULL);
		if (!buf)
			continue;
		*pid = ltt_session_pid(s, target);
		ltt_buf_write(buf, id, rec, len, NULL, 0);
	}
}

/**
 * ltt_write_signal - record a signal sent by the current task
 * @sig: the signal
 * @code: its si_code
 * @target: the task it is sent to, which a user session may not know
 */
void ltt_write_signal(int sig, int code, struct task_struct *target)
{
	struct ltt_rec_process_signal rec = { .sig = sig, .code = code };

	ltt_write_about(LTT_EV_process_signal, &rec, sizeof(rec), &rec.pid,
			target, false);
}

/**
 * ltt_write_cgroup_attach - record the move of a task to another cgroup
 * @id: the cgroup's id
 * @task: the task moved by the current one, which a user session may
 *	not know, and which a session's filters may let through: a
 *	session filtered on the cgroup sees the task come in
 * @threadgroup: its thread group moved with it
 */
void ltt_write_cgroup_attach(u64 id, struct task_struct *task,
			     bool threadgroup)
{
	struct ltt_rec_cgroup_attach rec = {
		.id = id,
		.threadgroup = threadgroup,
	};

	ltt_write_about(LTT_EV_cgroup_attach, &rec, sizeof(rec), &rec.pid,
			task, true);
}

/**
 * ltt_task_passes - does a task pass a session's filters and user scope?
 * @s: the session
 * @t: the task
 *
 * For records about another task than the current one (the state dump).
 */
bool ltt_task_passes(struct ltt_session *s, struct task_struct *t)
{
	/*
	 * A user may learn of the tasks a debugger of theirs could read,
	 * judged with the credentials of the session's creator (the state
	 * dump's worker wears them), and of no kernel thread: the worker
	 * itself is one, and may always read itself.
	 */
	if (s->user && ((t->flags & PF_KTHREAD) || !ltt_user_owns(s, t) ||
			!ptrace_may_access(t, PTRACE_MODE_READ_REALCREDS |
					   PTRACE_MODE_NOAUDIT)))
		return false;
	guard(preempt_notrace)();
	return ltt_filters_pass(s, t);
}

/**
 * ltt_session_write - record an event in one session, if it records
 * @s: the session
 * @id: the event id
 * @rec: the fixed part of the record
 * @len: its size
 * @str: a string to append, or NULL
 *
 * For records the caller has filtered itself (the state dump of @s),
 * which go to @s only, whatever else records.
 */
void ltt_session_write(struct ltt_session *s, unsigned int id,
		       const void *rec, unsigned int len, const char *str)
{
	struct ltt_buf *buf;

	guard(preempt_notrace)();
	if (READ_ONCE(s->state) != LTT_SESSION_RECORDING ||
	    !test_bit(id, s->mask))
		return;
	buf = s->bufs[smp_processor_id()];
	if (buf)
		ltt_buf_write(buf, id, rec, len, str, ltt_str_len(str));
}

/**
 * ltt_write_custom - record a custom event for the current task
 * @id: its type's id
 * @owner: the uid that made the type from user space, INVALID_UID for
 *	a module's (a user session records only its own user's types)
 * @data: the payload, checked against the type's layout
 * @size: its size
 */
void ltt_write_custom(unsigned int id, kuid_t owner, const void *data,
		      unsigned int size)
{
	struct ltt_recording *r;
	struct ltt_session *s;
	struct ltt_buf *buf;
	unsigned int i;

	if (!ltt_wants(id))
		return;
	guard(preempt_notrace)();
	r = rcu_dereference_sched(ltt_recording);
	for (i = 0; i < ltt_recording_n(r); i++) {
		s = ltt_recording_at(r, i);
		if (!s)
			continue;
		if (s->user && !uid_eq(owner, s->uid))
			continue;
		buf = ltt_take(s, id, NULL);
		if (!buf)
			continue;
		ltt_selftest_spin(LTT_KNOB_LOG_DELAY_US);
		ltt_buf_write(buf, id, data, size, NULL, 0);
	}
}

/*
 * Does @p's thread group pass @s's filters (the cgroup filter judged on
 * @p)?  Preemption disabled; the pid lookups want rcu_read_lock() too,
 * as lockdep says.
 */
static bool ltt_pid_match_group(struct ltt_session *s, struct task_struct *p)
{
	struct ltt_pidset *set = rcu_dereference_sched(s->pids);
	struct task_struct *t;
	unsigned int i;

	if (!ltt_cg_in(rcu_dereference_sched(s->cgroups), p))
		return false;
	if (!set)
		return true;
	guard(rcu)();
	for (i = 0; i < set->n; i++) {
		if (set->pids[i] == p->tgid)
			return true;
		t = find_task_by_pid_ns(set->pids[i], &init_pid_ns);
		if (t && t->tgid == p->tgid)
			return true;
	}
	return false;
}

/**
 * ltt_custom_would_take - would a recording session take a user custom
 *	event from a process?
 * @id: the event's id
 * @p: the process (its leader)
 * @mm: its memory
 *
 * For the enable flags (enable.c): the filters of ltt_write_custom() for
 * any thread of @p, from outside it.
 */
bool ltt_custom_would_take(unsigned int id, struct task_struct *p,
			   struct mm_struct *mm)
{
	struct ltt_recording *r;
	struct ltt_session *s;
	unsigned int i;

	guard(preempt_notrace)();
	r = rcu_dereference_sched(ltt_recording);
	for (i = 0; i < ltt_recording_n(r); i++) {
		s = ltt_recording_at(r, i);
		if (!s || !test_bit(id, s->mask) || !ltt_pid_match_group(s, p))
			continue;
		if (s->user && (get_dumpable(mm) != SUID_DUMP_USER ||
				!ltt_user_owns(s, p)))
			continue;
		return true;
	}
	return false;
}

/*
 * Make @s one of the recording sessions (ltt_record_lock held): a copy
 * of the array with @s added.  Returns 0 or -ENOMEM.
 */
int ltt_recording_add(struct ltt_session *s)
{
	struct ltt_recording *old, *new;
	unsigned int i, n = 0;

	old = rcu_dereference_protected(ltt_recording,
					lockdep_is_held(&ltt_record_lock));
	new = kmalloc(struct_size(new, s, (old ? old->n : 0) + 1), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	for (i = 0; old && i < old->n; i++)
		if (old->s[i])
			new->s[n++] = old->s[i];
	new->s[n++] = s;
	new->n = n;
	ltt_wanted_update(new);
	rcu_assign_pointer(ltt_recording, new);
	if (old)
		kfree_rcu(old, rcu);
	else
		ltt_clock_recording();
	return 0;
}

/*
 * @s records no more (ltt_record_lock held): a copy without it, or, if
 * none can be allocated, its entry cleared in place.  The caller waits
 * for the writers (synchronize_rcu()) before it touches the buffers.
 */
void ltt_recording_del(struct ltt_session *s)
{
	struct ltt_recording *old, *new;
	unsigned int i, n = 0;

	old = rcu_dereference_protected(ltt_recording,
					lockdep_is_held(&ltt_record_lock));
	if (WARN_ON_ONCE(!old))
		return;
	new = old->n > 1 ? kmalloc(struct_size(new, s, old->n - 1),
				   GFP_KERNEL) : NULL;
	if (old->n > 1 && !new) {
		for (i = 0; i < old->n; i++)
			if (old->s[i] == s)
				WRITE_ONCE(old->s[i], NULL);
		ltt_wanted_update(old);
		return;
	}
	for (i = 0; new && i < old->n; i++)
		if (old->s[i] && old->s[i] != s)
			new->s[n++] = old->s[i];
	if (new && !n) {
		/* Only entries cleared in place were left. */
		kfree(new);
		new = NULL;
	}
	if (new)
		new->n = n;
	else
		ltt_clock_idle();
	rcu_assign_pointer(ltt_recording, new);
	ltt_wanted_update(new);
	kfree_rcu(old, rcu);
}
