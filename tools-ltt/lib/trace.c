// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The reader: a trace directory, its metadata and its per-CPU streams,
 * merged into one time-ordered sequence of items with a binary heap.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader.h"

void trace_add_error(struct ltt_trace *t, const char *fmt, ...)
{
	char **errors, *msg;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	errors = realloc(t->errors, (t->n_errors + 1) * sizeof(*errors));
	if (!errors) {
		free(msg);
		return;
	}
	errors[t->n_errors++] = msg;
	t->errors = errors;
}

/* Records are decoded in place: the trace must be in the host's order. */
static int trace_check_byte_order(const struct ltt_trace *t, const char *path)
{
	const uint16_t one = 1;
	bool host_be = !*(const uint8_t *)&one;

	if (t->md.big_endian == host_be)
		return 0;
	return ltt_fail("%s: a %s-endian trace; this reader reads %s-endian traces only",
			path, t->md.big_endian ? "big" : "little",
			host_be ? "big" : "little");
}

/* Read and parse DIR/metadata. */
static int trace_read_metadata(struct ltt_trace *t)
{
	char path[4096];
	struct stat st;
	char *text;
	ssize_t n;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/metadata", t->dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return ltt_fail("%s: no metadata: is %s an LTT trace directory?",
					path, t->dir);
		return ltt_fail_errno("%s", path);
	}
	if (fstat(fd, &st) || st.st_size > (64 << 20)) {
		close(fd);
		return st.st_size > (64 << 20) ?
		       ltt_fail("%s: larger than 64 MiB", path) :
		       ltt_fail_errno("%s", path);
	}
	text = malloc(st.st_size + 1);
	if (!text) {
		close(fd);
		return ltt_fail("out of memory");
	}
	n = read(fd, text, st.st_size);
	close(fd);
	if (n != st.st_size) {
		free(text);
		return n < 0 ? ltt_fail_errno("%s", path) :
			       ltt_fail("%s: short read", path);
	}
	text[n] = '\0';
	ret = ltt_metadata_parse(text, n, path, &t->md);
	free(text);
	if (ret)
		return -1;
	return trace_check_byte_order(t, path);
}

/* Where sched_change's incoming pid is, so that streams can follow it. */
static int trace_find_sched(struct ltt_trace *t)
{
	int id = ltt_registry_find(&t->md.reg, "sched_change"), in;

	t->sched_change = -1;
	if (id < 0)
		return 0;
	in = ltt_event_field_index(&t->md.reg.events[id], "in");
	if (in < 0 || t->md.reg.events[id].fields[in].type == LTT_TYPE_STRING)
		return ltt_fail("%s/metadata: sched_change has no integer field \"in\"",
				t->dir);
	t->sched_change = id;
	t->sched_in = in;
	return 0;
}

static int stream_name_cmp(const void *a, const void *b)
{
	const struct stream *x = a, *y = b;
	size_t lx = strlen(x->file), ly = strlen(y->file);

	/* channel0_2 before channel0_10 */
	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x->file, y->file);
}

/* Map every channel0_<cpu> file of the directory. */
static int trace_open_streams(struct ltt_trace *t)
{
	struct dirent *de;
	char path[4096];
	DIR *dir;
	int ret = 0;

	dir = opendir(t->dir);
	if (!dir)
		return ltt_fail_errno("%s", t->dir);
	while (!ret && (de = readdir(dir))) {
		struct stream *s;

		if (strncmp(de->d_name, "channel0_", 9) ||
		    strlen(de->d_name) >= sizeof(s->file))
			continue;
		s = realloc(t->streams, (t->n_streams + 1) * sizeof(*s));
		if (!s) {
			ret = ltt_fail("out of memory");
			break;
		}
		t->streams = s;
		snprintf(path, sizeof(path), "%s/%s", t->dir, de->d_name);
		ret = stream_open(t, &s[t->n_streams], path, de->d_name);
		if (!ret)
			t->n_streams++;
	}
	closedir(dir);
	if (ret)
		return -1;
	if (t->n_streams)
		qsort(t->streams, t->n_streams, sizeof(*t->streams),
		      stream_name_cmp);
	return 0;
}

/* Heap order: time, then stream order (CPU) for equal times. */
static inline bool heap_before(const struct stream *a, const struct stream *b)
{
	if (a->item.ts != b->item.ts)
		return a->item.ts < b->item.ts;
	return a < b;
}

static void heap_sift_down(struct ltt_trace *t, unsigned int i)
{
	struct stream **h = t->heap, *s = h[i];
	unsigned int n = t->n_heap;

	for (;;) {
		unsigned int c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && heap_before(h[c + 1], h[c]))
			c++;
		if (!heap_before(h[c], s))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = s;
}

static int trace_build_heap(struct ltt_trace *t)
{
	unsigned int i;

	t->heap = calloc(t->n_streams ? t->n_streams : 1, sizeof(*t->heap));
	if (!t->heap)
		return ltt_fail("out of memory");
	for (i = 0; i < t->n_streams; i++) {
		t->streams[i].trace = t;
		stream_advance(&t->streams[i]);
		if (!t->streams[i].done)
			t->heap[t->n_heap++] = &t->streams[i];
	}
	for (i = t->n_heap / 2; i--; )
		heap_sift_down(t, i);
	return 0;
}

struct ltt_trace *ltt_trace_open(const char *dir)
{
	struct ltt_trace *t = calloc(1, sizeof(*t));

	if (!t) {
		ltt_fail("out of memory");
		return NULL;
	}
	t->dir = strdup(dir);
	if (!t->dir || trace_read_metadata(t) || trace_find_sched(t) ||
	    names_init(t) || trace_open_streams(t) || trace_build_heap(t)) {
		if (!t->dir)
			ltt_fail("out of memory");
		ltt_trace_close(t);
		return NULL;
	}
	return t;
}

void ltt_trace_close(struct ltt_trace *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < t->n_streams; i++)
		stream_close(&t->streams[i]);
	for (i = 0; i < t->n_errors; i++)
		free(t->errors[i]);
	free(t->errors);
	free(t->streams);
	free(t->heap);
	names_free(t);
	ltt_registry_free(&t->md.reg);
	free(t->dir);
	free(t);
}

/*
 * What the item just consumed tells about names is learnt before moving
 * on, so that while an item is current the names are those the items
 * before it told: a close still names its file, an exec shows the name
 * the process had.
 */
static void trace_learn(struct ltt_trace *t, const struct ltt_item *it)
{
	const struct name_rule *rule;

	if (it->kind != LTT_ITEM_EVENT)
		return;
	rule = t->name_rule[it->desc->id];
	if (rule)
		names_apply(t, rule, it);
}

int ltt_trace_next(struct ltt_trace *t, const struct ltt_item **item)
{
	struct stream *s = t->current;

	if (s) {
		trace_learn(t, &s->item);
		stream_advance(s);
		if (s->done)
			t->heap[0] = t->heap[--t->n_heap];
		if (t->n_heap)
			heap_sift_down(t, 0);
	}
	if (!t->n_heap) {
		t->current = NULL;
		return 0;
	}
	s = t->current = t->heap[0];
	*item = &s->item;
	return 1;
}

const struct ltt_registry *ltt_trace_registry(const struct ltt_trace *t)
{
	return &t->md.reg;
}

int64_t ltt_trace_clock_offset(const struct ltt_trace *t)
{
	return t->md.clock_offset;
}

const char *ltt_trace_dir(const struct ltt_trace *t)
{
	return t->dir;
}

unsigned int ltt_trace_n_errors(const struct ltt_trace *t)
{
	return t->n_errors;
}

const char *ltt_trace_error(const struct ltt_trace *t, unsigned int i)
{
	return i < t->n_errors ? t->errors[i] : NULL;
}

int ltt_item_format_field(const struct ltt_item *it, unsigned int i,
			  char *buf, size_t len)
{
	const struct ltt_field_desc *f = &it->desc->fields[i];
	const char *s;
	size_t n = 0;

	if (f->type == LTT_TYPE_SIGNED)
		return snprintf(buf, len, "%lld",
				(long long)ltt_item_int(it, i));
	if (f->type == LTT_TYPE_UNSIGNED)
		return snprintf(buf, len, "%llu",
				(unsigned long long)ltt_item_raw(it, i));
	/* A string, quoted, with what would break a line escaped. */
	if (len < 3)
		return -1;
	buf[n++] = '"';
	for (s = ltt_item_string(it); *s && n + 5 < len; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			n += snprintf(buf + n, len - n, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			n += snprintf(buf + n, len - n, "\\x%02x", c);
		else
			buf[n++] = c;
	}
	buf[n++] = '"';
	buf[n] = '\0';
	return n;
}
