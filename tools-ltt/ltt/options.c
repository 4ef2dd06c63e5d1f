// SPDX-License-Identifier: GPL-2.0
/*
 * The option parser every subcommand of ltt uses: one table per command
 * gives getopt_long() its options and --help its text.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltt.h"

void opt_help(const struct opt_parser *p)
{
	unsigned int i;

	printf("usage: %s %s\n\n", p->cmd, p->usage);
	if (p->about)
		printf("%s\n\n", p->about);
	printf("options:\n");
	for (i = 0; i < p->n_opts; i++) {
		const struct ltt_opt *o = &p->opts[i];
		char left[64];
		int n = 0;

		if (o->key < 128)
			n = snprintf(left, sizeof(left), "-%c, ", o->key);
		else
			n = snprintf(left, sizeof(left), "    ");
		snprintf(left + n, sizeof(left) - n, "--%s%s%s", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		printf("  %-28s %s\n", left, o->help);
	}
	printf("  %-28s %s\n", "-h, --help", "show this help");
}

void opt_usage_error(const struct opt_parser *p, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", p->cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: %s %s (see `%s --help`)\n", p->cmd, p->usage,
		p->cmd);
	exit(2);
}

/* getopt_long()'s tables from the command's option table. */
static void opt_build(struct opt_parser *p)
{
	struct option *lo = calloc(p->n_opts + 2, sizeof(*lo));
	unsigned int i, n = 0;

	if (!lo) {
		fprintf(stderr, "%s: out of memory\n", p->cmd);
		exit(1);
	}
	/* "+": stop at the first operand, so that CMD... keeps its options */
	if (!p->anywhere)
		p->shortopts[n++] = '+';
	p->shortopts[n++] = ':';
	for (i = 0; i < p->n_opts; i++) {
		const struct ltt_opt *o = &p->opts[i];

		lo[i].name = o->name;
		lo[i].has_arg = o->arg ? required_argument : no_argument;
		lo[i].val = o->key;
		if (o->key < 128 && n + 3 < sizeof(p->shortopts)) {
			p->shortopts[n++] = o->key;
			if (o->arg)
				p->shortopts[n++] = ':';
		}
	}
	lo[i].name = "help";
	lo[i].val = 'h';
	p->shortopts[n++] = 'h';
	p->shortopts[n] = '\0';
	p->longopts = lo;
	optind = 1;
	opterr = 0;
}

int opt_next(struct opt_parser *p, int argc, char **argv)
{
	int c;

	if (!p->longopts)
		opt_build(p);
	c = getopt_long(argc, argv, p->shortopts, p->longopts, NULL);
	p->arg = optarg;
	p->ind = optind;
	switch (c) {
	case -1:
		free(p->longopts);
		p->longopts = NULL;
		return -1;
	case 'h':
		opt_help(p);
		exit(0);
	case '?':
		if (optopt && optopt < 128)
			opt_usage_error(p, "unknown option -%c", optopt);
		opt_usage_error(p, "unknown option %s", argv[optind - 1]);
	case ':':
		opt_usage_error(p, "option %s needs an argument",
				argv[optind - 1]);
	}
	return c;
}

uint64_t opt_u64(const struct opt_parser *p, const char *what, const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		opt_usage_error(p, "%s: \"%s\" is not a number", what, s);
	return v;
}

uint64_t opt_size(const struct opt_parser *p, const char *what, const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		opt_usage_error(p, "%s: \"%s\" is not a size", what, s);
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	if (*end)
		opt_usage_error(p, "%s: \"%s\" is not a size (N, Nk or NM)",
				what, s);
	return v;
}

int parse_seconds(const char *s, uint64_t *ns)
{
	unsigned long long secs = 0, frac = 0, scale = 1000000000;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9' && secs <= 1000000000ULL)
		secs = secs * 10 + (*p++ - '0');
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (scale > 1)
				frac = frac * 10 + (*p - '0'), scale /= 10;
		frac *= scale;
	}
	if (*p || secs > 1000000000ULL)
		return -1;
	*ns = secs * 1000000000ULL + frac;
	return 0;
}

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		uint64_t mul, div;
	} units[] = {
		{ "", 1, 1 }, { "s", 1, 1 }, { "ms", 1, 1000 },
		{ "us", 1, 1000000 }, { "ns", 1, 1000000000 },
		{ "m", 60, 1 }, { "h", 3600, 1 },
	};
	char num[64];
	size_t n = strspn(s, "0123456789.");
	unsigned int i;
	uint64_t v;

	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	if (parse_seconds(num, &v))
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(s + n, units[i].unit))
			continue;
		if (__builtin_mul_overflow(v, units[i].mul, ns))
			return -1;
		*ns /= units[i].div;
		return 0;
	}
	return -1;
}

uint64_t opt_duration(const struct opt_parser *p, const char *what,
		      const char *s)
{
	uint64_t ns;

	if (parse_duration(s, &ns) || !ns)
		opt_usage_error(p, "%s: \"%s\" is not a duration (1.5, 500ms, 2s, 1m: ns, us, ms, s, m, h)",
				what, s);
	return ns;
}

/* A list of numbers of @what (pids, CPUs), comma separated. */
unsigned int opt_ids(const struct opt_parser *p, const char *what,
		     const char *s, pid_t *ids, unsigned int max)
{
	unsigned int n = 0;
	const char *q = s;

	while (*q) {
		char *end;
		long v;

		errno = 0;
		v = strtol(q, &end, 10);
		if (errno || end == q || v < 0 || v > 0x7fffffff ||
		    (*end && *end != ','))
			opt_usage_error(p, "\"%s\" is not a list of %s", s, what);
		if (n == max)
			opt_usage_error(p, "at most %u %s", max, what);
		ids[n++] = v;
		q = *end ? end + 1 : end;
	}
	if (!n)
		opt_usage_error(p, "empty %s list", what);
	return n;
}

unsigned int opt_pids(const struct opt_parser *p, const char *s, pid_t *pids,
		      unsigned int max)
{
	return opt_ids(p, "pids", s, pids, max);
}

void trace_dirs_add(struct trace_dirs *d, const struct opt_parser *p,
		    char *dir)
{
	if (d->n == TRACE_DIRS_MAX)
		opt_usage_error(p, "at most %d trace directories", TRACE_DIRS_MAX);
	d->v[d->n++] = dir;
}

bool opt_container(struct cg_args *a, const struct opt_parser *p, int key)
{
	if (key != OPT_CGROUP && key != OPT_CONTAINER)
		return false;
	if (!*p->arg)
		opt_usage_error(p, "--%s: empty", key == OPT_CGROUP ?
				"cgroup" : "container");
	if (key == OPT_CGROUP)
		a->cgroup = p->arg;
	else
		a->container = p->arg;
	return true;
}
