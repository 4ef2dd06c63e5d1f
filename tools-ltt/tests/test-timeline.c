// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline of ltt view and ltt export: calls, slices, states and
 * marks on the basic fixture (counted in fixtures.h) and on small traces
 * written here, each made for one behaviour.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../ltt/json.h"
#include "../ltt/ltt.h"
#include "../ltt/syscalls.h"
#include "../ltt/timeline.h"
#include "tests.h"
#include "writer.h"

struct run {
	struct ltt_trace *t;
	struct timeline tl;
};

static void run_tl(struct run *r, const char *dir)
{
	const struct ltt_item *it;

	r->t = ltt_trace_open(dir);
	assert_non_null(r->t);
	assert_int_equal(tl_init(&r->tl, r->t), 0);
	while (ltt_trace_next(r->t, &it) > 0)
		tl_add(&r->tl, it);
	assert_int_equal(tl_finish(&r->tl), 0);
	assert_int_equal(ltt_trace_n_errors(r->t), 0);
}

static void run_free(struct run *r)
{
	tl_free(&r->tl);
	ltt_trace_close(r->t);
}

/* Calls of @kind named @name (NULL: any); the first in *@first. */
static unsigned int calls(const struct run *r, enum tl_kind kind,
			  const char *name, const struct tl_call **first)
{
	unsigned int i, n = 0;

	if (first)
		*first = NULL;
	for (i = 0; i < r->tl.n_calls; i++) {
		const struct tl_call *c = &r->tl.calls[i];

		if (c->kind != kind ||
		    (name && strcmp(r->tl.strings[c->name], name)))
			continue;
		if (first && !*first)
			*first = c;
		n++;
	}
	return n;
}

/* Slices of call @c: count, and their lanes' bitmask in *@lanes. */
static unsigned int pieces(const struct run *r, const struct tl_call *c,
			   unsigned int *lanes, uint64_t *total)
{
	uint32_t idx = c - r->tl.calls, i, n = 0;

	*lanes = 0;
	*total = 0;
	for (i = 0; i < r->tl.n_slices; i++) {
		const struct tl_slice *s = &r->tl.slices[i];

		if (s->call != idx)
			continue;
		n++;
		*lanes |= 1u << s->lane;
		*total += s->t1 - s->t0;
	}
	return n;
}

void timeline_pairs_syscalls_of_the_basic_fixture(void **state)
{
	const struct tl_call *c;
	struct run r;
	unsigned int i, n = 0, unfinished = 0;

	(void)state;
	run_tl(&r, FIXTURE("basic"));
	assert_int_equal(calls(&r, TL_SYSCALL, "getppid", &c), FX_GETPPID);
	for (i = 0; i < r.tl.n_calls; i++) {
		const struct tl_call *k = &r.tl.calls[i];

		if (k->kind != TL_SYSCALL)
			continue;
		n++;
		unfinished += !!(k->flags & TL_UNFINISHED);
		if (!strcmp(r.tl.strings[k->name], "getppid")) {
			assert_int_equal(k->t1 - k->t0, FX_GETPPID_NS);
			assert_int_equal(k->pid, 101);
			assert_int_equal(k->ret, 100);
			assert_int_equal(k->nr, 110);
		} else if (!strcmp(r.tl.strings[k->name], "read")) {
			assert_int_equal(k->t1 - k->t0, FX_READ_NS);
			assert_int_equal(k->pid, 1);
			assert_int_equal(k->ret, 4096);
		}
	}
	assert_int_equal(n, FX_BASIC_ENTRIES);
	/* exit has no exit record */
	assert_int_equal(unfinished, FX_BASIC_ENTRIES - FX_BASIC_EXITS);
	assert_int_equal(calls(&r, TL_SYSCALL, "exit", &c), 1);
	assert_true(c->flags & TL_UNFINISHED);
	assert_int_equal(calls(&r, TL_SYSCALL, "read", NULL), FX_READS);
	assert_int_equal(calls(&r, TL_SYSCALL, "fork", &c), 1);
	assert_int_equal(c->ret, 101);
	assert_int_equal(c->a, 139637980925952ULL);
	assert_int_equal(r.tl.n_cpus, 2);
	run_free(&r);
}

void timeline_slices_are_sorted_and_nested(void **state)
{
	struct run r;
	uint32_t i;

	(void)state;
	run_tl(&r, FIXTURE("guest-mix"));
	assert_true(r.tl.n_slices > 1000);
	for (i = 1; i < r.tl.n_slices; i++) {
		const struct tl_slice *a = &r.tl.slices[i - 1], *b = &r.tl.slices[i];

		assert_true(a->t0 <= a->t1);
		if (a->lane == b->lane && a->depth == b->depth)
			assert_true(a->t1 <= b->t0);	/* one row: no overlap */
		else
			assert_true(a->lane < b->lane ||
				    (a->lane == b->lane && a->depth < b->depth));
	}
	/* a system call's pieces lie inside it */
	for (i = 0; i < r.tl.n_slices; i++) {
		const struct tl_slice *s = &r.tl.slices[i];
		const struct tl_call *c = &r.tl.calls[s->call];

		assert_true(s->t0 >= c->t0 && s->t1 <= c->t1);
		assert_int_equal(s->depth == 0, c->kind == TL_RUN);
	}
	run_free(&r);
}

void timeline_cpu_time_matches_stats(void **state)
{
	struct run r;
	uint64_t worker = 0, bash = 0, init = 0;
	uint32_t i;

	(void)state;
	run_tl(&r, FIXTURE("basic"));
	for (i = 0; i < r.tl.n_calls; i++) {
		const struct tl_call *c = &r.tl.calls[i];

		if (c->kind != TL_RUN)
			continue;
		if (c->pid == 101)
			worker += c->t1 - c->t0;
		else if (c->pid == 100)
			bash += c->t1 - c->t0;
		else if (c->pid == 1)
			init += c->t1 - c->t0;
	}
	assert_int_equal(bash, FX_CPU_BASH);
	/* the timeline runs each CPU to the trace's end, stats to its last event */
	assert_true(worker >= FX_CPU_WORKER);
	assert_true(init >= FX_CPU_INIT);
	run_free(&r);
}

#define EV(cpu, ts, name, ...)						\
	do {								\
		int64_t f_[] = { __VA_ARGS__ };				\
		assert_int_equal(fx_event(&w, cpu, ts, name, f_, NULL), 0); \
	} while (0)
#define EV0(cpu, ts, name)						\
	assert_int_equal(fx_event(&w, cpu, ts, name, none, NULL), 0)

/*
 * Task 500 on cpu0 reads, blocks in it (D), is woken by an irq's
 * softirq on cpu1 and finishes the read there, with a page fault inside.
 * Ticks at 1000 ns on cpu0 (idle), then:
 *   cpu0 1000 read entry; 2000 sched_change out D to idle
 *   cpu1 3000 irq_entry 5; 3500 irq_exit; 3600 softirq BLOCK;
 *        3700 process_wakeup 500; 4000 sched_change 0 -> 500;
 *        4500 trap_entry 14; 4800 trap_exit; 5000 syscall_exit 42;
 *        6000 user_message "done"
 */
static const char *sleeper_trace(char *dir, size_t len)
{
	static const struct fx_field text = { "text", false, 0 };
	static const int64_t none[1];
	struct ltt_registry reg;
	struct fx_writer w;

	snprintf(dir, len, "/tmp/ltt-timeline-test-%d", getpid());
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_registry_add_event(&reg, "user_message", &text, 1), 0);
	reg.events[reg.n_events - 1].custom = true;	/* as ltt log makes it */
	assert_int_equal(fx_open(&w, dir, &reg, 2, 4096, FX_CLOCK_OFFSET), 0);
	fx_set_pid(&w, 0, 500);
	fx_set_pid(&w, 1, 0);
	EV(0, FX_T0 + 1000, "syscall_entry", 0, 0x401000);
	EV(0, FX_T0 + 2000, "sched_change", 0, 500, 2);
	EV(1, FX_T0 + 3000, "irq_entry", 5, 0);
	EV0(1, FX_T0 + 3500, "irq_exit");
	EV(1, FX_T0 + 3600, "softirq", 4);
	EV(1, FX_T0 + 3700, "process_wakeup", 500, 2);
	EV(1, FX_T0 + 4000, "sched_change", 500, 0, 0);
	EV(1, FX_T0 + 4500, "trap_entry", 14, 0x402000);
	EV0(1, FX_T0 + 4800, "trap_exit");
	EV(1, FX_T0 + 5000, "syscall_exit", 42);
	assert_int_equal(fx_event(&w, 1, FX_T0 + 6000, "user_message", none,
				  "done"), 0);
	assert_int_equal(fx_close(&w, FX_T0 + 7000), 0);
	return dir;
}

void timeline_cuts_a_call_that_sleeps_and_moves(void **state)
{
	const struct tl_call *c;
	unsigned int lanes;
	uint64_t total;
	char dir[256];
	struct run r;

	(void)state;
	run_tl(&r, sleeper_trace(dir, sizeof(dir)));
	assert_int_equal(calls(&r, TL_SYSCALL, "read", &c), 1);
	assert_int_equal(c->t0, FX_T0 + 1000);
	assert_int_equal(c->t1, FX_T0 + 5000);
	assert_int_equal(c->ret, 42);
	assert_int_equal(c->flags, 0);
	/* on cpu0 until it blocked, on cpu1 from its return to the CPU */
	assert_int_equal(pieces(&r, c, &lanes, &total), 2);
	assert_int_equal(lanes, 3);
	assert_int_equal(total, 1000 + 1000);

	assert_int_equal(calls(&r, TL_TRAP, "page_fault", &c), 1);
	assert_int_equal(c->t1 - c->t0, 300);
	assert_int_equal(c->a, 0x402000);
	run_free(&r);
	remove_copy(dir);
}

void timeline_softirq_ends_at_its_last_event(void **state)
{
	const struct tl_call *c;
	char dir[256];
	struct run r;

	(void)state;
	run_tl(&r, sleeper_trace(dir, sizeof(dir)));
	assert_int_equal(calls(&r, TL_IRQ, "irq 5", &c), 1);
	assert_int_equal(c->t1 - c->t0, 500);
	assert_int_equal(calls(&r, TL_SOFTIRQ, "BLOCK", &c), 1);
	assert_int_equal(c->t0, FX_T0 + 3600);
	/* the wakeup is the softirq's; the switch is not */
	assert_int_equal(c->t1, FX_T0 + 3700);
	assert_true(c->flags & TL_END_GUESSED);
	run_free(&r);
	remove_copy(dir);
}

void timeline_task_states_from_switches_and_wakeups(void **state)
{
	static const struct { uint64_t t0, t1; enum tl_state s; } want[] = {
		{ 1000, 2000, TL_RUNNING },
		{ 2000, 3700, TL_BLOCKED },
		{ 3700, 4000, TL_RUNNABLE },
		{ 4000, 6000, TL_RUNNING },
	};
	unsigned int i, n = 0;
	char dir[256];
	struct run r;

	(void)state;
	run_tl(&r, sleeper_trace(dir, sizeof(dir)));
	for (i = 0; i < r.tl.n_states; i++) {
		const struct tl_state_span *s = &r.tl.states[i];

		if (s->pid != 500)
			continue;
		assert_true(n < ARRAY_SIZE(want));
		assert_int_equal(s->t0, FX_T0 + want[n].t0);
		assert_int_equal(s->t1, FX_T0 + want[n].t1);
		assert_int_equal(s->state, want[n].s);
		n++;
	}
	assert_int_equal(n, ARRAY_SIZE(want));
	/* the custom event is a mark with its text */
	assert_int_equal(r.tl.n_marks, 1);
	assert_string_equal(r.tl.strings[r.tl.marks[0].name], "user_message");
	assert_string_equal(r.tl.marks[0].text, "text=\"done\"");
	assert_int_equal(r.tl.marks[0].pid, 500);
	run_free(&r);
	remove_copy(dir);
}

void timeline_state_of_out_state(void **state)
{
	(void)state;
	assert_int_equal(tl_state_of(0), TL_RUNNABLE);
	assert_int_equal(tl_state_of(1), TL_SLEEPING);
	assert_int_equal(tl_state_of(2), TL_BLOCKED);
	assert_int_equal(tl_state_of(0x402), TL_SLEEPING);	/* TASK_IDLE */
	assert_int_equal(tl_state_of(0x2001), TL_SLEEPING);	/* freezable */
	assert_int_equal(tl_state_of(0x80), TL_DEAD);
	assert_int_equal(tl_state_of(0x10), TL_DEAD);
	assert_string_equal(tl_trap_name(&ltt_syscalls_x86_64, 14), "page_fault");
	assert_string_equal(tl_trap_name(&ltt_syscalls_i386, 1), "debug");
	/* each machine its own numbers: mips's ExcCode, ppc's vectors */
	assert_string_equal(tl_trap_name(&ltt_syscalls_mips_o32, 1),
			    "tlb_modified");
	assert_string_equal(tl_trap_name(&ltt_syscalls_ppc32, 0x400),
			    "instruction_storage");
	assert_null(tl_trap_name(&ltt_syscalls_ppc32, 14));
	assert_string_equal(tl_trap_name(&ltt_syscalls_s390x, 0x11),
			    "page_translation");
	assert_string_equal(tl_trap_name(&ltt_syscalls_arm, 0x7),
			    "page_translation");
	assert_null(tl_trap_name(&ltt_syscalls_aarch64, 14));
	assert_null(tl_trap_name(NULL, 14));
	assert_string_equal(tl_softirq_name(9), "RCU");
	assert_null(tl_softirq_name(10));
}

/* A lost range cuts what the CPU had open: the running task's call. */
void timeline_lost_events_cut_the_cpu(void **state)
{
	const struct tl_call *c;
	struct ltt_registry reg;
	struct fx_writer w;
	char dir[256];
	struct run r;
	unsigned int lanes;
	uint64_t total;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ltt-timeline-lost-%d", getpid());
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_open(&w, dir, &reg, 1, 4096, FX_CLOCK_OFFSET), 0);
	fx_set_pid(&w, 0, 700);
	EV(0, FX_T0 + 1000, "syscall_entry", 0, 0x401000);
	assert_int_equal(fx_lose(&w, 0, FX_T0 + 1500, 5), 0);
	fx_set_pid(&w, 0, 701);
	EV(0, FX_T0 + 5000, "syscall_entry", 110, 0x401000);
	EV(0, FX_T0 + 5100, "syscall_exit", 700);
	assert_int_equal(fx_close(&w, FX_T0 + 6000), 0);
	run_tl(&r, dir);
	assert_int_equal(r.tl.n_lost, 1);
	assert_int_equal(r.tl.lost[0].events, 5);
	assert_int_equal(calls(&r, TL_SYSCALL, "read", &c), 1);
	assert_true(c->flags & TL_UNFINISHED);
	assert_int_equal(c->t1, r.tl.lost[0].t0);
	assert_int_equal(pieces(&r, c, &lanes, &total), 1);
	/* the task after the gap runs from its first event */
	assert_int_equal(calls(&r, TL_RUN, NULL, &c), 2);
	for (unsigned int i = 0; i < r.tl.n_calls; i++)
		if (r.tl.calls[i].kind == TL_RUN && r.tl.calls[i].pid == 701)
			assert_int_equal(r.tl.calls[i].t0, FX_T0 + 5000);
	assert_int_equal(calls(&r, TL_SYSCALL, "getppid", &c), 1);
	assert_int_equal(c->t1 - c->t0, 100);
	run_free(&r);
	remove_copy(dir);
}

/* Strings in the view's data can hold no "</script>", nor break JSON. */
void timeline_json_strings_for_html(void **state)
{
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	struct b64 e;

	(void)state;
	assert_non_null(f);
	json_str(f, "a\"b\\c\n</script>&\x01");
	putc(' ', f);
	b64_begin(&e, f);
	b64_u32(&e, 0x64636261);	/* "abcd", little-endian */
	b64_end(&e);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "\"a\\\"b\\\\c\\n\\u003c/script\\u003e\\u0026\\u0001\" \"YWJjZA==\"");
}

/* An event long after a softirq's last one is not the softirq's. */
void timeline_softirq_ends_before_a_gap(void **state)
{
	const struct tl_call *c;
	struct ltt_registry reg;
	struct fx_writer w;
	char dir[256];
	struct run r;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ltt-timeline-gap-%d", getpid());
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_open(&w, dir, &reg, 1, 4096, FX_CLOCK_OFFSET), 0);
	fx_set_pid(&w, 0, 0);
	EV(0, FX_T0 + 1000, "softirq", 9);
	EV(0, FX_T0 + 1500, "process_wakeup", 14, 1);
	EV(0, FX_T0 + 1500 + TL_SOFTIRQ_GAP + 1, "process_wakeup", 15, 1);
	EV(0, FX_T0 + 1600 + TL_SOFTIRQ_GAP + 1, "sched_change", 15, 0, 0);
	assert_int_equal(fx_close(&w, FX_T0 + 10000000), 0);
	run_tl(&r, dir);
	assert_int_equal(calls(&r, TL_SOFTIRQ, "RCU", &c), 1);
	assert_int_equal(c->t0, FX_T0 + 1000);
	assert_int_equal(c->t1, FX_T0 + 1500);
	run_free(&r);
	remove_copy(dir);
}

/*
 * A softirq with no event of its own ends where it began, even when the
 * next event of its idle CPU, long after, is another softirq, an irq or
 * a switch: the idle time between is not the softirq's.
 */
void timeline_softirq_ends_before_the_next_softirq(void **state)
{
	static const int64_t none[1];
	const struct tl_call *c;
	struct ltt_registry reg;
	struct fx_writer w;
	char dir[256];
	struct run r;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ltt-timeline-next-%d", getpid());
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_open(&w, dir, &reg, 1, 4096, FX_CLOCK_OFFSET), 0);
	fx_set_pid(&w, 0, 0);
	EV(0, FX_T0 + 1000, "softirq", 7);		/* SCHED, idle */
	EV(0, FX_T0 + 100000, "softirq", 7);		/* 99 us later */
	EV(0, FX_T0 + 200000, "softirq", 1);		/* TIMER */
	EV0(0, FX_T0 + 200500, "timer_expired");
	EV(0, FX_T0 + 300000, "irq_entry", 4, 0);
	EV0(0, FX_T0 + 300500, "irq_exit");
	EV(0, FX_T0 + 400000, "softirq", 9);		/* RCU */
	EV(0, FX_T0 + 500000, "sched_change", 15, 0, 0);
	assert_int_equal(fx_close(&w, FX_T0 + 10000000), 0);
	run_tl(&r, dir);
	assert_int_equal(calls(&r, TL_SOFTIRQ, "SCHED", NULL), 2);
	for (unsigned int i = 0; i < r.tl.n_calls; i++) {
		c = &r.tl.calls[i];
		if (c->kind != TL_SOFTIRQ)
			continue;
		if (!strcmp(r.tl.strings[c->name], "TIMER"))
			assert_int_equal(c->t1, FX_T0 + 200500);
		else
			assert_int_equal(c->t1, c->t0);
		assert_true(c->flags & TL_END_GUESSED);
	}
	run_free(&r);
	remove_copy(dir);
}

void timeline_marks_file_changes(void **state)
{
	unsigned int i, renames = 0, unlinks = 0;
	struct run r;

	(void)state;
	run_tl(&r, FIXTURE("fschanges"));
	for (i = 0; i < r.tl.n_marks; i++) {
		const struct tl_mark *m = &r.tl.marks[i];
		const char *name = r.tl.strings[m->name];

		if (!strcmp(name, "fs_rename")) {
			renames++;
			/* its fs_newname joined to it */
			assert_non_null(strstr(m->text, "\" newname=\"/"));
		}
		unlinks += !strcmp(name, "fs_unlink");
		/* fs_newname is never a mark of its own, nor a write */
		assert_string_not_equal(name, "fs_newname");
		assert_string_not_equal(name, "fs_write");
	}
	assert_int_equal(renames, 5);
	assert_int_equal(unlinks, 4);
	assert_non_null(strstr(r.tl.marks[0].text, "newname=\"/etc/app.conf\""));
	tl_free(&r.tl);
	ltt_trace_close(r.t);
}
