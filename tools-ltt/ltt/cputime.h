/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU time per task: the one definition `ltt stats` and `ltt analyze -a
 * cpu` print.  A CPU runs one task at a time from its first event: the
 * task that event names, then each sched_change's "in".  The time from
 * one switch to the next goes to the task that ran; an event of another
 * task means the trace missed a switch (the reader knows better), a
 * lost range ends what ran before it (the CPU starts afresh at its next
 * event), and each CPU's last task runs to the trace's end (the last
 * event of any CPU: the recording went on).
 * Feed every item to cpu_time_add(), call cpu_time_finish(), then ask
 * cpu_time_of().
 */
#ifndef LTT_CPUTIME_H
#define LTT_CPUTIME_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt.h>

#define CPU_TIME_CPUS	1024

struct cpu_time_cpu {
	bool seen;			/* a run is open */
	int32_t pid;			/* its task */
	uint64_t since, last_ts;	/* its start; the CPU's last event */
};

struct cpu_time_task {
	int32_t pid;
	bool used;
	uint64_t ns;
};

struct cpu_time {
	int id_sched, f_in;		/* sched_change and its "in", or -1 */
	bool failed;			/* out of memory: figures too low */
	unsigned int n_cpus;		/* highest CPU seen, plus one */
	struct cpu_time_cpu cpu[CPU_TIME_CPUS];
	uint64_t busy[CPU_TIME_CPUS];	/* per CPU: ns a task (not idle) ran */
	struct cpu_time_task *tasks;	/* open addressing by pid */
	uint32_t n_tasks, n_slots;
	/*
	 * Optional: told of each run as it ends, with the trace's state
	 * then (where the task is): false leaves the run out (a task
	 * --cgroup or --container does not select).  The containers'
	 * breakdown of ltt stats and ltt analyze.
	 */
	bool (*credit)(void *ctx, int32_t pid, uint64_t ns);
	void *credit_ctx;
};

int cpu_time_init(struct cpu_time *ct, const struct ltt_registry *reg);
void cpu_time_add(struct cpu_time *ct, const struct ltt_item *it);
/*
 * An item a selection (--cgroup, --container) left out: its switches
 * and losses still say what runs, the rest only how long the CPU ran.
 */
void cpu_time_skip(struct cpu_time *ct, const struct ltt_item *it);
/* Close each CPU's run at the trace's end. */
void cpu_time_finish(struct cpu_time *ct);
/* The CPU time of task @pid (0 for one that never ran). */
uint64_t cpu_time_of(const struct cpu_time *ct, int32_t pid);
void cpu_time_free(struct cpu_time *ct);

#endif /* LTT_CPUTIME_H */
