// SPDX-License-Identifier: GPL-2.0
/*
 * Enable flags of custom events (LTT_EVENT_CREATE_ENABLE_FLAG): the bit
 * that the kernel keeps set in the process's memory while a recording
 * session would take the event, through START, stop, masks, pid filters,
 * several sessions, fork and exec; bad words; and a process that tests
 * the bit before logging makes no system call while nobody records.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <dirent.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "kselftest_harness.h"
#include "ltt_workload.h"

static_assert(sizeof(struct ltt_event_create) == LTT_EVENT_CREATE_SIZE_VER1,
	      "struct ltt_event_create");

/* <linux/fs.h>'s, which glibc 2.36's <sys/mount.h> does not mix with. */
#ifndef FIFREEZE
#define FIFREEZE	_IOWR('X', 119, int)
#define FITHAW		_IOWR('X', 120, int)
#endif

/* The flag word, as the kernel last wrote it. */
#define FLAG(w)		__atomic_load_n((w), __ATOMIC_RELAXED)

/* Where the exec test's words live, in the test and in the new image. */
#define EXEC_PAGE	((void *)0x5a5a0000UL)

FIXTURE(enable) {
	struct ltt_session s;
	pid_t pid;
};

FIXTURE_SETUP(enable)
{
	if (!ltt_setup(_metadata, &self->s, NULL, false))
		return;
	self->pid = getpid();
}

FIXTURE_TEARDOWN(enable)
{
	ltt_session_close(&self->s);
}

/* An event "name" of one string field, its flag at @word, bit @bit. */
static int create_flagged(const char *name, __u32 *word,
			  unsigned int bit)
{
	struct ltt_event_create c = {
		.n_fields = 1,
		.flags = LTT_EVENT_CREATE_ENABLE_FLAG,
		.fields = { { .name = "text", .type = LTT_FIELD_STRING } },
		.enable_addr = (uintptr_t)word,
		.enable_bit = bit,
	};

	snprintf(c.name, sizeof(c.name), "%s", name);
	return ltt(LTT_CMD_EVENT_CREATE, &c, sizeof(c));
}

static int log_text(int fd, const char *text)
{
	struct ltt_event_log l = {
		.event_fd = fd,
		.size = strlen(text) + 1,
		.data = (uintptr_t)text,
	};

	return ltt(LTT_CMD_EVENT_LOG, &l, sizeof(l));
}

/* The id of the custom event @fd's type is, by its name. */
static int id_of(struct ltt_session *s, const char *name)
{
	ltt_registry_free(&s->reg);
	if (ltt_registry_load(&s->reg))
		return -1;
	return ltt_event_id(&s->reg, name);
}

/* SET_EVENTS with exactly the ids in @ids (-1 ends). */
static int mask_only(int session_fd, const int *ids)
{
	__u64 mask[LTT_EVENTS_MAX / 64] = { 0 };

	for (; *ids >= 0; ids++)
		mask[*ids / 64] |= 1ULL << (*ids % 64);
	return ltt_set_mask(session_fd, mask, LTT_EVENTS_MAX);
}

/* Wait up to 2 s for (*word & bit) to be @on, as a worker writes it. */
static bool wait_flag(__u32 *word, __u32 bit, bool on)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (!!(FLAG(word) & bit) == on)
			return true;
		usleep(10000);
	}
	return false;
}

/* START and stop set and clear the bit, and only that bit. */
TEST_F(enable, flag_follows_start_and_stop)
{
	__u32 word = 0xa0000005;
	int fd = create_flagged("ltt_enable_ss", &word, 3);

	ASSERT_LE(0, fd) TH_LOG("EVENT_CREATE with a flag: %s",
				strerror(errno));
	EXPECT_EQ(0xa0000005, FLAG(&word)) TH_LOG("nobody records: bit 3 clear");
	START();
	EXPECT_EQ(0xa000000d, FLAG(&word)) TH_LOG("START sets bit 3 alone");
	ASSERT_EQ(0, ltt_stop(self->s.fd));
	EXPECT_EQ(0xa0000005, FLAG(&word)) TH_LOG("STOP clears bit 3 alone");
	START();
	EXPECT_EQ(0xa000000d, FLAG(&word));
	ltt_session_close(&self->s);
	EXPECT_EQ(0xa0000005, FLAG(&word)) TH_LOG("closing the session clears it");
	close(fd);
}

/* A session that masks the event off does not set it. */
TEST_F(enable, flag_follows_the_event_mask)
{
	__u32 word = 0;
	int fd = create_flagged("ltt_enable_mask", &word, 0);
	int ids[2] = { -1, -1 };

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ids[0] = id_of(&self->s, "ltt_enable_mask");
	ASSERT_LE(0, ids[0]);
	START();
	EXPECT_EQ(1U, FLAG(&word));
	ids[0] = ltt_event_id(&self->s.reg, "syscall_entry");
	ASSERT_EQ(0, mask_only(self->s.fd, ids));
	EXPECT_EQ(0U, FLAG(&word)) TH_LOG("masked off: clear");
	ids[0] = id_of(&self->s, "ltt_enable_mask");
	ASSERT_EQ(0, mask_only(self->s.fd, ids));
	EXPECT_EQ(1U, FLAG(&word)) TH_LOG("masked on again: set");
	close(fd);
}

static void *idle_thread(void *arg)
{
	pause();
	return arg;
}

/* A pid filter sets it for the process, or one of its threads, only. */
TEST_F(enable, flag_follows_the_pid_filter)
{
	__u32 word = 0;
	int fd = create_flagged("ltt_enable_pids", &word, 7);
	pid_t one = 1, tid;
	pthread_t th;

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	FILTER_PIDS(&one, 1);
	START();
	EXPECT_EQ(0U, FLAG(&word)) TH_LOG("another process recorded: clear");
	FILTER_SELF();
	EXPECT_EQ(0x80U, FLAG(&word)) TH_LOG("this process recorded: set");
	ASSERT_EQ(0, pthread_create(&th, NULL, idle_thread, NULL));
	tid = gettid();
	FILTER_PIDS(&one, 1);
	EXPECT_EQ(0U, FLAG(&word)) TH_LOG("another process again: clear");
	/* The main thread's tid is the pid; ask for a thread of ours. */
	{
		char path[64];
		DIR *d;
		struct dirent *de;
		pid_t other = 0;

		snprintf(path, sizeof(path), "/proc/%d/task", self->pid);
		d = opendir(path);
		ASSERT_NE(NULL, d);
		while ((de = readdir(d)))
			if (atoi(de->d_name) > 0 && atoi(de->d_name) != tid)
				other = atoi(de->d_name);
		closedir(d);
		ASSERT_LT(0, other);
		FILTER_PIDS(&other, 1);
		EXPECT_EQ(0x80U, FLAG(&word)) TH_LOG("a thread of ours: set");
	}
	ASSERT_EQ(0, ltt_set_pids(self->s.fd, NULL, 0));
	EXPECT_EQ(0x80U, FLAG(&word)) TH_LOG("no filter: set");
	pthread_cancel(th);
	pthread_join(th, NULL);
	close(fd);
}

/* Set while any of two sessions would take it. */
TEST_F(enable, flag_stays_while_another_session_records)
{
	__u32 word = 0;
	int fd = create_flagged("ltt_enable_two", &word, 31);
	struct ltt_session s2;

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_session_open(&s2, NULL)) TH_LOG("%s", ltt_err);
	START();
	ASSERT_EQ(0, ltt_start(s2.fd));
	EXPECT_EQ(0x80000000U, FLAG(&word));
	ASSERT_EQ(0, ltt_stop(self->s.fd));
	EXPECT_EQ(0x80000000U, FLAG(&word)) TH_LOG("the second still records");
	ltt_session_close(&s2);
	EXPECT_EQ(0U, FLAG(&word)) TH_LOG("neither records");
	close(fd);
}

/*
 * A child's copy of the word is the kernel's to keep too: cleared when
 * the pid filter leaves the child out, set when it names the child.
 */
TEST_F(enable, fork_child_flag_is_kept)
{
	__u32 word = 0;
	int fd = create_flagged("ltt_enable_fork", &word, 2);
	int go[2], status;
	char c = 0;
	pid_t child;

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	FILTER_SELF();
	START();
	ASSERT_EQ(4U, FLAG(&word));
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		close(go[1]);
		/* Not in the filter: the kernel clears the copy. */
		if (!wait_flag(&word, 4, false))
			_exit(1);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		/* Now the filter names the child. */
		if (!wait_flag(&word, 4, true))
			_exit(3);
		_exit(0);
	}
	close(go[0]);
	usleep(100000);
	FILTER_PIDS(&child, 1);
	EXPECT_EQ(0U, FLAG(&word)) TH_LOG("the parent is filtered out now");
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("child: 1 its copy stayed set, 3 it was never set");
	close(go[1]);
	close(fd);
}

/*
 * The new image after an exec: a word at the same address there is
 * nobody's flag.  Runs as "ltt_enable_test --exec-child": maps the page,
 * says so on fd 1, and exits 1 if the word ever changes before stdin ends.
 */
static int exec_child(void)
{
	__u32 *w = mmap(EXEC_PAGE, 4096, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS |
				 MAP_FIXED_NOREPLACE, -1, 0);
	char c;

	if (w != EXEC_PAGE)
		return 2;
	if (write(1, "r", 1) != 1)
		return 2;
	while (read(0, &c, 1) == 1)
		;
	return FLAG(w) ? 1 : 0;
}

TEST_F(enable, exec_leaves_the_new_image_alone)
{
	__u32 *word = mmap(EXEC_PAGE, 4096, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS |
				    MAP_FIXED_NOREPLACE, -1, 0);
	int to[2], from[2], fd, status, i;
	char c;
	pid_t child;

	ASSERT_EQ(EXEC_PAGE, (void *)word);
	fd = create_flagged("ltt_enable_exec", word, 0);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, pipe2(to, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(from, O_CLOEXEC));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		execl("/proc/self/exe", "ltt_enable_test", "--exec-child",
		      NULL);
		_exit(3);
	}
	close(to[0]);
	close(from[1]);
	ASSERT_EQ(1, read(from[0], &c, 1)) TH_LOG("the new image is up");
	for (i = 0; i < 3; i++) {
		START();
		EXPECT_EQ(1U, FLAG(word));
		ASSERT_EQ(0, ltt_stop(self->s.fd));
	}
	START();
	usleep(100000);
	close(to[1]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("1: the kernel wrote into the image after exec");
	close(from[0]);
	close(fd);
	munmap((void *)word, 4096);
}

/* Words that cannot be the kernel's to write are refused. */
TEST_F(enable, bad_words_are_refused)
{
	struct ltt_event_create c = {
		.n_fields = 1,
		.flags = LTT_EVENT_CREATE_ENABLE_FLAG,
		.fields = { { .name = "text", .type = LTT_FIELD_STRING } },
	};
	__u32 *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	static __u32 words[2];
	struct {
		__u64 addr;
		__u32 bit, flags;
		int err;
		const char *what;
	} bad[] = {
		{ (uintptr_t)ltt_unmapped_page(), 0, 1, EFAULT, "unmapped" },
		{ (uintptr_t)ro, 0, 1, EFAULT, "read-only" },
		{ 0, 0, 1, EFAULT, "NULL" },
		{ 0xffff888000000000ULL, 0, 1, EFAULT, "the kernel's" },
		{ (uintptr_t)words + 2, 0, 1, EINVAL, "misaligned" },
		{ (uintptr_t)words, 32, 1, EINVAL, "bit 32" },
		{ (uintptr_t)words, ~0U, 1, EINVAL, "bit ~0" },
		{ (uintptr_t)words, 0, 0, EINVAL, "an address without the flag" },
		{ (uintptr_t)words, 0, 3, EINVAL, "an unknown flag" },
	};
	unsigned int i;
	int rofd;

	ASSERT_NE(MAP_FAILED, ro);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(c.name, sizeof(c.name), "ltt_enable_bad%u", i);
		c.enable_addr = bad[i].addr;
		c.enable_bit = bad[i].bit;
		c.flags = bad[i].flags;
		errno = 0;
		EXPECT_EQ(-1, ltt(LTT_CMD_EVENT_CREATE, &c, sizeof(c)))
			TH_LOG("%s word accepted", bad[i].what);
		EXPECT_EQ(bad[i].err, errno)
			TH_LOG("%s: %s", bad[i].what, strerror(errno));
	}
	EXPECT_EQ(0U, *ro) TH_LOG("the read-only page was written");
	/* Read-only after the fact: left alone, no error anywhere. */
	c.enable_addr = (uintptr_t)ro;
	c.flags = LTT_EVENT_CREATE_ENABLE_FLAG;
	c.enable_bit = 0;
	ASSERT_EQ(0, mprotect(ro, 4096, PROT_READ | PROT_WRITE));
	snprintf(c.name, sizeof(c.name), "ltt_enable_ro");
	rofd = ltt(LTT_CMD_EVENT_CREATE, &c, sizeof(c));
	ASSERT_LE(0, rofd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, mprotect(ro, 4096, PROT_READ));
	START();
	EXPECT_EQ(0U, *ro) TH_LOG("written through a read-only mapping");
	ASSERT_EQ(0, ltt_stop(self->s.fd));
	close(rofd);
	munmap(ro, 4096);
}

/* The page goes away under the registration; then comes back. */
TEST_F(enable, unmapped_word_is_skipped_then_found_again)
{
	__u32 *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd;

	ASSERT_NE(MAP_FAILED, (void *)w);
	fd = create_flagged("ltt_enable_unmap", w, 5);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, munmap((void *)w, 4096));
	START();
	ASSERT_EQ(0, ltt_stop(self->s.fd));
	ASSERT_EQ((void *)w, mmap((void *)w, 4096, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
				  -1, 0));
	/* Anonymous memory not present yet is faulted in at once. */
	START();
	EXPECT_EQ(32U, FLAG(w)) TH_LOG("the new page's word, by START");
	ASSERT_EQ(0, ltt_stop(self->s.fd));
	EXPECT_EQ(0U, FLAG(w));
	close(fd);
	munmap((void *)w, 4096);
}

/*
 * A word in a shared file mapping whose page table entry is gone is
 * faulted in by a worker, not by START, which goes on.
 */
TEST_F(enable, file_word_not_present_is_written_by_a_worker)
{
	int mfd = memfd_create("ltt_enable", MFD_CLOEXEC), fd;
	__u32 *w;

	ASSERT_LE(0, mfd);
	ASSERT_EQ(0, ftruncate(mfd, 4096));
	w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	ASSERT_NE(MAP_FAILED, (void *)w);
	fd = create_flagged("ltt_enable_file", w, 9);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, madvise(w, 4096, MADV_DONTNEED));
	START();
	EXPECT_TRUE(wait_flag(w, 1U << 9, true))
		TH_LOG("the worker did not write the word");
	ASSERT_EQ(0, madvise(w, 4096, MADV_DONTNEED));
	ASSERT_EQ(0, ltt_stop(self->s.fd));
	EXPECT_TRUE(wait_flag(w, 1U << 9, false));
	close(fd);
	munmap(w, 4096);
	close(mfd);
}

/*
 * The page of a word is replaced while a session records (dlclose() and
 * dlopen() of the library that holds it, MADV_DONTNEED): the next
 * change of what the sessions take writes the new page's word, though
 * the old one held the same value.
 */
TEST_F(enable, flag_in_a_page_mapped_again_is_written_again)
{
	__u32 *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	__u64 all[LTT_EVENTS_MAX / 64];
	int fd;

	ASSERT_NE(MAP_FAILED, (void *)w);
	memset(all, 0xff, sizeof(all));
	fd = create_flagged("ltt_enable_remap", w, 2);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	START();
	ASSERT_EQ(4U, FLAG(w));
	ASSERT_EQ((void *)w, mmap((void *)w, 4096, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
				  -1, 0));
	ASSERT_EQ(0U, FLAG(w));
	ASSERT_EQ(0, ltt_set_mask(self->s.fd, all, LTT_EVENTS_MAX));
	EXPECT_TRUE(wait_flag(w, 4U, true))
		TH_LOG("the new page's word stayed 0 while the session records");
	ASSERT_EQ(0, ltt_stop(self->s.fd));
	close(fd);
	munmap((void *)w, 4096);
}

/*
 * The test's safety net, a process of its own so that it outlives a
 * failed test: thaw @mnt after 20 s, whatever hangs.
 */
static pid_t thaw_later(int mnt)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	sleep(20);
	ioctl(mnt, FITHAW, 0);
	_exit(0);
}

/* Is @pid asleep in D state (a fault that waits on a frozen fs)? */
static bool in_d_state(pid_t pid)
{
	char path[64], buf[256], *p;
	int i, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 500; i++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return false;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'D')
			return true;
		usleep(10000);
	}
	return false;
}

/*
 * A process registers a word whose page faults on a frozen file system
 * (or a FUSE server that never answers): it waits, as its own write to
 * the word would; nobody else's EVENT_CREATE, CREATE, START and STOP
 * wait with it.
 */
TEST_F(enable, registration_stuck_in_a_fault_blocks_nobody_else)
{
	struct ltt_session other;
	struct stat st;
	__u64 t0, took;
	int mfd, mnt, fd, status;
	pid_t child, watchdog;
	__u32 *w, mine = 0;

	ASSERT_EQ(0, ltt_ext2_mount()) TH_LOG("%s", ltt_err);
	/* Freeze our own loop device's file system, and no other. */
	ASSERT_EQ(0, stat(LTT_EXT2_MNT, &st));
	ASSERT_EQ(7U, major(st.st_dev)) TH_LOG(LTT_EXT2_MNT " is not on a loop device");
	mfd = open(LTT_EXT2_MNT "/flag", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
		   0600);
	ASSERT_LE(0, mfd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ftruncate(mfd, 4096));
	w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	ASSERT_NE(MAP_FAILED, (void *)w);
	*w = 0;
	mnt = open(LTT_EXT2_MNT, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, mnt);
	/* Written back and write-protected: a write fault now waits. */
	ASSERT_EQ(0, ioctl(mnt, FIFREEZE, 0)) TH_LOG("%s", strerror(errno));
	watchdog = thaw_later(mnt);
	child = fork();
	if (!child)
		_exit(create_flagged("ltt_enable_frozen", w, 0) < 0);
	EXPECT_TRUE(in_d_state(child)) TH_LOG("the registration did not wait on its page");

	t0 = ltt_now_ns(CLOCK_MONOTONIC);
	fd = create_flagged("ltt_enable_beside", &mine, 0);
	EXPECT_LE(0, fd) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, ltt_session_open(&other, NULL)) TH_LOG("%s", ltt_err);
	EXPECT_EQ(0, ltt_start(self->s.fd)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(1U, FLAG(&mine));
	EXPECT_EQ(0, ltt_stop(self->s.fd)) TH_LOG("%s", strerror(errno));
	took = ltt_now_ns(CLOCK_MONOTONIC) - t0;

	ioctl(mnt, FITHAW, 0);
	kill(watchdog, SIGKILL);
	waitpid(watchdog, NULL, 0);
	EXPECT_EQ(child, waitpid(child, &status, 0));
	ltt_session_close(&other);
	close(fd);
	close(mnt);
	munmap((void *)w, 4096);
	close(mfd);
	unlink(LTT_EXT2_MNT "/flag");
	EXPECT_GT(2000000000ULL, took)
		TH_LOG("EVENT_CREATE, CREATE, START, STOP: %llu ms beside a stuck registration",
		       (unsigned long long)took / 1000000);
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("the registration failed after the thaw");
}

/*
 * A registration lives as long as a copy of its event fd: after dup(),
 * close() and a new event on the same bit (libltt reuses a word once
 * the fd number comes back), the bit is set while either event is
 * taken, whichever of the two was registered last.
 */
TEST_F(enable, two_registrations_of_one_bit_are_judged_together)
{
	__u32 word = 0;
	int a, a2, b, ids[3];

	a = create_flagged("ltt_enable_twin_a", &word, 0);
	ASSERT_LE(0, a) TH_LOG("%s", strerror(errno));
	a2 = dup(a);
	ASSERT_LE(0, a2);
	close(a);
	b = create_flagged("ltt_enable_twin_b", &word, 0);
	ASSERT_LE(0, b) TH_LOG("%s", strerror(errno));
	ids[0] = id_of(&self->s, "ltt_enable_twin_a");
	ids[1] = id_of(&self->s, "ltt_enable_twin_b");
	ids[2] = -1;
	ASSERT_LE(0, ids[0]);
	ASSERT_LE(0, ids[1]);
	START();
	ASSERT_EQ(0, mask_only(self->s.fd, &ids[1]));
	EXPECT_EQ(1U, FLAG(&word)) TH_LOG("{b}");
	ASSERT_EQ(0, mask_only(self->s.fd, ids));
	EXPECT_EQ(1U, FLAG(&word)) TH_LOG("{a, b}");
	ids[1] = -1;
	ASSERT_EQ(0, mask_only(self->s.fd, ids));
	EXPECT_EQ(1U, FLAG(&word)) TH_LOG("{a}: a's dup records, b does not");
	ids[0] = id_of(&self->s, "ltt_enable_twin_b");
	ASSERT_EQ(0, mask_only(self->s.fd, ids));
	/* a's last copy goes: b's bit stays. */
	close(a2);
	EXPECT_EQ(1U, FLAG(&word)) TH_LOG("{b}, a closed");
	ids[0] = -1;
	ASSERT_EQ(0, mask_only(self->s.fd, ids));
	EXPECT_EQ(0U, FLAG(&word)) TH_LOG("{}");
	ASSERT_EQ(0, ltt_stop(self->s.fd));
	close(b);
}

/* A caller of the first version of the struct has no flag, as before. */
TEST_F(enable, old_callers_create_without_a_flag)
{
	struct ltt_event_create c = {
		.name = "ltt_enable_old",
		.n_fields = 1,
		.fields = { { .name = "text", .type = LTT_FIELD_STRING } },
	};
	int fd = ltt(LTT_CMD_EVENT_CREATE, &c, LTT_EVENT_CREATE_SIZE_VER0);

	ASSERT_LE(0, fd) TH_LOG("VER0: %s", strerror(errno));
	START();
	EXPECT_EQ(0, log_text(fd, "old"));
	close(fd);
	c.flags = LTT_EVENT_CREATE_ENABLE_FLAG;
	errno = 0;
	EXPECT_EQ(-1, ltt(LTT_CMD_EVENT_CREATE, &c,
			  LTT_EVENT_CREATE_SIZE_VER0));
	EXPECT_EQ(EFAULT, errno) TH_LOG("VER0 with the flag: address 0");
}

#define USER_SESSIONS	"/proc/sys/kernel/ltt_user_sessions"
#define NOBODY		65534

/*
 * An unprivileged user's session sets the flags of that user's own
 * processes only: not root's, though root's process made its type the
 * same way.
 */
TEST(user_session_sets_only_its_users_flags)
{
	static __u32 root_word, nobody_word;
	struct ltt_create cr = {
		.subbuf_size = 16384, .n_subbufs = 4, .mode = LTT_MODE_DISCARD,
	};
	int fd, p[2], q[2], status;
	char c = 0;
	pid_t child;

	if (ltt_write_str(USER_SESSIONS, "1"))
		SKIP(return, "%s", ltt_err);
	fd = create_flagged("ltt_enable_root", &root_word, 0);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(q));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		int efd, sfd;

		close(fd);
		if (setgid(NOBODY) || setuid(NOBODY) ||
		    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
			_exit(10);
		efd = create_flagged("ltt_enable_nobody", &nobody_word, 1);
		if (efd < 0)
			_exit(11);
		if (FLAG(&nobody_word))
			_exit(12);
		sfd = ltt(LTT_CMD_CREATE, &cr, sizeof(cr));
		if (sfd < 0 || ltt_start(sfd))
			_exit(13);
		if (FLAG(&nobody_word) != 2)
			_exit(14);
		if (write(p[1], &c, 1) != 1 || read(q[0], &c, 1) != 1)
			_exit(15);
		_exit(0);
	}
	/* Wait for the child's session, then look at ours. */
	ASSERT_EQ(1, read(p[0], &c, 1));
	EXPECT_EQ(0U, FLAG(&root_word))
		TH_LOG("nobody's session set root's flag");
	ASSERT_EQ(1, write(q[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("child: 11 no flag, 12 set too early, 13 no session, 14 not set");
	close(fd);
	ltt_write_str(USER_SESSIONS, "0");
}

/*
 * Nobody's process holds 1000 flagged event fds and forks 70 times:
 * every child copies the registrations, 71,000 of them, more than the
 * whole system may hold.  They are counted against nobody, who runs out;
 * root's EVENT_CREATE with a flag still succeeds.
 */
TEST(one_users_forks_leave_room_for_everyone_else)
{
	static __u32 words[1000], root_word;
	int p[2], status, fd, n;
	pid_t child;
	char c;

	if (ltt_write_str(USER_SESSIONS, "1"))
		SKIP(return, "%s", ltt_err);
	ASSERT_EQ(0, pipe(p));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		pid_t kids[70];
		int i, k;

		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setgid(NOBODY) || setuid(NOBODY) ||
		    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
			_exit(10);
		for (i = 0; i < 1000; i++)
			if (create_flagged("ltt_enable_forker", &words[i], 0) < 0)
				break;
		for (k = 0; k < 70; k++) {
			kids[k] = fork();
			if (!kids[k]) {
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				pause();
				_exit(0);
			}
		}
		c = i > 0;
		if (write(p[1], &c, 1) != 1)
			_exit(11);
		pause();
		for (k = 0; k < 70; k++)
			kill(kids[k], SIGKILL);
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], &c, 1);
	fd = create_flagged("ltt_enable_root_room", &root_word, 0);
	EXPECT_LE(0, fd) TH_LOG("root's flagged EVENT_CREATE: %s", strerror(errno));
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	close(p[0]);
	if (fd >= 0)
		close(fd);
	ltt_write_str(USER_SESSIONS, "0");
	EXPECT_EQ(1, n) TH_LOG("nobody's process did not get going");
}

/* Many registrations, 32 of them sharing each word. */
TEST_F(enable, many_flags_share_words)
{
	enum { N = 256 };
	static __u32 words[N / 32];
	int fds[N], i;
	char name[32];

	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "ltt_enable_many%d", i);
		fds[i] = create_flagged(name, &words[i / 32], i % 32);
		ASSERT_LE(0, fds[i]) TH_LOG("%d: %s", i, strerror(errno));
	}
	START();
	for (i = 0; i < N / 32; i++)
		EXPECT_EQ(~0U, FLAG(&words[i])) TH_LOG("word %d", i);
	ASSERT_EQ(0, ltt_stop(self->s.fd));
	for (i = 0; i < N / 32; i++)
		EXPECT_EQ(0U, FLAG(&words[i])) TH_LOG("word %d", i);
	for (i = 0; i < N; i++)
		close(fds[i]);
}

/*
 * Logging behind the flag: no ltt() system call while the session
 * records system calls but not the event; every event, in order, with
 * this process's pid, when it records the event too.
 */
TEST_F(enable, flag_off_costs_no_system_call)
{
	__u32 word = 0;
	int fd = create_flagged("ltt_enable_cost", &word, 1);
	int ids[3] = { -1, -1, -1 }, i, logged = 0, custom, marks = 0;
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	size_t k, calls = 0, seen = 0;
	char text[16];

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ltt_open_readers(&self->s)) TH_LOG("%s", ltt_err);
	ASSERT_LE(0, ltt_pin_to_buffer_cpu(&self->s));
	custom = id_of(&self->s, "ltt_enable_cost");
	ASSERT_LE(0, custom);
	ids[0] = ltt_event_id(reg, "syscall_entry");
	ASSERT_EQ(0, mask_only(self->s.fd, ids));
	FILTER_SELF();
	START();
	EXPECT_EQ(0U, FLAG(&word));
	syscall(SYS_getppid);
	for (i = 0; i < 1000; i++)
		if (FLAG(&word) & 2)
			logged += !log_text(fd, "never");
	syscall(SYS_getppid);
	ids[1] = custom;
	ASSERT_EQ(0, mask_only(self->s.fd, ids));
	EXPECT_EQ(2U, FLAG(&word));
	for (i = 0; i < 100; i++) {
		snprintf(text, sizeof(text), "%d", i);
		if (FLAG(&word) & 2)
			logged += !log_text(fd, text);
	}
	STOP_AND_READ(&t);
	EXPECT_EQ(100, logged);
	for (k = 0; k < t.n; k++) {
		if (IS(&t.ev[k], "syscall_entry") &&
		    FIELD(&t.ev[k], "id") == SYS_getppid)
			marks++;
		else if (marks == 1 && IS(&t.ev[k], "syscall_entry"))
			calls++;
		if (t.ev[k].id != (unsigned int)custom)
			continue;
		snprintf(text, sizeof(text), "%zu", seen);
		EXPECT_STREQ(text, t.ev[k].str);
		EXPECT_EQ(self->pid, t.ev[k].pid);
		seen++;
	}
	EXPECT_EQ(2, marks) TH_LOG("the getppid() marks");
	EXPECT_EQ((size_t)0, calls)
		TH_LOG("system calls by 1000 logs while nobody takes them");
	EXPECT_EQ((size_t)100, seen) TH_LOG("events recorded, in order");
	ltt_trace_free(&t);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--exec-child"))
		return exec_child();
	return test_harness_run(argc, argv);
}
