/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flight recorder's snapshots on disk: DIR/snapshot-1, snapshot-2, ...
 * each a whole CTF trace, the oldest removed past the limits.
 */
#ifndef LTT_LTTD_SNAPSHOTS_H
#define LTT_LTTD_SNAPSHOTS_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt.h>

struct snapshots;

struct snapshots_opts {
	const char *prog;		/* for messages */
	const char *dir;		/* DIR; NULL: snapshots go to the sink only */
	unsigned int max_count;		/* 0: no limit */
	uint64_t max_bytes;		/* 0: no limit */
	bool quiet;			/* no line per snapshot */
};

/*
 * Make DIR (and its parents) unless it exists; refuse one that holds a
 * trace or snapshots already; write DIR/lttd.pid.  NULL on failure, said
 * on stderr.
 */
struct snapshots *snapshots_open(const struct snapshots_opts *opts);

/*
 * Take snapshot N+1 of @rec into DIR/.snapshot-N+1.partial, renamed
 * DIR/snapshot-N+1 once written (also when it failed part way: what was
 * written is kept), say it on stderr, and remove the oldest past the
 * limits.  @why: "SIGUSR1", "exit".  @flags as ltt_recorder_snapshot_to().
 * Returns 0, or -1 (said on stderr; the recorder records on).
 */
int snapshots_take(struct snapshots *sn, struct ltt_recorder *rec,
		   const char *why, unsigned int flags);

/* The count taken, and the totals of what they had to leave out. */
void snapshots_totals(const struct snapshots *sn, unsigned int *taken,
		      unsigned int *kept, uint64_t *stale,
		      uint64_t *unfinished);

/* Remove DIR/lttd.pid and free @sn. */
void snapshots_close(struct snapshots *sn);

#endif /* LTT_LTTD_SNAPSHOTS_H */
