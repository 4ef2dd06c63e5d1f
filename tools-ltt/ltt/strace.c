// SPDX-License-Identifier: GPL-2.0
/*
 * `ltt report --syscalls` (strace's shape) and `ltt report --json`
 * (strace.h).  Entry and exit pair per task, not per CPU: a call that
 * sleeps and returns elsewhere is one line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archnames.h"
#include "ltt.h"
#include "strace.h"
#include "syscalls.h"
#include "timeline.h"

#define ARGS_MAX	1024

/* What an event adds to the arguments of the call it happens in. */
enum arg_kind {
	ARG_NONE,
	ARG_PATH,		/* fs_open: "filename" */
	ARG_FD,			/* fs_close: fd<file> */
	ARG_FD_BYTES,		/* fs_read, fs_write: fd<file>, bytes */
	ARG_FD_OFFSET,		/* fs_seek */
	ARG_FD_CMD,		/* fs_ioctl: fd<file>, 0xcmd */
	ARG_NFDS,		/* fs_select, fs_poll: nfds, timeout */
	ARG_SOCKET,		/* socket_call: fd */
	ARG_SOCKET_NEW,		/* socket_create: type */
	ARG_SIGNAL,		/* process_signal: pid, SIGNAME */
	ARG_EXEC,		/* process_exec: "filename" */
	ARG_WAIT,		/* process_wait: pid */
	ARG_IPC,		/* ipc_call: id */
	ARG_NAME,		/* fs_unlink, fs_rmdir: "name" */
	ARG_NAME_MODE,		/* fs_mkdir, fs_chmod: "name", 0mode */
	ARG_OLDNAME,		/* fs_rename, fs_link, fs_symlink: "oldname" */
	ARG_NEWNAME,		/* fs_newname: "newname" (and rename's flags) */
	ARG_TRUNCATE,		/* fs_truncate: "name", length */
	ARG_CHOWN,		/* fs_chown: "name", uid, gid */
	ARG_DUP,		/* fs_dup: oldfd<file>, newfd[, O_CLOEXEC] */
	ARG_MMAP_WRITE,		/* fs_mmap_write: fd<file>, len */
};

static const struct {
	const char *event;
	enum arg_kind kind;
} arg_events[] = {
	{ "fs_open", ARG_PATH }, { "fs_close", ARG_FD },
	{ "fs_read", ARG_FD_BYTES }, { "fs_write", ARG_FD_BYTES },
	{ "fs_seek", ARG_FD_OFFSET }, { "fs_ioctl", ARG_FD_CMD },
	{ "fs_select", ARG_NFDS }, { "fs_poll", ARG_NFDS },
	{ "socket_call", ARG_SOCKET }, { "socket_create", ARG_SOCKET_NEW },
	{ "process_signal", ARG_SIGNAL }, { "process_exec", ARG_EXEC },
	{ "process_wait", ARG_WAIT }, { "ipc_call", ARG_IPC },
	{ "fs_unlink", ARG_NAME }, { "fs_rmdir", ARG_NAME },
	{ "fs_mkdir", ARG_NAME_MODE }, { "fs_chmod", ARG_NAME_MODE },
	{ "fs_rename", ARG_OLDNAME }, { "fs_link", ARG_OLDNAME },
	{ "fs_symlink", ARG_OLDNAME }, { "fs_newname", ARG_NEWNAME },
	{ "fs_truncate", ARG_TRUNCATE }, { "fs_chown", ARG_CHOWN },
	{ "fs_dup", ARG_DUP }, { "fs_mmap_write", ARG_MMAP_WRITE },
};

struct call {
	int32_t pid;
	bool used;			/* the slot is taken */
	bool pending;			/* entered, not returned */
	bool returned;			/* returned, its line not written */
	bool trap_pending;
	bool matched;			/* --filter: an event of the call matched */
	bool exited;			/* an exit that ended the task */
	bool trap_matched;
	uint32_t cpu;
	uint64_t ts, trap_ts, trap_ip;
	int64_t nr, trap_nr;
	int64_t abi;			/* 0 native, else syscall_entry_compat's */
	uint32_t rename_flags;		/* fs_rename's, shown after fs_newname */
	uint64_t ip;
	uint64_t exit_ts;
	int64_t ret;
	size_t len;			/* of args */
	char args[ARGS_MAX];
};

struct strace {
	const struct ltt_trace *t;
	struct out *o;
	bool json, utc;
	uint64_t start_ts;
	bool started;
	int id_entry, id_entry_compat, id_exit, id_trap, id_trap_exit;
	int id_process_exit;
	const struct ltt_syscall_table *syscalls;	/* the trace's */
	const struct arch_names *names;	/* its signals, errno values... */
	enum arg_kind *kind;		/* per event id */
	struct call *calls;		/* open addressing by pid */
	uint32_t n_slots, used;
};

const char *strace_socket_call_name(long call)
{
	/* include/uapi/linux/net.h: SYS_SOCKET ... SYS_SENDMMSG */
	static const char *const names[] = {
		NULL, "socket", "bind", "connect", "listen", "accept",
		"getsockname", "getpeername", "socketpair", "send", "recv",
		"sendto", "recvfrom", "shutdown", "setsockopt", "getsockopt",
		"sendmsg", "recvmsg", "accept4", "recvmmsg", "sendmmsg",
	};

	return call > 0 && call < (long)ARRAY_SIZE(names) ? names[call] : NULL;
}

static const char *socket_type_name(long type)
{
	static const char *const names[] = {
		NULL, "SOCK_STREAM", "SOCK_DGRAM", "SOCK_RAW", "SOCK_RDM",
		"SOCK_SEQPACKET", "SOCK_DCCP",
	};

	type &= 0xf;		/* SOCK_NONBLOCK, SOCK_CLOEXEC aside */
	return type > 0 && type < (long)ARRAY_SIZE(names) ? names[type] : NULL;
}

/* System calls that return an address. */
static bool returns_address(const char *name)
{
	static const char *const names[] = { "mmap", "brk", "mremap", "shmat" };
	unsigned int i;

	for (i = 0; name && i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

enum note_kind { NOTE_NONE, NOTE_TRAP, NOTE_SIGNAL, NOTE_SOFTIRQ,
		 NOTE_SOCKET_CALL, NOTE_SOCKET_TYPE, NOTE_OPEN_FLAGS,
		 NOTE_SIGNAL_CODE, NOTE_MODE };

static const struct {
	const char *event, *field;
	enum note_kind kind;
} note_fields[] = {
	{ "trap_entry", "trap", NOTE_TRAP },
	{ "process_signal", "sig", NOTE_SIGNAL },
	{ "softirq", "vec", NOTE_SOFTIRQ },
	{ "socket_call", "call", NOTE_SOCKET_CALL },
	{ "socket_create", "type", NOTE_SOCKET_TYPE },
	{ "socket_send", "type", NOTE_SOCKET_TYPE },
	{ "socket_receive", "type", NOTE_SOCKET_TYPE },
	{ "fs_open", "flags", NOTE_OPEN_FLAGS },
	{ "process_signal", "code", NOTE_SIGNAL_CODE },
	{ "fs_mkdir", "mode", NOTE_MODE },
	{ "fs_chmod", "mode", NOTE_MODE },
};

struct field_notes {
	const struct ltt_syscall_table *arch;	/* names the traps */
	const struct arch_names *names;	/* signals, open flags */
	unsigned int n_events;
	int sig_field;			/* process_signal's "sig", -1 if none */
	char buf[256];			/* a note made for the field at hand */
	uint8_t kind[][LTT_FIELDS_MAX];	/* by event id and field */
};

struct field_notes *field_notes_new(const struct ltt_registry *reg,
				    const struct ltt_syscall_table *arch)
{
	struct field_notes *fn = calloc(1, sizeof(*fn) + (reg->n_events + 1) *
					sizeof(fn->kind[0]));
	unsigned int i;

	if (!fn)
		return NULL;
	fn->arch = arch;
	fn->names = arch_names_of(arch);
	fn->n_events = reg->n_events;
	fn->sig_field = -1;
	for (i = 0; i < ARRAY_SIZE(note_fields); i++) {
		int id = ltt_registry_find(reg, note_fields[i].event), f;

		if (id < 0)
			continue;
		f = ltt_event_field_index(&reg->events[id], note_fields[i].field);
		if (f >= 0 && !reg->events[id].custom)
			fn->kind[id][f] = note_fields[i].kind;
		if (note_fields[i].kind == NOTE_SIGNAL_CODE)
			fn->sig_field = ltt_event_field_index(&reg->events[id],
							      "sig");
	}
	return fn;
}

void field_notes_free(struct field_notes *fn)
{
	free(fn);
}

bool field_note_may(const struct field_notes *fn, unsigned int id,
		    unsigned int i)
{
	return fn && id < fn->n_events && i < LTT_FIELDS_MAX && fn->kind[id][i];
}

const char *field_note(struct field_notes *fn, const struct ltt_item *it,
		       unsigned int i)
{
	int64_t v;

	if (it->desc->id >= fn->n_events || !fn->kind[it->desc->id][i])
		return NULL;
	v = ltt_item_int(it, i);
	switch (fn->kind[it->desc->id][i]) {
	case NOTE_TRAP:
		return tl_trap_name(fn->arch, v);
	case NOTE_SIGNAL:
		return arch_signal_name(fn->names, v);
	case NOTE_SOFTIRQ:
		return tl_softirq_name(v);
	case NOTE_SOCKET_CALL:
		return strace_socket_call_name(v);
	case NOTE_OPEN_FLAGS:
		return arch_open_flags(fn->names, v, fn->buf, sizeof(fn->buf));
	case NOTE_SIGNAL_CODE:
		return arch_signal_code(fn->names, fn->sig_field >= 0 ?
					  ltt_item_int(it, fn->sig_field) : 0, v);
	case NOTE_MODE:
		snprintf(fn->buf, sizeof(fn->buf), "%#llo",
			 (unsigned long long)v);
		return fn->buf;
	default:
		return socket_type_name(v);
	}
}

struct strace *strace_new(const struct ltt_trace *t, struct out *o,
			  bool json, bool utc)
{
	const struct ltt_registry *reg = ltt_trace_registry(t);
	struct strace *s = calloc(1, sizeof(*s));
	unsigned int i;

	if (!s)
		return NULL;
	s->t = t;
	s->o = o;
	s->json = json;
	s->utc = utc;
	s->syscalls = ltt_trace_syscalls(t);
	s->names = arch_names_of(s->syscalls);
	s->id_entry = ltt_registry_find(reg, "syscall_entry");
	s->id_entry_compat = ltt_registry_find(reg, "syscall_entry_compat");
	s->id_exit = ltt_registry_find(reg, "syscall_exit");
	s->id_trap = ltt_registry_find(reg, "trap_entry");
	s->id_trap_exit = ltt_registry_find(reg, "trap_exit");
	s->id_process_exit = ltt_registry_find(reg, "process_exit");
	s->kind = calloc(reg->n_events + 1, sizeof(*s->kind));
	s->n_slots = 256;
	s->calls = calloc(s->n_slots, sizeof(*s->calls));
	if (!s->kind || !s->calls) {
		strace_free(s);
		return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(arg_events); i++) {
		int id = ltt_registry_find(reg, arg_events[i].event);

		if (id >= 0)
			s->kind[id] = arg_events[i].kind;
	}
	return s;
}

void strace_free(struct strace *s)
{
	if (!s)
		return;
	free(s->kind);
	free(s->calls);
	free(s);
}

static uint32_t slot_of(uint32_t pid, uint32_t n)
{
	return (pid * 2654435761U) & (n - 1);
}

/* The call state of task @pid, made if new; NULL without memory. */
static struct call *call_of(struct strace *s, int32_t pid)
{
	uint32_t h;

	for (h = slot_of(pid, s->n_slots); s->calls[h].used;
	     h = (h + 1) & (s->n_slots - 1))
		if (s->calls[h].pid == pid)
			return &s->calls[h];
	if (2 * (s->used + 1) > s->n_slots) {
		uint32_t n = s->n_slots * 2, i;
		struct call *c = calloc(n, sizeof(*c));

		if (!c)
			return NULL;
		for (i = 0; i < s->n_slots; i++) {
			struct call *k = &s->calls[i];

			if (!k->used)
				continue;
			for (h = slot_of(k->pid, n); c[h].used;
			     h = (h + 1) & (n - 1))
				;
			c[h] = *k;
		}
		free(s->calls);
		s->calls = c;
		s->n_slots = n;
		return call_of(s, pid);
	}
	s->used++;
	memset(&s->calls[h], 0, sizeof(s->calls[h]));
	s->calls[h].pid = pid;
	s->calls[h].used = true;
	return &s->calls[h];
}

__attribute__((format(printf, 2, 3)))
static void args_add(struct call *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->len + 8 >= ARGS_MAX)
		return;
	if (c->len) {
		c->args[c->len++] = ',';
		c->args[c->len++] = ' ';
	}
	va_start(ap, fmt);
	n = vsnprintf(c->args + c->len, ARGS_MAX - c->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	c->len += (size_t)n < ARGS_MAX - c->len ? (size_t)n :
		  ARGS_MAX - c->len - 1;
	c->args[c->len] = '\0';
}

static int64_t get(const struct ltt_item *it, const char *name)
{
	int64_t v = 0;

	ltt_item_field(it, name, &v);
	return v;
}

/*
 * @s quoted as strace quotes a string: C's escapes for \t \n \v \f \r,
 * " and \, any other byte outside printable ASCII (controls, 0x80 and
 * up) in octal, three digits when a digit follows ("\33[2J", "\0331").
 * In double quotes if @quoted (a string argument; not a file in <>).
 * @buf holds 4 bytes per byte of @s and 3.
 */
static void strace_quote(char *buf, const char *s, bool quoted)
{
	static const char esc[] = "\t\n\v\f\r";
	char *d = buf;

	if (quoted)
		*d++ = '"';
	for (; *s; s++) {
		unsigned char ch = *s;
		const char *e = ch ? strchr(esc, ch) : NULL;

		if (ch == '"' || ch == '\\') {
			*d++ = '\\';
			*d++ = ch;
		} else if (e) {
			*d++ = '\\';
			*d++ = "tnvfr"[e - esc];
		} else if (ch >= 0x20 && ch < 0x7f) {
			*d++ = ch;
		} else if (s[1] >= '0' && s[1] <= '7') {
			d += sprintf(d, "\\%03o", ch);
		} else {
			d += sprintf(d, "\\%o", ch);
		}
	}
	if (quoted)
		*d++ = '"';
	*d = '\0';
}

/* A string field, quoted and escaped as strace prints it. */
static void args_string(struct call *c, const struct ltt_item *it,
			bool trunc)
{
	char buf[LTT_STRING_MAX * 4 + 8];
	const struct ltt_event_desc *d = it->desc;

	if (!d->has_string)
		return;
	strace_quote(buf, ltt_item_string(it), true);
	args_add(c, "%s%s", buf, trunc ? "..." : "");
}

/* "fd<file>" of field @field when the trace names the file, else "fd". */
static void args_fd_of(struct strace *s, struct call *c,
		       const struct ltt_item *it, const char *field)
{
	int64_t fd = get(it, field);
	const char *file = ltt_trace_file(s->t, it->pid, fd);
	char buf[LTT_STRING_MAX * 4 + 8];

	if (file && strlen(file) < LTT_STRING_MAX) {
		strace_quote(buf, file, false);
		args_add(c, "%lld<%s>", (long long)fd, buf);
	} else if (file) {
		args_add(c, "%lld<%s>", (long long)fd, file);
	} else {
		args_add(c, "%lld", (long long)fd);
	}
}

static void args_fd(struct strace *s, struct call *c, const struct ltt_item *it)
{
	args_fd_of(s, c, it, "fd");
}

/* renameat2's flags: "RENAME_NOREPLACE|..." */
static const char *rename_flags(uint32_t flags, char *buf, size_t len)
{
	static const char *const names[] = { "RENAME_NOREPLACE",
					     "RENAME_EXCHANGE",
					     "RENAME_WHITEOUT" };
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(names) && n < len; i++)
		if (flags & 1U << i)
			n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "",
				      names[i]);
	flags &= ~7U;
	if (flags && n < len)
		snprintf(buf + n, len - n, "%s%#x", n ? "|" : "", flags);
	return buf;
}

static void args_of(struct strace *s, struct call *c, const struct ltt_item *it,
		    enum arg_kind k)
{
	const char *name;
	char buf[256];

	switch (k) {
	case ARG_PATH:
		args_string(c, it, get(it, "trunc"));
		if (ltt_event_field_index(it->desc, "flags") < 0)
			break;
		name = arch_open_flags(s->names, get(it, "flags"), buf,
				       sizeof(buf));
		if (name)
			args_add(c, "%s", name);
		else
			args_add(c, "%#llo", (unsigned long long)get(it, "flags"));
		break;
	case ARG_NAME:
		args_string(c, it, false);
		break;
	case ARG_NAME_MODE:
		args_string(c, it, false);
		args_add(c, "%#llo", (unsigned long long)get(it, "mode"));
		break;
	case ARG_OLDNAME:
		args_string(c, it, false);
		c->rename_flags = get(it, "flags");
		break;
	case ARG_NEWNAME:
		args_string(c, it, false);
		if (c->rename_flags)
			args_add(c, "%s", rename_flags(c->rename_flags, buf,
						       sizeof(buf)));
		c->rename_flags = 0;
		break;
	case ARG_TRUNCATE:
		args_string(c, it, false);
		args_add(c, "%lld", (long long)get(it, "length"));
		break;
	case ARG_CHOWN:
		args_string(c, it, false);
		args_add(c, "%lld", (long long)get(it, "uid"));
		args_add(c, "%lld", (long long)get(it, "gid"));
		break;
	case ARG_DUP:
		args_fd_of(s, c, it, "oldfd");
		args_add(c, "%lld", (long long)get(it, "newfd"));
		if (get(it, "cloexec"))
			args_add(c, "O_CLOEXEC");
		break;
	case ARG_MMAP_WRITE:
		args_fd(s, c, it);
		args_add(c, "%lld", (long long)get(it, "len"));
		args_add(c, "PROT_WRITE, MAP_SHARED");
		break;
	case ARG_FD:
	case ARG_SOCKET:
		args_fd(s, c, it);
		break;
	case ARG_FD_BYTES:
		args_fd(s, c, it);
		args_add(c, "%lld", (long long)get(it, "bytes"));
		break;
	case ARG_FD_OFFSET:
		args_fd(s, c, it);
		args_add(c, "%lld", (long long)get(it, "offset"));
		break;
	case ARG_FD_CMD:
		args_fd(s, c, it);
		args_add(c, "%#llx", (unsigned long long)get(it, "cmd"));
		break;
	case ARG_NFDS:
		args_add(c, "%lld", (long long)get(it, "nfds"));
		args_add(c, "%lld", (long long)(ltt_event_field_index(it->desc,
			"timeout_us") >= 0 ? get(it, "timeout_us") :
			get(it, "timeout_ms")));
		break;
	case ARG_SOCKET_NEW:
		name = socket_type_name(get(it, "type"));
		if (name)
			args_add(c, "%s", name);
		else
			args_add(c, "%lld", (long long)get(it, "type"));
		break;
	case ARG_SIGNAL:
		name = arch_signal_name(s->names, get(it, "sig"));
		args_add(c, "%lld", (long long)get(it, "pid"));
		if (name)
			args_add(c, "%s", name);
		else
			args_add(c, "%lld", (long long)get(it, "sig"));
		break;
	case ARG_EXEC:
		args_string(c, it, false);
		break;
	case ARG_WAIT:
		args_add(c, "%lld", (long long)get(it, "pid"));
		break;
	case ARG_IPC:
		args_add(c, "%lld", (long long)get(it, "id"));
		break;
	default:
		break;
	}
}

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, OUT_LINE_MAX / 2, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += n < OUT_LINE_MAX / 2 ? n : OUT_LINE_MAX / 2 - 1;
}

/* @str as a JSON string. */
static void put_json(struct out *o, const char *str)
{
	out_json(o, str, OUT_LINE_MAX / 2);
}

/* The line's start: time, time since the start, task. */
static void lead(struct strace *s, uint64_t ts, int32_t pid, uint32_t cpu)
{
	struct out *o = s->o;
	const char *comm = ltt_trace_comm(s->t, pid);
	int64_t real = (int64_t)ts + ltt_trace_clock_offset(s->t);
	uint64_t rel = ts > s->start_ts ? ts - s->start_ts : 0;
	char clock[32];

	format_clock(clock, sizeof(clock), real, s->utc);
	out_line_room(o);
	if (s->json) {
		put(o, "{\"ts\":%llu,\"time\":\"%s\",\"rel\":\"%llu.%09llu\",\"cpu\":%u,\"pid\":%d,\"comm\":",
		    (unsigned long long)ts, clock,
		    (unsigned long long)(rel / 1000000000),
		    (unsigned long long)(rel % 1000000000), cpu, pid);
		put_json(o, comm ? comm : "?");
		return;
	}
	put(o, "%s +%llu.%09llu pid %d %s ", clock,
	    (unsigned long long)(rel / 1000000000),
	    (unsigned long long)(rel % 1000000000), pid, comm ? comm : "?");
}

static void put_ms(struct out *o, uint64_t ns)
{
	put(o, "<%llu.%06llu ms>", (unsigned long long)(ns / 1000000),
	    (unsigned long long)(ns % 1000000));
}

/* The line of a call: returned, or unfinished. */
static void call_line(struct strace *s, struct call *c, bool returned)
{
	/* A compat ABI's calls are numbered in its own table. */
	const char *name = ltt_syscall_name(c->abi ?
		ltt_syscall_compat_table(s->syscalls, c->abi) : s->syscalls, c->nr);
	struct out *o = s->o;
	int64_t ret = c->ret;
	const struct arch_errno *e = returned && ret < 0 && ret > -4096 ?
				     arch_errno(s->names, -ret) : NULL;
	char nbuf[32];

	if (!name && c->abi == LTT_SYSCALL_ABI_COMPAT) {
		snprintf(nbuf, sizeof(nbuf), "compat_syscall_%lld",
			 (long long)c->nr);
		name = nbuf;
	} else if (!name) {
		snprintf(nbuf, sizeof(nbuf), "syscall_%lld", (long long)c->nr);
		name = nbuf;
	}
	lead(s, c->ts, c->pid, c->cpu);
	if (s->json) {
		put(o, ",\"ip\":\"%#llx\",\"syscall\":\"%s\",\"nr\":%lld,\"args\":",
		    (unsigned long long)c->ip, name, (long long)c->nr);
		put_json(o, c->args);
		if (!returned) {
			out_str(o, c->exited ? ",\"ret\":null}\n" :
				   ",\"ret\":null,\"unfinished\":true}\n");
			c->exited = false;
			return;
		}
		put(o, ",\"ret\":%lld", (long long)ret);
		if (e)
			put(o, ",\"errno\":\"%s\"", e->name);
		put(o, ",\"duration_ns\":%llu}\n",
		    (unsigned long long)(c->exit_ts - c->ts));
		return;
	}
	put(o, "[%#llx] %s(%s", (unsigned long long)c->ip, name, c->args);
	if (!returned) {
		/* strace's words: an exit returns not; other calls were cut */
		out_str(o, c->exited ? ") = ?\n" : " <unfinished ...>) = ?\n");
		c->exited = false;
		return;
	}
	if (e)
		put(o, ") = -1 %s (%s) ", e->name, e->text);
	else if (returns_address(name))
		put(o, ") = %#llx ", (unsigned long long)ret);
	else
		put(o, ") = %lld ", (long long)ret);
	put_ms(o, c->exit_ts - c->ts);
	out_char(o, '\n');
}

/* Write what the task @c has open or waiting: before its next call. */
static void call_flush(struct strace *s, struct call *c)
{
	if (c->returned && c->matched)
		call_line(s, c, true);
	else if (c->pending && c->matched)
		call_line(s, c, false);
	c->returned = c->pending = c->exited = false;
}

/*
 * process_exit of task @c (code: the wait(2) status): its exit or
 * exit_group, with the status as its argument, and strace's "+++" line.
 */
static void exit_line(struct strace *s, struct call *c,
		      const struct ltt_item *it, bool match)
{
	int64_t code = get(it, "code");
	const char *name = c->pending ? ltt_syscall_name(c->abi ?
		ltt_syscall_compat_table(s->syscalls, c->abi) : s->syscalls,
		c->nr) : NULL;
	struct out *o = s->o;

	if (name && (code & 0x7f) == 0 &&
	    (!strcmp(name, "exit_group") || !strcmp(name, "exit"))) {
		/* what its exit did (SIGCHLD to the parent) is not its arguments */
		c->len = 0;
		c->args[0] = '\0';
		args_add(c, "%lld", (long long)(code >> 8 & 0xff));
		c->exited = true;
	}
	c->matched |= match;
	call_flush(s, c);
	if (!match && !c->matched)
		return;
	c->matched = false;
	lead(s, it->ts, it->pid, it->cpu);
	if (s->json) {
		if (code & 0x7f) {
			const char *sig = arch_signal_name(s->names, code & 0x7f);

			put(o, ",\"killed_by\":\"%s\",\"sig\":%lld%s}\n",
			    sig ? sig : "?", (long long)(code & 0x7f),
			    code & 0x80 ? ",\"core_dumped\":true" : "");
		} else {
			put(o, ",\"exited\":%lld}\n", (long long)(code >> 8 & 0xff));
		}
		return;
	}
	if (code & 0x7f) {
		const char *sig = arch_signal_name(s->names, code & 0x7f);

		if (sig)
			put(o, "+++ killed by %s%s +++\n", sig,
			    code & 0x80 ? " (core dumped)" : "");
		else
			put(o, "+++ killed by signal %lld%s +++\n",
			    (long long)(code & 0x7f),
			    code & 0x80 ? " (core dumped)" : "");
	} else {
		put(o, "+++ exited with %lld +++\n", (long long)(code >> 8 & 0xff));
	}
}

static void signal_line(struct strace *s, const struct ltt_item *it)
{
	const char *name = arch_signal_name(s->names, get(it, "sig"));
	struct out *o = s->o;

	lead(s, it->ts, it->pid, it->cpu);
	if (s->json) {
		put(o, ",\"signal\":\"%s\",\"sig\":%lld,\"to\":%lld",
		    name ? name : "?", (long long)get(it, "sig"),
		    (long long)get(it, "pid"));
		if (ltt_event_field_index(it->desc, "code") >= 0)
			put(o, ",\"code\":%lld", (long long)get(it, "code"));
		out_str(o, "}\n");
		return;
	}
	put(o, "--- %s (%lld) to pid %lld", name ? name : "SIG?",
	    (long long)get(it, "sig"), (long long)get(it, "pid"));
	if (ltt_event_field_index(it->desc, "code") >= 0) {
		const char *code = arch_signal_code(s->names, get(it, "sig"),
						      get(it, "code"));

		if (code)
			put(o, ", %s", code);
		else
			put(o, ", si_code %lld", (long long)get(it, "code"));
	}
	out_str(o, " ---\n");
}

static void trap_line(struct strace *s, struct call *c, uint64_t end)
{
	const char *name = tl_trap_name(s->syscalls, c->trap_nr);
	struct out *o = s->o;

	lead(s, c->trap_ts, c->pid, c->cpu);
	if (s->json) {
		put(o, ",\"trap\":\"%s\",\"nr\":%lld,\"ip\":\"%#llx\",\"duration_ns\":%llu}\n",
		    name ? name : "?", (long long)c->trap_nr,
		    (unsigned long long)c->trap_ip,
		    (unsigned long long)(end - c->trap_ts));
		return;
	}
	put(o, "--- %s (trap %lld) at %#llx ", name ? name : "trap",
	    (long long)c->trap_nr, (unsigned long long)c->trap_ip);
	put_ms(o, end - c->trap_ts);
	out_str(o, " ---\n");
}

void strace_add(struct strace *s, const struct ltt_item *it, bool match)
{
	int id;
	struct call *c;

	if (!s->started) {
		s->started = true;
		s->start_ts = it->ts;
	}
	if (it->kind != LTT_ITEM_EVENT)
		return;
	id = it->desc->id;
	if (id != s->id_entry && id != s->id_entry_compat &&
	    id != s->id_exit && id != s->id_trap &&
	    id != s->id_trap_exit && id != s->id_process_exit && !s->kind[id])
		return;
	c = call_of(s, it->pid);
	if (!c)
		return;
	if (id == s->id_entry || id == s->id_entry_compat) {
		call_flush(s, c);
		c->pending = true;
		c->matched = match;
		c->ts = it->ts;
		c->cpu = it->cpu;
		c->nr = get(it, "id");
		c->abi = id == s->id_entry ? 0 : get(it, "abi");
		c->ip = get(it, "ip");
		c->len = 0;
		c->args[0] = '\0';
	} else if (id == s->id_exit) {
		/* the file system's events of the call follow its exit */
		if (c->pending) {
			c->pending = false;
			c->returned = true;
			c->matched |= match;
			c->exit_ts = it->ts;
			c->ret = get(it, "ret");
		}
	} else if (id == s->id_trap) {
		c->trap_pending = true;
		c->trap_matched = match;
		c->trap_ts = it->ts;
		c->trap_nr = get(it, "trap");
		c->trap_ip = get(it, "ip");
	} else if (id == s->id_trap_exit) {
		/* page faults are many and say little: not in strace's shape */
		if (c->trap_pending && c->trap_nr != 14 &&
		    (c->trap_matched || match))
			trap_line(s, c, it->ts);
		c->trap_pending = false;
	} else if (id == s->id_process_exit) {
		/* the task's own end (not a child's, whose pid it names) */
		if (get(it, "pid") == it->pid)
			exit_line(s, c, it, match);
	} else {
		if (c->pending || c->returned) {
			args_of(s, c, it, s->kind[id]);
			c->matched |= match;
		}
		if (s->kind[id] == ARG_SIGNAL && match)
			signal_line(s, it);
	}
}

int strace_finish(struct strace *s)
{
	uint32_t i;

	for (i = 0; i < s->n_slots; i++)
		if (s->calls[i].used)
			call_flush(s, &s->calls[i]);
	out_flush(s->o);
	return s->o->failed ? -1 : 0;
}
