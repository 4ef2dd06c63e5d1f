// SPDX-License-Identifier: GPL-2.0
/*
 * ltt record: trace the system while a command runs.  The daemon's loop
 * runs in this process (lttd/run.c).
 */
#include <stdio.h>
#include <time.h>

#include "../lttd/previous.h"
#include "../lttd/run.h"
#include "ltt.h"

static const struct ltt_opt record_opts[] = {
	{ 'o', "output", "DIR", "write the trace into DIR (default ltt-trace-DATE-TIME)" },
	{ 'e', "events", "LIST", "record only these events (names, prefix*, ids)" },
	{ 'p', "pid", "PID[,PID]", "record only these processes" },
	LTTD_CGROUP_OPT,
	{ LTTD_OPT_OVERWRITE, "flight-recorder", NULL,
	  "keep only the newest events; SIGUSR1 (kill -USR1 $(cat DIR/lttd.pid)) writes a snapshot into DIR/snapshot-N while it records" },
	LTTD_SNAPSHOT_OPTS,
	{ 's', "subbuf-size", "SIZE", "bytes per sub-buffer" },
	{ 'n', "subbufs", "COUNT", "sub-buffers per CPU" },
	{ 't', "time", "SECONDS", "stop after SECONDS even if CMD still runs" },
	{ 'q', "quiet", NULL, "no progress line and no totals" },
	LTTD_BOOT_OPT,
	LTTD_RELAYD_OPTS,
	LTTD_PREVIOUS_OPTS,
};

int cmd_record(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER("ltt record", "[OPTIONS] [-- CMD [ARGS]]",
		"Record the whole system while CMD runs (or until Ctrl-C without CMD)\n"
		"into a CTF trace directory that `ltt report`, `ltt stats` and\n"
		"babeltrace2 read; with --relayd, stream it to lttng-relayd instead\n"
		"(and into DIR too with -o DIR).  With --previous-boot, write the trace\n"
		"the kernel kept of the previous boot into DIR, as lttd does.",
		record_opts);
	struct lttd_config cfg = { .prog = "ltt record" };
	char dir[64];
	int c;

	while ((c = opt_next(&p, argc, argv)) != -1)
		lttd_option(&cfg, &p, c);
	if (p.ind < argc)
		cfg.cmd = argv + p.ind;
	if (lttd_previous_wanted(&cfg))
		return lttd_previous(&cfg, &p);
	if ((cfg.session || cfg.hostname) && !cfg.relayd)
		opt_usage_error(&p, "--session and --hostname name what --relayd sends: give --relayd HOST");
	if (!cfg.rec.dir && !cfg.relayd) {
		time_t now = time(NULL);
		struct tm tm;

		localtime_r(&now, &tm);
		strftime(dir, sizeof(dir), "ltt-trace-%Y%m%d-%H%M%S", &tm);
		cfg.rec.dir = dir;
	}
	return lttd_run(&cfg);
}
