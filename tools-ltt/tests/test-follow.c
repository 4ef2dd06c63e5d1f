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

void follow_gives_what_offline_gives(void **state)
{
	struct seen_list live = { 0 }, offline;
	uint64_t base = mono_ns() + 60000000000ULL, ts = base;
	struct ltt_trace *t;
	struct fx_writer w;
	const char *dir;
	char buf[256];
	size_t before_end;
	int round, j;

	(void)state;
	dir = follow_dir("same", buf, sizeof(buf));
	open_writer(&w, dir, 2, 4096);
	t = ltt_trace_follow(dir, 2);
	assert_non_null(t);
	for (round = 0; round < 60; round++) {
		int64_t sw[] = { 200 + round % 3, 200 + (round + 2) % 3, 1 };

		for (j = 0; j < 20; j++) {
			event(&w, 0, ts += 10, j);
			event(&w, 1, ts += 3, round);
		}
		assert_int_equal(fx_event(&w, round % 2, ts += 7, "sched_change",
					  sw, NULL), 0);
		if (round % 5 == 0)
			assert_int_equal(fx_flush(&w, round % 2, ts += 1), 0);
		assert_int_equal(drain(t, &live), LTT_TRACE_WAIT);
	}
	before_end = live.n;
	assert_int_equal(fx_close(&w, ts + 100), 0);
	drain_end(t, &live);
	ltt_trace_close(t);

	read_all(dir, &offline);
	assert_true(before_end > 1000);	/* most came while written */
	assert_int_equal(live.n_errors, 0);
	assert_same_items(&live, &offline);
	seen_free(&live);
	seen_free(&offline);
	remove_copy(dir);
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
static const char *empty_copy(const char *src, const char *name, char *buf,
			      size_t len)
{
	char cmd[1024];

	follow_dir(name, buf, len);
	snprintf(cmd, sizeof(cmd), "cp -r '%s' '%s' && truncate -s 0 '%s'/channel0_*",
		 src, buf, buf);
	assert_int_equal(system(cmd), 0);
	return buf;
}

void follow_waits_for_whole_packets(void **state)
{
	char sbuf[256], dbuf[256], from[512], to[512];
	const char *src, *dst;
	struct seen_list l = { 0 };
	struct ltt_trace *t;
	off_t size;

	(void)state;
	src = follow_dir("whole-src", sbuf, sizeof(sbuf));
	size = one_packet(src, mono_ns() + 60000000000ULL, 10);
	dst = empty_copy(src, "whole", dbuf, sizeof(dbuf));
	snprintf(from, sizeof(from), "%s/channel0_0", src);
	snprintf(to, sizeof(to), "%s/channel0_0", dst);
	t = ltt_trace_follow(dst, 1);
	assert_non_null(t);

	append(from, to, 0, 20);		/* part of the header */
	assert_int_equal(drain(t, &l), LTT_TRACE_WAIT);
	append(from, to, 20, size - 1);		/* all but a byte */
	assert_int_equal(drain(t, &l), LTT_TRACE_WAIT);
	assert_int_equal(l.n, 0);
	append(from, to, size - 1, size);
	assert_int_equal(drain(t, &l), LTT_TRACE_WAIT);
	assert_int_equal(l.n, 10);
	drain_end(t, &l);
	assert_int_equal(l.n, 10);
	assert_int_equal(l.n_errors, 0);
	ltt_trace_close(t);
	seen_free(&l);
	remove_copy(src);
	remove_copy(dst);
}

void follow_end_reports_a_cut_packet(void **state)
{
	char sbuf[256], dbuf[256], from[512], to[512];
	const char *src, *dst;
	struct seen_list l = { 0 };
	struct ltt_trace *t;
	off_t size;

	(void)state;
	src = follow_dir("cut-src", sbuf, sizeof(sbuf));
	size = one_packet(src, mono_ns() + 60000000000ULL, 10);
	dst = empty_copy(src, "cut", dbuf, sizeof(dbuf));
	snprintf(from, sizeof(from), "%s/channel0_0", src);
	snprintf(to, sizeof(to), "%s/channel0_0", dst);
	t = ltt_trace_follow(dst, 1);
	assert_non_null(t);
	append(from, to, 0, size - 16);
	assert_int_equal(drain(t, &l), LTT_TRACE_WAIT);
	assert_int_equal(l.n, 0);
	/* the writer died there: what is left reads as a finished trace */
	drain_end(t, &l);
	assert_true(l.n >= 8 && l.n < 10);
	assert_int_equal(l.n_errors, 1);
	assert_non_null(strstr(l.error, "truncated"));
	ltt_trace_close(t);
	seen_free(&l);
	remove_copy(src);
	remove_copy(dst);
}

void follow_holds_items_until_every_stream_is_past_them(void **state)
{
	uint64_t base = mono_ns() + 60000000000ULL;
	struct seen_list l = { 0 };
	struct ltt_trace *t;
	struct fx_writer w;
	char buf[256];
	const char *dir;

	(void)state;
	dir = follow_dir("hold", buf, sizeof(buf));
	open_writer(&w, dir, 2, 4096);
	t = ltt_trace_follow(dir, 2);
	assert_non_null(t);
	event(&w, 1, base + 100, 1);
	assert_int_equal(fx_flush(&w, 1, base + 200), 0);
	event(&w, 0, base + 300, 2);
	event(&w, 0, base + 400, 3);
	assert_int_equal(fx_flush(&w, 0, base + 450), 0);
	/* cpu 1 may still have records from 200 on: 300 waits */
	assert_int_equal(drain(t, &l), LTT_TRACE_WAIT);
	assert_int_equal(l.n, 1);
	event(&w, 1, base + 500, 4);
	assert_int_equal(fx_flush(&w, 1, base + 600), 0);
	assert_int_equal(drain(t, &l), LTT_TRACE_WAIT);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.v[2].item.ts, base + 400);
	assert_int_equal(fx_close(&w, base + 700), 0);
	drain_end(t, &l);
	assert_int_equal(l.n, 4);
	ltt_trace_close(t);
	seen_free(&l);
	remove_copy(dir);
}

void follow_waits_for_streams_not_created_yet(void **state)
{
	uint64_t base = mono_ns() + 60000000000ULL;
	char buf[256], cpu1[512], hidden[512];
	struct seen_list l = { 0 };
	struct ltt_trace *t;
	struct fx_writer w;
	const char *dir;

	(void)state;
	dir = follow_dir("late", buf, sizeof(buf));
	open_writer(&w, dir, 2, 4096);
	/* a stream file appears with its first packet */
	snprintf(cpu1, sizeof(cpu1), "%s/channel0_1", dir);
	snprintf(hidden, sizeof(hidden), "%s/later", dir);
	assert_int_equal(rename(cpu1, hidden), 0);
	t = ltt_trace_follow(dir, 2);
	assert_non_null(t);
	event(&w, 0, base + 100, 1);
	assert_int_equal(fx_flush(&w, 0, base + 200), 0);
	assert_int_equal(drain(t, &l), LTT_TRACE_WAIT);
	assert_int_equal(l.n, 0);
	event(&w, 1, base + 150, 2);
	assert_int_equal(fx_flush(&w, 1, base + 300), 0);
	assert_int_equal(rename(hidden, cpu1), 0);
	assert_int_equal(drain(t, &l), LTT_TRACE_WAIT);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[1].item.cpu, 1);
	assert_int_equal(fx_close(&w, base + 400), 0);
	drain_end(t, &l);
	ltt_trace_close(t);
	seen_free(&l);
	remove_copy(dir);
}

void follow_gives_an_item_once_it_is_old(void **state)
{
	struct seen_list l = { 0 };
	uint64_t start, waited;
	struct ltt_trace *t;
	struct fx_writer w;
	char buf[256];
	const char *dir;

	(void)state;
	dir = follow_dir("lag", buf, sizeof(buf));
	open_writer(&w, dir, 2, 4096);
	t = ltt_trace_follow(dir, 2);
	assert_non_null(t);
	/* cpu 1 says nothing: cpu 0's event goes when it is old enough */
	start = mono_ns();
	event(&w, 0, start, 1);
	assert_int_equal(fx_flush(&w, 0, start + 1), 0);
	while (drain(t, &l) == LTT_TRACE_WAIT && !l.n)
		usleep(10000);
	waited = mono_ns() - start;
	assert_int_equal(l.n, 1);
	assert_true(waited >= LTT_FOLLOW_LAG_MS * 1000000ULL);
	assert_true(waited < 1000000000ULL);
	assert_int_equal(fx_close(&w, mono_ns()), 0);
	drain_end(t, &l);
	ltt_trace_close(t);
	seen_free(&l);
	remove_copy(dir);
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
	struct ltt_registry reg, kernel;
	struct seen_list l = { 0 };
	int64_t value[] = { 42 };
	struct ltt_trace *t;
	struct fx_writer w;
	char buf[256];
	const char *dir;

	(void)state;
	dir = follow_dir("metadata", buf, sizeof(buf));
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_registry_add_custom(&reg, 1), 0);
	assert_int_equal(fx_open(&w, dir, &reg, 1, 4096, FX_CLOCK_OFFSET), 0);
	/* the trace began before the custom event was created */
	assert_int_equal(fx_registry(&kernel), 0);
	replace_metadata(dir, &kernel);
	t = ltt_trace_follow(dir, 1);
	assert_non_null(t);
	event(&w, 0, base + 100, 1);
	assert_int_equal(fx_event(&w, 0, base + 200, "custom_0", value, NULL), 0);
	assert_int_equal(fx_flush(&w, 0, base + 300), 0);
	assert_int_equal(drain(t, &l), LTT_TRACE_WAIT);
	assert_int_equal(l.n, 1);
	replace_metadata(dir, &w.reg);
	assert_int_equal(drain(t, &l), LTT_TRACE_WAIT);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[1].name, "custom_0");
	assert_int_equal(l.v[1].f[0], 42);
	assert_int_equal(fx_close(&w, base + 400), 0);
	drain_end(t, &l);
	assert_int_equal(l.n_errors, 0);
	ltt_trace_close(t);
	ltt_registry_free(&kernel);
	seen_free(&l);
	remove_copy(dir);
}

void follow_tells_whether_the_writer_is_done(void **state)
{
	struct ltt_trace *t;
	struct fx_writer w;
	char buf[256];
	const char *dir;

	(void)state;
	dir = follow_dir("writer", buf, sizeof(buf));
	open_writer(&w, dir, 2, 4096);
	t = ltt_trace_follow(dir, 2);
	assert_non_null(t);
	assert_int_equal(ltt_trace_writing(t), 1);
	assert_int_equal(fx_close(&w, 1), 0);
	assert_int_equal(ltt_trace_writing(t), 0);
	ltt_trace_close(t);
	remove_copy(dir);
}
