// SPDX-License-Identifier: GPL-2.0
/*
 * mkprevboot: an image of a previous boot's trace, as LTT_CMD_PREVIOUS_BOOT
 * gives it, for tests/cli-previous.sh.
 *
 *   mkprevboot [--event-size N] [--end KIND] IMAGE [TRACE_DIR]
 *
 * From the packets of TRACE_DIR, or of the crash trace of prevboot.h
 * (made in a scratch directory, removed after).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/internal.h"
#include "prevboot.h"

int main(int argc, char **argv)
{
	struct pb_opts o = { 0 };
	char scratch[] = "/tmp/mkprevboot-XXXXXX";
	const char *dir = NULL;
	unsigned char *img;
	size_t len;
	FILE *f;
	int i = 1, ret;

	for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (!strcmp(argv[i], "--event-size"))
			o.event_size = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--end"))
			o.end = atoi(argv[i + 1]);
		else
			break;
	}
	if (i >= argc || argc - i > 2) {
		fprintf(stderr, "usage: mkprevboot [--event-size N] [--end KIND] IMAGE [TRACE_DIR]\n");
		return 2;
	}
	if (argc - i == 2) {
		dir = argv[i + 1];
	} else {
		if (!mkdtemp(scratch) || pb_crash_trace(scratch)) {
			fprintf(stderr, "mkprevboot: cannot write the crash trace in %s\n",
				scratch);
			return 1;
		}
		dir = scratch;
	}
	ret = pb_build(dir, &o, &img, &len);
	if (dir == scratch) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
		if (system(cmd))
			fprintf(stderr, "mkprevboot: %s left behind\n", scratch);
	}
	if (ret) {
		fprintf(stderr, "mkprevboot: %s: cannot make an image of it\n", dir);
		return 1;
	}
	f = fopen(argv[i], "w");
	if (!f || fwrite(img, 1, len, f) != len || fclose(f)) {
		perror(argv[i]);
		return 1;
	}
	free(img);
	return 0;
}
