/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analyses of `ltt analyze`, apart from their printing so that the
 * tests can check every figure.  Most come from the timeline
 * (timeline.h); I/O from the file system events, counted as they come:
 *
 *  - latency of system calls (entry to exit, per task), per name;
 *  - scheduling latency: how long a task waited for a CPU once runnable,
 *    after a wakeup or a preemption;
 *  - durations of interrupts and softirqs (a softirq's is a lower bound:
 *    the trace records no end), per name;
 *  - I/O per process and file: reads and writes, calls and bytes;
 *  - CPU time per task and process, and each CPU's busy share.
 *
 * Percentiles by nearest rank: the p-th of n sorted values is the
 * ceil(p n / 100)-th.  Histograms by powers of two of nanoseconds.
 */
#ifndef LTT_ANALYSES_H
#define LTT_ANALYSES_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt.h>

#include "container.h"
#include "timeline.h"

#define AN_HIST		40		/* buckets: [2^i, 2^(i+1)) ns */

/* Durations of one kind of thing: syscall name, irq, task... */
struct an_dist {
	uint32_t name;			/* string index of the timeline, or pid */
	uint64_t count, total;
	uint64_t min, p50, p90, p99, max;
	uint64_t hist[AN_HIST];
};

struct an_io {
	int32_t tgid;
	char *file;			/* "fd N" when the trace did not name it */
	uint64_t reads, read_bytes, writes, write_bytes;
	uint64_t changes;		/* renamed, linked, unlinked, truncated,
					 * chmod, chown, mapped for writing... */
};

struct an_cpu_use {
	int32_t pid, tgid;
	uint32_t name;
	uint64_t ns;
};

/* One container's CPU time and I/O (analyses.cg's groups). */
struct an_group {
	uint64_t cpu_ns;
	uint64_t reads, read_bytes, writes, write_bytes;
};

struct analyses {
	const struct timeline *tl;	/* tasks' processes, for I/O */
	/* containers (an_attach()): the task's when it ran, or read */
	struct containers *cg;		/* NULL: no breakdown */
	struct containers *select;	/* --cgroup, --container: CPU time of these */
	struct an_group *groups;	/* by cg's group index */
	uint32_t cap_groups;
	/* I/O, counted during the pass */
	int id_read, id_write;
	uint64_t change_ids[2];		/* bits: events that change a file */
	struct an_io *io;
	uint32_t n_io, cap_io;

	/* from the timeline, by an_compute() */
	struct an_dist *syscalls;	/* by name, most calls first */
	uint32_t n_syscalls;
	struct an_dist all_syscalls;
	struct an_dist *wait_wakeup;	/* per task: after a wakeup */
	struct an_dist *wait_preempt;	/* per task: after a preemption */
	uint32_t n_wait_wakeup, n_wait_preempt;
	struct an_dist all_wakeup, all_preempt;
	struct an_dist *irqs;		/* irq and softirq names */
	uint32_t n_irqs;
	uint8_t *irq_kind;		/* TL_IRQ or TL_SOFTIRQ, per irqs[] */
	struct an_cpu_use *tasks;	/* by time on CPU, most first */
	uint32_t n_tasks;
	struct an_cpu_use *procs;	/* per process (tgid) */
	uint32_t n_procs;
	uint64_t cpu_busy[TL_CPUS];	/* ns a task (not idle) ran */
	uint64_t span;			/* of the trace, ns */
	unsigned int n_cpus;
	bool failed;
};

int an_init(struct analyses *an, const struct ltt_registry *reg,
	    const struct timeline *tl);
/*
 * The containers' breakdown of CPU time and I/O, for @tl's trace (before
 * any item): the credit of @tl's CPU time.  @select (may be NULL):
 * --cgroup and --container, whose tasks alone get CPU time; an item they
 * leave out goes to cpu_time_skip().  -1 without memory.
 */
int an_attach(struct analyses *an, struct timeline *tl,
	      struct containers *select);
/* Every item the timeline takes, after tl_add() (I/O is counted here). */
void an_add(struct analyses *an, const struct ltt_trace *t,
	    const struct ltt_item *it);
/* The timeline's figures, once tl_finish() is done; -1: no memory. */
int an_compute(struct analyses *an, const struct timeline *tl, int32_t pid);
void an_free(struct analyses *an);

/* The distribution of @n values (sorted in place). */
void an_dist_of(struct an_dist *d, uint64_t *v, uint64_t n);

#endif /* LTT_ANALYSES_H */
