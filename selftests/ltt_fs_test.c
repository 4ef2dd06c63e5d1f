// SPDX-License-Identifier: GPL-2.0
/*
 * File-system events: derived from open, close, read, write, lseek,
 * ioctl, select and poll with what they were given and what they
 * returned, and the waits for buffer I/O of a block file system (ext2 on
 * a loop device).  Each test makes the event happen and checks its
 * fields.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "ltt_workload.h"

#define FILE_PATH	"/tmp/ltt-fs-test-file"

FIXTURE(fs) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

FIXTURE_SETUP(fs)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, NULL);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(fs)
{
	ltt_session_close(&self->s);
}

/* The records of @name in @t, into @out (up to @max); returns how many. */
static size_t pick(const struct ltt_registry *reg, const struct ltt_trace *t,
		   const char *name, const struct ltt_event **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		if (ltt_ev_is(reg, &t->ev[i], name)) {
			if (n < max)
				out[n] = &t->ev[i];
			n++;
		}
	return n;
}

/* open() of a path gives fs_open with that name, the fd, trunc 0. */
TEST_F(fs, open_gives_fs_open_with_the_name_and_the_fd)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *ev[4];
	struct ltt_trace t = { 0 };
	int fd;

	FILTER_SELF();
	FILTER_EVENTS("fs_open");
	START();
	fd = open(FILE_PATH, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	STOP_AND_READ(&t);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", FILE_PATH, strerror(errno));
	close(fd);
	unlink(FILE_PATH);

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_open", ev, 4))
		TH_LOG("fs_open records for one open()");
	EXPECT_STREQ(FILE_PATH, ev[0]->str);
	EXPECT_EQ(fd, FIELD(ev[0], "fd"));
	EXPECT_EQ(0, FIELD(ev[0], "trunc"));
	ltt_trace_free(&t);
}

/* A failed open() gives fs_open with -errno as the fd. */
TEST_F(fs, failed_open_gives_fs_open_with_minus_errno)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *ev[4];
	struct ltt_trace t = { 0 };
	int fd;

	FILTER_SELF();
	FILTER_EVENTS("fs_open");
	START();
	fd = open("/tmp/ltt-no-such-dir/file", O_RDONLY | O_CLOEXEC);
	STOP_AND_READ(&t);
	ASSERT_EQ(-1, fd);

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_open", ev, 4));
	EXPECT_STREQ("/tmp/ltt-no-such-dir/file", ev[0]->str);
	EXPECT_EQ(-ENOENT, FIELD(ev[0], "fd"));
	ltt_trace_free(&t);
}

/*
 * A path of @len bytes naming /tmp/ltt-fs-file (or ...file2): "/tmp",
 * then "/." repeated, then the name.
 */
static void long_path(char *buf, size_t len)
{
	const char *name = (len - 5) % 2 ? "ltt-fs-file" : "ltt-fs-file2";
	size_t k = (len - 5 - strlen(name)) / 2, i;
	char *p = buf;

	p += sprintf(p, "/tmp");
	for (i = 0; i < k; i++)
		p += sprintf(p, "/.");
	sprintf(p, "/%s", name);
}

/*
 * open() of a path of @len bytes: fs_open holds its first @stored bytes
 * and @trunc.
 */
static void open_long(struct __test_metadata *_metadata, struct ltt_session *s,
		      size_t len, size_t stored, int trunc)
{
	static const char *const names[] = { "fs_open", NULL };
	const struct ltt_registry *reg = &s->reg;
	const struct ltt_event *ev[4];
	struct ltt_trace t = { 0 };
	pid_t pid = getpid();
	char path[1024];
	int fd;

	long_path(path, len);
	ASSERT_EQ(len, strlen(path));
	ltt_filter_pids(_metadata, s->fd, &pid, 1);
	ASSERT_EQ(0, ltt_set_events(s, names)) TH_LOG("%s", ltt_err);
	ltt_start_or_fail(_metadata, s->fd);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	ltt_stop_and_read(_metadata, s, &t);
	ASSERT_LE(0, fd) TH_LOG("open of a %zu-byte path: %s", len,
				strerror(errno));
	close(fd);
	unlink(path);

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_open", ev, 4));
	EXPECT_EQ(fd, FIELD(ev[0], "fd"));
	EXPECT_EQ(stored, strlen(ev[0]->str))
		TH_LOG("bytes of a %zu-byte name kept", len);
	EXPECT_EQ(0, strncmp(path, ev[0]->str, stored))
		TH_LOG("the name kept is not the start of the path");
	EXPECT_EQ(trunc, FIELD(ev[0], "trunc"))
		TH_LOG("trunc for a %zu-byte name, of which %zu bytes are kept",
		       len, stored);
	ltt_trace_free(&t);
}

/* A name longer than 255 bytes is cut to them, and marked so. */
TEST_F(fs, open_of_a_300_byte_path_keeps_255_bytes_and_sets_trunc)
{
	open_long(_metadata, &self->s, 300, LTT_STRING_MAX - 1, 1);
}

/* A name of 255 bytes fits whole (LTT_STRING_MAX counts the NUL). */
TEST_F(fs, open_of_a_255_byte_path_keeps_it_whole_without_trunc)
{
	open_long(_metadata, &self->s, LTT_STRING_MAX - 1, LTT_STRING_MAX - 1, 0);
}

/* One byte more than fits is cut, and marked. */
TEST_F(fs, open_of_a_256_byte_path_keeps_255_bytes_and_sets_trunc)
{
	open_long(_metadata, &self->s, LTT_STRING_MAX, LTT_STRING_MAX - 1, 1);
}

/*
 * close, write of 4096 bytes, lseek, read, pread and FIONREAD: the fd and
 * what each returned.
 */
TEST_F(fs, file_calls_give_their_events_with_the_fd_and_results)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *ev[8];
	struct ltt_trace t = { 0 };
	char buf[4096] = { 0 };
	int fd, n;

	fd = open(FILE_PATH, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ASSERT_LE(0, fd);
	FILTER_SELF();
	FILTER_EVENTS("fs_close", "fs_read", "fs_write", "fs_seek",
		      "fs_ioctl");
	START();
	ASSERT_EQ(4096, write(fd, buf, 4096));
	ASSERT_EQ(1000, lseek(fd, 1000, SEEK_SET));
	ASSERT_EQ(4096, lseek(fd, 0, SEEK_END));
	ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
	ASSERT_EQ(3000, read(fd, buf, 3000));
	ASSERT_EQ(0, ioctl(fd, FIONREAD, &n));
	ASSERT_EQ(100, pread(fd, buf, 100, 3996));
	ASSERT_EQ(1096, read(fd, buf, 4096)) TH_LOG("the last 1096 bytes");
	ASSERT_EQ(-1, write(-1, buf, 1));
	ASSERT_EQ(0, close(fd));
	STOP_AND_READ(&t);
	unlink(FILE_PATH);

	ASSERT_EQ((size_t)2, pick(reg, &t, "fs_write", ev, 8));
	EXPECT_EQ(fd, FIELD(ev[0], "fd"));
	EXPECT_EQ(4096, FIELD(ev[0], "bytes"));
	EXPECT_EQ(-1, FIELD(ev[1], "fd"));
	EXPECT_EQ(-EBADF, FIELD(ev[1], "bytes")) TH_LOG("a failed write: -errno");

	ASSERT_EQ((size_t)3, pick(reg, &t, "fs_seek", ev, 8));
	EXPECT_EQ(fd, FIELD(ev[0], "fd"));
	EXPECT_EQ(1000, FIELD(ev[0], "offset"));
	EXPECT_EQ(4096, FIELD(ev[1], "offset")) TH_LOG("SEEK_END: the offset reached");
	EXPECT_EQ(0, FIELD(ev[2], "offset"));

	ASSERT_EQ((size_t)3, pick(reg, &t, "fs_read", ev, 8));
	EXPECT_EQ(fd, FIELD(ev[0], "fd"));
	EXPECT_EQ(3000, FIELD(ev[0], "bytes"));
	EXPECT_EQ(fd, FIELD(ev[1], "fd"));
	EXPECT_EQ(100, FIELD(ev[1], "bytes")) TH_LOG("pread()");
	EXPECT_EQ(1096, FIELD(ev[2], "bytes"));

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_ioctl", ev, 8));
	EXPECT_EQ(fd, FIELD(ev[0], "fd"));
	EXPECT_EQ(FIONREAD, FIELD(ev[0], "cmd"));

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_close", ev, 8));
	EXPECT_EQ(fd, FIELD(ev[0], "fd"));
	ltt_trace_free(&t);
}

/*
 * select() with a timeval, pselect() with a timespec and without: nfds
 * and the timeout asked for, in us (-1: none).
 */
TEST_F(fs, select_gives_fs_select_with_nfds_and_the_timeout_in_us)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 2500000 };
	struct timeval tv = { .tv_sec = 1, .tv_usec = 500000 };
	const struct ltt_event *ev[8];
	struct ltt_trace t = { 0 };
	int p[2], nfds;
	fd_set rfds;

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(1, write(p[1], "x", 1));	/* readable: no call waits */
	nfds = p[0] + 1;
	FILTER_SELF();
	FILTER_EVENTS("fs_select");
	START();
	FD_ZERO(&rfds);
	FD_SET(p[0], &rfds);
	ASSERT_EQ(1, syscall(LTT_NR_select, nfds, &rfds, NULL, NULL, &tv));
	FD_SET(p[0], &rfds);
	ASSERT_EQ(1, syscall(__NR_pselect6, nfds, &rfds, NULL, NULL, &ts,
			     NULL));
	FD_SET(p[0], &rfds);
	ASSERT_EQ(1, syscall(__NR_pselect6, nfds, &rfds, NULL, NULL, NULL,
			     NULL));
	STOP_AND_READ(&t);
	close(p[0]);
	close(p[1]);

	ASSERT_EQ((size_t)3, pick(reg, &t, "fs_select", ev, 8));
	EXPECT_EQ(nfds, FIELD(ev[0], "nfds"));
	EXPECT_EQ(1500000, FIELD(ev[0], "timeout_us")) TH_LOG("select(), 1.5 s");
	EXPECT_EQ(nfds, FIELD(ev[1], "nfds"));
	EXPECT_EQ(2500, FIELD(ev[1], "timeout_us")) TH_LOG("pselect6(), 2.5 ms");
	EXPECT_EQ(-1, FIELD(ev[2], "timeout_us")) TH_LOG("pselect6() with no timeout");
	ltt_trace_free(&t);
}

/* poll() and ppoll(): nfds and the timeout asked for, in ms (-1: none). */
TEST_F(fs, poll_gives_fs_poll_with_nfds_and_the_timeout_in_ms)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct timespec ts = { .tv_sec = 2, .tv_nsec = 500000000 };
	const struct ltt_event *ev[8];
	struct ltt_trace t = { 0 };
	struct pollfd pfd[2];
	int p[2];

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(1, write(p[1], "x", 1));
	pfd[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	FILTER_SELF();
	FILTER_EVENTS("fs_poll");
	START();
	ASSERT_EQ(2, syscall(__NR_poll, pfd, 2, 1234));
	ASSERT_EQ(1, syscall(__NR_ppoll, pfd, 1, &ts, NULL, 8));
	ASSERT_EQ(2, syscall(__NR_poll, pfd, 2, -1));
	STOP_AND_READ(&t);
	close(p[0]);
	close(p[1]);

	ASSERT_EQ((size_t)3, pick(reg, &t, "fs_poll", ev, 8));
	EXPECT_EQ(2, FIELD(ev[0], "nfds"));
	EXPECT_EQ(1234, FIELD(ev[0], "timeout_ms"));
	EXPECT_EQ(1, FIELD(ev[1], "nfds"));
	EXPECT_EQ(2500, FIELD(ev[1], "timeout_ms")) TH_LOG("ppoll(), 2.5 s");
	EXPECT_EQ(-1, FIELD(ev[2], "timeout_ms"));
	ltt_trace_free(&t);
}

/*
 * Timeouts too long for the record's unit saturate: 10^13 s is more
 * microseconds than an s64 holds, 3 * 10^6 s more milliseconds than an
 * s32 does.  Neither is recorded as a negative value, which reads as no
 * timeout at all.
 */
TEST_F(fs, huge_select_and_ppoll_timeouts_are_not_recorded_negative)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct timeval tv = { .tv_sec = 10000000000000LL };
	struct timespec ts = { .tv_sec = 3000000 };
	struct ltt_trace t = { 0 };
	struct pollfd pfd;
	const struct ltt_event *ev[4];
	fd_set rfds;
	int p[2];

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(1, write(p[1], "x", 1));
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
	FILTER_SELF();
	FILTER_EVENTS("fs_select", "fs_poll");
	START();
	FD_ZERO(&rfds);
	FD_SET(p[0], &rfds);
	ASSERT_EQ(1, syscall(LTT_NR_select, p[0] + 1, &rfds, NULL, NULL, &tv));
	ASSERT_EQ(1, syscall(__NR_ppoll, &pfd, 1, &ts, NULL, 8));
	STOP_AND_READ(&t);
	close(p[0]);
	close(p[1]);

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_select", ev, 4));
	EXPECT_LT(0, FIELD(ev[0], "timeout_us"))
		TH_LOG("select() for 10^13 s: timeout_us %lld (tv_sec * 10^6 overflows)",
		       (long long)FIELD(ev[0], "timeout_us"));
	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_poll", ev, 4));
	EXPECT_LT(0, FIELD(ev[0], "timeout_ms"))
		TH_LOG("ppoll() for 3 * 10^6 s: timeout_ms %lld (3 * 10^9 ms cut to an s32)",
		       (long long)FIELD(ev[0], "timeout_ms"));
	ltt_trace_free(&t);
}

/*
 * @start and @end records alternate on @cpu, starting with a start;
 * returns the number of pairs, or -1 (and says why).
 */
static long pairs(struct __test_metadata *_metadata,
		  const struct ltt_registry *reg, const struct ltt_trace *t,
		  unsigned int cpu, const char *start, const char *end)
{
	bool open = false;
	long n = 0;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct ltt_event *ev = &t->ev[i];

		if (ev->cpu != cpu)
			continue;
		if (ltt_ev_is(reg, ev, start)) {
			if (open) {
				TH_LOG("cpu %u seq %llu offset %u: %s while waiting",
				       cpu, (unsigned long long)ev->seq,
				       ev->offset, start);
				return -1;
			}
			open = true;
		} else if (ltt_ev_is(reg, ev, end)) {
			if (!open) {
				TH_LOG("cpu %u seq %llu offset %u: %s without %s",
				       cpu, (unsigned long long)ev->seq,
				       ev->offset, end, start);
				return -1;
			}
			open = false;
			n++;
		}
	}
	if (open) {
		TH_LOG("cpu %u: %s never ended", cpu, start);
		return -1;
	}
	return n;
}

/*
 * ext2 reads its inodes and indirect blocks with sb_bread(): with cold
 * caches, reading a file waits for buffers, fs_buffer_wait_start then
 * fs_buffer_wait_end.
 */
TEST_F(fs, cold_ext2_read_gives_buffer_wait_start_end_pairs)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	long n;

	WORK(ltt_ext2_mount());
	FILTER_SELF();
	FILTER_EVENTS("fs_buffer_wait_start", "fs_buffer_wait_end");
	START();
	WORK(ltt_work_ext2_cold_read());
	STOP_AND_READ(&t);

	n = pairs(_metadata, reg, &t, self->cpu, "fs_buffer_wait_start",
		  "fs_buffer_wait_end");
	EXPECT_LT(0, n) TH_LOG("buffer waits reading %s with cold caches",
			       LTT_EXT2_FILE);
	EXPECT_EQ(t.n, 2 * (size_t)(n > 0 ? n : 0))
		TH_LOG("buffer wait records off cpu %u, where the test is pinned",
		       self->cpu);
	TH_LOG("%ld buffer waits", n);
	ltt_trace_free(&t);
}

TEST_HARNESS_MAIN
