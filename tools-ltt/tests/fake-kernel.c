// SPDX-License-Identifier: GPL-2.0
/*
 * fake-kernel.so: just enough of an LTT kernel, preloaded into lttd, to
 * test what lttd does when a command fails, with no LTT kernel:
 *
 *   LD_PRELOAD=build/fake-kernel.so FAKE_LTT_START=EBUSY lttd -o DIR
 *
 * ltt() (the syscall() function) knows CREATE, STATUS (one CPU),
 * BUFFER_FD (a memfd as the buffer), EVENT_INFO (one event), START,
 * STOP; the buffer's ioctls give no packet (EAGAIN while recording,
 * ENODATA once stopped).  FAKE_LTT_START=ERRNO makes START fail.  uname()
 * says 6.12, as libltt expects of an LTT kernel.
 *
 * FAKE_LTT_PACKETS=N makes the buffer hand over N packets while
 * recording, one every FAKE_LTT_PACKET_MS (100) ms, each of
 * FAKE_LTT_EVENTS (20) fake_event records 1 us apart, stamped with
 * CLOCK_MONOTONIC as the kernel's are (packet K ends when it was due, at
 * (K + 1) * FAKE_LTT_PACKET_MS from the timer's start, or now when that is
 * later); FAKE_LTT_CUSTOM_AFTER=K makes a
 * custom event type, fake_custom (one u32 field, "n"), appear after K
 * packets, and the packets after that hold one of it each (tests/relayd.sh).
 *
 * A session created in overwrite mode is a flight recorder of
 * the n_subbufs it asks for (2 by default): its packets go round the ring unread (GET_SUBBUF is EBUSY while it
 * records), LTT_BUF_SNAPSHOT names them and LTT_BUF_SNAPSHOT_READ copies
 * one out; LTT_CMD_SNAPSHOT and STOP let GET_SUBBUF drain the ring.
 * Knobs: FAKE_LTT_STALE=SEQ[,SEQ] makes the recorder overwrite those
 * packets while they are copied (ESTALE; it writes as many packets as
 * that takes, past FAKE_LTT_PACKETS); FAKE_LTT_EAGAIN=SEQ[,SEQ] makes
 * their copies EAGAIN FAKE_LTT_EAGAIN_TIMES (3) times first;
 * FAKE_LTT_NO_LIVE=1 makes both ioctls ENOTTY, as an older kernel.
 * FAKE_LTT_LOG=FILE gets a line per START, STOP, SNAPSHOT, BUF_SNAPSHOT
 * (the range, in packet numbers), SNAPSHOT_READ (its packet and
 * result), EVENT_CREATE (name, "flag" with an enable flag) and EVENT_LOG
 * (size).  EVENT_CREATE sets the enable flag when FAKE_LTT_TAKEN is set,
 * as if a session recorded the event; FAKE_LTT_NO_FLAGS makes a flag
 * EINVAL, as an older kernel.  FAKE_LTT_CUSTOM_IN=SEQ[,SEQ] puts the
 * fake_custom record in those packets only.
 *
 * A second session (lttd --snapshot-on's watcher) may be created next to
 * the first, in discard mode only: it mirrors the first's fake_custom
 * records, each as a packet of its own (an extended record header), when
 * its mask (SET_EVENTS) has the custom id and it records; a packet it has
 * no room for (FAKE_LTT_WATCH_SUBBUFS, the sub-buffers it asked for, none
 * taken) is lost, counted in the packets' events_discarded.  Its
 * commands are logged as "SESSION2 CREATE", "SESSION2 SET_EVENTS FROM"
 * (the first id in its mask), "SESSION2 SET_PIDS N", "SESSION2 START",
 * "SESSION2 STOP"; the first session's SET_PIDS as "SET_PIDS N".
 *
 * LTT_CMD_PREVIOUS_BOOT gives an fd on the file FAKE_LTT_PREVIOUS (an
 * image, tests/cli-previous.sh), ENOENT without it, or fails with
 * FAKE_LTT_PREVIOUS_ERRNO (a number); LTT_PREVIOUS_FREE logs
 * "PREVIOUS_FREE".
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt.h>

#define FAKE_SB		LTT_SUBBUF_MIN
#define FAKE_SUBBUFS_MAX	64

static int buffer_fd = -1, timer_fd = -1;
static bool recording, started, overwrite;
static unsigned int packets_made, n_subbufs = 2;
static unsigned int consumed;		/* overwrite: the next packet to drain */
static uint64_t last_ts;		/* the end of the newest packet */
static int session_fd = -1;		/* the first session */
static uint64_t timer_armed;		/* when the packet timer started */

/* The second session: a discard-mode mirror of the custom records. */
static int w_session_fd = -1, w_buffer_fd = -1, w_ready_fd = -1;
static bool w_recording, w_started, w_custom_on;
static unsigned int w_subbufs = 2, w_made, w_consumed;
static uint64_t w_lost;
static unsigned int eagain_left[4096];	/* per packet, FAKE_LTT_EAGAIN */
static bool eagain_armed[4096];

static unsigned int env_u(const char *name, unsigned int dflt)
{
	const char *v = getenv(name);

	return v && *v ? (unsigned int)strtoul(v, NULL, 10) : dflt;
}

/* The custom event type exists once its packets are due. */
static bool custom_made(void)
{
	return getenv("FAKE_LTT_CUSTOM_AFTER") &&
	       packets_made >= env_u("FAKE_LTT_CUSTOM_AFTER", 0);
}

static long fake_fail(int err)
{
	errno = err;
	return -1;
}

static void __attribute__((format(printf, 1, 2))) fake_log(const char *fmt, ...)
{
	const char *path = getenv("FAKE_LTT_LOG");
	va_list ap;
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

/* Is @seq in the comma-separated list of environment variable @name? */
static bool env_has(const char *name, unsigned int seq)
{
	const char *v = getenv(name);
	char *end;

	while (v && *v) {
		if (strtoul(v, &end, 10) == seq && end != v)
			return true;
		if (*end != ',')
			break;
		v = end + 1;
	}
	return false;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* STOP, and SNAPSHOT: a flight recorder's ring is drained, oldest first. */
static void fake_stop(void)
{
	recording = false;
	if (overwrite && packets_made > n_subbufs &&
	    consumed < packets_made - n_subbufs)
		consumed = packets_made - n_subbufs;
}

static long fake_ltt(unsigned int cmd, void *arg)
{
	const char *start = getenv("FAKE_LTT_START");

	switch (cmd) {
	case LTT_CMD_CREATE: {
		const struct ltt_create *cr = arg;

		if (session_fd >= 0) {
			if (w_session_fd >= 0 || cr->mode != LTT_MODE_DISCARD)
				return fake_fail(EBUSY);
			if (cr->n_subbufs >= 2 && cr->n_subbufs <= FAKE_SUBBUFS_MAX)
				w_subbufs = cr->n_subbufs;
			fake_log("SESSION2 CREATE");
			w_session_fd = eventfd(0, EFD_CLOEXEC);
			return w_session_fd;
		}
		overwrite = cr->mode == LTT_MODE_OVERWRITE;
		if (cr->n_subbufs >= 2 && cr->n_subbufs <= FAKE_SUBBUFS_MAX)
			n_subbufs = cr->n_subbufs;
		session_fd = eventfd(0, EFD_CLOEXEC);
		return session_fd;
	}
	case LTT_CMD_SET_EVENTS: {
		const struct ltt_events *ev = arg;
		const uint64_t *mask = (const void *)(uintptr_t)ev->mask;
		unsigned int i;

		if (ev->session_fd != w_session_fd || w_session_fd < 0)
			return fake_fail(EINVAL);	/* the first's: not faked */
		for (i = 0; i < ev->nbits && !(mask[i / 64] >> (i % 64) & 1); i++)
			;
		w_custom_on = ev->nbits > 1 && (mask[0] & 2);
		fake_log("SESSION2 SET_EVENTS %u", i);
		return 0;
	}
	case LTT_CMD_SET_PIDS: {
		const struct ltt_pids *pp = arg;

		fake_log("%sSET_PIDS %u", pp->session_fd == w_session_fd &&
			 w_session_fd >= 0 ? "SESSION2 " : "", pp->count);
		return 0;
	}
	case LTT_CMD_STATUS: {
		struct ltt_status *st = arg;

		if (st->session_fd == w_session_fd && w_session_fd >= 0) {
			if (st->cpus && st->n_cpus)
				memset((void *)(uintptr_t)st->cpus, 0,
				       sizeof(struct ltt_cpu_status));
			st->n_cpus = 1;
			st->state = w_recording;
			st->subbuf_size = FAKE_SB;
			st->n_subbufs = w_subbufs;
			st->mode = LTT_MODE_DISCARD;
			st->mono_ns = clock_ns(CLOCK_MONOTONIC);
			st->real_ns = clock_ns(CLOCK_REALTIME);
			return 0;
		}

		if (st->cpus && st->n_cpus)
			memset((void *)(uintptr_t)st->cpus, 0,
			       sizeof(struct ltt_cpu_status));
		st->n_cpus = 1;
		st->state = recording;
		st->subbuf_size = FAKE_SB;
		st->n_subbufs = n_subbufs;
		st->mode = overwrite ? LTT_MODE_OVERWRITE : LTT_MODE_DISCARD;
		st->mono_ns = clock_ns(CLOCK_MONOTONIC);
		st->real_ns = clock_ns(CLOCK_REALTIME);
		return 0;
	}
	case LTT_CMD_BUFFER_FD:
		if (((const struct ltt_buffer_req *)arg)->session_fd == w_session_fd &&
		    w_session_fd >= 0) {
			if (w_buffer_fd >= 0)
				return fake_fail(EBUSY);
			w_buffer_fd = memfd_create("fake-ltt-watch", MFD_CLOEXEC);
			w_ready_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
			if (w_buffer_fd < 0 || w_ready_fd < 0 ||
			    ftruncate(w_buffer_fd, w_subbufs * FAKE_SB))
				return -1;
			return w_buffer_fd;
		}
		if (buffer_fd >= 0)
			return fake_fail(EBUSY);
		buffer_fd = memfd_create("fake-ltt-buffer", MFD_CLOEXEC);
		if (buffer_fd >= 0 && ftruncate(buffer_fd, n_subbufs * FAKE_SB))
			return -1;
		if (getenv("FAKE_LTT_PACKETS")) {
			unsigned int ms = env_u("FAKE_LTT_PACKET_MS", 100);
			struct itimerspec its = {
				.it_interval = { ms / 1000, ms % 1000 * 1000000L },
				.it_value = { ms / 1000, ms % 1000 * 1000000L },
			};

			timer_armed = clock_ns(CLOCK_MONOTONIC);
			timer_fd = timerfd_create(CLOCK_MONOTONIC,
						  TFD_CLOEXEC | TFD_NONBLOCK);
			if (timer_fd < 0 || timerfd_settime(timer_fd, 0, &its, NULL))
				return -1;
		}
		return buffer_fd;
	case LTT_CMD_EVENT_INFO: {
		struct ltt_event_info *ei = arg;

		unsigned int id = ei->id;

		if (id > (custom_made() ? 1 : 0))
			return fake_fail(ENOENT);
		memset(ei, 0, sizeof(*ei));
		ei->id = id;
		ei->generation = custom_made() ? 2 : 1;
		if (!id) {
			strcpy(ei->name, "fake_event");
			return 0;
		}
		strcpy(ei->name, "fake_custom");
		ei->flags = LTT_EVENT_F_CUSTOM;
		ei->n_fields = 1;
		ei->payload_size = 4;
		strcpy(ei->fields[0].name, "n");
		ei->fields[0].type = LTT_FIELD_UNSIGNED;
		ei->fields[0].size = 4;
		return 0;
	}
	case LTT_CMD_EVENT_CREATE: {
		const struct ltt_event_create *c = arg;
		bool flag = c->flags & LTT_EVENT_CREATE_ENABLE_FLAG;

		if (flag && getenv("FAKE_LTT_NO_FLAGS"))
			return fake_fail(EINVAL);
		if (flag && getenv("FAKE_LTT_TAKEN"))
			*(volatile uint32_t *)(uintptr_t)c->enable_addr |=
				1U << c->enable_bit;
		fake_log("EVENT_CREATE %s%s", c->name, flag ? " flag" : "");
		return open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
	case LTT_CMD_EVENT_LOG:
		fake_log("EVENT_LOG %u", ((const struct ltt_event_log *)arg)->size);
		return 0;
	case LTT_CMD_START:
		if (((const struct ltt_session_cmd *)arg)->session_fd == w_session_fd &&
		    w_session_fd >= 0) {
			if (w_recording)
				return fake_fail(EBUSY);
			w_recording = w_started = true;
			fake_log("SESSION2 START");
			return 0;
		}
		if (start && *start)
			return fake_fail(!strcmp(start, "EBUSY") ? EBUSY :
					 atoi(start));
		recording = started = true;
		fake_log("START");
		return 0;
	case LTT_CMD_STOP:
		if (((const struct ltt_session_cmd *)arg)->session_fd == w_session_fd &&
		    w_session_fd >= 0) {
			if (!w_recording)
				return fake_fail(EINVAL);
			w_recording = false;
			fake_log("SESSION2 STOP");
			return 0;
		}
		fake_log("STOP");
		fake_stop();
		return 0;
	case LTT_CMD_PREVIOUS_BOOT: {
		const struct ltt_previous *pr = arg;
		const char *image = getenv("FAKE_LTT_PREVIOUS");

		if (env_u("FAKE_LTT_PREVIOUS_ERRNO", 0))
			return fake_fail(env_u("FAKE_LTT_PREVIOUS_ERRNO", 0));
		if (pr->flags & ~LTT_PREVIOUS_FREE || pr->__reserved)
			return fake_fail(EINVAL);
		if (!image || !*image)
			return fake_fail(ENOENT);
		if (pr->flags & LTT_PREVIOUS_FREE) {
			fake_log("PREVIOUS_FREE");
			return 0;
		}
		return open(image, O_RDONLY | O_CLOEXEC);
	}
	case LTT_CMD_SNAPSHOT:
		if (!overwrite || !recording)
			return fake_fail(EINVAL);
		fake_log("SNAPSHOT");
		fake_stop();
		return 0;
	}
	return fake_fail(EINVAL);
}

long syscall(long nr, ...)
{
	long (*real)(long, ...) = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == __NR_ltt)
		return fake_ltt(a[0], (void *)a[1]);
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/*
 * The second session's copy of a fake_custom record of @n at @ts: a
 * packet of its own, unless it records not, or its mask leaves custom
 * events out, or it has no room (then lost).  Returns false on failure.
 */
static bool mirror_custom(uint64_t ts, uint32_t n)
{
	struct ltt_packet_header h = { .magic = LTT_PACKET_MAGIC };
	unsigned char pkt[sizeof(h) + 24] = { 0 };
	uint32_t hdr = LTT_HDR_ID_EXTENDED | (uint32_t)(ts << LTT_HDR_ID_BITS);
	uint16_t id = 1;
	uint64_t one = 1;
	size_t len = sizeof(h);

	if (w_buffer_fd < 0 || !w_recording || !w_custom_on)
		return true;
	if (w_made - w_consumed >= w_subbufs) {
		w_lost++;
		return true;
	}
	memcpy(pkt + len, &hdr, 4);
	memcpy(pkt + len + 4, &id, 2);
	memcpy(pkt + len + 6, &ts, 8);
	memcpy(pkt + len + 14, &n, 4);
	len += 18;
	h.timestamp_begin = h.timestamp_end = ts;
	h.content_size = len * 8;
	h.packet_size = ((len + 7) & ~7UL) * 8;
	h.packet_seq_num = w_made;
	h.events_discarded = w_lost;
	h.events = 1;
	h.pid = getpid();
	memcpy(pkt, &h, sizeof(h));
	if (pwrite(w_buffer_fd, pkt, h.packet_size / 8,
		   (w_made % w_subbufs) * FAKE_SB) != (ssize_t)(h.packet_size / 8))
		return false;
	w_made++;
	return write(w_ready_fd, &one, sizeof(one)) == sizeof(one);
}

/* The second session's GET_SUBBUF: its oldest mirrored packet. */
static int mirror_get(struct ltt_subbuf *sb)
{
	struct ltt_packet_header h;
	uint64_t v;

	if (w_consumed >= w_made) {
		if (read(w_ready_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
			return -1;
		return fake_fail(w_recording || !w_started ? EAGAIN : ENODATA);
	}
	sb->offset = (w_consumed % w_subbufs) * FAKE_SB;
	if (pread(w_buffer_fd, &h, sizeof(h), sb->offset) != sizeof(h))
		return -1;
	sb->size = h.packet_size / 8;
	sb->seq = w_consumed;
	return 0;
}

/*
 * Write packet number packets_made into its sub-buffer of the memfd:
 * FAKE_LTT_EVENTS records 1 us apart, ending now (or after the newest
 * packet's end, when packets are made faster than that).  Returns its
 * size in bytes, 0 on failure.
 */
static size_t make_packet(void)
{
	unsigned int n = env_u("FAKE_LTT_EVENTS", 20), i;
	struct ltt_packet_header h = { .magic = LTT_PACKET_MAGIC };
	unsigned char pkt[FAKE_SB];
	uint64_t ts;
	size_t len, size;
	off_t off = (packets_made % n_subbufs) * FAKE_SB;
	bool custom;

	custom = custom_made() && (!getenv("FAKE_LTT_CUSTOM_IN") ||
				   env_has("FAKE_LTT_CUSTOM_IN", packets_made));
	if (n > (sizeof(pkt) - sizeof(h)) / 8 - 1)
		n = (sizeof(pkt) - sizeof(h)) / 8 - 1;
	/*
	 * A packet made late (read at a snapshot, say) is stamped when it
	 * was due, as the kernel's records are when they happen.
	 */
	ts = clock_ns(CLOCK_MONOTONIC);
	if (timer_fd >= 0) {
		uint64_t due = timer_armed + (packets_made + 1ULL) *
			       env_u("FAKE_LTT_PACKET_MS", 100) * 1000000ULL;

		if (due < ts)
			ts = due;
	}
	ts -= n * 1000ULL;
	if (ts <= last_ts)
		ts = last_ts + 1000;
	h.timestamp_begin = ts;
	len = sizeof(h);
	for (i = 0; i < n + custom; i++) {
		uint32_t hdr = (i == n) | (uint32_t)((ts + i * 1000ULL) << LTT_HDR_ID_BITS);

		memcpy(pkt + len, &hdr, 4);
		len += 4;
		if (i == n) {	/* fake_custom: n = the packet's number */
			memcpy(pkt + len, &packets_made, 4);
			len += 4;
		}
	}
	h.timestamp_end = ts + (n + custom - 1) * 1000ULL;
	last_ts = h.timestamp_end;
	h.content_size = len * 8;
	h.packet_size = ((len + 7) & ~7UL) * 8;
	h.packet_seq_num = packets_made;
	h.events = n + custom;
	h.pid = getpid();
	memcpy(pkt, &h, sizeof(h));
	size = h.packet_size / 8;
	memset(pkt + len, 0, size - len);
	if (pwrite(buffer_fd, pkt, size, off) != (ssize_t)size)
		return 0;
	if (custom && !mirror_custom(h.timestamp_end, packets_made))
		return 0;
	packets_made++;
	return size;
}

/* Packets are due on the timer, FAKE_LTT_PACKETS of them in all. */
static unsigned int packets_due(void)
{
	uint64_t ticks;

	if (timer_fd < 0 || read(timer_fd, &ticks, sizeof(ticks)) != sizeof(ticks))
		return 0;
	if (packets_made + ticks > env_u("FAKE_LTT_PACKETS", 0))
		ticks = packets_made < env_u("FAKE_LTT_PACKETS", 0) ?
			env_u("FAKE_LTT_PACKETS", 0) - packets_made : 0;
	return ticks;
}

/*
 * Discard mode: a packet, when the timer says one is due, described in
 * *@sb; the reader takes it at once.
 */
static bool fake_packet(struct ltt_subbuf *sb)
{
	size_t size;

	if (!packets_due())
		return false;
	sb->offset = (packets_made % n_subbufs) * FAKE_SB;
	sb->seq = packets_made;
	size = make_packet();
	sb->size = size;
	return size;
}

/* A flight recorder writes the packets due, round its ring. */
static void fake_record(void)
{
	unsigned int n;

	for (n = recording ? packets_due() : 0; n; n--)
		make_packet();
}

/* The flight recorder's GET_SUBBUF: EBUSY while it records. */
static int fake_drain(struct ltt_subbuf *sb)
{
	struct ltt_packet_header h;

	if (recording) {
		fake_record();
		return fake_fail(EBUSY);
	}
	if (consumed >= packets_made)
		return fake_fail(started ? ENODATA : EAGAIN);
	sb->offset = (consumed % n_subbufs) * FAKE_SB;
	if (pread(buffer_fd, &h, sizeof(h), sb->offset) != sizeof(h))
		return -1;
	sb->size = h.packet_size / 8;
	sb->seq = consumed;
	return 0;
}

static int fake_snapshot(struct ltt_snapshot *snap)
{
	uint64_t size = (uint64_t)n_subbufs * FAKE_SB;

	if (getenv("FAKE_LTT_NO_LIVE"))
		return fake_fail(ENOTTY);
	if (!overwrite)
		return fake_fail(EINVAL);
	fake_record();
	snap->end = (uint64_t)packets_made * FAKE_SB;
	snap->begin = snap->end + FAKE_SB > size ? snap->end + FAKE_SB - size : 0;
	fake_log("BUF_SNAPSHOT %llu %llu", (unsigned long long)(snap->begin / FAKE_SB),
		 (unsigned long long)(snap->end / FAKE_SB));
	return 0;
}

static int fake_snapshot_read(struct ltt_snapshot_read *rd)
{
	uint64_t size = (uint64_t)n_subbufs * FAKE_SB;
	uint64_t w = (uint64_t)packets_made * FAKE_SB;
	unsigned int seq = rd->pos / FAKE_SB;
	struct ltt_packet_header h;
	off_t off = (seq % n_subbufs) * FAKE_SB;

	if (getenv("FAKE_LTT_NO_LIVE"))
		return fake_fail(ENOTTY);
	if (!overwrite || rd->pos % FAKE_SB || rd->pos >= w)
		return fake_fail(EINVAL);
	if (w - rd->pos > size) {
		fake_log("SNAPSHOT_READ %u ESTALE", seq);
		return fake_fail(ESTALE);
	}
	if (seq < 4096 && env_has("FAKE_LTT_EAGAIN", seq)) {
		if (!eagain_armed[seq]) {
			eagain_armed[seq] = true;
			eagain_left[seq] = env_u("FAKE_LTT_EAGAIN_TIMES", 3);
		}
		if (eagain_left[seq]) {
			eagain_left[seq]--;
			fake_log("SNAPSHOT_READ %u EAGAIN", seq);
			return fake_fail(EAGAIN);
		}
	}
	if (pread(buffer_fd, &h, sizeof(h), off) != sizeof(h) ||
	    pread(buffer_fd, (void *)(uintptr_t)rd->buf, h.packet_size / 8, off) !=
	    (ssize_t)(h.packet_size / 8))
		return -1;
	if (env_has("FAKE_LTT_STALE", seq)) {
		/* the recorder comes round to it meanwhile */
		while ((uint64_t)packets_made * FAKE_SB - rd->pos <= size)
			if (!make_packet())
				return -1;
		fake_log("SNAPSHOT_READ %u ESTALE", seq);
		return fake_fail(ESTALE);
	}
	rd->size = h.packet_size / 8;
	fake_log("SNAPSHOT_READ %u ok", seq);
	return 0;
}

int ioctl(int fd, unsigned long req, ...)
{
	int (*real)(int, unsigned long, ...) =
		(int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	void *arg;
	va_list ap;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd >= 0 && fd == w_buffer_fd) {
		switch (req) {
		case LTT_BUF_INFO: {
			struct ltt_buffer_info *bi = arg;

			memset(bi, 0, sizeof(*bi));
			bi->subbuf_size = FAKE_SB;
			bi->n_subbufs = w_subbufs;
			bi->mmap_size = w_subbufs * FAKE_SB;
			return 0;
		}
		case LTT_BUF_GET_SUBBUF:
			return mirror_get(arg);
		case LTT_BUF_PUT_SUBBUF:
			if (w_consumed >= w_made)
				return fake_fail(EINVAL);
			w_consumed++;
			return 0;
		}
		return fake_fail(ENOTTY);
	}
	if (fd < 0 || fd != buffer_fd)
		return real(fd, req, arg);
	switch (req) {
	case LTT_BUF_INFO: {
		struct ltt_buffer_info *bi = arg;

		memset(bi, 0, sizeof(*bi));
		bi->subbuf_size = FAKE_SB;
		bi->n_subbufs = n_subbufs;
		bi->mmap_size = n_subbufs * FAKE_SB;
		return 0;
	}
	case LTT_BUF_GET_SUBBUF:
		if (overwrite)
			return fake_drain(arg);
		if (recording && timer_fd >= 0 && fake_packet(arg))
			return 0;
		/* the kernel: EAGAIN before the first START too */
		return fake_fail(recording || !started ? EAGAIN : ENODATA);
	case LTT_BUF_PUT_SUBBUF:
		if (overwrite && !recording && consumed < packets_made)
			consumed++;
		return timer_fd >= 0 ? 0 : fake_fail(EINVAL);
	case LTT_BUF_SNAPSHOT:
		return fake_snapshot(arg);
	case LTT_BUF_SNAPSHOT_READ:
		return fake_snapshot_read(arg);
	}
	return fake_fail(ENOTTY);
}

/* A memfd cannot be polled: the buffer is ready when it is. */
int epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev)
{
	int (*real)(int, int, int, struct epoll_event *) =
		(int (*)(int, int, int, struct epoll_event *))dlsym(RTLD_NEXT, "epoll_ctl");

	/* the packet timer stands in for the buffer */
	if (fd >= 0 && fd == buffer_fd)
		return timer_fd >= 0 ? real(epfd, op, timer_fd, ev) : 0;
	if (fd >= 0 && fd == w_buffer_fd)
		return real(epfd, op, w_ready_fd, ev);
	return real(epfd, op, fd, ev);
}

int uname(struct utsname *u)
{
	int (*real)(struct utsname *) =
		(int (*)(struct utsname *))dlsym(RTLD_NEXT, "uname");
	int ret = real(u);

	if (!ret)
		strcpy(u->release, "6.12.0-fake");
	return ret;
}
