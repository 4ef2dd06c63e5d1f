// SPDX-License-Identifier: GPL-2.0
/*
 * Lockdown: booted with lockdown=confidentiality, a system session's
 * records carry no kernel address (a trap's IP in kernel code, tasklet
 * and kernel thread functions) and no page frame; booted without it,
 * they do.  make check boots a guest of each kind (make boot-lockdown).
 */
#define _GNU_SOURCE
#include <sys/utsname.h>

#include "kselftest_harness.h"
#include "ltt_workload.h"

#define PAGES	16

FIXTURE(lockdown) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

FIXTURE_SETUP(lockdown)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, NULL);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(lockdown)
{
	ltt_session_close(&self->s);
}

/* Was this kernel booted locked down for confidentiality? */
static bool locked_down(void)
{
	char line[4096] = "";
	FILE *f = fopen("/proc/cmdline", "re");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	return strstr(line, "lockdown=confidentiality");
}

/*
 * A kernel address, where the kernel's half of the address space is the
 * top one: everywhere but s390, whose user and kernel addresses overlap.
 */
static bool kernel_half(__u64 addr, bool word32)
{
	return word32 ? (__s32)addr < 0 : (__s64)addr < 0;
}

/*
 * A pipe's read into pages never touched faults in the kernel, in
 * copy_to_user(): trap_entry records with an IP in kernel code, which a
 * locked-down kernel writes as 0; the process's own faults keep their
 * user IP.  A new kworker's process_kthread has its function, or 0.
 */
TEST_F(lockdown, kernel_addresses_are_recorded_only_when_not_locked_down)
{
	const struct ltt_registry *reg = &self->s.reg;
	size_t i, kernel = 0, zero = 0, user = 0, funcs = 0, bad_funcs = 0;
	long page = ltt_page_size();
	struct ltt_trace t = { 0 };
	bool word32 = sizeof(long) == 4, down = locked_down();
	struct utsname u;
	int p[2];
	char *buf;

	ASSERT_EQ(0, uname(&u));
	if (!strncmp(u.machine, "s390", 4))
		SKIP(return, "s390's kernel addresses do not sort above user ones");
	buf = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_EQ(0, pipe(p));
	FILTER_EVENTS("trap_entry", "trap_exit", "process_kthread",
		      "tasklet_action", "tasklet_hi_action");
	START();
	for (i = 0; i < PAGES; i++) {
		ASSERT_EQ(1, write(p[1], "x", 1));
		ASSERT_EQ(1, read(p[0], buf + i * page, 1));
	}
	/* A fault of the process itself, at a user IP. */
	memset(buf + PAGES * page - page, 1, page);
	/* A kernel thread, and the function it runs. */
	ASSERT_EQ(0, ltt_work_new_kworker()) TH_LOG("%s", ltt_err);
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *e = &t.ev[i];
		__u64 ip;

		if (IS(e, "process_kthread") || IS(e, "tasklet_action") ||
		    IS(e, "tasklet_hi_action")) {
			funcs++;
			bad_funcs += down == !!FIELD(e, "func");
			continue;
		}
		if (!IS(e, "trap_entry"))
			continue;
		ip = FIELD(e, "ip");
		if (!ip)
			zero++;
		else if (kernel_half(ip, word32))
			kernel++;
		else
			user++;
	}
	ltt_trace_free(&t);
	close(p[0]);
	close(p[1]);
	munmap(buf, PAGES * page);

	EXPECT_LE(1, user) TH_LOG("no fault at a user IP");
	EXPECT_LE(1, funcs) TH_LOG("no kernel thread started");
	if (down) {
		EXPECT_EQ(0, kernel) TH_LOG("locked down: %zu kernel IPs recorded", kernel);
		EXPECT_LE(1, zero) TH_LOG("locked down: no fault in the kernel seen");
	} else {
		EXPECT_LE(1, kernel) TH_LOG("no fault in the kernel seen");
		EXPECT_EQ(0, zero) TH_LOG("%zu trap IPs of 0 when not locked down", zero);
	}
	EXPECT_EQ(0, bad_funcs)
		TH_LOG("%zu of %zu functions %s", bad_funcs, funcs,
		       down ? "recorded though locked down" : "recorded as 0");
}

TEST_HARNESS_MAIN
