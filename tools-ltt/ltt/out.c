// SPDX-License-Identifier: GPL-2.0
/*
 * Fast text output for ltt report (see out.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "out.h"

const char out_pairs[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

const char out_hex_pairs[512] = {
#define H(x)	"0123456789abcdef"[(x) >> 4], "0123456789abcdef"[(x) & 15]
#define H4(x)	H(x), H(x + 1), H(x + 2), H(x + 3)
#define H16(x)	H4(x), H4(x + 4), H4(x + 8), H4(x + 12)
	H16(0x00), H16(0x10), H16(0x20), H16(0x30), H16(0x40), H16(0x50),
	H16(0x60), H16(0x70), H16(0x80), H16(0x90), H16(0xa0), H16(0xb0),
	H16(0xc0), H16(0xd0), H16(0xe0), H16(0xf0),
#undef H16
#undef H4
#undef H
};

void out_json(struct out *o, const char *s, size_t room)
{
	static const char hex[] = "0123456789abcdef";
	char *d = o->buf + o->len, *end = d + room - 8;

	*d++ = '"';
	for (; *s && d < end; s++) {
		unsigned char c = *s;
		unsigned int n;

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			*d++ = c;
			continue;
		}
		n = c >= 0x80 ? utf8_len((const unsigned char *)s) : 1;
		if (n > 1) {
			memcpy(d, s, n);
			d += n;
			s += n - 1;
		} else if (c == '"' || c == '\\') {
			*d++ = '\\';
			*d++ = c;
		} else if (c == '\n') {
			*d++ = '\\';
			*d++ = 'n';
		} else if (c == '\t') {
			*d++ = '\\';
			*d++ = 't';
		} else {
			memcpy(d, "\\u00", 4);
			d[4] = hex[c >> 4];
			d[5] = hex[c & 15];
			d += 6;
		}
	}
	*d++ = '"';
	o->len = d - o->buf;
}

void out_label_set(struct out_label *l, const char *a, const char *b,
		   const char *c)
{
	int n = snprintf(l->text, sizeof(l->text), "%s%s%s", a, b, c);

	l->len = n < 0 ? 0 : n >= (int)sizeof(l->text) ?
		 sizeof(l->text) - 1 : n;
}

void out_flush(struct out *o)
{
	const char *p = o->buf;
	size_t left = o->len;

	while (left && !o->failed) {
		ssize_t n = write(o->fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->failed = true;
			o->error = n < 0 ? errno : ENOSPC;
			break;
		}
		p += n;
		left -= n;
	}
	o->len = 0;
}
