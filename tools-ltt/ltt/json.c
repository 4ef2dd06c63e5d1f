// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output helpers: escaped strings, base64 typed arrays.
 */
#include <string.h>

#include "json.h"

unsigned int utf8_len(const unsigned char *s)
{
	unsigned int n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* the string's end (0) included */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

void json_str(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	putc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;
		unsigned int n = c >= 0x80 ? utf8_len((const unsigned char *)s) : 1;

		if (n > 1) {
			fwrite(s, 1, n, f);
			s += n - 1;
		} else if (n == 0) {
			fprintf(f, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
		} else if (c == '"' || c == '\\') {
			putc('\\', f);
			putc(c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x20 || c == 0x7f || c == '<' || c == '>' ||
			   c == '&') {
			fprintf(f, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
		} else {
			putc(c, f);
		}
	}
	putc('"', f);
}

static const char b64_chars[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void b64_flush(struct b64 *b)
{
	unsigned char *i = b->in;
	char o[4];

	o[0] = b64_chars[i[0] >> 2];
	o[1] = b64_chars[((i[0] & 3) << 4) | (b->n > 1 ? i[1] >> 4 : 0)];
	o[2] = b->n > 1 ? b64_chars[((i[1] & 15) << 2) |
				    (b->n > 2 ? i[2] >> 6 : 0)] : '=';
	o[3] = b->n > 2 ? b64_chars[i[2] & 63] : '=';
	fwrite(o, 1, 4, b->f);
	b->n = 0;
}

void b64_begin(struct b64 *b, FILE *f)
{
	b->f = f;
	b->n = 0;
	putc('"', f);
}

void b64_bytes(struct b64 *b, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--) {
		b->in[b->n++] = *c++;
		if (b->n == 3)
			b64_flush(b);
	}
}

void b64_u8(struct b64 *b, uint8_t v)
{
	b64_bytes(b, &v, 1);
}

void b64_u16(struct b64 *b, uint16_t v)
{
	unsigned char c[2] = { v, v >> 8 };

	b64_bytes(b, c, 2);
}

void b64_u32(struct b64 *b, uint32_t v)
{
	unsigned char c[4] = { v, v >> 8, v >> 16, v >> 24 };

	b64_bytes(b, c, 4);
}

void b64_f64(struct b64 *b, double v)
{
	unsigned char c[8];
	uint64_t u;
	int i;

	memcpy(&u, &v, 8);
	for (i = 0; i < 8; i++)
		c[i] = u >> (8 * i);
	b64_bytes(b, c, 8);
}

void b64_end(struct b64 *b)
{
	if (b->n)
		b64_flush(b);
	putc('"', b->f);
}
