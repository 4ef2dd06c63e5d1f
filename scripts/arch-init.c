// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the initramfs of scripts/arch.sh, for architectures whose
 * Debian has no busybox-static to run scripts/guest-init: mount the
 * pseudo file systems, run the selftests of /ltt/tests in kselftest TAP
 * style, print the LTT-SELFTESTS summary line, have lttd record a small
 * workload and send the trace to the host over the console, then power
 * off.  Built static with the architecture's cross libc.
 *
 * The same binary is /bin/true (the selftests exec it), as "init
 * workload" the workload lttd records, and as "init send DIR" prints
 * the files of DIR the way the host unpacks them (scripts/arch.sh).
 *
 * Kernel command line:
 *   ltt.run=NAME,NAME   run only these tests, in this order
 *   ltt.timeout=SECS    per-test timeout (default: /ltt/settings, else 45)
 *   ltt.timeouts=NAME:SECS,...
 *                       the timeout of these tests (NAME: ltt_NAME_test
 *                       or the whole name), over ltt.timeout: a slow
 *                       guest's own (scripts/arch.sh's TEST_TIMEOUTS)
 *   ltt.trace=0         no recording
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char cmdline[4096];

/* The value of ltt.NAME= on the kernel command line, or NULL. */
static const char *cmdline_arg(const char *name, char *buf, size_t size)
{
	char key[64];
	const char *p, *end;

	snprintf(key, sizeof(key), "ltt.%s=", name);
	for (p = cmdline; (p = strstr(p, key)); p++) {
		if (p != cmdline && p[-1] != ' ')
			continue;
		p += strlen(key);
		end = p + strcspn(p, " \n");
		snprintf(buf, size, "%.*s", (int)(end - p), p);
		return buf;
	}
	return NULL;
}

static void read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? 0 : read(fd, buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, s, strlen(s)) < 0)
			perror(path);
		close(fd);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void mount_all(void)
{
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mkdir("/dev/shm", 01777);
	mount("tmpfs", "/dev/shm", "tmpfs", 0, NULL);
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
}

/*
 * Run ARGV with DIR as its working directory in a process group of its
 * own; kill the group after TIMEOUT seconds.  The exit status, or -1 on
 * a timeout, or 128 + signal.
 */
static int run(char *const argv[], const char *dir, int timeout)
{
	double end = now() + timeout;
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 127;
	if (pid == 0) {
		setpgid(0, 0);
		if (dir && chdir(dir))
			_exit(127);
		execv(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now() > end) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		nanosleep(&tick, NULL);
	}
	/* Orphans of the test (its forked children) go too. */
	kill(-pid, SIGKILL);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int pass, fail, skip;

/* The timeout of test @name: its entry in ltt.timeouts=, else @dflt. */
static int test_timeout(const char *name, int dflt)
{
	char list[1024], full[128];
	char *item, *save, *colon;

	if (!cmdline_arg("timeouts", list, sizeof(list)))
		return dflt;
	for (item = strtok_r(list, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		colon = strchr(item, ':');
		if (!colon)
			continue;
		*colon = '\0';
		snprintf(full, sizeof(full), "ltt_%s_test", item);
		if (!strcmp(item, name) || !strcmp(full, name))
			return atoi(colon + 1);
	}
	return dflt;
}

static void run_test(int num, const char *name, int timeout)
{
	char path[256];
	char *argv[] = { path, NULL };
	double start = now();
	int rc, secs;

	timeout = test_timeout(name, timeout);
	printf("# running %s (timeout %ds)\n", name, timeout);
	fflush(stdout);
	snprintf(path, sizeof(path), "/ltt/%s", name);
	if (access(path, X_OK)) {
		printf("not ok %d selftests: ltt: %s # not in the initramfs\n",
		       num, name);
		fail++;
		return;
	}
	rc = run(argv, "/ltt", timeout);
	secs = (int)(now() - start);
	if (rc == 0) {
		printf("ok %d selftests: ltt: %s # %ds\n", num, name, secs);
		pass++;
	} else if (rc == 4) {
		printf("ok %d selftests: ltt: %s # SKIP\n", num, name);
		skip++;
	} else if (rc < 0) {
		printf("not ok %d selftests: ltt: %s # TIMEOUT %ds\n", num,
		       name, timeout);
		fail++;
	} else {
		printf("not ok %d selftests: ltt: %s # exit=%d\n", num, name,
		       rc);
		fail++;
	}
	fflush(stdout);
}

static void run_tests(void)
{
	static char list[8192], buf[256];
	const char *arg;
	char *name, *save;
	int timeout = 45, n = 0, num = 0;
	char *p;

	read_file("/ltt/settings", buf, sizeof(buf));
	p = strstr(buf, "timeout=");
	if (p)
		timeout = atoi(p + 8);
	arg = cmdline_arg("timeout", buf, sizeof(buf));
	if (arg)
		timeout = atoi(arg);
	arg = cmdline_arg("run", list, sizeof(list));
	if (!arg)
		read_file("/ltt/tests", list, sizeof(list));
	for (p = list; *p; p++)
		if (*p == ',' || *p == '\n')
			*p = ' ';
	for (p = list; *p; p++)
		if (*p != ' ' && (p == list || p[-1] == ' '))
			n++;
	printf("TAP version 13\n1..%d\n", n);
	for (name = strtok_r(list, " ", &save); name;
	     name = strtok_r(NULL, " ", &save))
		run_test(++num, name, timeout);
	printf("LTT-SELFTESTS: %d passed, %d failed, %d skipped\n", pass,
	       fail, skip);
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* The trace back to the host: each file as base64 between markers.   */

static void base64_file(const char *path, const char *name)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned char in[57];
	char out[80];
	struct stat st;
	ssize_t n;
	int fd, i, o;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return;
	printf("LTT-FILE %s %lld\n", name, (long long)st.st_size);
	while ((n = read(fd, in, sizeof(in))) > 0) {
		for (i = 0, o = 0; i < n; i += 3) {
			unsigned int v = in[i] << 16;

			if (i + 1 < n)
				v |= in[i + 1] << 8;
			if (i + 2 < n)
				v |= in[i + 2];
			out[o++] = digits[v >> 18 & 63];
			out[o++] = digits[v >> 12 & 63];
			out[o++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
			out[o++] = i + 2 < n ? digits[v & 63] : '=';
		}
		out[o++] = '\n';
		fwrite(out, 1, o, stdout);
	}
	printf("LTT-FILE-END\n");
	close(fd);
}

static int send_dir(const char *dir, const char *prefix)
{
	char path[512], name[512];
	struct dirent *d;
	struct stat st;
	DIR *dp = opendir(dir);
	int files = 0;

	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		snprintf(name, sizeof(name), "%s%s", prefix, d->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			strcat(name, "/");
			files += send_dir(path, name);
		} else if (S_ISREG(st.st_mode)) {
			base64_file(path, name);
			files++;
		}
	}
	closedir(dp);
	return files;
}

static void record_trace(void)
{
	char *argv[] = { "/usr/bin/lttd", "-q", "-o", "/tmp/trace", "--",
			 "/init", "workload", NULL };
	char buf[16];
	const char *arg = cmdline_arg("trace", buf, sizeof(buf));
	int rc, files;

	if ((arg && !strcmp(arg, "0")) || access(argv[0], X_OK))
		return;
	printf("# trace: lttd -o /tmp/trace -- /init workload\n");
	fflush(stdout);
	rc = run(argv, "/", 300);
	/* No kernel message in the middle of the base64 lines. */
	write_file("/proc/sys/kernel/printk", "1");
	printf("LTT-TRACE-BEGIN\n");
	files = send_dir("/tmp/trace", "");
	printf("LTT-TRACE-END lttd=%d files=%d\n", rc, files);
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* The workload lttd records: system calls, faults, processes, files.  */

static int workload(void)
{
	char buf[512];
	struct timeval tv;
	int i, fd, pfd[2];
	char *mem;

	for (i = 0; i < 200; i++)
		syscall(SYS_getppid);
	for (i = 0; i < 20; i++) {
		fd = open("/proc/self/stat", O_RDONLY);
		if (fd >= 0) {
			if (read(fd, buf, sizeof(buf)) < 0)
				return 1;
			close(fd);
		}
	}
	/* Page faults: the trap hooks. */
	mem = mmap(NULL, 64 * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	for (i = 0; i < 64; i++)
		mem[i * 4096] = i;
	munmap(mem, 64 * 4096);
	fd = open("/tmp/workload.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		for (i = 0; i < 10; i++)
			if (write(fd, buf, 100) < 0)
				return 1;
		close(fd);
	}
	unlink("/tmp/workload.txt");
	if (pipe(pfd) == 0) {
		if (write(pfd[1], "x", 1) != 1 || read(pfd[0], buf, 1) != 1)
			return 1;
		close(pfd[0]);
		close(pfd[1]);
	}
	for (i = 0; i < 3; i++) {
		char *argv[] = { "/bin/true", NULL };

		run(argv, NULL, 10);
	}
	for (i = 0; i < 3; i++) {
		tv.tv_sec = 0;
		tv.tv_usec = 10000;
		select(0, NULL, NULL, NULL, &tv);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	struct utsname u;

	base = base ? base + 1 : argv[0];
	if (!strcmp(base, "true"))
		return 0;
	if (argc > 1 && !strcmp(argv[1], "workload"))
		return workload();
	if (argc > 2 && !strcmp(argv[1], "send")) {
		printf("LTT-TRACE-BEGIN\n");
		printf("LTT-TRACE-END files=%d\n", send_dir(argv[2], ""));
		return 0;
	}
	if (getpid() != 1) {
		fprintf(stderr, "usage: run as /init, or: init workload\n");
		return 2;
	}
	mount_all();
	setenv("PATH", "/usr/bin:/bin", 1);
	setenv("HOME", "/root", 1);
	read_file("/proc/cmdline", cmdline, sizeof(cmdline));
	uname(&u);
	printf("LTT-INIT: Linux %s %s, %ld CPUs, selftests\n", u.release,
	       u.machine, sysconf(_SC_NPROCESSORS_ONLN));
	fflush(stdout);
	run_tests();
	record_trace();
	printf("LTT-ARCH-DONE\n");
	fflush(stdout);
	sync();
	sleep(1);
	reboot(RB_POWER_OFF);
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}
