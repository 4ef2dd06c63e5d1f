/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace daemon's main loop, shared by lttd and `ltt record`.
 */
#ifndef LTT_LTTD_RUN_H
#define LTT_LTTD_RUN_H

#include <stdbool.h>

#include <ltt/ltt.h>

#include "trigger.h"

struct lttd_config {
	const char *prog;		/* for messages: "lttd", "ltt record" */
	struct ltt_record_opts rec;
	pid_t pids[LTT_PIDS_MAX];
	/* --cgroup PATH: open cgroup v2 directories */
	int cgroup_fds[LTT_CGROUPS_MAX];
	unsigned int n_cgroups;
	unsigned int seconds;		/* 0: no time limit */
	char **cmd;			/* run this, traced; NULL: none */
	bool quiet;			/* no progress line, no totals */
	bool boot;			/* --boot: the boot session, not a new one */
	/* --overwrite -o DIR: snapshots into DIR/snapshot-N */
	bool no_exit_snapshot;		/* --no-snapshot-on-exit */
	unsigned int max_snapshots;	/* --max-snapshots; 0: keep all */
	uint64_t max_snapshots_size;	/* --max-snapshots-size; 0: no limit */
	/* --snapshot-on NAME[,NAME...]: a snapshot when one is recorded */
	char triggers[LTTD_TRIGGERS_MAX][LTT_NAME_MAX];
	unsigned int n_triggers;
	/* --relayd HOST[:PORT]: stream to lttng-relayd too (lttd/relayd.h) */
	const char *relayd, *session, *hostname;
	/* --previous-boot, --previous-boot-file: no recording (lttd/previous.h) */
	bool previous;
	const char *previous_file;
	bool by_boot_id;		/* --by-boot-id: into DIR/BOOT-ID */
	bool free_previous;		/* --free */
};

struct opt_parser;

/* Long-only options of lttd and `ltt record`. */
enum {
	LTTD_OPT_OVERWRITE = 256,	/* lttd --overwrite, ltt record --flight-recorder */
	LTTD_OPT_FLUSH,			/* --flush-ms */
	LTTD_OPT_RELAYD,		/* --relayd HOST[:PORT] */
	LTTD_OPT_SESSION,		/* --session NAME */
	LTTD_OPT_HOSTNAME,		/* --hostname NAME */
	LTTD_OPT_BOOT,			/* --boot */
	LTTD_OPT_EXIT_SNAPSHOT,		/* --snapshot-on-exit */
	LTTD_OPT_NO_EXIT_SNAPSHOT,	/* --no-snapshot-on-exit */
	LTTD_OPT_MAX_SNAPSHOTS,		/* --max-snapshots N */
	LTTD_OPT_MAX_SNAPSHOTS_SIZE,	/* --max-snapshots-size SIZE */
	LTTD_OPT_SNAPSHOT_ON,		/* --snapshot-on NAME[,NAME...] */
	LTTD_OPT_CGROUP,		/* --cgroup PATH */
	LTTD_OPT_PREVIOUS,		/* --previous-boot */
	LTTD_OPT_PREVIOUS_FILE,		/* --previous-boot-file IMAGE */
	LTTD_OPT_BY_BOOT_ID,		/* --by-boot-id */
	LTTD_OPT_FREE,			/* --free */
};

/* The table entries of the previous boot's trace (lttd/previous.c). */
#define LTTD_PREVIOUS_OPTS						\
	{ LTTD_OPT_PREVIOUS, "previous-boot", NULL,			\
	  "no recording: write the previous boot's trace (ltt.boot=...,persist=) into DIR, print what it holds" }, \
	{ LTTD_OPT_PREVIOUS_FILE, "previous-boot-file", "IMAGE",	\
	  "the same from IMAGE, a copy of what LTT_CMD_PREVIOUS_BOOT gives" }, \
	{ LTTD_OPT_BY_BOOT_ID, "by-boot-id", NULL,			\
	  "with --previous-boot: into DIR/BOOT-ID, the previous boot's id" }, \
	{ LTTD_OPT_FREE, "free", NULL,					\
	  "then free the kernel's copy of the previous boot's trace (alone: only free it)" }

/* The table entry of --cgroup. */
#define LTTD_CGROUP_OPT							\
	{ LTTD_OPT_CGROUP, "cgroup", "PATH",				\
	  "record only the tasks in the cgroup (v2) directory PATH and below it, as they move in and out (repeatable)" }

/* The table entries of the flight recorder's snapshot options. */
#define LTTD_SNAPSHOT_OPTS						\
	{ LTTD_OPT_EXIT_SNAPSHOT, "snapshot-on-exit", NULL,		\
	  "with --overwrite: a last snapshot when recording ends (default)" }, \
	{ LTTD_OPT_NO_EXIT_SNAPSHOT, "no-snapshot-on-exit", NULL,	\
	  "with --overwrite: none at the end, only on SIGUSR1" },	\
	{ LTTD_OPT_MAX_SNAPSHOTS, "max-snapshots", "N",			\
	  "keep the newest N snapshots, remove older ones" },		\
	{ LTTD_OPT_MAX_SNAPSHOTS_SIZE, "max-snapshots-size", "SIZE",	\
	  "remove the oldest snapshots while they take more than SIZE" }, \
	{ LTTD_OPT_SNAPSHOT_ON, "snapshot-on", "NAME[,NAME]",		\
	  "a snapshot when a custom event NAME is recorded (ltt log -e NAME), at most one per flush period" }

/* The table entry of --boot. */
#define LTTD_BOOT_OPT							\
	{ LTTD_OPT_BOOT, "boot", NULL,					\
	  "take over the boot session (ltt.boot=), recording since boot" }

/* The options' table entries of --relayd, --session, --hostname. */
#define LTTD_RELAYD_OPTS						\
	{ LTTD_OPT_RELAYD, "relayd", "HOST[:PORT]",			\
	  "stream to lttng-relayd (control port 5342, data PORT+1) too" }, \
	{ LTTD_OPT_SESSION, "session", "NAME",				\
	  "with --relayd: the session name viewers list (default ltt)" }, \
	{ LTTD_OPT_HOSTNAME, "hostname", "NAME",			\
	  "with --relayd: the host name viewers list (default: this one's)" }

/*
 * Apply option @c (its argument in @p) that lttd and `ltt record` share
 * to @cfg: -o -e -p -s -n -t -q, LTTD_OPT_CGROUP, LTTD_OPT_OVERWRITE, LTTD_OPT_FLUSH,
 * LTTD_OPT_RELAYD, LTTD_OPT_SESSION, LTTD_OPT_HOSTNAME, LTTD_OPT_BOOT and
 * the snapshot options.
 * Returns false for an option it does not know.
 */
bool lttd_option(struct lttd_config *cfg, struct opt_parser *p, int c);

/*
 * Record until SIGINT/SIGTERM, the time limit or the end of the command;
 * SIGUSR1 writes a flight-recorder snapshot, into DIR/snapshot-N while
 * the session records (and a last one at the end).  Returns the exit
 * status: 0, 1 on failure (a snapshot that failed included), 2 on a
 * usage error, or the command's status when it failed.
 */
int lttd_run(struct lttd_config *cfg);

/* "1.5 MiB", for messages */
void lttd_format_bytes(char *buf, size_t len, uint64_t bytes);

#endif /* LTT_LTTD_RUN_H */
