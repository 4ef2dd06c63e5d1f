// SPDX-License-Identifier: GPL-2.0
/*
 * lttd: the LTT trace daemon.  Creates a session, streams every CPU's
 * buffer into a CTF trace directory until told to stop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ltt/ltt.h"
#include "previous.h"
#include "run.h"

enum { LTTD_OPT_DISCARD = 512 };	/* lttd only: after run.h's keys */

static const struct ltt_opt lttd_opts[] = {
	{ 'o', "output", "DIR", "write the trace into DIR (or --discard)" },
	{ LTTD_OPT_DISCARD, "discard", NULL,
	  "take every packet and drop it unwritten (benchmarks)" },
	{ 's', "subbuf-size", "SIZE", "bytes per sub-buffer (power of two, 4k to 16M)" },
	{ 'n', "subbufs", "COUNT", "sub-buffers per CPU (power of two, 2 to 1024)" },
	{ LTTD_OPT_OVERWRITE, "overwrite", NULL,
	  "flight recorder: keep the newest events; SIGUSR1 (kill -USR1 $(cat DIR/lttd.pid)) writes them into DIR/snapshot-N while it records" },
	LTTD_SNAPSHOT_OPTS,
	{ 'e', "events", "LIST", "record only these events (names, prefix*, ids)" },
	{ 'p', "pid", "PID[,PID]", "record only these processes" },
	LTTD_CGROUP_OPT,
	{ 't', "time", "SECONDS", "stop after SECONDS" },
	{ LTTD_OPT_FLUSH, "flush-ms", "MS", "hand partly filled packets over every MS ms" },
	{ 'q', "quiet", NULL, "no progress line and no totals" },
	LTTD_BOOT_OPT,
	LTTD_RELAYD_OPTS,
	LTTD_PREVIOUS_OPTS,
};

int main(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER("lttd", "[OPTIONS] -o DIR|--discard|--relayd HOST [-- CMD [ARGS]]\n"
		"   or: lttd --previous-boot[-file IMAGE] [-o DIR [--by-boot-id]] [--free]",
		"Record the whole system into the CTF trace directory DIR, or stream\n"
		"it to lttng-relayd on HOST, or both, until SIGINT or SIGTERM, the\n"
		"time limit, or the end of CMD.  With --previous-boot, write the trace\n"
		"the kernel kept of the previous boot into DIR instead (exit 2: there\n"
		"is none, 3: not permitted, 4: the kernel cannot).  lttd(8) has the details.",
		lttd_opts);
	struct lttd_config cfg = { .prog = "lttd" };
	bool discard = false;
	int c;

	while ((c = opt_next(&p, argc, argv)) != -1) {
		if (c == LTTD_OPT_DISCARD)
			discard = true;
		else
			lttd_option(&cfg, &p, c);
	}
	if (p.ind < argc)
		cfg.cmd = argv + p.ind;
	if (lttd_previous_wanted(&cfg)) {
		if (discard)
			opt_usage_error(&p, "--discard records: not with --previous-boot or --free");
		return lttd_previous(&cfg, &p);
	}
	if (discard && cfg.rec.dir)
		opt_usage_error(&p, "--discard writes nothing: no -o DIR with it");
	if (discard && cfg.rec.session.overwrite)
		opt_usage_error(&p, "--discard and --overwrite: a flight recorder that keeps nothing");
	if (discard && cfg.relayd)
		opt_usage_error(&p, "--discard sends nothing: no --relayd with it");
	if (!cfg.rec.dir && !discard && !cfg.relayd)
		opt_usage_error(&p, "no output directory: give -o DIR, --relayd HOST (or --discard)");
	if ((cfg.session || cfg.hostname) && !cfg.relayd)
		opt_usage_error(&p, "--session and --hostname name what --relayd sends: give --relayd HOST");
	/* Without a directory, the recorder writes no packet (--relayd sends them). */
	return lttd_run(&cfg);
}
