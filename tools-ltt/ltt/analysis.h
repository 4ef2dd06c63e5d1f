/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analyses behind `ltt stats`, apart from their printing so that the
 * tests can check every figure: feed every item of a trace to
 * stats_add(), then read struct stats.
 */
#ifndef LTT_ANALYSIS_H
#define LTT_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt.h>

#include "container.h"
#include "cputime.h"

#define STATS_SYSCALLS	1024		/* syscall numbers counted by name */
#define STATS_CPUS	1024

/* Calls of one system call by the --pid task. */
struct syscall_time {
	uint64_t count;
	uint64_t total_ns;
	uint64_t min_ns;
	uint64_t max_ns;
};

/* One task (pid as the kernel records it: the thread id). */
struct proc {
	int32_t pid;
	uint64_t syscalls;
	uint64_t events;
	uint64_t cpu_ns;		/* time on a CPU (cputime.h) */
	uint32_t group;			/* its container then (stats.cg) */
	uint64_t group_serial;		/* ... as of this cgroup serial */
};

/* One container's share (stats.cg's groups). */
struct stats_group {
	uint64_t events, syscalls;
	uint64_t cpu_ns;
	uint64_t read_bytes, write_bytes;	/* fs_read, fs_write */
};

struct stats_cpu {
	bool seen;
	uint64_t last_ts;		/* last event on this CPU */
	uint64_t lost_events;
	uint64_t lost_packets;
	uint32_t proc;			/* proc index cache for pid */
	int32_t proc_pid;
};

struct stats {
	const struct ltt_registry *reg;
	/* registry ids and field indexes, -1 when absent */
	int id_entry, id_exit, id_sched;
	int f_entry_id, f_sched_in;

	uint64_t events;
	uint64_t first_ts, last_ts;
	uint64_t *per_event;		/* by event id */
	uint32_t syscall_base;		/* the number of syscalls[0] (mips') */
	uint64_t syscalls[STATS_SYSCALLS];
	uint64_t syscalls_other;	/* numbers past them */
	uint64_t lost_events, lost_packets;
	unsigned int max_cpu;		/* highest CPU seen, plus one */
	struct stats_cpu cpu[STATS_CPUS];
	struct cpu_time cpu_time;	/* procs' cpu_ns, at stats_finish() */

	/* tasks: a dense array and a pid -> index hash */
	struct proc *procs;
	uint32_t n_procs, cap_procs;
	uint32_t *hash;			/* index + 1; 0 empty */
	uint32_t hash_size;

	/*
	 * Containers: each event to its task's container when it ran,
	 * CPU time to the container of the task that ran (stats_attach()).
	 */
	const struct ltt_trace *trace;
	struct containers *cg;		/* NULL: no breakdown */
	struct stats_group *groups;	/* by cg's group index */
	uint32_t cap_groups;
	int id_read, id_write, f_read_bytes, f_write_bytes;
	/* --cgroup, --container: CPU time of the tasks selected only */
	struct containers *select;

	/* --pid: time per syscall of that task */
	bool track_pid;
	int32_t pid;
	struct syscall_time times[STATS_SYSCALLS];
	bool pending;			/* an entry waits for its exit */
	uint32_t pending_nr;
	uint64_t pending_ts;
	uint64_t unfinished;		/* entries without an exit */
};

/* @pid < 0: no per-syscall times. */
int stats_init(struct stats *st, const struct ltt_registry *reg, int32_t pid);
/* Count one item: stats_add()'s every case, out of line. */
void stats_add_item(struct stats *st, const struct ltt_item *it);
/* A read's or write's bytes to its container @g. */
void stats_add_item_io(struct stats *st, struct stats_group *g,
		       const struct ltt_item *it);

/*
 * Count one item.  The common event (a known CPU and task, not a
 * scheduling change, no --pid) is counted here, inline in the reading
 * loop; the rest goes to stats_add_item().
 */
static inline void stats_add(struct stats *st, const struct ltt_item *it)
{
	const struct stats_cpu *c = &st->cpu[it->cpu < STATS_CPUS ? it->cpu : 0];
	int id;

	if (it->kind != LTT_ITEM_EVENT || it->cpu >= STATS_CPUS ||
	    !c->proc || c->proc_pid != it->pid || st->track_pid ||
	    !st->events || (st->cg && st->procs[c->proc - 1].group_serial !=
			    ltt_trace_cgroup_serial(st->trace))) {
		stats_add_item(st, it);
		return;
	}
	id = it->desc->id;
	if (id == st->id_sched) {
		stats_add_item(st, it);
		return;
	}
	st->events++;
	st->last_ts = it->ts;
	st->per_event[id]++;
	st->cpu[it->cpu].last_ts = it->ts;
	st->cpu_time.cpu[it->cpu].last_ts = it->ts;	/* cpu_time_add()'s */
	st->procs[c->proc - 1].events++;
	if (st->cg) {
		struct stats_group *g = &st->groups[st->procs[c->proc - 1].group];

		g->events++;
		g->syscalls += id == st->id_entry;
		if (id == st->id_read || id == st->id_write) {
			stats_add_item_io(st, g, it);
		}
	}
	if (id == st->id_entry) {
		uint64_t nr = ltt_item_raw(it, st->f_entry_id) - st->syscall_base;

		if (nr < STATS_SYSCALLS)
			st->syscalls[nr]++;
		else
			st->syscalls_other++;
		st->procs[c->proc - 1].syscalls++;
	}
}
/*
 * The containers' breakdown of trace @t (call before any item); @select
 * (may be NULL): --cgroup and --container, whose tasks alone get CPU
 * time.  -1 without memory.
 */
int stats_attach(struct stats *st, const struct ltt_trace *t,
		 struct containers *select);
/* An item --cgroup or --container left out: for the CPU time. */
void stats_skip(struct stats *st, const struct ltt_item *it);
/* Close the CPU-time intervals still open (cputime.h). */
void stats_finish(struct stats *st);
void stats_free(struct stats *st);
/* The task @pid, or NULL. */
const struct proc *stats_proc(const struct stats *st, int32_t pid);

#endif /* LTT_ANALYSIS_H */
