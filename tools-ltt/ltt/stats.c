// SPDX-License-Identifier: GPL-2.0
/*
 * ltt stats: summarise a trace.  The figures come from analysis.c; this
 * file parses the options and prints them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "../lib/checked.h"
#include "filter.h"
#include "ltt.h"
#include "stats-json.h"
#include "syscalls.h"

static const struct ltt_opt stats_opts[] = {
	{ 'p', "pid", "PID", "also time each system call of task PID" },
	{ 'n', "top", "N", "show the N first lines of each table (default 20, 0: all)" },
	{ 'j', "json", NULL, "one JSON object with every row of every table" },
	{ 'e', "event", "LIST", "count only these events (names, prefix*, ids; !ITEM leaves out)" },
	{ 256, "filter", "EXPR", "count only events that match EXPR (see ltt(1))" },
	{ 257, "from", "TIME", "from TIME: seconds from the start, -seconds from the end, or HH:MM:SS[.ns]" },
	{ 258, "to", "TIME", "up to TIME (included)" },
	{ 259, "utc", NULL, "--from and --to HH:MM:SS are UTC, not local time" },
	CONTAINER_OPTS,
};

/* Sort helpers: by a count, largest first. */
struct ranked {
	uint64_t key;
	uint32_t index;
};

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static const char *comm_of(const struct ltt_trace *t, int32_t pid)
{
	const char *c = ltt_trace_comm(t, pid);

	return c ? c : "?";
}

static unsigned int limit(unsigned int n, unsigned int top)
{
	return top && n > top ? top : n;
}

/* The kernel's events, or the custom ones (none: no table), by count. */
static void print_events(const struct stats *st, unsigned int top,
			 bool custom)
{
	const struct ltt_registry *reg = st->reg;
	struct ranked *r = calloc(reg->n_events + 1, sizeof(*r));
	unsigned int i, n = 0;

	if (!r)
		return;
	for (i = 0; i < reg->n_events; i++)
		if (st->per_event[i] && reg->events[i].custom == custom)
			r[n++] = (struct ranked){ st->per_event[i], i };
	qsort(r, n, sizeof(*r), ranked_cmp);
	if (custom && !n) {
		free(r);
		return;
	}
	printf("\n%s:\n%12s  %s\n", custom ? "Custom events" : "Events by type",
	       "count", "event");
	for (i = 0; i < limit(n, top); i++)
		printf("%12llu  %s\n", (unsigned long long)r[i].key,
		       reg->events[r[i].index].name);
	free(r);
}

static void print_syscalls(const struct stats *st, const struct ltt_trace *t,
			   unsigned int top)
{
	const struct ltt_syscall_table *table = ltt_trace_syscalls(t);
	struct ranked r[STATS_SYSCALLS];
	unsigned int i, n = 0;

	if (st->id_entry < 0)
		return;
	for (i = 0; i < STATS_SYSCALLS; i++)
		if (st->syscalls[i])
			r[n++] = (struct ranked){ st->syscalls[i], i };
	qsort(r, n, sizeof(*r), ranked_cmp);
	printf("\nSystem calls by name:\n%12s  %-24s %s\n", "count", "syscall",
	       "nr");
	for (i = 0; i < limit(n, top); i++) {
		unsigned int nr = r[i].index + st->syscall_base;
		const char *name = ltt_syscall_name(table, nr);

		printf("%12llu  %-24s %u\n", (unsigned long long)r[i].key,
		       name ? name : "?", nr);
	}
	if (st->syscalls_other)
		printf("%12llu  (numbers past %u)\n",
		       (unsigned long long)st->syscalls_other,
		       STATS_SYSCALLS + st->syscall_base);
}

static void print_procs(const struct stats *st, const struct ltt_trace *t,
			unsigned int top, bool by_cpu)
{
	struct ranked *r = calloc(st->n_procs + 1, sizeof(*r));
	uint64_t total = 0;
	unsigned int i, n = 0;
	char buf[32];

	if (!r)
		return;
	for (i = 0; i < st->n_procs; i++) {
		uint64_t key = by_cpu ? st->procs[i].cpu_ns :
					st->procs[i].syscalls;

		total += st->procs[i].cpu_ns;
		if (key)
			r[n++] = (struct ranked){ key, i };
	}
	qsort(r, n, sizeof(*r), ranked_cmp);
	if (by_cpu)
		printf("\nCPU time by process (from scheduling changes):\n%8s  %-20s %16s %7s\n",
		       "pid", "name", "seconds", "share");
	else
		printf("\nSystem calls by process:\n%8s  %-20s %12s\n", "pid",
		       "name", "syscalls");
	for (i = 0; i < limit(n, top); i++) {
		const struct proc *p = &st->procs[r[i].index];

		if (by_cpu) {
			format_rel(buf, sizeof(buf), p->cpu_ns);
			printf("%8d  %-20s %16s %6.2f%%\n", p->pid,
			       comm_of(t, p->pid), buf,
			       total ? 100.0 * p->cpu_ns / total : 0.0);
		} else {
			printf("%8d  %-20s %12llu\n", p->pid,
			       comm_of(t, p->pid),
			       (unsigned long long)p->syscalls);
		}
	}
	free(r);
}

static void print_times(const struct stats *st, const struct ltt_trace *t)
{
	const struct ltt_syscall_table *table = ltt_trace_syscalls(t);
	unsigned int i;

	printf("\nSystem call times of pid %d (%s), entry to exit:\n", st->pid,
	       comm_of(t, st->pid));
	printf("%-20s %10s %16s %12s %12s %12s\n", "syscall", "count",
	       "total ns", "min ns", "avg ns", "max ns");
	for (i = 0; i < STATS_SYSCALLS; i++) {
		const struct syscall_time *s = &st->times[i];
		const char *name = ltt_syscall_name(table, i + st->syscall_base);

		if (!s->count)
			continue;
		printf("%-20s %10llu %16llu %12llu %12llu %12llu\n",
		       name ? name : "?", (unsigned long long)s->count,
		       (unsigned long long)s->total_ns,
		       (unsigned long long)s->min_ns,
		       (unsigned long long)(s->total_ns / s->count),
		       (unsigned long long)s->max_ns);
	}
	if (st->unfinished)
		printf("(%llu calls without an exit in the trace)\n",
		       (unsigned long long)st->unfinished);
}

static void print_lost(const struct stats *st)
{
	unsigned int i;

	printf("\nEvents lost: %llu", (unsigned long long)st->lost_events);
	if (st->lost_packets)
		printf(" (and %llu packets not in the trace)",
		       (unsigned long long)st->lost_packets);
	putchar('\n');
	for (i = 0; i < st->max_cpu; i++)
		if (st->cpu[i].lost_events || st->cpu[i].lost_packets)
			printf("  cpu %u: %llu events, %llu packets\n", i,
			       (unsigned long long)st->cpu[i].lost_events,
			       (unsigned long long)st->cpu[i].lost_packets);
}

/* The containers' table: events, calls, CPU time and I/O of each. */
static void print_groups(const struct stats *st, unsigned int top)
{
	const struct containers *cg = st->cg;
	struct ranked *r;
	uint64_t total = 0;
	unsigned int i, n = 0;
	char buf[32];
	size_t pos = 0;

	if (!cg || !ltt_trace_cgroups(st->trace, &pos, NULL, NULL))
		return;		/* a trace that names no cgroup */
	r = calloc(cg->n_groups + 1, sizeof(*r));
	if (!r)
		return;
	for (i = 0; i < cg->n_groups && i < st->cap_groups; i++) {
		total += st->groups[i].cpu_ns;
		if (st->groups[i].events || st->groups[i].cpu_ns)
			r[n++] = (struct ranked){ st->groups[i].cpu_ns, i };
	}
	qsort(r, n, sizeof(*r), ranked_cmp);
	printf("\nContainers (the task's when it ran; ? where the trace does not place it):\n"
	       "%-32s %10s %10s %16s %7s %10s %10s  %s\n", "container", "events",
	       "syscalls", "cpu seconds", "share", "read", "written", "cgroup");
	for (i = 0; i < limit(n, top); i++) {
		const struct stats_group *g = &st->groups[r[i].index];
		const struct cg_group *c = &cg->groups[r[i].index];

		format_rel(buf, sizeof(buf), g->cpu_ns);
		printf("%-32s %10llu %10llu %16s %6.2f%% %10llu %10llu  %s\n",
		       c->name, (unsigned long long)g->events,
		       (unsigned long long)g->syscalls, buf,
		       total ? 100.0 * g->cpu_ns / total : 0.0,
		       (unsigned long long)g->read_bytes,
		       (unsigned long long)g->write_bytes, c->first->path);
	}
	free(r);
}

static void print_summary(const struct stats *st, const struct ltt_trace *t)
{
	int64_t offset = ltt_trace_clock_offset(t);
	char from[32], dur[32];

	format_clock(from, sizeof(from), ltt_wall_ns(st->first_ts, offset),
		     false);
	format_rel(dur, sizeof(dur), st->last_ts - st->first_ts);
	printf("Trace %s: %llu events from %s for %s s\n", ltt_trace_dir(t),
	       (unsigned long long)st->events, from, dur);
}

int cmd_stats(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER_ANYWHERE("ltt stats", "[OPTIONS] DIR...",
		"Summarise the trace in DIR: events by type, system calls by name and\n"
		"by process, CPU time by process and by container, events lost; with\n"
		"--pid, the time each system call of that task took.",
		stats_opts);
	const struct ltt_item *it;
	unsigned int top = 20, errors = 0;
	struct ltt_trace *t;
	struct stats *st;
	int32_t pid = -1;
	bool json = false;
	const char *events = NULL, *expr = NULL;
	struct item_select sel;
	struct time_window win = { 0 };
	struct cg_args cga = { 0 };
	char err[300];
	int c, nosuch;

	while ((c = opt_next(&p, argc, argv)) != -1) {
		if (c == 'p')
			pid = opt_u64(&p, "--pid", p.arg);
		else if (c == 'n')
			top = opt_u64(&p, "--top", p.arg);
		else if (c == 'j')
			json = true;
		else if (c == 'e')
			events = p.arg;
		else if (c == 256)
			expr = p.arg;
		else if (c == 257)
			win.from_arg = p.arg;
		else if (c == 258)
			win.to_arg = p.arg;
		else if (c == 259)
			win.utc = true;
		else
			opt_container(&cga, &p, c);
	}
	if (p.ind >= argc)
		opt_usage_error(&p, "a trace directory expected");
	t = open_traces_or_die(p.cmd, argv + p.ind, argc - p.ind);
	if (item_select_init(&sel, ltt_trace_registry(t), events, expr, err,
			     sizeof(err)))
		opt_usage_error(&p, "%s", err);
	st = malloc(sizeof(*st));
	if (!st || stats_init(st, ltt_trace_registry(t), pid) ||
	    item_select_containers(&sel, t, &cga) ||
	    stats_attach(st, t, sel.cg)) {
		warnx_cmd(p.cmd, "out of memory");
		return 1;
	}
	if (ltt_trace_syscalls(t))
		st->syscall_base = ltt_trace_syscalls(t)->base;
	trace_window(t, &p, &win);
	while (ltt_trace_next(t, &it) > 0) {
		if (it->ts > win.to)
			break;		/* items come in time order */
		if (it->ts < win.from)
			continue;
		if (item_selected(&sel, t, it))
			stats_add(st, it);
		else if (sel.cg)
			stats_skip(st, it);	/* what ran, for CPU time */
	}
	stats_finish(st);
	nosuch = sel.cg ? containers_check(sel.cg, p.cmd) : 0;
	item_select_free(&sel);
	st->select = NULL;
	if (nosuch) {
		stats_free(st);
		free(st);
		ltt_trace_close(t);
		return nosuch;
	}

	if (json) {
		stats_print_json(stdout, st, t);
		if (fflush(stdout) || ferror(stdout)) {
			warnx_cmd(p.cmd, "write error on the standard output");
			stats_free(st);
			free(st);
			ltt_trace_close(t);
			return 1;
		}
		goto done;
	}
	print_summary(st, t);
	print_events(st, top, false);
	print_events(st, top, true);
	print_syscalls(st, t, top);
	print_procs(st, t, top, false);
	print_procs(st, t, top, true);
	print_groups(st, top);
	if (pid >= 0)
		print_times(st, t);
	print_lost(st);
done:
	if (check_stdout(p.cmd))
		errors = 1;
	errors += print_trace_errors(p.cmd, t);
	stats_free(st);
	free(st);
	ltt_trace_close(t);
	return errors ? 1 : 0;
}
