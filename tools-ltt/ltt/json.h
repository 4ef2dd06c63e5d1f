/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON output for `ltt view`, `ltt export` and --json: strings escaped
 * for JSON (and for an HTML <script>: no "</" survives), and typed
 * arrays as little-endian base64.
 */
#ifndef LTT_JSON_H
#define LTT_JSON_H

#include <stdint.h>
#include <stdio.h>

/*
 * @s as a JSON string, quotes included; UTF-8 as it is, a byte that is
 * not part of valid UTF-8 (a file name's 0xff) as its code point,
 * "\u00ff": the output is always valid UTF-8.
 */
void json_str(FILE *f, const char *s);

/* The length of the valid UTF-8 character at @s (1 to 4), or 0. */
unsigned int utf8_len(const unsigned char *s);

/* Base64 of little-endian numbers, written as one JSON string. */
struct b64 {
	FILE *f;
	unsigned char in[3];
	unsigned int n;
};

void b64_begin(struct b64 *b, FILE *f);
void b64_bytes(struct b64 *b, const void *p, size_t n);
void b64_u8(struct b64 *b, uint8_t v);
void b64_u16(struct b64 *b, uint16_t v);
void b64_u32(struct b64 *b, uint32_t v);
void b64_f64(struct b64 *b, double v);
void b64_end(struct b64 *b);

#endif /* LTT_JSON_H */
