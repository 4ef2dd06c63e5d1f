// SPDX-License-Identifier: GPL-2.0
/*
 * LTT state dump: when a session starts, one record per task and one per
 * open file, so that a trace names every process and file it meets.
 *
 * The dump walks the processes by pid, one at a time, holding a
 * reference to each rather than a lock on the task list: a big system
 * is dumped in many short sections, with a chance to reschedule between
 * processes.
 */
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
	pid_t pid;
	char *page;		/* for d_path() */
};

static int ltt_dump_file(const void *arg, struct file *file, unsigned int fd)
{
	const struct ltt_dump_ctx *ctx = arg;
	struct ltt_rec_statedump_file rec = { .pid = ctx->pid, .fd = fd };
	char *path;

	path = d_path(&file->f_path, ctx->page, PAGE_SIZE);
	if (IS_ERR(path))
		path = "?";
	ltt_session_write(ctx->s, LTT_EV_statedump_file, &rec, sizeof(rec),
			  path);
	return 0;
}

/* One task's record; under rcu_read_lock(). */
static void ltt_dump_task(struct task_struct *t, struct ltt_dump_ctx *ctx)
{
	struct ltt_rec_statedump_process rec = {
		.pid = t->pid,
		.tgid = t->tgid,
	};
	struct task_struct *parent = rcu_dereference(t->real_parent);
	char comm[TASK_COMM_LEN];

	if (!ltt_task_passes(ctx->s, t))
		return;
	/* The parent of a user's task may be somebody else's. */
	if (ltt_session_pid(ctx->s, parent))
		rec.ppid = parent->tgid;
	get_task_comm(comm, t);
	ltt_session_write(ctx->s, LTT_EV_statedump_process, &rec, sizeof(rec),
			  comm);
}

/* A process's threads, then, if it passes, its files. */
static void ltt_dump_process(struct task_struct *p, struct ltt_dump_ctx *ctx)
{
	struct task_struct *t;
	struct files_struct *files;

	scoped_guard(rcu)
		for_each_thread(p, t)
			ltt_dump_task(t, ctx);

	if (!test_bit(LTT_EV_statedump_file, ctx->s->mask) ||
	    !ltt_task_passes(ctx->s, p))
		return;
	task_lock(p);
	files = p->files;
	if (files) {
		ctx->pid = p->pid;
		iterate_fd(files, 0, ltt_dump_file, ctx);
	}
	task_unlock(p);
}

/* The process of the lowest pid from *@nr on, with a reference, or NULL. */
static struct task_struct *ltt_next_process(pid_t *nr)
{
	struct task_struct *p;
	struct pid *pid;

	guard(rcu)();
	while ((pid = find_ge_pid(*nr, &init_pid_ns))) {
		*nr = pid_nr(pid) + 1;
		p = pid_task(pid, PIDTYPE_TGID);
		if (p) {
			get_task_struct(p);
			return p;
		}
	}
	return NULL;
}

/**
 * ltt_statedump - record every task and open file into a session
 * @s: the session, just started; the caller holds its file
 *
 * Runs in process context, without the session's locks; if @s stops
 * meanwhile, the rest of the dump goes nowhere.  The records pass the
 * event mask; the pid filter lets through those of the listed processes
 * and threads, whoever starts the session.
 */
void ltt_statedump(struct ltt_session *s)
{
	struct ltt_dump_ctx ctx = { .s = s };
	struct task_struct *p;
	pid_t nr = 1;

	ctx.page = (char *)__get_free_page(GFP_KERNEL);
	if (!ctx.page)
		return;
	while ((p = ltt_next_process(&nr))) {
		ltt_dump_process(p, &ctx);
		put_task_struct(p);
		if (READ_ONCE(s->state) != LTT_SESSION_RECORDING)
			break;
		cond_resched();
	}
	free_page((unsigned long)ctx.page);
}
