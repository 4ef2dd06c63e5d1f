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
 *
 * A flight recorder (overwrite mode) is not read while it records:
 * a snapshot copies the packets its ring holds out with
 * LTT_BUF_SNAPSHOT_READ, each into a new trace directory of its own,
 * while the kernel goes on writing; a packet the kernel overwrote while
 * it was copied is left out and counted.  A kernel without those ioctls
 * (ENOTTY) is stopped, drained and started again instead.
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
	uint32_t subbuf_size;
	bool done;			/* ENODATA */
	uint64_t discarded;		/* of its last packet */
	struct ltt_snapshot ring;	/* of the snapshot being taken */
	/*
	 * Flight recorder: the position past the newest packet a snapshot
	 * gave the recorder's own trace and the sink; a later snapshot, or
	 * the drain after STOP, gives them only the packets after it.
	 */
	uint64_t sent;
};

/* A trace directory being written: the recorder's, or a snapshot's. */
struct rec_trace {
	char *dir;			/* NULL: no files (discarding) */
	int dir_fd;
	int *out_fd;			/* per CPU; -1 until its first packet */
	int *idx_fd;			/* its index/; -1 before, -2 given up */
	bool made_dir;			/* the directory is ours */
	bool wrote_metadata;
};

struct ltt_recorder {
	struct rec_trace main;
	int session_fd;
	int epoll_fd;
	bool overwrite;
	bool recording;
	bool started;			/* START succeeded once */
	bool boot;			/* the boot session, recording already */
	bool user;			/* an unprivileged user's session */
	unsigned int n_cpus;
	struct rec_cpu *cpus;
	struct ltt_cpu_status *status;
	struct ltt_record_stats stats;
	uint32_t generation;		/* of the registry in the metadata */
	int64_t clock_offset;		/* real - mono, read once */
	bool has_offset;
	struct ltt_recorder_sink sink;	/* .packet NULL: none */
	struct ltt_snapshot_stats *snap; /* the snapshot being taken */
	unsigned char *copy;		/* a packet's room, LTT_BUF_SNAPSHOT_READ */
	size_t copy_size;
};

int ltt_make_trace_dir(const char *dir, bool *made)
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
	c->subbuf_size = bi.subbuf_size;
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
static int rec_write_metadata_file(struct rec_trace *t, const char *text,
				   size_t len)
{
	int fd, ret;

	fd = openat(t->dir_fd, "metadata.new",
		    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return ltt_fail_errno("%s/metadata.new", t->dir);
	t->wrote_metadata = true;
	ret = ltt_write_all(fd, text, len);
	if (ret)
		ltt_fail_errno("%s/metadata.new", t->dir);
	if (!ret && fsync(fd))
		ret = ltt_fail_errno("%s/metadata.new: fsync", t->dir);
	close(fd);
	if (!ret && renameat(t->dir_fd, "metadata.new", t->dir_fd,
			     "metadata"))
		ret = ltt_fail_errno("%s/metadata", t->dir);
	if (!ret && fsync(t->dir_fd))
		ret = ltt_fail_errno("%s: fsync", t->dir);
	return ret;
}

/*
 * Is the session made now a user session?  The kernel makes one for a
 * caller without CAP_PERFMON and CAP_SYS_ADMIN (perfmon_capable()): its
 * records write the other users' tasks as pid 0, which the metadata says
 * (env.session) so that readers do not call them idle.
 */
static bool rec_user_session(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long caps = ~0ULL;
	char line[256];

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return !(caps & (1ULL << 38 | 1ULL << 21));	/* PERFMON, SYS_ADMIN */
}

/* The metadata text of the kernel's registry now, and its generation. */
static int rec_metadata_text(struct ltt_recorder *rec, char **text,
			     size_t *len, uint32_t *gen)
{
	struct ltt_registry reg;
	off_t end = 0;
	int fd, ret;

	*text = NULL;
	if (!rec->has_offset) {
		if (rec_clock_offset(rec, &rec->clock_offset))
			return -1;
		rec->has_offset = true;
	}
	if (rec_generation(gen) || ltt_registry_from_kernel(&reg))
		return -1;
	fd = memfd_create("ltt-metadata", MFD_CLOEXEC);
	if (fd < 0) {
		ltt_registry_free(&reg);
		return ltt_fail_errno("memfd_create");
	}
	ret = ltt_metadata_write_order(fd, &reg, rec->clock_offset,
				       LTT_HOST_BIG_ENDIAN, NULL, rec->user);
	ltt_registry_free(&reg);
	if (!ret) {
		end = lseek(fd, 0, SEEK_CUR);
		*text = end > 0 ? malloc(end) : NULL;
		if (!*text || pread(fd, *text, end, 0) != end)
			ret = ltt_fail("metadata: out of memory");
	}
	close(fd);
	*len = end;
	return ret;
}

/* The metadata, once, into the recorder's own trace and the sink. */
static int rec_write_metadata(struct ltt_recorder *rec)
{
	char *text;
	size_t len;
	int ret;

	ret = rec_metadata_text(rec, &text, &len, &rec->generation);
	if (!ret && rec->main.dir)
		ret = rec_write_metadata_file(&rec->main, text, len);
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

	if (!rec->main.dir && !rec->sink.metadata)
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

/*
 * Make @dir (with its parents, refusing one that holds a trace) and
 * open it as @t, no stream file yet.  On failure @t says what to remove.
 */
static int rec_trace_open(struct ltt_recorder *rec, struct rec_trace *t,
			  const char *dir)
{
	unsigned int i;

	t->dir = strdup(dir);
	t->out_fd = calloc(rec->n_cpus, sizeof(*t->out_fd));
	t->idx_fd = calloc(rec->n_cpus, sizeof(*t->idx_fd));
	if (!t->dir || !t->out_fd || !t->idx_fd)
		return ltt_fail("out of memory");
	for (i = 0; i < rec->n_cpus; i++)
		t->out_fd[i] = t->idx_fd[i] = -1;
	if (ltt_make_trace_dir(t->dir, &t->made_dir))
		return -1;
	t->dir_fd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dir_fd < 0)
		return ltt_fail_errno("%s", t->dir);
	return 0;
}

/*
 * Close the files of @t; @sync: fsync the streams first (a snapshot is
 * written once and kept).  Returns -1 when a sync failed.
 */
static int rec_trace_close(struct ltt_recorder *rec, struct rec_trace *t,
			   bool sync)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; t->out_fd && i < rec->n_cpus; i++) {
		if (t->out_fd[i] < 0)
			continue;
		if (sync && fsync(t->out_fd[i]) && !ret)
			ret = ltt_fail_errno("%s/" LTT_STREAM_FMT ": fsync",
					     t->dir, rec->cpus[i].cpu);
		close(t->out_fd[i]);
	}
	for (i = 0; t->idx_fd && i < rec->n_cpus; i++)
		if (t->idx_fd[i] >= 0)
			close(t->idx_fd[i]);
	if (t->dir_fd >= 0)
		close(t->dir_fd);
	free(t->out_fd);
	free(t->idx_fd);
	free(t->dir);
	memset(t, 0, sizeof(*t));
	t->dir_fd = -1;
	return ret;
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
	rec->session_fd = rec->epoll_fd = rec->main.dir_fd = -1;
	rec->overwrite = opts->session.overwrite;
	rec->boot = boot;
	rec->user = !boot && rec_user_session();
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
	for (i = 0; i < rec->n_cpus; i++) {
		if (rec_open_buffer(rec, &rec->cpus[i]))
			goto fail;
		if (rec->cpus[i].subbuf_size > rec->copy_size)
			rec->copy_size = rec->cpus[i].subbuf_size;
	}
	if (!opts->dir)
		return rec;		/* discarding: no trace to write */
	if (rec_trace_open(rec, &rec->main, opts->dir) ||
	    rec_write_metadata(rec))
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

int ltt_recorder_set_cgroups(struct ltt_recorder *rec, const int *fds,
			     unsigned int count)
{
	return ltt_session_set_cgroups(rec->session_fd, fds, count);
}

/*
 * The packet just written at @at into the stream's index (index.c).  The
 * index only speeds readers up: one that cannot be written is given up,
 * and readers walk the packet headers it does not cover.
 */
static void rec_index(struct rec_trace *t, unsigned int i, const char *name,
		      off_t at, const void *pkt)
{
	if (t->idx_fd[i] == -1)
		t->idx_fd[i] = ltt_index_create(t->dir_fd, name);
	if (t->idx_fd[i] < 0)
		t->idx_fd[i] = -2;
	else if (at < 0 || ltt_index_append(t->idx_fd[i], at, pkt)) {
		close(t->idx_fd[i]);
		t->idx_fd[i] = -2;
	}
}

/*
 * Append the packet @pkt of @c to its stream file in @t, created with
 * its first packet; nothing when @t has no directory.  A packet that
 * cannot be written whole (a full disk) is cut off again, so that the
 * file ends with the last whole one.
 */
static int rec_out(struct ltt_recorder *rec, struct rec_trace *t,
		   struct rec_cpu *c, const void *pkt, size_t size)
{
	unsigned int i = c - rec->cpus;
	char name[32];
	off_t at;
	int err;

	if (!t->dir)
		return 0;
	snprintf(name, sizeof(name), LTT_STREAM_FMT, c->cpu);
	if (t->out_fd[i] < 0)
		t->out_fd[i] = openat(t->dir_fd, name,
				      O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				      0644);
	if (t->out_fd[i] < 0)
		return ltt_fail_errno("%s/%s", t->dir, name);
	at = lseek(t->out_fd[i], 0, SEEK_CUR);
	if (!ltt_write_all(t->out_fd[i], pkt, size)) {
		rec_index(t, i, name, at, pkt);
		return 0;
	}
	err = errno;
	if (at >= 0 && !ftruncate(t->out_fd[i], at))
		lseek(t->out_fd[i], at, SEEK_SET);
	errno = err;
	return ltt_fail_errno("%s/%s", t->dir, name);
}

/* Count a packet written: in the recorder's totals and the snapshot's. */
static void rec_count(struct ltt_recorder *rec, struct rec_cpu *c,
		      const struct ltt_packet_header *h, size_t size)
{
	rec->stats.packets++;
	rec->stats.events += h->events;
	rec->stats.bytes += size;
	if (rec->snap) {
		rec->snap->packets++;
		rec->snap->events += h->events;
		rec->snap->bytes += size;
		return;
	}
	rec->stats.lost += h->events_discarded - c->discarded;
	c->discarded = h->events_discarded;
}

/*
 * Write one packet of @c into @t, if one is complete.  Returns 1 when a
 * packet was taken, 0 when none is ready (EAGAIN, or ENODATA: c->done),
 * -1.  A packet that a live snapshot gave @t already is given back
 * unwritten.
 */
static int rec_write_packet(struct ltt_recorder *rec, struct rec_trace *t,
			    struct rec_cpu *c)
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
	} else if (t == &rec->main &&
		   (sb.seq * c->subbuf_size < c->sent ||
		    (rec->overwrite && !t->dir && !rec->sink.packet))) {
		/* in the trace already, from a snapshot; or going nowhere */
	} else if (rec_out(rec, t, c, c->map + sb.offset, sb.size)) {
		ret = -1;
	} else if (rec->sink.packet &&
		   rec->sink.packet(rec->sink.ctx, c->cpu, c->map + sb.offset,
				    sb.size)) {
		ret = -1;
	} else {
		h = (const void *)(c->map + sb.offset);
		rec_count(rec, c, h, sb.size);
	}
	if (ioctl(c->buf_fd, LTT_BUF_PUT_SUBBUF) && ret > 0)
		ret = ltt_fail_errno("cpu %u: LTT_BUF_PUT_SUBBUF", c->cpu);
	return ret;
}

/* Write every complete packet of @c into @t. */
static int rec_drain_cpu(struct ltt_recorder *rec, struct rec_trace *t,
			 struct rec_cpu *c)
{
	int ret;

	do {
		ret = rec_write_packet(rec, t, c);
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
		if (rec_drain_cpu(rec, &rec->main, ev[i].data.ptr))
			return -1;
	return 0;
}

/*
 * After STOP or SNAPSHOT: every CPU to ENODATA, into @t.  A stopped
 * session has handed all its packets over, so EAGAIN here means "not
 * yet": wait for the buffer a little, and give up after a few seconds
 * rather than hang.
 */
static int rec_drain_all(struct ltt_recorder *rec, struct rec_trace *t)
{
	unsigned int i, tries;

	if (rec_refresh_metadata(rec))
		return -1;
	for (i = 0; i < rec->n_cpus; i++) {
		struct rec_cpu *c = &rec->cpus[i];

		c->done = false;
		for (tries = 0; !c->done; tries++) {
			if (rec_drain_cpu(rec, t, c))
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

/*
 * LTT_BUF_SNAPSHOT on every CPU: close the packets being written and
 * learn the rings' packets.  Returns 1 on a kernel without it (ENOTTY,
 * on the first CPU), 0, or -1.
 */
static int rec_snapshot_rings(struct ltt_recorder *rec)
{
	unsigned int i;

	for (i = 0; i < rec->n_cpus; i++) {
		struct rec_cpu *c = &rec->cpus[i];

		if (!ioctl(c->buf_fd, LTT_BUF_SNAPSHOT, &c->ring))
			continue;
		if (errno == ENOTTY && !i)
			return 1;
		return ltt_fail_errno("cpu %u: LTT_BUF_SNAPSHOT", c->cpu);
	}
	return 0;
}

/* How long a packet whose writers are not done with it is waited for. */
#define REC_UNFINISHED_TRIES	100	/* of 1 ms */

/*
 * Copy the packet at @pos of @c into rec->copy.  Returns 1 when it is
 * whole there, 0 when it is to be left out (counted in the snapshot's
 * stats: overwritten, or its writers never finished), -1.
 */
static int rec_copy_packet(struct ltt_recorder *rec, struct rec_cpu *c,
			   uint64_t pos, size_t *size)
{
	struct ltt_snapshot_read rd = {
		.pos = pos, .buf = (uintptr_t)rec->copy,
	};
	const struct ltt_packet_header *h = (const void *)rec->copy;
	unsigned int tries;

	for (tries = 0; ioctl(c->buf_fd, LTT_BUF_SNAPSHOT_READ, &rd); tries++) {
		if (errno == ESTALE) {
			rec->snap->stale++;
			return 0;
		}
		if (errno != EAGAIN)
			return ltt_fail_errno("cpu %u: LTT_BUF_SNAPSHOT_READ of packet %llu",
					      c->cpu, (unsigned long long)(pos / c->subbuf_size));
		if (tries == REC_UNFINISHED_TRIES) {
			rec->snap->unfinished++;
			return 0;
		}
		usleep(1000);
	}
	if (rd.size < sizeof(*h) || rd.size > c->subbuf_size ||
	    h->magic != LTT_PACKET_MAGIC)
		return ltt_fail("cpu %u: LTT_BUF_SNAPSHOT_READ gave a packet of %llu bytes, magic 0x%x, in %u-byte sub-buffers",
				c->cpu, (unsigned long long)rd.size, h->magic,
				c->subbuf_size);
	*size = rd.size;
	return 1;
}

/*
 * The packets of @c's ring, oldest first, into @t (all of them) and
 * into the recorder's own trace and the sink (those not given them yet).
 */
static int rec_copy_ring(struct ltt_recorder *rec, struct rec_trace *t,
			 struct rec_cpu *c)
{
	uint64_t pos, sbsize = c->subbuf_size;
	size_t size = 0;
	int ret;

	for (pos = c->ring.begin; pos < c->ring.end; pos += sbsize) {
		bool first = pos >= c->sent;

		if (t == &rec->main && !first)
			continue;
		ret = rec_copy_packet(rec, c, pos, &size);
		if (ret < 0)
			return -1;
		if (ret && rec_out(rec, t, c, rec->copy, size))
			return -1;
		if (ret && first && t != &rec->main &&
		    rec_out(rec, &rec->main, c, rec->copy, size))
			return -1;
		if (ret && first && rec->sink.packet &&
		    rec->sink.packet(rec->sink.ctx, c->cpu, rec->copy, size))
			return -1;
		if (first)
			c->sent = pos + sbsize;
		if (ret)
			rec_count(rec, c, (const void *)rec->copy, size);
	}
	return 0;
}

/* A kernel without live snapshots: SNAPSHOT (a stop), drain, START. */
static int rec_snapshot_stopped(struct ltt_recorder *rec, struct rec_trace *t)
{
	bool was_recording = rec->recording;

	rec->snap->restarted = was_recording;
	if (was_recording) {
		if (ltt_session_snapshot(rec->session_fd))
			return -1;
		rec->recording = false;
	}
	if (rec_drain_all(rec, t))
		return -1;
	return was_recording ? ltt_recorder_start(rec) : 0;
}

/*
 * The snapshot proper, into @t: its metadata first (after the rings
 * were closed, so that it knows every event type of their packets),
 * then the packets.
 */
static int rec_snapshot(struct ltt_recorder *rec, struct rec_trace *t)
{
	unsigned int i;
	char *text;
	size_t len;
	uint32_t gen;
	int old_kernel, ret;

	old_kernel = rec_snapshot_rings(rec);
	if (old_kernel < 0 || rec_refresh_metadata(rec))
		return -1;
	if (t != &rec->main && t->dir) {
		ret = rec_metadata_text(rec, &text, &len, &gen);
		if (!ret)
			ret = rec_write_metadata_file(t, text, len);
		free(text);
		if (ret)
			return -1;
	}
	if (old_kernel)
		return rec_snapshot_stopped(rec, t);
	if (!rec->copy) {
		rec->copy = malloc(rec->copy_size);
		if (!rec->copy)
			return ltt_fail("out of memory");
	}
	for (i = 0; i < rec->n_cpus; i++)
		if (rec_copy_ring(rec, t, &rec->cpus[i]))
			return -1;
	return 0;
}

/* Checks shared by both kinds of snapshot. */
static int rec_can_snapshot(struct ltt_recorder *rec)
{
	if (!rec->overwrite)
		return ltt_fail("a snapshot needs a flight-recorder (overwrite) session");
	if (!rec->started)
		return ltt_fail("no snapshot before the recorder starts");
	return 0;
}

int ltt_recorder_snapshot(struct ltt_recorder *rec)
{
	struct ltt_snapshot_stats st = { 0 };
	int ret;

	if (rec_can_snapshot(rec))
		return -1;
	if (!rec->recording)
		return 0;
	rec->snap = &st;
	ret = rec_snapshot(rec, &rec->main);
	rec->snap = NULL;
	return ret;
}

int ltt_recorder_snapshot_to(struct ltt_recorder *rec, const char *dir,
			     unsigned int flags, struct ltt_snapshot_stats *st)
{
	struct rec_trace t = { .dir_fd = -1 };
	int ret = -1;

	memset(st, 0, sizeof(*st));
	if (flags & ~LTT_SNAPSHOT_FINAL)
		return ltt_fail("ltt_recorder_snapshot_to: unknown flags 0x%x",
				flags);
	if (rec_can_snapshot(rec))
		return -1;
	if (dir && rec_trace_open(rec, &t, dir)) {
		rec_trace_close(rec, &t, false);
		return -1;
	}
	rec->snap = st;
	if ((flags & LTT_SNAPSHOT_FINAL) && rec->recording) {
		if (ltt_session_stop(rec->session_fd))
			goto out;
		rec->recording = false;
	}
	ret = rec_snapshot(rec, &t);
out:
	rec->snap = NULL;
	/* what was written stays, whole packets, even after a failure */
	if (rec_trace_close(rec, &t, true))
		ret = -1;
	return ret;
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
	return rec_drain_all(rec, &rec->main);
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
	struct rec_trace *t = &rec->main;

	if (rec->started || t->dir_fd < 0)
		return;
	if (t->wrote_metadata) {
		unlinkat(t->dir_fd, "metadata.new", 0);
		unlinkat(t->dir_fd, "metadata", 0);
	}
	if (t->made_dir)
		rmdir(t->dir);
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
	}
	rec_trace_close(rec, &rec->main, false);
	if (rec->epoll_fd >= 0)
		close(rec->epoll_fd);
	if (rec->session_fd >= 0)
		close(rec->session_fd);
	free(rec->cpus);
	free(rec->status);
	free(rec->copy);
	free(rec);
}
