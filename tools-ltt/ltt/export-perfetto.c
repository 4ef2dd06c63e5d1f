// SPDX-License-Identifier: GPL-2.0
/*
 * ltt export --format=perfetto: Perfetto's protobuf trace, so that its
 * UI and trace_processor show CPU tracks, thread states and wakeups as
 * for a trace of Linux's ftrace:
 *
 *  - a ClockSnapshot: the trace clock (CLOCK_MONOTONIC, given as
 *    BOOTTIME, which is what ftrace bundles default to) and wall-clock
 *    time;
 *  - per CPU, FtraceEventBundle packets of ftrace's events: sched_switch
 *    (LTT's sched_change), sched_waking (process_wakeup), task_newtask
 *    (process_fork), sched_process_exec, sched_process_exit,
 *    sched_process_wait, irq_handler_entry/exit, softirq_entry/exit (the
 *    exit where ltt view ends the softirq, which LTT does not record),
 *    sys_enter/sys_exit (syscall_entry, syscall_entry_compat,
 *    syscall_exit); lost events mark the CPU's next bundle;
 *  - a ProcessTree of every task the trace names (state dump, forks,
 *    execs): thread, process, parent, name;
 *  - custom events (`ltt log` lines among them) as TrackEvent instants on
 *    a track per thread, their fields as debug annotations.
 *
 * The field numbers are those of Perfetto's protos/perfetto/trace/
 * (trace_packet.proto, ftrace/ftrace_event.proto, ftrace/sched.proto,
 * ...); tests/perfetto.proto holds the part written here, for protoc.
 * The encoder is a plain varint writer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "container.h"
#include "export.h"
#include "outfile.h"
#include "syscalls.h"

#define BUNDLE_MAX	(64 << 10)	/* a CPU's bundle is written past this */
#define CPUS_MAX	1024
#define SOFTIRQ_GAP	1000000		/* as timeline.h's TL_SOFTIRQ_GAP */
#define IRQ_DEPTH	8
#define SEQ_ID		1		/* our one packet sequence */
#define CLONE_THREAD	0x00010000

/* Field numbers (Perfetto's .proto files) */
enum {
	TRACE_PACKET = 1,
	/* TracePacket */
	TP_FTRACE_EVENTS = 1, TP_PROCESS_TREE = 2, TP_CLOCK_SNAPSHOT = 6,
	TP_TIMESTAMP = 8, TP_SEQ_ID = 10, TP_TRACK_EVENT = 11,
	TP_SEQ_FLAGS = 13, TP_TRACK_DESCRIPTOR = 60,
	/* FtraceEventBundle */
	FB_CPU = 1, FB_EVENT = 2, FB_LOST = 3,
	/* FtraceEvent */
	FE_TIMESTAMP = 1, FE_PID = 2,
	FE_SCHED_SWITCH = 4, FE_SCHED_WAKING = 20, FE_SOFTIRQ_ENTRY = 24,
	FE_SOFTIRQ_EXIT = 25, FE_IRQ_ENTRY = 36, FE_IRQ_EXIT = 37,
	FE_TASK_NEWTASK = 235, FE_PROCESS_EXEC = 237, FE_PROCESS_EXIT = 238,
	FE_PROCESS_WAIT = 242, FE_SYS_ENTER = 329, FE_SYS_EXIT = 330,
	/* ClockSnapshot */
	CS_CLOCKS = 1, CS_PRIMARY = 2, CK_ID = 1, CK_TS = 2,
	CLOCK_REALTIME = 1, CLOCK_MONOTONIC = 3, CLOCK_BOOTTIME = 6,
	/* ProcessTree */
	PT_PROCESSES = 1, PT_THREADS = 2,
	PR_PID = 1, PR_PPID = 2, PR_CMDLINE = 3,
	TH_TID = 1, TH_NAME = 2, TH_TGID = 3,
	/* TrackDescriptor, ThreadDescriptor */
	TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4,
	/* ProcessDescriptor */
	PD_PID = 1, PD_NAME = 6, PD_LABELS = 8,
	THD_PID = 1, THD_TID = 2, THD_NAME = 5,
	/* TrackEvent, DebugAnnotation */
	TE_ANNOTATIONS = 4, TE_TYPE = 9, TE_TRACK_UUID = 11, TE_NAME = 23,
	TE_TYPE_INSTANT = 3,
	DA_INT = 4, DA_STRING = 6, DA_NAME = 10,
	SEQ_INCREMENTAL_STATE_CLEARED = 1,
};

/* A growing byte buffer. */
struct buf {
	unsigned char *p;
	size_t len, cap;
	bool oom;
};

static bool room(struct buf *b, size_t n)
{
	if (b->len + n <= b->cap)
		return true;
	if (!b->oom) {
		size_t cap = b->cap ? b->cap : 4096;
		unsigned char *p;

		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (p) {
			b->p = p;
			b->cap = cap;
			return true;
		}
	}
	b->oom = true;
	return false;
}

static void varint(struct buf *b, uint64_t v)
{
	if (!room(b, 10))
		return;
	while (v >= 0x80) {
		b->p[b->len++] = (v & 0x7f) | 0x80;
		v >>= 7;
	}
	b->p[b->len++] = v;
}

static void tag(struct buf *b, unsigned int field, unsigned int wire)
{
	varint(b, (uint64_t)field << 3 | wire);
}

/* int32 and int64 fields: negative numbers are 10 bytes, as protobuf's */
static void f_int(struct buf *b, unsigned int field, int64_t v)
{
	tag(b, field, 0);
	varint(b, (uint64_t)v);
}

static void f_bytes(struct buf *b, unsigned int field, const void *s,
		    size_t n)
{
	tag(b, field, 2);
	varint(b, n);
	if (room(b, n)) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
	}
}

static void f_str(struct buf *b, unsigned int field, const char *s)
{
	f_bytes(b, field, s, strlen(s));
}

/*
 * A nested message whose length is known at its end: four bytes kept
 * for the length, a redundant varint (as Perfetto's own protozero
 * writes them), patched by nest_end().
 */
static size_t nest_begin(struct buf *b, unsigned int field)
{
	tag(b, field, 2);
	if (!room(b, 4))
		return 0;
	b->len += 4;
	return b->len;
}

static void nest_end(struct buf *b, size_t at)
{
	size_t n = b->len - at;

	if (b->oom || !at)
		return;
	b->p[at - 4] = (n & 0x7f) | 0x80;
	b->p[at - 3] = (n >> 7 & 0x7f) | 0x80;
	b->p[at - 2] = (n >> 14 & 0x7f) | 0x80;
	b->p[at - 1] = n >> 21 & 0x7f;
}

/* A task as the export knows it. */
struct ptask {
	int32_t pid;			/* slot used when pid + 1 != 0 */
	bool used;
	int32_t tgid, ppid;
	int32_t sc_nr;			/* its open system call, or -1 */
	bool track;			/* its TrackDescriptor written */
	char name[16];
};

struct pcpu {
	struct buf bundle;		/* its events since the last write */
	bool lost;			/* the next bundle says so */
	bool soft_open;
	uint32_t soft_vec;
	uint64_t soft_last;
	unsigned int irq_depth;
	int32_t irq[IRQ_DEPTH];		/* the interrupts open */
	uint64_t first_ts;		/* of the bundle */
	int32_t pid;			/* the task running */
};

struct px {
	const struct export_job *job;
	struct ltt_trace *t;
	const struct ltt_registry *reg;
	const struct ltt_syscall_table *sys;
	struct out_file out;
	struct buf ob;			/* output waiting to be written */
	bool failed;
	bool seq_started;

	int id_entry, id_exit, id_compat, id_sched, id_wakeup, id_fork;
	int id_exit_proc, id_exec, id_wait, id_irq, id_irq_exit, id_softirq;
	int id_sd_process;
	bool *in_softirq;

	struct ptask *tasks;
	size_t n_slots, n_tasks;
	struct pcpu *cpu[CPUS_MAX];
	struct buf ev, inner;		/* scratch: an event, its payload */
	uint64_t last_ts;
};

static uint64_t hash32(uint32_t x)
{
	uint64_t h = x * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

static struct ptask *task_get(struct px *x, int32_t pid)
{
	size_t i, mask;

	if (x->n_tasks * 2 >= x->n_slots) {
		size_t n = x->n_slots ? 2 * x->n_slots : 1024, j;
		struct ptask *old = x->tasks, *nt = calloc(n, sizeof(*nt));

		if (!nt)
			return NULL;
		for (j = 0; j < x->n_slots; j++) {
			if (!old[j].used)
				continue;
			for (i = hash32(old[j].pid) & (n - 1); nt[i].used;
			     i = (i + 1) & (n - 1))
				;
			nt[i] = old[j];
		}
		free(old);
		x->tasks = nt;
		x->n_slots = n;
	}
	mask = x->n_slots - 1;
	for (i = hash32(pid) & mask; x->tasks[i].used; i = (i + 1) & mask)
		if (x->tasks[i].pid == pid)
			return &x->tasks[i];
	x->tasks[i] = (struct ptask){ .pid = pid, .used = true, .tgid = pid,
				      .ppid = -1, .sc_nr = -1 };
	x->n_tasks++;
	return &x->tasks[i];
}

static void out_write(struct px *x)
{
	const unsigned char *p = x->ob.p;
	size_t left = x->ob.len;

	/* a failed write is said when the file is put in place */
	if (left && !x->failed)
		fwrite(p, 1, left, x->out.f);
	x->ob.len = 0;
}

/* Start a TracePacket in the output; returns its nest. */
static size_t packet_begin(struct px *x, uint64_t ts)
{
	size_t at = nest_begin(&x->ob, TRACE_PACKET);

	f_int(&x->ob, TP_TIMESTAMP, ts);
	f_int(&x->ob, TP_SEQ_ID, SEQ_ID);
	if (!x->seq_started) {
		x->seq_started = true;
		f_int(&x->ob, TP_SEQ_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	}
	return at;
}

static void packet_end(struct px *x, size_t at)
{
	nest_end(&x->ob, at);
	if (x->ob.len >= (1 << 20))
		out_write(x);
}

static void bundle_flush(struct px *x, unsigned int cpu)
{
	struct pcpu *c = x->cpu[cpu];
	size_t pk, bu;

	if (!c || !c->bundle.len)
		return;
	pk = packet_begin(x, c->first_ts);
	bu = nest_begin(&x->ob, TP_FTRACE_EVENTS);
	f_int(&x->ob, FB_CPU, cpu);
	if (c->lost) {
		f_int(&x->ob, FB_LOST, 1);
		c->lost = false;
	}
	if (room(&x->ob, c->bundle.len)) {
		memcpy(x->ob.p + x->ob.len, c->bundle.p, c->bundle.len);
		x->ob.len += c->bundle.len;
	}
	nest_end(&x->ob, bu);
	packet_end(x, pk);
	c->bundle.len = 0;
}

static struct pcpu *cpu_of(struct px *x, unsigned int cpu)
{
	if (!x->cpu[cpu])
		x->cpu[cpu] = calloc(1, sizeof(struct pcpu));
	return x->cpu[cpu];
}

/* Append to @cpu's bundle the FtraceEvent of @field with x->inner. */
static void ftrace_event(struct px *x, unsigned int cpu, uint64_t ts,
			 int32_t pid, unsigned int field)
{
	struct pcpu *c = cpu_of(x, cpu);
	struct buf *e = &x->ev;

	if (!c) {
		x->ev.oom = true;
		return;
	}
	if (!c->bundle.len)
		c->first_ts = ts;
	e->len = 0;
	f_int(e, FE_TIMESTAMP, ts);
	f_int(e, FE_PID, pid);
	f_bytes(e, field, x->inner.p, x->inner.len);
	f_bytes(&c->bundle, FB_EVENT, e->p, e->len);
	if (c->bundle.oom)
		x->ev.oom = true;
	x->inner.len = 0;
	if (c->bundle.len >= BUNDLE_MAX)
		bundle_flush(x, cpu);
}

static int64_t fget(const struct ltt_item *it, const char *name, int64_t def)
{
	int64_t v;

	return ltt_item_field(it, name, &v) < 0 ? def : v;
}

static const char *comm_of(const struct px *x, int32_t pid)
{
	const char *c = ltt_trace_comm(x->t, pid);

	return c ? c : "";
}

/* sched_switch's prev_state, as ftrace reports it */
static int64_t report_state(uint64_t s)
{
	if (!s)
		return 0;		/* preempted: R */
	if ((s & 0x0002) && (s & 0x0400))
		return 0x80;		/* TASK_IDLE: I */
	if (s & 0x0030)
		return s & 0x0030;	/* X, Z */
	if (s & 0x0080)
		return 0x10;
	return s & 0x7f;
}

static void softirq_exit(struct px *x, unsigned int cpu)
{
	struct pcpu *c = x->cpu[cpu];

	c->soft_open = false;
	f_int(&x->inner, 1, c->soft_vec);
	ftrace_event(x, cpu, c->soft_last, c->pid, FE_SOFTIRQ_EXIT);
}

/* A custom event: an instant on its thread's track. */
static void custom_event(struct px *x, const struct ltt_item *it)
{
	const struct ltt_event_desc *d = it->desc;
	struct ptask *k = task_get(x, it->pid);
	uint64_t uuid = 0x1000000000ULL + (uint32_t)it->pid;
	size_t pk, te, da;
	unsigned int i;

	if (!k) {
		x->ev.oom = true;
		return;
	}
	if (!k->track) {
		size_t td, th;

		k->track = true;
		pk = packet_begin(x, it->ts);
		td = nest_begin(&x->ob, TP_TRACK_DESCRIPTOR);
		f_int(&x->ob, TD_UUID, uuid);
		th = nest_begin(&x->ob, TD_THREAD);
		f_int(&x->ob, THD_PID, k->tgid);
		f_int(&x->ob, THD_TID, it->pid);
		f_str(&x->ob, THD_NAME, comm_of(x, it->pid));
		nest_end(&x->ob, th);
		nest_end(&x->ob, td);
		packet_end(x, pk);
	}
	pk = packet_begin(x, it->ts);
	te = nest_begin(&x->ob, TP_TRACK_EVENT);
	f_int(&x->ob, TE_TYPE, TE_TYPE_INSTANT);
	f_int(&x->ob, TE_TRACK_UUID, uuid);
	f_str(&x->ob, TE_NAME, d->name);
	for (i = 0; i < d->n_fields; i++) {
		da = nest_begin(&x->ob, TE_ANNOTATIONS);
		f_str(&x->ob, DA_NAME, d->fields[i].name);
		if (d->fields[i].type == LTT_TYPE_STRING)
			f_str(&x->ob, DA_STRING, ltt_item_string(it));
		else
			f_int(&x->ob, DA_INT, ltt_item_int(it, i));
		nest_end(&x->ob, da);
	}
	nest_end(&x->ob, te);
	packet_end(x, pk);
}

static void px_item(struct px *x, const struct ltt_item *it)
{
	struct pcpu *c;
	struct ptask *k;
	unsigned int cpu = it->cpu;
	int id;

	if (cpu >= CPUS_MAX)
		return;
	c = cpu_of(x, cpu);
	if (!c) {
		x->ev.oom = true;
		return;
	}
	x->last_ts = it->ts;
	if (it->kind == LTT_ITEM_LOST) {
		bundle_flush(x, cpu);
		c->lost = true;
		return;
	}
	id = it->desc->id;
	/* a softirq ends as the timeline ends it: before an irq too */
	if (c->soft_open && (id == x->id_softirq || !x->in_softirq[id] ||
			     it->ts - c->soft_last > SOFTIRQ_GAP))
		softirq_exit(x, cpu);
	if (c->soft_open)
		c->soft_last = it->ts;
	c->pid = it->pid;
	if (id == x->id_sched) {
		int32_t in = fget(it, "in", 0), out = fget(it, "out", it->pid);

		f_str(&x->inner, 1, comm_of(x, out));
		f_int(&x->inner, 2, out);
		f_int(&x->inner, 3, 120);	/* prio: not recorded */
		f_int(&x->inner, 4, report_state(fget(it, "out_state", 1)));
		f_str(&x->inner, 5, comm_of(x, in));
		f_int(&x->inner, 6, in);
		f_int(&x->inner, 7, 120);
		ftrace_event(x, cpu, it->ts, it->pid, FE_SCHED_SWITCH);
	} else if (id == x->id_wakeup) {
		int32_t pid = fget(it, "pid", 0);

		f_str(&x->inner, 1, comm_of(x, pid));
		f_int(&x->inner, 2, pid);
		f_int(&x->inner, 3, 120);
		f_int(&x->inner, 4, 1);
		f_int(&x->inner, 5, cpu);	/* target_cpu: not recorded */
		ftrace_event(x, cpu, it->ts, it->pid, FE_SCHED_WAKING);
	} else if (id == x->id_fork) {
		int32_t child = fget(it, "child", 0);
		int32_t ctgid = fget(it, "child_tgid", child);
		struct ptask *p = task_get(x, it->pid);
		int32_t ptgid = p ? p->tgid : it->pid;

		k = task_get(x, child);
		if (k) {
			k->tgid = ctgid;
			k->ppid = ptgid;
			snprintf(k->name, sizeof(k->name), "%s",
				 comm_of(x, it->pid));
		}
		f_int(&x->inner, 1, child);
		f_str(&x->inner, 2, comm_of(x, it->pid));
		f_int(&x->inner, 3, ctgid == ptgid && child != ctgid ?
				    CLONE_THREAD : 0);
		f_int(&x->inner, 4, 0);
		ftrace_event(x, cpu, it->ts, it->pid, FE_TASK_NEWTASK);
	} else if (id == x->id_exec) {
		int32_t pid = fget(it, "pid", it->pid);

		f_str(&x->inner, 1, ltt_item_string(it));
		f_int(&x->inner, 2, pid);
		f_int(&x->inner, 3, pid);
		ftrace_event(x, cpu, it->ts, it->pid, FE_PROCESS_EXEC);
	} else if (id == x->id_exit_proc) {
		int32_t pid = fget(it, "pid", it->pid);

		k = task_get(x, pid);
		f_str(&x->inner, 1, comm_of(x, pid));
		f_int(&x->inner, 2, pid);
		f_int(&x->inner, 3, k ? k->tgid : pid);
		f_int(&x->inner, 4, 120);
		ftrace_event(x, cpu, it->ts, it->pid, FE_PROCESS_EXIT);
	} else if (id == x->id_wait) {
		f_str(&x->inner, 1, comm_of(x, it->pid));
		f_int(&x->inner, 2, fget(it, "pid", -1));
		f_int(&x->inner, 3, 120);
		ftrace_event(x, cpu, it->ts, it->pid, FE_PROCESS_WAIT);
	} else if (id == x->id_entry || id == x->id_compat) {
		k = task_get(x, it->pid);
		if (k)
			k->sc_nr = fget(it, "id", -1);
		f_int(&x->inner, 1, fget(it, "id", -1));
		ftrace_event(x, cpu, it->ts, it->pid, FE_SYS_ENTER);
	} else if (id == x->id_exit) {
		k = task_get(x, it->pid);
		f_int(&x->inner, 1, k ? k->sc_nr : -1);
		f_int(&x->inner, 2, fget(it, "ret", 0));
		if (k)
			k->sc_nr = -1;
		ftrace_event(x, cpu, it->ts, it->pid, FE_SYS_EXIT);
	} else if (id == x->id_irq) {
		char name[24];
		int64_t irq = fget(it, "irq", 0);

		if (c->irq_depth < IRQ_DEPTH)
			c->irq[c->irq_depth] = irq;
		c->irq_depth++;
		snprintf(name, sizeof(name), "irq%lld", (long long)irq);
		f_int(&x->inner, 1, irq);
		f_str(&x->inner, 2, name);	/* the handler: not recorded */
		ftrace_event(x, cpu, it->ts, it->pid, FE_IRQ_ENTRY);
	} else if (id == x->id_irq_exit) {
		int32_t irq = -1;		/* its entry is not in the trace */

		if (c->irq_depth) {
			c->irq_depth--;
			if (c->irq_depth < IRQ_DEPTH)
				irq = c->irq[c->irq_depth];
		}
		f_int(&x->inner, 1, irq);	/* the CPU's open entry's */
		f_int(&x->inner, 2, 1);		/* IRQ_HANDLED: not recorded */
		ftrace_event(x, cpu, it->ts, it->pid, FE_IRQ_EXIT);
	} else if (id == x->id_softirq) {
		c->soft_open = true;
		c->soft_vec = fget(it, "vec", 0);
		c->soft_last = it->ts;
		f_int(&x->inner, 1, c->soft_vec);
		ftrace_event(x, cpu, it->ts, it->pid, FE_SOFTIRQ_ENTRY);
	} else if (id == x->id_sd_process) {
		int32_t pid = fget(it, "pid", 0);

		k = task_get(x, pid);
		if (k) {
			k->tgid = fget(it, "tgid", pid);
			k->ppid = fget(it, "ppid", -1);
			snprintf(k->name, sizeof(k->name), "%s",
				 ltt_item_string(it));
		}
	} else if (it->desc->custom) {
		custom_event(x, it);
	}
}

/* Every task the trace named: threads and processes. */
/*
 * The container of each process (as the trace ended), where the trace
 * names cgroups: a label of its process descriptor, as Perfetto's UI
 * shows it beside the process's name.
 */
static void process_containers(struct px *x)
{
	char container[LTT_CGROUP_NAME_MAX];
	size_t i, pk, td, pd, pos = 0;

	if (!ltt_trace_cgroups(x->t, &pos, NULL, NULL))
		return;
	for (i = 0; i < x->n_slots; i++) {
		const struct ptask *k = &x->tasks[i];
		const char *name;

		if (!k->used || k->pid <= 0 || k->tgid != k->pid)
			continue;
		container_name_of(ltt_trace_cgroup(x->t, k->pid, NULL),
				  container, sizeof(container));
		name = ltt_trace_comm(x->t, k->pid);
		if (!name || !*name)
			name = k->name;
		pk = packet_begin(x, x->last_ts);
		td = nest_begin(&x->ob, TP_TRACK_DESCRIPTOR);
		f_int(&x->ob, TD_UUID, 0x2000000000ULL + (uint32_t)k->pid);
		pd = nest_begin(&x->ob, TD_PROCESS);
		f_int(&x->ob, PD_PID, k->pid);
		f_str(&x->ob, PD_NAME, name);
		f_str(&x->ob, PD_LABELS, container);
		nest_end(&x->ob, pd);
		nest_end(&x->ob, td);
		packet_end(x, pk);
	}
}

static void process_tree(struct px *x)
{
	size_t i, pk, pt, m;

	pk = packet_begin(x, x->last_ts);
	pt = nest_begin(&x->ob, TP_PROCESS_TREE);
	for (i = 0; i < x->n_slots; i++) {
		struct ptask *k = &x->tasks[i];
		const char *name;

		if (!k->used || k->pid <= 0)
			continue;
		name = ltt_trace_comm(x->t, k->pid);
		if (!name || !*name)
			name = k->name;
		if (k->tgid == k->pid) {
			m = nest_begin(&x->ob, PT_PROCESSES);
			f_int(&x->ob, PR_PID, k->pid);
			if (k->ppid >= 0)
				f_int(&x->ob, PR_PPID, k->ppid);
			f_str(&x->ob, PR_CMDLINE, name);
			nest_end(&x->ob, m);
		}
		m = nest_begin(&x->ob, PT_THREADS);
		f_int(&x->ob, TH_TID, k->pid);
		f_str(&x->ob, TH_NAME, name);
		f_int(&x->ob, TH_TGID, k->tgid);
		nest_end(&x->ob, m);
	}
	nest_end(&x->ob, pt);
	packet_end(x, pk);
	process_containers(x);
}

static void clock_snapshot(struct px *x, uint64_t ts)
{
	size_t pk = packet_begin(x, ts), cs, ck;
	static const unsigned int ids[] = { CLOCK_BOOTTIME, CLOCK_MONOTONIC,
					    CLOCK_REALTIME };
	unsigned int i;

	cs = nest_begin(&x->ob, TP_CLOCK_SNAPSHOT);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		ck = nest_begin(&x->ob, CS_CLOCKS);
		f_int(&x->ob, CK_ID, ids[i]);
		f_int(&x->ob, CK_TS, ids[i] == CLOCK_REALTIME ?
		      ts + ltt_trace_clock_offset(x->t) : ts);
		nest_end(&x->ob, ck);
	}
	f_int(&x->ob, CS_PRIMARY, CLOCK_BOOTTIME);
	nest_end(&x->ob, cs);
	packet_end(x, pk);
}

static void px_ids(struct px *x)
{
	const struct ltt_registry *reg = x->reg;

#define ID(v, n)	(x->v = export_kernel_id(reg, n))
	ID(id_entry, "syscall_entry");
	ID(id_exit, "syscall_exit");
	ID(id_compat, "syscall_entry_compat");
	ID(id_sched, "sched_change");
	ID(id_wakeup, "process_wakeup");
	ID(id_fork, "process_fork");
	ID(id_exit_proc, "process_exit");
	ID(id_exec, "process_exec");
	ID(id_wait, "process_wait");
	ID(id_irq, "irq_entry");
	ID(id_irq_exit, "irq_exit");
	ID(id_softirq, "softirq");
	ID(id_sd_process, "statedump_process");
#undef ID
	export_softirq_events(reg, x->in_softirq);
}

int export_perfetto(const struct export_job *job)
{
	struct px x = { .job = job };
	struct export_reader r;
	const struct ltt_item *it;
	unsigned int i, errors;
	uint64_t first = 0;
	int ret = 1;

	export_reader_open(&r, job, true);
	x.t = r.t;
	x.reg = ltt_trace_registry(r.t);
	x.sys = ltt_trace_syscalls(r.t);
	x.in_softirq = calloc(x.reg->n_events + 1, sizeof(bool));
	if (!x.in_softirq) {
		warnx_cmd(job->cmd, "out of memory");
		goto done;
	}
	px_ids(&x);
	if (out_file_open(&x.out, job->output)) {
		warnx_cmd(job->cmd, "%s: %s", job->output, strerror(errno));
		goto done;
	}
	ltt_trace_time_range(r.t, &first, NULL);
	clock_snapshot(&x, r.from > first ? r.from : first);
	while (!x.failed && !x.ev.oom && !x.ob.oom &&
	       (it = export_reader_next(&r)))
		px_item(&x, it);
	for (i = 0; i < CPUS_MAX; i++) {
		if (x.cpu[i] && x.cpu[i]->soft_open)
			softirq_exit(&x, i);
		bundle_flush(&x, i);
	}
	process_tree(&x);
	if (x.ev.oom || x.ob.oom || x.inner.oom) {
		warnx_cmd(job->cmd, "out of memory");
		x.failed = true;
	}
	out_write(&x);
	errors = print_trace_errors(job->cmd, r.t);
	if (x.failed) {
		out_file_abort(&x.out);
		goto done;
	}
	if (out_file_finish(&x.out, job->cmd, false))
		goto done;
	ret = errors ? 1 : 0;
done:
	for (i = 0; i < CPUS_MAX; i++) {
		if (x.cpu[i])
			free(x.cpu[i]->bundle.p);
		free(x.cpu[i]);
	}
	free(x.tasks);
	free(x.ob.p);
	free(x.ev.p);
	free(x.inner.p);
	free(x.in_softirq);
	export_reader_close(&r);
	return ret;
}
