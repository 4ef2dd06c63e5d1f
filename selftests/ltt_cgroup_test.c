// SPDX-License-Identifier: GPL-2.0
/*
 * Containers: the cgroup (v2) events, the state dump's cgroups and where
 * each task lives, and LTT_CMD_SET_CGROUPS, which records one subtree.
 * Workers of known cgroups make known numbers of getppid() calls; each
 * trace is counted against them.  The hierarchy is mounted on a
 * directory of the test's own, and the cgroups it makes are removed.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ltt_workload.h"

#define CALLS	40

/* cgroup2 on a directory of our own, with a test directory in it. */
FIXTURE(cg) {
	char mnt[64];
	char top[128];		/* mnt/ltt-PID */
	char a[160], b[160];	/* top/A, top/B */
	int fd_a, fd_b;
	struct ltt_session s;
	struct ltt_worker wa, wb;
};

static unsigned long long ino_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (unsigned long long)st.st_ino;
}

/*
 * Ids compared as far as both sides know them: on a 32-bit machine
 * without CONFIG_FHANDLE only the inode number, the id's low 32 bits
 * (its high ones are kernfs's generation).
 */
static __s64 idv(__s64 id)
{
	return sizeof(long) == 8 ? id : id & 0xffffffffLL;
}

/*
 * A cgroup's id, as its file handle gives it (as bpf does), or without
 * CONFIG_FHANDLE its directory's inode number, which the id is on
 * 64-bit machines.  0 on error.
 */
static unsigned long long cg_id(const char *path)
{
	struct {
		struct file_handle fh;
		unsigned char bytes[64];
	} h = { .fh.handle_bytes = 64 };
	unsigned long long id = 0;
	int mnt;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mnt, 0) ||
	    h.fh.handle_bytes < sizeof(id))
		return ino_of(path);
	memcpy(&id, h.fh.f_handle, sizeof(id));
	return id;
}

/* Write @pid into @dir's cgroup.procs: 0 or -1. */
static int cg_move(const char *dir, pid_t pid)
{
	char path[256], val[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(val, sizeof(val), "%d", pid);
	return ltt_write_str(path, val);
}

FIXTURE_SETUP(cg)
{
	self->fd_a = -1;
	self->fd_b = -1;
	self->s.fd = -1;
	snprintf(self->mnt, sizeof(self->mnt), "/tmp/ltt-cg.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->mnt)) TH_LOG("mkdtemp: %s", strerror(errno));
	if (mount("cgroup2", self->mnt, "cgroup2", 0, NULL)) {
		rmdir(self->mnt);
		SKIP(return, "no cgroup2 here: %s", strerror(errno));
	}
	snprintf(self->top, sizeof(self->top), "%s/ltt-%d", self->mnt, getpid());
	snprintf(self->a, sizeof(self->a), "%s/A", self->top);
	snprintf(self->b, sizeof(self->b), "%s/B", self->top);
	ASSERT_EQ(0, mkdir(self->top, 0755)) TH_LOG("%s: %s", self->top, strerror(errno));
	ASSERT_EQ(0, mkdir(self->a, 0755));
	ASSERT_EQ(0, mkdir(self->b, 0755));
	self->fd_a = open(self->a, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	self->fd_b = open(self->b, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, self->fd_a);
	ASSERT_LE(0, self->fd_b);
	ASSERT_EQ(0, ltt_worker_start(&self->wa, CALLS));
	ASSERT_EQ(0, ltt_worker_start(&self->wb, CALLS));
	ASSERT_EQ(0, cg_move(self->a, self->wa.pid)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, cg_move(self->b, self->wb.pid)) TH_LOG("%s", ltt_err);
	ltt_setup(_metadata, &self->s, NULL, true);
}

/* Everything back to the root cgroup, every cgroup made removed. */
FIXTURE_TEARDOWN(cg)
{
	char path[256];

	ltt_session_close(&self->s);
	ltt_worker_end(&self->wa);
	ltt_worker_end(&self->wb);
	if (self->fd_a >= 0)
		close(self->fd_a);
	if (self->fd_b >= 0)
		close(self->fd_b);
	if (!self->top[0])
		return;
	snprintf(path, sizeof(path), "%s/C", self->a);
	rmdir(path);
	rmdir(self->a);
	rmdir(self->b);
	rmdir(self->top);
	umount2(self->mnt, MNT_DETACH);
	rmdir(self->mnt);
}

static int set_cgroups(int session_fd, const int *fds, unsigned int n)
{
	struct ltt_cgroups c = {
		.session_fd = session_fd,
		.count = n,
		.fds = (uintptr_t)fds,
	};

	return ltt(LTT_CMD_SET_CGROUPS, &c, sizeof(c));
}

static const char *const entries[] = { "syscall_entry", NULL };

/*
 * A session filtered to A holds A's calls, all of them, and no other,
 * while A and B work side by side (each CPU switching between them).
 */
TEST_F(cg, filter_records_exactly_the_cgroup_s_tasks)
{
	struct ltt_trace t = { 0 };
	int round;

	ASSERT_EQ(0, ltt_set_events(&self->s, entries)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, set_cgroups(self->s.fd, &self->fd_a, 1))
		TH_LOG("SET_CGROUPS: %s", strerror(errno));
	ltt_start_or_fail(_metadata, self->s.fd);
	for (round = 0; round < 4; round++) {
		ASSERT_EQ(0, ltt_worker_send(&self->wa, 'g'));
		ASSERT_EQ(0, ltt_worker_send(&self->wb, 'g'));
		syscall(__NR_getppid);
		ASSERT_EQ(0, ltt_worker_wait(&self->wa, 'g'));
		ASSERT_EQ(0, ltt_worker_wait(&self->wb, 'g'));
	}
	ltt_stop_and_read(_metadata, &self->s, &t);
	EXPECT_EQ((size_t)4 * CALLS,
		  ltt_getppids(&self->s.reg, &t, self->wa.pid));
	EXPECT_EQ((size_t)4 * CALLS, ltt_getppids(&self->s.reg, &t, -1))
		TH_LOG("calls of B's worker or of the test, outside A");
	ltt_trace_free(&t);
}

/*
 * A task is recorded while it is in the filtered subtree only: moved in,
 * from then on; moved out, no more.  A cgroup made under A after START
 * is part of it.
 */
TEST_F(cg, tasks_moved_in_and_cgroups_made_later_are_recorded)
{
	struct ltt_trace t = { 0 };
	char c[256];

	snprintf(c, sizeof(c), "%s/C", self->a);
	ASSERT_EQ(0, ltt_set_events(&self->s, entries)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, set_cgroups(self->s.fd, &self->fd_a, 1));
	ltt_start_or_fail(_metadata, self->s.fd);
	ASSERT_EQ(0, ltt_worker_do(&self->wb, 'g'));	/* in B: not */
	ASSERT_EQ(0, cg_move(self->a, self->wb.pid));
	ASSERT_EQ(0, ltt_worker_do(&self->wb, 'g'));	/* in A: yes */
	ASSERT_EQ(0, cg_move(self->b, self->wb.pid));
	ASSERT_EQ(0, ltt_worker_do(&self->wb, 'g'));	/* in B: not */
	ASSERT_EQ(0, mkdir(c, 0755));
	ASSERT_EQ(0, cg_move(c, self->wb.pid));
	ASSERT_EQ(0, ltt_worker_do(&self->wb, 'g'));	/* in A/C: yes */
	ASSERT_EQ(0, cg_move(self->b, self->wb.pid));
	ltt_stop_and_read(_metadata, &self->s, &t);
	EXPECT_EQ((size_t)2 * CALLS, ltt_getppids(&self->s.reg, &t, self->wb.pid))
		TH_LOG("B's worker: its calls in A and in A/C only");
	EXPECT_EQ((size_t)0, ltt_getppids(&self->s.reg, &t, self->wa.pid))
		TH_LOG("A's worker made no call");
	ltt_trace_free(&t);
}

/* The first record of event @name whose field @f is @v, or NULL. */
static const struct ltt_event *find(const struct ltt_registry *reg,
				    const struct ltt_trace *t,
				    const char *name, const char *f, __s64 v)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (ltt_ev_is(reg, &t->ev[i], name) &&
		    idv(ltt_ev_field(reg, &t->ev[i], f)) == idv(v))
			return &t->ev[i];
	return NULL;
}

/* Does @path end in @tail? */
static bool ends_with(const char *path, const char *tail)
{
	size_t n = strlen(path), m = strlen(tail);

	return n >= m && !strcmp(path + n - m, tail);
}

/*
 * The state dump names every cgroup that exists, with its parent and its
 * path from the root, and where each task lives: its cgroup, its pid
 * namespace and its pid there.
 */
TEST_F(cg, state_dump_names_the_cgroups_and_where_each_task_lives)
{
	static const char *const names[] = {
		"statedump_cgroup", "statedump_process", "process_ns", NULL,
	};
	unsigned long long top = cg_id(self->top), a = cg_id(self->a);
	const struct ltt_event *e;
	struct ltt_trace t = { 0 };
	char tail[64];

	ASSERT_EQ(0, ltt_set_events(&self->s, names)) TH_LOG("%s", ltt_err);
	ltt_start_or_fail(_metadata, self->s.fd);
	usleep(200000);
	ltt_stop_and_read(_metadata, &self->s, &t);

	e = find(&self->s.reg, &t, "statedump_cgroup", "id", a);
	ASSERT_NE(NULL, e) TH_LOG("no statedump_cgroup of A (id %llu)", a);
	EXPECT_EQ(idv(top), idv(ltt_ev_field(&self->s.reg, e, "parent")));
	snprintf(tail, sizeof(tail), "/ltt-%d/A", getpid());
	EXPECT_TRUE(ends_with(e->str, tail)) TH_LOG("A's path: %s", e->str);
	EXPECT_EQ('/', e->str[0]) TH_LOG("A's path: %s", e->str);
	EXPECT_NE(NULL, find(&self->s.reg, &t, "statedump_cgroup", "id",
			     cg_id(self->b)));

	e = find(&self->s.reg, &t, "process_ns", "pid", self->wa.pid);
	ASSERT_NE(NULL, e) TH_LOG("no process_ns of A's worker");
	EXPECT_EQ(idv(a), idv(ltt_ev_field(&self->s.reg, e, "cgroup")));
	EXPECT_EQ((__s64)ino_of("/proc/self/ns/pid"),
		  ltt_ev_field(&self->s.reg, e, "pidns"));
	EXPECT_EQ(self->wa.pid, ltt_ev_field(&self->s.reg, e, "vpid"));
	ltt_trace_free(&t);
}

/*
 * Made, moved into, removed: each recorded with the cgroup's id, its
 * parent and path, the task moved and whether its threads went too.
 */
TEST_F(cg, mkdir_attach_rmdir_are_recorded)
{
	static const char *const names[] = {
		"cgroup_mkdir", "cgroup_attach", "cgroup_rmdir", NULL,
	};
	const struct ltt_event *e;
	struct ltt_trace t = { 0 };
	unsigned long long x;
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/X", self->top);
	ASSERT_EQ(0, ltt_set_events(&self->s, names)) TH_LOG("%s", ltt_err);
	ltt_start_or_fail(_metadata, self->s.fd);
	ASSERT_EQ(0, mkdir(dir, 0755));
	x = cg_id(dir);
	ASSERT_EQ(0, cg_move(dir, self->wa.pid));
	ASSERT_EQ(0, cg_move(self->a, self->wa.pid));
	ASSERT_EQ(0, rmdir(dir));
	ltt_stop_and_read(_metadata, &self->s, &t);

	e = find(&self->s.reg, &t, "cgroup_mkdir", "id", x);
	ASSERT_NE(NULL, e) TH_LOG("no cgroup_mkdir of %s (id %llu)", dir, x);
	EXPECT_EQ(idv(cg_id(self->top)), idv(ltt_ev_field(&self->s.reg, e, "parent")));
	EXPECT_TRUE(ends_with(e->str, "/X")) TH_LOG("path %s", e->str);
	e = find(&self->s.reg, &t, "cgroup_attach", "id", x);
	ASSERT_NE(NULL, e) TH_LOG("no cgroup_attach to X");
	EXPECT_EQ(self->wa.pid, ltt_ev_field(&self->s.reg, e, "pid"));
	EXPECT_EQ(1, ltt_ev_field(&self->s.reg, e, "threadgroup"));
	EXPECT_NE(NULL, find(&self->s.reg, &t, "cgroup_attach", "id",
			     cg_id(self->a)));
	EXPECT_NE(NULL, find(&self->s.reg, &t, "cgroup_rmdir", "id", x))
		TH_LOG("no cgroup_rmdir of X");
	ltt_trace_free(&t);
}

/*
 * clone3(CLONE_INTO_CGROUP) puts a child in another cgroup than its
 * parent's: process_ns follows its process_fork.  A plain fork in the
 * parent's cgroup and pid namespace has none.
 */
TEST_F(cg, a_child_born_elsewhere_says_where)
{
	static const char *const names[] = {
		"process_fork", "process_ns", NULL,
	};
	const struct ltt_event *e;
	struct ltt_trace t = { 0 };
	pid_t into, plain;

	if (ino_of("/proc/self/ns/pid") != ino_of("/proc/1/ns/pid"))
		SKIP(return, "not in the initial pid namespace: every fork says where");
	ASSERT_EQ(0, ltt_set_events(&self->s, names)) TH_LOG("%s", ltt_err);
	ltt_start_or_fail(_metadata, self->s.fd);
	/* The state dump's process_ns over first: it would name the child. */
	usleep(200000);
	into = ltt_clone_into(self->fd_b);
	ASSERT_LT(0, into) TH_LOG("clone3: %s", strerror(errno));
	plain = fork();
	if (!plain)
		_exit(0);
	ASSERT_LT(0, plain);
	waitpid(into, NULL, 0);
	waitpid(plain, NULL, 0);
	ltt_stop_and_read(_metadata, &self->s, &t);

	ASSERT_NE(NULL, find(&self->s.reg, &t, "process_fork", "child", into));
	e = find(&self->s.reg, &t, "process_ns", "pid", into);
	ASSERT_NE(NULL, e) TH_LOG("no process_ns of the child born in B");
	EXPECT_EQ(idv(cg_id(self->b)), idv(ltt_ev_field(&self->s.reg, e, "cgroup")));
	EXPECT_NE(NULL, find(&self->s.reg, &t, "process_fork", "child", plain));
	EXPECT_EQ(NULL, find(&self->s.reg, &t, "process_ns", "pid", plain))
		TH_LOG("a plain fork needs no process_ns");
	ltt_trace_free(&t);
}

/*
 * A session filtered on A sees tasks come in: the cgroup_attach of a task
 * moved into A by a task outside it, and the fork of a child that a
 * parent outside A makes in A (clone3's CLONE_INTO_CGROUP), with where
 * the child lives.  A task moved out of A is not seen to go.
 */
TEST_F(cg, a_filtered_session_sees_tasks_come_in)
{
	static const char *const names[] = {
		"cgroup_attach", "process_fork", "process_ns", NULL,
	};
	const struct ltt_event *e;
	struct ltt_trace t = { 0 };
	pid_t into;

	ASSERT_EQ(0, ltt_set_events(&self->s, names)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, set_cgroups(self->s.fd, &self->fd_a, 1));
	ltt_start_or_fail(_metadata, self->s.fd);
	ASSERT_EQ(0, cg_move(self->a, self->wb.pid));
	ASSERT_EQ(0, cg_move(self->b, self->wb.pid));
	into = ltt_clone_into(self->fd_a);
	ASSERT_LT(0, into) TH_LOG("clone3: %s", strerror(errno));
	waitpid(into, NULL, 0);
	ltt_stop_and_read(_metadata, &self->s, &t);

	e = find(&self->s.reg, &t, "cgroup_attach", "pid", self->wb.pid);
	ASSERT_NE(NULL, e) TH_LOG("no cgroup_attach of the task moved into A");
	EXPECT_EQ(idv(cg_id(self->a)), idv(ltt_ev_field(&self->s.reg, e, "id")));
	EXPECT_EQ(NULL, find(&self->s.reg, &t, "cgroup_attach", "id",
			     cg_id(self->b)))
		TH_LOG("the move out of A, to B, recorded");
	EXPECT_NE(NULL, find(&self->s.reg, &t, "process_fork", "child", into))
		TH_LOG("no process_fork of the child born in A");
	e = find(&self->s.reg, &t, "process_ns", "pid", into);
	ASSERT_NE(NULL, e) TH_LOG("no process_ns of the child born in A");
	EXPECT_EQ(idv(cg_id(self->a)), idv(ltt_ev_field(&self->s.reg, e, "cgroup")));
	ltt_trace_free(&t);
}

/* An event of one string field with its enable flag at @word, bit 0. */
static int create_flagged(const char *name, __u32 *word)
{
	struct ltt_event_create c = {
		.n_fields = 1,
		.flags = LTT_EVENT_CREATE_ENABLE_FLAG,
		.fields = { { .name = "text", .type = LTT_FIELD_STRING } },
		.enable_addr = (uintptr_t)word,
	};

	snprintf(c.name, sizeof(c.name), "%s", name);
	return ltt(LTT_CMD_EVENT_CREATE, &c, sizeof(c));
}

/* Wait up to 2 s for *@word to be @on. */
static bool wait_word(__u32 *word, bool on)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (!!(__atomic_load_n(word, __ATOMIC_RELAXED) & 1) == on)
			return true;
		usleep(10000);
	}
	return false;
}

/*
 * A process's enable flag follows it into and out of the filtered
 * cgroup: written again after each move, not only at START.
 */
TEST_F(cg, enable_flags_follow_a_process_between_cgroups)
{
	static __u32 word;
	char root[256];
	int ev;

	snprintf(root, sizeof(root), "%s/cgroup.procs", self->mnt);
	ASSERT_EQ(0, cg_move(self->b, getpid()));
	ev = create_flagged("ltt_cg_flag", &word);
	ASSERT_LE(0, ev) TH_LOG("EVENT_CREATE: %s", strerror(errno));
	ASSERT_EQ(0, set_cgroups(self->s.fd, &self->fd_a, 1));
	ltt_start_or_fail(_metadata, self->s.fd);
	EXPECT_TRUE(wait_word(&word, false)) TH_LOG("set while in B");
	ASSERT_EQ(0, cg_move(self->a, getpid()));
	EXPECT_TRUE(wait_word(&word, true)) TH_LOG("not set after the move into A");
	ASSERT_EQ(0, cg_move(self->b, getpid()));
	EXPECT_TRUE(wait_word(&word, false)) TH_LOG("still set after the move out");
	ltt_write_str(root, "0");
	close(ev);
}

/*
 * The filtered cgroup removed while the session records: its events
 * stop, nothing breaks, and the session stops and closes as any other.
 */
TEST_F(cg, a_filtered_cgroup_removed_while_recording)
{
	struct ltt_trace t = { 0 };
	char c[256];
	int fd;

	snprintf(c, sizeof(c), "%s/C", self->a);
	ASSERT_EQ(0, mkdir(c, 0755));
	fd = open(c, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ltt_set_events(&self->s, entries)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, set_cgroups(self->s.fd, &fd, 1));
	ltt_start_or_fail(_metadata, self->s.fd);
	ASSERT_EQ(0, cg_move(c, self->wb.pid));
	ASSERT_EQ(0, ltt_worker_do(&self->wb, 'g'));
	ASSERT_EQ(0, cg_move(self->b, self->wb.pid));
	ASSERT_EQ(0, rmdir(c)) TH_LOG("rmdir %s: %s", c, strerror(errno));
	close(fd);
	ASSERT_EQ(0, ltt_worker_do(&self->wb, 'g'));
	ASSERT_EQ(0, ltt_worker_do(&self->wa, 'g'));
	ltt_stop_and_read(_metadata, &self->s, &t);
	EXPECT_EQ((size_t)CALLS, ltt_getppids(&self->s.reg, &t, -1))
		TH_LOG("only the calls made in C, before it went");
	ltt_trace_free(&t);
}

/*
 * What is not a cgroup v2 directory is EBADF: a file, a directory of
 * another file system, a closed or negative fd; more than
 * LTT_CGROUPS_MAX is EINVAL, as are flags; a bad pointer EFAULT.  A
 * refused filter leaves the one before in place.
 */
TEST_F(cg, set_cgroups_refuses_what_is_not_a_cgroup)
{
	int fds[LTT_CGROUPS_MAX + 1];
	struct ltt_cgroups c = { .session_fd = self->s.fd, .count = 1 };
	struct ltt_trace t = { 0 };
	int bad[4], i, fd;
	char gone[256];

	bad[0] = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	bad[1] = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bad[2] = -1;
	bad[3] = 1000;
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(-1, set_cgroups(self->s.fd, &bad[i], 1)) TH_LOG("fd %d", i);
		EXPECT_EQ(EBADF, errno) TH_LOG("fd %d", i);
	}
	close(bad[0]);
	close(bad[1]);
	/* A cgroup removed since its directory was opened. */
	snprintf(gone, sizeof(gone), "%s/gone", self->top);
	ASSERT_EQ(0, mkdir(gone, 0755));
	fd = open(gone, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, rmdir(gone));
	EXPECT_EQ(-1, set_cgroups(self->s.fd, &fd, 1));
	EXPECT_EQ(ENOENT, errno);
	close(fd);
	for (i = 0; i < (int)ARRAY_SIZE(fds); i++)
		fds[i] = self->fd_a;
	EXPECT_EQ(0, set_cgroups(self->s.fd, fds, LTT_CGROUPS_MAX));
	EXPECT_EQ(-1, set_cgroups(self->s.fd, fds, LTT_CGROUPS_MAX + 1));
	EXPECT_EQ(EINVAL, errno);
	c.fds = (uintptr_t)ltt_unmapped_page();
	EXPECT_EQ(-1, ltt(LTT_CMD_SET_CGROUPS, &c, sizeof(c)));
	EXPECT_EQ(EFAULT, errno);
	c.fds = (uintptr_t)fds;
	c.flags = 1;
	EXPECT_EQ(-1, ltt(LTT_CMD_SET_CGROUPS, &c, sizeof(c)));
	EXPECT_EQ(EINVAL, errno);
	/* A's good filter, set above, still holds: B's calls are not taken. */
	ASSERT_EQ(0, ltt_set_events(&self->s, entries)) TH_LOG("%s", ltt_err);
	ltt_start_or_fail(_metadata, self->s.fd);
	ASSERT_EQ(0, ltt_worker_do(&self->wb, 'g'));
	ASSERT_EQ(0, ltt_worker_do(&self->wa, 'g'));
	ltt_stop_and_read(_metadata, &self->s, &t);
	EXPECT_EQ((size_t)CALLS, ltt_getppids(&self->s.reg, &t, -1));
	EXPECT_EQ((size_t)CALLS, ltt_getppids(&self->s.reg, &t, self->wa.pid));
	ltt_trace_free(&t);
	/* And 0 removes it. */
	EXPECT_EQ(0, set_cgroups(self->s.fd, NULL, 0));
}

#define USER_SESSIONS	"/proc/sys/kernel/ltt_user_sessions"
/* A uid of the test's own: no other task has it. */
#define TEST_UID	64123

/* Become TEST_UID, dumpable as after an exec: 0, or -1. */
static int become_test_user(void)
{
	return setgid(TEST_UID) || setuid(TEST_UID) ||
	       prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) ? -1 : 0;
}

/*
 * With kernel.ltt_user_sessions 1 meanwhile, run @fn(@self, @arg) in a
 * child moved to the cgroup @dir (it becomes the user itself; @self is
 * the fixture, FIXTURE_DATA(cg)): the
 * child's exit status, or -1.
 */
static int in_user_child(struct _test_data_cg *self, const char *dir,
			 const char *arg,
			 int (*fn)(struct _test_data_cg *, const char *))
{
	char old[16] = "0";
	int status = -1;
	pid_t child;

	ltt_read_str(USER_SESSIONS, old, sizeof(old));
	if (ltt_write_str(USER_SESSIONS, "1"))
		return -1;
	child = fork();
	if (!child)
		_exit(cg_move(dir, getpid()) ? 99 : fn(self, arg));
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status))
		status = -1;
	ltt_write_str(USER_SESSIONS, old);
	return status < 0 ? -1 : WEXITSTATUS(status);
}

/*
 * In the session of a user of its own (a child in cgroup U of its own):
 * which of the cgroups A, B (root's workers) and U it learns of.  Exit
 * status: bit 0 U named, bit 1 A or B named, bit 2 root's workers
 * placed, bit 3 U named more than once, 99 setup.
 */
static void *idle_thread(void *arg)
{
	pause();
	return arg;
}

static int nobody_sees(struct _test_data_cg *self, const char *dir)
{
	static const char *const names[] = {
		"statedump_cgroup", "process_ns", NULL,
	};
	unsigned long long a = cg_id(self->a), b = cg_id(self->b);
	unsigned long long u = cg_id(dir);
	pid_t wa = self->wa.pid, wb = self->wb.pid;
	struct ltt_session s;
	struct ltt_trace t = { 0 };
	pthread_t th[4];
	int seen = 0;
	size_t i;

	/* Threads, each a task of U the dump names once. */
	for (i = 0; i < 4; i++)
		if (pthread_create(&th[i], NULL, idle_thread, NULL))
			return 99;
	if (become_test_user())
		return 99;
	if (ltt_session_open(&s, NULL) || ltt_open_readers(&s) ||
	    ltt_set_events(&s, names) || ltt_start(s.fd))
		return 99;
	usleep(200000);
	if (ltt_stop(s.fd) || ltt_read_stopped(&s, &t))
		return 99;
	for (i = 0; i < t.n; i++) {
		const struct ltt_event *e = &t.ev[i];
		__s64 id;

		if (ltt_ev_is(&s.reg, e, "statedump_cgroup")) {
			id = idv(ltt_ev_field(&s.reg, e, "id"));
			if (id == idv(u))
				seen |= seen & 1 ? 8 : 1;
			else if (id == idv(a) || id == idv(b))
				seen |= 2;
		} else if (ltt_ev_is(&s.reg, e, "process_ns")) {
			id = idv(ltt_ev_field(&s.reg, e, "cgroup"));
			if (id == idv(a) || id == idv(b) ||
			    ltt_ev_field(&s.reg, e, "pid") == wa ||
			    ltt_ev_field(&s.reg, e, "pid") == wb)
				seen |= 4;
		}
	}
	return seen;
}

/*
 * A user session learns the cgroup of its own tasks, and nothing of the
 * cgroups or placement of another user's.
 */
TEST_F(cg, a_user_session_learns_only_its_own_cgroups)
{
	char u[256];
	int seen;

	snprintf(u, sizeof(u), "%s/U", self->top);
	ASSERT_EQ(0, mkdir(u, 0755));
	seen = in_user_child(self, u, u, nobody_sees);
	rmdir(u);
	ASSERT_LE(0, seen) TH_LOG("%s", ltt_err);
	ASSERT_NE(99, seen) TH_LOG("the child could not record");
	EXPECT_EQ(1, seen & 1) TH_LOG("its own cgroup unnamed");
	EXPECT_EQ(0, seen & 2) TH_LOG("another cgroup named");
	EXPECT_EQ(0, seen & 4) TH_LOG("root's tasks placed");
	EXPECT_EQ(0, seen & 8) TH_LOG("its cgroup named twice");
}

/*
 * Nobody's user session filtered on cgroup A, where root's worker and
 * nobody's own task both live: exit status bit 0 root's worker's calls
 * recorded, bit 1 its own not all recorded, bit 2 a cgroup it cannot
 * open was taken by a path-only fd, 99 setup.
 */
static int nobody_filters(struct _test_data_cg *self, const char *hidden)
{
	struct ltt_worker *wa = &self->wa;
	const char *a = self->a;
	struct ltt_session s;
	struct ltt_trace t = { 0 };
	int seen = 0, fd, i;

	if (become_test_user())
		return 99;
	/* Root's 0700 cgroup: not to be opened, nor taken by O_PATH. */
	if (open(hidden, O_RDONLY | O_DIRECTORY) >= 0 || errno != EACCES)
		return 99;
	fd = open(hidden, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (ltt_session_open(&s, NULL) || ltt_open_readers(&s) ||
	    ltt_set_events(&s, entries))
		return 99;
	if (fd >= 0 && (set_cgroups(s.fd, &fd, 1) == 0 || errno != EBADF))
		seen |= 4;
	fd = open(a, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || set_cgroups(s.fd, &fd, 1) || ltt_start(s.fd))
		return 99;
	if (ltt_worker_send(wa, 'g'))
		return 99;
	for (i = 0; i < CALLS; i++)
		syscall(__NR_getppid);
	if (ltt_worker_wait(wa, 'g') || ltt_stop(s.fd) ||
	    ltt_read_stopped(&s, &t))
		return 99;
	if (ltt_getppids(&s.reg, &t, wa->pid))
		seen |= 1;
	if (ltt_getppids(&s.reg, &t, getpid()) != CALLS)
		seen |= 2;
	return seen;
}

/*
 * A filter narrows, never widens: nobody's session on a cgroup that
 * root's task shares records nobody's calls there and none of root's;
 * a cgroup nobody may not open cannot be named by a path-only fd.
 */
TEST_F(cg, a_user_session_filter_shows_nothing_of_root_s_tasks)
{
	char hidden[256];
	int seen;

	snprintf(hidden, sizeof(hidden), "%s/H", self->top);
	ASSERT_EQ(0, mkdir(hidden, 0700));
	ASSERT_EQ(0, chmod(hidden, 0700));
	seen = in_user_child(self, self->a, hidden, nobody_filters);
	rmdir(hidden);
	ASSERT_LE(0, seen) TH_LOG("%s", ltt_err);
	ASSERT_NE(99, seen) TH_LOG("the child could not record");
	EXPECT_EQ(0, seen & 1) TH_LOG("root's calls recorded");
	EXPECT_EQ(0, seen & 2) TH_LOG("its own calls missing");
	EXPECT_EQ(0, seen & 4) TH_LOG("a path-only fd of a hidden cgroup taken");
}

/*
 * A task in a cgroup namespace of its own makes no user session: the
 * records' paths start at the hierarchy's root, which it must not see.
 */
TEST_F(cg, no_user_session_from_a_cgroup_namespace)
{
	char old[16] = "0";
	pid_t child;
	int status;

	ltt_read_str(USER_SESSIONS, old, sizeof(old));
	ASSERT_EQ(0, ltt_write_str(USER_SESSIONS, "1")) TH_LOG("%s", ltt_err);
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		struct ltt_create c = ltt_create_default;
		int fd;

		if (cg_move(self->a, getpid()) || unshare(CLONE_NEWCGROUP) ||
		    setgid(TEST_UID) || setuid(TEST_UID))
			_exit(99);
		fd = ltt(LTT_CMD_CREATE, &c, sizeof(c));
		_exit(fd >= 0 ? 1 : errno == EPERM ? 0 : 2);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ltt_write_str(USER_SESSIONS, old);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_NE(99, WEXITSTATUS(status)) TH_LOG("no cgroup namespace here");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("CREATE from a cgroup namespace: %s",
		       WEXITSTATUS(status) == 1 ? "a session" : "not EPERM");
}

TEST_HARNESS_MAIN
