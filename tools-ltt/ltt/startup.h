/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The start-up analysis of `ltt analyze -a startup`: where the time of a
 * boot (or of any trace) goes, apart from its printing so that the tests
 * can check every figure.  Feed every item to su_add(), call
 * su_finish(), then read struct startup:
 *
 *  - targets: the first exec of a program (its path, or its name when
 *    the target has no '/') or the first custom event (`ltt log` among
 *    them) whose name is the target or whose text holds it, and its
 *    offset from the trace's first event;
 *  - execs: every exec, in time order, with its process, its start, its
 *    end (the process's exit, or its next exec), the time it ran on a
 *    CPU and the processes it forked;
 *  - procs: every process (threads count in their process) from its fork,
 *    or from when the trace first shows it, to its exit, with its parent:
 *    the process tree, and the CPU time of each subtree;
 *  - what ran on each CPU over the window (the first event to the latest
 *    target found, or to the end), per process and in buckets;
 *  - lost ranges, and what was lost before each target.
 *
 * CPU time comes from sched_change: a CPU runs the task its first event
 * shows until its first sched_change, and the task the last one brought
 * in until its last event.  A lost range ends what the CPU was known to
 * run: nothing is counted there until its next sched_change.  Without
 * sched_change in the trace, sched_recorded is false and no CPU time is
 * known.
 */
#ifndef LTT_STARTUP_H
#define LTT_STARTUP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <ltt/ltt.h>

#define SU_NONE		UINT32_MAX
#define SU_TARGETS	16		/* --until, at most */
#define SU_CPUS		256
#define SU_COMM		64

enum su_end {
	SU_RUNNING,			/* still at the trace's end */
	SU_EXITED,
	SU_REPLACED,			/* by the process's next exec */
};

struct su_exec {
	uint32_t proc;
	uint64_t t0, t1;		/* trace clock; t1: the end, or the trace's */
	uint8_t end;			/* enum su_end */
	int32_t code;			/* wait status, when SU_EXITED */
	char *path;
	const char *name;		/* its last component, in path */
	uint64_t cpu_ns;		/* on a CPU, its process's tasks */
	uint32_t children;		/* processes forked while it ran */
	uint32_t next;			/* the process's next exec, or SU_NONE */
};

struct su_proc {
	int32_t pid;			/* the leader's, the tgid */
	uint32_t parent;		/* procs index, or SU_NONE */
	uint32_t parent_exec;		/* the parent's exec at the fork */
	uint64_t t0, t1;		/* fork (or first sight) to exit (or end) */
	bool forked, exited;
	int32_t code;
	uint32_t first_exec, last_exec;	/* execs index, or SU_NONE */
	uint32_t children;
	uint64_t cpu_ns, tree_cpu_ns;	/* its own; with its descendants' */
	char comm[SU_COMM];		/* at its fork or first sight */
};

/* A custom event: a marker. */
struct su_mark {
	uint64_t ts;
	uint32_t cpu;
	int32_t pid;
	char *event;
	char *text;			/* its string field, or "" */
};

struct su_lost {
	uint32_t cpu;
	uint64_t t0, t1;
	uint64_t events, packets;
};

enum su_found { SU_NOT_FOUND, SU_EXEC, SU_MARK };

struct su_target {
	const char *name;
	uint8_t found;			/* enum su_found */
	uint64_t ts;
	uint32_t index;			/* into execs or marks */
	uint64_t lost_before;		/* events lost before it, all CPUs */
};

/* Time of one process on one CPU, or in one bucket of one CPU. */
struct su_use {
	uint32_t proc;
	uint64_t ns;
};

struct su_bucket {
	uint64_t busy;
	uint32_t top;			/* procs index of the one that ran most */
	uint64_t top_ns;
};

struct su_cpu_use {
	uint64_t busy;			/* ns a task (not idle) ran in the window */
	struct su_use *use;		/* by time, most first */
	uint32_t n_use;
	struct su_bucket *buckets;	/* n_buckets of them */
};

/* A stretch of one task on one CPU (pid 0: idle, not kept). */
struct su_run {
	uint64_t t0, t1;
	uint32_t proc;
	uint32_t cpu;
};

struct su_cpu {				/* during the pass */
	bool seen, known;
	uint32_t proc;			/* running, when known (SU_NONE: idle) */
	uint64_t since, last_ts;
};

struct startup {
	const struct ltt_trace *trace;
	int id_fork, id_exec, id_exit, id_sched, id_dump;
	uint64_t t0, t1;		/* first and last item */
	uint64_t events, sched_changes;
	bool sched_recorded;
	unsigned int n_cpus;

	struct su_target targets[SU_TARGETS];
	unsigned int n_targets;

	struct su_exec *execs;
	uint32_t n_execs, cap_execs;
	struct su_proc *procs;
	uint32_t n_procs, cap_procs;
	struct su_mark *marks;
	uint32_t n_marks, cap_marks;
	struct su_lost *lost;
	uint32_t n_lost, cap_lost;
	uint64_t lost_events, lost_packets;
	struct su_run *runs;
	uint32_t n_runs, cap_runs;

	/* tasks (threads too): pid -> procs index, open addressing */
	int32_t *task_pid;
	uint32_t *task_proc;
	uint32_t task_size, n_task;

	struct su_cpu cpu[SU_CPUS];

	/* by su_finish(): the window and what ran on each CPU in it */
	uint64_t w0, w1;
	unsigned int n_buckets;
	struct su_cpu_use cpus[SU_CPUS];
	bool failed;			/* out of memory */
};

/* @targets (@n of them, at most SU_TARGETS) must outlive @su. */
int su_init(struct startup *su, const struct ltt_trace *t,
	    const char *const *targets, unsigned int n);
void su_add(struct startup *su, const struct ltt_item *it);
/* Close what is open, compute the window's per-CPU use in @buckets
 * buckets (at least 1); -1 when memory ran out on the way. */
int su_finish(struct startup *su, unsigned int buckets);
void su_free(struct startup *su);

/* The name of a process: its last exec's, else its comm. */
const char *su_proc_name(const struct startup *su, uint32_t proc);
/* Does @target name the exec of @path: the path, or its last component? */
bool su_exec_matches(const char *target, const char *path);

/* Printing (startup-print.c): text, with at most @top lines per table
 * (0: all), and the JSON object of --json's "startup". */
void su_print(FILE *f, const struct startup *su, unsigned int top);
void su_print_json(FILE *f, const struct startup *su);

#endif /* LTT_STARTUP_H */
