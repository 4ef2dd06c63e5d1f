// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The trace's metadata: CTF 1.8 TSDL text made from the event registry.
 *
 * The writer describes struct ltt_packet_header and the record header of
 * <linux/ltt.h> exactly, so that the kernel's packets are a CTF stream
 * as they are.  The parser reads back what the writer makes (a subset of
 * TSDL: typealiases of integers, the clock, the byte order and the event
 * declarations), which is all the ltt reader needs.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "checked.h"
#include "internal.h"

/* ------------------------------------------------------------------ */
/* Writer                                                              */

static const char metadata_head[] =
"/* CTF 1.8 */\n"
"/*\n"
" * An LTT trace: the kernel's packets unchanged, one stream file per CPU.\n"
" * The kernel writes integers in the CPU's byte order, which byte_order\n"
" * below says: le on x86 and arm, be on s390, powerpc and mips (BE).\n"
" * Records are packed: every integer is byte-aligned (align = 8).\n"
" */\n"
"\n"
"typealias integer { size = 7; align = 1; signed = false; } := uint7_t;\n"
"typealias integer { size = 25; align = 1; signed = false; } := uint25_t;\n"
"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
"typealias integer { size = 8; align = 8; signed = true; } := int8_t;\n"
"typealias integer { size = 16; align = 8; signed = true; } := int16_t;\n"
"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
"\n"
"trace {\n"
"\tmajor = 1;\n"
"\tminor = 8;\n"
"\tuuid = \"%s\";\n"
"\tbyte_order = %s;\n"
"\t/* struct ltt_packet_header: magic, stream_id ... */\n"
"\tpacket.header := struct {\n"
"\t\tuint32_t magic;\n"
"\t\tuint32_t stream_id;\n"
"\t};\n"
"};\n"
"\n";

static const char metadata_clock[] =
"clock {\n"
"\tname = \"monotonic\";\n"
"\tdescription = \"CLOCK_MONOTONIC; offset: CLOCK_REALTIME - CLOCK_MONOTONIC\";\n"
"\tfreq = 1000000000;\n"
"\tprecision = 1;\n"
"\toffset_s = %" PRId64 ";\n"
"\toffset = %" PRId64 ";\n"
"};\n"
"\n"
"typealias integer { size = 25; align = 1; signed = false;\n"
"\t\t   map = clock.monotonic.value; } := uint25_clock_monotonic_t;\n"
"typealias integer { size = 64; align = 8; signed = false;\n"
"\t\t   map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n"
"\n";

static const char metadata_stream[] =
"/* ... struct ltt_packet_header, continued */\n"
"struct packet_context {\n"
"\tuint64_clock_monotonic_t timestamp_begin;\n"
"\tuint64_clock_monotonic_t timestamp_end;\n"
"\tuint64_t content_size;\n"
"\tuint64_t packet_size;\n"
"\tuint64_t packet_seq_num;\n"
"\tuint64_t events_discarded;\n"
"\tuint32_t cpu_id;\n"
"\tuint32_t events;\n"
"\tint32_t pid;\n"
"\tuint32_t checksum;\n"
"};\n"
"\n"
"/*\n"
" * The record header: a 32-bit word, the event id in its low 7 bits and\n"
" * the low 25 bits of the time above; id 127 is followed by the full id\n"
" * and time (a 64-bit clock value replaces the one the low bits gave).\n"
" * CTF packs bit fields from the least significant bit of a little-endian\n"
" * word and from the most significant of a big-endian one: the id comes\n"
" * first in a le trace, the timestamp first in a be one.\n"
" */\n"
"struct event_header {\n"
"%s%s"
"\tvariant <id> {\n"
"\t\tstruct {\n"
"\t\t} compact;\n"
"\t\tstruct {\n"
"\t\t\tuint16_t id;\n"
"\t\t\tuint64_clock_monotonic_t timestamp;\n"
"\t\t} extended;\n"
"\t} v;\n"
"};\n"
"\n"
"stream {\n"
"\tid = 0;\n"
"\tevent.header := struct event_header;\n"
"\tpacket.context := struct packet_context;\n"
"};\n"
"\n";

/* The record header's bit fields, in CTF's order for each byte order. */
static const char metadata_header_id[] =
"\tenum : uint7_t { compact = 0 ... 126, extended = 127 } id;\n";
static const char metadata_header_ts[] =
"\tuint25_clock_monotonic_t timestamp;\n";

/* The TSDL type of an integer field. */
static const char *metadata_int_type(const struct ltt_field_desc *f)
{
	static const char *const u[] = { "uint8_t", "uint16_t", "uint32_t",
					 "uint64_t" };
	static const char *const s[] = { "int8_t", "int16_t", "int32_t",
					 "int64_t" };
	unsigned int i = f->size == 1 ? 0 : f->size == 2 ? 1 :
			 f->size == 4 ? 2 : 3;

	return f->type == LTT_TYPE_SIGNED ? s[i] : u[i];
}

/* Field names get a '_' so that no name can clash with a TSDL keyword. */
static int metadata_write_event(FILE *out, const struct ltt_event_desc *d)
{
	unsigned int i;

	fprintf(out, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n",
		d->name, d->id);
	/* CTF's free-form attribute says who made the event type. */
	if (d->custom)
		fprintf(out, "\tmodel.emf.uri = \"%s\";\n", LTT_CUSTOM_URI);
	if (!d->n_fields) {
		fprintf(out, "};\n\n");
		return 0;
	}
	fprintf(out, "\tfields := struct {\n");
	for (i = 0; i < d->n_fields; i++) {
		const struct ltt_field_desc *f = &d->fields[i];

		if (f->type == LTT_TYPE_STRING)
			fprintf(out, "\t\tstring _%s;\n", f->name);
		else
			fprintf(out, "\t\t%s _%s;\n", metadata_int_type(f),
				f->name);
	}
	fprintf(out, "\t};\n};\n\n");
	return 0;
}

/*
 * A string entry of the env block: characters that would need escaping
 * in TSDL (quotes, backslashes, control characters, non-ASCII) become
 * '_', as a value from an image of the previous boot may hold anything.
 */
static void metadata_env_string(FILE *out, const char *name,
				const char *value)
{
	const unsigned char *p;

	fprintf(out, "\t%s = \"", name);
	for (p = (const unsigned char *)value; *p; p++)
		fputc(*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\' ?
		      '_' : *p, out);
	fprintf(out, "\";\n");
}

/*
 * The env block: the machine (@env->arch, or this one's), the kernel's
 * release, and whose tasks the trace names: session "user" (an
 * unprivileged user's session, the other users' tasks written as pid 0)
 * or "system".
 */
static void metadata_write_env(FILE *out, const struct ltt_metadata_env *env)
{
	const char *arch = env->arch, *release = env->release;
	struct utsname u;
	unsigned int i;

	fprintf(out, "env {\n\tdomain = \"kernel\";\n\ttracer_name = \"ltt\";\n");
	if (!uname(&u)) {
		metadata_env_string(out, "hostname", u.nodename);
		metadata_env_string(out, "sysname", u.sysname);
		release = release ? release : u.release;
		arch = arch ? arch : u.machine;
	}
	if (release)
		metadata_env_string(out, "kernel_release", release);
	if (env->version)
		metadata_env_string(out, "kernel_version", env->version);
	if (arch)
		metadata_env_string(out, "arch", arch);
	fprintf(out, "\tsession = \"%s\";\n",
		env->user_session ? "user" : "system");
	for (i = 0; i < env->n_extra; i++)
		metadata_env_string(out, env->extra[i][0], env->extra[i][1]);
	fprintf(out, "};\n\n");
}

/* A random (version 4) UUID, so that CTF readers can tell traces apart. */
static void metadata_uuid(char *buf, size_t len)
{
	unsigned char u[16] = { 0 };
	unsigned int i;
	size_t n = 0;

	if (getentropy(u, sizeof(u)))
		for (i = 0; i < sizeof(u); i++)
			u[i] = rand();
	u[6] = (u[6] & 0x0f) | 0x40;
	u[8] = (u[8] & 0x3f) | 0x80;
	for (i = 0; i < sizeof(u); i++)
		n += snprintf(buf + n, len - n, "%s%02x",
			      i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "",
			      u[i]);
}

int ltt_metadata_write(int fd, const struct ltt_registry *reg,
		       int64_t real_minus_mono_ns)
{
	return ltt_metadata_write_order(fd, reg, real_minus_mono_ns,
					LTT_HOST_BIG_ENDIAN, NULL, false);
}

int ltt_metadata_write_order(int fd, const struct ltt_registry *reg,
			     int64_t real_minus_mono_ns, bool big_endian,
			     const char *arch, bool user_session)
{
	struct ltt_metadata_env env = {
		.arch = arch,
		.user_session = user_session,
	};

	return ltt_metadata_write_env(fd, reg, real_minus_mono_ns, big_endian,
				      &env);
}

int ltt_metadata_write_env(int fd, const struct ltt_registry *reg,
			   int64_t real_minus_mono_ns, bool big_endian,
			   const struct ltt_metadata_env *env)
{
	char uuid[40];
	char *text = NULL;
	size_t len = 0;
	int64_t secs, ns;
	unsigned int id;
	FILE *out;
	int ret;

	out = open_memstream(&text, &len);
	if (!out)
		return ltt_fail_errno("metadata");
	secs = real_minus_mono_ns / 1000000000;
	ns = real_minus_mono_ns % 1000000000;
	if (ns < 0) {
		ns += 1000000000;
		secs--;
	}
	metadata_uuid(uuid, sizeof(uuid));
	fprintf(out, metadata_head, uuid, big_endian ? "be" : "le");
	metadata_write_env(out, env);
	fprintf(out, metadata_clock, secs, ns);
	if (big_endian)
		fprintf(out, metadata_stream, metadata_header_ts,
			metadata_header_id);
	else
		fprintf(out, metadata_stream, metadata_header_id,
			metadata_header_ts);
	for (id = 0; id < reg->n_events; id++)
		if (reg->events[id].name[0])
			metadata_write_event(out, &reg->events[id]);
	if (fclose(out))
		return ltt_fail_errno("metadata");
	ret = ltt_write_all(fd, text, len);
	free(text);
	if (ret)
		return ltt_fail_errno("metadata: write");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Parser                                                              */

enum tok_kind { TOK_END, TOK_IDENT, TOK_NUMBER, TOK_STRING, TOK_PUNCT };

struct tsdl {
	const char *p, *end;
	const char *file;
	unsigned int line;
	/* the current token */
	enum tok_kind kind;
	char text[128];
	int64_t num;
	/* integer typealiases seen so far */
	struct tsdl_alias {
		char name[48];
		unsigned int size, align;
		bool is_signed;
		/* its own byte_order: 0 the trace's, else 'l' or 'b' */
		char order;
	} alias[32];
	unsigned int n_alias;
};

static int tsdl_fail(struct tsdl *t, const char *what)
{
	return ltt_fail("%s: line %u: %s (at \"%s\")", t->file, t->line, what,
			t->kind == TOK_END ? "end of file" : t->text);
}

static void tsdl_skip_space(struct tsdl *t)
{
	while (t->p < t->end) {
		if (*t->p == '\n') {
			t->line++;
			t->p++;
		} else if (isspace((unsigned char)*t->p)) {
			t->p++;
		} else if (t->end - t->p >= 2 && !memcmp(t->p, "/*", 2)) {
			t->p += 2;
			while (t->p < t->end &&
			       !(t->end - t->p >= 2 && !memcmp(t->p, "*/", 2)))
				t->line += *t->p++ == '\n';
			t->p = t->p < t->end ? t->p + 2 : t->end;
		} else if (t->end - t->p >= 2 && !memcmp(t->p, "//", 2)) {
			while (t->p < t->end && *t->p != '\n')
				t->p++;
		} else {
			break;
		}
	}
}

/* Copy [s, e) as the token text, cut to fit. */
static void tsdl_set_text(struct tsdl *t, const char *s, const char *e)
{
	size_t n = e - s;

	if (n >= sizeof(t->text))
		n = sizeof(t->text) - 1;
	memcpy(t->text, s, n);
	t->text[n] = '\0';
}

static int tsdl_next(struct tsdl *t)
{
	const char *s;

	tsdl_skip_space(t);
	s = t->p;
	if (s >= t->end) {
		t->kind = TOK_END;
		t->text[0] = '\0';
		return 0;
	}
	/* TSDL is text: a NUL would cut a name short where it is copied */
	if (!*s) {
		t->kind = TOK_PUNCT;
		snprintf(t->text, sizeof(t->text), "\\0");
		return tsdl_fail(t, "a NUL byte in the metadata");
	}
	if (isalpha((unsigned char)*s) || *s == '_') {
		while (t->p < t->end &&
		       (isalnum((unsigned char)*t->p) || *t->p == '_'))
			t->p++;
		t->kind = TOK_IDENT;
	} else if (isdigit((unsigned char)*s) || (*s == '-' && t->end - s > 1 &&
		   isdigit((unsigned char)s[1]))) {
		char buf[32], *e;

		t->p++;
		while (t->p < t->end && isalnum((unsigned char)*t->p))
			t->p++;
		tsdl_set_text(t, s, t->p);
		memcpy(buf, t->text, sizeof(buf));
		buf[sizeof(buf) - 1] = '\0';
		errno = 0;
		t->num = strtoll(buf, &e, 0);
		t->kind = TOK_NUMBER;
		if (*e || errno)
			return tsdl_fail(t, "bad number");
		return 0;
	} else if (*s == '"') {
		t->p++;
		while (t->p < t->end && *t->p != '"' && *t->p != '\n' && *t->p)
			t->p += (*t->p == '\\' && t->end - t->p > 1) ? 2 : 1;
		if (t->p < t->end && !*t->p) {
			tsdl_set_text(t, s, t->p);
			return tsdl_fail(t, "a NUL byte in a string");
		}
		if (t->p >= t->end || *t->p != '"')
			return tsdl_fail(t, "unterminated string");
		tsdl_set_text(t, s + 1, t->p);
		t->p++;
		t->kind = TOK_STRING;
		return 0;
	} else if (t->end - s >= 3 && !memcmp(s, "...", 3)) {
		t->p += 3;
		t->kind = TOK_PUNCT;
	} else if (t->end - s >= 2 && !memcmp(s, ":=", 2)) {
		t->p += 2;
		t->kind = TOK_PUNCT;
	} else {
		t->p++;
		t->kind = TOK_PUNCT;
	}
	tsdl_set_text(t, s, t->p);
	return 0;
}

/* Copy a token's text, cut to fit @n bytes. */
static void tsdl_copy(char *dst, size_t n, const char *src)
{
	size_t len = strnlen(src, n - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

static bool tsdl_is(const struct tsdl *t, const char *text)
{
	return t->kind != TOK_END && t->kind != TOK_STRING &&
	       !strcmp(t->text, text);
}

/* Expect @text and move past it. */
static int tsdl_expect(struct tsdl *t, const char *text)
{
	char what[64];

	if (!tsdl_is(t, text)) {
		snprintf(what, sizeof(what), "expected \"%s\"", text);
		return tsdl_fail(t, what);
	}
	return tsdl_next(t);
}

/* Skip a balanced { ... } block; the current token is "{". */
static int tsdl_skip_block(struct tsdl *t)
{
	unsigned int depth = 0;

	do {
		if (t->kind == TOK_END)
			return tsdl_fail(t, "unbalanced braces");
		if (tsdl_is(t, "{"))
			depth++;
		else if (tsdl_is(t, "}"))
			depth--;
		if (tsdl_next(t))
			return -1;
	} while (depth);
	return 0;
}

/* Skip to the ";" that ends the statement, braces included. */
static int tsdl_skip_statement(struct tsdl *t)
{
	while (!tsdl_is(t, ";")) {
		if (t->kind == TOK_END)
			return tsdl_fail(t, "statement without \";\"");
		if (tsdl_is(t, "{") ? tsdl_skip_block(t) : tsdl_next(t))
			return -1;
	}
	return tsdl_next(t);
}

/* "integer { size = ...; ... }": the current token is "integer". */
static int tsdl_integer(struct tsdl *t, struct tsdl_alias *a)
{
	memset(a, 0, sizeof(*a));
	a->align = 8;
	if (tsdl_next(t) || tsdl_expect(t, "{"))
		return -1;
	while (!tsdl_is(t, "}")) {
		char key[32];

		if (t->kind != TOK_IDENT)
			return tsdl_fail(t, "expected an integer attribute");
		tsdl_copy(key, sizeof(key), t->text);
		if (tsdl_next(t) || tsdl_expect(t, "="))
			return -1;
		if (!strcmp(key, "size") || !strcmp(key, "align")) {
			if (t->kind != TOK_NUMBER || t->num <= 0 || t->num > 64)
				return tsdl_fail(t, "bad integer size or alignment");
			*(key[0] == 's' ? &a->size : &a->align) = t->num;
		} else if (!strcmp(key, "signed")) {
			a->is_signed = tsdl_is(t, "true") || tsdl_is(t, "TRUE") ||
				       (t->kind == TOK_NUMBER && t->num);
		} else if (!strcmp(key, "byte_order")) {
			if (tsdl_is(t, "le"))
				a->order = 'l';
			else if (tsdl_is(t, "be") || tsdl_is(t, "network"))
				a->order = 'b';
			else if (!tsdl_is(t, "native"))
				return tsdl_fail(t, "bad byte order");
		}
		/* base, encoding, map: not needed to decode */
		if (tsdl_skip_statement(t))
			return -1;
	}
	if (!a->size)
		return tsdl_fail(t, "integer without a size");
	return tsdl_next(t);
}

/* "typealias integer { ... } := name;" */
static int tsdl_typealias(struct tsdl *t)
{
	struct tsdl_alias a;

	if (tsdl_next(t))
		return -1;
	if (!tsdl_is(t, "integer"))
		return tsdl_skip_statement(t);
	if (tsdl_integer(t, &a) || tsdl_expect(t, ":="))
		return -1;
	if (t->kind != TOK_IDENT)
		return tsdl_fail(t, "expected the alias name");
	tsdl_copy(a.name, sizeof(a.name), t->text);
	if (t->n_alias == ARRAY_SIZE(t->alias))
		return tsdl_fail(t, "too many typealiases");
	t->alias[t->n_alias++] = a;
	if (tsdl_next(t))
		return -1;
	return tsdl_expect(t, ";");
}

static const struct tsdl_alias *tsdl_find_alias(const struct tsdl *t,
						const char *name)
{
	unsigned int i;

	for (i = t->n_alias; i--; )
		if (!strcmp(t->alias[i].name, name))
			return &t->alias[i];
	return NULL;
}

/*
 * Event and field names are C identifiers that fit LTT_NAME_MAX (the
 * kernel's rule): nothing is cut, nothing to escape when printed.
 */
static bool tsdl_is_name(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= LTT_NAME_MAX || isdigit((unsigned char)s[0]))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* One member of an event's fields: "TYPE name;". */
static int tsdl_field(struct tsdl *t, struct ltt_event_desc *d,
		      bool big_endian)
{
	struct ltt_field_desc *f;
	struct tsdl_alias inl;
	const struct tsdl_alias *a = NULL;
	bool string = false;
	const char *name;

	if (d->has_string)
		return tsdl_fail(t, "a field after the string field");
	if (d->n_fields == LTT_FIELDS_MAX)
		return tsdl_fail(t, "too many fields");
	if (tsdl_is(t, "string")) {
		string = true;
		if (tsdl_next(t) || (tsdl_is(t, "{") && tsdl_skip_block(t)))
			return -1;
	} else if (tsdl_is(t, "integer")) {
		if (tsdl_integer(t, &inl))
			return -1;
		a = &inl;
	} else if (t->kind == TOK_IDENT) {
		a = tsdl_find_alias(t, t->text);
		if (!a)
			return tsdl_fail(t, "unknown field type");
		if (tsdl_next(t))
			return -1;
	} else {
		return tsdl_fail(t, "expected a field type");
	}
	if (a && ((a->size != 8 && a->size != 16 && a->size != 32 &&
		   a->size != 64) || a->align != 8))
		return tsdl_fail(t, "only byte-aligned 8/16/32/64-bit integer fields are supported");
	/* the reader swaps a whole trace or nothing: one order for all */
	if (a && a->order && a->size > 8 && (a->order == 'b') != big_endian)
		return tsdl_fail(t, "an integer field in another byte order than the trace's");
	if (t->kind != TOK_IDENT)
		return tsdl_fail(t, "expected a field name");
	/* The writer prefixes '_'; CTF readers strip one. */
	name = t->text[0] == '_' ? t->text + 1 : t->text;
	if (!tsdl_is_name(name, strlen(name)))
		return tsdl_fail(t, "bad field name: not an identifier of at most 31 characters");
	if (ltt_event_field_index(d, name) >= 0)
		return tsdl_fail(t, "a field named twice");

	f = &d->fields[d->n_fields++];
	tsdl_copy(f->name, sizeof(f->name), name);
	f->offset = d->payload_size;
	if (string) {
		f->type = LTT_TYPE_STRING;
		d->has_string = true;
	} else {
		f->type = a->is_signed ? LTT_TYPE_SIGNED : LTT_TYPE_UNSIGNED;
		f->size = a->size / 8;
		d->payload_size += f->size;
	}
	if (tsdl_next(t))
		return -1;
	return tsdl_expect(t, ";");
}

/* "fields := struct { ... };" of an event */
static int tsdl_fields(struct tsdl *t, struct ltt_event_desc *d,
		       bool big_endian)
{
	if (tsdl_expect(t, "struct") || tsdl_expect(t, "{"))
		return -1;
	while (!tsdl_is(t, "}"))
		if (t->kind == TOK_END || tsdl_field(t, d, big_endian))
			return t->kind == TOK_END ?
			       tsdl_fail(t, "unterminated fields") : -1;
	if (tsdl_next(t))
		return -1;
	return tsdl_expect(t, ";");
}

static int tsdl_event(struct tsdl *t, struct ltt_metadata *md)
{
	struct ltt_event_desc d;
	bool have_id = false;

	memset(&d, 0, sizeof(d));
	if (tsdl_next(t) || tsdl_expect(t, "{"))
		return -1;
	while (!tsdl_is(t, "}")) {
		char key[32];

		if (t->kind != TOK_IDENT)
			return tsdl_fail(t, "expected an event attribute");
		tsdl_copy(key, sizeof(key), t->text);
		if (tsdl_next(t))
			return -1;
		if (!strcmp(key, "fields")) {
			if (tsdl_expect(t, ":=") ||
			    tsdl_fields(t, &d, md->big_endian))
				return -1;
			continue;
		}
		/* model.emf.uri: the dots are tokens of their own. */
		while (!strcmp(key, "model") && !tsdl_is(t, "=") &&
		       t->kind != TOK_END)
			if (tsdl_next(t))
				return -1;
		if (tsdl_expect(t, "="))
			return -1;
		if (!strcmp(key, "model") && t->kind == TOK_STRING)
			d.custom = !strcmp(t->text, LTT_CUSTOM_URI);
		if (!strcmp(key, "name")) {
			if (t->kind != TOK_STRING ||
			    !tsdl_is_name(t->text, strlen(t->text)))
				return tsdl_fail(t, "bad event name: not an identifier of at most 31 characters");
			memcpy(d.name, t->text, strlen(t->text) + 1);
		} else if (!strcmp(key, "id")) {
			if (t->kind != TOK_NUMBER || t->num < 0 ||
			    t->num >= LTT_EVENTS_MAX)
				return tsdl_fail(t, "bad event id");
			d.id = t->num;
			have_id = true;
		}
		if (tsdl_skip_statement(t))
			return -1;
	}
	if (!have_id || !d.name[0])
		return tsdl_fail(t, "event without a name or an id");
	if (ltt_registry_add(&md->reg, &d)) {
		char why[256];

		snprintf(why, sizeof(why), "%s", ltt_error());
		return ltt_fail("%s: line %u: %s", t->file, t->line, why);
	}
	if (tsdl_next(t))
		return -1;
	return tsdl_expect(t, ";");
}

/* clock { offset_s = ...; offset = ...; } */
static int tsdl_clock(struct tsdl *t, struct ltt_metadata *md)
{
	int64_t secs = 0, cycles = 0;
	unsigned int line = t->line;

	if (tsdl_next(t) || tsdl_expect(t, "{"))
		return -1;
	while (!tsdl_is(t, "}")) {
		bool is_s = tsdl_is(t, "offset_s"), is_c = tsdl_is(t, "offset");

		if (t->kind == TOK_END)
			return tsdl_fail(t, "unterminated clock");
		if (is_s)
			line = t->line;
		if (is_s || is_c) {
			if (tsdl_next(t) || tsdl_expect(t, "="))
				return -1;
			if (t->kind != TOK_NUMBER)
				return tsdl_fail(t, "bad clock offset");
			*(is_s ? &secs : &cycles) = t->num;
		} else if (tsdl_is(t, "freq")) {
			/* the readers take the clock's values as nanoseconds */
			if (tsdl_next(t) || tsdl_expect(t, "="))
				return -1;
			if (t->kind != TOK_NUMBER || t->num != 1000000000)
				return tsdl_fail(t, "clock freq: ltt reads a clock of 1000000000 Hz (ns) only");
		}
		if (tsdl_skip_statement(t))
			return -1;
	}
	if (!ltt_secs_to_ns(secs, cycles, &md->clock_offset))
		return ltt_fail("%s: line %u: clock offset_s %lld and offset %lld: out of range (more than 292 years)",
				t->file, line, (long long)secs,
				(long long)cycles);
	if (tsdl_next(t))
		return -1;
	return tsdl_expect(t, ";");
}

/*
 * "packet.header := struct { uint32_t magic; uint32_t stream_id; };",
 * the current token "packet": the readers decode struct
 * ltt_packet_header and no other layout.
 */
static int tsdl_packet_header(struct tsdl *t)
{
	static const char *const want[] = { "uint32_t", "magic", ";",
					    "uint32_t", "stream_id", ";", "}" };
	unsigned int i;

	if (tsdl_next(t) || tsdl_expect(t, ".") || tsdl_expect(t, "header") ||
	    tsdl_expect(t, ":=") || tsdl_expect(t, "struct") ||
	    tsdl_expect(t, "{"))
		return -1;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!tsdl_is(t, want[i]))
			return tsdl_fail(t, "packet.header: not ltt's layout (uint32_t magic; uint32_t stream_id;), which is the only one ltt reads");
		else if (tsdl_next(t))
			return -1;
	return 0;
}

/* trace { byte_order = ...; packet.header := ...; ... } */
static int tsdl_trace(struct tsdl *t, struct ltt_metadata *md)
{
	if (tsdl_next(t) || tsdl_expect(t, "{"))
		return -1;
	while (!tsdl_is(t, "}")) {
		if (t->kind == TOK_END)
			return tsdl_fail(t, "unterminated trace block");
		if (tsdl_is(t, "byte_order")) {
			if (tsdl_next(t) || tsdl_expect(t, "="))
				return -1;
			if (tsdl_is(t, "be") || tsdl_is(t, "network"))
				md->big_endian = true;
			else if (!tsdl_is(t, "le"))
				return tsdl_fail(t, "bad byte order");
		} else if (tsdl_is(t, "packet") && tsdl_packet_header(t)) {
			return -1;
		}
		if (tsdl_skip_statement(t))
			return -1;
	}
	if (tsdl_next(t))
		return -1;
	return tsdl_expect(t, ";");
}

/*
 * env { arch = "..."; session = "user"; ... }: the machine that recorded
 * the trace, and whether a user session did (no session: the whole
 * system's, as every trace before it was written).
 */
static int tsdl_env(struct tsdl *t, struct ltt_metadata *md)
{
	if (tsdl_next(t) || tsdl_expect(t, "{"))
		return -1;
	while (!tsdl_is(t, "}")) {
		if (t->kind == TOK_END)
			return tsdl_fail(t, "unterminated env block");
		if (tsdl_is(t, "arch")) {
			if (tsdl_next(t) || tsdl_expect(t, "="))
				return -1;
			if (t->kind == TOK_STRING)
				tsdl_copy(md->arch, sizeof(md->arch), t->text);
		} else if (tsdl_is(t, "session")) {
			if (tsdl_next(t) || tsdl_expect(t, "="))
				return -1;
			if (t->kind == TOK_STRING)
				md->user_session = !strcmp(t->text, "user");
		}
		if (tsdl_skip_statement(t))
			return -1;
	}
	if (tsdl_next(t))
		return -1;
	return tsdl_expect(t, ";");
}

int ltt_metadata_parse(const char *text, size_t len, const char *file,
		       struct ltt_metadata *md)
{
	struct tsdl *t;
	int ret = 0;

	memset(md, 0, sizeof(*md));
	if (len < 11 || memcmp(text, "/* CTF 1.8", 10))
		return ltt_fail("%s: not CTF 1.8 text metadata (no \"/* CTF 1.8\" at its start)",
				file);
	t = calloc(1, sizeof(*t));
	if (!t)
		return ltt_fail("out of memory");
	t->p = text;
	t->end = text + len;
	t->file = file;
	t->line = 1;
	ret = tsdl_next(t);
	while (!ret && t->kind != TOK_END) {
		if (tsdl_is(t, "typealias"))
			ret = tsdl_typealias(t);
		else if (tsdl_is(t, "event"))
			ret = tsdl_event(t, md);
		else if (tsdl_is(t, "clock"))
			ret = tsdl_clock(t, md);
		else if (tsdl_is(t, "trace"))
			ret = tsdl_trace(t, md);
		else if (tsdl_is(t, "env"))
			ret = tsdl_env(t, md);
		else
			ret = tsdl_skip_statement(t);
	}
	if (!ret && !md->reg.n_events)
		ret = ltt_fail("%s: no events declared", file);
	free(t);
	if (ret)
		ltt_registry_free(&md->reg);
	return ret;
}
