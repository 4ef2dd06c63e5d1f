// SPDX-License-Identifier: GPL-2.0
/*
 * Boot tracing: with ltt.boot= on the kernel command line a session
 * records from before the first user-space process; LTT_CMD_BOOT hands
 * it over once, to root only.  Its trace holds init's exec, the
 * processes that led to this test, and a marker logged now, in that
 * order, with its accounting exact.  Runs first in the guest, so that
 * the boot session does not record the other tests.
 */
#define _GNU_SOURCE
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ltt_util.h"

/* Is ltt.boot= on the kernel command line? */
static bool boot_asked(void)
{
	char line[4096];
	FILE *f = fopen("/proc/cmdline", "r");
	bool asked;

	if (!f)
		return false;
	asked = fgets(line, sizeof(line), f) && strstr(line, "ltt.boot=");
	fclose(f);
	return asked;
}

static int take_boot(void)
{
	struct ltt_boot b = { 0 };

	return ltt(LTT_CMD_BOOT, &b, sizeof(b));
}

/* A custom string event "ltt_boot_marker" with @text: 0, or -1. */
static int log_marker(const char *text)
{
	struct ltt_event_create c = {
		.name = "ltt_boot_marker",
		.n_fields = 1,
		.fields = { { .name = "text", .type = LTT_FIELD_STRING } },
	};
	struct ltt_event_log l = { .size = strlen(text) + 1,
				   .data = (uintptr_t)text };
	int ret;

	l.event_fd = ltt(LTT_CMD_EVENT_CREATE, &c, sizeof(c));
	if (l.event_fd < 0)
		return -1;
	ret = ltt(LTT_CMD_EVENT_LOG, &l, sizeof(l));
	close(l.event_fd);
	return ret;
}

/* The first record of @name (whose string is @str if not NULL), or NULL. */
static const struct ltt_event *first(const struct ltt_registry *reg,
				     const struct ltt_trace *t,
				     const char *name, const char *str)
{
	const struct ltt_event *best = NULL;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (ltt_ev_is(reg, &t->ev[i], name) &&
		    (!str || strstr(t->ev[i].str, str)) &&
		    (!best || t->ev[i].ts < best->ts))
			best = &t->ev[i];
	return best;
}

/* Events the session lost, on all CPUs, as STATUS last said. */
static __u64 lost_total(const struct ltt_session *s)
{
	__u64 n = 0;
	unsigned int c;

	for (c = 0; c < s->n_cpus; c++)
		n += s->st[c].lost;
	return n;
}

TEST(boot_session_holds_init_and_the_first_processes)
{
	const struct ltt_event *init, *me, *mark;
	struct ltt_trace t = { 0 };
	struct ltt_registry reg;
	struct ltt_session s;
	int fd, status;
	pid_t child;

	if (!boot_asked())
		SKIP(return, "no ltt.boot= on the kernel command line");
	/* Nobody else may take it. */
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		if (setgid(65534) || setuid(65534))
			_exit(99);
		_exit(take_boot() == -1 && errno == EPERM ? 0 : 1);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("nobody's LTT_CMD_BOOT");

	fd = take_boot();
	ASSERT_LE(0, fd) TH_LOG("LTT_CMD_BOOT: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, take_boot());
	EXPECT_EQ(ENOENT, errno) TH_LOG("the boot session, taken twice");
	memset(&s, 0, sizeof(s));
	ASSERT_EQ(0, ltt_registry_load(&reg)) TH_LOG("%s", ltt_err);
	s.reg = reg;
	ASSERT_EQ(0, ltt_session_adopt(&s, fd)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_open_readers(&s)) TH_LOG("%s", ltt_err);
	errno = 0;
	EXPECT_EQ(-1, ltt_start(s.fd)) TH_LOG("it records already");
	EXPECT_EQ(EBUSY, errno);

	ASSERT_EQ(0, log_marker("ltt_boot_test here"))
		TH_LOG("%s", strerror(errno));
	/* The marker's type is new: the registry must describe it. */
	ltt_registry_free(&s.reg);
	ASSERT_EQ(0, ltt_registry_load(&s.reg)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_stop(s.fd)) TH_LOG("STOP: %s", strerror(errno));
	ASSERT_EQ(0, ltt_read_stopped(&s, &t)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_check_accounting(&s)) TH_LOG("%s", ltt_err);

	init = first(&s.reg, &t, "process_exec", "/init");
	me = first(&s.reg, &t, "process_exec", "ltt_boot_test");
	mark = first(&s.reg, &t, "ltt_boot_marker", "ltt_boot_test here");
	ASSERT_NE(NULL, init) TH_LOG("no exec of /init in %zu records", t.n);
	EXPECT_EQ(1, ltt_ev_field(&s.reg, init, "pid")) TH_LOG("init is pid 1");
	ASSERT_NE(NULL, me) TH_LOG("no exec of this test (%llu lost: a buffer filled?)",
				   (unsigned long long)lost_total(&s));
	ASSERT_NE(NULL, mark) TH_LOG("no marker");
	EXPECT_LT(init->ts, me->ts);
	EXPECT_LT(me->ts, mark->ts);
	EXPECT_LT((size_t)0, ltt_count(&s.reg, &t, "process_fork", -1))
		TH_LOG("the processes of the boot");
	ltt_trace_free(&t);
	ltt_session_close(&s);
}

TEST_HARNESS_MAIN
