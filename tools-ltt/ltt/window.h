/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of a trace that ltt view and ltt export draw: --from, --to,
 * -e and --filter, read into a timeline.
 */
#ifndef LTT_WINDOW_H
#define LTT_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "filter.h"
#include "timeline.h"

struct opt_parser;

struct tl_window {
	const char *from_arg, *to_arg;	/* --from, --to, as given */
	uint64_t from, to;		/* trace clock, once read */
	const char *events, *expr;	/* -e, --filter */
	struct item_select sel;
	bool utc;			/* --utc: the bounds' clock time */
};

/*
 * Read the events of @t that @w keeps into @tl (made by this call) and
 * finish it.  Bad bounds or selections exit 2 with @p's usage; returns
 * -1 when memory ran out.
 */
int tl_read_window(struct timeline *tl, struct tl_window *w,
		   struct ltt_trace *t, const struct opt_parser *p);

#endif
