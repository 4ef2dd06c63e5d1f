// SPDX-License-Identifier: GPL-2.0
/*
 * Every event of the registry, each with a workload that makes it happen:
 * it is recorded when enabled, not recorded when masked off, and not
 * recorded when the pid filter lists another process only.  And the size
 * of the records: a mixed workload's records average at most 12 bytes
 * per event (LTT's 2004 traces averaged about 10.7).
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
	struct ltt_nbd nbd;
	bool nbd_started;
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
	const char *(*unavailable)(void);	/* why not here, or NULL */
};

static int run_syscalls(struct work *w)
{
	int i;

	for (i = 0; i < 10; i++)
		syscall(__NR_getppid);
	return 0;
}

/* getppid() through the compat entry, where there is one. */
static int run_compat(struct work *w)
{
#ifdef __x86_64__
	int i;

	for (i = 0; i < 10; i++)
		if (ltt_ia32_getppid() != getppid())
			return ltt_fail("ia32 getppid() failed");
	return 0;
#else
	return ltt_fail("no compat ABI to call");
#endif
}

/* Why the compat workload cannot run here, or NULL. */
static const char *compat_unavailable(void)
{
#ifdef __x86_64__
	return ltt_have_ia32() ? NULL : "no CONFIG_IA32_EMULATION";
#else
	return "no compat ABI on this architecture";
#endif
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

/*
 * The UART's interrupts, and a timer's: a UART with a deep FIFO that
 * the machine drains without one (arm's PL011 under QEMU) leaves the
 * sleep's hrtimer the one interrupt sure to come on every machine.
 */
static int run_console(struct work *w)
{
	if (ltt_work_console(2))
		return -1;
	usleep(5000);
	return 0;
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

#define CHANGES_DIR	"/tmp/ltt-eventset-changes"

static int run_fs_changes(struct work *w)
{
	return ltt_work_fs_changes(CHANGES_DIR);
}

static int prepare_ext2(struct work *w)
{
	return ltt_ext2_mount();
}

static int run_ext2(struct work *w)
{
	return ltt_work_ext2_cold_read();
}

static int prepare_nbd(struct work *w)
{
	if (ltt_nbd_start(&w->nbd, gettid()))
		return -1;
	w->nbd_started = true;
	return 0;
}

static int run_nbd(struct work *w)
{
	return ltt_work_nbd_read();
}

static void cleanup_nbd(struct work *w)
{
	if (w->nbd_started)
		ltt_nbd_stop(&w->nbd);
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

/* cgroup2 on a directory of the test's own, with a cgroup made in it. */
static char cg_mnt[64], cg_dir[128];

static const char *cgroup_unavailable(void)
{
	char fs[4096] = "";

	ltt_read_str("/proc/filesystems", fs, sizeof(fs));
	return strstr(fs, "cgroup2") ? NULL : "no cgroup2 (CONFIG_CGROUPS)";
}

static int prepare_cgroup(struct work *w)
{
	snprintf(cg_mnt, sizeof(cg_mnt), "/tmp/ltt-es.XXXXXX");
	if (!mkdtemp(cg_mnt))
		return ltt_fail("mkdtemp: %s", strerror(errno));
	if (mount("cgroup2", cg_mnt, "cgroup2", 0, NULL)) {
		rmdir(cg_mnt);
		cg_mnt[0] = '\0';
		return ltt_fail("mount cgroup2: %s", strerror(errno));
	}
	snprintf(cg_dir, sizeof(cg_dir), "%s/ltt-%d", cg_mnt, getpid());
	if (mkdir(cg_dir, 0755))
		return ltt_fail("mkdir %s: %s", cg_dir, strerror(errno));
	return 0;
}

/*
 * A cgroup made, the test moved into it and back, a child born in it
 * (clone3's CLONE_INTO_CGROUP), the cgroup removed.
 */
static int run_cgroup(struct work *w)
{
	char x[160], procs[192];
	pid_t child;
	int fd, ret = 0;

	snprintf(x, sizeof(x), "%s/X", cg_dir);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", x);
	if (mkdir(x, 0755))
		return ltt_fail("mkdir %s: %s", x, strerror(errno));
	fd = open(x, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || ltt_write_str(procs, "0"))
		ret = ltt_fail("into %s: %s", x, strerror(errno));
	child = ret ? -1 : ltt_clone_into(fd);
	if (child < 0 && !ret)
		ret = ltt_fail("clone3 into %s: %s", x, strerror(errno));
	if (child > 0)
		waitpid(child, NULL, 0);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg_mnt);
	ltt_write_str(procs, "0");
	if (fd >= 0)
		close(fd);
	if (rmdir(x) && !ret)
		ret = ltt_fail("rmdir %s: %s", x, strerror(errno));
	return ret;
}

static void cleanup_cgroup(struct work *w)
{
	if (!cg_mnt[0])
		return;
	rmdir(cg_dir);
	umount2(cg_mnt, MNT_DETACH);
	rmdir(cg_mnt);
	cg_mnt[0] = '\0';
}

static int run_warn(struct work *w)
{
	return ltt_work_debugfs("warn_event");
}

static const struct workload w_syscalls = { "10 getppid() calls", NULL, run_syscalls };
static const struct workload w_compat = { "10 ia32 getppid() calls",
	.run = run_compat, .unavailable = compat_unavailable };
static const struct workload w_sleep = { "a 2 ms sleep", NULL, run_sleep };
static const struct workload w_fork = { "fork, exit, waitpid", NULL, run_fork };
static const struct workload w_exec = { "a child running /bin/true", NULL, run_exec };
static const struct workload w_touch = { "8 fresh pages touched, unmapped", NULL, run_touch };
static const struct workload w_console = { "2 lines to the console, a 5 ms sleep", NULL,
						  run_console };
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
static const struct workload w_fs_changes = {
	"mkdir, write, truncate, chmod, chown, mmap, link, symlink, rename, unlink, rmdir",
	NULL, run_fs_changes };
static const struct workload w_ext2 = { "a cold-cache read on ext2 on a loop device",
	prepare_ext2, run_ext2 };
static const struct workload w_nbd = {
	"a read of a network block device that answers once the reader waits",
	prepare_nbd, run_nbd, cleanup_nbd };
static const struct workload w_rcvtimeo = { "recv() with a 20 ms SO_RCVTIMEO", NULL, run_rcvtimeo };
static const struct workload w_setitimer = { "setitimer(ITIMER_REAL)", NULL, run_setitimer };
static const struct workload w_swap = { "a page out to zram swap and back",
	prepare_swap, run_swap, cleanup_swap };
static const struct workload w_ipc = { "System V message queue, semaphore, shared memory",
	NULL, run_ipc };
static const struct workload w_start = { "START with a file open",
	prepare_open_file, run_nothing, cleanup_file };
static const struct workload w_warn = { "the crash event a WARN() records (debugfs warn_event)",
	NULL, run_warn };
static const struct workload w_cgroup = {
	"a cgroup made, moved into, born in, removed",
	prepare_cgroup, run_cgroup, cleanup_cgroup, cgroup_unavailable };

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

FIXTURE_VARIANT_ADD(eventset, syscall_entry) {
	.event = "syscall_entry",
	.work = &w_syscalls,
};

FIXTURE_VARIANT_ADD(eventset, syscall_exit) {
	.event = "syscall_exit",
	.work = &w_syscalls,
};

FIXTURE_VARIANT_ADD(eventset, sched_change) {
	.event = "sched_change",
	.work = &w_sleep,
};

FIXTURE_VARIANT_ADD(eventset, process_fork) {
	.event = "process_fork",
	.work = &w_fork,
};

FIXTURE_VARIANT_ADD(eventset, process_exit) {
	.event = "process_exit",
	.work = &w_fork,
};

FIXTURE_VARIANT_ADD(eventset, process_exec) {
	.event = "process_exec",
	.work = &w_exec,
};

FIXTURE_VARIANT_ADD(eventset, trap_entry) {
	.event = "trap_entry",
	.work = &w_touch,
};

FIXTURE_VARIANT_ADD(eventset, trap_exit) {
	.event = "trap_exit",
	.work = &w_touch,
};

FIXTURE_VARIANT_ADD(eventset, irq_entry) {
	.event = "irq_entry",
	.work = &w_console,
};

FIXTURE_VARIANT_ADD(eventset, irq_exit) {
	.event = "irq_exit",
	.work = &w_console,
};

FIXTURE_VARIANT_ADD(eventset, timer_tick) {
	.event = "timer_tick",
	.work = &w_spin,
};

FIXTURE_VARIANT_ADD(eventset, softirq) {
	.event = "softirq",
	.work = &w_udp,
};

FIXTURE_VARIANT_ADD(eventset, tasklet_action) {
	.event = "tasklet_action",
	.work = &w_kbd,
};

FIXTURE_VARIANT_ADD(eventset, tasklet_hi_action) {
	.event = "tasklet_hi_action",
	.work = &w_hi,
};

FIXTURE_VARIANT_ADD(eventset, process_kthread) {
	.event = "process_kthread",
	.work = &w_kworker,
};

FIXTURE_VARIANT_ADD(eventset, process_wait) {
	.event = "process_wait",
	.work = &w_fork,
};

FIXTURE_VARIANT_ADD(eventset, process_signal) {
	.event = "process_signal",
	.work = &w_signal,
};

FIXTURE_VARIANT_ADD(eventset, process_wakeup) {
	.event = "process_wakeup",
	.work = &w_wake,
};

FIXTURE_VARIANT_ADD(eventset, fs_open) {
	.event = "fs_open",
	.work = &w_file,
};

FIXTURE_VARIANT_ADD(eventset, fs_close) {
	.event = "fs_close",
	.work = &w_file,
};

FIXTURE_VARIANT_ADD(eventset, fs_read) {
	.event = "fs_read",
	.work = &w_file,
};

FIXTURE_VARIANT_ADD(eventset, fs_write) {
	.event = "fs_write",
	.work = &w_file,
};

FIXTURE_VARIANT_ADD(eventset, fs_seek) {
	.event = "fs_seek",
	.work = &w_file,
};

FIXTURE_VARIANT_ADD(eventset, fs_ioctl) {
	.event = "fs_ioctl",
	.work = &w_file,
};

FIXTURE_VARIANT_ADD(eventset, fs_select) {
	.event = "fs_select",
	.work = &w_file,
};

FIXTURE_VARIANT_ADD(eventset, fs_poll) {
	.event = "fs_poll",
	.work = &w_file,
};

FIXTURE_VARIANT_ADD(eventset, fs_buffer_wait_start) {
	.event = "fs_buffer_wait_start",
	.work = &w_ext2,
};

FIXTURE_VARIANT_ADD(eventset, fs_buffer_wait_end) {
	.event = "fs_buffer_wait_end",
	.work = &w_ext2,
};

FIXTURE_VARIANT_ADD(eventset, timer_expired) {
	.event = "timer_expired",
	.work = &w_rcvtimeo,
};

FIXTURE_VARIANT_ADD(eventset, timer_setitimer) {
	.event = "timer_setitimer",
	.work = &w_setitimer,
};

FIXTURE_VARIANT_ADD(eventset, timer_schedule_timeout) {
	.event = "timer_schedule_timeout",
	.work = &w_rcvtimeo,
};

FIXTURE_VARIANT_ADD(eventset, mm_page_alloc) {
	.event = "mm_page_alloc",
	.work = &w_touch,
};

FIXTURE_VARIANT_ADD(eventset, mm_page_free) {
	.event = "mm_page_free",
	.work = &w_touch,
};

FIXTURE_VARIANT_ADD(eventset, mm_swap_in) {
	.event = "mm_swap_in",
	.work = &w_swap,
};

FIXTURE_VARIANT_ADD(eventset, mm_swap_out) {
	.event = "mm_swap_out",
	.work = &w_swap,
};

FIXTURE_VARIANT_ADD(eventset, mm_page_wait_start) {
	.event = "mm_page_wait_start",
	.work = &w_nbd,
};

FIXTURE_VARIANT_ADD(eventset, mm_page_wait_end) {
	.event = "mm_page_wait_end",
	.work = &w_nbd,
};

FIXTURE_VARIANT_ADD(eventset, socket_call) {
	.event = "socket_call",
	.work = &w_udp,
};

FIXTURE_VARIANT_ADD(eventset, socket_create) {
	.event = "socket_create",
	.work = &w_udp,
};

FIXTURE_VARIANT_ADD(eventset, socket_send) {
	.event = "socket_send",
	.work = &w_udp,
};

FIXTURE_VARIANT_ADD(eventset, socket_receive) {
	.event = "socket_receive",
	.work = &w_udp,
};

FIXTURE_VARIANT_ADD(eventset, ipc_call) {
	.event = "ipc_call",
	.work = &w_ipc,
};

FIXTURE_VARIANT_ADD(eventset, ipc_msg_create) {
	.event = "ipc_msg_create",
	.work = &w_ipc,
};

FIXTURE_VARIANT_ADD(eventset, ipc_sem_create) {
	.event = "ipc_sem_create",
	.work = &w_ipc,
};

FIXTURE_VARIANT_ADD(eventset, ipc_shm_create) {
	.event = "ipc_shm_create",
	.work = &w_ipc,
};

FIXTURE_VARIANT_ADD(eventset, net_packet_in) {
	.event = "net_packet_in",
	.work = &w_udp,
};

FIXTURE_VARIANT_ADD(eventset, net_packet_out) {
	.event = "net_packet_out",
	.work = &w_udp,
};

FIXTURE_VARIANT_ADD(eventset, statedump_process) {
	.event = "statedump_process",
	.work = &w_start,
};

FIXTURE_VARIANT_ADD(eventset, statedump_file) {
	.event = "statedump_file",
	.work = &w_start,
};

FIXTURE_VARIANT_ADD(eventset, syscall_entry_compat) {
	.event = "syscall_entry_compat",
	.work = &w_compat,
};

FIXTURE_VARIANT_ADD(eventset, fs_rename) {
	.event = "fs_rename",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, fs_newname) {
	.event = "fs_newname",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, fs_unlink) {
	.event = "fs_unlink",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, fs_rmdir) {
	.event = "fs_rmdir",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, fs_mkdir) {
	.event = "fs_mkdir",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, fs_link) {
	.event = "fs_link",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, fs_symlink) {
	.event = "fs_symlink",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, fs_truncate) {
	.event = "fs_truncate",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, fs_chmod) {
	.event = "fs_chmod",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, fs_chown) {
	.event = "fs_chown",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, fs_dup) {
	.event = "fs_dup",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, fs_mmap_write) {
	.event = "fs_mmap_write",
	.work = &w_fs_changes,
};

FIXTURE_VARIANT_ADD(eventset, cgroup_mkdir) {
	.event = "cgroup_mkdir",
	.work = &w_cgroup,
};

FIXTURE_VARIANT_ADD(eventset, cgroup_rmdir) {
	.event = "cgroup_rmdir",
	.work = &w_cgroup,
};

FIXTURE_VARIANT_ADD(eventset, cgroup_attach) {
	.event = "cgroup_attach",
	.work = &w_cgroup,
};

FIXTURE_VARIANT_ADD(eventset, process_ns) {
	.event = "process_ns",
	.work = &w_cgroup,
};

FIXTURE_VARIANT_ADD(eventset, statedump_cgroup) {
	.event = "statedump_cgroup",
	.work = &w_cgroup,
};

FIXTURE_VARIANT_ADD(eventset, crash) {
	.event = "crash",
	.work = &w_warn,
};

/* Events of the variants above; the registry must have no other. */
#define N_VARIANTS	68

FIXTURE_SETUP(eventset)
{
	const char *why = NULL;

	self->w.fd = -1;
	if (variant->work->unavailable)
		why = variant->work->unavailable();
	if (why)
		SKIP(return, "%s", why);
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

/*
 * Prepare the workload @w for @event (*@prepared says it was), START, run
 * it, STOP and read into @t.
 */
static void record(struct __test_metadata *_metadata, struct ltt_session *s,
		   const char *event, const struct workload *w,
		   struct work *work, bool *prepared, struct ltt_trace *t)
{
	int ret;

	if (w->prepare)
		ASSERT_EQ(0, w->prepare(work))
			TH_LOG("preparing %s for %s: %s", w->what, event,
			       ltt_err);
	*prepared = true;
	ltt_start_or_fail(_metadata, s->fd);
	ret = w->run(work);
	ltt_stop_and_read(_metadata, s, t);
	ASSERT_EQ(0, ret) TH_LOG("%s, to make %s happen: %s", w->what, event,
				 ltt_err);
}

#define RECORD(t)	record(_metadata, &self->s, variant->event,	\
			       variant->work, &self->w, &self->prepared, (t))

/* Enabled alone, the event is recorded when its workload runs. */
TEST_F(eventset, is_recorded_when_enabled)
{
	int id = ltt_event_id(&self->s.reg, variant->event);
	__u64 mask[LTT_EVENTS_MAX / 64] = { 0 };
	struct ltt_trace t = { 0 };

	mask[id / 64] |= 1ULL << (id % 64);
	ASSERT_EQ(0, ltt_set_mask(self->s.fd, mask, self->s.reg.n_events))
		TH_LOG("SET_EVENTS: %s", strerror(errno));
	RECORD(&t);
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
	RECORD(&t);
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
	RECORD(&t);
	ltt_kill_sleeper(other, wake);

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];

		if (!IS(ev, variant->event))
			continue;
		/* The dump names every cgroup, whatever the filters. */
		if (!strcmp(variant->event, "statedump_cgroup"))
			continue;
		if ((!strncmp(variant->event, "statedump_", 10) ||
		     !strcmp(variant->event, "process_ns")) &&
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

FIXTURE(mixed) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

FIXTURE_SETUP(mixed)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, &ltt_create_big);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(mixed)
{
	ltt_session_close(&self->s);
}

/* fork+exec, files and their changes, a pipe, loopback UDP: a bit of everything. */
static int mixed_workload(void)
{
	char buf[512] = { 0 };
	int i, p[2];

	for (i = 0; i < 3; i++) {
		if (ltt_work_exec_true() || ltt_work_file_io(FILE_PATH) ||
		    ltt_work_fs_changes(CHANGES_DIR) || ltt_work_udp(100))
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
 * The whole system recorded, every event enabled: the workload's records
 * (content less packet headers) average 12 bytes or less.  The state
 * dump at START is counted apart: its ninety-odd records, a task or a
 * file with its name each, are what the machine holds, not what the
 * workload did, and they alone took the average from 10.8 to 12.0 on
 * x86_64 and from 11.5 to 12.04 on mips.
 */
TEST_F(mixed, mixed_workload_averages_at_most_12_bytes_per_event)
{
	const struct ltt_registry *reg = &self->s.reg;
	__u64 bytes = 0, records = 0, ev_bytes[LTT_EVENTS_MAX] = { 0 };
	__u64 dump_n = 0, dump_bytes = 0;
	size_t ev_n[LTT_EVENTS_MAX] = { 0 };
	struct ltt_trace t = { 0 };
	unsigned int i, k;
	double avg, work;

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
	for (i = 0; i < reg->n_events; i++)
		if (!strncmp(reg->ev[i].name, "statedump_", 10)) {
			dump_n += ev_n[i];
			dump_bytes += ev_bytes[i];
		}
	ASSERT_LT(dump_n, records) TH_LOG("only the state dump was recorded");
	work = (double)(bytes - dump_bytes) / (records - dump_n);
	ksft_print_msg("ltt: without the state dump: %llu records, %.2f bytes per event\n",
		       (unsigned long long)(records - dump_n), work);
	/* Every event recorded, the most bytes first. */
	for (k = 0; k < reg->n_events; k++) {
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
	EXPECT_GE(12.0, work)
		TH_LOG("%.2f bytes per event of the workload: the breakdown is above",
		       work);
	ltt_trace_free(&t);
}

TEST_HARNESS_MAIN
