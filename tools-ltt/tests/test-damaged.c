// SPDX-License-Identifier: GPL-2.0
/*
 * Damaged copies of the basic fixture: the reader must give the readable
 * prefix and an error naming the file and the byte offset, never crash
 * and never loop.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"

#define STREAM		"channel0_0"
#define CPU1_EVENTS	FX_CPU1_EVENTS

struct damage {
	const char *dir;
	char path[512];
	unsigned char *orig;		/* channel0_0 as generated */
	size_t size;
	struct seen_list good;		/* its events, undamaged */
	size_t pkt[64];			/* packet offsets */
	unsigned int n_pkt;
};

static void damage_setup(struct damage *d)
{
	FILE *f;
	size_t off;

	memset(d, 0, sizeof(*d));
	d->dir = copy_fixture("basic");
	snprintf(d->path, sizeof(d->path), "%s/" STREAM, d->dir);
	f = fopen(d->path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	d->size = ftell(f);
	rewind(f);
	d->orig = malloc(d->size);
	assert_int_equal(fread(d->orig, 1, d->size, f), d->size);
	fclose(f);
	read_all(d->dir, &d->good);
	assert_int_equal(d->good.n_errors, 0);
	for (off = 0; off < d->size; ) {
		struct ltt_packet_header h;

		memcpy(&h, d->orig + off, sizeof(h));
		d->pkt[d->n_pkt++] = off;
		off += h.packet_size / 8;
	}
	assert_true(d->n_pkt >= 2);
}

static void damage_teardown(struct damage *d)
{
	seen_free(&d->good);
	free(d->orig);
	remove_copy(d->dir);
}

/* Write @len bytes of @data as the stream file. */
static void damage_write(struct damage *d, const unsigned char *data,
			 size_t len)
{
	int fd = open(d->path, O_WRONLY | O_TRUNC);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

/* Patch @len bytes at @off of a copy of the original. */
static void damage_patch(struct damage *d, size_t off, const void *bytes,
			 size_t len)
{
	unsigned char *copy = malloc(d->size);

	memcpy(copy, d->orig, d->size);
	memcpy(copy + off, bytes, len);
	damage_write(d, copy, d->size);
	free(copy);
}

/* Size of the record at @off of the original (header + payload). */
static size_t record_end(const struct damage *d, const struct seen *s)
{
	size_t hdr = (d->orig[s->item.offset] & 0x7f) == 0x7f ? 14 : 4;

	return s->item.offset + hdr + s->item.size;
}

/* cpu0 events of the original that end at or before @cut. */
static size_t events_before(const struct damage *d, size_t cut)
{
	size_t i, n = 0;

	for (i = 0; i < d->good.n; i++)
		if (d->good.v[i].item.cpu == 0 &&
		    record_end(d, &d->good.v[i]) <= cut)
			n++;
	return n;
}

/* Where the record cut by a truncation at @cut starts. */
static size_t first_cut_record(const struct damage *d, size_t cut)
{
	size_t i;

	for (i = 0; i < d->good.n; i++)
		if (d->good.v[i].item.cpu == 0 &&
		    record_end(d, &d->good.v[i]) > cut)
			return d->good.v[i].item.offset;
	return cut;
}

/* The first error names the stream and @off, and says @what. */
static void expect_error(const struct seen_list *l, size_t off,
			 const char *what)
{
	char want[64];

	snprintf(want, sizeof(want), "/" STREAM ": offset %zu: ", off);
	assert_int_equal(l->n_errors, 1);
	if (!strstr(l->error, want) || !strstr(l->error, what))
		fail_msg("error \"%s\", expected \"%s...%s\"", l->error, want,
			 what);
}

/* Read the damaged copy: cpu0 must give @events, cpu1 all of its own. */
static void expect_prefix(struct damage *d, size_t events, size_t off,
			  const char *what)
{
	struct seen_list l;

	read_all(d->dir, &l);
	assert_int_equal(count_events(&l, NULL, 0), events);
	assert_int_equal(count_events(&l, NULL, 1), CPU1_EVENTS);
	if (what)
		expect_error(&l, off, what);
	else
		assert_int_equal(l.n_errors, 0);
	seen_free(&l);
}

void damaged_truncated_mid_packet(void **state)
{
	struct damage d;
	size_t cut;

	(void)state;
	damage_setup(&d);
	cut = d.pkt[1] + 1000;
	damage_write(&d, d.orig, cut);
	expect_prefix(&d, events_before(&d, cut), first_cut_record(&d, cut),
		      "truncated");
	damage_teardown(&d);
}

void damaged_truncated_in_header(void **state)
{
	struct damage d;

	(void)state;
	damage_setup(&d);
	damage_write(&d, d.orig, d.pkt[1] + 10);
	expect_prefix(&d, events_before(&d, d.pkt[1]), d.pkt[1],
		      "truncated packet header");
	damage_teardown(&d);
}

void damaged_bad_magic(void **state)
{
	const uint32_t bad = 0xdeadbeef;
	struct damage d;

	(void)state;
	damage_setup(&d);
	damage_patch(&d, d.pkt[1], &bad, 4);
	expect_prefix(&d, events_before(&d, d.pkt[1]), d.pkt[1],
		      "bad packet magic 0xdeadbeef");
	damage_teardown(&d);
}

void damaged_bad_content_size(void **state)
{
	const uint64_t odd = 12345, huge = 1ULL << 40;
	struct damage d;

	(void)state;
	damage_setup(&d);
	damage_patch(&d, d.pkt[1] + 24, &odd, 8);
	expect_prefix(&d, events_before(&d, d.pkt[1]), d.pkt[1] + 24,
		      "bad content_size 12345");
	damage_patch(&d, d.pkt[1] + 24, &huge, 8);
	expect_prefix(&d, events_before(&d, d.pkt[1]), d.pkt[1] + 24,
		      "bad content_size");
	damage_teardown(&d);
}

void damaged_bad_packet_size(void **state)
{
	const uint64_t bad = 8 * 100000;
	struct damage d;

	(void)state;
	damage_setup(&d);
	damage_patch(&d, d.pkt[0] + 32, &bad, 8);
	expect_prefix(&d, 0, d.pkt[0] + 32, "packet_size 800000 bits");
	damage_teardown(&d);
}

/* The first packet names the CPU: one no kernel has is damage. */
void damaged_cpu_id_out_of_range(void **state)
{
	const uint32_t bad = 0xffffffff;
	struct damage d;

	(void)state;
	damage_setup(&d);
	damage_patch(&d, d.pkt[0] + 56, &bad, 4);
	expect_prefix(&d, 0, d.pkt[0] + 56,
		      "cpu_id 4294967295: a kernel has at most 8192 CPUs");
	damage_teardown(&d);
}

void damaged_unknown_event_id(void **state)
{
	struct damage d;
	size_t i, off = 0, n = 0;
	unsigned char b;

	(void)state;
	damage_setup(&d);
	/* the third record of cpu0 */
	for (i = 0; i < d.good.n; i++)
		if (d.good.v[i].item.cpu == 0 && ++n == 3) {
			off = d.good.v[i].item.offset;
			break;
		}
	b = (d.orig[off] & 0x80) | 100;
	damage_patch(&d, off, &b, 1);
	expect_prefix(&d, 2, off, "unknown event id 100");
	damage_teardown(&d);
}

void damaged_event_count(void **state)
{
	struct damage d;
	struct ltt_packet_header h;
	uint32_t events;

	(void)state;
	damage_setup(&d);
	memcpy(&h, d.orig, sizeof(h));
	events = h.events + 1;
	damage_patch(&d, offsetof(struct ltt_packet_header, events), &events, 4);
	expect_prefix(&d, h.events, h.content_size / 8, "its header says");
	damage_teardown(&d);
}

static bool is_packet_start(const struct damage *d, size_t off)
{
	unsigned int i;

	for (i = 0; i < d->n_pkt; i++)
		if (d->pkt[i] == off)
			return true;
	return off == d->size;
}

void damaged_every_truncation(void **state)
{
	struct damage d;
	size_t cut;

	(void)state;
	damage_setup(&d);
	for (cut = 0; cut <= d.size; cut++) {
		struct seen_list l;

		damage_write(&d, d.orig, cut);
		read_all(d.dir, &l);
		assert_int_equal(count_events(&l, NULL, 0), events_before(&d, cut));
		assert_int_equal(count_events(&l, NULL, 1), CPU1_EVENTS);
		/* clean between packets, an error anywhere else */
		assert_int_equal(l.n_errors, is_packet_start(&d, cut) ? 0 : 1);
		if (l.n_errors)
			assert_non_null(strstr(l.error, "/" STREAM ": offset "));
		seen_free(&l);
	}
	damage_teardown(&d);
}

void damaged_random_byte_flips(void **state)
{
	unsigned char *copy;
	struct damage d;
	unsigned int round, seed = 4;

	(void)state;
	damage_setup(&d);
	copy = malloc(d.size);
	for (round = 0; round < 400; round++) {
		unsigned int k, flips = 1 + rand_r(&seed) % 8;
		struct seen_list l;

		memcpy(copy, d.orig, d.size);
		for (k = 0; k < flips; k++)
			copy[rand_r(&seed) % d.size] ^= 1 + rand_r(&seed) % 255;
		damage_write(&d, copy, d.size);
		read_all(d.dir, &l);
		assert_true(count_events(&l, NULL, 0) <= d.size / 4);
		assert_int_equal(count_events(&l, NULL, 1), CPU1_EVENTS);
		assert_true(l.n_errors <= 1);
		if (l.n_errors) {
			unsigned long long off;
			const char *at = strstr(l.error, "/" STREAM ": offset ");

			if (!at || sscanf(at, "/" STREAM ": offset %llu: ", &off) != 1)
				fail_msg("error \"%s\" names no offset", l.error);
			assert_true(off <= d.size);
		}
		seen_free(&l);
	}
	free(copy);
	damage_teardown(&d);
}

/* Is there an error about @file of the trace that says @what? */
static bool has_error(const struct ltt_trace *t, const char *file,
		      const char *what)
{
	unsigned int i;

	for (i = 0; i < ltt_trace_n_errors(t); i++) {
		const char *e = ltt_trace_error(t, i), *at = strstr(e, file);

		if (at && strstr(at, ": offset 0: ") && strstr(at, what))
			return true;
	}
	return false;
}

/*
 * Opening a FIFO to read waits for a writer: a FIFO named like a stream
 * must be refused, not waited on (the alarm ends a test that waits).
 * Devices and directories too; the real streams are read.
 */
void damaged_files_that_are_not_regular(void **state)
{
	const char *dir = copy_fixture("basic");
	const struct ltt_item *it;
	struct ltt_trace *t;
	char path[512];
	size_t n = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/channel0_9", dir);
	assert_int_equal(mkfifo(path, 0644), 0);
	snprintf(path, sizeof(path), "%s/channel0_8", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/channel0_7", dir);
	assert_int_equal(symlink("/dev/null", path), 0);
	alarm(20);
	t = ltt_trace_open(dir);
	if (!t)
		fail_msg("ltt_trace_open: %s", ltt_error());
	while (ltt_trace_next(t, &it) > 0)
		n++;
	alarm(0);
	assert_int_equal(n, FX_BASIC_EVENTS);
	assert_int_equal(ltt_trace_n_errors(t), 3);
	assert_true(has_error(t, "/channel0_9", "a FIFO, not a regular file"));
	assert_true(has_error(t, "/channel0_8", "a directory, not a regular file"));
	assert_true(has_error(t, "/channel0_7", "a character device, not a regular file"));
	ltt_trace_close(t);

	/* the metadata too: no trace without it */
	snprintf(path, sizeof(path), "%s/metadata", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0644), 0);
	alarm(20);
	t = ltt_trace_open(dir);
	alarm(0);
	assert_null(t);
	if (!strstr(ltt_error(), "/metadata: a FIFO, not a regular file"))
		fail_msg("error \"%s\"", ltt_error());
	remove_copy(dir);
}

/*
 * A string with no NUL in LTT_STRING_MAX bytes is longer than the kernel
 * writes: an error naming the file, the record's offset and the limit.
 */
void damaged_string_past_the_limit(void **state)
{
	const char *dir = copy_fixture("strings");
	char text[LTT_STRING_MAX], path[512], want[128];
	unsigned char *data, *at;
	struct seen_list l;
	size_t size, rec;
	FILE *f;

	(void)state;
	fx_long_text(text);
	snprintf(path, sizeof(path), "%s/" STREAM, dir);
	f = fopen(path, "r+b");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	data = malloc(size);
	assert_int_equal(fread(data, 1, size, f), size);
	at = memmem(data, size, text, sizeof(text));	/* with its NUL */
	assert_non_null(at);
	/* the record: a compact header before the string (note has no other field) */
	rec = at - data - LTT_HDR_COMPACT_SIZE;
	at[LTT_STRING_MAX - 1] = 'x';
	rewind(f);
	assert_int_equal(fwrite(data, 1, size, f), size);
	fclose(f);
	free(data);

	read_all(dir, &l);
	/* process_exec, fs_open, fs_write before it */
	assert_int_equal(count_events(&l, NULL, 0), 3);
	snprintf(want, sizeof(want), "/" STREAM ": offset %zu: note: ", rec);
	assert_int_equal(l.n_errors, 1);
	if (!strstr(l.error, want) ||
	    !strstr(l.error, "a string longer than 255 characters (LTT_STRING_MAX: 256 bytes with the NUL)"))
		fail_msg("error \"%s\"", l.error);
	seen_free(&l);
	remove_copy(dir);
}
