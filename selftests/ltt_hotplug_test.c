// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug under a recording session: a CPU that comes online after
 * the session was made records, one that goes offline and back flushes
 * again, and with every CPU busy while others come and go, every event
 * is delivered or counted lost.  Run with -smp 4 by make check
 * (scripts/boot.sh, LTT_SMP=4); two CPUs are enough for each test.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "ltt_util.h"

/* The CPUs that may go offline (all online ones but CPU 0), into @cpus. */
static int hot_cpus(int *cpus, int max)
{
	cpu_set_t online;
	int top, cpu, n = 0;
	char path[64];

	top = ltt_read_cpulist("/sys/devices/system/cpu/online", &online);
	for (cpu = 1; cpu < top && n < max; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/online", cpu);
		if (CPU_ISSET(cpu, &online) && !access(path, W_OK))
			cpus[n++] = cpu;
	}
	return n;
}

/* getppid() calls recorded as syscall_entry, by @pid (-1: anybody). */
static size_t getppid_entries(const struct ltt_registry *reg,
			      const struct ltt_trace *t, pid_t pid)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		if (ltt_ev_is(reg, &t->ev[i], "syscall_entry") &&
		    (pid < 0 || t->ev[i].pid == pid) &&
		    t->ev[i].f[0] == SYS_getppid)
			n++;
	return n;
}

/* A CPU that was offline at CREATE records once it is online. */
TEST(cpu_onlined_after_create_records)
{
	struct ltt_session s;
	struct ltt_trace t = { 0 };
	pid_t me = getpid();
	int cpu, i;

	if (hot_cpus(&cpu, 1) < 1)
		SKIP(return, "no CPU can go offline");
	ASSERT_EQ(0, ltt_set_cpu_online(cpu, false)) TH_LOG("%s", strerror(errno));
	if (!ltt_setup(_metadata, &s, NULL, true)) {
		ltt_set_cpu_online(cpu, true);
		return;
	}
	ASSERT_EQ(0, ltt_set_cpu_online(cpu, true)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_set_pids(s.fd, &me, 1));
	ltt_start_or_fail(_metadata, s.fd);
	ASSERT_EQ(0, ltt_pin_to_cpu(cpu)) TH_LOG("%s", strerror(errno));
	for (i = 0; i < 1000; i++)
		syscall(SYS_getppid);
	ltt_stop_or_fail(_metadata, s.fd);
	ASSERT_EQ(0, ltt_read_stopped(&s, &t)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	EXPECT_EQ(1000U, getppid_entries(&s.reg, &t, me))
		TH_LOG("getppid() on cpu %d, online since CREATE", cpu);
	ltt_trace_free(&t);
	ltt_session_close(&s);
}

/*
 * A CPU that goes offline and comes back flushes again: an event made
 * there reaches the reader while the session records, within a second.
 */
TEST(cpu_back_online_flushes_again)
{
	struct ltt_session s;
	struct ltt_reader *r;
	struct pollfd pfd;
	pid_t me = getpid();
	int cpu;

	if (hot_cpus(&cpu, 1) < 1)
		SKIP(return, "no CPU can go offline");
	if (!ltt_setup(_metadata, &s, NULL, true))
		return;
	ASSERT_EQ(0, ltt_set_pids(s.fd, &me, 1));
	ltt_start_or_fail(_metadata, s.fd);
	ASSERT_EQ(0, ltt_set_cpu_online(cpu, false)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_set_cpu_online(cpu, true)) TH_LOG("%s", strerror(errno));
	r = ltt_reader_of(&s, cpu);
	ASSERT_NE(NULL, r);
	/* What the offline CPU handed over. */
	ASSERT_EQ(0, ltt_read_ready(&s, NULL)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_pin_to_cpu(cpu)) TH_LOG("%s", strerror(errno));
	syscall(SYS_getppid);
	ASSERT_EQ(0, ltt_pin_to_cpu(0)) TH_LOG("%s", strerror(errno));
	pfd = (struct pollfd){ .fd = r->fd, .events = POLLIN };
	EXPECT_EQ(1, poll(&pfd, 1, 1000))
		TH_LOG("no packet from cpu %d within a second of its event", cpu);
	ltt_stop_or_fail(_metadata, s.fd);
	ASSERT_EQ(0, ltt_read_stopped(&s, NULL)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	ltt_session_close(&s);
}

struct worker {
	pthread_t thread;
	int cpu;
	long calls;
};

static int workers_stop;

static void *worker(void *arg)
{
	struct worker *w = arg;

	ltt_pin_to_cpu(w->cpu);
	while (!__atomic_load_n(&workers_stop, __ATOMIC_RELAXED)) {
		syscall(SYS_getppid);
		w->calls++;
	}
	return NULL;
}

/*
 * A thread on every CPU makes system calls while the CPUs but 0 go
 * offline and come back, five times, and a reader drains the buffers:
 * on every CPU produced = delivered + lost, and every call's two events
 * are delivered or counted lost.
 */
FIXTURE(load) {
	struct ltt_session s;
};

FIXTURE_SETUP(load)
{
	memset(&self->s, 0, sizeof(self->s));
	self->s.fd = -1;
}

FIXTURE_TEARDOWN(load)
{
	ltt_session_close(&self->s);
}

TEST_F_TIMEOUT(load, cpus_come_and_go_under_load_lose_nothing_uncounted, 120)
{
	static const struct ltt_create big = {
		.subbuf_size = 65536, .n_subbufs = 16,
	};
	const char *const syscalls[] = { "syscall_entry", "syscall_exit", NULL };
	struct worker w[CPU_SETSIZE];
	struct ltt_session *s = &self->s;
	int hot[64], n_hot, n_workers, round, i;
	long calls = 0;
	__u64 lost = 0, delivered = 0;
	cpu_set_t online;

	n_hot = hot_cpus(hot, 64);
	if (n_hot < 1)
		SKIP(return, "no CPU can go offline");
	if (!ltt_setup(_metadata, s, &big, true))
		return;
	ASSERT_EQ(0, ltt_set_events(s, syscalls)) TH_LOG("%s", ltt_err);
	ltt_read_cpulist("/sys/devices/system/cpu/online", &online);
	n_workers = 0;
	for (i = 0; i < CPU_SETSIZE && n_workers < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &online))
			w[n_workers++] = (struct worker){ .cpu = i };
	ltt_start_or_fail(_metadata, s->fd);
	workers_stop = 0;
	for (i = 0; i < n_workers; i++)
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, worker, &w[i]));
	for (round = 0; round < 5; round++) {
		for (i = 0; i < n_hot; i++)
			ASSERT_EQ(0, ltt_set_cpu_online(hot[i], false))
				TH_LOG("cpu %d offline: %s", hot[i],
				       strerror(errno));
		ASSERT_EQ(0, ltt_read_ready(s, NULL)) TH_LOG("%s", ltt_err);
		usleep(50 * 1000);
		for (i = 0; i < n_hot; i++)
			ASSERT_EQ(0, ltt_set_cpu_online(hot[i], true))
				TH_LOG("cpu %d online: %s", hot[i],
				       strerror(errno));
		ASSERT_EQ(0, ltt_read_ready(s, NULL)) TH_LOG("%s", ltt_err);
		usleep(50 * 1000);
	}
	__atomic_store_n(&workers_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n_workers; i++) {
		ASSERT_EQ(0, pthread_join(w[i].thread, NULL));
		calls += w[i].calls;
	}
	ltt_stop_or_fail(_metadata, s->fd);
	ASSERT_EQ(0, ltt_read_stopped(s, NULL)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_check_accounting(s)) TH_LOG("%s", ltt_err);
	for (i = 0; i < (int)s->n_cpus; i++) {
		lost += s->st[i].lost;
		delivered += s->st[i].delivered;
	}
	/* Two events a call, and every one of them somewhere. */
	EXPECT_LE(2 * (__u64)calls, delivered + lost)
		TH_LOG("%ld calls, %llu events delivered, %llu lost", calls,
		       (unsigned long long)delivered,
		       (unsigned long long)lost);
	EXPECT_LT(0, calls);
}

TEST_HARNESS_MAIN
