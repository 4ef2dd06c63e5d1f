// SPDX-License-Identifier: GPL-2.0
/*
 * Process life beyond fork, exec and exit (ltt_events_test has those):
 * kernel thread creation, wait, signals and wakeups.  Each test makes the
 * event happen and checks its fields.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "ltt_workload.h"

FIXTURE(proc) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

FIXTURE_SETUP(proc)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, NULL);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(proc)
{
	ltt_session_close(&self->s);
}

/*
 * A workqueue given a new nice value gets a new worker pool, and a new
 * kworker thread: process_kthread with its pid and worker_thread() as
 * its function.
 */
TEST_F(proc, new_workqueue_worker_gives_process_kthread_with_pid_and_function)
{
	const struct ltt_registry *reg = &self->s.reg;
	unsigned long long worker_thread, stext, etext;
	struct ltt_trace t = { 0 };
	size_t i, n = 0, workers = 0;

	FILTER_EVENTS("process_kthread");
	START();
	WORK(ltt_work_new_kworker());
	STOP_AND_READ(&t);
	worker_thread = ltt_kallsyms("worker_thread");
	ASSERT_NE(0ULL, worker_thread) TH_LOG("%s", ltt_err);
	/* The kernel's text, wherever the arch puts it. */
	stext = ltt_kallsyms("_stext");
	etext = ltt_kallsyms("_etext");
	ASSERT_LT(stext, etext) TH_LOG("_stext, _etext: %s", ltt_err);

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];
		char path[64], comm[64];

		n++;
		EXPECT_LT(0, FIELD(ev, "pid"));
		EXPECT_TRUE((unsigned long long)FIELD(ev, "func") >= stext &&
			    (unsigned long long)FIELD(ev, "func") < etext)
			TH_LOG("kthread %lld: func %#llx is not kernel text",
			       (long long)FIELD(ev, "pid"),
			       (unsigned long long)FIELD(ev, "func"));
		if ((unsigned long long)FIELD(ev, "func") != worker_thread)
			continue;
		workers++;
		snprintf(path, sizeof(path), "/proc/%lld/comm",
			 (long long)FIELD(ev, "pid"));
		if (!ltt_read_str(path, comm, sizeof(comm)))
			EXPECT_EQ(0, strncmp(comm, "kworker", 7))
				TH_LOG("pid %lld runs worker_thread() but is named %s",
				       (long long)FIELD(ev, "pid"), comm);
	}
	EXPECT_LT(0, workers)
		TH_LOG("no process_kthread of worker_thread (%#llx) among %zu: %s",
		       worker_thread, n,
		       "a new nice value for the writeback workqueue made no kworker");
	ltt_trace_free(&t);
}

/* waitpid() of a child gives process_wait with the child's pid. */
TEST_F(proc, waitpid_gives_process_wait_with_the_child_pid)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	int status;
	pid_t child;
	size_t i;

	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		_exit(0);
	FILTER_SELF();
	FILTER_EVENTS("process_wait");
	START();
	ASSERT_EQ(child, waitpid(child, &status, 0));
	STOP_AND_READ(&t);

	ASSERT_EQ((size_t)1, t.n) TH_LOG("process_wait records for one waitpid()");
	for (i = 0; i < t.n; i++)
		EXPECT_EQ(child, FIELD(&t.ev[i], "pid"));
	ltt_trace_free(&t);
}

/* wait() for any child gives process_wait with pid -1. */
TEST_F(proc, wait_for_any_child_gives_process_wait_minus_one)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	int status;
	pid_t child;

	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		_exit(0);
	FILTER_SELF();
	FILTER_EVENTS("process_wait");
	START();
	ASSERT_EQ(child, wait(&status));
	STOP_AND_READ(&t);

	ASSERT_EQ((size_t)1, t.n) TH_LOG("process_wait records for one wait()");
	EXPECT_EQ(-1, FIELD(&t.ev[0], "pid")) TH_LOG("-1 stands for any child");
	ltt_trace_free(&t);
}

/* kill() gives process_signal with the signal and the target's pid. */
TEST_F(proc, kill_gives_process_signal_with_signal_and_target)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	int wake, status;
	pid_t child;
	size_t i, n = 0;

	child = ltt_fork_sleeper(&wake);
	ASSERT_LT(0, child) TH_LOG("%s", ltt_err);
	FILTER_SELF();
	FILTER_EVENTS("process_signal");
	START();
	ASSERT_EQ(0, kill(child, SIGUSR1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	STOP_AND_READ(&t);
	close(wake);

	for (i = 0; i < t.n; i++) {
		if (FIELD(&t.ev[i], "pid") != child)
			continue;
		n++;
		EXPECT_EQ(SIGUSR1, FIELD(&t.ev[i], "sig"));
		EXPECT_EQ(SI_USER, FIELD(&t.ev[i], "code"));
	}
	EXPECT_EQ((size_t)1, n) TH_LOG("process_signal records to pid %d for one kill()",
				       child);
	ltt_trace_free(&t);
}

/*
 * Who sent it, in si_code: tgkill() is SI_TKILL, sigqueue() SI_QUEUE, a
 * fault the kernel's (SEGV_MAPERR, recorded in the faulting task).
 */
TEST_F(proc, process_signal_code_tells_tgkill_sigqueue_and_a_fault)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	int wake, status, go[2];
	pid_t child, pids[2];
	size_t i, n = 0;
	char c;

	child = ltt_fork_sleeper(&wake);
	ASSERT_LT(0, child) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, pipe2(go, O_CLOEXEC));
	pids[0] = self->pid;
	pids[1] = fork();
	ASSERT_LE(0, pids[1]);
	if (!pids[1]) {		/* faults once told to */
		close(go[1]);
		signal(SIGSEGV, SIG_DFL);
		if (read(go[0], &c, 1) == 1)	/* a store to page 0 */
			__atomic_store_n((int *)(uintptr_t)c, 1, __ATOMIC_RELAXED);
		_exit(0);
	}
	close(go[0]);
	FILTER_PIDS(pids, 2);
	FILTER_EVENTS("process_signal");
	START();
	ASSERT_EQ(0, syscall(__NR_tgkill, child, child, SIGCONT));
	ASSERT_EQ(0, sigqueue(child, SIGCONT, (union sigval){ .sival_int = 7 }));
	ASSERT_EQ(0, kill(child, SIGKILL));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(1, write(go[1], "x", 1));
	ASSERT_EQ(pids[1], waitpid(pids[1], &status, 0));
	STOP_AND_READ(&t);
	close(wake);
	close(go[1]);
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];
		long sig = FIELD(ev, "sig"), code = FIELD(ev, "code");

		if (FIELD(ev, "pid") == child && sig == SIGCONT) {
			EXPECT_EQ(n ? SI_QUEUE : SI_TKILL, code);
			n++;
		} else if (FIELD(ev, "pid") == child) {
			EXPECT_EQ(SIGKILL, sig);
			EXPECT_EQ(SI_USER, code);
		} else if (FIELD(ev, "pid") == pids[1] && sig == SIGSEGV) {
			EXPECT_EQ(SEGV_MAPERR, code);
			n += 10;
		}
	}
	EXPECT_EQ((size_t)12, n) TH_LOG("tgkill, sigqueue and the SIGSEGV");
	ltt_trace_free(&t);
}

/*
 * A write to a pipe wakes the child asleep reading it: process_wakeup
 * with its pid and the state it sleeps in, TASK_INTERRUPTIBLE.
 */
TEST_F(proc, pipe_write_gives_process_wakeup_of_the_reader_asleep_interruptible)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	pid_t child;
	size_t i, n = 0;
	int wake;

	child = ltt_fork_sleeper(&wake);
	ASSERT_LT(0, child) TH_LOG("%s", ltt_err);
	FILTER_SELF();
	FILTER_EVENTS("process_wakeup");
	START();
	ASSERT_EQ(1, write(wake, "", 1));
	usleep(10000);
	STOP_AND_READ(&t);
	close(wake);
	waitpid(child, NULL, 0);

	for (i = 0; i < t.n; i++) {
		if (FIELD(&t.ev[i], "pid") != child)
			continue;
		n++;
		EXPECT_EQ(LTT_TASK_INTERRUPTIBLE, FIELD(&t.ev[i], "state"))
			TH_LOG("the reader slept in pipe_read(), interruptible");
	}
	EXPECT_EQ((size_t)1, n) TH_LOG("process_wakeup records of pid %d for one write",
				       child);
	ltt_trace_free(&t);
}

TEST_HARNESS_MAIN
