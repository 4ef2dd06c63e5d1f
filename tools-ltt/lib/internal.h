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

/* Read a trace's metadata (as ltt_metadata_write() makes it). */
struct ltt_metadata {
	struct ltt_registry reg;
	int64_t clock_offset;		/* real - mono, ns */
	bool big_endian;
};

int ltt_metadata_parse(const char *text, size_t len, const char *file,
		       struct ltt_metadata *md);

/* Write all of @buf, retrying short writes. */
int ltt_write_all(int fd, const void *buf, size_t len);

#endif /* LTT_LIB_INTERNAL_H */
