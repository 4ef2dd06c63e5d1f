/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flight recorder's triggers (lttd --snapshot-on NAME[,NAME...]): a
 * second, small session in discard mode that records every custom event
 * type (those of today and those made later), read live, whose records
 * are matched by name against the triggers.  The flight recorder's own
 * buffers are read only at snapshot time: this is lttd's live view.
 */
#ifndef LTT_LTTD_TRIGGER_H
#define LTT_LTTD_TRIGGER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <ltt/ltt.h>

#define LTTD_TRIGGERS_MAX	16

/* The watcher's geometry: 16 packets of 4 KiB per CPU, handed over every 50 ms */
#define TRIGGER_SUBBUF_SIZE	LTT_SUBBUF_MIN
#define TRIGGER_SUBBUFS		16
#define TRIGGER_FLUSH_MS	50

struct trigger;

/*
 * Is @name a valid event name (letters, digits, '_', not starting with a
 * digit, shorter than LTT_NAME_MAX)?
 */
bool trigger_name_ok(const char *name);

/*
 * The first of @names that is one of the kernel's own events (which are
 * no triggers: only custom events are), or NULL.
 */
const char *trigger_kernel_event(const char (*names)[LTT_NAME_MAX],
				 unsigned int n);

/*
 * The watcher session for @names (@n of them), with the pid filter
 * @pids (@n_pids; 0: none) and the cgroup filter @cgroup_fds
 * (@n_cgroups; 0: none) of the flight recorder.  NULL on failure, said
 * with ltt_fail() (ltt_error()).
 */
struct trigger *trigger_open(const char *prog,
			     const char (*names)[LTT_NAME_MAX], unsigned int n,
			     const pid_t *pids, unsigned int n_pids,
			     const int *cgroup_fds, unsigned int n_cgroups);

int trigger_start(struct trigger *t);

/*
 * Wait up to @timeout_ms (with @sigmask, as epoll_pwait) for packets of
 * the watcher, and scan those that came.  Returns 0 (EINTR included),
 * or -1.
 */
int trigger_pump(struct trigger *t, int timeout_ms, const sigset_t *sigmask);

/*
 * STOP the watcher and scan all it still holds (the end of the
 * recording: triggers of its last moments count too).
 */
int trigger_finish(struct trigger *t);

/*
 * Triggers seen since the last trigger_take(): their count; *name gets
 * the first one's name.
 */
unsigned int trigger_pending(const struct trigger *t, const char **name);

/*
 * Forget the pending triggers: a snapshot is taken for them, that began
 * at @now (CLOCK_MONOTONIC, the trace clock, read before its
 * LTT_BUF_SNAPSHOT): the triggers recorded before @now are in it, and
 * those the watcher finds later are not counted again.
 */
void trigger_take(struct trigger *t, uint64_t now);

/* Events the watcher lost (its buffer full): triggers may be missed. */
uint64_t trigger_lost(const struct trigger *t);

void trigger_close(struct trigger *t);

#endif /* LTT_LTTD_TRIGGER_H */
