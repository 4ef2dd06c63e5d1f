// SPDX-License-Identifier: GPL-2.0
/*
 * Every event of the registry, each with a workload that makes it happen:
 * it is recorded when enabled, not recorded when masked off, and not
 * recorded when the pid filter lists another process only.  And the size
 * of the records: a mixed workload's trace averages at most 12 bytes per
 * event (LTT's 2004 traces averaged about 10.7).
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "ltt_workload.h"

#define FILE_PATH	"/tmp/ltt-eventset-test-file"

/* What a workload keeps from its preparation to its cleanup. */
struct work {
	pid_t child;
	int fd;
	char *page;
};

/*
 * A workload: prepare() before START (may be NULL), run() while
 * recording, cleanup() after STOP (may be NULL).  They return 0, or -1
 * with ltt_err saying why.
 */
struct workload {
	const char *what;
	int (*prepare)(struct work *w);
	int (*run)(struct work *w);
	void (*cleanup)(struct work *w);
};

static int run_syscalls(struct work *w)
{
	int i;

	for (i = 0; i < 10; i++)
		syscall(__NR_getppid);
	return 0;
}

static int run_sleep(struct work *w)
{
	usleep(2000);
	return 0;
}

static int run_fork(struct work *w)
{
	return ltt_work_fork_exit();
}

static int run_exec(struct work *w)
{
	return ltt_work_exec_true();
}

static int run_touch(struct work *w)
{
	return ltt_work_touch_pages(8);
}

static int run_console(struct work *w)
{
	return ltt_work_console(2);
}

static int run_spin(struct work *w)
{
	ltt_spin_user(50000000);
	return 0;
}

static int prepare_lo(struct work *w)
{
	return ltt_lo_up();
}

static int run_udp(struct work *w)
{
	return ltt_work_udp(100);
}

static int run_kbd(struct work *w)
{
	return ltt_work_kbd_tasklet();
}

static int run_hi(struct work *w)
{
	return ltt_work_hi_tasklet();
}

static int run_kworker(struct work *w)
{
	return ltt_work_new_kworker();
}

static int run_signal(struct work *w)
{
	return ltt_work_signal();
}

static int prepare_sleeper(struct work *w)
{
	w->child = ltt_fork_sleeper(&w->fd);
	return w->child < 0 ? -1 : 0;
}

static int run_wake(struct work *w)
{
	int ret = ltt_wake_sleeper(w->child, w->fd);

	w->child = 0;
	return ret;
}

static void cleanup_sleeper(struct work *w)
{
	ltt_kill_sleeper(w->child, w->fd);
}

static int run_file(struct work *w)
{
	return ltt_work_file_io(FILE_PATH);
}

static int prepare_ext2(struct work *w)
{
	return ltt_ext2_mount();
}

static int run_ext2(struct work *w)
{
	return ltt_work_ext2_cold_read();
}

static int run_rcvtimeo(struct work *w)
{
	return ltt_work_rcvtimeo(20);
}

static int run_setitimer(struct work *w)
{
	return ltt_work_setitimer();
}

static int prepare_swap(struct work *w)
{
	if (ltt_zram_swap_on())
		return -1;
	w->page = ltt_filled_page();
	return w->page ? 0 : -1;
}

static int run_swap(struct work *w)
{
	return ltt_work_swap_out_in(w->page);
}

static void cleanup_swap(struct work *w)
{
	if (w->page)
		munmap(w->page, ltt_page_size());
}

static int run_ipc(struct work *w)
{
	return ltt_work_ipc(NULL);
}

static int prepare_open_file(struct work *w)
{
	w->fd = open(FILE_PATH, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	return w->fd < 0 ? ltt_fail("open %s: %s", FILE_PATH, strerror(errno)) : 0;
}

static int run_nothing(struct work *w)
{
	return 0;
}

static void cleanup_file(struct work *w)
{
	close(w->fd);
	unlink(FILE_PATH);
}

static const struct workload w_syscalls = { "10 getppid() calls", NULL, run_syscalls };
static const struct workload w_sleep = { "a 2 ms sleep", NULL, run_sleep };
static const struct workload w_fork = { "fork, exit, waitpid", NULL, run_fork };
static const struct workload w_exec = { "a child running /bin/true", NULL, run_exec };
static const struct workload w_touch = { "8 fresh pages touched, unmapped", NULL, run_touch };
static const struct workload w_console = { "2 lines to the console", NULL, run_console };
static const struct workload w_spin = { "50 ms of spinning", NULL, run_spin };
static const struct workload w_udp = { "a UDP exchange on lo", prepare_lo, run_udp };
static const struct workload w_kbd = { "KDSETLED on /dev/tty0", NULL, run_kbd };
static const struct workload w_hi = { "a hi tasklet", NULL, run_hi };
static const struct workload w_kworker = { "a new workqueue worker", NULL, run_kworker };
static const struct workload w_signal = { "SIGUSR1 to a child", NULL, run_signal };
static const struct workload w_wake = { "a pipe reader woken",
	prepare_sleeper, run_wake, cleanup_sleeper };
static const struct workload w_file = { "file open, write, lseek, read, ioctl, select, poll, close",
	NULL, run_file };
static const struct workload w_ext2 = { "a cold-cache read on ext2 on a loop device",
	prepare_ext2, run_ext2 };
static const struct workload w_rcvtimeo = { "recv() with a 20 ms SO_RCVTIMEO", NULL, run_rcvtimeo };
static const struct workload w_setitimer = { "setitimer(ITIMER_REAL)", NULL, run_setitimer };
static const struct workload w_swap = { "a page out to zram swap and back",
	prepare_swap, run_swap, cleanup_swap };
static const struct workload w_ipc = { "System V message queue, semaphore, shared memory",
	NULL, run_ipc };
static const struct workload w_start = { "START with a file open",
	prepare_open_file, run_nothing, cleanup_file };

FIXTURE(eventset) {
	struct ltt_session s;
	pid_t pid;
	struct work w;
	bool prepared;
};

FIXTURE_VARIANT(eventset) {
	const char *event;
	const struct workload *work;
};

#define EVENT(name, workload)						\
	FIXTURE_VARIANT_ADD(eventset, name) {				\
		.event = #name,						\
		.work = &(workload),					\
	}

EVENT(syscall_entry, w_syscalls);
EVENT(syscall_exit, w_syscalls);
EVENT(sched_change, w_sleep);
EVENT(process_fork, w_fork);
EVENT(process_exit, w_fork);
EVENT(process_exec, w_exec);
EVENT(trap_entry, w_touch);
EVENT(trap_exit, w_touch);
EVENT(irq_entry, w_console);
EVENT(irq_exit, w_console);
EVENT(timer_tick, w_spin);
EVENT(softirq, w_udp);
EVENT(tasklet_action, w_kbd);
EVENT(tasklet_hi_action, w_hi);
EVENT(process_kthread, w_kworker);
EVENT(process_wait, w_fork);
EVENT(process_signal, w_signal);
EVENT(process_wakeup, w_wake);
EVENT(fs_open, w_file);
EVENT(fs_close, w_file);
EVENT(fs_read, w_file);
EVENT(fs_write, w_file);
EVENT(fs_seek, w_file);
EVENT(fs_ioctl, w_file);
EVENT(fs_select, w_file);
EVENT(fs_poll, w_file);
EVENT(fs_buffer_wait_start, w_ext2);
EVENT(fs_buffer_wait_end, w_ext2);
EVENT(timer_expired, w_rcvtimeo);
EVENT(timer_setitimer, w_setitimer);
EVENT(timer_schedule_timeout, w_rcvtimeo);
EVENT(mm_page_alloc, w_touch);
EVENT(mm_page_free, w_touch);
EVENT(mm_swap_in, w_swap);
EVENT(mm_swap_out, w_swap);
EVENT(mm_page_wait_start, w_ext2);
EVENT(mm_page_wait_end, w_ext2);
EVENT(socket_call, w_udp);
EVENT(socket_create, w_udp);
EVENT(socket_send, w_udp);
EVENT(socket_receive, w_udp);
EVENT(ipc_call, w_ipc);
EVENT(ipc_msg_create, w_ipc);
EVENT(ipc_sem_create, w_ipc);
EVENT(ipc_shm_create, w_ipc);
EVENT(net_packet_in, w_udp);
EVENT(net_packet_out, w_udp);
EVENT(statedump_process, w_start);
EVENT(statedump_file, w_start);

/* Events of the variants above; the registry must have no other. */
#define N_VARIANTS	49

FIXTURE_SETUP(eventset)
{
	self->w.fd = -1;
	if (!ltt_setup(_metadata, &self->s, &ltt_create_big, true))
		return;
	ASSERT_LE(0, ltt_pin_to_buffer_cpu(&self->s)) TH_LOG("%s", ltt_err);
	self->pid = getpid();
	ASSERT_LE(0, ltt_event_id(&self->s.reg, variant->event))
		TH_LOG("no event %s in the registry", variant->event);
	ASSERT_EQ(N_VARIANTS, self->s.reg.n_events)
		TH_LOG("events in the registry: each needs a variant here");
}

FIXTURE_TEARDOWN(eventset)
{
	if (self->prepared && variant->work->cleanup)
		variant->work->cleanup(&self->w);
	ltt_session_close(&self->s);
}

/* Prepare, START, run, STOP and read into @t. */
static void record(struct __test_metadata *_metadata,
		   FIXTURE_DATA(eventset) *self,
		   const FIXTURE_VARIANT(eventset) *variant,
		   struct ltt_trace *t)
{
	const struct workload *w = variant->work;
	int ret;

	if (w->prepare)
		ASSERT_EQ(0, w->prepare(&self->w))
			TH_LOG("preparing %s for %s: %s", w->what,
			       variant->event, ltt_err);
	self->prepared = true;
	START();
	ret = w->run(&self->w);
	STOP_AND_READ(t);
	ASSERT_EQ(0, ret) TH_LOG("%s, to make %s happen: %s", w->what,
				 variant->event, ltt_err);
}

/* Enabled alone, the event is recorded when its workload runs. */
TEST_F(eventset, is_recorded_when_enabled)
{
	const char *names[] = { variant->event, NULL };
	struct ltt_trace t = { 0 };

	ASSERT_EQ(0, ltt_set_events(&self->s, names)) TH_LOG("%s", ltt_err);
	record(_metadata, self, variant, &t);
	EXPECT_LT((size_t)0, ltt_count(&self->s.reg, &t, variant->event, -1))
		TH_LOG("no %s recorded during %s", variant->event,
		       variant->work->what);
	ltt_trace_free(&t);
}

/* Every event but this one enabled: the others are, this one is not. */
TEST_F(eventset, masked_off_records_none)
{
	const struct ltt_registry *reg = &self->s.reg;
	__u64 mask[LTT_EVENTS_MAX / 64];
	struct ltt_trace t = { 0 };
	int id = ltt_event_id(reg, variant->event);

	memset(mask, 0xff, sizeof(mask));
	mask[id / 64] &= ~(1ULL << (id % 64));
	ASSERT_EQ(0, ltt_set_mask(self->s.fd, mask, reg->n_events))
		TH_LOG("SET_EVENTS: %s", strerror(errno));
	record(_metadata, self, variant, &t);
	EXPECT_EQ((size_t)0, ltt_count(reg, &t, variant->event, -1))
		TH_LOG("%s recorded though masked off, during %s",
		       variant->event, variant->work->what);
	EXPECT_LT((size_t)0, t.n) TH_LOG("nothing recorded with every other event enabled");
	ltt_trace_free(&t);
}

/*
 * The pid filter lists a process asleep throughout: nothing of the
 * workload's is recorded (the dump of the listed process itself is).
 */
TEST_F(eventset, pid_filter_on_another_process_records_none)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	size_t i, n = 0;
	int wake;
	pid_t other;

	other = ltt_fork_sleeper(&wake);
	ASSERT_LT(0, other) TH_LOG("%s", ltt_err);
	FILTER_PIDS(&other, 1);
	record(_metadata, self, variant, &t);
	ltt_kill_sleeper(other, wake);

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];

		if (!IS(ev, variant->event))
			continue;
		if (!strncmp(variant->event, "statedump_", 10) &&
		    FIELD(ev, "pid") == other)
			continue;
		if (!n++)
			TH_LOG("%s on cpu %u (seq %llu offset %u) passed a filter on pid %d only",
			       variant->event, ev->cpu,
			       (unsigned long long)ev->seq, ev->offset, other);
	}
	EXPECT_EQ((size_t)0, n) TH_LOG("%s records during %s",
				       variant->event, variant->work->what);
	ltt_trace_free(&t);
}

/* ---- Record size ---- */

LTT_FIXTURE(mixed, &ltt_create_big)

/* fork+exec, files, a pipe, loopback UDP: a bit of everything. */
static int mixed_workload(void)
{
	char buf[512] = { 0 };
	int i, p[2];

	for (i = 0; i < 3; i++) {
		if (ltt_work_exec_true() || ltt_work_file_io(FILE_PATH) ||
		    ltt_work_udp(100))
			return -1;
	}
	if (pipe(p))
		return ltt_fail("pipe: %s", strerror(errno));
	for (i = 0; i < 20; i++)
		if (write(p[1], buf, sizeof(buf)) != sizeof(buf) ||
		    read(p[0], buf, sizeof(buf)) != sizeof(buf))
			return ltt_fail("pipe I/O: %s", strerror(errno));
	close(p[0]);
	close(p[1]);
	return 0;
}

/*
 * The whole system recorded, every event enabled: the records (content
 * less packet headers) average 12 bytes or less.
 */
TEST_F(mixed, mixed_workload_averages_at_most_12_bytes_per_event)
{
	const struct ltt_registry *reg = &self->s.reg;
	__u64 bytes = 0, records = 0, ev_bytes[LTT_EVENTS_MAX] = { 0 };
	size_t ev_n[LTT_EVENTS_MAX] = { 0 };
	struct ltt_trace t = { 0 };
	unsigned int i, k;
	double avg;

	WORK(ltt_lo_up());
	START();
	WORK(mixed_workload());
	STOP_AND_READ(&t);

	for (i = 0; i < self->s.n_cpus; i++) {
		bytes += self->s.rd[i].bytes;
		records += self->s.rd[i].records;
	}
	ASSERT_LT(0ULL, records);
	for (i = 0; i < t.n; i++) {
		ev_n[t.ev[i].id]++;
		ev_bytes[t.ev[i].id] += t.ev[i].size;
	}
	avg = (double)bytes / records;
	ksft_print_msg("ltt: mixed workload: %llu records, %llu bytes, %.2f bytes per event\n",
		       (unsigned long long)records, (unsigned long long)bytes,
		       avg);
	/* The ten events with the most bytes. */
	for (k = 0; k < 10; k++) {
		unsigned int best = 0;

		for (i = 1; i < reg->n_events; i++)
			if (ev_bytes[i] > ev_bytes[best])
				best = i;
		if (!ev_bytes[best])
			break;
		ksft_print_msg("ltt:   %-24s %7zu records %8llu bytes %5.2f bytes each\n",
			       reg->ev[best].name, ev_n[best],
			       (unsigned long long)ev_bytes[best],
			       (double)ev_bytes[best] / ev_n[best]);
		ev_bytes[best] = 0;
	}
	EXPECT_GE(12.0, avg) TH_LOG("%.2f bytes per event: the breakdown is above",
				    avg);
	ltt_trace_free(&t);
}

TEST_HARNESS_MAIN
