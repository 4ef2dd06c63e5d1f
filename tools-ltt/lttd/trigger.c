// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's triggers: lttd's live view of the custom events.
 *
 * A flight recorder's buffers are read only when a snapshot is taken, so
 * lttd watches through a session of its own: discard mode, small
 * sub-buffers handed over every TRIGGER_FLUSH_MS, the flight recorder's
 * pid filter, and a mask of every custom event id, from the first after
 * the kernel's events to LTT_EVENTS_MAX: a type that does not exist yet
 * (`ltt log -e NAME` makes it on first use) is recorded once it does.
 * Its packets are read as they come and walked record by record; a
 * record's id is named through LTT_CMD_EVENT_INFO, once per id.  The
 * cache stays right: an id is never given to another type while a
 * session exists (a destroyed type stays described, dead, and a type
 * made again with the same name and layout gets its old id back), and
 * this session exists as long as the cache.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trigger.h"

struct trig_cpu {
	unsigned int cpu;
	int buf_fd;
	const unsigned char *map;
	size_t map_size;
	bool done;			/* ENODATA */
	uint64_t discarded;		/* of its last packet */
};

/* What a record's id says: its size, and whether it is a trigger. */
struct trig_id {
	uint8_t known;			/* 0: not asked yet, 1: known, 2: none */
	uint8_t string_last;		/* a NUL-terminated string follows */
	int16_t match;			/* index in names, -1: none */
	uint32_t payload_size;
};

struct trigger {
	const char *prog;
	int session_fd, epoll_fd;
	unsigned int n_cpus;
	struct trig_cpu *cpus;
	char (*names)[LTT_NAME_MAX];
	unsigned int n_names;
	struct trig_id *ids;		/* LTT_EVENTS_MAX of them */
	unsigned int pending;
	int first;			/* index of the first pending, -1 */
	uint64_t covered;		/* triggers before: in a snapshot already */
	uint64_t lost;
	bool said_bad;
};

static void __attribute__((format(printf, 2, 3)))
t_say(const struct trigger *t, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", t->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool trigger_name_ok(const char *name)
{
	size_t i, len = strlen(name);

	if (!len || len >= LTT_NAME_MAX || (name[0] >= '0' && name[0] <= '9'))
		return false;
	for (i = 0; i < len; i++)
		if (!(name[i] == '_' || (name[i] >= '0' && name[i] <= '9') ||
		      (name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= 'A' && name[i] <= 'Z')))
			return false;
	return true;
}

/* The first custom id: the kernel's events are 0.. with no hole. */
static int t_first_custom(const struct trigger *t, unsigned int *first)
{
	struct ltt_event_info ei;
	unsigned int id = 0;

	for (;;) {
		memset(&ei, 0, sizeof(ei));
		ei.id = id;
		if (ltt_syscall(LTT_CMD_EVENT_INFO, &ei, sizeof(ei))) {
			if (errno == ENOENT)
				break;
			t_say(t, "LTT_CMD_EVENT_INFO: %s", strerror(errno));
			return -1;
		}
		if (ei.id != id || (ei.flags & LTT_EVENT_F_CUSTOM))
			break;
		id++;
	}
	*first = id;
	return 0;
}

const char *trigger_kernel_event(const char (*names)[LTT_NAME_MAX],
				 unsigned int n)
{
	struct ltt_event_info ei;
	unsigned int id, i;

	for (id = 0;; id++) {
		memset(&ei, 0, sizeof(ei));
		ei.id = id;
		if (ltt_syscall(LTT_CMD_EVENT_INFO, &ei, sizeof(ei)) ||
		    ei.id != id || (ei.flags & LTT_EVENT_F_CUSTOM))
			return NULL;
		ei.name[LTT_NAME_MAX - 1] = '\0';
		for (i = 0; i < n; i++)
			if (!strcmp(ei.name, names[i]))
				return names[i];
	}
}

static int t_open_buffer(struct trigger *t, struct trig_cpu *c)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct ltt_buffer_info bi;
	void *map;

	c->buf_fd = ltt_session_buffer_fd(t->session_fd, c->cpu);
	if (c->buf_fd < 0) {
		t_say(t, "--snapshot-on: cpu %u: %s", c->cpu, ltt_error());
		return -1;
	}
	if (ioctl(c->buf_fd, LTT_BUF_INFO, &bi)) {
		t_say(t, "--snapshot-on: cpu %u: LTT_BUF_INFO: %s", c->cpu,
		      strerror(errno));
		return -1;
	}
	map = mmap(NULL, bi.mmap_size, PROT_READ, MAP_SHARED, c->buf_fd, 0);
	if (map == MAP_FAILED) {
		t_say(t, "--snapshot-on: cpu %u: mmap: %s", c->cpu,
		      strerror(errno));
		return -1;
	}
	c->map = map;
	c->map_size = bi.mmap_size;
	ev.data.ptr = c;
	if (epoll_ctl(t->epoll_fd, EPOLL_CTL_ADD, c->buf_fd, &ev)) {
		t_say(t, "--snapshot-on: epoll_ctl: %s", strerror(errno));
		return -1;
	}
	return 0;
}

struct trigger *trigger_open(const char *prog,
			     const char (*names)[LTT_NAME_MAX], unsigned int n,
			     const pid_t *pids, unsigned int n_pids,
			     const int *cgroup_fds, unsigned int n_cgroups)
{
	struct ltt_session_opts so = {
		.subbuf_size = TRIGGER_SUBBUF_SIZE, .n_subbufs = TRIGGER_SUBBUFS,
		.flush_ms = TRIGGER_FLUSH_MS,
	};
	static uint64_t mask[LTT_EVENTS_MAX / 64];
	struct ltt_cpu_status cpus[1024];
	struct trigger *t = calloc(1, sizeof(*t));
	struct ltt_status st;
	unsigned int i, first;

	if (!t) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return NULL;
	}
	t->prog = prog;
	t->session_fd = t->epoll_fd = -1;
	t->first = -1;
	t->n_names = n;
	t->names = calloc(n, sizeof(*t->names));
	t->ids = calloc(LTT_EVENTS_MAX, sizeof(*t->ids));
	if (!t->names || !t->ids) {
		t_say(t, "out of memory");
		goto fail;
	}
	memcpy(t->names, names, n * sizeof(*names));
	if (t_first_custom(t, &first))
		goto fail;
	memset(mask, 0, sizeof(mask));
	for (i = first; i < LTT_EVENTS_MAX; i++)
		mask[i / 64] |= 1ULL << (i % 64);
	t->session_fd = ltt_session_create(&so);
	if (t->session_fd < 0 ||
	    ltt_session_set_events(t->session_fd, mask, LTT_EVENTS_MAX) ||
	    (n_pids && ltt_session_set_pids(t->session_fd, pids, n_pids)) ||
	    (n_cgroups &&
	     ltt_session_set_cgroups(t->session_fd, cgroup_fds, n_cgroups)) ||
	    ltt_session_status(t->session_fd, &st, cpus, 1024)) {
		t_say(t, "--snapshot-on: the watching session: %s", ltt_error());
		goto fail;
	}
	if (!st.n_cpus || st.n_cpus > 1024) {
		t_say(t, "--snapshot-on: LTT_CMD_STATUS: %u CPUs", st.n_cpus);
		goto fail;
	}
	t->n_cpus = st.n_cpus;
	t->cpus = calloc(t->n_cpus, sizeof(*t->cpus));
	t->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (!t->cpus || t->epoll_fd < 0) {
		t_say(t, "--snapshot-on: %s", strerror(errno ? errno : ENOMEM));
		goto fail;
	}
	for (i = 0; i < t->n_cpus; i++) {
		t->cpus[i].cpu = cpus[i].cpu;
		t->cpus[i].buf_fd = -1;
	}
	for (i = 0; i < t->n_cpus; i++)
		if (t_open_buffer(t, &t->cpus[i]))
			goto fail;
	return t;
fail:
	trigger_close(t);
	return NULL;
}

int trigger_start(struct trigger *t)
{
	if (ltt_session_start(t->session_fd)) {
		t_say(t, "--snapshot-on: the watching session: %s", ltt_error());
		return -1;
	}
	return 0;
}

/* Name id @id, once: its size, and which trigger it is. */
static struct trig_id *t_lookup(struct trigger *t, unsigned int id)
{
	struct trig_id *d = &t->ids[id];
	struct ltt_event_info ei = { .id = id };
	unsigned int i;

	if (d->known)
		return d->known == 1 ? d : NULL;
	if (ltt_syscall(LTT_CMD_EVENT_INFO, &ei, sizeof(ei)) || ei.id != id) {
		d->known = 2;
		return NULL;
	}
	d->known = 1;
	d->payload_size = ei.payload_size;
	d->string_last = ei.n_fields && ei.n_fields <= LTT_FIELDS_MAX &&
			 ei.fields[ei.n_fields - 1].type == LTT_FIELD_STRING;
	d->match = -1;
	ei.name[LTT_NAME_MAX - 1] = '\0';
	for (i = 0; i < t->n_names; i++)
		if (!strcmp(ei.name, t->names[i]))
			d->match = i;
	return d;
}

/* A packet cut short: said once, the rest of it skipped. */
static void t_bad(struct trigger *t, const struct trig_cpu *c, const char *why,
		  unsigned int id)
{
	if (t->said_bad)
		return;
	t->said_bad = true;
	t_say(t, "--snapshot-on: cpu %u: %s (event id %u): the rest of the packet is skipped",
	      c->cpu, why, id);
}

/* Walk the records of one packet, counting the triggers. */
static void t_scan(struct trigger *t, struct trig_cpu *c,
		   const unsigned char *pkt, size_t size)
{
	const struct ltt_packet_header *h = (const void *)pkt;
	const uint64_t ts_mask = (1ULL << LTT_HDR_TS_BITS) - 1;
	size_t end, off = sizeof(*h);
	uint64_t ts;
	unsigned int n;

	if (size < sizeof(*h) || h->magic != LTT_PACKET_MAGIC) {
		t_bad(t, c, "not a packet", 0);
		return;
	}
	end = h->content_size / 8;
	if (end > size)
		end = size;
	if (h->events_discarded > c->discarded) {
		t->lost += h->events_discarded - c->discarded;
		c->discarded = h->events_discarded;
	}
	ts = h->timestamp_begin;
	for (n = 0; n < h->events && off + LTT_HDR_COMPACT_SIZE <= end; n++) {
		const struct trig_id *d;
		uint32_t hdr;
		uint16_t id16;
		unsigned int id;

		memcpy(&hdr, pkt + off, 4);
		id = hdr & ((1U << LTT_HDR_ID_BITS) - 1);
		if (id == LTT_HDR_ID_EXTENDED) {
			if (off + LTT_HDR_EXTENDED_SIZE > end) {
				t_bad(t, c, "a record cut short", id);
				return;
			}
			memcpy(&id16, pkt + off + 4, 2);
			memcpy(&ts, pkt + off + 6, 8);
			id = id16;
			off += LTT_HDR_EXTENDED_SIZE;
		} else {
			uint64_t prev = ts;

			ts = (prev & ~ts_mask) | (hdr >> LTT_HDR_ID_BITS);
			if (ts < prev)
				ts += 1ULL << LTT_HDR_TS_BITS;
			off += LTT_HDR_COMPACT_SIZE;
		}
		d = id < LTT_EVENTS_MAX ? t_lookup(t, id) : NULL;
		if (!d) {
			t_bad(t, c, "an event the kernel does not describe", id);
			return;
		}
		if (off + d->payload_size > end) {
			t_bad(t, c, "a record cut short", id);
			return;
		}
		off += d->payload_size;
		if (d->string_last) {
			const unsigned char *nul = memchr(pkt + off, '\0', end - off);

			if (!nul) {
				t_bad(t, c, "a string with no end", id);
				return;
			}
			off = nul - pkt + 1;
		}
		/* one from before the last snapshot began is in it */
		if (d->match >= 0 && ts >= t->covered) {
			if (!t->pending++)
				t->first = d->match;
		}
	}
}

/* Every complete packet of @c, scanned and given back. */
static int t_drain_cpu(struct trigger *t, struct trig_cpu *c)
{
	struct ltt_subbuf sb;

	for (;;) {
		if (ioctl(c->buf_fd, LTT_BUF_GET_SUBBUF, &sb)) {
			if (errno == EAGAIN || errno == EBUSY)
				return 0;
			if (errno == ENODATA) {
				c->done = true;
				return 0;
			}
			t_say(t, "--snapshot-on: cpu %u: LTT_BUF_GET_SUBBUF: %s",
			      c->cpu, strerror(errno));
			return -1;
		}
		if (sb.offset < c->map_size && sb.size <= c->map_size - sb.offset)
			t_scan(t, c, c->map + sb.offset, sb.size);
		else
			t_bad(t, c, "a packet out of the buffer", 0);
		if (ioctl(c->buf_fd, LTT_BUF_PUT_SUBBUF)) {
			t_say(t, "--snapshot-on: cpu %u: LTT_BUF_PUT_SUBBUF: %s",
			      c->cpu, strerror(errno));
			return -1;
		}
	}
}

int trigger_pump(struct trigger *t, int timeout_ms, const sigset_t *sigmask)
{
	struct epoll_event ev[64];
	int i, n;

	n = epoll_pwait(t->epoll_fd, ev, 64, timeout_ms, sigmask);
	if (n < 0) {
		if (errno == EINTR)
			return 0;
		t_say(t, "--snapshot-on: epoll_wait: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (t_drain_cpu(t, ev[i].data.ptr))
			return -1;
	return 0;
}

int trigger_finish(struct trigger *t)
{
	unsigned int i, tries;

	if (ltt_session_stop(t->session_fd)) {
		t_say(t, "--snapshot-on: the watching session: %s", ltt_error());
		return -1;
	}
	for (i = 0; i < t->n_cpus; i++) {
		struct trig_cpu *c = &t->cpus[i];

		for (tries = 0; !c->done; tries++) {
			if (t_drain_cpu(t, c))
				return -1;
			if (c->done)
				break;
			if (tries == 300) {
				t_say(t, "--snapshot-on: cpu %u: the watching session's buffer never reached its end after STOP",
				      c->cpu);
				return -1;
			}
			usleep(10000);
		}
	}
	return 0;
}

unsigned int trigger_pending(const struct trigger *t, const char **name)
{
	if (name)
		*name = t->pending ? t->names[t->first] : NULL;
	return t->pending;
}

void trigger_take(struct trigger *t, uint64_t now)
{
	t->covered = now;
	t->pending = 0;
	t->first = -1;
}

uint64_t trigger_lost(const struct trigger *t)
{
	return t->lost;
}

void trigger_close(struct trigger *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; t->cpus && i < t->n_cpus; i++) {
		if (t->cpus[i].map)
			munmap((void *)t->cpus[i].map, t->cpus[i].map_size);
		if (t->cpus[i].buf_fd >= 0)
			close(t->cpus[i].buf_fd);
	}
	if (t->epoll_fd >= 0)
		close(t->epoll_fd);
	if (t->session_fd >= 0)
		close(t->session_fd);
	free(t->cpus);
	free(t->names);
	free(t->ids);
	free(t);
}
