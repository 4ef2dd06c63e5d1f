// SPDX-License-Identifier: GPL-2.0
/*
 * An LTT session's life: its status, start and stop, the end of its fd
 * or of its owner, and the buffer fds it hands out.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ltt_util.h"

FIXTURE(session) {
	struct ltt_session s;
};

FIXTURE_SETUP(session)
{
	ltt_setup(_metadata, &self->s, NULL, false);
}

FIXTURE_TEARDOWN(session)
{
	ltt_session_close(&self->s);
}

/* Online CPUs, as sysfs lists them (or as sysconf counts them). */
static int online_cpus(cpu_set_t *set)
{
	int n, cpu;

	if (ltt_read_cpulist("/sys/devices/system/cpu/online", set) > 0)
		return CPU_COUNT(set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	CPU_ZERO(set);
	for (cpu = 0; cpu < n; cpu++)
		CPU_SET(cpu, set);
	return n;
}

/* A new session is stopped, has its geometry and one buffer per CPU. */
TEST_F(session, status_of_new_session_shows_geometry_and_cpus)
{
	struct ltt_cpu_status *cs = self->s.st;
	struct ltt_status st;
	cpu_set_t online;
	unsigned int i;
	int n_online = online_cpus(&online);

	ASSERT_EQ(0, ltt_session_status(&self->s, &st)) TH_LOG("%s", ltt_err);
	EXPECT_EQ((__u32)LTT_STATE_STOPPED, st.state);
	EXPECT_EQ((__u32)LTT_MODE_DISCARD, st.mode);
	EXPECT_EQ(ltt_create_default.subbuf_size, st.subbuf_size);
	EXPECT_EQ(ltt_create_default.n_subbufs, st.n_subbufs);
	EXPECT_EQ((__u32)n_online, st.n_cpus)
		TH_LOG("one buffer per online CPU");
	for (i = 0; i < st.n_cpus; i++) {
		EXPECT_TRUE(CPU_ISSET(cs[i].cpu, &online))
			TH_LOG("cpu %u is not online", cs[i].cpu);
		if (i)
			EXPECT_LT(cs[i - 1].cpu, cs[i].cpu)
				TH_LOG("entries %u and %u out of order", i - 1, i);
		EXPECT_EQ(0U, cs[i].__reserved);
		EXPECT_EQ(0ULL, cs[i].produced) TH_LOG("cpu %u", cs[i].cpu);
		EXPECT_EQ(0ULL, cs[i].delivered) TH_LOG("cpu %u", cs[i].cpu);
		EXPECT_EQ(0ULL, cs[i].lost) TH_LOG("cpu %u", cs[i].cpu);
	}
}

/* START makes the status RECORDING, STOP makes it STOPPED again. */
TEST_F(session, start_then_stop_shows_recording_then_stopped)
{
	struct ltt_status st;

	ASSERT_EQ(0, ltt_start(self->s.fd)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_session_status(&self->s, &st)) TH_LOG("%s", ltt_err);
	EXPECT_EQ((__u32)LTT_STATE_RECORDING, st.state);

	ASSERT_EQ(0, ltt_stop(self->s.fd)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_session_status(&self->s, &st)) TH_LOG("%s", ltt_err);
	EXPECT_EQ((__u32)LTT_STATE_STOPPED, st.state);

	/* And again: a stopped session can record anew. */
	ASSERT_EQ(0, ltt_start(self->s.fd)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_stop(self->s.fd)) TH_LOG("%s", strerror(errno));
}

/* STATUS reads CLOCK_MONOTONIC (the trace clock) and CLOCK_REALTIME. */
TEST_F(session, status_clocks_match_monotonic_and_realtime)
{
	const __u64 slack = 1000000;	/* 1 ms */
	__u64 mono0, mono1, real0, real1;
	struct ltt_status st;

	mono0 = ltt_now_ns(CLOCK_MONOTONIC);
	real0 = ltt_now_ns(CLOCK_REALTIME);
	ASSERT_EQ(0, ltt_session_status(&self->s, &st)) TH_LOG("%s", ltt_err);
	real1 = ltt_now_ns(CLOCK_REALTIME);
	mono1 = ltt_now_ns(CLOCK_MONOTONIC);

	EXPECT_LE(mono0 - slack, st.mono_ns)
		TH_LOG("mono_ns %llu before CLOCK_MONOTONIC %llu",
		       (unsigned long long)st.mono_ns,
		       (unsigned long long)mono0);
	EXPECT_GE(mono1 + slack, st.mono_ns)
		TH_LOG("mono_ns %llu after CLOCK_MONOTONIC %llu",
		       (unsigned long long)st.mono_ns,
		       (unsigned long long)mono1);
	EXPECT_LE(real0 - slack, st.real_ns)
		TH_LOG("real_ns %llu before CLOCK_REALTIME %llu",
		       (unsigned long long)st.real_ns,
		       (unsigned long long)real0);
	EXPECT_GE(real1 + slack, st.real_ns)
		TH_LOG("real_ns %llu after CLOCK_REALTIME %llu",
		       (unsigned long long)st.real_ns,
		       (unsigned long long)real1);
}

/* Zero sub-buffer size and count pick the documented defaults. */
TEST_F(session, create_with_zero_geometry_picks_defaults)
{
	struct ltt_create c = { 0 };
	struct ltt_status st;
	int fd = ltt(LTT_CMD_CREATE, &c, sizeof(c));

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_status(fd, &st, self->s.st, self->s.n_cpus));
	EXPECT_EQ(LTT_SUBBUF_DEFAULT, st.subbuf_size);
	EXPECT_EQ(LTT_SUBBUFS_DEFAULT, st.n_subbufs);
	close(fd);
}

/* STATUS fills only the room it is given, but counts every CPU. */
TEST_F(session, status_writes_only_the_room_given)
{
	struct ltt_cpu_status two[2];
	struct ltt_status st;

	ASSERT_EQ(0, ltt_status(self->s.fd, &st, NULL, 0))
		TH_LOG("no room: %s", strerror(errno));
	EXPECT_EQ(self->s.n_cpus, st.n_cpus);

	if (self->s.n_cpus < 2)
		SKIP(return, "one CPU: cannot give less room than CPUs");
	memset(two, 0xa5, sizeof(two));
	ASSERT_EQ(0, ltt_status(self->s.fd, &st, two, 1))
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ(self->s.n_cpus, st.n_cpus);
	EXPECT_EQ(self->s.rd[0].cpu, two[0].cpu);
	EXPECT_EQ(0xa5a5a5a5U, two[1].cpu) TH_LOG("wrote past the room");
}

/* Closing the session fd while recording stops it: another may start. */
TEST_F(session, close_while_recording_stops_session)
{
	int other = ltt(LTT_CMD_CREATE, &ltt_create_default,
			sizeof(ltt_create_default));

	ASSERT_LE(0, other) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_start(self->s.fd)) TH_LOG("%s", strerror(errno));
	close(self->s.fd);
	self->s.fd = -1;
	EXPECT_EQ(0, ltt_start(other))
		TH_LOG("after close of the recording session: %s",
		       strerror(errno));
	ltt_stop(other);
	close(other);
}

/* A SIGKILLed owner (a dying daemon) stops its session too. */
TEST_F(session, killed_owner_stops_session)
{
	int p[2], status;
	char ok = 0;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = ltt(LTT_CMD_CREATE, &ltt_create_default,
			     sizeof(ltt_create_default));

		ok = fd >= 0 && !ltt_start(fd);
		if (write(p[1], &ok, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	ASSERT_EQ(1, read(p[0], &ok, 1));
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(ok) TH_LOG("the child could not start a session");
	EXPECT_EQ(0, ltt_start(self->s.fd))
		TH_LOG("after the owner died: %s", strerror(errno));
	ltt_stop(self->s.fd);
}

/* A reader's buffer fd outlives the session fd and drains to ENODATA. */
TEST_F(session, buffer_fd_outlives_session_fd)
{
	struct ltt_trace t = { 0 };
	unsigned int cpu = self->s.rd[0].cpu;
	pid_t me = getpid();
	long i, n;

	ASSERT_EQ(0, ltt_open_readers(&self->s)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_pin_to_cpu(cpu));
	ASSERT_EQ(0, ltt_set_pids(self->s.fd, &me, 1));
	ASSERT_EQ(0, ltt_start(self->s.fd)) TH_LOG("%s", strerror(errno));
	for (i = 0; i < 10; i++)
		syscall(__NR_getppid);
	close(self->s.fd);
	self->s.fd = -1;

	ASSERT_EQ(0, ltt_read_stopped(&self->s, &t)) TH_LOG("%s", ltt_err);
	n = ltt_syscall_returns(&self->s.reg, &t, cpu, __NR_getppid, NULL, 0);
	ASSERT_LE(0, n) TH_LOG("%s", ltt_err);
	EXPECT_EQ(10, n) TH_LOG("getppid() calls made before the close");
	ltt_trace_free(&t);
}

/* LTT_BUF_INFO describes the buffer as the session made it. */
TEST_F(session, buffer_info_matches_session)
{
	struct ltt_buffer_info bi;
	unsigned int i;
	int fd;

	for (i = 0; i < self->s.n_cpus; i++) {
		fd = ltt_buffer_fd(self->s.fd, self->s.rd[i].cpu);
		ASSERT_LE(0, fd) TH_LOG("cpu %u: %s", self->s.rd[i].cpu,
					strerror(errno));
		memset(&bi, 0xa5, sizeof(bi));
		ASSERT_EQ(0, ioctl(fd, LTT_BUF_INFO, &bi))
			TH_LOG("%s", strerror(errno));
		EXPECT_EQ(self->s.rd[i].cpu, bi.cpu);
		EXPECT_EQ(self->s.subbuf_size, bi.subbuf_size);
		EXPECT_EQ(self->s.n_subbufs, bi.n_subbufs);
		EXPECT_EQ(0U, bi.__reserved);
		EXPECT_EQ((__u64)self->s.subbuf_size * self->s.n_subbufs,
			  bi.mmap_size);
		close(fd);
	}
}

/* The buffer maps read-only: no writable mapping, shared or private. */
TEST_F(session, buffer_mmap_is_read_only)
{
	size_t size = (size_t)self->s.subbuf_size * self->s.n_subbufs;
	int fd = ltt_buffer_fd(self->s.fd, self->s.rd[0].cpu);
	void *map;

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));

	errno = 0;
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT_EQ(MAP_FAILED, map) TH_LOG("writable shared mapping");
	EXPECT_TRUE(errno == EACCES || errno == EPERM)
		TH_LOG("shared: %s", strerror(errno));

	errno = 0;
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	EXPECT_EQ(MAP_FAILED, map) TH_LOG("writable private mapping");
	EXPECT_TRUE(errno == EACCES || errno == EPERM)
		TH_LOG("private: %s", strerror(errno));

	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, map) TH_LOG("%s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, mprotect(map, size, PROT_READ | PROT_WRITE))
		TH_LOG("the read-only mapping became writable");
	EXPECT_EQ(EACCES, errno);
	munmap(map, size);
	close(fd);
}

/* Session and buffer fds are close-on-exec. */
TEST_F(session, session_and_buffer_fds_are_cloexec)
{
	int fd = ltt_buffer_fd(self->s.fd, self->s.rd[0].cpu);

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	EXPECT_TRUE(fcntl(self->s.fd, F_GETFD) & FD_CLOEXEC)
		TH_LOG("session fd");
	EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC) TH_LOG("buffer fd");
	close(fd);
}

/* Once stopped and read to the end, poll reports POLLHUP, not POLLIN. */
TEST_F(session, poll_after_stop_and_drain_reports_hup)
{
	struct pollfd pfd;

	ASSERT_EQ(0, ltt_open_readers(&self->s)) TH_LOG("%s", ltt_err);
	ASSERT_EQ(0, ltt_start(self->s.fd)) TH_LOG("%s", strerror(errno));
	syscall(__NR_getppid);
	ASSERT_EQ(0, ltt_stop(self->s.fd)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_read_stopped(&self->s, NULL)) TH_LOG("%s", ltt_err);

	pfd.fd = self->s.rd[0].fd;
	pfd.events = POLLIN;
	ASSERT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLHUP, pfd.revents & (POLLIN | POLLHUP))
		TH_LOG("revents %#x", pfd.revents);
}

TEST_HARNESS_MAIN
