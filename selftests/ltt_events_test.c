// SPDX-License-Identifier: GPL-2.0
/*
 * The first events: what a process does shows up as the records the
 * registry describes, with the right values and times, filtered by the
 * event mask and the pid filter, and reaches a reader within a second.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ltt_util.h"

/* exec_gives_process_exec_with_file_name runs this program so. */
#define EXEC_ENV	"LTT_EVENTS_TEST_EXEC=1"

/* ... and the program so run exits at once. */
static void __attribute__((constructor)) exit_when_exec_child(void)
{
	if (getenv("LTT_EVENTS_TEST_EXEC"))
		_exit(0);
}

FIXTURE(events) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

FIXTURE_SETUP(events)
{
	int cpu;

	if (!ltt_setup(_metadata, &self->s, NULL, true))
		return;
	cpu = ltt_pin_to_buffer_cpu(&self->s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	self->cpu = cpu;
	self->pid = getpid();
}

FIXTURE_TEARDOWN(events)
{
	ltt_session_close(&self->s);
}

#define START()		ltt_start_or_fail(_metadata, self->s.fd)

/* Record only the @n pids at @pids. */
static void filter_pids(struct __test_metadata *_metadata, int fd,
			const pid_t *pids, unsigned int n)
{
	ASSERT_EQ(0, ltt_set_pids(fd, pids, n))
		TH_LOG("SET_PIDS: %s", strerror(errno));
}

#define FILTER_PIDS(pids, n)	filter_pids(_metadata, self->s.fd, pids, n)

#define FILTER_EVENTS(...) do {						\
	static const char *const __names[] = { __VA_ARGS__, NULL };	\
	ASSERT_EQ(0, ltt_set_events(&self->s, __names))			\
		TH_LOG("%s", ltt_err);					\
} while (0)

/*
 * Stop, decode every packet into @t, check the accounting, and make sure
 * nothing was lost: the tests below count records exactly.
 */
#define STOP_AND_READ(t) do {						\
	unsigned int __i;						\
									\
	ASSERT_EQ(0, ltt_stop(self->s.fd)) TH_LOG("STOP: %s", strerror(errno)); \
	ASSERT_EQ(0, ltt_read_stopped(&self->s, (t))) TH_LOG("%s", ltt_err); \
	ASSERT_EQ(0, ltt_check_accounting(&self->s)) TH_LOG("%s", ltt_err); \
	for (__i = 0; __i < self->s.n_cpus; __i++)			\
		ASSERT_EQ(0ULL, self->s.st[__i].lost)			\
			TH_LOG("cpu %u lost events: the counts below would be off", \
			       self->s.st[__i].cpu);			\
} while (0)

/* syscall_entry records of syscall @nr, on any CPU. */
static size_t count_calls(const struct ltt_registry *reg,
			  const struct ltt_trace *t, long nr)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		if (ltt_ev_is(reg, &t->ev[i], "syscall_entry") &&
		    ltt_ev_field(reg, &t->ev[i], "id") == nr)
			n++;
	return n;
}

/*
 * A child that waits for a byte on a pipe, then runs @fn: the parent can
 * set a pid filter on it before it does anything.  *@go is the pipe end
 * to write to.
 */
static pid_t fork_waiting(void (*fn)(void), int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		close(p[1]);
		if (read(p[0], &c, 1) == 1)
			fn();
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

static void release(int go)
{
	if (write(go, "", 1) != 1)
		perror("write");
	close(go);
}

/* A fork() child's pid is the child field of one process_fork record. */
TEST_F(events, fork_child_pid_matches_process_fork)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	int status, found = 0;
	pid_t child;
	size_t i;

	FILTER_PIDS(&self->pid, 1);
	START();
	child = fork();
	if (!child)
		_exit(0);
	ASSERT_LT(0, child);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++) {
		if (!ltt_ev_is(reg, &t.ev[i], "process_fork"))
			continue;
		found++;
		EXPECT_EQ(child, ltt_ev_field(reg, &t.ev[i], "child"));
		EXPECT_EQ(child, ltt_ev_field(reg, &t.ev[i], "child_tgid"))
			TH_LOG("a process is its own thread group");
	}
	EXPECT_EQ(1, found) TH_LOG("process_fork records for one fork()");
	ltt_trace_free(&t);
}

static void *save_tid(void *tid)
{
	*(pid_t *)tid = gettid();
	return NULL;
}

/* A new thread's process_fork has its tid as child, ours as child_tgid. */
TEST_F(events, thread_creation_gives_process_fork_with_group_id)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	pid_t tid = 0;
	pthread_t th;
	int found = 0;
	size_t i;

	FILTER_PIDS(&self->pid, 1);
	START();
	ASSERT_EQ(0, pthread_create(&th, NULL, save_tid, &tid));
	ASSERT_EQ(0, pthread_join(th, NULL));
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++) {
		if (!ltt_ev_is(reg, &t.ev[i], "process_fork"))
			continue;
		found++;
		EXPECT_EQ(tid, ltt_ev_field(reg, &t.ev[i], "child"));
		EXPECT_EQ(self->pid,
			  ltt_ev_field(reg, &t.ev[i], "child_tgid"));
	}
	EXPECT_EQ(1, found) TH_LOG("process_fork records for one thread");
	ltt_trace_free(&t);
}

static char self_exe[LTT_STRING_MAX];

static void exec_self(void)
{
	char *const argv[] = { self_exe, NULL };
	char *const envp[] = { EXEC_ENV, NULL };

	execve(self_exe, argv, envp);
}

/* execve() of a file gives process_exec with the child's pid and that name. */
TEST_F(events, exec_gives_process_exec_with_file_name)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	int go, status, found = 0;
	ssize_t len;
	pid_t child;
	size_t i;

	len = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (len <= 0)
		SKIP(return, "no /proc/self/exe to run");
	self_exe[len] = '\0';

	child = fork_waiting(exec_self, &go);
	ASSERT_LT(0, child);
	FILTER_PIDS(&child, 1);
	START();
	release(go);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("%s did not run: status %#x", self_exe, status);
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++) {
		if (!ltt_ev_is(reg, &t.ev[i], "process_exec"))
			continue;
		found++;
		EXPECT_EQ(child, ltt_ev_field(reg, &t.ev[i], "pid"));
		EXPECT_STREQ(self_exe, t.ev[i].str);
	}
	EXPECT_EQ(1, found) TH_LOG("process_exec records for one execve()");
	ltt_trace_free(&t);
}

static void exit_3(void)
{
	_exit(3);
}

/* A child's exit gives process_exit with its pid and its wait() status. */
TEST_F(events, exit_gives_process_exit_with_wait_status)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	int go, status, found = 0;
	pid_t child;
	size_t i;

	child = fork_waiting(exit_3, &go);
	ASSERT_LT(0, child);
	FILTER_PIDS(&child, 1);
	START();
	release(go);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++) {
		if (!ltt_ev_is(reg, &t.ev[i], "process_exit"))
			continue;
		found++;
		EXPECT_EQ(child, ltt_ev_field(reg, &t.ev[i], "pid"));
		EXPECT_EQ(status, ltt_ev_field(reg, &t.ev[i], "code"))
			TH_LOG("code is the status wait() reports");
	}
	EXPECT_EQ(1, found) TH_LOG("process_exit records for one exit");
	ltt_trace_free(&t);
}

/* N getppid() calls give exactly N entry/exit pairs, with their result. */
TEST_F(events, getppid_loop_gives_exact_entry_exit_pairs)
{
	enum { N = 1000 };
	const struct ltt_registry *reg = &self->s.reg;
	long i, n, bad = 0, first_bad = -1, ppid = getppid();
	struct ltt_trace t = { 0 };
	static __s64 rets[N];
	unsigned int c;

	FILTER_PIDS(&self->pid, 1);
	FILTER_EVENTS("syscall_entry", "syscall_exit");
	START();
	for (i = 0; i < N; i++)
		syscall(__NR_getppid);
	STOP_AND_READ(&t);

	n = ltt_syscall_returns(reg, &t, self->cpu, __NR_getppid, rets, N);
	ASSERT_LE(0, n) TH_LOG("%s", ltt_err);
	EXPECT_EQ(N, n) TH_LOG("getppid() calls recorded on cpu %u",
			       self->cpu);
	for (i = 0; i < n && i < N; i++) {
		if (rets[i] != ppid && !bad++)
			first_bad = i;
	}
	EXPECT_EQ(0, bad) TH_LOG("%ld exits with ret != %ld, the first is call %ld",
				 bad, ppid, first_bad);

	/* Pinned: nothing of ours on the other CPUs. */
	for (c = 0; c < self->s.n_cpus; c++) {
		if (self->s.rd[c].cpu == self->cpu)
			continue;
		EXPECT_EQ(0, ltt_syscall_returns(reg, &t, self->s.rd[c].cpu,
						 __NR_getppid, NULL, 0))
			TH_LOG("getppid() on cpu %u: %s", self->s.rd[c].cpu,
			       ltt_err);
	}
	ltt_trace_free(&t);
}

/* Record times are CLOCK_MONOTONIC: between the reads before and after. */
TEST_F(events, timestamps_follow_clock_monotonic)
{
	const __u64 slack = 1000000;	/* 1 ms */
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	__u64 t0, t1;
	size_t i, n = 0;

	FILTER_PIDS(&self->pid, 1);
	FILTER_EVENTS("syscall_entry", "syscall_exit");
	START();
	t0 = ltt_now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < 100; i++)
		syscall(__NR_getppid);
	t1 = ltt_now_ns(CLOCK_MONOTONIC);
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];

		if (!ltt_ev_is(reg, ev, "syscall_entry") ||
		    ltt_ev_field(reg, ev, "id") != __NR_getppid)
			continue;
		n++;
		EXPECT_LE(t0 - slack, ev->ts)
			TH_LOG("getppid() at %llu, the loop began at %llu",
			       (unsigned long long)ev->ts,
			       (unsigned long long)t0);
		EXPECT_GE(t1 + slack, ev->ts)
			TH_LOG("getppid() at %llu, the loop ended at %llu",
			       (unsigned long long)ev->ts,
			       (unsigned long long)t1);
	}
	EXPECT_EQ((size_t)100, n);
	ltt_trace_free(&t);
}

/* With the mask set to the syscall events, nothing else is recorded. */
TEST_F(events, event_mask_syscalls_only_records_no_sched_or_process)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	size_t i, syscalls = 0;
	int status;
	pid_t child;

	FILTER_EVENTS("syscall_entry", "syscall_exit");
	START();
	child = fork();		/* process_fork, process_exit */
	if (!child)
		_exit(0);
	ASSERT_LT(0, child);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	usleep(20000);		/* sched_change */
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++) {
		const char *name = reg->ev[t.ev[i].id].name;

		if (!strncmp(name, "syscall_", 8)) {
			syscalls++;
			continue;
		}
		EXPECT_STREQ("syscall_*", name)
			TH_LOG("cpu %u packet seq %llu offset %u: masked out",
			       t.ev[i].cpu, (unsigned long long)t.ev[i].seq,
			       t.ev[i].offset);
		break;
	}
	EXPECT_LT((size_t)0, syscalls) TH_LOG("the syscall events were masked too");
	ltt_trace_free(&t);
}

/* An empty event mask records nothing, and produces nothing. */
TEST_F(events, empty_event_mask_records_nothing)
{
	struct ltt_trace t = { 0 };
	__u64 mask = ~0ULL;
	unsigned int i;
	int status;
	pid_t child;

	ASSERT_EQ(0, ltt_set_mask(self->s.fd, &mask, 0))
		TH_LOG("%s", strerror(errno));
	START();
	child = fork();
	if (!child)
		_exit(0);
	ASSERT_LT(0, child);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	syscall(__NR_getppid);
	STOP_AND_READ(&t);

	EXPECT_EQ((size_t)0, t.n) TH_LOG("records with no event enabled");
	for (i = 0; i < self->s.n_cpus; i++)
		EXPECT_EQ(0ULL, self->s.st[i].produced)
			TH_LOG("cpu %u", self->s.st[i].cpu);
	ltt_trace_free(&t);
}

/* The pid filter drops the records of other processes. */
TEST_F(events, pid_filter_drops_other_processes)
{
	enum { N = 100 };
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	int i, status;
	pid_t child;

	FILTER_PIDS(&self->pid, 1);
	START();
	child = fork();
	if (!child) {
		for (i = 0; i < N; i++)
			syscall(__NR_getsid, 0);
		_exit(0);
	}
	ASSERT_LT(0, child);
	for (i = 0; i < N; i++)
		syscall(__NR_getppid);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	STOP_AND_READ(&t);

	EXPECT_EQ((size_t)0, count_calls(reg, &t, __NR_getsid))
		TH_LOG("the child's getsid() calls passed the filter");
	EXPECT_EQ((size_t)N, count_calls(reg, &t, __NR_getppid))
		TH_LOG("our own getppid() calls");
	ltt_trace_free(&t);
}

static void *call_getsid(void *arg)
{
	long i;

	for (i = 0; i < (long)arg; i++)
		syscall(__NR_getsid, 0);
	return NULL;
}

/* The pid filter keeps the threads of a listed process (its tgid). */
TEST_F(events, pid_filter_keeps_threads_of_listed_process)
{
	enum { N = 100 };
	struct ltt_trace t = { 0 };
	pthread_t th;

	FILTER_PIDS(&self->pid, 1);
	START();
	ASSERT_EQ(0, pthread_create(&th, NULL, call_getsid, (void *)N));
	ASSERT_EQ(0, pthread_join(th, NULL));
	STOP_AND_READ(&t);

	EXPECT_EQ((size_t)N, count_calls(&self->s.reg, &t, __NR_getsid))
		TH_LOG("getsid() calls of our thread");
	ltt_trace_free(&t);
}

/* Sleeping shows as a sched_change out of our pid, then one back in. */
TEST_F(events, sleep_gives_sched_change_out_and_back_in)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	bool out = false, in = false;
	size_t i;

	FILTER_EVENTS("sched_change");
	START();
	usleep(10000);
	STOP_AND_READ(&t);

	for (i = 0; i < t.n && !in; i++) {
		const struct ltt_event *ev = &t.ev[i];

		if (ev->cpu != self->cpu ||
		    !ltt_ev_is(reg, ev, "sched_change"))
			continue;
		if (!out && ltt_ev_field(reg, ev, "out") == self->pid &&
		    ltt_ev_field(reg, ev, "out_state")) {
			out = true;
			EXPECT_NE(self->pid, ltt_ev_field(reg, ev, "in"));
		} else if (out) {
			in = ltt_ev_field(reg, ev, "in") == self->pid;
		}
	}
	EXPECT_TRUE(out) TH_LOG("no sched_change out of pid %d, asleep",
				self->pid);
	EXPECT_TRUE(in) TH_LOG("no sched_change back to pid %d", self->pid);
	ltt_trace_free(&t);
}

/* Packet pid and sched_change tell a reader whose each record is. */
TEST_F(events, records_are_attributed_to_their_task)
{
	enum { N = 20 };
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	size_t i, ours = 0;

	FILTER_EVENTS("syscall_entry", "syscall_exit", "sched_change");
	START();
	for (i = 0; i < N; i++) {
		syscall(__NR_getppid);
		usleep(1000);
	}
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++)
		if (ltt_ev_is(reg, &t.ev[i], "syscall_entry") &&
		    ltt_ev_field(reg, &t.ev[i], "id") == __NR_getppid &&
		    t.ev[i].pid == self->pid)
			ours++;
	EXPECT_EQ((size_t)N, ours)
		TH_LOG("getppid() calls attributed to pid %d", self->pid);
	ltt_trace_free(&t);
}

/* The flush timer hands a lone event to a polling reader within 1 s. */
TEST_F(events, reader_sees_event_within_a_second)
{
	struct ltt_reader *r = ltt_reader_of(&self->s, self->cpu);
	struct ltt_trace t = { 0 };
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	__u64 t0, waited = 0;
	size_t seen = 0;
	int ret;

	FILTER_PIDS(&self->pid, 1);
	FILTER_EVENTS("syscall_entry", "syscall_exit");
	START();
	t0 = ltt_now_ns(CLOCK_MONOTONIC);
	syscall(__NR_getppid);

	while (!seen && waited < 1500) {
		ret = poll(&pfd, 1, 1500 - waited);
		waited = (ltt_now_ns(CLOCK_MONOTONIC) - t0) / 1000000;
		ASSERT_LE(0, ret) TH_LOG("poll: %s", strerror(errno));
		if (!ret)
			break;
		ASSERT_TRUE(pfd.revents & POLLIN)
			TH_LOG("revents %#x", pfd.revents);
		ASSERT_EQ(0, ltt_read_ready(&self->s, &t)) TH_LOG("%s", ltt_err);
		seen = count_calls(&self->s.reg, &t, __NR_getppid);
	}
	EXPECT_EQ(0, ltt_stop(self->s.fd));
	EXPECT_EQ((size_t)1, seen)
		TH_LOG("getppid() not delivered after %llu ms",
		       (unsigned long long)waited);
	TH_LOG("delivered after %llu ms", (unsigned long long)waited);
	ltt_trace_free(&t);
}

#ifdef __x86_64__
/*
 * Calls of the compat ABIs are syscall_entry_compat records, with the
 * number of their own table and the ABI that says which one: ia32's
 * getppid is 64 (native 64 is semget), an x32 call keeps the native
 * number once __X32_SYSCALL_BIT is taken off (cut to 16 bits it looked
 * native).  Neither is ever a native syscall_entry.
 */
TEST_F(events, compat_and_x32_calls_carry_their_abi)
{
	const struct ltt_registry *reg = &self->s.reg;
	const int calls = 10;
	struct ltt_trace t = { 0 };
	int ia32 = 0, x32 = 0, native = 0, exits = 0, i;
	long ppid = getppid();
	size_t j;

	if (!ltt_have_ia32())
		SKIP(return, "no CONFIG_IA32_EMULATION");
	if (ltt_x32_getppid() != ppid)
		SKIP(return, "no CONFIG_X86_X32_ABI");
	FILTER_PIDS(&self->pid, 1);
	FILTER_EVENTS("syscall_entry", "syscall_entry_compat",
		      "syscall_exit");
	START();
	for (i = 0; i < calls; i++) {
		ASSERT_EQ(ppid, ltt_ia32_getppid());
		ASSERT_EQ(ppid, ltt_x32_getppid());
	}
	STOP_AND_READ(&t);

	for (j = 0; j < t.n; j++) {
		const struct ltt_event *ev = &t.ev[j];

		if (ltt_ev_is(reg, ev, "syscall_entry_compat")) {
			long id = ltt_ev_field(reg, ev, "id");
			long abi = ltt_ev_field(reg, ev, "abi");

			if (abi == LTT_SYSCALL_ABI_COMPAT && id == 64)
				ia32++;
			else if (abi == LTT_SYSCALL_ABI_X32 &&
				 id == __NR_getppid)
				x32++;
			else
				TH_LOG("unexpected compat call %ld, abi %ld",
				       id, abi);
		} else if (ltt_ev_is(reg, ev, "syscall_entry") &&
			   (ltt_ev_field(reg, ev, "id") == 64 ||
			    ltt_ev_field(reg, ev, "id") == __NR_getppid)) {
			native++;
		} else if (ltt_ev_is(reg, ev, "syscall_exit") &&
			   ltt_ev_field(reg, ev, "ret") == ppid) {
			exits++;
		}
	}
	EXPECT_EQ(calls, ia32);
	EXPECT_EQ(calls, x32);
	EXPECT_EQ(0, native) TH_LOG("compat calls recorded as native ones");
	EXPECT_EQ(2 * calls, exits);
	ltt_trace_free(&t);
}
#endif

TEST_HARNESS_MAIN
