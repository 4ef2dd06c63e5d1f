// SPDX-License-Identifier: GPL-2.0
/*
 * Following a trace while it is written: the test writer plays lttd,
 * appending packets between the reader's looks.  Times are a minute in
 * the future unless a test is about the lag: then only the order of the
 * streams decides when an item goes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests.h"
#include "writer.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A fresh directory for test @name. */
static const char *follow_dir(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/ltt-follow-%d-%s", getpid(), name);
	remove_copy(buf);
	return buf;
}

/* Take what the followed trace gives now; returns 0 (end) or WAIT. */
static int drain(struct ltt_trace *t, struct seen_list *out)
{
	const struct ltt_item *it;
	int ret;

	while ((ret = ltt_trace_next(t, &it)) == 1)
		seen_add(out, t, it);
	return ret;
}

/* The writer is done: the rest of the trace, to its end. */
static void drain_end(struct ltt_trace *t, struct seen_list *out)
{
	ltt_trace_follow_end(t);
	assert_int_equal(drain(t, out), 0);
	seen_errors(out, t);
}

static void assert_same_items(const struct seen_list *a,
			      const struct seen_list *b)
{
	size_t i;

	assert_int_equal(a->n, b->n);
	for (i = 0; i < a->n; i++) {
		const struct seen *x = &a->v[i], *y = &b->v[i];

		assert_int_equal(x->item.kind, y->item.kind);
		assert_int_equal(x->item.cpu, y->item.cpu);
		assert_int_equal(x->item.ts, y->item.ts);
		assert_int_equal(x->item.pid, y->item.pid);
		assert_int_equal(x->item.lost_events, y->item.lost_events);
		assert_string_equal(x->name, y->name);
		assert_string_equal(x->str, y->str);
		assert_memory_equal(x->f, y->f, sizeof(x->f));
		assert_string_equal(x->comm, y->comm);
	}
}

static void open_writer(struct fx_writer *w, const char *dir,
			unsigned int n_cpus, uint32_t subbuf)
{
	struct ltt_registry reg;

	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_open(w, dir, &reg, n_cpus, subbuf,
				 FX_CLOCK_OFFSET), 0);
}

static void event(struct fx_writer *w, unsigned int cpu, uint64_t ts,
		  int64_t nr)
{
	int64_t f[] = { nr, 0x401000 };

	assert_int_equal(fx_event(w, cpu, ts, "syscall_entry", f, NULL), 0);
}

/* A trace the test writer writes while the reader follows it. */
struct live {
	char dir[256];
	struct fx_writer w;
	struct ltt_trace *t;
	struct seen_list l;		/* what the reader gave */
};

/* The writer starts a trace of @n_cpus CPUs (4 KiB packets). */
static void live_start(struct live *v, const char *name, unsigned int n_cpus)
{
	memset(v, 0, sizeof(*v));
	follow_dir(name, v->dir, sizeof(v->dir));
	open_writer(&v->w, v->dir, n_cpus, 4096);
}

static void live_follow(struct live *v, unsigned int n_streams)
{
	v->t = ltt_trace_follow(v->dir, n_streams);
	assert_non_null(v->t);
}

/* Hand @cpu's packet over at @ts, then take what the reader gives. */
static size_t live_flush(struct live *v, unsigned int cpu, uint64_t ts)
{
	assert_int_equal(fx_flush(&v->w, cpu, ts), 0);
	assert_int_equal(drain(v->t, &v->l), LTT_TRACE_WAIT);
	return v->l.n;
}

/* The writer ends at @ts; the reader takes the rest. */
static void live_end(struct live *v, uint64_t ts)
{
	assert_int_equal(fx_close(&v->w, ts), 0);
	drain_end(v->t, &v->l);
}

static void live_free(struct live *v)
{
	ltt_trace_close(v->t);
	seen_free(&v->l);
	remove_copy(v->dir);
}

void follow_gives_what_offline_gives(void **state)
{
	uint64_t ts = mono_ns() + 60000000000ULL;
	struct seen_list offline;
	size_t before_end;
	struct live v;
	int round, j;

	(void)state;
	live_start(&v, "same", 2);
	live_follow(&v, 2);
	for (round = 0; round < 60; round++) {
		int64_t sw[] = { 200 + round % 3, 200 + (round + 2) % 3, 1 };

		for (j = 0; j < 20; j++) {
			event(&v.w, 0, ts += 10, j);
			event(&v.w, 1, ts += 3, round);
		}
		assert_int_equal(fx_event(&v.w, round % 2, ts += 7,
					  "sched_change", sw, NULL), 0);
		if (round % 5 == 0)
			live_flush(&v, round % 2, ts += 1);
		assert_int_equal(drain(v.t, &v.l), LTT_TRACE_WAIT);
	}
	before_end = v.l.n;
	live_end(&v, ts + 100);
	read_all(v.dir, &offline);
	assert_true(before_end > 1000);	/* most came while written */
	assert_int_equal(v.l.n_errors, 0);
	assert_same_items(&v.l, &offline);
	seen_free(&offline);
	live_free(&v);
}

/* Append bytes [from, to) of file @src to @dst. */
static void append(const char *src, const char *dst, off_t from, off_t to)
{
	int in = open(src, O_RDONLY), out = open(dst, O_WRONLY | O_APPEND);
	char b[65536];

	assert_true(in >= 0 && out >= 0 && to - from <= (off_t)sizeof(b));
	assert_int_equal(pread(in, b, to - from, from), to - from);
	assert_int_equal(write(out, b, to - from), to - from);
	close(in);
	close(out);
}

/* A one-CPU trace of @n events in one packet, in @dir; returns its size. */
static off_t one_packet(const char *dir, uint64_t base, int n)
{
	struct fx_writer w;
	char path[512];
	struct stat st;
	int i;

	open_writer(&w, dir, 1, 65536);
	for (i = 0; i < n; i++)
		event(&w, 0, base + i, i);
	assert_int_equal(fx_close(&w, base + n), 0);
	snprintf(path, sizeof(path), "%s/channel0_0", dir);
	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

/* An empty copy of the trace in @src: metadata and empty stream files. */
static void empty_copy(const char *src, const char *name, char *buf,
		       size_t len)
{
	char cmd[1024];

	follow_dir(name, buf, len);
	snprintf(cmd, sizeof(cmd), "cp -r '%s' '%s' && truncate -s 0 '%s'/channel0_*",
		 src, buf, buf);
	assert_int_equal(system(cmd), 0);
}

/*
 * A finished one-packet trace, and a followed copy of it that starts
 * empty, to append the packet to bit by bit.
 */
struct growing {
	char src[256], dst[256], from[512], to[512];
	off_t size;
	struct ltt_trace *t;
	struct seen_list l;
};

static void growing_open(struct growing *g, const char *name)
{
	char src_name[64];

	memset(g, 0, sizeof(*g));
	snprintf(src_name, sizeof(src_name), "%s-src", name);
	follow_dir(src_name, g->src, sizeof(g->src));
	g->size = one_packet(g->src, mono_ns() + 60000000000ULL, 10);
	empty_copy(g->src, name, g->dst, sizeof(g->dst));
	snprintf(g->from, sizeof(g->from), "%s/channel0_0", g->src);
	snprintf(g->to, sizeof(g->to), "%s/channel0_0", g->dst);
	g->t = ltt_trace_follow(g->dst, 1);
	assert_non_null(g->t);
}

/* Append bytes [from, to) of the packet and take what comes. */
static void growing_append(struct growing *g, off_t from, off_t to)
{
	append(g->from, g->to, from, to);
	assert_int_equal(drain(g->t, &g->l), LTT_TRACE_WAIT);
}

static void growing_close(struct growing *g)
{
	ltt_trace_close(g->t);
	seen_free(&g->l);
	remove_copy(g->src);
	remove_copy(g->dst);
}

void follow_waits_for_whole_packets(void **state)
{
	struct growing g;

	(void)state;
	growing_open(&g, "whole");
	growing_append(&g, 0, 20);		/* part of the header */
	growing_append(&g, 20, g.size - 1);	/* all but a byte */
	assert_int_equal(g.l.n, 0);
	growing_append(&g, g.size - 1, g.size);
	assert_int_equal(g.l.n, 10);
	drain_end(g.t, &g.l);
	assert_int_equal(g.l.n, 10);
	assert_int_equal(g.l.n_errors, 0);
	growing_close(&g);
}

void follow_end_reports_a_cut_packet(void **state)
{
	struct growing g;

	(void)state;
	growing_open(&g, "cut");
	growing_append(&g, 0, g.size - 16);
	assert_int_equal(g.l.n, 0);
	/* the writer died there: what is left reads as a finished trace */
	drain_end(g.t, &g.l);
	assert_true(g.l.n >= 8 && g.l.n < 10);
	assert_int_equal(g.l.n_errors, 1);
	assert_non_null(strstr(g.l.error, "truncated"));
	growing_close(&g);
}

void follow_holds_items_until_every_stream_is_past_them(void **state)
{
	uint64_t base = mono_ns() + 60000000000ULL;
	struct live v;

	(void)state;
	live_start(&v, "hold", 2);
	live_follow(&v, 2);
	event(&v.w, 1, base + 100, 1);
	/* cpu 0 may still have records from 0 on: 100 waits */
	assert_int_equal(live_flush(&v, 1, base + 200), 0);
	event(&v.w, 0, base + 300, 2);
	event(&v.w, 0, base + 400, 3);
	/* cpu 1 may still have records from 200 on: 300 waits */
	assert_int_equal(live_flush(&v, 0, base + 450), 1);
	event(&v.w, 1, base + 500, 4);
	assert_int_equal(live_flush(&v, 1, base + 600), 3);
	assert_int_equal(v.l.v[2].item.ts, base + 400);
	live_end(&v, base + 700);
	assert_int_equal(v.l.n, 4);
	live_free(&v);
}

void follow_waits_for_streams_not_created_yet(void **state)
{
	uint64_t base = mono_ns() + 60000000000ULL;
	char cpu1[512], hidden[512];
	struct live v;

	(void)state;
	live_start(&v, "late", 2);
	/* a stream file appears with its first packet */
	snprintf(cpu1, sizeof(cpu1), "%s/channel0_1", v.dir);
	snprintf(hidden, sizeof(hidden), "%s/later", v.dir);
	assert_int_equal(rename(cpu1, hidden), 0);
	live_follow(&v, 2);
	event(&v.w, 0, base + 100, 1);
	assert_int_equal(live_flush(&v, 0, base + 200), 0);
	event(&v.w, 1, base + 150, 2);
	assert_int_equal(live_flush(&v, 1, base + 300), 0);
	assert_int_equal(rename(hidden, cpu1), 0);
	assert_int_equal(drain(v.t, &v.l), LTT_TRACE_WAIT);
	assert_int_equal(v.l.n, 2);
	assert_int_equal(v.l.v[1].item.cpu, 1);
	live_end(&v, base + 400);
	live_free(&v);
}

void follow_gives_an_item_once_it_is_old(void **state)
{
	uint64_t start, waited;
	struct live v;

	(void)state;
	live_start(&v, "lag", 2);
	live_follow(&v, 2);
	/* cpu 1 says nothing: cpu 0's event goes when it is old enough */
	start = mono_ns();
	event(&v.w, 0, start, 1);
	live_flush(&v, 0, start + 1);
	while (drain(v.t, &v.l) == LTT_TRACE_WAIT && !v.l.n)
		usleep(10000);
	waited = mono_ns() - start;
	assert_int_equal(v.l.n, 1);
	assert_true(waited >= LTT_FOLLOW_LAG_MS * 1000000ULL);
	assert_true(waited < 1000000000ULL);
	live_end(&v, mono_ns());
	live_free(&v);
}

/* Write the metadata of @reg into DIR/metadata through a rename. */
static void replace_metadata(const char *dir, const struct ltt_registry *reg)
{
	char tmp[512], path[512];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s/.metadata.tmp", dir);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ltt_metadata_write(fd, reg, FX_CLOCK_OFFSET), 0);
	close(fd);
	assert_int_equal(rename(tmp, path), 0);
}

void follow_reads_the_metadata_again(void **state)
{
	uint64_t base = mono_ns() + 60000000000ULL;
	struct ltt_registry custom;
	int64_t value[] = { 42 };
	struct live v;

	(void)state;
	live_start(&v, "metadata", 1);
	/* the custom event is created once the trace has begun */
	assert_int_equal(fx_registry(&custom), 0);
	assert_int_equal(fx_registry_add_custom(&custom, 1), 0);
	live_follow(&v, 1);
	assert_int_equal(fx_registry_add_custom(&v.w.reg, 1), 0);
	event(&v.w, 0, base + 100, 1);
	assert_int_equal(fx_event(&v.w, 0, base + 200, "custom_0", value,
				  NULL), 0);
	assert_int_equal(live_flush(&v, 0, base + 300), 1);
	replace_metadata(v.dir, &custom);
	assert_int_equal(drain(v.t, &v.l), LTT_TRACE_WAIT);
	assert_int_equal(v.l.n, 2);
	assert_string_equal(v.l.v[1].name, "custom_0");
	assert_int_equal(v.l.v[1].f[0], 42);
	live_end(&v, base + 400);
	assert_int_equal(v.l.n_errors, 0);
	ltt_registry_free(&custom);
	live_free(&v);
}

void follow_tells_whether_the_writer_is_done(void **state)
{
	struct live v;

	(void)state;
	live_start(&v, "writer", 2);
	live_follow(&v, 2);
	assert_int_equal(ltt_trace_writing(v.t), 1);
	assert_int_equal(fx_close(&v.w, 1), 0);
	assert_int_equal(ltt_trace_writing(v.t), 0);
	ltt_trace_close(v.t);
	remove_copy(v.dir);
}
