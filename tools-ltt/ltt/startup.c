// SPDX-License-Identifier: GPL-2.0
/*
 * The start-up analysis (startup.h): processes and execs from the
 * process events, CPU time from sched_change, cut into stretches that
 * each belong to one exec, then summed per CPU by sorting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "startup.h"

/* Grow the array *@v of *@cap elements of @size to hold @n + 1. */
static int grow(void *v, uint32_t n, uint32_t *cap, size_t size)
{
	void **p = v, *nv;
	uint32_t c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 64;
	nv = realloc(*p, (size_t)c * size);
	if (!nv)
		return -1;
	*p = nv;
	*cap = c;
	return 0;
}

int su_init(struct startup *su, const struct ltt_trace *t,
	    const char *const *targets, unsigned int n)
{
	const struct ltt_registry *reg = ltt_trace_registry(t);
	unsigned int i;

	memset(su, 0, sizeof(*su));
	su->trace = t;
	su->id_fork = ltt_registry_find(reg, "process_fork");
	su->id_exec = ltt_registry_find(reg, "process_exec");
	su->id_exit = ltt_registry_find(reg, "process_exit");
	su->id_sched = ltt_registry_find(reg, "sched_change");
	su->id_dump = ltt_registry_find(reg, "statedump_process");
	if (n > SU_TARGETS)
		n = SU_TARGETS;
	for (i = 0; i < n; i++)
		su->targets[i].name = targets[i];
	su->n_targets = n;
	su->task_size = 1024;
	su->task_pid = malloc(su->task_size * sizeof(*su->task_pid));
	su->task_proc = malloc(su->task_size * sizeof(*su->task_proc));
	if (!su->task_pid || !su->task_proc)
		return -1;
	for (i = 0; i < su->task_size; i++)
		su->task_pid[i] = -1;
	return 0;
}

/* ---- tasks: pid -> process ---------------------------------------- */

/* The slot of @pid in the task table, or the empty one it would take. */
static uint32_t task_slot(const struct startup *su, int32_t pid)
{
	uint32_t h = (uint32_t)pid * 2654435761u, mask = su->task_size - 1;

	for (h &= mask; su->task_pid[h] != -1 && su->task_pid[h] != pid;
	     h = (h + 1) & mask)
		;
	return h;
}

/* The process of task @pid, or SU_NONE. */
static uint32_t task_proc(const struct startup *su, int32_t pid)
{
	uint32_t h = task_slot(su, pid);

	return su->task_pid[h] == pid ? su->task_proc[h] : SU_NONE;
}

/* Task @pid is of process @proc from now on (the table grows at half full). */
static int task_set(struct startup *su, int32_t pid, uint32_t proc)
{
	uint32_t h, i;

	if (2 * (su->n_task + 1) > su->task_size) {
		int32_t *op = su->task_pid;
		uint32_t *oq = su->task_proc, osize = su->task_size;

		su->task_size *= 2;
		su->task_pid = malloc(su->task_size * sizeof(*su->task_pid));
		su->task_proc = malloc(su->task_size * sizeof(*su->task_proc));
		if (!su->task_pid || !su->task_proc) {
			free(su->task_pid);
			free(su->task_proc);
			su->task_pid = op;
			su->task_proc = oq;
			su->task_size = osize;
			return -1;
		}
		for (i = 0; i < su->task_size; i++)
			su->task_pid[i] = -1;
		su->n_task = 0;
		for (i = 0; i < osize; i++) {
			if (op[i] == -1)
				continue;
			h = task_slot(su, op[i]);
			su->task_pid[h] = op[i];
			su->task_proc[h] = oq[i];
			su->n_task++;
		}
		free(op);
		free(oq);
	}
	h = task_slot(su, pid);
	if (su->task_pid[h] != pid)
		su->n_task++;
	su->task_pid[h] = pid;
	su->task_proc[h] = proc;
	return 0;
}

/* Forget @pid (exited): open addressing, so the cluster is put back. */
static void task_forget(struct startup *su, int32_t pid)
{
	uint32_t mask = su->task_size - 1, h = task_slot(su, pid), j;

	if (su->task_pid[h] != pid)
		return;
	su->task_pid[h] = -1;
	su->n_task--;
	for (j = (h + 1) & mask; su->task_pid[j] != -1; j = (j + 1) & mask) {
		int32_t p = su->task_pid[j];
		uint32_t q = su->task_proc[j];

		su->task_pid[j] = -1;
		su->n_task--;
		if (task_set(su, p, q))
			su->failed = true;	/* cannot happen: no growth */
	}
}

/* A process seen first at @ts (a fork, or any event of it). */
static uint32_t new_proc(struct startup *su, int32_t pid, uint64_t ts,
			 const char *comm)
{
	struct su_proc *p;

	if (grow(&su->procs, su->n_procs, &su->cap_procs, sizeof(*p)))
		return SU_NONE;
	p = &su->procs[su->n_procs];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->parent = p->parent_exec = SU_NONE;
	p->first_exec = p->last_exec = SU_NONE;
	p->t0 = ts;
	snprintf(p->comm, sizeof(p->comm), "%s", comm ? comm : "?");
	if (task_set(su, pid, su->n_procs))
		return SU_NONE;
	return su->n_procs++;
}

/* The process of task @pid, made when the trace did not show it yet. */
static uint32_t proc_of(struct startup *su, int32_t pid, uint64_t ts)
{
	uint32_t p = task_proc(su, pid);

	if (p != SU_NONE)
		return p;
	p = new_proc(su, pid, ts, ltt_trace_comm(su->trace, pid));
	if (p == SU_NONE)
		su->failed = true;
	return p;
}

/* ---- CPU time ----------------------------------------------------- */

/* What @cpu ran since the last charge, up to @ts, to its exec. */
static void charge(struct startup *su, uint32_t cpu, uint64_t ts)
{
	struct su_cpu *c = &su->cpu[cpu];
	struct su_proc *p;
	struct su_run *r;

	if (!c->known || c->proc == SU_NONE || ts <= c->since) {
		c->since = ts > c->since ? ts : c->since;
		return;
	}
	p = &su->procs[c->proc];
	p->cpu_ns += ts - c->since;
	if (p->last_exec != SU_NONE)
		su->execs[p->last_exec].cpu_ns += ts - c->since;
	if (grow(&su->runs, su->n_runs, &su->cap_runs, sizeof(*r))) {
		su->failed = true;
	} else {
		r = &su->runs[su->n_runs++];
		r->t0 = c->since;
		r->t1 = ts;
		r->proc = c->proc;
		r->cpu = cpu;
	}
	c->since = ts;
}

/* @cpu runs @pid from @ts on (0: idle, which counts for nobody). */
static void run_on(struct startup *su, uint32_t cpu, int32_t pid, uint64_t ts)
{
	struct su_cpu *c = &su->cpu[cpu];

	c->known = true;
	c->since = ts;
	c->proc = pid > 0 ? proc_of(su, pid, ts) : SU_NONE;
}

/* ---- events ------------------------------------------------------- */

const char *su_proc_name(const struct startup *su, uint32_t proc)
{
	const struct su_proc *p = &su->procs[proc];

	return p->last_exec != SU_NONE ? su->execs[p->last_exec].name : p->comm;
}

bool su_exec_matches(const char *target, const char *path)
{
	const char *base = strrchr(path, '/');

	if (strchr(target, '/'))
		return !strcmp(target, path);
	return !strcmp(target, base ? base + 1 : path);
}

/* The targets not found yet that an exec (@path) or a marker matches. */
static void found(struct startup *su, uint8_t kind, uint64_t ts,
		  uint32_t index, const char *path, const char *event,
		  const char *text)
{
	unsigned int i;

	for (i = 0; i < su->n_targets; i++) {
		struct su_target *g = &su->targets[i];

		if (g->found)
			continue;
		if (kind == SU_EXEC ? !su_exec_matches(g->name, path) :
		    strcmp(g->name, event) && !strstr(text, g->name))
			continue;
		g->found = kind;
		g->ts = ts;
		g->index = index;
		g->lost_before = su->lost_events;
	}
}

static void on_fork(struct startup *su, const struct ltt_item *it)
{
	uint32_t parent = it->pid > 0 ? proc_of(su, it->pid, it->ts) : SU_NONE;
	uint32_t child;
	int64_t pid, tgid;
	struct su_proc *c, *pp;

	if (ltt_item_field(it, "child", &pid) < 0 ||
	    ltt_item_field(it, "child_tgid", &tgid) < 0)
		return;
	if (pid != tgid) {			/* a thread of process tgid */
		child = task_proc(su, (int32_t)tgid);
		if (child == SU_NONE)
			child = parent;		/* CLONE_THREAD: the parent's */
		if (child != SU_NONE && task_set(su, (int32_t)pid, child))
			su->failed = true;
		return;
	}
	child = new_proc(su, (int32_t)pid, it->ts, parent == SU_NONE ? NULL :
			 su_proc_name(su, parent));
	if (child == SU_NONE) {
		su->failed = true;
		return;
	}
	c = &su->procs[child];
	c->forked = true;
	if (parent == SU_NONE)
		return;
	pp = &su->procs[parent];
	c->parent = parent;
	c->parent_exec = pp->last_exec;
	pp->children++;
	if (pp->last_exec != SU_NONE)
		su->execs[pp->last_exec].children++;
}

static void on_exec(struct startup *su, const struct ltt_item *it)
{
	const char *path = ltt_item_string(it), *base;
	uint32_t proc;
	struct su_exec *e;
	struct su_proc *p;
	int64_t pid;

	if (ltt_item_field(it, "pid", &pid) < 0)
		pid = it->pid;
	proc = proc_of(su, (int32_t)pid, it->ts);
	if (proc == SU_NONE)
		return;
	/* the old image's time up to here, whichever CPU runs it */
	if (it->cpu < SU_CPUS)
		charge(su, it->cpu, it->ts);
	if (grow(&su->execs, su->n_execs, &su->cap_execs, sizeof(*e))) {
		su->failed = true;
		return;
	}
	p = &su->procs[proc];
	if (p->last_exec != SU_NONE) {
		su->execs[p->last_exec].t1 = it->ts;
		su->execs[p->last_exec].end = SU_REPLACED;
		su->execs[p->last_exec].next = su->n_execs;
	}
	e = &su->execs[su->n_execs];
	memset(e, 0, sizeof(*e));
	e->next = SU_NONE;
	e->proc = proc;
	e->t0 = e->t1 = it->ts;
	e->path = strdup(path);
	if (!e->path) {
		su->failed = true;
		return;
	}
	base = strrchr(e->path, '/');
	e->name = base && base[1] ? base + 1 : e->path;
	if (p->first_exec == SU_NONE)
		p->first_exec = su->n_execs;
	p->last_exec = su->n_execs++;
	found(su, SU_EXEC, it->ts, p->last_exec, e->path, NULL, NULL);
}

static void on_exit_proc(struct startup *su, const struct ltt_item *it)
{
	int64_t pid, code = 0;
	uint32_t proc;
	struct su_proc *p;

	if (ltt_item_field(it, "pid", &pid) < 0)
		return;
	ltt_item_field(it, "code", &code);
	proc = task_proc(su, (int32_t)pid);
	if (proc == SU_NONE)
		return;
	p = &su->procs[proc];
	if (p->pid == pid) {			/* the process, not a thread */
		if (it->cpu < SU_CPUS)
			charge(su, it->cpu, it->ts);
		p->exited = true;
		p->t1 = it->ts;
		p->code = (int32_t)code;
		if (p->last_exec != SU_NONE) {
			su->execs[p->last_exec].t1 = it->ts;
			su->execs[p->last_exec].end = SU_EXITED;
			su->execs[p->last_exec].code = (int32_t)code;
		}
	}
	task_forget(su, (int32_t)pid);
}

static void on_sched(struct startup *su, const struct ltt_item *it)
{
	int64_t in;

	if (ltt_item_field(it, "in", &in) < 0 || it->cpu >= SU_CPUS)
		return;
	su->sched_changes++;
	su->sched_recorded = true;
	charge(su, it->cpu, it->ts);
	run_on(su, it->cpu, (int32_t)in, it->ts);
}

static void on_dump(struct startup *su, const struct ltt_item *it)
{
	int64_t pid, tgid, ppid;
	uint32_t proc, parent;

	if (ltt_item_field(it, "pid", &pid) < 0 ||
	    ltt_item_field(it, "tgid", &tgid) < 0 ||
	    ltt_item_field(it, "ppid", &ppid) < 0)
		return;
	if (task_proc(su, (int32_t)pid) != SU_NONE)
		return;
	proc = task_proc(su, (int32_t)tgid);
	if (proc == SU_NONE) {
		proc = new_proc(su, (int32_t)tgid, it->ts, ltt_item_string(it));
		if (proc == SU_NONE) {
			su->failed = true;
			return;
		}
		parent = task_proc(su, (int32_t)ppid);
		if (parent != SU_NONE && parent != proc) {
			su->procs[proc].parent = parent;
			su->procs[parent].children++;
		}
	}
	if (pid != tgid && task_set(su, (int32_t)pid, proc))
		su->failed = true;
}

static void on_mark(struct startup *su, const struct ltt_item *it)
{
	struct su_mark *m;

	if (grow(&su->marks, su->n_marks, &su->cap_marks, sizeof(*m))) {
		su->failed = true;
		return;
	}
	m = &su->marks[su->n_marks];
	m->ts = it->ts;
	m->cpu = it->cpu;
	m->pid = it->pid;
	m->event = strdup(it->desc->name);
	m->text = strdup(ltt_item_string(it));
	if (!m->event || !m->text) {
		free(m->event);
		free(m->text);
		su->failed = true;
		return;
	}
	su->n_marks++;
	found(su, SU_MARK, it->ts, su->n_marks - 1, NULL, m->event, m->text);
}

static void on_lost(struct startup *su, const struct ltt_item *it)
{
	struct su_lost *l;

	if (it->cpu < SU_CPUS) {
		charge(su, it->cpu, it->lost_from);
		su->cpu[it->cpu].known = false;
	}
	su->lost_events += it->lost_events;
	su->lost_packets += it->lost_packets;
	if (grow(&su->lost, su->n_lost, &su->cap_lost, sizeof(*l))) {
		su->failed = true;
		return;
	}
	l = &su->lost[su->n_lost++];
	l->cpu = it->cpu;
	l->t0 = it->lost_from;
	l->t1 = it->ts;
	l->events = it->lost_events;
	l->packets = it->lost_packets;
}

void su_add(struct startup *su, const struct ltt_item *it)
{
	struct su_cpu *c = it->cpu < SU_CPUS ? &su->cpu[it->cpu] : NULL;
	int id;

	if (!su->events && !su->n_lost)
		su->t0 = it->ts;
	su->t1 = it->ts > su->t1 ? it->ts : su->t1;
	if (c && it->cpu >= su->n_cpus)
		su->n_cpus = it->cpu + 1;
	if (it->kind == LTT_ITEM_LOST) {
		if (c)
			c->last_ts = it->ts;
		on_lost(su, it);
		return;
	}
	su->events++;
	if (c) {
		if (!c->seen) {
			c->seen = true;
			run_on(su, it->cpu, it->pid, it->ts);
		}
		c->last_ts = it->ts;
	}
	id = it->desc->id;
	if (id == su->id_fork)
		on_fork(su, it);
	else if (id == su->id_exec)
		on_exec(su, it);
	else if (id == su->id_exit)
		on_exit_proc(su, it);
	else if (id == su->id_sched)
		on_sched(su, it);
	else if (id == su->id_dump)
		on_dump(su, it);
	else if (it->desc->custom)
		on_mark(su, it);
}

/* ---- after the pass ----------------------------------------------- */

struct key_ns {
	uint32_t cpu, bucket, proc;
	uint64_t ns;
};

static int key_cmp(const void *a, const void *b)
{
	const struct key_ns *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	return x->proc < y->proc ? -1 : x->proc > y->proc;
}

static int use_cmp(const void *a, const void *b)
{
	const struct su_use *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->proc < y->proc ? -1 : x->proc > y->proc;
}

/*
 * Sum @n (cpu, bucket, proc, ns) keys by (cpu, bucket, proc) in place;
 * returns the number of sums.
 */
static size_t sum_keys(struct key_ns *k, size_t n)
{
	size_t i, out = 0;

	qsort(k, n, sizeof(*k), key_cmp);
	for (i = 0; i < n; i++) {
		if (out && !key_cmp(&k[out - 1], &k[i]))
			k[out - 1].ns += k[i].ns;
		else
			k[out++] = k[i];
	}
	return out;
}

/* Where bucket @k of the window starts (k = n_buckets: the window's end). */
static uint64_t bucket_start(const struct startup *su, uint32_t k)
{
	if (k >= su->n_buckets)
		return su->w1;
	return su->w0 + (su->w1 - su->w0) * (unsigned __int128)k / su->n_buckets;
}

/* A bucket that @ts is in or after: bucket_start() of it is <= @ts. */
static uint32_t bucket_of(const struct startup *su, uint64_t ts)
{
	uint64_t span = su->w1 - su->w0;
	uint64_t b = span ? (ts - su->w0) * (unsigned __int128)su->n_buckets /
			    span : 0;

	return b < su->n_buckets ? (uint32_t)b : su->n_buckets - 1;
}

/* Each CPU's time per process in the window, whole and per bucket. */
static int cpu_use(struct startup *su)
{
	struct key_ns *whole = malloc((su->n_runs + 1) * sizeof(*whole));
	struct key_ns *part = NULL;
	size_t nw = 0, np = 0, cap = su->n_runs + 1, i;
	uint32_t c;
	int ret = -1;

	part = malloc(cap * sizeof(*part));
	if (!whole || !part)
		goto out;
	for (i = 0; i < su->n_runs; i++) {
		const struct su_run *r = &su->runs[i];
		uint64_t a = r->t0 > su->w0 ? r->t0 : su->w0;
		uint64_t b = r->t1 < su->w1 ? r->t1 : su->w1;
		uint32_t k;

		if (a >= b)
			continue;
		whole[nw++] = (struct key_ns){ r->cpu, 0, r->proc, b - a };
		/* a stretch across buckets counts in each */
		for (k = bucket_of(su, a); a < b && k < su->n_buckets; k++) {
			uint64_t end = bucket_start(su, k + 1);
			uint64_t e = end < b ? end : b;

			if (e <= a)		/* rounding: a is past bucket k */
				continue;
			if (np == cap) {
				struct key_ns *n2 = realloc(part, 2 * cap * sizeof(*n2));

				if (!n2)
					goto out;
				part = n2;
				cap *= 2;
			}
			part[np++] = (struct key_ns){ r->cpu, k, r->proc, e - a };
			a = e;
		}
	}
	nw = sum_keys(whole, nw);
	np = sum_keys(part, np);
	for (c = 0; c < su->n_cpus; c++) {
		su->cpus[c].buckets = calloc(su->n_buckets,
					     sizeof(*su->cpus[c].buckets));
		if (!su->cpus[c].buckets)
			goto out;
		for (i = 0; i < su->n_buckets; i++)
			su->cpus[c].buckets[i].top = SU_NONE;
	}
	for (i = 0; i < nw; i++) {
		struct su_cpu_use *u = &su->cpus[whole[i].cpu];

		if (!u->use) {
			size_t j, n = 0;

			for (j = i; j < nw && whole[j].cpu == whole[i].cpu; j++)
				n++;
			u->use = calloc(n, sizeof(*u->use));
			if (!u->use)
				goto out;
		}
		u->use[u->n_use++] = (struct su_use){ whole[i].proc, whole[i].ns };
		u->busy += whole[i].ns;
	}
	for (c = 0; c < su->n_cpus; c++)
		if (su->cpus[c].use)
			qsort(su->cpus[c].use, su->cpus[c].n_use,
			      sizeof(*su->cpus[c].use), use_cmp);
	for (i = 0; i < np; i++) {
		struct su_bucket *b = &su->cpus[part[i].cpu].buckets[part[i].bucket];

		b->busy += part[i].ns;
		if (part[i].ns > b->top_ns) {
			b->top_ns = part[i].ns;
			b->top = part[i].proc;
		}
	}
	ret = 0;
out:
	free(whole);
	free(part);
	return ret;
}

int su_finish(struct startup *su, unsigned int buckets)
{
	uint32_t i, c;
	bool any;

	for (c = 0; c < su->n_cpus; c++)
		if (su->cpu[c].seen)
			charge(su, c, su->cpu[c].last_ts);
	for (i = 0; i < su->n_execs; i++) {
		if (su->execs[i].end == SU_RUNNING)
			su->execs[i].t1 = su->t1;
		if (!su->sched_recorded)
			su->execs[i].cpu_ns = 0;
	}
	/*
	 * Without sched_change, who ran is not known: no CPU time, and an
	 * event's task is the one that opened its packet, so neither who
	 * forked (process_fork does not name its parent) nor who logged.
	 */
	if (!su->sched_recorded) {
		for (i = 0; i < su->n_procs; i++) {
			su->procs[i].cpu_ns = 0;
			su->procs[i].parent = su->procs[i].parent_exec = SU_NONE;
			su->procs[i].children = 0;
		}
		for (i = 0; i < su->n_execs; i++)
			su->execs[i].children = 0;
		for (i = 0; i < su->n_marks; i++)
			su->marks[i].pid = -1;
		su->n_runs = 0;
	}
	for (i = 0; i < su->n_procs; i++) {
		struct su_proc *p = &su->procs[i];
		uint32_t up, depth;

		if (!p->exited)
			p->t1 = su->t1;
		/* a name the trace told later (a state dump, an exec's) */
		if (!strcmp(p->comm, "?") && ltt_trace_comm(su->trace, p->pid))
			snprintf(p->comm, sizeof(p->comm), "%s",
				 ltt_trace_comm(su->trace, p->pid));
		p->tree_cpu_ns += p->cpu_ns;
		/* up the tree; a parent made after its child (state dump) too */
		for (up = p->parent, depth = 0; up != SU_NONE && depth < su->n_procs;
		     up = su->procs[up].parent, depth++)
			su->procs[up].tree_cpu_ns += p->cpu_ns;
	}
	/* the window: to the latest target found */
	su->w0 = su->t0;
	su->w1 = su->t1;
	for (i = 0, any = false; i < su->n_targets; i++) {
		if (!su->targets[i].found)
			continue;
		if (!any || su->targets[i].ts > su->w1)
			su->w1 = su->targets[i].ts;
		any = true;
	}
	su->n_buckets = buckets ? buckets : 1;
	if (su->n_cpus && cpu_use(su))
		su->failed = true;
	return su->failed ? -1 : 0;
}

void su_free(struct startup *su)
{
	uint32_t i;

	for (i = 0; i < su->n_execs; i++)
		free(su->execs[i].path);
	for (i = 0; i < su->n_marks; i++) {
		free(su->marks[i].event);
		free(su->marks[i].text);
	}
	for (i = 0; i < SU_CPUS; i++) {
		free(su->cpus[i].use);
		free(su->cpus[i].buckets);
	}
	free(su->execs);
	free(su->procs);
	free(su->marks);
	free(su->lost);
	free(su->runs);
	free(su->task_pid);
	free(su->task_proc);
	memset(su, 0, sizeof(*su));
}
