// SPDX-License-Identifier: GPL-2.0
/*
 * System call tables: each architecture's, spot-checked against the
 * numbers of Linux 6.12's syscall tables; the table of a trace, from
 * the arch of its metadata's env; filters naming calls with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/ltt.h>

#include "../ltt/analysis.h"
#include "../ltt/syscalls.h"
#include "tests.h"
#include "writer.h"

static void assert_call(const struct ltt_syscall_table *t, long nr,
			const char *name)
{
	const char *got = ltt_syscall_name(t, nr);

	if (!name) {
		if (got)
			fail_msg("%s %ld: %s, not none", t->name, nr, got);
		return;
	}
	if (!got || strcmp(got, name))
		fail_msg("%s %ld: %s, not %s", t->name, nr, got ? got : "none",
			 name);
	assert_int_equal(ltt_syscall_nr(t, name), nr);
}

void syscalls_tables_of_each_architecture(void **state)
{
	(void)state;
	assert_call(&ltt_syscalls_x86_64, 110, "getppid");
	assert_call(&ltt_syscalls_x86_64, 257, "openat");
	assert_call(&ltt_syscalls_x86_64, 512, NULL);
	assert_call(&ltt_syscalls_x32, 110, "getppid");
	assert_call(&ltt_syscalls_x32, 512, "rt_sigaction");
	assert_call(&ltt_syscalls_x32, 13, NULL);	/* 64-bit only */
	assert_call(&ltt_syscalls_i386, 64, "getppid");
	assert_call(&ltt_syscalls_i386, 295, "openat");
	assert_call(&ltt_syscalls_i386, 192, "mmap2");
	assert_call(&ltt_syscalls_arm, 64, "getppid");
	assert_call(&ltt_syscalls_arm, 322, "openat");
	assert_call(&ltt_syscalls_arm, 13, NULL);	/* OABI's time */
	assert_call(&ltt_syscalls_aarch64, 173, "getppid");
	assert_call(&ltt_syscalls_aarch64, 56, "openat");
	assert_call(&ltt_syscalls_aarch64, 222, "mmap");
	assert_call(&ltt_syscalls_ppc32, 64, "getppid");
	assert_call(&ltt_syscalls_ppc32, 286, "openat");
	assert_call(&ltt_syscalls_ppc32, 192, "mmap2");
	assert_call(&ltt_syscalls_ppc64, 64, "getppid");
	assert_call(&ltt_syscalls_ppc64, 192, NULL);	/* 32-bit only */
	assert_call(&ltt_syscalls_mips_o32, 4064, "getppid");
	assert_call(&ltt_syscalls_mips_o32, 4288, "openat");
	assert_call(&ltt_syscalls_mips_o32, 64, NULL);
	assert_call(&ltt_syscalls_mips_n64, 5108, "getppid");
	assert_call(&ltt_syscalls_mips_n64, 5247, "openat");
	assert_call(&ltt_syscalls_sh, 64, "getppid");
	assert_call(&ltt_syscalls_sh, 295, "openat");
	assert_call(&ltt_syscalls_s390x, 64, "getppid");
	assert_call(&ltt_syscalls_s390x, 142, "select");
	assert_call(&ltt_syscalls_s390x, 192, NULL);	/* 31-bit only */
	assert_call(&ltt_syscalls_s390, 142, "_newselect");
	assert_call(&ltt_syscalls_s390, 192, "mmap2");
	/* the series' own call */
	assert_call(&ltt_syscalls_x86_64, 463, "ltt");
	assert_call(&ltt_syscalls_i386, 463, "ltt");
	assert_call(&ltt_syscalls_arm, 463, "ltt");
	assert_call(&ltt_syscalls_ppc32, 463, "ltt");
	assert_call(&ltt_syscalls_mips_o32, 4463, "ltt");
	assert_call(&ltt_syscalls_mips_n64, 5463, "ltt");
	assert_call(&ltt_syscalls_sh, 463, "ltt");
	assert_call(&ltt_syscalls_s390x, 463, "ltt");
	assert_null(ltt_syscall_name(NULL, 64));
	assert_int_equal(ltt_syscall_nr(NULL, "getppid"), -1);
}

void syscalls_table_of_a_machine(void **state)
{
	static const struct {
		const char *arch;
		const struct ltt_syscall_table *t;
	} m[] = {
		{ "x86_64", &ltt_syscalls_x86_64 }, { NULL, &ltt_syscalls_x86_64 },
		{ "i386", &ltt_syscalls_i386 }, { "i686", &ltt_syscalls_i386 },
		{ "armv7l", &ltt_syscalls_arm }, { "armv5tel", &ltt_syscalls_arm },
		{ "aarch64", &ltt_syscalls_aarch64 },
		{ "ppc", &ltt_syscalls_ppc32 }, { "powerpc", &ltt_syscalls_ppc32 },
		{ "ppc64", &ltt_syscalls_ppc64 }, { "ppc64le", &ltt_syscalls_ppc64 },
		{ "mips", &ltt_syscalls_mips_o32 },
		{ "mipsel", &ltt_syscalls_mips_o32 },
		{ "mips64", &ltt_syscalls_mips_n64 },
		{ "sh4", &ltt_syscalls_sh }, { "sh4a", &ltt_syscalls_sh },
		{ "s390x", &ltt_syscalls_s390x }, { "s390", &ltt_syscalls_s390 },
		{ "riscv64", NULL }, { "", NULL }, { "i986", NULL },
		{ "x86_64 ", NULL },
	};
	const struct ltt_syscall_table *x86 = &ltt_syscalls_x86_64;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		const struct ltt_syscall_table *t = ltt_syscall_table(m[i].arch);

		if (t != m[i].t)
			fail_msg("\"%s\": table %s, not %s",
				 m[i].arch ? m[i].arch : "(null)",
				 t ? t->name : "none",
				 m[i].t ? m[i].t->name : "none");
	}
	/* syscall_entry_compat's ABIs */
	assert_ptr_equal(ltt_syscall_compat_table(x86, LTT_SYSCALL_ABI_COMPAT),
			 &ltt_syscalls_i386);
	assert_ptr_equal(ltt_syscall_compat_table(x86, LTT_SYSCALL_ABI_X32),
			 &ltt_syscalls_x32);
	assert_ptr_equal(ltt_syscall_compat_table(&ltt_syscalls_aarch64,
						  LTT_SYSCALL_ABI_COMPAT),
			 &ltt_syscalls_arm);
	assert_ptr_equal(ltt_syscall_compat_table(&ltt_syscalls_ppc64,
						  LTT_SYSCALL_ABI_COMPAT),
			 &ltt_syscalls_ppc32);
	assert_null(ltt_syscall_compat_table(&ltt_syscalls_i386,
					     LTT_SYSCALL_ABI_COMPAT));
	assert_null(ltt_syscall_compat_table(x86, 0));
	assert_null(ltt_syscall_compat_table(x86, 77));
	assert_null(ltt_syscall_compat_table(NULL, LTT_SYSCALL_ABI_COMPAT));
}

/* A copy of fixture basic whose metadata says arch = @arch (NULL: none). */
static const char *basic_of_arch(const char *arch)
{
	const char *dir = copy_fixture("basic");
	char path[512], cmd[1024];

	snprintf(path, sizeof(path), "%s/metadata", dir);
	if (arch)
		snprintf(cmd, sizeof(cmd),
			 "sed -i 's/arch = \"x86_64\";/arch = \"%s\";/' '%s'",
			 arch, path);
	else
		snprintf(cmd, sizeof(cmd), "sed -i '/arch = /d' '%s'", path);
	assert_int_equal(system(cmd), 0);
	return dir;
}

static const struct ltt_syscall_table *table_of(const char *dir,
						 const char *want_arch)
{
	struct ltt_trace *t = ltt_trace_open(dir);
	const struct ltt_syscall_table *table;
	const char *arch;

	assert_non_null(t);
	arch = ltt_trace_arch(t);
	if (want_arch)
		assert_string_equal(arch, want_arch);
	else
		assert_null(arch);
	table = ltt_trace_syscalls(t);
	ltt_trace_close(t);
	return table;
}

void syscalls_table_of_a_trace(void **state)
{
	const char *dir;

	(void)state;
	assert_ptr_equal(table_of(FIXTURE("arch-i386"), "i686"),
			 &ltt_syscalls_i386);
	assert_ptr_equal(table_of(FIXTURE("arch-powerpc"), "ppc"),
			 &ltt_syscalls_ppc32);
	assert_ptr_equal(table_of(FIXTURE("arch-mips"), "mips"),
			 &ltt_syscalls_mips_o32);
	assert_ptr_equal(table_of(FIXTURE("arch-s390x"), "s390x"),
			 &ltt_syscalls_s390x);
	assert_ptr_equal(table_of(FIXTURE("arch-arm"), "armv7l"),
			 &ltt_syscalls_arm);
	assert_ptr_equal(table_of(FIXTURE("basic"), "x86_64"),
			 &ltt_syscalls_x86_64);
	dir = basic_of_arch("riscv64");
	assert_null(table_of(dir, "riscv64"));
	remove_copy(dir);
	dir = basic_of_arch(NULL);
	assert_ptr_equal(table_of(dir, NULL), &ltt_syscalls_x86_64);
	remove_copy(dir);
}

void syscalls_filter_names_calls_of_the_trace(void **state)
{
	const char *i386 = FIXTURE("arch-i386"), *dir;

	(void)state;
	/* the guests' workloads call getppid 200 times */
	assert_int_equal(filter_count(i386, "syscall == \"getppid\""), 200);
	assert_int_equal(filter_count(i386, "id == 64"), 200);
	assert_int_equal(filter_count(i386, "syscall == \"semget\""), 0);
	assert_int_equal(filter_count(FIXTURE("arch-powerpc"),
				      "syscall == \"getppid\""), 200);
	assert_int_equal(filter_count(FIXTURE("arch-s390x"),
				      "syscall == \"getppid\""), 200);
	assert_int_equal(filter_count(FIXTURE("basic"),
				      "syscall == \"getppid\""), FX_GETPPID);
	/* no table: no call has a name */
	dir = basic_of_arch("riscv64");
	assert_int_equal(filter_count(dir, "syscall == \"getppid\""), 0);
	assert_int_equal(filter_count(dir, "event == \"syscall_entry\" && !syscall"),
			 filter_count(dir, "event == \"syscall_entry\""));
	remove_copy(dir);
}

/*
 * ltt stats counts a mips trace's calls, numbered from 4000, by name:
 * pid 300 calls getppid (4064) three times.
 */
void syscalls_stats_of_a_table_not_from_0(void **state)
{
	const struct ltt_syscall_table *table;
	const struct ltt_item *it;
	struct ltt_registry reg;
	struct ltt_trace *t;
	struct fx_writer w;
	struct stats st;
	char dir[256], cmd[600];
	unsigned int i;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ltt-syscalls-mips-%d", getpid());
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_open(&w, dir, &reg, 1, 4096, FX_CLOCK_OFFSET), 0);
	fx_set_pid(&w, 0, 300);
	for (i = 0; i < 3; i++) {
		int64_t entry[] = { 4064, 0x400000 }, ret[] = { 1 };

		assert_int_equal(fx_event(&w, 0, FX_T0 + 1000 * i,
					  "syscall_entry", entry, NULL), 0);
		assert_int_equal(fx_event(&w, 0, FX_T0 + 1000 * i + 100,
					  "syscall_exit", ret, NULL), 0);
	}
	assert_int_equal(fx_close(&w, FX_T0 + 5000), 0);
	snprintf(cmd, sizeof(cmd),
		 "sed -i 's/arch = \"x86_64\";/arch = \"mips\";/' '%s/metadata'",
		 dir);
	assert_int_equal(system(cmd), 0);

	t = ltt_trace_open(dir);
	assert_non_null(t);
	table = ltt_trace_syscalls(t);
	assert_ptr_equal(table, &ltt_syscalls_mips_o32);
	assert_int_equal(stats_init(&st, ltt_trace_registry(t), 300), 0);
	st.syscall_base = table->base;
	while (ltt_trace_next(t, &it) > 0)
		stats_add(&st, it);
	stats_finish(&st);
	assert_int_equal(st.syscalls[64], 3);
	assert_int_equal(st.syscalls_other, 0);
	assert_int_equal(st.times[64].count, 3);
	assert_int_equal(st.times[64].total_ns, 300);
	assert_string_equal(ltt_syscall_name(table, 64 + st.syscall_base),
			    "getppid");
	stats_free(&st);
	ltt_trace_close(t);
	remove_copy(dir);
}
