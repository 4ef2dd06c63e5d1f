/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libltt internals shared between its files.
 */
#ifndef LTT_LIB_INTERNAL_H
#define LTT_LIB_INTERNAL_H

#include <stdarg.h>

#include <ltt/ltt.h>

#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Set ltt_error(); returns -1 so that callers can `return ltt_fail(...)`. */
int ltt_fail(const char *fmt, ...) __printf(1, 2);
/* The same, with ": strerror(errno)" appended. */
int ltt_fail_errno(const char *fmt, ...) __printf(1, 2);

/* The host's byte order: that of the traces its kernel writes. */
/*
 * The most CPUs a Linux kernel is configured for (NR_CPUS under MAXSMP):
 * a packet's cpu_id at or above it is damage, and the tools size their
 * per-CPU tables by the CPUs a trace names.
 */
#define LTT_CPUS_MAX		8192U

#define LTT_HOST_BIG_ENDIAN	(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

/* Read a trace's metadata (as ltt_metadata_write() makes it). */
struct ltt_metadata {
	struct ltt_registry reg;
	int64_t clock_offset;		/* real - mono, ns */
	bool big_endian;		/* trace { byte_order = be; } */
	char arch[32];			/* env { arch = "..."; }, or "" */
	bool user_session;		/* env { session = "user"; } */
};

/*
 * ltt_metadata_write() for a trace of either byte order (the host's is
 * what the kernel writes; tests convert traces to the other) and of
 * machine @arch (env.arch; NULL: this one's), of a user session or of
 * the whole system (env.session: "user" or "system").
 */
int ltt_metadata_write_order(int fd, const struct ltt_registry *reg,
			     int64_t real_minus_mono_ns, bool big_endian,
			     const char *arch, bool user_session);

/* What the env block says beyond the machine (previous boots: not this one). */
struct ltt_metadata_env {
	const char *arch;		/* env.arch; NULL: this machine's */
	const char *release;		/* env.kernel_release; NULL: this one's */
	const char *version;		/* env.kernel_version; NULL: none */
	bool user_session;		/* env.session = "user" */
	const char *const (*extra)[2];	/* more string entries: name, value */
	unsigned int n_extra;
};

/* ltt_metadata_write_order() with the whole env block said. */
int ltt_metadata_write_env(int fd, const struct ltt_registry *reg,
			   int64_t real_minus_mono_ns, bool big_endian,
			   const struct ltt_metadata_env *env);

int ltt_metadata_parse(const char *text, size_t len, const char *file,
		       struct ltt_metadata *md);

/* Convert the kernel's description @ei and ltt_registry_add() it. */
int ltt_registry_add_info(struct ltt_registry *reg,
			  const struct ltt_event_info *ei);

/*
 * mkdir -p for a trace directory; refuses one that holds a trace.
 * *@made: the directory itself was made here.
 */
int ltt_make_trace_dir(const char *dir, bool *made);

/* CRC32 of zlib's crc32(), as the kernel's crc32_le(~0, ...) ^ ~0 makes it. */
uint32_t ltt_crc32(uint32_t crc, const void *buf, size_t len);

/*
 * The packet index beside a stream (index.c): DIR/index/STREAM.idx made
 * with its header (@dir_fd the trace directory), an entry appended per
 * packet at @offset of the stream file.  -1 with errno on failure.
 */
int ltt_index_create(int dir_fd, const char *stream);
int ltt_index_append(int fd, uint64_t offset,
		     const struct ltt_packet_header *h);

/* Write all of @buf, retrying short writes. */
int ltt_write_all(int fd, const void *buf, size_t len);

#endif /* LTT_LIB_INTERNAL_H */
