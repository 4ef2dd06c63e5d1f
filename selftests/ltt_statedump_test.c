// SPDX-License-Identifier: GPL-2.0
/*
 * The state dump at START: one statedump_process per task (pid, tgid,
 * parent, name) and one statedump_file per open file (pid, fd, path).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>

#include "kselftest_harness.h"
#include "ltt_workload.h"

#define FILE_PATH	"/tmp/ltt-statedump-test-file"

FIXTURE(dump) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

FIXTURE_SETUP(dump)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, NULL);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(dump)
{
	ltt_session_close(&self->s);
}

static void *block(void *fd)
{
	char c;

	while (read((int)(long)fd, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/*
 * Our process, and a thread of it, are dumped with their pid, tgid, the
 * parent's pid and the name; so is init.
 */
TEST_F(dump, start_dumps_each_task_with_tgid_parent_and_name)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *me = NULL, *th = NULL, *init = NULL;
	struct ltt_trace t = { 0 };
	char comm[64];
	pthread_t thread;
	size_t i, n_me = 0;
	int p[2];

	ASSERT_EQ(0, ltt_read_str("/proc/self/comm", comm, sizeof(comm)))
		TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pthread_create(&thread, NULL, block, (void *)(long)p[0]));
	FILTER_EVENTS("statedump_process");
	START();
	STOP_AND_READ(&t);
	ASSERT_EQ(1, write(p[1], "", 1));
	ASSERT_EQ(0, pthread_join(thread, NULL));

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];

		if (FIELD(ev, "pid") == self->pid) {
			me = ev;
			n_me++;
		} else if (FIELD(ev, "tgid") == self->pid) {
			th = ev;
		} else if (FIELD(ev, "pid") == 1) {
			init = ev;
		}
	}
	ASSERT_EQ((size_t)1, n_me) TH_LOG("statedump_process records of pid %d",
					  self->pid);
	EXPECT_EQ(self->pid, FIELD(me, "tgid"));
	EXPECT_EQ(getppid(), FIELD(me, "ppid"));
	EXPECT_STREQ(comm, me->str);
	ASSERT_NE(NULL, th) TH_LOG("no record of our thread (tgid %d)", self->pid);
	EXPECT_NE(self->pid, FIELD(th, "pid"));
	EXPECT_EQ(getppid(), FIELD(th, "ppid")) TH_LOG("a thread's parent is its process's");
	EXPECT_STREQ(comm, th->str);
	ASSERT_NE(NULL, init) TH_LOG("no record of init, pid 1");
	EXPECT_EQ(1, FIELD(init, "tgid"));
	EXPECT_EQ(0, FIELD(init, "ppid"));
	close(p[0]);
	close(p[1]);
	ltt_trace_free(&t);
}

/* Files open at START are dumped with our pid, their fd and their path. */
TEST_F(dump, start_dumps_each_open_file_with_pid_fd_and_path)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	size_t i, n_file = 0, n_pipe = 0;
	char pipe_name[64];
	struct stat st;
	int fd, p[2];

	fd = open(FILE_PATH, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, fstat(p[0], &st));
	snprintf(pipe_name, sizeof(pipe_name), "pipe:[%lu]",
		 (unsigned long)st.st_ino);
	FILTER_EVENTS("statedump_file");
	START();
	STOP_AND_READ(&t);
	close(fd);
	unlink(FILE_PATH);

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];

		if (FIELD(ev, "pid") != self->pid)
			continue;
		if (FIELD(ev, "fd") == fd) {
			n_file++;
			EXPECT_STREQ(FILE_PATH, ev->str);
		} else if (FIELD(ev, "fd") == p[0] || FIELD(ev, "fd") == p[1]) {
			n_pipe++;
			EXPECT_STREQ(pipe_name, ev->str);
		}
	}
	EXPECT_EQ((size_t)1, n_file) TH_LOG("statedump_file records of fd %d", fd);
	EXPECT_EQ((size_t)2, n_pipe) TH_LOG("statedump_file records of our pipe");
	close(p[0]);
	close(p[1]);
	ltt_trace_free(&t);
}

/*
 * With a pid filter, the dump keeps the listed process only: not the
 * other tasks, though the process that starts the session is listed.
 */
TEST_F(dump, pid_filter_keeps_only_the_listed_process_in_the_dump)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	size_t i, mine = 0, others = 0;
	long long first_other = 0;

	FILTER_SELF();
	FILTER_EVENTS("statedump_process", "statedump_file");
	START();
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];
		bool ours = IS(ev, "statedump_process") ?
			    FIELD(ev, "tgid") == self->pid :
			    FIELD(ev, "pid") == self->pid;

		if (ours)
			mine++;
		else if (!others++)
			first_other = FIELD(ev, "pid");
	}
	EXPECT_LT((size_t)0, mine) TH_LOG("no record of pid %d, the one listed",
					  self->pid);
	EXPECT_EQ((size_t)0, others)
		TH_LOG("%zu records of other processes (the first of pid %lld), only %d listed: %s",
		       others, first_other, self->pid,
		       "the dump passes the filter because the task that STARTs is listed");
	ltt_trace_free(&t);
}

/* With a pid filter on another process, the dump has it, and not us. */
TEST_F(dump, pid_filter_on_another_process_dumps_it_and_not_us)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	size_t i, n_other = 0, n_me = 0;
	int wake;
	pid_t other;

	other = ltt_fork_sleeper(&wake);
	ASSERT_LT(0, other) TH_LOG("%s", ltt_err);
	FILTER_PIDS(&other, 1);
	FILTER_EVENTS("statedump_process", "statedump_file");
	START();
	STOP_AND_READ(&t);
	ltt_kill_sleeper(other, wake);

	for (i = 0; i < t.n; i++) {
		if (FIELD(&t.ev[i], "pid") == other)
			n_other++;
		if (FIELD(&t.ev[i], "pid") == self->pid)
			n_me++;
	}
	EXPECT_LT((size_t)1, n_other) TH_LOG("records of pid %d, listed: its process and files",
					     other);
	EXPECT_EQ((size_t)0, n_me) TH_LOG("records of pid %d, not listed", self->pid);
	ltt_trace_free(&t);
}

/* Entries of /proc/@pid/fd, or -1. */
static int count_fds(pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			n++;
	closedir(dir);
	return n;
}

#define DUMP_CHILDREN	40
#define DUMP_FDS	60

/*
 * A dump far larger than the buffer (40 processes with 60 files of a
 * 200-byte path each, about 500 KiB, into 16 KiB per CPU) arrives
 * whole while a reader keeps up: START returns before the dump is done,
 * the dump waits for free packets, and nothing is lost.
 */
TEST(dump_larger_than_the_buffer_loses_nothing_with_a_reader)
{
	static const struct ltt_create small = {
		.subbuf_size = 4096,
		.n_subbufs = 4,
		.mode = LTT_MODE_DISCARD,
	};
	char dir[] = "/tmp/ltt-statedump-XXXXXX", path[256];
	pid_t kids[DUMP_CHILDREN], last;
	int fds[DUMP_FDS], want[DUMP_CHILDREN], got[DUMP_CHILDREN] = { 0 };
	struct ltt_session s = { .fd = -1 };
	struct ltt_trace t = { 0 };
	const struct ltt_registry *reg;
	bool seen_last = false;
	unsigned int c;
	size_t i, k;
	int n;

	if (!ltt_setup(_metadata, &s, &small, true))
		return;
	reg = &s.reg;
	ASSERT_NE(NULL, mkdtemp(dir));
	n = snprintf(path, sizeof(path), "%s/", dir);
	memset(path + n, 'f', 200 - n);
	path[200] = '\0';
	for (i = 0; i < DUMP_FDS; i++) {
		fds[i] = open(path, O_RDWR | O_CREAT, 0600);
		ASSERT_LE(0, fds[i]) TH_LOG("%s: %s", path, strerror(errno));
	}
	for (k = 0; k < DUMP_CHILDREN; k++) {
		kids[k] = fork();
		if (!kids[k]) {
			pause();
			_exit(0);
		}
		ASSERT_LT(0, kids[k]);
	}
	/* Forked last, dumped after the others' files (pids in order). */
	last = fork();
	if (!last) {
		pause();
		_exit(0);
	}
	ASSERT_LT(0, last);
	for (k = 0; k < DUMP_CHILDREN; k++)
		ASSERT_LT(kids[k], last) TH_LOG("pids wrapped");
	for (k = 0; k < DUMP_CHILDREN; k++) {
		want[k] = count_fds(kids[k]);
		ASSERT_LE(DUMP_FDS, want[k]);
	}
	ASSERT_EQ(0, ltt_set_events(&s, (const char *const[]){
		"statedump_process", "statedump_file", NULL }))
		TH_LOG("%s", ltt_err);

	ASSERT_EQ(0, ltt_start(s.fd)) TH_LOG("START: %s", strerror(errno));
	/* Read as lttd does until the last child's record is in. */
	for (n = 0; n < 20000 && !seen_last; n++) {
		size_t from = t.n;

		ASSERT_EQ(0, ltt_read_ready(&s, &t)) TH_LOG("%s", ltt_err);
		for (i = from; i < t.n; i++)
			if (ltt_ev_is(reg, &t.ev[i], "statedump_process") &&
			    ltt_ev_field(reg, &t.ev[i], "pid") == last)
				seen_last = true;
		usleep(1000);
	}
	ASSERT_EQ(0, ltt_stop(s.fd)) TH_LOG("STOP: %s", strerror(errno));
	ASSERT_EQ(0, ltt_read_stopped(&s, &t)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);
	for (k = 0; k < DUMP_CHILDREN; k++)
		kill(kids[k], SIGKILL);
	kill(last, SIGKILL);
	for (k = 0; k < DUMP_CHILDREN; k++)
		waitpid(kids[k], NULL, 0);
	waitpid(last, NULL, 0);
	for (i = 0; i < DUMP_FDS; i++)
		close(fds[i]);
	unlink(path);
	rmdir(dir);

	for (c = 0; c < s.n_cpus; c++)
		EXPECT_EQ(0ULL, s.st[c].lost)
			TH_LOG("cpu %u lost %llu records of the dump", s.st[c].cpu,
			       (unsigned long long)s.st[c].lost);
	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];

		if (!ltt_ev_is(reg, ev, "statedump_file"))
			continue;
		for (k = 0; k < DUMP_CHILDREN; k++)
			if (ltt_ev_field(reg, ev, "pid") == kids[k])
				got[k]++;
	}
	for (k = 0; k < DUMP_CHILDREN; k++) {
		pid_t kid = kids[k];

		EXPECT_EQ(want[k], got[k]) TH_LOG("child %d: files dumped", kid);
	}
	EXPECT_TRUE(seen_last) TH_LOG("the dump never reached pid %d", last);
	ltt_trace_free(&t);
	ltt_session_close(&s);
}

TEST_HARNESS_MAIN
