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
	struct time_window tw;
	char err[300];

	if (item_select_init(&w->sel, ltt_trace_registry(t), w->events,
			     w->expr, err, sizeof(err)))
		opt_usage_error(p, "%s", err);
	if (tl_init(tl, t))
		return -1;
	tw.from_arg = w->from_arg;
	tw.to_arg = w->to_arg;
	tw.utc = w->utc;
	trace_window(t, p, &tw);
	w->from = tw.from;
	w->to = tw.to;
	while (ltt_trace_next(t, &it) > 0) {
		if (it->ts > w->to)
			break;		/* items come in time order */
		if (it->ts < w->from || !item_selected(&w->sel, t, it))
			continue;
		tl_add(tl, it);
	}
	return tl_finish(tl);
}
