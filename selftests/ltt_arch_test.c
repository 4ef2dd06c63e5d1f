// SPDX-License-Identifier: GPL-2.0
/*
 * What differs between architectures: the trap hook's vector and IP on
 * a page fault, the system call numbers of the arch's own table, the
 * error return of a failed call (MIPS returns it in v0 with a3 set), and
 * the decoding of select() where __NR_select is old_select(), which
 * takes one pointer to its five arguments (i386, ppc32).
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "ltt_workload.h"

#include <sys/utsname.h>

/*
 * The vectors a page fault may enter with, by uname -m: on a fresh
 * anonymous page, and on a write to one read first (the zero page,
 * mapped read-only: copy on write).
 */
static const struct {
	const char *machine;	/* a prefix */
	long vectors[8];	/* 0 ends the list */
} fault_vectors[] = {
	{ "x86_64", { 14 } },			/* #PF */
	{ "i", { 14 } },			/* i386 ... i686 */
	{ "ppc", { 0x300, 0x400 } },		/* data, instruction storage */
	/* TLB miss read, write, initial write; protection violation read, write */
	{ "sh", { 0x040, 0x060, 0x080, 0x0a0, 0x0c0 } },
	/* protection; segment, page, region 1st, 2nd, 3rd translation */
	{ "s390", { 0x04, 0x10, 0x11, 0x39, 0x3a, 0x3b } },
	{ "mips", { 1, 2, 3 } },		/* TLB modified, load, store */
	/* arm: access flag, translation, permission (section and page) */
	{ "arm", { 0x03, 0x06, 0x05, 0x07, 0x0d, 0x0f } },
};

/* Is @trap a page-fault vector of this machine? */
static bool fault_vector(long trap)
{
	struct utsname u;
	size_t i, v;

	if (uname(&u))
		return false;
	for (i = 0; i < ARRAY_SIZE(fault_vectors); i++) {
		if (strncmp(u.machine, fault_vectors[i].machine,
			    strlen(fault_vectors[i].machine)))
			continue;
		for (v = 0; fault_vectors[i].vectors[v]; v++)
			if (trap == fault_vectors[i].vectors[v])
				return true;
	}
	return false;
}

/* Is __NR_select old_select() here, the one-pointer call (i386, ppc32)? */
static bool select_is_old_select(void)
{
	struct utsname u;

	return !uname(&u) && (!strcmp(u.machine, "ppc") ||
			      (u.machine[0] == 'i' && strstr(u.machine, "86")));
}

FIXTURE(arch) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

FIXTURE_SETUP(arch)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, NULL);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(arch)
{
	ltt_session_close(&self->s);
}

/* noipa: not inlined, not cloned, so that its address is where it runs. */
static __attribute__((noipa)) void touch(char *p)
{
	*p = 1;
	asm volatile("" : : "r" (p) : "memory");
}

static __attribute__((noipa)) char peek(const char *p)
{
	char c = *p;

	asm volatile("" : : "r" (c) : "memory");
	return c;
}

/* Code at @ip lies within the 256 bytes from the start of @fn. */
static bool ip_in(__u64 ip, const void *fn)
{
	return ip >= (uintptr_t)fn && ip < (uintptr_t)fn + 256;
}

/*
 * touch() of @p (peek()ed first if @read_first) between START and STOP
 * faults: trap_entry with one of the arch's page-fault vectors and the
 * IP of touch(), then its trap_exit.  @self is the FIXTURE_DATA(arch).
 */
static void check_touch_fault(struct __test_metadata *_metadata,
			      struct _test_data_arch *self, bool read_first)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	long i, found = -1, n = 0;
	char *p;

	p = mmap(NULL, ltt_page_size(), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	if (read_first)
		ASSERT_EQ(0, peek(p));
	FILTER_SELF();
	FILTER_EVENTS("trap_entry", "trap_exit");
	START();
	touch(p);
	STOP_AND_READ(&t);

	for (i = 0; i < (long)t.n; i++) {
		if (!IS(&t.ev[i], "trap_entry") ||
		    !ip_in(FIELD(&t.ev[i], "ip"), touch))
			continue;
		n++;
		found = i;
		EXPECT_TRUE(fault_vector(FIELD(&t.ev[i], "trap")))
			TH_LOG("trap %#llx at ip %#llx: no page-fault vector here",
			       (unsigned long long)FIELD(&t.ev[i], "trap"),
			       (unsigned long long)FIELD(&t.ev[i], "ip"));
	}
	ASSERT_LE(1, n) TH_LOG("no trap_entry with an ip in touch() at %p (+256)",
			       touch);
	for (i = found + 1; i < (long)t.n; i++)
		if (t.ev[i].cpu == t.ev[found].cpu)
			break;
	ASSERT_LT(i, (long)t.n) TH_LOG("no record after the fault's trap_entry");
	EXPECT_TRUE(IS(&t.ev[i], "trap_exit"))
		TH_LOG("after the fault's trap_entry: %s, not trap_exit",
		       reg->ev[t.ev[i].id].name);
	munmap(p, ltt_page_size());
	ltt_trace_free(&t);
}

/*
 * Touching a fresh anonymous page faults: trap_entry with one of the
 * arch's page-fault vectors and the IP of the touching code, then its
 * trap_exit.
 */
TEST_F(arch, page_fault_gives_trap_entry_with_the_arch_vector_and_ip_then_trap_exit)
{
	check_touch_fault(_metadata, self, false);
}

/*
 * A write to a page that was read first, and so maps the zero page
 * read-only, is a fault of its own (copy on write), and it enters
 * through another door on some machines: s390's protection exception
 * (0x04) rather than a translation exception, SH's TLB protection
 * violation.  It too gives trap_entry and trap_exit.
 */
TEST_F(arch, write_after_read_fault_gives_trap_entry_with_the_arch_vector_and_ip)
{
	check_touch_fault(_metadata, self, true);
}

/*
 * A call's syscall_entry has the number of the arch's table (4000 + n on
 * MIPS o32) and its syscall_exit the value the call returned.
 */
TEST_F(arch, syscall_entry_has_the_arch_table_number_and_exit_the_return)
{
	struct ltt_trace t = { 0 };
	__s64 rets[4];
	long ppid;

	FILTER_SELF();
	FILTER_EVENTS("syscall_entry", "syscall_exit");
	START();
	ppid = syscall(__NR_getppid);
	STOP_AND_READ(&t);

	ASSERT_EQ(1, ltt_syscall_returns(&self->s.reg, &t, self->cpu,
					 __NR_getppid, rets, 4))
		TH_LOG("syscall_entry records with id __NR_getppid = %d: %s",
		       __NR_getppid, ltt_err);
	EXPECT_EQ(ppid, rets[0]);
	ltt_trace_free(&t);
}

/*
 * A failed call's syscall_exit has -errno: MIPS returns errno positive
 * in v0 and flags the error in a3.
 */
TEST_F(arch, failed_syscall_exit_has_minus_errno)
{
	struct ltt_trace t = { 0 };
	__s64 rets[4];

	FILTER_SELF();
	FILTER_EVENTS("syscall_entry", "syscall_exit");
	START();
	ASSERT_EQ(-1, syscall(__NR_close, -1));
	STOP_AND_READ(&t);

	ASSERT_EQ(1, ltt_syscall_returns(&self->s.reg, &t, self->cpu,
					 __NR_close, rets, 4))
		TH_LOG("%s", ltt_err);
	EXPECT_EQ(-EBADF, rets[0]) TH_LOG("close(-1)");
	ltt_trace_free(&t);
}

/*
 * The 32-bit _llseek(fd, high, low, result, whence) returns 0 and stores
 * the offset through its fourth argument, which fs_seek reads at the
 * call's exit.  MIPS's a3, that argument's register, holds the error
 * flag by then (0 on success), and the probe must take the argument from
 * where the entry code saved it: a flag read for the pointer gives
 * -EFAULT (NULL), not the offset.  A failed call has -errno, with a3
 * set.
 */
TEST_F(arch, llseek_exit_reads_its_result_pointer_not_the_mips_a3_error_flag)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	const struct ltt_event *seek[2];
	__s64 rets[4];
	long nr = -1;
	__u64 result = 0;
	size_t i, n = 0;
	int fd;

#if defined(__NR__llseek)
	nr = __NR__llseek;
#elif defined(__NR_llseek)
	nr = __NR_llseek;
#endif
	if (nr < 0)
		SKIP(return, "no _llseek(2) here (64-bit)");
	fd = open("/tmp/ltt_arch_llseek", O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	unlink("/tmp/ltt_arch_llseek");
	FILTER_SELF();
	FILTER_EVENTS("syscall_entry", "syscall_exit", "fs_seek");
	START();
	ASSERT_EQ(0, syscall(nr, fd, 0UL, 12345UL, &result, SEEK_SET));
	ASSERT_EQ(-1, syscall(nr, fd, 0UL, 0UL, &result, 99));
	STOP_AND_READ(&t);
	close(fd);
	ASSERT_EQ(12345, result);

	ASSERT_EQ(2, ltt_syscall_returns(reg, &t, self->cpu, nr, rets, 4))
		TH_LOG("_llseek (%ld): %s", nr, ltt_err);
	EXPECT_EQ(0, rets[0]);
	EXPECT_EQ(-EINVAL, rets[1]) TH_LOG("whence 99: -EINVAL, with a3 set");
	for (i = 0; i < t.n && n < 2; i++)
		if (IS(&t.ev[i], "fs_seek"))
			seek[n++] = &t.ev[i];
	ASSERT_EQ((size_t)2, n) TH_LOG("fs_seek records of two _llseek calls");
	EXPECT_EQ(fd, FIELD(seek[0], "fd"));
	EXPECT_EQ(12345, FIELD(seek[0], "offset"))
		TH_LOG("stored through the 4th argument (-EFAULT: a3's flag read)");
	EXPECT_EQ(-EINVAL, FIELD(seek[1], "offset"));
	ltt_trace_free(&t);
}

/*
 * old_select() takes one pointer to the five arguments of select(): its
 * fs_select has the nfds and timeout of that block, not the pointer.
 */
TEST_F(arch, old_select_gives_fs_select_with_the_nfds_and_timeout_of_its_block)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct __kernel_old_timeval tv = { .tv_sec = 0, .tv_usec = 1234 };
	struct ltt_trace t = { 0 };
	struct {
		unsigned long n;
		fd_set *inp, *outp, *exp;
		struct __kernel_old_timeval *tvp;
	} args;
	fd_set rfds;
	int p[2];

	if (!select_is_old_select())
		SKIP(return, "__NR_select is not old_select() here");
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(1, write(p[1], "x", 1));	/* readable: no wait */
	FD_ZERO(&rfds);
	FD_SET(p[0], &rfds);
	args.n = p[0] + 1;
	args.inp = &rfds;
	args.outp = NULL;
	args.exp = NULL;
	args.tvp = &tv;
	FILTER_SELF();
	FILTER_EVENTS("fs_select");
	START();
#ifdef __NR_select
	ASSERT_EQ(1, syscall(__NR_select, &args)) TH_LOG("old_select: %s",
							 strerror(errno));
#endif
	STOP_AND_READ(&t);
	close(p[0]);
	close(p[1]);

	ASSERT_EQ((size_t)1, t.n) TH_LOG("fs_select records for one old_select()");
	EXPECT_EQ((long)args.n, FIELD(&t.ev[0], "nfds"))
		TH_LOG("old_select() of a block at %p", &args);
	EXPECT_EQ(1234, FIELD(&t.ev[0], "timeout_us"));
	ltt_trace_free(&t);
}

TEST_HARNESS_MAIN
