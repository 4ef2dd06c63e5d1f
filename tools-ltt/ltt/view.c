// SPDX-License-Identifier: GPL-2.0
/*
 * ltt view: the trace as one self-contained HTML file, a zoomable
 * timeline drawn on a canvas by the script in view.html (embedded in
 * the binary by view-html.c).  This file writes the data the script
 * reads: the timeline of timeline.c as typed arrays in base64, and per
 * lane and depth summary buckets that the page draws instead of the
 * slices when too many would fall into each pixel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter.h"
#include "json.h"
#include "ltt.h"
#include "outfile.h"
#include "timeline.h"
#include "window.h"

extern const char ltt_view_html[];

enum {
	OPT_FROM = 256,
	OPT_TO,
	OPT_UTC,
	OPT_MAX,
	OPT_FILTER,
};

static const struct ltt_opt view_opts[] = {
	{ 'o', "output", "FILE", "write the view to FILE (default DIR.html, in the current directory)" },
	{ OPT_FROM, "from", "TIME", "from TIME: seconds from the start, -seconds from the end, or HH:MM:SS[.ns]" },
	{ OPT_TO, "to", "TIME", "up to TIME (included)" },
	{ OPT_UTC, "utc", NULL, "wall-clock times in UTC, not local time" },
	{ 'e', "event", "LIST", "only these events (names, prefix*, ids; !ITEM leaves out)" },
	{ OPT_FILTER, "filter", "EXPR", "only events that match EXPR (see ltt(1))" },
	{ OPT_MAX, "max-slices", "N", "keep at most N slices, the longest (default 2000000); the summaries count all" },
};

#define VIEW_MAX_SLICES		2000000
#define VIEW_BUCKETS_MIN	256
#define VIEW_BUCKETS_MAX	65536

struct view {
	struct timeline tl;
	struct tl_window win;		/* --from, --to, -e, --filter, --utc */
	uint64_t max_slices;
	/* task lanes: tl.tasks indexes in lane order, and back */
	uint32_t *lane_task;
	uint32_t n_lanes;
	uint32_t *task_lane;		/* UINT32_MAX: no lane */
	/* calls kept, renumbered; slices kept */
	uint32_t *call_new;
	uint32_t n_calls_kept;
	bool *slice_kept;
	uint32_t n_slices_kept;
};

static double rel(const struct view *v, uint64_t ts)
{
	return ts > v->tl.t0 ? (double)(ts - v->tl.t0) : 0.0;
}

static const struct timeline *sort_tl;

static int lane_cmp(const void *a, const void *b)
{
	const struct tl_task *x = &sort_tl->tasks[*(const uint32_t *)a];
	const struct tl_task *y = &sort_tl->tasks[*(const uint32_t *)b];
	int c;

	/* by container (as the task ended), then by process */
	if (x->container != y->container) {
		if (x->container == UINT32_MAX || y->container == UINT32_MAX)
			return x->container == UINT32_MAX ? 1 : -1;
		c = strcmp(sort_tl->strings[x->container],
			   sort_tl->strings[y->container]);
		if (c)
			return c;
	}
	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* One lane per task that ran or has a known state, by container and process. */
static int view_lanes(struct view *v)
{
	struct timeline *tl = &v->tl;
	bool *active = calloc(tl->n_tasks + 1, sizeof(bool));
	uint32_t i;

	v->lane_task = calloc(tl->n_tasks + 1, sizeof(uint32_t));
	v->task_lane = malloc((tl->n_tasks + 1) * sizeof(uint32_t));
	if (!active || !v->lane_task || !v->task_lane) {
		free(active);
		return -1;
	}
	for (i = 0; i < tl->n_states; i++) {
		const struct tl_task *k = tl_task(tl, tl->states[i].pid);

		if (k)
			active[k - tl->tasks] = true;
	}
	for (i = 0; i < tl->n_tasks; i++)
		if (active[i] && tl->tasks[i].pid > 0)
			v->lane_task[v->n_lanes++] = i;
	sort_tl = tl;
	qsort(v->lane_task, v->n_lanes, sizeof(uint32_t), lane_cmp);
	for (i = 0; i < tl->n_tasks; i++)
		v->task_lane[i] = UINT32_MAX;
	for (i = 0; i < v->n_lanes; i++)
		v->task_lane[v->lane_task[i]] = i;
	free(active);
	return 0;
}

/* The @k-th smallest (from 0) of @n values, which are reordered. */
static uint64_t select_kth(uint64_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		uint64_t pivot = v[lo + (hi - lo) / 2], t;
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j] = t;
				if (!j--)
					break;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return v[k];
	}
	return v[k];
}

/*
 * Keep at most max_slices slices, the longest (one length threshold for
 * every lane: the shortest go, wherever they are), and the calls they
 * show.
 */
static int view_select(struct view *v)
{
	struct timeline *tl = &v->tl;
	uint64_t threshold = 0, at_threshold = 0;
	bool cut = tl->n_slices > v->max_slices;
	uint32_t i;

	v->slice_kept = calloc(tl->n_slices + 1, sizeof(bool));
	v->call_new = malloc((tl->n_calls + 1) * sizeof(uint32_t));
	if (!v->slice_kept || !v->call_new)
		return -1;
	if (cut) {
		uint64_t *d = malloc((size_t)tl->n_slices * sizeof(*d));

		if (!d)
			return -1;
		for (i = 0; i < tl->n_slices; i++)
			d[i] = tl->slices[i].t1 - tl->slices[i].t0;
		threshold = select_kth(d, tl->n_slices, tl->n_slices - v->max_slices);
		free(d);
		/* those longer all stay; of those as long, the first ones */
		at_threshold = v->max_slices;
		for (i = 0; i < tl->n_slices; i++)
			at_threshold -= tl->slices[i].t1 - tl->slices[i].t0 > threshold;
	}
	for (i = 0; i < tl->n_calls; i++)
		v->call_new[i] = UINT32_MAX;
	for (i = 0; i < tl->n_slices; i++) {
		const struct tl_slice *s = &tl->slices[i];
		uint64_t len = s->t1 - s->t0;

		if (cut && len < threshold)
			continue;
		if (cut && len == threshold) {
			if (!at_threshold)
				continue;
			at_threshold--;
		}
		v->slice_kept[i] = true;
		v->n_slices_kept++;
		v->call_new[s->call] = 0;
	}
	for (i = 0; i < tl->n_calls; i++)
		if (!v->call_new[i])
			v->call_new[i] = v->n_calls_kept++;
	return 0;
}

/* The colour key of a slice in the summaries: kind, and what colours it. */
static uint32_t slice_key(const struct view *v, const struct tl_slice *s)
{
	const struct tl_call *c = &v->tl.calls[s->call];
	uint32_t key = c->name;

	if (c->kind == TL_RUN) {
		const struct tl_task *k = tl_task(&v->tl, c->pid);

		key = k ? (uint32_t)k->tgid : (uint32_t)c->pid;
	}
	return (uint32_t)c->kind << 24 | (key & 0xffffff);
}

static uint32_t pow2_at_least(uint64_t n)
{
	uint32_t b = VIEW_BUCKETS_MIN;

	while (b < n && b < VIEW_BUCKETS_MAX)
		b *= 2;
	return b;
}

/*
 * Summaries of the slices [from, to) of one lane and depth: per bucket,
 * the share of it they cover (0-255) and the key of the slice covering
 * most of it.  Slices of one lane and depth do not overlap.
 */
static int write_track(struct view *v, FILE *f, uint32_t from, uint32_t to,
		       uint32_t kept_from, uint32_t kept_to)
{
	const struct tl_slice *s0 = &v->tl.slices[from];
	uint32_t nb = pow2_at_least((to - from) / 2), i, b;
	double span = rel(v, v->tl.t1) + 1, bw = span / nb;
	float *cov = calloc(nb, sizeof(float)), *best = calloc(nb, sizeof(float));
	uint32_t *key = calloc(nb, sizeof(uint32_t));
	struct b64 e;

	if (!cov || !best || !key) {
		free(cov);
		free(best);
		free(key);
		return -1;
	}
	for (i = from; i < to; i++) {
		const struct tl_slice *s = &v->tl.slices[i];
		double a = rel(v, s->t0), z = rel(v, s->t1);
		uint32_t b0 = a / bw, b1 = z / bw;

		if (b1 >= nb)
			b1 = nb - 1;
		for (b = b0; b <= b1; b++) {
			double lo = a > b * bw ? a : b * bw;
			double hi = z < (b + 1) * bw ? z : (b + 1) * bw;
			float part = hi > lo ? (hi - lo) / bw : 0;

			if (!part && z == a)
				part = 1e-6f;	/* an instant still shows */
			cov[b] += part;
			if (part > best[b]) {
				best[b] = part;
				key[b] = slice_key(v, s);
			}
		}
	}
	fprintf(f, "{\"lane\":%u,\"depth\":%u,\"from\":%u,\"to\":%u,\"all\":%u,\"nb\":%u,\"bw\":%.17g,\"cov\":",
		s0->lane, s0->depth, kept_from, kept_to, to - from, nb, bw);
	b64_begin(&e, f);
	for (b = 0; b < nb; b++) {
		float c = cov[b] > 1 ? 1 : cov[b];

		b64_u8(&e, c > 0 && c * 255 < 1 ? 1 : (uint8_t)(c * 255 + 0.5f));
	}
	b64_end(&e);
	fputs(",\"key\":", f);
	b64_begin(&e, f);
	for (b = 0; b < nb; b++)
		b64_u32(&e, key[b]);
	b64_end(&e);
	putc('}', f);
	free(cov);
	free(best);
	free(key);
	return 0;
}

static int write_tracks(struct view *v, FILE *f)
{
	const struct timeline *tl = &v->tl;
	uint32_t i = 0, kept = 0;
	bool first = true;

	fputs(",\"tracks\":[", f);
	while (i < tl->n_slices) {
		uint32_t j = i, kept_from = kept;

		while (j < tl->n_slices && tl->slices[j].lane == tl->slices[i].lane &&
		       tl->slices[j].depth == tl->slices[i].depth)
			kept += v->slice_kept[j++];
		if (!first)
			putc(',', f);
		first = false;
		if (write_track(v, f, i, j, kept_from, kept))
			return -1;
		i = j;
	}
	putc(']', f);
	return 0;
}

static void write_calls(struct view *v, FILE *f)
{
	const struct timeline *tl = &v->tl;
	struct b64 e;
	uint32_t i;

#define CALL_COLUMN(name, put)						\
	do {								\
		fputs(",\"" name "\":", f);				\
		b64_begin(&e, f);					\
		for (i = 0; i < tl->n_calls; i++) {			\
			const struct tl_call *c = &tl->calls[i];	\
									\
			if (v->call_new[i] != UINT32_MAX)		\
				put;					\
		}							\
		b64_end(&e);						\
	} while (0)

	fprintf(f, ",\"calls\":{\"n\":%u", v->n_calls_kept);
	CALL_COLUMN("t0", b64_f64(&e, rel(v, c->t0)));
	CALL_COLUMN("t1", b64_f64(&e, rel(v, c->t1)));
	CALL_COLUMN("kind", b64_u8(&e, c->kind));
	CALL_COLUMN("flags", b64_u8(&e, c->flags));
	CALL_COLUMN("name", b64_u32(&e, c->name));
	CALL_COLUMN("pid", b64_u32(&e, (uint32_t)c->pid));
	CALL_COLUMN("nr", b64_u32(&e, (uint32_t)c->nr));
	CALL_COLUMN("alo", b64_u32(&e, (uint32_t)c->a));
	CALL_COLUMN("ahi", b64_u32(&e, (uint32_t)(c->a >> 32)));
	CALL_COLUMN("ret", b64_f64(&e, (double)c->ret));
	putc('}', f);
#undef CALL_COLUMN
}

static void write_slices(struct view *v, FILE *f)
{
	const struct timeline *tl = &v->tl;
	struct b64 e;
	uint32_t i;

#define SLICE_COLUMN(name, put)						\
	do {								\
		fputs(",\"" name "\":", f);				\
		b64_begin(&e, f);					\
		for (i = 0; i < tl->n_slices; i++) {			\
			const struct tl_slice *s = &tl->slices[i];	\
									\
			if (v->slice_kept[i])				\
				put;					\
		}							\
		b64_end(&e);						\
	} while (0)

	fprintf(f, ",\"slices\":{\"n\":%u,\"all\":%u", v->n_slices_kept,
		tl->n_slices);
	SLICE_COLUMN("t0", b64_f64(&e, rel(v, s->t0)));
	SLICE_COLUMN("t1", b64_f64(&e, rel(v, s->t1)));
	SLICE_COLUMN("call", b64_u32(&e, v->call_new[s->call]));
	putc('}', f);
#undef SLICE_COLUMN
}

static void write_states(struct view *v, FILE *f)
{
	const struct timeline *tl = &v->tl;
	uint32_t i, n = 0, *lane = malloc((tl->n_states + 1) * sizeof(*lane));
	struct b64 e;

	for (i = 0; i < tl->n_states; i++) {
		const struct tl_task *k = tl_task(tl, tl->states[i].pid);

		lane[i] = k ? v->task_lane[k - tl->tasks] : UINT32_MAX;
		n += lane[i] != UINT32_MAX;
	}
	fprintf(f, ",\"states\":{\"n\":%u", n);
#define STATE_COLUMN(name, put)						\
	do {								\
		fputs(",\"" name "\":", f);				\
		b64_begin(&e, f);					\
		for (i = 0; i < tl->n_states; i++) {			\
			const struct tl_state_span *s = &tl->states[i];	\
									\
			(void)s;					\
			if (lane[i] != UINT32_MAX)			\
				put;					\
		}							\
		b64_end(&e);						\
	} while (0)
	STATE_COLUMN("t0", b64_f64(&e, rel(v, s->t0)));
	STATE_COLUMN("t1", b64_f64(&e, rel(v, s->t1)));
	STATE_COLUMN("lane", b64_u32(&e, lane[i]));
	STATE_COLUMN("state", b64_u8(&e, s->state));
#undef STATE_COLUMN
	putc('}', f);
	free(lane);
}

static void write_strings(const char *key, const char *const *s,
			  unsigned int n, FILE *f)
{
	unsigned int i;

	fprintf(f, ",\"%s\":[", key);
	for (i = 0; i < n; i++) {
		if (i)
			putc(',', f);
		json_str(f, s[i]);
	}
	putc(']', f);
}

static void write_misc(struct view *v, FILE *f)
{
	const struct timeline *tl = &v->tl;
	uint32_t i;

	write_strings("strings", (const char *const *)tl->strings,
		      tl->n_strings, f);
	write_strings("kinds", tl_kind_names, TL_KINDS, f);
	write_strings("stateNames", tl_state_names, TL_STATES, f);
	fputs(",\"tasks\":[", f);
	for (i = 0; i < v->n_lanes; i++) {
		const struct tl_task *k = &tl->tasks[v->lane_task[i]];

		fprintf(f, "%s[%d,%d,%u", i ? "," : "", k->pid, k->tgid,
			k->name);
		if (k->container != UINT32_MAX)
			fprintf(f, ",%u", k->container);
		putc(']', f);
	}
	fputs("],\"marks\":[", f);
	for (i = 0; i < tl->n_marks; i++) {
		const struct tl_mark *m = &tl->marks[i];

		fprintf(f, "%s[%.17g,%u,%d,%u,", i ? "," : "", rel(v, m->ts),
			m->cpu, m->pid, m->name);
		json_str(f, m->text);
		putc(']', f);
	}
	fputs("],\"lost\":[", f);
	for (i = 0; i < tl->n_lost; i++) {
		const struct tl_lost *l = &tl->lost[i];

		fprintf(f, "%s[%u,%.17g,%.17g,%llu,%llu]", i ? "," : "", l->cpu,
			rel(v, l->t0), rel(v, l->t1),
			(unsigned long long)l->events,
			(unsigned long long)l->packets);
	}
	putc(']', f);
}

static int write_data(struct view *v, FILE *f, const char *dir)
{
	const struct timeline *tl = &v->tl;
	int64_t offset = ltt_trace_clock_offset(tl->trace);
	char start[32];

	format_clock(start, sizeof(start), (int64_t)tl->t0 + offset, v->win.utc);
	fputs("<script id=\"ltt-data\" type=\"application/json\">{\"version\":1,\"dir\":", f);
	json_str(f, dir);
	fprintf(f, ",\"start\":\"%s\",\"utc\":%s,\"span\":%.17g,\"events\":%llu,\"cpus\":%u",
		start, v->win.utc ? "true" : "false", rel(v, tl->t1),
		(unsigned long long)tl->events, tl->n_cpus);
	write_misc(v, f);
	write_calls(v, f);
	write_slices(v, f);
	write_states(v, f);
	if (write_tracks(v, f))
		return -1;
	fputs("}</script>\n", f);
	return 0;
}

static int write_view(struct view *v, FILE *f, const char *dir)
{
	static const char marker[] = "<!--LTT-DATA-->";
	const char *at = strstr(ltt_view_html, marker);

	if (!at) {
		errno = EINVAL;
		return -1;
	}
	fwrite(ltt_view_html, 1, at - ltt_view_html, f);
	if (write_data(v, f, dir))
		return -1;
	fputs(at + sizeof(marker) - 1, f);
	return 0;
}

/* Options before, between or after the directories, into @dirs. */
static void view_parse(struct view *v, struct opt_parser *p, int argc,
		       char **argv, const char **output, struct trace_dirs *dirs)
{
	int c;

	for (;;) {
		while ((c = opt_next(p, argc, argv)) != -1) {
			switch (c) {
			case 'o':
				*output = p->arg;
				break;
			case OPT_FROM:
				v->win.from_arg = p->arg;
				break;
			case OPT_TO:
				v->win.to_arg = p->arg;
				break;
			case OPT_UTC:
				v->win.utc = true;
				break;
			case 'e':
				v->win.events = p->arg;
				break;
			case OPT_FILTER:
				v->win.expr = p->arg;
				break;
			case OPT_MAX:
				v->max_slices = opt_u64(p, "--max-slices", p->arg);
				if (!v->max_slices)
					opt_usage_error(p, "--max-slices: at least 1");
				break;
			}
		}
		if (p->ind >= argc)
			break;
		trace_dirs_add(dirs, p, argv[p->ind]);
		/* parse on after DIR, which getopt takes for argv[0] */
		argc -= p->ind;
		argv += p->ind;
	}
	if (!dirs->n)
		opt_usage_error(p, "a trace directory expected");
}

/* Read the trace (between --from and --to) into v->tl. */
static int view_read(struct view *v, struct ltt_trace *t,
		     const struct opt_parser *p)
{
	return tl_read_window(&v->tl, &v->win, t, p);
}

static void view_free(struct view *v)
{
	tl_free(&v->tl);
	item_select_free(&v->win.sel);
	free(v->lane_task);
	free(v->task_lane);
	free(v->call_new);
	free(v->slice_kept);
}

int cmd_view(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER_ANYWHERE("ltt view", "[OPTIONS] DIR...",
		"Write the trace in DIR as one HTML file that any browser opens from\n"
		"disk: a timeline with a lane per CPU (the task running, its system\n"
		"calls and traps, interrupts and softirqs, nested) and a lane per task\n"
		"(running, runnable, blocked, sleeping), custom events and `ltt log`\n"
		"lines as flags, lost events in red.  Wheel or +/- zooms, dragging pans,\n"
		"a click shows an item's fields, the search box finds processes and\n"
		"events.",
		view_opts);
	struct view v = { .max_slices = VIEW_MAX_SLICES };
	const char *output = NULL, *dir;
	struct trace_dirs dirs = { .n = 0 };
	char *def = NULL;
	struct ltt_trace *t;
	struct out_file o;
	unsigned int errors;
	int ret = 0;

	view_parse(&v, &p, argc, argv, &output, &dirs);
	dir = dirs.v[0];
	t = open_traces_or_die(p.cmd, dirs.v, dirs.n);
	if (!output) {
		def = default_output(dir, ".html", "ltt-view.html");
		output = def;
		if (!output) {
			warnx_cmd(p.cmd, "out of memory");
			return 1;
		}
	}
	/* an output that cannot be written fails before the trace is read */
	if (out_file_open(&o, output)) {
		warnx_cmd(p.cmd, "%s: %s", output, strerror(errno));
		ret = 1;
		goto out;
	}
	if (view_read(&v, t, &p) || view_lanes(&v) || view_select(&v)) {
		warnx_cmd(p.cmd, "out of memory");
		out_file_abort(&o);
		ret = 1;
		goto out;
	}
	errors = print_trace_errors(p.cmd, t);
	errno = 0;
	if (out_file_finish(&o, p.cmd, write_view(&v, o.f, ltt_trace_dir(t)))) {
		ret = 1;
		goto out;
	}
	if (v.n_slices_kept < v.tl.n_slices)
		warnx_cmd(p.cmd, "%u of %u slices kept (the longest; --max-slices), summaries of all",
			  v.n_slices_kept, v.tl.n_slices);
	ret = errors ? 1 : 0;
out:
	view_free(&v);
	ltt_trace_close(t);
	free(def);
	return ret;
}
