// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output helpers: escaped strings, base64 typed arrays.
 */
#include <string.h>

#include "json.h"

void json_str(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	putc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\') {
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
