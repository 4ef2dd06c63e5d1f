// SPDX-License-Identifier: GPL-2.0
/*
 * The TSDL metadata: what the writer makes, the parser reads back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/internal.h"
#include "tests.h"
#include "writer.h"

/* The metadata of @reg with @offset, as text (malloc'd). */
static char *metadata_text(const struct ltt_registry *reg, int64_t offset,
			   size_t *len)
{
	char path[] = "/tmp/ltt-test-metadata-XXXXXX";
	int fd = mkstemp(path);
	char *text;
	off_t n;

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ltt_metadata_write(fd, reg, offset), 0);
	n = lseek(fd, 0, SEEK_END);
	text = malloc(n + 1);
	assert_non_null(text);
	assert_int_equal(pread(fd, text, n, 0), n);
	text[n] = '\0';
	close(fd);
	*len = n;
	return text;
}

void metadata_round_trip(void **state)
{
	struct ltt_registry reg;
	struct ltt_metadata md;
	unsigned int id, i;
	size_t len;
	char *text;

	(void)state;
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_registry_add_custom(&reg, 200), 0);
	text = metadata_text(&reg, 1234567890123456789LL, &len);
	assert_non_null(strstr(text, "byte_order = le"));
	assert_non_null(strstr(text, "name = \"monotonic\""));
	assert_int_equal(ltt_metadata_parse(text, len, "metadata", &md), 0);
	assert_true(md.clock_offset == 1234567890123456789LL);
	assert_false(md.big_endian);
	assert_int_equal(md.reg.n_events, reg.n_events);
	for (id = 0; id < reg.n_events; id++) {
		const struct ltt_event_desc *a = &md.reg.events[id];
		const struct ltt_event_desc *b = &reg.events[id];

		assert_int_equal(a->id, id);
		assert_string_equal(a->name, b->name);
		assert_int_equal(a->n_fields, b->n_fields);
		assert_int_equal(a->payload_size, b->payload_size);
		assert_int_equal(a->custom, b->custom);
		for (i = 0; i < a->n_fields; i++) {
			assert_string_equal(a->fields[i].name, b->fields[i].name);
			assert_int_equal(a->fields[i].type, b->fields[i].type);
			assert_int_equal(a->fields[i].size, b->fields[i].size);
		}
	}
	ltt_registry_free(&md.reg);
	ltt_registry_free(&reg);
	free(text);
}

void metadata_negative_clock_offset(void **state)
{
	struct ltt_registry reg;
	struct ltt_metadata md;
	size_t len;
	char *text;

	(void)state;
	assert_int_equal(fx_registry(&reg), 0);
	text = metadata_text(&reg, -1500000000LL, &len);
	assert_non_null(strstr(text, "offset_s = -2;"));
	assert_non_null(strstr(text, "offset = 500000000;"));
	assert_int_equal(ltt_metadata_parse(text, len, "metadata", &md), 0);
	assert_true(md.clock_offset == -1500000000LL);
	ltt_registry_free(&md.reg);
	ltt_registry_free(&reg);
	free(text);
}

/* Parse @text; expect failure with @what in the message. */
static void expect_bad(const char *text, const char *what)
{
	struct ltt_metadata md;

	assert_int_equal(ltt_metadata_parse(text, strlen(text), "M", &md), -1);
	if (!strstr(ltt_error(), what))
		fail_msg("error \"%s\" lacks \"%s\"", ltt_error(), what);
	assert_non_null(strstr(ltt_error(), "M"));
}

/* The same, of @len bytes that may hold NULs. */
static void expect_bad_len(const char *text, size_t len, const char *what)
{
	struct ltt_metadata md;

	assert_int_equal(ltt_metadata_parse(text, len, "M", &md), -1);
	if (!strstr(ltt_error(), what))
		fail_msg("error \"%s\" lacks \"%s\"", ltt_error(), what);
	assert_non_null(strstr(ltt_error(), "M: line "));
}

#define BAD_NUL(text, what)	expect_bad_len(text, sizeof(text) - 1, what)

/* Names are identifiers the kernel would take, whole: no NUL, no cut. */
void metadata_rejects_bad_names(void **state)
{
	(void)state;
	BAD_NUL("/* CTF 1.8 */ event { name = \"sys\0call\"; id = 0; };",
		"a NUL byte in a string");
	BAD_NUL("/* CTF 1.8 */ event { name = \"a\"; id = 0; fields := struct { integer { size = 8; align = 8; } _f\0o; }; };",
		"a NUL byte in the metadata");
	BAD_NUL("/* CTF 1.8 */ event { name = \"a\"; id = 0; }; \0",
		"a NUL byte");
	expect_bad("/* CTF 1.8 */ event { name = \"a b\"; id = 0; };",
		   "bad event name");
	expect_bad("/* CTF 1.8 */ event { name = \"9lives\"; id = 0; };",
		   "bad event name");
	expect_bad("/* CTF 1.8 */ event { name = \"a\\\"b\"; id = 0; };",
		   "bad event name");
	expect_bad("/* CTF 1.8 */ event { name = \"\"; id = 0; };",
		   "bad event name");
	expect_bad("/* CTF 1.8 */ event { name = \"a23456789012345678901234567890123\"; id = 0; };",
		   "at most 31 characters");
	expect_bad("/* CTF 1.8 */ event { name = \"a\"; id = 0; fields := struct { integer { size = 8; align = 8; } _f2345678901234567890123456789012; }; };",
		   "bad field name");
	expect_bad("/* CTF 1.8 */ event { name = \"a\"; id = 0; fields := struct { integer { size = 8; align = 8; } _x; integer { size = 8; align = 8; } _x; }; };",
		   "a field named twice");
}

void metadata_rejects_damage(void **state)
{
	struct ltt_registry reg;
	struct ltt_metadata md;
	size_t len, cut;
	char *text;

	(void)state;
	expect_bad("{ not tsdl", "not CTF 1.8");
	expect_bad("/* CTF 1.8 */ event { name = \"a\"; id = 0; fields := struct { string _s; integer { size = 8; } _x; }; };",
		   "after the string");
	expect_bad("/* CTF 1.8 */ event { name = \"a\"; id = 0; fields := struct { floaty _x; }; };",
		   "unknown field type");
	/* ids may skip destroyed custom events, never go back */
	expect_bad("/* CTF 1.8 */ event { name = \"a\"; id = 1; }; event { name = \"b\"; id = 0; };",
		   "id 0");
	expect_bad("/* CTF 1.8 */ event { name = \"a\"; id = 0; fields := struct { integer { size = 12; align = 8; } _x; }; };",
		   "byte-aligned");
	expect_bad("/* CTF 1.8 */ trace { byte_order = sideways; };",
		   "byte order");
	/* one byte order for the whole trace: the reader swaps all or none */
	expect_bad("/* CTF 1.8 */ trace { byte_order = le; }; event { name = \"a\"; id = 0; fields := struct { integer { size = 32; byte_order = be; } _x; }; };",
		   "another byte order than the trace's");
	expect_bad("/* CTF 1.8 */ typealias integer { size = 16; byte_order = le; } := u16le; trace { byte_order = be; }; event { name = \"a\"; id = 0; fields := struct { u16le _x; }; };",
		   "another byte order than the trace's");
	expect_bad("/* CTF 1.8 */ event { name = \"unterminated; };", "line 1");
	expect_bad("/* CTF 1.8 */\n\n", "no events");

	/* every prefix of real metadata parses or fails cleanly */
	assert_int_equal(fx_registry(&reg), 0);
	text = metadata_text(&reg, 0, &len);
	for (cut = 0; cut < len; cut++) {
		char saved = text[cut];
		int ret;

		text[cut] = '\0';
		ret = ltt_metadata_parse(text, cut, "M", &md);
		if (!ret)
			ltt_registry_free(&md.reg);
		else
			assert_non_null(strstr(ltt_error(), "M"));
		text[cut] = saved;
	}
	ltt_registry_free(&reg);
	free(text);
}
