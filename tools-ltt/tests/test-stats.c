// SPDX-License-Identifier: GPL-2.0
/*
 * ltt stats' analyses on the fixtures: every figure it prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ltt/analysis.h"
#include "../ltt/ltt.h"
#include "../ltt/syscalls.h"
#include "tests.h"

struct run {
	struct ltt_trace *t;
	struct stats st;
};

static void run_stats(struct run *r, const char *dir, int32_t pid)
{
	const struct ltt_item *it;

	r->t = ltt_trace_open(dir);
	assert_non_null(r->t);
	assert_int_equal(stats_init(&r->st, ltt_trace_registry(r->t), pid), 0);
	while (ltt_trace_next(r->t, &it) > 0)
		stats_add(&r->st, it);
	stats_finish(&r->st);
	assert_int_equal(ltt_trace_n_errors(r->t), 0);
}

static void run_free(struct run *r)
{
	stats_free(&r->st);
	ltt_trace_close(r->t);
}

static uint64_t per_event(const struct run *r, const char *name)
{
	int id = ltt_registry_find(ltt_trace_registry(r->t), name);

	assert_true(id >= 0);
	return r->st.per_event[id];
}

void stats_counts_events_by_type(void **state)
{
	struct run r;

	(void)state;
	run_stats(&r, FIXTURE("basic"), -1);
	assert_int_equal(r.st.events, FX_BASIC_EVENTS);
	assert_int_equal(per_event(&r, "syscall_entry"), FX_BASIC_ENTRIES);
	assert_int_equal(per_event(&r, "syscall_exit"), FX_BASIC_EXITS);
	assert_int_equal(per_event(&r, "sched_change"), FX_BASIC_SCHED);
	assert_int_equal(per_event(&r, "process_exec"), 2);
	assert_int_equal(per_event(&r, "process_fork"), 1);
	assert_int_equal(per_event(&r, "process_exit"), 1);
	assert_true(r.st.first_ts == FX_T0);
	assert_int_equal(r.st.max_cpu, 2);
	run_free(&r);
}

void stats_syscalls_by_name(void **state)
{
	struct run r;

	(void)state;
	run_stats(&r, FIXTURE("basic"), -1);
	assert_int_equal(r.st.syscalls[110], FX_GETPPID);
	assert_int_equal(r.st.syscalls[0], FX_READS);
	assert_int_equal(r.st.syscalls[57], 1);
	assert_int_equal(r.st.syscalls[59], 1);
	assert_int_equal(r.st.syscalls[1], 1);
	assert_int_equal(r.st.syscalls[60], 1);
	assert_int_equal(r.st.syscalls_other, 0);
	run_free(&r);
}

void stats_syscalls_by_process(void **state)
{
	struct run r;

	(void)state;
	run_stats(&r, FIXTURE("basic"), -1);
	assert_int_equal(stats_proc(&r.st, 101)->syscalls, FX_GETPPID + 3);
	assert_int_equal(stats_proc(&r.st, 100)->syscalls, 1);
	assert_int_equal(stats_proc(&r.st, 1)->syscalls, FX_READS);
	assert_int_equal(stats_proc(&r.st, 0)->syscalls, 0);
	assert_null(stats_proc(&r.st, 4242));
	/* names at the end of the trace */
	assert_string_equal(ltt_trace_comm(r.t, 101), "worker");
	assert_string_equal(ltt_trace_comm(r.t, 100), "bash");
	run_free(&r);
}

void stats_syscall_times_of_a_pid(void **state)
{
	struct run r;
	const struct syscall_time *g;

	(void)state;
	run_stats(&r, FIXTURE("basic"), 101);
	g = &r.st.times[110];
	assert_int_equal(g->count, FX_GETPPID);
	assert_int_equal(g->total_ns, FX_GETPPID * FX_GETPPID_NS);
	assert_int_equal(g->min_ns, FX_GETPPID_NS);
	assert_int_equal(g->max_ns, FX_GETPPID_NS);
	assert_int_equal(r.st.times[59].count, 1);	/* execve */
	assert_int_equal(r.st.times[59].total_ns, 2000);
	assert_int_equal(r.st.times[1].total_ns, 2000);	/* write */
	assert_int_equal(r.st.times[57].count, 0);	/* fork: bash's */
	assert_int_equal(r.st.times[0].count, 0);	/* read: init's */
	assert_int_equal(r.st.unfinished, 1);		/* exit */
	run_free(&r);

	run_stats(&r, FIXTURE("basic"), 1);
	assert_int_equal(r.st.times[0].count, FX_READS);
	assert_int_equal(r.st.times[0].total_ns, FX_READS * FX_READ_NS);
	assert_int_equal(r.st.unfinished, 0);
	run_free(&r);
}

void stats_cpu_time_from_sched_change(void **state)
{
	struct run r;

	(void)state;
	run_stats(&r, FIXTURE("basic"), -1);
	assert_int_equal(stats_proc(&r.st, 100)->cpu_ns, FX_CPU_BASH);
	assert_int_equal(stats_proc(&r.st, 101)->cpu_ns, FX_CPU_WORKER);
	assert_int_equal(stats_proc(&r.st, 1)->cpu_ns, FX_CPU_INIT);
	/* cpu1 (from its first event, at 500 ns) is idle after init, to the end */
	assert_int_equal(stats_proc(&r.st, 0)->cpu_ns,
			 r.st.last_ts - (FX_T0 + 500) - FX_CPU_INIT);
	run_free(&r);
}

void stats_lost_events(void **state)
{
	struct run r;

	(void)state;
	run_stats(&r, FIXTURE("lossy"), -1);
	assert_int_equal(r.st.events, FX_LOSSY_EVENTS);
	assert_int_equal(r.st.lost_events, FX_LOSSY_LOST);
	assert_int_equal(r.st.lost_packets, FX_LOSSY_GAP);
	assert_int_equal(r.st.cpu[0].lost_events, r.st.lost_events);
	run_free(&r);

	run_stats(&r, FIXTURE("basic"), -1);
	assert_int_equal(r.st.lost_events, 0);
	assert_int_equal(r.st.lost_packets, 0);
	run_free(&r);
}

void stats_syscall_names(void **state)
{
	const struct ltt_syscall_table *t = &ltt_syscalls_x86_64;

	(void)state;
	assert_string_equal(ltt_syscall_name(t, 0), "read");
	assert_string_equal(ltt_syscall_name(t, 110), "getppid");
	assert_string_equal(ltt_syscall_name(t, 231), "exit_group");
	assert_string_equal(ltt_syscall_name(t, 463), "ltt");
	assert_null(ltt_syscall_name(t, -1));
	assert_null(ltt_syscall_name(t, 100000));
	assert_null(ltt_syscall_name(t, 512));	/* x32's: not in the table */
}

void stats_time_bounds(void **state)
{
	const int64_t offset = FX_CLOCK_OFFSET;
	uint64_t t;
	char buf[32];

	(void)state;
	assert_int_equal(parse_time_bound("0.5", FX_T0, offset, true, &t), 0);
	assert_true(t == FX_T0 + 500000000);
	assert_int_equal(parse_time_bound("2", FX_T0, offset, true, &t), 0);
	assert_true(t == FX_T0 + 2000000000);
	/* the fixtures start at 00:00:01 UTC */
	assert_int_equal(parse_time_bound("00:00:01.000001", FX_T0, offset,
					  true, &t), 0);
	assert_true(t == FX_T0 + 1000);
	assert_int_equal(parse_time_bound("x", FX_T0, offset, true, &t), -1);
	assert_int_equal(parse_time_bound("25:00:00", FX_T0, offset, true, &t), -1);
	assert_int_equal(parse_time_bound("1.5s", FX_T0, offset, true, &t), -1);
	format_clock(buf, sizeof(buf), FX_CLOCK_OFFSET + FX_T0 + 42, true);
	assert_string_equal(buf, "00:00:01.000000042");
	format_rel(buf, sizeof(buf), 1500000000);
	assert_string_equal(buf, "1.500000000");
	format_rel(buf, sizeof(buf), -1);
	assert_string_equal(buf, "-0.000000001");
}
