// SPDX-License-Identifier: GPL-2.0
/*
 * LTT System V IPC events, derived from the system calls (native ones
 * only): the creation of message queues, semaphore sets and shared
 * memory segments, and the other calls on them.
 */
#include <linux/ipc.h>
#include <asm/unistd.h>

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

/* The events of IPC call @call (of <linux/ipc.h>) on object @id. */
static void ltt_ipc_log(unsigned int call, int id, unsigned long flags,
			long ret)
{
	switch (call) {
	case MSGGET: {
		struct ltt_rec_ipc_msg_create msg = { .id = ret, .flags = flags };

		ltt_log_ipc_msg_create(&msg);
		return;
	}
	case SEMGET: {
		struct ltt_rec_ipc_sem_create sem = { .id = ret, .flags = flags };

		ltt_log_ipc_sem_create(&sem);
		return;
	}
	case SHMGET: {
		struct ltt_rec_ipc_shm_create shm = { .id = ret, .flags = flags };

		ltt_log_ipc_shm_create(&shm);
		return;
	}
	}
	{
		struct ltt_rec_ipc_call c = { .call = call, .id = id };

		/* shmdt() names an address, not an id. */
		if (call == SHMDT)
			c.id = ret;
		ltt_log_ipc_call(&c);
	}
}

/**
 * ltt_ipc_exit - the IPC events of a native system call at its exit
 * @nr: the system call
 * @a: its arguments
 * @ret: its return value
 *
 * ipc(2), the multiplexer that the C library still calls for some or
 * all of them on i386, ppc32, s390, sh and MIPS o32 (the ctl calls of
 * i386's glibc), is decoded too: call (its version above bit 16),
 * first (the key or id), second, third, ptr, fifth.
 *
 * Return: whether @nr makes IPC events (recorded or not).
 */
bool ltt_ipc_exit(long nr, const unsigned long *a, long ret)
{
	unsigned int call;

	switch (nr) {
#ifdef __NR_msgget
	case __NR_msgget:
		ltt_ipc_log(MSGGET, 0, a[1], ret);
		return true;
#endif
#ifdef __NR_semget
	case __NR_semget:
		ltt_ipc_log(SEMGET, 0, a[2], ret);
		return true;
#endif
#ifdef __NR_shmget
	case __NR_shmget:
		ltt_ipc_log(SHMGET, 0, a[2], ret);
		return true;
#endif
#ifdef __NR_ipc
	case __NR_ipc:
		call = a[0] & 0xffff;
		switch (call) {
		case MSGGET:
			ltt_ipc_log(call, 0, a[2], ret);
			break;
		case SEMGET:
		case SHMGET:
			ltt_ipc_log(call, 0, a[3], ret);
			break;
		case SEMOP: case SEMCTL: case SEMTIMEDOP:
		case MSGSND: case MSGRCV: case MSGCTL:
		case SHMAT: case SHMDT: case SHMCTL:
			ltt_ipc_log(call, a[1], 0, ret);
			break;
		}
		return true;
#endif
	}
	call = ltt_ipc_call(nr);
	if (call)
		ltt_ipc_log(call, a[0], 0, ret);
	return call;
}
