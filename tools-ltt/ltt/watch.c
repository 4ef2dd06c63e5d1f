// SPDX-License-Identifier: GPL-2.0
/*
 * ltt watch: run a Lua script on every event of a trace (watch-lua.c),
 * read three ways:
 *  - offline, a trace directory as it is;
 *  - following a directory lttd is writing (--follow);
 *  - recording: the recorder of `ltt record` (lttd/run.c) runs in a child
 *    process, while CMD runs or until stopped, and this one follows the
 *    directory it writes.  The recorder keeps its own pace on the other
 *    CPU, and however the script ends, it stops the trace cleanly: the
 *    directory holds the whole trace.
 * Live or not, the script sees the same items in the same order.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lttd/run.h"
#include "container.h"
#include "ltt.h"
#include "watch.h"

#define CMD		"ltt watch"
#define WATCH_ARGS_MAX	64
#define WATCH_POLL_MS	50		/* look at a live trace this often */

#ifndef LTT_SCRIPT_DIR
#define LTT_SCRIPT_DIR	"/usr/share/ltt/scripts"
#endif

enum {
	OPT_FOLLOW = 'f',
	OPT_ARG = 'a',
	OPT_TIMEOUT = 0x100,
};

/* How long a script runs on after a stop signal before it is interrupted. */
#define WATCH_GRACE_MS	2000

static const struct ltt_opt watch_opts[] = {
	{ OPT_ARG, "arg", "ARG", "an argument for the script, in its arg table (repeat for more)" },
	{ OPT_FOLLOW, "follow", NULL, "follow TRACE_DIR while lttd writes it, until lttd ends" },
	{ OPT_TIMEOUT, "timeout", "SECONDS", "end the watch after SECONDS, as Ctrl-C does" },
	{ 'o', "output", "DIR", "record into DIR and keep it (default: a temporary directory, removed)" },
	{ 'e', "events", "LIST", "record only these events (names, prefix*, ids)" },
	{ 'p', "pid", "PID[,PID]", "record only these processes" },
	{ 's', "subbuf-size", "SIZE", "bytes per sub-buffer" },
	{ 'n', "subbufs", "COUNT", "sub-buffers per CPU" },
	{ 't', "time", "SECONDS", "stop recording after SECONDS" },
	CONTAINER_OPTS,
};

static volatile sig_atomic_t got_stop;

static void on_stop(int sig)
{
	(void)sig;
	got_stop = 1;
}

struct watch_cmd {
	struct opt_parser *p;
	char *args[WATCH_ARGS_MAX];
	unsigned int n_args;
	const char *script;
	const char *dir;		/* TRACE_DIR, or where to record */
	bool follow;
	unsigned int timeout;		/* --timeout, s; 0 none */
	bool recording;			/* no TRACE_DIR: record */
	bool temp_dir;			/* made here, removed at the end */
	struct lttd_config cfg;
	char temp[4096];

	struct cg_args cga;		/* --cgroup, --container */
	struct containers cg;		/* ... judged as the items come */
	struct watch *w;
	struct ltt_trace *t;
	bool live;			/* following or recording */
	pid_t recorder;			/* the child recording, or -1 */
	int recorder_status;		/* its exit status, once it ended */
	bool no_lease;			/* cannot tell when lttd is done */
	bool failed;			/* the script failed */
};

/* Options and operands may mix: `ltt watch S.lua -a 12 DIR`. */
static void watch_parse(struct watch_cmd *c, int argc, char **argv)
{
	char *operands[2];
	unsigned int n = 0;
	int base = 0, key;

	for (;;) {
		const char *last_arg = NULL;
		int ind;

		while ((key = opt_next(c->p, argc - base, argv + base)) != -1) {
			last_arg = c->p->arg;
			if (key == OPT_FOLLOW) {
				c->follow = true;
			} else if (key == OPT_TIMEOUT) {
				c->timeout = opt_u64(c->p, "--timeout", c->p->arg);
				if (!c->timeout || c->timeout > 1000000)
					opt_usage_error(c->p, "--timeout: 1 to 1000000 seconds");
			} else if (opt_container(&c->cga, c->p, key)) {
				/* read, whatever the trace's origin */
			} else if (key == OPT_ARG) {
				if (c->n_args == WATCH_ARGS_MAX)
					opt_usage_error(c->p, "at most %d script arguments",
							WATCH_ARGS_MAX);
				c->args[c->n_args++] = c->p->arg;
			} else {
				lttd_option(&c->cfg, c->p, key);
				c->recording = true;
			}
		}
		ind = base + c->p->ind;
		/* getopt stepped over "--": the command follows */
		if (ind > base + 1 && !strcmp(argv[ind - 1], "--") &&
		    last_arg != argv[ind - 1]) {
			c->cfg.cmd = ind < argc ? argv + ind : NULL;
			if (!c->cfg.cmd)
				opt_usage_error(c->p, "no command after --");
			break;
		}
		if (ind >= argc)
			break;
		if (n == 2)
			opt_usage_error(c->p, "too many operands: \"%s\"", argv[ind]);
		operands[n++] = argv[ind];
		base = ind;
	}
	if (!n)
		opt_usage_error(c->p, "no script given");
	c->script = operands[0];
	c->dir = n > 1 ? operands[1] : NULL;
	if (c->dir && (c->cfg.cmd || c->recording))
		opt_usage_error(c->p, "a TRACE_DIR is read as it is: recording options and -- CMD are for a new trace");
	if (c->follow && !c->dir)
		opt_usage_error(c->p, "--follow needs the TRACE_DIR lttd writes");
	c->recording = !c->dir;
}

/*
 * A bare script name that is not a file here is looked up among the
 * scripts that ship: $LTT_SCRIPTS, else LTT_SCRIPT_DIR, ".lua" added.
 */
static const char *watch_find_script(const char *name, char *buf, size_t len)
{
	const char *dir = getenv("LTT_SCRIPTS");

	if (strchr(name, '/') || !access(name, F_OK))
		return name;
	snprintf(buf, len, "%s/%s%s", dir && *dir ? dir : LTT_SCRIPT_DIR, name,
		 strstr(name, ".lua") ? "" : ".lua");
	return access(buf, F_OK) ? name : buf;
}

static void watch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);	/* --timeout */
	/* a script that loops ignores none of them (watch_interruptible) */
	watch_interruptible(&got_stop, WATCH_GRACE_MS);
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Has the recorder ended?  Keeps its exit status. */
static bool recorder_ended(struct watch_cmd *c)
{
	int ws;

	if (c->recorder <= 0)
		return true;
	if (waitpid(c->recorder, &ws, WNOHANG) != c->recorder)
		return false;
	c->recorder_status = WIFEXITED(ws) ? WEXITSTATUS(ws) :
			     128 + WTERMSIG(ws);
	c->recorder = -1;
	return true;
}

/* Stop the recorder (it writes every packet left) and wait for it. */
static void recorder_finish(struct watch_cmd *c)
{
	if (c->recorder <= 0)
		return;
	kill(c->recorder, SIGTERM);
	while (!recorder_ended(c))
		sleep_ms(10);
}

/* The recorder of `ltt record`, in a child: lttd_run() as it is. */
static int recorder_start(struct watch_cmd *c)
{
	fflush(NULL);
	c->recorder = fork();
	if (c->recorder < 0) {
		warnx_cmd(CMD, "fork: %s", strerror(errno));
		return -1;
	}
	if (!c->recorder)
		_exit(lttd_run(&c->cfg));
	return 0;
}

/* The recording's directory: -o DIR, or a temporary one. */
static int watch_record_dir(struct watch_cmd *c)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	struct stat st;

	if (c->cfg.rec.dir) {
		snprintf(path, sizeof(path), "%s/metadata", c->cfg.rec.dir);
		if (!stat(path, &st)) {
			warnx_cmd(CMD, "%s holds a trace already: remove it or choose another directory",
				  c->cfg.rec.dir);
			return -1;
		}
		c->dir = c->cfg.rec.dir;
		return 0;
	}
	snprintf(c->temp, sizeof(c->temp), "%s/ltt-watch-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(c->temp)) {
		warnx_cmd(CMD, "mkdtemp %s: %s", c->temp, strerror(errno));
		return -1;
	}
	c->temp_dir = true;
	c->dir = c->cfg.rec.dir = c->temp;
	return 0;
}

/* Remove the temporary trace: the files the recorder made, then the directory. */
static void watch_remove_temp(struct watch_cmd *c)
{
	struct dirent *de;
	DIR *d;

	if (!c->temp_dir || !(d = opendir(c->temp)))
		return;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(c->temp);
}

/*
 * Wait for the writer's metadata and follow the trace.  A metadata that
 * does not parse may be half written: it is read again for a while.
 */
static int watch_open_live(struct watch_cmd *c)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int bad = 0;
	char path[4096];

	snprintf(path, sizeof(path), "%s/metadata", c->dir);
	for (;;) {
		/*
		 * Asked before looking for the trace: a recorder whose
		 * command was quick may have ended, whole, in between.
		 */
		bool ended = c->recording && recorder_ended(c);

		if (got_stop)
			return -1;
		if (!access(path, F_OK)) {
			c->t = ltt_trace_follow(c->dir, cpus > 0 ? cpus : 1);
			if (c->t)
				return 0;
			if (++bad == 2000 / WATCH_POLL_MS) {
				warnx_cmd(CMD, "%s", ltt_error());
				return -1;
			}
		} else if (ended) {
			return -1;	/* no trace: it said why */
		}
		sleep_ms(WATCH_POLL_MS);
	}
}

/* Following: is the writer done?  Tells once when it cannot tell. */
static bool watch_writer_done(struct watch_cmd *c)
{
	int writing;

	if (c->recording)
		return recorder_ended(c);
	writing = ltt_trace_writing(c->t);
	if (writing < 0 && !c->no_lease) {
		c->no_lease = true;
		warnx_cmd(CMD, "%s: stop the watch with Ctrl-C", ltt_error());
	}
	return !writing;
}

/* Stop asked (a signal, the script): the writer, if ours, stops whole. */
static void watch_stop_writer(struct watch_cmd *c)
{
	if (c->recording)
		recorder_finish(c);
}

/*
 * Feed the script every item until the end of the trace, ltt.stop_trace()
 * or an error.  Ctrl-C ends a trace read as it is at once; a live one
 * ends whole: the recorder stops, what it wrote is read.  Returns -1 when
 * the script failed.
 */
static int watch_feed(struct watch_cmd *c)
{
	const struct ltt_item *it;
	bool ending = false;
	int ret;

	for (;;) {
		/* start_watch() may have stopped it already */
		if (watch_stopped(c->w) || (got_stop && !c->live))
			return 0;
		ret = ltt_trace_next(c->t, &it);
		if (ret == 1) {
			if (it->kind == LTT_ITEM_EVENT &&
			    !containers_selected(&c->cg, it->pid))
				continue;
			if (watch_item(c->w, it))
				return -1;
			continue;
		}
		if (ret == 0)
			return 0;
		/* LTT_TRACE_WAIT: the writer has not written more yet */
		if (got_stop && !ending) {
			watch_stop_writer(c);
			ending = true;
		}
		if (ending || watch_writer_done(c))
			ltt_trace_follow_end(c->t);
		else
			sleep_ms(WATCH_POLL_MS);
	}
}

/* Errors of the trace, losses the script did not see; true if any error. */
static bool watch_report(struct watch_cmd *c)
{
	uint64_t lost = watch_unseen_lost(c->w);

	if (lost)
		warnx_cmd(CMD, "%llu events were lost (a lost(cpu, count) callback sees where)",
			  (unsigned long long)lost);
	return print_trace_errors(CMD, c->t) > 0;
}

static int watch_run(struct watch_cmd *c)
{
	int status = 0;

	c->live = c->follow || c->recording;
	if (!c->live) {
		c->t = open_trace_or_die(CMD, c->dir);
	} else {
		/* a live watch prints as it goes */
		setvbuf(stdout, NULL, _IOLBF, 0);
		if ((c->recording && (watch_record_dir(c) || recorder_start(c))) ||
		    watch_open_live(c)) {
			recorder_finish(c);
			watch_remove_temp(c);
			return c->recorder_status ? c->recorder_status : 1;
		}
	}
	watch_bind(c->w, c->t);
	if (containers_init(&c->cg, c->t, &c->cga)) {
		warnx_cmd(CMD, "out of memory");
		return 1;
	}
	if (watch_start(c->w) || watch_feed(c)) {
		c->failed = true;
		warnx_cmd(CMD, "%s", watch_error(c->w));
	}
	/* the trace ends whole whatever happened to the script */
	watch_stop_writer(c);
	if (!c->failed && watch_end(c->w)) {
		c->failed = true;
		warnx_cmd(CMD, "%s", watch_error(c->w));
	}
	if (check_stdout(CMD))
		status = 1;
	if (watch_report(c))
		status = 1;
	if (!c->failed && containers_check(&c->cg, CMD))
		status = 2;
	containers_free(&c->cg);
	watch_remove_temp(c);
	if (c->failed)
		return 1;
	return c->recorder_status ? c->recorder_status : status;
}

int cmd_watch(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER("ltt watch",
		"[OPTIONS] SCRIPT [TRACE_DIR | -- CMD [ARGS]]",
		"Run the Lua script SCRIPT on every event: on the trace in TRACE_DIR,\n"
		"on the trace lttd is writing there (--follow), or on the system while\n"
		"CMD runs (no TRACE_DIR; without CMD until Ctrl-C).  The script defines\n"
		"functions named after events, called with a table of the event's time,\n"
		"cpu, pid, comm, name and fields; start_watch(), end_watch() and\n"
		"lost(cpu, count) if it likes; ltt.stop_trace() ends the watch.  A bare\n"
		"SCRIPT name is also looked up in " LTT_SCRIPT_DIR " ($LTT_SCRIPTS).\n"
		"ltt(1) describes what scripts see.",
		watch_opts);
	struct watch_cmd c = { .p = &p, .recorder = -1,
			       .cfg = { .prog = "ltt watch", .quiet = true } };
	char found[4096];
	const char *error;
	int status;

	watch_parse(&c, argc, argv);
	c.script = watch_find_script(c.script, found, sizeof(found));
	watch_signals();
	if (c.timeout)
		alarm(c.timeout);
	c.w = watch_load(c.script, c.args, c.n_args, &error);
	if (!c.w) {
		warnx_cmd(CMD, "%s", error);
		return 1;
	}
	status = watch_run(&c);
	watch_free(c.w);
	ltt_trace_close(c.t);
	return status;
}
