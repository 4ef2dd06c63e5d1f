// SPDX-License-Identifier: GPL-2.0
/*
 * Signals, errno values and open flags by the recording machine
 * (ltt/archnames.h), never the reading host's.
 */
#include <errno.h>
#include <string.h>

#include "tests.h"
#include "../ltt/archnames.h"
#include "../ltt/syscalls.h"

static const char *flags(const struct ltt_syscall_table *m, uint32_t f)
{
	static char buf[256];

	return arch_open_flags(arch_names_of(m), f, buf, sizeof(buf));
}

void archnames_by_the_recording_machine(void **state)
{
	const struct arch_names *x86 = arch_names_of(&ltt_syscalls_x86_64),
		*mips = arch_names_of(&ltt_syscalls_mips_o32),
		*ppc = arch_names_of(&ltt_syscalls_ppc64);
	unsigned int i;

	(void)state;
	/* signals: mips numbers its own way; real-time ones as strace does */
	assert_string_equal(arch_signal_name(x86, 17), "SIGCHLD");
	assert_string_equal(arch_signal_name(x86, 18), "SIGCONT");
	assert_string_equal(arch_signal_name(mips, 18), "SIGCHLD");
	assert_string_equal(arch_signal_name(mips, 10), "SIGBUS");
	assert_string_equal(arch_signal_name(x86, 34), "SIGRT_2");
	assert_string_equal(arch_signal_name(mips, 128), "SIGRT_96");
	assert_null(arch_signal_name(x86, 65));
	assert_null(arch_signal_name(x86, 0));
	assert_int_equal(arch_signal_nr(mips, "SIGSEGV"), 11);
	/* signal codes: a fault's by the machine's SIGBUS; mips's SI_TIMER */
	assert_string_equal(arch_signal_code(mips, 10, 2), "BUS_ADRERR");
	assert_null(arch_signal_code(x86, 10, 2));
	assert_string_equal(arch_signal_code(mips, 18, 1), "CLD_EXITED");
	assert_string_equal(arch_signal_code(x86, 14, -2), "SI_TIMER");
	assert_string_equal(arch_signal_code(mips, 14, -3), "SI_TIMER");
	assert_string_equal(arch_signal_code(mips, 14, -2), "SI_ASYNCIO");
	/* errno: mips's 89 is ENOSYS, powerpc's 58 EDEADLOCK */
	assert_string_equal(arch_errno(x86, 89)->name, "EDESTADDRREQ");
	assert_string_equal(arch_errno(mips, 89)->name, "ENOSYS");
	assert_string_equal(arch_errno(mips, 89)->text, "Function not implemented");
	assert_string_equal(arch_errno(mips, 1133)->name, "EDQUOT");
	assert_string_equal(arch_errno(ppc, 58)->name, "EDEADLOCK");
	assert_null(arch_errno(x86, 58));
	assert_string_equal(arch_errno(x86, 512)->name, "ERESTARTSYS");
	assert_null(arch_errno(x86, 4095));
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
	/* the generic table is the host's C library's, on a generic host */
	for (i = 1; i < 134; i++) {
		const struct arch_errno *e = arch_errno(x86, i);

		if (!strerrorname_np(i) || i == EDEADLOCK || i == EWOULDBLOCK)
			continue;
		assert_non_null(e);
		assert_string_equal(e->name, strerrorname_np(i));
		assert_string_equal(e->text, strerror(i));
	}
#else
	(void)i;
#endif
	/* open flags: arm, arm64 and powerpc move four bits, mips most */
	assert_string_equal(flags(&ltt_syscalls_x86_64, 0101101),
			    "O_WRONLY|O_CREAT|O_TRUNC|O_LARGEFILE");
	assert_string_equal(flags(&ltt_syscalls_mips_o32, 0x301),
			    "O_WRONLY|O_CREAT|O_TRUNC");
	assert_string_equal(flags(&ltt_syscalls_x86_64, 0x301),
			    "O_WRONLY|O_NOCTTY|O_TRUNC");
	assert_string_equal(flags(&ltt_syscalls_arm, 040000 | 0100000),
			    "O_RDONLY|O_DIRECTORY|O_NOFOLLOW");
	assert_string_equal(flags(&ltt_syscalls_aarch64, 0200000 | 0400000),
			    "O_RDONLY|O_DIRECT|O_LARGEFILE");
	assert_string_equal(flags(&ltt_syscalls_ppc32, 0200000 | 0400000),
			    "O_RDONLY|O_LARGEFILE|O_DIRECT");
	assert_string_equal(flags(&ltt_syscalls_x86_64, 0200000 | 0400000),
			    "O_RDONLY|O_DIRECTORY|O_NOFOLLOW");
	assert_string_equal(flags(&ltt_syscalls_s390x, 02000000 | 040000000),
			    "O_RDONLY|O_CLOEXEC|040000000");
	/* a machine without tables: numbers stay numbers */
	assert_null(arch_names_of(ltt_syscall_table("riscv64")));
	assert_null(arch_signal_name(NULL, 9));
	assert_null(arch_errno(NULL, 2));
	assert_null(flags(NULL, 1));
}
