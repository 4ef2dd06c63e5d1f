// SPDX-License-Identifier: GPL-2.0
/*
 * Custom events: types made from user space with LTT_CMD_EVENT_CREATE and
 * logged with LTT_CMD_EVENT_LOG, their limits and lifetime; a flood of
 * them on one CPU beside kernel events on another; the sysctl
 * kernel.ltt_user_sessions and what a user session may see; and the
 * kprobe samples of samples/ltt/, loaded as modules.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <libgen.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include "kselftest_harness.h"
#include "ltt_workload.h"

/* The ABI's sizes are those of the structs. */
static_assert(sizeof(struct ltt_event_create) == LTT_EVENT_CREATE_SIZE_VER1,
	      "struct ltt_event_create");
static_assert(sizeof(struct ltt_event_log) == LTT_EVENT_LOG_SIZE_VER0,
	      "struct ltt_event_log");
static_assert(sizeof(struct ltt_event_info) == LTT_EVENT_INFO_SIZE_VER1,
	      "struct ltt_event_info");

#define USER_SESSIONS	"/proc/sys/kernel/ltt_user_sessions"
#define NOBODY		65534

FIXTURE(custom) {
	struct ltt_session s;
	unsigned int cpu;
	pid_t pid;
};

FIXTURE_SETUP(custom)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, NULL);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(custom)
{
	ltt_session_close(&self->s);
}

/* A field for struct ltt_event_create. */
#define INT(n, sz, sgn)	{ .name = n, .size = sz,			\
			  .type = (sgn) ? LTT_FIELD_SIGNED : LTT_FIELD_UNSIGNED }
#define STR(n)		{ .name = n, .type = LTT_FIELD_STRING }

/* LTT_CMD_EVENT_CREATE; the event fd, or -1 with errno. */
static int create(const char *name, const char *desc,
		  const struct ltt_field_info *fields, unsigned int n)
{
	struct ltt_event_create c = { .n_fields = n };

	snprintf(c.name, sizeof(c.name), "%s", name);
	snprintf(c.description, sizeof(c.description), "%s", desc);
	if (n <= LTT_FIELDS_MAX)
		memcpy(c.fields, fields, n * sizeof(*fields));
	return ltt(LTT_CMD_EVENT_CREATE, &c, sizeof(c));
}

/* LTT_CMD_EVENT_LOG; 0, or -1 with errno. */
static int log_event(int fd, const void *data, size_t size)
{
	struct ltt_event_log l = {
		.event_fd = fd,
		.size = size,
		.data = (uintptr_t)data,
	};

	return ltt(LTT_CMD_EVENT_LOG, &l, sizeof(l));
}

/* LTT_CMD_EVENT_INFO of exactly @id: 0, or -1 (ENOENT: none). */
static int info_of(unsigned int id, struct ltt_event_info *ei)
{
	memset(ei, 0, sizeof(*ei));
	ei->id = id;
	if (ltt(LTT_CMD_EVENT_INFO, ei, sizeof(*ei)))
		return -1;
	if (ei->id != id) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

/* Learn the custom events made since the session was opened. */
static int reload(struct ltt_session *s)
{
	ltt_registry_free(&s->reg);
	return ltt_registry_load(&s->reg);
}

/* The test record: two integers and a string, packed. */
struct rec {
	__u32 a;
	__s64 b;
	const char *msg;
};

static const struct ltt_field_info rec_fields[] = {
	INT("a", 4, 0), INT("b", 8, 1), STR("msg"),
};

/* Lay @r out in @buf as the kernel stores it; returns its size. */
static size_t rec_pack(const struct rec *r, unsigned char *buf)
{
	size_t len = strlen(r->msg) + 1;

	memcpy(buf, &r->a, 4);
	memcpy(buf + 4, &r->b, 8);
	memcpy(buf + 12, r->msg, len);
	return 12 + len;
}

/*
 * A type made from user space is described like the kernel's events, and
 * its records land, decoded, between the system calls around them.
 */
TEST_F(custom, user_event_is_described_and_recorded_in_the_timeline)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	struct ltt_event_info ei;
	struct rec r[3] = {
		{ 1, -1, "one" }, { 2, 1LL << 40, "two" }, { 3, 0, "" },
	};
	long before = -1, after = -1, ev[3];
	unsigned char buf[64];
	size_t i, n = 0;
	int fd, id;

	fd = create("ltt_test_event", "a test", rec_fields, 3);
	ASSERT_LE(0, fd) TH_LOG("EVENT_CREATE: %s", strerror(errno));
	ASSERT_EQ(0, reload(&self->s)) TH_LOG("%s", ltt_err);
	id = ltt_event_id(reg, "ltt_test_event");
	ASSERT_LE(0, id);
	ASSERT_EQ(0, info_of(id, &ei));
	EXPECT_EQ(LTT_EVENT_F_CUSTOM, ei.flags);
	EXPECT_EQ(getpid(), ei.owner);
	EXPECT_STREQ("a test", ei.description);
	EXPECT_EQ(12U, ei.payload_size);
	EXPECT_EQ(3U, ei.n_fields);

	FILTER_SELF();
	START();
	syscall(SYS_getppid);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, log_event(fd, buf, rec_pack(&r[i], buf)))
			TH_LOG("EVENT_LOG: %s", strerror(errno));
	syscall(SYS_getppid);
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++) {
		if (t.ev[i].id == (unsigned int)id && n < 3)
			ev[n++] = i;
		else if (IS(&t.ev[i], "syscall_entry") &&
			 FIELD(&t.ev[i], "id") == SYS_getppid && before < 0)
			before = i;
		else if (IS(&t.ev[i], "syscall_entry") &&
			 FIELD(&t.ev[i], "id") == SYS_getppid)
			after = i;
	}
	ASSERT_EQ((size_t)3, n);
	ASSERT_LE(0, after) TH_LOG("two getppid() calls around the events");
	for (i = 0; i < 3; i++) {
		const struct ltt_event *e = &t.ev[ev[i]];

		EXPECT_EQ(r[i].a, FIELD(e, "a"));
		EXPECT_EQ(r[i].b, FIELD(e, "b"));
		EXPECT_STREQ(r[i].msg, e->str);
		EXPECT_EQ(self->pid, e->pid);
		EXPECT_LT(before, ev[i]);
		EXPECT_GT(after, ev[i]);
		EXPECT_LE(t.ev[before].ts, e->ts);
		EXPECT_GE(t.ev[after].ts, e->ts);
	}
	ltt_trace_free(&t);
	close(fd);
}

/* Bad names and layouts are EINVAL; a name that is taken is EEXIST. */
TEST_F(custom, bad_definitions_fail)
{
	static const struct {
		const char *name;
		struct ltt_field_info f[2];
		unsigned int n;
		int err;
	} bad[] = {
		{ "", { INT("a", 4, 0) }, 1, EINVAL },
		{ "9lives", { INT("a", 4, 0) }, 1, EINVAL },
		{ "has-dash", { INT("a", 4, 0) }, 1, EINVAL },
		{ "ltt_t", { INT("a", 3, 0) }, 1, EINVAL },
		{ "ltt_t", { INT("a", 4, 0), INT("a", 4, 0) }, 2, EINVAL },
		{ "ltt_t", { STR("s"), INT("a", 4, 0) }, 2, EINVAL },
		{ "ltt_t", { { .name = "s", .type = 2, .size = 4 } }, 1, EINVAL },
		{ "ltt_t", { { .name = "x", .type = 7, .size = 4 } }, 1, EINVAL },
		{ "ltt_t", { { .name = "x", .size = 4, .offset = 2 } }, 1, EINVAL },
		{ "ltt_t", { { .name = "", .size = 4 } }, 1, EINVAL },
		{ "ltt_t", { INT("a", 4, 0) }, LTT_FIELDS_MAX + 1, EINVAL },
		{ "syscall_entry", { INT("a", 4, 0) }, 1, EEXIST },
	};
	struct ltt_field_info other = INT("a", 8, 0);
	/* A flag this kernel does not know (ltt_enable_test has the one). */
	struct ltt_event_create c = {
		.name = "ltt_t", .flags = LTT_EVENT_CREATE_FLAGS_MAX,
	};
	struct ltt_event_info e1, e2;
	unsigned int i;
	int fd, fd2;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		EXPECT_EQ(-1, create(bad[i].name, "", bad[i].f, bad[i].n))
			TH_LOG("case %u accepted", i);
		EXPECT_EQ(bad[i].err, errno) TH_LOG("case %u", i);
	}
	errno = 0;
	EXPECT_EQ(-1, ltt(LTT_CMD_EVENT_CREATE, &c, sizeof(c)));
	EXPECT_EQ(EINVAL, errno) TH_LOG("an unknown flag");

	/* The same name and layout share the type; another layout may not. */
	fd = create("ltt_test_shared", "", rec_fields, 3);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	fd2 = create("ltt_test_shared", "", rec_fields, 3);
	ASSERT_LE(0, fd2) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, reload(&self->s));
	ASSERT_EQ(0, info_of(ltt_event_id(&self->s.reg, "ltt_test_shared"),
			     &e1));
	close(fd);
	ASSERT_EQ(0, info_of(e1.id, &e2)) TH_LOG("one creator still holds it");
	EXPECT_EQ(LTT_EVENT_F_CUSTOM, e2.flags);
	errno = 0;
	EXPECT_EQ(-1, create("ltt_test_shared", "", &other, 1));
	EXPECT_EQ(EEXIST, errno);
	close(fd2);
}

/* What does not fit the type, or the ABI, is refused with its errno. */
TEST_F(custom, bad_logs_fail)
{
	static char big[LTT_EVENT_SIZE_MAX + 1];
	const struct rec abc = { 1, 2, "abc" };
	unsigned char r[64];
	int fd, ints;

	fd = create("ltt_test_logs", "", rec_fields, 3);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ints = create("ltt_test_ints", "", rec_fields, 2);
	ASSERT_LE(0, ints) TH_LOG("%s", strerror(errno));

	memset(big, 'x', sizeof(big));
	big[sizeof(big) - 1] = '\0';
	errno = 0;
	EXPECT_EQ(-1, log_event(fd, big, sizeof(big)));
	EXPECT_EQ(E2BIG, errno) TH_LOG("%zu bytes", sizeof(big));

	errno = 0;
	EXPECT_EQ(-1, log_event(fd, r, 12));
	EXPECT_EQ(EINVAL, errno) TH_LOG("no string at all");
	errno = 0;
	EXPECT_EQ(-1, log_event(fd, r, rec_pack(&abc, r) - 1));
	EXPECT_EQ(EINVAL, errno) TH_LOG("string without its NUL");
	errno = 0;
	EXPECT_EQ(-1, log_event(ints, r, 13));
	EXPECT_EQ(EINVAL, errno) TH_LOG("13 bytes for a 12-byte record");
	errno = 0;
	EXPECT_EQ(-1, log_event(ints, ltt_unmapped_page(), 12));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, log_event(self->s.fd, r, 12));
	EXPECT_EQ(EINVAL, errno) TH_LOG("a session fd is no event fd");
	close(ints);
	errno = 0;
	EXPECT_EQ(-1, log_event(ints, r, 12));
	EXPECT_EQ(EBADF, errno);
	close(fd);
}

/*
 * A string field is one string: bytes after an early NUL would be read
 * as records of their own.  "x\0" followed by a crafted process_exec
 * record (the forgery a reviewer showed) is refused, and the trace holds
 * no trace of it.
 */
TEST_F(custom, string_with_an_early_nul_is_refused)
{
	const struct ltt_field_info f = STR("text");
	struct ltt_trace t = { 0 };
	unsigned char forged[2 + 24] = "x";
	unsigned int exec_id;
	unsigned int i;
	__u32 word;
	int fd;

	exec_id = ltt_event_id(&self->s.reg, "process_exec");
	word = exec_id | (1U << LTT_HDR_ID_BITS);
	memcpy(forged + 2, &word, sizeof(word));
	memcpy(forged + 6, &(__s32){ 4242 }, 4);
	memcpy(forged + 10, "/forged/by/u", 13);
	forged[sizeof(forged) - 1] = '\0';

	fd = create("ltt_test_forge", "", &f, 1);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, reload(&self->s));
	FILTER_SELF();
	START();
	errno = 0;
	EXPECT_EQ(-1, log_event(fd, forged, sizeof(forged)))
		TH_LOG("a string whose first NUL is at byte 1 of %zu",
		       sizeof(forged));
	EXPECT_EQ(EINVAL, errno);
	forged[1] = 'y';
	errno = 0;
	EXPECT_EQ(-1, log_event(fd, forged, sizeof(forged)))
		TH_LOG("a NUL in the middle of the string");
	EXPECT_EQ(EINVAL, errno);
	STOP_AND_READ(&t);
	EXPECT_EQ((size_t)0, ltt_count(&self->s.reg, &t, "ltt_test_forge", -1));
	for (i = 0; i < t.n; i++)
		if (t.ev[i].id == exec_id)
			EXPECT_NE(4242, t.ev[i].f[0]) TH_LOG("a forged exec");
	ltt_trace_free(&t);
	close(fd);
}

/*
 * The largest payload, seven 8-byte integers and a string of
 * LTT_STRING_MAX bytes with its NUL, is recorded whole; a string one byte
 * longer is E2BIG, so that no reader meets a string longer than the
 * limit they all know.
 */
TEST_F(custom, largest_event_is_recorded_and_longer_strings_refused)
{
	static unsigned char data[LTT_EVENT_SIZE_MAX + 1];
	struct ltt_field_info f[LTT_FIELDS_MAX];
	const unsigned int fixed = 8 * (LTT_FIELDS_MAX - 1);
	struct ltt_trace t = { 0 };
	unsigned int i, n = 0;
	int fd, id;

	for (i = 0; i < LTT_FIELDS_MAX - 1; i++) {
		f[i] = (struct ltt_field_info)INT("", 8, 0);
		snprintf(f[i].name, sizeof(f[i].name), "i%u", i);
	}
	f[i] = (struct ltt_field_info)STR("text");
	ASSERT_EQ(LTT_EVENT_SIZE_MAX, fixed + LTT_STRING_MAX);
	memset(data, 'y', sizeof(data));
	fd = create("ltt_test_big", "", f, LTT_FIELDS_MAX);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, reload(&self->s));
	id = ltt_event_id(&self->s.reg, "ltt_test_big");

	FILTER_SELF();
	START();
	data[LTT_EVENT_SIZE_MAX] = '\0';
	errno = 0;
	EXPECT_EQ(-1, log_event(fd, data, LTT_EVENT_SIZE_MAX + 1));
	EXPECT_EQ(E2BIG, errno) TH_LOG("a payload past LTT_EVENT_SIZE_MAX");
	data[LTT_EVENT_SIZE_MAX - 1] = '\0';
	EXPECT_EQ(0, log_event(fd, data, LTT_EVENT_SIZE_MAX))
		TH_LOG("%u bytes: %s", LTT_EVENT_SIZE_MAX, strerror(errno));
	STOP_AND_READ(&t);
	for (i = 0; i < t.n; i++) {
		if (t.ev[i].id != (unsigned int)id)
			continue;
		n++;
		EXPECT_EQ(LTT_STRING_MAX - 1, strlen(t.ev[i].str));
	}
	EXPECT_EQ(1U, n) TH_LOG("the largest event, recorded once");
	ltt_trace_free(&t);
	close(fd);

	fd = create("ltt_test_long", "", &f[LTT_FIELDS_MAX - 1], 1);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	memset(data, 'z', sizeof(data));
	data[LTT_STRING_MAX] = '\0';
	errno = 0;
	EXPECT_EQ(-1, log_event(fd, data, LTT_STRING_MAX + 1));
	EXPECT_EQ(E2BIG, errno) TH_LOG("a string of %d bytes with its NUL",
				       LTT_STRING_MAX + 1);
	data[LTT_STRING_MAX - 1] = '\0';
	EXPECT_EQ(0, log_event(fd, data, LTT_STRING_MAX));
	close(fd);
}

/*
 * A type lives while an fd holds it; then, while a session exists, it is
 * described as dead with its id kept; then it is gone.  A process that
 * exits lets go of its types.  The same definition made again while it
 * is dead gets its id back.
 */
TEST_F(custom, types_die_with_their_fd_and_their_process)
{
	const struct ltt_field_info f = INT("v", 4, 0);
	struct ltt_event_info ei;
	int fd, status, id, id2;
	pid_t child;

	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		_exit(create("ltt_test_orphan", "", &f, 1) < 0);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, status) TH_LOG("the child could not create its event");
	ASSERT_EQ(0, reload(&self->s));
	id = ltt_event_id(&self->s.reg, "ltt_test_orphan");
	ASSERT_LE(0, id);
	ASSERT_EQ(0, info_of(id, &ei));
	EXPECT_EQ(LTT_EVENT_F_CUSTOM | LTT_EVENT_F_DEAD, ei.flags)
		TH_LOG("its process exited while a session exists");

	fd = create("ltt_test_orphan", "", &f, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, info_of(id, &ei)) TH_LOG("revived with the same id");
	EXPECT_EQ(LTT_EVENT_F_CUSTOM, ei.flags);
	EXPECT_EQ(0, log_event(fd, &id, sizeof(__u32)));
	close(fd);
	ASSERT_EQ(0, info_of(id, &ei));
	EXPECT_EQ(LTT_EVENT_F_CUSTOM | LTT_EVENT_F_DEAD, ei.flags);

	fd = create("ltt_test_other", "", &f, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reload(&self->s));
	id2 = ltt_event_id(&self->s.reg, "ltt_test_other");
	EXPECT_NE(id, id2) TH_LOG("a dead type's id is not reused");
	close(fd);

	/* The last session goes: the dead types with it. */
	ltt_session_close(&self->s);
	errno = 0;
	EXPECT_EQ(-1, info_of(id, &ei));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, info_of(id2, &ei));
}

/*
 * A process flooding custom events on one CPU loses events there, all
 * counted, while a task on another CPU has every one of its own
 * recorded.
 */
TEST_F(custom, flood_on_one_cpu_leaves_the_others_whole)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_field_info f = INT("n", 8, 0);
	unsigned int other, i, calls = 2000;
	struct ltt_trace t = { 0 };
	struct ltt_reader *rf, *rs;
	pid_t pids[2], child;
	int fd, status;

	if (self->s.n_cpus < 2)
		SKIP(return, "needs two CPUs with a buffer");
	other = self->s.rd[self->s.rd[0].cpu == self->cpu].cpu;
	fd = create("ltt_test_flood", "", &f, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reload(&self->s));

	pids[0] = self->pid;
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		__u64 n;

		if (ltt_pin_to_cpu(other))
			_exit(2);
		/* Until the buffer (8 x 16 KiB) is full several times. */
		for (n = 0; n < 60000; n++)
			if (log_event(fd, &n, sizeof(n)))
				_exit(1);
		_exit(0);
	}
	pids[1] = child;
	ASSERT_EQ(0, ltt_set_pids(self->s.fd, pids, 2));
	/*
	 * sched_change tells whose the records are: the child starts on
	 * this CPU, and may run there in the middle of a getppid().
	 */
	FILTER_EVENTS("syscall_entry", "syscall_exit", "sched_change",
		      "ltt_test_flood");
	START();
	for (i = 0; i < calls; i++)
		syscall(SYS_getppid);
	/* Keep reading this CPU only: the flood's CPU is left to fill. */
	rs = ltt_reader_of(&self->s, self->cpu);
	while (!waitpid(child, &status, WNOHANG)) {
		while (ltt_read_packet(&self->s, rs, &t) == LTT_READ_PACKET)
			;
		usleep(10000);
	}
	ASSERT_EQ(0, ltt_stop(self->s.fd));
	ASSERT_EQ(0, status) TH_LOG("the flooding child failed");
	ASSERT_EQ(0, ltt_read_stopped(&self->s, &t)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_check_accounting(&self->s)) TH_LOG("%s", ltt_err);

	EXPECT_EQ((long)calls,
		  ltt_syscall_returns(reg, &t, self->cpu, SYS_getppid, NULL, 0))
		TH_LOG("every getppid() on cpu %u: %s", self->cpu, ltt_err);
	rf = ltt_reader_of(&self->s, other);
	EXPECT_LT(0ULL, self->s.st[rf - self->s.rd].lost)
		TH_LOG("cpu %u: the flood should overflow its buffer", other);
	EXPECT_EQ(0ULL, self->s.st[ltt_reader_of(&self->s, self->cpu) -
				   self->s.rd].lost);
	EXPECT_LT(0U, ltt_count(reg, &t, "ltt_test_flood", other));
	ltt_trace_free(&t);
	close(fd);
}

static int write_sysctl(const char *value)
{
	int fd = open(USER_SESSIONS, O_WRONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, value, strlen(value)) == (ssize_t)strlen(value) ? 0 : -1;
	close(fd);
	return ret;
}

/*
 * Become nobody, dumpable again as after an exec (a user session records
 * no task that changed its uids since); the caller is a forked child.
 */
static void become_nobody(void)
{
	if (setgid(NOBODY) || setuid(NOBODY) ||
	    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)) {
		fprintf(stderr, "# setuid(nobody): %s\n", strerror(errno));
		_exit(99);
	}
}

/* kernel.ltt_user_sessions = 0: the unprivileged may do nothing. */
TEST(user_sessions_off_refuse_the_unprivileged)
{
	const struct ltt_field_info f = INT("v", 4, 0);
	int status;
	pid_t child;

	ASSERT_EQ(0, write_sysctl("0"))
		TH_LOG(USER_SESSIONS ": %s", strerror(errno));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		become_nobody();
		if (ltt(LTT_CMD_CREATE, &ltt_create_default,
			sizeof(ltt_create_default)) != -1 || errno != EPERM)
			_exit(1);
		if (create("ltt_test_nobody", "", &f, 1) != -1 ||
		    errno != EPERM)
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("1: CREATE, 2: EVENT_CREATE was not EPERM");
}

/* Under nobody: the user session and what it must (not) hold. */
static int nobody_session(int go, int done, int *root_ids)
{
	const struct ltt_field_info f = INT("v", 4, 0);
	struct ltt_session s;
	struct ltt_trace t = { 0 };
	int fd, mine, helper_pid, status, bad = 0;
	size_t i, own = 0;
	char c = 0;

	if (ltt_session_open(&s, &ltt_create_big) || ltt_open_readers(&s)) {
		fprintf(stderr, "# user session: %s\n", ltt_err);
		return 10;
	}
	fd = create("ltt_test_user", "", &f, 1);
	if (fd < 0 || reload(&s))
		return 11;
	mine = ltt_event_id(&s.reg, "ltt_test_user");
	if (ltt_start(s.fd))
		return 12;
	helper_pid = fork();
	if (!helper_pid) {
		int fdw = open("/tmp/ltt-user-file", O_RDWR | O_CREAT, 0600);

		syscall(SYS_getppid);
		_exit(fdw < 0 || log_event(fd, &fdw, 4));
	}
	waitpid(helper_pid, &status, 0);
	if (write(go, &c, 1) != 1 || read(done, &c, 1) != 1)
		return 13;
	if (ltt_stop(s.fd) || ltt_read_stopped(&s, &t)) {
		fprintf(stderr, "# user session: %s\n", ltt_err);
		return 14;
	}
	for (i = 0; i < t.n; i++) {
		const struct ltt_event *e = &t.ev[i];
		const char *name = s.reg.ev[e->id].name;

		if ((int)e->id == mine)
			own++;
		if (!strncmp(name, "irq_", 4) || !strncmp(name, "trap_", 5) ||
		    !strncmp(name, "mm_", 3) || !strncmp(name, "net_", 4) ||
		    !strcmp(name, "softirq") || !strncmp(name, "tasklet", 7) ||
		    !strcmp(name, "process_kthread") ||
		    !strcmp(name, "timer_tick") ||
		    (int)e->id == root_ids[0] || (int)e->id == root_ids[1] ||
		    (e->pid && e->pid != getpid() && e->pid != helper_pid) ||
		    !strcmp(e->str, "/tmp/ltt-root-secret")) {
			fprintf(stderr, "# a user session holds %s of pid %d (\"%s\")\n",
				name, e->pid, e->str);
			bad = 1;
		}
		if (!strcmp(name, "sched_change") &&
		    ((ltt_ev_field(&s.reg, e, "in") &&
		      ltt_ev_field(&s.reg, e, "in") != getpid() &&
		      ltt_ev_field(&s.reg, e, "in") != helper_pid) ||
		     (ltt_ev_field(&s.reg, e, "out") &&
		      ltt_ev_field(&s.reg, e, "out") != getpid() &&
		      ltt_ev_field(&s.reg, e, "out") != helper_pid))) {
			fprintf(stderr, "# sched_change shows another user's pid\n");
			bad = 1;
		}
	}
	if (!own) {
		fprintf(stderr, "# the user's own custom event is missing\n");
		return 15;
	}
	if (!ltt_count(&s.reg, &t, "syscall_entry", -1))
		return 16;
	/* After exit_mm(): the task is still the user's, and dumpable. */
	for (i = 0, own = 0; i < t.n; i++)
		if (ltt_ev_is(&s.reg, &t.ev[i], "process_exit") &&
		    ltt_ev_field(&s.reg, &t.ev[i], "pid") == helper_pid)
			own++;
	if (own != 1) {
		fprintf(stderr, "# %zu process_exit of the user's child\n", own);
		return 18;
	}
	ltt_trace_free(&t);
	ltt_session_close(&s);
	return bad ? 17 : 0;
}

/*
 * kernel.ltt_user_sessions = 1: nobody records nobody's processes and
 * custom events, while root works and logs beside it; none of root's,
 * and nothing of the kernel's internals, reaches the user's trace.
 */
TEST(user_session_sees_only_its_own)
{
	const struct ltt_field_info f = INT("v", 4, 0);
	int go[2], done[2], status, rootfd, fd;
	int root_ids[2] = { -1, -1 };
	struct ltt_registry reg;
	pid_t child;
	char c;

	ASSERT_EQ(0, write_sysctl("1"))
		TH_LOG(USER_SESSIONS ": %s", strerror(errno));
	rootfd = create("ltt_test_root", "", &f, 1);
	ASSERT_LE(0, rootfd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_registry_load(&reg));
	root_ids[0] = ltt_event_id(&reg, "ltt_test_root");
	ltt_registry_free(&reg);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		become_nobody();
		_exit(nobody_session(go[1], done[0], root_ids));
	}
	/* Root's work while the user's session records. */
	ASSERT_EQ(1, read(go[0], &c, 1));
	fd = open("/tmp/ltt-root-secret", O_RDWR | O_CREAT, 0600);
	EXPECT_LE(0, fd);
	syscall(SYS_getppid);
	EXPECT_EQ(0, log_event(rootfd, &fd, 4));
	close(fd);
	unlink("/tmp/ltt-root-secret");
	ASSERT_EQ(1, write(done[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	write_sysctl("0");
	unlink("/tmp/ltt-user-file");
	close(rootfd);
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("10-16, 18: the user session failed or missed its own; 17: it saw too much");
}

/*
 * A user session's pid filter names only tasks its user may ptrace: one
 * of root's would tell when root's task runs, every switch into and out
 * of it timed to the nanosecond, even with its pid hidden.
 */
TEST(user_session_cannot_filter_on_another_users_task)
{
	pid_t child, root = getpid();
	int status;

	ASSERT_EQ(0, write_sysctl("1"))
		TH_LOG(USER_SESSIONS ": %s", strerror(errno));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		struct ltt_session s;
		pid_t own;

		become_nobody();
		own = getpid();
		if (ltt_session_open(&s, NULL))
			_exit(10);
		if (ltt_set_pids(s.fd, &root, 1) != -1 || errno != ESRCH)
			_exit(1);
		if (ltt_set_pids(s.fd, &own, 1))
			_exit(2);
		ltt_session_close(&s);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	write_sysctl("0");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("1: root's pid was taken; 2: the user's own was refused; 10: no session");
}

/* Root's task, on @cpu: sleeps and wakes until killed. */
static pid_t root_sleeper(unsigned int cpu)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	ltt_pin_to_cpu(cpu);
	for (;;)
		usleep(200);
}

/*
 * Under nobody, on @cpu beside root's sleeper: record 300 ms of busy
 * work and check the switches out of root's task.
 */
static int nobody_beside_root(unsigned int cpu)
{
	static const char *const sched[] = { "sched_change", NULL };
	struct ltt_session s;
	struct ltt_trace t = { 0 };
	size_t i, from_root = 0, leaked = 0;
	__u64 end;

	become_nobody();
	if (ltt_pin_to_cpu(cpu) || ltt_session_open(&s, &ltt_create_big) ||
	    ltt_set_events(&s, sched) || ltt_open_readers(&s) ||
	    ltt_start(s.fd)) {
		fprintf(stderr, "# user session: %s\n", ltt_err);
		return 10;
	}
	end = ltt_now_ns(CLOCK_MONOTONIC) + 300 * 1000 * 1000ULL;
	while (ltt_now_ns(CLOCK_MONOTONIC) < end)
		syscall(SYS_getppid);
	if (ltt_stop(s.fd) || ltt_read_stopped(&s, &t))
		return 11;
	for (i = 0; i < t.n; i++) {
		const struct ltt_event *e = &t.ev[i];

		if (!ltt_ev_is(&s.reg, e, "sched_change") ||
		    ltt_ev_field(&s.reg, e, "out") ||
		    ltt_ev_field(&s.reg, e, "in") != getpid())
			continue;
		from_root++;
		if (ltt_ev_field(&s.reg, e, "out_state"))
			leaked++;
	}
	ltt_trace_free(&t);
	ltt_session_close(&s);
	fprintf(stderr, "# %zu switches from a hidden task, %zu with its state\n",
		from_root, leaked);
	if (!from_root)
		return 12;
	return leaked ? 1 : 0;
}

/*
 * A user session records the switches between its user's task and
 * another user's, the other's pid as 0: its state (sleeping, blocked)
 * is not the user's to know either.
 */
TEST(user_session_sees_no_state_of_another_users_task)
{
	unsigned int cpu = 0;
	pid_t sleeper, child;
	int status;

	ASSERT_EQ(0, write_sysctl("1"))
		TH_LOG(USER_SESSIONS ": %s", strerror(errno));
	sleeper = root_sleeper(cpu);
	ASSERT_LE(0, sleeper);
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		_exit(nobody_beside_root(cpu));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	kill(sleeper, SIGKILL);
	waitpid(sleeper, NULL, 0);
	write_sysctl("0");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("1: a hidden task's state recorded; 10, 11: no session; 12: no switch");
}

/*
 * The kprobe samples read their probed function's arguments with
 * regs_get_kernel_argument(): CONFIG_SAMPLE_LTT depends on
 * HAVE_FUNCTION_ARG_ACCESS_API, which ARM, MIPS and SH do not have, and
 * on !S390: s390's regs_get_register() is not exported to modules.
 */
static bool samples_buildable(void)
{
	static const char *const machines[] = {	/* uname -m prefixes */
		"x86_64", "i386", "i486", "i586", "i686", "ppc", "aarch64",
		"riscv", "loongarch",
	};
	struct utsname u;
	size_t i;

	if (uname(&u))
		return true;
	for (i = 0; i < ARRAY_SIZE(machines); i++)
		if (!strncmp(u.machine, machines[i], strlen(machines[i])))
			return true;
	return false;
}

/* The sample modules, beside this program or under /lib/modules. */
static int load_module(const char *name)
{
	char path[4096], self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int fd, ret;

	if (n < 0)
		return -1;
	self[n] = '\0';
	snprintf(path, sizeof(path), "%s/%s.ko", dirname(self), name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ltt_fail("%s: %s (CONFIG_SAMPLE_LTT=m)", path,
				strerror(errno));
	ret = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	if (ret && errno != EEXIST)
		return ltt_fail("finit_module %s: %s", path, strerror(errno));
	return 0;
}

/*
 * samples/ltt: ltt_unlink logs the name of a file unlinked, ltt_kill the
 * signal, target and sender of a kill(); unloaded, their types are dead
 * but described while the session exists.
 */
TEST_F(custom, kprobe_samples_log_unlink_and_kill)
{
	const struct ltt_registry *reg = &self->s.reg;
	const char *path = "/tmp/ltt-sample-unlinked";
	struct ltt_trace t = { 0 };
	struct ltt_event_info ei;
	size_t i, unlinks = 0, kills = 0;
	int fd, status, unlink_id, kill_id;
	pid_t child, pids[2];

	if (!samples_buildable())
		SKIP(return, "no CONFIG_SAMPLE_LTT: no regs_get_kernel_argument() for modules");
	ASSERT_EQ(0, load_module("ltt_unlink")) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, load_module("ltt_kill")) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, reload(&self->s));
	unlink_id = ltt_event_id(reg, "unlink");
	kill_id = ltt_event_id(reg, "kill");
	ASSERT_LE(0, unlink_id);
	ASSERT_LE(0, kill_id);
	ASSERT_EQ(0, info_of(kill_id, &ei));
	EXPECT_EQ(LTT_EVENT_F_CUSTOM, ei.flags);
	EXPECT_EQ(0, ei.owner) TH_LOG("a module's type belongs to the kernel");

	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		pause();
		_exit(0);
	}
	pids[0] = self->pid;
	pids[1] = child;
	ASSERT_EQ(0, ltt_set_pids(self->s.fd, pids, 2));
	START();
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, unlink(path));
	usleep(20000);
	ASSERT_EQ(0, kill(child, SIGTERM));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	STOP_AND_READ(&t);
	EXPECT_TRUE(WIFSIGNALED(status));

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *e = &t.ev[i];

		if ((int)e->id == unlink_id && !strcmp(e->str, path)) {
			unlinks++;
			EXPECT_EQ(self->pid, e->pid);
		} else if ((int)e->id == kill_id &&
			   FIELD(e, "target") == child) {
			kills++;
			EXPECT_EQ(SIGTERM, FIELD(e, "sig"));
			EXPECT_EQ(self->pid, FIELD(e, "sender"));
			EXPECT_EQ(self->pid, e->pid);
		}
	}
	EXPECT_EQ((size_t)1, unlinks) TH_LOG("unlink events naming %s", path);
	EXPECT_EQ((size_t)1, kills) TH_LOG("kill events for pid %d", child);
	ltt_trace_free(&t);

	ASSERT_EQ(0, syscall(SYS_delete_module, "ltt_kill", O_NONBLOCK));
	ASSERT_EQ(0, syscall(SYS_delete_module, "ltt_unlink", O_NONBLOCK));
	ASSERT_EQ(0, info_of(kill_id, &ei)) TH_LOG("kept for the session");
	EXPECT_EQ(LTT_EVENT_F_CUSTOM | LTT_EVENT_F_DEAD, ei.flags);
}

TEST_HARNESS_MAIN
