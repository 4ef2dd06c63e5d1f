// SPDX-License-Identifier: GPL-2.0
/*
 * ltt report: print a trace, one line per event, in time order.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lib/checked.h"
#include "container.h"
#include "filter.h"
#include "ltt.h"
#include "out.h"
#include "prevboot.h"
#include "strace.h"
#include "symbols.h"
#include "syscalls.h"

enum {
	OPT_FROM = 256,
	OPT_TO,
	OPT_UTC,
	OPT_RAW,
	OPT_SYSCALLS,
	OPT_JSON,
	OPT_FILTER,
	OPT_COMM,
	OPT_SHOW_CONTAINER,
	OPT_TAIL,
	OPT_SYMBOLS,
};

static const struct ltt_opt report_opts[] = {
	{ 'e', "event", "LIST", "only these events (names, prefix*, ids; !ITEM leaves out)" },
	{ OPT_FILTER, "filter", "EXPR", "only events that match EXPR: comm == \"sh\" && ret < 0" },
	{ 'p', "pid", "PID[,PID]", "only events of these tasks (thread ids: not a process's other threads)" },
	{ 'c', "cpu", "CPU[,CPU]", "only events of these CPUs" },
	{ OPT_COMM, "comm", "NAME[,NAME]", "only events of processes of these names" },
	CONTAINER_OPTS,
	{ OPT_SHOW_CONTAINER, "show-container", NULL, "the task's container after its name: [docker:3f2a9c1e77b0] (--json: cgroup and container)" },
	{ OPT_FROM, "from", "TIME", "from TIME: seconds from the start, -seconds from the end, or HH:MM:SS[.ns]" },
	{ OPT_TO, "to", "TIME", "up to TIME (included)" },
	{ OPT_UTC, "utc", NULL, "wall-clock time in UTC, not local time" },
	{ OPT_RAW, "raw-time", NULL, "the trace clock in ns instead of wall-clock time" },
	{ OPT_SYSCALLS, "syscalls", NULL, "system calls as strace prints them: name(args) = ret <time>" },
	{ OPT_JSON, "json", NULL, "one JSON object per line" },
	{ OPT_TAIL, "tail", "DURATION", "each CPU's last DURATION (1s, 500ms) before its last event, CPU by CPU, after the crash events" },
	{ OPT_SYMBOLS, "symbols", "SYSTEM.MAP", "name kernel addresses (ip=) as func+0xoff, moved by the previous boot's KASLR offset" },
};

#define REPORT_PIDS_MAX	64
/* --tail's CPUs: those a kernel can have (the reader refuses more) */
#define TAIL_CPUS_MAX	8192U

struct report {
	const struct ltt_trace *trace;
	uint64_t *event_mask;		/* NULL: all */
	pid_t pids[REPORT_PIDS_MAX];
	unsigned int n_pids;
	pid_t cpus[REPORT_PIDS_MAX];	/* --cpu, n_cpus of them */
	unsigned int n_cpus;
	char *comms;			/* --comm, a copy cut at the commas */
	const char *comm[REPORT_PIDS_MAX];
	unsigned int n_comms;
	struct cg_args cg_args;		/* --cgroup, --container */
	struct containers cg;		/* ... and --show-container's names */
	bool show_container;
	struct time_window win;		/* --from, --to, --utc */
	bool utc;
	bool raw_time;
	bool syscalls, json;		/* --syscalls, --json */
	const char *filter_arg;
	struct filter *filter;		/* --filter */
	uint32_t *addr_fields;		/* per event: bits of its addresses */
	uint32_t *note_fields;		/* ... of fields that may have notes */
	/* per event: " name:" and its fields' " field=" */
	struct out_label (*labels)[1 + LTT_FIELDS_MAX];
	/* --json, per event: its fields' "field": (",field": past the first) */
	struct out_label (*json_labels)[LTT_FIELDS_MAX];
	uint64_t start_ts;
	int syscall_entry;		/* its id, -1 if none */
	int syscall_compat, compat_abi;	/* syscall_entry_compat, its abi */
	const struct ltt_syscall_table *table;	/* the trace's syscalls */
	int *fd_field;			/* per event id: its "fd", or -1 */
	struct field_notes *notes;	/* names of trap, signal... numbers */
	uint64_t tail;			/* --tail, ns; 0: none */
	struct prevboot pb;		/* DIR/.previous-boot; pb.end[0]: none */
	const char *symbols_arg;
	struct symbols *symbols;	/* --symbols */
	struct out *out;		/* stdout */
	int64_t clock_secs;		/* report_clock()'s cache */
	struct out_label clock;		/* "HH:MM:SS." of clock_secs */
};

static bool report_pid_wanted(const struct report *r, int32_t pid)
{
	unsigned int i;

	if (!r->n_pids)
		return true;
	for (i = 0; i < r->n_pids; i++)
		if (r->pids[i] == pid)
			return true;
	return false;
}

static bool report_cpu_wanted(const struct report *r, uint32_t cpu)
{
	unsigned int i;

	if (!r->n_cpus)
		return true;
	for (i = 0; i < r->n_cpus; i++)
		if ((uint32_t)r->cpus[i] == cpu)
			return true;
	return false;
}

static bool report_comm_wanted(const struct report *r, int32_t pid)
{
	const char *comm;
	unsigned int i;

	if (!r->n_comms)
		return true;
	comm = ltt_trace_comm(r->trace, pid);
	for (i = 0; comm && i < r->n_comms; i++)
		if (!strcmp(r->comm[i], comm))
			return true;
	return false;
}

static bool report_wanted(const struct report *r, const struct ltt_item *it)
{
	if (it->ts < r->win.from)
		return false;
	if (!report_cpu_wanted(r, it->cpu))
		return false;
	if (it->kind == LTT_ITEM_LOST)
		return !r->event_mask && !r->n_comms && !r->cg.selecting;
	if (r->event_mask &&
	    !(r->event_mask[it->desc->id / 64] & (1ULL << (it->desc->id % 64))))
		return false;
	return report_pid_wanted(r, it->pid) && report_comm_wanted(r, it->pid) &&
	       containers_selected((struct containers *)&r->cg, it->pid);
}

/* --comm NAME[,NAME]: the names, cut in a copy of @arg. */
static void report_parse_comms(struct report *r, const struct opt_parser *p,
			       const char *arg)
{
	char *name, *save = NULL;

	free(r->comms);
	r->comms = strdup(arg);
	if (!r->comms)
		opt_usage_error(p, "out of memory");
	r->n_comms = 0;
	for (name = strtok_r(r->comms, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		if (r->n_comms == REPORT_PIDS_MAX)
			opt_usage_error(p, "--comm: at most %d names",
					REPORT_PIDS_MAX);
		r->comm[r->n_comms++] = name;
	}
	if (!r->n_comms)
		opt_usage_error(p, "--comm: no name in \"%s\"", arg);
}

/* "(name)" after a value: a syscall's name, an fd's file. */
static void report_note(struct out *o, const char *name)
{
	if (!name)
		return;
	out_char(o, '(');
	out_str(o, name);
	out_char(o, ')');
}

/* Is a field of a kernel event an address (printed in hex)? */
static bool report_is_address(const struct ltt_event_desc *d,
			      const struct ltt_field_desc *f)
{
	return !d->custom && f->type == LTT_TYPE_UNSIGNED &&
	       (!strcmp(f->name, "ip") || !strcmp(f->name, "func"));
}

/*
 * Which field of each event is a file descriptor, to name its file, and
 * which are addresses.
 */
static int report_find_fds(struct report *r, const struct ltt_registry *reg)
{
	unsigned int id, i;

	r->fd_field = calloc(reg->n_events ? reg->n_events : 1,
			     sizeof(*r->fd_field));
	r->addr_fields = calloc(reg->n_events ? reg->n_events : 1,
				sizeof(*r->addr_fields));
	r->labels = calloc(reg->n_events ? reg->n_events : 1,
			   sizeof(*r->labels));
	r->note_fields = calloc(reg->n_events ? reg->n_events : 1,
				sizeof(*r->note_fields));
	r->json_labels = calloc(reg->n_events ? reg->n_events : 1,
				sizeof(*r->json_labels));
	if (!r->fd_field || !r->addr_fields || !r->labels || !r->note_fields ||
	    !r->json_labels)
		return -1;
	for (id = 0; id < reg->n_events; id++) {
		const struct ltt_event_desc *d = &reg->events[id];
		int f = ltt_event_field_index(d, "fd");

		out_label_set(&r->labels[id][0], " ", d->name, ":");
		for (i = 0; i < d->n_fields && i < LTT_FIELDS_MAX; i++) {
			out_label_set(&r->labels[id][1 + i], " ",
				      d->fields[i].name, "=");
			out_label_set(&r->json_labels[id][i], i ? ",\"" : "\"",
				      d->fields[i].name, "\":");
		}

		r->fd_field[id] = f >= 0 &&
			d->fields[f].type != LTT_TYPE_STRING ? f : -1;
		for (i = 0; i < d->n_fields && i < 32; i++) {
			if (report_is_address(d, &d->fields[i]))
				r->addr_fields[id] |= 1U << i;
			if (field_note_may(r->notes, id, i))
				r->note_fields[id] |= 1U << i;
		}
	}
	return 0;
}

/* The name of the call of a syscall_entry or syscall_entry_compat. */
static const char *report_syscall(const struct report *r,
				  const struct ltt_item *it)
{
	const struct ltt_syscall_table *t = r->table;

	if ((int)it->desc->id == r->syscall_compat)
		t = ltt_syscall_compat_table(t, ltt_item_int(it, r->compat_abi));
	return ltt_syscall_name(t, ltt_item_int(it, 0));
}

/* Field values: integers formatted in place, strings quoted. */
static void report_fields(struct report *r, const struct ltt_item *it)
{
	const struct ltt_event_desc *d = it->desc;
	struct out *o = r->out;
	unsigned int i;

	for (i = 0; i < d->n_fields; i++) {
		const struct ltt_field_desc *f = &d->fields[i];

		out_label(o, &r->labels[d->id][1 + i]);
		if (f->type == LTT_TYPE_SIGNED) {
			out_s64(o, ltt_item_int(it, i));
		} else if (i < 32 && (r->addr_fields[d->id] >> i & 1)) {
			out_hex(o, ltt_item_raw(it, i));
			if (r->symbols)
				report_note(o, symbols_name(r->symbols,
							    ltt_item_raw(it, i)));
		} else if (f->type == LTT_TYPE_UNSIGNED) {
			out_u64(o, ltt_item_raw(it, i));
		} else {
			int n = ltt_item_format_field(it, i, o->buf + o->len,
						      LTT_STRING_MAX * 4 + 8);

			o->len += n > 0 ? n : 0;
		}
		if (i == 0 && ((int)d->id == r->syscall_entry ||
			       (int)d->id == r->syscall_compat))
			report_note(o, report_syscall(r, it));
		else if ((int)i == r->fd_field[d->id])
			report_note(o, ltt_trace_file(r->trace, it->pid,
						      ltt_item_int(it, i)));
		else if (r->note_fields[d->id] >> i & 1)
			report_note(o, field_note(r->notes, it, i));
	}
}

/* "HH:MM:SS.nnnnnnnnn", the seconds formatted once per second. */
static void report_clock(struct report *r, uint64_t ts)
{
	int64_t real = ltt_wall_ns(ts, ltt_trace_clock_offset(r->trace));
	int64_t secs = real / 1000000000, frac = real % 1000000000;

	if (frac < 0) {
		frac += 1000000000;
		secs--;
	}
	if (secs != r->clock_secs || !r->clock.len) {
		char text[32];

		format_clock_secs(text, sizeof(text), secs,
				  0, r->utc);
		text[9] = '\0';	/* keep "HH:MM:SS." */
		out_label_set(&r->clock, text, "", "");
		r->clock_secs = secs;
	}
	out_label(r->out, &r->clock);
	out_ns9(r->out, frac);
}

static void report_item(struct report *r, const struct ltt_item *it)
{
	uint64_t rel = it->ts - r->start_ts;
	struct out *o = r->out;
	const char *comm;

	out_line_room(o);
	if (r->raw_time)
		out_u64(o, it->ts);
	else
		report_clock(r, it->ts);
	out_str(o, " +");
	out_u64(o, rel / 1000000000);
	out_char(o, '.');
	out_ns9(o, rel % 1000000000);
	out_str(o, " cpu ");
	out_u64(o, it->cpu);
	if (it->kind == LTT_ITEM_LOST) {
		out_str(o, " LOST ");
		out_u64(o, it->lost_events);
		out_str(o, " events, ");
		out_u64(o, it->lost_packets);
		out_str(o, " packets\n");
		return;
	}
	comm = ltt_trace_comm(r->trace, it->pid);
	out_str(o, " pid ");
	out_s64(o, it->pid);
	out_char(o, ' ');
	out_str(o, comm ? comm : "?");
	if (r->show_container) {
		out_str(o, " [");
		out_str(o, containers_task(&r->cg, it->pid)->name.name);
		out_char(o, ']');
	}
	out_label(o, &r->labels[it->desc->id][0]);
	report_fields(r, it);
	out_char(o, '\n');
}

/*
 * --json: the item as one JSON object and a newline, built as the text
 * line is (no printf: it cost twelve times the text's time).
 */
static void report_json(struct report *r, const struct ltt_item *it)
{
	uint64_t rel = it->ts > r->start_ts ? it->ts - r->start_ts : 0;
	const struct ltt_event_desc *d = it->desc;
	struct out *o = r->out;
	const char *comm;
	unsigned int i;

	out_line_room(o);
	out_str(o, "{\"ts\":");
	out_u64(o, it->ts);
	out_str(o, ",\"time\":\"");
	report_clock(r, it->ts);
	out_str(o, "\",\"rel\":\"");
	out_u64(o, rel / 1000000000);
	out_char(o, '.');
	out_ns9(o, rel % 1000000000);
	out_str(o, "\",\"cpu\":");
	out_u64(o, it->cpu);
	if (it->kind == LTT_ITEM_LOST) {
		out_str(o, ",\"lost_events\":");
		out_u64(o, it->lost_events);
		out_str(o, ",\"lost_packets\":");
		out_u64(o, it->lost_packets);
		out_str(o, ",\"from\":");
		out_u64(o, it->lost_from);
		out_str(o, "}\n");
		return;
	}
	comm = ltt_trace_comm(r->trace, it->pid);
	out_str(o, ",\"pid\":");
	out_s64(o, it->pid);
	out_str(o, ",\"comm\":");
	out_json(o, comm ? comm : "?", 6 * LTT_STRING_MAX + 8);
	if (r->show_container) {
		const struct cg_info *cg = containers_task(&r->cg, it->pid);

		out_str(o, ",\"cgroup\":");
		if (cg->named)
			out_json(o, cg->path, 6 * LTT_STRING_MAX + 8);
		else
			out_str(o, "null");
		out_str(o, ",\"container\":");
		if (cg->named)
			out_json(o, cg->name.name, 6 * LTT_STRING_MAX + 8);
		else
			out_str(o, "null");
	}
	out_str(o, ",\"event\":\"");
	out_str(o, d->name);
	out_str(o, "\",\"fields\":{");
	for (i = 0; i < d->n_fields; i++) {
		const struct ltt_field_desc *f = &d->fields[i];

		out_label(o, &r->json_labels[d->id][i]);
		if (f->type == LTT_TYPE_SIGNED)
			out_s64(o, ltt_item_int(it, i));
		else if (f->type == LTT_TYPE_UNSIGNED)
			out_u64(o, ltt_item_raw(it, i));
		else
			out_json(o, ltt_item_string(it), 6 * LTT_STRING_MAX + 8);
	}
	out_str(o, "}}\n");
}

static void report_parse(struct report *r, struct opt_parser *p, int argc,
			 char **argv, const char **events)
{
	int c;

	while ((c = opt_next(p, argc, argv)) != -1) {
		switch (c) {
		case 'e':
			*events = p->arg;
			break;
		case 'p':
			r->n_pids = opt_pids(p, p->arg, r->pids,
					     REPORT_PIDS_MAX);
			break;
		case 'c':
			r->n_cpus = opt_ids(p, "CPUs", p->arg, r->cpus,
					    REPORT_PIDS_MAX);
			break;
		case OPT_COMM:
			report_parse_comms(r, p, p->arg);
			break;
		case OPT_FROM:
			r->win.from_arg = p->arg;
			break;
		case OPT_TO:
			r->win.to_arg = p->arg;
			break;
		case OPT_UTC:
			r->utc = r->win.utc = true;
			break;
		case OPT_RAW:
			r->raw_time = true;
			break;
		case OPT_SYSCALLS:
			r->syscalls = true;
			break;
		case OPT_JSON:
			r->json = true;
			break;
		case OPT_FILTER:
			r->filter_arg = p->arg;
			break;
		case OPT_SHOW_CONTAINER:
			r->show_container = true;
			break;
		case OPT_TAIL:
			r->tail = opt_duration(p, "--tail", p->arg);
			break;
		case OPT_SYMBOLS:
			r->symbols_arg = p->arg;
			break;
		default:
			opt_container(&r->cg_args, p, c);
			break;
		}
	}
	if (p->ind >= argc)
		opt_usage_error(p, "a trace directory expected");
	if (r->syscalls && *events)
		opt_usage_error(p, "--syscalls shows system calls: no --event");
	if (r->tail && (r->syscalls || r->win.from_arg || r->win.to_arg))
		opt_usage_error(p, "--tail is its own window: no --from, --to or --syscalls with it");
}

/* "# previous boot ID: Linux RELEASE, ended by END: MESSAGE" */
static void report_prevboot(struct report *r)
{
	const struct prevboot *pb = &r->pb;
	struct out *o = r->out;

	if (!pb->end[0] || r->json)
		return;
	out_line_room(o);
	out_str(o, "# previous boot ");
	out_str(o, pb->boot_id);
	out_str(o, ": Linux ");
	out_str(o, pb->release);
	out_str(o, ", ended by ");
	out_str(o, strcmp(pb->end, "none") ? pb->end :
		"no crash event (a reset, a hang or a power loss)");
	if (pb->end_message[0]) {
		out_str(o, ": ");
		out_str(o, pb->end_message);
	}
	out_char(o, '\n');
}

/* A "# ..." line between the parts of --tail (none in --json). */
static void __attribute__((format(printf, 2, 3)))
report_comment(struct report *r, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	if (r->json)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	out_line_room(r->out);
	out_str(r->out, "# ");
	out_str(r->out, line);
	out_char(r->out, '\n');
}

static void report_one(struct report *r, const struct ltt_item *it)
{
	if (r->json)
		report_json(r, it);
	else
		report_item(r, it);
}

static bool report_selected(struct report *r, const struct ltt_item *it,
			    unsigned long *matched)
{
	bool match;

	if (!report_wanted(r, it))
		return false;
	match = !r->filter || filter_match(r->filter, (struct ltt_trace *)r->trace, it);
	*matched += match;
	return match;
}

/* Where a CPU's lines of --tail went in the scratch file: runs of bytes. */
struct tail_cpu {
	uint64_t last;			/* its last event's time + 1; 0: none */
	struct tail_run {
		uint64_t off, len;
	} *runs;
	size_t n_runs, room;
};

/* The bytes written to the scratch file since @from belong to @c. */
static int tail_run(struct report *r, struct tail_cpu *c, uint64_t *from)
{
	uint64_t at;

	out_flush(r->out);
	at = (uint64_t)lseek(r->out->fd, 0, SEEK_CUR);
	if (!c || at == *from)
		goto done;
	if (c->n_runs == c->room) {
		size_t room = c->room ? 2 * c->room : 16;
		struct tail_run *v = realloc(c->runs, room * sizeof(*v));

		if (!v)
			return -1;
		c->runs = v;
		c->room = room;
	}
	c->runs[c->n_runs].off = *from;
	c->runs[c->n_runs++].len = at - *from;
done:
	*from = at;
	return 0;
}

/* A CPU's runs from the scratch file @fd to stdout. */
static void tail_copy(struct report *r, int fd, const struct tail_cpu *c)
{
	size_t i;

	for (i = 0; i < c->n_runs && !r->out->failed; i++) {
		uint64_t off = c->runs[i].off, left = c->runs[i].len;

		while (left && !r->out->failed) {
			size_t n = left < OUT_LINE_MAX ? left : OUT_LINE_MAX;
			ssize_t got;

			out_line_room(r->out);
			got = pread(fd, r->out->buf + r->out->len, n, off);
			if (got <= 0)
				return;
			r->out->len += got;
			off += got;
			left -= got;
		}
	}
}

/*
 * --tail: a first pass finds each CPU's last event and prints the crash
 * events as it meets them; a second, on the trace opened again and moved
 * to the earliest CPU's window, writes each CPU's lines into runs of a
 * scratch file, copied out CPU by CPU at the end.  The trace read last
 * is left in *@tp.
 */
static int report_tail(struct report *r, struct ltt_trace **tp,
		       char *const *dirs, unsigned int n_dirs, const char *cmd,
		       unsigned long *matched)
{
	struct ltt_trace *t = *tp;
	int crash = ltt_registry_find(ltt_trace_registry(t), "crash");
	struct tail_cpu *cpus = calloc(TAIL_CPUS_MAX, sizeof(*cpus)), *cur = NULL;
	const struct ltt_item *it;
	uint64_t start = UINT64_MAX, at = 0;
	unsigned int cpu, n_crash = 0;
	int fd = -1, ret = -1;
	char text[64];

	if (!cpus)
		return -1;
	report_comment(r, "crash events");
	while (!r->out->failed && ltt_trace_next(t, &it) > 0) {
		if (it->kind != LTT_ITEM_EVENT || it->cpu >= TAIL_CPUS_MAX)
			continue;
		cpus[it->cpu].last = it->ts + 1;
		if ((int)it->desc->id == crash && report_selected(r, it, matched)) {
			report_one(r, it);
			n_crash++;
		}
	}
	if (!n_crash)
		report_comment(r, "none");
	for (cpu = 0; cpu < TAIL_CPUS_MAX; cpu++) {
		uint64_t end = cpus[cpu].last - 1;

		if (!cpus[cpu].last)
			continue;
		/* from now on .last is the window's start */
		cpus[cpu].last = end > r->tail ? end - r->tail : 0;
		if (cpus[cpu].last < start)
			start = cpus[cpu].last;
		cpus[cpu].last++;
	}
	out_flush(r->out);
	fd = memfd_create("ltt-report-tail", MFD_CLOEXEC);
	if (fd < 0)
		goto out;
	/* the second pass: the trace again, the containers with it */
	ltt_trace_close(t);
	t = *tp = open_traces_or_die(cmd, dirs, n_dirs);
	r->trace = t;
	containers_free(&r->cg);
	if (containers_init(&r->cg, t, &r->cg_args))
		goto out;
	if (start != UINT64_MAX)
		ltt_trace_seek(t, start);
	r->out->fd = fd;
	while (!r->out->failed && ltt_trace_next(t, &it) > 0) {
		struct tail_cpu *c = it->cpu < TAIL_CPUS_MAX ? &cpus[it->cpu] : NULL;

		if (!c || !c->last || it->ts < c->last - 1 ||
		    !report_selected(r, it, matched))
			continue;
		if (c != cur && tail_run(r, cur, &at))
			goto out;
		cur = c;
		report_one(r, it);
	}
	if (tail_run(r, cur, &at))
		goto out;
	r->out->fd = STDOUT_FILENO;
	format_rel(text, sizeof(text), r->tail);
	for (cpu = 0; cpu < TAIL_CPUS_MAX && !r->out->failed; cpu++) {
		if (!cpus[cpu].last || !report_cpu_wanted(r, cpu))
			continue;
		report_comment(r, "cpu %u: the last %s s before its last event",
			       cpu, text);
		tail_copy(r, fd, &cpus[cpu]);
	}
	ret = 0;
out:
	r->out->fd = STDOUT_FILENO;
	if (fd >= 0)
		close(fd);
	for (cpu = 0; cpu < TAIL_CPUS_MAX; cpu++)
		free(cpus[cpu].runs);
	free(cpus);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER_ANYWHERE("ltt report", "[OPTIONS] DIR...",
		"Print the events of the trace in DIR in time order: wall-clock time,\n"
		"time since the trace start, CPU, pid and process name, event, fields.",
		report_opts);
	struct report r = { 0 };
	const struct ltt_registry *reg;
	const struct ltt_item *it;
	const char *events = NULL;
	struct ltt_trace *t;
	struct strace *st = NULL;
	unsigned int errors;
	unsigned long matched = 0;
	int failed = 0, nosuch;

	report_parse(&r, &p, argc, argv, &events);
	t = open_traces_or_die(p.cmd, argv + p.ind, argc - p.ind);
	r.trace = t;
	/* the first directory's boot, when a previous boot's trace */
	if (prevboot_read(argv[p.ind], &r.pb) < 0)
		warnx_cmd(p.cmd, "%s/%s: %s", argv[p.ind], LTT_PREV_FILE,
			  strerror(errno));
	if (r.symbols_arg) {
		char err[512];

		r.symbols = symbols_load(r.symbols_arg, &r.pb, err, sizeof(err));
		if (!r.symbols) {
			warnx_cmd(p.cmd, "--symbols %s", err);
			prevboot_free(&r.pb);
			free(r.comms);
			ltt_trace_close(t);
			return 1;
		}
	}
	reg = ltt_trace_registry(t);
	r.syscall_entry = ltt_registry_find(reg, "syscall_entry");
	r.syscall_compat = ltt_registry_find(reg, "syscall_entry_compat");
	r.compat_abi = r.syscall_compat < 0 ? -1 :
		ltt_event_field_index(&reg->events[r.syscall_compat], "abi");
	if (r.compat_abi < 0)
		r.syscall_compat = -1;
	r.table = ltt_trace_syscalls(t);
	r.notes = field_notes_new(reg, r.table);
	if (report_find_fds(&r, reg)) {
		warnx_cmd(p.cmd, "out of memory");
		return 1;
	}
	if (events) {
		r.event_mask = calloc((reg->n_events + 63) / 64, 8);
		if (!r.event_mask ||
		    parse_event_list(reg, events, r.event_mask, reg->n_events)) {
			warnx_cmd(p.cmd, "--event: %s", ltt_error());
			free(r.event_mask);
			free(r.fd_field);
			free(r.addr_fields);
			free(r.labels);
			free(r.json_labels);
			free(r.note_fields);
			free(r.comms);
			field_notes_free(r.notes);
			ltt_trace_close(t);
			return 2;
		}
	}
	if (r.filter_arg) {
		char err[256];

		r.filter = filter_new(r.filter_arg, reg, err, sizeof(err));
		if (!r.filter)
			opt_usage_error(&p, "--filter: %s", err);
	}
	r.out = malloc(sizeof(*r.out));
	if (!r.out || containers_init(&r.cg, t, &r.cg_args)) {
		warnx_cmd(p.cmd, "out of memory");
		return 1;
	}
	r.out->fd = STDOUT_FILENO;
	r.out->len = 0;
	r.out->failed = false;
	if (r.syscalls && !(st = strace_new(t, r.out, r.json, r.utc))) {
		warnx_cmd(p.cmd, "out of memory");
		return 1;
	}
	report_prevboot(&r);
	trace_window(t, &p, &r.win);
	r.start_ts = r.win.start;
	if (r.tail && report_tail(&r, &t, argv + p.ind, argc - p.ind, p.cmd,
				  &matched)) {
		warnx_cmd(p.cmd, "out of memory");
		return 1;
	}
	/* output that cannot be written ends the report */
	while (!r.tail && !r.out->failed && ltt_trace_next(t, &it) > 0) {
		if (it->ts > r.win.to)
			break;		/* items come in time order */
		bool match;

		if (!report_wanted(&r, it))
			continue;
		match = !r.filter || filter_match(r.filter, t, it);
		matched += match;
		if (st)
			strace_add(st, it, match);	/* whole calls */
		else if (!match)
			continue;
		else if (r.json)
			report_json(&r, it);
		else
			report_item(&r, it);
	}
	if (st) {
		failed = strace_finish(st);
		strace_free(st);
	}
	out_flush(r.out);
	/* a failed write is said once, below, with its errno */
	if (failed && !r.out->failed)
		warnx_cmd(p.cmd, "write error on the standard output");
	errors = print_trace_errors(p.cmd, t);
	/* a cgroup or container the trace does not name: as -e nosuch */
	nosuch = containers_check(&r.cg, p.cmd);
	/* A selection that keeps nothing is worth a word: a typo? */
	if (!matched && !nosuch && (r.filter || r.event_mask || r.n_pids ||
				    r.n_cpus || r.n_comms || r.cg.selecting))
		warnx_cmd(p.cmd, "no event of %s matches the selection",
			  argv[p.ind]);
	if (r.out->failed) {
		warnx_cmd(p.cmd, "standard output: %s: the report is incomplete",
			  strerror(r.out->error));
		errors++;
	}
	free(r.out);
	free(r.fd_field);
	free(r.addr_fields);
	free(r.labels);
	free(r.json_labels);
	free(r.note_fields);
	free(r.comms);
	symbols_free(r.symbols);
	prevboot_free(&r.pb);
	field_notes_free(r.notes);
	filter_free(r.filter);
	free(r.event_mask);
	containers_free(&r.cg);
	ltt_trace_close(t);
	if (nosuch)
		return nosuch;
	return errors || failed ? 1 : 0;
}
