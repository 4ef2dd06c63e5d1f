// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline behind `ltt view` and `ltt export`: items turned into
 * calls, per-CPU slices, task states and marks, in one pass.  timeline.h
 * says what each is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syscalls.h"
#include "container.h"
#include "timeline.h"

const char *const tl_kind_names[TL_KINDS] = {
	"run", "syscall", "trap", "irq", "softirq",
};

const char *const tl_state_names[TL_STATES] = {
	"unknown", "running", "runnable", "blocked", "sleeping", "dead",
};

/* Linux's task state bits (include/linux/sched.h) */
#define S_INTERRUPTIBLE		0x0001
#define S_UNINTERRUPTIBLE	0x0002
#define S_EXIT_DEAD		0x0010
#define S_EXIT_ZOMBIE		0x0020
#define S_DEAD			0x0080
#define S_NOLOAD		0x0400

enum tl_state tl_state_of(uint64_t s)
{
	if (s & (S_EXIT_DEAD | S_EXIT_ZOMBIE | S_DEAD))
		return TL_DEAD;
	if (!s)
		return TL_RUNNABLE;		/* preempted */
	if ((s & S_UNINTERRUPTIBLE) && !(s & S_NOLOAD))
		return TL_BLOCKED;		/* D: I/O, mostly */
	return TL_SLEEPING;			/* S, TASK_IDLE, stopped... */
}

/* A trap number and its name, in a table of the architecture's numbers. */
struct trap_name {
	uint16_t nr;
	const char *name;
};

#define TRAPS(a)	{ a, sizeof(a) / sizeof(a[0]) }

/* arch/x86/include/asm/trapnr.h */
static const struct trap_name x86_traps[] = {
	{ 0, "divide_error" }, { 1, "debug" }, { 2, "nmi" }, { 3, "int3" },
	{ 4, "overflow" }, { 5, "bounds" }, { 6, "invalid_op" },
	{ 7, "device_not_available" }, { 8, "double_fault" },
	{ 9, "coprocessor_segment_overrun" }, { 10, "invalid_tss" },
	{ 11, "segment_not_present" }, { 12, "stack_segment" },
	{ 13, "general_protection" }, { 14, "page_fault" }, { 15, "spurious" },
	{ 16, "coprocessor_error" }, { 17, "alignment_check" },
	{ 18, "machine_check" }, { 19, "simd_error" }, { 20, "virtualization" },
	{ 21, "control_protection" },
};

/* The CP0 Cause register's ExcCode (arch/mips/include/asm/mipsregs.h) */
static const struct trap_name mips_traps[] = {
	{ 0, "interrupt" }, { 1, "tlb_modified" }, { 2, "tlb_load" },
	{ 3, "tlb_store" }, { 4, "address_error_load" },
	{ 5, "address_error_store" }, { 6, "bus_error_ifetch" },
	{ 7, "bus_error_data" }, { 8, "syscall" }, { 9, "breakpoint" },
	{ 10, "reserved_instruction" }, { 11, "coprocessor_unusable" },
	{ 12, "overflow" }, { 13, "trap" }, { 14, "msa_fpe" }, { 15, "fpe" },
	{ 19, "tlb_read_inhibit" }, { 20, "tlb_execute_inhibit" },
	{ 21, "msa_disabled" }, { 23, "watch" }, { 24, "machine_check" },
	{ 30, "cache_error" },
};

/* The interrupt vector, TRAP(regs) (arch/powerpc/include/asm/ptrace.h) */
static const struct trap_name ppc_traps[] = {
	{ 0x100, "system_reset" }, { 0x200, "machine_check" },
	{ 0x300, "data_storage" }, { 0x380, "data_segment" },
	{ 0x400, "instruction_storage" }, { 0x480, "instruction_segment" },
	{ 0x500, "external" }, { 0x600, "alignment" }, { 0x700, "program" },
	{ 0x800, "fp_unavailable" }, { 0x900, "decrementer" },
	{ 0xc00, "system_call" }, { 0xd00, "single_step" },
	{ 0xf20, "altivec_unavailable" },
};

/* The program interruption code (arch/s390/mm/fault.c, pgm_check.S) */
static const struct trap_name s390_traps[] = {
	{ 0x01, "operation" }, { 0x02, "privileged_operation" },
	{ 0x04, "protection" }, { 0x05, "addressing" },
	{ 0x06, "specification" }, { 0x10, "segment_translation" },
	{ 0x11, "page_translation" }, { 0x38, "asce_type" },
	{ 0x39, "region_first_translation" },
	{ 0x3a, "region_second_translation" },
	{ 0x3b, "region_third_translation" },
};

/* EXPEVT (arch/sh/kernel/cpu/sh4/entry.S) */
static const struct trap_name sh_traps[] = {
	{ 0x040, "tlb_miss_load" }, { 0x060, "tlb_miss_store" },
	{ 0x080, "initial_page_write" }, { 0x0a0, "tlb_protection_load" },
	{ 0x0c0, "tlb_protection_store" }, { 0x0e0, "address_error_load" },
	{ 0x100, "address_error_store" },
};

/* The short-descriptor fault status, fsr_fs() (arch/arm/mm/fsr-2level.c) */
static const struct trap_name arm_traps[] = {
	{ 0x1, "alignment" }, { 0x3, "section_access_flag" },
	{ 0x4, "icache_maintenance" }, { 0x5, "section_translation" },
	{ 0x6, "page_access_flag" }, { 0x7, "page_translation" },
	{ 0x8, "external_abort" }, { 0x9, "section_domain" },
	{ 0xb, "page_domain" }, { 0xd, "section_permission" },
	{ 0xf, "page_permission" },
};

static const struct {
	const char *table;		/* a syscall table's name, or its prefix */
	struct {
		const struct trap_name *v;
		size_t n;
	} traps;
} arch_traps[] = {
	{ "x86_64", TRAPS(x86_traps) }, { "x32", TRAPS(x86_traps) },
	{ "i386", TRAPS(x86_traps) }, { "mips", TRAPS(mips_traps) },
	{ "ppc", TRAPS(ppc_traps) }, { "s390", TRAPS(s390_traps) },
	{ "sh", TRAPS(sh_traps) }, { "arm", TRAPS(arm_traps) },
};

const char *tl_trap_name(const struct ltt_syscall_table *arch, uint64_t nr)
{
	size_t i, j;

	if (!arch)
		return NULL;		/* a machine we know nothing of */
	for (i = 0; i < sizeof(arch_traps) / sizeof(arch_traps[0]); i++) {
		const char *p = arch_traps[i].table;

		if (strncmp(arch->name, p, strlen(p)))
			continue;
		for (j = 0; j < arch_traps[i].traps.n; j++)
			if (arch_traps[i].traps.v[j].nr == nr)
				return arch_traps[i].traps.v[j].name;
		return NULL;
	}
	return NULL;
}

const char *tl_softirq_name(uint64_t vec)
{
	/* include/linux/interrupt.h */
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
		"TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	return vec < sizeof(names) / sizeof(names[0]) ? names[vec] : NULL;
}

/*
 * Events a softirq handler makes: they do not end the softirq.  An
 * interrupt does: it may come after the softirq returned as well as in
 * it, and the end is a lower bound either way.
 */
static const char *const softirq_events[] = {
	"tasklet_action", "tasklet_hi_action", "timer_expired",
	"process_wakeup", "process_signal", "mm_page_alloc", "mm_page_free",
	"net_packet_in", "net_packet_out", "socket_receive",
};

/* Kernel events drawn as marks, as custom events are: file changes. */
enum { TL_MARK_NONE, TL_MARK, TL_MARK_NEWNAME };
static const char *const mark_events[] = {
	"fs_rename", "fs_unlink", "fs_rmdir", "fs_mkdir", "fs_link",
	"fs_symlink", "fs_truncate", "fs_chmod", "fs_chown", "fs_mmap_write",
};

static uint8_t mark_of(const struct timeline *tl, unsigned int id)
{
	return id < tl->n_ids ? tl->mark_kind[id] : TL_MARK_NONE;
}

/* Grow *@v of *@cap elements of @size to hold one more; -1: no memory. */
static int grow(void **v, uint32_t *cap, uint32_t n, size_t size)
{
	uint32_t c;
	void *p;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 1024;
	p = realloc(*v, (size_t)c * size);
	if (!p)
		return -1;
	*v = p;
	*cap = c;
	return 0;
}

#define GROW(tl, arr, n, cap)						\
	(grow((void **)&(tl)->arr, &(tl)->cap, (tl)->n, sizeof(*(tl)->arr)) ? \
	 ((tl)->failed = true, -1) : 0)

static uint32_t hash32(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (uint32_t)k;
}

static uint32_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return hash32(h);
}

static int rehash(uint32_t **table, uint32_t *size, uint32_t n,
		  uint32_t (*key)(const struct timeline *, uint32_t),
		  const struct timeline *tl)
{
	uint32_t s = *size ? *size * 2 : 1024, i, h;
	uint32_t *t = calloc(s, sizeof(*t));

	if (!t)
		return -1;
	for (i = 0; i < n; i++) {
		for (h = key(tl, i) & (s - 1); t[h]; h = (h + 1) & (s - 1))
			;
		t[h] = i + 1;
	}
	free(*table);
	*table = t;
	*size = s;
	return 0;
}

static uint32_t str_key(const struct timeline *tl, uint32_t i)
{
	return str_hash(tl->strings[i]);
}

static uint32_t task_key(const struct timeline *tl, uint32_t i)
{
	return hash32((uint32_t)tl->tasks[i].pid);
}

uint32_t tl_string(struct timeline *tl, const char *s)
{
	uint32_t h, mask;
	char *copy;

	if (2 * (tl->n_strings + 1) > tl->str_hash_size &&
	    rehash(&tl->str_hash, &tl->str_hash_size, tl->n_strings, str_key,
		   tl))
		goto nomem;
	mask = tl->str_hash_size - 1;
	for (h = str_hash(s) & mask; tl->str_hash[h]; h = (h + 1) & mask)
		if (!strcmp(tl->strings[tl->str_hash[h] - 1], s))
			return tl->str_hash[h] - 1;
	if (GROW(tl, strings, n_strings, cap_strings))
		return UINT32_MAX;
	copy = strdup(s);
	if (!copy)
		goto nomem;
	tl->strings[tl->n_strings] = copy;
	tl->str_hash[h] = ++tl->n_strings;
	return tl->n_strings - 1;
nomem:
	tl->failed = true;
	return UINT32_MAX;
}

static const char *comm_of(const struct timeline *tl, int32_t pid)
{
	const char *c = ltt_trace_comm(tl->trace, pid);

	return c ? c : "?";
}

/* The task @pid, added (state unknown) if new; NULL without memory. */
static struct tl_task *task_get(struct timeline *tl, int32_t pid)
{
	uint32_t h, mask;
	struct tl_task *k;

	if (tl->task_hash_size) {
		mask = tl->task_hash_size - 1;
		for (h = hash32((uint32_t)pid) & mask; tl->task_hash[h];
		     h = (h + 1) & mask)
			if (tl->tasks[tl->task_hash[h] - 1].pid == pid)
				return &tl->tasks[tl->task_hash[h] - 1];
	}
	if (2 * (tl->n_tasks + 1) > tl->task_hash_size &&
	    rehash(&tl->task_hash, &tl->task_hash_size, tl->n_tasks, task_key,
		   tl)) {
		tl->failed = true;
		return NULL;
	}
	if (GROW(tl, tasks, n_tasks, cap_tasks))
		return NULL;
	mask = tl->task_hash_size - 1;
	for (h = hash32((uint32_t)pid) & mask; tl->task_hash[h];
	     h = (h + 1) & mask)
		;
	k = &tl->tasks[tl->n_tasks];
	memset(k, 0, sizeof(*k));
	k->pid = pid;
	k->tgid = pid;
	k->cpu = -1;
	k->name = tl_string(tl, comm_of(tl, pid));
	tl->task_hash[h] = ++tl->n_tasks;
	return k;
}

const struct tl_task *tl_task(const struct timeline *tl, int32_t pid)
{
	uint32_t h, mask;

	if (!tl->task_hash_size)
		return NULL;
	mask = tl->task_hash_size - 1;
	for (h = hash32((uint32_t)pid) & mask; tl->task_hash[h];
	     h = (h + 1) & mask)
		if (tl->tasks[tl->task_hash[h] - 1].pid == pid)
			return &tl->tasks[tl->task_hash[h] - 1];
	return NULL;
}

static int field(const struct ltt_registry *reg, int id, const char *name)
{
	return id < 0 ? -1 : ltt_event_field_index(&reg->events[id], name);
}

/* The integer field @name of @it, or @def. */
static int64_t get(const struct ltt_item *it, const char *name, int64_t def)
{
	int64_t v;

	return ltt_item_field(it, name, &v) < 0 ? def : v;
}

int tl_init(struct timeline *tl, const struct ltt_trace *t)
{
	const struct ltt_registry *reg = ltt_trace_registry(t);
	unsigned int i;

	memset(tl, 0, sizeof(*tl));
	tl->trace = t;
	tl->syscalls = ltt_trace_syscalls(t);
	tl->id_entry = ltt_registry_find(reg, "syscall_entry");
	tl->id_exit = ltt_registry_find(reg, "syscall_exit");
	tl->id_trap = ltt_registry_find(reg, "trap_entry");
	tl->id_trap_exit = ltt_registry_find(reg, "trap_exit");
	tl->id_irq = ltt_registry_find(reg, "irq_entry");
	tl->id_irq_exit = ltt_registry_find(reg, "irq_exit");
	tl->id_softirq = ltt_registry_find(reg, "softirq");
	tl->id_sched = ltt_registry_find(reg, "sched_change");
	tl->id_wakeup = ltt_registry_find(reg, "process_wakeup");
	tl->id_fork = ltt_registry_find(reg, "process_fork");
	tl->id_exit_proc = ltt_registry_find(reg, "process_exit");
	tl->id_statedump = ltt_registry_find(reg, "statedump_process");
	if (field(reg, tl->id_sched, "in") < 0)
		tl->id_sched = -1;
	tl->in_softirq = calloc(reg->n_events + 1, sizeof(bool));
	tl->mark_kind = calloc(reg->n_events + 1, 1);
	tl->n_ids = reg->n_events;
	if (!tl->in_softirq || !tl->mark_kind ||
	    cpu_time_init(&tl->cpu_time, reg))
		return -1;
	for (i = 0; i < sizeof(mark_events) / sizeof(mark_events[0]); i++) {
		int id = ltt_registry_find(reg, mark_events[i]);

		if (id >= 0 && !reg->events[id].custom)
			tl->mark_kind[id] = TL_MARK;
	}
	i = ltt_registry_find(reg, "fs_newname");
	if ((int)i >= 0 && !reg->events[i].custom)
		tl->mark_kind[i] = TL_MARK_NEWNAME;
	for (i = 0; i < sizeof(softirq_events) / sizeof(softirq_events[0]); i++) {
		int id = ltt_registry_find(reg, softirq_events[i]);

		if (id >= 0)
			tl->in_softirq[id] = true;
	}
	for (i = 0; i < TL_CPUS; i++)
		tl->cpu[i].run = UINT32_MAX;
	return 0;
}

static uint32_t call_new(struct timeline *tl, enum tl_kind kind, uint64_t ts,
			 int32_t pid, uint32_t name)
{
	struct tl_call *c;

	if (GROW(tl, calls, n_calls, cap_calls))
		return UINT32_MAX;
	c = &tl->calls[tl->n_calls];
	memset(c, 0, sizeof(*c));
	c->t0 = c->t1 = ts;
	c->kind = kind;
	c->pid = pid;
	c->name = name;
	return tl->n_calls++;
}

static void slice_emit(struct timeline *tl, uint32_t call, unsigned int cpu,
		       unsigned int depth, uint64_t t0, uint64_t t1)
{
	struct tl_slice *s;

	if (call == UINT32_MAX || GROW(tl, slices, n_slices, cap_slices))
		return;
	s = &tl->slices[tl->n_slices++];
	s->t0 = t0;
	s->t1 = t1 < t0 ? t0 : t1;
	s->call = call;
	s->lane = cpu;
	s->depth = depth;
}

static void task_state(struct timeline *tl, struct tl_task *k,
		       enum tl_state st, uint64_t ts)
{
	struct tl_state_span *s;

	if (k->state == st)
		return;
	if (k->state != TL_UNKNOWN && k->state != TL_DEAD &&
	    ts > k->state_since && !GROW(tl, states, n_states, cap_states)) {
		s = &tl->states[tl->n_states++];
		s->t0 = k->state_since;
		s->t1 = ts;
		s->pid = k->pid;
		s->state = k->state;
	}
	k->state = st;
	k->state_since = ts;
}

/* Close the top frame of task @k at @ts; its last piece if on a CPU. */
static void task_pop(struct timeline *tl, struct tl_task *k, uint64_t ts,
		     uint8_t flags)
{
	uint32_t call = k->frame[--k->depth];

	tl->calls[call].t1 = ts;
	tl->calls[call].flags |= flags;
	if (k->cpu >= 0)
		slice_emit(tl, call, k->cpu, 1 + k->depth, k->since[k->depth],
			   ts);
}

static void task_push(struct timeline *tl, struct tl_task *k, uint32_t call,
		      uint64_t ts)
{
	if (call == UINT32_MAX)
		return;
	if (k->depth == TL_DEPTH)
		task_pop(tl, k, ts, TL_UNFINISHED);
	k->since[k->depth] = ts;
	k->frame[k->depth++] = call;
}

static void cpu_pop(struct timeline *tl, unsigned int cpu, uint64_t ts,
		    uint8_t flags)
{
	struct tl_cpu *c = &tl->cpu[cpu];
	uint32_t call = c->frame[--c->depth];

	if (tl->calls[call].kind == TL_SOFTIRQ) {
		/* its last event, not the one that tells it ended */
		if (c->soft_last < ts)
			ts = c->soft_last;
		flags = TL_END_GUESSED;
	}
	tl->calls[call].t1 = ts;
	tl->calls[call].flags |= flags;
	slice_emit(tl, call, cpu, c->fdepth[c->depth], tl->calls[call].t0, ts);
}

static struct tl_task *running(struct timeline *tl, struct tl_cpu *c)
{
	return c->pid ? task_get(tl, c->pid) : NULL;
}

static void cpu_push(struct timeline *tl, unsigned int cpu, uint32_t call,
		     uint64_t ts)
{
	struct tl_cpu *c = &tl->cpu[cpu];
	struct tl_task *k = running(tl, c);
	unsigned int base = 1 + (k ? k->depth : 0);

	if (call == UINT32_MAX)
		return;
	if (c->depth == TL_DEPTH)
		cpu_pop(tl, cpu, ts, TL_UNFINISHED);
	c->fdepth[c->depth] = c->depth ? c->fdepth[c->depth - 1] + 1 : base;
	c->soft_last = ts;
	c->frame[c->depth++] = call;
}

/* The task @pid starts running on @cpu at @ts. */
static void run_begin(struct timeline *tl, unsigned int cpu, int32_t pid,
		      uint64_t ts)
{
	struct tl_cpu *c = &tl->cpu[cpu];
	struct tl_task *k;
	unsigned int i;

	c->pid = pid;
	c->piece = ts;
	c->run = UINT32_MAX;
	if (!pid)
		return;
	k = task_get(tl, pid);
	if (!k)
		return;
	k->name = tl_string(tl, comm_of(tl, pid));
	c->run = call_new(tl, TL_RUN, ts, pid, k->name);
	if (k->cpu >= 0 && k->cpu != (int32_t)cpu) {
		/* still on another CPU: the trace missed its switch */
		for (i = 0; i < k->depth; i++)
			slice_emit(tl, k->frame[i], k->cpu, 1 + i, k->since[i],
				   ts);
	}
	k->cpu = cpu;
	for (i = 0; i < k->depth; i++)
		k->since[i] = ts;
	task_state(tl, k, TL_RUNNING, ts);
}

/* The task running on @cpu leaves it at @ts in state @st. */
static void run_end(struct timeline *tl, unsigned int cpu, uint64_t ts,
		    enum tl_state st)
{
	struct tl_cpu *c = &tl->cpu[cpu];
	struct tl_task *k = running(tl, c);
	unsigned int i;

	while (c->depth)
		cpu_pop(tl, cpu, ts, tl->calls[c->frame[c->depth - 1]].kind ==
			TL_SOFTIRQ ? TL_END_GUESSED : TL_UNFINISHED);
	if (c->run != UINT32_MAX) {
		tl->calls[c->run].t1 = ts;
		slice_emit(tl, c->run, cpu, 0, c->piece, ts);
		c->run = UINT32_MAX;
	}
	if (!k || k->cpu != (int32_t)cpu)
		return;
	for (i = 0; i < k->depth; i++)
		slice_emit(tl, k->frame[i], cpu, 1 + i, k->since[i], ts);
	k->cpu = -1;
	task_state(tl, k, st, ts);
}

static uint32_t name_or_number(struct timeline *tl, const char *name,
			       const char *prefix, int64_t nr)
{
	char buf[64];

	if (name)
		return tl_string(tl, name);
	snprintf(buf, sizeof(buf), "%s%lld", prefix, (long long)nr);
	return tl_string(tl, buf);
}

static void on_syscall(struct timeline *tl, struct tl_task *k,
		       const struct ltt_item *it)
{
	int64_t nr = get(it, "id", -1);
	uint32_t call;

	while (k->depth)	/* an entry without an exit: cut it */
		task_pop(tl, k, it->ts, TL_UNFINISHED);
	call = call_new(tl, TL_SYSCALL, it->ts, k->pid,
			name_or_number(tl, ltt_syscall_name(tl->syscalls, nr),
				       "syscall_", nr));
	if (call == UINT32_MAX)
		return;
	tl->calls[call].nr = nr;
	tl->calls[call].a = (uint64_t)get(it, "ip", 0);
	task_push(tl, k, call, it->ts);
}

static void on_syscall_exit(struct timeline *tl, struct tl_task *k,
			    const struct ltt_item *it)
{
	unsigned int i;

	for (i = k->depth; i > 0; i--)
		if (tl->calls[k->frame[i - 1]].kind == TL_SYSCALL)
			break;
	if (!i)
		return;		/* entered before the trace began */
	while (k->depth > i)
		task_pop(tl, k, it->ts, TL_UNFINISHED);
	tl->calls[k->frame[i - 1]].ret = get(it, "ret", 0);
	task_pop(tl, k, it->ts, 0);
}

static void on_trap(struct timeline *tl, unsigned int cpu, struct tl_task *k,
		    const struct ltt_item *it)
{
	int64_t nr = get(it, "trap", -1);
	uint32_t call;

	call = call_new(tl, TL_TRAP, it->ts, it->pid,
			name_or_number(tl, tl_trap_name(tl->syscalls, nr), "trap_",
				      nr));
	if (call == UINT32_MAX)
		return;
	tl->calls[call].nr = nr;
	tl->calls[call].a = (uint64_t)get(it, "ip", 0);
	if (tl->cpu[cpu].depth || !k)
		cpu_push(tl, cpu, call, it->ts);
	else
		task_push(tl, k, call, it->ts);
}

static void on_trap_exit(struct timeline *tl, unsigned int cpu,
			 struct tl_task *k, uint64_t ts)
{
	struct tl_cpu *c = &tl->cpu[cpu];

	if (c->depth && tl->calls[c->frame[c->depth - 1]].kind == TL_TRAP)
		cpu_pop(tl, cpu, ts, 0);
	else if (k && k->depth &&
		 tl->calls[k->frame[k->depth - 1]].kind == TL_TRAP)
		task_pop(tl, k, ts, 0);
}

/* Pop the CPU's frames down to and including the last of @kind. */
static void cpu_unwind(struct timeline *tl, unsigned int cpu, enum tl_kind kind,
		       uint64_t ts)
{
	struct tl_cpu *c = &tl->cpu[cpu];
	unsigned int i;

	for (i = c->depth; i > 0; i--)
		if (tl->calls[c->frame[i - 1]].kind == kind)
			break;
	if (!i)
		return;
	while (c->depth > i) {
		uint8_t k = tl->calls[c->frame[c->depth - 1]].kind;

		cpu_pop(tl, cpu, ts, k == TL_SOFTIRQ ? TL_END_GUESSED :
			TL_UNFINISHED);
	}
	cpu_pop(tl, cpu, ts, kind == TL_SOFTIRQ ? TL_END_GUESSED : 0);
}

static void on_irq(struct timeline *tl, unsigned int cpu,
		   const struct ltt_item *it, enum tl_kind kind)
{
	int64_t nr = get(it, kind == TL_IRQ ? "irq" : "vec", -1);
	uint32_t call;
	char buf[32];

	if (kind == TL_SOFTIRQ) {
		cpu_unwind(tl, cpu, TL_SOFTIRQ, it->ts);
		call = call_new(tl, kind, it->ts, it->pid,
				name_or_number(tl, tl_softirq_name(nr),
					       "softirq_", nr));
	} else {
		snprintf(buf, sizeof(buf), "irq %lld", (long long)nr);
		call = call_new(tl, kind, it->ts, it->pid, tl_string(tl, buf));
	}
	if (call == UINT32_MAX)
		return;
	tl->calls[call].nr = nr;
	tl->calls[call].a = (uint64_t)nr;
	cpu_push(tl, cpu, call, it->ts);
}

/* fs_newname: its name goes to the mark of its rename or link. */
static void on_newname(struct timeline *tl, const struct ltt_item *it)
{
	struct tl_mark *m = tl->n_marks ? &tl->marks[tl->n_marks - 1] : NULL;
	char name[LTT_STRING_MAX * 4 + 16];
	size_t len;
	char *text;
	int w;

	if (!m || m->cpu != it->cpu || m->pid != it->pid || m->joined ||
	    !it->desc->has_string)
		return;
	w = ltt_item_format_field(it, it->desc->n_fields - 1, name,
				  sizeof(name));
	if (w <= 0)
		return;
	len = strlen(m->text);
	text = realloc(m->text, len + w + sizeof(" newname="));
	if (!text) {
		tl->failed = true;
		return;
	}
	snprintf(text + len, w + sizeof(" newname="), " newname=%s", name);
	m->text = text;
	m->joined = true;
}

static void on_mark(struct timeline *tl, const struct ltt_item *it)
{
	char text[LTT_STRING_MAX * 4 + 512];
	const struct ltt_event_desc *d = it->desc;
	struct tl_mark *m;
	size_t n = 0;
	unsigned int i;

	if (mark_of(tl, d->id) == TL_MARK_NEWNAME) {
		on_newname(tl, it);
		return;
	}
	for (i = 0; i < d->n_fields && n + 64 < sizeof(text); i++) {
		int w;

		n += snprintf(text + n, sizeof(text) - n, "%s%s=",
			      i ? " " : "", d->fields[i].name);
		w = ltt_item_format_field(it, i, text + n, sizeof(text) - n);
		n += w > 0 ? (size_t)w : 0;
	}
	text[n] = '\0';
	if (GROW(tl, marks, n_marks, cap_marks))
		return;
	m = &tl->marks[tl->n_marks];
	m->ts = it->ts;
	m->cpu = it->cpu;
	m->pid = it->pid;
	m->name = tl_string(tl, d->name);
	m->joined = false;
	m->text = strdup(text);
	if (!m->text) {
		tl->failed = true;
		return;
	}
	tl->n_marks++;
}

/*
 * Events lost on a CPU: what ran there, and what its task had open, is
 * unknown from the range's start; the next event starts afresh.
 */
static void on_lost(struct timeline *tl, const struct ltt_item *it)
{
	struct tl_cpu *c = &tl->cpu[it->cpu];
	struct tl_lost *l;

	if (GROW(tl, lost, n_lost, cap_lost))
		return;
	l = &tl->lost[tl->n_lost++];
	l->cpu = it->cpu;
	l->t0 = it->lost_from;
	l->t1 = it->ts;
	l->events = it->lost_events;
	l->packets = it->lost_packets;
	if (c->seen) {
		uint64_t at = it->lost_from > c->piece ? it->lost_from : c->piece;
		struct tl_task *k = running(tl, c);

		while (c->depth)
			cpu_pop(tl, it->cpu, at, TL_UNFINISHED);
		while (k && k->cpu == (int32_t)it->cpu && k->depth)
			task_pop(tl, k, at, TL_UNFINISHED);
		run_end(tl, it->cpu, at, TL_UNKNOWN);
		c->seen = false;
	}
}

/* Process life: who belongs to which process, forks, wakeups, exits. */
static void on_task_event(struct timeline *tl, const struct ltt_item *it,
			  int id)
{
	struct tl_task *k;

	if (id == tl->id_wakeup) {
		k = task_get(tl, get(it, "pid", -1));
		if (k && k->state != TL_RUNNING)
			task_state(tl, k, TL_RUNNABLE, it->ts);
	} else if (id == tl->id_fork) {
		k = task_get(tl, get(it, "child", -1));
		if (k) {
			k->tgid = get(it, "child_tgid", k->pid);
			k->name = tl_string(tl, comm_of(tl, k->pid));
			task_state(tl, k, TL_RUNNABLE, it->ts);
		}
	} else if (id == tl->id_statedump) {
		k = task_get(tl, get(it, "pid", -1));
		if (k) {
			k->tgid = get(it, "tgid", k->pid);
			k->name = tl_string(tl, comm_of(tl, k->pid));
		}
	} else if (id == tl->id_exit_proc) {
		k = task_get(tl, get(it, "pid", it->pid));
		while (k && k->depth)	/* exit_group() does not return */
			task_pop(tl, k, it->ts, TL_UNFINISHED);
	}
}

void tl_add(struct timeline *tl, const struct ltt_item *it)
{
	struct tl_cpu *c;
	struct tl_task *k;
	int id;

	cpu_time_add(&tl->cpu_time, it);
	if (!tl->events && !tl->n_lost && !tl->skipped)
		tl->t0 = it->kind == LTT_ITEM_LOST ? it->lost_from : it->ts;
	if (it->ts > tl->t1)
		tl->t1 = it->ts;
	if (it->cpu >= TL_CPUS)
		return;
	if (it->cpu >= tl->n_cpus)
		tl->n_cpus = it->cpu + 1;
	if (it->kind == LTT_ITEM_LOST) {
		on_lost(tl, it);
		return;
	}
	tl->events++;
	c = &tl->cpu[it->cpu];
	id = it->desc->id;
	if (!c->seen) {
		c->seen = true;
		run_begin(tl, it->cpu, it->pid, it->ts);
	}
	/* a softirq ends at the first event it does not make */
	if (c->depth && tl->calls[c->frame[c->depth - 1]].kind == TL_SOFTIRQ &&
	    id != tl->id_softirq && (!tl->in_softirq[id] ||
				     it->ts - c->soft_last > TL_SOFTIRQ_GAP))
		cpu_unwind(tl, it->cpu, TL_SOFTIRQ, it->ts);
	/* the next softirq, an irq, a switch are not the open softirq's */
	if (c->depth && tl->in_softirq[id])
		c->soft_last = it->ts;
	if (it->pid != c->pid) {
		/* the reader knows better (a lost switch) */
		run_end(tl, it->cpu, it->ts, TL_UNKNOWN);
		run_begin(tl, it->cpu, it->pid, it->ts);
	}
	k = running(tl, c);
	if (id == tl->id_entry && k) {
		while (c->depth)
			cpu_pop(tl, it->cpu, it->ts, TL_UNFINISHED);
		on_syscall(tl, k, it);
	} else if (id == tl->id_exit && k) {
		on_syscall_exit(tl, k, it);
	} else if (id == tl->id_trap) {
		on_trap(tl, it->cpu, k, it);
	} else if (id == tl->id_trap_exit) {
		on_trap_exit(tl, it->cpu, k, it->ts);
	} else if (id == tl->id_irq) {
		on_irq(tl, it->cpu, it, TL_IRQ);
	} else if (id == tl->id_irq_exit) {
		cpu_unwind(tl, it->cpu, TL_IRQ, it->ts);
	} else if (id == tl->id_softirq) {
		on_irq(tl, it->cpu, it, TL_SOFTIRQ);
	} else if (id == tl->id_sched) {
		run_end(tl, it->cpu, it->ts, tl_state_of(get(it, "out_state", 1)));
		run_begin(tl, it->cpu, get(it, "in", 0), it->ts);
	} else if (it->desc->custom || mark_of(tl, id)) {
		on_mark(tl, it);
	} else {
		on_task_event(tl, it, id);
	}
}

void tl_skip(struct timeline *tl, const struct ltt_item *it)
{
	cpu_time_skip(&tl->cpu_time, it);
	if (!tl->events && !tl->n_lost && !tl->skipped)
		tl->t0 = it->kind == LTT_ITEM_LOST ? it->lost_from : it->ts;
	tl->skipped = true;
	if (it->ts > tl->t1)
		tl->t1 = it->ts;
	if (it->cpu < TL_CPUS && it->cpu >= tl->n_cpus)
		tl->n_cpus = it->cpu + 1;
}

static int slice_cmp(const void *a, const void *b)
{
	const struct tl_slice *x = a, *y = b;

	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	return x->t1 < y->t1 ? -1 : x->t1 > y->t1;
}

static int state_cmp(const void *a, const void *b)
{
	const struct tl_state_span *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

int tl_finish(struct timeline *tl)
{
	unsigned int i;
	size_t pos = 0;
	bool cgroups = ltt_trace_cgroups(tl->trace, &pos, NULL, NULL);
	char container[LTT_CGROUP_NAME_MAX];

	cpu_time_finish(&tl->cpu_time);
	for (i = 0; i < tl->n_cpus; i++)
		if (tl->cpu[i].seen)
			run_end(tl, i, tl->t1, TL_RUNNING);
	for (i = 0; i < tl->n_tasks; i++) {
		struct tl_task *k = &tl->tasks[i];

		while (k->depth)
			task_pop(tl, k, tl->t1, TL_UNFINISHED);
		task_state(tl, k, TL_UNKNOWN, tl->t1);
		k->name = tl_string(tl, comm_of(tl, k->pid));
		k->container = UINT32_MAX;
		if (cgroups && k->pid > 0) {
			container_name_of(ltt_trace_cgroup(tl->trace, k->pid,
							   NULL),
					  container, sizeof(container));
			k->container = tl_string(tl, container);
		}
	}
	if (tl->slices)
		qsort(tl->slices, tl->n_slices, sizeof(*tl->slices), slice_cmp);
	if (tl->states)
		qsort(tl->states, tl->n_states, sizeof(*tl->states), state_cmp);
	return tl->failed ? -1 : 0;
}

void tl_free(struct timeline *tl)
{
	uint32_t i;

	cpu_time_free(&tl->cpu_time);
	for (i = 0; i < tl->n_strings; i++)
		free(tl->strings[i]);
	for (i = 0; i < tl->n_marks; i++)
		free(tl->marks[i].text);
	free(tl->strings);
	free(tl->str_hash);
	free(tl->tasks);
	free(tl->task_hash);
	free(tl->calls);
	free(tl->slices);
	free(tl->states);
	free(tl->marks);
	free(tl->lost);
	free(tl->in_softirq);
	free(tl->mark_kind);
	memset(tl, 0, sizeof(*tl));
}
