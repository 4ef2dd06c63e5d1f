// SPDX-License-Identifier: GPL-2.0
/*
 * ltt analyze: latencies and usage, from analyses.c: system call
 * latency (percentiles, histogram), scheduling latency, interrupt and
 * softirq durations, I/O per process and file, CPU usage; and from
 * startup.c the start-up of a boot: time to a process or a marker, per
 * exec and process, per CPU, losses.  This file parses the options and
 * prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "filter.h"
#include "json.h"
#include "ltt.h"
#include "startup.h"

enum {
	OPT_JSON = 256,
	OPT_FILTER,
	OPT_UNTIL,
	OPT_BUCKETS,
};

static const struct ltt_opt analyze_opts[] = {
	{ 'a', "analysis", "LIST", "syscalls,sched,irq,io,cpu,startup (default: all)" },
	{ 'p', "pid", "PID", "system calls and scheduling latency of task PID only" },
	{ 'n', "top", "N", "the N first lines of each table (default 20, 0: all)" },
	{ 'e', "event", "LIST", "only these events (names, prefix*, ids; !ITEM leaves out)" },
	{ OPT_FILTER, "filter", "EXPR", "only events that match EXPR (see ltt(1))" },
	{ OPT_UNTIL, "until", "NAME", "startup: time to the first exec of NAME or marker NAME (again: more)" },
	{ OPT_BUCKETS, "buckets", "N", "startup: what ran on each CPU in N slices of the window (default 10)" },
	{ OPT_JSON, "json", NULL, "one JSON object, every row of every table" },
	CONTAINER_OPTS,
};

enum { A_SYSCALLS = 1, A_SCHED = 2, A_IRQ = 4, A_IO = 8, A_CPU = 16,
       A_STARTUP = 32, A_ALL = 63 };

struct analyze {
	struct timeline tl;
	struct analyses an;
	struct startup su;
	const char *until[SU_TARGETS];
	unsigned int n_until, buckets;
	unsigned int which, top;
	int32_t pid;
	bool json;
	FILE *f;
};

static unsigned int parse_which(const struct opt_parser *p, const char *list)
{
	static const struct { const char *name; unsigned int bit; } names[] = {
		{ "syscalls", A_SYSCALLS }, { "sched", A_SCHED },
		{ "irq", A_IRQ }, { "io", A_IO }, { "cpu", A_CPU },
		{ "startup", A_STARTUP }, { "all", A_ALL },
	};
	char *copy = strdup(list), *w, *save = NULL;
	unsigned int which = 0, i;

	if (!copy)
		opt_usage_error(p, "out of memory");
	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(names) && strcmp(w, names[i].name); i++)
			;
		if (i == ARRAY_SIZE(names))
			opt_usage_error(p, "--analysis %s: the analyses are syscalls, sched, irq, io, cpu, startup, all",
					w);
		which |= names[i].bit;
	}
	free(copy);
	if (!which)
		opt_usage_error(p, "--analysis: empty list");
	return which;
}

static unsigned int limit(const struct analyze *a, unsigned int n)
{
	return a->top && n > a->top ? a->top : n;
}

/* Nanoseconds as microseconds with three decimals: exact. */
static const char *us(uint64_t ns, char *buf)
{
	sprintf(buf, "%llu.%03llu", (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
	return buf;
}

static void dist_row(const struct analyze *a, const char *name,
		     const struct an_dist *d)
{
	char b[6][32];

	fprintf(a->f, "  %-22s %8llu %14s %12s %12s %12s %12s %12s\n", name,
		(unsigned long long)d->count, us(d->total, b[0]), us(d->min, b[1]),
		us(d->p50, b[2]), us(d->p90, b[3]), us(d->p99, b[4]),
		us(d->max, b[5]));
}

static void dist_head(const struct analyze *a, const char *what)
{
	fprintf(a->f, "  %-22s %8s %14s %12s %12s %12s %12s %12s\n", what,
		"count", "total us", "min us", "p50 us", "p90 us", "p99 us",
		"max us");
}

static void histogram(const struct analyze *a, const struct an_dist *d)
{
	uint64_t most = 0;
	unsigned int i, lo = AN_HIST, hi = 0;

	for (i = 0; i < AN_HIST; i++) {
		if (!d->hist[i])
			continue;
		lo = i < lo ? i : lo;
		hi = i;
		most = d->hist[i] > most ? d->hist[i] : most;
	}
	for (i = lo; i <= hi && most; i++) {
		int bar = (int)((d->hist[i] * 50 + most - 1) / most);

		fprintf(a->f, "  [%12llu, %12llu) ns %8llu  %.*s\n",
			1ULL << i, 1ULL << (i + 1),
			(unsigned long long)d->hist[i], bar,
			"##################################################");
	}
}

static const char *task_name(const struct analyze *a, int32_t pid)
{
	const struct tl_task *k = tl_task(&a->tl, pid);

	return k ? a->tl.strings[k->name] : "?";
}

static void print_syscalls(const struct analyze *a)
{
	const struct analyses *an = &a->an;
	unsigned int i;

	fprintf(a->f, "\nSystem call latency, entry to exit (%llu calls",
		(unsigned long long)an->all_syscalls.count);
	if (a->pid >= 0)
		fprintf(a->f, " of pid %d %s", a->pid, task_name(a, a->pid));
	fputs("):\n", a->f);
	dist_head(a, "syscall");
	for (i = 0; i < limit(a, an->n_syscalls); i++)
		dist_row(a, a->tl.strings[an->syscalls[i].name], &an->syscalls[i]);
	dist_row(a, "(all)", &an->all_syscalls);
	fputs("\nHistogram of system call latency:\n", a->f);
	histogram(a, &an->all_syscalls);
}

static void print_waits(const struct analyze *a, const char *what,
			const struct an_dist *all, const struct an_dist *per,
			uint32_t n)
{
	char name[64];
	unsigned int i;

	fprintf(a->f, "\n  %s:\n", what);
	dist_head(a, "task");
	for (i = 0; i < limit(a, n); i++) {
		snprintf(name, sizeof(name), "%s %u",
			 task_name(a, (int32_t)per[i].name), per[i].name);
		dist_row(a, name, &per[i]);
	}
	dist_row(a, "(all)", all);
}

static void print_sched(const struct analyze *a)
{
	const struct analyses *an = &a->an;

	fputs("\nScheduling latency, runnable to running:\n", a->f);
	print_waits(a, "after a wakeup (or fork)", &an->all_wakeup,
		    an->wait_wakeup, an->n_wait_wakeup);
	print_waits(a, "after a preemption", &an->all_preempt,
		    an->wait_preempt, an->n_wait_preempt);
	fputs("\nHistogram of scheduling latency after a wakeup:\n", a->f);
	histogram(a, &an->all_wakeup);
}

static void print_irqs(const struct analyze *a)
{
	const struct analyses *an = &a->an;
	char name[64];
	unsigned int i;

	fputs("\nInterrupts and softirqs (a softirq's time is a lower bound: to its last event):\n",
	      a->f);
	dist_head(a, "name");
	for (i = 0; i < limit(a, an->n_irqs); i++) {
		snprintf(name, sizeof(name), "%s%s", a->tl.strings[an->irqs[i].name],
			 an->irq_kind[i] == TL_SOFTIRQ ? " (softirq)" : "");
		dist_row(a, name, &an->irqs[i]);
	}
}

static int io_cmp(const void *x, const void *y)
{
	const struct an_io *a = x, *b = y;
	uint64_t ta = a->read_bytes + a->write_bytes;
	uint64_t tb = b->read_bytes + b->write_bytes;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	return strcmp(a->file, b->file);
}

static void print_groups_io(const struct analyze *a);

static void print_io(const struct analyze *a)
{
	const struct analyses *an = &a->an;
	unsigned int i;

	fputs("\nI/O by process and file (fs_read, fs_write; changes: renames, links, unlinks, truncates, chmod, chown, shared writable maps...):\n",
	      a->f);
	fprintf(a->f, "  %8s  %-16s %8s %12s %8s %12s %8s  %s\n", "pid",
		"process", "reads", "bytes", "writes", "bytes", "changes",
		"file");
	for (i = 0; i < limit(a, an->n_io); i++) {
		const struct an_io *io = &an->io[i];

		fprintf(a->f, "  %8d  %-16s %8llu %12llu %8llu %12llu %8llu  %s\n",
			io->tgid, task_name(a, io->tgid),
			(unsigned long long)io->reads,
			(unsigned long long)io->read_bytes,
			(unsigned long long)io->writes,
			(unsigned long long)io->write_bytes,
			(unsigned long long)io->changes, io->file);
	}
	print_groups_io(a);
}

static void print_use(const struct analyze *a, const char *what,
		      const struct an_cpu_use *u, uint32_t n)
{
	uint64_t all = a->an.span * a->an.n_cpus;
	char b[32];
	unsigned int i;

	fprintf(a->f, "\n  %s:\n  %8s  %-20s %16s %8s\n", what, "pid", "name",
		"us", "share");
	for (i = 0; i < limit(a, n); i++)
		fprintf(a->f, "  %8d  %-20s %16s %7.2f%%\n", u[i].pid,
			a->tl.strings[u[i].name], us(u[i].ns, b),
			all ? 100.0 * u[i].ns / all : 0.0);
}

/* The containers that ran or did I/O, as ltt names them; false: none. */
static bool any_groups(const struct analyze *a)
{
	const struct analyses *an = &a->an;
	size_t pos = 0;

	return an->cg && an->cg->n_groups &&
	       ltt_trace_cgroups(an->cg->trace, &pos, NULL, NULL);
}

static void print_groups_cpu(const struct analyze *a)
{
	const struct analyses *an = &a->an;
	uint64_t all = an->span * an->n_cpus;
	char b[32];
	uint32_t i;

	if (!any_groups(a))
		return;
	fprintf(a->f, "\n  by container:\n  %-32s %16s %8s  %s\n", "container",
		"us", "share", "cgroup");
	for (i = 0; i < an->cg->n_groups && i < an->cap_groups; i++)
		if (an->groups[i].cpu_ns)
			fprintf(a->f, "  %-32s %16s %7.2f%%  %s\n",
				an->cg->groups[i].name,
				us(an->groups[i].cpu_ns, b),
				all ? 100.0 * an->groups[i].cpu_ns / all : 0.0,
				an->cg->groups[i].first->path);
}

static void print_groups_io(const struct analyze *a)
{
	const struct analyses *an = &a->an;
	uint32_t i;

	if (!any_groups(a))
		return;
	fprintf(a->f, "\n  by container:\n  %-32s %8s %12s %8s %12s  %s\n",
		"container", "reads", "bytes", "writes", "bytes", "cgroup");
	for (i = 0; i < an->cg->n_groups && i < an->cap_groups; i++) {
		const struct an_group *g = &an->groups[i];

		if (g->reads || g->writes)
			fprintf(a->f, "  %-32s %8llu %12llu %8llu %12llu  %s\n",
				an->cg->groups[i].name,
				(unsigned long long)g->reads,
				(unsigned long long)g->read_bytes,
				(unsigned long long)g->writes,
				(unsigned long long)g->write_bytes,
				an->cg->groups[i].first->path);
	}
}

static void json_groups(const struct analyze *a)
{
	const struct analyses *an = &a->an;
	uint32_t i, n = 0;

	fputs(",\"containers\":[", a->f);
	for (i = 0; any_groups(a) && i < an->cg->n_groups && i < an->cap_groups; i++) {
		const struct an_group *g = &an->groups[i];
		const struct cg_info *c = an->cg->groups[i].first;

		if (!g->cpu_ns && !g->reads && !g->writes)
			continue;
		fputs(n++ ? ",{\"name\":" : "{\"name\":", a->f);
		json_str(a->f, c->name.name);
		fputs(",\"cgroup\":", a->f);
		if (c->named)
			json_str(a->f, c->path);
		else
			fputs("null", a->f);
		fprintf(a->f, ",\"cpu_ns\":%llu,\"reads\":%llu,\"read_bytes\":%llu,\"writes\":%llu,\"write_bytes\":%llu}",
			(unsigned long long)g->cpu_ns,
			(unsigned long long)g->reads,
			(unsigned long long)g->read_bytes,
			(unsigned long long)g->writes,
			(unsigned long long)g->write_bytes);
	}
	putc(']', a->f);
}

static void print_cpu(const struct analyze *a)
{
	const struct analyses *an = &a->an;
	char b[32];
	unsigned int i;

	fprintf(a->f, "\nCPU usage over %s us on %u CPUs (share of all CPU time):\n",
		us(an->span, b), an->n_cpus);
	for (i = 0; i < an->n_cpus; i++)
		fprintf(a->f, "  cpu %u: busy %s us, %.2f%%\n", i,
			us(an->cpu_busy[i], b),
			an->span ? 100.0 * an->cpu_busy[i] / an->span : 0.0);
	print_use(a, "by process", an->procs, an->n_procs);
	print_use(a, "by task", an->tasks, an->n_tasks);
	print_groups_cpu(a);
}

/* ---- JSON --------------------------------------------------------- */

static void json_dist(const struct analyze *a, const struct an_dist *d)
{
	unsigned int i, n = 0;

	fprintf(a->f, "\"count\":%llu,\"total_ns\":%llu,\"min_ns\":%llu,\"p50_ns\":%llu,\"p90_ns\":%llu,\"p99_ns\":%llu,\"max_ns\":%llu,\"histogram\":[",
		(unsigned long long)d->count, (unsigned long long)d->total,
		(unsigned long long)d->min, (unsigned long long)d->p50,
		(unsigned long long)d->p90, (unsigned long long)d->p99,
		(unsigned long long)d->max);
	for (i = 0; i < AN_HIST; i++)
		if (d->hist[i])
			fprintf(a->f, "%s{\"from_ns\":%llu,\"count\":%llu}",
				n++ ? "," : "", 1ULL << i,
				(unsigned long long)d->hist[i]);
	putc(']', a->f);
}

static void json_dists(const struct analyze *a, const char *key,
		       const struct an_dist *v, uint32_t n, bool tasks)
{
	uint32_t i;

	fprintf(a->f, ",\"%s\":[", key);
	for (i = 0; i < n; i++) {
		fputs(i ? ",{" : "{", a->f);
		if (tasks) {
			fprintf(a->f, "\"pid\":%u,\"name\":", v[i].name);
			json_str(a->f, task_name(a, (int32_t)v[i].name));
		} else {
			fputs("\"name\":", a->f);
			json_str(a->f, a->tl.strings[v[i].name]);
		}
		putc(',', a->f);
		json_dist(a, &v[i]);
		putc('}', a->f);
	}
	putc(']', a->f);
}

static void json_use(const struct analyze *a, const char *key,
		     const struct an_cpu_use *u, uint32_t n)
{
	uint32_t i;

	fprintf(a->f, ",\"%s\":[", key);
	for (i = 0; i < n; i++) {
		fprintf(a->f, "%s{\"pid\":%d,\"tgid\":%d,\"name\":", i ? "," : "",
			u[i].pid, u[i].tgid);
		json_str(a->f, a->tl.strings[u[i].name]);
		fprintf(a->f, ",\"ns\":%llu}", (unsigned long long)u[i].ns);
	}
	putc(']', a->f);
}

static void print_json(const struct analyze *a, const char *dir)
{
	const struct analyses *an = &a->an;
	uint32_t i;

	fputs("{\"trace\":", a->f);
	json_str(a->f, dir);
	fprintf(a->f, ",\"span_ns\":%llu,\"cpus\":%u",
		(unsigned long long)an->span, an->n_cpus);
	if (a->which & A_SYSCALLS) {
		fputs(",\"syscalls\":{", a->f);
		json_dist(a, &an->all_syscalls);
		json_dists(a, "by_name", an->syscalls, an->n_syscalls, false);
		putc('}', a->f);
	}
	if (a->which & A_SCHED) {
		fputs(",\"sched\":{\"after_wakeup\":{", a->f);
		json_dist(a, &an->all_wakeup);
		json_dists(a, "by_task", an->wait_wakeup, an->n_wait_wakeup, true);
		fputs("},\"after_preemption\":{", a->f);
		json_dist(a, &an->all_preempt);
		json_dists(a, "by_task", an->wait_preempt, an->n_wait_preempt, true);
		fputs("}}", a->f);
	}
	if (a->which & A_IRQ) {
		json_dists(a, "irqs", an->irqs, an->n_irqs, false);
	}
	if (a->which & A_IO) {
		fputs(",\"io\":[", a->f);
		for (i = 0; i < an->n_io; i++) {
			const struct an_io *io = &an->io[i];

			fprintf(a->f, "%s{\"tgid\":%d,\"file\":", i ? "," : "",
				io->tgid);
			json_str(a->f, io->file);
			fprintf(a->f, ",\"reads\":%llu,\"read_bytes\":%llu,\"writes\":%llu,\"write_bytes\":%llu,\"changes\":%llu}",
				(unsigned long long)io->reads,
				(unsigned long long)io->read_bytes,
				(unsigned long long)io->writes,
				(unsigned long long)io->write_bytes,
				(unsigned long long)io->changes);
		}
		putc(']', a->f);
	}
	if (a->which & A_CPU) {
		fputs(",\"cpu_busy_ns\":[", a->f);
		for (i = 0; i < an->n_cpus; i++)
			fprintf(a->f, "%s%llu", i ? "," : "",
				(unsigned long long)an->cpu_busy[i]);
		putc(']', a->f);
		json_use(a, "processes", an->procs, an->n_procs);
		json_use(a, "tasks", an->tasks, an->n_tasks);
	}
	if (a->which & (A_CPU | A_IO))
		json_groups(a);
	if (a->which & A_STARTUP) {
		fputs(",\"startup\":", a->f);
		su_print_json(a->f, &a->su);
	}
	fputs("}\n", a->f);
}

int cmd_analyze(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER_ANYWHERE("ltt analyze", "[OPTIONS] DIR...",
		"Latencies and usage in the trace in DIR: system call latency\n"
		"(percentiles, histogram), scheduling latency (runnable to running,\n"
		"after a wakeup or a preemption), interrupt and softirq durations, I/O\n"
		"per process and file, CPU usage per CPU, process and task; start-up:\n"
		"time to each --until target, milestones, every exec and process with\n"
		"its life and CPU time, the process tree, what ran on each CPU, losses.\n"
		"Exits 1 when the trace is damaged or an --until target is not in it.",
		analyze_opts);
	struct analyze a = { .which = A_ALL, .top = 20, .pid = -1, .buckets = 10,
			     .f = stdout };
	const char *events = NULL, *expr = NULL;
	const struct ltt_item *it;
	struct item_select sel;
	struct ltt_trace *t;
	unsigned int errors, i, missing = 0;
	struct cg_args cga = { 0 };
	char err[300];
	int c, nosuch;

	while ((c = opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case 'a':
			a.which = parse_which(&p, p.arg);
			break;
		case 'p':
			a.pid = opt_u64(&p, "--pid", p.arg);
			break;
		case 'n':
			a.top = opt_u64(&p, "--top", p.arg);
			break;
		case 'e':
			events = p.arg;
			break;
		case OPT_FILTER:
			expr = p.arg;
			break;
		case OPT_UNTIL:
			if (a.n_until == SU_TARGETS)
				opt_usage_error(&p, "--until: at most %d targets",
						SU_TARGETS);
			if (!*p.arg)
				opt_usage_error(&p, "--until: empty name");
			a.until[a.n_until++] = p.arg;
			break;
		case OPT_BUCKETS:
			a.buckets = opt_u64(&p, "--buckets", p.arg);
			if (!a.buckets || a.buckets > 1000)
				opt_usage_error(&p, "--buckets %s: 1 to 1000",
						p.arg);
			break;
		case OPT_JSON:
			a.json = true;
			break;
		default:
			opt_container(&cga, &p, c);
			break;
		}
	}
	if (p.ind >= argc)
		opt_usage_error(&p, "a trace directory expected");
	t = open_traces_or_die(p.cmd, argv + p.ind, argc - p.ind);
	if (item_select_init(&sel, ltt_trace_registry(t), events, expr, err,
			     sizeof(err)))
		opt_usage_error(&p, "%s", err);
	if (a.n_until && !(a.which & A_STARTUP))
		opt_usage_error(&p, "--until is for the startup analysis (-a startup)");
	if (item_select_containers(&sel, t, &cga) || tl_init(&a.tl, t) ||
	    an_init(&a.an, ltt_trace_registry(t), &a.tl) ||
	    an_attach(&a.an, &a.tl, sel.cg) ||
	    su_init(&a.su, t, a.until, a.n_until)) {
		warnx_cmd(p.cmd, "out of memory");
		return 1;
	}
	while (ltt_trace_next(t, &it) > 0) {
		if (!item_selected(&sel, t, it)) {
			if (sel.cg && (a.which & ~A_STARTUP))
				tl_skip(&a.tl, it);	/* what ran */
			continue;
		}
		/* the timeline, the biggest, only for the others */
		if (a.which & ~A_STARTUP) {
			tl_add(&a.tl, it);
			an_add(&a.an, t, it);
		}
		if (a.which & A_STARTUP)
			su_add(&a.su, it);
	}
	nosuch = sel.cg ? containers_check(sel.cg, p.cmd) : 0;
	if (nosuch) {
		an_free(&a.an);
		tl_free(&a.tl);
		su_free(&a.su);
		item_select_free(&sel);
		ltt_trace_close(t);
		return nosuch;
	}
	a.an.select = NULL;	/* tl_finish() ends the runs: all judged */
	if (tl_finish(&a.tl) || an_compute(&a.an, &a.tl, a.pid) ||
	    su_finish(&a.su, a.buckets)) {
		warnx_cmd(p.cmd, "out of memory");
		return 1;
	}
	if (a.an.n_io)		/* io is NULL without any: not for qsort */
		qsort(a.an.io, a.an.n_io, sizeof(*a.an.io), io_cmp);
	if (a.json) {
		print_json(&a, ltt_trace_dir(t));
	} else {
		fprintf(a.f, "Trace %s: %llu events\n", ltt_trace_dir(t),
			(unsigned long long)(a.which & ~A_STARTUP ?
					     a.tl.events : a.su.events));
		if (a.which & A_SYSCALLS)
			print_syscalls(&a);
		if (a.which & A_SCHED)
			print_sched(&a);
		if (a.which & A_IRQ)
			print_irqs(&a);
		if (a.which & A_IO)
			print_io(&a);
		if (a.which & A_CPU)
			print_cpu(&a);
		if (a.which & A_STARTUP)
			su_print(a.f, &a.su, a.top);
	}
	for (i = 0; i < a.su.n_targets; i++) {
		if (a.su.targets[i].found)
			continue;
		warnx_cmd(p.cmd, "%s: no exec nor marker matches --until %s",
			  ltt_trace_dir(t), a.su.targets[i].name);
		missing++;
	}
	errors = print_trace_errors(p.cmd, t);
	su_free(&a.su);
	an_free(&a.an);
	tl_free(&a.tl);
	item_select_free(&sel);
	ltt_trace_close(t);
	if (fflush(stdout) || ferror(stdout)) {
		warnx_cmd(p.cmd, "write error on the standard output");
		return 1;
	}
	return errors || missing ? 1 : 0;
}
