// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-bench: the workloads and the ftrace reader of `make bench`, run in
 * the guest by scripts/guest/bench.sh.  Static; needs no LTT header.
 *
 *   ltt-bench flood N            N getppid() calls on CPU 0
 *   ltt-bench flood-all N        N getppid() calls on every online CPU at
 *                                once, a child pinned to each
 *   ltt-bench compile DIR PASSES a compiler at work, as make -j1 runs it:
 *                                PASSES times, `tcc -c` of each file that
 *                                DIR/FILES names, in DIR, one process each
 *   ltt-bench mixed N WORK       N make-like jobs on CPU 0 (see mixed())
 *   ltt-bench cc WORK IN OUT     one "compiler": the child of a mixed job
 *   ltt-bench ftrace-read CPU OUT
 *                                copy per_cpu/cpuCPU/trace_pipe_raw to OUT
 *                                (splice, as trace-cmd does) until SIGTERM,
 *                                then the partial pages; prints bytes=
 *
 *   ltt-bench uevent HOW N       N user-space events, one way (uevent()):
 *                                empty, ltt, marker, user_events
 *   ltt-bench uevent-hold        make the LTT event type that uevent ltt
 *                                logs, and hold it until SIGTERM (so that
 *                                lttd -e finds it)
 *
 * flood, flood-all, mixed, compile and uevent print "ns=" (CLOCK_MONOTONIC, the workload only).  With
 * LTT_BENCH_MARK=MS in the environment they also write "BENCH-MARK start"
 * and "BENCH-MARK end" to /dev/console around the workload, the machine
 * idle for MS ms after each, and MS ms between the workload's end and the
 * end mark (for the trace daemon to catch up): scripts/bench.sh reads the
 * CPU time of QEMU's vCPU threads at each mark.
 *
 * The uevent structs are LTT's (include-linux/uapi/ltt.h, -I) and
 * user_events' (copied below: Debian's headers predate them).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ltt.h"

#define TRACEFS "/sys/kernel/tracing"
#define MIXED_DIR "/tmp/ltt-bench-mixed"
#define SRC_SIZE 4096
#define TCP_PORT 7901
#define UDP_PORT 7902

static const char *self = "/proc/self/exe";

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ltt-bench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errno)
		fprintf(stderr, ": %s", strerror(errno));
	fputc('\n', stderr);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end) {
		errno = 0;
		die("\"%s\" is not a number", s);
	}
	return v;
}

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write");
		p += n;
		len -= n;
	}
}

static unsigned long mark_ms;

static void sleep_ms(unsigned long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A mark for the host, then MS ms idle; at the end, MS ms before too. */
static void mark(const char *what)
{
	char line[64];
	int fd, n;

	if (!mark_ms)
		return;
	if (!strcmp(what, "end"))
		sleep_ms(mark_ms);
	fd = open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		die("/dev/console");
	n = snprintf(line, sizeof(line), "BENCH-MARK %s\n", what);
	write_all(fd, line, n);
	close(fd);
	sleep_ms(mark_ms);
}

static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity %d", cpu);
}

/*
 * A mark for make profile's QEMU plugin (scripts/bench/insnprof.c), which
 * counts the instructions between two of them: it knows this function by
 * its address in this static program and its first instruction, an
 * xchg %rbx,%rbx that does nothing.
 */
__attribute__((noinline)) void prof_mark(void)
{
	__asm__ volatile("xchg %%rbx, %%rbx" ::: "memory");
}

/* @n raw getppid() calls, which no libc caches. */
static inline __attribute__((always_inline)) void getppids(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* The syscall flood. */
static int flood(unsigned long n)
{
	uint64_t t0, t1;

	pin_cpu(0);
	mark("start");
	t0 = now_ns();
	prof_mark();
	getppids(n);
	prof_mark();
	t1 = now_ns();
	mark("end");
	printf("ns=%llu\n", (unsigned long long)(t1 - t0));
	return 0;
}

/* The flood on every online CPU at once: what lttd keeps up with. */
static int flood_all(unsigned long n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t t0, t1;
	long c;
	int st, failed = 0;

	if (cpus < 1)
		die("sysconf(_SC_NPROCESSORS_ONLN)");
	mark("start");
	t0 = now_ns();
	for (c = 0; c < cpus; c++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			pin_cpu(c);
			getppids(n);
			_exit(0);
		}
	}
	for (c = 0; c < cpus; c++)
		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			failed = 1;
	t1 = now_ns();
	mark("end");
	if (failed) {
		errno = 0;
		die("flood-all: a flooding child failed");
	}
	printf("ns=%llu\ncpus=%ld\n", (unsigned long long)(t1 - t0), cpus);
	return 0;
}

#define COMPILE_OUT "/tmp/ltt-bench-compile"
#define COMPILE_MAX 256

/*
 * The compile-like workload: Debian's tcc compiling C files (tools-ltt's
 * own, with the headers they include, copied into the initramfs by
 * scripts/bench.sh), one process per file as make -j1 runs them, on CPU 0.
 * Each pass compiles every file of DIR/FILES to COMPILE_OUT and removes
 * the objects.
 */
static int compile(const char *dir, unsigned long passes)
{
	static char names[COMPILE_MAX][128];
	char list[256], obj[64];
	unsigned long p;
	uint64_t t0, t1;
	int n = 0, i, st;
	FILE *f;

	pin_cpu(0);
	snprintf(list, sizeof(list), "%s/FILES", dir);
	f = fopen(list, "re");
	if (!f)
		die("%s", list);
	while (n < COMPILE_MAX && fgets(names[n], sizeof(names[n]), f)) {
		names[n][strcspn(names[n], "\n")] = 0;
		if (names[n][0])
			n++;
	}
	fclose(f);
	if (!n) {
		errno = 0;
		die("%s names no file", list);
	}
	if (chdir(dir))
		die("chdir %s", dir);
	if (mkdir(COMPILE_OUT, 0755) && errno != EEXIST)
		die("mkdir " COMPILE_OUT);
	mark("start");
	t0 = now_ns();
	for (p = 0; p < passes; p++) {
		for (i = 0; i < n; i++) {
			pid_t pid;

			snprintf(obj, sizeof(obj), COMPILE_OUT "/%d.o", i);
			pid = fork();
			if (pid < 0)
				die("fork");
			if (!pid) {
				execl("/usr/bin/tcc", "tcc", "-std=c11", "-w",
				      "-D_GNU_SOURCE", "-Iinclude", "-Ilib",
				      "-Ikernel/uapi", "-I/usr/include/lua5.4",
				      "-c", names[i], "-o", obj, (char *)NULL);
				_exit(127);
			}
			if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
			    WEXITSTATUS(st)) {
				errno = 0;
				die("tcc -c %s/%s failed", dir, names[i]);
			}
		}
		for (i = 0; i < n; i++) {
			snprintf(obj, sizeof(obj), COMPILE_OUT "/%d.o", i);
			unlink(obj);
		}
	}
	t1 = now_ns();
	mark("end");
	rmdir(COMPILE_OUT);
	printf("ns=%llu\nfiles=%d\n", (unsigned long long)(t1 - t0), n);
	return 0;
}

/* FNV-1a over @buf, @rounds times: the compiler's work. */
static uint64_t crunch(const unsigned char *buf, size_t len,
		       unsigned long rounds)
{
	uint64_t h = 1469598103934665603ULL;
	unsigned long r;
	size_t i;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < len; i++)
			h = (h ^ buf[i]) * 1099511628211ULL;
	return h;
}

/* cc WORK IN OUT: read IN, crunch it, write OUT (an "object file"). */
static int cc(unsigned long work, const char *in, const char *out)
{
	unsigned char buf[SRC_SIZE];
	ssize_t n;
	uint64_t h;
	int fd;

	fd = open(in, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("%s", in);
	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		die("read %s", in);
	close(fd);
	h = crunch(buf, n, work);
	memcpy(buf, &h, sizeof(h));
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die("%s", out);
	write_all(fd, buf, n);
	close(fd);
	return 0;
}

/* A child that reads @fd to its end (a `make | tee log`); its pid. */
static pid_t start_sink(int fd, int other)
{
	pid_t pid = fork();
	char buf[4096];

	if (pid < 0)
		die("fork");
	if (pid)
		return pid;
	close(other);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	_exit(0);
}

/* A child serving loopback TCP (request, answer, close) and UDP echo. */
static pid_t start_server(int tcp, int udp)
{
	struct pollfd pfd[2] = { { tcp, POLLIN, 0 }, { udp, POLLIN, 0 } };
	char buf[256];
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid)
		return pid;
	for (;;) {
		if (poll(pfd, 2, -1) < 0)
			continue;
		if (pfd[0].revents & POLLIN) {
			int c = accept(tcp, NULL, NULL);

			if (c >= 0) {
				if (read(c, buf, sizeof(buf)) > 0)
					write_all(c, buf, 64);
				close(c);
			}
		}
		if (pfd[1].revents & POLLIN) {
			struct sockaddr_in from;
			socklen_t len = sizeof(from);
			ssize_t n = recvfrom(udp, buf, sizeof(buf), 0,
					     (struct sockaddr *)&from, &len);

			if (n > 0)
				sendto(udp, buf, n, 0,
				       (struct sockaddr *)&from, len);
		}
	}
}

static int bound_socket(int type, int port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int one = 1, s = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	if (s < 0)
		die("socket");
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)&a, sizeof(a)))
		die("bind 127.0.0.1:%d (is lo up?)", port);
	if (type == SOCK_STREAM && listen(s, 16))
		die("listen");
	return s;
}

/* One TCP request/answer and one UDP round trip to the server. */
static void talk(int udp)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	char buf[64] = "request";
	int s;

	a.sin_port = htons(TCP_PORT);
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)))
		die("connect 127.0.0.1:%d", TCP_PORT);
	write_all(s, buf, sizeof(buf));
	while (read(s, buf, sizeof(buf)) > 0)
		;
	close(s);
	a.sin_port = htons(UDP_PORT);
	if (sendto(udp, buf, sizeof(buf), 0, (struct sockaddr *)&a,
		   sizeof(a)) < 0 || recv(udp, buf, sizeof(buf), 0) < 0)
		die("udp 127.0.0.1:%d", UDP_PORT);
}

/* One job: write a source, compile it in a child, read the object back
 * into the log pipe, talk to the server, remove both files. */
static void job(unsigned long i, unsigned long work, int log, int udp)
{
	unsigned char buf[SRC_SIZE];
	char src[64], obj[64], arg[32];
	pid_t pid;
	int fd, st;
	ssize_t n;

	snprintf(src, sizeof(src), MIXED_DIR "/f%lu.c", i);
	snprintf(obj, sizeof(obj), MIXED_DIR "/f%lu.o", i);
	snprintf(arg, sizeof(arg), "%lu", work);
	memset(buf, 'a' + i % 26, sizeof(buf));
	fd = open(src, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die("%s", src);
	write_all(fd, buf, sizeof(buf));
	close(fd);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		execl(self, "ltt-bench", "cc", arg, src, obj, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		errno = 0;
		die("cc %s failed", src);
	}
	fd = open(obj, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("%s", obj);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n > 0)
		write_all(log, buf, n);
	talk(udp);
	unlink(src);
	unlink(obj);
}

/*
 * The mixed workload, make-like: N jobs, each a fork and exec of a small
 * static program that reads a 4 KiB source, computes (WORK passes of a
 * hash over it) and writes an object file; the parent writes the source
 * and reads the object into a pipe to a logging child, and talks once
 * over loopback TCP and UDP to a server child.
 */
static int mixed(unsigned long n, unsigned long work)
{
	int logp[2], tcp, udp, client;
	pid_t sink, server;
	uint64_t t0, t1;
	unsigned long i;

	/* All of it on CPU 0, as the flood: under TCG, jobs bouncing
	 * between CPUs cost more, and more variably, than the jobs. */
	pin_cpu(0);
	if (mkdir(MIXED_DIR, 0755) && errno != EEXIST)
		die("mkdir " MIXED_DIR);
	tcp = bound_socket(SOCK_STREAM, TCP_PORT);
	udp = bound_socket(SOCK_DGRAM, UDP_PORT);
	client = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (client < 0)
		die("socket");
	server = start_server(tcp, udp);
	/* After the server: only the sink and we hold the log pipe. */
	if (pipe2(logp, O_CLOEXEC))
		die("pipe");
	sink = start_sink(logp[0], logp[1]);
	close(logp[0]);
	mark("start");
	t0 = now_ns();
	for (i = 0; i < n; i++)
		job(i, work, logp[1], client);
	close(logp[1]);
	waitpid(sink, NULL, 0);
	t1 = now_ns();
	mark("end");
	kill(server, SIGKILL);
	waitpid(server, NULL, 0);
	rmdir(MIXED_DIR);
	printf("ns=%llu\n", (unsigned long long)(t1 - t0));
	return 0;
}

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/* Move @n bytes from the pipe to @out. */
static void drain_pipe(int pipe_rd, int out, ssize_t n)
{
	while (n > 0) {
		ssize_t m = splice(pipe_rd, NULL, out, NULL, n, SPLICE_F_MOVE);

		if (m < 0 && errno == EINTR)
			continue;
		if (m <= 0)
			die("splice to the output");
		n -= m;
	}
}

/*
 * The ftrace reader, as trace-cmd records: full pages spliced (no copy)
 * from trace_pipe_raw through a pipe to OUT, waiting in poll(), which
 * ftrace wakes when the buffer is buffer_percent (default 50%) full.
 * SIGTERM ends it: the full pages left, then the partial ones by read().
 */
static int ftrace_read(unsigned long cpu, const char *out_path)
{
	struct sigaction sa = { .sa_handler = on_stop };
	unsigned long long bytes = 0;
	char path[128], page[4096];
	sigset_t block, waitmask;
	int fd, out, p[2];
	ssize_t n;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &waitmask);
	sigdelset(&waitmask, SIGTERM);
	sigdelset(&waitmask, SIGINT);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%lu/trace_pipe_raw",
		 cpu);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		die("%s", path);
	out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		die("%s", out_path);
	if (pipe2(p, O_CLOEXEC))
		die("pipe");
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	/* Tell the caller that the reader is in place. */
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };

		n = splice(fd, NULL, p[1], NULL, 1 << 20,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0) {
			drain_pipe(p[0], out, n);
			bytes += n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			die("splice from %s", path);
		if (stop)
			break;
		if (ppoll(&pfd, 1, NULL, &waitmask) < 0 && errno != EINTR)
			die("ppoll %s", path);
	}
	/* The partly filled pages: read() takes them, a page a call. */
	while ((n = read(fd, page, sizeof(page))) > 0) {
		write_all(out, page, n);
		bytes += n;
	}
	if (n < 0 && errno != EAGAIN)
		die("read %s", path);
	printf("bytes=%llu\n", bytes);
	return 0;
}

/* <linux/user_events.h> of 6.12: the registration, packed. */
struct user_reg {
	uint32_t size;
	uint8_t enable_bit;
	uint8_t enable_size;
	uint16_t flags;
	uint64_t enable_addr;
	uint64_t name_args;
	uint32_t write_index;
} __attribute__((__packed__));

#define DIAG_IOCSREG	_IOWR('*', 0, struct user_reg *)
#define UEVENT_NAME	"ltt_bench_event"
#ifndef __NR_ltt
#define __NR_ltt	463
#endif

/* The enable words: LTT's and user_events' set bit 0 while recorded. */
static uint32_t ltt_on, uev_on;

/* The LTT type of one string field; its event fd.  @flag: with ltt_on. */
static int ltt_type(int flag)
{
	struct ltt_event_create c = {
		.name = UEVENT_NAME,
		.n_fields = 1,
		.fields = { { .name = "text", .type = LTT_FIELD_STRING } },
	};
	int fd;

	if (flag) {
		c.flags = LTT_EVENT_CREATE_ENABLE_FLAG;
		c.enable_addr = (uintptr_t)&ltt_on;
	}
	fd = syscall(__NR_ltt, LTT_CMD_EVENT_CREATE, &c, sizeof(c), 0, 0, 0);
	if (fd < 0)
		die("LTT_CMD_EVENT_CREATE");
	return fd;
}

/* uevent-hold: the type exists while lttd starts. */
static int uevent_hold(void)
{
	ltt_type(0);
	printf("ready\n");
	fflush(stdout);
	pause();
	return 0;
}

/*
 * N events of the text "bench", each behind its enable word's test:
 *   empty        the loop alone, the word never set
 *   ltt          LTT_CMD_EVENT_LOG when ltt_on says a session takes it
 *   marker       a write to ftrace's trace_marker (no word: always)
 *   user_events  a write to user_events_data when uev_on says ftrace
 *                records ltt_bench_event (enabled when the environment
 *                has LTT_BENCH_UEV_ON=1)
 * The ltt and user_events loops are what libltt's LTT_EVENT_LOG() and
 * user_events' own macros do; with nobody recording they are the load.
 */
static int uevent(const char *how, unsigned long n)
{
	static const char text[] = "bench";
	struct ltt_event_log l = { .size = sizeof(text),
				   .data = (uintptr_t)text };
	struct user_reg reg = {
		.size = sizeof(reg), .enable_size = 4,
		.enable_addr = (uintptr_t)&uev_on,
		.name_args = (uintptr_t)UEVENT_NAME " char[6] text",
	};
	struct iovec iov[2];
	volatile uint32_t *word = &ltt_on;
	unsigned long i, fails = 0;
	uint64_t t0, t1;
	int fd = -1, mode;
	int32_t idx;

	if (!strcmp(how, "empty")) {
		mode = 0;
	} else if (!strcmp(how, "ltt")) {
		mode = 1;
		l.event_fd = ltt_type(1);
	} else if (!strcmp(how, "marker")) {
		mode = 2;
		fd = open(TRACEFS "/trace_marker", O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			die(TRACEFS "/trace_marker");
	} else if (!strcmp(how, "user_events")) {
		mode = 3;
		word = &uev_on;
		fd = open(TRACEFS "/user_events_data", O_RDWR | O_CLOEXEC);
		if (fd < 0 || ioctl(fd, DIAG_IOCSREG, &reg))
			die(TRACEFS "/user_events_data");
		idx = reg.write_index;
		iov[0] = (struct iovec){ &idx, sizeof(idx) };
		iov[1] = (struct iovec){ (void *)text, sizeof(text) };
		if (getenv("LTT_BENCH_UEV_ON")) {
			int en = open(TRACEFS "/events/user_events/" UEVENT_NAME
				      "/enable", O_WRONLY | O_CLOEXEC);

			if (en < 0 || write(en, "1", 1) != 1)
				die("enabling " UEVENT_NAME);
			close(en);
		}
	} else {
		die("uevent: empty, ltt, marker or user_events, not %s", how);
	}
	pin_cpu(0);
	mark("start");
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		if (mode == 2) {
			fails += write(fd, text, sizeof(text) - 1) < 0;
			continue;
		}
		if (!*word)
			continue;
		if (mode == 1)
			fails += syscall(__NR_ltt, LTT_CMD_EVENT_LOG, &l,
					 sizeof(l), 0, 0, 0) < 0;
		else
			fails += writev(fd, iov, 2) < 0;
	}
	t1 = now_ns();
	mark("end");
	if (fails)
		die("uevent %s: %lu of %lu calls failed", how, fails, n);
	printf("ns=%llu\nlogged=%s\n", (unsigned long long)(t1 - t0),
	       mode == 2 || *word ? "yes" : "no");
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ltt-bench flood N | flood-all N | mixed N WORK |\n"
		"       compile DIR PASSES | cc WORK IN OUT |\n"
		"       uevent empty|ltt|marker|user_events N | uevent-hold |\n"
		"       ftrace-read CPU OUT\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *m = getenv("LTT_BENCH_MARK");

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (m && *m)
		mark_ms = number(m);
	if (argc == 3 && !strcmp(argv[1], "flood"))
		return flood(number(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "flood-all"))
		return flood_all(number(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "compile"))
		return compile(argv[2], number(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "mixed"))
		return mixed(number(argv[2]), number(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "cc"))
		return cc(number(argv[2]), argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "uevent"))
		return uevent(argv[2], number(argv[3]));
	if (argc == 2 && !strcmp(argv[1], "uevent-hold"))
		return uevent_hold();
	if (argc == 4 && !strcmp(argv[1], "ftrace-read"))
		return ftrace_read(number(argv[2]), argv[3]);
	usage();
}
