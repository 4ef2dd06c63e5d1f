/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the LTT selftests share: the ltt() syscall, a session with one
 * reader per CPU, and a strict decoder of the packets those readers take.
 *
 * The decoder checks everything include/uapi/linux/ltt.h promises (packet
 * magic and sizes, known record ids, records inside the content, time that
 * never goes back) and puts the first violation in ltt_err as
 * "cpu C packet seq S offset O: what", for the test to fail with.
 *
 * Every function is static inline, so a test is one .c file.
 */
#ifndef __LTT_UTIL_H
#define __LTT_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <linux/ltt.h>

#include "kselftest_harness.h"

#ifndef __NR_ltt
#define __NR_ltt 463
#endif

/* The last failure of a helper below, for TH_LOG("%s", ltt_err). */
static char ltt_err[512];

/* ltt_session_open(): this kernel has no ltt(). */
#define LTT_UNAVAILABLE	1

static inline __printf(1, 2) int ltt_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ltt_err, sizeof(ltt_err), fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * ltt(cmd, arg, size).  The three extra zeros make the call fail harmlessly
 * on a kernel where syscall 463 is something else (setxattrat from 6.13
 * on: it rejects a zero size first).
 */
static inline int ltt(unsigned int cmd, const void *arg, size_t size)
{
	return syscall(__NR_ltt, cmd, arg, size, 0, 0, 0);
}

static inline int ltt_session_cmd(int session_fd, unsigned int cmd)
{
	struct ltt_session_cmd c = { .session_fd = session_fd };

	return ltt(cmd, &c, sizeof(c));
}

static inline int ltt_start(int session_fd)
{
	return ltt_session_cmd(session_fd, LTT_CMD_START);
}

static inline int ltt_stop(int session_fd)
{
	return ltt_session_cmd(session_fd, LTT_CMD_STOP);
}

static inline int ltt_snapshot(int session_fd)
{
	return ltt_session_cmd(session_fd, LTT_CMD_SNAPSHOT);
}

static inline int ltt_buffer_fd(int session_fd, unsigned int cpu)
{
	struct ltt_buffer_req req = { .session_fd = session_fd, .cpu = cpu };

	return ltt(LTT_CMD_BUFFER_FD, &req, sizeof(req));
}

/* LTT_CMD_STATUS with room for @n entries in @cpus. */
static inline int ltt_status(int session_fd, struct ltt_status *st,
			     struct ltt_cpu_status *cpus, unsigned int n)
{
	memset(st, 0, sizeof(*st));
	st->session_fd = session_fd;
	st->n_cpus = n;
	st->cpus = (uintptr_t)cpus;
	return ltt(LTT_CMD_STATUS, st, sizeof(*st));
}

static inline int ltt_set_pids(int session_fd, const pid_t *pids,
			       unsigned int count)
{
	struct ltt_pids p = {
		.session_fd = session_fd,
		.count = count,
		.pids = (uintptr_t)pids,
	};

	return ltt(LTT_CMD_SET_PIDS, &p, sizeof(p));
}

static inline int ltt_set_mask(int session_fd, const __u64 *mask,
			       unsigned int nbits)
{
	struct ltt_events e = {
		.session_fd = session_fd,
		.nbits = nbits,
		.mask = (uintptr_t)mask,
	};

	return ltt(LTT_CMD_SET_EVENTS, &e, sizeof(e));
}

static inline __u64 ltt_now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline int ltt_pin_to_cpu(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Parse a sysfs CPU list ("0-1,4") into @set.  Returns the highest CPU
 * plus one (nr_cpu_ids for .../possible), or -1.
 */
static inline int ltt_read_cpulist(const char *path, cpu_set_t *set)
{
	char buf[1024], *p, *end;
	int fd, len, top = -1;

	CPU_ZERO(set);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';

	for (p = buf; *p && *p != '\n'; p = end) {
		long lo, hi;

		lo = strtol(p, &end, 10);
		if (end == p || lo < 0 || lo >= CPU_SETSIZE)
			return -1;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo || hi >= CPU_SETSIZE)
				return -1;
		}
		for (; lo <= hi; lo++)
			CPU_SET(lo, set);
		if (hi + 1 > top)
			top = hi + 1;
		if (*end == ',')
			end++;
	}
	return top;
}

/* An address that faults: a page mapped and unmapped again. */
static inline void *ltt_unmapped_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p != MAP_FAILED)
		munmap(p, 4096);
	return p;
}

/* The event registry, as LTT_CMD_EVENT_INFO describes it. */
struct ltt_registry {
	unsigned int n_events;
	struct ltt_event_info *ev;
	int sched_change;	/* its id, -1 if none */
	int sched_in;		/* the index of its "in" field */
};

static inline int ltt_event_id(const struct ltt_registry *reg,
			       const char *name)
{
	unsigned int id;

	for (id = 0; id < reg->n_events; id++)
		if (!strcmp(reg->ev[id].name, name))
			return id;
	return -1;
}

static inline int ltt_field_index(const struct ltt_registry *reg,
				  unsigned int id, const char *name)
{
	unsigned int i;

	if (id >= reg->n_events)
		return -1;
	for (i = 0; i < reg->ev[id].n_fields; i++)
		if (!strcmp(reg->ev[id].fields[i].name, name))
			return i;
	return -1;
}

/* A description is usable: names terminated, fields packed in order. */
static inline int ltt_check_event_info(const struct ltt_event_info *ei,
				       unsigned int id)
{
	unsigned int i, off = 0;

	if (ei->id != id)
		return ltt_fail("event %u: id reads back as %u", id, ei->id);
	if (!memchr(ei->name, '\0', LTT_NAME_MAX) || !ei->name[0])
		return ltt_fail("event %u: name empty or not terminated", id);
	if (ei->n_fields > LTT_FIELDS_MAX)
		return ltt_fail("event %u (%.32s): %u fields, at most %u",
				id, ei->name, ei->n_fields, LTT_FIELDS_MAX);
	if (ei->flags & ~(LTT_EVENT_F_CUSTOM | LTT_EVENT_F_DEAD) ||
	    ei->flags == LTT_EVENT_F_DEAD)
		return ltt_fail("event %u (%s): flags %#x", id, ei->name,
				ei->flags);

	for (i = 0; i < ei->n_fields; i++) {
		const struct ltt_field_info *f = &ei->fields[i];

		if (!memchr(f->name, '\0', LTT_NAME_MAX) || !f->name[0])
			return ltt_fail("event %s field %u: bad name",
					ei->name, i);
		if (f->offset != off)
			return ltt_fail("event %s field %s: offset %u, expected %u (packed)",
					ei->name, f->name, f->offset, off);
		switch (f->type) {
		case LTT_FIELD_UNSIGNED:
		case LTT_FIELD_SIGNED:
			if (f->size != 1 && f->size != 2 &&
			    f->size != 4 && f->size != 8)
				return ltt_fail("event %s field %s: size %u",
						ei->name, f->name, f->size);
			off += f->size;
			break;
		case LTT_FIELD_STRING:
			if (f->size || i != ei->n_fields - 1)
				return ltt_fail("event %s field %s: a string must be last, size 0",
						ei->name, f->name);
			break;
		default:
			return ltt_fail("event %s field %s: unknown type %u",
					ei->name, f->name, f->type);
		}
	}
	if (off != ei->payload_size)
		return ltt_fail("event %s: payload_size %u, fields add up to %u",
				ei->name, ei->payload_size, off);
	return 0;
}

static inline bool ltt_event_has_string(const struct ltt_event_info *ei)
{
	return ei->n_fields &&
	       ei->fields[ei->n_fields - 1].type == LTT_FIELD_STRING;
}

/*
 * Did ltt() fail with @err because this kernel has none?  If so, ltt_err
 * says so.
 */
static inline bool ltt_unavailable(int err)
{
	struct utsname u;

	/* Answered as a call number no architecture has is answered. */
	errno = 0;
	syscall(100000L);
	if (err == errno) {
		ltt_fail("no ltt() system call: this kernel lacks CONFIG_LTT=y");
		return true;
	}
	/* LTT is a 6.12 series; later kernels gave 463 to setxattrat. */
	if (!uname(&u) && strncmp(u.release, "6.12.", 5) &&
	    strcmp(u.release, "6.12")) {
		ltt_fail("syscall %d is not ltt() on Linux %s (%s): LTT needs a patched 6.12",
			 __NR_ltt, u.release, strerror(err));
		return true;
	}
	return false;
}

static inline void ltt_registry_free(struct ltt_registry *reg)
{
	free(reg->ev);
	memset(reg, 0, sizeof(*reg));
}

/*
 * Read every event description: each LTT_CMD_EVENT_INFO describes the
 * lowest id from the one asked on, up to ENOENT.  The ids of destroyed
 * custom events are left with empty names.  Returns 0, LTT_UNAVAILABLE
 * when the kernel has no ltt(), or -1.
 */
static inline int ltt_registry_load(struct ltt_registry *reg)
{
	struct ltt_event_info ei;
	unsigned int id;

	memset(reg, 0, sizeof(*reg));
	reg->sched_change = -1;
	reg->ev = calloc(LTT_EVENTS_MAX, sizeof(*reg->ev));
	if (!reg->ev)
		return ltt_fail("out of memory");

	for (id = 0; id < LTT_EVENTS_MAX; id = ei.id + 1) {
		memset(&ei, 0, sizeof(ei));
		ei.id = id;
		if (ltt(LTT_CMD_EVENT_INFO, &ei, sizeof(ei))) {
			int err = errno;

			if (!id && ltt_unavailable(err))
				return LTT_UNAVAILABLE;
			if (err == ENOENT && id)
				break;
			return ltt_fail("LTT_CMD_EVENT_INFO id %u: %s",
					id, strerror(err));
		}
		/* The kernel's own events have no hole. */
		if (ei.id < id || ei.id >= LTT_EVENTS_MAX ||
		    (!(ei.flags & LTT_EVENT_F_CUSTOM) && ei.id != id))
			return ltt_fail("LTT_CMD_EVENT_INFO id %u: described %u",
					id, ei.id);
		if (ltt_check_event_info(&ei, ei.id))
			return -1;
		reg->ev[ei.id] = ei;
		reg->n_events = ei.id + 1;
	}

	reg->sched_change = ltt_event_id(reg, "sched_change");
	if (reg->sched_change >= 0) {
		reg->sched_in = ltt_field_index(reg, reg->sched_change, "in");
		if (reg->sched_in < 0)
			return ltt_fail("sched_change has no \"in\" field");
	}
	return 0;
}

/* One per CPU that has a buffer; fd is -1 until ltt_open_readers(). */
struct ltt_reader {
	unsigned int cpu;
	int fd;
	const unsigned char *map;
	size_t map_size;

	/* Carried from packet to packet by the decoder. */
	__u64 packets;		/* taken and released */
	__u64 records;		/* decoded, in those packets */
	__u64 bytes;		/* their record bytes: content less headers */
	__u64 first_seq;	/* packet_seq_num of the first one */
	__u64 last_seq;		/* ... and of the last one */
	__u64 last_ts;		/* time of the last record */
	__u64 discarded;	/* events_discarded of the last packet */
	bool done;		/* ENODATA: stopped and all read */
};

struct ltt_session {
	int fd;
	struct ltt_registry reg;
	__u32 mode;
	__u32 subbuf_size;
	__u32 n_subbufs;
	unsigned int n_cpus;		/* CPUs with a buffer */
	struct ltt_reader *rd;		/* n_cpus of them */
	struct ltt_cpu_status *st;	/* n_cpus, by ltt_session_status() */
};

/* Small buffers unless a test asks otherwise. */
static const struct ltt_create ltt_create_default = {
	.subbuf_size = 16384,
	.n_subbufs = 8,
	.mode = LTT_MODE_DISCARD,
};

/* STATUS into s->st (in reader order) and *st if not NULL. */
static inline int ltt_session_status(struct ltt_session *s,
				     struct ltt_status *st)
{
	struct ltt_status tmp;

	if (!st)
		st = &tmp;
	if (ltt_status(s->fd, st, s->st, s->n_cpus))
		return ltt_fail("LTT_CMD_STATUS: %s", strerror(errno));
	if (st->n_cpus != s->n_cpus)
		return ltt_fail("LTT_CMD_STATUS: %u CPUs, the session had %u",
				st->n_cpus, s->n_cpus);
	return 0;
}

static inline void ltt_session_close(struct ltt_session *s)
{
	unsigned int i;

	for (i = 0; s->rd && i < s->n_cpus; i++) {
		if (s->rd[i].map)
			munmap((void *)s->rd[i].map, s->rd[i].map_size);
		if (s->rd[i].fd >= 0)
			close(s->rd[i].fd);
	}
	if (s->fd >= 0)
		close(s->fd);
	free(s->rd);
	free(s->st);
	ltt_registry_free(&s->reg);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

static inline int ltt_session_adopt(struct ltt_session *s, int fd);

/*
 * Load the registry, create a session (@c NULL: ltt_create_default) and
 * learn its CPUs.  Returns 0, LTT_UNAVAILABLE (no ltt() here, or not
 * root) or -1; ltt_err says why.
 */
static inline int ltt_session_open(struct ltt_session *s,
				   const struct ltt_create *c)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	ret = ltt_registry_load(&s->reg);
	if (ret)
		return ret;

	s->fd = ltt(LTT_CMD_CREATE, c ? c : &ltt_create_default,
		    sizeof(*c));
	if (s->fd < 0) {
		if (errno == EPERM && geteuid()) {
			ltt_fail("LTT_CMD_CREATE: EPERM: run as root");
			return LTT_UNAVAILABLE;
		}
		return ltt_fail("LTT_CMD_CREATE: %s", strerror(errno));
	}
	return ltt_session_adopt(s, s->fd);
}

/*
 * Fill in @s for the session fd @fd (from CREATE or BOOT; @s owns it
 * now), its registry loaded: learn its CPUs and geometry.  0 or -1.
 */
static inline int ltt_session_adopt(struct ltt_session *s, int fd)
{
	struct ltt_status st;
	unsigned int i, room = CPU_SETSIZE;

	s->fd = fd;
	s->st = calloc(room, sizeof(*s->st));
	if (!s->st)
		return ltt_fail("out of memory");
	if (ltt_status(s->fd, &st, s->st, room))
		return ltt_fail("LTT_CMD_STATUS: %s", strerror(errno));
	if (!st.n_cpus || st.n_cpus > room)
		return ltt_fail("LTT_CMD_STATUS: n_cpus %u", st.n_cpus);
	s->n_cpus = st.n_cpus;
	s->mode = st.mode;
	s->subbuf_size = st.subbuf_size;
	s->n_subbufs = st.n_subbufs;

	s->rd = calloc(s->n_cpus, sizeof(*s->rd));
	if (!s->rd)
		return ltt_fail("out of memory");
	for (i = 0; i < s->n_cpus; i++) {
		s->rd[i].cpu = s->st[i].cpu;
		s->rd[i].fd = -1;
	}
	return 0;
}

static inline struct ltt_reader *ltt_reader_of(struct ltt_session *s,
					       unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < s->n_cpus; i++)
		if (s->rd[i].cpu == cpu)
			return &s->rd[i];
	return NULL;
}

/* Take every CPU's buffer fd, check LTT_BUF_INFO and map it read-only. */
static inline int ltt_open_readers(struct ltt_session *s)
{
	unsigned int i;

	for (i = 0; i < s->n_cpus; i++) {
		struct ltt_reader *r = &s->rd[i];
		struct ltt_buffer_info bi;
		void *map;

		r->fd = ltt_buffer_fd(s->fd, r->cpu);
		if (r->fd < 0)
			return ltt_fail("LTT_CMD_BUFFER_FD cpu %u: %s",
					r->cpu, strerror(errno));
		if (ioctl(r->fd, LTT_BUF_INFO, &bi))
			return ltt_fail("LTT_BUF_INFO cpu %u: %s",
					r->cpu, strerror(errno));
		if (bi.cpu != r->cpu || bi.subbuf_size != s->subbuf_size ||
		    bi.n_subbufs != s->n_subbufs ||
		    bi.mmap_size != (__u64)s->subbuf_size * s->n_subbufs)
			return ltt_fail("cpu %u: LTT_BUF_INFO: cpu %u, %u x %u, mmap_size %llu",
					r->cpu, bi.cpu, bi.n_subbufs,
					bi.subbuf_size,
					(unsigned long long)bi.mmap_size);
		map = mmap(NULL, bi.mmap_size, PROT_READ, MAP_SHARED, r->fd, 0);
		if (map == MAP_FAILED)
			return ltt_fail("mmap of cpu %u's buffer: %s",
					r->cpu, strerror(errno));
		r->map = map;
		r->map_size = bi.mmap_size;
	}
	return 0;
}

/*
 * Pin the caller to the first CPU it may run on that has a buffer.
 * Returns that CPU, or -1.
 */
static inline int ltt_pin_to_buffer_cpu(const struct ltt_session *s)
{
	cpu_set_t allowed;
	unsigned int i;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return ltt_fail("sched_getaffinity: %s", strerror(errno));
	for (i = 0; i < s->n_cpus; i++) {
		if (!CPU_ISSET(s->rd[i].cpu, &allowed))
			continue;
		if (ltt_pin_to_cpu(s->rd[i].cpu))
			return ltt_fail("pin to cpu %u: %s", s->rd[i].cpu,
					strerror(errno));
		return s->rd[i].cpu;
	}
	return ltt_fail("no CPU with a buffer to run on");
}

/* An event mask with the events named in the NULL-terminated @names. */
static inline int ltt_set_events(struct ltt_session *s,
				 const char *const *names)
{
	__u64 mask[LTT_EVENTS_MAX / 64] = { 0 };

	for (; *names; names++) {
		int id = ltt_event_id(&s->reg, *names);

		if (id < 0)
			return ltt_fail("no event named %s", *names);
		mask[id / 64] |= 1ULL << (id % 64);
	}
	if (ltt_set_mask(s->fd, mask, s->reg.n_events))
		return ltt_fail("LTT_CMD_SET_EVENTS: %s", strerror(errno));
	return 0;
}

/* One decoded record. */
struct ltt_event {
	__u32 id;
	__u32 cpu;
	__u64 ts;			/* trace clock, ns */
	__u64 seq;			/* packet_seq_num of its packet */
	__u32 offset;			/* byte offset in its packet */
	__s32 pid;			/* its task: packet pid, sched_change */
	__u32 size;			/* bytes of the record, header included */
	__s64 f[LTT_FIELDS_MAX];	/* integer fields, registry order */
	char str[LTT_STRING_MAX];	/* the string field, or "" */
};

/* The records a test keeps, in the order read (per CPU: time order). */
struct ltt_trace {
	struct ltt_event *ev;
	size_t n;
	size_t cap;
};

static inline void ltt_trace_free(struct ltt_trace *t)
{
	free(t->ev);
	memset(t, 0, sizeof(*t));
}

/* The value of the field @name of @ev; a wrong name is a bug in the test. */
static inline __s64 ltt_ev_field(const struct ltt_registry *reg,
				 const struct ltt_event *ev, const char *name)
{
	int i = ltt_field_index(reg, ev->id, name);

	if (i < 0) {
		fprintf(stderr, "# event %u (%s) has no field %s\n", ev->id,
			ev->id < reg->n_events ? reg->ev[ev->id].name : "?",
			name);
		abort();
	}
	return ev->f[i];
}

static inline bool ltt_ev_is(const struct ltt_registry *reg,
			     const struct ltt_event *ev, const char *name)
{
	return ev->id < reg->n_events && !strcmp(reg->ev[ev->id].name, name);
}

static inline __s64 ltt_read_int(const unsigned char *p,
				 const struct ltt_field_info *f)
{
	bool sgn = f->type == LTT_FIELD_SIGNED;

	switch (f->size) {
	case 1: {
		__u8 v;

		memcpy(&v, p, 1);
		return sgn ? (__s64)(__s8)v : (__s64)v;
	}
	case 2: {
		__u16 v;

		memcpy(&v, p, 2);
		return sgn ? (__s64)(__s16)v : (__s64)v;
	}
	case 4: {
		__u32 v;

		memcpy(&v, p, 4);
		return sgn ? (__s64)(__s32)v : (__s64)v;
	}
	default: {
		__u64 v;

		memcpy(&v, p, 8);
		return (__s64)v;
	}
	}
}

#define LTT_BAD_PACKET(r, sb, off, fmt, ...)				\
	ltt_fail("cpu %u packet seq %llu offset %llu: " fmt, (r)->cpu,	\
		 (unsigned long long)(sb)->seq, (unsigned long long)(off), \
		 ##__VA_ARGS__)

/* Check the packet header against the ABI and the reader's history. */
static inline int ltt_check_packet_header(const struct ltt_session *s,
					  const struct ltt_reader *r,
					  const struct ltt_subbuf *sb,
					  const struct ltt_packet_header *h)
{
	__u64 content = h->content_size / 8;

	if (h->magic != LTT_PACKET_MAGIC)
		return LTT_BAD_PACKET(r, sb, 0, "magic %#x, expected %#x",
				      h->magic, LTT_PACKET_MAGIC);
	/* No session of a selftest's keeps its packets across boots. */
	if (h->stream_id || h->checksum)
		return LTT_BAD_PACKET(r, sb, 4,
				      "stream_id %u, checksum %u: both must be 0",
				      h->stream_id, h->checksum);
	if (h->cpu_id != r->cpu)
		return LTT_BAD_PACKET(r, sb, 0, "cpu_id %u in cpu %u's buffer",
				      h->cpu_id, r->cpu);
	if (h->packet_seq_num != sb->seq)
		return LTT_BAD_PACKET(r, sb, 0,
				      "packet_seq_num %llu, GET_SUBBUF said %llu",
				      (unsigned long long)h->packet_seq_num,
				      (unsigned long long)sb->seq);
	if (h->content_size % 8 || content < sizeof(*h) ||
	    content > s->subbuf_size)
		return LTT_BAD_PACKET(r, sb, 0,
				      "content_size %llu bits: not whole bytes from the header (%zu) to the sub-buffer size (%u)",
				      (unsigned long long)h->content_size,
				      sizeof(*h), s->subbuf_size);
	if (h->packet_size != ((content + 7) & ~7ULL) * 8 ||
	    h->packet_size / 8 != sb->size)
		return LTT_BAD_PACKET(r, sb, 0,
				      "packet_size %llu bits: expected content_size %llu rounded up to 8 bytes, which GET_SUBBUF's size %llu bytes must match",
				      (unsigned long long)h->packet_size,
				      (unsigned long long)h->content_size,
				      (unsigned long long)sb->size);
	if (h->timestamp_end < h->timestamp_begin)
		return LTT_BAD_PACKET(r, sb, 0,
				      "timestamp_end %llu before timestamp_begin %llu",
				      (unsigned long long)h->timestamp_end,
				      (unsigned long long)h->timestamp_begin);
	if (!r->packets)
		return 0;
	if (h->packet_seq_num <= r->last_seq)
		return LTT_BAD_PACKET(r, sb, 0,
				      "packet_seq_num %llu after %llu: not increasing",
				      (unsigned long long)h->packet_seq_num,
				      (unsigned long long)r->last_seq);
	if (h->events_discarded < r->discarded)
		return LTT_BAD_PACKET(r, sb, 0,
				      "events_discarded %llu, the previous packet said %llu: it counts since the buffer was made",
				      (unsigned long long)h->events_discarded,
				      (unsigned long long)r->discarded);
	if (h->timestamp_begin < r->last_ts)
		return LTT_BAD_PACKET(r, sb, 0,
				      "timestamp_begin %llu before the previous record %llu",
				      (unsigned long long)h->timestamp_begin,
				      (unsigned long long)r->last_ts);
	return 0;
}

/* Room for one more record at the end of @t, zeroed; NULL: no memory. */
static inline struct ltt_event *ltt_trace_add(struct ltt_trace *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		struct ltt_event *p = realloc(t->ev, cap * sizeof(*p));

		if (!p)
			return NULL;
		t->ev = p;
		t->cap = cap;
	}
	memset(&t->ev[t->n], 0, sizeof(t->ev[t->n]));
	return &t->ev[t->n++];
}

/*
 * Decode the packet that GET_SUBBUF gave: every record is checked, and
 * appended to @out when it is not NULL.
 */
static inline int ltt_decode_packet(struct ltt_session *s,
				    struct ltt_reader *r,
				    const struct ltt_subbuf *sb,
				    struct ltt_trace *out)
{
	const __u64 ts_mask = (1ULL << LTT_HDR_TS_BITS) - 1;
	const struct ltt_registry *reg = &s->reg;
	struct ltt_packet_header h;
	const unsigned char *p;
	__u64 content, off, ts, n = 0;
	__s32 pid;

	if (sb->offset % s->subbuf_size ||
	    sb->offset + s->subbuf_size > r->map_size || sb->size < sizeof(h))
		return LTT_BAD_PACKET(r, sb, 0,
				      "GET_SUBBUF gave offset %llu size %llu in a %zu-byte mapping of %u-byte sub-buffers",
				      (unsigned long long)sb->offset,
				      (unsigned long long)sb->size,
				      r->map_size, s->subbuf_size);
	p = r->map + sb->offset;
	memcpy(&h, p, sizeof(h));
	if (ltt_check_packet_header(s, r, sb, &h))
		return -1;

	content = h.content_size / 8;
	ts = h.timestamp_begin;
	pid = h.pid;
	for (off = sizeof(h); off < content; n++) {
		const struct ltt_event_info *ei;
		__u64 hdr, left, t, slen = 0;
		struct ltt_event *ev;
		__u32 w, id;
		unsigned int i;

		if (content - off < LTT_HDR_COMPACT_SIZE)
			return LTT_BAD_PACKET(r, sb, off,
					      "record header crosses the content end %llu",
					      (unsigned long long)content);
		memcpy(&w, p + off, sizeof(w));
		id = w & LTT_HDR_ID_EXTENDED;
		if (id == LTT_HDR_ID_EXTENDED) {
			__u16 id16;

			if (content - off < LTT_HDR_EXTENDED_SIZE)
				return LTT_BAD_PACKET(r, sb, off,
						      "extended header crosses the content end %llu",
						      (unsigned long long)content);
			memcpy(&id16, p + off + 4, sizeof(id16));
			memcpy(&t, p + off + 6, sizeof(t));
			id = id16;
			hdr = LTT_HDR_EXTENDED_SIZE;
			if (t < ts)
				return LTT_BAD_PACKET(r, sb, off,
						      "timestamp %llu before the previous %llu",
						      (unsigned long long)t,
						      (unsigned long long)ts);
		} else {
			t = (ts & ~ts_mask) | (w >> LTT_HDR_ID_BITS);
			if (t < ts)
				t += 1ULL << LTT_HDR_TS_BITS;
			hdr = LTT_HDR_COMPACT_SIZE;
		}
		if (id >= reg->n_events)
			return LTT_BAD_PACKET(r, sb, off,
					      "event id %u, the registry has %u",
					      id, reg->n_events);
		if (t > h.timestamp_end)
			return LTT_BAD_PACKET(r, sb, off,
					      "%s at %llu, after timestamp_end %llu",
					      reg->ev[id].name,
					      (unsigned long long)t,
					      (unsigned long long)h.timestamp_end);

		ei = &reg->ev[id];
		left = content - off - hdr;
		if (left < ei->payload_size)
			return LTT_BAD_PACKET(r, sb, off,
					      "%s payload of %u bytes crosses the content end (%llu left)",
					      ei->name, ei->payload_size,
					      (unsigned long long)left);
		if (ltt_event_has_string(ei)) {
			const unsigned char *str = p + off + hdr +
						   ei->payload_size;
			__u64 room = left - ei->payload_size;
			const unsigned char *nul;

			if (room > LTT_EVENT_SIZE_MAX)
				room = LTT_EVENT_SIZE_MAX;
			nul = memchr(str, '\0', room);
			if (!nul)
				return LTT_BAD_PACKET(r, sb, off,
						      "%s string not terminated within %llu bytes",
						      ei->name,
						      (unsigned long long)room);
			slen = nul - str + 1;
		}

		if (out) {
			ev = ltt_trace_add(out);
			if (!ev)
				return ltt_fail("out of memory for %zu records",
						out->n + 1);
			ev->id = id;
			ev->cpu = r->cpu;
			ev->ts = t;
			ev->seq = h.packet_seq_num;
			ev->offset = off;
			ev->pid = pid;
			ev->size = hdr + ei->payload_size + slen;
			for (i = 0; i < ei->n_fields; i++) {
				const struct ltt_field_info *f = &ei->fields[i];

				if (f->type != LTT_FIELD_STRING)
					ev->f[i] = ltt_read_int(p + off + hdr +
								f->offset, f);
			}
			/* Custom events' strings may be longer: cut. */
			if (slen)
				snprintf(ev->str, sizeof(ev->str), "%s",
					 p + off + hdr + ei->payload_size);
		}
		if ((int)id == reg->sched_change)
			pid = ltt_read_int(p + off + hdr +
					   ei->fields[reg->sched_in].offset,
					   &ei->fields[reg->sched_in]);
		ts = t;
		off += hdr + ei->payload_size + slen;
	}
	if (n != h.events)
		return LTT_BAD_PACKET(r, sb, off,
				      "%llu records, the header says %u",
				      (unsigned long long)n, h.events);

	if (!r->packets)
		r->first_seq = h.packet_seq_num;
	r->packets++;
	r->records += n;
	r->bytes += content - sizeof(h);
	r->last_seq = h.packet_seq_num;
	r->last_ts = ts;
	r->discarded = h.events_discarded;
	return 0;
}

/* What ltt_read_packet() found. */
enum {
	LTT_READ_ERROR = -1,
	LTT_READ_NONE,		/* EAGAIN: no complete packet yet */
	LTT_READ_PACKET,	/* one packet decoded and released */
	LTT_READ_END,		/* ENODATA: stopped, all read */
};

/* Take, decode and release the oldest complete packet of @r. */
static inline int ltt_read_packet(struct ltt_session *s, struct ltt_reader *r,
				  struct ltt_trace *out)
{
	struct ltt_subbuf sb;
	int ret;

	if (ioctl(r->fd, LTT_BUF_GET_SUBBUF, &sb)) {
		if (errno == EAGAIN)
			return LTT_READ_NONE;
		if (errno == ENODATA) {
			r->done = true;
			return LTT_READ_END;
		}
		return ltt_fail("cpu %u: LTT_BUF_GET_SUBBUF: %s",
				r->cpu, strerror(errno));
	}
	ret = ltt_decode_packet(s, r, &sb, out);
	if (ioctl(r->fd, LTT_BUF_PUT_SUBBUF, 0) && !ret)
		return ltt_fail("cpu %u packet seq %llu: LTT_BUF_PUT_SUBBUF: %s",
				r->cpu, (unsigned long long)sb.seq,
				strerror(errno));
	return ret ? LTT_READ_ERROR : LTT_READ_PACKET;
}

/* Read every packet that is complete now, on every CPU. */
static inline int ltt_read_ready(struct ltt_session *s, struct ltt_trace *out)
{
	unsigned int i;
	int ret;

	for (i = 0; i < s->n_cpus; i++) {
		do {
			ret = ltt_read_packet(s, &s->rd[i], out);
		} while (ret == LTT_READ_PACKET);
		if (ret == LTT_READ_ERROR)
			return -1;
	}
	return 0;
}

/*
 * After STOP, SNAPSHOT or close: read every CPU's buffer to ENODATA.
 * EAGAIN is a failure here: a stopped session has handed every packet
 * over to its readers.
 */
static inline int ltt_read_stopped(struct ltt_session *s,
				   struct ltt_trace *out)
{
	unsigned int i;
	int ret;

	for (i = 0; i < s->n_cpus; i++) {
		struct ltt_reader *r = &s->rd[i];

		do {
			ret = ltt_read_packet(s, r, out);
		} while (ret == LTT_READ_PACKET);
		if (ret == LTT_READ_ERROR)
			return -1;
		if (ret == LTT_READ_NONE)
			return ltt_fail("cpu %u: EAGAIN, not ENODATA, after STOP and %llu packets",
					r->cpu, (unsigned long long)r->packets);
	}
	return 0;
}

/*
 * Once stopped and read to the end, every CPU has produced == delivered +
 * lost, and delivered is what the readers decoded.
 */
static inline int ltt_check_accounting(struct ltt_session *s)
{
	unsigned int i;

	if (ltt_session_status(s, NULL))
		return -1;
	for (i = 0; i < s->n_cpus; i++) {
		const struct ltt_cpu_status *c = &s->st[i];
		const struct ltt_reader *r = ltt_reader_of(s, c->cpu);

		if (c->produced != c->delivered + c->lost)
			return ltt_fail("cpu %u: produced %llu != delivered %llu + lost %llu",
					c->cpu, (unsigned long long)c->produced,
					(unsigned long long)c->delivered,
					(unsigned long long)c->lost);
		if (r && r->fd >= 0 && c->delivered != r->records)
			return ltt_fail("cpu %u: delivered %llu, but %llu records in %llu packets",
					c->cpu,
					(unsigned long long)c->delivered,
					(unsigned long long)r->records,
					(unsigned long long)r->packets);
	}
	return 0;
}

/*
 * The calls of syscall @nr recorded on @cpu, in order: each syscall_entry
 * of @nr must be followed, among that task's syscall records on that CPU,
 * by its syscall_exit, whose ret goes to @rets (up to @max of them; NULL:
 * only count).  Another task's calls may come in between: a call can be
 * preempted, and a child not yet pinned elsewhere run there meanwhile.
 * When more than one task is recorded, sched_change must be too: without
 * it every record is taken for its packet's task.
 * Returns the number of calls, or -1.
 */
static inline long ltt_syscall_returns(const struct ltt_registry *reg,
				       const struct ltt_trace *t,
				       unsigned int cpu, long nr,
				       __s64 *rets, size_t max)
{
	int id_entry = ltt_event_id(reg, "syscall_entry");
	int id_exit = ltt_event_id(reg, "syscall_exit");
	const struct ltt_event *call = NULL;
	long n = 0;
	size_t i;

	if (id_entry < 0 || id_exit < 0)
		return ltt_fail("no syscall_entry or syscall_exit event");
	for (i = 0; i < t->n; i++) {
		const struct ltt_event *ev = &t->ev[i];

		if (ev->cpu != cpu ||
		    (ev->id != (__u32)id_entry && ev->id != (__u32)id_exit) ||
		    (call && ev->pid != call->pid))
			continue;
		if (call) {
			if (ev->id != (__u32)id_exit)
				return ltt_fail("cpu %u seq %llu offset %u: syscall %ld, no exit",
						cpu, (unsigned long long)call->seq,
						call->offset, nr);
			if (rets && (size_t)n < max)
				rets[n] = ltt_ev_field(reg, ev, "ret");
			n++;
			call = NULL;
		} else if (ev->id == (__u32)id_entry &&
			   ltt_ev_field(reg, ev, "id") == nr) {
			call = ev;
		}
	}
	if (call)
		return ltt_fail("cpu %u seq %llu offset %u: syscall %ld, no exit",
				cpu, (unsigned long long)call->seq,
				call->offset, nr);
	return n;
}

/* Records of the event @name in @t, on @cpu (-1: any CPU). */
static inline size_t ltt_count(const struct ltt_registry *reg,
			       const struct ltt_trace *t, const char *name,
			       int cpu)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		if (ltt_ev_is(reg, &t->ev[i], name) &&
		    (cpu < 0 || t->ev[i].cpu == (__u32)cpu))
			n++;
	return n;
}

/* getppid() entries of @pid in @t (of any task: -1). */
static inline size_t ltt_getppids(const struct ltt_registry *reg,
				  const struct ltt_trace *t, pid_t pid)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		if (ltt_ev_is(reg, &t->ev[i], "syscall_entry") &&
		    ltt_ev_field(reg, &t->ev[i], "id") == __NR_getppid &&
		    (pid < 0 || t->ev[i].pid == pid))
			n++;
	return n;
}

/* START, or fail the test. */
static inline void ltt_start_or_fail(struct __test_metadata *_metadata,
				     int session_fd)
{
	ASSERT_EQ(0, ltt_start(session_fd)) TH_LOG("START: %s", strerror(errno));
}

/* STOP, or fail the test. */
static inline void ltt_stop_or_fail(struct __test_metadata *_metadata,
				    int session_fd)
{
	ASSERT_EQ(0, ltt_stop(session_fd)) TH_LOG("STOP: %s", strerror(errno));
}

/*
 * For FIXTURE_SETUP(): open a session (@c NULL: ltt_create_default), and
 * its readers if @readers.  Returns false when the test cannot go on: it
 * is skipped where ltt() does not exist, failed on any other error.
 */
static inline bool ltt_setup(struct __test_metadata *_metadata,
			     struct ltt_session *s,
			     const struct ltt_create *c, bool readers)
{
	int ret = ltt_session_open(s, c);

	if (ret == LTT_UNAVAILABLE)
		SKIP(return false, "%s", ltt_err);
	ASSERT_EQ(0, ret) TH_LOG("%s", ltt_err);
	if (readers)
		ASSERT_EQ(0, ltt_open_readers(s)) TH_LOG("%s", ltt_err);
	return true;
}

/* Write @val to @path (procfs, sysfs). */
static inline int ltt_write_str(const char *path, const char *val)
{
	ssize_t n, len = strlen(val);
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return ltt_fail("open %s: %s", path, strerror(errno));
	n = write(fd, val, len);
	err = errno;
	close(fd);
	if (n != len)
		return ltt_fail("write \"%s\" to %s: %s", val, path,
				n < 0 ? strerror(err) : "short write");
	return 0;
}

/* Write "0" or "1" to a CPU's sysfs online file: 0, or -1 and errno. */
static inline int ltt_set_cpu_online(int cpu, bool online)
{
	char path[64];
	int fd, ret;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = write(fd, online ? "1" : "0", 1) == 1 ? 0 : -1;
	close(fd);
	return ret;
}

#ifdef __x86_64__
/* getppid() through the ia32 entry, numbered as in syscall_32.tbl. */
static inline long ltt_ia32_getppid(void)
{
	long ret = 64;

	asm volatile("int $0x80" : "+a" (ret) : : "memory",
		     "r8", "r9", "r10", "r11");
	return ret;
}

/* getppid() as an x32 call: the native number with __X32_SYSCALL_BIT. */
static inline long ltt_x32_getppid(void)
{
	long ret = 0x40000000L | __NR_getppid;

	asm volatile("syscall" : "+a" (ret) : : "memory", "rcx", "r11");
	return ret;
}

/* Does this kernel take ia32 calls (without them: SIGSEGV)? */
static inline bool ltt_have_ia32(void)
{
	int status;
	pid_t pid = fork();

	if (!pid)
		_exit(ltt_ia32_getppid() > 0 ? 0 : 1);
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && !WEXITSTATUS(status);
}
#endif

#endif /* __LTT_UTIL_H */
