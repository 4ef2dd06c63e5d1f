// SPDX-License-Identifier: GPL-2.0
/*
 * LTT probes on system call entry and exit (the raw_syscalls tracepoints).
 * They also derive the file-system, socket and IPC events from the native
 * system calls that make them (and the file-system ones of x86's ia32 and
 * x32 calls): one probe per tracepoint, the arguments
 * read once, and not at all for the calls that derive nothing - which
 * the probes learn as the calls are made, so that the decoders stay the
 * one list of the calls they know.
 */
#include <linux/compat.h>
#include <linux/ptrace.h>
#include <asm/syscall.h>
#include <trace/events/syscalls.h>

#include "internal.h"

/* Native calls that derive no event at their entry, at their exit. */
static DECLARE_BITMAP(ltt_enter_underived, NR_syscalls);
static DECLARE_BITMAP(ltt_exit_underived, NR_syscalls);

/*
 * May native call @nr derive events, as far as @underived knows?  The
 * probes have sent the compat calls their own way already.
 */
static __always_inline bool ltt_may_derive(long nr,
					   const unsigned long *underived)
{
	return nr >= 0 && nr < NR_syscalls && !test_bit(nr, underived);
}

/*
 * The entry of a call of a compat ABI: its number is in that ABI's
 * table (x32's in the native one, its bit cleared), and it derives no
 * event, as the decoders know only the native calls' arguments.
 */
static noinline void ltt_sys_enter_compat(struct pt_regs *regs, long id)
{
	struct ltt_rec_syscall_entry_compat rec = {
		.abi = LTT_SYSCALL_ABI_COMPAT,
		.ip = instruction_pointer(regs),
	};

#ifdef CONFIG_X86_X32_ABI
	if (in_x32_syscall()) {
		rec.abi = LTT_SYSCALL_ABI_X32;
		id &= ~__X32_SYSCALL_BIT;
	}
#endif
	rec.id = id;
	ltt_log_syscall_entry_compat(&rec);
}

/*
 * The events call @nr derives at its entry, its arguments read once;
 * out of line, so that the probe needs no stack for them.  The array is
 * not zeroed at every call (INIT_STACK_ALL_ZERO).
 */
static noinline void ltt_sys_enter_derive(struct pt_regs *regs, long nr)
{
	unsigned long a[6] __uninitialized;

	syscall_get_arguments(current, regs, a);
	if (!ltt_fs_enter(nr, a))
		set_bit(nr, ltt_enter_underived);
}

static void ltt_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	if (unlikely(in_compat_syscall())) {
		ltt_sys_enter_compat(regs, id);
		return;
	}
	if (ltt_wants(LTT_EV_syscall_entry)) {
		struct ltt_rec_syscall_entry rec = {
			.id = id,
			.ip = instruction_pointer(regs),
		};

		__ltt_write(LTT_EV_syscall_entry, &rec, sizeof(rec));
	}
	if (ltt_may_derive(id, ltt_enter_underived))
		ltt_sys_enter_derive(regs, id);
}

/* The exit of a compat call: its fs events, as far as they are known. */
static noinline void ltt_sys_exit_compat(struct pt_regs *regs, long ret)
{
	unsigned long a[6];

	syscall_get_arguments(current, regs, a);
	ltt_fs_exit_compat(syscall_get_nr(current, regs), a, ret);
}

/* The events call @nr derives at its exit; out of line, as at entry. */
static noinline void ltt_sys_exit_derive(struct pt_regs *regs, long nr,
					 long ret)
{
	unsigned long a[6] __uninitialized;
	bool derived;

	syscall_get_arguments(current, regs, a);
#ifdef CONFIG_MIPS
	/*
	 * On the way out, MIPS's a3 is the error flag; the entry code kept
	 * the argument in k0's slot, for restarting the call.
	 */
	a[3] = regs->regs[26];
#endif
	derived = ltt_fs_exit(nr, a, ret);
	derived |= ltt_socket_exit(nr, a, ret);
	derived |= ltt_ipc_exit(nr, a, ret);
	if (!derived)
		set_bit(nr, ltt_exit_underived);
}

static void ltt_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	long nr;

	if (ltt_wants(LTT_EV_syscall_exit)) {
		struct ltt_rec_syscall_exit rec = { .ret = ret };

		__ltt_write(LTT_EV_syscall_exit, &rec, sizeof(rec));
	}
	if (unlikely(in_compat_syscall())) {
		ltt_sys_exit_compat(regs, ret);
		return;
	}
	nr = syscall_get_nr(current, regs);
	if (ltt_may_derive(nr, ltt_exit_underived))
		ltt_sys_exit_derive(regs, nr, ret);
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
