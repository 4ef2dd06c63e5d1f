// SPDX-License-Identifier: GPL-2.0
/*
 * The ltt() syscall refuses what it must: unknown commands, bad sizes,
 * flags and pointers, impossible buffers, misused fds, the unprivileged.
 * Each error has its errno, as include/uapi/linux/ltt.h says.
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ltt_util.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

FIXTURE(abi) {
	struct ltt_session s;
};

FIXTURE_SETUP(abi)
{
	ltt_setup(_metadata, &self->s, NULL, false);
}

FIXTURE_TEARDOWN(abi)
{
	ltt_session_close(&self->s);
}

/* Any command's argument, with room for a tail past the struct. */
union ltt_arg {
	struct ltt_create create;
	struct ltt_events events;
	struct ltt_pids pids;
	struct ltt_session_cmd session;
	struct ltt_status status;
	struct ltt_buffer_req buffer;
	struct ltt_cgroups cgroups;
	struct ltt_event_info info;
	unsigned char bytes[512];
};

static __u64 all_events[LTT_EVENTS_MAX / 64];
static struct ltt_cpu_status cpus[CPU_SETSIZE];

/*
 * Fill @a with a valid argument of @cmd for session @s; returns the
 * command's VER0 size, 0 for a command this test does not know.
 */
static size_t make_arg(struct ltt_session *s, unsigned int cmd,
		       union ltt_arg *a)
{
	unsigned int id;

	memset(a, 0, sizeof(*a));
	memset(all_events, 0, sizeof(all_events));
	for (id = 0; id < s->reg.n_events; id++)
		all_events[id / 64] |= 1ULL << (id % 64);

	switch (cmd) {
	case LTT_CMD_CREATE:
		a->create = ltt_create_default;
		return LTT_CREATE_SIZE_VER0;
	case LTT_CMD_SET_EVENTS:
		a->events.session_fd = s->fd;
		a->events.nbits = s->reg.n_events;
		a->events.mask = (uintptr_t)all_events;
		return LTT_EVENTS_SIZE_VER0;
	case LTT_CMD_SET_PIDS:
		a->pids.session_fd = s->fd;
		return LTT_PIDS_SIZE_VER0;
	case LTT_CMD_SET_CGROUPS:
		a->cgroups.session_fd = s->fd;
		return LTT_CGROUPS_SIZE_VER0;
	case LTT_CMD_START:
	case LTT_CMD_STOP:
	case LTT_CMD_SNAPSHOT:
		a->session.session_fd = s->fd;
		return LTT_SESSION_CMD_SIZE_VER0;
	case LTT_CMD_STATUS:
		a->status.session_fd = s->fd;
		a->status.n_cpus = CPU_SETSIZE;
		a->status.cpus = (uintptr_t)cpus;
		return LTT_STATUS_SIZE_VER0;
	case LTT_CMD_BUFFER_FD:
		a->buffer.session_fd = s->fd;
		a->buffer.cpu = s->rd[0].cpu;
		return LTT_BUFFER_REQ_SIZE_VER0;
	case LTT_CMD_EVENT_INFO:
		return LTT_EVENT_INFO_SIZE_VER0;
	}
	return 0;
}

/* A new session with @c, or -1 and errno. */
static int create(const struct ltt_create *c)
{
	return ltt(LTT_CMD_CREATE, c, sizeof(*c));
}

/* Commands past the last one are EINVAL. */
TEST_F(abi, unknown_command_fails_einval)
{
	static const unsigned int bad[] = {
		LTT_CMD_MAX, LTT_CMD_MAX + 1, 0x7fffffff, 0xffffffff,
	};
	union ltt_arg a = { 0 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		EXPECT_EQ(-1, ltt(bad[i], &a, LTT_SESSION_CMD_SIZE_VER0))
			TH_LOG("command %#x was accepted", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("command %#x", bad[i]);
	}
}

/* A size below the first published version is EINVAL, for every command. */
TEST_F(abi, undersized_struct_fails_einval)
{
	union ltt_arg a;
	unsigned int cmd;

	for (cmd = 0; cmd < LTT_CMD_MAX; cmd++) {
		size_t ver0 = make_arg(&self->s, cmd, &a);
		size_t sizes[] = { 0, 1, ver0 - 1 };
		unsigned int i;

		if (!ver0)
			continue;
		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			errno = 0;
			EXPECT_EQ(-1, ltt(cmd, &a, sizes[i]))
				TH_LOG("command %u accepted size %zu < %zu",
				       cmd, sizes[i], ver0);
			EXPECT_EQ(EINVAL, errno)
				TH_LOG("command %u size %zu", cmd, sizes[i]);
		}
	}
}

/* The size of @cmd's struct in this ABI: EVENT_INFO grew after VER0. */
static size_t known_size(unsigned int cmd, size_t ver0)
{
	return cmd == LTT_CMD_EVENT_INFO ? LTT_EVENT_INFO_SIZE_VER1 : ver0;
}

/* A struct longer than the kernel's with a nonzero tail is E2BIG. */
TEST_F(abi, oversized_struct_with_nonzero_tail_fails_e2big)
{
	union ltt_arg a;
	unsigned int cmd;

	for (cmd = 0; cmd < LTT_CMD_MAX; cmd++) {
		size_t ver0 = make_arg(&self->s, cmd, &a);
		size_t size = known_size(cmd, ver0);

		if (!ver0)
			continue;
		a.bytes[size + 7] = 1;
		errno = 0;
		EXPECT_EQ(-1, ltt(cmd, &a, size + 8))
			TH_LOG("command %u took a tail of garbage", cmd);
		EXPECT_EQ(E2BIG, errno) TH_LOG("command %u", cmd);
	}
}

/* ... and with a zero tail it works as if the tail were not there. */
TEST_F(abi, oversized_struct_with_zero_tail_is_accepted)
{
	union ltt_arg a;
	unsigned int cmd;
	int ret;

	/* In command order: START comes before STOP, as it must. */
	for (cmd = 0; cmd < LTT_CMD_MAX; cmd++) {
		size_t ver0 = make_arg(&self->s, cmd, &a);

		if (!ver0 || cmd == LTT_CMD_SNAPSHOT)
			continue;
		ret = ltt(cmd, &a, known_size(cmd, ver0) + 64);
		EXPECT_LE(0, ret) TH_LOG("command %u with a zero tail: %s",
					 cmd, strerror(errno));
		if (ret > 0)
			close(ret);
	}
}

/* An argument pointer that faults is EFAULT, for every command. */
TEST_F(abi, bad_arg_pointer_fails_efault)
{
	void *bad = ltt_unmapped_page();
	union ltt_arg a;
	unsigned int cmd;

	ASSERT_NE(MAP_FAILED, bad);
	for (cmd = 0; cmd < LTT_CMD_MAX; cmd++) {
		size_t ver0 = make_arg(&self->s, cmd, &a);

		if (!ver0)
			continue;
		errno = 0;
		EXPECT_EQ(-1, ltt(cmd, bad, ver0)) TH_LOG("command %u", cmd);
		EXPECT_EQ(EFAULT, errno) TH_LOG("command %u, unmapped arg", cmd);
		errno = 0;
		EXPECT_EQ(-1, ltt(cmd, NULL, ver0)) TH_LOG("command %u", cmd);
		EXPECT_EQ(EFAULT, errno) TH_LOG("command %u, NULL arg", cmd);
	}
}

/* The user pointers inside SET_EVENTS, SET_PIDS and STATUS are checked. */
TEST_F(abi, bad_pointer_inside_struct_fails_efault)
{
	void *bad = ltt_unmapped_page();
	union ltt_arg a;

	ASSERT_NE(MAP_FAILED, bad);

	make_arg(&self->s, LTT_CMD_SET_EVENTS, &a);
	a.events.mask = (uintptr_t)bad;
	errno = 0;
	EXPECT_EQ(-1, ltt(LTT_CMD_SET_EVENTS, &a, sizeof(a.events)));
	EXPECT_EQ(EFAULT, errno) TH_LOG("SET_EVENTS with a bad mask");

	make_arg(&self->s, LTT_CMD_SET_PIDS, &a);
	a.pids.count = 1;
	a.pids.pids = (uintptr_t)bad;
	errno = 0;
	EXPECT_EQ(-1, ltt(LTT_CMD_SET_PIDS, &a, sizeof(a.pids)));
	EXPECT_EQ(EFAULT, errno) TH_LOG("SET_PIDS with bad pids");

	make_arg(&self->s, LTT_CMD_STATUS, &a);
	a.status.cpus = (uintptr_t)bad;
	errno = 0;
	EXPECT_EQ(-1, ltt(LTT_CMD_STATUS, &a, sizeof(a.status)));
	EXPECT_EQ(EFAULT, errno) TH_LOG("STATUS with a bad cpus array");
}

/* EVENT_INFO writes its answer back: a read-only argument is EFAULT. */
TEST_F(abi, event_info_into_read_only_memory_fails_efault)
{
	struct ltt_event_info *ei;

	ei = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ei);
	errno = 0;
	EXPECT_EQ(-1, ltt(LTT_CMD_EVENT_INFO, ei, sizeof(*ei)));
	EXPECT_EQ(EFAULT, errno);
	munmap(ei, 4096);
}

/* CREATE with nonzero flags or __reserved is EINVAL. */
TEST_F(abi, create_nonzero_flags_or_reserved_fails_einval)
{
	struct ltt_create c = ltt_create_default;

	c.flags = 1;
	errno = 0;
	EXPECT_EQ(-1, create(&c)) TH_LOG("flags 1 accepted");
	EXPECT_EQ(EINVAL, errno);

	c.flags = 0x80000000;
	errno = 0;
	EXPECT_EQ(-1, create(&c)) TH_LOG("flags 0x80000000 accepted");
	EXPECT_EQ(EINVAL, errno);

	c.flags = 0;
	c.__reserved = 1;
	errno = 0;
	EXPECT_EQ(-1, create(&c)) TH_LOG("__reserved 1 accepted");
	EXPECT_EQ(EINVAL, errno);
}

/* START, STOP and SNAPSHOT with nonzero flags are EINVAL, and do nothing. */
TEST_F(abi, session_cmd_nonzero_flags_fails_einval)
{
	static const unsigned int cmds[] = {
		LTT_CMD_START, LTT_CMD_STOP, LTT_CMD_SNAPSHOT,
	};
	struct ltt_session_cmd c = { .session_fd = self->s.fd, .flags = 1 };
	struct ltt_status st;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		errno = 0;
		EXPECT_EQ(-1, ltt(cmds[i], &c, sizeof(c)))
			TH_LOG("command %u with flags 1 accepted", cmds[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("command %u", cmds[i]);
	}
	ASSERT_EQ(0, ltt_status(self->s.fd, &st, cpus, CPU_SETSIZE));
	EXPECT_EQ((__u32)LTT_STATE_STOPPED, st.state)
		TH_LOG("START with bad flags started the session");
}

/* SET_PIDS with nonzero flags or __reserved is EINVAL. */
TEST_F(abi, set_pids_nonzero_flags_or_reserved_fails_einval)
{
	struct ltt_pids p = { .session_fd = self->s.fd, .flags = 1 };

	errno = 0;
	EXPECT_EQ(-1, ltt(LTT_CMD_SET_PIDS, &p, sizeof(p)));
	EXPECT_EQ(EINVAL, errno) TH_LOG("flags 1");

	p.flags = 0;
	p.__reserved = 1;
	errno = 0;
	EXPECT_EQ(-1, ltt(LTT_CMD_SET_PIDS, &p, sizeof(p)));
	EXPECT_EQ(EINVAL, errno) TH_LOG("__reserved 1");
}

/* subbuf_size: a power of two from LTT_SUBBUF_MIN to LTT_SUBBUF_MAX. */
TEST_F(abi, create_bad_subbuf_size_fails_einval)
{
	static const __u32 bad[] = {
		1, 2048, LTT_SUBBUF_MIN - 1, LTT_SUBBUF_MIN + 1, 5000, 12288,
		LTT_SUBBUF_MAX * 2, LTT_SUBBUF_MAX + 4096, 0x80000000,
		0xffffffff,
	};
	struct ltt_create c = ltt_create_default;
	unsigned int i;

	c.n_subbufs = 2;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		c.subbuf_size = bad[i];
		errno = 0;
		EXPECT_EQ(-1, create(&c))
			TH_LOG("subbuf_size %u accepted", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("subbuf_size %u", bad[i]);
	}
}

/* n_subbufs: a power of two from 2 to LTT_SUBBUFS_MAX. */
TEST_F(abi, create_bad_n_subbufs_fails_einval)
{
	static const __u32 bad[] = {
		1, 3, 6, LTT_SUBBUFS_MAX + 1, LTT_SUBBUFS_MAX * 2,
		0x80000000, 0xffffffff,
	};
	struct ltt_create c = ltt_create_default;
	unsigned int i;

	c.subbuf_size = LTT_SUBBUF_MIN;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		c.n_subbufs = bad[i];
		errno = 0;
		EXPECT_EQ(-1, create(&c))
			TH_LOG("n_subbufs %u accepted", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("n_subbufs %u", bad[i]);
	}
}

/* Sizes each allowed alone but over LTT_BUFFER_MAX per CPU are EINVAL. */
TEST_F(abi, create_buffer_over_max_per_cpu_fails_einval)
{
	static const struct { __u32 size, n; } bad[] = {
		{ LTT_SUBBUF_MAX, 32 },
		{ LTT_SUBBUF_MAX, LTT_SUBBUFS_MAX },
		{ 1U << 20, 512 },
	};
	struct ltt_create c = ltt_create_default;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		c.subbuf_size = bad[i].size;
		c.n_subbufs = bad[i].n;
		errno = 0;
		EXPECT_EQ(-1, create(&c))
			TH_LOG("%u x %u bytes per CPU accepted",
			       bad[i].n, bad[i].size);
		EXPECT_EQ(EINVAL, errno)
			TH_LOG("%u x %u bytes", bad[i].n, bad[i].size);
	}
}

/* mode must be an enum ltt_mode, flush_ms at most 10000. */
TEST_F(abi, create_bad_mode_or_flush_ms_fails_einval)
{
	struct ltt_create c = ltt_create_default;

	c.mode = LTT_MODE_MAX;
	errno = 0;
	EXPECT_EQ(-1, create(&c)) TH_LOG("mode LTT_MODE_MAX accepted");
	EXPECT_EQ(EINVAL, errno);

	c.mode = 0xffffffff;
	errno = 0;
	EXPECT_EQ(-1, create(&c)) TH_LOG("mode 0xffffffff accepted");
	EXPECT_EQ(EINVAL, errno);

	c.mode = LTT_MODE_DISCARD;
	c.flush_ms = 10001;
	errno = 0;
	EXPECT_EQ(-1, create(&c)) TH_LOG("flush_ms 10001 accepted");
	EXPECT_EQ(EINVAL, errno);

	c.flush_ms = 0xffffffff;
	errno = 0;
	EXPECT_EQ(-1, create(&c)) TH_LOG("flush_ms 0xffffffff accepted");
	EXPECT_EQ(EINVAL, errno);
}

/* The limits themselves are accepted (the small ones: memory is short). */
TEST_F(abi, create_limits_are_accepted)
{
	static const struct ltt_create ok[] = {
		{ .subbuf_size = LTT_SUBBUF_MIN, .n_subbufs = 2 },
		{ .subbuf_size = LTT_SUBBUF_MIN, .n_subbufs = LTT_SUBBUFS_MAX },
		{ .subbuf_size = LTT_SUBBUF_MAX, .n_subbufs = 2 },
		{ .subbuf_size = LTT_SUBBUF_MIN, .n_subbufs = 2,
		  .mode = LTT_MODE_OVERWRITE, .flush_ms = 1 },
		{ .subbuf_size = LTT_SUBBUF_MIN, .n_subbufs = 2,
		  .flush_ms = 10000 },
	};
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		fd = create(&ok[i]);
		EXPECT_LE(0, fd)
			TH_LOG("%u x %u bytes, mode %u, flush_ms %u: %s",
			       ok[i].n_subbufs, ok[i].subbuf_size, ok[i].mode,
			       ok[i].flush_ms, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

/* MemTotal from /proc/meminfo, in bytes, or 0. */
static unsigned long long mem_total(void)
{
	unsigned long long kb = 0;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

/* A buffer allowed by the limits but larger than memory is ENOMEM. */
TEST_F(abi, create_buffer_larger_than_memory_fails_enomem)
{
	struct ltt_create c = {
		.subbuf_size = LTT_SUBBUF_MAX,
		.n_subbufs = LTT_BUFFER_MAX / LTT_SUBBUF_MAX,
	};
	unsigned long long mem = mem_total();
	int fd;

	/*
	 * Only where one CPU's buffer exceeds all memory: an allocation
	 * that merely finds memory short would wake the OOM killer.
	 */
	if (!mem || mem >= LTT_BUFFER_MAX)
		SKIP(return, "%llu MiB of memory: a %llu MiB buffer might be had",
		     mem >> 20, LTT_BUFFER_MAX >> 20);
	errno = 0;
	fd = create(&c);
	EXPECT_EQ(-1, fd) TH_LOG("%llu MiB per CPU with %llu MiB of memory",
				 LTT_BUFFER_MAX >> 20, mem >> 20);
	EXPECT_EQ(ENOMEM, errno);
	if (fd >= 0)
		close(fd);
}

/* SET_EVENTS with more than LTT_EVENTS_MAX bits is EINVAL. */
TEST_F(abi, set_events_nbits_over_max_fails_einval)
{
	static __u64 mask[LTT_EVENTS_MAX / 64 + 1];

	errno = 0;
	EXPECT_EQ(-1, ltt_set_mask(self->s.fd, mask, LTT_EVENTS_MAX + 1));
	EXPECT_EQ(EINVAL, errno);
}

/* SET_PIDS with more than LTT_PIDS_MAX pids is EINVAL. */
TEST_F(abi, set_pids_count_over_max_fails_einval)
{
	pid_t pids[LTT_PIDS_MAX + 1];
	unsigned int i;

	for (i = 0; i <= LTT_PIDS_MAX; i++)
		pids[i] = getpid();
	errno = 0;
	EXPECT_EQ(-1, ltt_set_pids(self->s.fd, pids, LTT_PIDS_MAX + 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, ltt_set_pids(self->s.fd, pids, LTT_PIDS_MAX))
		TH_LOG("LTT_PIDS_MAX pids refused: %s", strerror(errno));
}

/* A recording session cannot be started again: EBUSY. */
TEST_F(abi, start_twice_fails_ebusy)
{
	ASSERT_EQ(0, ltt_start(self->s.fd)) TH_LOG("%s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, ltt_start(self->s.fd));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(0, ltt_stop(self->s.fd)) TH_LOG("%s", strerror(errno));
}

/* Sessions record side by side: START of another one succeeds. */
TEST_F(abi, start_while_another_session_records_succeeds)
{
	int other = create(&ltt_create_default);

	ASSERT_LE(0, other) TH_LOG("second session: %s", strerror(errno));
	ASSERT_EQ(0, ltt_start(self->s.fd)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, ltt_start(other))
		TH_LOG("beside a recording session: %s", strerror(errno));
	EXPECT_EQ(0, ltt_stop(self->s.fd)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, ltt_stop(other)) TH_LOG("%s", strerror(errno));
	close(other);
}

/* STOP of a session that is not recording is EINVAL, also a second STOP. */
TEST_F(abi, stop_without_start_fails_einval)
{
	errno = 0;
	EXPECT_EQ(-1, ltt_stop(self->s.fd));
	EXPECT_EQ(EINVAL, errno) TH_LOG("STOP of a new session");

	ASSERT_EQ(0, ltt_start(self->s.fd)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_stop(self->s.fd)) TH_LOG("%s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, ltt_stop(self->s.fd));
	EXPECT_EQ(EINVAL, errno) TH_LOG("second STOP");
}

/* A buffer of a CPU number past nr_cpu_ids is EINVAL. */
TEST_F(abi, buffer_fd_cpu_past_nr_cpu_ids_fails_einval)
{
	cpu_set_t possible;
	int nr_cpu_ids = ltt_read_cpulist("/sys/devices/system/cpu/possible",
					  &possible);
	__u32 bad[3];
	unsigned int i, n = 0;

	bad[n++] = 0xffffffff;
	if (nr_cpu_ids > 0) {
		bad[n++] = nr_cpu_ids;
		if (nr_cpu_ids <= 4095)
			bad[n++] = 4095;
	} else {
		TH_LOG("no /sys/devices/system/cpu/possible: only cpu 0xffffffff");
	}
	for (i = 0; i < n; i++) {
		errno = 0;
		EXPECT_EQ(-1, ltt_buffer_fd(self->s.fd, bad[i]))
			TH_LOG("cpu %u of %d", bad[i], nr_cpu_ids);
		EXPECT_EQ(EINVAL, errno)
			TH_LOG("cpu %u, nr_cpu_ids %d", bad[i], nr_cpu_ids);
	}
}

/*
 * A possible CPU that is offline when the session is made has a buffer
 * too, and STATUS counts it: it records once it comes online.
 */
TEST_F(abi, offline_cpu_at_create_has_a_buffer)
{
	int nr_cpu_ids, cpu, fd, buf, err, top = -1;
	cpu_set_t possible, online;
	struct ltt_status st;

	nr_cpu_ids = ltt_read_cpulist("/sys/devices/system/cpu/possible",
				      &possible);
	if (nr_cpu_ids < 0 ||
	    ltt_read_cpulist("/sys/devices/system/cpu/online", &online) < 0)
		SKIP(return, "no CPU lists in /sys/devices/system/cpu");
	for (cpu = 1; cpu < nr_cpu_ids; cpu++)
		if (CPU_ISSET(cpu, &online))
			top = cpu;
	if (top < 0 || ltt_set_cpu_online(top, false))
		SKIP(return, "no CPU can go offline");
	fd = create(&ltt_create_default);
	err = errno;
	buf = -1;
	st.n_cpus = 0;
	if (fd >= 0) {
		buf = ltt_buffer_fd(fd, top);
		if (buf < 0)
			err = errno;
		if (ltt_status(fd, &st, cpus, CPU_SETSIZE))
			st.n_cpus = 0;
	}
	ASSERT_EQ(0, ltt_set_cpu_online(top, true))
		TH_LOG("cpu %d did not come back online", top);
	ASSERT_LE(0, fd) TH_LOG("session with cpu %d offline: %s",
				top, strerror(err));
	EXPECT_LE(0, buf) TH_LOG("cpu %d, offline at CREATE: %s", top,
				 strerror(err));
	EXPECT_EQ(self->s.n_cpus, st.n_cpus)
		TH_LOG("STATUS leaves out the offline cpu %d", top);
	if (buf >= 0)
		close(buf);
	close(fd);
}

/* One reader per buffer: a second fd on the same CPU is EBUSY. */
TEST_F(abi, second_buffer_fd_on_same_cpu_fails_ebusy)
{
	unsigned int cpu = self->s.rd[0].cpu;
	int fd = ltt_buffer_fd(self->s.fd, cpu);

	ASSERT_LE(0, fd) TH_LOG("cpu %u: %s", cpu, strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, ltt_buffer_fd(self->s.fd, cpu));
	EXPECT_EQ(EBUSY, errno);
	close(fd);

	fd = ltt_buffer_fd(self->s.fd, cpu);
	EXPECT_LE(0, fd) TH_LOG("after the first reader closed: %s",
				strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* A pipe, or a buffer fd, passed as a session fd is EINVAL. */
TEST_F(abi, non_session_fd_fails_einval)
{
	int p[2], buf;

	ASSERT_EQ(0, pipe(p));
	errno = 0;
	EXPECT_EQ(-1, ltt_start(p[0]));
	EXPECT_EQ(EINVAL, errno) TH_LOG("a pipe");
	close(p[0]);
	close(p[1]);

	buf = ltt_buffer_fd(self->s.fd, self->s.rd[0].cpu);
	ASSERT_LE(0, buf) TH_LOG("%s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, ltt_start(buf));
	EXPECT_EQ(EINVAL, errno) TH_LOG("a buffer fd");
	close(buf);
}

/* A closed or negative session fd is EBADF, for every session command. */
TEST_F(abi, closed_session_fd_fails_ebadf)
{
	int closed = dup(self->s.fd);
	int bad[] = { closed, -1 };
	union ltt_arg a;
	unsigned int cmd, i;

	ASSERT_LE(0, closed);
	close(closed);
	for (cmd = 0; cmd < LTT_CMD_MAX; cmd++) {
		size_t ver0 = make_arg(&self->s, cmd, &a);

		if (!ver0 || cmd == LTT_CMD_CREATE ||
		    cmd == LTT_CMD_EVENT_INFO)
			continue;
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			/* session_fd is the first field of each struct */
			memcpy(&a, &bad[i], sizeof(bad[i]));
			errno = 0;
			EXPECT_EQ(-1, ltt(cmd, &a, ver0))
				TH_LOG("command %u, fd %d", cmd, bad[i]);
			EXPECT_EQ(EBADF, errno)
				TH_LOG("command %u, fd %d", cmd, bad[i]);
		}
	}
}

/* Event ids run from 0 with no hole: past the last one is ENOENT. */
TEST_F(abi, event_info_past_last_id_fails_enoent)
{
	struct ltt_event_info ei = { .id = self->s.reg.n_events };

	errno = 0;
	EXPECT_EQ(-1, ltt(LTT_CMD_EVENT_INFO, &ei, sizeof(ei)));
	EXPECT_EQ(ENOENT, errno) TH_LOG("id %u", self->s.reg.n_events);

	ei.id = 0xffffffff;
	errno = 0;
	EXPECT_EQ(-1, ltt(LTT_CMD_EVENT_INFO, &ei, sizeof(ei)));
	EXPECT_EQ(ENOENT, errno) TH_LOG("id 0xffffffff");
}

/*
 * The first events are ABI: ids, names and fields as in ltt-events.h.
 * An address or a system call's return is the kernel's word, the size
 * of this (native) program's long: 4 bytes on a 32-bit machine.
 */
TEST_F(abi, event_info_describes_the_registry)
{
	const unsigned int w = sizeof(long);
	char entry[32], exit_ret[32];
	const struct {
		const char *name;
		unsigned int payload_size;
		const char *fields;	/* "name:type:size ..." */
	} want[] = {
		{ "syscall_entry", 2 + w, entry },
		{ "syscall_exit", w, exit_ret },
		{ "sched_change", 10, "in:s:4 out:s:4 out_state:u:2" },
		{ "process_fork", 8, "child:s:4 child_tgid:s:4" },
		{ "process_exit", 8, "pid:s:4 code:s:4" },
		{ "process_exec", 4, "pid:s:4 filename:z:0" },
	};
	static const char type_char[] = "usz";
	const struct ltt_registry *reg = &self->s.reg;
	unsigned int id, i;

	snprintf(entry, sizeof(entry), "id:u:2 ip:u:%u", w);
	snprintf(exit_ret, sizeof(exit_ret), "ret:s:%u", w);
	ASSERT_LE(ARRAY_SIZE(want), reg->n_events);
	for (id = 0; id < ARRAY_SIZE(want); id++) {
		const struct ltt_event_info *ei = &reg->ev[id];
		char got[256] = "";
		size_t len = 0;

		for (i = 0; i < ei->n_fields; i++) {
			const struct ltt_field_info *f = &ei->fields[i];

			len += snprintf(got + len, sizeof(got) - len,
					"%s%s:%c:%u", i ? " " : "", f->name,
					f->type < 3 ? type_char[f->type] : '?',
					f->size);
		}
		EXPECT_STREQ(want[id].name, ei->name) TH_LOG("id %u", id);
		EXPECT_EQ(want[id].payload_size, ei->payload_size)
			TH_LOG("%s", ei->name);
		EXPECT_STREQ(want[id].fields, got) TH_LOG("%s", ei->name);
	}
	/* Names are unique: tools look events up by name. */
	for (id = 0; id < reg->n_events; id++)
		EXPECT_EQ((int)id, ltt_event_id(reg, reg->ev[id].name))
			TH_LOG("two events named %s", reg->ev[id].name);
}

/* SNAPSHOT is for overwrite mode: on a discard session it is EINVAL. */
TEST_F(abi, snapshot_on_discard_session_fails_einval)
{
	ASSERT_EQ((__u32)LTT_MODE_DISCARD, self->s.mode);
	ASSERT_EQ(0, ltt_start(self->s.fd)) TH_LOG("%s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, ltt_snapshot(self->s.fd)) TH_LOG("while recording");
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, ltt_stop(self->s.fd)) TH_LOG("%s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, ltt_snapshot(self->s.fd)) TH_LOG("when stopped");
	EXPECT_EQ(EINVAL, errno);
}

/* PUT_SUBBUF without a packet taken is EINVAL. */
TEST_F(abi, put_subbuf_without_get_fails_einval)
{
	int fd = ltt_buffer_fd(self->s.fd, self->s.rd[0].cpu);

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, LTT_BUF_PUT_SUBBUF, 0));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* An ioctl the buffer fd does not know is ENOTTY. */
TEST_F(abi, unknown_buffer_ioctl_fails_enotty)
{
	int fd = ltt_buffer_fd(self->s.fd, self->s.rd[0].cpu);
	__u64 arg = 0;

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, _IOR(LTT_IOC_MAGIC, 0x7f, __u64), &arg));
	EXPECT_EQ(ENOTTY, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, _IO('T', 1), 0));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);
}

/*
 * The buffer ioctls are LTT's own, 0xB9 as ioctl-number.rst registers:
 * a program that sends them to the wrong fd gets ENOTTY.  On 0xB7,
 * nsfs's NSIO, PUT_SUBBUF was NS_GET_PARENT: a namespace fd answered it
 * (EPERM at the top, a parent's fd below).
 */
TEST(buffer_ioctls_are_not_another_drivers)
{
	static const unsigned long cmds[] = {
		LTT_BUF_GET_SUBBUF, LTT_BUF_PUT_SUBBUF, LTT_BUF_INFO,
		LTT_BUF_SNAPSHOT, LTT_BUF_SNAPSHOT_READ,
	};
	static const char *const ns[] = { "/proc/self/ns/pid", "/proc/self/ns/user" };
	unsigned char arg[256] = { 0 };
	unsigned int i, j;

	EXPECT_EQ(0xB9, _IOC_TYPE(LTT_BUF_GET_SUBBUF));
	for (j = 0; j < 2; j++) {
		int fd = open(ns[j], O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			SKIP(return, "%s: %s (CONFIG_NAMESPACES?)", ns[j],
			     strerror(errno));
		for (i = 0; i < ARRAY_SIZE(cmds); i++) {
			errno = 0;
			EXPECT_EQ(-1, ioctl(fd, cmds[i], arg))
				TH_LOG("ioctl %#lx on %s", cmds[i], ns[j]);
			EXPECT_EQ(ENOTTY, errno)
				TH_LOG("ioctl %#lx on %s: %s", cmds[i], ns[j],
				       strerror(errno));
		}
		close(fd);
	}
}

#define NOBODY		65534
#define CHILD_NO_SETUID	255	/* could not become nobody */

/*
 * In a child: become nobody keeping only the capabilities in @keep, then
 * LTT_CMD_CREATE.  Returns 0 when it succeeded, else its errno, or
 * CHILD_NO_SETUID.
 */
static int create_as_nobody(__u64 keep)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return CHILD_NO_SETUID;
	if (!pid) {
		struct __user_cap_header_struct hdr = {
			.version = _LINUX_CAPABILITY_VERSION_3,
		};
		struct __user_cap_data_struct data[2] = { { 0 } };

		if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) ||
		    setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(CHILD_NO_SETUID);
		data[0].effective = keep;
		data[0].permitted = keep;
		data[1].effective = keep >> 32;
		data[1].permitted = keep >> 32;
		if (syscall(SYS_capset, &hdr, data))
			_exit(CHILD_NO_SETUID);
		if (ltt(LTT_CMD_CREATE, &ltt_create_default,
			sizeof(ltt_create_default)) < 0)
			_exit(errno);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return CHILD_NO_SETUID;
	return WEXITSTATUS(status);
}

/* An unprivileged user (nobody, no capabilities) gets EPERM. */
TEST_F(abi, create_without_capabilities_fails_eperm)
{
	int err = create_as_nobody(0);

	if (err == CHILD_NO_SETUID)
		SKIP(return, "cannot become nobody (CONFIG_MULTIUSER?)");
	EXPECT_EQ(EPERM, err) TH_LOG("CREATE as nobody: %s", strerror(err));
}

/* CAP_PERFMON alone is enough to create a session. */
TEST_F(abi, create_with_only_cap_perfmon_succeeds)
{
	int err = create_as_nobody(1ULL << CAP_PERFMON);

	if (err == CHILD_NO_SETUID)
		SKIP(return, "cannot become nobody with CAP_PERFMON");
	EXPECT_EQ(0, err) TH_LOG("CREATE with CAP_PERFMON: %s", strerror(err));
}

/* CAP_SYS_ADMIN alone is enough to create a session. */
TEST_F(abi, create_with_only_cap_sys_admin_succeeds)
{
	int err = create_as_nobody(1ULL << CAP_SYS_ADMIN);

	if (err == CHILD_NO_SETUID)
		SKIP(return, "cannot become nobody with CAP_SYS_ADMIN");
	EXPECT_EQ(0, err) TH_LOG("CREATE with CAP_SYS_ADMIN: %s",
				 strerror(err));
}

TEST_HARNESS_MAIN
