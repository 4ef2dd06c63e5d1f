// SPDX-License-Identifier: GPL-2.0
/*
 * ltt report's number formatting (ltt/out.h) against printf's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "../ltt/out.h"

static const char *formatted(struct out *o)
{
	o->buf[o->len] = '\0';
	return o->buf;
}

void out_formats_numbers_as_printf(void **state)
{
	static const uint64_t v[] = {
		0, 1, 9, 10, 15, 16, 99, 100, 255, 256, 999, 1000, 4095, 4096,
		9999, 10000, 99999, 0x401000, 999999999, 1000000000,
		0x7f0000401000ULL, 0x8000000000000000ULL, 12345678901234567890ULL,
		UINT64_MAX,
	};
	struct out *o = malloc(sizeof(*o));
	char want[64];
	size_t i;

	(void)state;
	assert_non_null(o);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		o->len = 0;
		out_u64(o, v[i]);
		snprintf(want, sizeof(want), "%" PRIu64, v[i]);
		assert_string_equal(formatted(o), want);
		o->len = 0;
		out_s64(o, (int64_t)v[i]);
		snprintf(want, sizeof(want), "%" PRId64, (int64_t)v[i]);
		assert_string_equal(formatted(o), want);
		o->len = 0;
		out_hex(o, v[i]);
		snprintf(want, sizeof(want), "0x%" PRIx64, v[i]);
		assert_string_equal(formatted(o), want);
		o->len = 0;
		out_ns9(o, v[i] % 1000000000);
		snprintf(want, sizeof(want), "%09" PRIu64, v[i] % 1000000000);
		assert_string_equal(formatted(o), want);
	}
	free(o);
}

void out_labels_are_copied_whole(void **state)
{
	struct out *o = malloc(sizeof(*o));
	struct out_label l;
	char name[LTT_NAME_MAX];

	(void)state;
	assert_non_null(o);
	/* the longest registry name fits, with its two characters */
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	out_label_set(&l, " ", name, "=");
	assert_int_equal(l.len, LTT_NAME_MAX + 1);
	o->len = 0;
	out_label(o, &l);
	out_char(o, '1');
	assert_int_equal(o->len, LTT_NAME_MAX + 2);
	assert_memory_equal(o->buf + 1, name, sizeof(name) - 1);
	assert_string_equal(formatted(o) + LTT_NAME_MAX, "=1");
	free(o);
}
