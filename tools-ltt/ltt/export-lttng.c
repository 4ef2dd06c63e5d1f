// SPDX-License-Identifier: GPL-2.0
/*
 * ltt export --format=lttng: the trace in the layout lttng-modules 2.13
 * writes for the kernel domain, so that LTTng's analyses, Trace Compass
 * and babeltrace read it as a kernel trace: OUT/kernel/metadata (CTF 1.8
 * TSDL, lttng-modules' environment, packet header and context, event
 * headers) and OUT/kernel/channel0_N, a stream per CPU.
 *
 * LTT's events become LTTng's where LTTng has them (sched_switch,
 * sched_waking, sched_process_fork/exec/exit/wait and sched_wakeup_new,
 * syscall_entry_NAME and syscall_exit_NAME, irq_handler_entry/exit,
 * irq_softirq_entry/exit and softirq_entry/exit, timer_expire_entry,
 * timer_itimer_state, net_dev_queue, net_if_receive_skb,
 * kmem_mm_page_alloc/free, lttng_statedump_*); the others keep LTT's
 * names and fields.  doc/export-formats.md has the table, with the
 * fields LTT does not record and what stands for them.
 *
 * Two passes over the trace: the first finds, for each I/O system call,
 * the fd, byte count, flags and path that LTT records in the fs_*
 * events inside the call (LTTng records them as the call's arguments, at
 * its entry), and the last state dump record; the second writes.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "export.h"
#include "syscalls.h"

#define PKT_SIZE	(256 << 10)	/* a packet's bytes, at most */
#define PKT_HDR		84		/* header and context */
/* an event's bytes, at most: header, names, fields, strings */
#define EV_MAX		(64 + 2 * 16 + LTT_FIELDS_MAX * 8 + 2 * LTT_STRING_MAX)
#define CPUS_MAX	1024
#define IRQ_DEPTH	8
#define SOFTIRQ_GAP	1000000		/* as timeline.h's TL_SOFTIRQ_GAP */
#define LTTNG_MAGIC	0xC1FC1FC1u
#define EXT_ID		65535		/* event_header_large: extended */

/* LTTng's events that LTT's become, in their fixed order. */
enum {
	E_SCHED_SWITCH, E_SCHED_WAKING, E_WAKEUP_NEW, E_FORK, E_EXEC, E_EXIT,
	E_WAIT, E_IRQ_ENTRY, E_IRQ_EXIT, E_SOFTIRQ_ENTRY, E_SOFTIRQ_EXIT,
	E_SOFTIRQ_ENTRY_OLD, E_SOFTIRQ_EXIT_OLD,
	E_TIMER_EXPIRE, E_ITIMER_STATE, E_NET_QUEUE, E_NET_RECEIVE,
	E_SD_START, E_SD_END, E_SD_PROCESS, E_SD_FILE,
	E_PAGE_ALLOC, E_PAGE_FREE,
	E_ENTRY_UNKNOWN, E_EXIT_UNKNOWN, E_COMPAT_ENTRY_UNKNOWN,
	E_COMPAT_EXIT_UNKNOWN,
	E_FIXED
};

/* TSDL of the fields, as lttng-modules prints them (packed: align 8) */
#define I(sz, sg, name)	"\t\tinteger { size = " #sz "; align = 8; signed = " #sg "; encoding = none; base = 10; } _" name ";\n"
#define X(sz, name)	"\t\tinteger { size = " #sz "; align = 8; signed = 0; encoding = none; base = 16; } _" name ";\n"
#define COMM(name)	"\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _" name "[16];\n"
#define STR(name)	"\t\tstring _" name ";\n"
/*
 * net_dev_template's fields; LTT records no header: its type is always
 * _unknown, whose variant member is empty, as lttng-modules writes it.
 */
#define NET_FIELDS	X(64, "skbaddr") I(32, 0, "len") STR("name") \
	"\t\tenum : integer { size = 8; align = 8; signed = 0; encoding = none; base = 10; } { \"_unknown\" = 0, \"_ipv4\" = 1, \"_ipv6\" = 2 } _network_header_type;\n" \
	"\t\tvariant <_network_header_type> { struct { } _unknown; } _network_header;\n" \
	I(16, 0, "protocol")

static const struct fixed_event {
	const char *name;
	const char *fields;
} fixed[E_FIXED] = {
	[E_SCHED_SWITCH] = { "sched_switch",
		COMM("prev_comm") I(32, 1, "prev_tid") I(32, 1, "prev_prio")
		I(64, 1, "prev_state") COMM("next_comm") I(32, 1, "next_tid")
		I(32, 1, "next_prio") },
	[E_SCHED_WAKING] = { "sched_waking",
		COMM("comm") I(32, 1, "tid") I(32, 1, "prio")
		I(32, 1, "target_cpu") },
	[E_WAKEUP_NEW] = { "sched_wakeup_new",
		COMM("comm") I(32, 1, "tid") I(32, 1, "prio")
		I(32, 1, "target_cpu") },
	[E_FORK] = { "sched_process_fork",
		COMM("parent_comm") I(32, 1, "parent_tid") I(32, 1, "parent_pid")
		I(32, 0, "parent_ns_inum") COMM("child_comm")
		I(32, 1, "child_tid") I(8, 0, "_vtids_length")
		"\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _vtids[ __vtids_length ];\n"
		I(32, 1, "child_pid") I(32, 0, "child_ns_inum") },
	[E_EXEC] = { "sched_process_exec",
		STR("filename") I(32, 1, "tid") I(32, 1, "old_tid") },
	[E_EXIT] = { "sched_process_exit",
		COMM("comm") I(32, 1, "tid") I(32, 1, "prio") },
	[E_WAIT] = { "sched_process_wait",
		COMM("comm") I(32, 1, "tid") I(32, 1, "prio") },
	[E_IRQ_ENTRY] = { "irq_handler_entry", I(32, 1, "irq") STR("name") },
	[E_IRQ_EXIT] = { "irq_handler_exit", I(32, 1, "irq") I(32, 1, "ret") },
	[E_SOFTIRQ_ENTRY] = { "irq_softirq_entry", I(32, 0, "vec") },
	[E_SOFTIRQ_EXIT] = { "irq_softirq_exit", I(32, 0, "vec") },
	/* the names before lttng-modules namespaced them: LTTng's analyses' */
	[E_SOFTIRQ_ENTRY_OLD] = { "softirq_entry", I(32, 0, "vec") },
	[E_SOFTIRQ_EXIT_OLD] = { "softirq_exit", I(32, 0, "vec") },
	/* as lttng-modules 2.13 writes them on Linux 5.5 and later */
	[E_TIMER_EXPIRE] = { "timer_expire_entry",
		X(64, "timer") I(64, 0, "now") X(64, "function")
		I(64, 0, "baseclk") },
	[E_ITIMER_STATE] = { "timer_itimer_state",
		I(32, 1, "which") I(64, 0, "expires") I(64, 1, "value_sec")
		I(64, 1, "value_nsec") I(64, 1, "interval_sec")
		I(64, 1, "interval_nsec") },
	/* and LTT's protocol, which LTTng's network header stands for */
	[E_NET_QUEUE] = { "net_dev_queue", NET_FIELDS },
	[E_NET_RECEIVE] = { "net_if_receive_skb", NET_FIELDS },
	[E_SD_START] = { "lttng_statedump_start", "" },
	[E_SD_END] = { "lttng_statedump_end", "" },
	[E_SD_PROCESS] = { "lttng_statedump_process_state",
		I(32, 1, "tid") I(32, 1, "pid") I(32, 1, "ppid") COMM("name")
		I(32, 1, "type") I(32, 1, "mode") I(32, 1, "submode")
		I(32, 1, "status") I(32, 0, "cpu")
		X(64, "file_table_address") },
	/* pid: what lttng-modules before 2.11 wrote, and LTTng's analyses read */
	[E_SD_FILE] = { "lttng_statedump_file_descriptor",
		X(64, "file_table_address") I(32, 1, "fd")
		"\t\tinteger { size = 32; align = 8; signed = 0; encoding = none; base = 8; } _flags;\n"
		X(32, "fmode") STR("filename") I(32, 1, "pid") },
	[E_PAGE_ALLOC] = { "kmem_mm_page_alloc",
		X(64, "page") I(64, 0, "pfn") I(32, 0, "order")
		I(32, 0, "gfp_flags") I(32, 1, "migratetype") },
	[E_PAGE_FREE] = { "kmem_mm_page_free",
		X(64, "page") I(64, 0, "pfn") I(32, 0, "order") },
	[E_ENTRY_UNKNOWN] = { "syscall_entry_unknown",
		I(32, 1, "id")
		"\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 10; } _args[6];\n" },
	[E_EXIT_UNKNOWN] = { "syscall_exit_unknown",
		I(32, 1, "id") I(64, 1, "ret")
		"\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 10; } _args[6];\n" },
	[E_COMPAT_ENTRY_UNKNOWN] = { "compat_syscall_entry_unknown",
		I(32, 1, "id")
		"\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 10; } _args[6];\n" },
	[E_COMPAT_EXIT_UNKNOWN] = { "compat_syscall_exit_unknown",
		I(32, 1, "id") I(64, 1, "ret")
		"\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 10; } _args[6];\n" },
};

/*
 * The arguments of the system calls LTTng's I/O analyses read, as
 * lttng-modules names them; LTT fills them from the fs_* events of the
 * call (pass 1).
 */
enum scheme {
	SC_NONE, SC_FD, SC_RW, SC_PRW, SC_RWV, SC_OPEN, SC_OPENAT, SC_DUP,
	SC_DUP2, SC_DUP3, SC_FCNTL, SC_SENDTO, SC_RECVFROM, SC_MSG, SC_SFR,
	SC_SOCKET, SC_ACCEPT, SC_ACCEPT4
};

static const struct {
	const char *name;
	uint8_t scheme;
} io_calls[] = {
	{ "read", SC_RW }, { "write", SC_RW }, { "pread64", SC_PRW },
	{ "pwrite64", SC_PRW }, { "readv", SC_RWV }, { "writev", SC_RWV },
	{ "preadv", SC_RWV }, { "pwritev", SC_RWV }, { "open", SC_OPEN },
	{ "openat", SC_OPENAT }, { "close", SC_FD }, { "fsync", SC_FD },
	{ "fdatasync", SC_FD }, { "dup", SC_DUP }, { "dup2", SC_DUP2 },
	{ "dup3", SC_DUP3 }, { "fcntl", SC_FCNTL }, { "fcntl64", SC_FCNTL },
	{ "sendto", SC_SENDTO }, { "recvfrom", SC_RECVFROM },
	{ "sendmsg", SC_MSG }, { "recvmsg", SC_MSG },
	{ "sync_file_range", SC_SFR }, { "socket", SC_SOCKET },
	{ "accept", SC_ACCEPT }, { "accept4", SC_ACCEPT4 },
};

static const char *const scheme_fields[] = {
	[SC_NONE] = "",
	[SC_FD] = I(32, 0, "fd"),
	[SC_RW] = I(32, 0, "fd") X(64, "buf") I(64, 0, "count"),
	[SC_PRW] = I(32, 0, "fd") X(64, "buf") I(64, 0, "count")
		   I(64, 1, "pos"),
	[SC_RWV] = I(64, 0, "fd") X(64, "vec") I(64, 0, "vlen"),
	[SC_OPEN] = STR("filename") I(32, 1, "flags") I(16, 0, "mode"),
	[SC_OPENAT] = I(32, 1, "dfd") STR("filename") I(32, 1, "flags")
		      I(16, 0, "mode"),
	[SC_DUP] = I(32, 0, "fildes"),
	[SC_DUP2] = I(32, 0, "oldfd") I(32, 0, "newfd"),
	[SC_DUP3] = I(32, 0, "oldfd") I(32, 0, "newfd") I(32, 1, "flags"),
	[SC_FCNTL] = I(32, 0, "fd") I(32, 0, "cmd") I(64, 0, "arg"),
	[SC_SENDTO] = I(32, 1, "fd") X(64, "buff") I(64, 0, "len")
		      I(32, 0, "flags") X(64, "addr") I(32, 1, "addr_len"),
	[SC_RECVFROM] = I(32, 1, "fd") X(64, "ubuf") I(64, 0, "size")
			I(32, 0, "flags") X(64, "addr") X(64, "addr_len"),
	[SC_MSG] = I(32, 1, "fd") X(64, "msg") I(32, 0, "flags"),
	[SC_SFR] = I(32, 1, "fd") I(64, 1, "offset") I(64, 1, "nbytes")
		   I(32, 0, "flags"),
	[SC_SOCKET] = I(32, 1, "family") I(32, 1, "type") I(32, 1, "protocol"),
	[SC_ACCEPT] = I(32, 1, "fd") X(64, "upeer_sockaddr")
		      X(64, "upeer_addrlen"),
	[SC_ACCEPT4] = I(32, 1, "fd") X(64, "upeer_sockaddr")
		       X(64, "upeer_addrlen") I(32, 1, "flags"),
};

/* What pass 1 found of an I/O call, keyed by its entry's place. */
struct io_args {
	uint64_t key;			/* cpu << 48 | offset + 1; 0: free */
	int64_t fd, bytes, newfd;
	uint32_t flags;
	uint32_t name;			/* offset in names + 1; 0: none */
	bool dup;			/* fcntl: an F_DUPFD */
};

/* A task as the export follows it. */
struct task {
	int32_t pid;			/* 0 marks a free slot: pid 0 is apart */
	int32_t tgid;
	int32_t sc_nr;			/* the open system call */
	uint8_t sc_kind;		/* 0 none, 1 native, 2 compat */
	uint8_t scheme;			/* pass 1: of the open call */
	uint64_t key;			/* pass 1: its entry */
};

/* One CPU's output stream. */
struct ostream {
	int fd;
	int idx_fd;			/* index/channel0_N.idx */
	uint64_t off;			/* bytes written to fd */
	unsigned char *buf;
	size_t len;
	uint64_t ts_begin, last_ts;
	uint64_t seq, discarded;
	bool have_ts;
	bool started;			/* its first sched_switch written */
	/* interrupts open on the CPU, and the softirq LTT does not end */
	unsigned int irq_depth;
	int32_t irq[IRQ_DEPTH];
	bool soft_open;
	uint32_t soft_vec;
	uint64_t soft_last;
};

struct lx {
	const struct export_job *job;
	struct ltt_trace *t;
	const struct ltt_registry *reg;
	const struct ltt_syscall_table *sys;
	int dirfd;			/* OUT.tmp/kernel */
	unsigned char uuid[16];
	bool failed;			/* a write failed: said */

	/* registry ids (-1: none) */
	int id_entry, id_exit, id_compat, id_sched, id_wakeup, id_fork;
	int id_exit_proc, id_exec, id_wait, id_irq, id_irq_exit, id_softirq;
	int id_sd_process, id_sd_file, id_alloc, id_free;
	int id_timer_expired, id_setitimer, id_net_in, id_net_out;
	int id_fs_open, id_fs_close, id_fs_read, id_fs_write, id_fs_dup;
	bool *in_softirq;		/* per registry id */

	/* LTTng ids: kinds of events, in id order */
	struct kind {
		uint16_t what;		/* E_*, or K_* below */
		int32_t arg;		/* registry id or syscall number */
	} *kinds;
	unsigned int n_kinds, cap_kinds;
	uint32_t *by_reg;		/* registry id -> LTTng id + 1 */
	uint32_t fixed_id[E_FIXED];	/* + 1 */
	uint32_t *sc_id[4];		/* entry, exit, compat entry, exit */
	long sc_base[2];
	unsigned int sc_n[2];
	const struct ltt_syscall_table *compat;

	struct task *tasks;
	size_t n_task_slots, n_tasks;
	struct io_args *args;
	size_t n_arg_slots, n_args;
	char *names;
	size_t names_len, names_cap;
	uint64_t sd_last_key;		/* the last state dump record */
	bool sd_started;

	struct ostream *os[CPUS_MAX];
	uint64_t events_in, events_out;
};

enum { K_REG = E_FIXED, K_ENTRY, K_EXIT, K_CENTRY, K_CEXIT };

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* --- tasks and pass 1's arguments: open-addressing tables --- */

static struct task *task_get(struct lx *x, int32_t pid)
{
	size_t i, mask;

	if (x->n_tasks * 2 >= x->n_task_slots) {
		size_t n = x->n_task_slots ? 2 * x->n_task_slots : 1024, j;
		struct task *old = x->tasks, *nt = calloc(n, sizeof(*nt));

		if (!nt)
			return NULL;
		x->tasks = nt;
		for (j = 0; j < x->n_task_slots; j++) {
			if (!old[j].pid)
				continue;
			for (i = hash64(old[j].pid) & (n - 1); nt[i].pid;
			     i = (i + 1) & (n - 1))
				;
			nt[i] = old[j];
		}
		free(old);
		x->n_task_slots = n;
	}
	mask = x->n_task_slots - 1;
	/* pid 0 (idle) is kept as INT32_MIN */
	if (!pid)
		pid = INT32_MIN;
	for (i = hash64(pid) & mask; x->tasks[i].pid; i = (i + 1) & mask)
		if (x->tasks[i].pid == pid)
			return &x->tasks[i];
	x->tasks[i] = (struct task){ .pid = pid,
				     .tgid = pid == INT32_MIN ? 0 : pid };
	x->n_tasks++;
	return &x->tasks[i];
}

static struct io_args *args_get(struct lx *x, uint64_t key, bool add)
{
	size_t i, mask;

	if (add && x->n_args * 2 >= x->n_arg_slots) {
		size_t n = x->n_arg_slots ? 2 * x->n_arg_slots : 1024, j;
		struct io_args *old = x->args, *na = calloc(n, sizeof(*na));

		if (!na)
			return NULL;
		x->args = na;
		for (j = 0; j < x->n_arg_slots; j++) {
			if (!old[j].key)
				continue;
			for (i = hash64(old[j].key) & (n - 1); na[i].key;
			     i = (i + 1) & (n - 1))
				;
			na[i] = old[j];
		}
		free(old);
		x->n_arg_slots = n;
	}
	if (!x->n_arg_slots)
		return NULL;
	mask = x->n_arg_slots - 1;
	for (i = hash64(key) & mask; x->args[i].key; i = (i + 1) & mask)
		if (x->args[i].key == key)
			return &x->args[i];
	if (!add)
		return NULL;
	x->args[i] = (struct io_args){ .key = key, .fd = -1, .bytes = -1,
				       .newfd = -1 };
	x->n_args++;
	return &x->args[i];
}

static uint32_t name_add(struct lx *x, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t at;

	if (x->names_len + n > x->names_cap) {
		size_t cap = x->names_cap ? 2 * x->names_cap : 1 << 16;
		char *p;

		while (cap < x->names_len + n)
			cap *= 2;
		p = realloc(x->names, cap);
		if (!p)
			return 0;
		x->names = p;
		x->names_cap = cap;
	}
	memcpy(x->names + x->names_len, s, n);
	at = x->names_len + 1;
	x->names_len += n;
	return at;
}

static uint64_t key_of(const struct ltt_item *it)
{
	return ((uint64_t)it->cpu << 48 | it->offset) + 1;
}

static int field_of(const struct ltt_registry *reg, int id, const char *name)
{
	return id < 0 ? -1 : ltt_event_field_index(&reg->events[id], name);
}

static int64_t fget(const struct ltt_item *it, const char *name, int64_t def)
{
	int64_t v;

	return ltt_item_field(it, name, &v) < 0 ? def : v;
}

/*
 * The name of a syscall_entry's or syscall_entry_compat's call, NULL
 * when unknown; *@compat: of the compat ABI's table.  x32's calls
 * (numbers of their own table) stay unknown: LTTng names them by the
 * native table.
 */
static const char *call_name(const struct lx *x, const struct ltt_item *it,
			     bool *compat, long *nr)
{
	*nr = fget(it, "id", -1);
	*compat = (int)it->desc->id == x->id_compat;
	if (!*compat)
		return ltt_syscall_name(x->sys, *nr);
	if (fget(it, "abi", 0) != LTT_SYSCALL_ABI_COMPAT) {
		*compat = false;
		return NULL;
	}
	return ltt_syscall_name(x->compat, *nr);
}

static enum scheme scheme_of(const char *name)
{
	unsigned int i;

	if (!name)
		return SC_NONE;
	for (i = 0; i < ARRAY_SIZE(io_calls); i++)
		if (!strcmp(io_calls[i].name, name))
			return io_calls[i].scheme;
	return SC_NONE;
}

static void lx_ids(struct lx *x)
{
	const struct ltt_registry *reg = x->reg;

#define ID(v, n)	(x->v = export_kernel_id(reg, n))
	ID(id_entry, "syscall_entry");
	ID(id_exit, "syscall_exit");
	ID(id_compat, "syscall_entry_compat");
	ID(id_sched, "sched_change");
	ID(id_wakeup, "process_wakeup");
	ID(id_fork, "process_fork");
	ID(id_exit_proc, "process_exit");
	ID(id_exec, "process_exec");
	ID(id_wait, "process_wait");
	ID(id_irq, "irq_entry");
	ID(id_irq_exit, "irq_exit");
	ID(id_softirq, "softirq");
	ID(id_sd_process, "statedump_process");
	ID(id_sd_file, "statedump_file");
	ID(id_alloc, "mm_page_alloc");
	ID(id_free, "mm_page_free");
	ID(id_timer_expired, "timer_expired");
	ID(id_setitimer, "timer_setitimer");
	ID(id_net_in, "net_packet_in");
	ID(id_net_out, "net_packet_out");
	ID(id_fs_open, "fs_open");
	ID(id_fs_close, "fs_close");
	ID(id_fs_read, "fs_read");
	ID(id_fs_write, "fs_write");
	ID(id_fs_dup, "fs_dup");
#undef ID
	if (field_of(reg, x->id_sched, "in") < 0 ||
	    field_of(reg, x->id_sched, "out") < 0)
		x->id_sched = -1;
	export_softirq_events(reg, x->in_softirq);
}

/* --- pass 1: the arguments of the I/O calls --- */

static int pass1(struct lx *x)
{
	struct export_reader r;
	const struct ltt_item *it;
	struct export_job job = *x->job;

	job.events = job.expr = NULL;
	export_reader_open(&r, &job, false);
	while ((it = export_reader_next(&r))) {
		int id;
		struct task *k;
		struct io_args *a;

		if (it->kind != LTT_ITEM_EVENT)
			continue;
		id = it->desc->id;
		if (id == x->id_sd_process || id == x->id_sd_file) {
			x->sd_last_key = key_of(it);
			continue;
		}
		if (id != x->id_entry && id != x->id_compat &&
		    id != x->id_exit && id != x->id_fs_open &&
		    id != x->id_fs_close && id != x->id_fs_read &&
		    id != x->id_fs_write && id != x->id_fs_dup)
			continue;
		k = task_get(x, it->pid);
		if (!k)
			goto oom;
		if (id == x->id_entry || id == x->id_compat) {
			bool compat;
			long nr;

			k->scheme = scheme_of(call_name(x, it, &compat, &nr));
			k->key = k->scheme ? key_of(it) : 0;
			continue;
		}
		if (id == x->id_exit || !k->key) {
			k->key = 0;
			continue;
		}
		a = args_get(x, k->key, true);
		if (!a)
			goto oom;
		if (id == x->id_fs_open) {
			a->fd = fget(it, "fd", -1);
			a->flags = fget(it, "flags", 0);
			a->name = name_add(x, ltt_item_string(it));
			if (!a->name)
				goto oom;
		} else if (id == x->id_fs_dup) {
			a->fd = fget(it, "oldfd", -1);
			a->newfd = fget(it, "newfd", -1);
			a->flags = fget(it, "cloexec", 0) ? O_CLOEXEC : 0;
			a->dup = true;
		} else {
			a->fd = fget(it, "fd", -1);
			a->bytes = fget(it, "bytes", -1);
		}
	}
	export_reader_close(&r);
	/* pass 2 starts again: the tasks' state goes */
	memset(x->tasks, 0, x->n_task_slots * sizeof(*x->tasks));
	x->n_tasks = 0;
	return 0;
oom:
	export_reader_close(&r);
	return -1;
}

/* --- the streams --- */

static void put(unsigned char **p, const void *v, size_t n)
{
	memcpy(*p, v, n);
	*p += n;
}

static void put8(unsigned char **p, uint8_t v) { put(p, &v, 1); }
static void put16(unsigned char **p, uint16_t v) { put(p, &v, 2); }
static void put32(unsigned char **p, uint32_t v) { put(p, &v, 4); }
static void put64(unsigned char **p, uint64_t v) { put(p, &v, 8); }

static void put_str(unsigned char **p, const char *s)
{
	size_t n = strnlen(s, LTT_STRING_MAX - 1);

	memcpy(*p, s, n);
	(*p)[n] = 0;
	*p += n + 1;
}

/* A comm: 16 bytes, NUL-padded. */
static void put_comm(unsigned char **p, const char *s)
{
	size_t n = s ? strnlen(s, 15) : 0;

	memset(*p, 0, 16);
	if (n)
		memcpy(*p, s, n);
	*p += 16;
}

static void lx_write(struct lx *x, int fd, const void *buf, size_t len,
		     const char *file)
{
	const char *p = buf;

	while (len && !x->failed) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			warnx_cmd(x->job->cmd, "%s/kernel/%s: %s", x->job->output,
				  file, n < 0 ? strerror(errno) : "short write");
			x->failed = true;
			return;
		}
		p += n;
		len -= n;
	}
}

/*
 * The packet index lttng-consumerd writes beside each stream (CTF
 * index 1.1, every integer big-endian): babeltrace2 and Trace Compass
 * find packets with it.
 */
#define IDX_MAGIC	0xC1F1DCC1U
#define IDX_ENTRY	72U		/* bytes: nine 64-bit fields */

static void idx_open(struct lx *x, struct ostream *s, const char *file)
{
	uint32_t h[4] = { htobe32(IDX_MAGIC), htobe32(1), htobe32(1),
			  htobe32(IDX_ENTRY) };
	char name[64];

	snprintf(name, sizeof(name), "index/%s.idx", file);
	if ((mkdirat(x->dirfd, "index", 0777) && errno != EEXIST) ||
	    (s->idx_fd = openat(x->dirfd, name,
				O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				0666)) < 0) {
		warnx_cmd(x->job->cmd, "%s/kernel/%s: %s", x->job->output,
			  name, strerror(errno));
		x->failed = true;
		return;
	}
	lx_write(x, s->idx_fd, h, sizeof(h), name);
}

/* The index entry of the packet at s->off, of @bits, on @cpu. */
static void idx_append(struct lx *x, struct ostream *s, unsigned int cpu,
		       uint64_t bits)
{
	uint64_t e[IDX_ENTRY / 8] = {
		htobe64(s->off), htobe64(bits), htobe64(bits),
		htobe64(s->ts_begin), htobe64(s->last_ts),
		htobe64(s->discarded), 0, htobe64(cpu), htobe64(s->seq),
	};
	char name[64];

	snprintf(name, sizeof(name), "index/channel0_%u.idx", cpu);
	if (s->idx_fd >= 0)
		lx_write(x, s->idx_fd, e, sizeof(e), name);
}

static void pkt_flush(struct lx *x, unsigned int cpu)
{
	struct ostream *s = x->os[cpu];
	unsigned char *p = s->buf;
	uint64_t bits = (uint64_t)s->len * 8;
	char file[32];

	if (s->len <= PKT_HDR)
		return;
	put32(&p, LTTNG_MAGIC);
	put(&p, x->uuid, 16);
	put32(&p, 0);			/* stream_id */
	put64(&p, cpu);			/* stream_instance_id */
	put64(&p, s->ts_begin);
	put64(&p, s->last_ts);
	put64(&p, bits);		/* content_size */
	put64(&p, bits);		/* packet_size */
	put64(&p, s->seq);
	put64(&p, s->discarded);
	put32(&p, cpu);
	snprintf(file, sizeof(file), "channel0_%u", cpu);
	lx_write(x, s->fd, s->buf, s->len, file);
	idx_append(x, s, cpu, bits);
	s->off += s->len;
	s->seq++;
	s->len = PKT_HDR;
	s->have_ts = false;
}

static struct ostream *stream_of(struct lx *x, unsigned int cpu)
{
	struct ostream *s;
	char file[32];

	if (x->os[cpu])
		return x->os[cpu];
	s = calloc(1, sizeof(*s));
	if (!s || !(s->buf = malloc(PKT_SIZE))) {
		free(s);
		return NULL;
	}
	snprintf(file, sizeof(file), "channel0_%u", cpu);
	s->fd = openat(x->dirfd, file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		       0666);
	if (s->fd < 0) {
		warnx_cmd(x->job->cmd, "%s/kernel/%s: %s", x->job->output,
			  file, strerror(errno));
		x->failed = true;
		free(s->buf);
		free(s);
		return NULL;
	}
	s->len = PKT_HDR;
	s->idx_fd = -1;
	x->os[cpu] = s;
	idx_open(x, s, file);
	return s;
}

/* The LTTng id of a kind, made on its first use. */
static uint32_t kind_id(struct lx *x, uint32_t *slot, uint16_t what,
			int32_t arg)
{
	if (*slot)
		return *slot - 1;
	if (x->n_kinds == x->cap_kinds) {
		unsigned int n = x->cap_kinds ? 2 * x->cap_kinds : 64;
		struct kind *k = realloc(x->kinds, n * sizeof(*k));

		if (!k)
			return UINT32_MAX;
		x->kinds = k;
		x->cap_kinds = n;
	}
	x->kinds[x->n_kinds] = (struct kind){ what, arg };
	*slot = ++x->n_kinds;
	return *slot - 1;
}

/*
 * Start an event of LTTng id @id at @ts on @cpu: its header written,
 * returns where its fields go (room for EV_MAX bytes).
 */
static unsigned char *ev_begin(struct lx *x, unsigned int cpu, uint64_t ts,
			       uint32_t id)
{
	struct ostream *s = stream_of(x, cpu);
	unsigned char *p;

	if (!s || id == UINT32_MAX)
		return NULL;
	if (s->len + EV_MAX > PKT_SIZE)
		pkt_flush(x, cpu);
	if (!s->have_ts) {
		s->ts_begin = ts;
		s->have_ts = true;
	} else if (ts < s->last_ts) {
		ts = s->last_ts;	/* never back: the streams are ordered */
	}
	p = s->buf + s->len;
	if (id < EXT_ID && ts - s->last_ts < (1ULL << 32) &&
	    s->len > PKT_HDR) {
		put16(&p, id);
		put32(&p, (uint32_t)ts);
	} else {
		put16(&p, EXT_ID);
		put32(&p, id);
		put64(&p, ts);
	}
	s->last_ts = ts;
	return p;
}

static void ev_end(struct lx *x, unsigned int cpu, unsigned char *p)
{
	struct ostream *s = x->os[cpu];

	s->len = p - s->buf;
	x->events_out++;
}

static uint32_t fixed_ev(struct lx *x, unsigned int e)
{
	return kind_id(x, &x->fixed_id[e], e, 0);
}

static const char *comm_of(const struct lx *x, int32_t pid)
{
	const char *c = ltt_trace_comm(x->t, pid);

	return c ? c : "";
}

/* A kernel task state as sched_switch's prev_state reports it. */
static int64_t report_state(uint64_t s)
{
	if (!s)
		return 0;		/* preempted: runnable */
	if ((s & 0x0002) && (s & 0x0400))
		return 0x80;		/* TASK_IDLE: TASK_REPORT_IDLE */
	if (s & 0x0030)
		return s & 0x0030;	/* EXIT_DEAD, EXIT_ZOMBIE */
	if (s & 0x0080)
		return 0x10;		/* TASK_DEAD */
	return s & 0x7f;
}

/* LTT's event as it is: its name and fields. */
static void ev_generic(struct lx *x, const struct ltt_item *it)
{
	const struct ltt_event_desc *d = it->desc;
	uint32_t id = kind_id(x, &x->by_reg[d->id], K_REG, d->id);
	unsigned char *p = ev_begin(x, it->cpu, it->ts, id);
	unsigned int i;

	if (!p)
		return;
	for (i = 0; i < d->n_fields; i++) {
		if (d->fields[i].type == LTT_TYPE_STRING)
			put_str(&p, ltt_item_string(it));
		else
			put(&p, it->payload + d->fields[i].offset,
			    d->fields[i].size);
	}
	ev_end(x, it->cpu, p);
}

/*
 * A softirq's entry or exit: irq_softirq_*, as lttng-modules 2.13 names
 * them, then softirq_*, the names before 2.7, which are the only ones
 * LTTng's analyses know (even their last release, 0.6).
 */
static void ev_vec(struct lx *x, unsigned int cpu, uint64_t ts,
		   unsigned int e, uint32_t vec)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		unsigned char *p = ev_begin(x, cpu, ts, fixed_ev(x, e + i *
			(E_SOFTIRQ_ENTRY_OLD - E_SOFTIRQ_ENTRY)));

		if (!p)
			return;
		put32(&p, vec);
		ev_end(x, cpu, p);
	}
}

static void ev_softirq_exit(struct lx *x, unsigned int cpu)
{
	struct ostream *s = x->os[cpu];

	s->soft_open = false;
	ev_vec(x, cpu, s->soft_last, E_SOFTIRQ_EXIT, s->soft_vec);
}

static void ev_syscall_entry(struct lx *x, const struct ltt_item *it,
			     struct task *k)
{
	bool compat;
	long nr;
	const char *name = call_name(x, it, &compat, &nr);
	const struct io_args *a = args_get(x, key_of(it), false);
	static const struct io_args none = { .fd = -1, .bytes = -1,
					     .newfd = -1 };
	unsigned int t = compat ? 1 : 0;
	uint64_t idx = (uint64_t)(nr - x->sc_base[t]);
	unsigned char *p;
	uint32_t id;
	enum scheme sc = scheme_of(name);
	int64_t fd, bytes;

	k->sc_nr = nr;
	k->sc_kind = compat ? 2 : 1;
	if (!name || idx >= x->sc_n[t]) {
		k->sc_kind += 2;	/* unknown: its exit too */
		id = fixed_ev(x, compat ? E_COMPAT_ENTRY_UNKNOWN : E_ENTRY_UNKNOWN);
		p = ev_begin(x, it->cpu, it->ts, id);
		if (!p)
			return;
		put32(&p, nr);
		memset(p, 0, 48);
		p += 48;
		ev_end(x, it->cpu, p);
		return;
	}
	id = kind_id(x, &x->sc_id[2 * t][idx], compat ? K_CENTRY : K_ENTRY, nr);
	p = ev_begin(x, it->cpu, it->ts, id);
	if (!p)
		return;
	if (!a)
		a = &none;
	fd = a->fd;
	bytes = a->bytes < 0 ? 0 : a->bytes;
	switch (sc) {
	case SC_NONE:
		break;
	case SC_FD:
	case SC_DUP:
		put32(&p, fd);
		break;
	case SC_RW:
	case SC_PRW:
		put32(&p, fd);
		put64(&p, 0);
		put64(&p, bytes);
		if (sc == SC_PRW)
			put64(&p, 0);
		break;
	case SC_RWV:
		put64(&p, fd);
		put64(&p, 0);
		put64(&p, bytes);
		break;
	case SC_OPEN:
	case SC_OPENAT:
		if (sc == SC_OPENAT)
			put32(&p, -100);	/* AT_FDCWD: the path is absolute */
		put_str(&p, a->name ? x->names + a->name - 1 : "");
		put32(&p, a->flags);
		put16(&p, 0);
		break;
	case SC_DUP2:
	case SC_DUP3:
		put32(&p, fd);
		put32(&p, a->newfd);
		if (sc == SC_DUP3)
			put32(&p, a->flags);
		break;
	case SC_FCNTL:
		put32(&p, fd);
		put32(&p, a->dup ? 0 /* F_DUPFD */ : 1 /* F_GETFD */);
		put64(&p, a->dup ? (uint64_t)a->newfd : 0);
		break;
	case SC_SENDTO:
	case SC_RECVFROM:
		put32(&p, fd);
		put64(&p, 0);
		put64(&p, bytes);
		put32(&p, 0);
		put64(&p, 0);
		if (sc == SC_SENDTO)
			put32(&p, 0);
		else
			put64(&p, 0);
		break;
	case SC_MSG:
		put32(&p, fd);
		put64(&p, 0);
		put32(&p, 0);
		break;
	case SC_SFR:
		put32(&p, fd);
		put64(&p, 0);
		put64(&p, 0);
		put32(&p, 0);
		break;
	case SC_SOCKET:
		put32(&p, -1);
		put32(&p, -1);
		put32(&p, -1);
		break;
	case SC_ACCEPT:
	case SC_ACCEPT4:
		put32(&p, fd);
		put64(&p, 0);
		put64(&p, 0);
		if (sc == SC_ACCEPT4)
			put32(&p, 0);
		break;
	}
	ev_end(x, it->cpu, p);
}

static void ev_syscall_exit(struct lx *x, const struct ltt_item *it,
			    struct task *k)
{
	unsigned int t = k->sc_kind == 2 || k->sc_kind == 4;
	uint64_t idx = (uint64_t)(k->sc_nr - x->sc_base[t]);
	int64_t ret = fget(it, "ret", 0);
	unsigned char *p;

	if (k->sc_kind == 1 || k->sc_kind == 2) {
		p = ev_begin(x, it->cpu, it->ts,
			     kind_id(x, &x->sc_id[2 * t + 1][idx],
				     t ? K_CEXIT : K_EXIT, k->sc_nr));
		if (!p)
			return;
		put64(&p, ret);
	} else {
		/* unknown, or entered before the trace began: id -1 */
		p = ev_begin(x, it->cpu, it->ts,
			     fixed_ev(x, t ? E_COMPAT_EXIT_UNKNOWN :
					     E_EXIT_UNKNOWN));
		if (!p)
			return;
		put32(&p, k->sc_kind ? k->sc_nr : -1);
		put64(&p, ret);
		memset(p, 0, 48);
		p += 48;
	}
	k->sc_kind = 0;
	ev_end(x, it->cpu, p);
}

/* One item of the trace, written. */
static void lx_item(struct lx *x, const struct ltt_item *it)
{
	struct ostream *s;
	struct task *k;
	unsigned char *p;
	int id;

	if (it->cpu >= CPUS_MAX)
		return;
	s = stream_of(x, it->cpu);
	if (!s)
		return;
	x->events_in++;
	if (it->kind == LTT_ITEM_LOST) {
		/* the next packet says so, as lttng-modules' do */
		s->discarded += it->lost_events;
		pkt_flush(x, it->cpu);
		return;
	}
	id = it->desc->id;
	if (!s->started) {
		/*
		 * Who runs on the CPU: LTT's packet headers say, LTTng's
		 * readers learn it from a sched_switch.  One to that task
		 * starts each stream, from pid 0: what ran before the
		 * CPU's first event is not known.
		 */
		s->started = true;
		p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_SCHED_SWITCH));
		if (!p)
			return;
		put_comm(&p, comm_of(x, 0));
		put32(&p, 0);
		put32(&p, 20);
		put64(&p, 0);
		put_comm(&p, comm_of(x, it->pid));
		put32(&p, it->pid);
		put32(&p, 20);
		ev_end(x, it->cpu, p);
	}
	/*
	 * A softirq ends at the first event it does not make, an interrupt
	 * too, at its last event: as ltt view's and ltt analyze's timeline
	 * ends it.
	 */
	if (s->soft_open && (id == x->id_softirq || !x->in_softirq[id] ||
			     it->ts - s->soft_last > SOFTIRQ_GAP))
		ev_softirq_exit(x, it->cpu);
	if (s->soft_open)
		s->soft_last = it->ts;
	k = task_get(x, it->pid);
	if (!k) {
		x->failed = true;
		warnx_cmd(x->job->cmd, "out of memory");
		return;
	}
	if (id == x->id_sched) {
		int32_t in = fget(it, "in", 0), out = fget(it, "out", it->pid);

		p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_SCHED_SWITCH));
		if (!p)
			return;
		put_comm(&p, comm_of(x, out));
		put32(&p, out);
		put32(&p, 20);		/* prio: not recorded, nice 0's */
		put64(&p, report_state(fget(it, "out_state", 1)));
		put_comm(&p, comm_of(x, in));
		put32(&p, in);
		put32(&p, 20);
		ev_end(x, it->cpu, p);
	} else if (id == x->id_wakeup) {
		int32_t pid = fget(it, "pid", 0);

		p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_SCHED_WAKING));
		if (!p)
			return;
		put_comm(&p, comm_of(x, pid));
		put32(&p, pid);
		put32(&p, 20);
		put32(&p, it->cpu);	/* target_cpu: not recorded */
		ev_end(x, it->cpu, p);
	} else if (id == x->id_fork) {
		int32_t child = fget(it, "child", 0);
		int32_t ctgid = fget(it, "child_tgid", child);
		const char *comm = comm_of(x, it->pid);
		struct task *c = task_get(x, child);

		k = task_get(x, it->pid);	/* the table may have grown */
		if (c)
			c->tgid = ctgid;
		p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_FORK));
		if (!p || !k)
			return;
		put_comm(&p, comm);
		put32(&p, it->pid);
		put32(&p, k->tgid);
		put32(&p, 0);
		put_comm(&p, comm);
		put32(&p, child);
		put8(&p, 1);
		put32(&p, child);
		put32(&p, ctgid);
		put32(&p, 0);
		ev_end(x, it->cpu, p);
		/*
		 * The kernel wakes the new task right after the fork
		 * (wake_up_new_task): LTT records no event, LTTng's
		 * sched_wakeup_new stands for it, on the parent's CPU.
		 */
		p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_WAKEUP_NEW));
		if (!p)
			return;
		put_comm(&p, comm);
		put32(&p, child);
		put32(&p, 20);
		put32(&p, it->cpu);
		ev_end(x, it->cpu, p);
	} else if (id == x->id_exec) {
		int32_t pid = fget(it, "pid", it->pid);

		p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_EXEC));
		if (!p)
			return;
		put_str(&p, ltt_item_string(it));
		put32(&p, pid);
		put32(&p, pid);
		ev_end(x, it->cpu, p);
	} else if (id == x->id_exit_proc || id == x->id_wait) {
		int32_t pid = fget(it, "pid", it->pid);

		p = ev_begin(x, it->cpu, it->ts,
			     fixed_ev(x, id == x->id_wait ? E_WAIT : E_EXIT));
		if (!p)
			return;
		put_comm(&p, comm_of(x, id == x->id_wait ? it->pid : pid));
		put32(&p, pid);
		put32(&p, 20);
		ev_end(x, it->cpu, p);
	} else if (id == x->id_entry || id == x->id_compat) {
		ev_syscall_entry(x, it, k);
	} else if (id == x->id_exit) {
		ev_syscall_exit(x, it, k);
	} else if (id == x->id_irq) {
		int32_t irq = fget(it, "irq", 0);

		if (s->irq_depth < IRQ_DEPTH)
			s->irq[s->irq_depth] = irq;
		s->irq_depth++;
		p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_IRQ_ENTRY));
		if (!p)
			return;
		put32(&p, irq);
		put_str(&p, "");	/* the handler's name: not recorded */
		ev_end(x, it->cpu, p);
	} else if (id == x->id_irq_exit) {
		int32_t irq = -1;

		if (s->irq_depth) {
			s->irq_depth--;
			if (s->irq_depth < IRQ_DEPTH)
				irq = s->irq[s->irq_depth];
		}
		p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_IRQ_EXIT));
		if (!p)
			return;
		put32(&p, irq);
		put32(&p, 1);		/* IRQ_HANDLED: not recorded */
		ev_end(x, it->cpu, p);
	} else if (id == x->id_softirq) {
		s->soft_open = true;
		s->soft_vec = fget(it, "vec", 0);
		s->soft_last = it->ts;
		ev_vec(x, it->cpu, it->ts, E_SOFTIRQ_ENTRY, s->soft_vec);
	} else if (id == x->id_timer_expired) {
		p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_TIMER_EXPIRE));
		if (!p)
			return;
		memset(p, 0, 32);	/* timer, now, function, baseclk */
		p += 32;
		ev_end(x, it->cpu, p);
	} else if (id == x->id_setitimer) {
		int64_t us = fget(it, "value_us", 0);

		p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_ITIMER_STATE));
		if (!p)
			return;
		put32(&p, fget(it, "which", 0));
		put64(&p, 0);		/* expires: not recorded */
		put64(&p, us / 1000000);
		put64(&p, us % 1000000 * 1000);
		put64(&p, 0);		/* the interval: not recorded */
		put64(&p, 0);
		ev_end(x, it->cpu, p);
	} else if (id == x->id_net_in || id == x->id_net_out) {
		p = ev_begin(x, it->cpu, it->ts,
			     fixed_ev(x, id == x->id_net_in ? E_NET_RECEIVE :
							      E_NET_QUEUE));
		if (!p)
			return;
		put64(&p, 0);		/* skbaddr, len, name: not recorded */
		put32(&p, 0);
		put_str(&p, "");
		put8(&p, 0);		/* no network header */
		put16(&p, fget(it, "protocol", 0));
		ev_end(x, it->cpu, p);
	} else if (id == x->id_sd_process || id == x->id_sd_file) {
		int32_t pid = fget(it, "pid", 0);
		int32_t tgid = fget(it, "tgid", pid);

		if (!x->sd_started) {
			x->sd_started = true;
			p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_SD_START));
			if (p)
				ev_end(x, it->cpu, p);
		}
		if (id == x->id_sd_process) {
			struct task *c = task_get(x, pid);

			if (c)
				c->tgid = tgid;
			p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_SD_PROCESS));
			if (!p)
				return;
			put32(&p, pid);
			put32(&p, tgid);
			put32(&p, fget(it, "ppid", 0));
			put_comm(&p, ltt_item_string(it));
			put32(&p, 0);	/* type: LTTNG_USER_THREAD */
			put32(&p, 0);	/* mode: LTTNG_MODE_UNKNOWN */
			put32(&p, 0);	/* submode: LTTNG_NONE */
			put32(&p, 5);	/* status: LTTNG_WAIT */
			put32(&p, it->cpu);
			put64(&p, (uint64_t)(uint32_t)tgid); /* a table per process */
		} else {
			struct task *c = task_get(x, pid);
			int32_t pt = c ? c->tgid : pid;

			p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_SD_FILE));
			if (!p)
				return;
			put64(&p, (uint64_t)(uint32_t)pt);
			put32(&p, fget(it, "fd", -1));
			put32(&p, 0);	/* flags: not recorded */
			put32(&p, 0);	/* fmode: not recorded */
			put_str(&p, ltt_item_string(it));
			put32(&p, pt);
		}
		ev_end(x, it->cpu, p);
		if (key_of(it) == x->sd_last_key) {
			p = ev_begin(x, it->cpu, it->ts, fixed_ev(x, E_SD_END));
			if (p)
				ev_end(x, it->cpu, p);
		}
	} else if (id == x->id_alloc || id == x->id_free) {
		p = ev_begin(x, it->cpu, it->ts,
			     fixed_ev(x, id == x->id_alloc ? E_PAGE_ALLOC :
							     E_PAGE_FREE));
		if (!p)
			return;
		put64(&p, 0);		/* page, pfn: not recorded */
		put64(&p, 0);
		put32(&p, fget(it, "order", 0));
		if (id == x->id_alloc) {
			put32(&p, 0);	/* gfp_flags, migratetype: not recorded */
			put32(&p, 0);
		}
		ev_end(x, it->cpu, p);
	} else {
		ev_generic(x, it);
	}
}

/* --- the metadata --- */

static void md_fields_reg(FILE *f, const struct ltt_event_desc *d)
{
	unsigned int i;

	for (i = 0; i < d->n_fields; i++) {
		const struct ltt_field_desc *fd = &d->fields[i];

		if (fd->type == LTT_TYPE_STRING)
			fprintf(f, "\t\tstring _%s;\n", fd->name);
		else
			fprintf(f, "\t\tinteger { size = %u; align = 8; signed = %d; encoding = none; base = 10; } _%s;\n",
				fd->size * 8, fd->type == LTT_TYPE_SIGNED,
				fd->name);
	}
}

static void md_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			putc(*s, f);
	}
}

static int write_metadata(struct lx *x)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	char uuid[40], date[32];
	unsigned int i;
	const char *arch = ltt_trace_arch(x->t);
	time_t now = time(NULL);
	struct tm tm;
	int fd, ret = 0;

	if (!f)
		return -1;
	for (i = 0; i < 16; i++)
		sprintf(uuid + 2 * i + (i >= 4) + (i >= 6) + (i >= 8) + (i >= 10),
			"%02x", x->uuid[i]);
	uuid[8] = uuid[13] = uuid[18] = uuid[23] = '-';
	uuid[36] = 0;
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y%m%dT%H%M%S+0000", &tm);
	fprintf(f, "/* CTF 1.8 */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
		"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
		"typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n"
		"\tbyte_order = %s;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n"
		"\t\tuint8_t  uuid[16];\n\t\tuint32_t stream_id;\n"
		"\t\tuint64_t stream_instance_id;\n\t};\n};\n\n",
		uuid, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "be" : "le");
	fprintf(f, "env {\n\thostname = \"ltt\";\n\tdomain = \"kernel\";\n"
		"\tsysname = \"Linux\";\n\tkernel_release = \"6.12\";\n"
		"\tkernel_version = \"LTT\";\n"
		"\ttracer_name = \"lttng-modules\";\n\ttracer_major = 2;\n"
		"\ttracer_minor = 13;\n\ttracer_patchlevel = 0;\n"
		"\ttrace_buffering_scheme = \"global\";\n\ttrace_name = \"");
	md_escape(f, x->job->dir);
	fprintf(f, "\";\n\ttrace_creation_datetime = \"%s\";\n", date);
	if (arch) {
		fputs("\tarch = \"", f);
		md_escape(f, arch);
		fputs("\";\n", f);
	}
	fprintf(f, "\tltt_exporter = \"ltt export --format=lttng\";\n};\n\n");
	fprintf(f, "clock {\n\tname = \"monotonic\";\n\tuuid = \"%s\";\n"
		"\tdescription = \"Monotonic Clock\";\n"
		"\tfreq = 1000000000; /* Frequency, in Hz */\n"
		"\t/* clock value offset from Epoch is: offset * (1/freq) */\n"
		"\toffset = %lld;\n};\n\n", uuid,
		(long long)ltt_trace_clock_offset(x->t));
	fputs("typealias integer {\n\tsize = 27; align = 1; signed = false;\n"
	      "\tmap = clock.monotonic.value;\n} := uint27_clock_monotonic_t;\n\n"
	      "typealias integer {\n\tsize = 32; align = 8; signed = false;\n"
	      "\tmap = clock.monotonic.value;\n} := uint32_clock_monotonic_t;\n\n"
	      "typealias integer {\n\tsize = 64; align = 8; signed = false;\n"
	      "\tmap = clock.monotonic.value;\n} := uint64_clock_monotonic_t;\n\n"
	      "struct packet_context {\n"
	      "\tuint64_clock_monotonic_t timestamp_begin;\n"
	      "\tuint64_clock_monotonic_t timestamp_end;\n"
	      "\tuint64_t content_size;\n\tuint64_t packet_size;\n"
	      "\tuint64_t packet_seq_num;\n\tunsigned long events_discarded;\n"
	      "\tuint32_t cpu_id;\n};\n\n"
	      "struct event_header_compact {\n"
	      "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
	      "\tvariant <id> {\n\t\tstruct {\n"
	      "\t\t\tuint27_clock_monotonic_t timestamp;\n\t\t} compact;\n"
	      "\t\tstruct {\n\t\t\tuint32_t id;\n"
	      "\t\t\tuint64_clock_monotonic_t timestamp;\n\t\t} extended;\n"
	      "\t} v;\n} align(8);\n\n"
	      "struct event_header_large {\n"
	      "\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
	      "\tvariant <id> {\n\t\tstruct {\n"
	      "\t\t\tuint32_clock_monotonic_t timestamp;\n\t\t} compact;\n"
	      "\t\tstruct {\n\t\t\tuint32_t id;\n"
	      "\t\t\tuint64_clock_monotonic_t timestamp;\n\t\t} extended;\n"
	      "\t} v;\n} align(8);\n\n"
	      "stream {\n\tid = 0;\n\tevent.header := struct event_header_large;\n"
	      "\tpacket.context := struct packet_context;\n};\n\n", f);
	for (i = 0; i < x->n_kinds; i++) {
		const struct kind *k = &x->kinds[i];
		const char *name = NULL, *pre = "";

		switch (k->what) {
		case K_REG:
			name = x->reg->events[k->arg].name;
			break;
		case K_ENTRY:
		case K_CENTRY:
			pre = k->what == K_ENTRY ? "syscall_entry_" :
						   "compat_syscall_entry_";
			name = ltt_syscall_name(k->what == K_ENTRY ? x->sys :
						x->compat, k->arg);
			break;
		case K_EXIT:
		case K_CEXIT:
			pre = k->what == K_EXIT ? "syscall_exit_" :
						  "compat_syscall_exit_";
			name = ltt_syscall_name(k->what == K_EXIT ? x->sys :
						x->compat, k->arg);
			break;
		default:
			name = fixed[k->what].name;
		}
		fprintf(f, "event {\n\tname = \"%s%s\";\n\tid = %u;\n"
			"\tstream_id = 0;\n\tfields := struct {\n", pre, name, i);
		switch (k->what) {
		case K_REG:
			md_fields_reg(f, &x->reg->events[k->arg]);
			break;
		case K_ENTRY:
		case K_CENTRY:
			fputs(scheme_fields[scheme_of(name)], f);
			break;
		case K_EXIT:
		case K_CEXIT:
			fputs(I(64, 1, "ret"), f);
			break;
		default:
			fputs(fixed[k->what].fields, f);
		}
		fputs("\t};\n};\n\n", f);
	}
	if (fclose(f)) {
		free(text);
		return -1;
	}
	fd = openat(x->dirfd, "metadata", O_WRONLY | O_CREAT | O_TRUNC |
		    O_CLOEXEC, 0666);
	if (fd < 0) {
		warnx_cmd(x->job->cmd, "%s/kernel/metadata: %s",
			  x->job->output, strerror(errno));
		ret = -1;
	} else {
		lx_write(x, fd, text, len, "metadata");
		if (close(fd) && !x->failed) {
			warnx_cmd(x->job->cmd, "%s/kernel/metadata: %s",
				  x->job->output, strerror(errno));
			x->failed = true;
		}
	}
	free(text);
	return ret || x->failed ? -1 : 0;
}

static void make_uuid(struct lx *x)
{
	uint64_t h = 0xcbf29ce484222325ULL, a, b;
	const char *s = x->job->dir;
	uint64_t first = 0;

	ltt_trace_time_range(x->t, &first, NULL);
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	a = hash64(h ^ first);
	b = hash64(a + 0x9e3779b97f4a7c15ULL);
	memcpy(x->uuid, &a, 8);
	memcpy(x->uuid + 8, &b, 8);
	x->uuid[6] = (x->uuid[6] & 0x0f) | 0x40;	/* version 4 */
	x->uuid[8] = (x->uuid[8] & 0x3f) | 0x80;
}

static void lx_free(struct lx *x)
{
	unsigned int i;

	for (i = 0; i < CPUS_MAX; i++) {
		if (!x->os[i])
			continue;
		if (x->os[i]->fd >= 0)
			close(x->os[i]->fd);
		if (x->os[i]->idx_fd >= 0)
			close(x->os[i]->idx_fd);
		free(x->os[i]->buf);
		free(x->os[i]);
	}
	for (i = 0; i < 4; i++)
		free(x->sc_id[i]);
	free(x->kinds);
	free(x->by_reg);
	free(x->in_softirq);
	free(x->tasks);
	free(x->args);
	free(x->names);
	if (x->dirfd >= 0)
		close(x->dirfd);
}

int export_lttng(const struct export_job *job)
{
	struct lx x = { .job = job, .dirfd = -1 };
	struct export_reader r;
	struct export_out out;
	const struct ltt_item *it;
	unsigned int i, errors;
	char *kdir = NULL;
	int ret = 1;

	if (!strcmp(job->output, "-")) {
		warnx_cmd(job->cmd, "--format=lttng writes a directory: -o DIR");
		return 2;
	}
	export_reader_open(&r, job, true);
	x.t = r.t;
	x.reg = ltt_trace_registry(r.t);
	x.sys = ltt_trace_syscalls(r.t);
	x.compat = ltt_syscall_compat_table(x.sys, LTT_SYSCALL_ABI_COMPAT);
	x.by_reg = calloc(x.reg->n_events + 1, sizeof(*x.by_reg));
	x.in_softirq = calloc(x.reg->n_events + 1, sizeof(bool));
	for (i = 0; i < 2; i++) {
		const struct ltt_syscall_table *tab = i ? x.compat : x.sys;

		x.sc_base[i] = tab ? tab->base : 0;
		x.sc_n[i] = tab ? tab->n : 0;
		x.sc_id[2 * i] = calloc(x.sc_n[i] + 1, sizeof(uint32_t));
		x.sc_id[2 * i + 1] = calloc(x.sc_n[i] + 1, sizeof(uint32_t));
		if (!x.sc_id[2 * i] || !x.sc_id[2 * i + 1])
			goto oom;
	}
	if (!x.by_reg || !x.in_softirq)
		goto oom;
	lx_ids(&x);
	make_uuid(&x);
	if (pass1(&x))
		goto oom;
	if (export_out_open(&out, job->cmd, job->output))
		goto done;
	if (asprintf(&kdir, "%s/kernel", out.tmp) < 0) {
		kdir = NULL;
		export_out_abort(&out);
		goto oom;
	}
	if (mkdir(kdir, 0777) ||
	    (x.dirfd = open(kdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		warnx_cmd(job->cmd, "%s: %s", kdir, strerror(errno));
		export_out_abort(&out);
		goto done;
	}
	while (!x.failed && (it = export_reader_next(&r)))
		lx_item(&x, it);
	for (i = 0; i < CPUS_MAX && !x.failed; i++) {
		if (!x.os[i])
			continue;
		if (x.os[i]->soft_open)
			ev_softirq_exit(&x, i);
		pkt_flush(&x, i);
		if (close(x.os[i]->fd) && !x.failed) {
			warnx_cmd(job->cmd, "%s/kernel/channel0_%u: %s",
				  job->output, i, strerror(errno));
			x.failed = true;
		}
		x.os[i]->fd = -1;
	}
	errors = print_trace_errors(job->cmd, r.t);
	if (x.failed || write_metadata(&x)) {
		export_out_abort(&out);
		goto done;
	}
	if (export_out_commit(&out, job->cmd))
		goto done;
	ret = errors ? 1 : 0;
	goto done;
oom:
	warnx_cmd(job->cmd, "out of memory");
done:
	free(kdir);
	lx_free(&x);
	export_reader_close(&r);
	return ret;
}
