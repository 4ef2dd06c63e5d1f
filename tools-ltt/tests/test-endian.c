// SPDX-License-Identifier: GPL-2.0
/*
 * Traces of the other byte order: every fixture converted by
 * tests/bswap.c (the trace a big-endian kernel would have written, or a
 * little-endian one for a big-endian fixture) reads item for item as the
 * original; a stream whose byte order contradicts the metadata is an
 * error naming the file, and the other streams are still read.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/internal.h"
#include "bswap.h"
#include "tests.h"

/* The converted copy of fixture @name (or of directory @name). */
static const char *convert(const char *from, const char *tag)
{
	static char dir[2][256];
	static unsigned int which;
	char err[4608];
	char *out = dir[which++ % 2];

	snprintf(out, sizeof(dir[0]), "/tmp/ltt-test-%d-bswap-%s", getpid(),
		 tag);
	if (bswap_trace(from, out, err, sizeof(err)))
		fail_msg("bswap_trace(%s): %s", from, err);
	return out;
}

static void assert_same_item(const struct seen *a, const struct seen *b,
			     size_t i)
{
	const struct ltt_item *x = &a->item, *y = &b->item;
	unsigned int f;

	if (x->kind != y->kind || x->cpu != y->cpu || x->ts != y->ts ||
	    x->pid != y->pid || x->size != y->size || x->offset != y->offset ||
	    x->lost_from != y->lost_from || x->lost_events != y->lost_events ||
	    x->lost_packets != y->lost_packets || strcmp(a->name, b->name) ||
	    strcmp(a->str, b->str) || strcmp(a->comm, b->comm))
		fail_msg("item %zu differs: %s cpu %u ts %llu pid %d / %s cpu %u ts %llu pid %d",
			 i, a->name, x->cpu, (unsigned long long)x->ts, x->pid,
			 b->name, y->cpu, (unsigned long long)y->ts, y->pid);
	for (f = 0; f < LTT_FIELDS_MAX; f++)
		if (a->f[f] != b->f[f])
			fail_msg("item %zu (%s): field %u is %lld, converted %lld",
				 i, a->name, f, (long long)a->f[f],
				 (long long)b->f[f]);
}

/* The fixture directories: the synthetic ones and any arch-* guest's. */
static unsigned int fixture_dirs(char names[][64], unsigned int max)
{
	DIR *d = opendir(FIXTURE(""));
	struct dirent *de;
	unsigned int n = 0;
	char path[512];

	assert_non_null(d);
	while ((de = readdir(d)) && n < max) {
		snprintf(path, sizeof(path), "%s/%s/metadata", FIXTURE(""),
			 de->d_name);
		if (de->d_name[0] != '.' && !access(path, R_OK) &&
		    strlen(de->d_name) < 64)
			memcpy(names[n++], de->d_name, strlen(de->d_name) + 1);
	}
	closedir(d);
	return n;
}

void endian_converted_fixtures_read_the_same(void **state)
{
	char names[64][64], from[512];
	unsigned int n, i;
	size_t j;

	(void)state;
	n = fixture_dirs(names, 64);
	assert_true(n >= 9);
	for (i = 0; i < n; i++) {
		struct seen_list orig, conv;
		const char *dir;

		snprintf(from, sizeof(from), "%s/%s", FIXTURE(""), names[i]);
		dir = convert(from, names[i]);
		read_all(from, &orig);
		read_all(dir, &conv);
		if (orig.n != conv.n)
			fail_msg("%s: %zu items, converted %zu", names[i],
				 orig.n, conv.n);
		for (j = 0; j < orig.n; j++)
			assert_same_item(&orig.v[j], &conv.v[j], j);
		assert_int_equal(orig.n_errors, conv.n_errors);
		seen_free(&orig);
		seen_free(&conv);
		remove_copy(dir);
	}
}

static unsigned char *slurp(const char *path, size_t *size)
{
	unsigned char *buf;
	struct stat st;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc(st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, st.st_size), st.st_size);
	close(fd);
	*size = st.st_size;
	return buf;
}

/* Converting twice gives back every stream file byte for byte. */
void endian_conversion_round_trips(void **state)
{
	static const char *const streams[] = { "channel0_0", "channel0_1" };
	const char *be, *le;
	char a[512], b[512];
	unsigned int i;

	(void)state;
	be = convert(FIXTURE("guest-mix"), "be");
	le = convert(be, "le");
	for (i = 0; i < 2; i++) {
		unsigned char *x, *y;
		size_t nx, ny;

		snprintf(a, sizeof(a), "%s/%s", FIXTURE("guest-mix"), streams[i]);
		snprintf(b, sizeof(b), "%s/%s", le, streams[i]);
		x = slurp(a, &nx);
		y = slurp(b, &ny);
		assert_int_equal(nx, ny);
		assert_memory_equal(x, y, nx);
		snprintf(b, sizeof(b), "%s/%s", be, streams[i]);
		free(y);
		y = slurp(b, &ny);
		assert_int_equal(nx, ny);
		assert_memory_not_equal(x, y, 72);	/* the packet header */
		free(x);
		free(y);
	}
	remove_copy(be);
	remove_copy(le);
}

/*
 * The metadata of a big-endian trace says so, and lays the record
 * header's bit fields out as CTF packs them in a big-endian word.
 */
void endian_metadata_of_a_big_endian_trace(void **state)
{
	const struct ltt_registry *reg;
	struct ltt_metadata md;
	struct ltt_trace *t;
	char path[512];
	unsigned char *text;
	const char *dir, *id, *ts;
	size_t len;

	(void)state;
	t = ltt_trace_open(FIXTURE("basic"));
	assert_non_null(t);
	reg = ltt_trace_registry(t);
	dir = convert(FIXTURE("basic"), "md");
	snprintf(path, sizeof(path), "%s/metadata", dir);
	text = slurp(path, &len);
	text[len] = '\0';
	assert_non_null(strstr((char *)text, "byte_order = be;"));
	/* the recording machine's env, not the converting one's */
	assert_non_null(strstr((char *)text, "\thostname = \"vm\";\n"));
	assert_non_null(strstr((char *)text, "\tarch = \"x86_64\";\n"));
	id = strstr((char *)text, "} id;");
	ts = strstr((char *)text, "uint25_clock_monotonic_t timestamp;");
	assert_true(id && ts && ts < id);
	assert_int_equal(ltt_metadata_parse((char *)text, len, path, &md), 0);
	assert_true(md.big_endian);
	assert_int_equal(md.reg.n_events, reg->n_events);
	assert_int_equal(md.clock_offset, ltt_trace_clock_offset(t));
	ltt_registry_free(&md.reg);
	free(text);
	ltt_trace_close(t);
	remove_copy(dir);
}

static void copy(const char *from, const char *to)
{
	unsigned char *buf;
	size_t n;
	int fd;

	buf = slurp(from, &n);
	fd = open(to, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, n), (ssize_t)n);
	close(fd);
	free(buf);
}

/*
 * A stream in the other order than the metadata says: its first packet
 * magic reads byte-swapped; the error names the file and both orders,
 * and the other CPU's events are all there.
 */
void endian_stream_contradicting_the_metadata(void **state)
{
	struct seen_list orig, l;
	const char *dir;
	char from[512], to[512];

	(void)state;
	read_all(FIXTURE("basic"), &orig);
	dir = convert(FIXTURE("basic"), "mixed");
	snprintf(from, sizeof(from), "%s/channel0_1", FIXTURE("basic"));
	snprintf(to, sizeof(to), "%s/channel0_1", dir);
	copy(from, to);
	read_all(dir, &l);
	assert_int_equal(l.n_errors, 1);
	assert_non_null(strstr(l.error, "/channel0_1: offset 0: "));
	assert_non_null(strstr(l.error, "byte-swapped"));
	assert_non_null(strstr(l.error, "this stream is little-endian, its metadata says big-endian"));
	assert_int_equal(count_events(&l, NULL, 1), 0);
	assert_int_equal(count_events(&l, NULL, 0),
			 count_events(&orig, NULL, 0));
	assert_true(count_events(&l, NULL, 0) > 0);
	seen_free(&l);

	/* the original streams under the converted metadata: both refused */
	snprintf(from, sizeof(from), "%s/channel0_0", FIXTURE("basic"));
	snprintf(to, sizeof(to), "%s/channel0_0", dir);
	copy(from, to);
	read_all(dir, &l);
	assert_int_equal(l.n_errors, 2);
	assert_int_equal(l.n, 0);
	seen_free(&l);
	seen_free(&orig);
	remove_copy(dir);
}

/*
 * Damage reads the same in either order: a big-endian stream cut at any
 * record gives the items and the error the little-endian one gives.
 */
void endian_damage_reads_the_same(void **state)
{
	const char *be;
	char path[512], le_dir[256], be_cut[256];
	unsigned char *le_buf, *be_buf;
	size_t size, size2, cut;

	(void)state;
	be = convert(FIXTURE("basic"), "cut-src");
	snprintf(path, sizeof(path), "%s/channel0_0", FIXTURE("basic"));
	le_buf = slurp(path, &size);
	snprintf(path, sizeof(path), "%s/channel0_0", be);
	be_buf = slurp(path, &size2);
	assert_int_equal(size, size2);
	snprintf(le_dir, sizeof(le_dir), "%s", copy_fixture("basic"));
	snprintf(be_cut, sizeof(be_cut), "%s", be);
	for (cut = 1; cut < size; cut += size / 40 + 1) {
		struct seen_list a, b;
		const char *ea, *eb;
		size_t j;
		int fd;

		snprintf(path, sizeof(path), "%s/channel0_0", le_dir);
		fd = open(path, O_WRONLY | O_TRUNC);
		assert_int_equal(write(fd, le_buf, cut), (ssize_t)cut);
		close(fd);
		snprintf(path, sizeof(path), "%s/channel0_0", be_cut);
		fd = open(path, O_WRONLY | O_TRUNC);
		assert_int_equal(write(fd, be_buf, cut), (ssize_t)cut);
		close(fd);
		read_all(le_dir, &a);
		read_all(be_cut, &b);
		assert_int_equal(a.n, b.n);
		for (j = 0; j < a.n; j++)
			assert_same_item(&a.v[j], &b.v[j], j);
		assert_int_equal(a.n_errors, b.n_errors);
		/* the same message after the directory */
		ea = strstr(a.error, "/channel0_0");
		eb = strstr(b.error, "/channel0_0");
		assert_true(a.n_errors == 0 || (ea && eb));
		if (ea)
			assert_string_equal(ea, eb);
		seen_free(&a);
		seen_free(&b);
	}
	free(le_buf);
	free(be_buf);
	remove_copy(le_dir);
	remove_copy(be);
}

/* Following a big-endian trace gives what reading it whole gives. */
void endian_follow_reads_the_same(void **state)
{
	struct seen_list orig, live;
	const struct ltt_item *it;
	struct ltt_trace *t;
	const char *dir;
	size_t j;
	int ret;

	(void)state;
	read_all(FIXTURE("guest-mix"), &orig);
	dir = convert(FIXTURE("guest-mix"), "follow");
	t = ltt_trace_follow(dir, 2);
	assert_non_null(t);
	memset(&live, 0, sizeof(live));
	while ((ret = ltt_trace_next(t, &it)) == 1)
		seen_add(&live, t, it);
	ltt_trace_follow_end(t);
	while (ltt_trace_next(t, &it) == 1)
		seen_add(&live, t, it);
	seen_errors(&live, t);
	ltt_trace_close(t);
	assert_int_equal(live.n_errors, 0);
	assert_int_equal(live.n, orig.n);
	for (j = 0; j < orig.n; j++)
		assert_same_item(&orig.v[j], &live.v[j], j);
	seen_free(&orig);
	seen_free(&live);
	remove_copy(dir);
}

/* An integer may repeat the trace's byte order; bytes have none. */
void endian_metadata_integer_byte_orders(void **state)
{
	static const char text[] =
		"/* CTF 1.8 */ trace { byte_order = be; };\n"
		"event { name = \"a\"; id = 0; fields := struct {\n"
		"\tinteger { size = 32; byte_order = be; } _x;\n"
		"\tinteger { size = 16; byte_order = network; } _n;\n"
		"\tinteger { size = 8; byte_order = le; } _y;\n"
		"\tinteger { size = 64; byte_order = native; } _z;\n"
		"}; };\n";
	struct ltt_metadata md;

	(void)state;
	assert_int_equal(ltt_metadata_parse(text, strlen(text), "M", &md), 0);
	assert_true(md.big_endian);
	assert_int_equal(md.reg.events[0].n_fields, 4);
	assert_int_equal(md.reg.events[0].payload_size, 15);
	ltt_registry_free(&md.reg);
}
