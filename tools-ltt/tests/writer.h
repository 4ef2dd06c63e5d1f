/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A test-only trace writer: packets exactly as the kernel's buffer makes
 * them (Documentation/trace/ltt.rst, <linux/ltt.h>), written to a trace
 * directory with libltt's metadata.  It stands in for traces recorded in
 * the guest until those exist.
 */
#ifndef LTT_TESTS_WRITER_H
#define LTT_TESTS_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt.h>

#define FX_MAX_CPUS	4

struct fx_cpu {
	int fd;
	unsigned char *sb;		/* the sub-buffer being filled */
	uint32_t used;			/* bytes in it; 0: no open packet */
	uint32_t events;
	uint64_t seq;			/* of the next packet */
	uint64_t lost;
	uint64_t last_ts;		/* the buffer's last record */
	int32_t pid;			/* the task running */
	int idx_fd;			/* its packet index, or -1 */
	uint64_t off;			/* of the next packet in the file */
};

struct fx_writer {
	struct ltt_registry reg;
	uint32_t subbuf_size;
	unsigned int n_cpus;
	struct fx_cpu cpu[FX_MAX_CPUS];
};

/* The registry of include-linux/ltt-events.h, as the kernel describes it. */
int fx_registry(struct ltt_registry *reg);
/* Add @n custom events "custom_<i>" with one u32 field "value". */
int fx_registry_add_custom(struct ltt_registry *reg, unsigned int n);

/* A field of a custom event: size 0 for the trailing string. */
struct fx_field {
	const char *name;
	bool is_signed;
	unsigned int size;
};

/* Add the custom event @name with @n fields. */
int fx_registry_add_event(struct ltt_registry *reg, const char *name,
			  const struct fx_field *fields, unsigned int n);

/*
 * Start a trace in @dir (created) with @reg (taken over), of an x86_64
 * machine (its system call numbers).
 */
int fx_open(struct fx_writer *w, const char *dir, struct ltt_registry *reg,
	    unsigned int n_cpus, uint32_t subbuf_size, int64_t clock_offset);
/*
 * Write a packet index beside each stream (index/channel0_N.idx), as lttd
 * does; right after fx_open(), before any event.
 */
int fx_write_index(struct fx_writer *w, const char *dir);
/* Every trace fx_open() starts from now on gets its index. */
extern bool fx_index_all;
/* ...is a user session's (env.session = "user"), while this is set. */
extern bool fx_user_session;
/* The task running on @cpu from now on (until a sched_change). */
void fx_set_pid(struct fx_writer *w, unsigned int cpu, int32_t pid);
/*
 * Record event @name at @ts on @cpu: the @n values of @fields in
 * registry order (the string field excluded), @str for the string field
 * or NULL.  @n must be the event's number of integer fields (any, for an
 * event without any): a fixture written for another layout fails, with
 * a message, instead of writing garbage.
 */
int fx_event_n(struct fx_writer *w, unsigned int cpu, uint64_t ts,
	       const char *name, const int64_t *fields, unsigned int n,
	       const char *str);
/* The same with @fields an array, its length counted. */
#define fx_event(w, cpu, ts, name, fields, str)				\
	fx_event_n(w, cpu, ts, name, fields,				\
		   sizeof(fields) / sizeof((fields)[0]), str)
/* Close the open packet of @cpu at @ts, as the flush timer does. */
int fx_flush(struct fx_writer *w, unsigned int cpu, uint64_t ts);
/* @n events are dropped on @cpu: the buffer is full. */
int fx_lose(struct fx_writer *w, unsigned int cpu, uint64_t ts,
	    uint64_t n);
/*
 * Discard mode at stop: events lost since the last packet are told by an
 * empty packet (lb_report_lost()).
 */
int fx_report_lost(struct fx_writer *w, unsigned int cpu, uint64_t ts);
/* Flight recorder: @n packets of @events records each were overwritten. */
int fx_overwrite(struct fx_writer *w, unsigned int cpu, uint64_t ts,
		 uint64_t n, uint64_t events);
/* Flush every CPU at @ts and close the files. */
int fx_close(struct fx_writer *w, uint64_t ts);

#endif /* LTT_TESTS_WRITER_H */
