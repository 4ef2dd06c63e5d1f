// SPDX-License-Identifier: GPL-2.0
/*
 * The shipped detectors (scripts/who-*.lua) on the fschanges fixture:
 * each case names its known culprit and says what it did; what is not
 * a change (a failed rename, a write to a descriptor dup2() moved
 * another file onto, a read) names nobody.  And what they rely on: the
 * descriptors followed through dup, fork and exec, fs_newname joined to
 * the event before it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../ltt/watch.h"
#include "tests.h"

#define SCRIPT(name)	LTT_SRCDIR "/scripts/" name ".lua"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * Run @script with argument @arg on @dir as `ltt watch` does; what it
 * prints goes to @out.
 */
static void detect(const char *script, const char *arg, const char *dir,
		   char *out, size_t len)
{
	char path[256], *args[] = { (char *)arg };
	const struct ltt_item *it;
	struct ltt_trace *t;
	const char *error;
	struct watch *w;
	int fd, saved;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/tmp/ltt-detect-%d.out", getpid());
	fflush(stdout);
	saved = dup(1);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 1);
	close(fd);
	w = watch_load(script, args, 1, &error);
	if (w) {
		t = ltt_trace_open(dir);
		assert_non_null(t);
		watch_bind(w, t);
		assert_int_equal(watch_start(w), 0);
		while (!watch_stopped(w) && ltt_trace_next(t, &it) > 0)
			assert_int_equal(watch_item(w, it), 0);
		assert_int_equal(watch_end(w), 0);
		watch_free(w);
		ltt_trace_close(t);
	}
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	if (!w)
		fail_msg("%s: %s", script, error);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	fclose(f);
	unlink(path);
}

/* Lines of @out holding @a and, after it, @b. */
static unsigned int lines_with(const char *out, const char *a, const char *b)
{
	unsigned int n = 0;
	const char *line = out;

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[1024];
		const char *p;

		snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
		p = strstr(buf, a);
		if (p && (!b || strstr(p + strlen(a), b)))
			n++;
		line += len + (end ? 1 : 0);
	}
	return n;
}

static unsigned int count_lines(const char *out)
{
	unsigned int n = 0;

	for (; *out; out++)
		n += *out == '\n';
	return n;
}

struct culprit {
	int pid;
	const char *comm, *what;
};

/* Each culprit is named once for what it did, with that. */
static void expect_culprits(const char *out, const char *verb,
			    const struct culprit *c, unsigned int n)
{
	char who[128];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(who, sizeof(who), "%s pid %d [%s] ", verb, c[i].pid,
			 c[i].comm);
		if (lines_with(out, who, c[i].what) != 1)
			fail_msg("no line \"%s... %s\" in:\n%s", who,
				 c[i].what, out);
	}
}

static void expect_not_named(const char *out, int pid)
{
	char who[64];

	snprintf(who, sizeof(who), "pid %d [", pid);
	if (lines_with(out, who, NULL))
		fail_msg("pid %d is named:\n%s", pid, out);
}

void detect_who_modified_names_every_way(void **state)
{
	static const struct culprit c[] = {
		{ FX_FS_REDIRECT, "sh", ": truncated (opened O_WRONLY|O_CREAT|O_TRUNC)" },
		{ FX_FS_REDIRECT, "sh", ": written (fd 1)" },
		{ FX_FS_APPEND, "sh", ": written (fd 1)" },
		{ FX_FS_SED, "sed", ": replaced (renamed from /etc/sedAbC123)" },
		{ FX_FS_EDITOR, "vi", ": replaced (renamed from /etc/app.conf~new)" },
		{ FX_FS_CP, "cp", ": truncated" },
		{ FX_FS_CP, "cp", ": written (fd 4)" },
		{ FX_FS_MV, "mv", ": replaced (renamed from /tmp/new.conf)" },
		{ FX_FS_INSTALL, "install", ": replaced (unlinked and created again)" },
		{ FX_FS_INSTALL, "install", ": written" },
		{ FX_FS_INSTALL, "install", ": metadata changed (chmod 0755)" },
		{ FX_FS_TRUNCATE, "truncate", ": truncated (to 0 bytes)" },
		{ FX_FS_TEE, "tee", ": truncated" },
		{ FX_FS_TEE, "tee", ": written (fd 3)" },
		{ FX_FS_DD, "dd", ": truncated" },
		{ FX_FS_DD, "dd", ": written (fd 1)" },
		{ FX_FS_DUP, "app", ": written (fd 10)" },
		{ FX_FS_CHILD, "logger", ": written (fd 3)" },
		{ FX_FS_RELATIVE, "sh", ": written (fd 3)" },
		{ FX_FS_HARD, "sh", ": written (fd 3, as " FX_FS_HARDLINK ")" },
		{ FX_FS_INODE, "sh", ": written (fd 3, as " FX_FS_OLDLINK ")" },
		{ FX_FS_MAPPER, "mapper", ": mapped for writing (4096 bytes, shared)" },
		{ FX_FS_CHMOD, "chmod", ": metadata changed (chmod 0600)" },
		{ FX_FS_CHOWN, "chown", ": metadata changed (chown 1000:-1)" },
	};
	char out[16384];

	(void)state;
	detect(SCRIPT("who-modified"), FX_FS_FILE, FIXTURE("fschanges"), out,
	       sizeof(out));
	expect_culprits(out, FX_FS_FILE " modified by", c, ARRAY_SIZE(c));
	assert_int_equal(count_lines(out), ARRAY_SIZE(c));
	/* a read, a failed rename over it, a dup2 of another file onto its fd */
	expect_not_named(out, FX_FS_READER);
	expect_not_named(out, FX_FS_FAILED);
	expect_not_named(out, FX_FS_DUPOVER);
	expect_not_named(out, FX_FS_PARENT);	/* opened it, wrote nothing */
	expect_not_named(out, FX_FS_LINKER);	/* a link is no change */
}

void detect_who_modified_by_a_name_as_given(void **state)
{
	char out[16384];

	(void)state;
	/* a path ending with the kernel's: the same answers */
	detect(SCRIPT("who-modified"), "app.conf", FIXTURE("fschanges"), out,
	       sizeof(out));
	assert_int_equal(lines_with(out, "app.conf modified by pid 509 [tee] ",
				    ": written (fd 3)"), 1);
	/* the hard link itself: its writers, and what was done to the file */
	detect(SCRIPT("who-modified"), FX_FS_HARDLINK, FIXTURE("fschanges"),
	       out, sizeof(out));
	assert_int_equal(lines_with(out, "modified by pid 516 [sh] ",
				    ": written"), 1);
	expect_not_named(out, FX_FS_TEE);
}

void detect_who_modified_on_an_older_trace(void **state)
{
	char out[4096];

	(void)state;
	/* culprits: fs_open without fs_dup; the write by its fd */
	detect(SCRIPT("who-modified"), FX_WATCHED, FIXTURE("culprits"), out,
	       sizeof(out));
	assert_string_equal(out, FX_WATCHED " modified by pid 300 [rewriter] at 00:00:01.000005500: written (fd 4)\n");
	/* a trace of the layouts before flags, dev and ino: no error */
	detect(SCRIPT("who-modified"), "/etc/passwd",
	       FIXTURE("arch-powerpc"), out, sizeof(out));
}

void detect_who_unlinked_every_way(void **state)
{
	static const struct {
		const char *file;
		struct culprit c;
	} cases[] = {
		{ FX_FS_VICTIM, { FX_FS_RM, "rm", "(unlink)" } },
		{ FX_FS_REPLACED, { FX_FS_MV_OVER, "mv",
		  "(replaced: /srv/data/new renamed over it)" } },
		{ FX_FS_TREE "/sub/file", { FX_FS_RM_TREE, "rm", "(unlink)" } },
		{ FX_FS_TREE "/sub", { FX_FS_RM_TREE, "rm",
		  "(rmdir " FX_FS_TREE "/sub)" } },
		/* under a directory removed: the last rmdir names it */
		{ FX_FS_TREE "/gone", { FX_FS_RM_TREE, "rm",
		  "(rmdir " FX_FS_TREE ")" } },
		{ "/srv/data/new", { FX_FS_MV_OVER, "mv",
		  "(/srv/data/new renamed to " FX_FS_REPLACED ")" } },
	};
	char out[4096], verb[300];
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		detect(SCRIPT("who-unlinked"), cases[i].file,
		       FIXTURE("fschanges"), out, sizeof(out));
		snprintf(verb, sizeof(verb), "%s unlinked by", cases[i].file);
		expect_culprits(out, verb, &cases[i].c, 1);
		assert_int_equal(count_lines(out), 1);
		/* its unlink failed: not the culprit */
		expect_not_named(out, FX_FS_RM_FAILED);
	}
	detect(SCRIPT("who-unlinked"), "/srv/data/kept", FIXTURE("fschanges"),
	       out, sizeof(out));
	assert_string_equal(out, "");
}

void detect_who_unlinked_with_and_without_names(void **state)
{
	char out[4096];

	(void)state;
	/* the sample module's event and fs_unlink: the first names rm */
	detect(SCRIPT("who-unlinked"), FX_VICTIM, FIXTURE("culprits"), out,
	       sizeof(out));
	assert_string_equal(out, FX_VICTIM " unlinked by pid 302 [rm] at 00:00:01.000011500 (unlink)\n");
	/* no event names what was unlinked: the suspects */
	detect(SCRIPT("who-unlinked"), FX_VICTIM, FIXTURE("culprits-plain"),
	       out, sizeof(out));
	assert_string_equal(out, FX_VICTIM ": the trace has no unlink event (insmod ltt_unlink.ko); suspects: pid 302 [rm], pid 305 [unlinker]\n");
}

void detect_who_killed_every_sender(void **state)
{
	static const struct {
		int victim;
		const char *line;
	} cases[] = {
		{ FX_FS_VICTIM1, "pid 540 [sleep] killed by pid 541 [kill] with signal 15 at 00:00:01.000011500: a process, by kill\n" },
		{ FX_FS_VICTIM2, "pid 542 [sleep] killed by pid 543 [tgkiller] with signal 9 at 00:00:01.000018500: a process, by tgkill\n" },
		{ FX_FS_VICTIM3, "pid 544 [sleep] killed by pid 545 [pidfd] with signal 15 at 00:00:01.000025500: a process, by pidfd_send_signal\n" },
		{ FX_FS_SEGV, "pid 546 [crash] killed by the kernel with signal 11 at 00:00:01.000032500: a fault (SEGV_MAPERR)\n" },
		{ FX_FS_BUS, "pid 547 [mapbus] killed by the kernel with signal 7 at 00:00:01.000038500: a fault (BUS_ADRERR)\n" },
		{ FX_FS_PIPE, "pid 548 [yes] killed by the kernel with signal 13 at 00:00:01.000044500: SIGPIPE: write to a pipe or socket with no reader\n" },
		{ FX_FS_OOM, "pid 549 [hog] killed by the kernel with signal 9 at 00:00:01.000050500: the OOM killer (in pid 550 [alloc])\n" },
		{ FX_FS_ALARM, "pid 551 [alarmed] killed by a timer with signal 14 at 00:00:01.000056500: alarm or setitimer\n" },
		{ FX_FS_PTIMER, "pid 552 [ptimer] killed by a timer with signal 14 at 00:00:01.000063500: a POSIX timer\n" },
		/* SIGTERM by 554 did not end it; SIGKILL by 555 did */
		{ FX_FS_TOUGH, "pid 553 [tough] killed by pid 555 [kill] with signal 9 at 00:00:01.000075500: a process, by kill\n" },
		{ FX_FS_SURVIVOR, "pid 556 [daemon] signalled by pid 557 [kill] with signal 10 at 00:00:01.000082500: a process, by kill\n" },
	};
	char out[4096], pid[16];
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(pid, sizeof(pid), "%d", cases[i].victim);
		detect(SCRIPT("who-killed"), pid, FIXTURE("fschanges"), out,
		       sizeof(out));
		assert_string_equal(out, cases[i].line);
	}
}

void detect_who_touched_summary(void **state)
{
	char out[16384];

	(void)state;
	detect(SCRIPT("who-touched"), "/srv/", FIXTURE("fschanges"), out,
	       sizeof(out));
	assert_string_equal(out,
		"/srv: 4 processes\n"
		"pid 517 [sh] 00:00:01.000193000 to 00:00:01.000196000\n"
		"  opened to write    1  /srv/old-link  00:00:01.000193000\n"
		"  written            1  /srv/old-link  00:00:01.000196000\n"
		"pid 531 [rm] 00:00:01.000250000\n"
		"  unlinked           1  /srv/data/victim  00:00:01.000250000\n"
		"pid 532 [mv] 00:00:01.000255000\n"
		"  renamed            1  /srv/data/new -> /srv/data/replaced  00:00:01.000255000\n"
		"pid 533 [rm] 00:00:01.000261000 to 00:00:01.000267000\n"
		"  unlinked           1  /srv/tree/sub/file  00:00:01.000261000\n"
		"  removed            1  /srv/tree/sub  00:00:01.000264000\n"
		"  removed            1  /srv/tree  00:00:01.000267000\n");
	/* every culprit of who-modified is there, the reader too */
	detect(SCRIPT("who-touched"), "/etc", FIXTURE("fschanges"), out,
	       sizeof(out));
	assert_int_equal(lines_with(out, "pid 500 [cat] ", NULL), 1);
	assert_int_equal(lines_with(out, "pid 519 [chmod] ", NULL), 1);
	assert_int_equal(lines_with(out, "  chmod ", "/etc/app.conf"), 2);
	assert_int_equal(lines_with(out, "  renamed ", "-> /etc/app.conf"), 3);
	/* the failed rename does not count; /tmp/log is not under /etc */
	expect_not_named(out, FX_FS_FAILED);
	assert_int_equal(lines_with(out, "/tmp/log", NULL), 0);
}

/* What the detectors stand on: ltt.file() and e.newname. */
void detect_files_follow_dup_fork_exec(void **state)
{
	char out[4096], script[256];
	FILE *f;

	(void)state;
	snprintf(script, sizeof(script), "/tmp/ltt-detect-%d.lua", getpid());
	f = fopen(script, "w");
	assert_non_null(f);
	fputs("local function name(pid, fd) return tostring(ltt.file(pid, fd)) end\n"
	      "function fs_write(e)\n"
	      "  if e.pid == 513 then print('child', name(513, 3), name(513, 4)) end\n"
	      "  if e.pid == 522 then print('dup2', e.fd, name(522, e.fd)) end\n"
	      "  if e.pid == 511 then print('fcntl', name(511, 10), name(511, 3)) end\n"
	      "end\n"
	      "function fs_rename(e) print('rename', e.ret, e.oldname, e.newname) end\n"
	      "function fs_newname(e) if e.pid == 0 then print('orphan', e.newname) end end\n",
	      f);
	fclose(f);
	detect(script, "", FIXTURE("fschanges"), out, sizeof(out));
	unlink(script);
	assert_string_equal(out,
		"orphan\t/nowhere\n"
		"rename\t0\t/etc/sedAbC123\t/etc/app.conf\n"
		"rename\t0\t/etc/app.conf~new\t/etc/app.conf\n"
		"rename\t0\t/tmp/new.conf\t/etc/app.conf\n"
		"fcntl\t/etc/app.conf\tnil\n"
		/* fd 3 inherited; fd 4 was O_CLOEXEC: gone at exec */
		"child\t/etc/app.conf\tnil\n"
		"rename\t-2\t/tmp/nosuch\t/etc/app.conf\n"
		/* dup2 of /tmp/log onto fd 3; of an unknown fd onto fd 5 */
		"dup2\t3\t/tmp/log\n"
		"dup2\t5\tnil\n"
		"rename\t0\t/srv/data/new\t/srv/data/replaced\n");
}
