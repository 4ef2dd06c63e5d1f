// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The control half of libltt: the ltt() system call, one small function
 * per command.  Each passes sizeof() the struct it knows, so the kernel
 * can tell which version of the ABI it talks to.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "internal.h"

long ltt_syscall(unsigned int cmd, void *arg, size_t size)
{
	/*
	 * The extra zeros make the call fail harmlessly on kernels where
	 * 463 is another call (setxattrat from 6.13 on).
	 */
	return syscall(__NR_ltt, cmd, arg, size, 0, 0, 0);
}

/* Name the commands in error messages. */
static const char *const cmd_names[] = {
	[LTT_CMD_CREATE]	= "LTT_CMD_CREATE",
	[LTT_CMD_SET_EVENTS]	= "LTT_CMD_SET_EVENTS",
	[LTT_CMD_SET_PIDS]	= "LTT_CMD_SET_PIDS",
	[LTT_CMD_START]		= "LTT_CMD_START",
	[LTT_CMD_STOP]		= "LTT_CMD_STOP",
	[LTT_CMD_STATUS]	= "LTT_CMD_STATUS",
	[LTT_CMD_BUFFER_FD]	= "LTT_CMD_BUFFER_FD",
	[LTT_CMD_EVENT_INFO]	= "LTT_CMD_EVENT_INFO",
	[LTT_CMD_SNAPSHOT]	= "LTT_CMD_SNAPSHOT",
	[LTT_CMD_EVENT_CREATE]	= "LTT_CMD_EVENT_CREATE",
	[LTT_CMD_EVENT_LOG]	= "LTT_CMD_EVENT_LOG",
	[LTT_CMD_BOOT]		= "LTT_CMD_BOOT",
	[LTT_CMD_SET_CGROUPS]	= "LTT_CMD_SET_CGROUPS",
	[LTT_CMD_PREVIOUS_BOOT]	= "LTT_CMD_PREVIOUS_BOOT",
};

/*
 * Is syscall 463 ltt() here?  LTT is a 6.12 series; later kernels gave
 * the number to setxattrat(), which rejects our arguments with EINVAL.
 */
static bool control_on_ltt_kernel(const char **release)
{
	static struct utsname u;

	if (uname(&u))
		return true;
	*release = u.release;
	return !strncmp(u.release, "6.12.", 5) || !strcmp(u.release, "6.12") ||
	       !strncmp(u.release, "6.12-", 5);
}

/* ltt() that explains its failures in ltt_error(). */
static long control_call(unsigned int cmd, void *arg, size_t size)
{
	long ret = ltt_syscall(cmd, arg, size);
	const char *release = "?";
	int err = errno;

	if (ret >= 0)
		return ret;
	if (err == ENOSYS)
		ltt_fail("%s: no ltt() system call: this kernel lacks CONFIG_LTT",
			 cmd_names[cmd]);
	else if (!control_on_ltt_kernel(&release))
		ltt_fail("%s: %s: system call %d is not ltt() on Linux %s: LTT needs a patched 6.12 kernel",
			 cmd_names[cmd], strerror(err), __NR_ltt, release);
	else if (cmd == LTT_CMD_BOOT && err == ENOENT)
		ltt_fail("%s: no boot session: the kernel was not booted with ltt.boot=, or the session was taken already",
			 cmd_names[cmd]);
	else if (cmd == LTT_CMD_PREVIOUS_BOOT && err == EPERM)
		ltt_fail("%s: permission denied: the previous boot's trace needs CAP_PERFMON or root, in the initial pid namespace",
			 cmd_names[cmd]);
	else if (err == EPERM)
		ltt_fail("%s: permission denied: tracing needs CAP_PERFMON or root",
			 cmd_names[cmd]);
	else if (cmd == LTT_CMD_PREVIOUS_BOOT && err == ENOENT)
		ltt_fail("%s: no previous boot's trace in this kernel (it kept none: no persist= region, the region held no trace, or it was freed)",
			 cmd_names[cmd]);
	else if (cmd == LTT_CMD_PREVIOUS_BOOT && err == EINVAL)
		ltt_fail("%s: this kernel's LTT does not keep the previous boot's trace",
			 cmd_names[cmd]);
	else if (cmd == LTT_CMD_SET_CGROUPS && err == EBADF)
		ltt_fail("%s: not a directory of the cgroup v2 hierarchy",
			 cmd_names[cmd]);
	else if (cmd == LTT_CMD_SET_CGROUPS && err == ENOENT)
		ltt_fail("%s: the cgroup was removed", cmd_names[cmd]);
	else if (cmd == LTT_CMD_SET_CGROUPS && err == EOPNOTSUPP)
		ltt_fail("%s: this kernel has no cgroups (CONFIG_CGROUPS)",
			 cmd_names[cmd]);
	else if (cmd == LTT_CMD_BOOT && err == EINVAL)
		ltt_fail("%s: this kernel's LTT has no boot tracing",
			 cmd_names[cmd]);
	else
		ltt_fail_errno("%s", cmd_names[cmd]);
	errno = err;
	return -1;
}

int ltt_session_create(const struct ltt_session_opts *opts)
{
	struct ltt_create c = {
		.subbuf_size = opts ? opts->subbuf_size : 0,
		.n_subbufs = opts ? opts->n_subbufs : 0,
		.mode = opts && opts->overwrite ? LTT_MODE_OVERWRITE :
						  LTT_MODE_DISCARD,
		.flush_ms = opts ? opts->flush_ms : 0,
	};

	return control_call(LTT_CMD_CREATE, &c, sizeof(c));
}

int ltt_session_boot(void)
{
	struct ltt_boot b = { 0 };

	return control_call(LTT_CMD_BOOT, &b, sizeof(b));
}

int ltt_previous_boot(unsigned int flags)
{
	struct ltt_previous pr = { .flags = flags };

	return control_call(LTT_CMD_PREVIOUS_BOOT, &pr, sizeof(pr));
}

int ltt_session_set_events(int session_fd, const uint64_t *mask,
			   unsigned int nbits)
{
	struct ltt_events e = {
		.session_fd = session_fd,
		.nbits = nbits,
		.mask = (uintptr_t)mask,
	};

	return control_call(LTT_CMD_SET_EVENTS, &e, sizeof(e));
}

int ltt_session_set_pids(int session_fd, const pid_t *pids,
			 unsigned int count)
{
	struct ltt_pids p = {
		.session_fd = session_fd,
		.count = count,
		.pids = (uintptr_t)pids,
	};

	return control_call(LTT_CMD_SET_PIDS, &p, sizeof(p));
}

int ltt_session_set_cgroups(int session_fd, const int *fds,
			    unsigned int count)
{
	struct ltt_cgroups c = {
		.session_fd = session_fd,
		.count = count,
		.fds = (uintptr_t)fds,
	};

	return control_call(LTT_CMD_SET_CGROUPS, &c, sizeof(c));
}

static int session_cmd(int session_fd, unsigned int cmd)
{
	struct ltt_session_cmd c = { .session_fd = session_fd };

	return control_call(cmd, &c, sizeof(c));
}

int ltt_session_start(int session_fd)
{
	return session_cmd(session_fd, LTT_CMD_START);
}

int ltt_session_stop(int session_fd)
{
	return session_cmd(session_fd, LTT_CMD_STOP);
}

int ltt_session_snapshot(int session_fd)
{
	return session_cmd(session_fd, LTT_CMD_SNAPSHOT);
}

int ltt_session_status(int session_fd, struct ltt_status *st,
		       struct ltt_cpu_status *cpus, unsigned int n)
{
	memset(st, 0, sizeof(*st));
	st->session_fd = session_fd;
	st->n_cpus = n;
	st->cpus = (uintptr_t)cpus;
	return control_call(LTT_CMD_STATUS, st, sizeof(*st));
}

int ltt_session_buffer_fd(int session_fd, unsigned int cpu)
{
	struct ltt_buffer_req req = { .session_fd = session_fd, .cpu = cpu };

	return control_call(LTT_CMD_BUFFER_FD, &req, sizeof(req));
}

/*
 * Enable flags.  Each event fd libltt makes gets a word of flag_words,
 * which the kernel keeps nonzero while some recording session would take
 * the event from this process (LTT_EVENT_CREATE_ENABLE_FLAG); fd_slot
 * maps the fd to its word (slot + 1; 0: none).  An fd without a word
 * (made elsewhere, past FLAG_FDS, on a kernel without flags, or with all
 * words taken) reads flag_always: it logs through the system call.  A
 * word is freed when its fd's number comes back from a later create:
 * the fd was closed by then.
 */
#define FLAG_FDS	1024
static uint32_t flag_words[FLAG_FDS];
static _Atomic unsigned char flag_used[FLAG_FDS];
static _Atomic unsigned short fd_slot[FLAG_FDS];
static const uint32_t flag_always = 1;

/* A free word, zeroed, or -1. */
static int flag_claim(void)
{
	unsigned char no = 0;
	int i;

	for (i = 0; i < FLAG_FDS; i++, no = 0)
		if (atomic_compare_exchange_strong(&flag_used[i], &no, 1)) {
			__atomic_store_n(&flag_words[i], 0, __ATOMIC_RELAXED);
			return i;
		}
	return -1;
}

/* @fd is a new event fd: its word is @slot (-1: none); free the old one. */
static void flag_bind(int fd, int slot)
{
	unsigned short old;

	if (fd < 0 || fd >= FLAG_FDS) {
		if (slot >= 0)
			atomic_store(&flag_used[slot], 0);
		return;
	}
	old = atomic_exchange(&fd_slot[fd], slot + 1);
	if (old)
		atomic_store(&flag_used[old - 1], 0);
}

const volatile uint32_t *ltt_event_flag(int event_fd)
{
	unsigned short slot = 0;

	if (event_fd >= 0 && event_fd < FLAG_FDS)
		slot = atomic_load_explicit(&fd_slot[event_fd],
					    memory_order_relaxed);
	return slot ? &flag_words[slot - 1] : &flag_always;
}

int ltt_event_create(const char *name, const char *description,
		     const struct ltt_field_desc *fields, unsigned int n_fields)
{
	struct ltt_event_create c = { .n_fields = n_fields };
	unsigned int i;
	int fd, slot;

	if (n_fields > LTT_FIELDS_MAX)
		return ltt_fail("event %s: %u fields, at most %u", name,
				n_fields, LTT_FIELDS_MAX);
	if (strlen(name) >= sizeof(c.name) ||
	    strlen(description ? description : "") >= sizeof(c.description))
		return ltt_fail("event %s: name or description too long", name);
	strcpy(c.name, name);
	strcpy(c.description, description ? description : "");
	for (i = 0; i < n_fields; i++) {
		if (strlen(fields[i].name) >= sizeof(c.fields[i].name))
			return ltt_fail("event %s: field name %s too long",
					name, fields[i].name);
		strcpy(c.fields[i].name, fields[i].name);
		c.fields[i].type = fields[i].type;
		c.fields[i].size = fields[i].size;
	}
	slot = flag_claim();
	if (slot >= 0) {
		c.flags = LTT_EVENT_CREATE_ENABLE_FLAG;
		c.enable_addr = (uintptr_t)&flag_words[slot];
		fd = ltt_syscall(LTT_CMD_EVENT_CREATE, &c, sizeof(c));
		if (fd >= 0) {
			flag_bind(fd, slot);
			return fd;
		}
		/* A kernel without flags (EINVAL, E2BIG), or none left. */
		atomic_store(&flag_used[slot], 0);
		c.flags = 0;
		c.enable_addr = 0;
	}
	fd = control_call(LTT_CMD_EVENT_CREATE, &c,
			  LTT_EVENT_CREATE_SIZE_VER0);
	if (fd >= 0)
		flag_bind(fd, -1);
	return fd;
}

int ltt_event_create_format(const char *name, const char *description)
{
	static const struct ltt_field_desc text = {
		.name = "text",
		.type = LTT_TYPE_STRING,
	};

	return ltt_event_create(name, description, &text, 1);
}

int ltt_event_log(int event_fd, const void *data, size_t size)
{
	if (!ltt_event_on(ltt_event_flag(event_fd)))
		return 0;
	return ltt_event_log_now(event_fd, data, size);
}

int ltt_event_log_now(int event_fd, const void *data, size_t size)
{
	struct ltt_event_log l = {
		.event_fd = event_fd,
		.size = size > UINT32_MAX ? UINT32_MAX : size,
		.data = (uintptr_t)data,
	};

	return control_call(LTT_CMD_EVENT_LOG, &l, sizeof(l));
}

int ltt_event_logf(int event_fd, const char *fmt, ...)
{
	char text[LTT_STRING_MAX];
	va_list ap;
	int len;

	/* Nobody would take it: not even the formatting is done. */
	if (!ltt_event_on(ltt_event_flag(event_fd)))
		return 0;
	va_start(ap, fmt);
	len = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (len < 0)
		return ltt_fail_errno("ltt_event_logf");
	if (len >= (int)sizeof(text))
		len = sizeof(text) - 1;
	return ltt_event_log(event_fd, text, len + 1);
}
