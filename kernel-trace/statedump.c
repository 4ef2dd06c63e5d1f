// SPDX-License-Identifier: GPL-2.0
/*
 * LTT state dump: when a session starts, one record per cgroup, one per
 * task (and where it lives) and one per open file, so that a trace names
 * every container, process and file it meets.
 *
 * The dump walks the processes by pid, one at a time, holding a
 * reference to each rather than a lock on the task list: a big system
 * is dumped in many short sections, with a chance to reschedule between
 * processes.  It runs in a worker that START queues on its CPU, so that
 * the reader (often the caller of START) reads meanwhile; in discard
 * mode it waits for the reader to free a packet rather than lose
 * records, so a dump larger than the buffer arrives whole.  A stop ends
 * the waiting: the dump finishes at once, its excess counted lost; the
 * stop waits for it before it takes any lock that other sessions need.
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/gfp.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

#include "internal.h"

struct ltt_dump_ctx {
	struct ltt_session *s;
	char *page;		/* for d_path() */
	bool no_reader;		/* a wait timed out: wait no more */
	u64 last_cgroup;	/* a user session's: the last one named */
};

/* How long a full buffer waits for its reader before the dump goes on. */
#define LTT_DUMP_WAIT	HZ

/* Before a record: in discard mode, let the reader catch up if need be. */
static void ltt_dump_room(struct ltt_dump_ctx *ctx)
{
	struct ltt_buf *buf = ctx->s->bufs[raw_smp_processor_id()];

	ltt_selftest_sleep(LTT_KNOB_DUMP_DELAY_MS);
	if (!buf || ctx->no_reader)
		return;
	if (!ltt_buf_wait_room(buf, &ctx->s->dump_hurry, LTT_DUMP_WAIT))
		ctx->no_reader = true;
}

/* One open file of @p's. */
static void ltt_dump_file(struct ltt_dump_ctx *ctx, struct task_struct *p,
			  struct file *file, unsigned int fd)
{
	struct ltt_rec_statedump_file rec = { .pid = p->pid, .fd = fd };
	char *path;

	path = d_path(&file->f_path, ctx->page, PAGE_SIZE);
	if (IS_ERR(path))
		path = "?";
	ltt_dump_room(ctx);
	ltt_session_write(ctx->s, LTT_EV_statedump_file, &rec, sizeof(rec),
			  path);
}

/*
 * The open files of the process @p, one at a time, as /proc/PID/fd
 * lists them: no lock is held across a record, so the dump may wait.
 */
static void ltt_dump_files(struct ltt_dump_ctx *ctx, struct task_struct *p)
{
	struct file *file;
	unsigned int fd;

	if (!test_bit(LTT_EV_statedump_file, ctx->s->mask) ||
	    !ltt_task_passes(ctx->s, p))
		return;
	for (fd = 0;; fd++) {
		scoped_guard(rcu)
			file = task_lookup_next_fdget_rcu(p, &fd);
		if (!file)
			break;
		ltt_dump_file(ctx, p, file, fd);
		fput(file);
		cond_resched();
	}
}

#ifdef CONFIG_CGROUPS
/* One cgroup's record; @cgrp is held. */
static void ltt_dump_cgroup(struct ltt_dump_ctx *ctx, struct cgroup *cgrp)
{
	struct ltt_rec_statedump_cgroup rec = { .id = cgroup_id(cgrp) };
	struct cgroup *parent = cgroup_parent(cgrp);

	if (parent)
		rec.parent = cgroup_id(parent);
	ltt_cgroup_path(cgrp, ctx->page, LTT_STRING_MAX);
	ltt_dump_room(ctx);
	ltt_session_write(ctx->s, LTT_EV_statedump_cgroup, &rec, sizeof(rec),
			  ctx->page);
}

/*
 * Every cgroup of the v2 hierarchy, parents first, for a session of the
 * system; a user session learns only of its own tasks' cgroups
 * (ltt_dump_ns()).  Each is held while the dump may wait, as cpuset
 * walks them.
 */
static void ltt_dump_cgroups(struct ltt_dump_ctx *ctx)
{
	struct cgroup_subsys_state *css;

	if (ctx->s->user || !test_bit(LTT_EV_statedump_cgroup, ctx->s->mask))
		return;
	rcu_read_lock();
	css_for_each_descendant_pre(css, &cgrp_dfl_root.cgrp.self) {
		if (!css_tryget_online(css))
			continue;
		rcu_read_unlock();
		ltt_dump_cgroup(ctx, css->cgroup);
		cond_resched();
		rcu_read_lock();
		css_put(css);
	}
	rcu_read_unlock();
}

/*
 * A user session's record of the cgroup of its task @t, unless the task
 * before (a thread of the same process, most often) named it.
 */
static void ltt_dump_task_cgroup(struct ltt_dump_ctx *ctx,
				 struct task_struct *t)
{
	struct cgroup *cgrp;

	if (!ctx->s->user || !test_bit(LTT_EV_statedump_cgroup, ctx->s->mask))
		return;
	scoped_guard(rcu) {
		cgrp = task_dfl_cgroup(t);
		if (cgroup_id(cgrp) == ctx->last_cgroup || !cgroup_tryget(cgrp))
			return;
	}
	ctx->last_cgroup = cgroup_id(cgrp);
	ltt_dump_cgroup(ctx, cgrp);
	cgroup_put(cgrp);
}
#else
static void ltt_dump_cgroups(struct ltt_dump_ctx *ctx)
{
}

static void ltt_dump_task_cgroup(struct ltt_dump_ctx *ctx,
				 struct task_struct *t)
{
}
#endif

/* Where task @t lives, after its record. */
static void ltt_dump_ns(struct ltt_dump_ctx *ctx, struct task_struct *t)
{
	struct ltt_rec_process_ns rec;

	ltt_dump_task_cgroup(ctx, t);
	if (!test_bit(LTT_EV_process_ns, ctx->s->mask))
		return;
	ltt_process_ns(t, &rec);
	ltt_dump_room(ctx);
	ltt_session_write(ctx->s, LTT_EV_process_ns, &rec, sizeof(rec), NULL);
}

/* One task's record. */
static void ltt_dump_task(struct ltt_dump_ctx *ctx, struct task_struct *t)
{
	struct ltt_rec_statedump_process rec = {
		.pid = t->pid,
		.tgid = t->tgid,
	};
	struct task_struct *parent;
	char comm[TASK_COMM_LEN];

	if (!ltt_task_passes(ctx->s, t))
		return;
	scoped_guard(rcu) {
		parent = rcu_dereference(t->real_parent);
		/* The parent of a user's task may be somebody else's. */
		if (ltt_session_pid(ctx->s, parent))
			rec.ppid = parent->tgid;
	}
	get_task_comm(comm, t);
	ltt_dump_room(ctx);
	ltt_session_write(ctx->s, LTT_EV_statedump_process, &rec, sizeof(rec),
			  comm);
	ltt_dump_ns(ctx, t);
}

/* The task of the lowest pid from *@nr on, with a reference, or NULL. */
static struct task_struct *ltt_next_task(pid_t *nr)
{
	struct task_struct *t;
	struct pid *pid;

	guard(rcu)();
	while ((pid = find_ge_pid(*nr, &init_pid_ns))) {
		*nr = pid_nr(pid) + 1;
		t = pid_task(pid, PIDTYPE_PID);
		if (t) {
			get_task_struct(t);
			return t;
		}
	}
	return NULL;
}

/**
 * ltt_statedump_work - record every cgroup, task and open file into a session
 * @work: the dump of the session, just started
 *
 * Runs in a worker, without the session's locks; a stop of the session waits
 * for it, before it takes them.  The records pass the event mask; the pid and
 * cgroup filters let through those of the listed processes and threads and of
 * the tasks in the listed cgroups, whoever starts the session; every cgroup
 * is named first.  Tasks come in pid order, each process's files after it.
 * The worker wears the credentials of the session's creator, so that a user
 * session judges which tasks its user may see with the user's, not with the
 * worker's (root's).
 */
void ltt_statedump_work(struct work_struct *work)
{
	struct ltt_dump_ctx ctx = {
		.s = container_of(work, struct ltt_session, dump),
	};
	const struct cred *old;
	struct task_struct *t;
	pid_t nr = 1;

	ctx.page = (char *)__get_free_page(GFP_KERNEL);
	if (!ctx.page)
		return;
	/* What a user's session may see is what its creator may see. */
	old = override_creds(ctx.s->cred);
	ltt_dump_cgroups(&ctx);
	while ((t = ltt_next_task(&nr))) {
		ltt_dump_task(&ctx, t);
		if (thread_group_leader(t))
			ltt_dump_files(&ctx, t);
		put_task_struct(t);
		cond_resched();
	}
	revert_creds(old);
	free_page((unsigned long)ctx.page);
}
