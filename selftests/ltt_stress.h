/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the stress selftests (ltt_fuzz_test, ltt_race_test) share on top
 * of ltt_util.h: their tunables, the errno sets they judge calls by,
 * becoming nobody, the sysctl kernel.ltt_user_sessions, the check that a
 * normal recording still works after the stress, and a main() that skips
 * the whole program where ltt() does not exist.
 *
 * Include it after defining _GNU_SOURCE.
 */
#ifndef __LTT_STRESS_H
#define __LTT_STRESS_H

#include <grp.h>
#include <stdint.h>
#include <sys/wait.h>

#include "ltt_util.h"

#define LTT_NOBODY		65534
#define LTT_USER_SESSIONS	"/proc/sys/kernel/ltt_user_sessions"

/* getppid() calls of the recording that must still work afterwards. */
#define LTT_CHECK_CALLS		1000

/*
 * A number from the environment variable @env, else from ltt.@param= on
 * the kernel command line (the guest's init passes no environment), else
 * @def.
 */
static inline unsigned long long ltt_tunable(const char *env,
					     const char *param,
					     unsigned long long def)
{
	char buf[4096], key[64], *tok, *save, *end;
	const char *v = getenv(env);
	unsigned long long n;
	ssize_t len;
	int fd;

	if (v && *v) {
		n = strtoull(v, &end, 0);
		return *end ? def : n;
	}
	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return def;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return def;
	buf[len] = '\0';
	snprintf(key, sizeof(key), "ltt.%s=", param);
	for (tok = strtok_r(buf, "\n ", &save); tok;
	     tok = strtok_r(NULL, "\n ", &save)) {
		if (strncmp(tok, key, strlen(key)))
			continue;
		n = strtoull(tok + strlen(key), &end, 0);
		return *end ? def : n;
	}
	return def;
}

/* Is @err in the 0-terminated list @set? */
static inline bool ltt_errno_in(const int *set, int err)
{
	for (; *set; set++)
		if (*set == err)
			return true;
	return false;
}

/*
 * Become nobody, with no supplementary groups and no way back; for a
 * forked child.  Returns 0, or -1 with ltt_err.
 */
static inline int ltt_become_nobody(void)
{
	if (setgroups(0, NULL) || setgid(LTT_NOBODY) || setuid(LTT_NOBODY))
		return ltt_fail("becoming nobody: %s", strerror(errno));
	if (getuid() != LTT_NOBODY || geteuid() != LTT_NOBODY ||
	    getegid() != LTT_NOBODY || !setuid(0))
		return ltt_fail("still privileged after setuid(%d)",
				LTT_NOBODY);
	return 0;
}

/* Write "0" or "1" to kernel.ltt_user_sessions; 0, or -1 with ltt_err. */
static inline int ltt_set_user_sessions(const char *val)
{
	ssize_t len = strlen(val);
	int fd, ret = 0;

	fd = open(LTT_USER_SESSIONS, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return ltt_fail(LTT_USER_SESSIONS ": %s", strerror(errno));
	if (write(fd, val, len) != len)
		ret = ltt_fail("writing %s to " LTT_USER_SESSIONS ": %s", val,
			       strerror(errno));
	close(fd);
	return ret;
}

/* Its value now, into @buf ("0" or "1"); 0, or -1 with ltt_err. */
static inline int ltt_get_user_sessions(char *buf, size_t size)
{
	ssize_t len;
	int fd;

	fd = open(LTT_USER_SESSIONS, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ltt_fail(LTT_USER_SESSIONS ": %s", strerror(errno));
	len = read(fd, buf, size - 1);
	close(fd);
	if (len <= 0)
		return ltt_fail("reading " LTT_USER_SESSIONS ": %s",
				len ? strerror(errno) : "empty");
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * After the stress, a normal recording works: no session was left
 * recording (START succeeds), a session filtered on this process records
 * its LTT_CHECK_CALLS getppid() calls, every one with its entry and its
 * exit and the right return value, nothing is lost, and produced ==
 * delivered + lost on every CPU.  Pins the caller.  Returns 0, or -1
 * with ltt_err.
 */
static inline int ltt_check_recording(void)
{
	static const char *const names[] = {
		"syscall_entry", "syscall_exit", NULL
	};
	static const struct ltt_create geometry = {
		.subbuf_size = 65536,
		.n_subbufs = 8,
		.mode = LTT_MODE_DISCARD,
	};
	pid_t self = getpid(), parent = getppid();
	struct ltt_trace t = { 0 };
	struct ltt_session s;
	__s64 *rets = NULL;
	size_t i, entries = 0;
	int cpu, ret = -1, id;
	long n;

	if (ltt_session_open(&s, &geometry) || ltt_open_readers(&s))
		goto out;
	cpu = ltt_pin_to_buffer_cpu(&s);
	if (cpu < 0)
		goto out;
	if (ltt_set_pids(s.fd, &self, 1)) {
		ltt_fail("SET_PIDS: %s", strerror(errno));
		goto out;
	}
	if (ltt_set_events(&s, names))
		goto out;
	if (ltt_start(s.fd)) {
		ltt_fail("START of a new session: %s%s", strerror(errno),
			 errno == EBUSY ? ": a session was left recording" :
			 "");
		goto out;
	}
	for (i = 0; i < LTT_CHECK_CALLS; i++)
		syscall(SYS_getppid);
	if (ltt_stop(s.fd)) {
		ltt_fail("STOP: %s", strerror(errno));
		goto out;
	}
	if (ltt_read_stopped(&s, &t) || ltt_check_accounting(&s))
		goto out;

	id = ltt_event_id(&s.reg, "syscall_entry");
	for (i = 0; i < t.n; i++)
		if (t.ev[i].id == (__u32)id && t.ev[i].pid == self &&
		    ltt_ev_field(&s.reg, &t.ev[i], "id") == SYS_getppid)
			entries++;
	if (entries != LTT_CHECK_CALLS) {
		ltt_fail("%zu syscall_entry records of getppid for pid %d, expected %d",
			 entries, self, LTT_CHECK_CALLS);
		goto out;
	}
	rets = calloc(LTT_CHECK_CALLS, sizeof(*rets));
	if (!rets) {
		ltt_fail("out of memory");
		goto out;
	}
	n = ltt_syscall_returns(&s.reg, &t, cpu, SYS_getppid, rets,
				LTT_CHECK_CALLS);
	if (n < 0)
		goto out;
	if (n != LTT_CHECK_CALLS) {
		ltt_fail("%ld getppid calls with their exits on cpu %d, expected %d",
			 n, cpu, LTT_CHECK_CALLS);
		goto out;
	}
	for (i = 0; i < LTT_CHECK_CALLS; i++) {
		if (rets[i] != parent) {
			ltt_fail("getppid call %zu returned %lld, expected %d",
				 i, (long long)rets[i], parent);
			goto out;
		}
	}
	for (i = 0; i < s.n_cpus; i++) {
		if (s.st[i].lost) {
			ltt_fail("cpu %u lost %llu events of a small recording",
				 s.st[i].cpu, (unsigned long long)s.st[i].lost);
			goto out;
		}
	}
	ret = 0;
out:
	free(rets);
	ltt_trace_free(&t);
	ltt_session_close(&s);
	return ret;
}

/*
 * For main(): where ltt() does not exist (ENOSYS, or another call under
 * its number), skip the whole program with KSFT_SKIP before any test
 * runs; else run the tests.
 */
static inline int ltt_stress_main(int argc, char **argv)
{
	struct ltt_event_info ei = { .id = 0 };

	if (ltt(LTT_CMD_EVENT_INFO, &ei, sizeof(ei)) &&
	    ltt_unavailable(errno)) {
		ksft_print_header();
		ksft_exit_skip("%s\n", ltt_err);
	}
	return test_harness_run(argc, argv);
}

#endif /* __LTT_STRESS_H */
