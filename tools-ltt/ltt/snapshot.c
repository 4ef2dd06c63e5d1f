// SPDX-License-Identifier: GPL-2.0
/*
 * ltt snapshot: ask the flight recorder writing into DIR (lttd
 * --overwrite, ltt record --flight-recorder, ltt-flight.service) for a
 * snapshot, through its pid file, and print where it went once it is
 * there: the recorder renames DIR/.snapshot-N.partial to DIR/snapshot-N
 * when written, so a new snapshot-N is a whole one.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltt.h"

#define FLIGHT_CONF	"/etc/ltt/flight.conf"

static const struct ltt_opt snapshot_opts[] = {
	{ 't', "timeout", "SECONDS", "wait this long for the snapshot (default 60)" },
};

/* The newest DIR/snapshot-N's N, 0 for none; -1 when DIR cannot be read. */
static long newest_snapshot(const char *dir)
{
	struct dirent *e;
	long newest = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char *end;
		long n;

		if (strncmp(e->d_name, "snapshot-", 9))
			continue;
		n = strtol(e->d_name + 9, &end, 10);
		if (!*end && n > newest)
			newest = n;
	}
	closedir(d);
	return newest;
}

/*
 * Where ltt-flight.service's recorder writes: OUTPUT/current, OUTPUT
 * from the OUTPUT=DIR line of its configuration (an EnvironmentFile of
 * the unit), or NULL.
 */
static char *flight_output(void)
{
	const char *conf = getenv("LTT_FLIGHT_CONF");
	char line[4200], *out = NULL;
	FILE *f = fopen(conf ? conf : FLIGHT_CONF, "re");

	if (!f)
		return NULL;
	while (!out && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "OUTPUT=", 7) && line[7] &&
		    asprintf(&out, "%s/current", line + 7) < 0)
			out = NULL;
	}
	fclose(f);
	return out;
}

int cmd_snapshot(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER("ltt snapshot", "[OPTIONS] [DIR]",
		"Ask the flight recorder writing into DIR (lttd --overwrite -o DIR;\n"
		"default: OUTPUT/current, OUTPUT of " FLIGHT_CONF ", ltt-flight.service's)\n"
		"for a snapshot, wait for it, and print where it went.",
		snapshot_opts);
	uint64_t timeout_ms = 60000, waited = 0;
	char path[4200], *conf_dir = NULL;
	const char *dir;
	long before, now;
	FILE *f;
	int c, pid = 0;

	while ((c = opt_next(&p, argc, argv)) != -1)
		if (c == 't')
			timeout_ms = 1000 * opt_u64(&p, "--timeout", p.arg);
	if (argc - p.ind > 1)
		opt_usage_error(&p, "one directory at most");
	dir = p.ind < argc ? argv[p.ind] : (conf_dir = flight_output());
	if (!dir)
		opt_usage_error(&p, "no DIR, and no output in " FLIGHT_CONF);
	snprintf(path, sizeof(path), "%s/lttd.pid", dir);
	f = fopen(path, "re");
	if (!f || fscanf(f, "%d", &pid) != 1 || pid <= 0) {
		warnx_cmd(p.cmd, "%s: %s: no flight recorder writes into %s (lttd --overwrite -o %s)",
			  path, f ? "no pid in it" : strerror(errno), dir, dir);
		goto fail;
	}
	fclose(f);
	f = NULL;
	before = newest_snapshot(dir);
	if (before < 0) {
		warnx_cmd(p.cmd, "%s: %s", dir, strerror(errno));
		goto fail;
	}
	if (kill(pid, SIGUSR1)) {
		warnx_cmd(p.cmd, "%s: pid %d: %s (a recorder that ended without removing its pid file?)",
			  path, pid, strerror(errno));
		goto fail;
	}
	for (;;) {
		struct timespec ts = { 0, 100 * 1000000 };

		now = newest_snapshot(dir);
		if (now > before)
			break;
		if (waited >= timeout_ms) {
			warnx_cmd(p.cmd, "%s: no new snapshot after %llu s (lttd's messages say why)",
				  dir, (unsigned long long)(timeout_ms / 1000));
			goto fail;
		}
		nanosleep(&ts, NULL);
		waited += 100;
	}
	printf("%s/snapshot-%ld\n", dir, now);
	free(conf_dir);
	return 0;

fail:
	if (f)
		fclose(f);
	free(conf_dir);
	return 1;
}
