// SPDX-License-Identifier: GPL-2.0
/*
 * `ltt report --syscalls` (strace's shape) and `ltt report --json`
 * (strace.h).  Entry and exit pair per task, not per CPU: a call that
 * sleeps and returns elsewhere is one line.  The lines are written in
 * time order, as strace -f writes them: held (struct point) until no
 * earlier one can come (struct hold), a call split in its unfinished
 * and resumed lines when another task has a line within it.
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

struct call;

/*
 * What a task has open that will print a line at an earlier time than
 * what comes next: a call entered (its line has its entry time), a split
 * call returned (its resumed line has its exit's), a trap entered.  In
 * the order they were made, which is time order: lines before the first
 * hold can be written.
 */
struct hold {
	uint64_t ts, seq;
	struct hold *prev, *next;	/* NULL: not held */
	struct call *owner;
	bool trap;
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
	uint64_t seq, exit_seq, trap_seq;	/* of the entry, exit, trap */
	uint32_t exit_cpu;
	bool split;			/* its entry line is out: it resumes */
	bool entry_shown;		/* ... and printed (it matched by then) */
	size_t split_len;		/* ... with args up to here */
	struct hold hold, trap_hold;
	size_t len;			/* of args */
	char args[ARGS_MAX];
};

/*
 * A line to write, in time order: P_LINE as it is; P_CALL, a call that
 * returned, whole when no other task has a line within it, else its
 * entry line (strace's "<unfinished ...>") and, at its exit, its
 * resumed line.
 */
enum { P_LINE, P_CALL };

struct point {
	uint64_t ts, seq;
	uint64_t end, end_seq;		/* P_CALL: the exit */
	int32_t pid;
	int kind;
	char *line, *entry, *resume;
};

/*
 * Lines held for time order beyond this: the oldest hold (a call that
 * blocks: wait4, read of a pipe) is split at once, its entry line out.
 */
#define STRACE_WINDOW	4096

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
	struct call **calls;		/* open addressing by pid */
	uint32_t n_slots, used;
	uint64_t seq, now;		/* the item at hand: its number, time */
	struct hold holds;		/* the list's head */
	struct point *pts;		/* lines to write, by time: pts[head...] */
	size_t head, n, cap;
	struct call **on_cpu;		/* returned calls not final, by exit CPU */
	uint32_t n_cpus;
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
		 NOTE_SIGNAL_CODE, NOTE_MODE, NOTE_CRASH_KIND };

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
	{ "crash", "kind", NOTE_CRASH_KIND },
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
	case NOTE_CRASH_KIND:
		return ltt_crash_kind_name(v);
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
	s->holds.next = s->holds.prev = &s->holds;
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
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n_slots; i++)
		free(s->calls[i]);
	for (i = s->head; i < s->head + s->n; i++) {
		free(s->pts[i].line);
		free(s->pts[i].entry);
		free(s->pts[i].resume);
	}
	free(s->pts);
	free(s->on_cpu);
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
	struct call *c;
	uint32_t h;

	for (h = slot_of(pid, s->n_slots); s->calls[h];
	     h = (h + 1) & (s->n_slots - 1))
		if (s->calls[h]->pid == pid)
			return s->calls[h];
	if (2 * (s->used + 1) > s->n_slots) {
		uint32_t n = s->n_slots * 2, i;
		struct call **t = calloc(n, sizeof(*t));

		if (!t)
			return NULL;
		for (i = 0; i < s->n_slots; i++) {
			struct call *k = s->calls[i];

			if (!k)
				continue;
			for (h = slot_of(k->pid, n); t[h]; h = (h + 1) & (n - 1))
				;
			t[h] = k;
		}
		free(s->calls);
		s->calls = t;
		s->n_slots = n;
		return call_of(s, pid);
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	s->used++;
	c->pid = pid;
	c->used = true;
	c->hold.owner = c->trap_hold.owner = c;
	c->trap_hold.trap = true;
	s->calls[h] = c;
	return c;
}

static void hold_add(struct strace *s, struct hold *h, uint64_t ts)
{
	if (h->next)
		return;
	h->ts = ts;
	h->seq = s->seq;
	h->prev = s->holds.prev;
	h->next = &s->holds;
	s->holds.prev->next = h;
	s->holds.prev = h;
}

static void hold_del(struct hold *h)
{
	if (!h->next)
		return;
	h->prev->next = h->next;
	h->next->prev = h->prev;
	h->next = h->prev = NULL;
}

/* (@ts, @seq) before (@ts2, @seq2)? */
static bool before(uint64_t ts, uint64_t seq, uint64_t ts2, uint64_t seq2)
{
	return ts < ts2 || (ts == ts2 && seq < seq2);
}

/* Put @p among the lines to write, in time order; false without memory. */
static bool point_add(struct strace *s, const struct point *p)
{
	size_t i;

	if (s->head + s->n == s->cap) {
		if (s->head) {
			memmove(s->pts, s->pts + s->head, s->n * sizeof(*s->pts));
			s->head = 0;
		} else {
			size_t cap = s->cap ? 2 * s->cap : 256;
			struct point *pts = realloc(s->pts, cap * sizeof(*pts));

			if (!pts)
				return false;
			s->pts = pts;
			s->cap = cap;
		}
	}
	for (i = s->head + s->n; i > s->head &&
	     before(p->ts, p->seq, s->pts[i - 1].ts, s->pts[i - 1].seq); i--)
		s->pts[i] = s->pts[i - 1];
	s->pts[i] = *p;
	s->n++;
	return true;
}

/* Where a line to take out of the output buffer starts. */
static size_t out_begin(struct out *o)
{
	out_line_room(o);
	return o->len;
}

/* The line being formatted in the output buffer from @at, taken out. */
static char *line_take(struct out *o, size_t at)
{
	char *line = strndup(o->buf + at, o->len - at);

	o->len = at;
	return line;
}

/* Line @line (taken) of task @pid at (@ts, @seq), to write in order. */
static void line_add(struct strace *s, char *line, int32_t pid, uint64_t ts,
		     uint64_t seq)
{
	struct point p = { .ts = ts, .seq = seq, .pid = pid, .kind = P_LINE,
			   .line = line };

	if (line && !point_add(s, &p))
		free(line);
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

/* The name of @c's call, in @nbuf when the table has none. */
static const char *call_name(struct strace *s, const struct call *c,
			     char *nbuf, size_t len)
{
	/* A compat ABI's calls are numbered in its own table. */
	const char *name = ltt_syscall_name(c->abi ?
		ltt_syscall_compat_table(s->syscalls, c->abi) : s->syscalls, c->nr);

	if (!name && c->abi == LTT_SYSCALL_ABI_COMPAT) {
		snprintf(nbuf, len, "compat_syscall_%lld", (long long)c->nr);
		name = nbuf;
	} else if (!name) {
		snprintf(nbuf, len, "syscall_%lld", (long long)c->nr);
		name = nbuf;
	}
	return name;
}

/* What a returned call gives back: ") = 3 <0.01 ms>" and its line's end. */
static void call_return(struct strace *s, const struct call *c,
			const char *name)
{
	struct out *o = s->o;
	int64_t ret = c->ret;
	const struct arch_errno *e = ret < 0 && ret > -4096 ?
				     arch_errno(s->names, -ret) : NULL;

	if (s->json) {
		put(o, ",\"ret\":%lld", (long long)ret);
		if (e)
			put(o, ",\"errno\":\"%s\"", e->name);
		put(o, ",\"duration_ns\":%llu}\n",
		    (unsigned long long)(c->exit_ts - c->ts));
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

/*
 * The line of a call at its entry: whole if @returned; else unfinished,
 * its arguments the first @len bytes of args: "<unfinished ...>) = ?"
 * when it never returns (@split false), strace's "<unfinished ...>" of
 * a call that resumes later (@split).
 */
static void call_line(struct strace *s, struct call *c, bool returned,
		      bool split, size_t len)
{
	struct out *o = s->o;
	char nbuf[32];
	const char *name = call_name(s, c, nbuf, sizeof(nbuf));
	char save = c->args[len];

	c->args[len] = '\0';
	lead(s, c->ts, c->pid, c->cpu);
	if (s->json) {
		put(o, ",\"ip\":\"%#llx\",\"syscall\":\"%s\",\"nr\":%lld,\"args\":",
		    (unsigned long long)c->ip, name, (long long)c->nr);
		put_json(o, c->args);
		c->args[len] = save;
		if (returned)
			call_return(s, c, name);
		else
			out_str(o, c->exited ? ",\"ret\":null}\n" :
				   ",\"ret\":null,\"unfinished\":true}\n");
		return;
	}
	put(o, "[%#llx] %s(%s", (unsigned long long)c->ip, name, c->args);
	c->args[len] = save;
	if (returned)
		call_return(s, c, name);
	else if (split)
		out_str(o, " <unfinished ...>\n");
	else
		/* strace's words: an exit returns not; other calls were cut */
		out_str(o, c->exited ? ") = ?\n" : " <unfinished ...>) = ?\n");
}

/* strace's "<... read resumed>ARGS) = 3" of @c: the args from @from on. */
static void resume_line(struct strace *s, struct call *c, size_t from)
{
	struct out *o = s->o;
	char nbuf[32];
	const char *name = call_name(s, c, nbuf, sizeof(nbuf));
	const char *rest = c->args + from;

	if (from && !strncmp(rest, ", ", 2))
		rest += 2;
	lead(s, c->exit_ts, c->pid, c->exit_cpu);
	if (s->json) {
		put(o, ",\"ip\":\"%#llx\",\"syscall\":\"%s\",\"nr\":%lld,\"resumed\":true,\"args\":",
		    (unsigned long long)c->ip, name, (long long)c->nr);
		put_json(o, rest);
	} else {
		put(o, "<... %s resumed>%s", name, rest);
	}
	call_return(s, c, name);
}

/*
 * Task @c's call is over (its next call, its end, a forced end): its
 * lines go among those to write.
 */
static void call_flush(struct strace *s, struct call *c)
{
	struct out *o = s->o;
	size_t at;

	if (c->split && c->returned && c->matched) {
		at = out_begin(o);
		resume_line(s, c, c->entry_shown ? c->split_len : 0);
		line_add(s, line_take(o, at), c->pid, c->exit_ts, c->exit_seq);
	} else if (!c->split && c->returned && c->matched) {
		struct point p = { .ts = c->ts, .seq = c->seq, .end = c->exit_ts,
				   .end_seq = c->exit_seq, .pid = c->pid,
				   .kind = P_CALL };

		at = out_begin(o);
		call_line(s, c, true, false, c->len);
		p.line = line_take(o, at);
		call_line(s, c, false, true, c->len);
		p.entry = line_take(o, at);
		resume_line(s, c, c->len);
		p.resume = line_take(o, at);
		if (!p.line || !p.entry || !p.resume || !point_add(s, &p)) {
			free(p.line);
			free(p.entry);
			free(p.resume);
		}
	} else if (!c->split && c->pending && c->matched) {
		at = out_begin(o);
		call_line(s, c, false, false, c->len);
		line_add(s, line_take(o, at), c->pid, c->ts, c->seq);
	}
	hold_del(&c->hold);
	if (c->exit_cpu < s->n_cpus && s->on_cpu[c->exit_cpu] == c)
		s->on_cpu[c->exit_cpu] = NULL;
	c->returned = c->pending = c->exited = c->split = false;
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
	size_t at;

	if (name && (code & 0x7f) == 0 && !c->split &&
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
	at = out_begin(o);
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
	} else if (code & 0x7f) {
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
	line_add(s, line_take(o, at), it->pid, it->ts, s->seq);
}

static void signal_line(struct strace *s, const struct ltt_item *it)
{
	const char *name = arch_signal_name(s->names, get(it, "sig"));
	struct out *o = s->o;
	size_t at = out_begin(o);

	lead(s, it->ts, it->pid, it->cpu);
	if (s->json) {
		put(o, ",\"signal\":\"%s\",\"sig\":%lld,\"to\":%lld",
		    name ? name : "?", (long long)get(it, "sig"),
		    (long long)get(it, "pid"));
		if (ltt_event_field_index(it->desc, "code") >= 0)
			put(o, ",\"code\":%lld", (long long)get(it, "code"));
		out_str(o, "}\n");
	} else {
		put(o, "--- %s (%lld) to pid %lld", name ? name : "SIG?",
		    (long long)get(it, "sig"), (long long)get(it, "pid"));
		if (ltt_event_field_index(it->desc, "code") >= 0) {
			const char *code = arch_signal_code(s->names,
				get(it, "sig"), get(it, "code"));

			if (code)
				put(o, ", %s", code);
			else
				put(o, ", si_code %lld",
				    (long long)get(it, "code"));
		}
		out_str(o, " ---\n");
	}
	line_add(s, line_take(o, at), it->pid, it->ts, s->seq);
}

static void trap_line(struct strace *s, struct call *c, uint64_t end)
{
	const char *name = tl_trap_name(s->syscalls, c->trap_nr);
	struct out *o = s->o;
	size_t at = out_begin(o);

	lead(s, c->trap_ts, c->pid, c->cpu);
	if (s->json) {
		put(o, ",\"trap\":\"%s\",\"nr\":%lld,\"ip\":\"%#llx\",\"duration_ns\":%llu}\n",
		    name ? name : "?", (long long)c->trap_nr,
		    (unsigned long long)c->trap_ip,
		    (unsigned long long)(end - c->trap_ts));
	} else {
		put(o, "--- %s (trap %lld) at %#llx ", name ? name : "trap",
		    (long long)c->trap_nr, (unsigned long long)c->trap_ip);
		put_ms(o, end - c->trap_ts);
		out_str(o, " ---\n");
	}
	line_add(s, line_take(o, at), c->pid, c->trap_ts, c->trap_seq);
	hold_del(&c->trap_hold);
}

/*
 * Write the lines that nothing can precede any more: those before the
 * first hold (or the item at hand); a call is whole unless another
 * task's line falls within it, then split as strace -f splits it (not
 * in JSON, whose object has the call's time and duration).
 */
static void points_write(struct strace *s, bool all)
{
	uint64_t wts = all ? UINT64_MAX : s->now, wseq = all ? UINT64_MAX : s->seq + 1;

	if (!all && s->holds.next != &s->holds) {
		wts = s->holds.next->ts;
		wseq = s->holds.next->seq;
	}
	while (s->n) {
		struct point p = s->pts[s->head];
		bool split = false;
		size_t j;

		if (!before(p.ts, p.seq, wts, wseq))
			break;
		/* JSON: one object per call, with its time and duration */
		if (p.kind == P_CALL && !s->json) {
			for (j = s->head + 1; j < s->head + s->n &&
			     before(s->pts[j].ts, s->pts[j].seq, p.end, p.end_seq); j++)
				if (s->pts[j].pid != p.pid) {
					split = true;
					break;
				}
			/* whole only once every line before its exit is known */
			if (!split && !before(p.end, p.end_seq, wts, wseq))
				break;
		}
		s->head++;
		s->n--;
		out_line_room(s->o);
		out_str(s->o, split ? p.entry : p.line);
		free(split ? p.line : p.entry);
		free(split ? p.entry : p.line);
		if (split) {
			line_add(s, p.resume, p.pid, p.end, p.end_seq);
		} else {
			free(p.resume);
		}
	}
	if (!s->n)
		s->head = 0;
}

/*
 * Too many lines wait behind the oldest hold: its call is split now
 * (its entry line, with the arguments it has, goes out), or ended if it
 * returned; a trap's line is written with the time it has taken so far.
 */
static void hold_force(struct strace *s)
{
	struct hold *h = s->holds.next;
	struct call *c = h->owner;
	size_t at;

	if (h->trap) {
		trap_line(s, c, s->now);
		c->trap_pending = false;
	} else if (c->pending && !c->split) {
		c->split = true;
		c->split_len = c->len;
		c->entry_shown = c->matched;
		if (c->matched) {
			at = out_begin(s->o);
			call_line(s, c, false, true, c->len);
			line_add(s, line_take(s->o, at), c->pid, c->ts, c->seq);
		}
		hold_del(h);
	} else {
		call_flush(s, c);
	}
}

static void points_flow(struct strace *s)
{
	points_write(s, false);
	while (s->n > STRACE_WINDOW && s->holds.next != &s->holds) {
		hold_force(s);
		points_write(s, false);
	}
}

/* Task @c returned on @cpu: its call ends at another task's event there. */
static void on_cpu_set(struct strace *s, uint32_t cpu, struct call *c)
{
	if (cpu >= s->n_cpus) {
		uint32_t n = cpu + 1 > 2 * s->n_cpus ? cpu + 1 : 2 * s->n_cpus;
		struct call **v = realloc(s->on_cpu, n * sizeof(*v));

		if (!v)
			return;
		memset(v + s->n_cpus, 0, (n - s->n_cpus) * sizeof(*v));
		s->on_cpu = v;
		s->n_cpus = n;
	}
	s->on_cpu[cpu] = c;
}

void strace_add(struct strace *s, const struct ltt_item *it, bool match)
{
	int id;
	struct call *c;

	if (!s->started) {
		s->started = true;
		s->start_ts = it->ts;
	}
	s->seq++;
	s->now = it->ts;
	/*
	 * A call's events follow its exit on its CPU, before another task
	 * runs there: another task's event ends it.
	 */
	if (it->cpu < s->n_cpus && s->on_cpu[it->cpu] &&
	    s->on_cpu[it->cpu]->pid != it->pid)
		call_flush(s, s->on_cpu[it->cpu]);
	if (it->kind != LTT_ITEM_EVENT) {
		points_flow(s);
		return;
	}
	id = it->desc->id;
	if (id != s->id_entry && id != s->id_entry_compat &&
	    id != s->id_exit && id != s->id_trap &&
	    id != s->id_trap_exit && id != s->id_process_exit && !s->kind[id]) {
		points_flow(s);
		return;
	}
	c = call_of(s, it->pid);
	if (!c)
		return;
	if (id == s->id_entry || id == s->id_entry_compat) {
		call_flush(s, c);
		c->pending = true;
		c->matched = match;
		c->ts = it->ts;
		c->seq = s->seq;
		c->cpu = it->cpu;
		c->nr = get(it, "id");
		c->abi = id == s->id_entry ? 0 : get(it, "abi");
		c->ip = get(it, "ip");
		c->len = 0;
		c->args[0] = '\0';
		hold_add(s, &c->hold, it->ts);
	} else if (id == s->id_exit) {
		/* the file system's events of the call follow its exit */
		if (c->pending) {
			c->pending = false;
			c->returned = true;
			c->matched |= match;
			c->exit_ts = it->ts;
			c->exit_seq = s->seq;
			c->exit_cpu = it->cpu;
			c->ret = get(it, "ret");
			if (c->split)
				hold_add(s, &c->hold, it->ts);
			on_cpu_set(s, it->cpu, c);
		}
	} else if (id == s->id_trap) {
		hold_del(&c->trap_hold);
		c->trap_pending = true;
		c->trap_matched = match;
		c->trap_ts = it->ts;
		c->trap_seq = s->seq;
		c->trap_nr = get(it, "trap");
		c->trap_ip = get(it, "ip");
		/* page faults are many and say little: not in strace's shape */
		if (c->trap_nr != 14)
			hold_add(s, &c->trap_hold, it->ts);
	} else if (id == s->id_trap_exit) {
		if (c->trap_pending && c->trap_nr != 14 &&
		    (c->trap_matched || match))
			trap_line(s, c, it->ts);
		hold_del(&c->trap_hold);
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
	points_flow(s);
}

int strace_finish(struct strace *s)
{
	uint32_t i;

	for (i = 0; i < s->n_slots; i++)
		if (s->calls[i]) {
			call_flush(s, s->calls[i]);
			hold_del(&s->calls[i]->trap_hold);
		}
	points_write(s, true);
	out_flush(s->o);
	return s->o->failed ? -1 : 0;
}
