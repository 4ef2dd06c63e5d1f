// SPDX-License-Identifier: GPL-2.0
/*
 * Races: threads pinned round-robin to every online CPU create, start,
 * stop, snapshot, configure and close sessions, read their buffers as
 * lttd does, create custom event types and log them, and fork children
 * that log and exit - all on fds they share on purpose, so that one
 * thread closes an fd while another runs a command on it (and the number
 * comes back as another fd).  Sessions record side by side: EBUSY on
 * START of a session that records already, and EINVAL or EBADF on a
 * closed or reused fd, are outcomes of the races; any other errno, a
 * crash or a hang fails.  Afterwards no session is left recording and
 * a normal recording's accounting is exact.
 *
 * The work is counted in iterations (LTT_RACE_ITERS, or ltt.race_iters=
 * on the kernel command line, scales it: default RC_ITERS), with a
 * wall-time cap (RC_WALL_S) for safety.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>

#include "kselftest_harness.h"
#include "ltt_stress.h"

#define RC_ITERS	1000	/* commands of each controller thread */
#define RC_WALL_S	100	/* the work stops here, whatever is left */
#define RC_THREADS	6	/* at least; one more per CPU beyond */
#define RC_SLOTS	4	/* shared session and event fds */
#define RC_CHILD_BAD	3	/* a forked child saw an unexpected errno */

enum rc_role { RC_OWNER, RC_CONTROL, RC_READER, RC_LOGGER, RC_FORKER };

/* What the threads share. */
struct rc {
	atomic_int sessions[RC_SLOTS];	/* -1: none */
	atomic_int events[RC_SLOTS];
	atomic_int pids[RC_SLOTS];	/* children, alive or not */
	atomic_bool stop;
	__u64 deadline;
	unsigned long iters;		/* of a controller */
	unsigned long owner_iters;	/* sessions made */
	unsigned int n_cpus;
	int cpus[CPU_SETSIZE];		/* the online ones */
	pthread_mutex_t lock;
	char err[1024];			/* the first failure */
	atomic_ulong ok, busy, stale, packets, forks, logs;
};

struct rc_thread {
	struct rc *r;
	pthread_t tid;
	unsigned int index;
	enum rc_role role;
	__u64 rng;
};

static const int rc_errs_start[] = { EBUSY, EINVAL, EBADF, 0 };
static const int rc_errs_stale[] = { EINVAL, EBADF, 0 };
static const int rc_errs_pids[] = { EINVAL, EBADF, ESRCH, 0 };
static const int rc_errs_create[] = { EMFILE, ENFILE, 0 };
static const int rc_errs_buffer_fd[] = {
	EINVAL, EBADF, EBUSY, ENODEV, EMFILE, ENFILE, 0
};

static const int rc_errs_get[] = { EAGAIN, ENODATA, EBUSY, 0 };

/* LTT_CMD_EVENT_LOG; 0, or -1 with errno. */
static int ltt_log_event(int fd, const void *data, size_t size)
{
	struct ltt_event_log l = {
		.event_fd = fd,
		.size = size,
		.data = (uintptr_t)data,
	};

	return ltt(LTT_CMD_EVENT_LOG, &l, sizeof(l));
}

static __u32 rc_rand(struct rc_thread *t, __u32 n)
{
	t->rng ^= t->rng << 13;
	t->rng ^= t->rng >> 7;
	t->rng ^= t->rng << 17;
	return n ? (__u32)(t->rng >> 32) % n : 0;
}

static __printf(2, 3) void rc_fail(struct rc *r, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&r->lock);
	if (!r->err[0]) {
		va_start(ap, fmt);
		vsnprintf(r->err, sizeof(r->err), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&r->lock);
	atomic_store(&r->stop, true);
}

/*
 * Judge @ret of @what on fd @fd: success, or -1 with an errno of @errs.
 * Returns whether it succeeded.
 */
static bool rc_judge(struct rc_thread *t, const char *what, int fd, long ret,
		     const int *errs)
{
	int err = errno;

	if (ret >= 0) {
		atomic_fetch_add(&t->r->ok, 1);
		return true;
	}
	if (ret != -1 || !ltt_errno_in(errs, err))
		rc_fail(t->r, "thread %u: %s on fd %d: %ld, %s", t->index,
			what, fd, ret, strerror(err));
	else if (err == EBUSY)
		atomic_fetch_add(&t->r->busy, 1);
	else
		atomic_fetch_add(&t->r->stale, 1);
	return false;
}

static bool rc_done(struct rc *r)
{
	if (atomic_load(&r->stop))
		return true;
	if (ltt_now_ns(CLOCK_MONOTONIC) < r->deadline)
		return false;
	atomic_store(&r->stop, true);
	return true;
}

/* Put @fd in @slot; the fd it replaces is closed by whoever put it there. */
static void rc_publish(struct rc_thread *t, atomic_int *slot, int fd)
{
	int old = atomic_exchange(slot, fd);

	if (old >= 0 && close(old))
		rc_fail(t->r, "thread %u: close(%d): %s", t->index, old,
			strerror(errno));
}

/* Sessions come and go: made, published, their predecessors closed. */
static void rc_owner(struct rc_thread *t)
{
	static const struct ltt_create anchor_geometry = {
		.subbuf_size = 4096, .n_subbufs = 2,
	};
	struct rc *r = t->r;
	unsigned long i, n = r->owner_iters;
	int anchor, fd;

	/* The probes stay attached for the first 3/4, then come and go. */
	anchor = ltt(LTT_CMD_CREATE, &anchor_geometry,
		     sizeof(anchor_geometry));
	for (i = 0; i < n && !rc_done(r); i++) {
		struct ltt_create c = {
			.subbuf_size = 4096U << rc_rand(t, 2),
			.n_subbufs = 4,
			.mode = i % 2 ? LTT_MODE_OVERWRITE : LTT_MODE_DISCARD,
			.flush_ms = 1 + rc_rand(t, 50),
		};

		if (i == 3 * n / 4 && anchor >= 0) {
			close(anchor);
			anchor = -1;
		}
		fd = ltt(LTT_CMD_CREATE, &c, sizeof(c));
		if (rc_judge(t, "CREATE", -1, fd, rc_errs_create))
			rc_publish(t, &r->sessions[rc_rand(t, RC_SLOTS)], fd);
	}
	if (anchor >= 0)
		close(anchor);
}

/* Commands on whatever fd a slot holds now, and logging. */
static void rc_control(struct rc_thread *t)
{
	struct rc *r = t->r;
	__u64 mask[LTT_EVENTS_MAX / 64];
	struct ltt_status st;
	unsigned long i;
	pid_t pids[2];
	int fd, ret;
	__u32 v[3];

	for (i = 0; i < r->iters && !rc_done(r); i++) {
		fd = atomic_load(&r->sessions[rc_rand(t, RC_SLOTS)]);
		switch (rc_rand(t, 8)) {
		case 0:
		case 1:
			rc_judge(t, "START", fd, ltt_start(fd), rc_errs_start);
			break;
		case 2:
			rc_judge(t, "STOP", fd, ltt_stop(fd), rc_errs_stale);
			break;
		case 3:
			rc_judge(t, "SNAPSHOT", fd, ltt_snapshot(fd),
				 rc_errs_stale);
			break;
		case 4:
			ret = ltt_status(fd, &st, NULL, 0);
			if (rc_judge(t, "STATUS", fd, ret, rc_errs_stale) &&
			    (st.state > LTT_STATE_RECORDING ||
			     st.mode >= LTT_MODE_MAX || !st.n_cpus))
				rc_fail(r, "STATUS of fd %d: state %u mode %u, %u CPUs",
					fd, st.state, st.mode, st.n_cpus);
			break;
		case 5:
			memset(mask, rc_rand(t, 2) ? 0xff : 0x55, sizeof(mask));
			rc_judge(t, "SET_EVENTS", fd,
				 ltt_set_mask(fd, mask, LTT_EVENTS_MAX),
				 rc_errs_stale);
			break;
		case 6:
			pids[0] = getpid();
			pids[1] = atomic_load(&r->pids[rc_rand(t, RC_SLOTS)]);
			rc_judge(t, "SET_PIDS", fd,
				 ltt_set_pids(fd, pids, 1 + (pids[1] > 0)),
				 rc_errs_pids);
			break;
		default:
			fd = atomic_load(&r->events[rc_rand(t, RC_SLOTS)]);
			v[0] = i;
			v[1] = t->index;
			v[2] = fd;
			if (rc_judge(t, "EVENT_LOG", fd,
				     ltt_log_event(fd, v, sizeof(v)),
				     rc_errs_stale))
				atomic_fetch_add(&r->logs, 1);
		}
	}
}

/* lttd: a buffer fd, its mapping, its packets taken and given back. */
static void rc_read_buffer(struct rc_thread *t, int session, unsigned int cpu)
{
	struct rc *r = t->r;
	struct ltt_packet_header h;
	struct ltt_buffer_info bi;
	struct ltt_subbuf sb;
	struct pollfd p;
	unsigned char *map;
	int fd, k;

	fd = ltt_buffer_fd(session, cpu);
	if (!rc_judge(t, "BUFFER_FD", session, fd, rc_errs_buffer_fd))
		return;
	if (ioctl(fd, LTT_BUF_INFO, &bi) || bi.cpu != cpu) {
		rc_fail(r, "BUFFER_INFO of cpu %u: %s, cpu %u", cpu,
			strerror(errno), bi.cpu);
		goto out;
	}
	map = mmap(NULL, bi.mmap_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		rc_fail(r, "mmap of cpu %u's buffer: %s", cpu,
			strerror(errno));
		goto out;
	}
	for (k = 0; k < 16 && !rc_done(r); k++) {
		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 0) < 0 ||
		    p.revents & ~(POLLIN | POLLRDNORM | POLLHUP)) {
			rc_fail(r, "poll of a buffer: %s, revents %#x",
				strerror(errno), p.revents);
			break;
		}
		if (!rc_judge(t, "GET_SUBBUF", fd,
			      ioctl(fd, LTT_BUF_GET_SUBBUF, &sb), rc_errs_get)) {
			if (errno == ENODATA)
				break;
			continue;
		}
		if (sb.offset % bi.subbuf_size || sb.offset >= bi.mmap_size ||
		    sb.size < sizeof(h) || sb.size > bi.subbuf_size) {
			rc_fail(r, "GET_SUBBUF of cpu %u: offset %llu size %llu",
				cpu, (unsigned long long)sb.offset,
				(unsigned long long)sb.size);
		} else {
			memcpy(&h, map + sb.offset, sizeof(h));
			if (h.magic != LTT_PACKET_MAGIC || h.cpu_id != cpu ||
			    h.packet_seq_num != sb.seq ||
			    h.packet_size != sb.size * 8)
				rc_fail(r, "cpu %u packet %llu: magic %#x cpu %u seq %llu",
					cpu, (unsigned long long)sb.seq,
					h.magic, h.cpu_id,
					(unsigned long long)h.packet_seq_num);
		}
		atomic_fetch_add(&r->packets, 1);
		/* The only reader: its packet is its to give back. */
		if (ioctl(fd, LTT_BUF_PUT_SUBBUF, 0))
			rc_fail(r, "PUT_SUBBUF of cpu %u after GET: %s", cpu,
				strerror(errno));
	}
	munmap(map, bi.mmap_size);
out:
	close(fd);
}

static void rc_reader(struct rc_thread *t)
{
	struct rc *r = t->r;
	unsigned long i;

	for (i = 0; i < r->iters / 4 && !rc_done(r); i++)
		rc_read_buffer(t,
			       atomic_load(&r->sessions[rc_rand(t, RC_SLOTS)]),
			       r->cpus[rc_rand(t, r->n_cpus)]);
}

/* A custom type of a few shared names, all of the same layout. */
static int rc_create_event(unsigned int k)
{
	struct ltt_event_create c = {
		.n_fields = 3,
		.fields = {
			{ .name = "i", .type = LTT_FIELD_UNSIGNED, .size = 4 },
			{ .name = "thread", .type = LTT_FIELD_UNSIGNED,
			  .size = 4 },
			{ .name = "fd", .type = LTT_FIELD_SIGNED, .size = 4 },
		},
	};

	snprintf(c.name, sizeof(c.name), "ltt_race_%u", k);
	return ltt(LTT_CMD_EVENT_CREATE, &c, sizeof(c));
}

/* Event types made, published, their predecessors closed; logged. */
static void rc_logger(struct rc_thread *t)
{
	struct rc *r = t->r;
	unsigned long i, j;
	__u32 v[3];
	int fd;

	for (i = 0; i < r->iters / 4 && !rc_done(r); i++) {
		fd = rc_create_event(rc_rand(t, 8));
		if (!rc_judge(t, "EVENT_CREATE", -1, fd, rc_errs_create))
			continue;
		rc_publish(t, &r->events[rc_rand(t, RC_SLOTS)], fd);
		for (j = 0; j < 50; j++) {
			fd = atomic_load(&r->events[rc_rand(t, RC_SLOTS)]);
			v[0] = j;
			v[1] = t->index;
			v[2] = fd;
			if (rc_judge(t, "EVENT_LOG", fd,
				     ltt_log_event(fd, v, sizeof(v)),
				     rc_errs_stale))
				atomic_fetch_add(&r->logs, 1);
		}
	}
}

/*
 * A forked child: logs on the event fds it inherited and on a type of
 * its own, then exits without closing them.  Only syscalls: its parent
 * has threads.
 */
static int rc_child(struct rc *r)
{
	__u32 v[3] = { 0 };
	int i, fd, own;

	for (i = 0; i < 20; i++) {
		fd = atomic_load(&r->events[i % RC_SLOTS]);
		if (ltt_log_event(fd, v, sizeof(v)) &&
		    errno != EBADF && errno != EINVAL)
			return RC_CHILD_BAD;
	}
	own = rc_create_event(100);
	if (own < 0 && errno != EMFILE && errno != ENFILE)
		return RC_CHILD_BAD;
	for (i = 0; own >= 0 && i < 20; i++) {
		if (ltt_log_event(own, v, sizeof(v)))
			return RC_CHILD_BAD;
		syscall(SYS_getppid);
	}
	return 0;
}

static void rc_forker(struct rc_thread *t)
{
	struct rc *r = t->r;
	unsigned long i;
	int status;
	pid_t pid;

	for (i = 0; i < r->iters / 16 && !rc_done(r); i++) {
		pid = fork();
		if (pid < 0) {
			rc_fail(r, "fork: %s", strerror(errno));
			return;
		}
		if (!pid)
			_exit(rc_child(r));
		atomic_store(&r->pids[i % RC_SLOTS], pid);
		if (waitpid(pid, &status, 0) != pid) {
			rc_fail(r, "waitpid: %s", strerror(errno));
			return;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			rc_fail(r, "a child that logged: status %#x%s", status,
				WIFEXITED(status) &&
				WEXITSTATUS(status) == RC_CHILD_BAD ?
				" (an unexpected errno)" : "");
		atomic_fetch_add(&r->forks, 1);
	}
}

static void *rc_thread_main(void *arg)
{
	struct rc_thread *t = arg;
	struct rc *r = t->r;

	if (ltt_pin_to_cpu(r->cpus[t->index % r->n_cpus])) {
		rc_fail(r, "thread %u: pin to cpu %d: %s", t->index,
			r->cpus[t->index % r->n_cpus], strerror(errno));
		return NULL;
	}
	switch (t->role) {
	case RC_OWNER:
		rc_owner(t);
		break;
	case RC_CONTROL:
		rc_control(t);
		break;
	case RC_READER:
		rc_reader(t);
		break;
	case RC_LOGGER:
		rc_logger(t);
		break;
	case RC_FORKER:
		rc_forker(t);
		break;
	}
	return NULL;
}

FIXTURE(race) {
	struct rc r;
	unsigned int n_threads;
	struct rc_thread *threads;
};

FIXTURE_SETUP(race)
{
	cpu_set_t online;
	int i, top;

	if (geteuid())
		SKIP(return, "run as root");
	memset(&self->r, 0, sizeof(self->r));
	pthread_mutex_init(&self->r.lock, NULL);
	top = ltt_read_cpulist("/sys/devices/system/cpu/online", &online);
	ASSERT_LT(0, top) TH_LOG("/sys/devices/system/cpu/online");
	for (i = 0; i < top; i++)
		if (CPU_ISSET(i, &online))
			self->r.cpus[self->r.n_cpus++] = i;
	for (i = 0; i < RC_SLOTS; i++) {
		atomic_init(&self->r.sessions[i], -1);
		atomic_init(&self->r.events[i], -1);
		atomic_init(&self->r.pids[i], 0);
	}
	self->r.iters = ltt_tunable("LTT_RACE_ITERS", "race_iters", RC_ITERS);
	self->r.owner_iters = self->r.iters / 4;
	self->n_threads = self->r.n_cpus < RC_THREADS ? RC_THREADS :
			  self->r.n_cpus;
	self->threads = calloc(self->n_threads, sizeof(*self->threads));
	ASSERT_NE(NULL, self->threads);
}

/* Close the fds left in the slots: recording sessions stop. */
static void rc_close_slots(struct rc *r)
{
	unsigned int i;
	int fd;

	for (i = 0; i < RC_SLOTS; i++) {
		fd = atomic_exchange(&r->sessions[i], -1);
		if (fd >= 0)
			close(fd);
		fd = atomic_exchange(&r->events[i], -1);
		if (fd >= 0)
			close(fd);
	}
}

FIXTURE_TEARDOWN(race)
{
	rc_close_slots(&self->r);
	free(self->threads);
}

/* Run @roles (cycled over the threads) to the end; the first failure. */
static void rc_run(struct __test_metadata *_metadata, struct rc *r,
		   struct rc_thread *threads, unsigned int n_threads,
		   const enum rc_role *roles, unsigned int n_roles)
{
	__u64 t0 = ltt_now_ns(CLOCK_MONOTONIC);
	unsigned int i;

	r->deadline = t0 + RC_WALL_S * 1000000000ULL;
	for (i = 0; i < n_threads; i++) {
		struct rc_thread *t = &threads[i];

		t->r = r;
		t->index = i;
		t->role = roles[i % n_roles];
		t->rng = 0x9e3779b97f4a7c15ULL * (i + 1);
		ASSERT_EQ(0, pthread_create(&t->tid, NULL, rc_thread_main, t));
	}
	for (i = 0; i < n_threads; i++)
		ASSERT_EQ(0, pthread_join(threads[i].tid, NULL));
	TH_LOG("%u threads on %u CPUs, %.1f s%s", n_threads, r->n_cpus,
	       (ltt_now_ns(CLOCK_MONOTONIC) - t0) / 1e9,
	       ltt_now_ns(CLOCK_MONOTONIC) >= r->deadline ?
	       " (stopped by the wall-time cap)" : "");
	TH_LOG("%lu ok, %lu EBUSY, %lu EINVAL/EBADF, %lu packets, %lu logged, %lu forks",
	       atomic_load(&r->ok), atomic_load(&r->busy),
	       atomic_load(&r->stale), atomic_load(&r->packets),
	       atomic_load(&r->logs), atomic_load(&r->forks));
	ASSERT_EQ('\0', r->err[0]) TH_LOG("%s", r->err);
}

/*
 * Everything at once: sessions made, started, stopped, snapshotted,
 * configured and closed under each other; buffers read; custom events
 * made, logged and closed; children forked that log.  Then no session
 * records, and a normal recording works with exact accounting.
 */
TEST_F_TIMEOUT(race, shared_fds_used_and_closed_concurrently, 140)
{
	static const enum rc_role roles[] = {
		RC_OWNER, RC_CONTROL, RC_READER, RC_LOGGER, RC_CONTROL,
		RC_FORKER,
	};
	struct ltt_registry reg;

	rc_run(_metadata, &self->r, self->threads, self->n_threads, roles,
	       ARRAY_SIZE(roles));
	/* Closed, the sessions still recording stop, the types die. */
	rc_close_slots(&self->r);
	ASSERT_EQ(0, ltt_registry_load(&reg))
		TH_LOG("the registry after the races: %s", ltt_err);
	ltt_registry_free(&reg);
	ASSERT_EQ(0, ltt_check_recording()) TH_LOG("after the races: %s",
						   ltt_err);
}

/*
 * Session fds closed while other threads START, STOP, SNAPSHOT and
 * STATUS them: a START that looked the session up before the close must
 * not leave it recording with no fd to stop it (a new session could
 * never START again).
 */
TEST_F_TIMEOUT(race, close_during_start_leaves_no_session_recording, 140)
{
	static const enum rc_role roles[] = { RC_OWNER, RC_CONTROL };

	self->r.owner_iters = self->r.iters;
	rc_run(_metadata, &self->r, self->threads, self->n_threads, roles,
	       ARRAY_SIZE(roles));
	rc_close_slots(&self->r);
	ASSERT_EQ(0, ltt_check_recording()) TH_LOG("after the races: %s",
						   ltt_err);
}

int main(int argc, char **argv)
{
	return ltt_stress_main(argc, argv);
}
