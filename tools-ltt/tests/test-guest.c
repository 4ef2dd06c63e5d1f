// SPDX-License-Identifier: GPL-2.0
/*
 * Traces recorded by lttd in the guest, on the traced kernel: the reader
 * against what the kernel really writes.
 *
 *  guest-ls:   `ltt record -e syscall_entry,syscall_exit,sched_change -- ls /`
 *  guest-idle: `lttd -t 2` on an idle system, every event, state dump
 *
 * Their event counts are those babeltrace2 reads (tests/e2e.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

#define GUEST_LS_EVENTS		108
#define GUEST_IDLE_EVENTS	603

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
 * The pid the reader gives each record agrees with the kernel's own
 * account: a sched_change is recorded by the task it switches out, and
 * the next record on that CPU belongs to the task switched in.
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
		if (s->item.kind != LTT_ITEM_EVENT)
			continue;
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
