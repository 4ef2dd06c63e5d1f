/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline behind `ltt view` and `ltt export`: a trace turned into
 * intervals.  Feed every item to tl_add(), call tl_finish(), then read
 * struct timeline:
 *
 *  - calls: one per system call, trap, interrupt, softirq and stretch of
 *    a task on a CPU (kind TL_RUN), whole, with its task, times and
 *    values;
 *  - slices: what each CPU lane draws, nested by depth: a task's run
 *    (depth 0), its open system calls and traps above it, interrupts
 *    and softirqs above those.  A call that sleeps is cut where its task
 *    leaves the CPU and goes on where the task comes back, on whatever
 *    CPU: one slice per piece, all pointing at the same call;
 *  - states: each task's state over time (running, runnable, blocked,
 *    sleeping), from sched_change's out_state, wakeups and forks;
 *  - marks: custom events (`ltt log` among them) and the file-system
 *    changes (renames, links, unlinks, rmdir, mkdir, truncate, chmod,
 *    chown, shared writable maps) with their fields as text, a rename's
 *    or link's fs_newname joined to it;
 *  - lost: the ranges where a CPU lost events.
 *
 * The trace does not say when a softirq ends (the kernel records its
 * entry only): it lasts until the last event its CPU makes in softirq
 * context before one that softirq context does not make (the next
 * softirq, an irq, a switch to or from idle among them), or one that
 * comes more than TL_SOFTIRQ_GAP after the one before (at least that
 * long: TL_END_GUESSED).  A softirq with no event of its own ends where
 * it began.
 */
#ifndef LTT_TIMELINE_H
#define LTT_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt.h>

#include "cputime.h"

struct ltt_syscall_table;

#define TL_CPUS		256
#define TL_DEPTH	8		/* frames a task or CPU keeps open */
#define TL_SOFTIRQ_GAP	1000000		/* ns: events further apart are not one softirq's */

enum tl_kind {
	TL_RUN,				/* a task on a CPU */
	TL_SYSCALL,
	TL_TRAP,
	TL_IRQ,
	TL_SOFTIRQ,
	TL_KINDS
};

enum tl_state {
	TL_UNKNOWN,
	TL_RUNNING,
	TL_RUNNABLE,			/* preempted, or woken up */
	TL_BLOCKED,			/* uninterruptible sleep: I/O */
	TL_SLEEPING,			/* interruptible, or idle */
	TL_DEAD,
	TL_STATES
};

/* Call flags */
#define TL_UNFINISHED	1		/* no end in the trace: cut there */
#define TL_END_GUESSED	2		/* softirq: the end is an upper bound */

struct tl_call {
	uint64_t t0, t1;
	uint64_t a;			/* syscall/trap: ip; irq: number; softirq: vector */
	int64_t ret;			/* syscall: return value */
	int64_t nr;			/* syscall number, trap number */
	int32_t pid;			/* the task (irq: the task interrupted) */
	uint32_t name;			/* string index */
	uint8_t kind;
	uint8_t flags;
};

struct tl_slice {
	uint64_t t0, t1;
	uint32_t call;
	uint16_t lane;			/* the CPU */
	uint8_t depth;
};

struct tl_state_span {
	uint64_t t0, t1;
	int32_t pid;
	uint8_t state;
};

struct tl_mark {
	uint64_t ts;
	uint32_t cpu;
	int32_t pid;
	uint32_t name;			/* event name, string index */
	char *text;			/* "field=value ..." */
	bool joined;			/* an fs_newname added to it */
};

struct tl_lost {
	uint32_t cpu;
	uint64_t t0, t1;
	uint64_t events, packets;
};

/* A task as the timeline knows it. */
struct tl_task {
	int32_t pid;
	int32_t tgid;			/* its process; pid when unknown */
	uint32_t name;			/* last name the trace gave it */
	uint32_t container;		/* its container at the end (string
					 * index), UINT32_MAX: the trace names
					 * no cgroup */
	uint8_t state;
	uint64_t state_since;
	int32_t cpu;			/* running on, or -1 */
	uint8_t depth;			/* open frames */
	uint32_t frame[TL_DEPTH];	/* call indexes */
	uint64_t since[TL_DEPTH];	/* start of each frame's piece */
};

struct tl_cpu {
	bool seen;
	int32_t pid;			/* running task */
	uint32_t run;			/* its TL_RUN call, or UINT32_MAX */
	uint64_t piece;			/* start of the current pieces */
	uint8_t depth;			/* interrupt frames */
	uint32_t frame[TL_DEPTH];
	uint8_t fdepth[TL_DEPTH];	/* the lane depth of each */
	uint64_t soft_last;		/* last event in interrupt context */
};

struct timeline {
	const struct ltt_trace *trace;
	const struct ltt_syscall_table *syscalls;	/* the trace's */
	uint64_t t0, t1;		/* first and last item */
	uint64_t events;
	unsigned int n_cpus;

	struct tl_call *calls;
	uint32_t n_calls, cap_calls;
	struct tl_slice *slices;
	uint32_t n_slices, cap_slices;
	struct tl_state_span *states;
	uint32_t n_states, cap_states;
	struct tl_mark *marks;
	uint32_t n_marks, cap_marks;
	struct tl_lost *lost;
	uint32_t n_lost, cap_lost;

	/* interned strings */
	char **strings;
	uint32_t n_strings, cap_strings;
	uint32_t *str_hash;		/* index + 1; 0 empty */
	uint32_t str_hash_size;

	/* tasks: dense array, pid hash */
	struct tl_task *tasks;
	uint32_t n_tasks, cap_tasks;
	uint32_t *task_hash;
	uint32_t task_hash_size;

	struct tl_cpu cpu[TL_CPUS];
	struct cpu_time cpu_time;	/* CPU time per task (ltt analyze) */

	/* registry ids and field indexes (-1: absent) */
	int id_entry, id_exit, id_trap, id_trap_exit, id_irq, id_irq_exit;
	int id_softirq, id_sched, id_wakeup, id_fork, id_exit_proc;
	int id_statedump;
	bool *in_softirq;		/* per event id: softirq context makes it */
	uint8_t *mark_kind;		/* per event id: TL_MARK_* */
	unsigned int n_ids;		/* of mark_kind */
	bool failed;			/* out of memory */
	bool skipped;			/* tl_skip() was given an item */
};

int tl_init(struct timeline *tl, const struct ltt_trace *t);
void tl_add(struct timeline *tl, const struct ltt_item *it);
/*
 * An item a selection (--cgroup, --container) left out: the CPU time
 * still follows its switches, the span and CPUs count it; nothing drawn.
 */
void tl_skip(struct timeline *tl, const struct ltt_item *it);
/* Close what is open at the trace's end; sorts the slices by lane,
 * depth and start.  Returns -1 when memory ran out on the way. */
int tl_finish(struct timeline *tl);
void tl_free(struct timeline *tl);

/* The task @pid, or NULL. */
const struct tl_task *tl_task(const struct timeline *tl, int32_t pid);
/* Intern @s; UINT32_MAX without memory. */
uint32_t tl_string(struct timeline *tl, const char *s);

extern const char *const tl_kind_names[TL_KINDS];
extern const char *const tl_state_names[TL_STATES];
/* The state a task leaves the CPU in, from sched_change's out_state. */
enum tl_state tl_state_of(uint64_t out_state);
/* Linux's names of trap (x86 vector) and softirq numbers, or NULL. */
/* Trap @nr's name on the machine of syscall table @arch; NULL: unknown. */
const char *tl_trap_name(const struct ltt_syscall_table *arch, uint64_t nr);
const char *tl_softirq_name(uint64_t vec);

#endif /* LTT_TIMELINE_H */
