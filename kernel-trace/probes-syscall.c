// SPDX-License-Identifier: GPL-2.0
/*
 * LTT probes on system call entry and exit (the raw_syscalls tracepoints).
 * They also derive the file-system, socket and IPC events from the native
 * system calls that make them: one probe per tracepoint, the arguments
 * read once.
 */
#include <linux/compat.h>
#include <linux/ptrace.h>
#include <asm/syscall.h>
#include <trace/events/syscalls.h>

#include "internal.h"

static void ltt_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct ltt_rec_syscall_entry rec = {
		.id = id,
		.ip = instruction_pointer(regs),
	};
	unsigned long a[6];

	ltt_log_syscall_entry(&rec);
	if (in_compat_syscall())
		return;
	syscall_get_arguments(current, regs, a);
	ltt_fs_enter(id, a);
}

static void ltt_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct ltt_rec_syscall_exit rec = { .ret = ret };
	unsigned long a[6];
	long nr;

	ltt_log_syscall_exit(&rec);
	if (in_compat_syscall())
		return;
	nr = syscall_get_nr(current, regs);
	syscall_get_arguments(current, regs, a);
	ltt_fs_exit(nr, a, ret);
	ltt_socket_exit(nr, a, ret);
	ltt_ipc_exit(nr, a, ret);
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
