// SPDX-License-Identifier: GPL-2.0
/*
 * lttd: the LTT trace daemon.  Creates a session, streams every CPU's
 * buffer into a CTF trace directory until told to stop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ltt/ltt.h"
#include "run.h"

enum {
	OPT_OVERWRITE = 256,
	OPT_FLUSH,
};

static const struct ltt_opt lttd_opts[] = {
	{ 'o', "output", "DIR", "write the trace into DIR (required)" },
	{ 's', "subbuf-size", "SIZE", "bytes per sub-buffer (power of two, 4k to 16M)" },
	{ 'n', "subbufs", "COUNT", "sub-buffers per CPU (power of two, 2 to 1024)" },
	{ OPT_OVERWRITE, "overwrite", NULL,
	  "flight recorder: keep the newest events; SIGUSR1 writes them" },
	{ 'e', "events", "LIST", "record only these events (names, prefix*, ids)" },
	{ 'p', "pid", "PID[,PID]", "record only these processes" },
	{ 't', "time", "SECONDS", "stop after SECONDS" },
	{ OPT_FLUSH, "flush-ms", "MS", "hand partly filled packets over every MS ms" },
	{ 'q', "quiet", NULL, "no progress line and no totals" },
};

int main(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER("lttd", "[OPTIONS] -o DIR [-- CMD [ARGS]]",
		"Record the whole system into the CTF trace directory DIR until\n"
		"SIGINT or SIGTERM, the time limit, or the end of CMD.  lttd(8) has\n"
		"the details.",
		lttd_opts);
	struct lttd_config cfg = { .prog = "lttd" };
	int c;

	while ((c = opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			cfg.rec.dir = p.arg;
			break;
		case 's':
			cfg.rec.session.subbuf_size = opt_size(&p, "--subbuf-size", p.arg);
			break;
		case 'n':
			cfg.rec.session.n_subbufs = opt_u64(&p, "--subbufs", p.arg);
			break;
		case OPT_OVERWRITE:
			cfg.rec.session.overwrite = true;
			break;
		case 'e':
			cfg.rec.events = p.arg;
			break;
		case 'p':
			cfg.rec.n_pids = opt_pids(&p, p.arg, cfg.pids, LTT_PIDS_MAX);
			break;
		case 't':
			cfg.seconds = opt_u64(&p, "--time", p.arg);
			break;
		case OPT_FLUSH:
			cfg.rec.session.flush_ms = opt_u64(&p, "--flush-ms", p.arg);
			break;
		case 'q':
			cfg.quiet = true;
			break;
		}
	}
	if (!cfg.rec.dir)
		opt_usage_error(&p, "no output directory: give -o DIR");
	if (p.ind < argc)
		cfg.cmd = argv + p.ind;
	return lttd_run(&cfg);
}
