/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of the numbers an event holds that differ between machines:
 * signals, errno values, open flags and signal codes, in the numbering
 * of the machine that recorded the trace (its metadata's arch), never
 * the reading host's.  Linux numbers them one way (asm-generic) on
 * x86, s390 and sh; arm and arm64 number four open flags their own way,
 * powerpc those four and EDEADLOCK; mips its signals, errno values,
 * open flags and three signal codes.
 */
#ifndef LTT_ARCHNAMES_H
#define LTT_ARCHNAMES_H

#include <stddef.h>
#include <stdint.h>

struct ltt_syscall_table;

struct arch_errno {
	int nr;
	const char *name;		/* "ENOENT" */
	const char *text;		/* "No such file or directory" */
};

struct arch_errno_list {
	const struct arch_errno *v;	/* by number */
	unsigned int n;
};

struct arch_open_flag {
	uint32_t bit;
	const char *name;
};

struct arch_names {
	const char *name;			/* "generic", "arm", "mips"... */
	const char *const *signals;		/* [1] to [31]: "SIGHUP"... */
	int sig_max;				/* SIGRTMAX: 64, mips 128 */
	const struct arch_errno_list *errnos;
	const struct arch_open_flag *flags;	/* O_CREAT... */
	unsigned int n_flags;
	const char *const *si_codes;		/* [-code]: SI_USER... */
	unsigned int n_si_codes;
};

/*
 * The names of the machine of system call table @machine (the trace's,
 * ltt_trace_syscalls()), or NULL for a machine the tools have none of:
 * numbers are then printed as numbers.
 */
const struct arch_names *arch_names_of(const struct ltt_syscall_table *machine);

/* "SIGCHLD", "SIGRT_3", or NULL (also for no @a). */
const char *arch_signal_name(const struct arch_names *a, long sig);
/* The number of signal @name ("SIGSEGV") on @a, or 0. */
long arch_signal_nr(const struct arch_names *a, const char *name);
/* Error @err (positive) of @a, or NULL. */
const struct arch_errno *arch_errno(const struct arch_names *a, long err);
/* Open flags "O_WRONLY|O_CREAT|O_TRUNC" in @buf; NULL for no @a. */
const char *arch_open_flags(const struct arch_names *a, uint32_t flags,
			    char *buf, size_t len);
/* A signal's si_code: "SI_USER", "SI_TKILL", "SEGV_MAPERR"..., or NULL. */
const char *arch_signal_code(const struct arch_names *a, long sig, long code);

/* ltt/archnames-tables.c (scripts/gen-archnames.py) */
extern const struct arch_errno_list arch_errno_generic, arch_errno_powerpc,
	arch_errno_mips;

#endif /* LTT_ARCHNAMES_H */
