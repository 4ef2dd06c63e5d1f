// SPDX-License-Identifier: GPL-2.0
/*
 * LTT probes on system call entry and exit (the raw_syscalls tracepoints).
 */
#include <linux/ptrace.h>
#include <trace/events/syscalls.h>

#include "internal.h"

static void ltt_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct ltt_rec_syscall_entry rec = {
		.id = id,
		.ip = instruction_pointer(regs),
	};

	ltt_log_syscall_entry(&rec);
}

static void ltt_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct ltt_rec_syscall_exit rec = { .ret = ret };

	ltt_log_syscall_exit(&rec);
}

static int ltt_syscall_attach(void)
{
	int ret;

	ret = register_trace_sys_enter(ltt_probe_sys_enter, NULL);
	if (ret)
		return ret;
	ret = register_trace_sys_exit(ltt_probe_sys_exit, NULL);
	if (ret)
		unregister_trace_sys_enter(ltt_probe_sys_enter, NULL);
	return ret;
}

static void ltt_syscall_detach(void)
{
	unregister_trace_sys_exit(ltt_probe_sys_exit, NULL);
	unregister_trace_sys_enter(ltt_probe_sys_enter, NULL);
}

const struct ltt_probe_group ltt_syscall_probes = {
	.name	= "syscall",
	.attach	= ltt_syscall_attach,
	.detach	= ltt_syscall_detach,
};
