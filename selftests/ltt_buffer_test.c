// SPDX-License-Identifier: GPL-2.0
/*
 * The buffers under pressure: exact accounting when the reader stalls, a
 * flight recorder that keeps the newest packets, and a hundred start/stop
 * rounds with every CPU busy.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ltt_util.h"

/* The smallest buffers: two 4 KiB sub-buffers per CPU. */
static const struct ltt_create discard_tiny = {
	.subbuf_size = LTT_SUBBUF_MIN,
	.n_subbufs = 2,
	.mode = LTT_MODE_DISCARD,
};

static const struct ltt_create overwrite_tiny = {
	.subbuf_size = LTT_SUBBUF_MIN,
	.n_subbufs = 2,
	.mode = LTT_MODE_OVERWRITE,
};

static const struct ltt_create stress_buffers = {
	.subbuf_size = 16384,
	.n_subbufs = 4,
	.mode = LTT_MODE_DISCARD,
};

#define START()		ltt_start_or_fail(_metadata, self->s.fd)
#define STOP()		ltt_stop_or_fail(_metadata, self->s.fd)

/* Every packet a reader took is the next one: none is skipped. */
#define EXPECT_CONSECUTIVE_PACKETS(reader) do {				\
	const struct ltt_reader *__r = (reader);			\
									\
	EXPECT_EQ(__r->packets, __r->last_seq - __r->first_seq + 1)	\
		TH_LOG("cpu %u: %llu packets, seq %llu to %llu",	\
		       __r->cpu, (unsigned long long)__r->packets,	\
		       (unsigned long long)__r->first_seq,		\
		       (unsigned long long)__r->last_seq);		\
} while (0)

/* For qsort(): ascending u64s. */
static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

FIXTURE(discard) {
	struct ltt_session s;
};

FIXTURE_SETUP(discard)
{
	ltt_setup(_metadata, &self->s, &discard_tiny, true);
}

FIXTURE_TEARDOWN(discard)
{
	ltt_session_close(&self->s);
}

/* A stalled reader: every CPU's lost events are counted, exactly. */
TEST_F(discard, full_buffer_accounts_every_lost_event)
{
	pid_t me = getpid();
	unsigned int i;
	long k;

	ASSERT_EQ(0, ltt_set_pids(self->s.fd, &me, 1));
	START();
	/* Nobody reads: 3000 calls are 6000 records, far over 8 KiB. */
	for (i = 0; i < self->s.n_cpus; i++) {
		ASSERT_EQ(0, ltt_pin_to_cpu(self->s.rd[i].cpu))
			TH_LOG("cpu %u: %s", self->s.rd[i].cpu,
			       strerror(errno));
		for (k = 0; k < 3000; k++)
			syscall(__NR_getppid);
	}
	STOP();
	ASSERT_EQ(0, ltt_read_stopped(&self->s, NULL)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_check_accounting(&self->s)) TH_LOG("%s", ltt_err);

	for (i = 0; i < self->s.n_cpus; i++) {
		const struct ltt_cpu_status *c = &self->s.st[i];
		const struct ltt_reader *r = ltt_reader_of(&self->s, c->cpu);

		EXPECT_LT(0ULL, c->lost)
			TH_LOG("cpu %u lost nothing: the buffer never filled",
			       c->cpu);
		EXPECT_LT(0ULL, r->packets) TH_LOG("cpu %u", c->cpu);
		EXPECT_EQ(c->lost, r->discarded)
			TH_LOG("cpu %u: events_discarded of the last packet (%llu)",
			       c->cpu, (unsigned long long)r->last_seq);
		EXPECT_CONSECUTIVE_PACKETS(r);
	}
}

FIXTURE(overwrite) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	int marker_fd;
};

FIXTURE_SETUP(overwrite)
{
	int cpu;

	self->marker_fd = -1;
	if (!ltt_setup(_metadata, &self->s, &overwrite_tiny, true))
		return;
	cpu = ltt_pin_to_buffer_cpu(&self->s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	self->cpu = cpu;

	/* lseek() on it returns any offset: markers with a number. */
	self->marker_fd = memfd_create("ltt_buffer_test", 0);
	if (self->marker_fd < 0)
		self->marker_fd = open("/tmp", O_TMPFILE | O_RDWR, 0600);
	ASSERT_LE(0, self->marker_fd) TH_LOG("no memfd, no /tmp: %s",
					     strerror(errno));
}

FIXTURE_TEARDOWN(overwrite)
{
	if (self->marker_fd >= 0)
		close(self->marker_fd);
	ltt_session_close(&self->s);
}

/* Markers @from to @to - 1: a getppid(), then an lseek() that returns it. */
static void make_markers(int fd, long from, long to)
{
	for (; from < to; from++) {
		syscall(__NR_getppid);
		syscall(__NR_lseek, fd, from, SEEK_SET);
	}
}

/*
 * The markers that reached the reader, in order, into @m (room for @max).
 * Returns how many, or -1.
 */
static long read_markers(struct ltt_session *s, unsigned int cpu,
			 __s64 *m, size_t max)
{
	struct ltt_trace t = { 0 };
	long n;

	if (ltt_read_stopped(s, &t))
		return -1;
	n = ltt_syscall_returns(&s->reg, &t, cpu, __NR_lseek, m, max);
	ltt_trace_free(&t);
	return n;
}

/* Markers that do not follow each other, the first of them in *@at. */
static long gaps(const __s64 *m, long n, long *at)
{
	long i, bad = 0;

	for (i = 1; i < n; i++)
		if (m[i] != m[i - 1] + 1 && !bad++)
			*at = i;
	return bad;
}

/* A snapshot holds the newest events: the last markers, none of the first. */
TEST_F(overwrite, snapshot_keeps_the_newest_events)
{
	enum { M = 2000 };
	const char *const syscalls[] = { "syscall_entry", "syscall_exit", NULL };
	struct ltt_reader *r = ltt_reader_of(&self->s, self->cpu);
	struct ltt_status st;
	static __s64 m[M];
	pid_t me = getpid();
	long n, at = 0;

	ASSERT_EQ(0, ltt_set_pids(self->s.fd, &me, 1));
	ASSERT_EQ(0, ltt_set_events(&self->s, syscalls)) TH_LOG("%s", ltt_err);
	START();
	make_markers(self->marker_fd, 0, M);
	ASSERT_EQ(0, ltt_snapshot(self->s.fd))
		TH_LOG("SNAPSHOT: %s", strerror(errno));
	ASSERT_EQ(0, ltt_session_status(&self->s, &st)) TH_LOG("%s", ltt_err);
	EXPECT_EQ((__u32)LTT_STATE_STOPPED, st.state)
		TH_LOG("SNAPSHOT stops the session");

	n = read_markers(&self->s, self->cpu, m, M);
	ASSERT_LT(0, n) TH_LOG("no marker in the snapshot: %s", ltt_err);
	EXPECT_EQ(M - 1, m[n - 1]) TH_LOG("the newest marker is missing");
	EXPECT_LT(0, m[0]) TH_LOG("the oldest marker survived a full ring");
	EXPECT_EQ(0, gaps(m, n, &at))
		TH_LOG("marker %lld then %lld", (long long)m[at - 1],
		       (long long)m[at]);

	EXPECT_LT(0ULL, r->first_seq) TH_LOG("packet 0 was not overwritten");
	EXPECT_GE(self->s.n_subbufs, r->packets);
	EXPECT_CONSECUTIVE_PACKETS(r);
	ASSERT_EQ(0, ltt_check_accounting(&self->s)) TH_LOG("%s", ltt_err);
	/* The status entries are in the readers' order. */
	EXPECT_LT(0ULL, self->s.st[r - self->s.rd].lost)
		TH_LOG("nothing was overwritten");
}

/*
 * A flight recorder keeps what its buffers hold, however long ago: a
 * quiet spell of many flush periods, each with an event or two of
 * another process, does not push old events out with small packets.
 * (The flush timer used to close a packet every period in overwrite mode
 * too, so that the ring kept as many periods as it has sub-buffers.)
 */
TEST(flight_recorder_keeps_events_across_quiet_flush_periods)
{
	static const struct ltt_create quick = {
		.subbuf_size = LTT_SUBBUF_MIN,
		.n_subbufs = 4,
		.mode = LTT_MODE_OVERWRITE,
		.flush_ms = 10,
	};
	const char *const syscalls[] = { "syscall_entry", "syscall_exit", NULL };
	enum { M = 20 };
	struct ltt_session s;
	struct ltt_reader *r;
	__s64 m[M];
	pid_t ticker;
	long n;
	int cpu, fd, status;

	if (!ltt_setup(_metadata, &s, &quick, true))
		return;
	cpu = ltt_pin_to_buffer_cpu(&s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	fd = memfd_create("ltt_buffer_test", 0);
	ASSERT_LE(0, fd) TH_LOG("memfd: %s", strerror(errno));
	ASSERT_EQ(0, ltt_set_events(&s, syscalls)) TH_LOG("%s", ltt_err);
	/* A process on this CPU that makes a call every 5 ms. */
	ticker = fork();
	ASSERT_LE(0, ticker);
	if (!ticker) {
		for (;;)
			usleep(5000);
	}
	ltt_start_or_fail(_metadata, s.fd);
	make_markers(fd, 0, M / 2);
	/* Thirty flush periods with little in them. */
	usleep(300 * 1000);
	make_markers(fd, M / 2, M);
	ASSERT_EQ(0, ltt_snapshot(s.fd)) TH_LOG("%s", strerror(errno));
	kill(ticker, SIGKILL);
	waitpid(ticker, &status, 0);
	n = read_markers(&s, cpu, m, M);
	ASSERT_EQ(M, n) TH_LOG("%ld of %d markers in the snapshot: %s", n, M,
			       ltt_err);
	EXPECT_EQ(0, m[0]) TH_LOG("the first marker is gone");
	EXPECT_EQ(M - 1, m[M - 1]);
	ASSERT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	r = ltt_reader_of(&s, cpu);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(0ULL, s.st[r - s.rd].lost)
		TH_LOG("events lost in a ring that held them all");
	close(fd);
	ltt_session_close(&s);
}

/*
 * Record times are CLOCK_MONOTONIC: every getppid() entry falls between
 * the clock_gettime() readings around its call, on each CPU in turn, over
 * three seconds (so across the trace clock's new anchors, taken every
 * second where it reads the TSC).  A trace clock off by a rate, an
 * offset or an anchor shows here.
 */
TEST(record_times_are_clock_monotonic)
{
	static const struct ltt_create quiet = {
		.subbuf_size = 65536,
		.n_subbufs = 4,
		.mode = LTT_MODE_DISCARD,
		.flush_ms = 10000,
	};
	const char *const entry[] = { "syscall_entry", NULL };
	/* Far less than a wrong rate or anchor makes in 10 ms. */
	const __u64 slack = 20000;
	enum { N = 300 };
	__u64 before[N], after[N], ts[N];
	struct ltt_trace t = { 0 };
	struct ltt_session s;
	pid_t me = getpid();
	size_t i, n = 0;

	if (!ltt_setup(_metadata, &s, &quiet, true))
		return;
	ASSERT_EQ(0, ltt_set_pids(s.fd, &me, 1));
	ASSERT_EQ(0, ltt_set_events(&s, entry)) TH_LOG("%s", ltt_err);
	ltt_start_or_fail(_metadata, s.fd);
	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, ltt_pin_to_cpu(s.rd[i % s.n_cpus].cpu));
		before[i] = ltt_now_ns(CLOCK_MONOTONIC);
		syscall(__NR_getppid);
		after[i] = ltt_now_ns(CLOCK_MONOTONIC);
		usleep(10000);
	}
	ltt_stop_or_fail(_metadata, s.fd);
	ASSERT_EQ(0, ltt_read_stopped(&s, &t)) TH_LOG("%s", ltt_err);
	for (i = 0; i < t.n; i++) {
		if (ltt_ev_field(&s.reg, &t.ev[i], "id") != __NR_getppid)
			continue;
		ASSERT_GT(N, n) TH_LOG("more getppid() entries than calls");
		ts[n++] = t.ev[i].ts;
	}
	ASSERT_EQ(N, n) TH_LOG("getppid() entries recorded");
	/* Per CPU in time order; the calls are 10 ms apart. */
	qsort(ts, N, sizeof(ts[0]), cmp_u64);
	for (i = 0; i < N; i++) {
		EXPECT_LE(before[i], ts[i] + slack)
			TH_LOG("call %zu: recorded %lld ns before CLOCK_MONOTONIC's reading",
			       i, (long long)(before[i] - ts[i]));
		EXPECT_GE(after[i] + slack, ts[i])
			TH_LOG("call %zu: recorded %lld ns after CLOCK_MONOTONIC's reading",
			       i, (long long)(ts[i] - after[i]));
	}
	ltt_trace_free(&t);
	ltt_session_close(&s);
}

/* A flight recorder cannot be read while it records: EBUSY. */
TEST_F(overwrite, get_subbuf_while_recording_fails_ebusy)
{
	struct ltt_subbuf sb;

	START();
	make_markers(self->marker_fd, 0, 1000);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->s.rd[0].fd, LTT_BUF_GET_SUBBUF, &sb));
	EXPECT_EQ(EBUSY, errno);
	STOP();
}

/* START after a snapshot resumes: the next snapshot has only new events. */
TEST_F(overwrite, start_after_snapshot_resumes_recording)
{
	enum { M = 2000 };
	static __s64 m[M];
	pid_t me = getpid();
	long n, at = 0;

	ASSERT_EQ(0, ltt_set_pids(self->s.fd, &me, 1));
	START();
	make_markers(self->marker_fd, 0, M);
	ASSERT_EQ(0, ltt_snapshot(self->s.fd)) TH_LOG("%s", strerror(errno));
	ASSERT_LE(0, read_markers(&self->s, self->cpu, m, M))
		TH_LOG("%s", ltt_err);

	START();
	make_markers(self->marker_fd, M, 2 * M);
	ASSERT_EQ(0, ltt_snapshot(self->s.fd)) TH_LOG("%s", strerror(errno));
	n = read_markers(&self->s, self->cpu, m, M);
	ASSERT_LT(0, n) TH_LOG("no marker in the second snapshot: %s",
			       ltt_err);
	EXPECT_EQ(2 * M - 1, m[n - 1]) TH_LOG("the newest marker is missing");
	EXPECT_LE(M, m[0]) TH_LOG("the first snapshot's events came back");
	EXPECT_EQ(0, gaps(m, n, &at))
		TH_LOG("marker %lld then %lld", (long long)m[at - 1],
		       (long long)m[at]);
	ASSERT_EQ(0, ltt_check_accounting(&self->s)) TH_LOG("%s", ltt_err);
}

FIXTURE(stress) {
	struct ltt_session s;
};

FIXTURE_SETUP(stress)
{
	ltt_setup(_metadata, &self->s, &stress_buffers, true);
}

FIXTURE_TEARDOWN(stress)
{
	ltt_session_close(&self->s);
}

struct worker {
	pthread_t thread;
	unsigned int cpu;
	long calls;
	int err;
};

static int workers_stop;

/* Make system calls on one CPU until told to stop. */
static void *worker(void *arg)
{
	struct worker *w = arg;

	if (ltt_pin_to_cpu(w->cpu)) {
		w->err = errno;
		return NULL;
	}
	while (!__atomic_load_n(&workers_stop, __ATOMIC_RELAXED)) {
		syscall(__NR_getppid);
		w->calls++;
	}
	return NULL;
}

/*
 * A hundred rounds of START, read while recording, STOP, read to the end,
 * while a thread on every CPU makes system calls: every call succeeds,
 * every record decodes and the accounting holds after each round.
 */
TEST_F_TIMEOUT(stress, start_stop_100_rounds_under_load_decodes_cleanly, 240)
{
	const unsigned int n = self->s.n_cpus;
	struct worker *w = calloc(n, sizeof(*w));
	__u64 records = 0, until;
	unsigned int i;
	int round;

	ASSERT_NE(NULL, w);
	for (i = 0; i < n; i++) {
		w[i].cpu = self->s.rd[i].cpu;
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, worker, &w[i]));
	}

	for (round = 0; round < 100; round++) {
		START();
		until = ltt_now_ns(CLOCK_MONOTONIC) + 5000000;
		do {
			ASSERT_EQ(0, ltt_read_ready(&self->s, NULL))
				TH_LOG("round %d, recording: %s", round,
				       ltt_err);
			usleep(500);
		} while (ltt_now_ns(CLOCK_MONOTONIC) < until);
		STOP();
		ASSERT_EQ(0, ltt_read_stopped(&self->s, NULL))
			TH_LOG("round %d, stopped: %s", round, ltt_err);
		ASSERT_EQ(0, ltt_check_accounting(&self->s))
			TH_LOG("round %d: %s", round, ltt_err);
	}

	__atomic_store_n(&workers_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, pthread_join(w[i].thread, NULL));
		EXPECT_EQ(0, w[i].err) TH_LOG("worker on cpu %u: %s",
					      w[i].cpu, strerror(w[i].err));
		EXPECT_LT(0, w[i].calls) TH_LOG("cpu %u", w[i].cpu);
		EXPECT_CONSECUTIVE_PACKETS(&self->s.rd[i]);
		records += self->s.rd[i].records;
	}
	EXPECT_LT(0ULL, records) TH_LOG("nothing was recorded");
	TH_LOG("%llu records decoded in 100 rounds",
	       (unsigned long long)records);
	free(w);
}

/* ---- Snapshots of a flight recorder that goes on recording ---- */

static const struct ltt_create overwrite_small = {
	.subbuf_size = LTT_SUBBUF_MIN,
	.n_subbufs = 4,
	.mode = LTT_MODE_OVERWRITE,
};

#define SNAPSHOT_KNOB	"/sys/kernel/debug/ltt/snapshot_delay_ms"

/*
 * LTT_BUF_SNAPSHOT of @cpu's buffer, then LTT_BUF_SNAPSHOT_READ of each
 * packet it names, decoded into @t; *@stale counts the packets the
 * recorder overwrote before they were copied whole.  Returns how many
 * packets were read, or -1.
 */
static long snapshot_read(struct ltt_session *s, unsigned int cpu,
			  struct ltt_trace *t, long *stale)
{
	struct ltt_reader *r = ltt_reader_of(s, cpu), copy;
	struct ltt_snapshot_read req;
	struct ltt_snapshot snap;
	struct ltt_subbuf sb;
	unsigned char *buf;
	long n = 0, tries;
	__u64 pos;
	int ret;

	*stale = 0;
	if (!r)
		return ltt_fail("no reader of cpu %u", cpu);
	if (ioctl(r->fd, LTT_BUF_SNAPSHOT, &snap))
		return ltt_fail("LTT_BUF_SNAPSHOT: %s", strerror(errno));
	if (snap.begin % s->subbuf_size || snap.end % s->subbuf_size ||
	    snap.end < snap.begin ||
	    snap.end - snap.begin > (__u64)s->subbuf_size * s->n_subbufs)
		return ltt_fail("snapshot from %llu to %llu in a ring of %u x %u",
				(unsigned long long)snap.begin,
				(unsigned long long)snap.end, s->n_subbufs,
				s->subbuf_size);
	buf = malloc(s->subbuf_size);
	if (!buf)
		return ltt_fail("out of memory");
	copy = *r;
	copy.map = buf;
	copy.map_size = s->subbuf_size;
	copy.packets = 0;
	for (pos = snap.begin; pos < snap.end; pos += s->subbuf_size) {
		req = (struct ltt_snapshot_read){
			.pos = pos,
			.buf = (uintptr_t)buf,
		};
		/* A writer the switch interrupted may still commit. */
		for (tries = 0; tries < 100; tries++) {
			ret = ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, &req);
			if (!ret || errno != EAGAIN)
				break;
			usleep(1000);
		}
		if (ret && errno == ESTALE) {
			(*stale)++;
			continue;
		}
		if (ret) {
			free(buf);
			return ltt_fail("LTT_BUF_SNAPSHOT_READ at %llu: %s",
					(unsigned long long)pos,
					strerror(errno));
		}
		sb = (struct ltt_subbuf){
			.size = req.size,
			.seq = pos / s->subbuf_size,
		};
		if (ltt_decode_packet(s, &copy, &sb, t)) {
			free(buf);
			return -1;
		}
		n++;
	}
	free(buf);
	return n;
}

/*
 * A snapshot while recording: the newest markers, in order, and the
 * recorder records on; a second snapshot has the markers made since,
 * and the stop at the end reads them too.
 */
TEST(snapshot_while_recording_reads_the_newest_events_and_records_on)
{
	const char *const syscalls[] = { "syscall_entry", "syscall_exit", NULL };
	enum { M = 2000 };
	struct ltt_trace t = { 0 };
	static __s64 m[M + 200];
	struct ltt_session s;
	struct ltt_status st;
	long n, k, stale, at = 0;
	pid_t me = getpid();
	int cpu, fd;

	if (!ltt_setup(_metadata, &s, &overwrite_small, true))
		return;
	cpu = ltt_pin_to_buffer_cpu(&s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	fd = memfd_create("ltt_buffer_test", 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ltt_set_pids(s.fd, &me, 1));
	ASSERT_EQ(0, ltt_set_events(&s, syscalls)) TH_LOG("%s", ltt_err);
	ltt_start_or_fail(_metadata, s.fd);
	make_markers(fd, 0, M);

	n = snapshot_read(&s, cpu, &t, &stale);
	ASSERT_LT(0, n) TH_LOG("%s", ltt_err);
	EXPECT_EQ(0, stale) TH_LOG("packets overwritten with no writer about");
	k = ltt_syscall_returns(&s.reg, &t, cpu, __NR_lseek, m, M);
	ltt_trace_free(&t);
	ASSERT_LT(0, k) TH_LOG("no marker in the snapshot: %s", ltt_err);
	EXPECT_EQ(M - 1, m[k - 1]) TH_LOG("the newest marker is missing");
	EXPECT_LT(0, m[0]) TH_LOG("the oldest marker survived a full ring");
	EXPECT_EQ(0, gaps(m, k, &at))
		TH_LOG("marker %lld then %lld", (long long)m[at - 1],
		       (long long)m[at]);
	ASSERT_EQ(0, ltt_session_status(&s, &st)) TH_LOG("%s", ltt_err);
	EXPECT_EQ((__u32)LTT_STATE_RECORDING, st.state)
		TH_LOG("a snapshot read must not stop the recorder");

	make_markers(fd, M, M + 100);
	n = snapshot_read(&s, cpu, &t, &stale);
	ASSERT_LT(0, n) TH_LOG("%s", ltt_err);
	k = ltt_syscall_returns(&s.reg, &t, cpu, __NR_lseek, m, M + 200);
	ltt_trace_free(&t);
	ASSERT_LT(100, k) TH_LOG("%ld markers in the second snapshot", k);
	EXPECT_EQ(M + 99, m[k - 1]) TH_LOG("markers made after the first snapshot");
	EXPECT_EQ(0, gaps(m, k, &at));

	ASSERT_EQ(0, ltt_stop(s.fd)) TH_LOG("STOP: %s", strerror(errno));
	n = read_markers(&s, cpu, m, M);
	ASSERT_LT(0, n) TH_LOG("%s", ltt_err);
	EXPECT_EQ(M + 99, m[n - 1]) TH_LOG("the stop after snapshots");
	ASSERT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	close(fd);
	ltt_session_close(&s);
}

/*
 * A packet the recorder overwrites while SNAPSHOT_READ copies it (the
 * snapshot_delay_ms knob holds the reader between its copy and its
 * check, while a process floods the same CPU) comes back ESTALE: what
 * was copied may be torn.  With nothing writing, the same read is whole.
 */
TEST(snapshot_read_of_a_packet_overwritten_while_copied_is_estale)
{
	struct ltt_snapshot_read req;
	struct ltt_snapshot snap;
	struct ltt_session s;
	struct ltt_reader *r;
	unsigned char *buf;
	int cpu, status, ret, err;
	pid_t flooder;

	if (access(SNAPSHOT_KNOB, W_OK))
		SKIP(return, "no CONFIG_LTT_SELFTEST knobs");
	if (!ltt_setup(_metadata, &s, &overwrite_small, true))
		return;
	cpu = ltt_pin_to_buffer_cpu(&s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	r = ltt_reader_of(&s, cpu);
	ASSERT_NE(NULL, r);
	buf = malloc(s.subbuf_size);
	ASSERT_NE(NULL, buf);
	ltt_start_or_fail(_metadata, s.fd);
	make_markers(-1, 0, 1000);
	ASSERT_EQ(0, ioctl(r->fd, LTT_BUF_SNAPSHOT, &snap));
	ASSERT_LT(snap.begin, snap.end);
	req = (struct ltt_snapshot_read){ .pos = snap.end - s.subbuf_size,
					  .buf = (uintptr_t)buf };
	ASSERT_EQ(0, ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, &req))
		TH_LOG("the newest packet, nothing writing: %s", strerror(errno));

	flooder = fork();
	ASSERT_LE(0, flooder);
	if (!flooder) {		/* same CPU: it runs while the reader sleeps */
		for (;;)
			syscall(__NR_getppid);
	}
	ASSERT_EQ(0, ltt_write_str(SNAPSHOT_KNOB, "300")) TH_LOG("%s", ltt_err);
	ret = ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, &req);
	err = errno;
	ltt_write_str(SNAPSHOT_KNOB, "0");
	kill(flooder, SIGKILL);
	waitpid(flooder, &status, 0);
	EXPECT_EQ(-1, ret) TH_LOG("a packet overwritten while copied was taken whole");
	EXPECT_EQ(ESTALE, err) TH_LOG("%s", strerror(err));
	/* And before the copy: the ring went round meanwhile. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, &req));
	EXPECT_EQ(ESTALE, errno);
	free(buf);
	ltt_session_close(&s);
}

/*
 * What is not a packet of a flight recorder: a discard-mode buffer,
 * nothing recorded yet, a position off a packet's start or past the
 * writers, bad pointers.
 */
TEST(snapshot_ioctls_refuse_what_is_not_a_packet)
{
	struct ltt_snapshot_read req;
	struct ltt_snapshot snap;
	struct ltt_session s, d;
	unsigned char *buf;
	struct ltt_reader *r;
	int cpu;

	if (!ltt_setup(_metadata, &d, NULL, true))
		return;
	buf = malloc(65536);
	ASSERT_NE(NULL, buf);
	errno = 0;
	EXPECT_EQ(-1, ioctl(d.rd[0].fd, LTT_BUF_SNAPSHOT, &snap));
	EXPECT_EQ(EINVAL, errno) TH_LOG("a discard-mode buffer");
	req = (struct ltt_snapshot_read){ .buf = (uintptr_t)buf };
	errno = 0;
	EXPECT_EQ(-1, ioctl(d.rd[0].fd, LTT_BUF_SNAPSHOT_READ, &req));
	EXPECT_EQ(EINVAL, errno);
	ltt_session_close(&d);

	if (!ltt_setup(_metadata, &s, &overwrite_small, true))
		return;
	cpu = ltt_pin_to_buffer_cpu(&s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	r = ltt_reader_of(&s, cpu);
	ASSERT_EQ(0, ioctl(r->fd, LTT_BUF_SNAPSHOT, &snap));
	EXPECT_EQ(0ULL, snap.begin) TH_LOG("a session never started");
	EXPECT_EQ(0ULL, snap.end);
	errno = 0;
	EXPECT_EQ(-1, ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, &req));
	EXPECT_EQ(EINVAL, errno) TH_LOG("nothing written yet");

	ltt_start_or_fail(_metadata, s.fd);
	make_markers(-1, 0, 3000);
	ASSERT_EQ(0, ioctl(r->fd, LTT_BUF_SNAPSHOT, &snap));
	ASSERT_LE((__u64)s.subbuf_size * s.n_subbufs, snap.begin)
		TH_LOG("the ring went round");
	req.pos = snap.begin + 8;
	errno = 0;
	EXPECT_EQ(-1, ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, &req));
	EXPECT_EQ(EINVAL, errno) TH_LOG("inside a packet");
	req.pos = snap.end + 64ULL * s.subbuf_size;
	errno = 0;
	EXPECT_EQ(-1, ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, &req));
	EXPECT_EQ(EINVAL, errno) TH_LOG("past the writers");
	req.pos = snap.begin - s.subbuf_size;
	errno = 0;
	EXPECT_EQ(-1, ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, &req));
	EXPECT_EQ(ESTALE, errno) TH_LOG("a lap behind");
	req.pos = ~0ULL - s.subbuf_size + 1;
	errno = 0;
	EXPECT_EQ(-1, ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, &req));
	EXPECT_EQ(EINVAL, errno) TH_LOG("the last packet of 64 bits");
	req.pos = snap.end - s.subbuf_size;
	req.buf = 0;
	errno = 0;
	EXPECT_EQ(-1, ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, &req));
	EXPECT_EQ(EFAULT, errno) TH_LOG("a NULL copy buffer");
	req.buf = (uintptr_t)ltt_unmapped_page();
	errno = 0;
	EXPECT_EQ(-1, ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, &req));
	EXPECT_EQ(EFAULT, errno) TH_LOG("an unmapped copy buffer");
	errno = 0;
	EXPECT_EQ(-1, ioctl(r->fd, LTT_BUF_SNAPSHOT, NULL));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(r->fd, LTT_BUF_SNAPSHOT_READ, NULL));
	EXPECT_EQ(EFAULT, errno);
	free(buf);
	ltt_session_close(&s);
}

#define WRAP_KNOB	"/sys/kernel/debug/ltt/offset_wrap_mib"
/* Past the wrap by as much again as the knob puts before it. */
#define WRAP_BYTES	(2U << 20)
/* getppid() calls of at least WRAP_BYTES of syscall records. */
#define WRAP_CALLS	(WRAP_BYTES / 16)

static const struct ltt_create discard_wrap = {
	.subbuf_size = LTT_SUBBUF_MIN,
	.n_subbufs = 8,
	.mode = LTT_MODE_DISCARD,
};

static const struct ltt_create overwrite_wrap = {
	.subbuf_size = LTT_SUBBUF_MIN,
	.n_subbufs = 8,
	.mode = LTT_MODE_OVERWRITE,
};

/*
 * A session whose buffers start 1 MiB short of 4 GiB (offset_wrap_mib),
 * where a 32-bit kernel's write offsets wrap, with its readers; the knob
 * is cleared again whatever happens.  False: skipped.
 */
static bool open_near_the_wrap(struct __test_metadata *_metadata,
			       struct ltt_session *s,
			       const struct ltt_create *c)
{
	int ret;

	if (access(WRAP_KNOB, W_OK))
		SKIP(return false, "no CONFIG_LTT_SELFTEST knobs");
	ASSERT_EQ(0, ltt_write_str(WRAP_KNOB, "1")) TH_LOG("%s", ltt_err);
	ret = ltt_session_open(s, c);
	ltt_write_str(WRAP_KNOB, "0");
	if (ret == LTT_UNAVAILABLE)
		SKIP(return false, "%s", ltt_err);
	ASSERT_EQ(0, ret) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_open_readers(s)) TH_LOG("%s", ltt_err);
	return true;
}

/*
 * 4 GiB written on one CPU (an hour of an embedded flight recorder at
 * 1 MB/s) wraps a 32-bit kernel's write offset.  Across the wrap the
 * packets keep their sequence: none restarts at 0, none is skipped, and
 * what was produced is what was delivered.  On a 64-bit kernel nothing
 * wraps there, and the same holds.
 */
TEST(packets_keep_their_sequence_across_a_32_bit_offset_wrap)
{
	const char *const syscalls[] = { "syscall_entry", "syscall_exit", NULL };
	struct ltt_session s;
	struct ltt_reader *r;
	pid_t me = getpid();
	int cpu, k, rounds;

	if (!open_near_the_wrap(_metadata, &s, &discard_wrap))
		return;
	cpu = ltt_pin_to_buffer_cpu(&s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	r = ltt_reader_of(&s, cpu);
	ASSERT_EQ(0, ltt_set_pids(s.fd, &me, 1));
	ASSERT_EQ(0, ltt_set_events(&s, syscalls)) TH_LOG("%s", ltt_err);
	ltt_start_or_fail(_metadata, s.fd);
	for (rounds = 0; r->packets * s.subbuf_size < WRAP_BYTES &&
	     rounds < 10000; rounds++) {
		for (k = 0; k < 200; k++)
			syscall(__NR_getppid);
		/* Each packet's sequence is checked against the last. */
		ASSERT_EQ(0, ltt_read_ready(&s, NULL)) TH_LOG("%s", ltt_err);
	}
	ltt_stop_or_fail(_metadata, s.fd);
	ASSERT_EQ(0, ltt_read_stopped(&s, NULL)) TH_LOG("%s", ltt_err);
	ASSERT_LE(WRAP_BYTES / s.subbuf_size, r->packets)
		TH_LOG("%llu packets: the wrap was not reached",
		       (unsigned long long)r->packets);
	EXPECT_CONSECUTIVE_PACKETS(r);
	EXPECT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	ltt_session_close(&s);
}

/*
 * A flight recorder that went past the wrap: its snapshot is a full ring
 * whose positions go on past 4 GiB, every packet of it reads back whole,
 * its sequence numbers those of its positions.  A 32-bit kernel gave
 * positions that started again from 0, and a ring short of the packets
 * before the wrap.
 */
TEST(a_flight_recorder_snapshots_a_full_ring_across_a_32_bit_offset_wrap)
{
	struct ltt_trace t = { 0 };
	struct ltt_snapshot snap;
	struct ltt_session s;
	struct ltt_reader *r;
	int cpu, go[2], status;
	long n, stale;
	pid_t child;
	char c;

	if (!open_near_the_wrap(_metadata, &s, &overwrite_wrap))
		return;
	cpu = ltt_pin_to_buffer_cpu(&s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	r = ltt_reader_of(&s, cpu);
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {		/* on the same CPU: it floods, then goes */
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		for (long k = 0; k < WRAP_CALLS; k++)
			syscall(__NR_getppid);
		_exit(0);
	}
	close(go[0]);
	ASSERT_EQ(0, ltt_set_pids(s.fd, &child, 1));
	ltt_start_or_fail(_metadata, s.fd);
	ASSERT_EQ(1, write(go[1], "x", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	close(go[1]);
	ASSERT_EQ(0, ioctl(r->fd, LTT_BUF_SNAPSHOT, &snap))
		TH_LOG("%s", strerror(errno));
	EXPECT_LT(1ULL << 32, snap.end)
		TH_LOG("the snapshot ends at %llu: not past 4 GiB",
		       (unsigned long long)snap.end);
	EXPECT_EQ((__u64)(s.n_subbufs - 1) * s.subbuf_size,
		  snap.end - snap.begin)
		TH_LOG("a ring of %u packets from %llu to %llu", s.n_subbufs,
		       (unsigned long long)snap.begin,
		       (unsigned long long)snap.end);
	n = snapshot_read(&s, cpu, &t, &stale);
	ASSERT_LE(0, n) TH_LOG("%s", ltt_err);
	EXPECT_EQ(s.n_subbufs - 1, n) TH_LOG("%ld stale", stale);
	EXPECT_LT(0, t.n) TH_LOG("no record read back");
	ltt_trace_free(&t);
	ltt_stop_or_fail(_metadata, s.fd);
	ASSERT_EQ(0, ltt_read_stopped(&s, NULL)) TH_LOG("%s", ltt_err);
	EXPECT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	ltt_session_close(&s);
}

TEST_HARNESS_MAIN
