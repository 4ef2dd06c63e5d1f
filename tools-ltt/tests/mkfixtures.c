// SPDX-License-Identifier: GPL-2.0
/*
 * mkfixtures DIR: write the fixture traces into DIR/basic, DIR/lossy,
 * DIR/culprits, DIR/culprits-plain and DIR/strings.
 * mkfixtures --big DIR EVENTS: a large synthetic trace for benchmarks
 * (2 CPUs, syscall pairs, switches, forks and execs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixtures.h"
#include "writer.h"

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
	    fx_open(&w, dir, &reg, 2, 1 << 20, FX_CLOCK_OFFSET) ||
	    big_cpu(&w, 0, events / 2) || big_cpu(&w, 1, events - events / 2))
		return -1;
	return fx_close(&w, FX_T0 + 100000000000ULL);
}

static int make_culprits(const char *dir)
{
	return fx_make_culprits(dir, true);
}

static int make_culprits_plain(const char *dir)
{
	return fx_make_culprits(dir, false);
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
};

int main(int argc, char **argv)
{
	char path[4096];
	unsigned int i;

	if (argc == 4 && !strcmp(argv[1], "--big"))
		return make_big(argv[2], strtoull(argv[3], NULL, 0)) ? 1 : 0;
	if (argc != 2) {
		fprintf(stderr, "usage: mkfixtures DIR | mkfixtures --big DIR EVENTS\n");
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
