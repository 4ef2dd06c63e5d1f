// SPDX-License-Identifier: GPL-2.0
/*
 * Which system call table numbers a trace's calls: the recording
 * machine's, by its uname -m, and its compat ABIs'.
 */
#include <string.h>

#include <linux/ltt.h>

#include "ltt.h"
#include "syscalls.h"

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

const struct ltt_syscall_table *ltt_syscall_table(const char *arch)
{
	if (!arch || !strcmp(arch, "x86_64"))
		return &ltt_syscalls_x86_64;
	if (strlen(arch) == 4 && arch[0] == 'i' && arch[1] >= '3' &&
	    arch[1] <= '6' && !strcmp(arch + 2, "86"))
		return &ltt_syscalls_i386;		/* i386 ... i686 */
	if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
		return &ltt_syscalls_aarch64;
	if (starts(arch, "arm"))			/* armv7l, armv5tel */
		return &ltt_syscalls_arm;
	if (!strcmp(arch, "ppc") || !strcmp(arch, "powerpc"))
		return &ltt_syscalls_ppc32;
	if (!strcmp(arch, "ppc64") || !strcmp(arch, "ppc64le"))
		return &ltt_syscalls_ppc64;
	if (!strcmp(arch, "mips") || !strcmp(arch, "mipsel"))
		return &ltt_syscalls_mips_o32;
	if (!strcmp(arch, "mips64") || !strcmp(arch, "mips64el"))
		return &ltt_syscalls_mips_n64;
	if (starts(arch, "sh"))				/* sh4, sh4a */
		return &ltt_syscalls_sh;
	if (!strcmp(arch, "s390x"))
		return &ltt_syscalls_s390x;
	if (!strcmp(arch, "s390"))
		return &ltt_syscalls_s390;
	return NULL;
}

const struct ltt_syscall_table *ltt_trace_syscalls(const struct ltt_trace *t)
{
	return ltt_syscall_table(t ? ltt_trace_arch(t) : NULL);
}

const struct ltt_syscall_table *
ltt_syscall_compat_table(const struct ltt_syscall_table *native, long abi)
{
	if (abi == LTT_SYSCALL_ABI_X32)
		return native == &ltt_syscalls_x86_64 ? &ltt_syscalls_x32 : NULL;
	if (abi != LTT_SYSCALL_ABI_COMPAT)
		return NULL;
	if (native == &ltt_syscalls_x86_64)
		return &ltt_syscalls_i386;
	if (native == &ltt_syscalls_aarch64)
		return &ltt_syscalls_arm;
	if (native == &ltt_syscalls_ppc64)
		return &ltt_syscalls_ppc32;
	if (native == &ltt_syscalls_mips_n64)
		return &ltt_syscalls_mips_o32;	/* n32's numbers have none */
	if (native == &ltt_syscalls_s390x)
		return &ltt_syscalls_s390;
	return NULL;
}

long ltt_syscall_nr(const struct ltt_syscall_table *t, const char *name)
{
	unsigned int i;

	for (i = 0; t && i < t->n; i++)
		if (t->names[i] && !strcmp(t->names[i], name))
			return t->base + i;
	return -1;
}
