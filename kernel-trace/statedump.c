// SPDX-License-Identifier: GPL-2.0
/*
 * LTT state dump: when a session starts, one record per task and one per
 * open file, so that a trace names every process and file it meets.
 */
#include <linux/dcache.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/gfp.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

#include "internal.h"

struct ltt_dump_ctx {
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
	__ltt_write(LTT_EV_statedump_file, &rec, sizeof(rec), path, -1);
	return 0;
}

static void ltt_dump_task(struct task_struct *t, struct ltt_dump_ctx *ctx)
{
	struct ltt_rec_statedump_process rec = {
		.pid = t->pid,
		.tgid = t->tgid,
		.ppid = task_tgid_nr(rcu_dereference(t->real_parent)),
	};
	char comm[TASK_COMM_LEN];

	if (!ltt_task_passes(t))
		return;
	get_task_comm(comm, t);
	__ltt_write(LTT_EV_statedump_process, &rec, sizeof(rec), comm, -1);
}

/* Files are per process: dump those of thread-group leaders only. */
static void ltt_dump_files(struct task_struct *t, struct ltt_dump_ctx *ctx)
{
	struct files_struct *files;

	if (!thread_group_leader(t) || !ltt_task_passes(t))
		return;
	task_lock(t);
	files = t->files;
	if (files) {
		ctx->pid = t->pid;
		iterate_fd(files, 0, ltt_dump_file, ctx);
	}
	task_unlock(t);
}

/**
 * ltt_statedump - record every task and open file
 *
 * Runs when a session starts, in process context.  The records pass the
 * event mask; the pid filter lets through those of the listed processes
 * and threads, whoever starts the session.
 */
void ltt_statedump(void)
{
	struct ltt_dump_ctx ctx = {};
	struct task_struct *p, *t;

	ctx.page = (char *)__get_free_page(GFP_KERNEL);
	if (!ctx.page)
		return;
	rcu_read_lock();
	for_each_process_thread(p, t)
		ltt_dump_task(t, &ctx);
	rcu_read_unlock();

	if (ltt_event_enabled(LTT_EV_statedump_file)) {
		read_lock(&tasklist_lock);
		for_each_process(p)
			ltt_dump_files(p, &ctx);
		read_unlock(&tasklist_lock);
	}
	free_page((unsigned long)ctx.page);
}
