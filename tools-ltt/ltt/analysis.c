// SPDX-License-Identifier: GPL-2.0
/*
 * The analyses behind `ltt stats`: counts per event type, syscalls by
 * number and by task, time per syscall of one task, CPU time per task,
 * lost events.  One pass, no allocation per event.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

static int field_of(const struct ltt_registry *reg, int id, const char *name)
{
	int f;

	if (id < 0)
		return -1;
	f = ltt_event_field_index(&reg->events[id], name);
	if (f >= 0 && reg->events[id].fields[f].type == LTT_TYPE_STRING)
		return -1;
	return f;
}

int stats_init(struct stats *st, const struct ltt_registry *reg, int32_t pid)
{
	memset(st, 0, sizeof(*st));
	st->reg = reg;
	st->id_entry = ltt_registry_find(reg, "syscall_entry");
	st->id_exit = ltt_registry_find(reg, "syscall_exit");
	st->id_sched = ltt_registry_find(reg, "sched_change");
	st->f_entry_id = field_of(reg, st->id_entry, "id");
	st->f_sched_in = field_of(reg, st->id_sched, "in");
	if (st->f_entry_id < 0)
		st->id_entry = -1;
	if (st->f_sched_in < 0)
		st->id_sched = -1;
	st->per_event = calloc(reg->n_events ? reg->n_events : 1,
			       sizeof(*st->per_event));
	st->hash_size = 1024;
	st->hash = calloc(st->hash_size, sizeof(*st->hash));
	if (!st->per_event || !st->hash ||
	    cpu_time_init(&st->cpu_time, reg))
		return -1;
	st->track_pid = pid >= 0;
	st->pid = pid;
	return 0;
}

/* The row of group @g, made with those before it; NULL without memory. */
static struct stats_group *stats_group_row(struct stats *st, uint32_t g)
{
	return containers_row((void **)&st->groups, &st->cap_groups,
			      sizeof(*st->groups), g);
}

/* cputime.h's credit: the run's time to its container, if selected. */
static bool stats_credit(void *ctx, int32_t pid, uint64_t ns)
{
	struct stats *st = ctx;
	struct stats_group *g;

	if (st->select && !containers_selected(st->select, pid))
		return false;
	if (st->cg && pid) {
		g = stats_group_row(st, containers_group(st->cg, pid));
		if (g)
			g->cpu_ns += ns;
	}
	return true;
}

int stats_attach(struct stats *st, const struct ltt_trace *t,
		 struct containers *select)
{
	st->trace = t;
	st->select = select;
	st->cg = malloc(sizeof(*st->cg));
	if (!st->cg || containers_init(st->cg, t, NULL)) {
		free(st->cg);
		st->cg = NULL;
		return -1;
	}
	st->id_read = ltt_registry_find(st->reg, "fs_read");
	st->id_write = ltt_registry_find(st->reg, "fs_write");
	st->f_read_bytes = field_of(st->reg, st->id_read, "bytes");
	st->f_write_bytes = field_of(st->reg, st->id_write, "bytes");
	if (st->f_read_bytes < 0)
		st->id_read = -1;
	if (st->f_write_bytes < 0)
		st->id_write = -1;
	st->cpu_time.credit = stats_credit;
	st->cpu_time.credit_ctx = st;
	return 0;
}

void stats_skip(struct stats *st, const struct ltt_item *it)
{
	cpu_time_skip(&st->cpu_time, it);
	if (it->kind == LTT_ITEM_EVENT && (int)it->desc->id == st->id_sched &&
	    it->cpu < STATS_CPUS)
		st->cpu[it->cpu].proc = 0;
}

void stats_add_item_io(struct stats *st, struct stats_group *g,
		       const struct ltt_item *it)
{
	int64_t bytes;

	if ((int)it->desc->id == st->id_read) {
		bytes = ltt_item_int(it, st->f_read_bytes);
		g->read_bytes += bytes > 0 ? bytes : 0;
	} else {
		bytes = ltt_item_int(it, st->f_write_bytes);
		g->write_bytes += bytes > 0 ? bytes : 0;
	}
}

/* Task @p's container now, its group row made. */
static struct stats_group *stats_group_of(struct stats *st, struct proc *p)
{
	uint32_t g = containers_group(st->cg, p->pid);
	struct stats_group *row = stats_group_row(st, g);

	if (!row)
		return NULL;
	p->group = g;
	p->group_serial = ltt_trace_cgroup_serial(st->trace);
	return row;
}

void stats_free(struct stats *st)
{
	if (st->cg)
		containers_free(st->cg);
	free(st->cg);
	free(st->groups);
	free(st->per_event);
	free(st->procs);
	free(st->hash);
	cpu_time_free(&st->cpu_time);
	memset(st, 0, sizeof(*st));
}

static uint32_t pid_hash(int32_t pid, uint32_t size)
{
	return ((uint32_t)pid * 2654435761U) & (size - 1);
}

static int stats_rehash(struct stats *st)
{
	uint32_t size = st->hash_size * 2, i, h;
	uint32_t *hash = calloc(size, sizeof(*hash));

	if (!hash)
		return -1;
	for (i = 0; i < st->n_procs; i++) {
		for (h = pid_hash(st->procs[i].pid, size); hash[h];
		     h = (h + 1) & (size - 1))
			;
		hash[h] = i + 1;
	}
	free(st->hash);
	st->hash = hash;
	st->hash_size = size;
	return 0;
}

/* The index of task @pid, added if new; UINT32_MAX without memory. */
static uint32_t stats_proc_index(struct stats *st, int32_t pid)
{
	uint32_t h, mask = st->hash_size - 1;

	for (h = pid_hash(pid, st->hash_size); st->hash[h]; h = (h + 1) & mask)
		if (st->procs[st->hash[h] - 1].pid == pid)
			return st->hash[h] - 1;
	if (st->n_procs == st->cap_procs) {
		uint32_t cap = st->cap_procs ? 2 * st->cap_procs : 256;
		struct proc *p = realloc(st->procs, cap * sizeof(*p));

		if (!p)
			return UINT32_MAX;
		st->procs = p;
		st->cap_procs = cap;
	}
	memset(&st->procs[st->n_procs], 0, sizeof(st->procs[0]));
	st->procs[st->n_procs].pid = pid;
	st->procs[st->n_procs].group_serial = UINT64_MAX;	/* none yet */
	st->hash[h] = ++st->n_procs;
	if (2 * st->n_procs > st->hash_size && stats_rehash(st))
		return UINT32_MAX;
	return st->n_procs - 1;
}

const struct proc *stats_proc(const struct stats *st, int32_t pid)
{
	uint32_t h, mask = st->hash_size - 1;

	for (h = pid_hash(pid, st->hash_size); st->hash[h]; h = (h + 1) & mask)
		if (st->procs[st->hash[h] - 1].pid == pid)
			return &st->procs[st->hash[h] - 1];
	return NULL;
}

/* The running task of @c, through a one-entry cache per CPU. */
static struct proc *stats_running(struct stats *st, struct stats_cpu *c,
				  int32_t pid)
{
	if (c->proc_pid != pid || !c->proc) {
		uint32_t i = stats_proc_index(st, pid);

		if (i == UINT32_MAX)
			return NULL;
		c->proc = i + 1;
		c->proc_pid = pid;
	}
	return &st->procs[c->proc - 1];
}

static void stats_syscall_time(struct stats *st, const struct ltt_item *it,
			       bool entry)
{
	struct syscall_time *t;
	uint64_t d;

	if (it->pid != st->pid)
		return;
	if (entry) {
		if (st->pending)
			st->unfinished++;
		st->pending = true;
		st->pending_nr = ltt_item_raw(it, st->f_entry_id) -
				 st->syscall_base;
		st->pending_ts = it->ts;
		return;
	}
	if (!st->pending)
		return;
	st->pending = false;
	if (st->pending_nr >= STATS_SYSCALLS)
		return;
	t = &st->times[st->pending_nr];
	d = it->ts - st->pending_ts;
	if (!t->count || d < t->min_ns)
		t->min_ns = d;
	if (d > t->max_ns)
		t->max_ns = d;
	t->count++;
	t->total_ns += d;
}

static void stats_lost(struct stats *st, const struct ltt_item *it)
{
	st->lost_events += it->lost_events;
	st->lost_packets += it->lost_packets;
	if (it->cpu < STATS_CPUS) {
		st->cpu[it->cpu].lost_events += it->lost_events;
		st->cpu[it->cpu].lost_packets += it->lost_packets;
		st->cpu[it->cpu].proc = 0;	/* cpu_time_add() its next event */
		if (it->cpu >= st->max_cpu)
			st->max_cpu = it->cpu + 1;
	}
}

void stats_add_item(struct stats *st, const struct ltt_item *it)
{
	struct stats_cpu *c;
	struct proc *p;
	int id;

	cpu_time_add(&st->cpu_time, it);
	if (it->kind == LTT_ITEM_LOST) {
		stats_lost(st, it);
		return;
	}
	if (!st->events)
		st->first_ts = it->ts;

	st->events++;
	st->last_ts = it->ts;
	id = it->desc->id;
	st->per_event[id]++;
	if (it->cpu >= STATS_CPUS)
		return;
	c = &st->cpu[it->cpu];
	if (!c->seen) {
		c->seen = true;
		if (it->cpu >= st->max_cpu)
			st->max_cpu = it->cpu + 1;
	}
	c->last_ts = it->ts;
	p = stats_running(st, c, it->pid);
	if (p)
		p->events++;
	if (p && st->cg) {
		struct stats_group *g = stats_group_of(st, p);

		if (g) {
			g->events++;
			g->syscalls += id == st->id_entry;
			if (id == st->id_read || id == st->id_write)
				stats_add_item_io(st, g, it);
		}
	}

	if (id == st->id_entry) {
		uint64_t nr = ltt_item_raw(it, st->f_entry_id) -
			      st->syscall_base;

		if (nr < STATS_SYSCALLS)
			st->syscalls[nr]++;
		else
			st->syscalls_other++;
		if (p)
			p->syscalls++;
		if (st->track_pid)
			stats_syscall_time(st, it, true);
	} else if (id == st->id_exit) {
		if (st->track_pid)
			stats_syscall_time(st, it, false);
	} else if (id == st->id_sched) {
		c->proc = 0;	/* the next event goes to cpu_time_add() */
	}
}

void stats_finish(struct stats *st)
{
	const struct cpu_time *ct = &st->cpu_time;
	uint32_t i, k;

	cpu_time_finish(&st->cpu_time);
	for (i = 0; i < ct->n_slots; i++) {
		if (!ct->tasks[i].used ||
		    (k = stats_proc_index(st, ct->tasks[i].pid)) == UINT32_MAX)
			continue;
		st->procs[k].cpu_ns = ct->tasks[i].ns;
	}
	if (st->pending)
		st->unfinished++;
	st->pending = false;
}
