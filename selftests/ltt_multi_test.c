// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrent sessions: several record at once, each with its own mask
 * and pid filter, and each trace holds exactly its own events, counted
 * against a known workload; a session closed while others record takes
 * nothing of theirs with it.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ltt_workload.h"

/* Records of @t whose event name starts with @prefix. */
static size_t count_prefix(const struct ltt_registry *reg,
			   const struct ltt_trace *t, const char *prefix)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		if (!strncmp(reg->ev[t->ev[i].id].name, prefix, strlen(prefix)))
			n++;
	return n;
}

/* Open @s with readers, the events @names only, the one pid @pid. */
static void open_one(struct __test_metadata *_metadata, struct ltt_session *s,
		     pid_t pid, const char *const *names)
{
	ASSERT_EQ(0, ltt_session_open(s, NULL)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_open_readers(s)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_set_events(s, names)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_set_pids(s->fd, &pid, 1))
		TH_LOG("SET_PIDS: %s", strerror(errno));
}

static const char *const syscalls[] = { "syscall_entry", "syscall_exit", NULL };
static const char *const process[] = { "process_fork", "process_exit", NULL };

#define CALLS	100
#define FORKS	5

/*
 * Two sessions at once: one takes the system calls of one process, the
 * other the process life of another; each gets all of its own and
 * nothing of the other's.
 */
TEST(two_sessions_with_their_own_masks_and_pid_filters)
{
	struct ltt_session a, b;
	struct ltt_trace ta = { 0 }, tb = { 0 };
	struct ltt_worker wa, wb;
	size_t i, forks = 0;

	ASSERT_EQ(0, ltt_worker_start(&wa, CALLS));
	ASSERT_EQ(0, ltt_worker_start(&wb, FORKS));
	if (ltt_session_open(&a, NULL) == LTT_UNAVAILABLE)
		SKIP(goto out, "%s", ltt_err);
	ltt_session_close(&a);
	open_one(_metadata, &a, wa.pid, syscalls);
	open_one(_metadata, &b, wb.pid, process);
	ASSERT_EQ(0, ltt_start(a.fd)) TH_LOG("START a: %s", strerror(errno));
	ASSERT_EQ(0, ltt_start(b.fd))
		TH_LOG("START of a second session: %s", strerror(errno));
	ASSERT_EQ(0, ltt_worker_do(&wa, 'g'));
	ASSERT_EQ(0, ltt_worker_do(&wb, 'f'));
	ASSERT_EQ(0, ltt_worker_do(&wb, 'g'));
	ltt_stop_and_read(_metadata, &a, &ta);
	ltt_stop_and_read(_metadata, &b, &tb);

	EXPECT_EQ((size_t)CALLS, ltt_getppids(&a.reg, &ta, -1))
		TH_LOG("a: the getppid() calls of %d", wa.pid);
	EXPECT_EQ((size_t)0, count_prefix(&a.reg, &ta, "process_"))
		TH_LOG("a: process events, masked off");
	for (i = 0; i < tb.n; i++)
		if (ltt_ev_is(&b.reg, &tb.ev[i], "process_fork") &&
		    ltt_ev_field(&b.reg, &tb.ev[i], "child") > 0)
			forks++;
	EXPECT_EQ((size_t)FORKS, forks) TH_LOG("b: the forks of %d", wb.pid);
	EXPECT_EQ((size_t)0, count_prefix(&b.reg, &tb, "syscall_"))
		TH_LOG("b: system calls, masked off");
	ltt_trace_free(&ta);
	ltt_trace_free(&tb);
	ltt_session_close(&a);
	ltt_session_close(&b);
out:
	ltt_worker_end(&wa);
	ltt_worker_end(&wb);
}

#define EIGHT	8

/*
 * Eight sessions at once, each on its own process making a different
 * number of calls: each trace holds exactly its process's calls.
 */
TEST(eight_sessions_each_hold_exactly_their_own)
{
	struct ltt_session s[EIGHT];
	struct ltt_trace t[EIGHT] = { 0 };
	struct ltt_worker w[EIGHT];
	int i;

	for (i = 0; i < EIGHT; i++)
		ASSERT_EQ(0, ltt_worker_start(&w[i], 10 * (i + 1)));
	if (ltt_session_open(&s[0], NULL) == LTT_UNAVAILABLE)
		SKIP(goto out, "%s", ltt_err);
	ltt_session_close(&s[0]);
	for (i = 0; i < EIGHT; i++) {
		open_one(_metadata, &s[i], w[i].pid, syscalls);
		ASSERT_EQ(0, ltt_start(s[i].fd))
			TH_LOG("START of session %d: %s", i, strerror(errno));
	}
	for (i = 0; i < EIGHT; i++)
		ASSERT_EQ(0, ltt_worker_do(&w[i], 'g'));
	for (i = 0; i < EIGHT; i++)
		ltt_stop_and_read(_metadata, &s[i], &t[i]);
	for (i = 0; i < EIGHT; i++) {
		EXPECT_EQ((size_t)(10 * (i + 1)), ltt_getppids(&s[i].reg, &t[i], -1))
			TH_LOG("session %d, on pid %d", i, w[i].pid);
		ltt_trace_free(&t[i]);
		ltt_session_close(&s[i]);
	}
out:
	for (i = 0; i < EIGHT; i++)
		ltt_worker_end(&w[i]);
}

/*
 * Three sessions on one process; the middle one is closed (no STOP)
 * between two rounds of calls: the other two hold both rounds whole.
 */
TEST(closing_one_session_while_others_record_loses_nothing_of_theirs)
{
	struct ltt_session s[3];
	struct ltt_trace t[3] = { 0 };
	struct ltt_worker w;
	int i;

	ASSERT_EQ(0, ltt_worker_start(&w, CALLS));
	if (ltt_session_open(&s[0], NULL) == LTT_UNAVAILABLE)
		SKIP(goto out, "%s", ltt_err);
	ltt_session_close(&s[0]);
	for (i = 0; i < 3; i++) {
		open_one(_metadata, &s[i], w.pid, syscalls);
		ASSERT_EQ(0, ltt_start(s[i].fd))
			TH_LOG("START of session %d: %s", i, strerror(errno));
	}
	ASSERT_EQ(0, ltt_worker_do(&w, 'g'));
	ltt_session_close(&s[1]);
	ASSERT_EQ(0, ltt_worker_do(&w, 'g'));
	for (i = 0; i < 3; i += 2) {
		ltt_stop_and_read(_metadata, &s[i], &t[i]);
		EXPECT_EQ((size_t)(2 * CALLS), ltt_getppids(&s[i].reg, &t[i], -1))
			TH_LOG("session %d", i);
		ltt_trace_free(&t[i]);
		ltt_session_close(&s[i]);
	}
out:
	ltt_worker_end(&w);
}

/*
 * Events nobody takes cost the probes a bit test (ltt_wants()), so a
 * mask widened while recording must reach that test: two sessions take
 * only process events, then one takes the system calls as well, with no
 * START between; it gets the calls made after, and the other none.
 */
TEST(a_mask_widened_while_recording_takes_effect)
{
	static const char *const both[] = { "syscall_entry", "syscall_exit",
					     "process_fork", NULL };
	struct ltt_session a, b;
	struct ltt_trace ta = { 0 }, tb = { 0 };
	struct ltt_worker w;

	ASSERT_EQ(0, ltt_worker_start(&w, CALLS));
	if (ltt_session_open(&a, NULL) == LTT_UNAVAILABLE)
		SKIP(goto out, "%s", ltt_err);
	ltt_session_close(&a);
	open_one(_metadata, &a, w.pid, process);
	open_one(_metadata, &b, w.pid, process);
	ASSERT_EQ(0, ltt_start(a.fd));
	ASSERT_EQ(0, ltt_start(b.fd));
	ASSERT_EQ(0, ltt_worker_do(&w, 'g'));
	ASSERT_EQ(0, ltt_set_events(&b, both)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_worker_do(&w, 'g'));
	ltt_stop_and_read(_metadata, &a, &ta);
	ltt_stop_and_read(_metadata, &b, &tb);
	EXPECT_EQ((size_t)0, ltt_getppids(&a.reg, &ta, -1)) TH_LOG("a: masked off");
	EXPECT_EQ((size_t)CALLS, ltt_getppids(&b.reg, &tb, -1))
		TH_LOG("b: the calls after its mask took them");
	ltt_trace_free(&ta);
	ltt_trace_free(&tb);
	ltt_session_close(&a);
	ltt_session_close(&b);
out:
	ltt_worker_end(&w);
}

/*
 * The same session started twice is EBUSY; a stopped one starts again
 * beside another that kept recording, and both still count exactly.
 */
TEST(restart_beside_a_recording_session)
{
	struct ltt_session a, b;
	struct ltt_trace ta = { 0 }, tb = { 0 };
	struct ltt_worker w;

	ASSERT_EQ(0, ltt_worker_start(&w, CALLS));
	if (ltt_session_open(&a, NULL) == LTT_UNAVAILABLE)
		SKIP(goto out, "%s", ltt_err);
	ltt_session_close(&a);
	open_one(_metadata, &a, w.pid, syscalls);
	open_one(_metadata, &b, w.pid, syscalls);
	ASSERT_EQ(0, ltt_start(a.fd));
	errno = 0;
	EXPECT_EQ(-1, ltt_start(a.fd));
	EXPECT_EQ(EBUSY, errno) TH_LOG("a second START of one session");
	ASSERT_EQ(0, ltt_start(b.fd));
	ASSERT_EQ(0, ltt_worker_do(&w, 'g'));
	ASSERT_EQ(0, ltt_stop(b.fd));
	ASSERT_EQ(0, ltt_worker_do(&w, 'g'));
	ASSERT_EQ(0, ltt_start(b.fd)) TH_LOG("restart: %s", strerror(errno));
	ASSERT_EQ(0, ltt_worker_do(&w, 'g'));
	ltt_stop_and_read(_metadata, &a, &ta);
	ltt_stop_and_read(_metadata, &b, &tb);
	EXPECT_EQ((size_t)(3 * CALLS), ltt_getppids(&a.reg, &ta, -1));
	EXPECT_EQ((size_t)(2 * CALLS), ltt_getppids(&b.reg, &tb, -1))
		TH_LOG("b: before its STOP and after its restart");
	ltt_trace_free(&ta);
	ltt_trace_free(&tb);
	ltt_session_close(&a);
	ltt_session_close(&b);
out:
	ltt_worker_end(&w);
}

/*
 * Two sessions, each on its own worker pinned to CPU 1, and CPU 1 goes
 * offline between two rounds of calls and comes back before a third:
 * each trace holds its worker's calls of all three rounds, exactly,
 * with nothing lost and every CPU's accounting whole.
 */
TEST(a_cpu_going_away_under_two_sessions_loses_nothing)
{
	struct ltt_session a, b;
	struct ltt_trace ta = { 0 }, tb = { 0 };
	struct ltt_worker wa = { 0 }, wb = { 0 };
	cpu_set_t one;
	int round;

	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "no CPU 1 that may go offline");
	if (ltt_session_open(&a, NULL) == LTT_UNAVAILABLE)
		SKIP(return, "%s", ltt_err);
	ltt_session_close(&a);
	CPU_ZERO(&one);
	CPU_SET(1, &one);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
	ASSERT_EQ(0, ltt_worker_start(&wa, CALLS));
	ASSERT_EQ(0, ltt_worker_start(&wb, CALLS));
	open_one(_metadata, &a, wa.pid, syscalls);
	open_one(_metadata, &b, wb.pid, syscalls);
	ASSERT_EQ(0, ltt_start(a.fd)) TH_LOG("START a: %s", strerror(errno));
	ASSERT_EQ(0, ltt_start(b.fd)) TH_LOG("START b: %s", strerror(errno));
	for (round = 0; round < 3; round++) {
		if (round == 1)
			ASSERT_EQ(0, ltt_set_cpu_online(1, false))
				TH_LOG("CPU 1 offline: %s", strerror(errno));
		if (round == 2)
			ASSERT_EQ(0, ltt_set_cpu_online(1, true))
				TH_LOG("CPU 1 online: %s", strerror(errno));
		ASSERT_EQ(0, ltt_worker_do(&wa, 'g'));
		ASSERT_EQ(0, ltt_worker_do(&wb, 'g'));
	}
	ltt_stop_and_read(_metadata, &a, &ta);
	ltt_stop_and_read(_metadata, &b, &tb);

	EXPECT_EQ((size_t)3 * CALLS, ltt_getppids(&a.reg, &ta, -1))
		TH_LOG("a: the calls of %d, before, while and after CPU 1 was away",
		       wa.pid);
	EXPECT_EQ((size_t)3 * CALLS, ltt_getppids(&b.reg, &tb, -1))
		TH_LOG("b: the calls of %d", wb.pid);
	ltt_trace_free(&ta);
	ltt_trace_free(&tb);
	ltt_session_close(&a);
	ltt_session_close(&b);
	ltt_worker_end(&wa);
	ltt_worker_end(&wb);
	ltt_set_cpu_online(1, true);
}

TEST_HARNESS_MAIN
