// SPDX-License-Identifier: GPL-2.0
/*
 * The start-up analysis (ltt analyze -a startup) on a boot-like trace
 * written here, whose every figure is counted by hand below; the same
 * without sched_change, with events lost, cut short, and empty.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../ltt/startup.h"
#include "tests.h"
#include "writer.h"

/*
 * Times in microseconds from FX_T0.  Two CPUs, cpu0 running init (1) at 0 and
 * cpu1 idle:
 *
 *  cpu0     0  init execs /init
 *        1000  init forks rcS (10)
 *        2000  switch init -> 10
 *        3000  10 execs /etc/init.d/rcS
 *        4000  10 makes thread 15
 *        5000  10 forks 11;  6000 forks 12
 *        8000  switch 10 -> 12;  9000 12 execs /sbin/modprobe
 *       20000  12 exits (code 0), switch 12 -> 10
 *       25000  10 logs "rcS: network up" (user_message)
 *       30000  10 exits (code 256), switch 10 -> idle
 *       40000  switch idle -> init;  45000 init logs "boot done"
 *       50000  switch init -> idle: the trace's end
 *  cpu1  5500  switch idle -> 11;  6500 11 execs /bin/sleep
 *        7000  switch 11 -> 15 (rcS's thread);  8000 15 exits,
 *              switch 15 -> idle
 *       35000  switch idle -> 11;  36000 11 exits, switch 11 -> idle
 *
 * With @sched false, no sched_change: the writer is told who runs.
 */
#define US(us)		((us) * 1000ULL)
#define T(us)		(FX_T0 + US(us))

struct boot_opts {
	bool sched;
	bool lose;		/* cpu1 loses 7 events at 30000 */
	uint32_t subbuf;
};

/* Event @name at @us on @cpu with the integer fields that follow. */
#define EV(cpu, us, name, str, ...)					\
	assert_int_equal(fx_event(&w, cpu, T(us), name,			\
				  ((const int64_t[]){ __VA_ARGS__ }), str), 0)

static void sw(struct fx_writer *w, const struct boot_opts *o,
	       unsigned int cpu, uint64_t us, int32_t in, int32_t out,
	       int64_t state)
{
	if (o->sched)
		assert_int_equal(fx_event_n(w, cpu, T(us), "sched_change",
					    (const int64_t[]){ in, out, state },
					    3, NULL), 0);
	else
		fx_set_pid(w, cpu, in);
}

#define FORK(cpu, us, pid, tgid)	EV(cpu, us, "process_fork", NULL, pid, tgid)
#define EXEC(cpu, us, pid, path)	EV(cpu, us, "process_exec", path, pid)
#define EXIT(cpu, us, pid, code)	EV(cpu, us, "process_exit", NULL, pid, code)
#define MARK(cpu, us, text)		EV(cpu, us, "user_message", text, 0)

static const char *boot_trace(const char *tag, const struct boot_opts *o)
{
	static const struct fx_field text[] = { { "text", false, 0 } };
	static char dir[256];
	struct ltt_registry reg;
	struct fx_writer w;

	snprintf(dir, sizeof(dir), "/tmp/ltt-startup-test-%d-%s", getpid(),
		 tag);
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_registry_add_event(&reg, "user_message", text, 1), 0);
	reg.events[reg.n_events - 1].custom = true;
	assert_int_equal(fx_open(&w, dir, &reg, 2, o->subbuf ? o->subbuf : 4096,
				 FX_CLOCK_OFFSET), 0);
	fx_set_pid(&w, 0, 1);
	fx_set_pid(&w, 1, 0);
	EXEC(0, 0, 1, "/init");
	FORK(0, 1000, 10, 10);
	sw(&w, o, 0, 2000, 10, 1, 1);
	EXEC(0, 3000, 10, "/etc/init.d/rcS");
	FORK(0, 4000, 15, 10);
	FORK(0, 5000, 11, 11);
	FORK(0, 6000, 12, 12);
	sw(&w, o, 0, 8000, 12, 10, 0);
	EXEC(0, 9000, 12, "/sbin/modprobe");
	EXIT(0, 20000, 12, 0);
	sw(&w, o, 0, 20000, 10, 12, 0x80);
	MARK(0, 25000, "rcS: network up");
	EXIT(0, 30000, 10, 256);
	sw(&w, o, 0, 30000, 0, 10, 0x80);
	sw(&w, o, 0, 40000, 1, 0, 0);
	MARK(0, 45000, "boot done");
	sw(&w, o, 0, 50000, 0, 1, 1);

	sw(&w, o, 1, 5500, 11, 0, 0);
	EXEC(1, 6500, 11, "/bin/sleep");
	sw(&w, o, 1, 7000, 15, 11, 1);
	EXIT(1, 8000, 15, 0);
	sw(&w, o, 1, 8000, 0, 15, 0x80);
	if (o->lose)
		assert_int_equal(fx_lose(&w, 1, T(30000), 7), 0);
	sw(&w, o, 1, 35000, 11, 0, 0);
	EXIT(1, 36000, 11, 0);
	sw(&w, o, 1, 36000, 0, 11, 0x80);
	assert_int_equal(fx_close(&w, T(60000)), 0);
	return dir;
}

struct run {
	struct ltt_trace *t;
	struct startup su;
};

static void run_su(struct run *r, const char *dir, const char *const *until,
		   unsigned int n, unsigned int buckets)
{
	const struct ltt_item *it;

	r->t = ltt_trace_open(dir);
	assert_non_null(r->t);
	assert_int_equal(su_init(&r->su, r->t, until, n), 0);
	while (ltt_trace_next(r->t, &it) > 0)
		su_add(&r->su, it);
	assert_int_equal(su_finish(&r->su, buckets), 0);
}

static void run_free(struct run *r)
{
	su_free(&r->su);
	ltt_trace_close(r->t);
}

/* The exec of @path (it must be there). */
static const struct su_exec *exec_of(const struct startup *su,
				     const char *path)
{
	uint32_t i;

	for (i = 0; i < su->n_execs; i++)
		if (!strcmp(su->execs[i].path, path))
			return &su->execs[i];
	fail_msg("no exec of %s", path);
	return NULL;
}

static const struct su_proc *proc_of(const struct startup *su, int32_t pid)
{
	uint32_t i;

	for (i = 0; i < su->n_procs; i++)
		if (su->procs[i].pid == pid)
			return &su->procs[i];
	fail_msg("no process %d", pid);
	return NULL;
}

static void assert_exec(const struct startup *su, const char *path,
			int32_t pid, uint64_t start, uint64_t life,
			uint8_t end, uint64_t cpu, uint32_t children)
{
	const struct su_exec *e = exec_of(su, path);

	assert_int_equal(su->procs[e->proc].pid, pid);
	assert_int_equal(e->t0 - su->t0, US(start));
	assert_int_equal(e->t1 - e->t0, US(life));
	assert_int_equal(e->end, end);
	assert_int_equal(e->cpu_ns, US(cpu));
	assert_int_equal(e->children, children);
}

/* The CPU time of process @pid on @cpu in the window (0: none). */
static uint64_t use_of(const struct startup *su, unsigned int cpu, int32_t pid)
{
	const struct su_cpu_use *u = &su->cpus[cpu];
	uint32_t i;

	for (i = 0; i < u->n_use; i++)
		if (su->procs[u->use[i].proc].pid == pid)
			return u->use[i].ns;
	return 0;
}

/* @su printed, as text or JSON, into a string to free. */
static char *printed(const struct startup *su, bool json, unsigned int top)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (json)
		su_print_json(f, su);
	else
		su_print(f, su, top);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void assert_has(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("no \"%s\" in:\n%s", want, text);
}

void startup_execs_processes_and_their_cpu_time(void **state)
{
	struct boot_opts o = { .sched = true };
	const char *dir = boot_trace("boot", &o);
	const struct su_proc *p;
	unsigned int c, i;
	struct run r;

	(void)state;
	run_su(&r, dir, NULL, 0, 7);
	assert_int_equal(r.su.t0, T(0));
	assert_int_equal(r.su.t1 - r.su.t0, US(50000));
	assert_true(r.su.sched_recorded);
	assert_int_equal(r.su.n_cpus, 2);
	assert_int_equal(r.su.n_execs, 4);
	/* in time order */
	assert_string_equal(r.su.execs[0].path, "/init");
	assert_string_equal(r.su.execs[3].path, "/sbin/modprobe");
	assert_string_equal(r.su.execs[1].name, "rcS");
	/* /init: 0-2000 and 40000-50000 on cpu0; forked rcS */
	assert_exec(&r.su, "/init", 1, 0, 50000, SU_RUNNING, 12000, 1);
	/* rcS: 3000-8000, 20000-30000 on cpu0, its thread 7000-8000 on cpu1 */
	assert_exec(&r.su, "/etc/init.d/rcS", 10, 3000, 27000, SU_EXITED,
		    16000, 2);
	assert_int_equal(exec_of(&r.su, "/etc/init.d/rcS")->code, 256);
	/* sleep: 6500-7000 and 35000-36000 on cpu1 */
	assert_exec(&r.su, "/bin/sleep", 11, 6500, 29500, SU_EXITED, 1500, 0);
	assert_exec(&r.su, "/sbin/modprobe", 12, 9000, 11000, SU_EXITED,
		    11000, 0);

	/* processes: 15 is a thread of 10, not one of them; idle is none */
	assert_int_equal(r.su.n_procs, 4);
	p = proc_of(&r.su, 1);
	assert_false(p->forked);
	assert_int_equal(p->parent, SU_NONE);
	assert_int_equal(p->cpu_ns, US(12000));
	assert_int_equal(p->tree_cpu_ns, US(12000 + 17000 + 2500 + 12000));
	p = proc_of(&r.su, 10);
	assert_true(p->forked && p->exited);
	assert_int_equal(r.su.procs[p->parent].pid, 1);
	assert_int_equal(p->t0 - r.su.t0, US(1000));
	assert_int_equal(p->t1 - p->t0, US(29000));
	/* 1000 before its exec (the forked copy of init) */
	assert_int_equal(p->cpu_ns, US(1000 + 16000));
	assert_int_equal(p->tree_cpu_ns, US(17000 + 2500 + 12000));
	assert_int_equal(p->children, 2);
	assert_string_equal(su_proc_name(&r.su, p - r.su.procs), "rcS");
	p = proc_of(&r.su, 11);
	assert_int_equal(r.su.procs[p->parent].pid, 10);
	assert_int_equal(p->parent_exec, 1);
	assert_int_equal(p->cpu_ns, US(2500));
	assert_int_equal(p->t1 - p->t0, US(31000));
	p = proc_of(&r.su, 12);
	assert_int_equal(p->cpu_ns, US(12000));
	assert_int_equal(p->t1 - p->t0, US(14000));

	/* markers */
	assert_int_equal(r.su.n_marks, 2);
	assert_int_equal(r.su.marks[0].ts - r.su.t0, US(25000));
	assert_string_equal(r.su.marks[0].text, "rcS: network up");
	assert_int_equal(r.su.marks[1].pid, 1);
	assert_string_equal(r.su.marks[1].event, "user_message");

	/* the window is the whole trace: busy = the processes' time */
	assert_int_equal(r.su.w1 - r.su.w0, US(50000));
	assert_int_equal(use_of(&r.su, 0, 1), US(12000));
	assert_int_equal(r.su.cpus[0].busy, US(12000 + 16000 + 12000));
	assert_int_equal(r.su.cpus[1].busy, US(2500 + 1000));
	/* 7 buckets of 50000/7 us, rounded: every stretch in them */
	for (c = 0; c < 2; c++) {
		uint64_t sum = 0;

		for (i = 0; i < 7; i++)
			sum += r.su.cpus[c].buckets[i].busy;
		assert_int_equal(sum, r.su.cpus[c].busy);
	}
	/* cpu0, bucket 1 (7142.857 to 14285.714 us): 10 to 8000, then 12 */
	assert_int_equal(r.su.cpus[0].buckets[1].busy, US(50000) * 2 / 7 -
			 US(50000) / 7);
	assert_int_equal(r.su.procs[r.su.cpus[0].buckets[1].top].pid, 12);
	assert_int_equal(r.su.lost_events, 0);
	assert_int_equal(r.su.n_lost, 0);
	run_free(&r);
	remove_copy(dir);
}

void startup_time_to_an_exec_or_a_marker(void **state)
{
	static const char *const until[] = {
		"modprobe", "/bin/sleep", "boot done", "network",
		"user_message", "/sleep", "nosuch",
	};
	struct boot_opts o = { .sched = true };
	const char *dir = boot_trace("until", &o);
	const struct su_target *g;
	struct run r;

	(void)state;
	run_su(&r, dir, until, sizeof(until) / sizeof(until[0]), 3);
	g = r.su.targets;
	assert_int_equal(g[0].found, SU_EXEC);		/* by its name */
	assert_int_equal(g[0].ts - r.su.t0, US(9000));
	assert_string_equal(r.su.execs[g[0].index].path, "/sbin/modprobe");
	assert_int_equal(g[1].found, SU_EXEC);		/* by its path */
	assert_int_equal(g[1].ts - r.su.t0, US(6500));
	assert_int_equal(g[2].found, SU_MARK);		/* by its text */
	assert_int_equal(g[2].ts - r.su.t0, US(45000));
	assert_int_equal(g[3].found, SU_MARK);		/* part of the text */
	assert_int_equal(g[3].ts - r.su.t0, US(25000));
	assert_int_equal(g[4].found, SU_MARK);		/* the event's name */
	assert_int_equal(g[4].index, 0);
	assert_int_equal(g[5].found, SU_NOT_FOUND);	/* a path is whole */
	assert_int_equal(g[6].found, SU_NOT_FOUND);
	assert_int_equal(g[2].lost_before, 0);

	/*
	 * The window ends at the latest target, "boot done" at 45000, in 3
	 * buckets of 15000.  cpu0: init 0-2000 and 40000-45000, 10
	 * 2000-8000 and 20000-30000, 12 8000-20000; cpu1: 11 5500-7000 and
	 * 35000-36000, 10's thread 7000-8000.
	 */
	assert_int_equal(r.su.w1 - r.su.t0, US(45000));
	assert_int_equal(use_of(&r.su, 0, 1), US(7000));
	assert_int_equal(use_of(&r.su, 0, 10), US(16000));
	assert_int_equal(use_of(&r.su, 0, 12), US(12000));
	assert_int_equal(r.su.cpus[0].busy, US(35000));
	assert_int_equal(r.su.procs[r.su.cpus[0].use[0].proc].pid, 10);
	assert_int_equal(use_of(&r.su, 1, 11), US(2500));
	assert_int_equal(use_of(&r.su, 1, 10), US(1000));
	assert_int_equal(r.su.cpus[1].busy, US(3500));
	assert_int_equal(r.su.n_buckets, 3);
	assert_int_equal(r.su.cpus[0].buckets[0].busy, US(15000));
	assert_int_equal(r.su.procs[r.su.cpus[0].buckets[0].top].pid, 12);
	assert_int_equal(r.su.cpus[0].buckets[0].top_ns, US(7000));
	assert_int_equal(r.su.cpus[0].buckets[1].busy, US(15000));
	assert_int_equal(r.su.procs[r.su.cpus[0].buckets[1].top].pid, 10);
	assert_int_equal(r.su.cpus[0].buckets[1].top_ns, US(10000));
	assert_int_equal(r.su.cpus[0].buckets[2].busy, US(5000));
	assert_int_equal(r.su.cpus[1].buckets[0].busy, US(2500));
	assert_int_equal(r.su.procs[r.su.cpus[1].buckets[0].top].pid, 11);
	assert_int_equal(r.su.cpus[1].buckets[1].busy, US(0));
	assert_int_equal(r.su.cpus[1].buckets[1].top, SU_NONE);
	assert_int_equal(r.su.cpus[1].buckets[2].busy, US(1000));
	run_free(&r);
	remove_copy(dir);
}

void startup_prints_milestones_tree_and_cpus(void **state)
{
	static const char *const until[] = { "boot done", "nosuch" };
	struct boot_opts o = { .sched = true };
	const char *dir = boot_trace("print", &o);
	char *text, *json;
	struct run r;

	(void)state;
	run_su(&r, dir, until, 2, 3);
	text = printed(&r.su, false, 0);
	assert_has(text, "over 50.000 ms on 2 CPUs: 4 execs, 4 processes, 2 markers");
	assert_has(text, "    boot done: 45.000 ms, user_message by pid 1: \"boot done\"\n");
	assert_has(text, "    nosuch: not in the trace\n");
	/* milestones in time order, markers among them */
	assert_true(strstr(text, "exec /etc/init.d/rcS") <
		    strstr(text, "exec /bin/sleep"));
	assert_true(strstr(text, "exec /sbin/modprobe") <
		    strstr(text, "user_message \"rcS: network up\""));
	/* the longest exec first: /init (50 ms), then sleep (29.5 ms) */
	assert_true(strstr(text, "  init  ") < strstr(text, "  sleep  "));
	assert_true(strstr(text, "  sleep  ") < strstr(text, "  rcS  "));
	assert_has(text, "exit 256  init 1\n");
	/* the tree: rcS under init, modprobe under rcS */
	assert_has(text, "\n    1 init: seen 0.000 ms, then 50.000 ms (running at the end), cpu 12.000 ms, with descendants 43.500 ms\n");
	assert_has(text, "\n      10 rcS: fork 1.000 ms, life 29.000 ms, cpu 17.000 ms, with descendants 31.500 ms\n");
	assert_has(text, "\n        12 modprobe: fork 6.000 ms");
	assert_has(text, "What ran on each CPU from 0.000 to 45.000 ms (to the latest --until target), in 3 buckets of 15.000 ms:");
	assert_has(text, "    cpu 0: busy 35.000 ms, 77.8%\n");
	assert_has(text, "           15.000  100.0%  rcS 10 (66.7%)\n");
	assert_has(text, "Lost events: none");
	free(text);
	/* -n 1: one line per table */
	text = printed(&r.su, false, 1);
	assert_has(text, "    ... and 5 more (-n 0: all)\n");	/* milestones */
	assert_has(text, "    ... and 3 more (-n 0: all)\n");	/* execs */
	free(text);
	json = printed(&r.su, true, 0);
	assert_has(json, "{\"name\":\"boot done\",\"found\":true,\"offset_ns\":45000000,\"lost_before\":0,\"kind\":\"marker\",\"pid\":1");
	assert_has(json, "{\"name\":\"nosuch\",\"found\":false}");
	assert_has(json, "\"path\":\"/etc/init.d/rcS\",\"name\":\"rcS\",\"start_ns\":3000000,\"life_ns\":27000000,\"end\":\"exit\",\"exit_code\":256,\"cpu_ns\":16000000,\"children\":2");
	assert_has(json, "\"window_to_ns\":45000000,");
	assert_has(json, "\"lost\":{\"events\":0,\"packets\":0,\"ranges\":[]}}");
	free(json);
	run_free(&r);
	remove_copy(dir);
}

void startup_without_sched_change(void **state)
{
	struct boot_opts o = { .sched = false };
	const char *dir = boot_trace("nosched", &o);
	char *text, *json;
	struct run r;

	(void)state;
	run_su(&r, dir, NULL, 0, 10);
	assert_false(r.su.sched_recorded);
	/* the last event is now the marker at 45000 */
	assert_int_equal(r.su.t1 - r.su.t0, US(45000));
	/*
	 * An event's task is the one that opened its packet: who forked and
	 * who logged are not known, nor any CPU time.
	 */
	assert_exec(&r.su, "/init", 1, 0, 45000, SU_RUNNING, 0, 0);
	assert_exec(&r.su, "/etc/init.d/rcS", 10, 3000, 27000, SU_EXITED, 0, 0);
	assert_exec(&r.su, "/bin/sleep", 11, 6500, 29500, SU_EXITED, 0, 0);
	assert_int_equal(r.su.n_procs, 4);
	assert_int_equal(proc_of(&r.su, 10)->parent, SU_NONE);
	assert_true(proc_of(&r.su, 10)->forked);
	assert_int_equal(proc_of(&r.su, 10)->t1 - proc_of(&r.su, 10)->t0,
			 US(29000));
	assert_int_equal(proc_of(&r.su, 1)->cpu_ns, 0);
	assert_int_equal(r.su.marks[0].pid, -1);
	text = printed(&r.su, false, 0);
	assert_has(text, "CPU: not recorded, the trace has no sched_change");
	assert_has(text, "What ran on each CPU: not recorded");
	assert_has(text, "who forked whom is not known without sched_change");
	assert_has(text, "       ?  user_message \"boot done\"\n");
	assert_true(!strstr(text, "cpu 0: busy"));
	free(text);
	json = printed(&r.su, true, 0);
	assert_has(json, "\"sched_recorded\":false");
	assert_has(json, "\"cpu_ns\":null");
	assert_has(json, "\"cpus\":null");
	assert_has(json, "{\"cpu\":0,\"pid\":null,\"offset_ns\":45000000,\"event\":\"user_message\",\"text\":\"boot done\"}");
	free(json);
	run_free(&r);
	remove_copy(dir);
}

void startup_counts_what_was_lost(void **state)
{
	static const char *const until[] = { "boot done", "modprobe" };
	struct boot_opts o = { .sched = true, .lose = true };
	const char *dir = boot_trace("lost", &o);
	char *text;
	struct run r;

	(void)state;
	run_su(&r, dir, until, 2, 1);
	assert_int_equal(r.su.lost_events, 7);
	assert_int_equal(r.su.n_lost, 1);
	assert_int_equal(r.su.lost[0].cpu, 1);
	assert_true(r.su.lost[0].t1 >= T(30000) && r.su.lost[0].t1 <= T(35000));
	assert_int_equal(r.su.targets[0].lost_before, 7);
	assert_int_equal(r.su.targets[1].lost_before, 0);
	/* cpu1 knows whom it runs again from its next sched_change */
	assert_exec(&r.su, "/bin/sleep", 11, 6500, 29500, SU_EXITED, 1500, 0);
	text = printed(&r.su, false, 0);
	assert_has(text, "Lost events: 7 (and 0 packets not read), in 1 ranges");
	assert_has(text, "    cpu 1: 7 events from ");
	assert_has(text, "(7 events were lost before it: an earlier one may be missing)");
	free(text);
	run_free(&r);
	remove_copy(dir);
}

void startup_of_a_trace_cut_short(void **state)
{
	struct boot_opts o = { .sched = true, .subbuf = 512 };
	const char *dir = boot_trace("cut", &o);
	const struct ltt_item *it;
	struct ltt_trace *t;
	uint64_t cut = 0;
	char path[512];
	char *text;
	struct run r;

	(void)state;
	/* cut cpu0's stream where rcS's exit is written */
	t = ltt_trace_open(dir);
	assert_non_null(t);
	while (ltt_trace_next(t, &it) > 0)
		if (it->kind == LTT_ITEM_EVENT && it->cpu == 0 &&
		    it->ts == T(30000) && !strcmp(it->desc->name, "process_exit"))
			cut = it->offset;
	ltt_trace_close(t);
	assert_true(cut > 0);
	snprintf(path, sizeof(path), "%s/channel0_0", dir);
	assert_int_equal(truncate(path, cut), 0);

	run_su(&r, dir, NULL, 0, 1);
	assert_int_equal(ltt_trace_n_errors(r.t), 1);
	/* what came before is there; rcS has no end: the trace's (36000) */
	assert_int_equal(r.su.n_execs, 4);
	assert_int_equal(r.su.t1 - r.su.t0, US(36000));
	/* cpu0 ran rcS 3000-8000 and 20000 to its last event, 25000 */
	assert_exec(&r.su, "/etc/init.d/rcS", 10, 3000, 33000, SU_RUNNING,
		    5000 + 5000 + 1000, 2);
	assert_exec(&r.su, "/sbin/modprobe", 12, 9000, 11000, SU_EXITED,
		    11000, 0);
	assert_int_equal(r.su.n_marks, 1);
	text = printed(&r.su, false, 0);
	assert_has(text, "rcS                         3.000       33.000       11.000        2  running");
	free(text);
	run_free(&r);
	remove_copy(dir);
}

void startup_of_an_empty_trace(void **state)
{
	static const char *const until[] = { "init" };
	struct ltt_registry reg;
	struct fx_writer w;
	char dir[256], *text, *json;
	struct run r;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ltt-startup-test-%d-empty", getpid());
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_open(&w, dir, &reg, 2, 4096, FX_CLOCK_OFFSET), 0);
	assert_int_equal(fx_close(&w, T(1000)), 0);
	run_su(&r, dir, until, 1, 10);
	assert_int_equal(r.su.events, 0);
	assert_int_equal(r.su.n_execs, 0);
	assert_int_equal(r.su.n_procs, 0);
	assert_false(r.su.sched_recorded);
	assert_int_equal(r.su.targets[0].found, SU_NOT_FOUND);
	text = printed(&r.su, false, 0);
	assert_has(text, "(no exec and no marker in the trace)");
	assert_has(text, "init: not in the trace");
	free(text);
	json = printed(&r.su, true, 0);
	assert_has(json, "\"execs\":[],\"processes\":[]");
	free(json);
	run_free(&r);
	remove_copy(dir);
}

/*
 * 3 buckets of a 10 ns window start at 0, 3 and 6 ns; a stretch from
 * 3 ns, where 3 * 3 / 10 rounds down to bucket 0, is bucket 1's.
 */
void startup_buckets_hold_every_stretch(void **state)
{
	struct ltt_registry reg;
	struct fx_writer w;
	char dir[256];
	struct run r;
	unsigned int i;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ltt-startup-test-%d-buckets", getpid());
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_open(&w, dir, &reg, 1, 4096, FX_CLOCK_OFFSET), 0);
	fx_set_pid(&w, 0, 0);
	assert_int_equal(fx_event_n(&w, 0, FX_T0, "sched_change",
				    (const int64_t[]){ 5, 0, 0 }, 3, NULL), 0);
	assert_int_equal(fx_event_n(&w, 0, FX_T0 + 3, "sched_change",
				    (const int64_t[]){ 6, 5, 0 }, 3, NULL), 0);
	assert_int_equal(fx_event_n(&w, 0, FX_T0 + 10, "sched_change",
				    (const int64_t[]){ 0, 6, 1 }, 3, NULL), 0);
	assert_int_equal(fx_close(&w, FX_T0 + 20), 0);
	run_su(&r, dir, NULL, 0, 3);
	assert_int_equal(r.su.cpus[0].busy, 10);
	assert_int_equal(r.su.cpus[0].buckets[0].busy, 3);
	assert_int_equal(r.su.procs[r.su.cpus[0].buckets[0].top].pid, 5);
	for (i = 1; i < 3; i++) {
		assert_int_equal(r.su.cpus[0].buckets[i].busy, i == 1 ? 3 : 4);
		assert_int_equal(r.su.procs[r.su.cpus[0].buckets[i].top].pid, 6);
	}
	run_free(&r);
	remove_copy(dir);
}

void startup_exec_names_and_paths(void **state)
{
	(void)state;
	assert_true(su_exec_matches("sh", "/bin/sh"));
	assert_true(su_exec_matches("/bin/sh", "/bin/sh"));
	assert_false(su_exec_matches("/sh", "/bin/sh"));
	assert_false(su_exec_matches("bin/sh", "/bin/sh"));
	assert_false(su_exec_matches("s", "/bin/sh"));
	assert_true(su_exec_matches("init", "init"));
	assert_false(su_exec_matches("sh", "/bin/bash"));
}
