/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The reader's state, shared by trace.c (the directory, the merge),
 * stream.c (one CPU's packets) and names.c (process and file names).
 */
#ifndef LTT_LIB_READER_H
#define LTT_LIB_READER_H

#include <string.h>
#include <sys/stat.h>

#include "internal.h"

/* A packet of a stream, from its index or its header (index.c). */
struct pkt_entry {
	uint64_t off;			/* in the file */
	uint64_t packet_bytes;
	uint64_t ts_begin, ts_end;
	uint64_t seq, discarded;
	uint32_t cpu;
};

/* One stream file: one CPU's packets, decoded one record at a time. */
struct stream {
	struct ltt_trace *trace;
	const char *dir;		/* its trace directory (part) */
	unsigned int part;		/* ... its index in trace->parts */
	char file[64];			/* its name in the trace directory */
	const unsigned char *map;
	size_t size;
	int fd;				/* following: kept to see it grow; else -1 */

	uint64_t released;		/* bytes of the mapping given back */
	uint64_t pos;			/* next byte to decode */
	bool in_packet;
	bool fast;			/* in_packet, in the host's byte order */
	uint64_t pkt;			/* the current packet's offset */
	uint64_t content_end;		/* ... where its records end */
	uint64_t packet_end;		/* ... where the next packet starts */
	bool truncated;			/* the file ends inside the packet */
	uint32_t pkt_events;		/* records the header announces */
	uint32_t n_decoded;		/* ... and decoded so far */
	uint64_t ts_end;		/* timestamp_end */
	uint64_t last_ts;		/* time of the last record */
	int32_t pid;			/* the task running now */

	bool seen_packet;		/* the fields below are set */
	uint32_t cpu;
	uint64_t seq;			/* of the last packet */
	uint64_t discarded;		/* ... and its events_discarded */

	bool done;
	bool waiting;			/* following: its next packet is not there yet */
	struct ltt_item item;		/* the next item, unless done or waiting */

	/*
	 * A trace of the other byte order: every integer is swapped as it
	 * is read, and an event's payload is copied here in the host's
	 * order (its item points here, not into the mapping).
	 */
	bool swap;

	/* Its packets, read on the first seek (index.c) */
	bool pkts_loaded;
	bool index_bad;			/* dropped, with a warning */
	struct pkt_entry *pkts;
	size_t n_pkts, pkts_room;

	/*
	 * A later snapshot of the same recording: it goes on from the last
	 * packet of this CPU's stream in an earlier one (@chain), and the
	 * packets it repeats (packet_seq_num up to chain.seq) are skipped.
	 */
	bool chained;
	struct pkt_entry chain;

	unsigned char payload[LTT_FIELDS_MAX * 8 + LTT_STRING_MAX];
};

/* What an event tells about processes and files (names.c). */
enum name_kind {
	COMM_SET,		/* process @a is called by the string field */
	COMM_EXEC,		/* ... by the basename of the string field */
	COMM_INHERIT,		/* process @a gets the running task's name */
	TGID_SET,		/* thread @a belongs to process @b */
	FILE_OPEN,		/* fd @b of @a (-1: the running task) is the string,
				 * close-on-exec if open flags @c say so */
	FILE_CLOSE,		/* fd @b of @a is closed */
	FILE_DUP,		/* fd @b of the running task is a copy of fd @a,
				 * close-on-exec if @c */
	FILE_INHERIT,		/* new process @a (of process @b) gets a copy of
				 * the running task's descriptors */
	FILE_EXEC,		/* process @a execs: its close-on-exec fds go */
	/* cgroups.c */
	CG_DEFINE,		/* cgroup @a (parent @b) is at the string */
	CG_REMOVE,		/* cgroup @a is removed */
	CG_ATTACH,		/* task @a moves to cgroup @b, its process too if @c */
	CG_PLACE,		/* task @a is in cgroup @b, as pid @c of pid
				 * namespace @d */
	CG_INHERIT,		/* new task @a is where the running task is */
};

struct name_rule {
	enum name_kind kind;
	int a, b, c, d;			/* field indexes; -1: none */
	struct name_rule *next;		/* more rules of the same event */
};

/* Open-addressing tables keyed by a 64-bit number. */
struct name_entry {
	uint64_t key;
	bool used;
	bool cloexec;			/* a file descriptor's FD_CLOEXEC */
	int32_t value;			/* tgid */
	char name[LTT_STRING_MAX];	/* comm or path; "" when closed */
};

struct name_table {
	struct name_entry *slot;
	size_t n_slots;			/* a power of two */
	size_t used;
};

/* Where the trace has put a task (cgroups.c). */
struct cg_task {
	int32_t pid;
	bool used;
	bool ns_known;			/* pidns and vpid */
	uint64_t cgroup;		/* its id; 0: not said */
	uint32_t pidns;
	int32_t vpid;
};

/* A cgroup the trace has told of. */
struct cg_group {
	uint64_t id;
	bool used;
	bool removed;
	char *path;			/* NULL: no record named it */
};

struct cg_tables {
	struct cg_task *tasks;		/* open addressing by pid */
	size_t n_tasks, n_task_slots;
	struct cg_group *groups;	/* ... by id */
	size_t n_groups, n_group_slots;
	uint64_t serial;		/* bumped by every cgroup record */
	unsigned int warned;		/* kinds of damage said */
};

/*
 * One trace directory of a trace read as one: a trace, or a snapshot
 * (DIR/snapshot-N) of a flight recorder's directory.
 */
struct trace_part {
	char *dir;
	bool big_endian;		/* its metadata's byte order */
	bool snapshot;			/* follows the part before it in the same recording */
};

struct ltt_trace {
	char *dir;			/* as opened (the first one given) */
	struct trace_part *parts;
	unsigned int n_parts;
	struct ltt_metadata md;		/* the largest of the parts' registries */
	int sched_change;		/* its id, -1 if none */
	unsigned int sched_in;		/* its "in" field */
	struct name_rule **name_rule;	/* per event id, NULL for most */
	struct name_rule rules[32];
	struct name_table comm;		/* pid -> name */
	/*
	 * pid -> name, of the state dumps at the start of the streams, read
	 * ahead: a task's events before the dump reaches it have its name.
	 */
	struct name_table ahead;
	struct name_table tgid;		/* thread -> process */
	struct name_table files;	/* (tgid, fd) -> path */
	struct cg_tables cg;		/* where tasks live */

	struct stream **streams;	/* apart: the heap points at them */
	unsigned int n_streams;
	struct stream **heap;		/* streams with an item, by time */
	unsigned int n_heap;
	/*
	 * For stream_next_fast(): the payload size of each event id below
	 * n_fast (at most LTT_HDR_ID_EXTENDED), UINT32_MAX for events with
	 * a string.
	 */
	uint32_t fast_size[LTT_HDR_ID_EXTENDED];
	unsigned int n_fast;

	struct stream *current;		/* gave the last item */
	uint64_t limit;			/* ... and may give items before it */

	/* Following a trace being written (ltt_trace_follow()) */
	bool follow;
	unsigned int expect;		/* streams to wait for */
	unsigned int n_waiting;		/* streams at the end of their data */
	struct stat md_stat;		/* the metadata file as last read */

	char **errors;
	unsigned int n_errors;
	char **warnings;		/* nothing lost: an index ignored */
	unsigned int n_warnings;
	bool has_first;
	uint64_t first_ts;		/* the first item's, as opened */
};

/* stream.c */
/* Map the file; one that cannot be read is done, with an error. */
void stream_open(struct ltt_trace *t, struct stream *s, unsigned int part,
		 const char *file);
void stream_chain_start(struct stream *s);
void stream_close(struct stream *s);
/* The packet header at @off, as the host reads it. */
void stream_header_at(const struct stream *s, uint64_t off,
		      struct ltt_packet_header *h);
/*
 * Decode the next item into s->item, or set s->done; following a trace,
 * set s->waiting instead when the next packet is not whole in the file
 * yet, or names an event the metadata does not describe yet.
 */
void stream_advance(struct stream *s);
/*
 * The common record, decoded inline by the reader's loop: a compact
 * header, an event without a string, in the host's byte order, inside
 * the packet being read, and every check of stream_decode_order()
 * passed.  Anything else (another packet, an extended header, a string,
 * a foreign trace, damage) returns false, for stream_advance() to decode
 * with its full checks and messages.
 */
static inline __attribute__((always_inline)) bool
stream_next_fast(struct stream *s, const struct ltt_trace *t)
{
	const unsigned char *p = s->map + s->pos;
	uint64_t ts, avail = s->content_end - s->pos;
	uint32_t w, id, size;

	/* in a packet (pos <= content_end) of a trace in the host's order */
	if (!s->fast || avail < LTT_HDR_COMPACT_SIZE)
		return false;
	memcpy(&w, p, sizeof(w));
	id = w & LTT_HDR_ID_EXTENDED;
	/* extended headers and unknown ids are past n_fast */
	if (id >= t->n_fast)
		return false;
	size = t->fast_size[id];	/* UINT32_MAX: with a string */
	if (avail - LTT_HDR_COMPACT_SIZE < size)
		return false;
	ts = (s->last_ts & ~((1ULL << LTT_HDR_TS_BITS) - 1)) |
	     (w >> LTT_HDR_ID_BITS);
	if (ts < s->last_ts)
		ts += 1ULL << LTT_HDR_TS_BITS;
	if (ts > s->ts_end)
		return false;
	s->item.kind = LTT_ITEM_EVENT;
	s->item.ts = ts;
	s->item.pid = s->pid;
	s->item.desc = &t->md.reg.events[id];
	s->item.payload = p + LTT_HDR_COMPACT_SIZE;
	s->item.size = size;
	s->item.offset = s->pos;
	if ((int)id == t->sched_change)
		s->pid = ltt_item_int(&s->item, t->sched_in);
	s->last_ts = ts;
	s->pos += LTT_HDR_COMPACT_SIZE + size;
	s->n_decoded++;
	return true;
}

/* Following: map what was appended; true if the file grew. */
bool stream_grow(struct stream *s);
/* Following: the time before which the stream will give no more items. */
uint64_t stream_horizon(const struct stream *s);

/* index.c */
/* Read the stream's packet index, or walk its packet headers (once). */
void stream_index_load(struct stream *s);
/*
 * Check entries @from to the last against the packet headers: false
 * when one did not match, and the index was dropped for the headers.
 */
bool stream_index_verify(struct stream *s, size_t from);
/* Put the stream before packet @k of s->pkts (loaded). */
void stream_seek_packet(struct stream *s, size_t k);

/* trace.c */
void trace_add_error(struct ltt_trace *t, const char *fmt, ...)
	__printf(2, 3);
void trace_add_warning(struct ltt_trace *t, const char *fmt, ...)
	__printf(2, 3);
/*
 * Open a file of the trace to read, *@st its identity: a regular file,
 * or -1 with ltt_error() saying why, without the path (a FIFO or a
 * device is not waited on, but refused).
 */
int trace_open_file(const char *path, struct stat *st);

/* names.c */
int names_init(struct ltt_trace *t);
void names_free(struct ltt_trace *t);
void names_apply(struct ltt_trace *t, const struct name_rule *rule,
		 const struct ltt_item *it);
/* The process of thread @pid, as far as the trace has said. */
int32_t names_tgid(const struct ltt_trace *t, int32_t pid);

/* cgroups.c */
int cgroups_init(struct cg_tables *cg);
void cgroups_free(struct cg_tables *cg);
/* A CG_* rule. */
void cgroups_apply(struct ltt_trace *t, const struct name_rule *r,
		   const struct ltt_item *it);
/* What a state dump record @it will say of a name: into t->ahead. */
void names_ahead(struct ltt_trace *t, const struct name_rule *rule,
		 const struct ltt_item *it);

#endif /* LTT_LIB_READER_H */
