// SPDX-License-Identifier: GPL-2.0
/*
 * The packet index and seeking: the index the writer makes (as lttd
 * does) lists the packets; ltt_trace_seek() gives what the whole read
 * gives from the same time, names included, with the index, without it
 * and with it damaged (which the seek does not read: it reads the
 * records before the time for their names); ltt_trace_time_range(),
 * which warns of a damaged index.
 */
#include <endian.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "writer.h"

#define IDX_HDR		16
#define IDX_ENTRY	72

/* A trace of many 4 KiB packets on 2 CPUs, with losses; its directory. */
static const char *make_trace(char *dir, size_t len, bool with_index)
{
	struct ltt_registry reg;
	struct fx_writer w;
	uint64_t t = FX_T0, n;
	unsigned int cpu;

	snprintf(dir, len, "%s/ltt-index-XXXXXX", getenv("TMPDIR") ?: "/tmp");
	assert_non_null(mkdtemp(dir));
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_open(&w, dir, &reg, 2, 4096, FX_CLOCK_OFFSET), 0);
	if (with_index)
		assert_int_equal(fx_write_index(&w, dir), 0);
	for (cpu = 0; cpu < 2; cpu++) {
		int64_t dump[] = { 100 + cpu, 100 + cpu, 1 };

		fx_set_pid(&w, cpu, 100 + cpu);
		assert_int_equal(fx_event(&w, cpu, t, "statedump_process", dump,
					  cpu ? "worker" : "shell"), 0);
	}
	for (n = 0; n < 6000; n++) {
		int64_t entry[] = { 39, 0x401000 + n }, ret[] = { (int64_t)n };

		cpu = n % 3 == 0;
		t += 100 + n % 7 * 50;
		if (n % 2)
			assert_int_equal(fx_event(&w, cpu, t, "syscall_exit",
						  ret, NULL), 0);
		else
			assert_int_equal(fx_event(&w, cpu, t, "syscall_entry",
						  entry, NULL), 0);
		if (n % 1500 == 700)
			assert_int_equal(fx_lose(&w, cpu, t + 1, 5), 0);
	}
	assert_int_equal(fx_close(&w, t + 1000), 0);
	return dir;
}

static void remove_trace(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Every item of @dir from @ts on: seeking (@seek) or read whole and cut. */
static void read_from(const char *dir, uint64_t ts, bool seek,
		      struct seen_list *l, unsigned int *warnings)
{
	struct ltt_trace *t = ltt_trace_open(dir);
	const struct ltt_item *it;

	assert_non_null(t);
	memset(l, 0, sizeof(*l));
	if (seek)
		assert_int_equal(ltt_trace_seek(t, ts), 0);
	while (ltt_trace_next(t, &it) > 0)
		if (it->ts >= ts)
			seen_add(l, t, it);
	seen_errors(l, t);
	*warnings = ltt_trace_n_warnings(t);
	ltt_trace_close(t);
}

/* The items of two reads are the same, and so are their tasks' names. */
static void assert_same_items(const struct seen_list *a,
			      const struct seen_list *b)
{
	size_t i;

	assert_int_equal(a->n, b->n);
	for (i = 0; i < a->n; i++) {
		assert_int_equal(a->v[i].item.kind, b->v[i].item.kind);
		assert_int_equal(a->v[i].item.ts, b->v[i].item.ts);
		assert_int_equal(a->v[i].item.cpu, b->v[i].item.cpu);
		assert_int_equal(a->v[i].item.pid, b->v[i].item.pid);
		assert_int_equal(a->v[i].item.offset, b->v[i].item.offset);
		assert_int_equal(a->v[i].item.lost_events, b->v[i].item.lost_events);
		assert_string_equal(a->v[i].name, b->v[i].name);
		assert_string_equal(a->v[i].comm, b->v[i].comm);
		assert_memory_equal(a->v[i].f, b->v[i].f, sizeof(a->v[i].f));
	}
}

/* The times a seek is tried at: around every packet's bounds, and more. */
static size_t seek_times(const char *dir, uint64_t *ts, size_t max)
{
	struct seen_list all;
	unsigned int warnings;
	size_t i, n = 0;

	read_from(dir, 0, false, &all, &warnings);
	for (i = 0; i < all.n && n + 3 <= max; i += 97) {
		ts[n++] = all.v[i].item.ts - 1;
		ts[n++] = all.v[i].item.ts;
		ts[n++] = all.v[i].item.ts + 1;
	}
	if (all.n && n + 2 <= max) {
		ts[n++] = all.v[all.n - 1].item.ts;
		ts[n++] = all.v[all.n - 1].item.ts + 1;
	}
	seen_free(&all);
	return n;
}

/*
 * The seek of @dir gives the whole read's items at every time tried,
 * and @want_warnings (0 or 1) when it reads the index (a seek to the
 * first packets reads on from the start, and no index).
 */
static void assert_seeks_match(const char *dir, unsigned int want_warnings)
{
	uint64_t ts[600];
	size_t n = seek_times(dir, ts, 600), i, warned = 0;

	assert_true(n > 50);
	for (i = 0; i < n; i++) {
		struct seen_list whole, seek;
		unsigned int w1, w2;

		read_from(dir, ts[i], false, &whole, &w1);
		read_from(dir, ts[i], true, &seek, &w2);
		assert_int_equal(seek.n_errors, 0);
		assert_int_equal(w1, 0);
		assert_true(w2 <= want_warnings);
		warned += w2;
		assert_same_items(&whole, &seek);
		seen_free(&whole);
		seen_free(&seek);
	}
	if (want_warnings)
		assert_true(warned > n / 2);
	else
		assert_int_equal(warned, 0);
}

static unsigned char *read_index(const char *dir, const char *stream,
				 size_t *size)
{
	char path[4200];
	struct stat st;
	unsigned char *b;
	int fd;

	snprintf(path, sizeof(path), "%s/index/%s.idx", dir, stream);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	b = malloc(st.st_size);
	assert_non_null(b);
	assert_int_equal(read(fd, b, st.st_size), st.st_size);
	close(fd);
	*size = st.st_size;
	return b;
}

static void write_index(const char *dir, const char *stream,
			const unsigned char *b, size_t size)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/index/%s.idx", dir, stream);
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, size), size);
	close(fd);
}

static uint64_t be64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

void index_lists_every_packet(void **state)
{
	char dir[4096], path[4200];
	struct ltt_packet_header h;
	size_t size, i, n;
	unsigned char *b;
	uint64_t off = 0;
	uint32_t v;
	int fd;

	(void)state;
	make_trace(dir, sizeof(dir), true);
	b = read_index(dir, "channel0_0", &size);
	memcpy(&v, b, 4);
	assert_int_equal(be32toh(v), 0xC1F1DCC1);	/* LTTng's CTF index */
	memcpy(&v, b + 4, 4);
	assert_int_equal(be32toh(v), 1);
	memcpy(&v, b + 8, 4);
	assert_int_equal(be32toh(v), 1);
	memcpy(&v, b + 12, 4);
	assert_int_equal(be32toh(v), IDX_ENTRY);
	assert_int_equal((size - IDX_HDR) % IDX_ENTRY, 0);
	n = (size - IDX_HDR) / IDX_ENTRY;
	assert_true(n > 10);
	snprintf(path, sizeof(path), "%s/channel0_0", dir);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	for (i = 0; i < n; i++) {
		const unsigned char *e = b + IDX_HDR + i * IDX_ENTRY;

		assert_int_equal(pread(fd, &h, sizeof(h), off), sizeof(h));
		assert_int_equal(be64_at(e), off);
		assert_int_equal(be64_at(e + 8), h.packet_size);
		assert_int_equal(be64_at(e + 16), h.content_size);
		assert_int_equal(be64_at(e + 24), h.timestamp_begin);
		assert_int_equal(be64_at(e + 32), h.timestamp_end);
		assert_int_equal(be64_at(e + 40), h.events_discarded);
		assert_int_equal(be64_at(e + 56), h.cpu_id);
		assert_int_equal(be64_at(e + 64), h.packet_seq_num);
		off += h.packet_size / 8;
	}
	/* and nothing after the last */
	assert_int_equal(pread(fd, &h, sizeof(h), off), 0);
	close(fd);
	free(b);
	remove_trace(dir);
}

void seek_reads_what_follows(void **state)
{
	char dir[4096];

	(void)state;
	make_trace(dir, sizeof(dir), true);
	assert_seeks_match(dir, 0);
	remove_trace(dir);
}

void seek_without_index_walks_the_headers(void **state)
{
	char dir[4096];

	(void)state;
	make_trace(dir, sizeof(dir), false);
	assert_seeks_match(dir, 0);
	remove_trace(dir);
}

/*
 * Every entry's times moved earlier, consistently: a seek that believed
 * them would land past the events it is asked for.
 */
void seek_with_a_lying_index_loses_nothing(void **state)
{
	char dir[4096], want[4200];
	struct seen_list l;
	unsigned int warnings;
	unsigned char *b;
	size_t size, at, n;
	uint64_t ts[600], first, last;
	struct ltt_trace *t;

	(void)state;
	make_trace(dir, sizeof(dir), true);
	b = read_index(dir, "channel0_1", &size);
	for (at = IDX_HDR; at + IDX_ENTRY <= size; at += IDX_ENTRY) {
		uint64_t v;

		v = htobe64(be64_at(b + at + 24) - 20000);
		memcpy(b + at + 24, &v, 8);
		v = htobe64(be64_at(b + at + 32) - 20000);
		memcpy(b + at + 32, &v, 8);
	}
	write_index(dir, "channel0_1", b, size);
	free(b);
	n = seek_times(dir, ts, 600);
	assert_true(n > 50);
	assert_seeks_match(dir, 0);
	/* the time range reads it: the warning names the file and says
	 * what is done instead */
	read_from(dir, ts[n - 10], true, &l, &warnings);
	seen_free(&l);
	t = ltt_trace_open(dir);
	assert_non_null(t);
	assert_int_equal(ltt_trace_seek(t, ts[n - 10]), 0);
	assert_int_equal(ltt_trace_n_warnings(t), 0);
	assert_int_equal(ltt_trace_time_range(t, &first, &last), 1);
	assert_int_equal(ltt_trace_n_warnings(t), 1);
	snprintf(want, sizeof(want), "%s/index/channel0_1.idx: ", dir);
	assert_non_null(strstr(ltt_trace_warning(t, 0), want));
	assert_non_null(strstr(ltt_trace_warning(t, 0),
			       "index ignored, the packet headers of channel0_1 are read instead"));
	assert_null(ltt_trace_warning(t, 1));
	assert_int_equal(ltt_trace_n_errors(t), 0);
	ltt_trace_close(t);
	remove_trace(dir);
}

void time_range_is_the_first_and_last_item(void **state)
{
	char dir[4096];
	struct seen_list all;
	unsigned int warnings;
	uint64_t first = 0, last = 0;
	struct ltt_trace *t;

	(void)state;
	make_trace(dir, sizeof(dir), true);
	read_from(dir, 0, false, &all, &warnings);
	t = ltt_trace_open(dir);
	assert_non_null(t);
	assert_int_equal(ltt_trace_time_range(t, &first, &last), 1);
	assert_int_equal(first, all.v[0].item.ts);
	assert_int_equal(last, all.v[all.n - 1].item.ts);
	/* and the trace still reads from its start */
	assert_int_equal(ltt_trace_next(t, &(const struct ltt_item *){ NULL }), 1);
	ltt_trace_close(t);
	seen_free(&all);
	remove_trace(dir);
}

void seek_refused_on_a_followed_trace(void **state)
{
	char dir[4096];
	struct ltt_trace *t;

	(void)state;
	make_trace(dir, sizeof(dir), true);
	t = ltt_trace_follow(dir, 2);
	assert_non_null(t);
	assert_int_equal(ltt_trace_seek(t, FX_T0), -1);
	assert_non_null(strstr(ltt_error(), "cannot seek"));
	ltt_trace_close(t);
	remove_trace(dir);
}
