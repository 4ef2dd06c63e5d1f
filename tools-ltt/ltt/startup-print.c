// SPDX-License-Identifier: GPL-2.0
/*
 * The start-up analysis printed (startup.h): `ltt analyze -a startup`,
 * as text and as the "startup" object of --json.  Times are from the
 * trace's first event, in milliseconds with microseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "startup.h"

#define SU_TREE_DEPTH	64		/* deeper nodes are not printed */

/* @ns as milliseconds with three decimals (microseconds). */
static const char *ms(uint64_t ns, char *buf)
{
	sprintf(buf, "%llu.%03llu", (unsigned long long)(ns / 1000000),
		(unsigned long long)(ns / 1000 % 1000));
	return buf;
}

/* @ts from the first event (a lost range may begin before it). */
static uint64_t off(const struct startup *su, uint64_t ts)
{
	return ts > su->t0 ? ts - su->t0 : 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/* Text from the trace on a terminal: control characters as '?'. */
static void put_text(FILE *f, const char *s, size_t max)
{
	size_t i;

	for (i = 0; s[i] && i < max; i++)
		putc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i], f);
	if (s[i])
		fputs("...", f);
}

/* @s with control characters as '?', cut to @len - 1 bytes. */
static const char *clean(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
	return buf;
}

static unsigned int shown(unsigned int top, unsigned int n)
{
	return top && n > top ? top : n;
}

static void more(FILE *f, unsigned int top, unsigned int n, const char *indent)
{
	if (top && n > top)
		fprintf(f, "%s... and %u more (-n 0: all)\n", indent, n - top);
}

static void print_targets(FILE *f, const struct startup *su)
{
	unsigned int i;
	char b[32];

	if (!su->n_targets)
		return;
	fputs("\n  Time to each --until target:\n", f);
	for (i = 0; i < su->n_targets; i++) {
		const struct su_target *g = &su->targets[i];

		fputs("    ", f);
		put_text(f, g->name, 40);
		if (!g->found) {
			fputs(": not in the trace", f);
			if (su->lost_events)
				fprintf(f, " (%llu events were lost: it may be among them)",
					(unsigned long long)su->lost_events);
			putc('\n', f);
			continue;
		}
		fprintf(f, ": %s ms, ", ms(g->ts - su->t0, b));
		if (g->found == SU_EXEC) {
			const struct su_exec *e = &su->execs[g->index];

			fprintf(f, "exec of ");
			put_text(f, e->path, 200);
			fprintf(f, " by pid %d", su->procs[e->proc].pid);
		} else {
			const struct su_mark *m = &su->marks[g->index];

			fprintf(f, "%s", m->event);
			if (m->pid >= 0)
				fprintf(f, " by pid %d", m->pid);
			if (m->text[0]) {
				fputs(": \"", f);
				put_text(f, m->text, 200);
				putc('"', f);
			}
		}
		if (g->lost_before)
			fprintf(f, " (%llu events were lost before it: an earlier one may be missing)",
				(unsigned long long)g->lost_before);
		putc('\n', f);
	}
}

/* Milestones: each process's first exec and each marker, in time order. */
static void print_milestones(FILE *f, const struct startup *su,
			     unsigned int top)
{
	uint32_t e = 0, m = 0, n = 0, total = 0, i;
	char b[32];

	for (i = 0; i < su->n_execs; i++)
		total += su->procs[su->execs[i].proc].first_exec == i;
	total += su->n_marks;
	fputs("\n  Milestones (each process's first exec, and markers):\n", f);
	fprintf(f, "    %14s %8s  %s\n", "ms", "pid", "what");
	while (e < su->n_execs || m < su->n_marks) {
		bool take_exec = m == su->n_marks ||
			(e < su->n_execs && su->execs[e].t0 <= su->marks[m].ts);

		if (take_exec) {
			const struct su_exec *x = &su->execs[e];

			if (su->procs[x->proc].first_exec == e) {
				if (!top || n < top) {
					fprintf(f, "    %14s %8d  exec ",
						ms(x->t0 - su->t0, b),
						su->procs[x->proc].pid);
					put_text(f, x->path, 200);
					putc('\n', f);
				}
				n++;
			}
			e++;
			continue;
		}
		if (!top || n < top) {
			const struct su_mark *k = &su->marks[m];

			fprintf(f, "    %14s ", ms(k->ts - su->t0, b));
			if (k->pid >= 0)
				fprintf(f, "%8d", k->pid);
			else
				fprintf(f, "%8s", "?");
			fprintf(f, "  %s", k->event);
			if (k->text[0]) {
				fputs(" \"", f);
				put_text(f, k->text, 200);
				putc('"', f);
			}
			putc('\n', f);
		}
		n++;
		m++;
	}
	if (!total)
		fputs("    (no exec and no marker in the trace)\n", f);
	more(f, top, total, "    ");
}

static const struct startup *sort_su;

static int life_cmp(const void *a, const void *b)
{
	const struct su_exec *x = &sort_su->execs[*(const uint32_t *)a];
	const struct su_exec *y = &sort_su->execs[*(const uint32_t *)b];

	if (x->t1 - x->t0 != y->t1 - y->t0)
		return x->t1 - x->t0 > y->t1 - y->t0 ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static const char *exec_end(const struct su_exec *e, char *buf, size_t len)
{
	if (e->end == SU_EXITED)
		snprintf(buf, len, "exit %d", e->code);
	else
		snprintf(buf, len, "%s", e->end == SU_REPLACED ? "exec" : "running");
	return buf;
}

static void print_execs(FILE *f, const struct startup *su, unsigned int top)
{
	uint32_t *order = malloc((su->n_execs + 1) * sizeof(*order)), i;
	char b[4][32];

	if (!order)
		return;
	for (i = 0; i < su->n_execs; i++)
		order[i] = i;
	sort_su = su;
	qsort(order, su->n_execs, sizeof(*order), life_cmp);
	fprintf(f, "\n  Execs, the longest first (life: exec to exit or next exec; CPU: %s):\n",
		su->sched_recorded ? "from sched_change" :
		"not recorded, the trace has no sched_change");
	fprintf(f, "    %8s  %-20s %12s %12s %12s %8s  %-9s %s\n", "pid",
		"program", "start ms", "life ms", "cpu ms", "children", "end",
		"parent");
	for (i = 0; i < shown(top, su->n_execs); i++) {
		const struct su_exec *e = &su->execs[order[i]];
		const struct su_proc *p = &su->procs[e->proc];
		char end[32], name[SU_COMM];

		fprintf(f, "    %8d  %-20.20s %12s %12s %12s %8u  %-9s ", p->pid,
			clean(e->name, name, sizeof(name)), ms(e->t0 - su->t0, b[0]),
			ms(e->t1 - e->t0, b[1]),
			su->sched_recorded ? ms(e->cpu_ns, b[2]) : "-",
			e->children, exec_end(e, end, sizeof(end)));
		if (p->parent != SU_NONE)
			fprintf(f, "%s %d", clean(su_proc_name(su, p->parent), name,
						  sizeof(name)),
				su->procs[p->parent].pid);
		else
			fputs("-", f);
		if (e->end == SU_RUNNING)
			fputs(" (still running at the end)", f);
		putc('\n', f);
	}
	if (!su->n_execs)
		fputs("    (no exec in the trace)\n", f);
	more(f, top, su->n_execs, "    ");
	free(order);
}

struct tree {
	const struct startup *su;
	FILE *f;
	unsigned int top;
	uint32_t *first, *next, *last;	/* children lists, in creation order */
	bool *execs;			/* the subtree holds an exec */
};

static void tree_node(const struct tree *t, uint32_t i, unsigned int depth)
{
	const struct startup *su = t->su;
	const struct su_proc *p = &su->procs[i];
	unsigned int n = 0, hidden = 0;
	uint32_t c, e;
	char b[4][32], name[SU_COMM];

	fprintf(t->f, "    %*s%d %s", 2 * depth, "", p->pid,
		clean(su_proc_name(su, i), name, sizeof(name)));
	if (p->first_exec != SU_NONE && p->first_exec != p->last_exec) {
		fputs(" (", t->f);
		for (e = p->first_exec; e != SU_NONE; e = su->execs[e].next)
			fprintf(t->f, "%s%s", e == p->first_exec ? "" : " -> ",
				clean(su->execs[e].name, name, sizeof(name)));
		putc(')', t->f);
	}
	fprintf(t->f, ": %s %s ms, %s %s ms%s", p->forked ? "fork" : "seen",
		ms(p->t0 - su->t0, b[0]), p->exited ? "life" : "then",
		ms(p->t1 - p->t0, b[1]), p->exited ? "" : " (running at the end)");
	if (su->sched_recorded)
		fprintf(t->f, ", cpu %s ms, with descendants %s ms",
			ms(p->cpu_ns, b[2]), ms(p->tree_cpu_ns, b[3]));
	putc('\n', t->f);
	if (depth + 1 >= SU_TREE_DEPTH)
		return;
	for (c = t->first[i]; c != SU_NONE; c = t->next[c]) {
		if (!t->execs[c]) {
			hidden++;
			continue;
		}
		if (t->top && n >= t->top) {
			hidden++;
			continue;
		}
		n++;
		tree_node(t, c, depth + 1);
	}
	if (hidden)
		fprintf(t->f, "    %*s(%u more child%s: without exec, or past -n)\n",
			2 * (depth + 1), "", hidden, hidden > 1 ? "ren" : "");
}

static void print_tree(FILE *f, const struct startup *su, unsigned int top)
{
	struct tree t = { su, f, top, NULL, NULL, NULL, NULL };
	uint32_t i, up, depth, hidden = 0;

	t.first = malloc((su->n_procs + 1) * sizeof(*t.first));
	t.next = malloc((su->n_procs + 1) * sizeof(*t.next));
	t.last = malloc((su->n_procs + 1) * sizeof(*t.last));
	t.execs = calloc(su->n_procs + 1, sizeof(*t.execs));
	if (!t.first || !t.next || !t.last || !t.execs)
		goto out;
	for (i = 0; i < su->n_procs; i++)
		t.first[i] = t.next[i] = t.last[i] = SU_NONE;
	for (i = 0; i < su->n_procs; i++) {
		uint32_t p = su->procs[i].parent;

		if (p != SU_NONE) {
			if (t.last[p] == SU_NONE)
				t.first[p] = i;
			else
				t.next[t.last[p]] = i;
			t.last[p] = i;
		}
		if (su->procs[i].first_exec == SU_NONE)
			continue;
		t.execs[i] = true;
		for (up = p, depth = 0; up != SU_NONE && depth < su->n_procs;
		     up = su->procs[up].parent, depth++)
			t.execs[up] = true;
	}
	if (su->sched_recorded)
		fputs("\n  Process tree (processes that exec'd, and their ancestors; times in ms; cpu: its own, and with its descendants):\n",
		      f);
	else
		fputs("\n  Processes that exec'd (times in ms; who forked whom is not known without sched_change: process_fork does not name its parent):\n",
		      f);
	for (i = 0; i < su->n_procs; i++) {
		if (su->procs[i].parent != SU_NONE)
			continue;
		if (t.execs[i])
			tree_node(&t, i, 0);
		else
			hidden++;
	}
	if (!su->n_execs)
		fputs("    (no exec in the trace)\n", f);
	if (hidden)
		fprintf(f, "    (%u more process%s without exec nor parent in the trace: kernel threads, ...)\n",
			hidden, hidden > 1 ? "es" : "");
out:
	free(t.first);
	free(t.next);
	free(t.last);
	free(t.execs);
}

static void print_cpus(FILE *f, const struct startup *su, unsigned int top)
{
	uint64_t span = su->w1 - su->w0;
	unsigned int c, i;
	char b[3][32], name[SU_COMM];

	if (!su->sched_recorded) {
		fputs("\n  What ran on each CPU: not recorded (the trace has no sched_change; trace the boot with ltt.boot=events=...+sched_change)\n",
		      f);
		return;
	}
	fprintf(f, "\n  What ran on each CPU from %s to %s ms (%s), in %u buckets of %s ms:\n",
		ms(su->w0 - su->t0, b[0]), ms(su->w1 - su->t0, b[1]),
		su->w1 == su->t1 ? "the whole trace" : "to the latest --until target",
		su->n_buckets, ms(span / su->n_buckets, b[2]));
	for (c = 0; c < su->n_cpus; c++) {
		const struct su_cpu_use *u = &su->cpus[c];

		fprintf(f, "    cpu %u: busy %s ms, %.1f%%\n", c, ms(u->busy, b[0]),
			pct(u->busy, span));
		for (i = 0; i < shown(top, u->n_use); i++)
			fprintf(f, "      %8d  %-20.20s %12s ms %6.1f%%\n",
				su->procs[u->use[i].proc].pid,
				clean(su_proc_name(su, u->use[i].proc), name,
				      sizeof(name)),
				ms(u->use[i].ns, b[0]), pct(u->use[i].ns, span));
		more(f, top, u->n_use, "      ");
		if (!u->buckets || su->n_buckets < 2)
			continue;
		fprintf(f, "      %12s %7s  %s\n", "from ms", "busy", "ran most");
		for (i = 0; i < su->n_buckets; i++) {
			const struct su_bucket *k = &u->buckets[i];
			uint64_t from = span * (unsigned __int128)i / su->n_buckets;
			uint64_t to = i + 1 == su->n_buckets ? span :
				span * (unsigned __int128)(i + 1) / su->n_buckets;

			fprintf(f, "      %12s %6.1f%%", ms(su->w0 - su->t0 + from, b[0]),
				pct(k->busy, to - from));
			if (k->top != SU_NONE)
				fprintf(f, "  %s %d (%.1f%%)",
					clean(su_proc_name(su, k->top), name, sizeof(name)),
					su->procs[k->top].pid, pct(k->top_ns, to - from));
			putc('\n', f);
		}
	}
}

static void print_lost(FILE *f, const struct startup *su, unsigned int top)
{
	uint32_t i;
	char b[2][32];

	if (!su->n_lost) {
		fputs("\n  Lost events: none\n", f);
		return;
	}
	fprintf(f, "\n  Lost events: %llu (and %llu packets not read), in %u ranges; a CPU's figures after its first loss miss what it lost:\n",
		(unsigned long long)su->lost_events,
		(unsigned long long)su->lost_packets, su->n_lost);
	for (i = 0; i < shown(top, su->n_lost); i++) {
		const struct su_lost *l = &su->lost[i];

		fprintf(f, "    cpu %u: %llu events", l->cpu,
			(unsigned long long)l->events);
		if (l->packets)
			fprintf(f, ", %llu packets", (unsigned long long)l->packets);
		fprintf(f, " from %s to %s ms\n", ms(off(su, l->t0), b[0]),
			ms(off(su, l->t1), b[1]));
	}
	more(f, top, su->n_lost, "    ");
}

void su_print(FILE *f, const struct startup *su, unsigned int top)
{
	char b[32];

	fprintf(f, "\nStart-up, from the first event over %s ms on %u CPUs: %u execs, %u processes, %u markers\n",
		ms(su->t1 - su->t0, b), su->n_cpus, su->n_execs, su->n_procs,
		su->n_marks);
	print_targets(f, su);
	print_milestones(f, su, top);
	print_execs(f, su, top);
	print_tree(f, su, top);
	print_cpus(f, su, top);
	print_lost(f, su, top);
}

/* ---- JSON --------------------------------------------------------- */

static void json_u64(FILE *f, const char *key, uint64_t v)
{
	fprintf(f, ",\"%s\":%llu", key, (unsigned long long)v);
}

/* A marker's pid: null when the trace cannot tell. */
static void json_pid(FILE *f, int32_t pid)
{
	if (pid >= 0)
		fprintf(f, ",\"pid\":%d", pid);
	else
		fputs(",\"pid\":null", f);
}

static void json_targets(FILE *f, const struct startup *su)
{
	unsigned int i;

	fputs(",\"until\":[", f);
	for (i = 0; i < su->n_targets; i++) {
		const struct su_target *g = &su->targets[i];

		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		json_str(f, g->name);
		if (!g->found) {
			fputs(",\"found\":false}", f);
			continue;
		}
		fputs(",\"found\":true", f);
		json_u64(f, "offset_ns", g->ts - su->t0);
		json_u64(f, "lost_before", g->lost_before);
		if (g->found == SU_EXEC) {
			fprintf(f, ",\"kind\":\"exec\",\"exec\":%u,\"pid\":%d,\"path\":",
				g->index, su->procs[su->execs[g->index].proc].pid);
			json_str(f, su->execs[g->index].path);
		} else {
			fputs(",\"kind\":\"marker\"", f);
			json_pid(f, su->marks[g->index].pid);
			fputs(",\"event\":", f);
			json_str(f, su->marks[g->index].event);
			fputs(",\"text\":", f);
			json_str(f, su->marks[g->index].text);
		}
		putc('}', f);
	}
	putc(']', f);
}

static void json_execs(FILE *f, const struct startup *su)
{
	uint32_t i;

	fputs(",\"execs\":[", f);
	for (i = 0; i < su->n_execs; i++) {
		const struct su_exec *e = &su->execs[i];
		const struct su_proc *p = &su->procs[e->proc];

		fprintf(f, "%s{\"pid\":%d,\"process\":%u,\"path\":", i ? "," : "",
			p->pid, e->proc);
		json_str(f, e->path);
		fputs(",\"name\":", f);
		json_str(f, e->name);
		json_u64(f, "start_ns", e->t0 - su->t0);
		json_u64(f, "life_ns", e->t1 - e->t0);
		fprintf(f, ",\"end\":\"%s\"", e->end == SU_EXITED ? "exit" :
			e->end == SU_REPLACED ? "exec" : "running");
		if (e->end == SU_EXITED)
			fprintf(f, ",\"exit_code\":%d", e->code);
		if (su->sched_recorded)
			json_u64(f, "cpu_ns", e->cpu_ns);
		else
			fputs(",\"cpu_ns\":null", f);
		fprintf(f, ",\"children\":%u,\"first\":%s}", e->children,
			p->first_exec == i ? "true" : "false");
	}
	putc(']', f);
}

static void json_procs(FILE *f, const struct startup *su)
{
	uint32_t i, e;

	fputs(",\"processes\":[", f);
	for (i = 0; i < su->n_procs; i++) {
		const struct su_proc *p = &su->procs[i];
		bool first = true;

		fprintf(f, "%s{\"pid\":%d,\"name\":", i ? "," : "", p->pid);
		json_str(f, su_proc_name(su, i));
		if (p->parent != SU_NONE)
			fprintf(f, ",\"parent\":%u,\"parent_pid\":%d", p->parent,
				su->procs[p->parent].pid);
		else
			fputs(",\"parent\":null,\"parent_pid\":null", f);
		fprintf(f, ",\"forked\":%s,\"exited\":%s",
			p->forked ? "true" : "false", p->exited ? "true" : "false");
		if (p->exited)
			fprintf(f, ",\"exit_code\":%d", p->code);
		json_u64(f, "start_ns", p->t0 - su->t0);
		json_u64(f, "life_ns", p->t1 - p->t0);
		fprintf(f, ",\"children\":%u", p->children);
		if (su->sched_recorded) {
			json_u64(f, "cpu_ns", p->cpu_ns);
			json_u64(f, "tree_cpu_ns", p->tree_cpu_ns);
		} else {
			fputs(",\"cpu_ns\":null,\"tree_cpu_ns\":null", f);
		}
		fputs(",\"execs\":[", f);
		for (e = p->first_exec; e != SU_NONE; e = su->execs[e].next) {
			fprintf(f, "%s%u", first ? "" : ",", e);
			first = false;
		}
		fputs("]}", f);
	}
	putc(']', f);
}

static void json_cpus(FILE *f, const struct startup *su)
{
	unsigned int c, i;

	if (!su->sched_recorded) {
		fputs(",\"cpus\":null", f);
		return;
	}
	json_u64(f, "window_from_ns", su->w0 - su->t0);
	json_u64(f, "window_to_ns", su->w1 - su->t0);
	fputs(",\"cpus\":[", f);
	for (c = 0; c < su->n_cpus; c++) {
		const struct su_cpu_use *u = &su->cpus[c];

		fprintf(f, "%s{\"cpu\":%u", c ? "," : "", c);
		json_u64(f, "busy_ns", u->busy);
		fputs(",\"processes\":[", f);
		for (i = 0; i < u->n_use; i++) {
			fprintf(f, "%s{\"process\":%u,\"pid\":%d,\"name\":",
				i ? "," : "", u->use[i].proc,
				su->procs[u->use[i].proc].pid);
			json_str(f, su_proc_name(su, u->use[i].proc));
			json_u64(f, "ns", u->use[i].ns);
			putc('}', f);
		}
		fputs("],\"buckets\":[", f);
		for (i = 0; u->buckets && i < su->n_buckets; i++) {
			const struct su_bucket *k = &u->buckets[i];
			uint64_t span = su->w1 - su->w0;

			fprintf(f, "%s{", i ? "," : "");
			fprintf(f, "\"from_ns\":%llu", (unsigned long long)
				(su->w0 - su->t0 +
				 span * (unsigned __int128)i / su->n_buckets));
			json_u64(f, "busy_ns", k->busy);
			if (k->top != SU_NONE) {
				fprintf(f, ",\"top_pid\":%d,\"top_name\":",
					su->procs[k->top].pid);
				json_str(f, su_proc_name(su, k->top));
				json_u64(f, "top_ns", k->top_ns);
			}
			putc('}', f);
		}
		fputs("]}", f);
	}
	putc(']', f);
}

void su_print_json(FILE *f, const struct startup *su)
{
	uint32_t i;

	fprintf(f, "{\"first_event_ns\":%llu", (unsigned long long)su->t0);
	json_u64(f, "span_ns", su->t1 - su->t0);
	fprintf(f, ",\"sched_recorded\":%s", su->sched_recorded ? "true" : "false");
	json_targets(f, su);
	fputs(",\"markers\":[", f);
	for (i = 0; i < su->n_marks; i++) {
		fprintf(f, "%s{\"cpu\":%u", i ? "," : "", su->marks[i].cpu);
		json_pid(f, su->marks[i].pid);
		json_u64(f, "offset_ns", su->marks[i].ts - su->t0);
		fputs(",\"event\":", f);
		json_str(f, su->marks[i].event);
		fputs(",\"text\":", f);
		json_str(f, su->marks[i].text);
		putc('}', f);
	}
	putc(']', f);
	json_execs(f, su);
	json_procs(f, su);
	json_cpus(f, su);
	fputs(",\"lost\":{", f);
	fprintf(f, "\"events\":%llu", (unsigned long long)su->lost_events);
	json_u64(f, "packets", su->lost_packets);
	fputs(",\"ranges\":[", f);
	for (i = 0; i < su->n_lost; i++) {
		const struct su_lost *l = &su->lost[i];

		fprintf(f, "%s{\"cpu\":%u", i ? "," : "", l->cpu);
		json_u64(f, "from_ns", off(su, l->t0));
		json_u64(f, "to_ns", off(su, l->t1));
		json_u64(f, "events", l->events);
		json_u64(f, "packets", l->packets);
		putc('}', f);
	}
	fputs("]}}", f);
}
