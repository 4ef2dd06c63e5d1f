// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One stream file of a trace: a CPU's packets, as the kernel wrote them.
 *
 * The file is mapped and decoded in place, one record per call, with no
 * allocation.  Every length read from the file is checked before use, so
 * that damage ends the stream with an error naming the file and the byte
 * offset; every step moves forward by at least one record header, so a
 * damaged file cannot make the reader loop.
 *
 * A trace from a machine of the other byte order (the metadata's
 * trace.byte_order) is read the same way, each integer swapped as it is
 * read; its payloads are copied, swapped, into the stream (s->payload).
 * The host's own order costs one predicted branch per record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader.h"

#define PKT_HDR		sizeof(struct ltt_packet_header)
#define TS_MASK		((1ULL << LTT_HDR_TS_BITS) - 1)

/* Map the first @size bytes of the file (a following reader remaps). */
static int stream_map(struct stream *s, int fd, size_t size)
{
	void *map;

	if (!size)
		return 0;
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return -1;
	madvise(map, size, MADV_SEQUENTIAL | MADV_WILLNEED);
	if (s->map)
		munmap((void *)s->map, s->size);
	s->map = map;
	s->size = size;
	return 0;
}

static void __printf(3, 4) stream_fail(struct stream *s, uint64_t off,
					const char *fmt, ...);

/* The packet header at @off as the host reads it, swapped when foreign. */
void stream_header_at(const struct stream *s, uint64_t off,
		      struct ltt_packet_header *h)
{
	memcpy(h, s->map + off, PKT_HDR);
	if (!s->swap)
		return;
	h->magic = __builtin_bswap32(h->magic);
	h->stream_id = __builtin_bswap32(h->stream_id);
	h->timestamp_begin = __builtin_bswap64(h->timestamp_begin);
	h->timestamp_end = __builtin_bswap64(h->timestamp_end);
	h->content_size = __builtin_bswap64(h->content_size);
	h->packet_size = __builtin_bswap64(h->packet_size);
	h->packet_seq_num = __builtin_bswap64(h->packet_seq_num);
	h->events_discarded = __builtin_bswap64(h->events_discarded);
	h->cpu_id = __builtin_bswap32(h->cpu_id);
	h->events = __builtin_bswap32(h->events);
	h->pid = (int32_t)__builtin_bswap32((uint32_t)h->pid);
	h->checksum = __builtin_bswap32(h->checksum);
}

/* Copy a foreign record's payload into s->payload, integers swapped. */
static void stream_swap_payload(struct stream *s,
				const struct ltt_event_desc *d,
				const unsigned char *src, uint32_t size)
{
	unsigned char *dst = s->payload;
	unsigned int i;

	memcpy(dst, src, size);
	for (i = 0; i < d->n_fields; i++) {
		const struct ltt_field_desc *f = &d->fields[i];
		unsigned char *p = dst + f->offset;
		uint16_t v16;
		uint32_t v32;
		uint64_t v64;

		switch (f->type == LTT_TYPE_STRING ? 0 : f->size) {
		case 2:
			memcpy(&v16, p, 2);
			v16 = __builtin_bswap16(v16);
			memcpy(p, &v16, 2);
			break;
		case 4:
			memcpy(&v32, p, 4);
			v32 = __builtin_bswap32(v32);
			memcpy(p, &v32, 4);
			break;
		case 8:
			memcpy(&v64, p, 8);
			v64 = __builtin_bswap64(v64);
			memcpy(p, &v64, 8);
			break;
		}
	}
}

/*
 * A file that cannot be read is a stream damaged at offset 0: an error
 * of its own, and the other streams go on.  It stays in the trace, done,
 * so that a followed trace does not take it again.
 */
void stream_open(struct ltt_trace *t, struct stream *s, unsigned int part,
		 const char *file)
{
	char path[4096];
	struct stat st;
	int fd;

	memset(s, 0, sizeof(*s));
	s->trace = t;
	s->part = part;
	s->dir = t->parts[part].dir;
	s->fd = -1;
	s->swap = t->parts[part].big_endian != LTT_HOST_BIG_ENDIAN;
	snprintf(s->file, sizeof(s->file), "%s", file);
	snprintf(path, sizeof(path), "%s/%s", s->dir, file);
	fd = trace_open_file(path, &st);
	if (fd < 0) {
		stream_fail(s, 0, "%s", ltt_error());
		return;
	}
	if (stream_map(s, fd, st.st_size)) {
		stream_fail(s, 0, "mmap of %llu bytes: %s",
			    (unsigned long long)st.st_size, strerror(errno));
		close(fd);
		return;
	}
	/* a recording writes a stream with its first packet: this one lost it */
	if (!st.st_size && !t->follow)
		trace_add_warning(t, "%s: an empty stream (0 bytes): no event of it",
				  path);
	if (t->follow)
		s->fd = fd;
	else
		close(fd);
}

void stream_close(struct stream *s)
{
	if (s->map)
		munmap((void *)s->map, s->size);
	s->map = NULL;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->pkts);
	s->pkts = NULL;
}

/* The stream ends here, damaged at @off. */
static void __printf(3, 4) stream_fail(struct stream *s, uint64_t off,
				       const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	trace_add_error(s->trace, "%s/%s: offset %llu: %s", s->dir,
			s->file, (unsigned long long)off, what);
	s->done = true;
	s->fast = false;
}

/* Check a packet header against the format and the stream's history. */
static int stream_check_header(struct stream *s,
			       const struct ltt_packet_header *h)
{
	uint64_t off = s->pos, content = h->content_size / 8;
	unsigned long long u;

	if (h->magic == __builtin_bswap32(LTT_PACKET_MAGIC)) {
		const char *md = s->trace->md.big_endian ? "big" : "little";
		const char *file = s->trace->md.big_endian ? "little" : "big";

		stream_fail(s, off, "packet magic %#x is LTT_PACKET_MAGIC byte-swapped: this stream is %s-endian, its metadata says %s-endian (byte_order = %s)",
			    h->magic, file, md,
			    s->trace->md.big_endian ? "be" : "le");
		return -1;
	}
	if (h->magic != LTT_PACKET_MAGIC) {
		stream_fail(s, off, "bad packet magic %#x, expected %#x",
			    h->magic, LTT_PACKET_MAGIC);
		return -1;
	}
	if (h->stream_id) {
		stream_fail(s, off + 4, "stream_id %u, expected 0", h->stream_id);
		return -1;
	}
	if (h->content_size % 8 || content < PKT_HDR ||
	    content > LTT_SUBBUF_MAX) {
		u = h->content_size;
		stream_fail(s, off + 24, "bad content_size %llu bits", u);
		return -1;
	}
	if (h->packet_size != ((content + 7) & ~7ULL) * 8) {
		u = h->packet_size;
		stream_fail(s, off + 32,
			    "packet_size %llu bits, expected content_size %llu rounded up to 8 bytes",
			    u, (unsigned long long)h->content_size);
		return -1;
	}
	if (h->timestamp_end < h->timestamp_begin) {
		stream_fail(s, off + 16, "timestamp_end %llu before timestamp_begin %llu",
			    (unsigned long long)h->timestamp_end,
			    (unsigned long long)h->timestamp_begin);
		return -1;
	}
	if (h->cpu_id >= LTT_CPUS_MAX) {
		stream_fail(s, off + 56, "cpu_id %u: a kernel has at most %u CPUs",
			    h->cpu_id, LTT_CPUS_MAX);
		return -1;
	}
	if (!s->seen_packet)
		return 0;
	if (h->cpu_id != s->cpu) {
		stream_fail(s, off + 56, "cpu_id %u in the stream of cpu %u",
			    h->cpu_id, s->cpu);
		return -1;
	}
	if (h->packet_seq_num <= s->seq) {
		stream_fail(s, off + 40, "packet_seq_num %llu after %llu",
			    (unsigned long long)h->packet_seq_num,
			    (unsigned long long)s->seq);
		return -1;
	}
	if (h->events_discarded < s->discarded) {
		stream_fail(s, off + 48, "events_discarded %llu after %llu: it never decreases",
			    (unsigned long long)h->events_discarded,
			    (unsigned long long)s->discarded);
		return -1;
	}
	if (h->timestamp_begin < s->last_ts) {
		stream_fail(s, off + 8, "timestamp_begin %llu before the previous record at %llu",
			    (unsigned long long)h->timestamp_begin,
			    (unsigned long long)s->last_ts);
		return -1;
	}
	return 0;
}

/*
 * A snapshot's stream starts where the same CPU's stream of the snapshot
 * before it ended: what is lost between them is counted from there.
 */
void stream_chain_start(struct stream *s)
{
	if (!s->chained)
		return;
	s->seen_packet = true;
	s->cpu = s->chain.cpu;
	s->seq = s->chain.seq;
	s->discarded = s->chain.discarded;
	s->ts_end = s->chain.ts_end;
	s->last_ts = s->chain.ts_end;
}

/*
 * A packet an earlier snapshot holds already (its ring had not
 * overwritten it yet): skipped, its header checked as far as its size.
 */
static bool stream_repeated(struct stream *s, const struct ltt_packet_header *h)
{
	uint64_t size = h->packet_size / 8;

	if (!s->chained || h->magic != LTT_PACKET_MAGIC ||
	    h->packet_seq_num > s->chain.seq || size < PKT_HDR ||
	    size > s->size - s->pos)
		return false;
	stream_chain_start(s);
	s->pos += size;
	return true;
}

/*
 * Open the packet at s->pos.  Returns 1 when it starts with lost events
 * (s->item is that LOST item), 0 when its records follow, 2 when it was
 * skipped (repeated), -1 on damage.
 */
static int stream_open_packet(struct stream *s)
{
	struct ltt_packet_header h;
	uint64_t left = s->size - s->pos, lost, lost_packets;

	if (left < PKT_HDR) {
		stream_fail(s, s->pos, "truncated packet header: %llu of %zu bytes",
			    (unsigned long long)left, PKT_HDR);
		return -1;
	}
	stream_header_at(s, s->pos, &h);
	if (stream_repeated(s, &h))
		return 2;
	if (stream_check_header(s, &h))
		return -1;

	s->pkt = s->pos;
	s->packet_end = s->pos + h.packet_size / 8;
	s->content_end = s->pos + h.content_size / 8;
	s->truncated = s->packet_end > s->size;
	if (s->truncated) {
		s->packet_end = s->size;
		if (s->content_end > s->size)
			s->content_end = s->size;
	}
	s->pkt_events = h.events;
	s->n_decoded = 0;
	s->ts_end = h.timestamp_end;
	s->pid = h.pid;
	s->in_packet = true;
	s->fast = !s->swap;
	s->pos += PKT_HDR;

	if (s->seen_packet) {
		lost = h.events_discarded - s->discarded;
		lost_packets = h.packet_seq_num - s->seq - 1;
		s->item.lost_from = s->last_ts;
	} else {
		lost = h.events_discarded;
		lost_packets = h.packet_seq_num;
		s->item.lost_from = 0;
		s->cpu = h.cpu_id;
	}
	s->seen_packet = true;
	s->seq = h.packet_seq_num;
	s->discarded = h.events_discarded;
	s->last_ts = h.timestamp_begin;
	if (!lost && !lost_packets)
		return 0;

	s->item.kind = LTT_ITEM_LOST;
	s->item.cpu = s->cpu;
	s->item.ts = h.timestamp_begin;
	s->item.pid = h.pid;
	s->item.desc = NULL;
	s->item.payload = NULL;
	s->item.size = 0;
	s->item.lost_events = lost;
	s->item.lost_packets = lost_packets;
	s->item.offset = s->pkt;
	return 1;
}

/* Give back the mapping's pages at least this far behind the reader. */
#define STREAM_RELEASE_STEP	(4U << 20)

/*
 * The pages of the packets read are dropped from the mapping as the
 * reader moves on (a seek back maps them again from the file): memory
 * stays bounded whatever the size of the trace.
 */
static void stream_release(struct stream *s)
{
	uint64_t end = s->pos & ~(uint64_t)(STREAM_RELEASE_STEP - 1);

	if (end <= s->released || end > s->size)
		return;
	madvise((void *)(s->map + s->released), end - s->released,
		MADV_DONTNEED);
	s->released = end;
}

/* The packet's records are all read: check their count, go to the next. */
static int stream_close_packet(struct stream *s)
{
	if (s->truncated) {
		stream_fail(s, s->pos,
			    "truncated: the packet at offset %llu is cut by the end of the file",
			    (unsigned long long)s->pkt);
		return -1;
	}
	if (s->n_decoded != s->pkt_events) {
		stream_fail(s, s->pos, "%u records in the packet at offset %llu, its header says %u",
			    s->n_decoded, (unsigned long long)s->pkt,
			    s->pkt_events);
		return -1;
	}
	s->pos = s->packet_end;
	s->in_packet = false;
	s->fast = false;
	stream_release(s);
	return 0;
}

/* Report a record that does not fit in what is left of the packet. */
static void stream_fail_short(struct stream *s, const char *what,
			      uint64_t need)
{
	if (s->truncated)
		stream_fail(s, s->pos, "truncated: %s needs %llu bytes, the file ends at %zu",
			    what, (unsigned long long)need, s->size);
	else
		stream_fail(s, s->pos, "%s of %llu bytes crosses the packet's content end %llu",
			    what, (unsigned long long)need,
			    (unsigned long long)s->content_end);
}

/*
 * Decode the record at s->pos into s->item: 0, 1 to wait (following), -1.
 * Inlined twice, with @swap a constant: the host's byte order runs the
 * code it ran before other orders were read.
 */
static inline __attribute__((always_inline)) int
stream_decode_order(struct stream *s, const bool swap)
{
	const struct ltt_registry *reg = &s->trace->md.reg;
	const unsigned char *p = s->map + s->pos;
	uint64_t avail = s->content_end - s->pos, ts, left, slen = 0;
	const struct ltt_event_desc *d;
	unsigned int hdr;
	uint32_t w, id;

	if (avail < LTT_HDR_COMPACT_SIZE) {
		stream_fail_short(s, "a record header", LTT_HDR_COMPACT_SIZE);
		return -1;
	}
	memcpy(&w, p, sizeof(w));
	if (swap)
		w = __builtin_bswap32(w);
	id = w & LTT_HDR_ID_EXTENDED;
	if (id == LTT_HDR_ID_EXTENDED) {
		uint16_t id16;

		if (avail < LTT_HDR_EXTENDED_SIZE) {
			stream_fail_short(s, "an extended record header",
					  LTT_HDR_EXTENDED_SIZE);
			return -1;
		}
		memcpy(&id16, p + 4, sizeof(id16));
		memcpy(&ts, p + 6, sizeof(ts));
		if (swap) {
			id16 = __builtin_bswap16(id16);
			ts = __builtin_bswap64(ts);
		}
		id = id16;
		hdr = LTT_HDR_EXTENDED_SIZE;
		if (ts < s->last_ts) {
			stream_fail(s, s->pos, "timestamp %llu before the previous %llu",
				    (unsigned long long)ts,
				    (unsigned long long)s->last_ts);
			return -1;
		}
	} else {
		ts = (s->last_ts & ~TS_MASK) | (w >> LTT_HDR_ID_BITS);
		if (ts < s->last_ts)
			ts += 1ULL << LTT_HDR_TS_BITS;
		hdr = LTT_HDR_COMPACT_SIZE;
	}
	if (id >= reg->n_events) {
		/* a custom event the rewritten metadata will describe */
		if (s->trace->follow) {
			s->waiting = true;
			return 1;
		}
		stream_fail(s, s->pos, "unknown event id %u (the metadata has %u)",
			    id, reg->n_events);
		return -1;
	}
	if (ts > s->ts_end) {
		stream_fail(s, s->pos, "record at %llu after the packet's timestamp_end %llu",
			    (unsigned long long)ts,
			    (unsigned long long)s->ts_end);
		return -1;
	}
	d = &reg->events[id];
	left = avail - hdr;
	if (left < d->payload_size) {
		stream_fail_short(s, d->name, hdr + d->payload_size);
		return -1;
	}
	if (d->has_string) {
		const unsigned char *str = p + hdr + d->payload_size;
		uint64_t room = left - d->payload_size;
		const unsigned char *nul;

		if (room > LTT_STRING_MAX)
			room = LTT_STRING_MAX;
		nul = memchr(str, '\0', room);
		if (!nul) {
			if (room == LTT_STRING_MAX)
				stream_fail(s, s->pos, "%s: a string longer than %u characters (LTT_STRING_MAX: %u bytes with the NUL)",
					    d->name, LTT_STRING_MAX - 1,
					    LTT_STRING_MAX);
			else if (s->truncated)
				stream_fail_short(s, d->name, avail + 1);
			else
				stream_fail(s, s->pos, "%s: its string has no NUL before the packet's content end %llu",
					    d->name,
					    (unsigned long long)s->content_end);
			return -1;
		}
		slen = nul - str + 1;
	}

	s->item.kind = LTT_ITEM_EVENT;
	s->item.cpu = s->cpu;
	s->item.ts = ts;
	s->item.pid = s->pid;
	s->item.desc = d;
	s->item.payload = p + hdr;
	s->item.size = d->payload_size + slen;
	if (swap) {
		stream_swap_payload(s, d, p + hdr, s->item.size);
		s->item.payload = s->payload;
	}
	s->item.offset = s->pos;
	if ((int)id == s->trace->sched_change)
		s->pid = ltt_item_int(&s->item, s->trace->sched_in);
	s->last_ts = ts;
	s->pos += hdr + s->item.size;
	s->n_decoded++;
	return 0;
}

static __attribute__((noinline)) int stream_decode_swapped(struct stream *s)
{
	return stream_decode_order(s, true);
}

static int stream_decode(struct stream *s)
{
	if (s->swap)
		return stream_decode_swapped(s);
	return stream_decode_order(s, false);
}

/*
 * Only a stream whose item was consumed is remapped: no pointer into the
 * old mapping survives.
 */
bool stream_grow(struct stream *s)
{
	struct stat st;

	if (s->fd < 0 || fstat(s->fd, &st) || (size_t)st.st_size <= s->size)
		return false;
	if (stream_map(s, s->fd, st.st_size)) {
		stream_fail(s, s->size, "mmap of %llu bytes: %s",
			    (unsigned long long)st.st_size, strerror(errno));
		return true;
	}
	return true;
}

/* Following: is the packet at s->pos whole in the file yet? */
static bool stream_packet_whole(const struct stream *s)
{
	struct ltt_packet_header h;
	uint64_t left = s->size - s->pos;

	if (left < PKT_HDR)
		return false;
	stream_header_at(s, s->pos, &h);
	return h.packet_size / 8 <= left;
}

void stream_advance(struct stream *s)
{
	s->item.file = s->file;
	s->waiting = false;
	while (!s->done) {
		if (!s->in_packet) {
			/* a followed file grows: look at its size again */
			if (s->fd >= 0 && !stream_packet_whole(s) &&
			    stream_grow(s))
				continue;
			/* the writer appends whole packets: wait for the rest */
			if (s->trace->follow && !stream_packet_whole(s)) {
				s->waiting = true;
				return;
			}
			if (s->pos >= s->size) {
				s->done = true;
				return;
			}
			switch (stream_open_packet(s)) {
			case 1:
				return;
			case -1:
				return;
			case 2:
				continue;
			}
		}
		if (s->pos >= s->content_end) {
			if (stream_close_packet(s))
				return;
			continue;
		}
		stream_decode(s);
		return;
	}
}

/*
 * A packet's records are never older than the end of the packet before
 * it (the kernel closes a packet with the time of the record that opens
 * the next), and records in a packet are in time order.
 */
uint64_t stream_horizon(const struct stream *s)
{
	if (s->in_packet)
		return s->last_ts;
	return s->seen_packet ? s->ts_end : 0;
}
