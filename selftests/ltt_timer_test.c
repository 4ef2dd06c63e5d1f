// SPDX-License-Identifier: GPL-2.0
/*
 * Timer events: setitimer, schedule_timeout and the expiry of the timer
 * it arms.  (The tick is in ltt_cpu_test.)  Each test makes the event
 * happen and checks its fields.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "ltt_workload.h"

FIXTURE(timer) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

FIXTURE_SETUP(timer)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, NULL);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(timer)
{
	ltt_session_close(&self->s);
}

/* setitimer() gives timer_setitimer with the timer and its value in us. */
TEST_F(timer, setitimer_gives_timer_setitimer_with_which_and_value_us)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct itimerval real = { .it_value = { 1, 500000 } };
	struct itimerval virt = { .it_value = { 0, 250000 } };
	struct itimerval off = { 0 };
	static const struct { int which; long long us; } want[] = {
		{ ITIMER_REAL, 1500000 }, { ITIMER_VIRTUAL, 250000 },
		{ ITIMER_REAL, 0 }, { ITIMER_VIRTUAL, 0 },
	};
	struct ltt_trace t = { 0 };
	size_t i;

	FILTER_SELF();
	FILTER_EVENTS("timer_setitimer");
	START();
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &real, NULL));
	ASSERT_EQ(0, setitimer(ITIMER_VIRTUAL, &virt, NULL));
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &off, NULL));
	ASSERT_EQ(0, setitimer(ITIMER_VIRTUAL, &off, NULL));
	STOP_AND_READ(&t);

	ASSERT_EQ(ARRAY_SIZE(want), t.n)
		TH_LOG("timer_setitimer records for 4 setitimer() calls");
	for (i = 0; i < t.n; i++) {
		EXPECT_EQ(want[i].which, FIELD(&t.ev[i], "which"))
			TH_LOG("call %zu", i);
		EXPECT_EQ(want[i].us, FIELD(&t.ev[i], "value_us"))
			TH_LOG("call %zu", i);
	}
	ltt_trace_free(&t);
}

/*
 * A value of 10^13 s, more microseconds than an s64 holds, saturates (on
 * a 32-bit kernel: LONG_MAX s).  The system call is made with the
 * kernel's itimerval: a C library with a 64-bit time_t refuses it.
 */
TEST_F(timer, huge_setitimer_value_is_not_recorded_negative)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct {
		struct __kernel_old_timeval interval, value;
	} huge = { .value = { LTT_HUGE_SECS, 0 } }, off = { 0 };
	struct ltt_trace t = { 0 };

	FILTER_SELF();
	FILTER_EVENTS("timer_setitimer");
	START();
	ASSERT_EQ(0, syscall(__NR_setitimer, ITIMER_REAL, &huge, NULL));
	ASSERT_EQ(0, syscall(__NR_setitimer, ITIMER_REAL, &off, NULL));
	STOP_AND_READ(&t);

	ASSERT_EQ((size_t)2, t.n);
	EXPECT_LT(0, FIELD(&t.ev[0], "value_us"))
		TH_LOG("setitimer() for %lld s: value_us %lld (tv_sec * 10^6 overflows)",
		       (long long)huge.value.tv_sec,
		       (long long)FIELD(&t.ev[0], "value_us"));
	ltt_trace_free(&t);
}

/*
 * recv() on a socket with a 100 ms SO_RCVTIMEO sleeps in schedule_timeout()
 * for 25 jiffies (HZ 250); about 100 ms later its timer expires, and the
 * timer function wakes the task on that CPU.
 */
TEST_F(timer, socket_timeout_gives_schedule_timeout_in_jiffies_then_timer_expired)
{
	const struct ltt_registry *reg = &self->s.reg;
	const long jiffies = 100 * LTT_HZ / 1000;
	const struct ltt_event *st = NULL, *exp = NULL;
	struct ltt_trace t = { 0 };
	__u64 t0, t1;
	size_t i, j;

	FILTER_EVENTS("timer_schedule_timeout", "timer_expired",
		      "process_wakeup", "sched_change");
	START();
	t0 = ltt_now_ns(CLOCK_MONOTONIC);
	WORK(ltt_work_rcvtimeo(100));
	t1 = ltt_now_ns(CLOCK_MONOTONIC);
	STOP_AND_READ(&t);

	for (i = 0; i < t.n && !st; i++)
		if (IS(&t.ev[i], "timer_schedule_timeout") &&
		    t.ev[i].pid == self->pid && t.ev[i].ts >= t0)
			st = &t.ev[i];
	ASSERT_NE(NULL, st) TH_LOG("no timer_schedule_timeout of pid %d in recv() with SO_RCVTIMEO",
				   self->pid);
	EXPECT_EQ(jiffies, FIELD(st, "timeout"))
		TH_LOG("100 ms at HZ=%d, in jiffies", LTT_HZ);

	/* The expiry that wakes us: a timer_expired, then our wakeup. */
	for (i = 0; i < t.n && !exp; i++) {
		if (!IS(&t.ev[i], "timer_expired") ||
		    t.ev[i].ts < st->ts + 90000000ULL || t.ev[i].ts > t1)
			continue;
		for (j = i + 1; j < t.n && t.ev[j].cpu == t.ev[i].cpu &&
		     t.ev[j].ts < t.ev[i].ts + 2000000; j++)
			if (IS(&t.ev[j], "process_wakeup") &&
			    FIELD(&t.ev[j], "pid") == self->pid) {
				exp = &t.ev[i];
				break;
			}
	}
	EXPECT_NE(NULL, exp)
		TH_LOG("no timer_expired, then wakeup of pid %d, 90 ms after schedule_timeout(%ld)",
		       self->pid, jiffies);
	if (exp)
		TH_LOG("the timer expired %llu ms after schedule_timeout()",
		       ltt_ms(exp->ts - st->ts));
	ltt_trace_free(&t);
}

TEST_HARNESS_MAIN
