// SPDX-License-Identifier: GPL-2.0
/*
 * LTT System V IPC events, derived from the system calls (native ones
 * only): the creation of message queues, semaphore sets and shared
 * memory segments, and the other calls on them.
 */
#include <linux/compat.h>
#include <linux/ipc.h>
#include <linux/ptrace.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <trace/events/syscalls.h>

#include "internal.h"

/* The call number of <linux/ipc.h> a system call makes, or 0. */
static unsigned int ltt_ipc_call(long nr)
{
	switch (nr) {
#ifdef __NR_semop
	case __NR_semop:	return SEMOP;
#endif
#ifdef __NR_semctl
	case __NR_semctl:	return SEMCTL;
#endif
#ifdef __NR_semtimedop
	case __NR_semtimedop:	return SEMTIMEDOP;
#endif
#ifdef __NR_semtimedop_time64
	case __NR_semtimedop_time64:	return SEMTIMEDOP;
#endif
#ifdef __NR_msgsnd
	case __NR_msgsnd:	return MSGSND;
#endif
#ifdef __NR_msgrcv
	case __NR_msgrcv:	return MSGRCV;
#endif
#ifdef __NR_msgctl
	case __NR_msgctl:	return MSGCTL;
#endif
#ifdef __NR_shmat
	case __NR_shmat:	return SHMAT;
#endif
#ifdef __NR_shmdt
	case __NR_shmdt:	return SHMDT;
#endif
#ifdef __NR_shmctl
	case __NR_shmctl:	return SHMCTL;
#endif
	}
	return 0;
}

static void ltt_ipc_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	unsigned long a[6];
	unsigned int call;
	long nr;

	if (in_compat_syscall())
		return;
	nr = syscall_get_nr(current, regs);
	syscall_get_arguments(current, regs, a);
	switch (nr) {
#ifdef __NR_msgget
	case __NR_msgget: {
		struct ltt_rec_ipc_msg_create msg = { .id = ret, .flags = a[1] };

		ltt_log_ipc_msg_create(&msg);
		return;
	}
#endif
#ifdef __NR_semget
	case __NR_semget: {
		struct ltt_rec_ipc_sem_create sem = { .id = ret, .flags = a[2] };

		ltt_log_ipc_sem_create(&sem);
		return;
	}
#endif
#ifdef __NR_shmget
	case __NR_shmget: {
		struct ltt_rec_ipc_shm_create shm = { .id = ret, .flags = a[2] };

		ltt_log_ipc_shm_create(&shm);
		return;
	}
#endif
	}
	call = ltt_ipc_call(nr);
	if (call) {
		struct ltt_rec_ipc_call c = { .call = call, .id = a[0] };

		/* shmdt() names an address, not an id. */
		if (call == SHMDT)
			c.id = ret;
		ltt_log_ipc_call(&c);
	}
}

static int ltt_ipc_attach(void)
{
	return register_trace_sys_exit(ltt_ipc_sys_exit, NULL);
}

static void ltt_ipc_detach(void)
{
	unregister_trace_sys_exit(ltt_ipc_sys_exit, NULL);
}

const struct ltt_probe_group ltt_ipc_probes = {
	.name	= "ipc",
	.attach	= ltt_ipc_attach,
	.detach	= ltt_ipc_detach,
};
