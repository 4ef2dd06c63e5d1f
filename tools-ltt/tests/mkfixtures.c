// SPDX-License-Identifier: GPL-2.0
/*
 * mkfixtures DIR: write the fixture traces into DIR/basic, DIR/lossy,
 * DIR/culprits, DIR/culprits-plain, DIR/strings, DIR/fschanges and
 * DIR/blocking.
 * mkfixtures --big DIR EVENTS: a large synthetic trace for benchmarks
 * (2 CPUs, syscall pairs, switches, forks and execs).
 * mkfixtures --big-mix DIR EVENTS: a large trace shaped like a busy
 * machine, for ltt view: 2 CPUs with 100 tasks each, system calls with
 * their file events and errors, page faults inside calls, interrupts and
 * softirqs that wake sleepers, preemptions, sleeps and I/O waits, `ltt
 * log` lines; the same for the same EVENTS.
 * mkfixtures --export-mix DIR: a small trace of what the guest fixtures
 * lack, for ltt export's checks (tests/export.sh): hard interrupts, one
 * inside a softirq, setitimer, network packets in and out, forks and
 * the wakeups of sleepers on both CPUs.
 * --index first: every trace with a packet index beside each stream
 * (index/channel0_N.idx), as lttd writes; --subbuf SIZE (before --big
 * or --big-mix): packets of SIZE bytes (default 1 MiB).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixtures.h"
#include "writer.h"

static uint32_t big_subbuf = 1 << 20;	/* --subbuf */


/* One CPU's share of the big trace: a task making syscalls, switching. */
static int big_cpu(struct fx_writer *w, unsigned int cpu, uint64_t events)
{
	uint64_t t = FX_T0, n = 0;
	int32_t pid = 1000 + cpu;

	fx_set_pid(w, cpu, pid);
	while (n < events) {
		int64_t entry[] = { n % 7 ? 0 : 1, 0x401000 + n };
		int64_t ret[] = { 4096 };

		if (n % 1000 == 0) {
			int64_t fork[] = { pid + 2, pid + 2 };
			int64_t exec[] = { pid };

			if (fx_event(w, cpu, t += 700, "process_fork", fork, NULL) ||
			    fx_event(w, cpu, t += 700, "process_exec", exec,
				     "/usr/bin/benchmark"))
				return -1;
			n += 2;
		}
		if (n % 100 == 50) {
			int64_t sw[] = { pid ^ 1, pid, 1 };

			if (fx_event(w, cpu, t += 300, "sched_change", sw, NULL))
				return -1;
			pid ^= 1;
			n++;
		}
		if (fx_event(w, cpu, t += 250 + n % 100, "syscall_entry", entry, NULL) ||
		    fx_event(w, cpu, t += 400, "syscall_exit", ret, NULL))
			return -1;
		n += 2;
	}
	return 0;
}

static int make_big(const char *dir, uint64_t events)
{
	struct ltt_registry reg;
	struct fx_writer w;

	if (fx_registry(&reg) ||
	    fx_open(&w, dir, &reg, 2, big_subbuf, FX_CLOCK_OFFSET) ||
	    big_cpu(&w, 0, events / 2) || big_cpu(&w, 1, events - events / 2))
		return -1;
	return fx_close(&w, FX_T0 + 100000000000ULL);
}

/* A small deterministic generator (xorshift). */
static uint32_t mix_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

#define MIX_TASKS	100

#define MIX_EV(name, ...)						\
	do {								\
		int64_t f_[] = { __VA_ARGS__ };				\
		if (fx_event(w, cpu, t, name, f_, NULL))		\
			return -1;					\
		n++;							\
	} while (0)

/* One CPU of --big-mix: its own tasks, so that none runs on both. */
static int mix_cpu(struct fx_writer *w, unsigned int cpu, uint64_t events)
{
	static const struct { int nr; const char *ev; } calls[] = {
		{ 0, "fs_read" }, { 1, "fs_write" }, { 257, "fs_open" },
		{ 3, "fs_close" }, { 110, NULL }, { 202, NULL }, { 8, "fs_seek" },
	};
	uint64_t seed = 0x9e3779b97f4a7c15ULL ^ (cpu + 1), t = FX_T0, n = 0;
	int32_t base = 2000 + 1000 * cpu, pid = base;
	bool sleeping[MIX_TASKS] = { false };
	int64_t zero[1] = { 0 };
	int64_t open_f[] = { 3, 0, 0x801, 4242, 0 };

	fx_set_pid(w, cpu, pid);
	/* names, and processes of four threads each */
	for (unsigned int k = 0; k < MIX_TASKS && n < events; k++) {
		int64_t f[] = { base + k, base + k / 4 * 4, 1 };
		char name[16];

		snprintf(name, sizeof(name), "app%u-%u", cpu, k / 4);
		if (fx_event(w, cpu, t += 100, "statedump_process", f, name))
			return -1;
		n++;
	}
	while (n < events) {
		unsigned int burst = 1 + mix_rand(&seed) % 20, i, next;
		uint32_t r;

		for (i = 0; i < burst && n < events; i++) {
			unsigned int c = mix_rand(&seed) % 7;
			bool fails = mix_rand(&seed) % 10 == 0 && calls[c].nr == 257;

			t += 200 + mix_rand(&seed) % 3000;
			MIX_EV("syscall_entry", calls[c].nr, 0x401000 + 16 * c);
			if (mix_rand(&seed) % 10 == 0) {	/* a page fault inside */
				t += 100 + mix_rand(&seed) % 500;
				MIX_EV("trap_entry", 14, 0x7f0000000000ULL + mix_rand(&seed));
				t += 500 + mix_rand(&seed) % 2000;
				if (fx_event_n(w, cpu, t, "trap_exit", zero, 0, NULL))
					return -1;
				n++;
			}
			t += 300 + mix_rand(&seed) % (calls[c].nr == 202 ? 50000 : 4000);
			MIX_EV("syscall_exit", fails ? -2 : calls[c].nr == 257 ? 3 : 4096);
			if (calls[c].ev && !fails) {
				t += 50;
				if (calls[c].nr == 257) {
					if (fx_event(w, cpu, t, "fs_open", open_f,
						     mix_rand(&seed) % 2 ? "/etc/passwd" :
						     "/usr/lib/libc.so.6"))
						return -1;
					n++;
				} else if (calls[c].nr == 3) {
					MIX_EV(calls[c].ev, 3);
				} else {
					MIX_EV(calls[c].ev, 3, 4096);
				}
			}
		}
		r = mix_rand(&seed) % 100;
		if (r < 40) {	/* an interrupt, its softirq waking a sleeper */
			unsigned int k = mix_rand(&seed) % MIX_TASKS, j;

			for (j = 0; j < MIX_TASKS && !sleeping[k]; j++)
				k = (k + 1) % MIX_TASKS;

			t += 500;
			MIX_EV("irq_entry", 11, 0);
			t += 2000 + mix_rand(&seed) % 5000;
			if (fx_event_n(w, cpu, t, "irq_exit", zero, 0, NULL))
				return -1;
			t += 200;
			MIX_EV("softirq", r % 2 ? 1 : 3);
			t += 1000 + mix_rand(&seed) % 10000;
			if (fx_event_n(w, cpu, t, "timer_expired", zero, 0, NULL))
				return -1;
			n += 2;
			if (sleeping[k]) {
				t += 300;
				MIX_EV("process_wakeup", base + k, 1);
				sleeping[k] = false;
			}
		}
		if (r == 99) {
			t += 100;
			if (fx_event_n(w, cpu, t, "user_message", zero, 0, "phase"))
				return -1;
			n++;
		}
		/* leave the CPU: preempted, asleep or waiting for I/O */
		next = mix_rand(&seed) % MIX_TASKS;
		for (i = 0; i < MIX_TASKS && (sleeping[next] ||
					      base + (int32_t)next == pid); i++)
			next = (next + 1) % MIX_TASKS;
		if (i == MIX_TASKS)
			continue;	/* every other task sleeps */
		r = mix_rand(&seed) % 3;
		t += 500;
		MIX_EV("sched_change", base + next, pid, r == 0 ? 0 : r == 1 ? 1 : 2);
		if (r)
			sleeping[pid - base] = true;
		pid = base + next;
	}
	return 0;
}

static int make_mix(const char *dir, uint64_t events)
{
	static const struct fx_field text = { "text", false, 0 };
	struct ltt_registry reg;
	struct fx_writer w;

	if (fx_registry(&reg) ||
	    fx_registry_add_event(&reg, "user_message", &text, 1))
		return -1;
	reg.events[reg.n_events - 1].custom = true;
	if (fx_open(&w, dir, &reg, 2, big_subbuf, FX_CLOCK_OFFSET) ||
	    mix_cpu(&w, 0, events / 2) || mix_cpu(&w, 1, events - events / 2))
		return -1;
	return fx_close(&w, FX_T0 + 1000000000000ULL);
}

/* One CPU of --export-mix: rounds of calls, interrupts, packets, forks. */
static int export_cpu(struct fx_writer *w, unsigned int cpu)
{
	uint64_t t = FX_T0 + 1000 * cpu, n = 0;
	int32_t base = 300 + 100 * cpu, pid = base;
	int64_t zero[1] = { 0 };
	unsigned int i;

	fx_set_pid(w, cpu, pid);
	for (i = 0; i < 40; i++) {
		int32_t next = base + (i + 1) % 4, child = base + 10 + i;

		t += 3000 + 100 * i;
		MIX_EV("syscall_entry", i % 3 ? 0 : 1, 0x401000);	/* read, write */
		t += 700 + 37 * i;
		MIX_EV("syscall_exit", 512);
		t += 400;
		MIX_EV("irq_entry", 11 + i % 3, 1);
		if (i % 5 == 0) {
			t += 300;
			MIX_EV("net_packet_in", 0x0800);
		}
		t += 900 + 11 * i;
		if (fx_event_n(w, cpu, t, "irq_exit", zero, 0, NULL))
			return -1;
		t += 100;
		MIX_EV("softirq", i % 2 ? 3 : 1);
		t += 500;
		if (fx_event_n(w, cpu, t, "timer_expired", zero, 0, NULL))
			return -1;
		n++;
		if (i % 4 == 1) {	/* an interrupt inside the softirq */
			t += 200;
			MIX_EV("irq_entry", 4, 1);
			t += 1500 + 7 * i;
			if (fx_event_n(w, cpu, t, "irq_exit", zero, 0, NULL))
				return -1;
			n++;
		}
		if (i % 2 == 0 && i >= 4) {	/* next went to sleep */
			t += 250;
			MIX_EV("process_wakeup", next, 1);
		}
		t += 2000;
		MIX_EV("syscall_entry", i % 2 ? 44 : 38, 0x401000);	/* sendto, setitimer */
		t += 300;
		if (i % 2)
			MIX_EV("net_packet_out", 0x86dd);
		else
			MIX_EV("timer_setitimer", 0, 1500000 + 250000 * i);
		t += 600;
		MIX_EV("syscall_exit", 0);
		if (i % 8 == 3) {
			t += 800;
			MIX_EV("process_fork", child, child);
		}
		t += 5000 + 300 * i;
		MIX_EV("sched_change", next, pid, i % 2 ? 1 : 0);
		pid = next;
	}
	return n ? 0 : -1;
}

static int make_export_mix(const char *dir)
{
	struct ltt_registry reg;
	struct fx_writer w;

	if (fx_registry(&reg) ||
	    fx_open(&w, dir, &reg, 2, 1 << 16, FX_CLOCK_OFFSET) ||
	    export_cpu(&w, 0) || export_cpu(&w, 1))
		return -1;
	return fx_close(&w, FX_T0 + 10000000ULL);
}

static int make_culprits(const char *dir)
{
	return fx_make_culprits(dir, true);
}

static int make_culprits_plain(const char *dir)
{
	return fx_make_culprits(dir, false);
}

/* containers, and its manifest beside it (DIR/containers.manifest) */
static int make_containers(const char *dir)
{
	char path[4096];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s.manifest", dir);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return -1;
	}
	ret = fx_make_containers(dir, f);
	if (fclose(f))
		ret = -1;
	return ret;
}

static const struct {
	const char *name;
	int (*make)(const char *dir);
} fixtures[] = {
	{ "basic", fx_make_basic },
	{ "lossy", fx_make_lossy },
	{ "culprits", make_culprits },
	{ "culprits-plain", make_culprits_plain },
	{ "strings", fx_make_strings },
	{ "fschanges", fx_make_fschanges },
	{ "containers", make_containers },
	{ "containers-damaged", fx_make_containers_damaged },
	{ "blocking", fx_make_blocking },
};

int main(int argc, char **argv)
{
	char path[4096];
	unsigned int i;

	if (argc >= 3 && !strcmp(argv[1], "--index")) {
		fx_index_all = true;
		argc--;
		argv++;
	}
	if (argc >= 4 && !strcmp(argv[1], "--subbuf")) {
		big_subbuf = strtoul(argv[2], NULL, 0);
		if (big_subbuf < 4096 || big_subbuf > (16 << 20)) {
			fprintf(stderr, "mkfixtures: --subbuf %s: 4096 to 16M bytes\n",
				argv[2]);
			return 2;
		}
		argc -= 2;
		argv += 2;
	}
	if (argc == 4 && !strcmp(argv[1], "--big"))
		return make_big(argv[2], strtoull(argv[3], NULL, 0)) ? 1 : 0;
	if (argc == 4 && !strcmp(argv[1], "--big-mix"))
		return make_mix(argv[2], strtoull(argv[3], NULL, 0)) ? 1 : 0;
	if (argc == 3 && !strcmp(argv[1], "--export-mix"))
		return make_export_mix(argv[2]) ? 1 : 0;
	if (argc != 2) {
		fprintf(stderr, "usage: mkfixtures [--index] DIR | mkfixtures [--index] [--subbuf SIZE] --big[-mix] DIR EVENTS | mkfixtures --export-mix DIR\n");
		return 2;
	}
	mkdir(argv[1], 0755);
	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", argv[1], fixtures[i].name);
		if (fixtures[i].make(path)) {
			fprintf(stderr, "mkfixtures: %s: failed\n", path);
			return 1;
		}
	}
	return 0;
}
