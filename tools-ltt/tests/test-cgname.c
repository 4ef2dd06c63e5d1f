// SPDX-License-Identifier: GPL-2.0
/*
 * The names of cgroup paths (ltt/cgname.h): every line of
 * tests/fixtures/cgroup-paths.txt, then the fixture's paths mutated at
 * random (a fixed seed) and cut, spliced and stretched: no crash under
 * ASan and UBSan, no byte read past the path, bounded printable output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "../ltt/cgname.h"

#define CG_FIXTURE	FIXTURE("cgroup-paths.txt")
#define MUTATIONS	10000

struct cg_line {
	char *path, *name, *kind, *checks;
	unsigned int lineno;
};

struct cg_fixture {
	struct cg_line *v;
	size_t n;
	char *text;
};

static void cg_load(struct cg_fixture *f)
{
	FILE *fp = fopen(CG_FIXTURE, "r");
	size_t len = 0, cap = 0;
	unsigned int lineno = 0;
	char *line, *next;
	long size;

	memset(f, 0, sizeof(*f));
	if (!fp)
		fail_msg("%s: cannot open", CG_FIXTURE);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	size = ftell(fp);
	assert_true(size > 0);
	rewind(fp);
	f->text = malloc((size_t)size + 1);
	assert_non_null(f->text);
	len = fread(f->text, 1, (size_t)size, fp);
	assert_int_equal(len, (size_t)size);
	f->text[len] = '\0';
	fclose(fp);

	for (line = f->text; *line; line = next) {
		struct cg_line *l;
		char *tab;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (!*line || *line == '#')
			continue;
		if (f->n == cap) {
			cap = cap ? 2 * cap : 128;
			f->v = realloc(f->v, cap * sizeof(*f->v));
			assert_non_null(f->v);
		}
		l = &f->v[f->n++];
		l->lineno = lineno;
		l->path = line;
		tab = strchr(line, '\t');
		if (!tab)
			fail_msg("%s:%u: no name", CG_FIXTURE, lineno);
		*tab = '\0';
		l->name = tab + 1;
		tab = strchr(l->name, '\t');
		if (!tab)
			fail_msg("%s:%u: no kind", CG_FIXTURE, lineno);
		*tab = '\0';
		l->kind = tab + 1;
		tab = strchr(l->kind, '\t');
		l->checks = "";
		if (tab) {
			*tab = '\0';
			l->checks = tab + 1;
		}
	}
}

static void cg_free(struct cg_fixture *f)
{
	free(f->v);
	free(f->text);
}

/* The value of @key in @out as the fixture writes it (static). */
static const char *cg_field(const struct ltt_cgroup_name *out,
			    const char *key)
{
	static char buf[32];

	if (!strcmp(key, "id"))
		return out->id;
	if (!strcmp(key, "pod"))
		return out->pod;
	if (!strcmp(key, "qos"))
		return ltt_cgroup_qos_name(out->qos);
	if (!strcmp(key, "runtime"))
		return out->runtime;
	if (!strcmp(key, "unit"))
		return out->unit;
	if (!strcmp(key, "session"))
		return out->session;
	if (!strcmp(key, "uid")) {
		snprintf(buf, sizeof(buf), "%ld", out->uid);
		return buf;
	}
	if (!strcmp(key, "monitor"))
		return out->monitor ? "1" : "0";
	return NULL;
}

static unsigned int cg_check_line(const struct cg_line *l)
{
	struct ltt_cgroup_name out;
	char checks[1024], *word, *save = NULL;
	unsigned int bad = 0;

	assert_int_equal(ltt_cgroup_name(l->path, &out), 0);
	if (strcmp(out.name, l->name) ||
	    strcmp(ltt_cgroup_kind_name(out.kind), l->kind)) {
		print_error("%s:%u: \"%s\": \"%s\" %s, not \"%s\" %s\n",
			    CG_FIXTURE, l->lineno, l->path, out.name,
			    ltt_cgroup_kind_name(out.kind), l->name, l->kind);
		bad++;
	}
	snprintf(checks, sizeof(checks), "%s", l->checks);
	for (word = strtok_r(checks, " ", &save); word;
	     word = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(word, '=');
		const char *got;

		if (!eq)
			fail_msg("%s:%u: check \"%s\" without =", CG_FIXTURE,
				 l->lineno, word);
		*eq = '\0';
		got = cg_field(&out, word);
		if (!got)
			fail_msg("%s:%u: no field %s", CG_FIXTURE, l->lineno, word);
		if (strcmp(got, eq + 1)) {
			print_error("%s:%u: \"%s\": %s \"%s\", not \"%s\"\n",
				    CG_FIXTURE, l->lineno, l->path, word, got,
				    eq + 1);
			bad++;
		}
	}
	return bad;
}

void cgname_names_every_fixture_path(void **state)
{
	static const char *const runtimes[] = {
		"docker", "podman", "containerd", "crio", "pod", "machine",
		"lxc", "unknown",
	};
	struct cg_fixture f;
	unsigned int bad = 0, systemd = 0;
	size_t i, j;

	(void)state;
	cg_load(&f);
	for (i = 0; i < f.n; i++)
		bad += cg_check_line(&f.v[i]);
	/* at least five paths of each runtime, and of systemd's units */
	for (j = 0; j < sizeof(runtimes) / sizeof(runtimes[0]); j++) {
		unsigned int n = 0;

		for (i = 0; i < f.n; i++)
			n += !strcmp(f.v[i].kind, runtimes[j]);
		if (n < 5)
			fail_msg("%s: %u lines of kind %s", CG_FIXTURE, n,
				 runtimes[j]);
	}
	for (i = 0; i < f.n; i++)
		systemd += !strcmp(f.v[i].kind, "service") ||
			   !strcmp(f.v[i].kind, "scope") ||
			   !strcmp(f.v[i].kind, "slice") ||
			   !strcmp(f.v[i].kind, "session");
	assert_true(systemd >= 5);
	cg_free(&f);
	assert_int_equal(bad, 0);
}

/* The fixed-seed generator of the mutations (xorshift64*). */
static uint64_t cg_rand_state;

static uint64_t cg_rand(void)
{
	cg_rand_state ^= cg_rand_state >> 12;
	cg_rand_state ^= cg_rand_state << 25;
	cg_rand_state ^= cg_rand_state >> 27;
	return cg_rand_state * 0x2545f4914f6cdd1dULL;
}

static size_t cg_below(size_t n)
{
	return n ? (size_t)(cg_rand() % n) : 0;
}

/* A string field: terminated in its buffer, printable ASCII. */
static void cg_check_string(const char *s, size_t size, bool spaces)
{
	const char *nul = memchr(s, '\0', size);
	const char *p;

	assert_non_null(nul);
	for (p = s; p < nul; p++)
		if (!((*p > 0x20 && *p < 0x7f) || (spaces && *p == ' ')))
			fail_msg("byte 0x%02x in \"%s\"", (unsigned char)*p, s);
}

static void cg_check_out(const struct ltt_cgroup_name *out)
{
	size_t n;

	assert_true((unsigned int)out->kind < LTT_CGROUP_KINDS);
	assert_non_null(out->runtime);
	assert_non_null(ltt_cgroup_kind_name(out->kind));
	cg_check_string(out->name, sizeof(out->name), true);
	cg_check_string(out->id, sizeof(out->id), false);
	cg_check_string(out->pod, sizeof(out->pod), false);
	cg_check_string(out->unit, sizeof(out->unit), false);
	cg_check_string(out->session, sizeof(out->session), false);
	if (!out->name[0])
		fail_msg("no name: kind %s, unit \"%s\"",
			 ltt_cgroup_kind_name(out->kind), out->unit);
	switch (out->kind) {
	case LTT_CGROUP_DOCKER:
	case LTT_CGROUP_CONTAINERD:
	case LTT_CGROUP_CRIO:
	case LTT_CGROUP_CONTAINER:
		n = strlen(out->id);
		assert_true(n >= 12 && n <= 64);
		assert_true(strspn(out->id, "0123456789abcdef") == n);
		break;
	case LTT_CGROUP_POD:
		assert_true(out->pod[0] != '\0');
		assert_true(out->qos != LTT_CGROUP_QOS_NONE);
		break;
	default:
		break;
	}
}

static void cg_same(const struct ltt_cgroup_name *a,
		    const struct ltt_cgroup_name *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->qos, b->qos);
	assert_int_equal(a->uid, b->uid);
	assert_int_equal(a->monitor, b->monitor);
	assert_string_equal(a->runtime, b->runtime);
	assert_string_equal(a->name, b->name);
	assert_string_equal(a->id, b->id);
	assert_string_equal(a->pod, b->pod);
	assert_string_equal(a->unit, b->unit);
	assert_string_equal(a->session, b->session);
}

#define CG_MUT_MAX	(64 << 10)

static const char *const cg_tokens[] = {
	"/", "-", "_", ".", ":", "@", "\\x", "\\x2d", "\\x2", ".scope",
	".slice", ".service", "docker-", "docker", "libpod-", "libpod-conmon-",
	"libpod_pod_", "crio-", "crio-conmon-", "cri-containerd-",
	":cri-containerd:", ":crio:", "nerdctl-", "kubepods", "-pod", "pod",
	"burstable", "besteffort", "machine-", "systemd-nspawn@", "lxc.payload.",
	"lxc.monitor.", "lxc", "user-1000.slice", "user@", "session-", "default",
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	"12345678_1234_1234_1234_123456789abc",
};

/* Insert @n bytes of @s at @at of @buf (@len long, room for CG_MUT_MAX). */
static size_t cg_insert(char *buf, size_t len, size_t at, const char *s,
			size_t n)
{
	if (len + n > CG_MUT_MAX)
		n = CG_MUT_MAX - len;
	memmove(buf + at + n, buf + at, len - at);
	memcpy(buf + at, s, n);
	return len + n;
}

static size_t cg_mutate(char *buf, size_t len, const struct cg_fixture *f)
{
	static const char alphabet[] = "/-_.:@\\x0123456789abcdefABCDEF ";
	const struct cg_line *other = &f->v[cg_below(f->n)];
	size_t at = cg_below(len + 1), n, i;
	const char *tok;
	char c;

	switch (cg_below(9)) {
	case 0:		/* change a byte */
		if (len)
			buf[cg_below(len)] = cg_below(4) ?
				alphabet[cg_below(sizeof(alphabet) - 1)] :
				(char)cg_below(256);
		break;
	case 1:		/* insert a byte */
		c = cg_below(4) ? alphabet[cg_below(sizeof(alphabet) - 1)] :
			(char)cg_below(256);
		len = cg_insert(buf, len, at, &c, 1);
		break;
	case 2:		/* delete a run */
		n = cg_below(len - at + 1);
		memmove(buf + at, buf + at + n, len - at - n);
		len -= n;
		break;
	case 3:		/* copy a run elsewhere */
		if (len) {
			char tmp[256];
			size_t from = cg_below(len);

			n = cg_below(len - from) + 1;
			if (n > sizeof(tmp))
				n = sizeof(tmp);
			memcpy(tmp, buf + from, n);
			len = cg_insert(buf, len, at, tmp, n);
		}
		break;
	case 4:		/* cut */
		len = at;
		break;
	case 5:		/* the head of this one, the tail of another */
		n = strlen(other->path);
		i = cg_below(n + 1);
		len = cg_insert(buf, at, at, other->path + i, n - i);
		break;
	case 6:		/* a token of the conventions */
		tok = cg_tokens[cg_below(sizeof(cg_tokens) / sizeof(cg_tokens[0]))];
		len = cg_insert(buf, len, at, tok, strlen(tok));
		break;
	case 7:		/* stretch: the path again and again */
		n = cg_below(64) + 1;
		for (i = 0, at = len; i < n && len < CG_MUT_MAX; i++)
			len = cg_insert(buf, len, len, buf, at);
		break;
	case 8: {	/* a long component */
		char run[2048];

		memset(run, 'a', sizeof(run));
		len = cg_insert(buf, len, at, run, cg_below(sizeof(run)) + 1);
		break;
	}
	}
	return len;
}

void cgname_survives_mutated_paths(void **state)
{
	struct ltt_cgroup_name a, b;
	struct cg_fixture f;
	char *buf = malloc(CG_MUT_MAX);
	unsigned int i, kinds[LTT_CGROUP_KINDS] = { 0 }, known = 0;

	(void)state;
	assert_non_null(buf);
	cg_load(&f);
	cg_rand_state = 0x6c74742d6367ULL;	/* fixed: the same cases each run */
	for (i = 0; i < MUTATIONS; i++) {
		const struct cg_line *l = &f.v[cg_below(f.n)];
		size_t len = strlen(l->path), m, k;
		char *exact, *terminated;

		memcpy(buf, l->path, len);
		for (m = cg_below(4) + 1, k = 0; k < m; k++)
			len = cg_mutate(buf, len, &f);
		/* exactly @len bytes, no NUL after: ASan sees any over-read */
		exact = malloc(len ? len : 1);
		assert_non_null(exact);
		memcpy(exact, buf, len);
		assert_int_equal(ltt_cgroup_name_len(exact, len, &a), 0);
		cg_check_out(&a);
		/* the same path NUL-terminated: the same name */
		terminated = malloc(len + 1);
		assert_non_null(terminated);
		memcpy(terminated, buf, len);
		terminated[len] = '\0';
		assert_int_equal(ltt_cgroup_name(terminated, &b), 0);
		cg_same(&a, &b);
		kinds[a.kind]++;
		known += a.kind != LTT_CGROUP_UNKNOWN;
		free(terminated);
		free(exact);
	}
	/* the mutations keep many paths recognisable, not only garbage */
	assert_true(known > MUTATIONS / 4);
	assert_true(kinds[LTT_CGROUP_UNKNOWN] > MUTATIONS / 20);
	cg_free(&f);
	free(buf);
}

void cgname_bounds_and_arguments(void **state)
{
	struct ltt_cgroup_name out;
	size_t n = 1 << 20, i;
	char *p = malloc(n + 1);

	(void)state;
	assert_non_null(p);
	assert_int_equal(ltt_cgroup_name(NULL, &out), -1);
	assert_int_equal(ltt_cgroup_name("/", NULL), -1);
	assert_int_equal(ltt_cgroup_name_len(NULL, 0, &out), -1);
	/* nothing at all, and a NUL before the length */
	assert_int_equal(ltt_cgroup_name_len("", 0, &out), 0);
	assert_int_equal(out.kind, LTT_CGROUP_ROOT);
	assert_int_equal(ltt_cgroup_name_len("/lxc/a\0/lxc.payload.b", 21, &out), 0);
	assert_string_equal(out.name, "lxc:a");
	/* half a million components */
	for (i = 0; i < n; i += 2)
		p[i] = 'a', p[i + 1] = '/';
	p[n] = '\0';
	assert_int_equal(ltt_cgroup_name(p, &out), 0);
	assert_string_equal(out.name, "a");
	/* one component of a megabyte: the name is cut, whole escapes only */
	memset(p, 0xff, n);
	p[n] = '\0';
	assert_int_equal(ltt_cgroup_name(p, &out), 0);
	assert_int_equal(out.kind, LTT_CGROUP_UNKNOWN);
	assert_true(strlen(out.name) < sizeof(out.name));
	assert_int_equal(strlen(out.name) % 4, 0);
	/* a machine's name longer than the buffers */
	memcpy(p, "/machine.slice/machine-", 23);
	for (i = 23; i < 23 + 600; i++)
		p[i] = "ab\\x2d"[i % 6];
	memcpy(p + i, ".scope", 7);
	assert_int_equal(ltt_cgroup_name(p, &out), 0);
	assert_int_equal(out.kind, LTT_CGROUP_MACHINE);
	assert_true(strlen(out.id) < sizeof(out.id));
	assert_true(strlen(out.name) < sizeof(out.name));
	assert_int_equal(strncmp(out.name, "machine:", 8), 0);
	/* the kinds' names */
	for (i = 0; i < LTT_CGROUP_KINDS; i++)
		assert_string_not_equal(ltt_cgroup_kind_name(i), "");
	assert_string_equal(ltt_cgroup_kind_name(LTT_CGROUP_KINDS), "unknown");
	free(p);
}
