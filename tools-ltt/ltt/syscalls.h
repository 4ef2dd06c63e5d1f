/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System call names, for reports of syscall_entry's id field.
 */
#ifndef LTT_SYSCALLS_H
#define LTT_SYSCALLS_H

extern const char *const ltt_syscalls_x86_64[];
extern const unsigned int ltt_n_syscalls_x86_64;

/* The name of x86_64 system call @nr, or NULL. */
static inline const char *ltt_syscall_name(long nr)
{
	if (nr < 0 || (unsigned long)nr >= ltt_n_syscalls_x86_64)
		return 0;
	return ltt_syscalls_x86_64[nr];
}

#endif /* LTT_SYSCALLS_H */
