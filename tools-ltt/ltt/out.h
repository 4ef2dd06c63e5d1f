/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fast text output for ltt report: lines built in a large buffer with
 * hand-rolled number formatting, written with write(2) when full.
 * printf() costs more than decoding an event does.
 */
#ifndef LTT_OUT_H
#define LTT_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define OUT_BUF		(1 << 20)
#define OUT_LINE_MAX	(16 << 10)	/* room kept for one line */

struct out {
	int fd;
	bool failed;			/* a write failed (EPIPE...) */
	int error;			/* ... its errno */
	size_t len;
	char buf[OUT_BUF];
};

/* Write what is buffered. */
void out_flush(struct out *o);

/* Make room for a line of up to OUT_LINE_MAX bytes. */
static inline void out_line_room(struct out *o)
{
	if (o->len > OUT_BUF - OUT_LINE_MAX)
		out_flush(o);
}

static inline void out_char(struct out *o, char c)
{
	o->buf[o->len++] = c;
}

/* @s: a name or a word, short (event, field and process names). */
static inline void out_str(struct out *o, const char *s)
{
	size_t n = strlen(s);

	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static inline void out_u64(struct out *o, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n)
		o->buf[o->len++] = tmp[--n];
}

/* "0x" and @v in lower-case hex: addresses. */
static inline void out_hex(struct out *o, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	o->buf[o->len++] = '0';
	o->buf[o->len++] = 'x';
	while (n)
		o->buf[o->len++] = tmp[--n];
}

static inline void out_s64(struct out *o, int64_t v)
{
	if (v < 0) {
		out_char(o, '-');
		out_u64(o, -(uint64_t)v);
	} else {
		out_u64(o, v);
	}
}

/* @v < 10^9 as nine digits, zero-padded. */
static inline void out_ns9(struct out *o, uint32_t v)
{
	int i;

	for (i = 8; i >= 0; i--) {
		o->buf[o->len + i] = '0' + v % 10;
		v /= 10;
	}
	o->len += 9;
}

#endif /* LTT_OUT_H */
