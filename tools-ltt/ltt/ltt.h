/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the subcommands of ltt share: the option parser, messages, time
 * formats.
 */
#ifndef LTT_LTT_CMD_H
#define LTT_LTT_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdnoreturn.h>

#include <ltt/ltt.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* One subcommand: `ltt NAME ...`. */
struct ltt_subcmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

int cmd_record(int argc, char **argv);
int cmd_log(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);

/* One option of a subcommand, for parsing and for --help. */
struct ltt_opt {
	int key;			/* returned by opt_next(); a char for -x */
	const char *name;		/* --name */
	const char *arg;		/* its argument's name, or NULL */
	const char *help;
};

struct opt_parser {
	const char *cmd;		/* "ltt report" */
	const char *usage;		/* "[OPTIONS] DIR" */
	const char *about;		/* a paragraph under the usage */
	const struct ltt_opt *opts;
	unsigned int n_opts;
	char *arg;			/* the current option's argument */
	int argc;
	char **argv;
	int ind;			/* next argv index */
	bool anywhere;			/* options after operands too */
	/* getopt_long's tables, made from opts */
	void *longopts;
	char shortopts[128];
};

#define OPT_PARSER(c, u, a, o)						\
	{ .cmd = (c), .usage = (u), .about = (a), .opts = (o),		\
	  .n_opts = ARRAY_SIZE(o) }

/* For a command of a trace directory: options before or after it. */
#define OPT_PARSER_ANYWHERE(c, u, a, o)					\
	{ .cmd = (c), .usage = (u), .about = (a), .opts = (o),		\
	  .n_opts = ARRAY_SIZE(o), .anywhere = true }

/*
 * The next option's key, or -1 when the options end (p->ind is then the
 * first operand).  --help prints the help and exits 0; a bad option
 * exits 2 with a hint.
 */
int opt_next(struct opt_parser *p, int argc, char **argv);
noreturn void opt_usage_error(const struct opt_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void opt_help(const struct opt_parser *p);

/* Numbers in options: exit 2 with a message naming @what when bad. */
uint64_t opt_u64(const struct opt_parser *p, const char *what,
		 const char *s);
/* A size with an optional k/K, m/M suffix. */
uint64_t opt_size(const struct opt_parser *p, const char *what,
		  const char *s);
/* A duration (parse_duration()), more than 0. */
uint64_t opt_duration(const struct opt_parser *p, const char *what,
		      const char *s);
/* Comma-separated pids into @pids (room @max); returns the count. */
unsigned int opt_ids(const struct opt_parser *p, const char *what,
		     const char *s, pid_t *ids, unsigned int max);
unsigned int opt_pids(const struct opt_parser *p, const char *s,
		      pid_t *pids, unsigned int max);

/*
 * --cgroup PATH and --container NAME, the same for report, stats,
 * analyze and watch: put CONTAINER_OPTS in the command's table and hand
 * its keys to opt_container().  container.h selects with them.
 */
enum { OPT_CGROUP = 0x4000, OPT_CONTAINER };
#define CONTAINER_OPTS							\
	{ OPT_CGROUP, "cgroup", "PATH",					\
	  "only events of tasks in cgroup PATH (v2) or below it, when they ran" }, \
	{ OPT_CONTAINER, "container", "NAME",				\
	  "only events of tasks of container NAME (docker:ID, nginx.service: as ltt names it, or a container's id)" }
struct cg_args {
	const char *cgroup, *container;
};
/* @key's option into @a: true when it was one of CONTAINER_OPTS. */
bool opt_container(struct cg_args *a, const struct opt_parser *p, int key);

/* "ltt CMD: message" on stderr. */
void warnx_cmd(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Flush stdout: -1 with "CMD: standard output: why" when what was
 * printed could not all be written (said once).
 */
int check_stdout(const char *cmd);

/* Open a trace or exit 1 with the library's message. */
struct ltt_trace *open_trace_or_die(const char *cmd, const char *dir);
/*
 * The same of @n trace directories read as one (ltt_trace_open_dirs()):
 * the operands of `ltt report DIR...`.
 */
struct ltt_trace *open_traces_or_die(const char *cmd, char *const *dirs,
				     unsigned int n);

/* The trace directories of a command's operands, options between them. */
#define TRACE_DIRS_MAX	256
struct trace_dirs {
	char *v[TRACE_DIRS_MAX];
	unsigned int n;
};
/* Add @dir; too many is a usage error of @p. */
void trace_dirs_add(struct trace_dirs *d, const struct opt_parser *p,
		    char *dir);
/* Print the trace's errors on stderr; returns their number. */
unsigned int print_trace_errors(const char *cmd, const struct ltt_trace *t);

/* "HH:MM:SS.nnnnnnnnn" of wall-clock @ns (local time, or UTC). */
void format_clock(char *buf, size_t len, int64_t ns, bool utc);
/* The same of @secs seconds and @frac ns (0 to 999999999). */
void format_clock_secs(char *buf, size_t len, int64_t secs, long frac,
		       bool utc);
/* "S.nnnnnnnnn" of a duration or relative time. */
void format_rel(char *buf, size_t len, int64_t ns);
/*
 * Parse a time bound: "1.5" seconds from the trace start, or the wall
 * clock "HH:MM:SS[.frac]" on the day of @start_real (local or UTC).
 * Returns trace-clock ns (relative bounds need @start_ts).
 */
char *default_output(const char *dir, const char *ext, const char *fallback);
/* "S[.frac]" seconds in ns; -1 when malformed. */
int parse_seconds(const char *s, uint64_t *ns);
/*
 * A duration: a number of seconds ("1.5") or a number and a unit: ns,
 * us, ms, s, m, h ("500ms").  Returns 0 with *@ns, or -1 when malformed.
 */
int parse_duration(const char *s, uint64_t *ns);
int parse_time_bound(const char *s, uint64_t start_ts, int64_t offset,
		     bool utc, uint64_t *out);

/* --from and --to as given, and what they are in the trace's clock. */
struct time_window {
	const char *from_arg, *to_arg;	/* NULL: the start, the end */
	bool utc;			/* HH:MM:SS is UTC */
	uint64_t start;			/* the trace's first item */
	uint64_t from, to;		/* the window, both included */
};

/*
 * The window of --from and --to in @t ("-S": S seconds before the end
 * of the trace), and @t moved to its start: only the packets from there
 * on are read.  A malformed bound exits 2 with @p's usage.
 */
void trace_window(struct ltt_trace *t, const struct opt_parser *p,
		  struct time_window *w);

#endif /* LTT_LTT_CMD_H */
