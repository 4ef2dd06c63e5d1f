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
#include <time.h>
#include <unistd.h>

#include "reader.h"

/* Append a message to a list of them (errors, warnings). */
static void trace_add_msg(char ***list, unsigned int *n, const char *fmt,
			  va_list ap)
{
	char **v, *msg;

	if (vasprintf(&msg, fmt, ap) < 0)
		return;
	v = realloc(*list, (*n + 1) * sizeof(*v));
	if (!v) {
		free(msg);
		return;
	}
	v[(*n)++] = msg;
	*list = v;
}

void trace_add_error(struct ltt_trace *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	trace_add_msg(&t->errors, &t->n_errors, fmt, ap);
	va_end(ap);
}

void trace_add_warning(struct ltt_trace *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	trace_add_msg(&t->warnings, &t->n_warnings, fmt, ap);
	va_end(ap);
}

/* What a file that should be regular is, for the message. */
static const char *trace_file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "of an unknown type";
}

/*
 * O_NONBLOCK: opening a FIFO to read would wait for a writer (forever);
 * fstat() on what was opened leaves no window for a swap after a check.
 */
int trace_open_file(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), err;

	if (fd < 0)
		return ltt_fail("%s", strerror(errno));
	if (fstat(fd, st)) {
		err = errno;
		close(fd);
		return ltt_fail("fstat: %s", strerror(err));
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		ltt_fail("%s, not a regular file: not read",
			 trace_file_kind(st->st_mode));
		/* callers tell a missing file (ENOENT) from this by errno */
		errno = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	return fd;
}

/* Read and parse @dir/metadata into @md; *@st gets the file's identity. */
static int trace_load_metadata(const char *dir, struct ltt_metadata *md,
			       struct stat *st)
{
	char path[4096];
	char *text;
	ssize_t n;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	fd = trace_open_file(path, st);
	if (fd < 0) {
		char why[256];

		if (errno == ENOENT)
			return ltt_fail("%s: no metadata (and no snapshot-N): is %s an LTT trace directory?",
					path, dir);
		snprintf(why, sizeof(why), "%s", ltt_error());
		return ltt_fail("%s: %s", path, why);
	}
	if (st->st_size > (64 << 20)) {
		close(fd);
		return ltt_fail("%s: larger than 64 MiB", path);
	}
	text = malloc(st->st_size + 1);
	if (!text) {
		close(fd);
		return ltt_fail("out of memory");
	}
	n = read(fd, text, st->st_size);
	close(fd);
	if (n != st->st_size) {
		free(text);
		return n < 0 ? ltt_fail_errno("%s", path) :
			       ltt_fail("%s: short read", path);
	}
	text[n] = '\0';
	ret = ltt_metadata_parse(text, n, path, md);
	free(text);
	return ret ? -1 : 0;
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

/* The sizes stream_next_fast() decodes records with. */
static void trace_fast_table(struct ltt_trace *t)
{
	const struct ltt_registry *reg = &t->md.reg;
	unsigned int i;

	t->n_fast = reg->n_events < LTT_HDR_ID_EXTENDED ? reg->n_events :
							  LTT_HDR_ID_EXTENDED;
	for (i = 0; i < t->n_fast; i++)
		t->fast_size[i] = reg->events[i].has_string ? UINT32_MAX :
			reg->events[i].payload_size;
}

/* channel0_2 before channel0_10; a CPU's streams by part */
static int stream_name_order(const struct stream *x, const struct stream *y)
{
	size_t lx = strlen(x->file), ly = strlen(y->file);
	int c;

	if (lx != ly)
		return lx < ly ? -1 : 1;
	c = strcmp(x->file, y->file);
	if (c)
		return c;
	return x->part == y->part ? 0 : (x->part < y->part ? -1 : 1);
}

static int stream_name_cmp(const void *a, const void *b)
{
	return stream_name_order(*(struct stream *const *)a,
				 *(struct stream *const *)b);
}

/* Heap order: time, then stream order (CPU) for equal times. */
static inline bool heap_before(const struct stream *a, const struct stream *b)
{
	if (a->item.ts != b->item.ts)
		return a->item.ts < b->item.ts;
	return stream_name_order(a, b) < 0;
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

static void heap_push(struct ltt_trace *t, struct stream *s)
{
	struct stream **h = t->heap;
	unsigned int i = t->n_heap++;

	while (i && heap_before(s, h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = s;
}

/* File a stream that was just advanced: in the heap, waiting, or done. */
static void trace_place(struct ltt_trace *t, struct stream *s)
{
	if (s->waiting)
		t->n_waiting++;
	else if (!s->done)
		heap_push(t, s);
}

static bool trace_has_stream(const struct ltt_trace *t, unsigned int part,
			     const char *name)
{
	unsigned int i;

	for (i = 0; i < t->n_streams; i++)
		if (t->streams[i]->part == part &&
		    !strcmp(t->streams[i]->file, name))
			return true;
	return false;
}

/* Room for one more stream in the array and in the heap. */
static int trace_make_room(struct ltt_trace *t)
{
	struct stream **v;

	v = realloc(t->streams, (t->n_streams + 1) * sizeof(*v));
	if (!v)
		return ltt_fail("out of memory");
	t->streams = v;
	v = realloc(t->heap, (t->n_streams + 1) * sizeof(*v));
	if (!v)
		return ltt_fail("out of memory");
	t->heap = v;
	return 0;
}

static int trace_add_stream(struct ltt_trace *t, unsigned int part,
			    const char *name)
{
	struct stream *s;

	if (trace_make_room(t))
		return -1;
	s = malloc(sizeof(*s));
	if (!s)
		return ltt_fail("out of memory");
	stream_open(t, s, part, name);
	t->streams[t->n_streams++] = s;
	return 0;
}

/*
 * Map every channel0_<cpu> file of part @part's directory not mapped yet
 * (a stream file appears with its CPU's first packet).  Returns how many
 * were added, or -1.
 */
static int trace_scan_part(struct ltt_trace *t, unsigned int part)
{
	const char *path = t->parts[part].dir;
	struct stream s;		/* for the size of its name */
	struct dirent *de;
	int ret = 0, added = 0;
	DIR *dir;

	dir = opendir(path);
	if (!dir)
		return ltt_fail_errno("%s", path);
	while (!ret && (de = readdir(dir))) {
		if (strncmp(de->d_name, "channel0_", 9) ||
		    strlen(de->d_name) >= sizeof(s.file) ||
		    trace_has_stream(t, part, de->d_name))
			continue;
		ret = trace_add_stream(t, part, de->d_name);
		added++;
	}
	closedir(dir);
	return ret ? -1 : added;
}

static int trace_scan_streams(struct ltt_trace *t)
{
	int added = 0, n;
	unsigned int i;

	for (i = 0; i < t->n_parts; i++) {
		n = trace_scan_part(t, i);
		if (n < 0)
			return -1;
		added += n;
	}
	return added;
}

/*
 * A snapshot's stream goes on from the last packet of its CPU's stream
 * in the nearest snapshot before it (t->streams sorted: a CPU's streams
 * by part).
 */
static void trace_chain_snapshots(struct ltt_trace *t)
{
	unsigned int i;

	for (i = 1; i < t->n_streams; i++) {
		struct stream *s = t->streams[i], *prev = t->streams[i - 1];

		if (!t->parts[s->part].snapshot || strcmp(prev->file, s->file))
			continue;
		stream_index_load(prev);
		if (prev->n_pkts)
			s->chain = prev->pkts[prev->n_pkts - 1];
		else if (prev->chained)
			s->chain = prev->chain;	/* an empty one passes it on */
		else
			continue;
		s->chained = true;
		stream_chain_start(s);
	}
}

/*
 * Names ahead: the state dump at the start of stream @s (its packets up
 * to the first without a statedump_* record) read through a copy of the
 * stream, its names kept in t->ahead for the tasks that run before the
 * dump reaches them (following: the part written when it is opened).  What the copy says of damage is said again when
 * the stream is read.
 */
static void trace_read_ahead(struct ltt_trace *t, struct stream *s)
{
	unsigned int n_errors = t->n_errors, n_warnings = t->n_warnings;
	struct stream *save = malloc(sizeof(*save));
	uint64_t pkt = s->pkt;
	bool dump = false;

	if (!save)
		return;
	memcpy(save, s, sizeof(*s));
	s->fd = -1;		/* following: the copy maps nothing new */
	while (!s->done && !s->waiting) {
		if (s->pkt != pkt) {
			if (!dump)
				break;
			dump = false;
			pkt = s->pkt;
		}
		if (s->item.kind == LTT_ITEM_EVENT &&
		    !strncmp(s->item.desc->name, "statedump_", 10)) {
			dump = true;
			names_ahead(t, t->name_rule[s->item.desc->id], &s->item);
		}
		stream_advance(s);
	}
	memcpy(s, save, sizeof(*s));
	free(save);
	while (t->n_errors > n_errors)
		free(t->errors[--t->n_errors]);
	while (t->n_warnings > n_warnings)
		free(t->warnings[--t->n_warnings]);
}

/* Open the streams and give each its first item. */
static int trace_open_streams(struct ltt_trace *t)
{
	unsigned int i;

	trace_fast_table(t);
	/* the heap is never empty of room, even with no stream */
	t->heap = calloc(1, sizeof(*t->heap));
	if (!t->heap)
		return ltt_fail("out of memory");
	if (trace_scan_streams(t) < 0)
		return -1;
	if (t->n_streams)
		qsort(t->streams, t->n_streams, sizeof(*t->streams),
		      stream_name_cmp);
	trace_chain_snapshots(t);
	for (i = 0; i < t->n_streams; i++) {
		stream_advance(t->streams[i]);
		trace_read_ahead(t, t->streams[i]);
		trace_place(t, t->streams[i]);
	}
	if (t->n_heap) {
		t->has_first = true;
		t->first_ts = t->heap[0]->item.ts;
	}
	return 0;
}

/* Is @name "snapshot-N"?  Its N in *@n. */
static bool snapshot_name(const char *name, unsigned long *n)
{
	char *end;

	if (strncmp(name, "snapshot-", 9) || name[9] < '0' || name[9] > '9')
		return false;
	errno = 0;
	*n = strtoul(name + 9, &end, 10);
	return !*end && !errno;
}

static int snapshot_cmp(const void *a, const void *b)
{
	unsigned long x, y;

	snapshot_name(*(char *const *)a, &x);
	snapshot_name(*(char *const *)b, &y);
	return x == y ? 0 : (x < y ? -1 : 1);
}

static int trace_add_part(struct ltt_trace *t, const char *dir,
			  const char *sub, bool snapshot)
{
	struct trace_part *v = realloc(t->parts, (t->n_parts + 1) * sizeof(*v));
	char *path;

	if (!v)
		return ltt_fail("out of memory");
	t->parts = v;
	if (sub ? asprintf(&path, "%s/%s", dir, sub) < 0 :
		  !(path = strdup(dir)))
		return ltt_fail("out of memory");
	v[t->n_parts].dir = path;
	v[t->n_parts].big_endian = false;
	v[t->n_parts].snapshot = snapshot;
	t->n_parts++;
	return 0;
}

/*
 * @dir as parts: itself when it holds a metadata file, or else its
 * snapshot-N directories (lttd --overwrite -o DIR) in the order taken,
 * each one going on from the one before it.  A directory with neither
 * is one part, which fails for want of metadata.
 */
static int trace_add_dir(struct ltt_trace *t, const char *dir)
{
	char path[4096], **names = NULL;
	unsigned int n = 0, i;
	struct dirent *de;
	unsigned long num;
	struct stat st;
	int ret = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	if (!lstat(path, &st) || errno != ENOENT || !(d = opendir(dir)))
		return trace_add_part(t, dir, NULL, false);
	while ((de = readdir(d))) {
		char **v;

		/* .snapshot-N.partial: being written */
		if (!snapshot_name(de->d_name, &num))
			continue;
		v = realloc(names, (n + 1) * sizeof(*v));
		if (!v || !(v[n] = strdup(de->d_name))) {
			names = v ? v : names;
			ret = ltt_fail("out of memory");
			break;
		}
		names = v;
		n++;
	}
	closedir(d);
	if (!ret && !n)
		ret = trace_add_part(t, dir, NULL, false);
	if (n)
		qsort(names, n, sizeof(*names), snapshot_cmp);
	for (i = 0; i < n; i++) {
		if (!ret)
			ret = trace_add_part(t, dir, names[i], i > 0);
		free(names[i]);
	}
	free(names);
	return ret;
}

/* Do two registries give the same events the same ids (up to the shorter)? */
static int trace_same_events(const struct ltt_registry *a,
			     const struct ltt_registry *b, unsigned int *id)
{
	unsigned int n = a->n_events < b->n_events ? a->n_events : b->n_events;
	unsigned int i, f;

	for (i = 0; i < n; i++) {
		const struct ltt_event_desc *x = &a->events[i], *y = &b->events[i];

		*id = i;
		if (strcmp(x->name, y->name) || x->n_fields != y->n_fields ||
		    x->payload_size != y->payload_size ||
		    x->has_string != y->has_string)
			return 0;
		for (f = 0; f < x->n_fields; f++)
			if (strcmp(x->fields[f].name, y->fields[f].name) ||
			    x->fields[f].type != y->fields[f].type ||
			    x->fields[f].size != y->fields[f].size)
				return 0;
	}
	return 1;
}

/*
 * Every part's metadata: the trace's registry is the largest (a later
 * snapshot may know custom events made since), the others must agree
 * with it; clock offset and machine are the first part's.
 */
static int trace_load_parts(struct ltt_trace *t)
{
	unsigned int i, id, big = 0;
	struct ltt_metadata *md;
	struct stat st;
	int ret = 0;

	md = calloc(t->n_parts, sizeof(*md));
	if (!md)
		return ltt_fail("out of memory");
	for (i = 0; i < t->n_parts && !ret; i++) {
		ret = trace_load_metadata(t->parts[i].dir, &md[i],
					  i ? &st : &t->md_stat);
		if (ret)
			break;
		t->parts[i].big_endian = md[i].big_endian;
		if (md[i].reg.n_events > md[big].reg.n_events)
			big = i;
	}
	for (i = 0; i < t->n_parts && !ret; i++) {
		int64_t d = md[i].clock_offset - md[0].clock_offset;

		if (!trace_same_events(&md[i].reg, &md[big].reg, &id))
			ret = ltt_fail("%s/metadata: event %u (%s) is not described as in %s/metadata (%s): traces of different event sets cannot be read together",
				       t->parts[i].dir, id,
				       md[i].reg.events[id].name,
				       t->parts[big].dir,
				       md[big].reg.events[id].name);
		else if (d > 1000000000 || d < -1000000000)
			trace_add_warning(t, "%s: its clock offset differs from %s's by %lld s (another boot?): the traces are merged on each one's own clock",
					  t->parts[i].dir, t->parts[0].dir,
					  (long long)(d / 1000000000));
	}
	if (!ret) {
		t->md = md[big];
		t->md.clock_offset = md[0].clock_offset;
		memcpy(t->md.arch, md[0].arch, sizeof(t->md.arch));
		md[big].reg.events = NULL;
	}
	for (i = 0; i < t->n_parts; i++)
		if (i != big || ret)
			ltt_registry_free(&md[i].reg);
	free(md);
	return ret;
}

static struct ltt_trace *trace_open(const char *const *dirs, unsigned int n,
				    bool follow, unsigned int expect)
{
	struct ltt_trace *t = calloc(1, sizeof(*t));
	unsigned int i;
	int ret = 0;

	if (!t) {
		ltt_fail("out of memory");
		return NULL;
	}
	t->follow = follow;
	t->expect = expect;
	t->dir = strdup(n ? dirs[0] : "");
	if (!t->dir)
		ret = ltt_fail("out of memory");
	else if (!n)
		ret = ltt_fail("no trace directory given");
	for (i = 0; i < n && !ret; i++)
		ret = follow ? trace_add_part(t, dirs[i], NULL, false) :
			       trace_add_dir(t, dirs[i]);
	if (ret || trace_load_parts(t) || trace_find_sched(t) ||
	    names_init(t) || trace_open_streams(t)) {
		ltt_trace_close(t);
		return NULL;
	}
	return t;
}

struct ltt_trace *ltt_trace_open(const char *dir)
{
	return trace_open(&dir, 1, false, 0);
}

struct ltt_trace *ltt_trace_open_dirs(const char *const *dirs, unsigned int n)
{
	return trace_open(dirs, n, false, 0);
}

struct ltt_trace *ltt_trace_follow(const char *dir, unsigned int n_streams)
{
	return trace_open(&dir, 1, true, n_streams);
}

void ltt_trace_close(struct ltt_trace *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < t->n_streams; i++) {
		stream_close(t->streams[i]);
		free(t->streams[i]);
	}
	for (i = 0; i < t->n_errors; i++)
		free(t->errors[i]);
	free(t->errors);
	for (i = 0; i < t->n_warnings; i++)
		free(t->warnings[i]);
	free(t->warnings);
	free(t->streams);
	free(t->heap);
	names_free(t);
	ltt_registry_free(&t->md.reg);
	for (i = 0; i < t->n_parts; i++)
		free(t->parts[i].dir);
	free(t->parts);
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

/*
 * Following: the metadata is rewritten (renamed into place) when event
 * types are created during the session.  The new registry extends the
 * old one; pending items are pointed at it.
 */
static bool trace_reload_metadata(struct ltt_trace *t)
{
	struct name_rule **rules;
	struct ltt_metadata md;
	char path[4096];
	unsigned int i, n;
	struct stat st;

	snprintf(path, sizeof(path), "%s/metadata", t->dir);
	if (stat(path, &st) || (st.st_ino == t->md_stat.st_ino &&
				st.st_size == t->md_stat.st_size &&
				st.st_mtim.tv_sec == t->md_stat.st_mtim.tv_sec &&
				st.st_mtim.tv_nsec == t->md_stat.st_mtim.tv_nsec))
		return false;
	/* a bad one is read again at the next look, in case it is half written */
	if (trace_load_metadata(t->dir, &md, &st))
		return false;
	n = md.reg.n_events;
	/* the streams were opened in the first one's byte order */
	if (n < t->md.reg.n_events || md.big_endian != t->md.big_endian) {
		ltt_registry_free(&md.reg);
		return false;
	}
	rules = realloc(t->name_rule, n * sizeof(*rules));
	if (!rules) {
		ltt_registry_free(&md.reg);
		return false;
	}
	memset(rules + t->md.reg.n_events, 0,
	       (n - t->md.reg.n_events) * sizeof(*rules));
	t->name_rule = rules;
	for (i = 0; i < t->n_heap; i++) {
		struct ltt_item *it = &t->heap[i]->item;

		if (it->kind == LTT_ITEM_EVENT)
			it->desc = &md.reg.events[it->desc->id];
	}
	ltt_registry_free(&t->md.reg);
	t->md = md;
	t->md_stat = st;
	trace_fast_table(t);
	return true;
}

/*
 * Following: look at the files again.  New metadata, new stream files
 * and packets appended to waiting streams are taken in.  Returns true
 * when anything changed.
 */
static bool trace_refresh(struct ltt_trace *t)
{
	bool new_md = trace_reload_metadata(t), more = new_md;
	unsigned int i, old = t->n_streams;

	if (trace_scan_streams(t) > 0) {
		more = true;
		for (i = old; i < t->n_streams; i++) {
			stream_advance(t->streams[i]);
			trace_place(t, t->streams[i]);
		}
	}
	for (i = 0; i < old; i++) {
		struct stream *s = t->streams[i];

		if (!s->waiting || (!stream_grow(s) && !new_md))
			continue;
		t->n_waiting--;
		stream_advance(s);
		trace_place(t, s);
		more = true;
	}
	return more;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Following: may the oldest pending item go?  Yes when every stream has
 * data past it (no record older than it can come any more), or when it
 * is LTT_FOLLOW_LAG_MS old: a stream that says nothing for that long
 * (an idle CPU, a stream not created yet) must not hold the others.
 * The trace clock is CLOCK_MONOTONIC of the machine that records.
 */
static bool trace_may_give(const struct ltt_trace *t, const struct stream *s)
{
	uint64_t ts = s->item.ts, mark = UINT64_MAX, now;
	unsigned int i;

	for (i = 0; t->n_waiting && i < t->n_streams; i++)
		if (t->streams[i]->waiting) {
			uint64_t h = stream_horizon(t->streams[i]);

			mark = h < mark ? h : mark;
		}
	if (ts < mark && t->n_streams >= t->expect)
		return true;
	now = mono_ns();
	return now > ts && now - ts >= LTT_FOLLOW_LAG_MS * 1000000ULL;
}

static int trace_next_live(struct ltt_trace *t, const struct ltt_item **item)
{
	do {
		if (t->n_heap && trace_may_give(t, t->heap[0])) {
			t->current = t->heap[0];
			*item = &t->current->item;
			return 1;
		}
	} while (trace_refresh(t));
	return LTT_TRACE_WAIT;
}

/*
 * The time before which the stream at the top of the heap stays there:
 * that of the oldest item of the others (equal times go by stream order,
 * through the heap).
 */
static void trace_set_limit(struct ltt_trace *t)
{
	uint64_t limit = UINT64_MAX;

	if (t->n_heap > 1)
		limit = t->heap[1]->item.ts;
	if (t->n_heap > 2 && t->heap[2]->item.ts < limit)
		limit = t->heap[2]->item.ts;
	t->limit = limit;
}

/*
 * The item after the current one when it is not the fast path's: the
 * current stream @s (NULL: none) moved on already if @advanced, and the
 * heap is put in order again.
 */
static __attribute__((noinline)) int
trace_next_slow(struct ltt_trace *t, const struct ltt_item **item,
		struct stream *s, bool advanced)
{
	if (s) {
		if (!advanced) {
			trace_learn(t, &s->item);
			stream_advance(s);
		}
		if (s->done || s->waiting) {
			t->n_waiting += s->waiting;
			t->heap[0] = t->heap[--t->n_heap];
		}
		if (t->n_heap)
			heap_sift_down(t, 0);
	}
	trace_set_limit(t);
	if (t->follow)
		return trace_next_live(t, item);
	if (!t->n_heap)
		return 0;
	s = t->current = t->heap[0];
	*item = &s->item;
	return 1;
}

int ltt_trace_next(struct ltt_trace *t, const struct ltt_item **item)
{
	struct stream *s = t->current;

	t->current = NULL;
	if (!s || t->follow)
		return trace_next_slow(t, item, s, false);
	trace_learn(t, &s->item);
	if (!stream_next_fast(s, t)) {
		stream_advance(s);
		return trace_next_slow(t, item, s, true);
	}
	/* the common case: the same stream gives the next item too */
	if (s->item.ts >= t->limit) {
		struct stream *o = t->heap[1];

		/* two streams taking turns: swap them */
		if (t->n_heap != 2 || o->item.ts >= s->item.ts)
			return trace_next_slow(t, item, s, true);
		t->heap[0] = o;
		t->heap[1] = s;
		t->limit = s->item.ts;
		s = o;
	}
	t->current = s;
	*item = &s->item;
	return 1;
}

/*
 * A seek reads the records before @ts, in time order across the
 * streams as a whole read does, for what they say of names (the state
 * dump, forks, execs, renames, files opened and closed): a window names
 * its tasks and files as the whole read does at the same point.  The
 * packet index is not used: skipping a packet would skip its names.
 */
int ltt_trace_seek(struct ltt_trace *t, uint64_t ts)
{
	unsigned int i;

	if (t->follow)
		return ltt_fail("%s: a trace being followed cannot seek",
				t->dir);
	t->current = NULL;
	t->limit = 0;
	t->n_heap = 0;
	for (i = 0; i < t->n_streams; i++)
		trace_place(t, t->streams[i]);
	while (t->n_heap && t->heap[0]->item.ts < ts) {
		struct stream *s = t->heap[0];

		trace_learn(t, &s->item);
		stream_advance(s);
		if (s->done)
			t->heap[0] = t->heap[--t->n_heap];
		if (t->n_heap)
			heap_sift_down(t, 0);
	}
	return 0;
}

/* How many packets from the end are looked into for the last record. */
#define TRACE_LAST_PACKETS	4

/*
 * The time of the last item of a stream: its last packets decoded (the
 * stream put back as it was after), or the end of its last packet.
 * What they say of damage is said again when they are read.
 */
static uint64_t trace_stream_last(struct ltt_trace *t, struct stream *s)
{
	unsigned int n_errors = t->n_errors;
	uint64_t last = 0;
	struct stream *save;
	size_t k;

	stream_index_load(s);
	/* the packets read below, and the one before them, as they are */
	stream_index_verify(s, s->n_pkts > TRACE_LAST_PACKETS ?
			    s->n_pkts - TRACE_LAST_PACKETS - 1 : 0);
	if (!s->n_pkts)
		return 0;
	save = malloc(sizeof(*save));
	if (!save)
		return s->pkts[s->n_pkts - 1].ts_end;
	memcpy(save, s, sizeof(*s));
	for (k = s->n_pkts; k-- > 0 && !last &&
	     s->n_pkts - k <= TRACE_LAST_PACKETS;) {
		uint64_t off = s->pkts[k].off;

		stream_seek_packet(s, k);
		for (stream_advance(s); !s->done && s->pkt == off;
		     stream_advance(s))
			last = s->item.ts;
	}
	if (!last)
		last = s->pkts[s->n_pkts - 1].ts_end;
	memcpy(s, save, sizeof(*s));
	free(save);
	while (t->n_errors > n_errors)
		free(t->errors[--t->n_errors]);
	return last;
}

int ltt_trace_time_range(struct ltt_trace *t, uint64_t *first,
			 uint64_t *last)
{
	uint64_t end = 0;
	unsigned int i;

	if (!t->has_first)
		return 0;
	*first = t->first_ts;
	if (!last)
		return 1;
	for (i = 0; i < t->n_streams; i++) {
		uint64_t e = trace_stream_last(t, t->streams[i]);

		end = e > end ? e : end;
	}
	*last = end > t->first_ts ? end : t->first_ts;
	return 1;
}

unsigned int ltt_trace_n_warnings(const struct ltt_trace *t)
{
	return t->n_warnings;
}

const char *ltt_trace_warning(const struct ltt_trace *t, unsigned int i)
{
	return i < t->n_warnings ? t->warnings[i] : NULL;
}

void ltt_trace_follow_end(struct ltt_trace *t)
{
	unsigned int i;

	if (!t->follow)
		return;
	trace_refresh(t);
	t->follow = false;
	t->limit = 0;		/* the heap changes: no fast path until sifted */
	for (i = 0; i < t->n_streams; i++) {
		struct stream *s = t->streams[i];

		if (!s->waiting)
			continue;
		t->n_waiting--;
		stream_grow(s);
		stream_advance(s);
		trace_place(t, s);
	}
}

int ltt_trace_writing(const struct ltt_trace *t)
{
	unsigned int i;

	if (!t->n_streams)
		return 1;
	for (i = 0; i < t->n_streams; i++) {
		int fd = t->streams[i]->fd;

		if (fd < 0)
			continue;
		/* a read lease is refused while anyone has the file open to write */
		if (fcntl(fd, F_SETLEASE, F_RDLCK)) {
			if (errno == EAGAIN)
				return 1;
			return ltt_fail_errno("%s/%s: cannot tell whether it is still written (F_SETLEASE)",
					      t->dir, t->streams[i]->file);
		}
		fcntl(fd, F_SETLEASE, F_UNLCK);
	}
	return 0;
}

const struct ltt_registry *ltt_trace_registry(const struct ltt_trace *t)
{
	return &t->md.reg;
}

int64_t ltt_trace_clock_offset(const struct ltt_trace *t)
{
	return t->md.clock_offset;
}

const char *ltt_trace_arch(const struct ltt_trace *t)
{
	return t->md.arch[0] ? t->md.arch : NULL;
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
