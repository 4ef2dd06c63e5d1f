// SPDX-License-Identifier: GPL-2.0
/*
 * The trace daemon's loop: a libltt recorder driven by signals, a clock
 * and, optionally, the command being traced.
 *
 * Signals stay blocked except inside epoll_pwait(), so that none is lost
 * between checking the flags and going to sleep.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../ltt/ltt.h"
#include "relayd.h"
#include "run.h"
#include "snapshots.h"

static volatile sig_atomic_t got_stop, got_snapshot, got_child;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		got_snapshot = 1;
	else if (sig == SIGCHLD)
		got_child = 1;
	else
		got_stop = 1;
}

static void __attribute__((format(printf, 2, 3)))
say(const struct lttd_config *cfg, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cfg->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Catch our signals, blocked; *unblocked gets the mask for waiting. */
static void setup_signals(sigset_t *old, sigset_t *unblocked)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1, SIGCHLD, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;
	unsigned int i;

	sigemptyset(&block);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaction(sigs[i], &sa, NULL);
		sigaddset(&block, sigs[i]);
	}
	sigprocmask(SIG_BLOCK, &block, old);
	*unblocked = *old;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigdelset(unblocked, sigs[i]);
}

/*
 * Fork the command; it waits on a pipe until the session records, so
 * that its first instructions are traced.  Returns the pid, or -1.
 */
static pid_t start_command(const struct lttd_config *cfg, const sigset_t *old,
			   int *go_fd)
{
	int pipefd[2];
	pid_t pid;
	char c;

	if (pipe2(pipefd, O_CLOEXEC)) {
		say(cfg, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		say(cfg, "fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		close(pipefd[1]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGUSR1, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		sigprocmask(SIG_SETMASK, old, NULL);
		if (read(pipefd[0], &c, 1) != 1)
			_exit(126);	/* the recorder failed: do not run */
		execvp(cfg->cmd[0], cfg->cmd);
		fprintf(stderr, "%s: %s: %s\n", cfg->prog, cfg->cmd[0],
			strerror(errno));
		_exit(127);
	}
	close(pipefd[0]);
	*go_fd = pipefd[1];
	return pid;
}

void lttd_format_bytes(char *buf, size_t len, uint64_t b)
{
	if (b < 1024 * 1024)
		snprintf(buf, len, "%.1f KiB", b / 1024.0);
	else if (b < 1024ULL * 1024 * 1024)
		snprintf(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else
		snprintf(buf, len, "%.2f GiB", b / (1024.0 * 1024 * 1024));
}

static void print_progress(struct ltt_recorder *rec, uint64_t *last_events,
			   uint64_t elapsed_ns)
{
	struct ltt_record_stats st;
	char bytes[32];

	ltt_recorder_stats(rec, &st);
	lttd_format_bytes(bytes, sizeof(bytes), st.bytes);
	if (ltt_recorder_overwrite(rec))
		fprintf(stderr, "\r%llu s: flight recorder, %s written in snapshots (SIGUSR1: snapshot)   ",
			(unsigned long long)(elapsed_ns / 1000000000), bytes);
	else
		fprintf(stderr, "\r%llu s: %llu events/s, %s written, %llu lost   ",
			(unsigned long long)(elapsed_ns / 1000000000),
			(unsigned long long)(st.events - *last_events), bytes,
			(unsigned long long)st.lost);
	*last_events = st.events;
}

/* A flight recorder's: its snapshots, what they hold and left out. */
static void print_snapshot_totals(const struct lttd_config *cfg,
				  const struct ltt_record_stats *st,
				  const struct snapshots *sn)
{
	unsigned int taken, kept;
	uint64_t stale, unfinished;
	char bytes[32];

	snapshots_totals(sn, &taken, &kept, &stale, &unfinished);
	lttd_format_bytes(bytes, sizeof(bytes), st->bytes);
	fprintf(stderr, "%s: %s: %u snapshots (%u kept), %llu events in %llu packets, %s; %llu packets overwritten while copied",
		cfg->prog, cfg->rec.dir ? cfg->rec.dir : "sent", taken, kept,
		(unsigned long long)st->events,
		(unsigned long long)st->packets, bytes,
		(unsigned long long)stale);
	if (unfinished)
		fprintf(stderr, ", %llu left unfinished", (unsigned long long)unfinished);
	fputc('\n', stderr);
}

static void print_totals(const struct lttd_config *cfg,
			 struct ltt_recorder *rec, const struct snapshots *sn)
{
	const struct ltt_cpu_status *cpus;
	struct ltt_record_stats st;
	struct ltt_status s;
	unsigned int i;
	char bytes[32];

	ltt_recorder_stats(rec, &st);
	lttd_format_bytes(bytes, sizeof(bytes), st.bytes);
	if (sn)
		print_snapshot_totals(cfg, &st, sn);
	else
		fprintf(stderr, "%s: %s: %llu events in %llu packets, %s, %llu lost\n",
			cfg->prog, cfg->rec.dir ? cfg->rec.dir : "discarded",
			(unsigned long long)st.events,
			(unsigned long long)st.packets, bytes,
			(unsigned long long)st.lost);
	if (ltt_recorder_status(rec, &s, &cpus)) {
		say(cfg, "%s", ltt_error());
		return;
	}
	for (i = 0; i < s.n_cpus; i++)
		fprintf(stderr, "  cpu %u: produced %llu, delivered %llu, lost %llu\n",
			cpus[i].cpu, (unsigned long long)cpus[i].produced,
			(unsigned long long)cpus[i].delivered,
			(unsigned long long)cpus[i].lost);
}

static int sink_metadata(void *ctx, const char *text, size_t len)
{
	return relayd_metadata(ctx, text, len);
}

static int sink_packet(void *ctx, unsigned int cpu, const void *pkt,
		       size_t size)
{
	return relayd_packet(ctx, cpu, pkt, size);
}

/*
 * The time before which no record can still be in a buffer: the kernel
 * hands partial sub-buffers over every flush period, so twice that ago.
 */
static uint64_t beacon_time(const struct lttd_config *cfg)
{
	uint32_t flush = cfg->rec.session.flush_ms ? cfg->rec.session.flush_ms :
						     LTT_FLUSH_MS_DEFAULT;

	return now_ns() - 2ULL * flush * 1000000;
}

/* Has the command ended?  Sets *status to its exit status. */
static bool command_ended(pid_t child, int *status)
{
	int ws;

	if (child <= 0 || waitpid(child, &ws, WNOHANG) != child)
		return false;
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return true;
}

/* The shortest time between two snapshots of triggers: a flush period. */
static uint64_t trigger_interval(const struct lttd_config *cfg)
{
	uint32_t flush = cfg->rec.session.flush_ms ? cfg->rec.session.flush_ms :
						     LTT_FLUSH_MS_DEFAULT;

	return flush * 1000000ULL;
}

/*
 * The snapshot of the triggers seen since the last: its reason "event
 * NAME" names the first, "event NAME, +N coalesced" counts the others.
 * Those recorded before it began, found later, are in it: not counted.
 */
static void take_trigger_snapshot(const struct lttd_config *cfg,
				  struct trigger *trig, struct snapshots *sn,
				  struct ltt_recorder *rec, bool *failed)
{
	const char *name;
	unsigned int n = trigger_pending(trig, &name);
	char why[LTT_NAME_MAX + 64];
	uint64_t lost = trigger_lost(trig), began = now_ns();
	static uint64_t said_lost;

	if (!n)
		return;
	if (n > 1)
		snprintf(why, sizeof(why), "event %s, +%u coalesced", name, n - 1);
	else
		snprintf(why, sizeof(why), "event %s", name);
	trigger_take(trig, began);
	if (lost > said_lost) {
		say(cfg, "--snapshot-on: the watching session lost %llu events (its buffer was full): triggers may have been missed",
		    (unsigned long long)lost);
		said_lost = lost;
	}
	if (snapshots_take(sn, rec, why, 0))
		*failed = true;
}

/* The loop proper; returns 0 or -1. */
static int run_loop(struct lttd_config *cfg, struct ltt_recorder *rec,
		    struct snapshots *sn, struct relayd *relay,
		    struct trigger *trig,
		    const sigset_t *unblocked, pid_t child, int *cmd_status,
		    bool *snapshot_failed)
{
	uint64_t start = now_ns(), next_progress = start + 1000000000ULL;
	uint64_t next_beacon = start, next_trigger = start;
	uint64_t last_events = 0;
	bool progress = !cfg->quiet && isatty(STDERR_FILENO), shown = false;

	for (;;) {
		uint64_t now = now_ns();

		if (got_stop)
			break;
		if (got_child && command_ended(child, cmd_status))
			break;
		got_child = 0;
		if (cfg->seconds && now - start >= cfg->seconds * 1000000000ULL)
			break;
		if (got_snapshot) {
			got_snapshot = 0;
			if (!ltt_recorder_overwrite(rec)) {
				say(cfg, "SIGUSR1: snapshots are for --overwrite sessions; ignored");
			} else if (sn) {
				uint64_t began = now_ns();

				if (shown)
					fputc('\n', stderr);
				if (snapshots_take(sn, rec, "SIGUSR1", 0))
					*snapshot_failed = true;
				/* it holds the triggers recorded before it */
				if (trig)
					trigger_take(trig, began);
			} else if (ltt_recorder_snapshot(rec)) {
				/* the boot session's: into DIR's trace */
				return -1;
			}
		}
		if (trig && trigger_pending(trig, NULL) && now >= next_trigger) {
			if (shown)
				fputc('\n', stderr);
			next_trigger = now + trigger_interval(cfg);
			take_trigger_snapshot(cfg, trig, sn, rec, snapshot_failed);
		}
		if (progress && now >= next_progress) {
			print_progress(rec, &last_events, now - start);
			next_progress += 1000000000ULL;
			shown = true;
		}
		if (trig) {
			/*
			 * The flight recorder's buffers hand nothing over
			 * while it records: wait on the watcher's, then
			 * give the recorder its turn without waiting.
			 */
			int wait = 200;

			if (trigger_pending(trig, NULL))
				wait = next_trigger > now ?
				       (int)((next_trigger - now) / 1000000) + 1 : 0;
			if (trigger_pump(trig, wait, unblocked) ||
			    ltt_recorder_pump(rec, 0, NULL))
				return -1;
		} else if (ltt_recorder_pump(rec, 200, unblocked)) {
			return -1;
		}
		/* beacons for idle CPUs, reconnection: 5 times a second */
		if (relay && now_ns() >= next_beacon) {
			relayd_idle(relay, beacon_time(cfg));
			next_beacon = now_ns() + 200000000ULL;
		}
	}
	if (shown)
		fputc('\n', stderr);
	return 0;
}

/* The kernel's rules for the geometry, said before it says EINVAL. */
static int check_geometry(const struct lttd_config *cfg)
{
	const struct ltt_session_opts *o = &cfg->rec.session;
	uint32_t s = o->subbuf_size, n = o->n_subbufs;

	if (cfg->boot && (s || n || o->overwrite || o->flush_ms)) {
		say(cfg, "--boot takes the boot session as ltt.boot= made it: no --subbuf-size, --subbufs, --overwrite or --flush-ms with it");
		return -1;
	}

	if (s && (s & (s - 1) || s < LTT_SUBBUF_MIN || s > LTT_SUBBUF_MAX)) {
		say(cfg, "sub-buffer size %u: must be a power of two from %u to %u",
		    s, LTT_SUBBUF_MIN, LTT_SUBBUF_MAX);
		return -1;
	}
	if (n && (n & (n - 1) || n < 2 || n > LTT_SUBBUFS_MAX)) {
		say(cfg, "%u sub-buffers: must be a power of two from 2 to %u",
		    n, LTT_SUBBUFS_MAX);
		return -1;
	}
	if ((uint64_t)(s ? s : LTT_SUBBUF_DEFAULT) *
	    (n ? n : LTT_SUBBUFS_DEFAULT) > LTT_BUFFER_MAX) {
		say(cfg, "buffers of %llu MiB per CPU: at most %llu MiB",
		    (unsigned long long)(s ? s : LTT_SUBBUF_DEFAULT) *
		    (n ? n : LTT_SUBBUFS_DEFAULT) >> 20, LTT_BUFFER_MAX >> 20);
		return -1;
	}
	return 0;
}

/* The snapshot options need a flight recorder. */
static int check_snapshot_opts(const struct lttd_config *cfg)
{
	const char *opt = cfg->max_snapshots ? "--max-snapshots" :
			  cfg->max_snapshots_size ? "--max-snapshots-size" :
			  cfg->n_triggers ? "--snapshot-on" :
			  cfg->no_exit_snapshot ? "--no-snapshot-on-exit" : NULL;

	if (opt && !cfg->rec.session.overwrite) {
		say(cfg, "%s is for the flight recorder's snapshots: give %s too",
		    opt, strcmp(cfg->prog, "lttd") ? "--flight-recorder" :
						     "--overwrite");
		return -1;
	}
	if ((cfg->max_snapshots || cfg->max_snapshots_size) && !cfg->rec.dir) {
		say(cfg, "%s: the snapshots are only sent, none is kept: give -o DIR",
		    opt);
		return -1;
	}
	return 0;
}

/*
 * A flight recorder (not the boot session's, whose trace is DIR) keeps
 * its snapshots in DIR/snapshot-N; the recorder itself writes no trace.
 */
static struct snapshots *open_snapshots(const struct lttd_config *cfg,
					struct ltt_record_opts *ro)
{
	struct snapshots_opts so = {
		.prog = cfg->prog, .dir = cfg->rec.dir,
		.max_count = cfg->max_snapshots,
		.max_bytes = cfg->max_snapshots_size,
		.quiet = cfg->quiet,
	};

	ro->dir = NULL;
	return snapshots_open(&so);
}

/* A run that ends before it records: undo what lttd_run() set up. */
static int run_abort(struct trigger *trig, struct relayd *relay,
		     struct ltt_recorder *rec, struct snapshots *sn,
		     const sigset_t *old)
{
	trigger_close(trig);
	if (relay)
		relayd_close(relay, 0, NULL);
	ltt_recorder_destroy(rec);
	snapshots_close(sn);
	sigprocmask(SIG_SETMASK, old, NULL);
	return 1;
}

int lttd_run(struct lttd_config *cfg)
{
	struct ltt_record_opts ro = cfg->rec;
	struct ltt_recorder *rec;
	struct relayd *relay = NULL;
	struct snapshots *sn = NULL;
	struct trigger *trig = NULL;
	sigset_t old, unblocked;
	int go_fd = -1, cmd_status = 0, ret = 0;
	bool snapshot_failed = false;
	pid_t child = -1;

	if (check_geometry(cfg) || check_snapshot_opts(cfg))
		return 2;
	if (cfg->n_triggers) {
		const char *k = trigger_kernel_event(cfg->triggers, cfg->n_triggers);

		if (k) {
			say(cfg, "--snapshot-on %s: one of the kernel's events; only custom events (ltt log -e NAME, a program's own types) are triggers",
			    k);
			return 2;
		}
	}
	if (cfg->rec.session.overwrite) {
		sn = open_snapshots(cfg, &ro);
		if (!sn)
			return 1;
	}
	setup_signals(&old, &unblocked);
	ro.pids = cfg->pids;
	rec = cfg->boot ? ltt_recorder_create_boot(&ro) :
			  ltt_recorder_create(&ro);
	if (!rec) {
		say(cfg, "%s", ltt_error());
		snapshots_close(sn);
		return 1;
	}
	if (cfg->n_cgroups &&
	    ltt_recorder_set_cgroups(rec, cfg->cgroup_fds, cfg->n_cgroups)) {
		say(cfg, "--cgroup: %s", ltt_error());
		return run_abort(NULL, NULL, rec, sn, &old);
	}
	if (cfg->relayd) {
		struct relayd_opts ro = {
			.prog = cfg->prog, .url = cfg->relayd,
			.session = cfg->session, .hostname = cfg->hostname,
			.quiet = cfg->quiet,
		};
		struct ltt_recorder_sink sink = {
			.metadata = sink_metadata, .packet = sink_packet,
		};

		relay = relayd_open(&ro);
		sink.ctx = relay;
		if (!relay || ltt_recorder_set_sink(rec, &sink)) {
			if (relay)
				say(cfg, "%s", ltt_error());
			return run_abort(NULL, relay, rec, sn, &old);
		}
	}
	/* the watcher: a session of its own, started before the recorder */
	if (cfg->n_triggers) {
		trig = trigger_open(cfg->prog, cfg->triggers, cfg->n_triggers,
				    cfg->pids, cfg->rec.n_pids,
				    cfg->cgroup_fds, cfg->n_cgroups);
		if (!trig || trigger_start(trig))
			return run_abort(trig, relay, rec, sn, &old);
	}
	if (cfg->cmd) {
		child = start_command(cfg, &old, &go_fd);
		if (child < 0)
			return run_abort(trig, relay, rec, sn, &old);
	}
	if (ltt_recorder_start(rec)) {
		/* nothing was recorded: no STOP, no totals, no trace left */
		say(cfg, "%s", ltt_error());
		if (go_fd >= 0)
			close(go_fd);	/* the command exits unrun */
		if (child > 0)
			waitpid(child, NULL, 0);
		return run_abort(trig, relay, rec, sn, &old);
	}
	if (go_fd >= 0 && write(go_fd, "g", 1) != 1)
		say(cfg, "cannot start the command: %s", strerror(errno));
	if (run_loop(cfg, rec, sn, relay, trig, &unblocked, child, &cmd_status,
		     &snapshot_failed)) {
		say(cfg, "%s", ltt_error());
		ret = 1;
	}
	if (go_fd >= 0)
		close(go_fd);
	/* the triggers of the last moments: their snapshot before exit's */
	if (trig) {
		if (trigger_finish(trig))
			ret = 1;
		take_trigger_snapshot(cfg, trig, sn, rec, &snapshot_failed);
	}
	/* the ring as the recording ended: stopped, nothing overwrites it */
	if (sn && !cfg->no_exit_snapshot &&
	    snapshots_take(sn, rec, "exit", LTT_SNAPSHOT_FINAL))
		snapshot_failed = true;
	if (snapshot_failed)
		ret = 1;
	if (ltt_recorder_stop(rec)) {
		say(cfg, "%s", ltt_error());
		ret = 1;
	}
	if (!cfg->quiet)
		print_totals(cfg, rec, sn);
	/* what did not reach relayd is said, even with -q; not a failure */
	if (relay)
		relayd_close(relay, now_ns(), NULL);
	trigger_close(trig);
	ltt_recorder_destroy(rec);
	snapshots_close(sn);
	if (child > 0 && !cmd_status) {
		int ws;

		/* Stopped by a signal or the clock: the command still runs. */
		if (waitpid(child, &ws, WNOHANG) == child)
			cmd_status = WIFEXITED(ws) ? WEXITSTATUS(ws) :
						     128 + WTERMSIG(ws);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!ret && cmd_status)
		say(cfg, "%s exited with status %d", cfg->cmd[0], cmd_status);
	return ret ? ret : cmd_status;
}

/* --snapshot-on NAME[,NAME...], into cfg->triggers (repeated: added). */
static void add_triggers(struct lttd_config *cfg, struct opt_parser *p,
			 const char *list)
{
	const char *s = list, *comma;
	char name[LTT_NAME_MAX];
	unsigned int i;
	size_t len;

	do {
		comma = strchr(s, ',');
		len = comma ? (size_t)(comma - s) : strlen(s);
		if (!len)
			opt_usage_error(p, "--snapshot-on \"%s\": an empty event name", list);
		if (len >= LTT_NAME_MAX)
			opt_usage_error(p, "--snapshot-on: \"%.*s\": event names are shorter than %u characters",
					(int)len, s, LTT_NAME_MAX);
		memcpy(name, s, len);
		name[len] = '\0';
		if (!trigger_name_ok(name))
			opt_usage_error(p, "--snapshot-on: \"%s\" is not an event name (letters, digits and '_', not starting with a digit)",
					name);
		for (i = 0; i < cfg->n_triggers; i++)
			if (!strcmp(cfg->triggers[i], name))
				break;
		if (i == cfg->n_triggers) {
			if (cfg->n_triggers == LTTD_TRIGGERS_MAX)
				opt_usage_error(p, "--snapshot-on: at most %u event names",
						LTTD_TRIGGERS_MAX);
			memcpy(cfg->triggers[cfg->n_triggers++], name, len + 1);
		}
		s = comma ? comma + 1 : NULL;
	} while (s);
}

/* --cgroup PATH: held open until the session has it. */
static void add_cgroup(struct lttd_config *cfg, struct opt_parser *p,
		       const char *path)
{
	int fd;

	if (cfg->n_cgroups == LTT_CGROUPS_MAX)
		opt_usage_error(p, "--cgroup: at most %u cgroups", LTT_CGROUPS_MAX);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		opt_usage_error(p, "--cgroup %s: %s", path, strerror(errno));
	cfg->cgroup_fds[cfg->n_cgroups++] = fd;
}

bool lttd_option(struct lttd_config *cfg, struct opt_parser *p, int c)
{
	switch (c) {
	case 'o':
		cfg->rec.dir = p->arg;
		break;
	case 'e':
		cfg->rec.events = p->arg;
		break;
	case 'p':
		cfg->rec.n_pids = opt_pids(p, p->arg, cfg->pids, LTT_PIDS_MAX);
		break;
	case LTTD_OPT_CGROUP:
		add_cgroup(cfg, p, p->arg);
		break;
	case 's':
		cfg->rec.session.subbuf_size = opt_size(p, "--subbuf-size", p->arg);
		break;
	case 'n':
		cfg->rec.session.n_subbufs = opt_u64(p, "--subbufs", p->arg);
		break;
	case 't':
		cfg->seconds = opt_u64(p, "--time", p->arg);
		break;
	case 'q':
		cfg->quiet = true;
		break;
	case LTTD_OPT_OVERWRITE:
		cfg->rec.session.overwrite = true;
		break;
	case LTTD_OPT_FLUSH:
		cfg->rec.session.flush_ms = opt_u64(p, "--flush-ms", p->arg);
		break;
	case LTTD_OPT_RELAYD:
		cfg->relayd = p->arg;
		break;
	case LTTD_OPT_SESSION:
		cfg->session = p->arg;
		break;
	case LTTD_OPT_HOSTNAME:
		cfg->hostname = p->arg;
		break;
	case LTTD_OPT_BOOT:
		cfg->boot = true;
		break;
	case LTTD_OPT_EXIT_SNAPSHOT:
		cfg->no_exit_snapshot = false;
		break;
	case LTTD_OPT_NO_EXIT_SNAPSHOT:
		cfg->no_exit_snapshot = true;
		break;
	case LTTD_OPT_MAX_SNAPSHOTS:
		cfg->max_snapshots = opt_u64(p, "--max-snapshots", p->arg);
		if (!cfg->max_snapshots)
			opt_usage_error(p, "--max-snapshots 0: keep at least one (or leave the option out: keep all)");
		break;
	case LTTD_OPT_MAX_SNAPSHOTS_SIZE:
		cfg->max_snapshots_size = opt_size(p, "--max-snapshots-size", p->arg);
		break;
	case LTTD_OPT_SNAPSHOT_ON:
		add_triggers(cfg, p, p->arg);
		break;
	case LTTD_OPT_PREVIOUS:
		cfg->previous = true;
		break;
	case LTTD_OPT_PREVIOUS_FILE:
		cfg->previous_file = p->arg;
		break;
	case LTTD_OPT_BY_BOOT_ID:
		cfg->by_boot_id = true;
		break;
	case LTTD_OPT_FREE:
		cfg->free_previous = true;
		break;
	default:
		return false;
	}
	return true;
}
