// SPDX-License-Identifier: GPL-2.0
/*
 * ltt record: trace the system while a command runs.  The daemon's loop
 * runs in this process (lttd/run.c).
 */
#include <stdio.h>
#include <time.h>

#include "../lttd/run.h"
#include "ltt.h"

enum {
	OPT_FLIGHT = 256,
};

static const struct ltt_opt record_opts[] = {
	{ 'o', "output", "DIR", "write the trace into DIR (default ltt-trace-DATE-TIME)" },
	{ 'e', "events", "LIST", "record only these events (names, prefix*, ids)" },
	{ 'p', "pid", "PID[,PID]", "record only these processes" },
	{ OPT_FLIGHT, "flight-recorder", NULL,
	  "keep only the newest events; SIGUSR1 writes a snapshot" },
	{ 's', "subbuf-size", "SIZE", "bytes per sub-buffer" },
	{ 'n', "subbufs", "COUNT", "sub-buffers per CPU" },
	{ 't', "time", "SECONDS", "stop after SECONDS even if CMD still runs" },
	{ 'q', "quiet", NULL, "no progress line and no totals" },
};

int cmd_record(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER("ltt record", "[OPTIONS] [-- CMD [ARGS]]",
		"Record the whole system while CMD runs (or until Ctrl-C without CMD)\n"
		"into a CTF trace directory that `ltt report`, `ltt stats` and\n"
		"babeltrace2 read.",
		record_opts);
	struct lttd_config cfg = { .prog = "ltt record" };
	char dir[64];
	int c;

	while ((c = opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			cfg.rec.dir = p.arg;
			break;
		case 'e':
			cfg.rec.events = p.arg;
			break;
		case 'p':
			cfg.rec.n_pids = opt_pids(&p, p.arg, cfg.pids, LTT_PIDS_MAX);
			break;
		case OPT_FLIGHT:
			cfg.rec.session.overwrite = true;
			break;
		case 's':
			cfg.rec.session.subbuf_size = opt_size(&p, "--subbuf-size", p.arg);
			break;
		case 'n':
			cfg.rec.session.n_subbufs = opt_u64(&p, "--subbufs", p.arg);
			break;
		case 't':
			cfg.seconds = opt_u64(&p, "--time", p.arg);
			break;
		case 'q':
			cfg.quiet = true;
			break;
		}
	}
	if (!cfg.rec.dir) {
		time_t now = time(NULL);
		struct tm tm;

		localtime_r(&now, &tm);
		strftime(dir, sizeof(dir), "ltt-trace-%Y%m%d-%H%M%S", &tm);
		cfg.rec.dir = dir;
	}
	if (p.ind < argc)
		cfg.cmd = argv + p.ind;
	return lttd_run(&cfg);
}
