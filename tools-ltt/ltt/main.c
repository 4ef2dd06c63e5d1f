// SPDX-License-Identifier: GPL-2.0
/*
 * ltt: record, print and summarise LTT traces.  One file per subcommand;
 * this one finds it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltt.h"

#ifndef LTT_VERSION
#define LTT_VERSION	"unknown"
#endif

static const struct ltt_subcmd commands[] = {
	{ "record", "trace the system while a command runs", cmd_record },
	{ "log", "put a line of text into the trace being recorded", cmd_log },
	{ "report", "print a trace, one line per event", cmd_report },
	{ "stats", "summarise a trace: events, syscalls, CPU time, losses",
	  cmd_stats },
	{ "watch", "run a Lua script on every event, live or on a trace",
	  cmd_watch },
	{ "view", "write the trace as a timeline in one HTML file", cmd_view },
	{ "export", "write the trace for other viewers (Chrome JSON, for Perfetto)",
	  cmd_export },
	{ "list", "list the events of a trace or of the kernel, with their fields",
	  cmd_list },
	{ "analyze", "latencies (syscalls, scheduling, irqs), I/O and CPU usage",
	  cmd_analyze },
	{ "send", "ship a recorded trace to lttng-relayd (live viewers watch it)",
	  cmd_send },
	{ "snapshot", "ask a running flight recorder for a snapshot, print where it went",
	  cmd_snapshot },
};

static void usage(FILE *out)
{
	unsigned int i;

	fprintf(out, "usage: ltt [--help | --version] COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\n`ltt COMMAND --help` describes a command; ltt(1) has the details.\n");
}

/*
 * Whatever way ltt exits (--help exits from the option parser), output
 * that could not be written is a failure; the commands that print much
 * check before they end, and this says nothing more then.
 */
static void check_stdout_at_exit(void)
{
	if (check_stdout("ltt"))
		_exit(1);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	unsigned int i;

	atexit(check_stdout_at_exit);
	if (!name) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h") ||
	    !strcmp(name, "help")) {
		if (argc > 2 && strcmp(name, "help") == 0) {
			char *help_argv[] = { argv[2], "--help", NULL };

			for (i = 0; i < ARRAY_SIZE(commands); i++)
				if (!strcmp(commands[i].name, argv[2]))
					return commands[i].run(2, help_argv);
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version")) {
		printf("ltt " LTT_VERSION "\n");
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "ltt: no command \"%s\"\n\n", name);
	usage(stderr);
	return 2;
}
