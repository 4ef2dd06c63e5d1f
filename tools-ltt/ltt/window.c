// SPDX-License-Identifier: GPL-2.0
/*
 * The window of a trace that ltt view and ltt export draw, and the
 * --from/--to of every reader.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/checked.h"
#include "ltt.h"
#include "window.h"

/*
 * One bound of trace_window(): "-S" counts back from @last.  Returns
 * false when "-S" goes back past the trace's start (@out is the start).
 */
static bool window_bound(const struct opt_parser *p, const char *opt,
			 const char *arg, const struct time_window *w,
			 uint64_t last, int64_t offset, uint64_t *out)
{
	uint64_t ns;

	if (arg[0] == '-' && !strchr(arg, ':') &&
	    !parse_time_bound(arg + 1, 0, offset, w->utc, &ns)) {
		*out = last - w->start >= ns ? last - ns : w->start;
		return last - w->start >= ns;
	}
	if (parse_time_bound(arg, w->start, offset, w->utc, out))
		opt_usage_error(p, "%s %s: not seconds, -seconds or HH:MM:SS[.ns]",
				opt, arg);
	return true;
}

/*
 * A window that holds none of the trace is said, the same way by every
 * command, and ends it (exit 1): an empty output would look like a
 * trace with nothing in it.
 */
static void window_empty(const struct opt_parser *p, const struct ltt_trace *t,
			 const struct time_window *w, uint64_t last)
{
	int64_t offset = ltt_trace_clock_offset(t);
	char a[32], b[32];

	format_clock(a, sizeof(a), ltt_wall_ns(w->start, offset), w->utc);
	format_clock(b, sizeof(b), ltt_wall_ns(last, offset), w->utc);
	warnx_cmd(p->cmd, "%s%s%s%s%s: the window holds none of the trace, which runs from %s to %s",
		  w->from_arg ? "--from " : "", w->from_arg ? w->from_arg : "",
		  w->from_arg && w->to_arg ? " " : "",
		  w->to_arg ? "--to " : "", w->to_arg ? w->to_arg : "", a, b);
	exit(1);
}

void trace_window(struct ltt_trace *t, const struct opt_parser *p,
		  struct time_window *w)
{
	int64_t offset = ltt_trace_clock_offset(t);
	uint64_t last = 0;

	w->start = 0;
	w->from = 0;
	w->to = UINT64_MAX;
	/* the end only for a window */
	if (!ltt_trace_time_range(t, &w->start, w->from_arg || w->to_arg ?
				  &last : NULL))
		return;
	if (w->from_arg)
		window_bound(p, "--from", w->from_arg, w, last, offset, &w->from);
	if (w->to_arg &&
	    !window_bound(p, "--to", w->to_arg, w, last, offset, &w->to))
		window_empty(p, t, w, last);
	if ((w->from_arg || w->to_arg) &&
	    (w->to < w->from || w->to < w->start || w->from > last))
		window_empty(p, t, w, last);
	if (w->from > w->start)
		ltt_trace_seek(t, w->from);
}

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
