// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-fsops: the culprits of `make watch-test` that busybox has no
 * applet for (scripts/guest/watch-test.sh runs them in the guest):
 *
 *   ltt-fsops edit FILE      write FILE.new and rename it over FILE (an editor)
 *   ltt-fsops mmap FILE      change FILE through a shared writable mapping
 *   ltt-fsops tgkill PID     SIGTERM to PID with tgkill()
 *   ltt-fsops pidfd PID      SIGTERM to PID with pidfd_send_signal()
 *   ltt-fsops segv           die of a SIGSEGV (a fault: SEGV_MAPERR)
 *   ltt-fsops bus FILE       die of a SIGBUS (FILE mapped past its end)
 *   ltt-fsops pipe           die of a SIGPIPE (a write to a pipe without reader)
 *   ltt-fsops alarm          die of alarm()'s SIGALRM
 *   ltt-fsops ptimer         die of a POSIX timer's SIGALRM
 *   ltt-fsops oom            allocate until the OOM killer ends it
 *
 * Each exits 1 with a message naming what failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int fail(const char *what, const char *arg)
{
	fprintf(stderr, "ltt-fsops: %s %s: %s\n", what, arg ? arg : "",
		strerror(errno));
	return 1;
}

static int edit(const char *file)
{
	static const char text[] = "edited\n";
	char tmp[4096];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.new", file);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return fail("open", tmp);
	if (write(fd, text, sizeof(text) - 1) != sizeof(text) - 1 ||
	    fsync(fd) || close(fd))
		return fail("write", tmp);
	if (rename(tmp, file))
		return fail("rename", file);
	return 0;
}

static int map_write(const char *file)
{
	int fd = open(file, O_RDWR);
	char *p;

	if (fd < 0)
		return fail("open", file);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return fail("mmap", file);
	close(fd);
	p[0] = 'M';
	if (msync(p, 4096, MS_SYNC) || munmap(p, 4096))
		return fail("msync", file);
	return 0;
}

static int send_term(const char *how, const char *arg)
{
	pid_t pid = atoi(arg);
	int fd;

	if (!strcmp(how, "tgkill")) {
		if (syscall(SYS_tgkill, pid, pid, SIGTERM))
			return fail("tgkill", arg);
		return 0;
	}
	fd = syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0)
		return fail("pidfd_open", arg);
	if (syscall(SYS_pidfd_send_signal, fd, SIGTERM, NULL, 0))
		return fail("pidfd_send_signal", arg);
	return 0;
}

static int die_of_bus(const char *file)
{
	int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644);
	volatile char *p;

	if (fd < 0)
		return fail("open", file);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return fail("mmap", file);
	return p[0];			/* past the end of an empty file */
}

static int die_of_pipe(void)
{
	int fds[2];

	if (pipe(fds))
		return fail("pipe", NULL);
	close(fds[0]);
	if (write(fds[1], "x", 1) < 0)
		return fail("write", "(not killed by SIGPIPE)");
	return 1;
}

static int die_of_ptimer(void)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL,
				.sigev_signo = SIGALRM };
	struct itimerspec its = { .it_value = { .tv_nsec = 200000000 } };
	timer_t timer;

	if (timer_create(CLOCK_MONOTONIC, &sev, &timer) ||
	    timer_settime(timer, 0, &its, NULL))
		return fail("timer_create", NULL);
	for (;;)
		pause();
}

/* Populated by the kernel: no page fault (nor its trace events) each. */
static int die_of_oom(void)
{
	for (;;) {
		void *p = mmap(NULL, 64 << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
			       -1, 0);

		if (p == MAP_FAILED)
			return fail("mmap", "(not killed by the OOM killer)");
	}
}

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	const char *arg = argc > 2 ? argv[2] : NULL;
	int *volatile nowhere = NULL;

	/* a shell may have left them ignored */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGALRM, SIG_DFL);

	if (!strcmp(op, "edit") && arg)
		return edit(arg);
	if (!strcmp(op, "mmap") && arg)
		return map_write(arg);
	if ((!strcmp(op, "tgkill") || !strcmp(op, "pidfd")) && arg)
		return send_term(op, arg);
	if (!strcmp(op, "segv"))
		return *nowhere;
	if (!strcmp(op, "bus") && arg)
		return die_of_bus(arg);
	if (!strcmp(op, "pipe"))
		return die_of_pipe();
	if (!strcmp(op, "alarm")) {
		alarm(1);
		for (;;)
			pause();
	}
	if (!strcmp(op, "ptimer"))
		return die_of_ptimer();
	if (!strcmp(op, "oom"))
		return die_of_oom();
	fprintf(stderr, "usage: ltt-fsops edit|mmap FILE | tgkill|pidfd PID | segv | bus FILE | pipe | alarm | ptimer | oom\n");
	return 2;
}
