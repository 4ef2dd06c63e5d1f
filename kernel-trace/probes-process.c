// SPDX-License-Identifier: GPL-2.0
/*
 * LTT probes on process life: fork or clone, exec, exit, wait, signals.
 * Kernel thread creation has no tracepoint and is a direct hook
 * (<linux/ltt.h>).
 */
#include <linux/binfmts.h>
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <trace/events/sched.h>
#include <trace/events/signal.h>

#include "internal.h"

static void ltt_probe_fork(void *data, struct task_struct *parent,
			   struct task_struct *child)
{
	struct ltt_rec_process_fork rec = {
		.child = child->pid,
		.child_tgid = child->tgid,
	};

	ltt_log_process_fork(&rec);
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
