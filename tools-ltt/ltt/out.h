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

/* "00" to "99": numbers are formatted two digits at a time. */
extern const char out_pairs[200];

/* How many decimal digits @v has. */
static inline unsigned int out_ndigits(uint64_t v)
{
	unsigned int n = 1;

	for (;;) {
		if (v < 10)
			return n;
		if (v < 100)
			return n + 1;
		if (v < 1000)
			return n + 2;
		if (v < 10000)
			return n + 3;
		v /= 10000;
		n += 4;
	}
}

/* @v's digits, the last ending just before @end. */
static inline void out_digits(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned int r = v % 100;

		v /= 100;
		end -= 2;
		memcpy(end, out_pairs + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(end - 2, out_pairs + 2 * v, 2);
	else
		end[-1] = '0' + v;
}

static inline void out_u64(struct out *o, uint64_t v)
{
	unsigned int n = out_ndigits(v);

	out_digits(o->buf + o->len + n, v);
	o->len += n;
}

/* "00" to "ff": addresses are formatted a byte at a time. */
extern const char out_hex_pairs[512];

/* "0x" and @v in lower-case hex: addresses. */
static inline void out_hex(struct out *o, uint64_t v)
{
	unsigned int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1, i;
	char *d = o->buf + o->len + 2;

	d[-2] = '0';
	d[-1] = 'x';
	for (i = n; i >= 2; i -= 2, v >>= 8)
		memcpy(d + i - 2, out_hex_pairs + 2 * (v & 0xff), 2);
	if (i)
		d[0] = "0123456789abcdef"[v & 15];
	o->len += n + 2;
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

/* @v < 10^9 as nine digits, zero-padded: two independent halves. */
static inline void out_ns9(struct out *o, uint32_t v)
{
	char *d = o->buf + o->len;
	uint32_t hi = v / 10000, lo = v % 10000;

	d[0] = '0' + hi / 10000;
	memcpy(d + 1, out_pairs + 2 * (hi / 100 % 100), 2);
	memcpy(d + 3, out_pairs + 2 * (hi % 100), 2);
	memcpy(d + 5, out_pairs + 2 * (lo / 100), 2);
	memcpy(d + 7, out_pairs + 2 * (lo % 100), 2);
	o->len += 9;
}

/*
 * A label made once (" name=", " event:"): its text padded to
 * OUT_LABEL bytes, copied whole, for a fixed-size copy.  Room for a
 * registry name (LTT_NAME_MAX) and two characters.
 */
#define OUT_LABEL	48
struct out_label {
	char text[OUT_LABEL];
	unsigned int len;
};

/* Make @l of @a, @b and @c (cut to fit, which names always do). */
void out_label_set(struct out_label *l, const char *a, const char *b,
		   const char *c);

/*
 * @s as a JSON string, quotes included, of at most @room bytes (cut
 * short past it): escapes as json_str()'s (but < > & as they are: not
 * for HTML), valid UTF-8 whatever @s holds.
 */
void out_json(struct out *o, const char *s, size_t room);

static inline void out_label(struct out *o, const struct out_label *l)
{
	memcpy(o->buf + o->len, l->text, OUT_LABEL);
	o->len += l->len;
}

#endif /* LTT_OUT_H */
