// SPDX-License-Identifier: GPL-2.0
/*
 * The previous boot's image (lib/previous.c, lib/previous-write.c): a
 * good image reads and is written as a trace that reads as the one it
 * was made of; hostile ones are refused with a message naming what is
 * wrong, never read out of bounds (the tests run under ASan and UBSan),
 * and a seeded fuzz loop of mutations either reads or is refused.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/internal.h"
#include "prevboot.h"
#include "tests.h"

#define PB_FUZZ_SEED	20251202ULL
#define PB_FUZZ_CASES	3000

struct image {
	char trace[128];		/* the crash trace it was made of */
	unsigned char *data;
	size_t len;
};

static void image_make(struct image *im, const struct pb_opts *o)
{
	static const struct pb_opts none;

	snprintf(im->trace, sizeof(im->trace), "/tmp/ltt-test-%d-prevtrace",
		 getpid());
	remove_copy(im->trace);
	assert_int_equal(pb_crash_trace(im->trace), 0);
	assert_int_equal(pb_build(im->trace, o ? o : &none, &im->data,
				  &im->len), 0);
}

static void image_free(struct image *im)
{
	remove_copy(im->trace);
	free(im->data);
}

/* Read @len bytes of @data as an image through a file. */
static struct ltt_prev *image_read(const void *data, size_t len)
{
	char path[128];
	struct ltt_prev *p;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/ltt-test-%d-prev.img", getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	p = ltt_prev_load(path);
	unlink(path);
	return p;
}

/* The packet's checksum made right again after a change. */
static void reseal(struct ltt_packet_header *h)
{
	h->checksum = 0;
	h->checksum = ltt_crc32(0, h, h->content_size / 8);
}

/*
 * The image is refused, with a message that holds @what; "nothing:"
 * says it is read (the test's own check that its changes are undone).
 */
static void refused(const void *data, size_t len, const char *what)
{
	struct ltt_prev *p = image_read(data, len);

	if (p && !strncmp(what, "nothing:", 8)) {
		ltt_prev_free(p);
		return;
	}
	if (p) {
		ltt_prev_free(p);
		fail_msg("an image with %s was read", what);
	}
	if (!strstr(ltt_error(), what))
		fail_msg("refused with \"%s\", expected \"%s\"", ltt_error(), what);
}

static struct ltt_prev_header *hdr(struct image *im)
{
	return (struct ltt_prev_header *)im->data;
}

static struct ltt_prev_cpu *cpu_entry(struct image *im, unsigned int i)
{
	return (struct ltt_prev_cpu *)(im->data + hdr(im)->cpus_offset) + i;
}

void previous_crc32_is_zlibs(void **state)
{
	(void)state;
	/* the check value of CRC-32/ISO-HDLC, which zlib computes */
	assert_int_equal(ltt_crc32(0, "123456789", 9), 0xcbf43926);
	assert_int_equal(ltt_crc32(ltt_crc32(0, "1234", 4), "56789", 5),
			 0xcbf43926);
	assert_int_equal(ltt_crc32(0, "", 0), 0);
}

void previous_good_image_reads(void **state)
{
	struct image im;
	struct ltt_prev *p;
	char uuid[37];

	(void)state;
	image_make(&im, NULL);
	p = image_read(im.data, im.len);
	if (!p)
		fail_msg("refused: %s", ltt_error());
	assert_int_equal(p->hdr.n_cpus, 2);
	assert_int_equal(p->cpus[0].cpu, 0);
	assert_int_equal(p->cpus[1].cpu, 1);
	assert_true(p->cpus[0].n_packets > 1);
	assert_int_equal(p->cpus[0].open_lost, 1);
	assert_int_equal(p->cpus[1].n_damaged, 1);
	assert_string_equal(p->hdr.release, PB_RELEASE);
	assert_string_equal(p->hdr.end_message, PB_MESSAGE);
	assert_string_equal(ltt_crash_kind_name(p->hdr.end), "panic");
	ltt_uuid_format(p->hdr.boot_id, uuid);
	assert_string_equal(uuid, PB_BOOT_ID);
	assert_int_equal(p->hdr.n_modules, 2);
	assert_string_equal(p->modules[0].name, PB_MODULE);
	assert_true(ltt_registry_find(&p->reg, "crash") > 0);
	assert_int_equal(p->reg.n_events, p->hdr.n_events);
	ltt_prev_free(p);
	image_free(&im);
}

/* What the trace written of the image holds: the crash trace's items. */
void previous_written_trace_reads_as_the_original(void **state)
{
	struct seen_list a, b;
	struct image im;
	struct ltt_prev *p;
	struct ltt_trace *t;
	char dir[128], path[160], line[256];
	bool boot_id = false, end = false, module = false, cpu1 = false;
	size_t i;
	FILE *f;

	(void)state;
	image_make(&im, NULL);
	p = image_read(im.data, im.len);
	assert_non_null(p);
	snprintf(dir, sizeof(dir), "/tmp/ltt-test-%d-prevout", getpid());
	remove_copy(dir);
	if (ltt_prev_write_trace(p, dir))
		fail_msg("write: %s", ltt_error());
	/* a second time into the same directory: refused, it holds a trace */
	assert_int_equal(ltt_prev_write_trace(p, dir), -1);
	assert_non_null(strstr(ltt_error(), "holds a trace already"));
	read_all(im.trace, &a);
	read_all(dir, &b);
	assert_int_equal(b.n_errors, 0);
	assert_int_equal(a.n, b.n);
	for (i = 0; i < a.n; i++) {
		assert_int_equal(a.v[i].item.ts, b.v[i].item.ts);
		assert_int_equal(a.v[i].item.cpu, b.v[i].item.cpu);
		assert_string_equal(a.v[i].name, b.v[i].name);
		assert_memory_equal(a.v[i].f, b.v[i].f, sizeof(a.v[i].f));
		assert_string_equal(a.v[i].str, b.v[i].str);
	}
	assert_int_equal(count_events(&b, "crash", 0), 1);
	t = ltt_trace_open(dir);
	assert_non_null(t);
	assert_int_equal(ltt_trace_clock_offset(t), FX_CLOCK_OFFSET);
	assert_string_equal(ltt_trace_arch(t), PB_MACHINE);
	ltt_trace_close(t);
	snprintf(path, sizeof(path), "%s/%s", dir, LTT_PREV_FILE);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		boot_id |= !strcmp(line, "boot_id=" PB_BOOT_ID "\n");
		end |= !strcmp(line, "end=panic\n");
		module |= !strcmp(line, "module0=" PB_MODULE " 0xffffffffc0a00000 12288\n");
		cpu1 |= !strcmp(line, "cpu1.n_damaged=1\n");
	}
	fclose(f);
	assert_true(boot_id);
	assert_true(end);
	assert_true(module);
	assert_true(cpu1);
	seen_free(&a);
	seen_free(&b);
	remove_copy(dir);
	ltt_prev_free(p);
	image_free(&im);
}

void previous_refuses_truncated_images(void **state)
{
	struct image im;
	size_t cut;

	(void)state;
	image_make(&im, NULL);
	refused(im.data, 0, "empty");
	refused(im.data, 100, "truncated in the");
	refused(im.data, sizeof(struct ltt_prev_header), "the image has");
	/* every cut past the header: refused, none read out of bounds */
	for (cut = sizeof(struct ltt_prev_header); cut < im.len; cut += 997)
		refused(im.data, cut, "bytes, the image has");
	refused(im.data, im.len - 1, "the image has");
	image_free(&im);
}

void previous_refuses_a_longer_file(void **state)
{
	struct image im;
	unsigned char *more;

	(void)state;
	image_make(&im, NULL);
	more = calloc(1, im.len + 8);
	memcpy(more, im.data, im.len);
	refused(more, im.len + 8, "goes on past them");
	free(more);
	image_free(&im);
}

void previous_refuses_bad_headers(void **state)
{
	struct image im;
	struct ltt_prev_header save;

	(void)state;
	image_make(&im, NULL);
	save = *hdr(&im);
#define TRY(change, what)						\
	do {								\
		*hdr(&im) = save;					\
		change;							\
		refused(im.data, im.len, what);				\
	} while (0)
	TRY(hdr(&im)->magic = 0x12345678, "not an image");
	TRY(hdr(&im)->magic = __builtin_bswap32(LTT_PREV_MAGIC), "byte-swapped");
	TRY(hdr(&im)->version = 2, "version 2");
	TRY(hdr(&im)->header_size = 100, "header_size 100");
	TRY(hdr(&im)->n_cpus = 0, "n_cpus 0");
	TRY(hdr(&im)->n_cpus = 0xffffffff, "n_cpus 4294967295");
	TRY(hdr(&im)->n_cpus = 3, "cpu ");
	TRY(hdr(&im)->n_events = 0, "n_events 0");
	TRY(hdr(&im)->n_events = 0x7fffffff, "n_events");
	TRY(hdr(&im)->n_events = 4000, "runs past the image's end");
	TRY(hdr(&im)->event_size = 100, "event_size 100");
	TRY(hdr(&im)->event_size = 0x40000000, "runs past the image's end");
	TRY(hdr(&im)->n_modules = 1000000, "n_modules");
	TRY(hdr(&im)->n_modules = 60000, "runs past the image's end");
	TRY(hdr(&im)->subbuf_size = 0, "subbuf_size 0");
	TRY(hdr(&im)->n_subbufs = 0, "n_subbufs 0");
	TRY(hdr(&im)->build_id_size = 21, "build_id_size 21");
	TRY(hdr(&im)->size = im.len + 1, "the image has");
	TRY(hdr(&im)->size = UINT64_MAX, "the image has");
	TRY(hdr(&im)->cpus_offset = UINT64_MAX - 8, "runs past the image's end");
	TRY(hdr(&im)->cpus_offset = 8, "inside the");
	TRY(hdr(&im)->events_offset = UINT64_MAX, "runs past the image's end");
	TRY(hdr(&im)->modules_offset = im.len - 8, "runs past the image's end");
	TRY(hdr(&im)->modules_offset = hdr(&im)->events_offset, "overlap");
	TRY(memset(hdr(&im)->release, 'x', sizeof(save.release)),
	    "release is not NUL-terminated");
	TRY(memset(hdr(&im)->end_message, 'x', sizeof(save.end_message)),
	    "end_message is not NUL-terminated");
#undef TRY
	*hdr(&im) = save;
	/* an unknown end kind is told, not refused (a newer kernel's) */
	hdr(&im)->end = 99;
	{
		struct ltt_prev *p = image_read(im.data, im.len);

		assert_non_null(p);
		assert_null(ltt_crash_kind_name(p->hdr.end));
		ltt_prev_free(p);
	}
	image_free(&im);
}

void previous_refuses_bad_cpus_and_packets(void **state)
{
	struct image im;
	struct ltt_prev_cpu save0, save1;
	struct ltt_packet_header *ph, ps;

	(void)state;
	image_make(&im, NULL);
	save0 = *cpu_entry(&im, 0);
	save1 = *cpu_entry(&im, 1);
	ph = (struct ltt_packet_header *)(im.data + save0.offset);
	ps = *ph;
#define TRY(change, what)						\
	do {								\
		*cpu_entry(&im, 0) = save0;				\
		*cpu_entry(&im, 1) = save1;				\
		*ph = ps;						\
		change;							\
		refused(im.data, im.len, what);				\
	} while (0)
	TRY(cpu_entry(&im, 1)->cpu = 0, "cpu_id 1 in the packets of cpu 0");
	TRY(cpu_entry(&im, 0)->cpu = 9000, "at most");
	TRY(cpu_entry(&im, 0)->open_lost = 2, "open_lost 2");
	TRY(cpu_entry(&im, 0)->offset = UINT64_MAX - 100, "runs past the image's end");
	TRY(cpu_entry(&im, 0)->size = UINT64_MAX, "runs past the image's end");
	TRY(cpu_entry(&im, 0)->size -= 8, "the cpu's packets have");
	TRY(cpu_entry(&im, 0)->n_packets += 1, "bytes left of");
	TRY(cpu_entry(&im, 0)->n_packets -= 1, "bytes after its");
	TRY(cpu_entry(&im, 0)->n_packets = 0, "packets in");
	TRY(cpu_entry(&im, 0)->n_packets = 0xffffffff, "bytes left of");
	TRY(cpu_entry(&im, 1)->offset = save0.offset, "cpu_id 0 in the packets of cpu 1");
	TRY(ph->magic = 0, "magic 0");
	TRY(ph->stream_id = 1, "stream_id 1");
	TRY(ph->content_size = 12, "content_size 12 bits");
	TRY(ph->content_size = 8 * 8, "content_size 64 bits");
	TRY(ph->content_size = 8ULL * 8192, "content_size 65536 bits");
	TRY(ph->packet_size += 64, "packet_size");
	TRY(ph->packet_size = UINT64_MAX, "packet_size");
	TRY(ph->timestamp_end = ph->timestamp_begin - 1, "timestamp_end");
	TRY(ph->checksum ^= 1, "checksum");
	TRY(ph->events ^= 1, "its content's CRC32");
	TRY(ph->cpu_id = 1, "cpu_id 1 in the packets of cpu 0");
	/* what only the packet before tells: resealed, else the CRC says it */
	TRY(ph->packet_seq_num = 5; reseal(ph), "packet_seq_num 1 after 5");
	TRY(ph->events_discarded = 100; reseal(ph), "events_discarded 0 after 100");
	TRY(ph->timestamp_begin = ph->timestamp_end = UINT64_MAX; reseal(ph),
	    "before the previous packet's");
	TRY(reseal(ph), "nothing: a resealed packet reads");
#undef TRY
	image_free(&im);
}

/* event_size: smaller than ours (an older kernel) down to VER0, larger. */
void previous_event_sizes(void **state)
{
	const uint32_t ok[] = { LTT_EVENT_INFO_SIZE_VER0,
				LTT_EVENT_INFO_SIZE_VER0 + 8,
				sizeof(struct ltt_event_info) + 64 };
	struct pb_opts o = { 0 };
	struct image im;
	struct ltt_prev *p;
	unsigned int i;
	int crash;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		o.event_size = ok[i];
		image_make(&im, &o);
		p = image_read(im.data, im.len);
		if (!p)
			fail_msg("event_size %u: %s", ok[i], ltt_error());
		crash = ltt_registry_find(&p->reg, "crash");
		assert_true(crash > 0);
		assert_int_equal(p->reg.events[crash].n_fields, 3);
		assert_string_equal(p->reg.events[crash].fields[2].name,
				    "message");
		ltt_prev_free(p);
		image_free(&im);
	}
	o.event_size = LTT_EVENT_INFO_SIZE_VER0 - 4;
	image_make(&im, &o);
	refused(im.data, im.len, "less than the first struct ltt_event_info");
	image_free(&im);
	/* a header longer than ours (a newer kernel's): read */
	o.event_size = 0;
	o.header_size = sizeof(struct ltt_prev_header) + 40;
	image_make(&im, &o);
	p = image_read(im.data, im.len);
	if (!p)
		fail_msg("a longer header: %s", ltt_error());
	ltt_prev_free(p);
	image_free(&im);
}

void previous_refuses_bad_event_descriptions(void **state)
{
	struct image im;
	struct ltt_event_info *ei, save;
	unsigned int crash;

	(void)state;
	image_make(&im, NULL);
	ei = (struct ltt_event_info *)(im.data + hdr(&im)->events_offset);
	for (crash = 0; strcmp(ei[crash].name, "crash"); crash++)
		assert_true(crash < hdr(&im)->n_events);
	save = ei[crash];
#define TRY(change, what)						\
	do {								\
		ei[crash] = save;					\
		change;							\
		refused(im.data, im.len, what);				\
	} while (0)
	TRY(ei[crash].n_fields = 200, "fields, at most");
	TRY(ei[crash].id = 0, "ids increase");
	TRY(ei[crash].id = LTT_EVENTS_MAX, "at most");
	TRY(memset(ei[crash].name, 'a', sizeof(ei[crash].name)), "not NUL-terminated");
	TRY(strcpy(ei[crash].name, "cr-sh"), "is not an identifier");
	TRY(strcpy(ei[crash].fields[0].name, "k\"nd"), "bad name");
	TRY(ei[crash].name[0] = 0, "empty or overlong name");
	TRY(ei[crash].fields[0].size = 3, "size 3");
	TRY(ei[crash].fields[1].offset = 1, "offset 1");
	TRY(ei[crash].payload_size = 1000, "payload_size 1000");
	TRY(ei[crash].fields[2].type = 9, "unknown type 9");
	TRY(strcpy(ei[crash].name, "syscall_entry"), "defined twice");
#undef TRY
	ei[crash] = save;
	/* one description, of id 5: ids 0 to 4 are holes */
	ei[0].id = 5;
	hdr(&im)->n_events = 1;
	refused(im.data, im.len, "no event of id 0");
	image_free(&im);
}

/* splitmix64, as tests/fuzz.c's */
static uint64_t pb_rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Mutations of the good image: bit flips, bytes set, boundary values in
 * the header's and the CPU entries' integers, truncations.  Each is read
 * (ASan and UBSan watch) and either accepted or refused with a message
 * naming the image.  One accepted in eight is written as a trace, which
 * must open and read to its end.
 */
void previous_fuzz_never_crashes(void **state)
{
	static const uint64_t bounds[] = { 0, 1, 7, 8, 0x7fffffff, 0x80000000,
					   0xffffffff, 0x100000000ULL,
					   INT64_MAX, UINT64_MAX };
	struct image im;
	unsigned char *m = NULL;
	uint64_t seed = PB_FUZZ_SEED;
	unsigned int n, read_ok = 0, refused_n = 0;
	char dir[128];

	(void)state;
	image_make(&im, NULL);
	m = malloc(im.len);
	snprintf(dir, sizeof(dir), "/tmp/ltt-test-%d-prevfuzz", getpid());
	for (n = 0; n < PB_FUZZ_CASES; n++) {
		uint64_t r = pb_rnd(&seed), v;
		size_t len = im.len, at;
		struct ltt_prev *p;
		unsigned int k;

		memcpy(m, im.data, im.len);
		switch (r % 5) {
		case 0:		/* bit flips anywhere */
			for (k = 0; k < 1 + pb_rnd(&seed) % 4; k++) {
				at = pb_rnd(&seed) % len;
				m[at] ^= 1 << (pb_rnd(&seed) % 8);
			}
			break;
		case 1:		/* a header word set to a boundary value */
			at = (pb_rnd(&seed) % (sizeof(struct ltt_prev_header) / 4)) * 4;
			v = bounds[pb_rnd(&seed) % ARRAY_SIZE(bounds)];
			memcpy(m + at, &v, pb_rnd(&seed) % 2 ? 4 : 8);
			break;
		case 2:		/* a CPU entry's word */
			at = hdr(&im)->cpus_offset +
			     (pb_rnd(&seed) % (2 * sizeof(struct ltt_prev_cpu) / 4)) * 4;
			v = bounds[pb_rnd(&seed) % ARRAY_SIZE(bounds)];
			memcpy(m + at, &v, 4);
			break;
		case 3:		/* a packet header's word */
			at = cpu_entry(&im, pb_rnd(&seed) % 2)->offset +
			     (pb_rnd(&seed) % (sizeof(struct ltt_packet_header) / 4)) * 4;
			v = bounds[pb_rnd(&seed) % ARRAY_SIZE(bounds)];
			memcpy(m + at, &v, 4);
			break;
		default:	/* truncated, and maybe a byte changed */
			len = pb_rnd(&seed) % im.len;
			if (len)
				m[pb_rnd(&seed) % len] = pb_rnd(&seed);
			break;
		}
		p = image_read(m, len);
		if (!p) {
			refused_n++;
			if (!strstr(ltt_error(), "/tmp/ltt-test-"))
				fail_msg("case %u: refused without naming the image: %s",
					 n, ltt_error());
			continue;
		}
		/* what was accepted is written, and opens (some: fsync is slow) */
		if (read_ok++ % 8) {
			ltt_prev_free(p);
			continue;
		}
		remove_copy(dir);
		if (!ltt_prev_write_trace(p, dir)) {
			struct ltt_trace *t = ltt_trace_open(dir);
			const struct ltt_item *it;

			if (!t)
				fail_msg("case %u: written, not opened: %s", n,
					 ltt_error());
			while (ltt_trace_next(t, &it) > 0)
				;
			ltt_trace_close(t);
		}
		ltt_prev_free(p);
	}
	remove_copy(dir);
	/* both outcomes were met: the mutations reach the checks */
	assert_true(read_ok > 10);
	assert_true(refused_n > PB_FUZZ_CASES / 2);
	free(m);
	image_free(&im);
}
