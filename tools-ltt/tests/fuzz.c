// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: a bounded, deterministic mutation fuzzer of the readers.
 *
 *   fuzz [-n COUNT] [-s SEED] [-j JOBS] [-t SECONDS] [-c CASE] [-k DIR]
 *        LTT SCRIPT FIXTURE_DIR...
 *
 * Each case takes one fixture trace, damages one of its files (a stream
 * file or the TSDL metadata: bit flips, bytes set, truncation, chunks
 * inserted, duplicated or removed, boundary integers in packet and
 * record headers, numbers and lines of the metadata changed) and runs
 * `LTT report`, `LTT stats --pid 101` and `LTT watch SCRIPT` (with
 * --follow in every other case of a damaged stream) on the result.  LTT is
 * ltt built with ASan and UBSan.  Each run must end, within the time
 * limit, with status 0, or 1 with a message on stderr naming the trace
 * directory; no sanitizer report, no signal; report, stats and watch
 * must agree on whether the trace is damaged.
 *
 * A fixture with packet indexes (index/channel0_N.idx) has them damaged
 * too, and a case that damages one (and one case in four of the others)
 * also runs `LTT report --from -S` (a seek, through the index, to S
 * seconds before the end).  When only an index was
 * damaged, that report must print exactly what it prints on the same
 * trace without its index, with the same status: a damaged index may
 * cost time, never events.
 *
 * Case N depends on the seed and N alone: `-c N` runs it again (its
 * trace is kept in -k DIR), and the cases a run makes do not depend on
 * -j.  A failing case's trace is kept in DIR/case-N (default: a
 * directory under $TMPDIR, named at the end).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FUZZ_FILES_MAX	16
#define FUZZ_FIXTURES_MAX 32
#define FUZZ_RUNS	5		/* report, stats, watch, two seeks */
#define FUZZ_COMPARED	3		/* ... of which agree on damage */
#define PKT_HDR		72		/* struct ltt_packet_header */

struct file {
	char name[300];
	unsigned char *data;
	size_t size;
};

struct fixture {
	char dir[4096];
	struct file files[FUZZ_FILES_MAX];
	unsigned int n_files;
};

struct fuzz {
	const char *ltt, *script;
	struct fixture fx[FUZZ_FIXTURES_MAX];
	unsigned int n_fx;
	uint64_t seed;
	unsigned int timeout;
	char keep[8192];		/* failing cases go there */
	bool verbose;
};

/* ------------------------------------------------------------------ */
/* Randomness: splitmix64, seeded per case                             */

static uint64_t rnd_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number below @n (n > 0). */
static uint64_t rnd(uint64_t *s, uint64_t n)
{
	return rnd_next(s) % n;
}

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */

static void die(const char *fmt, const char *what)
{
	fprintf(stderr, "fuzz: ");
	fprintf(stderr, fmt, what);
	fprintf(stderr, ": %s\n", strerror(errno));
	exit(2);
}

static unsigned char *read_file(const char *path, size_t *size)
{
	unsigned char *buf;
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die("%s", path);
	buf = malloc(st.st_size + 1);
	if (!buf || read(fd, buf, st.st_size) != st.st_size)
		die("%s: read", path);
	close(fd);
	*size = st.st_size;
	return buf;
}

static int file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct file *)a)->name,
		      ((const struct file *)b)->name);
}

/* The files of a trace directory, in name order (determinism). */
static void load_fixture(struct fixture *fx, const char *dir)
{
	char path[8192];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		die("%s", dir);
	snprintf(fx->dir, sizeof(fx->dir), "%s", dir);
	while ((de = readdir(d))) {
		struct file *f;

		if (strcmp(de->d_name, "metadata") &&
		    strncmp(de->d_name, "channel0_", 9))
			continue;
		if (fx->n_files == FUZZ_FILES_MAX) {
			errno = E2BIG;
			die("%s: too many files", dir);
		}
		f = &fx->files[fx->n_files++];
		snprintf(f->name, sizeof(f->name), "%s", de->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f->data = read_file(path, &f->size);
	}
	closedir(d);
	/* the packet indexes, as "index/channel0_N.idx" */
	snprintf(path, sizeof(path), "%s/index", dir);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		struct file *f;

		if (strncmp(de->d_name, "channel0_", 9))
			continue;
		if (fx->n_files == FUZZ_FILES_MAX) {
			errno = E2BIG;
			die("%s: too many files", dir);
		}
		f = &fx->files[fx->n_files++];
		snprintf(f->name, sizeof(f->name), "index/%s", de->d_name);
		snprintf(path, sizeof(path), "%s/index/%s", dir, de->d_name);
		f->data = read_file(path, &f->size);
	}
	if (d)
		closedir(d);
	qsort(fx->files, fx->n_files, sizeof(fx->files[0]), file_cmp);
}

/* ------------------------------------------------------------------ */
/* Mutations                                                           */

/* A file being damaged: its bytes, grown as needed. */
struct mutant {
	unsigned char *data;
	size_t size, cap;
};

static void mutant_reserve(struct mutant *m, size_t n)
{
	if (m->size + n <= m->cap)
		return;
	m->cap = 2 * (m->size + n) + 64;
	m->data = realloc(m->data, m->cap);
	if (!m->data)
		die("%s", "out of memory");
}

static void mutant_insert(struct mutant *m, size_t at, const void *src,
			  size_t n)
{
	mutant_reserve(m, n);
	memmove(m->data + at + n, m->data + at, m->size - at);
	memcpy(m->data + at, src, n);
	m->size += n;
}

static void mutant_delete(struct mutant *m, size_t at, size_t n)
{
	if (at + n > m->size)
		n = m->size - at;
	memmove(m->data + at, m->data + at + n, m->size - at - n);
	m->size -= n;
}

/* Where the packets of a stream start, from their headers. */
static unsigned int packet_offsets(const struct mutant *m, size_t *off,
				   unsigned int max)
{
	size_t pos = 0;
	unsigned int n = 0;

	while (n < max && pos + PKT_HDR <= m->size) {
		uint64_t bits;

		off[n++] = pos;
		memcpy(&bits, m->data + pos + 32, 8);
		if (bits / 8 < PKT_HDR || bits / 8 > m->size - pos)
			break;
		pos += bits / 8;
	}
	return n;
}

/* Integers at the edges: what a hostile header holds. */
static uint64_t boundary_value(uint64_t *s, uint64_t old)
{
	static const uint64_t v[] = {
		0, 1, 2, 7, 8, 0x7f, 0x80, 0xff, 0x7fff, 0xffff,
		0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
		0x7fffffffffffffffULL, 0x8000000000000000ULL,
		0xffffffffffffffffULL, 0xfffffffffffffff8ULL,
		0x7fffff0000000000ULL, 0x7fffffffffff0000ULL,
		1ULL << 25, (1ULL << 25) - 1, 1ULL << 40,
	};
	unsigned int k = rnd(s, sizeof(v) / sizeof(v[0]) + 6);

	switch ((int)k - (int)(sizeof(v) / sizeof(v[0]))) {
	case 0: return old + 1;
	case 1: return old - 1;
	case 2: return old + 8;
	case 3: return old - 8;
	case 4: return old * 2;
	case 5: return old ^ (1ULL << rnd(s, 64));
	}
	return v[k];
}

/* A packet header field (offset, size) set to a boundary value. */
static void mutate_header(struct mutant *m, uint64_t *s)
{
	static const struct { unsigned int off, size; } fields[] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
		{ 40, 8 }, { 48, 8 }, { 56, 4 }, { 60, 4 }, { 64, 4 }, { 68, 4 },
	};
	size_t pkt[256];
	unsigned int n = packet_offsets(m, pkt, 256), f;
	uint64_t old = 0, v;
	size_t at;

	if (!n)
		return;
	f = rnd(s, sizeof(fields) / sizeof(fields[0]));
	at = pkt[rnd(s, n)] + fields[f].off;
	memcpy(&old, m->data + at, fields[f].size);
	v = boundary_value(s, old);
	/* content_size and packet_size move together, or not */
	if ((fields[f].off == 24 || fields[f].off == 32) && rnd(s, 2)) {
		v &= ~7ULL;
		memcpy(m->data + at - fields[f].off + 24, &v, 8);
		v = (v + 63) & ~63ULL;
		memcpy(m->data + at - fields[f].off + 32, &v, 8);
		return;
	}
	memcpy(m->data + at, &v, fields[f].size);
}

/*
 * Every packet's times moved by the same multiple of 2^25 ns: the
 * compact records' low time bits stay right, the trace stays readable,
 * up to its extended headers, and its times reach the edges.
 */
static void mutate_shift(struct mutant *m, uint64_t *s)
{
	size_t pkt[256];
	unsigned int n = packet_offsets(m, pkt, 256), i;
	uint64_t to = boundary_value(s, 0) & ~((1ULL << 25) - 1), first, d;

	if (!n)
		return;
	memcpy(&first, m->data + pkt[0] + 8, 8);
	d = to - (first & ~((1ULL << 25) - 1));
	for (i = 0; i < n; i++) {
		uint64_t t[2];

		memcpy(t, m->data + pkt[i] + 8, 16);
		t[0] += d;
		t[1] += d;
		memcpy(m->data + pkt[i] + 8, t, 16);
	}
}

/* A record header word past a packet header: its id or time bits. */
static void mutate_record(struct mutant *m, uint64_t *s)
{
	size_t pkt[256];
	unsigned int n = packet_offsets(m, pkt, 256);
	uint32_t w;
	size_t at;

	if (!n)
		return;
	at = pkt[rnd(s, n)] + PKT_HDR + 4 * rnd(s, 32);
	if (at + 4 > m->size)
		return;
	memcpy(&w, m->data + at, 4);
	switch (rnd(s, 4)) {
	case 0:
		w = (w & ~0x7fU) | 0x7f;	/* extended */
		break;
	case 1:
		w = (w & ~0x7fU) | rnd(s, 128);
		break;
	case 2:
		w = (w & 0x7f) | (uint32_t)rnd_next(s) << 7;
		break;
	default:
		w = rnd_next(s);
	}
	memcpy(m->data + at, &w, 4);
	/* an extended header's id and time */
	if ((w & 0x7f) == 0x7f && at + 14 <= m->size && rnd(s, 2)) {
		uint64_t ts = boundary_value(s, 0);
		uint16_t id = rnd(s, 3) ? rnd(s, 300) : 0xffff;

		memcpy(m->data + at + 4, &id, 2);
		memcpy(m->data + at + 6, &ts, 8);
	}
}

/* The byte-level mutations every file gets. */
static void mutate_bytes(struct mutant *m, uint64_t *s,
			 const struct file *orig)
{
	static const unsigned char sets[] = { 0, 0xff, 0x7f, 0x80, '"', '\\',
					      '\n', '{', '}', ';', '0', '9' };
	unsigned char buf[512];
	size_t at, n, i;

	if (!m->size) {
		mutant_insert(m, 0, orig->data, orig->size < 64 ? orig->size : 64);
		return;
	}
	at = rnd(s, m->size);
	switch (rnd(s, 8)) {
	case 0:				/* bit flip */
		m->data[at] ^= 1 << rnd(s, 8);
		break;
	case 1:				/* a byte set */
		m->data[at] = rnd(s, 2) ? sets[rnd(s, sizeof(sets))] :
					  rnd(s, 256);
		break;
	case 2:				/* truncation */
		m->size = at;
		break;
	case 3:				/* random bytes inserted */
		n = 1 + rnd(s, 64);
		for (i = 0; i < n; i++)
			buf[i] = rnd(s, 256);
		mutant_insert(m, at, buf, n);
		break;
	case 4:				/* a chunk duplicated */
		n = 1 + rnd(s, sizeof(buf));
		if (n > m->size - at)
			n = m->size - at;
		memcpy(buf, m->data + at, n);
		mutant_insert(m, rnd(s, m->size + 1), buf, n);
		break;
	case 5:				/* a chunk removed */
		mutant_delete(m, at, 1 + rnd(s, 256));
		break;
	case 6:				/* a 32-bit word at a boundary */
		if (at + 4 <= m->size) {
			uint32_t v = boundary_value(s, 0);

			memcpy(m->data + at, &v, 4);
		}
		break;
	default:			/* several flips */
		for (i = 1 + rnd(s, 16); i; i--)
			m->data[rnd(s, m->size)] ^= 1 + rnd(s, 255);
	}
}

/* Whole packets duplicated, swapped or dropped. */
static void mutate_packets(struct mutant *m, uint64_t *s)
{
	size_t pkt[257];
	unsigned int n = packet_offsets(m, pkt, 256), a;
	size_t len;
	unsigned char *copy;

	if (!n)
		return;
	pkt[n] = m->size;
	a = rnd(s, n);
	len = pkt[a + 1] - pkt[a];
	copy = malloc(len ? len : 1);
	memcpy(copy, m->data + pkt[a], len);
	switch (rnd(s, 3)) {
	case 0:
		mutant_insert(m, pkt[rnd(s, n + 1)], copy, len);
		break;
	case 1:
		mutant_delete(m, pkt[a], len);
		break;
	default:
		mutant_delete(m, pkt[a], len);
		mutant_insert(m, pkt[rnd(s, a + 1)], copy, len);
	}
	free(copy);
}

/* The metadata's text: numbers, lines, tokens. */
static void mutate_text(struct mutant *m, uint64_t *s)
{
	static const char *const numbers[] = {
		"0", "-1", "1", "7", "9", "63", "64", "65", "127", "128",
		"4294967296", "2147483648", "9223372036854775807",
		"-9223372036854775808", "9223372036854775808",
		"18446744073709551616", "0x7fffffffffffffff", "99999999999",
		"-9223372036", "9223372037", "1e9", "08",
	};
	static const char *const words[] = {
		"string", "integer", "uint8_t", "uint64_t", "int32_t", "struct",
		"event", "fields", "name", "id", "typealias", ":=", "{", "}",
		";", "\"", "=", "\\", "_", "enum", "variant", "clock",
		"trace", "byte_order = be;", "\"\"", "\"a\\0b\"",
	};
	unsigned int kind;
	size_t at, i, start, end;

	if (!m->size)
		return;
	at = rnd(s, m->size);
	kind = rnd(s, 6);
	/* the clock's offset is one number of hundreds: aim at it */
	if (!rnd(s, 6)) {
		unsigned char *o = memmem(m->data, m->size, "offset", 6);

		if (o) {
			at = o - m->data + rnd(s, 40);
			kind = 0;
		}
	}
	switch (kind) {
	case 0:				/* a number replaced */
		for (i = at; i < m->size && !(m->data[i] >= '0' && m->data[i] <= '9'); i++)
			;
		if (i == m->size)
			break;
		for (end = i; end < m->size && m->data[end] >= '0' &&
		     m->data[end] <= '9'; end++)
			;
		if (i && m->data[i - 1] == '-')
			i--;
		mutant_delete(m, i, end - i);
		at = rnd(s, sizeof(numbers) / sizeof(numbers[0]));
		mutant_insert(m, i, numbers[at], strlen(numbers[at]));
		break;
	case 1:				/* a word inserted */
		i = rnd(s, sizeof(words) / sizeof(words[0]));
		mutant_insert(m, at, words[i], strlen(words[i]));
		break;
	case 2:				/* a NUL in a name */
		for (i = at; i < m->size && m->data[i] != '"'; i++)
			;
		if (i + 2 < m->size)
			m->data[i + 2] = '\0';
		break;
	default: {			/* a line removed, duplicated, moved */
		unsigned char *line;
		size_t len;

		for (start = at; start && m->data[start - 1] != '\n'; start--)
			;
		for (end = at; end < m->size && m->data[end] != '\n'; end++)
			;
		if (end < m->size)
			end++;
		len = end - start;
		line = malloc(len + 1);
		memcpy(line, m->data + start, len);
		i = rnd(s, 3);
		if (i != 1)
			mutant_delete(m, start, len);
		if (i != 0)
			mutant_insert(m, rnd(s, m->size + 1), line, len);
		free(line);
	}
	}
}

/*
 * Damage an index (index.c): an integer of its header or of an entry set
 * to a boundary value or moved a little (times shifted are what a seek
 * trusts most), or whole entries cut, duplicated or swapped.
 */
static void mutate_index(struct mutant *m, uint64_t *s)
{
	const size_t hdr = 16, entry = 72;
	size_t n = m->size > hdr ? (m->size - hdr) / entry : 0, at;
	uint64_t v;

	if (!n || rnd(s, 8) == 0) {	/* the header */
		uint32_t w;

		at = 4 * rnd(s, 4);
		if (at + 4 > m->size)
			return;
		w = (uint32_t)boundary_value(s, 0);
		memcpy(m->data + at, &w, 4);
		return;
	}
	at = hdr + entry * rnd(s, n);
	switch (rnd(s, 5)) {
	case 4: {			/* a field of every entry from here moved */
		unsigned int i, f = 8 * rnd(s, 9);
		int64_t by = rnd(s, 2) ? rnd(s, 1000000) : -rnd(s, 1000000);

		for (; at + entry <= m->size; at += entry) {
			v = 0;
			for (i = 0; i < 8; i++)
				v = v << 8 | m->data[at + f + i];
			v += by;
			for (i = 0; i < 8; i++)
				m->data[at + f + i] = v >> (56 - 8 * i);
		}
		break;
	}
	case 0:				/* a field to a boundary value */
		at += 8 * rnd(s, 9);
		v = boundary_value(s, 0);
		memcpy(m->data + at, &v, 8);
		break;
	case 1: {			/* a big-endian field moved by a little */
		unsigned int i;

		at += 8 * rnd(s, 9);
		v = 0;
		for (i = 0; i < 8; i++)
			v = v << 8 | m->data[at + i];
		v += rnd(s, 2) ? rnd(s, 100000) : -rnd(s, 100000);
		for (i = 0; i < 8; i++)
			m->data[at + i] = v >> (56 - 8 * i);
		break;
	}
	case 2:				/* an entry cut */
		mutant_delete(m, at, entry);
		break;
	default: {			/* an entry again, elsewhere */
		unsigned char copy[72];

		memcpy(copy, m->data + at, entry);
		mutant_insert(m, hdr + entry * rnd(s, n + 1), copy, entry);
		break;
	}
	}
}

/* ------------------------------------------------------------------ */
/* One case                                                            */

struct run {
	const char *what;
	char *argv[8];
	pid_t pid;
	int status;
	char err[8192];			/* its stderr, the start of it */
};

static void write_file(const char *dir, const char *name, const void *data,
		       size_t size)
{
	char path[8192];
	int fd;

	if (!strncmp(name, "index/", 6)) {
		snprintf(path, sizeof(path), "%s/index", dir);
		if (mkdir(path, 0755) && errno != EEXIST)
			die("%s", path);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		die("%s", path);
	close(fd);
}

/* Empty @dir of the files a case leaves (its index/ too). */
static void clear_dir(const char *dir)
{
	char sub[8192];
	struct dirent *de;
	DIR *d;

	snprintf(sub, sizeof(sub), "%s/index", dir);
	d = opendir(sub);
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	if (d) {
		closedir(d);
		rmdir(sub);
	}
	d = opendir(dir);
	if (!d)
		die("%s", dir);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
}

enum damaged { DAMAGED_STREAM, DAMAGED_METADATA, DAMAGED_INDEX };

/* How many seconds before the end the seeking runs start. */
static const char *const seek_from[] = {
	"-0", "-0.000001", "-0.0001", "-0.001", "-0.01", "-0.1", "-1", "-100",
};

/*
 * Make case @n's trace in @dir, and in @noidx the same without its
 * indexes; *@what says what was done, *@from where the seeks start.
 */
static enum damaged make_case(const struct fuzz *fz, uint64_t n,
			      const char *dir, const char *noidx,
			      char *what, size_t len, const char **from)
{
	uint64_t s = fz->seed * 0x100000001b3ULL ^ (n + 1) * 0x9e3779b97f4a7c15ULL;
	const struct fixture *fx;
	const struct file *target;
	struct mutant m = { 0 };
	unsigned int i, k, steps;
	bool text, index;

	rnd_next(&s);
	fx = &fz->fx[rnd(&s, fz->n_fx)];
	target = &fx->files[rnd(&s, fx->n_files)];
	/* the metadata is one file of several: give it a fair share */
	if (rnd(&s, 4) == 0)
		for (i = 0; i < fx->n_files; i++)
			if (!strcmp(fx->files[i].name, "metadata"))
				target = &fx->files[i];
	text = !strcmp(target->name, "metadata");
	index = !strncmp(target->name, "index/", 6);
	*from = seek_from[rnd(&s, sizeof(seek_from) / sizeof(seek_from[0]))];
	mutant_reserve(&m, target->size + 1);
	memcpy(m.data, target->data, target->size);
	m.size = target->size;
	steps = 1 + rnd(&s, rnd(&s, 4) ? 2 : 6);
	for (k = 0; k < steps; k++) {
		unsigned int kind = rnd(&s, 10);

		if (text)
			kind < 6 ? mutate_text(&m, &s) : mutate_bytes(&m, &s, target);
		else if (index)
			kind < 4 ? mutate_index(&m, &s) : mutate_bytes(&m, &s, target);
		else if (kind < 2)
			mutate_header(&m, &s);
		else if (kind < 3)
			mutate_shift(&m, &s);
		else if (kind < 5)
			mutate_record(&m, &s);
		else if (kind < 6)
			mutate_packets(&m, &s);
		else
			mutate_bytes(&m, &s, target);
	}
	clear_dir(dir);
	for (i = 0; i < fx->n_files; i++)
		if (&fx->files[i] != target)
			write_file(dir, fx->files[i].name, fx->files[i].data,
				   fx->files[i].size);
	write_file(dir, target->name, m.data, m.size);
	/* now and then, a stream file more: a copy of the damaged one */
	if (!text && !index && rnd(&s, 16) == 0)
		write_file(dir, "channel0_9", m.data, m.size);
	clear_dir(noidx);
	for (i = 0; i < fx->n_files; i++)
		if (strncmp(fx->files[i].name, "index/", 6))
			write_file(noidx, fx->files[i].name,
				   &fx->files[i] == target ? m.data : fx->files[i].data,
				   &fx->files[i] == target ? m.size : fx->files[i].size);
	snprintf(what, len, "%s/%s, %u mutations, seeks --from %s", fx->dir,
		 target->name, steps, *from);
	free(m.data);
	return text ? DAMAGED_METADATA : index ? DAMAGED_INDEX : DAMAGED_STREAM;
}

/* Start @r, its stdout into @outfile (NULL: nowhere). */
static void start_run(const struct fuzz *fz, struct run *r, const char *outfile,
		      const char *errfile)
{
	r->pid = fork();
	if (r->pid < 0)
		die("%s", "fork");
	if (!r->pid) {
		int out = outfile ? open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0644) :
				    open("/dev/null", O_WRONLY);
		int err = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (out < 0 || err < 0)
			_exit(125);
		dup2(out, STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
		/* a pending alarm survives exec: a hang ends with SIGALRM */
		alarm(fz->timeout);
		execv(fz->ltt, r->argv);
		_exit(127);
	}
}

static void finish_run(struct run *r, const char *errfile)
{
	int fd;
	ssize_t n;

	while (waitpid(r->pid, &r->status, 0) < 0 && errno == EINTR)
		;
	r->err[0] = '\0';
	fd = open(errfile, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, r->err, sizeof(r->err) - 1);
		r->err[n > 0 ? n : 0] = '\0';
		close(fd);
	}
}

/* What is wrong with a run, or NULL. */
static const char *judge(const struct run *r, const char *dir, char *buf,
			 size_t len)
{
	if (WIFSIGNALED(r->status)) {
		snprintf(buf, len, "killed by signal %d%s", WTERMSIG(r->status),
			 WTERMSIG(r->status) == SIGALRM ? " (a hang: time limit)" : "");
		return buf;
	}
	if (strstr(r->err, "Sanitizer") || strstr(r->err, "runtime error"))
		return "a sanitizer report";
	if (WEXITSTATUS(r->status) > 1) {
		snprintf(buf, len, "exit status %d", WEXITSTATUS(r->status));
		return buf;
	}
	if (WEXITSTATUS(r->status) == 1 && !r->err[0])
		return "exit status 1 with nothing on stderr";
	if (WEXITSTATUS(r->status) == 1 && !strstr(r->err, dir))
		return "a message that does not name the trace";
	return NULL;
}

/* Copy the failing case's trace where it can be read again. */
static void keep_case(const struct fuzz *fz, uint64_t n, const char *dir)
{
	char cmd[40000];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && rm -rf '%s/case-%llu' && cp -r '%s' '%s/case-%llu'",
		 fz->keep, fz->keep, (unsigned long long)n, dir, fz->keep,
		 (unsigned long long)n);
	if (system(cmd))
		fprintf(stderr, "fuzz: could not keep case %llu\n",
			(unsigned long long)n);
}

/* Are two files the same bytes? */
static bool same_file(const char *a, const char *b)
{
	size_t na, nb;
	unsigned char *x = read_file(a, &na), *y = read_file(b, &nb);
	bool same = na == nb && !memcmp(x, y, na);

	free(x);
	free(y);
	return same;
}

/* Run case @n in @dir; returns true when it passed. */
static bool run_case(const struct fuzz *fz, uint64_t n, const char *dir)
{
	char what[8192], why[256], errfile[FUZZ_RUNS][8192], noidx[8192];
	char outfile[2][8192];
	struct run runs[FUZZ_RUNS] = {
		{ .what = "report", .argv = { "ltt", "report", (char *)dir } },
		{ .what = "stats", .argv = { "ltt", "stats", "--pid", "101",
					     (char *)dir } },
		{ .what = "watch", .argv = { "ltt", "watch", (char *)fz->script,
					     (char *)dir } },
		{ .what = "report --from", .argv = { "ltt", "report", "--from",
						     NULL, (char *)dir } },
		{ .what = "report --from, no index",
		  .argv = { "ltt", "report", "--from", NULL, noidx } },
	};
	const char *bad = NULL, *from;
	enum damaged damaged;
	unsigned int i, n_runs;
	bool ok = true;

	snprintf(noidx, sizeof(noidx), "%s.noidx", dir);
	if (mkdir(noidx, 0755) && errno != EEXIST)
		die("mkdir %s", noidx);
	damaged = make_case(fz, n, dir, noidx, what, sizeof(what), &from);
	runs[3].argv[3] = runs[4].argv[3] = (char *)from;
	/*
	 * Every other case, watch follows the trace, as lttd writes it;
	 * not a damaged metadata, which it reads again for 2 s (it may be
	 * half written).
	 */
	if (damaged != DAMAGED_METADATA && n % 2) {
		runs[2].what = "watch --follow";
		memmove(runs[2].argv + 3, runs[2].argv + 2, 3 * sizeof(char *));
		runs[2].argv[2] = "--follow";
	}
	/* the seeks: on every damaged index, on one case in four else */
	n_runs = damaged == DAMAGED_INDEX || n % 4 == 0 ? FUZZ_RUNS : FUZZ_COMPARED;
	for (i = 0; i < FUZZ_RUNS; i++) {
		snprintf(errfile[i], sizeof(errfile[i]), "%s.err%u", dir, i);
		if (i >= FUZZ_COMPARED)
			snprintf(outfile[i - FUZZ_COMPARED], sizeof(outfile[0]),
				 "%s.out%u", dir, i);
	}
	for (i = 0; i < n_runs; i++)
		start_run(fz, &runs[i], i >= FUZZ_COMPARED ?
			  outfile[i - FUZZ_COMPARED] : NULL, errfile[i]);
	for (i = 0; i < n_runs; i++)
		finish_run(&runs[i], errfile[i]);
	for (i = 0; i < n_runs; i++) {
		bad = judge(&runs[i], i == 4 ? noidx : dir, why, sizeof(why));
		if (!bad && i && i < FUZZ_COMPARED && WIFEXITED(runs[i].status) &&
		    WIFEXITED(runs[0].status) &&
		    WEXITSTATUS(runs[i].status) != WEXITSTATUS(runs[0].status)) {
			snprintf(why, sizeof(why), "status %d, ltt report's %d",
				 WEXITSTATUS(runs[i].status),
				 WEXITSTATUS(runs[0].status));
			bad = why;
		}
		/* a damaged index costs time, never events */
		if (!bad && i == 3 && damaged == DAMAGED_INDEX &&
		    WIFEXITED(runs[3].status) && WIFEXITED(runs[4].status) &&
		    (WEXITSTATUS(runs[3].status) != WEXITSTATUS(runs[4].status) ||
		     !same_file(outfile[0], outfile[1]))) {
			snprintf(why, sizeof(why), "with the damaged index: status %d and what it printed, without it: status %d and %s",
				 WEXITSTATUS(runs[3].status),
				 WEXITSTATUS(runs[4].status),
				 same_file(outfile[0], outfile[1]) ?
				 "the same" : "something else");
			bad = why;
		}
		if (!bad)
			continue;
		if (ok)
			fprintf(stderr, "fuzz: FAIL case %llu (%s):\n",
				(unsigned long long)n, what);
		ok = false;
		fprintf(stderr, "  ltt %s: %s; stderr:\n%.2000s\n", runs[i].what,
			bad, runs[i].err);
	}
	if (fz->verbose)
		for (i = 0; i < n_runs; i++)
			fprintf(stderr, "case %llu %s: %s %d: %.300s",
				(unsigned long long)n, runs[i].what,
				WIFEXITED(runs[i].status) ? "status" : "signal",
				WIFEXITED(runs[i].status) ?
				WEXITSTATUS(runs[i].status) :
				WTERMSIG(runs[i].status), runs[i].err);
	if (!ok)
		keep_case(fz, n, dir);
	for (i = 0; i < FUZZ_RUNS; i++)
		unlink(errfile[i]);
	unlink(outfile[0]);
	unlink(outfile[1]);
	clear_dir(noidx);
	rmdir(noidx);
	return ok;
}

static unsigned int run_cases(const struct fuzz *fz, const char *work,
			      uint64_t first, uint64_t step, uint64_t count)
{
	char dir[4096];
	unsigned int failed = 0;
	uint64_t n;

	snprintf(dir, sizeof(dir), "%s/trace-%llu", work,
		 (unsigned long long)first);
	if (mkdir(dir, 0755) && errno != EEXIST)
		die("mkdir %s", dir);
	for (n = first; n < count; n += step)
		failed += !run_case(fz, n, dir);
	clear_dir(dir);
	rmdir(dir);
	return failed;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(void)
{
	fprintf(stderr, "usage: fuzz [-n COUNT] [-s SEED] [-j JOBS] [-t SECONDS] [-c CASE] [-k DIR] [-v]\n"
			"            LTT SCRIPT FIXTURE_DIR...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct fuzz fz = { .seed = 1, .timeout = 20 };
	uint64_t count = 100, only = UINT64_MAX;
	unsigned int jobs = 1, j, failed = 0;
	const char *tmp = getenv("TMPDIR");
	char work[4096];
	double start;
	int c;

	while ((c = getopt(argc, argv, "n:s:j:t:c:k:v")) != -1) {
		switch (c) {
		case 'n': count = strtoull(optarg, NULL, 0); break;
		case 's': fz.seed = strtoull(optarg, NULL, 0); break;
		case 'j': jobs = strtoul(optarg, NULL, 0); break;
		case 't': fz.timeout = strtoul(optarg, NULL, 0); break;
		case 'c': only = strtoull(optarg, NULL, 0); break;
		case 'k': snprintf(fz.keep, sizeof(fz.keep), "%s", optarg); break;
		case 'v': fz.verbose = true; break;
		default: usage();
		}
	}
	if (argc - optind < 3 || !jobs || !fz.timeout)
		usage();
	fz.ltt = argv[optind];
	fz.script = argv[optind + 1];
	for (optind += 2; optind < argc; optind++) {
		if (fz.n_fx == FUZZ_FIXTURES_MAX)
			usage();
		load_fixture(&fz.fx[fz.n_fx++], argv[optind]);
		if (!fz.fx[fz.n_fx - 1].n_files)
			fz.n_fx--;
	}
	if (!fz.n_fx) {
		fprintf(stderr, "fuzz: no fixture trace given\n");
		return 2;
	}
	snprintf(work, sizeof(work), "%s/ltt-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(work))
		die("mkdtemp %s", work);
	if (!fz.keep[0])
		snprintf(fz.keep, sizeof(fz.keep), "%s/failed", work);
	/* ltt's sanitizers: a report must not look like status 1 */
	setenv("ASAN_OPTIONS", "exitcode=86", 0);
	setenv("UBSAN_OPTIONS", "exitcode=86:print_stacktrace=1", 0);
	setenv("TZ", "UTC", 1);
	start = now_s();
	if (only != UINT64_MAX) {
		fz.verbose = true;
		failed = run_cases(&fz, work, only, 1, only + 1);
		count = 1;
	} else if (jobs == 1) {
		failed = run_cases(&fz, work, 0, 1, count);
	} else {
		for (j = 0; j < jobs; j++) {
			pid_t pid = fork();

			if (pid < 0)
				die("%s", "fork");
			if (!pid)
				_exit(run_cases(&fz, work, j, jobs, count) ? 1 : 0);
		}
		for (j = 0; j < jobs; j++) {
			int ws;

			if (wait(&ws) > 0 && (!WIFEXITED(ws) || WEXITSTATUS(ws)))
				failed++;
		}
	}
	printf("fuzz: %llu cases (ltt report, stats and watch on each, two seeking reports on a damaged index and one case in four) from %u fixtures, seed %llu, in %.1f s: %s\n",
	       (unsigned long long)count, fz.n_fx, (unsigned long long)fz.seed, now_s() - start,
	       failed ? "FAILED" : "no failure");
	if (failed) {
		printf("fuzz: the failing traces are in %s (fuzz -c CASE runs one again)\n",
		       fz.keep);
		return 1;
	}
	rmdir(work);
	return 0;
}
