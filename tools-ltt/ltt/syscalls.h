/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System call names, for reports of syscall_entry's id field: one
 * table per architecture (ltt/syscalls-*.c, made by
 * scripts/gen-syscalls.sh), the one of the machine that recorded the
 * trace.
 */
#ifndef LTT_SYSCALLS_H
#define LTT_SYSCALLS_H

struct ltt_trace;

struct ltt_syscall_table {
	const char *name;		/* "x86_64", "i386", "mips_o32"... */
	long base;			/* the number of names[0] */
	unsigned int n;
	const char *const *names;	/* NULL for a number without a call */
};

extern const struct ltt_syscall_table ltt_syscalls_x86_64, ltt_syscalls_x32,
	ltt_syscalls_i386, ltt_syscalls_arm, ltt_syscalls_aarch64,
	ltt_syscalls_ppc32, ltt_syscalls_ppc64, ltt_syscalls_mips_o32,
	ltt_syscalls_mips_n64, ltt_syscalls_sh, ltt_syscalls_s390x,
	ltt_syscalls_s390;

/*
 * The table of machine @arch (uname -m: "i686", "armv7l", "ppc64le"...);
 * x86_64's for NULL (a trace that does not say), NULL for a machine
 * without one.
 */
const struct ltt_syscall_table *ltt_syscall_table(const char *arch);
/* The table of the machine that recorded @t. */
const struct ltt_syscall_table *ltt_trace_syscalls(const struct ltt_trace *t);
/*
 * The table of syscall_entry_compat's calls of ABI @abi
 * (LTT_SYSCALL_ABI_*) on a kernel of table @native, or NULL.
 */
const struct ltt_syscall_table *
ltt_syscall_compat_table(const struct ltt_syscall_table *native, long abi);

/* The name of system call @nr of table @t, or NULL (also for no @t). */
static inline const char *ltt_syscall_name(const struct ltt_syscall_table *t,
					   long nr)
{
	if (!t || nr < t->base || nr - t->base >= (long)t->n)
		return 0;
	return t->names[nr - t->base];
}

/* The number of system call @name in table @t, or -1. */
long ltt_syscall_nr(const struct ltt_syscall_table *t, const char *name);

#endif /* LTT_SYSCALLS_H */
