// SPDX-License-Identifier: GPL-2.0
/*
 * The analyses of ltt analyze, on the basic fixture (counted in
 * fixtures.h) and on a trace written here whose every figure is counted
 * by hand below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../ltt/analyses.h"
#include "tests.h"
#include "writer.h"

struct run {
	struct ltt_trace *t;
	struct timeline tl;
	struct analyses an;
};

static void run_an(struct run *r, const char *dir, int32_t pid)
{
	const struct ltt_item *it;

	r->t = ltt_trace_open(dir);
	assert_non_null(r->t);
	assert_int_equal(tl_init(&r->tl, r->t), 0);
	assert_int_equal(an_init(&r->an, ltt_trace_registry(r->t), &r->tl), 0);
	while (ltt_trace_next(r->t, &it) > 0) {
		tl_add(&r->tl, it);
		an_add(&r->an, r->t, it);
	}
	assert_int_equal(tl_finish(&r->tl), 0);
	assert_int_equal(an_compute(&r->an, &r->tl, pid), 0);
}

static void run_free(struct run *r)
{
	an_free(&r->an);
	tl_free(&r->tl);
	ltt_trace_close(r->t);
}

static const struct an_dist *dist(const struct run *r, const struct an_dist *v,
				  uint32_t n, const char *name)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(r->tl.strings[v[i].name], name))
			return &v[i];
	fail_msg("no %s", name);
	return NULL;
}

static void assert_dist(const struct an_dist *d, uint64_t count, uint64_t min,
			uint64_t p50, uint64_t p99, uint64_t max, uint64_t total)
{
	assert_int_equal(d->count, count);
	assert_int_equal(d->min, min);
	assert_int_equal(d->p50, p50);
	assert_int_equal(d->p99, p99);
	assert_int_equal(d->max, max);
	assert_int_equal(d->total, total);
}

void analyses_percentiles_by_nearest_rank(void **state)
{
	uint64_t v[100];
	struct an_dist d;
	unsigned int i;

	(void)state;
	for (i = 0; i < 100; i++)
		v[i] = 100 - i;		/* 100 ... 1, unsorted */
	an_dist_of(&d, v, 100);
	assert_dist(&d, 100, 1, 50, 99, 100, 5050);
	assert_int_equal(d.p90, 90);
	/* 1, 2-3, 4-7, 8-15, 16-31, 32-63, 64-100 */
	assert_int_equal(d.hist[0], 1);
	assert_int_equal(d.hist[1], 2);
	assert_int_equal(d.hist[5], 32);
	assert_int_equal(d.hist[6], 37);
	v[0] = 7;
	an_dist_of(&d, v, 1);
	assert_dist(&d, 1, 7, 7, 7, 7, 7);
}

void analyses_syscall_latency_of_the_basic_fixture(void **state)
{
	struct run r;

	(void)state;
	run_an(&r, FIXTURE("basic"), -1);
	assert_dist(dist(&r, r.an.syscalls, r.an.n_syscalls, "getppid"),
		    FX_GETPPID, FX_GETPPID_NS, FX_GETPPID_NS, FX_GETPPID_NS,
		    FX_GETPPID_NS, FX_GETPPID * FX_GETPPID_NS);
	assert_dist(dist(&r, r.an.syscalls, r.an.n_syscalls, "read"),
		    FX_READS, FX_READ_NS, FX_READ_NS, FX_READ_NS, FX_READ_NS,
		    FX_READS * FX_READ_NS);
	/* the most frequent first; exit never returns: not counted */
	assert_string_equal(r.tl.strings[r.an.syscalls[0].name], "getppid");
	assert_int_equal(r.an.all_syscalls.count, FX_BASIC_EXITS);
	assert_int_equal(r.an.syscalls[0].hist[8], FX_GETPPID);	/* [256, 512) */
	run_free(&r);
	/* one task only */
	run_an(&r, FIXTURE("basic"), 1);
	assert_int_equal(r.an.n_syscalls, 1);
	assert_int_equal(r.an.all_syscalls.count, FX_READS);
	run_free(&r);
}

#define EV(cpu, ts, name, ...)						\
	do {								\
		int64_t f_[] = { __VA_ARGS__ };				\
		assert_int_equal(fx_event(&w, cpu, FX_T0 + (ts), name, f_,	\
					  NULL), 0);			\
	} while (0)

/*
 * cpu0: 600 reads fd 5 (500 ns, 100 bytes, unnamed), opens /data as fd 5
 * (100 ns), reads it (400 ns, 4096 bytes), writes 10 bytes to fd 1
 * (100 ns), is preempted by 601 at 3000; 601 takes irq 7 (200 ns), a
 * TIMER softirq whose last event is at 4350 (50 ns), calls getppid
 * (100 ns), sleeps at 5000 and 600 runs again (waited 2000 ns).
 * 601 is woken at 5500 and runs on cpu1 at 6000 (waited 500 ns), calls
 * getppid (100 ns) up to the end, 6600.
 */
static const char *mixed_trace(char *dir, size_t len)
{
	static const int64_t none[1], open_data[] = { 5, 0, FX_DEV, 42, 0 };
	struct ltt_registry reg;
	struct fx_writer w;

	snprintf(dir, len, "/tmp/ltt-analyses-test-%d", getpid());
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_open(&w, dir, &reg, 2, 4096, FX_CLOCK_OFFSET), 0);
	fx_set_pid(&w, 0, 600);
	fx_set_pid(&w, 1, 0);
	EV(0, 1000, "syscall_entry", 0, 0x1000);
	EV(0, 1500, "syscall_exit", 100);
	EV(0, 1510, "fs_read", 5, 100);
	EV(0, 1800, "syscall_entry", 257, 0x1000);
	EV(0, 1900, "syscall_exit", 5);
	assert_int_equal(fx_event(&w, 0, FX_T0 + 1910, "fs_open", open_data,
				  "/data"), 0);
	EV(0, 2000, "syscall_entry", 0, 0x1000);
	EV(0, 2400, "syscall_exit", 4096);
	EV(0, 2410, "fs_read", 5, 4096);
	EV(0, 2500, "syscall_entry", 1, 0x1000);
	EV(0, 2600, "syscall_exit", 10);
	EV(0, 2610, "fs_write", 1, 10);
	EV(0, 3000, "sched_change", 601, 600, 0);
	EV(0, 4000, "irq_entry", 7, 0);
	assert_int_equal(fx_event(&w, 0, FX_T0 + 4200, "irq_exit", none, NULL), 0);
	EV(0, 4300, "softirq", 1);
	assert_int_equal(fx_event(&w, 0, FX_T0 + 4350, "timer_expired", none,
				  NULL), 0);
	EV(0, 4500, "syscall_entry", 110, 0x1000);
	EV(0, 4600, "syscall_exit", 600);
	EV(0, 5000, "sched_change", 600, 601, 1);
	EV(0, 5500, "process_wakeup", 601, 1);
	EV(1, 5000, "timer_tick", 0);
	EV(1, 6000, "sched_change", 601, 0, 0);
	EV(1, 6500, "syscall_entry", 110, 0x1000);
	EV(1, 6600, "syscall_exit", 600);
	assert_int_equal(fx_close(&w, FX_T0 + 7000), 0);
	return dir;
}

void analyses_scheduling_latency(void **state)
{
	char dir[256];
	struct run r;

	(void)state;
	run_an(&r, mixed_trace(dir, sizeof(dir)), -1);
	assert_int_equal(r.an.n_wait_preempt, 1);
	assert_int_equal(r.an.wait_preempt[0].name, 600);
	assert_dist(&r.an.all_preempt, 1, 2000, 2000, 2000, 2000, 2000);
	assert_int_equal(r.an.n_wait_wakeup, 1);
	assert_int_equal(r.an.wait_wakeup[0].name, 601);
	assert_dist(&r.an.all_wakeup, 1, 500, 500, 500, 500, 500);
	run_free(&r);
	remove_copy(dir);
}

void analyses_syscalls_irqs_and_softirqs(void **state)
{
	char dir[256];
	struct run r;

	(void)state;
	run_an(&r, mixed_trace(dir, sizeof(dir)), -1);
	assert_dist(dist(&r, r.an.syscalls, r.an.n_syscalls, "read"),
		    2, 400, 400, 500, 500, 900);
	assert_dist(dist(&r, r.an.syscalls, r.an.n_syscalls, "getppid"),
		    2, 100, 100, 100, 100, 200);
	assert_int_equal(r.an.all_syscalls.count, 6);
	assert_int_equal(r.an.n_irqs, 2);
	assert_dist(dist(&r, r.an.irqs, r.an.n_irqs, "irq 7"),
		    1, 200, 200, 200, 200, 200);
	assert_dist(dist(&r, r.an.irqs, r.an.n_irqs, "TIMER"),
		    1, 50, 50, 50, 50, 50);
	run_free(&r);
	remove_copy(dir);
}

void analyses_io_per_process_and_file(void **state)
{
	static const struct { const char *file; uint64_t r, rb, w, wb; } want[] = {
		{ "fd 5", 1, 100, 0, 0 },
		{ "/data", 1, 4096, 0, 0 },
		{ "fd 1", 0, 0, 1, 10 },
	};
	char dir[256];
	struct run r;
	unsigned int i, j;

	(void)state;
	run_an(&r, mixed_trace(dir, sizeof(dir)), -1);
	assert_int_equal(r.an.n_io, 3);
	for (i = 0; i < 3; i++) {
		for (j = 0; j < r.an.n_io && strcmp(r.an.io[j].file, want[i].file); j++)
			;
		assert_true(j < r.an.n_io);
		assert_int_equal(r.an.io[j].tgid, 600);
		assert_int_equal(r.an.io[j].reads, want[i].r);
		assert_int_equal(r.an.io[j].read_bytes, want[i].rb);
		assert_int_equal(r.an.io[j].writes, want[i].w);
		assert_int_equal(r.an.io[j].write_bytes, want[i].wb);
	}
	run_free(&r);
	/* the culprits fixture: rewriter writes 10 bytes to stdout, 6 to its file */
	/* and rm unlinks FX_VICTIM: a change, no bytes */
	run_an(&r, FIXTURE("culprits"), -1);
	for (i = 0; i < r.an.n_io; i++) {
		const struct an_io *io = &r.an.io[i];

		if (io->tgid == FX_RM) {
			assert_string_equal(io->file, FX_VICTIM);
			assert_int_equal(io->changes, 1);
			assert_int_equal(io->writes, 0);
			continue;
		}
		assert_int_equal(io->tgid, FX_REWRITER);
		assert_int_equal(io->write_bytes, strcmp(io->file, FX_WATCHED) ? 10 : 6);
		assert_int_equal(io->changes, 0);
	}
	assert_int_equal(r.an.n_io, 3);
	run_free(&r);
	/* fschanges: install unlinks and chmods; the failed rename is none */
	run_an(&r, FIXTURE("fschanges"), -1);
	for (i = j = 0; i < r.an.n_io; i++) {
		const struct an_io *io = &r.an.io[i];

		if (io->tgid == FX_FS_INSTALL)
			assert_int_equal(io->changes, 2);
		if (io->tgid == FX_FS_FAILED)
			assert_int_equal(io->changes, 0);
		if (io->tgid == FX_FS_CHILD)	/* through the fd inherited */
			assert_string_equal(io->file, FX_FS_FILE);
		j += io->changes;
	}
	/*
	 * one event each: 3 unlinks, 2 rmdirs, 2 chmods, chown, truncate,
	 * mmap, the orphan fs_newname; two (and fs_newname): 4 renames, a link
	 */
	assert_int_equal(j, 3 + 2 + 2 + 1 + 1 + 1 + 1 + 2 * (4 + 1));
	run_free(&r);
	remove_copy(dir);
}

void analyses_cpu_usage(void **state)
{
	char dir[256];
	struct run r;
	uint32_t i;

	(void)state;
	run_an(&r, mixed_trace(dir, sizeof(dir)), -1);
	assert_int_equal(r.an.span, 5600);
	assert_int_equal(r.an.n_cpus, 2);
	assert_int_equal(r.an.cpu_busy[0], 5600);
	assert_int_equal(r.an.cpu_busy[1], 600);
	assert_int_equal(r.an.n_tasks, 2);
	assert_int_equal(r.an.tasks[0].pid, 600);
	assert_int_equal(r.an.tasks[0].ns, 2000 + 1600);
	assert_int_equal(r.an.tasks[1].pid, 601);
	assert_int_equal(r.an.tasks[1].ns, 2000 + 600);
	run_free(&r);
	remove_copy(dir);
	/* basic: bash's time, from its switches */
	run_an(&r, FIXTURE("basic"), -1);
	for (i = 0; i < r.an.n_tasks && r.an.tasks[i].pid != 100; i++)
		;
	assert_true(i < r.an.n_tasks);
	assert_int_equal(r.an.tasks[i].ns, FX_CPU_BASH);
	run_free(&r);
}
