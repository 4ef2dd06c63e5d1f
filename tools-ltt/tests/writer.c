// SPDX-License-Identifier: GPL-2.0
/*
 * A test-only writer of LTT traces: see writer.h.  It follows the
 * reserve logic of kernel/ltt/buffer.c record by record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/internal.h"
#include "writer.h"

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define PKT_HDR		sizeof(struct ltt_packet_header)

static void fx_field(struct ltt_event_desc *d, const char *name,
		     bool is_signed, unsigned int size)
{
	struct ltt_field_desc *f = &d->fields[d->n_fields++];

	snprintf(f->name, sizeof(f->name), "%s", name);
	f->type = is_signed ? LTT_TYPE_SIGNED : LTT_TYPE_UNSIGNED;
	f->size = size;
	f->offset = d->payload_size;
	d->payload_size += size;
}

static void fx_string(struct ltt_event_desc *d, const char *name)
{
	struct ltt_field_desc *f = &d->fields[d->n_fields++];

	snprintf(f->name, sizeof(f->name), "%s", name);
	f->type = LTT_TYPE_STRING;
	f->offset = d->payload_size;
	d->has_string = true;
}

int fx_registry(struct ltt_registry *reg)
{
	struct ltt_event_desc d;

	memset(reg, 0, sizeof(*reg));
#define FX_SIGNED(type)	_Generic((type)0, signed char: 1, short: 1, int: 1, long: 1, \
					  long long: 1, default: 0)
#define LTT_FIELD(type, name)	fx_field(&d, #name, FX_SIGNED(type), sizeof(type))
#define LTT_STRING(name)	fx_string(&d, #name)
#define LTT_EVENT(event, ...)						\
	do {								\
		memset(&d, 0, sizeof(d));				\
		d.id = reg->n_events;					\
		snprintf(d.name, sizeof(d.name), "%s", #event);		\
		__VA_ARGS__						\
		if (ltt_registry_add(reg, &d))				\
			return -1;					\
	} while (0);
#define LTT_EVENT_STR(event, ...)	LTT_EVENT(event, __VA_ARGS__)
#include <ltt-events.h>
#undef LTT_FIELD
#undef LTT_STRING
#undef LTT_EVENT
#undef LTT_EVENT_STR
	return 0;
}

int fx_registry_add_event(struct ltt_registry *reg, const char *name,
			  const struct fx_field *fields, unsigned int n)
{
	struct ltt_event_desc d;
	unsigned int i;

	memset(&d, 0, sizeof(d));
	d.id = reg->n_events;
	snprintf(d.name, sizeof(d.name), "%s", name);
	for (i = 0; i < n; i++) {
		if (fields[i].size)
			fx_field(&d, fields[i].name, fields[i].is_signed,
				 fields[i].size);
		else
			fx_string(&d, fields[i].name);
	}
	return ltt_registry_add(reg, &d);
}

int fx_registry_add_custom(struct ltt_registry *reg, unsigned int n)
{
	static const struct fx_field value = { "value", false, 4 };
	char name[32];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "custom_%u", i);
		if (fx_registry_add_event(reg, name, &value, 1))
			return -1;
		reg->events[reg->n_events - 1].custom = true;
	}
	return 0;
}

int fx_open(struct fx_writer *w, const char *dir, struct ltt_registry *reg,
	    unsigned int n_cpus, uint32_t subbuf_size, int64_t clock_offset)
{
	char path[4096];
	unsigned int i;
	int fd, ret;

	memset(w, 0, sizeof(*w));
	w->reg = *reg;
	memset(reg, 0, sizeof(*reg));
	w->subbuf_size = subbuf_size;
	w->n_cpus = n_cpus;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/metadata", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	/* the fixtures' system call numbers are x86_64's, whatever the host */
	ret = ltt_metadata_write_order(fd, &w->reg, clock_offset,
				       LTT_HOST_BIG_ENDIAN, "x86_64",
				       fx_user_session);
	close(fd);
	if (ret)
		return -1;
	for (i = 0; i < n_cpus; i++) {
		struct fx_cpu *c = &w->cpu[i];

		snprintf(path, sizeof(path), "%s/" LTT_STREAM_FMT, dir, i);
		c->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		c->idx_fd = -1;
		c->sb = malloc(subbuf_size);
		if (c->fd < 0 || !c->sb)
			return -1;
	}
	return fx_index_all ? fx_write_index(w, dir) : 0;
}

bool fx_index_all;
bool fx_user_session;

int fx_write_index(struct fx_writer *w, const char *dir)
{
	char name[32];
	unsigned int i;
	int dir_fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (dir_fd < 0)
		return -1;
	for (i = 0; i < w->n_cpus; i++) {
		snprintf(name, sizeof(name), LTT_STREAM_FMT, i);
		w->cpu[i].idx_fd = ltt_index_create(dir_fd, name);
		if (w->cpu[i].idx_fd < 0) {
			close(dir_fd);
			return -1;
		}
	}
	close(dir_fd);
	return 0;
}

void fx_set_pid(struct fx_writer *w, unsigned int cpu, int32_t pid)
{
	w->cpu[cpu].pid = pid;
}

/* Open a packet at @ts (lb_open()). */
static void fx_open_packet(struct fx_writer *w, unsigned int cpu, uint64_t ts)
{
	struct fx_cpu *c = &w->cpu[cpu];
	struct ltt_packet_header h = {
		.magic = LTT_PACKET_MAGIC,
		.timestamp_begin = ts,
		.packet_seq_num = c->seq++,
		.cpu_id = cpu,
		.pid = c->pid,
	};

	/* Stale bytes of an earlier lap: readers must not look at them. */
	memset(c->sb, 0xa5, w->subbuf_size);
	memcpy(c->sb, &h, sizeof(h));
	c->used = PKT_HDR;
	c->events = 0;
}

/* Close the open packet at @ts and store it (lb_close(), the reader). */
static int fx_close_packet(struct fx_writer *w, unsigned int cpu, uint64_t ts)
{
	struct fx_cpu *c = &w->cpu[cpu];
	struct ltt_packet_header h;
	size_t size = (c->used + 7) & ~7U;

	if (!c->used)
		return 0;
	memcpy(&h, c->sb, sizeof(h));
	h.timestamp_end = ts;
	h.content_size = (uint64_t)c->used * 8;
	h.packet_size = (uint64_t)size * 8;
	h.events_discarded = c->lost;
	h.events = c->events;
	memcpy(c->sb, &h, sizeof(h));
	c->used = 0;
	if (c->idx_fd >= 0 && ltt_index_append(c->idx_fd, c->off, &h))
		return -1;
	c->off += size;
	return write(c->fd, c->sb, size) == (ssize_t)size ? 0 : -1;
}

/* The integer fields of @d: all but a trailing string. */
static unsigned int fx_int_fields(const struct ltt_event_desc *d)
{
	return d->n_fields - d->has_string;
}

int fx_event_n(struct fx_writer *w, unsigned int cpu, uint64_t ts,
	       const char *name, const int64_t *fields, unsigned int n,
	       const char *str)
{
	int id = ltt_registry_find(&w->reg, name);
	struct fx_cpu *c = &w->cpu[cpu];
	const struct ltt_event_desc *d;
	unsigned int i, need, slen = 0, payload;
	bool ext_id, extended;
	unsigned char *p;
	uint32_t word;

	if (id < 0 || cpu >= w->n_cpus || ts < c->last_ts)
		return -1;
	d = &w->reg.events[id];
	if (fx_int_fields(d) && n != fx_int_fields(d)) {
		fprintf(stderr, "fx_event: %s has %u integer fields, given %u\n",
			name, fx_int_fields(d), n);
		return -1;
	}
	if (d->has_string) {
		slen = strlen(str ? str : "") + 1;
		if (slen > LTT_STRING_MAX)
			slen = LTT_STRING_MAX;
	}
	payload = d->payload_size + slen;
	ext_id = id >= (int)LTT_HDR_ID_EXTENDED;
	extended = ext_id || ((ts - c->last_ts) >> LTT_HDR_TS_BITS);
	need = payload + (extended ? LTT_HDR_EXTENDED_SIZE :
				     LTT_HDR_COMPACT_SIZE);
	if (!(c->used && c->used + need < w->subbuf_size)) {
		extended = ext_id;
		need = payload + (extended ? LTT_HDR_EXTENDED_SIZE :
					     LTT_HDR_COMPACT_SIZE);
		if (fx_close_packet(w, cpu, ts))
			return -1;
		fx_open_packet(w, cpu, ts);
	}

	p = c->sb + c->used;
	word = (extended ? LTT_HDR_ID_EXTENDED : (uint32_t)id) |
	       ((uint32_t)ts << LTT_HDR_ID_BITS);
	memcpy(p, &word, 4);
	p += 4;
	if (extended) {
		uint16_t id16 = id;

		memcpy(p, &id16, 2);
		memcpy(p + 2, &ts, 8);
		p += 10;
	}
	for (i = 0; i < d->n_fields; i++) {
		const struct ltt_field_desc *f = &d->fields[i];
		uint64_t v;

		if (f->type == LTT_TYPE_STRING)
			break;
		v = fields[i];
		memcpy(p + f->offset, &v, f->size);	/* little-endian */
	}
	if (slen) {
		memcpy(p + d->payload_size, str ? str : "", slen - 1);
		p[d->payload_size + slen - 1] = '\0';
	}
	c->used += need;
	c->events++;
	c->last_ts = ts;
	if (!strcmp(name, "sched_change"))
		c->pid = fields[0];
	return 0;
}

int fx_flush(struct fx_writer *w, unsigned int cpu, uint64_t ts)
{
	return fx_close_packet(w, cpu, ts);
}

int fx_lose(struct fx_writer *w, unsigned int cpu, uint64_t ts, uint64_t n)
{
	/* Drops happen while no packet can open: the open one is closed. */
	if (fx_close_packet(w, cpu, ts))
		return -1;
	w->cpu[cpu].lost += n;
	return 0;
}

int fx_report_lost(struct fx_writer *w, unsigned int cpu, uint64_t ts)
{
	if (fx_close_packet(w, cpu, ts))
		return -1;
	fx_open_packet(w, cpu, ts);
	return fx_close_packet(w, cpu, ts);
}

int fx_overwrite(struct fx_writer *w, unsigned int cpu, uint64_t ts,
		 uint64_t n, uint64_t events)
{
	if (fx_close_packet(w, cpu, ts))
		return -1;
	w->cpu[cpu].seq += n;
	w->cpu[cpu].lost += n * events;
	return 0;
}

int fx_close(struct fx_writer *w, uint64_t ts)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < w->n_cpus; i++) {
		if (fx_close_packet(w, i, ts))
			ret = -1;
		if (close(w->cpu[i].fd))
			ret = -1;
		if (w->cpu[i].idx_fd >= 0 && close(w->cpu[i].idx_fd))
			ret = -1;
		free(w->cpu[i].sb);
	}
	ltt_registry_free(&w->reg);
	return ret;
}
