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
 * CLOCK_MONOTONIC as the kernel's are; FAKE_LTT_CUSTOM_AFTER=K makes a
 * custom event type, fake_custom (one u32 field, "n"), appear after K
 * packets, and the packets after that hold one of it each (tests/relayd.sh).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
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

#define FAKE_BUFFER	(2 * LTT_SUBBUF_MIN)

static int buffer_fd = -1, timer_fd = -1;
static bool recording, started;
static unsigned int packets_made;

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

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static long fake_ltt(unsigned int cmd, void *arg)
{
	const char *start = getenv("FAKE_LTT_START");

	switch (cmd) {
	case LTT_CMD_CREATE:
		return eventfd(0, EFD_CLOEXEC);
	case LTT_CMD_STATUS: {
		struct ltt_status *st = arg;

		if (st->cpus && st->n_cpus)
			memset((void *)(uintptr_t)st->cpus, 0,
			       sizeof(struct ltt_cpu_status));
		st->n_cpus = 1;
		st->state = recording;
		st->subbuf_size = LTT_SUBBUF_MIN;
		st->n_subbufs = 2;
		st->mono_ns = clock_ns(CLOCK_MONOTONIC);
		st->real_ns = clock_ns(CLOCK_REALTIME);
		return 0;
	}
	case LTT_CMD_BUFFER_FD:
		if (buffer_fd >= 0)
			return fake_fail(EBUSY);
		buffer_fd = memfd_create("fake-ltt-buffer", MFD_CLOEXEC);
		if (buffer_fd >= 0 && ftruncate(buffer_fd, FAKE_BUFFER))
			return -1;
		if (getenv("FAKE_LTT_PACKETS")) {
			unsigned int ms = env_u("FAKE_LTT_PACKET_MS", 100);
			struct itimerspec its = {
				.it_interval = { ms / 1000, ms % 1000 * 1000000L },
				.it_value = { ms / 1000, ms % 1000 * 1000000L },
			};

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
	case LTT_CMD_START:
		if (start && *start)
			return fake_fail(!strcmp(start, "EBUSY") ? EBUSY :
					 atoi(start));
		recording = started = true;
		return 0;
	case LTT_CMD_STOP:
		recording = false;
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
 * A packet, when the timer says one is due: into sub-buffer
 * packets_made % 2 of the memfd, described in *@sb.
 */
static bool fake_packet(struct ltt_subbuf *sb)
{
	unsigned int n = env_u("FAKE_LTT_EVENTS", 20), i;
	struct ltt_packet_header h = { .magic = LTT_PACKET_MAGIC };
	unsigned char pkt[LTT_SUBBUF_MIN];
	uint64_t ticks, ts;
	size_t len;
	bool custom;

	if (packets_made >= env_u("FAKE_LTT_PACKETS", 0) ||
	    read(timer_fd, &ticks, sizeof(ticks)) != sizeof(ticks))
		return false;
	custom = custom_made();
	if (n > (sizeof(pkt) - sizeof(h)) / 8 - 1)
		n = (sizeof(pkt) - sizeof(h)) / 8 - 1;
	ts = clock_ns(CLOCK_MONOTONIC) - n * 1000ULL;
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
	h.content_size = len * 8;
	h.packet_size = ((len + 7) & ~7UL) * 8;
	h.packet_seq_num = packets_made;
	h.events = n + custom;
	h.pid = getpid();
	memcpy(pkt, &h, sizeof(h));
	memset(pkt + len, 0, h.packet_size / 8 - len);
	sb->offset = (packets_made % 2) * LTT_SUBBUF_MIN;
	sb->size = h.packet_size / 8;
	sb->seq = packets_made++;
	if (pwrite(buffer_fd, pkt, sb->size, sb->offset) != (ssize_t)sb->size)
		return false;
	return true;
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
	if (fd < 0 || fd != buffer_fd)
		return real(fd, req, arg);
	switch (req) {
	case LTT_BUF_INFO: {
		struct ltt_buffer_info *bi = arg;

		memset(bi, 0, sizeof(*bi));
		bi->subbuf_size = LTT_SUBBUF_MIN;
		bi->n_subbufs = 2;
		bi->mmap_size = FAKE_BUFFER;
		return 0;
	}
	case LTT_BUF_GET_SUBBUF:
		if (recording && timer_fd >= 0 && fake_packet(arg))
			return 0;
		/* the kernel: EAGAIN before the first START too */
		return fake_fail(recording || !started ? EAGAIN : ENODATA);
	case LTT_BUF_PUT_SUBBUF:
		return timer_fd >= 0 ? 0 : fake_fail(EINVAL);
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
