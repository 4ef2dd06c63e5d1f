// SPDX-License-Identifier: GPL-2.0
/*
 * What a hostile or unlucky caller must not break: a close() racing
 * START, a STOP racing a custom event, a poller of a flight recorder, a
 * STATUS into memory that never faults in, a clock that steps back, an
 * unprivileged recording in root's way, set-uid programs under a user
 * session, and a session asked for from a pid or user namespace.  The
 * races are widened with the CONFIG_LTT_SELFTEST knobs of
 * /sys/kernel/debug/ltt/, so that each test would catch its bug every
 * time.
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ltt_stress.h"
#include "ltt_workload.h"

#define KNOB(name)	"/sys/kernel/debug/ltt/" name
#define USER_SESSIONS	"/proc/sys/kernel/ltt_user_sessions"
#define NOBODY		65534

/* Are the knobs there (CONFIG_LTT_SELFTEST)?  Tests skip without them. */
static bool no_knobs(void)
{
	return access(KNOB("start_delay_ms"), W_OK) != 0;
}

static void set_knob(struct __test_metadata *_metadata, const char *path,
		     const char *val)
{
	ASSERT_EQ(0, ltt_write_str(path, val)) TH_LOG("%s", ltt_err);
}

#define SET_KNOB(name, val)	set_knob(_metadata, KNOB(name), (val))

#define CLEAR_KNOB(name)	ltt_write_str(KNOB(name), "0")

struct cmd_thread {
	pthread_t thread;
	int fd;
	unsigned int cmd;
	int ret;
	int err;
};

static void *run_cmd(void *arg)
{
	struct cmd_thread *c = arg;

	c->ret = ltt_session_cmd(c->fd, c->cmd);
	c->err = errno;
	return NULL;
}

/* Can a new session record?  0, or -1 with ltt_err. */
static int can_record(void)
{
	struct ltt_session s;
	int ret = -1;

	if (ltt_session_open(&s, NULL))
		goto out;
	if (ltt_start(s.fd)) {
		ltt_fail("START of a new session: %s", strerror(errno));
		goto out;
	}
	if (ltt_stop(s.fd)) {
		ltt_fail("STOP of a new session: %s", strerror(errno));
		goto out;
	}
	ret = 0;
out:
	ltt_session_close(&s);
	return ret;
}

/*
 * close() of the session fd while START runs on it: the release must
 * wait for the command (it used to see a NEW session, and START then
 * made a session current that the last put freed).
 */
TEST(close_racing_start_leaves_nothing_recording)
{
	struct ltt_session s;
	struct cmd_thread c = { .cmd = LTT_CMD_START };

	if (no_knobs())
		SKIP(return, KNOB("") ": %s (CONFIG_LTT_SELFTEST?)",
		     strerror(errno));

	if (!ltt_setup(_metadata, &s, NULL, false))
		return;
	SET_KNOB("start_delay_ms", "300");
	c.fd = s.fd;
	ASSERT_EQ(0, pthread_create(&c.thread, NULL, run_cmd, &c));
	usleep(100 * 1000);
	/* START sleeps in the kernel now: close its session under it. */
	ASSERT_EQ(0, close(s.fd));
	s.fd = -1;
	ASSERT_EQ(0, pthread_join(c.thread, NULL));
	CLEAR_KNOB("start_delay_ms");
	EXPECT_EQ(0, c.ret) TH_LOG("START: %s", strerror(c.err));
	ltt_session_close(&s);
	/* Its session went with the fd: another one may record. */
	EXPECT_EQ(0, can_record()) TH_LOG("%s", ltt_err);
}

struct logger {
	pthread_t thread;
	int event_fd;
	unsigned int pause_us;	/* between events, 0: none */
	long logged;
	int err;
};

static int loggers_stop;

/* Log a custom event, as fast as the knob lets it, until told to stop. */
static void *log_loop(void *arg)
{
	struct logger *l = arg;
	__u32 v = 0;
	struct ltt_event_log log = {
		.event_fd = l->event_fd,
		.size = sizeof(v),
		.data = (uintptr_t)&v,
	};

	while (!__atomic_load_n(&loggers_stop, __ATOMIC_RELAXED)) {
		v++;
		if (ltt(LTT_CMD_EVENT_LOG, &log, sizeof(log))) {
			l->err = errno;
			break;
		}
		l->logged++;
		if (l->pause_us)
			usleep(l->pause_us);
	}
	return NULL;
}

/*
 * STOP while custom events are logged: the writer reads the recording
 * session once (it read it twice, and a STOP in between made the second
 * read NULL).  Forty rounds, each stopping a logger inside the window.
 */
TEST(stop_racing_custom_events_is_harmless)
{
	struct ltt_field_info f = {
		.name = "v", .type = LTT_FIELD_UNSIGNED, .size = 4,
	};
	struct ltt_event_create ec = { .n_fields = 1 };
	struct logger l = { 0 };
	struct ltt_session s;
	int round;

	if (no_knobs())
		SKIP(return, KNOB("") ": %s (CONFIG_LTT_SELFTEST?)",
		     strerror(errno));

	if (!ltt_setup(_metadata, &s, NULL, true))
		return;
	snprintf(ec.name, sizeof(ec.name), "ltt_test_stop_race");
	ec.fields[0] = f;
	l.event_fd = ltt(LTT_CMD_EVENT_CREATE, &ec, sizeof(ec));
	ASSERT_LE(0, l.event_fd) TH_LOG("EVENT_CREATE: %s", strerror(errno));
	/* The reader decodes the new type. */
	ltt_registry_free(&s.reg);
	ASSERT_EQ(0, ltt_registry_load(&s.reg)) TH_LOG("%s", ltt_err);
	SET_KNOB("log_delay_us", "500");
	loggers_stop = 0;
	ASSERT_EQ(0, pthread_create(&l.thread, NULL, log_loop, &l));
	for (round = 0; round < 40; round++) {
		ltt_start_or_fail(_metadata, s.fd);
		usleep(5000);
		ltt_stop_or_fail(_metadata, s.fd);
		ASSERT_EQ(0, ltt_read_stopped(&s, NULL)) TH_LOG("%s", ltt_err);
	}
	__atomic_store_n(&loggers_stop, 1, __ATOMIC_RELAXED);
	ASSERT_EQ(0, pthread_join(l.thread, NULL));
	CLEAR_KNOB("log_delay_us");
	EXPECT_EQ(0, l.err) TH_LOG("EVENT_LOG: %s", strerror(l.err));
	EXPECT_LT(40, l.logged);
	EXPECT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	close(l.event_fd);
	ltt_session_close(&s);
}

struct poller {
	pthread_t thread;
	int fd;
	int ret;
	short revents;
	__u64 woken_ns;		/* CLOCK_MONOTONIC when poll() returned */
};

static void *poll_once(void *arg)
{
	struct poller *p = arg;
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };

	p->ret = poll(&pfd, 1, 10000);
	p->woken_ns = ltt_now_ns(CLOCK_MONOTONIC);
	p->revents = pfd.revents;
	return NULL;
}

/*
 * A reader polling a flight recorder is woken by the snapshot and sees
 * it ready: the wakeup comes after the session is marked stopped (it
 * came before, and the woken poller went back to sleep for good).
 */
TEST(snapshot_wakes_a_poller_of_the_flight_recorder)
{
	static const struct ltt_create overwrite = {
		.subbuf_size = LTT_SUBBUF_MIN,
		.n_subbufs = 4,
		.mode = LTT_MODE_OVERWRITE,
	};
	struct ltt_session s;
	struct poller p = { .ret = -2 };
	__u64 stopped_ns;
	int cpu;

	if (no_knobs())
		SKIP(return, KNOB("") ": %s (CONFIG_LTT_SELFTEST?)",
		     strerror(errno));

	if (!ltt_setup(_metadata, &s, &overwrite, true))
		return;
	cpu = ltt_pin_to_buffer_cpu(&s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	p.fd = ltt_reader_of(&s, cpu)->fd;
	ltt_start_or_fail(_metadata, s.fd);
	syscall(SYS_getppid);
	ASSERT_EQ(0, pthread_create(&p.thread, NULL, poll_once, &p));
	usleep(200 * 1000);
	SET_KNOB("stop_delay_ms", "200");
	ASSERT_EQ(0, ltt_snapshot(s.fd)) TH_LOG("%s", strerror(errno));
	stopped_ns = ltt_now_ns(CLOCK_MONOTONIC);
	CLEAR_KNOB("stop_delay_ms");
	ASSERT_EQ(0, pthread_join(p.thread, NULL));
	/* Woken by the snapshot itself, not by whatever came later. */
	EXPECT_GT(stopped_ns + 1000000000ULL, p.woken_ns)
		TH_LOG("the poller woke %llu ms after the snapshot",
		       (unsigned long long)(p.woken_ns - stopped_ns) / 1000000);
	EXPECT_EQ(1, p.ret) TH_LOG("poll() returned %d: the snapshot's wakeup was lost",
				   p.ret);
	EXPECT_TRUE(p.revents & POLLIN) TH_LOG("revents %#x", p.revents);
	ASSERT_EQ(0, ltt_read_stopped(&s, NULL)) TH_LOG("%s", ltt_err);
	ltt_session_close(&s);
}

/* A page that faults in only when its userfaultfd handler says so. */
struct stuck_page {
	int uffd;
	void *area;
	long size;
};

/* Make @sp; false when the test cannot go on (skipped or failed). */
static bool stuck_page_make(struct __test_metadata *_metadata,
			    struct stuck_page *sp)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	sp->size = sysconf(_SC_PAGESIZE);
	sp->uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (sp->uffd < 0)
		SKIP(return false, "userfaultfd: %s (CONFIG_USERFAULTFD?)",
		     strerror(errno));
	EXPECT_EQ(0, ioctl(sp->uffd, UFFDIO_API, &api))
		TH_LOG("%s", strerror(errno));
	sp->area = mmap(NULL, sp->size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT_NE(MAP_FAILED, sp->area);
	if (_metadata->exit_code)
		return false;
	reg.range.start = (uintptr_t)sp->area;
	reg.range.len = sp->size;
	EXPECT_EQ(0, ioctl(sp->uffd, UFFDIO_REGISTER, &reg))
		TH_LOG("%s", strerror(errno));
	return !_metadata->exit_code;
}

/* Wait until a thread is stuck in @sp's fault. */
static int stuck_page_wait(struct stuck_page *sp)
{
	struct pollfd pfd = { .fd = sp->uffd, .events = POLLIN };

	return poll(&pfd, 1, 5000) == 1 ? 0 : -1;
}

/* Let the fault in: a zero page. */
static int stuck_page_release(struct stuck_page *sp)
{
	struct uffdio_zeropage zero = {
		.range = { .start = (uintptr_t)sp->area, .len = sp->size },
	};

	return ioctl(sp->uffd, UFFDIO_ZEROPAGE, &zero);
}

/* Free @sp once nobody waits for it: the fault is retried meanwhile. */
static void stuck_page_free(struct stuck_page *sp)
{
	close(sp->uffd);
	munmap(sp->area, sp->size);
}

/* A STOP of @fd goes through within 5 s; its thread is left joined. */
static int stop_goes_through(struct cmd_thread *stop, int fd)
{
	struct timespec until;

	stop->cmd = LTT_CMD_STOP;
	stop->fd = fd;
	if (pthread_create(&stop->thread, NULL, run_cmd, stop))
		return -1;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 5;
	return pthread_timedjoin_np(stop->thread, NULL, &until);
}

struct reply_thread {
	pthread_t thread;
	int fd;
	void *to;
	int ret;
	int err;
};

static void *status_into(void *arg)
{
	struct reply_thread *t = arg;
	struct ltt_status st;

	t->ret = ltt_status(t->fd, &st, t->to, 4);
	t->err = errno;
	return NULL;
}

static void *get_subbuf_into(void *arg)
{
	struct reply_thread *t = arg;

	t->ret = ioctl(t->fd, LTT_BUF_GET_SUBBUF, t->to);
	t->err = errno;
	return NULL;
}

/*
 * Make @rt's call, @fn, write its reply into a stuck page; while it waits
 * there, a STOP of @session_fd must go through within 5 s and fail with
 * @stop_err (0: succeed), and another session must record.  Then the
 * page is let in and @rt's call must succeed.
 */
static void stop_beside_a_stuck_reply(struct __test_metadata *_metadata,
				      void *(*fn)(void *),
				      struct reply_thread *rt,
				      int session_fd, int stop_err,
				      const char *what)
{
	struct cmd_thread stop = { 0 };
	struct stuck_page sp;
	int ret;

	if (!stuck_page_make(_metadata, &sp))
		return;
	rt->to = sp.area;
	rt->ret = -2;
	ASSERT_EQ(0, pthread_create(&rt->thread, NULL, fn, rt));
	ASSERT_EQ(0, stuck_page_wait(&sp)) TH_LOG("%s never faulted", what);
	/* The call is stuck in its fault now. */
	ret = stop_goes_through(&stop, session_fd);
	EXPECT_EQ(0, ret) TH_LOG("STOP of the session waits for the stuck %s",
				 what);
	if (!ret) {
		if (stop_err) {
			EXPECT_EQ(-1, stop.ret);
			EXPECT_EQ(stop_err, stop.err)
				TH_LOG("STOP: %s", strerror(stop.err));
		} else {
			EXPECT_EQ(0, stop.ret)
				TH_LOG("STOP: %s", strerror(stop.err));
		}
		EXPECT_EQ(0, can_record()) TH_LOG("%s", ltt_err);
	}
	ASSERT_EQ(0, stuck_page_release(&sp)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, pthread_join(rt->thread, NULL));
	if (ret)
		ASSERT_EQ(0, pthread_join(stop.thread, NULL));
	EXPECT_EQ(0, rt->ret) TH_LOG("%s: %s", what, strerror(rt->err));
	stuck_page_free(&sp);
}

/*
 * A process with thousands of open files is slow to dump, and the STOP
 * of the session that dumps it waits for the dump; other sessions'
 * commands do not.  dump_delay_ms makes each record of the dump cost a
 * millisecond at least.
 */
TEST(a_slow_state_dump_keeps_other_sessions_waiting_for_nothing)
{
	struct ltt_session s, other;
	__u64 all[LTT_EVENTS_MAX / 64];
	struct cmd_thread stop;
	int fds[800], n, i;
	__u64 t0, took;

	if (no_knobs())
		SKIP(return, KNOB("") ": %s (CONFIG_LTT_SELFTEST?)",
		     strerror(errno));
	for (n = 0; n < (int)ARRAY_SIZE(fds); n++) {
		fds[n] = dup(0);
		if (fds[n] < 0)
			break;
	}
	ASSERT_LT(400, n) TH_LOG("only %d fds: %s", n, strerror(errno));
	memset(all, 0xff, sizeof(all));
	ASSERT_EQ(0, ltt_session_open(&s, NULL)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_session_open(&other, NULL)) TH_LOG("%s", ltt_err);
	SET_KNOB("dump_delay_ms", "1");
	ltt_start_or_fail(_metadata, s.fd);
	stop = (struct cmd_thread){ .fd = s.fd, .cmd = LTT_CMD_STOP };
	ASSERT_EQ(0, pthread_create(&stop.thread, NULL, run_cmd, &stop));
	usleep(100 * 1000);
	/* Both take the lock that a STOP holds while it stops. */
	t0 = ltt_now_ns(CLOCK_MONOTONIC);
	EXPECT_EQ(0, ltt_set_mask(other.fd, all, LTT_EVENTS_MAX))
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, ltt_start(other.fd)) TH_LOG("%s", strerror(errno));
	took = ltt_now_ns(CLOCK_MONOTONIC) - t0;
	CLEAR_KNOB("dump_delay_ms");
	ASSERT_EQ(0, pthread_join(stop.thread, NULL));
	EXPECT_EQ(0, stop.ret) TH_LOG("STOP: %s", strerror(stop.err));
	ltt_session_close(&other);
	ltt_session_close(&s);
	for (i = 0; i < n; i++)
		close(fds[i]);
	/* The dump: n records of a millisecond at least. */
	EXPECT_GT(250000000ULL, took)
		TH_LOG("another session's SET_EVENTS, START: %llu ms beside a dump of %d files",
		       (unsigned long long)took / 1000000, n);
}

/*
 * STATUS into a page that faults in only when a userfaultfd handler says
 * so holds no lock meanwhile: a STOP of the same session (EINVAL: it
 * never started), and another session's START and STOP, go through
 * (they waited, with all tracing, and root's lttd sat in D state).
 */
TEST(status_into_a_stuck_page_blocks_nobody)
{
	struct reply_thread st = { 0 };
	struct ltt_session s;

	if (!ltt_setup(_metadata, &s, NULL, false))
		return;
	st.fd = s.fd;
	stop_beside_a_stuck_reply(_metadata, status_into, &st, s.fd, EINVAL,
				  "STATUS");
	ltt_session_close(&s);
}

/*
 * The same for a reader's GET_SUBBUF into a stuck page: the packet is
 * named after the session lock is dropped, so that the STOP of a
 * recording session and another session go through meanwhile; the
 * packet is the reader's once the page faults in.
 */
TEST(get_subbuf_into_a_stuck_page_blocks_nobody)
{
	struct reply_thread gs = { 0 };
	struct ltt_subbuf sub;
	struct ltt_session s;
	struct pollfd pfd;
	unsigned int i;

	if (!ltt_setup(_metadata, &s, NULL, true))
		return;
	ASSERT_EQ(0, ltt_start(s.fd)) TH_LOG("%s", strerror(errno));
	/* A packet of this CPU, closed by the flush timer. */
	for (i = 0; i < 100; i++)
		syscall(__NR_getppid);
	pfd = (struct pollfd){ .fd = -1, .events = POLLIN };
	for (i = 0; i < s.n_cpus && pfd.fd < 0; i++) {
		struct pollfd one = { .fd = s.rd[i].fd, .events = POLLIN };

		if (poll(&one, 1, 3000) == 1)
			pfd = one;
	}
	ASSERT_LE(0, pfd.fd) TH_LOG("no CPU's buffer had a packet in 3 s");
	gs.fd = pfd.fd;
	stop_beside_a_stuck_reply(_metadata, get_subbuf_into, &gs, s.fd, 0,
				  "GET_SUBBUF");
	/* The packet the faulting call named is held: put it back. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(pfd.fd, LTT_BUF_GET_SUBBUF, &sub));
	EXPECT_EQ(EBUSY, errno) TH_LOG("the first GET_SUBBUF holds its packet");
	EXPECT_EQ(0, ioctl(pfd.fd, LTT_BUF_PUT_SUBBUF));
	ltt_session_close(&s);
}

/*
 * The fast clock may step back (an NMI in a timekeeper update): the
 * writer never stamps a record before the previous one, so that the
 * stream stays in order for every reader.
 */
TEST(clock_stepping_back_keeps_records_in_order)
{
	struct ltt_session s;
	pid_t me = getpid();
	int cpu, i;

	if (no_knobs())
		SKIP(return, KNOB("") ": %s (CONFIG_LTT_SELFTEST?)",
		     strerror(errno));

	if (!ltt_setup(_metadata, &s, NULL, true))
		return;
	cpu = ltt_pin_to_buffer_cpu(&s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_set_pids(s.fd, &me, 1));
	ltt_start_or_fail(_metadata, s.fd);
	for (i = 0; i < 10; i++)
		syscall(SYS_getppid);
	/* The next clock read is 50 ms behind. */
	SET_KNOB("clock_back_ns", "50000000");
	for (i = 0; i < 10; i++)
		syscall(SYS_getppid);
	ltt_stop_or_fail(_metadata, s.fd);
	CLEAR_KNOB("clock_back_ns");
	EXPECT_EQ(0, ltt_read_stopped(&s, NULL)) TH_LOG("%s", ltt_err);
	EXPECT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	ltt_session_close(&s);
}

/*
 * A trap hook whose write faults (the ARM data abort on a buffer behind
 * a stale borrowed mm) writes again from the same context: the inner
 * write is dropped and counted lost, instead of recursing until the
 * stack overflows.  The recurse_trap knob makes every trap_entry write
 * raise a trap_entry.
 */
TEST(recursing_trap_hook_is_dropped_and_counted)
{
	const char *const traps[] = { "trap_entry", "trap_exit", NULL };
	struct ltt_session s;
	struct ltt_trace t = { 0 };
	struct ltt_reader *r;
	pid_t me = getpid();
	long page = sysconf(_SC_PAGESIZE);
	char *area;
	int cpu, i;

	if (no_knobs())
		SKIP(return, KNOB("") ": %s (CONFIG_LTT_SELFTEST?)",
		     strerror(errno));

	if (!ltt_setup(_metadata, &s, NULL, true))
		return;
	cpu = ltt_pin_to_buffer_cpu(&s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_set_pids(s.fd, &me, 1));
	ASSERT_EQ(0, ltt_set_events(&s, traps)) TH_LOG("%s", ltt_err);
	area = mmap(NULL, 8 * page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, area);
	ltt_start_or_fail(_metadata, s.fd);
	SET_KNOB("recurse_trap", "1");
	for (i = 0; i < 8; i++)
		area[i * page] = 1;
	CLEAR_KNOB("recurse_trap");
	ltt_stop_or_fail(_metadata, s.fd);
	ASSERT_EQ(0, ltt_read_stopped(&s, &t)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	EXPECT_LE((size_t)8, ltt_count(&s.reg, &t, "trap_entry", cpu))
		TH_LOG("the outer writes are recorded");
	r = ltt_reader_of(&s, cpu);
	ASSERT_NE(NULL, r);
	EXPECT_LE(8ULL, s.st[r - s.rd].lost) TH_LOG("each inner write is lost");
	ltt_trace_free(&t);
	munmap(area, 8 * page);
	ltt_session_close(&s);
}

/* Become nobody, dumpable as after an exec; the caller is a child. */
static void become_nobody(void)
{
	if (setgid(NOBODY) || setuid(NOBODY) ||
	    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)) {
		fprintf(stderr, "# setuid(nobody): %s\n", strerror(errno));
		_exit(99);
	}
}

#define SIDE_CALLS	50

/*
 * A user session and root's record side by side: root's START succeeds
 * beside it (it used to fail with EBUSY, locking root out), the user's
 * keeps recording, and each holds the user's calls made meanwhile.
 */
TEST(root_and_a_user_session_record_side_by_side)
{
	int go[2], done[2], status, i;
	struct ltt_trace t = { 0 };
	struct ltt_session s;
	pid_t child;
	char c = 0;

	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS, "1")) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		struct ltt_trace ut = { 0 };
		struct ltt_session us;
		struct ltt_status ust;

		become_nobody();
		if (ltt_session_open(&us, NULL) || ltt_open_readers(&us) ||
		    ltt_start(us.fd))
			_exit(10);
		if (write(go[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(11);
		for (i = 0; i < SIDE_CALLS; i++)
			syscall(__NR_getppid);
		if (ltt_session_status(&us, &ust))
			_exit(12);
		if (ust.state != LTT_STATE_RECORDING)
			_exit(13);
		if (ltt_stop(us.fd) || ltt_read_stopped(&us, &ut) ||
		    ltt_check_accounting(&us))
			_exit(14);
		if (ltt_getppids(&us.reg, &ut, getpid()) != SIDE_CALLS)
			_exit(15);
		ltt_session_close(&us);
		_exit(0);
	}
	ASSERT_EQ(1, read(go[0], &c, 1)) TH_LOG("the user session did not start");
	ASSERT_EQ(0, ltt_session_open(&s, NULL)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_open_readers(&s)) TH_LOG("%s", ltt_err);
	EXPECT_EQ(0, ltt_start(s.fd))
		TH_LOG("root's START beside a user session: %s",
		       strerror(errno));
	ASSERT_EQ(1, write(done[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ltt_stop_or_fail(_metadata, s.fd);
	ASSERT_EQ(0, ltt_read_stopped(&s, &t)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	EXPECT_EQ((size_t)SIDE_CALLS, ltt_getppids(&s.reg, &t, child))
		TH_LOG("the user's calls in root's session");
	ltt_trace_free(&t);
	ltt_session_close(&s);
	ltt_write_str(USER_SESSIONS, "0");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("10: no session, 12-14: it stopped, 15: calls missing");
}

/*
 * A user's set-uid programs are not the user's: a task with the user's
 * real uid but root's effective one, and one that became the user but is
 * not dumpable, are not recorded by the user's session, nor named by its
 * state dump (which runs in a kernel worker, whose credentials are
 * root's: it used to list every task of the system), nor named as the
 * target of a signal the user sends; the dump does not name root's
 * parent of the user's process either.
 */
static int setuid_child(int go, int done, int release, uid_t r, uid_t e,
			uid_t s, const char *path)
{
	char c;
	int fd;

	if (setresuid(r, e, s))
		return 20;
	if (read(go, &c, 1) != 1)
		return 21;
	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0)
		return 22;
	close(fd);
	unlink(path);
	if (write(done, &c, 1) != 1)
		return 23;
	/* Alive until the session stops: no other task gets this pid. */
	return read(release, &c, 1) == 1 ? 0 : 24;
}

TEST(user_session_does_not_record_setuid_tasks)
{
	static const char *const paths[] = {
		"/tmp/ltt-euid-root-secret", "/tmp/ltt-undumpable-secret",
	};
	int go[2], done[2], started[2], release[2], status, i;
	pid_t user, kids[2];
	char c = 0;

	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS, "1")) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	ASSERT_EQ(0, pipe(started));
	ASSERT_EQ(0, pipe(release));
	/* Real uid nobody, effective root; then all nobody, undumpable. */
	kids[0] = fork();
	if (!kids[0])
		_exit(setuid_child(go[0], done[1], release[0], NOBODY, 0, 0,
				   paths[0]));
	kids[1] = fork();
	if (!kids[1])
		_exit(setuid_child(go[0], done[1], release[0], NOBODY, NOBODY,
				   NOBODY, paths[1]));
	ASSERT_LT(0, kids[0]);
	ASSERT_LT(0, kids[1]);

	user = fork();
	ASSERT_LE(0, user);
	if (!user) {
		struct ltt_session us;
		struct ltt_trace t = { 0 };
		size_t j;

		become_nobody();
		if (ltt_session_open(&us, &ltt_create_big) ||
		    ltt_open_readers(&us) || ltt_start(us.fd))
			_exit(10);
		if (write(started[1], &c, 1) != 1)
			_exit(11);
		/* Both children open their secret files now. */
		if (read(done[0], &c, 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(12);
		/* Allowed (its real uid is ours), but not to be told. */
		if (kill(kids[0], SIGCONT))
			_exit(16);
		if (ltt_stop(us.fd) || ltt_read_stopped(&us, &t))
			_exit(13);
		/*
		 * Nothing of either; a scheduling change may name the
		 * undumpable one, whose uids are the user's (as /proc
		 * does), never the one with root's euid.
		 */
		for (j = 0; j < t.n; j++)
			if (strstr(t.ev[j].str, "-secret") ||
			    t.ev[j].pid == kids[0] ||
			    (t.ev[j].pid == kids[1] &&
			     (int)t.ev[j].id != us.reg.sched_change) ||
			    (ltt_ev_is(&us.reg, &t.ev[j], "statedump_process") &&
			     (ltt_ev_field(&us.reg, &t.ev[j], "pid") == kids[0] ||
			      ltt_ev_field(&us.reg, &t.ev[j], "pid") == kids[1])) ||
			    (ltt_ev_is(&us.reg, &t.ev[j], "process_signal") &&
			     ltt_ev_field(&us.reg, &t.ev[j], "pid") == kids[0])) {
				fprintf(stderr,
					"# %s of pid %d (field 0 %lld; kids %d %d, user %d): \"%s\"\n",
					us.reg.ev[t.ev[j].id].name, t.ev[j].pid,
					(long long)t.ev[j].f[0], kids[0], kids[1],
					getpid(), t.ev[j].str);
				_exit(14);
			}
		/* The signal is there, its target hidden. */
		for (j = 0, i = 0; j < t.n; j++)
			if (ltt_ev_is(&us.reg, &t.ev[j], "process_signal") &&
			    ltt_ev_field(&us.reg, &t.ev[j], "sig") == SIGCONT)
				i++;
		if (!i)
			_exit(17);
		/*
		 * The dump does name the user's own process, but not its
		 * parent, this test, which is root's.
		 */
		for (j = 0, i = 0; j < t.n; j++)
			if (ltt_ev_is(&us.reg, &t.ev[j], "statedump_process") &&
			    ltt_ev_field(&us.reg, &t.ev[j], "pid") == getpid()) {
				if (ltt_ev_field(&us.reg, &t.ev[j], "ppid"))
					_exit(18);
				i++;
			}
		_exit(i == 1 ? 0 : 15);
	}
	ASSERT_EQ(1, read(started[0], &c, 1)) TH_LOG("no user session");
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(user, waitpid(user, &status, 0));
	ASSERT_EQ(2, write(release[1], "xx", 2));
	for (i = 0; i < 2; i++) {
		int kid_status;

		ASSERT_EQ(kids[i], waitpid(kids[i], &kid_status, 0));
		EXPECT_EQ(0, WEXITSTATUS(kid_status)) TH_LOG("child %d", i);
	}
	ltt_write_str(USER_SESSIONS, "0");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("10-13, 16: session failed; 14: set-uid task seen; %s",
		       "15: own process not dumped; 17: no signal; 18: root's pid as ppid");
}

/* Root without capabilities has no user session: root's are everybody's. */
TEST(root_without_capabilities_has_no_user_session)
{
	int status;
	pid_t child;

	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS, "1")) TH_LOG("%s", ltt_err);
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		struct __user_cap_header_struct h = {
			.version = _LINUX_CAPABILITY_VERSION_3,
		};
		struct __user_cap_data_struct d[2] = { 0 };

		if (syscall(SYS_capset, &h, d))
			_exit(10);
		if (ltt(LTT_CMD_CREATE, &ltt_create_default,
			sizeof(ltt_create_default)) != -1)
			_exit(11);
		_exit(errno == EPERM ? 0 : 12);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ltt_write_str(USER_SESSIONS, "0");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("10: capset failed; 11: a session; 12: not EPERM");
}

/*
 * A system session seen from a pid namespace of its own would carry pids
 * and take a pid filter that its creator does not speak, and show tasks
 * it cannot see: root there gets none, not by CREATE nor by BOOT, while
 * root here still does.
 */
TEST(system_session_from_a_pid_namespace_is_refused)
{
	int status, fd;
	pid_t child;

	fd = ltt(LTT_CMD_CREATE, &ltt_create_default, sizeof(ltt_create_default));
	ASSERT_LE(0, fd) TH_LOG("root's session in the initial namespace: %m");
	close(fd);
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		pid_t inner;

		if (unshare(CLONE_NEWPID))
			_exit(10);
		inner = fork();
		if (inner < 0)
			_exit(11);
		if (!inner) {
			struct ltt_boot b = { 0 };

			if (getpid() != 1)
				_exit(12);
			if (ltt(LTT_CMD_CREATE, &ltt_create_default,
				sizeof(ltt_create_default)) != -1)
				_exit(13);
			if (errno != EPERM)
				_exit(14);
			if (ltt(LTT_CMD_BOOT, &b, sizeof(b)) != -1 || errno != EPERM)
				_exit(15);
			_exit(0);
		}
		if (waitpid(inner, &status, 0) != inner || !WIFEXITED(status))
			_exit(16);
		_exit(WEXITSTATUS(status));
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("10: unshare; 11: fork; 12: not pid 1; 13: a session; %s",
		       "14: CREATE not EPERM; 15: BOOT not EPERM");
}

/*
 * Nor does a user namespace give a system view: root there holds every
 * capability of its namespace and none of the initial one, and a user who
 * may have a user session outside may not have one inside, where its ids
 * are not those the records carry.
 */
TEST(user_namespace_gives_no_session)
{
	int status, i;

	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS, "1")) TH_LOG("%s", ltt_err);
	for (i = 0; i < 2; i++) {
		pid_t child = fork();

		ASSERT_LE(0, child);
		if (!child) {
			int fd;

			if (i) {
				become_nobody();
				/* The control: nobody's user session outside. */
				fd = ltt(LTT_CMD_CREATE, &ltt_create_default,
					 sizeof(ltt_create_default));
				if (fd < 0)
					_exit(10);
				close(fd);
			}
			if (unshare(CLONE_NEWUSER))
				_exit(11);
			if (ltt(LTT_CMD_CREATE, &ltt_create_default,
				sizeof(ltt_create_default)) != -1)
				_exit(12);
			_exit(errno == EPERM ? 0 : 13);
		}
		ASSERT_EQ(child, waitpid(child, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status))
			TH_LOG("%s: 10: no user session outside; 11: unshare; %s",
			       i ? "nobody" : "root", "12: a session; 13: not EPERM");
	}
	ltt_write_str(USER_SESSIONS, "0");
}

/* Are the probes attached, as the knob says?  1, 0, or -1. */
static int probes_attached(void)
{
	char v[8];

	if (ltt_read_str(KNOB("probes_attached"), v, sizeof(v)))
		return -1;
	return v[0] == 'Y';
}

/* Wait up to five seconds for the probes to be (or not be) attached. */
static int wait_probes(int want)
{
	int i, got = -1;

	for (i = 0; i < 50; i++) {
		got = probes_attached();
		if (got == want || got < 0)
			break;
		usleep(100 * 1000);
	}
	return got;
}

/*
 * A session that never starts patches no kernel text: two hundred made
 * and closed leave the probes detached.  They attach at the first START
 * and go a second after the last started session.
 */
TEST(probes_attach_only_for_a_session_that_starts)
{
	struct ltt_session s;
	int i, fd;

	if (no_knobs())
		SKIP(return, KNOB("") ": %s (CONFIG_LTT_SELFTEST?)",
		     strerror(errno));
	ASSERT_EQ(0, wait_probes(0)) TH_LOG("probes attached with no session");
	for (i = 0; i < 200; i++) {
		fd = ltt(LTT_CMD_CREATE, &ltt_create_default,
			 sizeof(ltt_create_default));
		ASSERT_LE(0, fd) TH_LOG("CREATE %d: %s", i, strerror(errno));
		ASSERT_EQ(0, probes_attached()) TH_LOG("session %d", i);
		close(fd);
	}
	if (!ltt_setup(_metadata, &s, NULL, true))
		return;
	EXPECT_EQ(0, probes_attached());
	ltt_start_or_fail(_metadata, s.fd);
	EXPECT_EQ(1, probes_attached()) TH_LOG("START attaches the probes");
	ltt_stop_or_fail(_metadata, s.fd);
	EXPECT_EQ(1, probes_attached()) TH_LOG("STOP leaves them");
	ltt_session_close(&s);
	EXPECT_EQ(0, wait_probes(0)) TH_LOG("the probes stay after the session");
}

/*
 * An unprivileged user holds at most kernel.ltt_user_sessions_max
 * sessions (ENOSPC), each of at most kernel.ltt_user_buffer_kb per CPU
 * (EPERM); a session closed makes room.
 */
TEST(user_sessions_are_capped)
{
	int status;
	pid_t child;

	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS, "1")) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS "_max", "3"))
		TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_write_str("/proc/sys/kernel/ltt_user_buffer_kb",
				   "1024")) TH_LOG("%s", ltt_err);
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		const struct ltt_create small = {
			.subbuf_size = 65536, .n_subbufs = 16,
		};
		const struct ltt_create large = {
			.subbuf_size = 65536, .n_subbufs = 32,
		};
		int fds[4], i;

		become_nobody();
		if (ltt(LTT_CMD_CREATE, &large, sizeof(large)) != -1 ||
		    errno != EPERM)
			_exit(10);
		for (i = 0; i < 3; i++) {
			fds[i] = ltt(LTT_CMD_CREATE, &small, sizeof(small));
			if (fds[i] < 0)
				_exit(11);
		}
		if (ltt(LTT_CMD_CREATE, &small, sizeof(small)) != -1 ||
		    errno != ENOSPC)
			_exit(12);
		close(fds[1]);
		fds[3] = ltt(LTT_CMD_CREATE, &small, sizeof(small));
		if (fds[3] < 0)
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ltt_write_str("/proc/sys/kernel/ltt_user_buffer_kb", "4096");
	ltt_write_str(USER_SESSIONS "_max", "4");
	ltt_write_str(USER_SESSIONS, "0");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("10: a large buffer; 11: three sessions; 12: a fourth; 13: room again");
}

/* As uid @uid: 0 when CREATE gives a user session, else errno (99: setup). */
static int create_as(uid_t uid)
{
	const struct ltt_create small = { .subbuf_size = 65536, .n_subbufs = 2 };
	int status, fd;
	pid_t child;

	child = fork();
	if (child < 0)
		return 99;
	if (!child) {
		if (setgid(uid) || setuid(uid))
			_exit(99);
		fd = ltt(LTT_CMD_CREATE, &small, sizeof(small));
		_exit(fd >= 0 ? 0 : errno & 0x7f);
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return 99;
	return WEXITSTATUS(status);
}

/*
 * All unprivileged users together hold at most
 * kernel.ltt_user_sessions_total sessions: one user's session held, a
 * second user's CREATE is ENOSPC; closed, it makes room again.
 */
TEST(user_sessions_are_capped_for_all_users_together)
{
	int ready[2], done[2], status;
	pid_t holder;
	char c = 0;

	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS, "1")) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS "_total", "1"))
		TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(done));
	holder = fork();
	ASSERT_LE(0, holder);
	if (!holder) {
		const struct ltt_create small = {
			.subbuf_size = 65536, .n_subbufs = 2,
		};
		int fd;

		become_nobody();
		fd = ltt(LTT_CMD_CREATE, &small, sizeof(small));
		c = fd >= 0 ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(98);
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	EXPECT_EQ('y', c) TH_LOG("nobody's first session refused");
	EXPECT_EQ(ENOSPC, create_as(NOBODY - 1))
		TH_LOG("a second user's session beyond the total");
	ASSERT_EQ(1, write(done[1], &c, 1));
	ASSERT_EQ(holder, waitpid(holder, &status, 0));
	EXPECT_EQ(0, create_as(NOBODY - 1)) TH_LOG("no room once it closed");
	ltt_write_str(USER_SESSIONS "_total", "64");
	ltt_write_str(USER_SESSIONS, "0");
}

/* A one-field custom type named @name: the event fd, or -1 and errno. */
static int make_type(const char *name)
{
	struct ltt_event_create c = {
		.n_fields = 1,
		.fields = { { .name = "a", .size = 4,
			      .type = LTT_FIELD_UNSIGNED } },
	};

	snprintf(c.name, sizeof(c.name), "%s", name);
	return ltt(LTT_CMD_EVENT_CREATE, &c, sizeof(c));
}

/* The owner EVENT_INFO gives for the type of id @id, or -1. */
static long type_owner(unsigned int id)
{
	struct ltt_event_info ei = { .id = id };

	if (ltt(LTT_CMD_EVENT_INFO, &ei, sizeof(ei)) || ei.id != id)
		return -1;
	return ei.owner;
}

/* The id of the event named @name, or -1. */
static long type_id(const char *name)
{
	struct ltt_event_info ei = { .id = 0 };

	while (!ltt(LTT_CMD_EVENT_INFO, &ei, sizeof(ei))) {
		if (!strcmp(ei.name, name))
			return ei.id;
		ei.id++;
	}
	return -1;
}

/*
 * Custom types of unprivileged users: 64 per uid, live or dead (with a
 * session open, a closed type stays, dead, and keeps its id), so one
 * user cannot take the ids of others (all users shared 256, and dead
 * types counted); a type is not shared with another uid (one could log
 * into, or keep alive, another user's type); and another user does not
 * find it in EVENT_INFO, its name nor its owner, while root does.
 */
TEST(user_custom_types_are_counted_per_uid)
{
	int go[2], done[2], status, status2, rootfd;
	struct ltt_session s;
	pid_t child, other;
	long id;
	char c = 0;

	if (ltt_session_open(&s, NULL) == LTT_UNAVAILABLE)
		SKIP(return, "%s", ltt_err);
	rootfd = make_type("harden_root_type");
	ASSERT_LE(0, rootfd) TH_LOG("%s", strerror(errno));
	id = type_id("harden_root_type");
	ASSERT_LE(0, id);
	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS, "1")) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		char name[32];
		int i, fd;

		become_nobody();
		if (make_type("harden_root_type") != -1 || errno != EEXIST)
			_exit(10);
		if (type_owner(id) != -1 || type_id("harden_root_type") != -1)
			_exit(11);
		/* Made and closed: dead while the session exists. */
		for (i = 0; i < 64; i++) {
			snprintf(name, sizeof(name), "harden_nobody_%d", i);
			fd = make_type(name);
			if (fd < 0)
				_exit(12);
			close(fd);
		}
		if (make_type("harden_nobody_64") != -1 || errno != ENOSPC)
			_exit(13);
		/* A dead type of one's own comes back, over the quota. */
		fd = make_type("harden_nobody_0");
		if (fd < 0)
			_exit(14);
		/* Held while another user tries it. */
		if (write(go[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(98);
		_exit(0);
	}
	/* Only the child holds go's end: its early exit ends the read. */
	close(go[1]);
	if (read(go[0], &c, 1) != 1) {
		ASSERT_EQ(child, waitpid(child, &status, 0));
		ltt_write_str(USER_SESSIONS, "0");
		ASSERT_EQ(0, WEXITSTATUS(status))
			TH_LOG("nobody's part: 10 shared, 11 listed, 12-14 quota");
	}
	other = fork();
	ASSERT_LE(0, other);
	if (!other) {
		if (setgid(NOBODY - 1) || setuid(NOBODY - 1))
			_exit(99);
		if (make_type("harden_nobody_0") != -1 || errno != EEXIST)
			_exit(15);
		if (make_type("harden_other_user") < 0)
			_exit(16);
		if (type_id("harden_nobody_0") != -1)
			_exit(17);
		_exit(0);
	}
	ASSERT_EQ(other, waitpid(other, &status2, 0));
	ASSERT_EQ(1, write(done[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ltt_write_str(USER_SESSIONS, "0");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("10: root's type shared, 11: root's type listed, 12-14: quota");
	EXPECT_EQ(0, WEXITSTATUS(status2))
		TH_LOG("15: nobody's shared, 16: quota, 17: nobody's listed");
	/* Root lists every user's types, dead ones while the session lives. */
	EXPECT_LE(0, type_id("harden_nobody_0"));
	EXPECT_LE(0, type_id("harden_other_user"));
	close(rootfd);
	ltt_session_close(&s);
}

/*
 * A type's owner is its creator's pid as the reader sees it: made by
 * pid 1 of a pid namespace of its own, it reads as 1 there and, to
 * root outside, as the pid the creator has in root's namespace.
 */
TEST(a_type_s_owner_is_its_pid_in_the_reader_s_namespace)
{
	int up[2], pidp[2], done[2], status, fd;
	struct ltt_session s;
	pid_t child, inner;
	long own = -1, id;
	char c = 0;

	if (ltt_session_open(&s, NULL) == LTT_UNAVAILABLE)
		SKIP(return, "%s", ltt_err);
	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(pidp));
	ASSERT_EQ(0, pipe(done));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		if (unshare(CLONE_NEWPID))
			_exit(99);
		inner = fork();
		if (inner < 0)
			_exit(99);
		if (!inner) {
			fd = make_type("harden_pidns_owner");
			own = fd < 0 ? -2 :
			      type_owner(type_id("harden_pidns_owner"));
			if (write(up[1], &own, sizeof(own)) != sizeof(own) ||
			    read(done[0], &c, 1) != 1)
				_exit(98);
			_exit(0);
		}
		if (write(pidp[1], &inner, sizeof(inner)) != sizeof(inner))
			kill(inner, SIGKILL);
		waitpid(inner, &status, 0);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 98);
	}
	/* The creator's pid here, and its own view once it made the type. */
	ASSERT_EQ(sizeof(inner), read(pidp[0], &inner, sizeof(inner)));
	ASSERT_EQ(sizeof(own), read(up[0], &own, sizeof(own)));
	id = type_id("harden_pidns_owner");
	EXPECT_LE(0, id);
	EXPECT_EQ(1, own) TH_LOG("the creator reads its type's owner as %ld", own);
	EXPECT_EQ(inner, type_owner(id))
		TH_LOG("root reads the owner of a type pid %d made", inner);
	ASSERT_EQ(1, write(done[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* Gone (its type dead, kept for the session): its pid is no one's. */
	EXPECT_EQ(0, type_owner(id)) TH_LOG("the owner of an exited creator");
	ltt_session_close(&s);
}

/*
 * A user session records only its own user's types: one that root made
 * from user space, logged through its fd by a process that has since
 * become nobody, stays out of nobody's session, whose EVENT_INFO does
 * not list it (the trace could not describe it).  Exit status 10-13
 * setup, 14 the record taken.
 */
TEST(a_user_session_records_no_other_user_s_type)
{
	struct ltt_event_log log = { .size = 4 };
	__u32 v = 7;
	int status;
	pid_t child;

	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS, "1")) TH_LOG("%s", ltt_err);
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		struct ltt_trace ut = { 0 };
		struct ltt_session us;
		size_t i, n = 0;
		long id;

		log.event_fd = make_type("harden_root_passed");
		log.data = (uintptr_t)&v;
		id = type_id("harden_root_passed");
		if (log.event_fd < 0 || id < 0)
			_exit(10);
		become_nobody();
		if (ltt_session_open(&us, NULL) || ltt_open_readers(&us) ||
		    ltt_start(us.fd))
			_exit(11);
		if (ltt(LTT_CMD_EVENT_LOG, &log, sizeof(log)))
			_exit(12);
		if (ltt_stop(us.fd) || ltt_read_stopped(&us, &ut))
			_exit(13);
		for (i = 0; i < ut.n; i++)
			n += ut.ev[i].id == id;
		_exit(n ? 14 : 0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ltt_write_str(USER_SESSIONS, "0");
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("10-12: setup, 13: the trace unreadable, 14: root's type recorded");
}

/* In a user namespace whose uids 0..@n-1 are @n subordinate kuids. */
static int subuid_types(int ready, int go, int n)
{
	char c, name[32];
	int k, j, made = 0, status, fd;
	pid_t pid;

	if (setgid(NOBODY - 2) || setuid(NOBODY - 2) || unshare(CLONE_NEWUSER))
		return -1;
	if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
		return -1;
	for (k = 0; k < n; k++) {
		pid = fork();
		if (!pid) {
			if (setresgid(k, k, k) || setresuid(k, k, k))
				_exit(0);
			for (j = 0; j < 64; j++) {
				snprintf(name, sizeof(name), "harden_ns_%d_%d", k, j);
				fd = make_type(name);
				if (fd < 0)
					break;
				close(fd);
			}
			_exit(j);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			return -1;
		made += WEXITSTATUS(status);
	}
	return made;
}

/*
 * A user given a range of subordinate uids (newuidmap; here root maps
 * them) makes custom types from each uid of a user namespace: they all
 * count against that user, whose 64 they use up, and never fill the
 * 1024 that all users share.
 */
TEST(user_namespace_uids_count_as_their_user)
{
	int ready[2], go[2], res[2], status, made = -1, fd;
	char path[64], map[] = "0 300000 16\n";
	struct ltt_session s;
	pid_t child, other;

	if (ltt_session_open(&s, NULL) == LTT_UNAVAILABLE)
		SKIP(return, "%s", ltt_err);
	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS, "1")) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(res));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		made = subuid_types(ready[1], go[0], 16);
		_exit(write(res[1], &made, sizeof(made)) != sizeof(made));
	}
	ASSERT_EQ(1, read(ready[0], path, 1));
	snprintf(path, sizeof(path), "/proc/%d/uid_map", child);
	EXPECT_EQ(0, ltt_write_str(path, map)) TH_LOG("%s", ltt_err);
	snprintf(path, sizeof(path), "/proc/%d/gid_map", child);
	EXPECT_EQ(0, ltt_write_str(path, map)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ((ssize_t)sizeof(made), read(res[0], &made, sizeof(made)));

	/* Another user still has room. */
	other = fork();
	ASSERT_LE(0, other);
	if (!other) {
		become_nobody();
		fd = make_type("harden_after_the_namespace");
		_exit(fd < 0 ? (errno == ENOSPC ? 1 : 2) : 0);
	}
	ASSERT_EQ(other, waitpid(other, &status, 0));
	ltt_write_str(USER_SESSIONS, "0");
	ltt_session_close(&s);
	EXPECT_EQ(64, made) TH_LOG("16 uids of one user made %d types", made);
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("another user's type: 1: ENOSPC, 2: another error");
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/*
 * The field "v" of the records of @t, all of event @id, sorted (the
 * logger may move between CPUs), into *@out (malloc'd): 0, or -1.
 */
static int sorted_values(const struct ltt_registry *reg,
			 const struct ltt_trace *t, long id, long **out)
{
	size_t i;

	*out = malloc((t->n + 1) * sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < t->n; i++) {
		if ((long)t->ev[i].id != id) {
			free(*out);
			return ltt_fail("record %zu: event %u", i, t->ev[i].id);
		}
		(*out)[i] = ltt_ev_field(reg, &t->ev[i], "v");
	}
	qsort(*out, t->n, sizeof(**out), cmp_long);
	return 0;
}

/*
 * A second session starts and stops forty times while one logger writes
 * custom events, one every 200 us, with a widened window between taking
 * a session and writing to it (log_delay_us): the session that records throughout
 * holds every event, in order; each round of the other holds whole
 * records of an unbroken run of them.
 */
TEST(start_and_stop_racing_a_writer_keep_every_session_whole)
{
	struct ltt_field_info f = {
		.name = "v", .type = LTT_FIELD_UNSIGNED, .size = 4,
	};
	struct ltt_event_create ec = { .n_fields = 1 };
	const char *const only[] = { ec.name, NULL };
	struct ltt_trace ta = { 0 }, tb = { 0 };
	struct logger l = { .pause_us = 200 };
	struct ltt_session a, b;
	long id, got = 0, *v;
	int round;
	size_t i;

	if (no_knobs())
		SKIP(return, KNOB("") ": %s (CONFIG_LTT_SELFTEST?)",
		     strerror(errno));
	if (!ltt_setup(_metadata, &a, &ltt_create_big, true))
		return;
	if (!ltt_setup(_metadata, &b, NULL, true))
		return;
	snprintf(ec.name, sizeof(ec.name), "ltt_test_start_race");
	ec.fields[0] = f;
	l.event_fd = ltt(LTT_CMD_EVENT_CREATE, &ec, sizeof(ec));
	ASSERT_LE(0, l.event_fd) TH_LOG("EVENT_CREATE: %s", strerror(errno));
	ltt_registry_free(&a.reg);
	ASSERT_EQ(0, ltt_registry_load(&a.reg)) TH_LOG("%s", ltt_err);
	ltt_registry_free(&b.reg);
	ASSERT_EQ(0, ltt_registry_load(&b.reg)) TH_LOG("%s", ltt_err);
	id = ltt_event_id(&a.reg, ec.name);
	ASSERT_LE(0, id);
	ASSERT_EQ(0, ltt_set_events(&a, only)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_set_events(&b, only)) TH_LOG("%s", ltt_err);
	SET_KNOB("log_delay_us", "300");
	ltt_start_or_fail(_metadata, a.fd);
	loggers_stop = 0;
	ASSERT_EQ(0, pthread_create(&l.thread, NULL, log_loop, &l));
	for (round = 0; round < 40; round++) {
		ltt_start_or_fail(_metadata, b.fd);
		usleep(3000);
		ltt_stop_and_read(_metadata, &b, &tb);
		ASSERT_EQ(0, sorted_values(&b.reg, &tb, id, &v));
		for (i = 1; i < tb.n; i++)
			EXPECT_EQ(v[i - 1] + 1, v[i])
				TH_LOG("round %d: %ld after %ld", round, v[i],
				       v[i - 1]);
		free(v);
		got += tb.n;
		ltt_trace_free(&tb);
	}
	__atomic_store_n(&loggers_stop, 1, __ATOMIC_RELAXED);
	ASSERT_EQ(0, pthread_join(l.thread, NULL));
	CLEAR_KNOB("log_delay_us");
	EXPECT_EQ(0, l.err) TH_LOG("EVENT_LOG: %s", strerror(l.err));
	ltt_stop_and_read(_metadata, &a, &ta);
	ASSERT_EQ((size_t)l.logged, ta.n)
		TH_LOG("the session recording throughout: every event logged");
	ASSERT_EQ(0, sorted_values(&a.reg, &ta, id, &v));
	for (i = 0; i < ta.n; i++)
		if (v[i] != (long)i + 1) {
			EXPECT_EQ((long)i + 1, v[i]) TH_LOG("an event missing");
			break;
		}
	free(v);
	EXPECT_LT(0, got) TH_LOG("the restarted session never saw an event");
	TH_LOG("%ld events logged, %ld in 40 rounds of the second session",
	       l.logged, got);
	ltt_trace_free(&ta);
	close(l.event_fd);
	ltt_session_close(&a);
	ltt_session_close(&b);
}

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define FAULTS		"/sys/kernel/debug/"

/* Have the next @n-th allocation of this task fail (0: none). */
static int fail_nth(int fd, unsigned int n)
{
	char b[16];
	int len = snprintf(b, sizeof(b), "%u", n);

	return pwrite(fd, b, len, 0) == len ? 0 : -1;
}

/* Allocations left before the armed one: 0 once it failed. */
static long fail_nth_left(int fd)
{
	char b[16] = "";

	if (pread(fd, b, sizeof(b) - 1, 0) <= 0)
		return -1;
	return strtol(b, NULL, 10);
}

enum fault_step { FAULT_CREATE, FAULT_BUFFER_FD, FAULT_START };

/*
 * Run @step with its @n-th allocation failing.  Returns 1 when the
 * failure fired and the call failed with ENOMEM, 2 when it fired and the
 * call did without (a fallback: kvmalloc() tries vmalloc()), 0 when no
 * allocation was left to fail (the call succeeded), -1 and a message
 * when the call failed otherwise.
 */
static int fault_at(int nth, enum fault_step step, unsigned int n)
{
	static const char *const names[] = { "CREATE", "BUFFER_FD", "START" };
	int fd = -1, ret, err;
	long left;

	if (step != FAULT_CREATE) {
		fd = ltt(LTT_CMD_CREATE, &ltt_create_default,
			 sizeof(ltt_create_default));
		if (fd < 0)
			return ltt_fail("CREATE: %s", strerror(errno));
	}
	if (fail_nth(nth, n))
		return ltt_fail("%s: %s", FAIL_NTH, strerror(errno));
	if (step == FAULT_CREATE)
		ret = ltt(LTT_CMD_CREATE, &ltt_create_default,
			  sizeof(ltt_create_default));
	else if (step == FAULT_BUFFER_FD)
		ret = ltt_buffer_fd(fd, 0);
	else
		ret = ltt_start(fd);
	err = errno;
	left = fail_nth_left(nth);
	fail_nth(nth, 0);
	if (ret >= 0 && step != FAULT_START)
		close(ret);
	if (fd >= 0)
		close(fd);
	if (ret < 0 && (left || err != ENOMEM))
		return ltt_fail("%s, allocation %u failing: %s, %ld left",
				names[step], n, strerror(err), left);
	if (left)
		return 0;
	return ret < 0 ? 1 : 2;
}

/*
 * Every allocation that CREATE, BUFFER_FD and START make, failed in turn
 * (the fault injection that syzkaller uses): each time the call fails
 * with ENOMEM and leaves nothing half-made (KASAN, lockdep, kmemleak and
 * the timer checks watch the error paths), until the call that needs no
 * more allocations than were let through succeeds; then a recording
 * still records.
 */
TEST(every_allocation_failure_is_a_clean_enomem)
{
	static const char *const knobs[] = {
		FAULTS "failslab/ignore-gfp-wait",
		FAULTS "fail_page_alloc/ignore-gfp-wait",
		FAULTS "fail_page_alloc/ignore-gfp-highmem",
		FAULTS "fail_page_alloc/min-order",
		FAULTS "failslab/verbose",
		FAULTS "fail_page_alloc/verbose",
	};
	unsigned int i, n, failures[3] = { 0 }, fallbacks[3] = { 0 };
	enum fault_step step;
	int nth, ret = 0;

	nth = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	if (nth < 0 || access(knobs[0], W_OK))
		SKIP(return, "no fault injection (CONFIG_FAULT_INJECTION, %s)",
		     "FAILSLAB, FAIL_PAGE_ALLOC, FAULT_INJECTION_DEBUG_FS");
	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		ASSERT_EQ(0, ltt_write_str(knobs[i], "0")) TH_LOG("%s", ltt_err);
	for (step = FAULT_CREATE; step <= FAULT_START; step++) {
		for (n = 1; n < 10000; n++) {
			ret = fault_at(nth, step, n);
			if (ret <= 0)
				break;
			if (ret == 1)
				failures[step]++;
			else
				fallbacks[step]++;
		}
		EXPECT_EQ(0, ret) TH_LOG("%s", ltt_err);
		EXPECT_LT(0U, failures[step]) TH_LOG("no allocation failed");
	}
	close(nth);
	/* Allocations failed in turn: ENOMEM + done without. */
	TH_LOG("CREATE %u + %u, BUFFER_FD %u + %u, START %u + %u",
	       failures[0], fallbacks[0], failures[1], fallbacks[1],
	       failures[2], fallbacks[2]);
	/* The probes of the failed STARTs leave a second after. */
	sleep(2);
	EXPECT_EQ(0, ltt_check_recording()) TH_LOG("%s", ltt_err);
}

/*
 * An interrupt is nobody's: a user session records nothing raised in one,
 * whoever's task it interrupts.  The irq_repeat knob logs the user's
 * custom event once more from a hard interrupt on the CPU the user's
 * task logged it on, that task current: root's session records both,
 * the user's only the one its task made.
 */
TEST(user_session_records_nothing_from_an_interrupt)
{
	int go[2], done[2], status;
	struct ltt_trace t = { 0 };
	struct ltt_session s;
	pid_t child;
	char c = 0;

	if (no_knobs())
		SKIP(return, "no " KNOB("") " (CONFIG_LTT_SELFTEST)");
	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS, "1")) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		struct ltt_trace ut = { 0 };
		struct ltt_session us;
		__u32 v = 7;
		struct ltt_event_log log = {
			.size = sizeof(v),
			.data = (uintptr_t)&v,
		};

		become_nobody();
		log.event_fd = make_type("ltt_test_irq");
		if (log.event_fd < 0)
			_exit(10);
		if (ltt_session_open(&us, NULL) || ltt_open_readers(&us) ||
		    ltt_start(us.fd))
			_exit(11);
		if (write(go[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(12);
		if (ltt(LTT_CMD_EVENT_LOG, &log, sizeof(log)))
			_exit(13);
		if (ltt_stop(us.fd) || ltt_read_stopped(&us, &ut) ||
		    ltt_check_accounting(&us))
			_exit(14);
		if (ltt_count(&us.reg, &ut, "ltt_test_irq", -1) != 1)
			_exit(15);
		_exit(0);
	}
	ASSERT_EQ(1, read(go[0], &c, 1)) TH_LOG("the user session did not start");
	ASSERT_EQ(0, ltt_session_open(&s, NULL)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_open_readers(&s)) TH_LOG("%s", ltt_err);
	ltt_start_or_fail(_metadata, s.fd);
	SET_KNOB("irq_repeat", "1");
	ASSERT_EQ(1, write(done[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	CLEAR_KNOB("irq_repeat");
	ltt_stop_or_fail(_metadata, s.fd);
	ASSERT_EQ(0, ltt_read_stopped(&s, &t)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	EXPECT_EQ(2U, ltt_count(&s.reg, &t, "ltt_test_irq", -1))
		TH_LOG("root's session: the user's event and the interrupt's");
	ltt_trace_free(&t);
	ltt_session_close(&s);
	ltt_write_str(USER_SESSIONS, "0");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("10-14: the user's type, session or log; %s",
		       "15: it recorded the interrupt's event");
}

TEST_HARNESS_MAIN
