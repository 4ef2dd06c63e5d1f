// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The packet index of a stream: where each packet starts and the times
 * it spans, so that a reader goes straight to the last packets of a
 * stream (the time range); a seek reads the records before its time for
 * their names, and does not use it.
 *
 * On disk it is LTTng's CTF index, version 1.1 (what lttng-relayd and
 * lttng-consumerd write, and babeltrace2 reads): DIR/index/STREAM.idx,
 * a header and one entry per packet, every integer big-endian, whatever
 * the trace's byte order.  The recorder appends an entry with each
 * packet it writes.
 *
 * The reader takes the index as a hint, never as the truth: entries are
 * checked against each other when the file is read, and the packets
 * read through it are checked against their own headers.  An index
 * that is missing, short or damaged costs time, not events: what it does
 * not cover is found by walking the packet headers, and a damaged one is
 * dropped with a warning naming it.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader.h"

#define CTF_INDEX_MAGIC		0xC1F1DCC1U
#define CTF_INDEX_MAJOR		1
#define CTF_INDEX_MINOR		1

struct ctf_index_hdr {
	uint32_t magic;
	uint32_t index_major;
	uint32_t index_minor;
	uint32_t packet_index_len;	/* bytes per entry */
} __attribute__((packed));

struct ctf_index_entry {
	uint64_t offset;		/* bytes */
	uint64_t packet_size;		/* bits */
	uint64_t content_size;		/* bits */
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t events_discarded;
	uint64_t stream_id;
	/* 1.1 */
	uint64_t stream_instance_id;	/* the CPU */
	uint64_t packet_seq_num;
} __attribute__((packed));

#define PKT_HDR		sizeof(struct ltt_packet_header)

int ltt_index_create(int dir_fd, const char *stream)
{
	struct ctf_index_hdr h = {
		.magic = htobe32(CTF_INDEX_MAGIC),
		.index_major = htobe32(CTF_INDEX_MAJOR),
		.index_minor = htobe32(CTF_INDEX_MINOR),
		.packet_index_len = htobe32(sizeof(struct ctf_index_entry)),
	};
	char name[96];
	int fd;

	if (mkdirat(dir_fd, "index", 0755) && errno != EEXIST)
		return -1;
	snprintf(name, sizeof(name), "index/%s.idx", stream);
	fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0644);
	if (fd < 0)
		return -1;
	if (ltt_write_all(fd, &h, sizeof(h))) {
		close(fd);
		return -1;
	}
	return fd;
}

int ltt_index_append(int fd, uint64_t offset,
		     const struct ltt_packet_header *h)
{
	struct ctf_index_entry e = {
		.offset = htobe64(offset),
		.packet_size = htobe64(h->packet_size),
		.content_size = htobe64(h->content_size),
		.timestamp_begin = htobe64(h->timestamp_begin),
		.timestamp_end = htobe64(h->timestamp_end),
		.events_discarded = htobe64(h->events_discarded),
		.stream_id = htobe64(h->stream_id),
		.stream_instance_id = htobe64(h->cpu_id),
		.packet_seq_num = htobe64(h->packet_seq_num),
	};

	return ltt_write_all(fd, &e, sizeof(e));
}

/* Room for one more entry in s->pkts. */
static int index_room(struct stream *s)
{
	struct pkt_entry *v;
	size_t n;

	if (s->n_pkts < s->pkts_room)
		return 0;
	n = s->pkts_room ? 2 * s->pkts_room : 256;
	v = realloc(s->pkts, n * sizeof(*v));
	if (!v)
		return -1;
	s->pkts = v;
	s->pkts_room = n;
	return 0;
}

/*
 * Does the entry follow the one before it (or start the stream), as
 * the packets of one CPU do?  The file's packets are back to back.
 */
static bool index_follows(const struct stream *s, const struct pkt_entry *e)
{
	const struct pkt_entry *p = s->n_pkts ? &s->pkts[s->n_pkts - 1] : NULL;

	if (e->packet_bytes < PKT_HDR || e->packet_bytes > LTT_SUBBUF_MAX ||
	    e->ts_end < e->ts_begin)
		return false;
	if (!p)
		return e->off == 0;
	return e->off == p->off + p->packet_bytes && e->seq > p->seq &&
	       e->discarded >= p->discarded && e->ts_begin >= p->ts_begin &&
	       e->ts_end >= p->ts_end &&
	       e->cpu == p->cpu;
}

/*
 * The packets after the last entry, found by walking their headers.  It
 * stops at the first header that is damaged or not whole: the decoder
 * reports that one, when it gets there.
 */
static void index_scan(struct stream *s)
{
	uint64_t off = 0;

	if (s->n_pkts)
		off = s->pkts[s->n_pkts - 1].off +
		      s->pkts[s->n_pkts - 1].packet_bytes;
	while (off + PKT_HDR <= s->size) {
		struct ltt_packet_header h;
		struct pkt_entry e;

		stream_header_at(s, off, &h);
		if (h.magic != LTT_PACKET_MAGIC || h.packet_size % 8)
			return;
		e.off = off;
		e.packet_bytes = h.packet_size / 8;
		e.ts_begin = h.timestamp_begin;
		e.ts_end = h.timestamp_end;
		e.seq = h.packet_seq_num;
		e.discarded = h.events_discarded;
		e.cpu = h.cpu_id;
		if (!index_follows(s, &e) || index_room(s))
			return;
		s->pkts[s->n_pkts++] = e;
		off += e.packet_bytes;
	}
}

/* The index is not to be trusted: say so, forget it, walk the headers. */
static void __printf(2, 3) index_drop(struct stream *s, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	trace_add_warning(s->trace, "%s/index/%s.idx: %s: index ignored, the packet headers of %s are read instead",
			  s->dir, s->file, what, s->file);
	s->n_pkts = 0;
	s->index_bad = true;
	index_scan(s);
}

/* Read DIR/index/FILE.idx into s->pkts; false when there is none. */
static bool index_read(struct stream *s)
{
	struct ctf_index_hdr h;
	struct stat st;
	char path[4096];
	unsigned char *buf;
	size_t len, i, n;
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "%s/index/%s.idx", s->dir, s->file);
	fd = trace_open_file(path, &st);
	if (fd < 0) {
		if (errno != ENOENT)
			index_drop(s, "%s", ltt_error());
		return errno != ENOENT;
	}
	/* no more than the entries of the packets the stream can hold */
	len = st.st_size;
	if (len > sizeof(h) + (s->size / PKT_HDR + 1) * 4096)
		len = sizeof(h) + (s->size / PKT_HDR + 1) * 4096;
	buf = len >= sizeof(h) ? malloc(len) : NULL;
	got = buf ? pread(fd, buf, len, 0) : -1;
	close(fd);
	if (got != (ssize_t)len || len < sizeof(h)) {
		free(buf);
		index_drop(s, "%zu bytes: no header", len);
		return true;
	}
	memcpy(&h, buf, sizeof(h));
	if (be32toh(h.magic) != CTF_INDEX_MAGIC ||
	    be32toh(h.index_major) != CTF_INDEX_MAJOR ||
	    be32toh(h.index_minor) < CTF_INDEX_MINOR ||
	    be32toh(h.packet_index_len) < sizeof(struct ctf_index_entry) ||
	    be32toh(h.packet_index_len) > 4096) {
		free(buf);
		index_drop(s, "not a CTF index 1.1 (magic %#x, version %u.%u, entries of %u bytes)",
			   be32toh(h.magic), be32toh(h.index_major),
			   be32toh(h.index_minor), be32toh(h.packet_index_len));
		return true;
	}
	n = (len - sizeof(h)) / be32toh(h.packet_index_len);
	for (i = 0; i < n; i++) {
		struct ctf_index_entry x;
		struct pkt_entry e;

		memcpy(&x, buf + sizeof(h) + i * be32toh(h.packet_index_len),
		       sizeof(x));
		e.off = be64toh(x.offset);
		e.packet_bytes = be64toh(x.packet_size) / 8;
		e.ts_begin = be64toh(x.timestamp_begin);
		e.ts_end = be64toh(x.timestamp_end);
		e.seq = be64toh(x.packet_seq_num);
		e.discarded = be64toh(x.events_discarded);
		e.cpu = be64toh(x.stream_instance_id);
		/* a packet the file does not hold (yet): the index ends here */
		if (e.off + PKT_HDR > s->size)
			break;
		if (be64toh(x.packet_size) % 8 || be64toh(x.stream_id) ||
		    be64toh(x.content_size) > be64toh(x.packet_size) ||
		    !index_follows(s, &e)) {
			free(buf);
			index_drop(s, "entry %zu (packet at offset %llu) does not follow the one before it",
				   i, (unsigned long long)e.off);
			return true;
		}
		if (index_room(s)) {
			free(buf);
			s->n_pkts = 0;
			index_scan(s);
			return true;
		}
		s->pkts[s->n_pkts++] = e;
	}
	free(buf);
	return true;
}

static bool index_entry_ok(const struct stream *s, size_t i);

void stream_index_load(struct stream *s)
{
	if (s->pkts_loaded)
		return;
	s->pkts_loaded = true;
	if (!s->map)
		return;
	/*
	 * The last entry is checked before the packets after it are looked
	 * for: they are found only if it says where they start.
	 */
	if (index_read(s) && s->n_pkts && !s->index_bad &&
	    !index_entry_ok(s, s->n_pkts - 1))
		index_drop(s, "entry %zu does not match the packet at offset %llu",
			   s->n_pkts - 1,
			   (unsigned long long)s->pkts[s->n_pkts - 1].off);
	index_scan(s);		/* what the index does not cover yet */
}

bool stream_index_verify(struct stream *s, size_t from)
{
	size_t i;

	stream_index_load(s);
	for (i = from; i < s->n_pkts; i++)
		if (!index_entry_ok(s, i)) {
			index_drop(s, "entry %zu does not match the packet at offset %llu",
				   i, (unsigned long long)s->pkts[i].off);
			return false;
		}
	return true;
}

/* Is entry @i what the stream's own header at its offset says? */
static bool index_entry_ok(const struct stream *s, size_t i)
{
	const struct pkt_entry *e = &s->pkts[i];
	struct ltt_packet_header h;

	if (e->off + PKT_HDR > s->size)
		return false;
	stream_header_at(s, e->off, &h);
	return h.magic == LTT_PACKET_MAGIC && h.packet_size / 8 == e->packet_bytes &&
	       h.timestamp_begin == e->ts_begin &&
	       h.timestamp_end == e->ts_end && h.packet_seq_num == e->seq &&
	       h.events_discarded == e->discarded && h.cpu_id == e->cpu;
}

void stream_seek_packet(struct stream *s, size_t k)
{
	s->done = false;
	s->in_packet = false;
	s->fast = false;
	s->waiting = false;
	s->last_ts = 0;
	if (!k) {
		s->seen_packet = false;
		s->pos = 0;
		stream_chain_start(s);
		return;
	}
	s->seen_packet = true;
	s->cpu = s->pkts[k - 1].cpu;
	s->seq = s->pkts[k - 1].seq;
	s->discarded = s->pkts[k - 1].discarded;
	s->ts_end = s->pkts[k - 1].ts_end;
	s->pos = s->pkts[k - 1].off + s->pkts[k - 1].packet_bytes;
}
