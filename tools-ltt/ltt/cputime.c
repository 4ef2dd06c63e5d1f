// SPDX-License-Identifier: GPL-2.0
/*
 * CPU time per task, for ltt stats and ltt analyze (cputime.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cputime.h"

int cpu_time_init(struct cpu_time *ct, const struct ltt_registry *reg)
{
	memset(ct, 0, sizeof(*ct));
	ct->id_sched = ltt_registry_find(reg, "sched_change");
	ct->f_in = ct->id_sched < 0 ? -1 :
		ltt_event_field_index(&reg->events[ct->id_sched], "in");
	if (ct->f_in < 0)
		ct->id_sched = -1;
	ct->n_slots = 256;
	ct->tasks = calloc(ct->n_slots, sizeof(*ct->tasks));
	return ct->tasks ? 0 : -1;
}

void cpu_time_free(struct cpu_time *ct)
{
	free(ct->tasks);
	ct->tasks = NULL;
}

static uint32_t slot_of(int32_t pid, uint32_t n)
{
	return ((uint32_t)pid * 2654435761U) & (n - 1);
}

/* The task @pid's entry, made if new; NULL without memory. */
static struct cpu_time_task *task_of(struct cpu_time *ct, int32_t pid)
{
	uint32_t h;

	for (h = slot_of(pid, ct->n_slots); ct->tasks[h].used;
	     h = (h + 1) & (ct->n_slots - 1))
		if (ct->tasks[h].pid == pid)
			return &ct->tasks[h];
	if (2 * (ct->n_tasks + 1) > ct->n_slots) {
		uint32_t n = 2 * ct->n_slots, i, g;
		struct cpu_time_task *t = calloc(n, sizeof(*t));

		if (!t)
			return NULL;
		for (i = 0; i < ct->n_slots; i++) {
			if (!ct->tasks[i].used)
				continue;
			for (g = slot_of(ct->tasks[i].pid, n); t[g].used;
			     g = (g + 1) & (n - 1))
				;
			t[g] = ct->tasks[i];
		}
		free(ct->tasks);
		ct->tasks = t;
		ct->n_slots = n;
		return task_of(ct, pid);
	}
	ct->n_tasks++;
	ct->tasks[h].used = true;
	ct->tasks[h].pid = pid;
	return &ct->tasks[h];
}

/* The run open on @cpu ends at @ts. */
static void run_end(struct cpu_time *ct, unsigned int cpu, uint64_t ts)
{
	struct cpu_time_cpu *c = &ct->cpu[cpu];
	struct cpu_time_task *k;

	if (!c->seen || ts <= c->since)
		return;
	if (ct->credit && !ct->credit(ct->credit_ctx, c->pid, ts - c->since)) {
		c->since = ts;
		return;
	}
	k = task_of(ct, c->pid);
	if (!k) {
		ct->failed = true;
		return;
	}
	k->ns += ts - c->since;
	if (c->pid)
		ct->busy[cpu] += ts - c->since;
	c->since = ts;
}

void cpu_time_add(struct cpu_time *ct, const struct ltt_item *it)
{
	struct cpu_time_cpu *c;

	if (it->cpu >= CPU_TIME_CPUS)
		return;
	c = &ct->cpu[it->cpu];
	if (it->kind == LTT_ITEM_LOST) {
		/* what ran before the range ran until it, as far as we know */
		run_end(ct, it->cpu, it->lost_from > c->since ? it->lost_from :
			c->since);
		c->seen = false;
		return;
	}
	if (it->cpu >= ct->n_cpus)
		ct->n_cpus = it->cpu + 1;
	c->last_ts = it->ts;
	if (!c->seen) {
		c->seen = true;
		c->pid = it->pid;
		c->since = it->ts;
	} else if (it->pid != c->pid) {
		run_end(ct, it->cpu, it->ts);	/* a missed switch */
		c->pid = it->pid;
		c->since = it->ts;
	}
	if ((int)it->desc->id == ct->id_sched) {
		run_end(ct, it->cpu, it->ts);
		c->pid = ltt_item_int(it, ct->f_in);
		c->since = it->ts;
	}
}

void cpu_time_skip(struct cpu_time *ct, const struct ltt_item *it)
{
	if (it->kind == LTT_ITEM_LOST || (int)it->desc->id == ct->id_sched ||
	    it->cpu >= CPU_TIME_CPUS || !ct->cpu[it->cpu].seen) {
		cpu_time_add(ct, it);
		return;
	}
	ct->cpu[it->cpu].last_ts = it->ts;
}

void cpu_time_finish(struct cpu_time *ct)
{
	uint64_t end = 0;
	unsigned int i;

	for (i = 0; i < ct->n_cpus; i++)
		if (ct->cpu[i].last_ts > end)
			end = ct->cpu[i].last_ts;
	for (i = 0; i < ct->n_cpus; i++)
		if (ct->cpu[i].seen)
			run_end(ct, i, end);
}

uint64_t cpu_time_of(const struct cpu_time *ct, int32_t pid)
{
	uint32_t h;

	for (h = slot_of(pid, ct->n_slots); ct->tasks[h].used;
	     h = (h + 1) & (ct->n_slots - 1))
		if (ct->tasks[h].pid == pid)
			return ct->tasks[h].ns;
	return 0;
}
