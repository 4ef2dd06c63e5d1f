/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the event-set selftests share, on top of ltt_util.h: a fixture (a
 * session and its readers, the test pinned to a CPU with a buffer), the
 * numbers the records carry, and the workloads that make every event of
 * the registry happen in the guest: a loop-mounted ext2 file system, a
 * network block device served by the test itself, zram swap, loopback
 * UDP, System V IPC, the UART's interrupts, a workqueue that needs a new
 * worker thread ...
 *
 * A workload that cannot run says why in ltt_err and returns -1; the tests
 * fail with that message rather than skip: every event type must be shown
 * to happen.
 *
 * Include it after defining _GNU_SOURCE.
 */
#ifndef __LTT_WORKLOAD_H
#define __LTT_WORKLOAD_H

#include <arpa/inet.h>
#include <limits.h>
#include <linux/kd.h>
#include <linux/loop.h>
#include <linux/nbd.h>
#include <linux/time_types.h>
#include <pthread.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/mount.h>
#include <sys/select.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/time.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <termios.h>
#include <linux/sched.h>

#include "ltt_util.h"

/*
 * The system calls take the kernel's own time structures: a C library's
 * may have a 64-bit time_t where the kernel's long is 32 bits (musl).
 * LTT_HUGE_SECS is a timeout longer than any record's unit holds where
 * the kernel's long allows (10^13 s is more microseconds than an s64
 * holds), else the longest a 32-bit long holds.
 */
#define LTT_HUGE_SECS ((__kernel_long_t)(sizeof(__kernel_long_t) > 4 ? \
					 10000000000000LL : LONG_MAX))

/*
 * Calls that 32-bit architectures spell differently: select() is
 * _newselect() where __NR_select is old_select() (i386, ppc32) or
 * missing (arm, mips, sh); semop() is semtimedop() without a timeout
 * where only ipc() and semtimedop() are (i386, s390x, MIPS o32).
 */
#ifdef __NR__newselect
#define LTT_NR_select	__NR__newselect
#else
#define LTT_NR_select	__NR_select
#endif

/*
 * semop(), or semtimedop() with no timeout where there is no __NR_semop
 * (i386, ppc32, sh, s390, MIPS o32): LTT_SEMOP_CALL is the call
 * of <linux/ipc.h> its ipc_call records.
 */
#ifdef __NR_semop
#define LTT_SEMOP_CALL		LTT_SEMOP
#else
#define LTT_SEMOP_CALL		LTT_SEMTIMEDOP
#endif

static inline long ltt_semop(int id, struct sembuf *op, size_t n)
{
#if defined(__NR_semop)
	return syscall(__NR_semop, id, op, n);
#elif defined(__NR_semtimedop_time64)
	return syscall(__NR_semtimedop_time64, id, op, n, NULL);
#else
	return syscall(__NR_semtimedop, id, op, n, NULL);
#endif
}

/* CONFIG_HZ of the test kernel (scripts/config/ltt.config). */
#define LTT_HZ			250

/* x86 exception vectors (arch/x86/include/asm/trapnr.h). */
#define LTT_X86_TRAP_DE		0
#define LTT_X86_TRAP_BP		3
#define LTT_X86_TRAP_UD		6
#define LTT_X86_TRAP_GP		13
#define LTT_X86_TRAP_PF		14

/* Softirq vectors (<linux/interrupt.h>). */
#define LTT_HI_SOFTIRQ		0
#define LTT_TIMER_SOFTIRQ	1
#define LTT_NET_RX_SOFTIRQ	3
#define LTT_NR_SOFTIRQS		10

/* Task states (<linux/sched.h>). */
#define LTT_TASK_INTERRUPTIBLE	1

/* Socket calls, SYS_* of <linux/net.h>. */
#define LTT_SYS_BIND		2
#define LTT_SYS_CONNECT		3
#define LTT_SYS_SENDTO		11
#define LTT_SYS_RECVFROM	12

/* System V IPC calls, of <linux/ipc.h> (which <sys/ipc.h> excludes). */
#define LTT_SEMOP		1
#define LTT_SEMTIMEDOP		4
#define LTT_MSGSND		11
#define LTT_MSGRCV		12
#define LTT_SHMAT		21
#define LTT_SHMDT		22

#define LTT_ETH_P_IP		0x0800

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT		21
#endif

/*
 * For FIXTURE_SETUP(): a session (@c NULL: ltt_create_default) and its
 * readers, the caller pinned to a CPU that has a buffer.  Returns that
 * CPU, or -1 when the test cannot go on (it is skipped or failed).
 */
static inline int ltt_setup_pinned(struct __test_metadata *_metadata,
				   struct ltt_session *s,
				   const struct ltt_create *c)
{
	int cpu;

	if (!ltt_setup(_metadata, s, c, true))
		return -1;
	cpu = ltt_pin_to_buffer_cpu(s);
	ASSERT_LE(0, cpu) TH_LOG("%s", ltt_err);
	return cpu;
}

/*
 * Buffers for tests that record the whole system, read after STOP: 2 MiB
 * per CPU, room for every event of a workload and the state dump on a
 * slow 32-bit guest.
 */
static const struct ltt_create ltt_create_big = {
	.subbuf_size = 65536,
	.n_subbufs = 32,
	.mode = LTT_MODE_DISCARD,
};

#define START()		ltt_start_or_fail(_metadata, self->s.fd)

static inline void ltt_filter_pids(struct __test_metadata *_metadata, int fd,
				   const pid_t *pids, unsigned int n)
{
	ASSERT_EQ(0, ltt_set_pids(fd, pids, n))
		TH_LOG("SET_PIDS: %s", strerror(errno));
}

#define FILTER_PIDS(pids, n)	ltt_filter_pids(_metadata, self->s.fd, pids, n)

#define FILTER_SELF()	FILTER_PIDS(&self->pid, 1)

#define FILTER_EVENTS(...) do {						\
	static const char *const __names[] = { __VA_ARGS__, NULL };	\
	ASSERT_EQ(0, ltt_set_events(&self->s, __names))			\
		TH_LOG("%s", ltt_err);					\
} while (0)

/* A workload ran, or the test fails with the reason it did not. */
static inline void ltt_work_ok(struct __test_metadata *_metadata, int ret,
			       const char *what)
{
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", what, ltt_err);
}

#define WORK(call)	ltt_work_ok(_metadata, (call), #call)

/*
 * Stop, decode every packet into @t, check the accounting, and make sure
 * nothing was lost: the tests count records.
 */
static inline void ltt_stop_and_read(struct __test_metadata *_metadata,
				     struct ltt_session *s, struct ltt_trace *t)
{
	unsigned int i;

	ASSERT_EQ(0, ltt_stop(s->fd)) TH_LOG("STOP: %s", strerror(errno));
	ASSERT_EQ(0, ltt_read_stopped(s, t)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_check_accounting(s)) TH_LOG("%s", ltt_err);
	for (i = 0; i < s->n_cpus; i++)
		ASSERT_EQ(0ULL, s->st[i].lost)
			TH_LOG("cpu %u lost events: the counts would be off",
			       s->st[i].cpu);
}

#define STOP_AND_READ(t)	ltt_stop_and_read(_metadata, &self->s, (t))

/* Shorthands for the record checks. */
#define IS(ev, name)		ltt_ev_is(reg, (ev), (name))
#define FIELD(ev, name)		ltt_ev_field(reg, (ev), (name))

/*
 * The index of the first record of @name at or after @from, on @cpu (-1:
 * any CPU), or -1.
 */
static inline long ltt_next(const struct ltt_registry *reg,
			    const struct ltt_trace *t, size_t from,
			    const char *name, int cpu)
{
	size_t i;

	for (i = from; i < t->n; i++)
		if (ltt_ev_is(reg, &t->ev[i], name) &&
		    (cpu < 0 || t->ev[i].cpu == (__u32)cpu))
			return i;
	return -1;
}

static inline __u64 ltt_ms(__u64 ns)
{
	return ns / 1000000;
}

/* Busy in user mode, reading the clock only now and then, for @ns. */
static inline void ltt_spin_user(__u64 ns)
{
	__u64 end = ltt_now_ns(CLOCK_MONOTONIC) + ns;
	unsigned long n;

	do {
		for (n = 0; n < 100000; n++)
			asm volatile("" ::: "memory");
	} while (ltt_now_ns(CLOCK_MONOTONIC) < end);
}

/* Read @path into @buf, NUL-terminated, the last newline dropped. */
static inline int ltt_read_str(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ltt_fail("open %s: %s", path, strerror(errno));
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return ltt_fail("read %s: %s", path, strerror(errno));
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* The address of the kernel symbol @sym, or 0 (ltt_err says why). */
static inline unsigned long long ltt_kallsyms(const char *sym)
{
	unsigned long long addr, found = 0;
	char line[512], name[256], type;
	FILE *f;

	f = fopen("/proc/kallsyms", "re");
	if (!f) {
		ltt_fail("open /proc/kallsyms: %s (CONFIG_KALLSYMS?)",
			 strerror(errno));
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    !strcmp(name, sym)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	if (!found)
		ltt_fail("no %s in /proc/kallsyms, or its address is hidden (kptr_restrict)",
			 sym);
	return found;
}

/* The state letter of @pid in /proc/PID/stat, or 0. */
static inline char ltt_task_state(pid_t pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (ltt_read_str(path, buf, sizeof(buf)))
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * A child blocked in read() of a pipe until *@wake is written to or
 * closed: by the time this returns it sleeps (state S).  Returns its pid,
 * or -1.
 */
static inline pid_t ltt_fork_sleeper(int *wake)
{
	int p[2], i;
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC))
		return ltt_fail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return ltt_fail("fork: %s", strerror(errno));
	if (!pid) {
		close(p[1]);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(p[0]);
	*wake = p[1];
	for (i = 0; i < 1000 && ltt_task_state(pid) != 'S'; i++)
		usleep(1000);
	if (ltt_task_state(pid) != 'S') {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(p[1]);
		return ltt_fail("child %d did not go to sleep in read() within 1 s",
				pid);
	}
	/* Asleep in read(): the only thing it does that blocks. */
	usleep(2000);
	return pid;
}

/* Wake the sleeper and reap it. */
static inline int ltt_wake_sleeper(pid_t pid, int wake)
{
	int status;

	if (write(wake, "", 1) != 1)
		return ltt_fail("write to the sleeper's pipe: %s",
				strerror(errno));
	close(wake);
	if (waitpid(pid, &status, 0) != pid)
		return ltt_fail("waitpid %d: %s", pid, strerror(errno));
	return 0;
}

static inline void ltt_kill_sleeper(pid_t pid, int wake)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(wake);
}

/* ---- Processes ---- */

/* fork(), the child exits with 3, waitpid() reaps it. */
static inline int ltt_work_fork_exit(void)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return ltt_fail("fork: %s", strerror(errno));
	if (!pid)
		_exit(3);
	if (waitpid(pid, &status, 0) != pid)
		return ltt_fail("waitpid: %s", strerror(errno));
	return 0;
}

/* A child runs /bin/true. */
static inline int ltt_work_exec_true(void)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return ltt_fail("fork: %s", strerror(errno));
	if (!pid) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return ltt_fail("waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return ltt_fail("/bin/true: status %#x", status);
	return 0;
}

/* SIGUSR1 to a sleeping child (which it kills), then reap it. */
static inline int ltt_work_signal(void)
{
	int wake, status;
	pid_t pid;

	pid = ltt_fork_sleeper(&wake);
	if (pid < 0)
		return -1;
	kill(pid, SIGUSR1);
	waitpid(pid, &status, 0);
	close(wake);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGUSR1)
		return ltt_fail("child not killed by SIGUSR1: status %#x",
				status);
	return 0;
}

/*
 * The writeback workqueue (WQ_SYSFS) given a nice value no worker pool
 * has: the kernel makes a pool for it, and a kworker thread with it.  The
 * values cycle through 1..19 over the calls (a file in /tmp counts them),
 * so that a pool of an earlier call, maybe not yet freed, is not reused.
 */
#define LTT_WQ_NICE	"/sys/devices/virtual/workqueue/writeback/nice"
#define LTT_WQ_COUNTER	"/tmp/ltt-wq-nice-counter"

static inline int ltt_work_new_kworker(void)
{
	char old[32], val[32];
	int i, n = 0, ret = 0;

	if (ltt_read_str(LTT_WQ_NICE, old, sizeof(old)))
		return ltt_fail("%s: %s", ltt_err,
				"the writeback workqueue's attributes in sysfs make new kworkers");
	if (!ltt_read_str(LTT_WQ_COUNTER, val, sizeof(val)))
		n = atoi(val);
	for (i = 0; i < 2 && !ret; i++, n++) {
		snprintf(val, sizeof(val), "%d", 1 + n % 19);
		ret = ltt_write_str(LTT_WQ_NICE, val);
		usleep(5000);
	}
	snprintf(val, sizeof(val), "%d", n);
	ltt_write_str(LTT_WQ_COUNTER, val);
	if (ltt_write_str(LTT_WQ_NICE, old))
		ret = -1;
	/* Let the new workers start. */
	usleep(10000);
	return ret;
}

/* ---- The UART ---- */

/* The irq of ttyS0 in /proc/interrupts, or -1. */
static inline int ltt_uart_irq(void)
{
	char line[512];
	int irq = -1;
	FILE *f;

	f = fopen("/proc/interrupts", "re");
	if (!f)
		return ltt_fail("open /proc/interrupts: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "ttyS0") && sscanf(line, " %d:", &irq) == 1)
			break;
	fclose(f);
	if (irq < 0)
		return ltt_fail("no ttyS0 line in /proc/interrupts: the console UART has no irq");
	return irq;
}

/*
 * Local timer interrupts (LOC in /proc/interrupts) that @cpu has taken,
 * or -1.
 */
static inline long long ltt_local_timer_irqs(unsigned int cpu)
{
	char line[1024], want[16], *p, *tok;
	long long n = -1;
	int col = -1, i;
	FILE *f;

	f = fopen("/proc/interrupts", "re");
	if (!f)
		return ltt_fail("open /proc/interrupts: %s", strerror(errno));
	snprintf(want, sizeof(want), "CPU%u", cpu);
	if (fgets(line, sizeof(line), f))
		for (i = 0, tok = strtok_r(line, " \t\n", &p); tok;
		     i++, tok = strtok_r(NULL, " \t\n", &p))
			if (!strcmp(tok, want))
				col = i;
	while (col >= 0 && fgets(line, sizeof(line), f)) {
		tok = strtok_r(line, " \t\n", &p);
		if (!tok || strcmp(tok, "LOC:"))
			continue;
		for (i = 0; i <= col && (tok = strtok_r(NULL, " \t\n", &p)); i++)
			if (i == col)
				n = atoll(tok);
		break;
	}
	fclose(f);
	if (n < 0)
		ltt_fail("no LOC count of CPU%u in /proc/interrupts", cpu);
	return n;
}

/*
 * @n lines to the console, drained: the UART's transmit interrupts send
 * them.  They are TAP comments.
 */
static inline int ltt_work_console(int n)
{
	int fd, i;

	fd = open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ltt_fail("open /dev/console: %s", strerror(errno));
	for (i = 0; i < n; i++)
		dprintf(fd, "# ltt: line %d of %d to the console, to make UART interrupts\n",
			i + 1, n);
	if (tcdrain(fd)) {
		ltt_fail("tcdrain /dev/console: %s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* ---- Tasklets ---- */

/*
 * KDSETLED on a virtual terminal schedules the keyboard tasklet
 * (drivers/tty/vt/keyboard.c, kbd_bh), the one tasklet user space can
 * make run in the test kernel.
 */
static inline int ltt_work_kbd_tasklet(void)
{
	int fd;

	fd = open("/dev/tty0", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ltt_fail("open /dev/tty0: %s: %s", strerror(errno),
				"the keyboard tasklet (kbd_bh of drivers/tty/vt/keyboard.c) is the one tasklet user space can schedule in this kernel, and it needs CONFIG_VT=y in selftests/config");
	if (ioctl(fd, KDSETLED, 0) || ioctl(fd, KDSETLED, 0xff)) {
		ltt_fail("KDSETLED on /dev/tty0: %s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	/* The tasklet runs at the next softirq: an irq exit, at the latest a tick. */
	usleep(20000);
	return 0;
}

/* Write to /sys/kernel/debug/ltt/@name (CONFIG_LTT_SELFTEST): 0, or -1. */
static inline int ltt_work_debugfs(const char *name)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/debug/ltt/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return ltt_fail("%s: %s (needs CONFIG_LTT_SELFTEST and debugfs mounted)",
				path, strerror(errno));
	if (write(fd, "1", 1) != 1) {
		close(fd);
		return ltt_fail("%s: write: %s", path, strerror(errno));
	}
	close(fd);
	return 0;
}

/*
 * Nothing in a minimal kernel runs a hi tasklet for user space:
 * CONFIG_LTT_SELFTEST's debugfs file schedules one.
 */
static inline int ltt_work_hi_tasklet(void)
{
	if (ltt_work_debugfs("hi_tasklet"))
		return -1;
	/* The tasklet runs at the next softirq: an irq exit, at the latest a tick. */
	usleep(20000);
	return 0;
}

/* ---- Files ---- */

/*
 * open (creating @path), write 4096 bytes, lseek to 0, read them back,
 * FIONREAD, select() with a timeval, poll(), close and unlink.
 */
static inline int ltt_work_file_io(const char *path)
{
	struct __kernel_old_timeval tv = { .tv_sec = 1, .tv_usec = 500000 };
	struct pollfd pfd;
	char buf[4096];
	fd_set rfds;
	int fd, n;

	memset(buf, 'x', sizeof(buf));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return ltt_fail("open %s: %s", path, strerror(errno));
	if (write(fd, buf, sizeof(buf)) != sizeof(buf) ||
	    lseek(fd, 0, SEEK_SET) ||
	    read(fd, buf, sizeof(buf)) != sizeof(buf) ||
	    ioctl(fd, FIONREAD, &n)) {
		ltt_fail("I/O on %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	FD_ZERO(&rfds);
	FD_SET(fd, &rfds);
	/* A regular file is always ready: neither call waits. */
	syscall(LTT_NR_select, fd + 1, &rfds, NULL, NULL, &tv);
	pfd.fd = fd;
	pfd.events = POLLIN;
	poll(&pfd, 1, 1234);
	close(fd);
	unlink(path);
	return 0;
}

/*
 * Every way the file-system events have of changing a file, in @dir
 * (made, and removed at the end): mkdir, a file written through a dup'd
 * descriptor and mapped shared and writable, truncate, chmod, chown,
 * link, symlink, rename, unlink, rmdir.
 */
static inline int ltt_work_fs_changes(const char *dir)
{
	char a[256], b[256], c[256];
	void *m;
	int fd, fd2;

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(c, sizeof(c), "%s/c", dir);
	if (mkdir(dir, 0755))
		return ltt_fail("mkdir %s: %s", dir, strerror(errno));
	fd = open(a, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return ltt_fail("open %s: %s", a, strerror(errno));
	fd2 = dup(fd);
	if (fd2 < 0 || write(fd2, "x", 1) != 1 || ftruncate(fd, 4096) ||
	    truncate(a, 8192) || fchmod(fd, 0640) || fchown(fd, -1, 0)) {
		close(fd);
		return ltt_fail("changes to %s: %s", a, strerror(errno));
	}
	close(fd2);
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return ltt_fail("mmap %s: %s", a, strerror(errno));
	munmap(m, 4096);
	if (link(a, b) || symlink("a", c) || rename(b, c) || unlink(a) ||
	    unlink(c) || rmdir(dir))
		return ltt_fail("names in %s: %s", dir, strerror(errno));
	return 0;
}

/*
 * An ext2 file system on a loop device, mounted at LTT_EXT2_MNT, with a
 * LTT_EXT2_FILE_SIZE file of 1 KiB blocks (so reading it needs indirect
 * blocks).  Made once per boot: later calls find it mounted.
 */
#define LTT_EXT2_DIR		"/tmp/ltt-ext2"
#define LTT_EXT2_IMG		LTT_EXT2_DIR "/image"
#define LTT_EXT2_MNT		LTT_EXT2_DIR "/mnt"
#define LTT_EXT2_FILE		LTT_EXT2_MNT "/data"
#define LTT_EXT2_FILE_SIZE	(256 << 10)
#define LTT_EXT2_MAGIC		0xEF53

/* Little-endian fields of an on-disk structure, on any host. */
static inline void ltt_le16(unsigned char *p, unsigned int v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static inline void ltt_le32(unsigned char *p, unsigned int v)
{
	ltt_le16(p, v);
	ltt_le16(p + 2, v >> 16);
}

/*
 * What mke2fs -b 1024 makes, in C (the initramfs of scripts/arch.sh has
 * no e2fsprogs, busybox or shell): in the first @blocks KiB of @fd, an
 * ext2 revision 1 file system with no optional features, one group of
 * 128 inodes and an empty root directory.  Blocks: 0 boot, 1 the
 * superblock, 2 the group descriptors, 3 and 4 the block and inode
 * bitmaps, 5 to 20 the inode table, 21 the root directory.
 */
static inline int ltt_mkfs_ext2(int fd, unsigned int blocks)
{
	enum { BS = 1024, INODES = 128, ISIZE = 128, ITABLE = 5,
	       ROOT = ITABLE + INODES * ISIZE / BS, GROUP = 8 * BS };
	static unsigned char img[(ROOT + 1) * BS];
	unsigned char *sb = img + BS, *gd = img + 2 * BS;
	unsigned char *bb = img + 3 * BS, *ib = img + 4 * BS;
	unsigned char *root = img + ITABLE * BS + ISIZE;	/* inode 2 */
	unsigned char *dir = img + ROOT * BS;
	unsigned int i, free_blocks = blocks - 1 - ROOT;

	if (blocks <= ROOT + 1 || blocks > GROUP + 1)
		return ltt_fail("mkfs ext2: %u blocks is not one group", blocks);
	memset(img, 0, sizeof(img));
	ltt_le32(sb + 0, INODES);		/* s_inodes_count */
	ltt_le32(sb + 4, blocks);		/* s_blocks_count */
	ltt_le32(sb + 12, free_blocks);		/* s_free_blocks_count */
	ltt_le32(sb + 16, INODES - 10);		/* s_free_inodes_count */
	ltt_le32(sb + 20, 1);			/* s_first_data_block */
	ltt_le32(sb + 32, GROUP);		/* s_blocks_per_group */
	ltt_le32(sb + 36, GROUP);		/* s_frags_per_group */
	ltt_le32(sb + 40, INODES);		/* s_inodes_per_group */
	ltt_le16(sb + 54, 0xffff);		/* s_max_mnt_count: -1 */
	ltt_le16(sb + 56, LTT_EXT2_MAGIC);	/* s_magic */
	ltt_le16(sb + 58, 1);			/* s_state: clean */
	ltt_le16(sb + 60, 1);			/* s_errors: continue */
	ltt_le32(sb + 76, 1);			/* s_rev_level: dynamic */
	ltt_le32(sb + 84, 11);			/* s_first_ino */
	ltt_le16(sb + 88, ISIZE);		/* s_inode_size */
	for (i = 0; i < 16; i++)		/* s_uuid */
		sb[104 + i] = 0x4c + i;
	ltt_le32(gd + 0, 3);			/* bg_block_bitmap */
	ltt_le32(gd + 4, 4);			/* bg_inode_bitmap */
	ltt_le32(gd + 8, ITABLE);		/* bg_inode_table */
	ltt_le16(gd + 12, free_blocks);		/* bg_free_blocks_count */
	ltt_le16(gd + 14, INODES - 10);		/* bg_free_inodes_count */
	ltt_le16(gd + 16, 1);			/* bg_used_dirs_count */
	/* Bit n is block n + 1: 1 to ROOT used, and those past the end. */
	for (i = 0; i < GROUP; i++)
		if (i < ROOT || i >= blocks - 1)
			bb[i / 8] |= 1 << (i % 8);
	/* Inodes 1 to 10 are reserved; the bits past the last are set. */
	for (i = 0; i < GROUP; i++)
		if (i < 10 || i >= INODES)
			ib[i / 8] |= 1 << (i % 8);
	ltt_le16(root + 0, 040755);		/* i_mode */
	ltt_le32(root + 4, BS);			/* i_size */
	ltt_le16(root + 26, 2);			/* i_links_count */
	ltt_le32(root + 28, BS / 512);		/* i_blocks */
	ltt_le32(root + 40, ROOT);		/* i_block[0] */
	/* "." and "..", both the root: inode, rec_len, name_len, name */
	ltt_le32(dir + 0, 2);
	ltt_le16(dir + 4, 12);
	ltt_le16(dir + 6, 1);
	dir[8] = '.';
	ltt_le32(dir + 12, 2);
	ltt_le16(dir + 16, BS - 12);
	ltt_le16(dir + 18, 2);
	dir[20] = '.';
	dir[21] = '.';
	if (pwrite(fd, img, sizeof(img), 0) != (ssize_t)sizeof(img))
		return ltt_fail("mkfs ext2: write: %s", strerror(errno));
	return 0;
}

static inline int ltt_loop_attach(const char *img, char *dev, size_t size)
{
	int ctl, n, fd = -1, imgfd, i, ret = -1;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return ltt_fail("open /dev/loop-control: %s (CONFIG_BLK_DEV_LOOP)",
				strerror(errno));
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	if (n < 0)
		return ltt_fail("LOOP_CTL_GET_FREE: %s", strerror(errno));
	snprintf(dev, size, "/dev/loop%d", n);
	/* devtmpfs may take a moment to make the node of a new device. */
	for (i = 0; i < 100 && fd < 0; i++) {
		fd = open(dev, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			usleep(10000);
	}
	if (fd < 0)
		return ltt_fail("open %s: %s", dev, strerror(errno));
	imgfd = open(img, O_RDWR | O_CLOEXEC);
	if (imgfd < 0)
		ltt_fail("open %s: %s", img, strerror(errno));
	else if (ioctl(fd, LOOP_SET_FD, imgfd))
		ltt_fail("LOOP_SET_FD %s on %s: %s", img, dev, strerror(errno));
	else
		ret = 0;
	if (imgfd >= 0)
		close(imgfd);
	close(fd);
	return ret;
}

static inline int ltt_ext2_mount(void)
{
	char dev[64], buf[4096];
	struct statfs sf;
	int fd, i;

	if (!statfs(LTT_EXT2_MNT, &sf) && sf.f_type == LTT_EXT2_MAGIC &&
	    !access(LTT_EXT2_FILE, R_OK))
		return 0;
	mkdir(LTT_EXT2_DIR, 0755);
	mkdir(LTT_EXT2_MNT, 0755);
	fd = open(LTT_EXT2_IMG, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return ltt_fail("create %s: %s", LTT_EXT2_IMG, strerror(errno));
	if (ftruncate(fd, 8 << 20)) {
		close(fd);
		return ltt_fail("ftruncate %s: %s", LTT_EXT2_IMG,
				strerror(errno));
	}
	if (ltt_mkfs_ext2(fd, 8192)) {
		close(fd);
		return -1;
	}
	close(fd);
	if (ltt_loop_attach(LTT_EXT2_IMG, dev, sizeof(dev)))
		return -1;
	if (mount(dev, LTT_EXT2_MNT, "ext2", 0, NULL))
		return ltt_fail("mount %s on %s as ext2: %s (CONFIG_EXT2_FS)",
				dev, LTT_EXT2_MNT, strerror(errno));
	fd = open(LTT_EXT2_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return ltt_fail("create %s: %s", LTT_EXT2_FILE, strerror(errno));
	for (i = 0; i < LTT_EXT2_FILE_SIZE / (int)sizeof(buf); i++) {
		memset(buf, 'a' + i % 26, sizeof(buf));
		if (write(fd, buf, sizeof(buf)) != sizeof(buf)) {
			ltt_fail("write %s: %s", LTT_EXT2_FILE, strerror(errno));
			close(fd);
			return -1;
		}
	}
	fsync(fd);
	close(fd);
	sync();
	return 0;
}

/* Write back and drop the page, dentry and inode caches. */
static inline int ltt_drop_caches(void)
{
	sync();
	return ltt_write_str("/proc/sys/vm/drop_caches", "3");
}

/*
 * With cold caches, open and read the ext2 file: ext2 reads its inode and
 * indirect blocks with sb_bread() (buffer waits), the data through the
 * page cache (page waits).  Run ltt_ext2_mount() before.
 */
static inline int ltt_work_ext2_cold_read(void)
{
	char buf[16384];
	ssize_t n, total = 0;
	int fd;

	if (ltt_drop_caches())
		return -1;
	fd = open(LTT_EXT2_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ltt_fail("open %s: %s", LTT_EXT2_FILE, strerror(errno));
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	close(fd);
	if (total != LTT_EXT2_FILE_SIZE)
		return ltt_fail("read %zd bytes of %s, not %d", total,
				LTT_EXT2_FILE, LTT_EXT2_FILE_SIZE);
	return 0;
}

/*
 * A network block device served by a thread of this process, which holds
 * its answer to the first read until the reader sleeps in D state: a
 * buffered read of the fresh device then waits for its page's I/O every
 * time.  (A loop device's worker on another CPU may finish before the
 * reader looks, and then nothing waits.)
 */
#define LTT_NBD_DEV		"/dev/nbd0"
#define LTT_NBD_SIZE		(256 << 10)

struct ltt_nbd {
	int dev, sock[2];
	pid_t reader;
	pthread_t doit, server;
	bool doit_started, server_started;
};

static inline int ltt_io_full(int fd, void *buf, size_t len, bool out)
{
	char *p = buf;

	while (len) {
		ssize_t n = out ? write(fd, p, len) : read(fd, p, len);

		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static inline void *ltt_nbd_serve(void *arg)
{
	struct ltt_nbd *nbd = arg;
	struct nbd_reply rp = { .magic = htonl(NBD_REPLY_MAGIC) };
	struct nbd_request rq;
	bool first = true;
	char buf[4096];
	uint32_t type, len, n;
	int i;

	memset(buf, 0x5a, sizeof(buf));
	while (!ltt_io_full(nbd->sock[1], &rq, sizeof(rq), false) &&
	       ntohl(rq.magic) == NBD_REQUEST_MAGIC) {
		type = ntohl(rq.type) & 0xffff;
		len = ntohl(rq.len);
		if (type == NBD_CMD_DISC)
			break;
		if (type == NBD_CMD_READ && first) {
			/* At most 5 s: the test then fails on its count. */
			for (i = 0; i < 5000 && ltt_task_state(nbd->reader) != 'D'; i++)
				usleep(1000);
			first = false;
		}
		for (; type == NBD_CMD_WRITE && len; len -= n) {
			n = len < sizeof(buf) ? len : sizeof(buf);
			if (ltt_io_full(nbd->sock[1], buf, n, false))
				return NULL;
		}
		memcpy(rp.handle, rq.handle, sizeof(rp.handle));
		if (ltt_io_full(nbd->sock[1], &rp, sizeof(rp), true))
			return NULL;
		for (; type == NBD_CMD_READ && len; len -= n) {
			n = len < sizeof(buf) ? len : sizeof(buf);
			if (ltt_io_full(nbd->sock[1], buf, n, true))
				return NULL;
		}
	}
	return NULL;
}

static inline void *ltt_nbd_doit(void *arg)
{
	struct ltt_nbd *nbd = arg;

	ioctl(nbd->dev, NBD_DO_IT);
	return NULL;
}

static inline void ltt_nbd_stop(struct ltt_nbd *nbd)
{
	/* The server returns on the disconnect request, or on shutdown. */
	if (nbd->doit_started)
		ioctl(nbd->dev, NBD_DISCONNECT);
	else if (nbd->sock[1] >= 0)
		shutdown(nbd->sock[1], SHUT_RDWR);
	if (nbd->server_started)
		pthread_join(nbd->server, NULL);
	/* The kernel's receiver sees the end, and NBD_DO_IT returns. */
	if (nbd->sock[1] >= 0)
		shutdown(nbd->sock[1], SHUT_RDWR);
	if (nbd->doit_started)
		pthread_join(nbd->doit, NULL);
	if (nbd->dev >= 0) {
		ioctl(nbd->dev, NBD_CLEAR_SOCK);
		close(nbd->dev);
	}
	if (nbd->sock[0] >= 0)
		close(nbd->sock[0]);
	if (nbd->sock[1] >= 0)
		close(nbd->sock[1]);
}

/*
 * Serve LTT_NBD_DEV, LTT_NBD_SIZE bytes, until ltt_nbd_stop(); the first
 * read is answered once thread @reader of this process waits.
 */
static inline int ltt_nbd_start(struct ltt_nbd *nbd, pid_t reader)
{
	char size[32] = "";
	int i, fd;

	*nbd = (struct ltt_nbd){ .dev = -1, .sock = { -1, -1 },
				 .reader = reader };
	nbd->dev = open(LTT_NBD_DEV, O_RDWR | O_CLOEXEC);
	if (nbd->dev < 0)
		return ltt_fail("open %s: %s (CONFIG_BLK_DEV_NBD)",
				LTT_NBD_DEV, strerror(errno));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, nbd->sock)) {
		ltt_fail("socketpair: %s", strerror(errno));
		goto fail;
	}
	if (ioctl(nbd->dev, NBD_SET_BLKSIZE, 4096UL) ||
	    ioctl(nbd->dev, NBD_SET_SIZE_BLOCKS,
		  (unsigned long)LTT_NBD_SIZE / 4096) ||
	    ioctl(nbd->dev, NBD_SET_SOCK, (unsigned long)nbd->sock[0])) {
		ltt_fail("%s: NBD_SET_*: %s", LTT_NBD_DEV, strerror(errno));
		goto fail;
	}
	if (pthread_create(&nbd->server, NULL, ltt_nbd_serve, nbd)) {
		ltt_fail("pthread_create: %s", strerror(errno));
		goto fail;
	}
	nbd->server_started = true;
	if (pthread_create(&nbd->doit, NULL, ltt_nbd_doit, nbd)) {
		ltt_fail("pthread_create: %s", strerror(errno));
		goto fail;
	}
	nbd->doit_started = true;
	/* The device has its size once NBD_DO_IT has started it. */
	for (i = 0; i < 500; i++) {
		fd = open("/sys/block/nbd0/size", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			ssize_t n = read(fd, size, sizeof(size) - 1);

			close(fd);
			size[n > 0 ? n : 0] = '\0';
			if (atol(size) > 0)
				return 0;
		}
		usleep(10000);
	}
	ltt_fail("%s never started (size \"%s\")", LTT_NBD_DEV, size);
fail:
	ltt_nbd_stop(nbd);
	return -1;
}

/* Read the whole of a started LTT_NBD_DEV through the page cache. */
static inline int ltt_work_nbd_read(void)
{
	char buf[16384];
	ssize_t n, total = 0;
	int fd;

	fd = open(LTT_NBD_DEV, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ltt_fail("open %s: %s", LTT_NBD_DEV, strerror(errno));
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	close(fd);
	if (total != LTT_NBD_SIZE)
		return ltt_fail("read %zd bytes of %s, not %d", total,
				LTT_NBD_DEV, LTT_NBD_SIZE);
	return 0;
}

/* ---- Timers ---- */

/*
 * A UDP socket with SO_RCVTIMEO @ms: recv() waits in schedule_timeout()
 * for that long (in jiffies), and its timer expires.
 */
static inline int ltt_work_rcvtimeo(int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000,
			      .tv_usec = (ms % 1000) * 1000 };
	/* Any address: lo may be down. */
	struct sockaddr_in a = { .sin_family = AF_INET };
	char c;
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ltt_fail("socket: %s", strerror(errno));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		ltt_fail("bind, SO_RCVTIMEO: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (recv(fd, &c, 1, 0) >= 0 || errno != EAGAIN) {
		ltt_fail("recv on an idle socket with SO_RCVTIMEO: %s, not EAGAIN",
			 strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* setitimer(ITIMER_REAL) to 1.5 s, then off again. */
static inline int ltt_work_setitimer(void)
{
	struct itimerval on = { .it_value = { 1, 500000 } }, off = { 0 };

	if (setitimer(ITIMER_REAL, &on, NULL) ||
	    setitimer(ITIMER_REAL, &off, NULL))
		return ltt_fail("setitimer: %s", strerror(errno));
	return 0;
}

/* ---- Memory ---- */

static inline long ltt_page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* Touch @n fresh anonymous pages, then unmap them. */
static inline int ltt_work_touch_pages(int n)
{
	long ps = ltt_page_size();
	char *p;
	int i;

	p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return ltt_fail("mmap: %s", strerror(errno));
	for (i = 0; i < n; i++)
		p[i * ps] = 1;
	munmap(p, n * ps);
	return 0;
}

/* The page frame of @addr in /proc/self/pagemap; 0: not present. */
static inline unsigned long long ltt_pfn(const void *addr)
{
	__u64 e = 0;
	int fd;

	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (pread(fd, &e, sizeof(e),
		  (uintptr_t)addr / ltt_page_size() * sizeof(e)) != sizeof(e))
		e = 0;
	close(fd);
	if (!(e >> 63))
		return 0;
	return e & ((1ULL << 55) - 1);
}

/* Is @addr's page in swap (pagemap bit 62)? */
static inline bool ltt_swapped(const void *addr)
{
	__u64 e = 0;
	int fd;

	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (pread(fd, &e, sizeof(e),
		  (uintptr_t)addr / ltt_page_size() * sizeof(e)) != sizeof(e))
		e = 0;
	close(fd);
	return (e >> 62) & 1;
}

/*
 * What mkswap does, in C (no util-linux or busybox in the initramfs of
 * scripts/arch.sh): the version 1 header in the first page of @dev, in
 * the host's byte order, with "SWAPSPACE2" in the last ten bytes of
 * that page.
 */
static inline int ltt_mkswap(const char *dev)
{
	long ps = ltt_page_size();
	struct {
		unsigned int version, last_page, nr_badpages;
		unsigned char uuid[16];
		char volume_name[16];
	} info = { .version = 1 };
	char *page;
	off_t size;
	int fd, ret = -1;

	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return ltt_fail("mkswap: open %s: %s", dev, strerror(errno));
	size = lseek(fd, 0, SEEK_END);
	page = calloc(1, ps);
	if (size < 10 * ps || !page) {
		ltt_fail("mkswap: %s: %lld bytes", dev, (long long)size);
		goto out;
	}
	info.last_page = size / ps - 1;
	memset(info.uuid, 0x5a, sizeof(info.uuid));
	memcpy(page + 1024, &info, sizeof(info));
	memcpy(page + ps - 10, "SWAPSPACE2", 10);
	if (pwrite(fd, page, ps, 0) != ps || fsync(fd))
		ltt_fail("mkswap: write %s: %s", dev, strerror(errno));
	else
		ret = 0;
out:
	free(page);
	close(fd);
	return ret;
}

/* Swap on zram0, 64 MiB, once per boot. */
#define LTT_ZRAM	"/dev/zram0"

static inline int ltt_zram_swap_on(void)
{
	char swaps[4096], id[16];

	if (!ltt_read_str("/proc/swaps", swaps, sizeof(swaps)) &&
	    strstr(swaps, LTT_ZRAM))
		return 0;
	if (access("/sys/block/zram0", F_OK) &&
	    ltt_read_str("/sys/class/zram-control/hot_add", id, sizeof(id)))
		return ltt_fail("no /sys/block/zram0 and %s (CONFIG_ZRAM)",
				ltt_err);
	ltt_write_str("/sys/block/zram0/reset", "1");
	if (ltt_write_str("/sys/block/zram0/disksize", "64M"))
		return -1;
	if (ltt_mkswap(LTT_ZRAM))
		return -1;
	if (swapon(LTT_ZRAM, 0))
		return ltt_fail("swapon %s: %s (CONFIG_SWAP)", LTT_ZRAM,
				strerror(errno));
	return 0;
}

/* A page of our own, filled with a pattern that is not all zeroes. */
static inline char *ltt_filled_page(void)
{
	long ps = ltt_page_size(), i;
	char *p;

	p = mmap(NULL, ps, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		ltt_fail("mmap: %s", strerror(errno));
		return NULL;
	}
	for (i = 0; i < ps; i++)
		p[i] = 1 + i % 251;
	return p;
}

/*
 * Page @p out to swap (MADV_PAGEOUT) and back in (by reading it): checks
 * that it went and came back whole.  Swap must be on.
 */
static inline int ltt_work_swap_out_in(char *p)
{
	long ps = ltt_page_size(), i;

	if (madvise(p, ps, MADV_PAGEOUT))
		return ltt_fail("MADV_PAGEOUT: %s (CONFIG_ADVISE_SYSCALLS)",
				strerror(errno));
	if (!ltt_swapped(p))
		return ltt_fail("MADV_PAGEOUT did not put the page in swap (pagemap)");
	for (i = 0; i < ps; i++)
		if (p[i] != (char)(1 + i % 251))
			return ltt_fail("byte %ld of the page changed across swap",
					i);
	return 0;
}

/* ---- Sockets and the network ---- */

/* Bring the loopback interface up (the guest's init does not). */
static inline int ltt_lo_up(void)
{
	struct ifreq ifr;
	int fd, ret = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ltt_fail("socket: %s (CONFIG_INET)", strerror(errno));
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		ret = ltt_fail("SIOCGIFFLAGS lo: %s", strerror(errno));
	} else if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			ret = ltt_fail("SIOCSIFFLAGS lo up: %s",
				       strerror(errno));
	}
	close(fd);
	return ret;
}

/*
 * A UDP exchange on loopback: socket, bind, connect, sendto of @len bytes
 * and recvfrom of them.  Bring lo up first.
 */
static inline int ltt_work_udp(size_t len)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	char buf[2048] = { 0 };
	int rx, tx, ret = -1;

	if (len > sizeof(buf))
		return ltt_fail("%zu bytes: at most %zu", len, sizeof(buf));
	rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (rx < 0 || tx < 0)
		ltt_fail("socket: %s", strerror(errno));
	else if (bind(rx, (struct sockaddr *)&a, sizeof(a)) ||
		 getsockname(rx, (struct sockaddr *)&a, &alen) ||
		 connect(tx, (struct sockaddr *)&a, sizeof(a)))
		ltt_fail("bind, connect on 127.0.0.1: %s", strerror(errno));
	else if (sendto(tx, buf, len, 0, NULL, 0) != (ssize_t)len)
		ltt_fail("sendto: %s", strerror(errno));
	else if (recvfrom(rx, buf, sizeof(buf), 0, NULL, NULL) != (ssize_t)len)
		ltt_fail("recvfrom: %s", strerror(errno));
	else
		ret = 0;
	if (rx >= 0)
		close(rx);
	if (tx >= 0)
		close(tx);
	return ret;
}

/* ---- System V IPC ---- */

struct ltt_ipc_ids {
	int msg, sem, shm;
};

/*
 * Create a message queue, a semaphore set and a shared memory segment,
 * send a message, do a semop, attach and detach the segment, and remove
 * them all.  The calls are made as system calls, so that each is the one
 * the records name (glibc's semop() may be semtimedop).
 */
static inline int ltt_work_ipc(struct ltt_ipc_ids *ids)
{
	struct { long type; char text[8]; } msg = { 1, "ltt" };
	struct sembuf op = { .sem_num = 0, .sem_op = 1 };
	struct ltt_ipc_ids tmp;
	int ret = 0;
	void *addr;

	if (!ids)
		ids = &tmp;
	ids->msg = syscall(__NR_msgget, IPC_PRIVATE, IPC_CREAT | 0600);
	ids->sem = syscall(__NR_semget, IPC_PRIVATE, 1, IPC_CREAT | 0600);
	ids->shm = syscall(__NR_shmget, IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	if (ids->msg < 0 || ids->sem < 0 || ids->shm < 0) {
		ret = ltt_fail("msgget, semget, shmget: %s (CONFIG_SYSVIPC)",
			       strerror(errno));
		goto out;
	}
	if (syscall(__NR_msgsnd, ids->msg, &msg, sizeof(msg.text), 0) ||
	    ltt_semop(ids->sem, &op, 1)) {
		ret = ltt_fail("msgsnd, semop: %s", strerror(errno));
		goto out;
	}
	addr = (void *)syscall(__NR_shmat, ids->shm, NULL, 0);
	if (addr == (void *)-1) {
		ret = ltt_fail("shmat: %s", strerror(errno));
		goto out;
	}
	syscall(__NR_shmdt, addr);
out:
	if (ids->msg >= 0)
		msgctl(ids->msg, IPC_RMID, NULL);
	if (ids->sem >= 0)
		semctl(ids->sem, 0, IPC_RMID);
	if (ids->shm >= 0)
		shmctl(ids->shm, IPC_RMID, NULL);
	return ret;
}

/*
 * A child that works on command: 'g' makes @calls getppid() calls, 'f'
 * forks @calls children that exit at once, 'q' ends it; each command is
 * acknowledged once done.
 */
struct ltt_worker {
	pid_t pid;
	int cmd, ack;
};

static inline void ltt_worker_loop(int cmd, int ack, int calls)
{
	char c;
	int i;

	while (read(cmd, &c, 1) == 1 && c != 'q') {
		for (i = 0; i < calls; i++) {
			if (c == 'g') {
				syscall(__NR_getppid);
			} else if (c == 'f') {
				pid_t p = fork();

				if (!p)
					_exit(0);
				waitpid(p, NULL, 0);
			}
		}
		if (write(ack, &c, 1) != 1)
			break;
	}
	_exit(0);
}

static inline int ltt_worker_start(struct ltt_worker *w, int calls)
{
	int cmd[2], ack[2];

	if (pipe(cmd) || pipe(ack))
		return -1;
	w->pid = fork();
	if (w->pid < 0)
		return -1;
	if (!w->pid) {
		close(cmd[1]);
		close(ack[0]);
		ltt_worker_loop(cmd[0], ack[1], calls);
	}
	close(cmd[0]);
	close(ack[1]);
	w->cmd = cmd[1];
	w->ack = ack[0];
	return 0;
}

/* Have @w start @c: 0, or -1. */
static inline int ltt_worker_send(struct ltt_worker *w, char c)
{
	return write(w->cmd, &c, 1) == 1 ? 0 : -1;
}

/* Wait until @w is done with @c: 0, or -1. */
static inline int ltt_worker_wait(struct ltt_worker *w, char c)
{
	char r;

	return read(w->ack, &r, 1) == 1 && r == c ? 0 : -1;
}

/* Have @w do @c and wait until it is done: 0, or -1. */
static inline int ltt_worker_do(struct ltt_worker *w, char c)
{
	return ltt_worker_send(w, c) ? -1 : ltt_worker_wait(w, c);
}

static inline void ltt_worker_end(struct ltt_worker *w)
{
	char c = 'q';

	if (w->pid <= 0)
		return;
	if (write(w->cmd, &c, 1) != 1)
		kill(w->pid, SIGKILL);
	waitpid(w->pid, NULL, 0);
	close(w->cmd);
	close(w->ack);
	w->pid = 0;
}

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/*
 * A child born in the cgroup open as @cgfd (clone3's CLONE_INTO_CGROUP),
 * which exits at once: its pid, or -1 and errno.
 */
static inline pid_t ltt_clone_into(int cgfd)
{
	struct clone_args args = {
		.flags = CLONE_INTO_CGROUP,
		.exit_signal = SIGCHLD,
		.cgroup = (unsigned int)cgfd,
	};
	pid_t pid = syscall(__NR_clone3, &args, sizeof(args));

	if (!pid)
		_exit(0);
	return pid;
}

#endif /* __LTT_WORKLOAD_H */
