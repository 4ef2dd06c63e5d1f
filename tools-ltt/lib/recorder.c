// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The recorder: a session's per-CPU buffers streamed into a trace
 * directory, the loop of lttd and `ltt record`.
 *
 * Each buffer is mapped read-only; a packet taken with GET_SUBBUF is
 * written to its CPU's stream file straight from the mapping (no copy
 * in user space) and given back with PUT_SUBBUF.  The metadata is
 * written and fsync'd before any packet, so that whatever happens to the
 * recorder later, the files hold a readable trace up to the last packet
 * written.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

struct rec_cpu {
	unsigned int cpu;
	int buf_fd;
	const unsigned char *map;
	size_t map_size;
	int out_fd;			/* -1 until its first packet */
	bool done;			/* ENODATA */
	uint64_t discarded;		/* of its last packet */
};

struct ltt_recorder {
	char *dir;
	int dir_fd;
	int session_fd;
	int epoll_fd;
	bool overwrite;
	bool recording;
	bool started;			/* START succeeded once */
	bool boot;			/* the boot session, recording already */
	bool made_dir;			/* the directory is ours */
	bool wrote_metadata;
	unsigned int n_cpus;
	struct rec_cpu *cpus;
	struct ltt_cpu_status *status;
	struct ltt_record_stats stats;
	uint32_t generation;		/* of the registry in the metadata */
	int64_t clock_offset;		/* real - mono, read once */
	bool has_offset;
	struct ltt_recorder_sink sink;	/* .packet NULL: none */
};

/*
 * mkdir -p for the trace directory; refuse one that holds a trace.
 * *@made: the directory itself was made here.
 */
static int rec_make_dir(const char *dir, bool *made)
{
	char *copy = strdup(dir), *p;
	struct stat st;
	char path[4096];

	if (!copy)
		return ltt_fail("out of memory");
	for (p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) && errno != EEXIST) {
			ltt_fail_errno("mkdir %s", copy);
			free(copy);
			return -1;
		}
		*p = '/';
	}
	free(copy);
	*made = !mkdir(dir, 0755);
	if (!*made && errno != EEXIST)
		return ltt_fail_errno("mkdir %s", dir);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	if (!stat(path, &st))
		return ltt_fail("%s holds a trace already: remove it or choose another directory",
				dir);
	return 0;
}

/* Learn the session's CPUs; buffers exist for those online at create. */
static int rec_learn_cpus(struct ltt_recorder *rec)
{
	struct ltt_status st;
	unsigned int i, room = 4096;

	rec->status = calloc(room, sizeof(*rec->status));
	if (!rec->status)
		return ltt_fail("out of memory");
	if (ltt_session_status(rec->session_fd, &st, rec->status, room))
		return -1;
	if (!st.n_cpus || st.n_cpus > room)
		return ltt_fail("LTT_CMD_STATUS: %u CPUs", st.n_cpus);
	rec->n_cpus = st.n_cpus;
	rec->cpus = calloc(rec->n_cpus, sizeof(*rec->cpus));
	if (!rec->cpus)
		return ltt_fail("out of memory");
	for (i = 0; i < rec->n_cpus; i++) {
		rec->cpus[i].cpu = rec->status[i].cpu;
		rec->cpus[i].buf_fd = -1;
		rec->cpus[i].out_fd = -1;
	}
	return 0;
}

/* Take, map and watch one CPU's buffer. */
static int rec_open_buffer(struct ltt_recorder *rec, struct rec_cpu *c)
{
	struct ltt_buffer_info bi;
	struct epoll_event ev = { .events = EPOLLIN };
	void *map;

	c->buf_fd = ltt_session_buffer_fd(rec->session_fd, c->cpu);
	if (c->buf_fd < 0) {
		char why[256];

		snprintf(why, sizeof(why), "%s", ltt_error());
		return ltt_fail("cpu %u: %s", c->cpu, why);
	}
	if (ioctl(c->buf_fd, LTT_BUF_INFO, &bi))
		return ltt_fail_errno("cpu %u: LTT_BUF_INFO", c->cpu);
	map = mmap(NULL, bi.mmap_size, PROT_READ, MAP_SHARED, c->buf_fd, 0);
	if (map == MAP_FAILED)
		return ltt_fail_errno("cpu %u: mmap of the buffer", c->cpu);
	c->map = map;
	c->map_size = bi.mmap_size;
	ev.data.ptr = c;
	if (epoll_ctl(rec->epoll_fd, EPOLL_CTL_ADD, c->buf_fd, &ev))
		return ltt_fail_errno("cpu %u: epoll_ctl", c->cpu);
	return 0;
}

/* CLOCK_REALTIME - CLOCK_MONOTONIC, as the kernel reads them together. */
static int rec_clock_offset(struct ltt_recorder *rec, int64_t *offset)
{
	struct ltt_status st;

	if (ltt_session_status(rec->session_fd, &st, NULL, 0))
		return -1;
	*offset = (int64_t)(st.real_ns - st.mono_ns);
	return 0;
}

/* The kernel registry's generation: it changes with custom events. */
static int rec_generation(uint32_t *gen)
{
	struct ltt_event_info ei = { .id = 0 };

	if (ltt_syscall(LTT_CMD_EVENT_INFO, &ei, sizeof(ei)))
		return ltt_fail_errno("LTT_CMD_EVENT_INFO");
	*gen = ei.generation;
	return 0;
}

/*
 * DIR/metadata, fsync'd with its directory entry.  It is written again,
 * whole, when the kernel's registry changes: the new file replaces the
 * old with rename(), so a reader sees one or the other.
 */
static int rec_write_metadata_file(struct ltt_recorder *rec,
				   const char *text, size_t len)
{
	int fd, ret;

	fd = openat(rec->dir_fd, "metadata.new",
		    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return ltt_fail_errno("%s/metadata.new", rec->dir);
	rec->wrote_metadata = true;
	ret = ltt_write_all(fd, text, len);
	if (ret)
		ltt_fail_errno("%s/metadata.new", rec->dir);
	if (!ret && fsync(fd))
		ret = ltt_fail_errno("%s/metadata.new: fsync", rec->dir);
	close(fd);
	if (!ret && renameat(rec->dir_fd, "metadata.new", rec->dir_fd,
			     "metadata"))
		ret = ltt_fail_errno("%s/metadata", rec->dir);
	if (!ret && fsync(rec->dir_fd))
		ret = ltt_fail_errno("%s: fsync", rec->dir);
	return ret;
}

static int rec_write_metadata(struct ltt_recorder *rec)
{
	struct ltt_registry reg;
	char *text = NULL;
	off_t len = 0;
	int fd, ret;

	if (!rec->has_offset) {
		if (rec_clock_offset(rec, &rec->clock_offset))
			return -1;
		rec->has_offset = true;
	}
	if (rec_generation(&rec->generation) ||
	    ltt_registry_from_kernel(&reg))
		return -1;
	/* the text once, for the file and for the sink */
	fd = memfd_create("ltt-metadata", MFD_CLOEXEC);
	if (fd < 0) {
		ltt_registry_free(&reg);
		return ltt_fail_errno("memfd_create");
	}
	ret = ltt_metadata_write(fd, &reg, rec->clock_offset);
	ltt_registry_free(&reg);
	if (!ret) {
		len = lseek(fd, 0, SEEK_CUR);
		text = len > 0 ? malloc(len) : NULL;
		if (!text || pread(fd, text, len, 0) != len)
			ret = ltt_fail("metadata: out of memory");
	}
	close(fd);
	if (!ret && rec->dir)
		ret = rec_write_metadata_file(rec, text, len);
	if (!ret && rec->sink.metadata &&
	    rec->sink.metadata(rec->sink.ctx, text, len))
		ret = -1;
	free(text);
	return ret;
}

/*
 * Custom event types made since the metadata was written: write it
 * again before the packets that may hold their records.  Destroyed
 * types stay in the kernel's registry while the session exists, so the
 * new registry holds all of the old.
 */
static int rec_refresh_metadata(struct ltt_recorder *rec)
{
	uint32_t gen = 0;

	if (!rec->dir && !rec->sink.metadata)
		return 0;
	if (rec_generation(&gen))
		return -1;
	return gen == rec->generation ? 0 : rec_write_metadata(rec);
}

/* Event mask and pid filter from the options. */
static int rec_configure(struct ltt_recorder *rec,
			 const struct ltt_record_opts *opts)
{
	uint64_t mask[LTT_EVENTS_MAX / 64];
	struct ltt_registry reg;
	int ret;

	if (opts->events) {
		if (ltt_registry_from_kernel(&reg))
			return -1;
		ret = ltt_parse_events(&reg, opts->events, mask, reg.n_events);
		if (!ret)
			ret = ltt_session_set_events(rec->session_fd, mask,
						     reg.n_events);
		ltt_registry_free(&reg);
		if (ret)
			return -1;
	}
	if (opts->n_pids &&
	    ltt_session_set_pids(rec->session_fd, opts->pids, opts->n_pids))
		return -1;
	return 0;
}

/* A recorder of a new session, or (@boot) of the boot session. */
static struct ltt_recorder *rec_create(const struct ltt_record_opts *opts,
				       bool boot)
{
	struct ltt_recorder *rec = calloc(1, sizeof(*rec));
	struct ltt_status st;
	unsigned int i;

	if (!rec) {
		ltt_fail("out of memory");
		return NULL;
	}
	rec->session_fd = rec->epoll_fd = rec->dir_fd = -1;
	rec->overwrite = opts->session.overwrite;
	rec->boot = boot;
	rec->dir = opts->dir ? strdup(opts->dir) : NULL;
	if (opts->dir && !rec->dir) {
		ltt_fail("out of memory");
		goto fail;
	}
	rec->session_fd = boot ? ltt_session_boot() :
				 ltt_session_create(&opts->session);
	if (rec->session_fd < 0 || rec_configure(rec, opts) ||
	    rec_learn_cpus(rec))
		goto fail;
	if (boot) {
		if (ltt_session_status(rec->session_fd, &st, NULL, 0))
			goto fail;
		rec->overwrite = st.mode == LTT_MODE_OVERWRITE;
	}
	rec->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (rec->epoll_fd < 0) {
		ltt_fail_errno("epoll_create1");
		goto fail;
	}
	for (i = 0; i < rec->n_cpus; i++)
		if (rec_open_buffer(rec, &rec->cpus[i]))
			goto fail;
	if (!rec->dir)
		return rec;		/* discarding: no trace to write */
	if (rec_make_dir(rec->dir, &rec->made_dir))
		goto fail;
	rec->dir_fd = open(rec->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rec->dir_fd < 0) {
		ltt_fail_errno("%s", rec->dir);
		goto fail;
	}
	if (rec_write_metadata(rec))
		goto fail;
	return rec;

fail:
	ltt_recorder_destroy(rec);
	return NULL;
}

struct ltt_recorder *ltt_recorder_create(const struct ltt_record_opts *opts)
{
	return rec_create(opts, false);
}

struct ltt_recorder *ltt_recorder_create_boot(const struct ltt_record_opts *opts)
{
	return rec_create(opts, true);
}

int ltt_recorder_start(struct ltt_recorder *rec)
{
	/* The boot session records from boot: its first START is not ours. */
	if (!(rec->boot && !rec->started) && ltt_session_start(rec->session_fd))
		return -1;
	rec->recording = rec->started = true;
	return 0;
}

/*
 * Append the packet at @sb to the stream file of @c, created with its
 * first packet; nothing when discarding.
 */
static int rec_out(struct ltt_recorder *rec, struct rec_cpu *c,
		   const struct ltt_subbuf *sb)
{
	char name[32];

	if (!rec->dir)
		return 0;
	snprintf(name, sizeof(name), LTT_STREAM_FMT, c->cpu);
	if (c->out_fd < 0)
		c->out_fd = openat(rec->dir_fd, name,
				   O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				   0644);
	if (c->out_fd < 0 ||
	    ltt_write_all(c->out_fd, c->map + sb->offset, sb->size))
		return ltt_fail_errno("%s/%s", rec->dir, name);
	return 0;
}

/*
 * Write one packet of @c, if one is complete.  Returns 1 when a packet
 * was written, 0 when none is ready (EAGAIN, or ENODATA: c->done), -1.
 */
static int rec_write_packet(struct ltt_recorder *rec, struct rec_cpu *c)
{
	const struct ltt_packet_header *h;
	struct ltt_subbuf sb;
	int ret = 1;

	if (ioctl(c->buf_fd, LTT_BUF_GET_SUBBUF, &sb)) {
		if (errno == EAGAIN || errno == EBUSY)
			return 0;
		if (errno == ENODATA) {
			c->done = true;
			return 0;
		}
		return ltt_fail_errno("cpu %u: LTT_BUF_GET_SUBBUF", c->cpu);
	}
	if (sb.offset >= c->map_size || sb.size < sizeof(*h) ||
	    sb.size > c->map_size - sb.offset) {
		ltt_fail("cpu %u: LTT_BUF_GET_SUBBUF gave offset %llu size %llu in a %zu-byte buffer",
			 c->cpu, (unsigned long long)sb.offset,
			 (unsigned long long)sb.size, c->map_size);
		ret = -1;
	} else if (rec_out(rec, c, &sb)) {
		ret = -1;
	} else if (rec->sink.packet &&
		   rec->sink.packet(rec->sink.ctx, c->cpu, c->map + sb.offset,
				    sb.size)) {
		ret = -1;
	} else {
		h = (const void *)(c->map + sb.offset);
		rec->stats.packets++;
		rec->stats.events += h->events;
		rec->stats.bytes += sb.size;
		rec->stats.lost += h->events_discarded - c->discarded;
		c->discarded = h->events_discarded;
	}
	if (ioctl(c->buf_fd, LTT_BUF_PUT_SUBBUF) && ret > 0)
		ret = ltt_fail_errno("cpu %u: LTT_BUF_PUT_SUBBUF", c->cpu);
	return ret;
}

/* Write every complete packet of @c. */
static int rec_drain_cpu(struct ltt_recorder *rec, struct rec_cpu *c)
{
	int ret;

	do {
		ret = rec_write_packet(rec, c);
	} while (ret > 0);
	return ret;
}

int ltt_recorder_pump(struct ltt_recorder *rec, int timeout_ms,
		      const void *sigmask)
{
	struct epoll_event ev[64];
	int i, n;

	n = epoll_pwait(rec->epoll_fd, ev, 64, timeout_ms, sigmask);
	if (n < 0)
		return errno == EINTR ? 0 : ltt_fail_errno("epoll_wait");
	if (n && rec_refresh_metadata(rec))
		return -1;
	for (i = 0; i < n; i++)
		if (rec_drain_cpu(rec, ev[i].data.ptr))
			return -1;
	return 0;
}

/*
 * After STOP or SNAPSHOT: every CPU to ENODATA.  A stopped session has
 * handed all its packets over, so EAGAIN here means "not yet": wait for
 * the buffer a little, and give up after a few seconds rather than hang.
 */
static int rec_drain_all(struct ltt_recorder *rec)
{
	unsigned int i, tries;

	if (rec_refresh_metadata(rec))
		return -1;
	for (i = 0; i < rec->n_cpus; i++) {
		struct rec_cpu *c = &rec->cpus[i];

		c->done = false;
		for (tries = 0; !c->done; tries++) {
			if (rec_drain_cpu(rec, c))
				return -1;
			if (c->done)
				break;
			if (tries == 500)
				return ltt_fail("cpu %u: the buffer never reached its end after STOP",
						c->cpu);
			usleep(10000);
		}
	}
	return 0;
}

int ltt_recorder_snapshot(struct ltt_recorder *rec)
{
	if (!rec->overwrite)
		return ltt_fail("a snapshot needs a flight-recorder (overwrite) session");
	if (!rec->recording)
		return 0;
	if (ltt_session_snapshot(rec->session_fd))
		return -1;
	rec->recording = false;
	if (rec_drain_all(rec))
		return -1;
	return ltt_recorder_start(rec);
}

int ltt_recorder_stop(struct ltt_recorder *rec)
{
	/* never started: no packet, and no end of the buffers to wait for */
	if (!rec->started)
		return 0;
	if (rec->recording) {
		if (ltt_session_stop(rec->session_fd))
			return -1;
		rec->recording = false;
	}
	return rec_drain_all(rec);
}

int ltt_recorder_set_sink(struct ltt_recorder *rec,
			  const struct ltt_recorder_sink *sink)
{
	if (rec->started)
		return ltt_fail("ltt_recorder_set_sink: the recorder has started");
	rec->sink = *sink;
	/* the metadata so far, for the sink */
	return sink->metadata ? rec_write_metadata(rec) : 0;
}

void ltt_recorder_stats(const struct ltt_recorder *rec,
			struct ltt_record_stats *st)
{
	*st = rec->stats;
}

int ltt_recorder_status(struct ltt_recorder *rec, struct ltt_status *st,
			const struct ltt_cpu_status **cpus)
{
	if (ltt_session_status(rec->session_fd, st, rec->status, rec->n_cpus))
		return -1;
	*cpus = rec->status;
	if (st->n_cpus > rec->n_cpus)
		st->n_cpus = rec->n_cpus;
	return 0;
}

bool ltt_recorder_overwrite(const struct ltt_recorder *rec)
{
	return rec->overwrite;
}

/*
 * A recorder that never recorded (START failed, or was never asked)
 * leaves no trace behind: its metadata goes, and its directory if it
 * made it, so that the same command can run again.
 */
static void rec_remove_trace(struct ltt_recorder *rec)
{
	if (rec->started || rec->dir_fd < 0)
		return;
	if (rec->wrote_metadata) {
		unlinkat(rec->dir_fd, "metadata.new", 0);
		unlinkat(rec->dir_fd, "metadata", 0);
	}
	if (rec->made_dir)
		rmdir(rec->dir);
}

void ltt_recorder_destroy(struct ltt_recorder *rec)
{
	unsigned int i;

	if (!rec)
		return;
	rec_remove_trace(rec);
	for (i = 0; rec->cpus && i < rec->n_cpus; i++) {
		struct rec_cpu *c = &rec->cpus[i];

		if (c->map)
			munmap((void *)c->map, c->map_size);
		if (c->buf_fd >= 0)
			close(c->buf_fd);
		if (c->out_fd >= 0)
			close(c->out_fd);
	}
	if (rec->epoll_fd >= 0)
		close(rec->epoll_fd);
	if (rec->session_fd >= 0)
		close(rec->session_fd);
	if (rec->dir_fd >= 0)
		close(rec->dir_fd);
	free(rec->cpus);
	free(rec->status);
	free(rec->dir);
	free(rec);
}
