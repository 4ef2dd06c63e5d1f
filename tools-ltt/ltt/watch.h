/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Lua side of `ltt watch`: a script, its callbacks per event id, and
 * the `ltt` library it sees.  Apart from the command (watch.c) so that
 * the tests drive it item by item.
 */
#ifndef LTT_WATCH_H
#define LTT_WATCH_H

#include <signal.h>
#include <stdbool.h>

#include <ltt/ltt.h>

struct watch;

/*
 * Load @script and run its main chunk, with @args as its `arg` table
 * (arg[0] is the script) and as `...`.  NULL on failure; *@error then
 * holds "SCRIPT:LINE: message" (static storage).
 */
struct watch *watch_load(const char *script, char *const *args,
			 unsigned int n_args, const char **error);
/* The trace the items come from (names for ltt.comm(), ltt.file()). */
void watch_bind(struct watch *w, struct ltt_trace *t);
/*
 * Call start_watch(), one item's callback (nothing when the script has
 * none for its event), end_watch().  0, or -1 with watch_error() set:
 * the script failed and the watch must end.
 */
int watch_start(struct watch *w);
int watch_item(struct watch *w, const struct ltt_item *it);
int watch_end(struct watch *w);
/*
 * Signals reach the script: once *@stop is set (SIGINT, SIGTERM, SIGHUP,
 * --timeout), Lua code still running @grace_ms later (a runaway loop, in
 * a callback or the main chunk) fails with "interrupted".  A count hook
 * looks every 10,000 instructions.
 */
void watch_interruptible(volatile sig_atomic_t *stop, unsigned int grace_ms);
/* The script called ltt.stop_trace(). */
bool watch_stopped(const struct watch *w);
const char *watch_error(const struct watch *w);
/* Events reported lost to a script with no lost() callback. */
uint64_t watch_unseen_lost(const struct watch *w);
void watch_free(struct watch *w);

#endif /* LTT_WATCH_H */
