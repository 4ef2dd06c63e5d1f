// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The previous boot's trace: the image LTT_CMD_PREVIOUS_BOOT gives
 * (struct ltt_prev_header and what its offsets locate), read whole,
 * checked as untrusted input, and written as a trace directory like the
 * recorder's.
 *
 * The kernel checked the packets it kept, but the image may as well come
 * from a file (a test, a copy sent in a bug report), and the kernel that
 * made it may be a newer one: every number is checked before it is used,
 * with overflow-safe arithmetic, and the first thing wrong fails the
 * read with a message that says what and where.  The arrays are copied
 * out (memcpy: an offset need not be aligned), packets are written from
 * the image as they are.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define PKT_HDR		sizeof(struct ltt_packet_header)
/* More modules than any kernel loads: a count past it is damage. */
#define PREV_MODULES_MAX	65536U
/* The first read: the header, and more of the image if it comes. */
#define PREV_FIRST_READ		(64U << 10)


static const char *const crash_kinds[] = {
	[LTT_CRASH_NONE]	= "none",
	[LTT_CRASH_PANIC]	= "panic",
	[LTT_CRASH_OOPS]	= "oops",
	[LTT_CRASH_WARN]	= "warn",
	[LTT_CRASH_EMERGENCY]	= "emergency-restart",
	[LTT_CRASH_RESTART]	= "restart",
	[LTT_CRASH_HALT]	= "halt",
	[LTT_CRASH_POWER_OFF]	= "power-off",
};

const char *ltt_crash_kind_name(unsigned int kind)
{
	return kind < ARRAY_SIZE(crash_kinds) ? crash_kinds[kind] : NULL;
}

void ltt_uuid_format(const uint8_t uuid[16], char buf[37])
{
	unsigned int i;
	char *p = buf;

	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		p += sprintf(p, "%02x", uuid[i]);
	}
}

/* zlib's CRC32, a byte at a time through a table made on the stack. */
uint32_t ltt_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t table[256];
	unsigned int i, k;

	for (i = 0; i < 256; i++) {
		uint32_t c = i;

		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320U ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* What is being read: the image, its name, and its header. */
struct prev_ctx {
	const char *name;
	const unsigned char *img;
	uint64_t size;
	bool more;			/* the file goes on past @size */
	struct ltt_prev *p;
};

/* A part of the image, for the overlap check. */
struct prev_part {
	uint64_t from, to;
	char what[48];
};

/*
 * [@off, @off + @n * @each) within the image and past its header: the
 * end in *@end.  Fails naming @what.
 */
static int prev_range(const struct prev_ctx *c, const char *what,
		      uint64_t off, uint64_t n, uint64_t each, uint64_t *end)
{
	uint64_t bytes;

	if (__builtin_mul_overflow(n, each, &bytes) ||
	    __builtin_add_overflow(off, bytes, end) || *end > c->size)
		return ltt_fail("%s: %s at offset %" PRIu64 ", %" PRIu64 " x %" PRIu64 " bytes, runs past the image's end at %" PRIu64,
				c->name, what, off, n, each, c->size);
	if (bytes && off < c->p->hdr.header_size)
		return ltt_fail("%s: %s at offset %" PRIu64 " is inside the %u-byte header",
				c->name, what, off, c->p->hdr.header_size);
	return 0;
}

/* A char array of the header is a NUL-terminated string. */
static int prev_string(const struct prev_ctx *c, const char *what,
		       const char *s, size_t size)
{
	if (!memchr(s, '\0', size))
		return ltt_fail("%s: header: %s is not NUL-terminated within its %zu bytes",
				c->name, what, size);
	return 0;
}

/* Magic, version, sizes and counts of the header. */
static int prev_check_header(struct prev_ctx *c)
{
	const struct ltt_prev_header *h = &c->p->hdr;

	if (h->magic == __builtin_bswap32(LTT_PREV_MAGIC))
		return ltt_fail("%s: magic %#x is LTT_PREV_MAGIC byte-swapped: an image of a machine of the other byte order",
				c->name, h->magic);
	if (h->magic != LTT_PREV_MAGIC)
		return ltt_fail("%s: magic %#x, expected %#x (\"LTTP\"): not an image of the previous boot's trace",
				c->name, h->magic, LTT_PREV_MAGIC);
	if (h->version != LTT_PREV_VERSION)
		return ltt_fail("%s: version %u, this libltt reads version %u",
				c->name, h->version, LTT_PREV_VERSION);
	if (h->header_size < sizeof(*h))
		return ltt_fail("%s: header_size %u, at least %zu expected",
				c->name, h->header_size, sizeof(*h));
	if (c->more)
		return ltt_fail("%s: the header says %" PRIu64 " bytes, the image goes on past them",
				c->name, (uint64_t)h->size);
	if (h->size != c->size)
		return ltt_fail("%s: the header says %" PRIu64 " bytes, the image has %" PRIu64,
				c->name, (uint64_t)h->size, c->size);
	if (h->header_size > c->size)
		return ltt_fail("%s: header_size %u, the image has %" PRIu64 " bytes",
				c->name, h->header_size, c->size);
	if (!h->n_cpus || h->n_cpus > LTT_CPUS_MAX)
		return ltt_fail("%s: n_cpus %u, expected 1 to %u", c->name,
				h->n_cpus, LTT_CPUS_MAX);
	if (!h->n_events || h->n_events > LTT_EVENTS_MAX)
		return ltt_fail("%s: n_events %u, expected 1 to %u", c->name,
				h->n_events, LTT_EVENTS_MAX);
	if (h->event_size < LTT_EVENT_INFO_SIZE_VER0)
		return ltt_fail("%s: event_size %u, less than the first struct ltt_event_info (%u bytes)",
				c->name, h->event_size, LTT_EVENT_INFO_SIZE_VER0);
	if (h->n_modules > PREV_MODULES_MAX)
		return ltt_fail("%s: n_modules %u, at most %u", c->name,
				h->n_modules, PREV_MODULES_MAX);
	if (h->subbuf_size < LTT_SUBBUF_MIN || h->subbuf_size > LTT_SUBBUF_MAX)
		return ltt_fail("%s: subbuf_size %u, expected %u to %u",
				c->name, h->subbuf_size, LTT_SUBBUF_MIN,
				LTT_SUBBUF_MAX);
	if (!h->n_subbufs || h->n_subbufs > LTT_SUBBUFS_MAX)
		return ltt_fail("%s: n_subbufs %u, expected 1 to %u", c->name,
				h->n_subbufs, LTT_SUBBUFS_MAX);
	if (h->build_id_size > sizeof(h->build_id))
		return ltt_fail("%s: build_id_size %u, at most %zu", c->name,
				h->build_id_size, sizeof(h->build_id));
	if (prev_string(c, "release", h->release, sizeof(h->release)) ||
	    prev_string(c, "kversion", h->kversion, sizeof(h->kversion)) ||
	    prev_string(c, "machine", h->machine, sizeof(h->machine)) ||
	    prev_string(c, "end_message", h->end_message,
			sizeof(h->end_message)))
		return -1;
	return 0;
}

/* The event descriptions, into the registry (ids increasing). */
static int prev_read_events(struct prev_ctx *c)
{
	const struct ltt_prev_header *h = &c->p->hdr;
	size_t take = h->event_size < sizeof(struct ltt_event_info) ?
		      h->event_size : sizeof(struct ltt_event_info);
	struct ltt_event_info ei;
	uint64_t end;
	unsigned int i;

	if (prev_range(c, "the event descriptions", h->events_offset,
		       h->n_events, h->event_size, &end))
		return -1;
	for (i = 0; i < h->n_events; i++) {
		memset(&ei, 0, sizeof(ei));
		memcpy(&ei, c->img + h->events_offset +
			    (uint64_t)i * h->event_size, take);
		if (ltt_registry_add_info(&c->p->reg, &ei)) {
			char why[400];

			snprintf(why, sizeof(why), "%s", ltt_error());
			return ltt_fail("%s: event description %u: %s",
					c->name, i, why);
		}
	}
	if (c->p->reg.events[0].id != 0 || !c->p->reg.events[0].name[0])
		return ltt_fail("%s: no event of id 0: the kernel's events start there",
				c->name);
	return 0;
}

static int prev_read_modules(struct prev_ctx *c)
{
	const struct ltt_prev_header *h = &c->p->hdr;
	struct ltt_prev_module *m;
	uint64_t end;
	unsigned int i;

	if (prev_range(c, "the modules", h->modules_offset, h->n_modules,
		       sizeof(*m), &end))
		return -1;
	if (!h->n_modules)
		return 0;
	m = calloc(h->n_modules, sizeof(*m));
	if (!m)
		return ltt_fail("out of memory");
	c->p->modules = m;
	memcpy(m, c->img + h->modules_offset, h->n_modules * sizeof(*m));
	for (i = 0; i < h->n_modules; i++) {
		if (!memchr(m[i].name, '\0', sizeof(m[i].name)))
			return ltt_fail("%s: module %u: name not NUL-terminated within its %zu bytes",
					c->name, i, sizeof(m[i].name));
		if (m[i].base + m[i].size < m[i].base)
			return ltt_fail("%s: module %s: base %#" PRIx64 " and size %" PRIu64 " wrap around",
					c->name, m[i].name, (uint64_t)m[i].base,
					(uint64_t)m[i].size);
	}
	return 0;
}

/* A packet's header is possible, and follows the CPU's packet before. */
static int prev_check_packet(const struct prev_ctx *c,
			     const struct ltt_prev_cpu *cpu, unsigned int k,
			     uint64_t off, uint64_t left,
			     const struct ltt_packet_header *h,
			     const struct ltt_packet_header *before)
{
	uint64_t content = h->content_size / 8;
	char where[96];
	uint32_t sum;

	snprintf(where, sizeof(where), "%s: cpu %u packet %u at offset %" PRIu64,
		 c->name, cpu->cpu, k, off);
	if (h->magic != LTT_PACKET_MAGIC)
		return ltt_fail("%s: magic %#x, expected %#x", where, h->magic,
				LTT_PACKET_MAGIC);
	if (h->stream_id)
		return ltt_fail("%s: stream_id %u, expected 0", where,
				h->stream_id);
	if (h->content_size % 8 || content < PKT_HDR ||
	    content > c->p->hdr.subbuf_size)
		return ltt_fail("%s: content_size %" PRIu64 " bits: not whole bytes from its %zu-byte header to the %u-byte sub-buffer",
				where, (uint64_t)h->content_size, PKT_HDR,
				c->p->hdr.subbuf_size);
	if (h->packet_size != ((content + 7) & ~7ULL) * 8)
		return ltt_fail("%s: packet_size %" PRIu64 " bits, expected content_size %" PRIu64 " rounded up to 8 bytes",
				where, (uint64_t)h->packet_size,
				(uint64_t)h->content_size);
	if (h->packet_size / 8 > left)
		return ltt_fail("%s: %" PRIu64 " bytes, the cpu's packets have %" PRIu64 " left",
				where, (uint64_t)h->packet_size / 8, left);
	if (h->cpu_id != cpu->cpu)
		return ltt_fail("%s: cpu_id %u in the packets of cpu %u", where,
				h->cpu_id, cpu->cpu);
	if (h->timestamp_end < h->timestamp_begin)
		return ltt_fail("%s: timestamp_end %" PRIu64 " before timestamp_begin %" PRIu64,
				where, (uint64_t)h->timestamp_end,
				(uint64_t)h->timestamp_begin);
	if (before && h->packet_seq_num <= before->packet_seq_num)
		return ltt_fail("%s: packet_seq_num %" PRIu64 " after %" PRIu64,
				where, (uint64_t)h->packet_seq_num,
				(uint64_t)before->packet_seq_num);
	if (before && h->events_discarded < before->events_discarded)
		return ltt_fail("%s: events_discarded %" PRIu64 " after %" PRIu64 ": it never decreases",
				where, (uint64_t)h->events_discarded,
				(uint64_t)before->events_discarded);
	if (before && h->timestamp_begin < before->timestamp_begin)
		return ltt_fail("%s: timestamp_begin %" PRIu64 " before the previous packet's %" PRIu64,
				where, (uint64_t)h->timestamp_begin,
				(uint64_t)before->timestamp_begin);
	/* the CRC of the content with the checksum field 0 */
	sum = ltt_crc32(0, c->img + off, offsetof(struct ltt_packet_header,
						  checksum));
	sum = ltt_crc32(sum, "\0\0\0\0", 4);
	sum = ltt_crc32(sum, c->img + off + PKT_HDR, content - PKT_HDR);
	if (sum != h->checksum)
		return ltt_fail("%s: checksum %#010x, its content's CRC32 is %#010x",
				where, h->checksum, sum);
	return 0;
}

/* One CPU's entry and its packets, back to back, filling its bytes. */
static int prev_check_cpu(const struct prev_ctx *c,
			  const struct ltt_prev_cpu *cpu)
{
	struct ltt_packet_header h, before;
	uint64_t end, off = cpu->offset;
	unsigned int k;
	char what[48];

	if (cpu->cpu >= LTT_CPUS_MAX)
		return ltt_fail("%s: cpu %u: a kernel has at most %u CPUs",
				c->name, cpu->cpu, LTT_CPUS_MAX);
	if (cpu->open_lost > 1)
		return ltt_fail("%s: cpu %u: open_lost %u, expected 0 or 1",
				c->name, cpu->cpu, cpu->open_lost);
	snprintf(what, sizeof(what), "cpu %u's packets", cpu->cpu);
	if (prev_range(c, what, cpu->offset, 1, cpu->size, &end))
		return -1;
	if (!cpu->n_packets != !cpu->size)
		return ltt_fail("%s: cpu %u: %u packets in %" PRIu64 " bytes",
				c->name, cpu->cpu, cpu->n_packets,
				(uint64_t)cpu->size);
	for (k = 0; k < cpu->n_packets; k++) {
		if (end - off < PKT_HDR)
			return ltt_fail("%s: cpu %u packet %u at offset %" PRIu64 ": %" PRIu64 " bytes left of %u packets' %" PRIu64 ", a packet header needs %zu",
					c->name, cpu->cpu, k, off, end - off,
					cpu->n_packets, (uint64_t)cpu->size,
					PKT_HDR);
		memcpy(&h, c->img + off, sizeof(h));
		if (prev_check_packet(c, cpu, k, off, end - off, &h,
				      k ? &before : NULL))
			return -1;
		off += h.packet_size / 8;
		before = h;
	}
	if (off != end)
		return ltt_fail("%s: cpu %u: %" PRIu64 " bytes after its %u packets, in %" PRIu64,
				c->name, cpu->cpu, end - off, cpu->n_packets,
				(uint64_t)cpu->size);
	return 0;
}

static int prev_part_cmp(const void *a, const void *b)
{
	const struct prev_part *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

/* The arrays and the CPUs' packets are apart, and each CPU is named once. */
static int prev_check_apart(const struct prev_ctx *c)
{
	const struct ltt_prev_header *h = &c->p->hdr;
	unsigned int i, n = 0;
	struct prev_part *parts = calloc(h->n_cpus + 3, sizeof(*parts));
	int ret = 0;

	if (!parts)
		return ltt_fail("out of memory");
	parts[n++] = (struct prev_part){ h->cpus_offset, h->cpus_offset +
		(uint64_t)h->n_cpus * sizeof(struct ltt_prev_cpu), "the CPUs" };
	parts[n++] = (struct prev_part){ h->events_offset, h->events_offset +
		(uint64_t)h->n_events * h->event_size, "the event descriptions" };
	parts[n++] = (struct prev_part){ h->modules_offset, h->modules_offset +
		(uint64_t)h->n_modules * sizeof(struct ltt_prev_module),
		"the modules" };
	for (i = 0; i < h->n_cpus; i++) {
		parts[n].from = c->p->cpus[i].offset;
		parts[n].to = c->p->cpus[i].offset + c->p->cpus[i].size;
		snprintf(parts[n++].what, sizeof(parts->what), "cpu %u's packets",
			 c->p->cpus[i].cpu);
	}
	qsort(parts, n, sizeof(*parts), prev_part_cmp);
	for (i = 1; i < n && !ret; i++) {
		unsigned int j;

		if (parts[i].from == parts[i].to)
			continue;
		/* the last non-empty part before this one */
		for (j = i; j-- > 0;)
			if (parts[j].from != parts[j].to)
				break;
		if (j < i && parts[j].from != parts[j].to &&
		    parts[j].to > parts[i].from)
			ret = ltt_fail("%s: %s [%" PRIu64 ", %" PRIu64 ") overlap %s [%" PRIu64 ", %" PRIu64 ")",
				       c->name, parts[i].what, parts[i].from,
				       parts[i].to, parts[j].what,
				       parts[j].from, parts[j].to);
	}
	free(parts);
	return ret;
}

static int prev_cpu_cmp(const void *a, const void *b)
{
	const struct ltt_prev_cpu *x = a, *y = b;

	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int prev_read_cpus(struct prev_ctx *c)
{
	const struct ltt_prev_header *h = &c->p->hdr;
	struct ltt_prev_cpu *cpus;
	uint64_t end;
	unsigned int i;

	if (prev_range(c, "the CPUs", h->cpus_offset, h->n_cpus,
		       sizeof(*cpus), &end))
		return -1;
	cpus = calloc(h->n_cpus, sizeof(*cpus));
	if (!cpus)
		return ltt_fail("out of memory");
	c->p->cpus = cpus;
	memcpy(cpus, c->img + h->cpus_offset, h->n_cpus * sizeof(*cpus));
	for (i = 0; i < h->n_cpus; i++)
		if (prev_check_cpu(c, &cpus[i]))
			return -1;
	/* in CPU order, each once */
	qsort(cpus, h->n_cpus, sizeof(*cpus), prev_cpu_cmp);
	for (i = 1; i < h->n_cpus; i++)
		if (cpus[i].cpu == cpus[i - 1].cpu)
			return ltt_fail("%s: cpu %u listed twice", c->name,
					cpus[i].cpu);
	return prev_check_apart(c);
}

/*
 * Read @fd to its end, or to one byte past the size its header says (a
 * hostile size costs no memory that the file does not fill); *@more: it
 * goes on past that size.  A file that does not start as an image is
 * read no further than its header.
 */
static int prev_slurp(int fd, const char *name, unsigned char **out,
		      uint64_t *len, bool *more)
{
	size_t room = PREV_FIRST_READ, used = 0, limit = SIZE_MAX - 1;
	unsigned char *buf = malloc(room), *grown;
	struct ltt_prev_header h;
	bool sized = false;
	ssize_t n;

	if (!buf)
		return ltt_fail("out of memory");
	*more = false;
	for (;;) {
		if (used == room) {
			size_t grow = room * 2 > limit + 1 ? limit + 1 : room * 2;

			grown = grow > room ? realloc(buf, grow) : NULL;
			if (!grown) {
				free(buf);
				return ltt_fail("%s: out of memory for %zu bytes",
						name, grow);
			}
			buf = grown;
			room = grow;
		}
		n = read(fd, buf + used, room - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ltt_fail_errno("%s: read", name);
			free(buf);
			return -1;
		}
		if (!n)
			break;
		used += n;
		if (!sized && used >= sizeof(h)) {
			memcpy(&h, buf, sizeof(h));
			sized = true;
			if (h.magic != LTT_PREV_MAGIC || h.size < sizeof(h))
				break;	/* refused by its header anyway */
			if (h.size < limit)
				limit = h.size;
		}
		if (used > limit) {
			*more = true;
			used = limit;
			break;
		}
	}
	if (used < sizeof(h)) {
		free(buf);
		if (!used)
			return ltt_fail("%s: empty: no image of a previous boot's trace",
					name);
		return ltt_fail("%s: %zu bytes: truncated in the %zu-byte header",
				name, used, sizeof(h));
	}
	*out = buf;
	*len = used;
	return 0;
}

static struct ltt_prev *prev_check(struct prev_ctx *c)
{
	if (prev_check_header(c) || prev_read_events(c) ||
	    prev_read_modules(c) || prev_read_cpus(c)) {
		ltt_prev_free(c->p);
		return NULL;
	}
	return c->p;
}

struct ltt_prev *ltt_prev_read(int fd, const char *name)
{
	struct prev_ctx c = { .name = name };
	unsigned char *img = NULL;
	uint64_t len = 0;
	bool more = false;

	if (prev_slurp(fd, name, &img, &len, &more))
		return NULL;
	c.p = calloc(1, sizeof(*c.p));
	if (!c.p) {
		free(img);
		ltt_fail("out of memory");
		return NULL;
	}
	c.p->image = c.img = img;
	c.size = len;
	c.more = more;
	memcpy(&c.p->hdr, img, sizeof(c.p->hdr));
	return prev_check(&c);
}

struct ltt_prev *ltt_prev_load(const char *path)
{
	struct ltt_prev *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		ltt_fail_errno("%s", path);
		return NULL;
	}
	p = ltt_prev_read(fd, path);
	close(fd);
	return p;
}

void ltt_prev_free(struct ltt_prev *p)
{
	if (!p)
		return;
	ltt_registry_free(&p->reg);
	free(p->cpus);
	free(p->modules);
	free((void *)p->image);
	free(p);
}
