// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the ltt subcommands: messages, opening traces, time.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../lib/checked.h"
#include "ltt.h"

void warnx_cmd(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int check_stdout(const char *cmd)
{
	static bool told;
	int err;

	if (told)
		return -1;
	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return 0;
	/* a write that failed earlier (Lua flushes each print) left no errno */
	err = errno;
	warnx_cmd(cmd, "standard output: %s: the output is incomplete",
		  err ? strerror(err) : "a write failed");
	told = true;
	return -1;
}

/*
 * Say what is wrong with @dir itself, before what it lacks, and exit 1;
 * return when it is a directory.
 */
static void trace_dir_or_die(const char *cmd, const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		warnx_cmd(cmd, "%s: %s", dir, errno == ENOENT ?
			  "no such directory" : strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		warnx_cmd(cmd, "%s: not a directory (a trace is one)", dir);
	else
		return;
	exit(1);
}

struct ltt_trace *open_trace_or_die(const char *cmd, const char *dir)
{
	struct ltt_trace *t = ltt_trace_open(dir);

	if (!t) {
		trace_dir_or_die(cmd, dir);
		warnx_cmd(cmd, "%s", ltt_error());
		exit(1);
	}
	return t;
}

struct ltt_trace *open_traces_or_die(const char *cmd, char *const *dirs,
				     unsigned int n)
{
	struct ltt_trace *t = ltt_trace_open_dirs((const char *const *)dirs, n);
	unsigned int i;

	if (!t) {
		for (i = 0; i < n; i++)
			trace_dir_or_die(cmd, dirs[i]);
		warnx_cmd(cmd, "%s", ltt_error());
		exit(1);
	}
	return t;
}

unsigned int print_trace_errors(const char *cmd, const struct ltt_trace *t)
{
	unsigned int i, n = ltt_trace_n_errors(t);

	for (i = 0; i < ltt_trace_n_warnings(t); i++)
		warnx_cmd(cmd, "warning: %s", ltt_trace_warning(t, i));
	for (i = 0; i < n; i++)
		warnx_cmd(cmd, "%s (the events before it were read)",
			  ltt_trace_error(t, i));
	return n;
}

static void split_ns(int64_t ns, time_t *secs, long *frac)
{
	*secs = ns / 1000000000;
	*frac = ns % 1000000000;
	if (*frac < 0) {
		*frac += 1000000000;
		(*secs)--;
	}
}

void format_clock_secs(char *buf, size_t len, int64_t secs, long frac,
		       bool utc)
{
	time_t t = secs;
	struct tm tm;

	if (!(utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)))
		memset(&tm, 0, sizeof(tm));
	snprintf(buf, len, "%02d:%02d:%02d.%09ld", tm.tm_hour, tm.tm_min,
		 tm.tm_sec, frac);
}

void format_clock(char *buf, size_t len, int64_t ns, bool utc)
{
	time_t secs;
	long frac;

	split_ns(ns, &secs, &frac);
	format_clock_secs(buf, len, secs, frac, utc);
}

void format_rel(char *buf, size_t len, int64_t ns)
{
	const char *sign = ns < 0 ? "-" : "";
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, len, "%s%llu.%09llu", sign,
		 (unsigned long long)(a / 1000000000),
		 (unsigned long long)(a % 1000000000));
}

int parse_time_bound(const char *s, uint64_t start_ts, int64_t offset,
		     bool utc, uint64_t *out)
{
	unsigned int h, m;
	uint64_t secs_ns;
	int64_t start_real = ltt_wall_ns(start_ts, offset), day_start, tod;
	struct tm tm;
	time_t t;
	int n = 0;

	if (!strchr(s, ':')) {
		if (parse_seconds(s, &secs_ns))
			return -1;
		*out = start_ts > UINT64_MAX - secs_ns ? UINT64_MAX :
						       start_ts + secs_ns;
		return 0;
	}
	if (sscanf(s, "%u:%u:%n", &h, &m, &n) != 2 || !n || h > 23 || m > 59 ||
	    parse_seconds(s + n, &secs_ns) || secs_ns >= 60000000000ULL)
		return -1;
	/* Midnight of the trace's first day, in wall-clock ns. */
	t = start_real / 1000000000;
	if (utc)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	day_start = t - (tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec);
	/* the bound in trace time; saturated, like the times printed */
	if (!ltt_secs_to_ns(day_start + h * 3600 + m * 60, secs_ns, &tod))
		tod = day_start < 0 ? INT64_MIN : INT64_MAX;
	tod = ltt_sat_sub(tod, offset);
	*out = tod < 0 ? 0 : (uint64_t)tod;
	return 0;
}

/*
 * The last component of @dir with @ext added, in the current directory,
 * or @fallback when @dir has none (".", "/"); malloc'd, NULL when out of
 * memory.  ltt view's and ltt export's default output.
 */
char *default_output(const char *dir, const char *ext, const char *fallback)
{
	size_t len = strlen(dir);
	const char *base;
	char *out;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	for (base = dir + len; base > dir && base[-1] != '/'; base--)
		;
	if (base == dir + len || !strncmp(base, ".", dir + len - base) ||
	    !strncmp(base, "..", dir + len - base))
		return strdup(fallback);
	out = malloc(dir + len - base + strlen(ext) + 1);
	if (out)
		sprintf(out, "%.*s%s", (int)(dir + len - base), base, ext);
	return out;
}
