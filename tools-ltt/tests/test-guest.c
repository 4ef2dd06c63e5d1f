// SPDX-License-Identifier: GPL-2.0
/*
 * Traces recorded by lttd in the guest, on the traced kernel: the reader
 * against what the kernel really writes.
 *
 *  guest-ls:   `ltt record -e syscall_entry,syscall_exit,sched_change -- ls /`
 *  guest-idle: `lttd -t 2` on an idle system, every event, state dump
 *  guest-mix:  `ltt record -- sh -c 'ls, cat, sleep x5; flood 2000'` (flood:
 *		2000 getppid calls), every event
 *  guest-flight: `lttd --overwrite -s 4096 -n 4`, a snapshot on SIGUSR1
 *		during a getppid flood, another at SIGINT after a second one
 *
 * Their event counts are those babeltrace2 reads (tests/e2e.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

#define GUEST_LS_EVENTS		108
#define GUEST_IDLE_EVENTS	603
#define GUEST_FLIGHT_EVENTS	3069
#define GUEST_MIX_EVENTS	10883

void guest_traces_read_cleanly(void **state)
{
	struct seen_list l;

	(void)state;
	read_all(FIXTURE("guest-ls"), &l);
	assert_int_equal(l.n_errors, 0);
	assert_int_equal(l.n, GUEST_LS_EVENTS);
	assert_int_equal(count_events(&l, "syscall_entry", -1),
			 count_events(&l, "syscall_exit", -1));
	seen_free(&l);
	read_all(FIXTURE("guest-idle"), &l);
	assert_int_equal(l.n_errors, 0);
	assert_int_equal(l.n, GUEST_IDLE_EVENTS);
	seen_free(&l);
}

/*
 * A flight recorder's snapshots: the packets overwritten between them
 * come out as lost ranges, which add up to what the packets' counters
 * say was lost.
 */
void guest_flight_recorder_snapshots(void **state)
{
	uint64_t lost_events[2] = { 0, 0 }, lost_packets = 0;
	struct seen_list l;
	size_t i, ranges = 0;

	(void)state;
	read_all(FIXTURE("guest-flight"), &l);
	assert_int_equal(l.n_errors, 0);
	assert_int_equal(count_events(&l, NULL, -1), GUEST_FLIGHT_EVENTS);
	for (i = 0; i < l.n; i++) {
		const struct seen *s = &l.v[i];

		if (s->item.kind != LTT_ITEM_LOST)
			continue;
		assert_true(s->item.cpu < 2);
		assert_true(s->item.lost_from <= s->item.ts);
		lost_events[s->item.cpu] += s->item.lost_events;
		lost_packets += s->item.lost_packets;
		ranges++;
	}
	/* a snapshot of a ring of 4 packets among hundreds: mostly lost */
	assert_true(ranges >= 4);
	assert_true(lost_packets > 100);
	assert_true(lost_events[0] > 10000 && lost_events[1] > 10000);
	seen_free(&l);
}

/*
 * The pid the reader gives each record agrees with the kernel's own
 * account: a sched_change is recorded by the task it switches out, and
 * the next record on that CPU belongs to the task switched in (unless
 * events were lost in between).
 */
static void check_pids(const char *dir)
{
	int32_t expect[64];
	bool known[64] = { false };
	struct seen_list l;
	size_t i, switches = 0;

	read_all(dir, &l);
	for (i = 0; i < l.n; i++) {
		const struct seen *s = &l.v[i];
		uint32_t cpu = s->item.cpu;

		assert_true(cpu < 64);
		/* after a loss, the next packet's header tells the pid */
		if (s->item.kind != LTT_ITEM_EVENT) {
			known[cpu] = false;
			continue;
		}
		if (known[cpu])
			assert_int_equal(s->item.pid, expect[cpu]);
		if (!strcmp(s->name, "sched_change")) {
			assert_int_equal(s->item.pid, s->f[1]);	/* out */
			expect[cpu] = s->f[0];			/* in */
			known[cpu] = true;
			switches++;
		}
	}
	assert_true(switches > 0);
	seen_free(&l);
}

void guest_pid_follows_the_kernel(void **state)
{
	(void)state;
	check_pids(FIXTURE("guest-ls"));
	check_pids(FIXTURE("guest-idle"));
	check_pids(FIXTURE("guest-flight"));
	check_pids(FIXTURE("guest-mix"));
}

void guest_state_dump_names_processes(void **state)
{
	struct ltt_trace *t = ltt_trace_open(FIXTURE("guest-idle"));
	const struct ltt_item *it;

	(void)state;
	assert_non_null(t);
	while (ltt_trace_next(t, &it) > 0)
		;
	assert_string_equal(ltt_trace_comm(t, 1), "init");
	assert_string_equal(ltt_trace_comm(t, 2), "kthreadd");
	/* a kernel thread's name is not a path */
	assert_string_equal(ltt_trace_comm(t, 11), "kworker/u8:0");
	assert_string_equal(ltt_trace_comm(t, 1059), "lttd");
	ltt_trace_close(t);
}

/*
 * Every task's system calls alternate entry, exit, but for the first
 * record of a task (a fork's child returns from a call it never entered;
 * calls in progress when tracing started) and for calls with no return.
 */
void guest_syscalls_pair_up_per_task(void **state)
{
	static int open[32768], seen[32768];
	struct seen_list l;
	size_t i, getppid = 0, flood = 0;

	(void)state;
	memset(open, 0, sizeof(open));
	memset(seen, 0, sizeof(seen));
	read_all(FIXTURE("guest-mix"), &l);
	assert_int_equal(l.n_errors, 0);
	assert_int_equal(l.n, GUEST_MIX_EVENTS);
	for (i = 0; i < l.n; i++) {
		const struct seen *s = &l.v[i];
		int32_t pid = s->item.pid;

		assert_true(pid >= 0 && pid < 32768);
		if (!strcmp(s->name, "syscall_entry")) {
			/* an exit-less entry: exit, exit_group, execve's old image */
			open[pid] = 1;
			getppid += s->f[0] == 110;
			flood += s->f[0] == 110 && !strcmp(s->comm, "flood");
			seen[pid] = 1;
		} else if (!strcmp(s->name, "syscall_exit")) {
			if (seen[pid])
				assert_int_equal(open[pid], 1);
			open[pid] = 0;
			seen[pid] = 1;
		}
	}
	assert_int_equal(getppid, 2001);
	assert_int_equal(flood, 2000);
	seen_free(&l);
}
