// SPDX-License-Identifier: GPL-2.0
/*
 * LTT probes on process life: fork or clone, exec, exit, wait, signals.
 * Kernel thread creation has no tracepoint and is a direct hook
 * (<linux/ltt.h>).
 */
#include <linux/binfmts.h>
#include <linux/cgroup.h>
#include <linux/mm_types.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <trace/events/sched.h>
#include <trace/events/signal.h>

#include "internal.h"

/* The id of @t's cgroup (v2), 0 without cgroups.  Under rcu_read_lock(). */
static u64 ltt_task_cgroup_id(struct task_struct *t)
{
#ifdef CONFIG_CGROUPS
	return cgroup_id(task_dfl_cgroup(t));
#else
	return 0;
#endif
}

/**
 * ltt_process_ns - where a task lives: its cgroup and pid namespace
 * @t: the task
 * @rec: the record to fill in
 *
 * An exiting task that has left its pid namespace has pidns and vpid 0.
 */
void ltt_process_ns(struct task_struct *t, struct ltt_rec_process_ns *rec)
{
	struct pid_namespace *ns;

	rec->pid = t->pid;
	guard(rcu)();
	rec->cgroup = ltt_task_cgroup_id(t);
	ns = task_active_pid_ns(t);
	rec->pidns = ns ? ns->ns.inum : 0;
	rec->vpid = ns ? task_pid_nr_ns(t, ns) : 0;
}

/*
 * Must a fork be followed by where the child lives?  When a reader could
 * not tell it from the parent: another cgroup (clone3's
 * CLONE_INTO_CGROUP), or a pid namespace whose pids the records do not
 * speak.
 */
static bool ltt_fork_moves(struct task_struct *parent,
			   struct task_struct *child)
{
	guard(rcu)();
	return task_active_pid_ns(child) != &init_pid_ns ||
	       ltt_task_cgroup_id(child) != ltt_task_cgroup_id(parent);
}

static void ltt_probe_fork(void *data, struct task_struct *parent,
			   struct task_struct *child)
{
	struct ltt_rec_process_fork rec = {
		.child = child->pid,
		.child_tgid = child->tgid,
	};
	struct ltt_rec_process_ns ns;

	/* A session filtered on the child's cgroup sees it born. */
	ltt_write_task(LTT_EV_process_fork, &rec, sizeof(rec), child);
	if (ltt_wants(LTT_EV_process_ns) && ltt_fork_moves(parent, child)) {
		ltt_process_ns(child, &ns);
		ltt_write_task(LTT_EV_process_ns, &ns, sizeof(ns), child);
	}
}

static void ltt_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			   struct linux_binprm *bprm)
{
	struct ltt_rec_process_exec rec = { .pid = p->pid };

	ltt_log_process_exec(&rec, bprm->filename);
}

static void ltt_probe_exit(void *data, struct task_struct *p)
{
	struct ltt_rec_process_exit rec = {
		.pid = p->pid,
		.code = p->exit_code,
	};

	ltt_log_process_exit(&rec);
}

static void ltt_probe_wait(void *data, struct pid *pid)
{
	struct ltt_rec_process_wait rec = { .pid = pid ? pid_nr(pid) : -1 };

	ltt_log_process_wait(&rec);
}

static void ltt_probe_signal(void *data, int sig, struct kernel_siginfo *info,
			     struct task_struct *task, int group, int result)
{
	int code = SI_USER;

	/* As the tracepoint's own: no info is a kill(), SEND_SIG_PRIV the kernel. */
	if (info == SEND_SIG_PRIV)
		code = SI_KERNEL;
	else if (info != SEND_SIG_NOINFO)
		code = info->si_code;
	/* The target may be another user's task: each session's record. */
	ltt_write_signal(sig, code, task);
}

static int ltt_process_attach(void)
{
	int ret;

	ret = register_trace_sched_process_fork(ltt_probe_fork, NULL);
	if (ret)
		return ret;
	ret = register_trace_sched_process_exec(ltt_probe_exec, NULL);
	if (ret)
		goto no_exec;
	ret = register_trace_sched_process_exit(ltt_probe_exit, NULL);
	if (ret)
		goto no_exit;
	ret = register_trace_sched_process_wait(ltt_probe_wait, NULL);
	if (ret)
		goto no_wait;
	ret = register_trace_signal_generate(ltt_probe_signal, NULL);
	if (ret)
		goto no_signal;
	return 0;

no_signal:
	unregister_trace_sched_process_wait(ltt_probe_wait, NULL);
no_wait:
	unregister_trace_sched_process_exit(ltt_probe_exit, NULL);
no_exit:
	unregister_trace_sched_process_exec(ltt_probe_exec, NULL);
no_exec:
	unregister_trace_sched_process_fork(ltt_probe_fork, NULL);
	return ret;
}

static void ltt_process_detach(void)
{
	unregister_trace_signal_generate(ltt_probe_signal, NULL);
	unregister_trace_sched_process_wait(ltt_probe_wait, NULL);
	unregister_trace_sched_process_exit(ltt_probe_exit, NULL);
	unregister_trace_sched_process_exec(ltt_probe_exec, NULL);
	unregister_trace_sched_process_fork(ltt_probe_fork, NULL);
}

const struct ltt_probe_group ltt_process_probes = {
	.name	= "process",
	.attach	= ltt_process_attach,
	.detach	= ltt_process_detach,
};
