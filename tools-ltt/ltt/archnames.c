// SPDX-License-Identifier: GPL-2.0
/*
 * Signals, errno values, open flags and signal codes by the recording
 * machine (archnames.h), from Linux 6.12's uapi headers:
 * asm-generic/signal.h, fcntl.h and siginfo.h, and arch/{arm,arm64,
 * powerpc,mips}/include/uapi/asm/ where those differ.
 */
#include <stdio.h>
#include <string.h>

#include "archnames.h"
#include "ltt.h"
#include "syscalls.h"

static const char *const signals_generic[32] = {
	NULL, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
	"SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2",
	"SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
	"SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU",
	"SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR",
	"SIGSYS",
};

static const char *const signals_mips[32] = {
	NULL, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
	"SIGEMT", "SIGFPE", "SIGKILL", "SIGBUS", "SIGSEGV", "SIGSYS",
	"SIGPIPE", "SIGALRM", "SIGTERM", "SIGUSR1", "SIGUSR2", "SIGCHLD",
	"SIGPWR", "SIGWINCH", "SIGURG", "SIGIO", "SIGSTOP", "SIGTSTP",
	"SIGCONT", "SIGTTIN", "SIGTTOU", "SIGVTALRM", "SIGPROF", "SIGXCPU",
	"SIGXFSZ",
};

/* x86, s390, sh: asm-generic/fcntl.h */
static const struct arch_open_flag flags_generic[] = {
	{ 0100, "O_CREAT" }, { 0200, "O_EXCL" }, { 0400, "O_NOCTTY" },
	{ 01000, "O_TRUNC" }, { 02000, "O_APPEND" },
	{ 04000, "O_NONBLOCK" }, { 010000, "O_DSYNC" },
	{ 020000, "O_ASYNC" }, { 040000, "O_DIRECT" },
	{ 0100000, "O_LARGEFILE" }, { 0200000, "O_DIRECTORY" },
	{ 0400000, "O_NOFOLLOW" }, { 01000000, "O_NOATIME" },
	{ 02000000, "O_CLOEXEC" }, { 04000000, "__O_SYNC" },
	{ 010000000, "O_PATH" }, { 020000000, "__O_TMPFILE" },
};

/* arm and arm64 (which keeps arm's for its compat tasks) */
static const struct arch_open_flag flags_arm[] = {
	{ 0100, "O_CREAT" }, { 0200, "O_EXCL" }, { 0400, "O_NOCTTY" },
	{ 01000, "O_TRUNC" }, { 02000, "O_APPEND" },
	{ 04000, "O_NONBLOCK" }, { 010000, "O_DSYNC" },
	{ 020000, "O_ASYNC" }, { 040000, "O_DIRECTORY" },
	{ 0100000, "O_NOFOLLOW" }, { 0200000, "O_DIRECT" },
	{ 0400000, "O_LARGEFILE" }, { 01000000, "O_NOATIME" },
	{ 02000000, "O_CLOEXEC" }, { 04000000, "__O_SYNC" },
	{ 010000000, "O_PATH" }, { 020000000, "__O_TMPFILE" },
};

static const struct arch_open_flag flags_powerpc[] = {
	{ 0100, "O_CREAT" }, { 0200, "O_EXCL" }, { 0400, "O_NOCTTY" },
	{ 01000, "O_TRUNC" }, { 02000, "O_APPEND" },
	{ 04000, "O_NONBLOCK" }, { 010000, "O_DSYNC" },
	{ 020000, "O_ASYNC" }, { 040000, "O_DIRECTORY" },
	{ 0100000, "O_NOFOLLOW" }, { 0200000, "O_LARGEFILE" },
	{ 0400000, "O_DIRECT" }, { 01000000, "O_NOATIME" },
	{ 02000000, "O_CLOEXEC" }, { 04000000, "__O_SYNC" },
	{ 010000000, "O_PATH" }, { 020000000, "__O_TMPFILE" },
};

static const struct arch_open_flag flags_mips[] = {
	{ 0x0100, "O_CREAT" }, { 0x0400, "O_EXCL" }, { 0x0800, "O_NOCTTY" },
	{ 0x0200, "O_TRUNC" }, { 0x0008, "O_APPEND" },
	{ 0x0080, "O_NONBLOCK" }, { 0x0010, "O_DSYNC" },
	{ 0x1000, "O_ASYNC" }, { 0x8000, "O_DIRECT" },
	{ 0x2000, "O_LARGEFILE" }, { 0200000, "O_DIRECTORY" },
	{ 0400000, "O_NOFOLLOW" }, { 01000000, "O_NOATIME" },
	{ 02000000, "O_CLOEXEC" }, { 0x4000, "__O_SYNC" },
	{ 010000000, "O_PATH" }, { 020000000, "__O_TMPFILE" },
};

/* si_code <= 0, by -code; mips numbers three of them its own way */
static const char *const si_generic[] = {
	"SI_USER", "SI_QUEUE", "SI_TIMER", "SI_MESGQ", "SI_ASYNCIO",
	"SI_SIGIO", "SI_TKILL", "SI_DETHREAD",
};
static const char *const si_mips[] = {
	"SI_USER", "SI_QUEUE", "SI_ASYNCIO", "SI_TIMER", "SI_MESGQ",
	"SI_SIGIO", "SI_TKILL", "SI_DETHREAD",
};

#define NAMES(n, sig, max, err, fl, si)					\
	{ .name = (n), .signals = (sig), .sig_max = (max),		\
	  .errnos = &arch_errno_##err, .flags = (fl),			\
	  .n_flags = ARRAY_SIZE(fl), .si_codes = (si),			\
	  .n_si_codes = ARRAY_SIZE(si) }

static const struct arch_names names[] = {
	NAMES("generic", signals_generic, 64, generic, flags_generic, si_generic),
	NAMES("arm", signals_generic, 64, generic, flags_arm, si_generic),
	NAMES("powerpc", signals_generic, 64, powerpc, flags_powerpc, si_generic),
	NAMES("mips", signals_mips, 128, mips, flags_mips, si_mips),
};

const struct arch_names *arch_names_of(const struct ltt_syscall_table *m)
{
	if (!m)
		return NULL;
	if (m == &ltt_syscalls_arm || m == &ltt_syscalls_aarch64)
		return &names[1];
	if (m == &ltt_syscalls_ppc32 || m == &ltt_syscalls_ppc64)
		return &names[2];
	if (m == &ltt_syscalls_mips_o32 || m == &ltt_syscalls_mips_n64)
		return &names[3];
	return &names[0];	/* x86, s390, sh */
}

const char *arch_signal_name(const struct arch_names *a, long sig)
{
	/* "SIGRT_0" ... "SIGRT_96": strace's names of real-time signals */
	static char rt[97][24];

	if (!a || sig <= 0 || sig > a->sig_max)
		return NULL;
	if (sig < 32)
		return a->signals[sig];
	if (!rt[sig - 32][0])
		snprintf(rt[sig - 32], sizeof(rt[0]), "SIGRT_%ld", sig - 32);
	return rt[sig - 32];
}

long arch_signal_nr(const struct arch_names *a, const char *name)
{
	long i;

	for (i = 1; a && i < 32; i++)
		if (a->signals[i] && !strcmp(a->signals[i], name))
			return i;
	return 0;
}

const struct arch_errno *arch_errno(const struct arch_names *a, long err)
{
	unsigned int lo = 0, hi = a ? a->errnos->n : 0, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (a->errnos->v[mid].nr == err)
			return &a->errnos->v[mid];
		if (a->errnos->v[mid].nr < err)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *arch_open_flags(const struct arch_names *a, uint32_t flags,
			    char *buf, size_t len)
{
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY", "O_RDWR",
					     "O_ACCMODE" };
	size_t n;
	unsigned int i;

	if (!a)
		return NULL;
	n = snprintf(buf, len, "%s", modes[flags & 3]);
	flags &= ~3U;
	for (i = 0; i < a->n_flags && n < len; i++)
		if (flags & a->flags[i].bit) {
			n += snprintf(buf + n, len - n, "|%s", a->flags[i].name);
			flags &= ~a->flags[i].bit;
		}
	if (flags && n < len)
		snprintf(buf + n, len - n, "|%#o", flags);
	return buf;
}

const char *arch_signal_code(const struct arch_names *a, long sig, long code)
{
	static const char *const segv[] = { NULL, "SEGV_MAPERR", "SEGV_ACCERR",
					    "SEGV_BNDERR", "SEGV_PKUERR" };
	static const char *const bus[] = { NULL, "BUS_ADRALN", "BUS_ADRERR",
					   "BUS_OBJERR", "BUS_MCEERR_AR",
					   "BUS_MCEERR_AO" };
	static const char *const cld[] = { NULL, "CLD_EXITED", "CLD_KILLED",
					   "CLD_DUMPED", "CLD_TRAPPED",
					   "CLD_STOPPED", "CLD_CONTINUED" };
	const char *name;

	if (!a)
		return NULL;
	if (code == 0x80)
		return "SI_KERNEL";
	if (code == -60)
		return "SI_ASYNCNL";
	if (code <= 0)
		return -code < (long)a->n_si_codes ? a->si_codes[-code] : NULL;
	name = arch_signal_name(a, sig);
	if (!name)
		return NULL;
	if (!strcmp(name, "SIGSEGV") && code < (long)ARRAY_SIZE(segv))
		return segv[code];
	if (!strcmp(name, "SIGBUS") && code < (long)ARRAY_SIZE(bus))
		return bus[code];
	if (!strcmp(name, "SIGCHLD") && code < (long)ARRAY_SIZE(cld))
		return cld[code];
	return NULL;
}
