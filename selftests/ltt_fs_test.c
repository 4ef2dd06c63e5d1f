// SPDX-License-Identifier: GPL-2.0
/*
 * File-system events: derived from open, close, read, write, lseek,
 * ioctl, select and poll with what they were given and what they
 * returned, and the waits for buffer I/O of a block file system (ext2 on
 * a loop device).  Each test makes the event happen and checks its
 * fields.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include "kselftest_harness.h"
#include "ltt_workload.h"

/* <linux/fs.h>'s; glibc's <stdio.h> has it, musl's not. */
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif

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
 * A failed open() of a path of @len bytes: fs_open holds the first
 * @stored bytes of the name it was given, and @trunc.
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
	unlink(path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ltt_stop_and_read(_metadata, s, &t);
	ASSERT_EQ(-1, fd) TH_LOG("open of a %zu-byte path of no file", len);

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_open", ev, 4));
	EXPECT_EQ(-ENOENT, FIELD(ev[0], "fd"));
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
	struct __kernel_old_timespec ts = { .tv_sec = 0, .tv_nsec = 2500000 };
	struct __kernel_old_timeval tv = { .tv_sec = 1, .tv_usec = 500000 };
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
	struct __kernel_old_timespec ts = { .tv_sec = 2, .tv_nsec = 500000000 };
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
	struct __kernel_old_timeval tv = { .tv_sec = LTT_HUGE_SECS };
	struct __kernel_old_timespec ts = { .tv_sec = 3000000 };
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
		TH_LOG("select() for %lld s: timeout_us %lld (tv_sec * 10^6 overflows)",
		       (long long)tv.tv_sec, (long long)FIELD(ev[0], "timeout_us"));
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

/* ------------------------------------------------------------------
 * File-system changes, hooked in the VFS: the names are the paths the
 * kernel resolved, whatever the caller's directory and the links.
 */
#define DIR_PATH	"/tmp/ltt-fsd"

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	return remove(path);
}

/* rm -rf DIR_PATH, without a shell (some test systems have none). */
static void remove_dir(void)
{
	if (nftw(DIR_PATH, remove_one, 16, FTW_DEPTH | FTW_PHYS) &&
	    errno != ENOENT)
		perror(DIR_PATH);
}

/* A fresh DIR_PATH with DIR_PATH/sub, the test's working directory. */
static void fresh_dir(struct __test_metadata *_metadata)
{
	remove_dir();
	ASSERT_EQ(0, mkdir(DIR_PATH, 0755));
	ASSERT_EQ(0, mkdir(DIR_PATH "/sub", 0755));
	ASSERT_EQ(0, chdir(DIR_PATH "/sub"));
}

static void drop_dir(void)
{
	if (chdir("/"))
		perror("/");
	remove_dir();
}

/* The kernel's new_encode_dev() of @dev. */
static __u32 kernel_dev(dev_t dev)
{
	unsigned int ma = major(dev), mi = minor(dev);

	return (mi & 0xff) | (ma << 8) | ((mi & ~0xffu) << 12);
}

/* The record after @ev in @t, if it is of @name; else NULL. */
static const struct ltt_event *next_is(const struct ltt_registry *reg,
				       const struct ltt_trace *t,
				       const struct ltt_event *ev,
				       const char *name)
{
	size_t i = ev - t->ev;

	if (i + 1 < t->n && ltt_ev_is(reg, &t->ev[i + 1], name))
		return &t->ev[i + 1];
	return NULL;
}

/*
 * An open through "..", through a symlink, and of a name that a failed
 * open keeps as given: the path the kernel resolved, the flags, the
 * device and the inode.
 */
TEST_F(fs, open_records_the_resolved_path_flags_device_and_inode)
{
	const struct ltt_registry *reg = &self->s.reg;
	const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC;
	const struct ltt_event *ev[4];
	struct ltt_trace t = { 0 };
	struct stat st;
	int fd1, fd2;

	fresh_dir(_metadata);
	ASSERT_EQ(0, symlink("../f", DIR_PATH "/sub/link"));
	FILTER_SELF();
	FILTER_EVENTS("fs_open");
	START();
	fd1 = open("../sub/./../f", flags, 0600);
	fd2 = open("link", O_RDONLY | O_CLOEXEC);
	ASSERT_EQ(-1, open("../none/../f", O_RDONLY | O_CLOEXEC));
	STOP_AND_READ(&t);
	ASSERT_LE(0, fd1) TH_LOG("open: %s", strerror(errno));
	ASSERT_LE(0, fd2) TH_LOG("open link: %s", strerror(errno));
	ASSERT_EQ(0, fstat(fd1, &st));
	close(fd1);
	close(fd2);
	drop_dir();

	ASSERT_EQ((size_t)3, pick(reg, &t, "fs_open", ev, 4));
	EXPECT_STREQ(DIR_PATH "/f", ev[0]->str);
	EXPECT_EQ(fd1, FIELD(ev[0], "fd"));
	EXPECT_EQ(flags, FIELD(ev[0], "flags") & flags);
	EXPECT_EQ(O_WRONLY, FIELD(ev[0], "flags") & O_ACCMODE);
	EXPECT_EQ((__s64)st.st_ino, FIELD(ev[0], "ino"));
	EXPECT_EQ(kernel_dev(st.st_dev), FIELD(ev[0], "dev"));
	EXPECT_STREQ(DIR_PATH "/f", ev[1]->str) TH_LOG("through the symlink");
	EXPECT_EQ((__s64)st.st_ino, FIELD(ev[1], "ino"));
	EXPECT_EQ(O_RDONLY, FIELD(ev[1], "flags") & O_ACCMODE);
	EXPECT_STREQ("../none/../f", ev[2]->str) TH_LOG("a failed open");
	EXPECT_EQ(-ENOENT, FIELD(ev[2], "fd"));
	EXPECT_EQ(0, FIELD(ev[2], "ino"));
	ltt_trace_free(&t);
}

/* Flips the name at @arg between "a" and "b" until it reads "stop". */
static void *flip_name(void *arg)
{
	char *name = arg;

	while (__atomic_load_n(&name[1], __ATOMIC_RELAXED) != 't')
		__atomic_store_n(&name[0], name[0] == 'a' ? 'b' : 'a',
				 __ATOMIC_RELAXED);
	return NULL;
}

/*
 * A thread rewrites the name while the main one opens it: whatever the
 * kernel read, the record names the file that was opened (its inode
 * tells), never the name the buffer holds after the call.
 */
TEST_F(fs, open_of_a_name_rewritten_by_a_thread_names_the_file_opened)
{
	const struct ltt_registry *reg = &self->s.reg;
	static char name[8] = "a";
	enum { N = 200 };
	const struct ltt_event *ev[N];
	struct ltt_trace t = { 0 };
	ino_t ino[N], ino_a, ino_b;
	struct stat st;
	pthread_t th;
	int i, fd, flipped = 0;

	fresh_dir(_metadata);
	ASSERT_EQ(0, close(open("a", O_WRONLY | O_CREAT | O_CLOEXEC, 0600)));
	ASSERT_EQ(0, close(open("b", O_WRONLY | O_CREAT | O_CLOEXEC, 0600)));
	ASSERT_EQ(0, stat("a", &st));
	ino_a = st.st_ino;
	ASSERT_EQ(0, stat("b", &st));
	ino_b = st.st_ino;
	FILTER_SELF();
	FILTER_EVENTS("fs_open");
	ASSERT_EQ(0, pthread_create(&th, NULL, flip_name, name));
	START();
	for (i = 0; i < N; i++) {
		fd = open(name, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, fstat(fd, &st));
		ino[i] = st.st_ino;
		close(fd);
	}
	STOP_AND_READ(&t);
	__atomic_store_n(&name[1], 't', __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	drop_dir();

	ASSERT_EQ((size_t)N, pick(reg, &t, "fs_open", ev, N));
	for (i = 0; i < N; i++) {
		const char *want = ino[i] == ino_a ? DIR_PATH "/sub/a" :
						     DIR_PATH "/sub/b";

		flipped += ino[i] == ino_b;
		EXPECT_STREQ(want, ev[i]->str) TH_LOG("open %d", i);
		EXPECT_EQ((__s64)ino[i], FIELD(ev[i], "ino"));
	}
	TH_LOG("%d of %d opens found b", flipped, N);
	ltt_trace_free(&t);
}

/*
 * A successful open of a path longer than a record holds keeps the
 * name it was given, cut, and says so.
 */
TEST_F(fs, open_of_a_resolved_path_too_long_keeps_the_given_name_cut)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *ev[4];
	struct ltt_trace t = { 0 };
	char comp[101];
	int fd, i;

	fresh_dir(_metadata);
	memset(comp, 'd', 100);
	comp[100] = '\0';
	for (i = 0; i < 3; i++) {	/* DIR_PATH/sub/ddd.../ddd.../ddd... */
		ASSERT_EQ(0, mkdir(comp, 0755));
		ASSERT_EQ(0, chdir(comp));
	}
	FILTER_SELF();
	FILTER_EVENTS("fs_open");
	START();
	fd = open("f", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	STOP_AND_READ(&t);
	ASSERT_LE(0, fd);
	close(fd);
	drop_dir();

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_open", ev, 4));
	EXPECT_STREQ("f", ev[0]->str);
	EXPECT_EQ(1, FIELD(ev[0], "trunc"))
		TH_LOG("a 330-byte path does not fit: trunc");
	EXPECT_NE(0, FIELD(ev[0], "ino"));
	ltt_trace_free(&t);
}

/*
 * rename, renameat2 with flags, link and symlink from the test's
 * directory: each event is followed by fs_newname, both names resolved
 * (a symlink's text as given); a failed rename has its -errno.
 */
TEST_F(fs, rename_link_and_symlink_record_both_resolved_names)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *ev[8], *n;
	struct ltt_trace t = { 0 };
	int dfd;

	fresh_dir(_metadata);
	ASSERT_EQ(0, close(open("x", O_WRONLY | O_CREAT | O_CLOEXEC, 0600)));
	dfd = open(DIR_PATH, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, dfd);
	FILTER_SELF();
	FILTER_EVENTS("fs_rename", "fs_link", "fs_symlink", "fs_newname");
	START();
	ASSERT_EQ(0, rename("x", "../y"));
	ASSERT_EQ(0, syscall(__NR_renameat2, dfd, "y", AT_FDCWD, "z",
			     RENAME_NOREPLACE));
	ASSERT_EQ(-1, rename("no-such", "w"));
	ASSERT_EQ(0, link("z", "../h"));
	ASSERT_EQ(0, symlink("../whatever/z", "s"));
	STOP_AND_READ(&t);
	close(dfd);
	drop_dir();

	ASSERT_EQ((size_t)3, pick(reg, &t, "fs_rename", ev, 8));
	EXPECT_STREQ(DIR_PATH "/sub/x", ev[0]->str);
	EXPECT_EQ(0, FIELD(ev[0], "ret"));
	EXPECT_EQ(0, FIELD(ev[0], "flags"));
	n = next_is(reg, &t, ev[0], "fs_newname");
	ASSERT_NE(NULL, n) TH_LOG("no fs_newname right after fs_rename");
	EXPECT_STREQ(DIR_PATH "/y", n->str);
	EXPECT_STREQ(DIR_PATH "/y", ev[1]->str) TH_LOG("renameat2 from a dirfd");
	EXPECT_EQ(RENAME_NOREPLACE, FIELD(ev[1], "flags"));
	n = next_is(reg, &t, ev[1], "fs_newname");
	ASSERT_NE(NULL, n);
	EXPECT_STREQ(DIR_PATH "/sub/z", n->str);
	EXPECT_EQ(-ENOENT, FIELD(ev[2], "ret"));
	EXPECT_STREQ(DIR_PATH "/sub/no-such", ev[2]->str);

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_link", ev, 8));
	EXPECT_EQ(0, FIELD(ev[0], "ret"));
	EXPECT_STREQ(DIR_PATH "/sub/z", ev[0]->str);
	n = next_is(reg, &t, ev[0], "fs_newname");
	ASSERT_NE(NULL, n);
	EXPECT_STREQ(DIR_PATH "/h", n->str);

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_symlink", ev, 8));
	EXPECT_EQ(0, FIELD(ev[0], "ret"));
	EXPECT_STREQ("../whatever/z", ev[0]->str) TH_LOG("the link's text");
	n = next_is(reg, &t, ev[0], "fs_newname");
	ASSERT_NE(NULL, n);
	EXPECT_STREQ(DIR_PATH "/sub/s", n->str);
	EXPECT_EQ((size_t)5, pick(reg, &t, "fs_newname", ev, 8));
	ltt_trace_free(&t);
}

/* mkdir, rmdir and unlink, relative: resolved names, modes, -errno. */
TEST_F(fs, mkdir_rmdir_and_unlink_record_resolved_names)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *ev[8];
	struct ltt_trace t = { 0 };

	fresh_dir(_metadata);
	ASSERT_EQ(0, close(open("../f", O_WRONLY | O_CREAT | O_CLOEXEC, 0600)));
	FILTER_SELF();
	FILTER_EVENTS("fs_mkdir", "fs_rmdir", "fs_unlink");
	START();
	ASSERT_EQ(0, mkdir("d", 0750));
	ASSERT_EQ(-1, unlink("d"));
	ASSERT_EQ(0, rmdir("./d"));
	ASSERT_EQ(0, unlink("../f"));
	STOP_AND_READ(&t);
	drop_dir();

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_mkdir", ev, 8));
	EXPECT_STREQ(DIR_PATH "/sub/d", ev[0]->str);
	EXPECT_EQ(0750, FIELD(ev[0], "mode"));
	EXPECT_EQ(0, FIELD(ev[0], "ret"));
	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_rmdir", ev, 8));
	EXPECT_STREQ(DIR_PATH "/sub/d", ev[0]->str);
	EXPECT_EQ(0, FIELD(ev[0], "ret"));
	ASSERT_EQ((size_t)2, pick(reg, &t, "fs_unlink", ev, 8));
	EXPECT_STREQ(DIR_PATH "/sub/d", ev[0]->str);
	EXPECT_EQ(-EISDIR, FIELD(ev[0], "ret"));
	EXPECT_STREQ(DIR_PATH "/f", ev[1]->str);
	EXPECT_EQ(0, FIELD(ev[1], "ret"));
	ltt_trace_free(&t);
}

/*
 * truncate and ftruncate, chmod, fchmod and fchmodat, chown and fchown:
 * the file's resolved name and what was asked.
 */
TEST_F(fs, truncate_chmod_and_chown_record_the_file_and_the_values)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *ev[8];
	struct ltt_trace t = { 0 };
	int fd, i;

	fresh_dir(_metadata);
	fd = open("../f", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	ASSERT_LE(0, fd);
	FILTER_SELF();
	FILTER_EVENTS("fs_truncate", "fs_chmod", "fs_chown");
	START();
	ASSERT_EQ(0, truncate("../f", 4096));
	ASSERT_EQ(0, ftruncate(fd, 0));
	ASSERT_EQ(0, chmod("../f", 0640));
	ASSERT_EQ(0, fchmod(fd, 0604));
	ASSERT_EQ(0, fchmodat(AT_FDCWD, "../f", 0600, 0));
	ASSERT_EQ(0, chown("../f", 1000, 1001));
	ASSERT_EQ(0, fchown(fd, -1, 0));
	STOP_AND_READ(&t);
	close(fd);
	drop_dir();

	ASSERT_EQ((size_t)2, pick(reg, &t, "fs_truncate", ev, 8));
	EXPECT_EQ(4096, FIELD(ev[0], "length"));
	EXPECT_EQ(0, FIELD(ev[1], "length")) TH_LOG("ftruncate");
	ASSERT_EQ((size_t)3, pick(reg, &t, "fs_chmod", ev, 8));
	EXPECT_EQ(0640, FIELD(ev[0], "mode"));
	EXPECT_EQ(0604, FIELD(ev[1], "mode")) TH_LOG("fchmod");
	EXPECT_EQ(0600, FIELD(ev[2], "mode")) TH_LOG("fchmodat");
	ASSERT_EQ((size_t)2, pick(reg, &t, "fs_chown", ev, 8));
	EXPECT_EQ(1000, FIELD(ev[0], "uid"));
	EXPECT_EQ(1001, FIELD(ev[0], "gid"));
	EXPECT_EQ(-1, FIELD(ev[1], "uid")) TH_LOG("fchown, uid unchanged");
	EXPECT_EQ(0, FIELD(ev[1], "gid"));
	for (i = 0; i < (int)t.n; i++) {
		EXPECT_STREQ(DIR_PATH "/f", t.ev[i].str);
		EXPECT_EQ(0, FIELD(&t.ev[i], "ret"));
	}
	ltt_trace_free(&t);
}

/*
 * dup, dup2, dup3 and fcntl(F_DUPFD[_CLOEXEC]): old and new fd, cloexec;
 * a dup2 of no fd, which changes nothing, is not recorded.
 */
TEST_F(fs, dup_family_records_old_and_new_fd_and_cloexec)
{
	const struct ltt_registry *reg = &self->s.reg;
	static const struct { int newfd, cloexec; } want[] = {
		{ -1, 0 }, { 40, 0 }, { 41, 1 }, { -1, 0 }, { -1, 1 },
	};
	const struct ltt_event *ev[8];
	struct ltt_trace t = { 0 };
	int got[3], i, fd;

	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	FILTER_SELF();
	FILTER_EVENTS("fs_dup");
	START();
	got[0] = dup(fd);
	ASSERT_EQ(40, dup2(fd, 40));
	ASSERT_EQ(41, dup3(fd, 41, O_CLOEXEC));
	got[1] = fcntl(fd, F_DUPFD, 50);
	got[2] = fcntl(fd, F_DUPFD_CLOEXEC, 60);
	ASSERT_EQ(-1, dup2(1000000, 42));
	STOP_AND_READ(&t);
	ASSERT_LE(0, got[0]);
	ASSERT_LE(50, got[1]);
	ASSERT_LE(60, got[2]);

	ASSERT_EQ((size_t)5, pick(reg, &t, "fs_dup", ev, 8))
		TH_LOG("a dup2 from no fd changes nothing: no record");
	for (i = 0; i < 5; i++) {
		int newfd = want[i].newfd;

		if (i == 0 || i == 3 || i == 4)
			newfd = got[i == 0 ? 0 : i - 2];
		EXPECT_EQ(fd, FIELD(ev[i], "oldfd"));
		EXPECT_EQ(newfd, FIELD(ev[i], "newfd")) TH_LOG("call %d", i);
		EXPECT_EQ(want[i].cloexec, FIELD(ev[i], "cloexec"));
	}
	close(got[0]);
	close(got[1]);
	close(got[2]);
	close(40);
	close(41);
	close(fd);
	ltt_trace_free(&t);
}

/*
 * sendfile, splice and copy_file_range: an fs_read of the input and an
 * fs_write of the output, with the bytes moved.
 */
TEST_F(fs, sendfile_splice_and_copy_file_range_read_and_write)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *rd[8], *wr[8];
	struct ltt_trace t = { 0 };
	char buf[1000] = { 0 };
	int in, out, p[2], i;
	const long want[] = { 1000, 600, 300 };

	fresh_dir(_metadata);
	in = open("in", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	out = open("out", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	ASSERT_LE(0, in);
	ASSERT_LE(0, out);
	ASSERT_EQ(1000, write(in, buf, 1000));
	ASSERT_EQ(0, pipe2(p, O_CLOEXEC));
	FILTER_SELF();
	FILTER_EVENTS("fs_read", "fs_write");
	START();
	ASSERT_EQ(1000, syscall(__NR_sendfile, out, in, &(__kernel_off_t){ 0 },
				1000));
	ASSERT_EQ(600, syscall(__NR_splice, in, &(loff_t){ 0 }, p[1], NULL,
			       600, 0));
	ASSERT_EQ(300, syscall(__NR_copy_file_range, in, &(loff_t){ 0 }, out,
			       &(loff_t){ 0 }, 300, 0));
	STOP_AND_READ(&t);
	close(in);
	close(out);
	close(p[0]);
	close(p[1]);
	drop_dir();

	ASSERT_EQ((size_t)3, pick(reg, &t, "fs_read", rd, 8));
	ASSERT_EQ((size_t)3, pick(reg, &t, "fs_write", wr, 8));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(in, FIELD(rd[i], "fd"));
		EXPECT_EQ(want[i], FIELD(rd[i], "bytes"));
		EXPECT_EQ(i == 1 ? p[1] : out, FIELD(wr[i], "fd"));
		EXPECT_EQ(want[i], FIELD(wr[i], "bytes"));
	}
	ltt_trace_free(&t);
}

/*
 * A shared writable mapping of a file is recorded with its fd, length
 * and path; private, read-only and anonymous ones are not.
 */
TEST_F(fs, shared_writable_mmap_of_a_file_is_recorded)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *ev[4];
	struct ltt_trace t = { 0 };
	void *m[4];
	int fd, i;

	fresh_dir(_metadata);
	fd = open("m", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 8192));
	FILTER_SELF();
	FILTER_EVENTS("fs_mmap_write");
	START();
	m[0] = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	m[1] = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	m[2] = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	m[3] = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	STOP_AND_READ(&t);
	for (i = 0; i < 4; i++)
		ASSERT_NE(MAP_FAILED, m[i]) TH_LOG("mmap %d", i);
	munmap(m[0], 8192);
	for (i = 1; i < 4; i++)
		munmap(m[i], 4096);
	close(fd);
	drop_dir();

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_mmap_write", ev, 4));
	EXPECT_EQ(fd, FIELD(ev[0], "fd"));
	EXPECT_EQ(8192, FIELD(ev[0], "len"));
	EXPECT_STREQ(DIR_PATH "/sub/m", ev[0]->str);
	ltt_trace_free(&t);
}

#ifdef __x86_64__
/* An ia32 call of up to three arguments (numbers of syscall_32.tbl). */
static long ia32_call3(long nr, long a, long b, long c)
{
	long ret = nr;

	asm volatile("int $0x80" : "+a" (ret) : "b" (a), "c" (b), "d" (c)
		     : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

#define ia32_call2(nr, a, b)	ia32_call3(nr, a, b, 0)

#define IA32_NR_write	4
#define IA32_NR_close	6
#define IA32_NR_rename	38
#define IA32_NR_dup2	63

/*
 * The VFS hooks see every ABI: rename and dup2 of an ia32 process give
 * the same events as native calls; and its write and close are decoded
 * as the native ones are.
 */
TEST_F(fs, ia32_rename_dup2_write_and_close_are_recorded_like_native_ones)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *ev[4], *n;
	struct ltt_trace t = { 0 };
	char *low;
	int p[2];

	if (!ltt_have_ia32())
		SKIP(return, "no ia32 emulation");
	low = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	ASSERT_NE(MAP_FAILED, low);
	memcpy(low, "a", 2);
	memcpy(low + 100, "../b", 5);
	fresh_dir(_metadata);
	ASSERT_EQ(0, close(open("a", O_WRONLY | O_CREAT | O_CLOEXEC, 0600)));
	FILTER_SELF();
	ASSERT_EQ(0, pipe2(p, O_CLOEXEC));
	FILTER_EVENTS("fs_rename", "fs_newname", "fs_dup", "fs_write",
		      "fs_close");
	START();
	EXPECT_EQ(0, ia32_call2(IA32_NR_rename, (long)low, (long)(low + 100)));
	EXPECT_EQ(45, ia32_call2(IA32_NR_dup2, 2, 45));
	EXPECT_EQ(3, ia32_call3(IA32_NR_write, p[1], (long)low, 3));
	EXPECT_EQ(0, ia32_call2(IA32_NR_close, p[1], 0));
	STOP_AND_READ(&t);
	close(p[0]);
	close(45);
	munmap(low, 4096);
	drop_dir();

	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_rename", ev, 4));
	EXPECT_STREQ(DIR_PATH "/sub/a", ev[0]->str);
	n = next_is(reg, &t, ev[0], "fs_newname");
	ASSERT_NE(NULL, n);
	EXPECT_STREQ(DIR_PATH "/b", n->str);
	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_dup", ev, 4));
	EXPECT_EQ(2, FIELD(ev[0], "oldfd"));
	EXPECT_EQ(45, FIELD(ev[0], "newfd"));
	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_write", ev, 4))
		TH_LOG("an ia32 write(), decoded");
	EXPECT_EQ(p[1], FIELD(ev[0], "fd"));
	EXPECT_EQ(3, FIELD(ev[0], "bytes"));
	ASSERT_EQ((size_t)1, pick(reg, &t, "fs_close", ev, 4));
	EXPECT_EQ(p[1], FIELD(ev[0], "fd"));
	ltt_trace_free(&t);
}
#endif

TEST_HARNESS_MAIN
