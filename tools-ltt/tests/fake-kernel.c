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
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt.h>

#define FAKE_BUFFER	(2 * LTT_SUBBUF_MIN)

static int buffer_fd = -1;
static bool recording, started;

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
		return buffer_fd;
	case LTT_CMD_EVENT_INFO: {
		struct ltt_event_info *ei = arg;

		if (ei->id > 0)
			return fake_fail(ENOENT);
		memset(ei, 0, sizeof(*ei));
		strcpy(ei->name, "fake_event");
		ei->generation = 1;
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
		/* the kernel: EAGAIN before the first START too */
		return fake_fail(recording || !started ? EAGAIN : ENODATA);
	case LTT_BUF_PUT_SUBBUF:
		return fake_fail(EINVAL);
	}
	return fake_fail(ENOTTY);
}

/* A memfd cannot be polled: the buffer is ready when it is. */
int epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev)
{
	int (*real)(int, int, int, struct epoll_event *) =
		(int (*)(int, int, int, struct epoll_event *))dlsym(RTLD_NEXT, "epoll_ctl");

	if (fd >= 0 && fd == buffer_fd)
		return 0;
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
