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

static const struct ltt_opt lttd_opts[] = {
	{ 'o', "output", "DIR", "write the trace into DIR (required)" },
	{ 's', "subbuf-size", "SIZE", "bytes per sub-buffer (power of two, 4k to 16M)" },
	{ 'n', "subbufs", "COUNT", "sub-buffers per CPU (power of two, 2 to 1024)" },
	{ LTTD_OPT_OVERWRITE, "overwrite", NULL,
	  "flight recorder: keep the newest events; SIGUSR1 writes them" },
	{ 'e', "events", "LIST", "record only these events (names, prefix*, ids)" },
	{ 'p', "pid", "PID[,PID]", "record only these processes" },
	{ 't', "time", "SECONDS", "stop after SECONDS" },
	{ LTTD_OPT_FLUSH, "flush-ms", "MS", "hand partly filled packets over every MS ms" },
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

	while ((c = opt_next(&p, argc, argv)) != -1)
		lttd_option(&cfg, &p, c);
	if (!cfg.rec.dir)
		opt_usage_error(&p, "no output directory: give -o DIR");
	if (p.ind < argc)
		cfg.cmd = argv + p.ind;
	return lttd_run(&cfg);
}
