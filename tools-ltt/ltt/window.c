// SPDX-License-Identifier: GPL-2.0
/*
 * The window of a trace that ltt view and ltt export draw.
 */
#include "ltt.h"
#include "window.h"

int tl_read_window(struct timeline *tl, struct tl_window *w,
		   struct ltt_trace *t, const struct opt_parser *p)
{
	const struct ltt_item *it;
	bool started = false;
	char err[300];

	if (item_select_init(&w->sel, ltt_trace_registry(t), w->events,
			     w->expr, err, sizeof(err)))
		opt_usage_error(p, "%s", err);
	if (tl_init(tl, t))
		return -1;
	w->to = UINT64_MAX;
	while (ltt_trace_next(t, &it) > 0) {
		if (!started) {
			int64_t offset = ltt_trace_clock_offset(t);

			started = true;
			if (w->from_arg && parse_time_bound(w->from_arg, it->ts,
							    offset, w->utc,
							    &w->from))
				opt_usage_error(p, "--from %s: not seconds or HH:MM:SS[.ns]",
						w->from_arg);
			if (w->to_arg && parse_time_bound(w->to_arg, it->ts,
							  offset, w->utc,
							  &w->to))
				opt_usage_error(p, "--to %s: not seconds or HH:MM:SS[.ns]",
						w->to_arg);
		}
		if (it->ts < w->from || it->ts > w->to ||
		    !item_selected(&w->sel, t, it))
			continue;
		tl_add(tl, it);
	}
	return tl_finish(tl);
}
