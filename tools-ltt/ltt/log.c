// SPDX-License-Identifier: GPL-2.0
/*
 * ltt log: put a line of text into the trace being recorded, as a
 * custom event of one string field, "text" (what scripts and users use
 * to mark "the interesting part starts here").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <ltt/ltt.h>

#include "ltt.h"

static const struct ltt_opt log_opts[] = {
	{ 'e', "event", "NAME", "the event's name (default user_message)" },
	{ 'd', "description", "TEXT", "what the event means, for a new type" },
};

int cmd_log(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER("ltt log", "[OPTIONS] TEXT...",
		"Record TEXT (the arguments joined by spaces) as a custom event\n"
		"NAME with one string field, \"text\", in the session recording\n"
		"now, beside the kernel's events; nothing is recorded when no\n"
		"session records.  Needs CAP_PERFMON, or kernel.ltt_user_sessions=1.",
		log_opts);
	const char *name = "user_message", *desc = "a line from ltt log";
	char text[LTT_STRING_MAX];
	size_t len = 0;
	int c, fd, i;

	while ((c = opt_next(&p, argc, argv)) != -1) {
		if (c == 'e')
			name = p.arg;
		else if (c == 'd')
			desc = p.arg;
	}
	if (p.ind >= argc)
		opt_usage_error(&p, "no TEXT to log");
	text[0] = '\0';
	for (i = p.ind; i < argc && len < sizeof(text) - 1; i++)
		len += snprintf(text + len, sizeof(text) - len, "%s%s",
				i > p.ind ? " " : "", argv[i]);
	fd = ltt_event_create_format(name, desc);
	if (fd < 0) {
		warnx_cmd("ltt log", "event %s: %s%s", name, ltt_error(),
			  errno == EEXIST ?
			  " (another event has this name but other fields)" : "");
		return 1;
	}
	if (ltt_event_logf(fd, "%s", text)) {
		warnx_cmd("ltt log", "%s", ltt_error());
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}
