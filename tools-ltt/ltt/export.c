// SPDX-License-Identifier: GPL-2.0
/*
 * ltt export: the trace in a format other viewers open.  One format so
 * far, Chrome's trace event JSON, that Perfetto UI, trace_processor and
 * chrome://tracing read:
 *
 *  - a process per traced process (its pid is the tgid) and a thread per
 *    task: each task's system calls and traps as complete ("X") events,
 *    nested as they were, whole (a call that slept is one slice);
 *  - a process "CPUs" with a thread per CPU: who ran (one slice per
 *    stretch of a task), the pieces of the calls made there, interrupts
 *    and softirqs, nested; lost events as instant events;
 *  - counters: how many tasks were runnable and blocked, over time;
 *  - custom events (`ltt log` too) as instant events on their task;
 *  - metadata events naming every process and thread.
 *
 * Times are microseconds from the trace's first item, with three
 * decimals: nanoseconds, exact.  Events come sorted by time on each
 * thread, the longest first when they start together, so that each
 * slice precedes those it holds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter.h"
#include "json.h"
#include "ltt.h"
#include "outfile.h"
#include "timeline.h"
#include "window.h"
#include "export.h"

enum {
	OPT_FORMAT = 256,
	OPT_FROM,
	OPT_TO,
	OPT_FILTER,
};

static const struct ltt_opt export_opts[] = {
	{ 'o', "output", "FILE", "write to FILE (default DIR.json in the current directory; - for stdout)" },
	{ OPT_FORMAT, "format", "FORMAT", "chrome-json (the default): Chrome's trace event format; lttng: LTTng's kernel trace layout (a directory, for Trace Compass and LTTng's analyses); perfetto: Perfetto's protobuf trace" },
	{ 'e', "event", "LIST", "only these events (names, prefix*, ids; !ITEM leaves out)" },
	{ OPT_FILTER, "filter", "EXPR", "only events that match EXPR (see ltt(1))" },
	{ OPT_FROM, "from", "TIME", "from TIME: seconds from the start, -seconds from the end, or HH:MM:SS[.ns]" },
	{ OPT_TO, "to", "TIME", "up to TIME (included)" },
};

/* The process and thread ids of the CPUs' tracks: past any pid. */
#define CPU_PID		0x40000000
#define COUNTER_TID	(CPU_PID - 1)

struct export {
	struct timeline tl;
	struct tl_window win;		/* --from, --to, -e, --filter */
	FILE *f;
	bool first;			/* no event written yet */
	const char *format;		/* --format, NULL: chrome-json */
};

/* One event to write, sorted by thread and time before writing. */
enum ev_type { EV_CALL, EV_SLICE, EV_LOST, EV_MARK, EV_COUNTER };

struct ev {
	int32_t pid, tid;
	uint64_t ts, dur;
	uint8_t type, depth;
	uint32_t idx;
};

struct sample {
	int64_t runnable, blocked;
};

static int ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;	/* holder first */
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* "\"ts\":U.NNN" of @ts, microseconds from the trace start. */
static void put_us(FILE *f, const char *key, uint64_t ns)
{
	fprintf(f, ",\"%s\":%llu.%03u", key, (unsigned long long)(ns / 1000),
		(unsigned int)(ns % 1000));
}

static uint64_t rel(const struct export *e, uint64_t ts)
{
	return ts > e->tl.t0 ? ts - e->tl.t0 : 0;
}

/* Start an event: ph, name, pid, tid. */
static void begin(struct export *e, char ph, const char *name, int32_t pid,
		  int32_t tid)
{
	FILE *f = e->f;

	fputs(e->first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"", f);
	e->first = false;
	putc(ph, f);
	fputs("\",\"name\":", f);
	json_str(f, name);
	fprintf(f, ",\"pid\":%d,\"tid\":%d", pid, tid);
}

static int32_t tgid_of(const struct timeline *tl, int32_t pid)
{
	const struct tl_task *k = tl_task(tl, pid);

	return k ? k->tgid : pid;
}

static const char *errno_name(int64_t e)
{
	static const char *const names[] = {
		NULL, "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO",
		"E2BIG", "ENOEXEC", "EBADF", "ECHILD", "EAGAIN", "ENOMEM",
		"EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST", "EXDEV",
		"ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE",
		"ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC", "ESPIPE", "EROFS",
		"EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK", "ENAMETOOLONG",
		"ENOLCK", "ENOSYS", "ENOTEMPTY", "ELOOP",
	};

	return e > 0 && e < (int64_t)ARRAY_SIZE(names) ? names[e] : NULL;
}

/* A call's arguments: numbers, instruction pointer, return value. */
static void call_args(struct export *e, const struct tl_call *c)
{
	FILE *f = e->f;

	fputs(",\"args\":{", f);
	switch (c->kind) {
	case TL_SYSCALL:
		fprintf(f, "\"nr\":%lld,\"ip\":\"0x%llx\"", (long long)c->nr,
			(unsigned long long)c->a);
		if (c->flags & TL_UNFINISHED) {
			fputs(",\"unfinished\":true", f);
		} else {
			fprintf(f, ",\"ret\":%lld", (long long)c->ret);
			if (c->ret < 0 && errno_name(-c->ret))
				fprintf(f, ",\"errno\":\"%s\"", errno_name(-c->ret));
		}
		break;
	case TL_TRAP:
		fprintf(f, "\"trap\":%lld,\"ip\":\"0x%llx\"", (long long)c->nr,
			(unsigned long long)c->a);
		break;
	case TL_IRQ:
		fprintf(f, "\"irq\":%lld", (long long)c->nr);
		break;
	case TL_SOFTIRQ:
		fprintf(f, "\"vec\":%lld,\"end\":\"its last event (at least)\"",
			(long long)c->nr);
		break;
	default:
		fprintf(f, "\"pid\":%d", c->pid);
	}
	putc('}', f);
}

struct change {
	uint64_t ts;
	int8_t runnable, blocked;
};

static int change_cmp(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Tasks runnable and blocked: a sample at each time the counts change. */
static struct sample *counters(const struct timeline *tl, struct ev *ev,
			       uint32_t *n_ev)
{
	struct change *ch = malloc((2 * tl->n_states + 1) * sizeof(*ch));
	struct sample *out = malloc((2 * tl->n_states + 1) * sizeof(*out));
	int64_t runnable = 0, blocked = 0;
	uint32_t i, n = 0, k = 0;

	if (!ch || !out) {
		free(ch);
		free(out);
		return NULL;
	}
	for (i = 0; i < tl->n_states; i++) {
		const struct tl_state_span *s = &tl->states[i];
		int r = s->state == TL_RUNNABLE, b = s->state == TL_BLOCKED;

		if (!r && !b)
			continue;
		ch[n++] = (struct change){ s->t0, r, b };
		ch[n++] = (struct change){ s->t1, -r, -b };
	}
	qsort(ch, n, sizeof(*ch), change_cmp);
	for (i = 0; i < n; i++) {
		runnable += ch[i].runnable;
		blocked += ch[i].blocked;
		if (i + 1 < n && ch[i + 1].ts == ch[i].ts)
			continue;	/* one sample per time */
		out[k] = (struct sample){ runnable, blocked };
		ev[(*n_ev)++] = (struct ev){ CPU_PID, COUNTER_TID, ch[i].ts, 0,
					     EV_COUNTER, 0, k++ };
	}
	free(ch);
	return out;
}

/*
 * Every event but the metadata: each task's system calls and traps
 * (what its stack held: traps in interrupts are the CPU's), each CPU's
 * slices and losses, the custom events, the counters.
 */
static struct ev *collect(struct export *e, uint32_t *n, struct sample **smp)
{
	const struct timeline *tl = &e->tl;
	size_t cap = (size_t)tl->n_calls + tl->n_slices + tl->n_lost +
		     tl->n_marks + 2 * tl->n_states + 1;
	struct ev *ev = malloc(cap * sizeof(*ev));
	uint32_t i;

	*n = 0;
	if (!ev)
		return NULL;
	for (i = 0; i < tl->n_calls; i++) {
		const struct tl_call *c = &tl->calls[i];

		if ((c->kind == TL_SYSCALL || c->kind == TL_TRAP) && c->pid > 0)
			ev[(*n)++] = (struct ev){ tgid_of(tl, c->pid), c->pid,
				c->t0, c->t1 - c->t0, EV_CALL, 0, i };
	}
	for (i = 0; i < tl->n_slices; i++) {
		const struct tl_slice *s = &tl->slices[i];

		ev[(*n)++] = (struct ev){ CPU_PID, CPU_PID + s->lane, s->t0,
			s->t1 - s->t0, EV_SLICE, s->depth, i };
	}
	for (i = 0; i < tl->n_lost; i++)
		ev[(*n)++] = (struct ev){ CPU_PID, CPU_PID + tl->lost[i].cpu,
			tl->lost[i].t0, 0, EV_LOST, 0, i };
	for (i = 0; i < tl->n_marks; i++) {
		const struct tl_mark *m = &tl->marks[i];
		bool task = m->pid > 0;

		ev[(*n)++] = (struct ev){ task ? tgid_of(tl, m->pid) : CPU_PID,
			task ? m->pid : CPU_PID + (int32_t)m->cpu, m->ts, 0,
			EV_MARK, 0, i };
	}
	*smp = counters(tl, ev, n);
	if (!*smp) {
		free(ev);
		return NULL;
	}
	for (i = 0; i < *n; i++)
		ev[i].ts = rel(e, ev[i].ts);
	qsort(ev, *n, sizeof(*ev), ev_cmp);
	return ev;
}

static void write_event(struct export *e, const struct ev *v,
			const struct sample *smp)
{
	const struct timeline *tl = &e->tl;
	FILE *f = e->f;
	char name[64];

	switch (v->type) {
	case EV_CALL:
	case EV_SLICE: {
		const struct tl_call *c = &tl->calls[v->type == EV_CALL ? v->idx :
						     tl->slices[v->idx].call];
		const char *label = tl->strings[c->name];

		if (c->kind == TL_RUN) {
			snprintf(name, sizeof(name), "%s %d", label, c->pid);
			label = name;
		}
		begin(e, 'X', label, v->pid, v->tid);
		fprintf(f, ",\"cat\":\"%s\"", tl_kind_names[c->kind]);
		put_us(f, "ts", v->ts);
		put_us(f, "dur", v->dur);
		call_args(e, c);
		break;
	}
	case EV_LOST: {
		const struct tl_lost *l = &tl->lost[v->idx];

		begin(e, 'i', "lost events", v->pid, v->tid);
		put_us(f, "ts", v->ts);
		fprintf(f, ",\"s\":\"t\",\"args\":{\"events\":%llu,\"packets\":%llu",
			(unsigned long long)l->events,
			(unsigned long long)l->packets);
		put_us(f, "until_us", rel(e, l->t1));
		putc('}', f);
		break;
	}
	case EV_MARK: {
		const struct tl_mark *m = &tl->marks[v->idx];

		begin(e, 'i', tl->strings[m->name], v->pid, v->tid);
		put_us(f, "ts", v->ts);
		fprintf(f, ",\"s\":\"t\",\"args\":{\"cpu\":%u,\"fields\":", m->cpu);
		json_str(f, m->text);
		putc('}', f);
		break;
	}
	default:
		begin(e, 'C', "tasks", v->pid, v->tid);
		put_us(f, "ts", v->ts);
		fprintf(f, ",\"args\":{\"runnable\":%lld,\"blocked\":%lld}",
			(long long)smp[v->idx].runnable,
			(long long)smp[v->idx].blocked);
	}
	putc('}', f);
}

static void meta(struct export *e, const char *what, int32_t pid,
		 int32_t tid, const char *name)
{
	begin(e, 'M', what, pid, tid);
	fputs(",\"args\":{\"name\":", e->f);
	json_str(e->f, name);
	fputs("}}", e->f);
}

/* Names of every process and thread, CPUs first. */
static void write_names(struct export *e)
{
	const struct timeline *tl = &e->tl;
	char name[32];
	uint32_t i;

	meta(e, "process_name", CPU_PID, CPU_PID, "CPUs");
	begin(e, 'M', "process_sort_index", CPU_PID, CPU_PID);
	fputs(",\"args\":{\"sort_index\":-1}}", e->f);
	for (i = 0; i < tl->n_cpus; i++) {
		snprintf(name, sizeof(name), "CPU %u", i);
		meta(e, "thread_name", CPU_PID, CPU_PID + i, name);
		begin(e, 'M', "thread_sort_index", CPU_PID, CPU_PID + i);
		fprintf(e->f, ",\"args\":{\"sort_index\":%u}}", i);
	}
	meta(e, "thread_name", CPU_PID, COUNTER_TID, "tasks runnable and blocked");
	for (i = 0; i < tl->n_tasks; i++) {
		const struct tl_task *k = &tl->tasks[i];
		const struct tl_task *leader = tl_task(tl, k->tgid);

		if (k->pid <= 0)
			continue;
		meta(e, "thread_name", k->tgid, k->pid, tl->strings[k->name]);
		if (k->pid != k->tgid && leader)
			continue;
		meta(e, "process_name", k->tgid, k->pid,
		     tl->strings[(leader ? leader : k)->name]);
		k = leader ? leader : k;
		if (k->container == UINT32_MAX)
			continue;
		/* the container: a label, and its processes side by side */
		begin(e, 'M', "process_labels", k->tgid, k->pid);
		fputs(",\"args\":{\"labels\":", e->f);
		json_str(e->f, tl->strings[k->container]);
		fputs("}}", e->f);
		begin(e, 'M', "process_sort_index", k->tgid, k->pid);
		fprintf(e->f, ",\"args\":{\"sort_index\":%u}}",
			k->container + 1);
	}
}

static int write_chrome(struct export *e, const char *dir)
{
	int64_t offset = ltt_trace_clock_offset(e->tl.trace);
	struct sample *smp;
	struct ev *ev;
	uint32_t i, n;
	char start[32];

	format_clock(start, sizeof(start), (int64_t)e->tl.t0 + offset, true);
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"ltt export\",\"trace\":", e->f);
	json_str(e->f, dir);
	fprintf(e->f, ",\"start_utc\":\"%s\",\"events\":%llu},\"traceEvents\":[",
		start, (unsigned long long)e->tl.events);
	e->first = true;
	write_names(e);
	ev = collect(e, &n, &smp);
	if (!ev)
		return -1;
	for (i = 0; i < n; i++)
		write_event(e, &ev[i], smp);
	free(ev);
	free(smp);
	fputs("\n]}\n", e->f);
	return 0;
}

/* Options before, between or after the directories, into @dirs. */
static void export_parse(struct export *e, struct opt_parser *p, int argc,
			 char **argv, const char **output,
			 struct trace_dirs *dirs)
{
	int c;

	for (;;) {
		while ((c = opt_next(p, argc, argv)) != -1) {
			switch (c) {
			case 'o':
				*output = p->arg;
				break;
			case OPT_FORMAT:
				if (strcmp(p->arg, "chrome-json") &&
				    strcmp(p->arg, "lttng") &&
				    strcmp(p->arg, "perfetto"))
					opt_usage_error(p, "--format %s: the formats are: chrome-json, lttng, perfetto",
							p->arg);
				e->format = p->arg;
				break;
			case OPT_FROM:
				e->win.from_arg = p->arg;
				break;
			case OPT_TO:
				e->win.to_arg = p->arg;
				break;
			case 'e':
				e->win.events = p->arg;
				break;
			case OPT_FILTER:
				e->win.expr = p->arg;
				break;
			}
		}
		if (p->ind >= argc)
			break;
		trace_dirs_add(dirs, p, argv[p->ind]);
		argc -= p->ind;
		argv += p->ind;
	}
	if (!dirs->n)
		opt_usage_error(p, "a trace directory expected");
}

static int export_read(struct export *e, struct ltt_trace *t,
		       const struct opt_parser *p)
{
	return tl_read_window(&e->tl, &e->win, t, p);
}

/* --format=lttng and perfetto: export-lttng.c, export-perfetto.c */
static int export_other(const struct export *e, const struct opt_parser *p,
			const struct trace_dirs *dirs, const char *output)
{
	bool lttng = !strcmp(e->format, "lttng");
	const char *dir = dirs->v[0];
	struct export_job job = {
		.cmd = p->cmd, .dir = dir, .p = p,
		.dirs = dirs->v, .n_dirs = dirs->n,
		.from_arg = e->win.from_arg, .to_arg = e->win.to_arg,
		.events = e->win.events, .expr = e->win.expr,
	};
	char *def = NULL;
	int ret;

	if (!output)
		output = def = default_output(dir, lttng ? ".lttng" : ".perfetto-trace",
					      lttng ? "ltt-trace.lttng" :
					      "ltt-trace.perfetto-trace");
	if (!output) {
		warnx_cmd(p->cmd, "out of memory");
		return 1;
	}
	job.output = output;
	ret = lttng ? export_lttng(&job) : export_perfetto(&job);
	free(def);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER_ANYWHERE("ltt export", "[OPTIONS] DIR...",
		"Write the trace in DIR in Chrome's trace event format (JSON), that\n"
		"Perfetto UI, trace_processor and chrome://tracing open: a thread per\n"
		"task with its system calls and traps, a track per CPU with who ran\n"
		"there and its interrupts, counters of runnable and blocked tasks,\n"
		"custom events and lost events as instants.",
		export_opts);
	struct export e = { 0 };
	const char *output = NULL, *dir;
	struct trace_dirs dirs = { .n = 0 };
	struct out_file o;
	char *def = NULL;
	struct ltt_trace *t;
	unsigned int errors;
	int ret = 0;

	export_parse(&e, &p, argc, argv, &output, &dirs);
	dir = dirs.v[0];
	if (e.format && strcmp(e.format, "chrome-json"))
		return export_other(&e, &p, &dirs, output);
	t = open_traces_or_die(p.cmd, dirs.v, dirs.n);
	if (!output)
		output = def = default_output(dir, ".json", "ltt-trace.json");
	if (!output) {
		warnx_cmd(p.cmd, "out of memory");
		return 1;
	}
	/* an output that cannot be written fails before the trace is read */
	if (out_file_open(&o, output)) {
		warnx_cmd(p.cmd, "%s: %s", output, strerror(errno));
		ret = 1;
		goto out;
	}
	if (export_read(&e, t, &p)) {
		warnx_cmd(p.cmd, "out of memory");
		out_file_abort(&o);
		ret = 1;
		goto out;
	}
	errors = print_trace_errors(p.cmd, t);
	e.f = o.f;
	errno = 0;
	if (out_file_finish(&o, p.cmd, write_chrome(&e, ltt_trace_dir(t)))) {
		ret = 1;
		goto out;
	}
	ret = errors ? 1 : 0;
out:
	tl_free(&e.tl);
	item_select_free(&e.win.sel);
	ltt_trace_close(t);
	free(def);
	return ret;
}
