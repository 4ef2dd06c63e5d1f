// SPDX-License-Identifier: GPL-2.0
/*
 * A fuzzer of ltt() and of the fds it hands out.  Seeded and bounded, it
 * makes commands valid, near-valid and random, of random sizes (0,
 * VER0 - 1, exact, longer with a zero or a non-zero tail, PAGE_SIZE + 1,
 * huge), contents (random, boundary values, valid with one field
 * mutated) and pointers (NULL, unmapped, read-only, straddling into a
 * read-only or an inaccessible page, kernel, valid); and it works the
 * session, buffer and event fds it gets back with ioctl, mmap, munmap,
 * mprotect, mremap, poll, read, write, dup and close, as root and as
 * nobody.
 *
 * Every call must succeed or fail with an errno that its command may
 * return (fz_errs_*); where the ABI leaves one answer only (a command
 * past LTT_CMD_MAX, a size below VER0, a pointer that faults, a closed
 * fd, an fd of the wrong kind, PUT with no packet taken, a write to the
 * read-only buffer fd ...) it must be that errno.  What succeeds is
 * checked too: new fds are close-on-exec, STATUS and BUFFER_INFO report
 * the geometry asked for, EVENT_INFO describes a well-formed event,
 * GET_SUBBUF hands out a packet whose header is sane, poll agrees with
 * GET_SUBBUF, and no buffer mapping is ever writable or larger than the
 * buffer.  Afterwards a normal recording must still work.
 *
 *   LTT_FUZZ_SEED	the seed (default FZ_SEED; printed)
 *   LTT_FUZZ_COUNT	random calls per test (default FZ_COUNT)
 *   LTT_FUZZ_LOG=1	print every call, to replay a failure (=N: from
 *			iteration N on, of every test)
 *
 * or ltt.fuzz_seed= and ltt.fuzz_count= on the kernel command line.  A
 * failure names the seed, the iteration and the call: the same seed and
 * count replay it.
 */
#define _GNU_SOURCE
/* 64-bit offsets on 32-bit too: mmap() of an offset past 4 GiB. */
#define _FILE_OFFSET_BITS 64
#include <limits.h>
#include <stddef.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>

#include "kselftest_harness.h"
#include "ltt_stress.h"

#define FZ_SEED		0x1a77f022u	/* the default seed */
#define FZ_COUNT	200000		/* random calls of a test */

#define FZ_FDS_MAX	48	/* fds kept; the oldest is closed beyond */
#define FZ_MAPS_MAX	16	/* buffer mappings kept */
#define FZ_SESSIONS_MAX	6	/* sessions alive (by any fd or mapping) */
/* Sessions are small, bar a few, so that all of them fit in the guest. */
#define FZ_SMALL_BYTES	(2U << 20)	/* per CPU */
#define FZ_BIG_BYTES	(32U << 20)
#define FZ_BIG_MAX	2
/*
 * A START costs a state dump and a STOP a grace period: after this many
 * successful ones the rest are made to fail, to bound the time.
 */
#define FZ_STARTS_MAX	300
#define FZ_CREATES_MAX	400
/*
 * All fds are closed (and the probes let go) every this many iterations
 * (not a share of the count: a shorter run replays a longer one).
 */
#define FZ_CYCLE	50000
/*
 * A session that never records, at an fd no random number reaches, keeps
 * the probes attached between cycles: attaching them patches the kernel.
 */
#define FZ_ANCHOR_FD	900
#define FZ_CLOSED_FD	899		/* never open */

/* The memory the kernel is pointed at: read-write, read-only, none. */
#define FZ_RW_PAGES	3
#define FZ_RO_PAGE	FZ_RW_PAGES
#define FZ_NONE_PAGE	(FZ_RW_PAGES + 1)
#define FZ_PAGES	(FZ_RW_PAGES + 2)

#define FZ_KERNEL_EVENT_INFO	LTT_EVENT_INFO_SIZE_VER1

enum fz_kind { FZ_SESSION, FZ_BUFFER, FZ_EVENT };

static const char *const fz_kind_name[] = { "session", "buffer", "event" };

/* An fd the fuzzer holds; dups share @obj. */
struct fz_fd {
	int fd;
	enum fz_kind kind;
	unsigned int obj;	/* the open file */
	unsigned int sobj;	/* the session (session and buffer fds) */
	bool cloexec;		/* made by ltt(), not by dup() */
	/* Sessions and buffers: the geometry; buffers: the CPU. */
	__u32 mode, subbuf_size, n_subbufs, cpu;
	/* Events: the payload the layout takes. */
	__u32 payload;
	bool string;
};

/* A mapping of a buffer. */
struct fz_map {
	unsigned char *addr;
	size_t len;
	__u64 off;		/* in the buffer */
	unsigned int obj, sobj;
	__u32 cpu, subbuf_size;
	bool readable;
};

/* Memory the kernel reads and writes: @k as it sees it, @w to fill it. */
struct fz_arena {
	unsigned char *k;
	unsigned char *w;
};

/* How a pointer given to the kernel was made. */
enum fz_ptr {
	FZ_PTR_VALID,		/* read-write */
	FZ_PTR_RO,		/* read-only page */
	FZ_PTR_STRADDLE_RO,	/* read-write into read-only */
	FZ_PTR_STRADDLE_NONE,	/* read-only into inaccessible */
	FZ_PTR_NULL,
	FZ_PTR_UNMAPPED,
	FZ_PTR_KERNEL,
	FZ_PTR_KINDS,
};

static const char *const fz_ptr_name[] = {
	"valid", "read-only", "straddling into read-only",
	"straddling into no access", "NULL", "unmapped", "kernel",
};

/* The call being judged, described on failure only. */
struct fz_call {
	const char *op;
	unsigned int cmd;
	enum fz_ptr ptr;
	uintptr_t addr;
	size_t size;
	int fd;
	unsigned long a[3];
};

struct fz {
	__u64 seed, rng;
	unsigned long iter, count;
	unsigned long log_from;		/* LTT_FUZZ_LOG's first iteration */
	bool log, root, user_sessions, own_anchor;
	long page;
	unsigned int nr_cpu_ids, n_kernel_events;
	struct fz_arena arg, data;
	void *unmapped;
	int devnull, anchor;

	struct fz_fd fds[FZ_FDS_MAX + 1];
	unsigned int n_fds, next_obj;
	struct fz_map maps[FZ_MAPS_MAX];
	unsigned int n_maps;
	/* Buffer files with a packet taken, by obj (FZ_FDS_MAX * 8 of them). */
	unsigned int held[FZ_FDS_MAX];
	unsigned int n_held;

	unsigned long starts, creates, bigs, ltt_calls, fd_ops, oks;
	unsigned long by_errno[256];

	/* The command struct being built, and its tail. */
	unsigned char buf[2 * 4096 + 64];
	struct fz_call call;
	char err[2048];
};

/* The iteration a signal interrupted, for the replay. */
static struct fz *fz_current;

/*
 * A cgroup v2 directory, open for the whole test (the fixture's, so that
 * nobody's fuzzer inherits it), or -1: what SET_CGROUPS takes.
 */
static int fz_cgroup_fd = -1;

/* ---- Randomness ---- */

static __u64 fz_rand(struct fz *z)
{
	/* xorshift64* */
	z->rng ^= z->rng >> 12;
	z->rng ^= z->rng << 25;
	z->rng ^= z->rng >> 27;
	return z->rng * 0x2545F4914F6CDD1DULL;
}

static __u32 fz_below(struct fz *z, __u32 n)
{
	return n ? (__u32)(fz_rand(z) >> 32) % n : 0;
}

static bool fz_chance(struct fz *z, unsigned int percent)
{
	return fz_below(z, 100) < percent;
}

static void fz_fill(struct fz *z, void *p, size_t n)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = fz_rand(z) >> 56;
}

/* The values that sit on the edges of what the kernel checks. */
static __u32 fz_boundary32(struct fz *z)
{
	static const __u32 v[] = {
		0, 1, 2, 3, 4, 7, 8, 31, 32, 63, 64, 65, 255, 256, 257,
		1023, 1024, 1025, 4095, 4096, 4097, 8191, 8192, 8193,
		9999, 10000, 10001, 65535, 65536, (16U << 20) - 1, 16U << 20,
		(16U << 20) + 1, 256U << 20, 0x7fffffff, 0x80000000,
		0xfffffffe, 0xffffffff, LTT_CMD_MAX, LTT_MODE_MAX,
	};

	switch (fz_below(z, 8)) {
	case 0:
		return z->nr_cpu_ids + fz_below(z, 3) - 1;
	case 1:
		return z->n_kernel_events + fz_below(z, 3) - 1;
	default:
		return v[fz_below(z, ARRAY_SIZE(v))];
	}
}

/* ---- Failing ---- */

static void fz_describe(struct fz *z, char *out, size_t size)
{
	const struct fz_call *c = &z->call;

	if (!strcmp(c->op, "ltt"))
		snprintf(out, size,
			 "ltt(cmd %u, %s pointer %#lx, size %zu), struct %02x%02x%02x%02x %02x%02x%02x%02x %02x%02x%02x%02x %02x%02x%02x%02x...",
			 c->cmd, fz_ptr_name[c->ptr], (unsigned long)c->addr,
			 c->size, z->buf[0], z->buf[1], z->buf[2], z->buf[3],
			 z->buf[4], z->buf[5], z->buf[6], z->buf[7],
			 z->buf[8], z->buf[9], z->buf[10], z->buf[11],
			 z->buf[12], z->buf[13], z->buf[14], z->buf[15]);
	else
		snprintf(out, size, "%s(fd %d, %#lx, %#lx, %#lx)", c->op,
			 c->fd, c->a[0], c->a[1], c->a[2]);
}

/* The first failure, with what replays it. */
static __printf(2, 3) void fz_bad(struct fz *z, const char *fmt, ...)
{
	char what[512], why[768];
	va_list ap;

	if (z->err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	fz_describe(z, what, sizeof(what));
	snprintf(z->err, sizeof(z->err),
		 "seed %#llx iteration %lu (LTT_FUZZ_SEED=%#llx LTT_FUZZ_COUNT=%lu replays it): %s: %s",
		 (unsigned long long)z->seed, z->iter,
		 (unsigned long long)z->seed, z->iter + 1, what, why);
}

/*
 * Judge a call that returns -1 and errno on failure, just made: a
 * success must be in [0, @max], a failure's errno in @errs, and be
 * @want when that is not 0.  Returns whether it succeeded.
 */
static bool fz_judge(struct fz *z, long ret, const int *errs, int want,
		     long max)
{
	int err = errno;

	if (z->log && z->iter >= z->log_from) {
		char what[512];

		fz_describe(z, what, sizeof(what));
		printf("# %lu: %s = %ld%s%s\n", z->iter, what, ret,
		       ret < 0 ? " " : "", ret < 0 ? strerror(err) : "");
	}
	if (ret >= 0 && ret <= max) {
		if (want)
			fz_bad(z, "succeeded (%ld), expected %s", ret,
			       strerror(want));
		z->oks++;
		return !want;
	}
	if (ret != -1) {
		fz_bad(z, "returned %ld", ret);
		return false;
	}
	z->by_errno[err & 255]++;
	if (want && err != want)
		fz_bad(z, "failed with %s (%d), expected %s", strerror(err),
		       err, strerror(want));
	else if (!ltt_errno_in(errs, err))
		fz_bad(z, "failed with %s (%d), not an errno this call returns",
		       strerror(err), err);
	return false;
}

/* ---- The errnos each command may return ---- */

/*
 * Every command copies its struct in first (EINVAL, E2BIG, EFAULT), and
 * those on a session look the session fd up (EBADF, EINVAL).
 */
static const int fz_errs_create[] = {
	EINVAL, E2BIG, EFAULT, EPERM, ENOSPC, ENOMEM, EMFILE, ENFILE, 0
};

static const int fz_errs_set_events[] = {
	EINVAL, E2BIG, EFAULT, EBADF, ENOMEM, 0
};

static const int fz_errs_set_pids[] = {
	EINVAL, E2BIG, EFAULT, EBADF, ENOMEM, ESRCH, 0
};

/* EOPNOTSUPP: a kernel without cgroups. */
static const int fz_errs_set_cgroups[] = {
	EINVAL, E2BIG, EFAULT, EBADF, ENOENT, ENOMEM, EOPNOTSUPP, 0
};

static const int fz_errs_start[] = { EINVAL, E2BIG, EFAULT, EBADF, EBUSY, 0 };

/* STOP, SNAPSHOT */
static const int fz_errs_stop[] = { EINVAL, E2BIG, EFAULT, EBADF, 0 };

/* STATUS gathers the CPUs' entries before it copies them out. */
static const int fz_errs_status[] = { EINVAL, E2BIG, EFAULT, EBADF, ENOMEM, 0 };

static const int fz_errs_buffer_fd[] = {
	EINVAL, E2BIG, EFAULT, EBADF, ENODEV, EBUSY, ENOMEM, EMFILE, ENFILE, 0
};

static const int fz_errs_event_info[] = { EINVAL, E2BIG, EFAULT, ENOENT, 0 };

static const int fz_errs_event_create[] = {
	EINVAL, E2BIG, EFAULT, EPERM, EEXIST, ENOSPC, ENOMEM, EMFILE, ENFILE, 0
};

static const int fz_errs_event_log[] = {
	EINVAL, E2BIG, EFAULT, EBADF, ENOMEM, 0
};

/* No boot session exists while the fuzzer runs: ENOENT for root. */
static const int fz_errs_boot[] = { EINVAL, E2BIG, EFAULT, EPERM, ENOENT, 0 };

/* No previous boot's trace while the fuzzer runs: ENOENT for root. */
static const int fz_errs_previous[] = { EINVAL, E2BIG, EFAULT, EPERM, ENOENT, 0 };

/* A command past LTT_CMD_MAX. */
static const int fz_errs_unknown[] = { EINVAL, 0 };

static const int *const fz_errs[LTT_CMD_MAX] = {
	[LTT_CMD_CREATE] = fz_errs_create,
	[LTT_CMD_SET_EVENTS] = fz_errs_set_events,
	[LTT_CMD_SET_PIDS] = fz_errs_set_pids,
	[LTT_CMD_START] = fz_errs_start,
	[LTT_CMD_STOP] = fz_errs_stop,
	[LTT_CMD_STATUS] = fz_errs_status,
	[LTT_CMD_BUFFER_FD] = fz_errs_buffer_fd,
	[LTT_CMD_EVENT_INFO] = fz_errs_event_info,
	[LTT_CMD_SNAPSHOT] = fz_errs_stop,
	[LTT_CMD_EVENT_CREATE] = fz_errs_event_create,
	[LTT_CMD_EVENT_LOG] = fz_errs_event_log,
	[LTT_CMD_BOOT] = fz_errs_boot,
	[LTT_CMD_SET_CGROUPS] = fz_errs_set_cgroups,
	[LTT_CMD_PREVIOUS_BOOT] = fz_errs_previous,
};

/* The fd operations. */
static const int fz_errs_get[] = { EAGAIN, ENODATA, EBUSY, EFAULT, 0 };

static const int fz_errs_put[] = { EINVAL, 0 };

static const int fz_errs_info[] = { EFAULT, 0 };
static const int fz_errs_snapshot[] = { EINVAL, EFAULT, 0 };
static const int fz_errs_snapshot_read[] = { EINVAL, EAGAIN, ESTALE, EFAULT, 0 };

static const int fz_errs_ioctl_other[] = { ENOTTY, 0 };

/* mmap(2) itself: bad length, offset or flags, and the file's refusals. */
static const int fz_errs_mmap[] = {
	EINVAL, ENOMEM, EOVERFLOW, EACCES, EPERM, ENODEV, EAGAIN, 0
};

static const int fz_errs_mprotect[] = { EACCES, 0 };

static const int fz_errs_mremap[] = { EFAULT, EINVAL, ENOMEM, EAGAIN, 0 };

/* No read or write method (and no read may block). */
static const int fz_errs_read[] = { EINVAL, EAGAIN, EFAULT, 0 };

static const int fz_errs_write[] = { EBADF, EINVAL, EAGAIN, EFAULT, 0 };

static const int fz_errs_dup[] = { EMFILE, 0 };

static const int fz_errs_none[] = { 0 };

/* The sizes of the structs, as this kernel and as VER0 know them. */
static const struct {
	size_t size, ver0;
} fz_size[LTT_CMD_MAX] = {
	[LTT_CMD_CREATE] = { sizeof(struct ltt_create), LTT_CREATE_SIZE_VER0 },
	[LTT_CMD_SET_EVENTS] = { sizeof(struct ltt_events),
				 LTT_EVENTS_SIZE_VER0 },
	[LTT_CMD_SET_PIDS] = { sizeof(struct ltt_pids), LTT_PIDS_SIZE_VER0 },
	[LTT_CMD_START] = { sizeof(struct ltt_session_cmd),
			    LTT_SESSION_CMD_SIZE_VER0 },
	[LTT_CMD_STOP] = { sizeof(struct ltt_session_cmd),
			   LTT_SESSION_CMD_SIZE_VER0 },
	[LTT_CMD_STATUS] = { sizeof(struct ltt_status), LTT_STATUS_SIZE_VER0 },
	[LTT_CMD_BUFFER_FD] = { sizeof(struct ltt_buffer_req),
				LTT_BUFFER_REQ_SIZE_VER0 },
	[LTT_CMD_EVENT_INFO] = { sizeof(struct ltt_event_info),
				 LTT_EVENT_INFO_SIZE_VER0 },
	[LTT_CMD_SNAPSHOT] = { sizeof(struct ltt_session_cmd),
			       LTT_SESSION_CMD_SIZE_VER0 },
	[LTT_CMD_EVENT_CREATE] = { sizeof(struct ltt_event_create),
				   LTT_EVENT_CREATE_SIZE_VER0 },
	[LTT_CMD_EVENT_LOG] = { sizeof(struct ltt_event_log),
				LTT_EVENT_LOG_SIZE_VER0 },
	[LTT_CMD_BOOT] = { sizeof(struct ltt_boot), LTT_BOOT_SIZE_VER0 },
	[LTT_CMD_PREVIOUS_BOOT] = { sizeof(struct ltt_previous),
				    LTT_PREVIOUS_SIZE_VER0 },
	[LTT_CMD_SET_CGROUPS] = { sizeof(struct ltt_cgroups),
				  LTT_CGROUPS_SIZE_VER0 },
};

/* ---- Memory ---- */

static int fz_arena_init(struct fz *z, struct fz_arena *a)
{
	size_t len = FZ_PAGES * z->page;
	int fd = memfd_create("ltt-fuzz", MFD_CLOEXEC);
	void *k, *w;

	if (fd < 0 || ftruncate(fd, len))
		return ltt_fail("memfd: %s", strerror(errno));
	k = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	w = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (k == MAP_FAILED || w == MAP_FAILED)
		return ltt_fail("mmap of the arena: %s", strerror(errno));
	if (mprotect(k + FZ_RO_PAGE * z->page, z->page, PROT_READ) ||
	    mprotect(k + FZ_NONE_PAGE * z->page, z->page, PROT_NONE))
		return ltt_fail("mprotect of the arena: %s", strerror(errno));
	a->k = k;
	a->w = w;
	return 0;
}

static void fz_arena_free(struct fz *z, struct fz_arena *a)
{
	if (a->k)
		munmap(a->k, FZ_PAGES * z->page);
	if (a->w)
		munmap(a->w, FZ_PAGES * z->page);
	a->k = NULL;
	a->w = NULL;
}

/*
 * A pointer into @a (or not) for @n bytes, of a random kind; the bytes
 * at @src are put there, as far as they fit in the readable pages.
 * Returns the address and sets *@kind and *@room, the bytes readable
 * from it.
 */
static uintptr_t fz_place(struct fz *z, struct fz_arena *a, const void *src,
			  size_t n, enum fz_ptr *kind, size_t *room)
{
	static const uintptr_t kernel[] = {
		0xffff800000000000UL, 0xffff888000000000UL,
		0xffffffff81000000UL, 0x8000000000000000UL, ~0UL,
	};
	size_t rw = FZ_RW_PAGES * z->page, end = FZ_NONE_PAGE * z->page;
	size_t off, k = n ? 1 + fz_below(z, n) : 1;
	unsigned int r = fz_below(z, 100);

	if (r < 75) {
		*kind = FZ_PTR_VALID;
		off = fz_chance(z, 70) || n >= rw ? 0 : fz_below(z, rw - n);
	} else if (r < 79) {
		*kind = FZ_PTR_RO;
		off = rw + fz_below(z, 64);
	} else if (r < 83) {
		*kind = FZ_PTR_STRADDLE_RO;
		off = rw - (k < rw ? k : rw);
	} else if (r < 88) {
		*kind = FZ_PTR_STRADDLE_NONE;
		off = end - (k < end ? k : end);
	} else if (r < 91) {
		*kind = FZ_PTR_NULL;
		*room = 0;
		return 0;
	} else if (r < 94) {
		*kind = FZ_PTR_UNMAPPED;
		*room = 0;
		return (uintptr_t)z->unmapped + fz_below(z, 64);
	}
	if (r >= 94) {
		*kind = FZ_PTR_KERNEL;
		*room = 0;
		return kernel[fz_below(z, ARRAY_SIZE(kernel))];
	}
	*room = end - off;
	memcpy(a->w + off, src, n < *room ? n : *room);
	return (uintptr_t)(a->k + off);
}

/* What the kernel wrote at @addr of @a, when it is in the arena. */
static const void *fz_readback(const struct fz_arena *a, uintptr_t addr)
{
	return a->w + (addr - (uintptr_t)a->k);
}

/* ---- The fds ---- */

static struct fz_fd *fz_lookup(struct fz *z, int fd)
{
	unsigned int i;

	for (i = 0; i < z->n_fds; i++)
		if (z->fds[i].fd == fd)
			return &z->fds[i];
	return NULL;
}

static bool fz_is_held(struct fz *z, unsigned int obj)
{
	unsigned int i;

	for (i = 0; i < z->n_held; i++)
		if (z->held[i] == obj)
			return true;
	return false;
}

static void fz_set_held(struct fz *z, unsigned int obj, bool held)
{
	unsigned int i;

	for (i = 0; i < z->n_held; i++) {
		if (z->held[i] == obj) {
			if (!held)
				z->held[i] = z->held[--z->n_held];
			return;
		}
	}
	if (held && z->n_held < ARRAY_SIZE(z->held))
		z->held[z->n_held++] = obj;
}

/* Is a file still open, by an fd or a mapping? */
static bool fz_obj_alive(struct fz *z, unsigned int obj)
{
	unsigned int i;

	for (i = 0; i < z->n_fds; i++)
		if (z->fds[i].obj == obj)
			return true;
	for (i = 0; i < z->n_maps; i++)
		if (z->maps[i].obj == obj)
			return true;
	return false;
}

static void fz_unmap(struct fz *z, unsigned int i)
{
	unsigned int obj = z->maps[i].obj;

	z->call = (struct fz_call){ .op = "munmap",
		.a = { (uintptr_t)z->maps[i].addr, z->maps[i].len } };
	fz_judge(z, munmap(z->maps[i].addr, z->maps[i].len),
		 fz_errs_none, 0, 0);
	z->maps[i] = z->maps[--z->n_maps];
	if (!fz_obj_alive(z, obj))
		fz_set_held(z, obj, false);
}

static void fz_close(struct fz *z, unsigned int i)
{
	unsigned int obj = z->fds[i].obj;

	z->call = (struct fz_call){ .op = "close", .fd = z->fds[i].fd };
	fz_judge(z, close(z->fds[i].fd), fz_errs_none, 0, 0);
	memmove(&z->fds[i], &z->fds[i + 1],
		(z->n_fds - i - 1) * sizeof(z->fds[0]));
	z->n_fds--;
	/* The last fd of a buffer file: its packet is given back. */
	if (!fz_obj_alive(z, obj))
		fz_set_held(z, obj, false);
}

/* Close every fd and mapping of session @sobj. */
static void fz_retire(struct fz *z, unsigned int sobj)
{
	unsigned int i;

	for (i = z->n_fds; i--; )
		if (z->fds[i].sobj == sobj && z->fds[i].kind != FZ_EVENT)
			fz_close(z, i);
	for (i = z->n_maps; i--; )
		if (z->maps[i].sobj == sobj)
			fz_unmap(z, i);
}

static unsigned int fz_sessions_alive(struct fz *z, unsigned int *oldest)
{
	unsigned int i, j, n = 0;

	*oldest = 0;
	for (i = 0; i < z->n_fds; i++) {
		if (z->fds[i].kind == FZ_EVENT)
			continue;
		for (j = 0; j < i; j++)
			if (z->fds[j].kind != FZ_EVENT &&
			    z->fds[j].sobj == z->fds[i].sobj)
				break;
		if (j < i)
			continue;
		if (!n++ || z->fds[i].sobj < *oldest)
			*oldest = z->fds[i].sobj;
	}
	return n;
}

/*
 * Keep a new fd, closing the oldest beyond FZ_FDS_MAX, and the oldest
 * session beyond FZ_SESSIONS_MAX.
 */
static void fz_track(struct fz *z, const struct fz_fd *f)
{
	unsigned int oldest;

	/*
	 * The new fd counts before the oldest is closed to make room: a dup
	 * of the oldest keeps its file, and the packet it holds, alive.
	 */
	z->fds[z->n_fds++] = *f;
	if (z->n_fds > FZ_FDS_MAX)
		fz_close(z, 0);
	if (f->kind != FZ_EVENT &&
	    fz_sessions_alive(z, &oldest) > FZ_SESSIONS_MAX)
		fz_retire(z, oldest);
}

/*
 * A new fd from ltt(): it must be open, close-on-exec, and not one that
 * is open already.
 */
static bool fz_check_new_fd(struct fz *z, int fd)
{
	int flags = fcntl(fd, F_GETFD);

	if (fz_lookup(z, fd) || fd == z->devnull || fd == z->anchor ||
	    fd == fz_cgroup_fd) {
		fz_bad(z, "returned fd %d, which was open already", fd);
		return false;
	}
	if (flags < 0 || !(flags & FD_CLOEXEC)) {
		fz_bad(z, "fd %d: F_GETFD %d (%s): not close-on-exec", fd,
		       flags, flags < 0 ? strerror(errno) : "no FD_CLOEXEC");
		return false;
	}
	return true;
}

/* Random fd numbers, most of them ours. */
static int fz_pick_fd(struct fz *z, int want_kind)
{
	static const int odd[] = {
		-1, INT_MIN, INT_MAX, FZ_CLOSED_FD, 65536, 0, 1, 2,
	};
	unsigned int r = fz_below(z, 100), i, n = 0;
	unsigned int match[FZ_FDS_MAX];

	for (i = 0; i < z->n_fds; i++)
		if (want_kind < 0 || z->fds[i].kind == (enum fz_kind)want_kind)
			match[n++] = i;
	if (r < 70 && n)
		return z->fds[match[fz_below(z, n)]].fd;
	if (r < 80 && z->n_fds)
		return z->fds[fz_below(z, z->n_fds)].fd;
	if (r < 87)
		return odd[fz_below(z, ARRAY_SIZE(odd))];
	if (r < 92)
		return z->devnull;
	if (r < 96)
		return 3 + fz_below(z, 125);
	return fz_boundary32(z);
}

/*
 * What an fd number is, as far as the fuzzer knows: one of enum
 * fz_kind, FZ_NOT_LTT (open, not an ltt fd), FZ_CLOSED, or -1: unknown.
 */
#define FZ_NOT_LTT	10
#define FZ_CLOSED	11

static int fz_fd_class(struct fz *z, int fd)
{
	const struct fz_fd *f = fz_lookup(z, fd);

	if (f)
		return f->kind;
	if (fd == z->devnull || fd == fz_cgroup_fd)
		return FZ_NOT_LTT;
	if (fd < 0 || fd == FZ_CLOSED_FD || fd >= 65536)
		return FZ_CLOSED;
	return -1;
}

/* ---- Building command structs ---- */

/* Pids: ours, of others, of nobody. */
static __s32 fz_pid(struct fz *z)
{
	switch (fz_below(z, 8)) {
	case 0:
	case 1:
		return getpid();
	case 2:
		return getppid();
	case 3:
		return 1;
	case 4:
		return 0;
	case 5:
		return -1;
	case 6:
		return 4194304 + fz_below(z, 1000);
	default:
		return fz_rand(z);
	}
}

/* A user pointer to @n bytes at @src in the data arena, or a bad one. */
static __u64 fz_data_ptr(struct fz *z, const void *src, size_t n)
{
	enum fz_ptr kind;
	size_t room;

	return fz_place(z, &z->data, src, n, &kind, &room);
}

static __u32 fz_pick_pow2(struct fz *z, __u32 lo, __u32 hi)
{
	__u32 v = lo;

	while (v < hi && fz_chance(z, 50))
		v <<= 1;
	return v;
}

static void fz_valid_create(struct fz *z, struct ltt_create *c)
{
	c->subbuf_size = fz_chance(z, 15) ? 0 : fz_pick_pow2(z, 4096, 65536);
	c->n_subbufs = fz_chance(z, 15) ? 0 : fz_pick_pow2(z, 2, 16);
	c->mode = fz_below(z, LTT_MODE_MAX);
	c->flush_ms = fz_chance(z, 50) ? 0 : 1 + fz_below(z, 10000);
}

static void fz_valid_events(struct fz *z, struct ltt_events *e)
{
	static const __u32 nbits[] = { 0, 1, 63, 64, 65, 4095, 4096 };
	__u64 mask[LTT_EVENTS_MAX / 64];
	unsigned int i;

	e->session_fd = fz_pick_fd(z, FZ_SESSION);
	e->nbits = fz_chance(z, 50) ? z->n_kernel_events :
		   nbits[fz_below(z, ARRAY_SIZE(nbits))];
	for (i = 0; i < ARRAY_SIZE(mask); i++)
		mask[i] = fz_chance(z, 30) ? ~0ULL : fz_rand(z);
	e->mask = fz_data_ptr(z, mask, (e->nbits + 63) / 64 * 8);
}

static void fz_valid_pids(struct fz *z, struct ltt_pids *p)
{
	__s32 pids[LTT_PIDS_MAX + 1];
	unsigned int i;

	p->session_fd = fz_pick_fd(z, FZ_SESSION);
	p->count = fz_chance(z, 20) ? 0 : fz_chance(z, 90) ?
		   1 + fz_below(z, 4) : LTT_PIDS_MAX + fz_below(z, 2);
	for (i = 0; i < ARRAY_SIZE(pids); i++)
		pids[i] = fz_chance(z, 80) ? getpid() : fz_pid(z);
	p->pids = fz_data_ptr(z, pids, sizeof(pids));
}

/*
 * Any fds: the cgroup directory half the time, else of the fuzzer's,
 * odd numbers, /dev/null.
 */
static void fz_valid_cgroups(struct fz *z, struct ltt_cgroups *c)
{
	__s32 fds[LTT_CGROUPS_MAX + 1];
	unsigned int i;

	c->session_fd = fz_pick_fd(z, FZ_SESSION);
	c->count = fz_chance(z, 20) ? 0 : fz_chance(z, 90) ?
		   1 + fz_below(z, 4) : LTT_CGROUPS_MAX + fz_below(z, 2);
	for (i = 0; i < ARRAY_SIZE(fds); i++)
		fds[i] = fz_cgroup_fd >= 0 && fz_chance(z, 50) ?
			 fz_cgroup_fd : fz_pick_fd(z, -1);
	c->fds = fz_data_ptr(z, fds, sizeof(fds));
}

static void fz_valid_status(struct fz *z, struct ltt_status *st)
{
	static const __u32 room[] = { 0, 1, 2, 4, 1024, 0xffffffff };
	struct ltt_cpu_status cpus[8] = { { 0 } };

	st->session_fd = fz_pick_fd(z, FZ_SESSION);
	st->n_cpus = fz_chance(z, 50) ? z->nr_cpu_ids :
		     room[fz_below(z, ARRAY_SIZE(room))];
	st->cpus = fz_chance(z, 10) ? 0 : fz_data_ptr(z, cpus, sizeof(cpus));
}

static void fz_valid_buffer_req(struct fz *z, struct ltt_buffer_req *b)
{
	b->session_fd = fz_pick_fd(z, FZ_SESSION);
	b->cpu = fz_chance(z, 85) ? fz_below(z, z->nr_cpu_ids) :
		 fz_boundary32(z);
}

static void fz_valid_event_info(struct fz *z, struct ltt_event_info *ei)
{
	switch (fz_below(z, 5)) {
	case 0:
		ei->id = 0;
		break;
	case 1:
		ei->id = fz_below(z, z->n_kernel_events);
		break;
	case 2:
		ei->id = z->n_kernel_events + fz_below(z, 64);
		break;
	default:
		ei->id = fz_boundary32(z);
	}
}

/* The field layout of custom event name @i of the pool. */
static unsigned int fz_pool_layout(unsigned int i, struct ltt_field_info *f,
				   __u32 *payload, bool *string)
{
	static const __u8 sizes[] = { 1, 2, 4, 8 };
	unsigned int n = i % 5, k;

	*payload = 0;
	*string = false;
	for (k = 0; k < n; k++) {
		memset(&f[k], 0, sizeof(f[k]));
		snprintf(f[k].name, sizeof(f[k].name), "f%u", k);
		if (k == n - 1 && i % 3 == 0) {
			f[k].type = LTT_FIELD_STRING;
			*string = true;
		} else {
			f[k].type = (i + k) % 2 ? LTT_FIELD_SIGNED :
						   LTT_FIELD_UNSIGNED;
			f[k].size = sizes[(i + k) % 4];
			*payload += f[k].size;
		}
	}
	return n;
}

#define FZ_POOL		16	/* names of custom events */

static void fz_valid_event_create(struct fz *z, struct ltt_event_create *c)
{
	static const char *const bad[] = {
		"", "0abc", "a-b", "a b", "syscall_entry", "sched_change",
		"\xff", "fz_", "_",
	};
	unsigned int i = fz_below(z, FZ_POOL);
	__u32 payload;
	bool string;

	if (fz_chance(z, 85))
		snprintf(c->name, sizeof(c->name), "fz_%u", i);
	else
		snprintf(c->name, sizeof(c->name), "%s",
			 bad[fz_below(z, ARRAY_SIZE(bad))]);
	if (fz_chance(z, 50))
		snprintf(c->description, sizeof(c->description),
			 "fuzzed event %u", i);
	c->n_fields = fz_pool_layout(i, c->fields, &payload, &string);
}

static void fz_valid_event_log(struct fz *z, struct ltt_event_log *l)
{
	unsigned char data[LTT_EVENT_SIZE_MAX + 64];
	const struct fz_fd *f;
	size_t str;

	l->event_fd = fz_pick_fd(z, FZ_EVENT);
	f = fz_lookup(z, l->event_fd);
	str = fz_chance(z, 50) ? fz_below(z, 32) : fz_below(z, 512);
	if (f && f->kind == FZ_EVENT && fz_chance(z, 80))
		l->size = f->payload + (f->string ? str + 1 : 0);
	else if (fz_chance(z, 50))
		l->size = fz_below(z, 300);
	else
		l->size = fz_boundary32(z);
	fz_fill(z, data, 64);
	memset(data + 64, 'x', sizeof(data) - 64);
	if (l->size && l->size <= sizeof(data) && fz_chance(z, 90))
		data[l->size - 1] = '\0';
	l->data = fz_data_ptr(z, data, l->size < sizeof(data) ? l->size :
				       sizeof(data));
}

/* A well-formed struct for @cmd, into z->buf. */
static void fz_valid(struct fz *z, unsigned int cmd)
{
	void *p = z->buf;

	switch (cmd) {
	case LTT_CMD_CREATE:
		fz_valid_create(z, p);
		break;
	case LTT_CMD_SET_EVENTS:
		fz_valid_events(z, p);
		break;
	case LTT_CMD_SET_PIDS:
		fz_valid_pids(z, p);
		break;
	case LTT_CMD_SET_CGROUPS:
		fz_valid_cgroups(z, p);
		break;
	case LTT_CMD_START:
	case LTT_CMD_STOP:
	case LTT_CMD_SNAPSHOT:
		((struct ltt_session_cmd *)p)->session_fd =
			fz_pick_fd(z, FZ_SESSION);
		break;
	case LTT_CMD_STATUS:
		fz_valid_status(z, p);
		break;
	case LTT_CMD_BUFFER_FD:
		fz_valid_buffer_req(z, p);
		break;
	case LTT_CMD_EVENT_INFO:
		fz_valid_event_info(z, p);
		break;
	case LTT_CMD_EVENT_CREATE:
		fz_valid_event_create(z, p);
		break;
	case LTT_CMD_EVENT_LOG:
		fz_valid_event_log(z, p);
		break;
	}
}

/* Offsets of the 8-byte pointer fields of @cmd's struct, or -1. */
static int fz_pointer_field(unsigned int cmd)
{
	switch (cmd) {
	case LTT_CMD_SET_EVENTS:
		return offsetof(struct ltt_events, mask);
	case LTT_CMD_SET_PIDS:
		return offsetof(struct ltt_pids, pids);
	case LTT_CMD_SET_CGROUPS:
		return offsetof(struct ltt_cgroups, fds);
	case LTT_CMD_STATUS:
		return offsetof(struct ltt_status, cpus);
	case LTT_CMD_EVENT_LOG:
		return offsetof(struct ltt_event_log, data);
	}
	return -1;
}

/* Change one field of the struct in z->buf, of @size bytes. */
static void fz_mutate(struct fz *z, unsigned int cmd, size_t size)
{
	int ptr = fz_pointer_field(cmd);
	__u32 v;
	__u64 p;
	size_t off;

	if (ptr >= 0 && fz_chance(z, 25)) {
		static const __u64 bad[] = {
			0, 1, 4096, 0xffff800000000000ULL,
			0x8000000000000000ULL, ~0ULL,
		};

		p = bad[fz_below(z, ARRAY_SIZE(bad))];
		memcpy(z->buf + ptr, &p, sizeof(p));
		return;
	}
	/* The first 16 bytes hold the fds, counts and flags. */
	off = fz_chance(z, 70) ? 4 * fz_below(z, 4) :
	      4 * fz_below(z, size / 4);
	switch (fz_below(z, 3)) {
	case 0:
		v = fz_boundary32(z);
		memcpy(z->buf + off, &v, sizeof(v));
		break;
	case 1:
		z->buf[off + fz_below(z, 4)] ^= 1 << fz_below(z, 8);
		break;
	default:
		fz_fill(z, z->buf + off, 4);
	}
}

/*
 * Sessions are kept small, and successful STARTs and CREATEs bounded:
 * past that, what would succeed is made to fail (flags).
 */
static void fz_budget(struct fz *z, unsigned int cmd, bool *big)
{
	struct ltt_create *c = (void *)z->buf;
	struct ltt_session_cmd *sc = (void *)z->buf;
	__u32 sb, n;

	*big = false;
	if ((cmd == LTT_CMD_START && z->starts >= FZ_STARTS_MAX) ||
	    (cmd == LTT_CMD_CREATE && z->creates >= FZ_CREATES_MAX)) {
		if (cmd == LTT_CMD_START)
			sc->flags |= 1;
		else
			c->flags |= 1;
		return;
	}
	if (cmd != LTT_CMD_CREATE)
		return;
	sb = c->subbuf_size ?: LTT_SUBBUF_DEFAULT;
	n = c->n_subbufs ?: LTT_SUBBUFS_DEFAULT;
	if (sb & (sb - 1) || n & (n - 1) || sb < LTT_SUBBUF_MIN ||
	    sb > LTT_SUBBUF_MAX || n < 2 || n > LTT_SUBBUFS_MAX ||
	    (__u64)sb * n <= FZ_SMALL_BYTES ||
	    (__u64)sb * n > LTT_BUFFER_MAX)
		return;
	if ((__u64)sb * n <= FZ_BIG_BYTES && z->bigs < FZ_BIG_MAX) {
		*big = true;
		return;
	}
	while ((__u64)sb * n > FZ_SMALL_BYTES && n > 2)
		n >>= 1;
	while ((__u64)sb * n > FZ_SMALL_BYTES)
		sb >>= 1;
	c->subbuf_size = sb;
	c->n_subbufs = n;
}

/* ---- Judging ltt() ---- */

/*
 * The one errno the ABI allows for this call, negative, or 0 when there are
 * several (or it may succeed): @size bytes from a pointer with @room
 * readable bytes, of which those past the struct are zero if
 * @tail_zero; the struct is in z->buf.
 */
static int fz_expect(struct fz *z, unsigned int cmd, size_t size,
		     size_t room, bool tail_zero)
{
	const unsigned char *b = z->buf;
	struct ltt_session_cmd sc;
	struct ltt_event_log l;
	__u32 w[2];
	int class;

	if (cmd >= LTT_CMD_MAX || size < fz_size[cmd].ver0)
		return -EINVAL;
	if (size > (size_t)z->page)
		return 0;
	if (room < size)
		return tail_zero || size <= fz_size[cmd].size ? -EFAULT : 0;
	if (!tail_zero && size > fz_size[cmd].size)
		return -E2BIG;

	/* Copied in: what the fields say. */
	memcpy(w, b, sizeof(w));
	switch (cmd) {
	case LTT_CMD_CREATE:
		if (!z->root && !z->user_sessions)
			return -EPERM;
		memcpy(&w[0], b + offsetof(struct ltt_create, flags), 4);
		memcpy(&w[1], b + offsetof(struct ltt_create, __reserved), 4);
		return w[0] || w[1] ? -EINVAL : 0;
	case LTT_CMD_EVENT_CREATE:
		if (!z->root && !z->user_sessions)
			return -EPERM;
		memcpy(w, b + offsetof(struct ltt_event_create, n_fields),
		       sizeof(w));
		/*
		 * flags: LTT_EVENT_CREATE_ENABLE_FLAG alone is valid, and
		 * its flag word may give -EFAULT or -EINVAL.
		 */
		return (w[1] & ~LTT_EVENT_CREATE_ENABLE_FLAG) ||
		       w[0] > LTT_FIELDS_MAX ? -EINVAL : 0;
	case LTT_CMD_EVENT_INFO:
		return w[0] >= LTT_EVENTS_MAX ? -ENOENT : 0;
	case LTT_CMD_BOOT:
		if (w[0] || w[1])
			return -EINVAL;
		return z->root ? -ENOENT : -EPERM;
	case LTT_CMD_PREVIOUS_BOOT:
		/* No persist= region while the fuzzer runs. */
		if ((w[0] & ~LTT_PREVIOUS_FREE) || w[1])
			return -EINVAL;
		return z->root ? -ENOENT : -EPERM;
	case LTT_CMD_EVENT_LOG:
		memcpy(&l, b, sizeof(l));
		class = fz_fd_class(z, l.event_fd);
		if (class == FZ_CLOSED)
			return -EBADF;
		if (class == FZ_NOT_LTT || class == FZ_SESSION ||
		    class == FZ_BUFFER)
			return -EINVAL;
		return class == FZ_EVENT && l.size > LTT_EVENT_SIZE_MAX ?
		       -E2BIG : 0;
	}

	/* A command on a session. */
	memcpy(&sc, b, sizeof(sc));
	class = fz_fd_class(z, sc.session_fd);
	if (class == FZ_CLOSED)
		return -EBADF;
	if (class == FZ_NOT_LTT || class == FZ_BUFFER || class == FZ_EVENT)
		return -EINVAL;
	if (class != FZ_SESSION)
		return 0;
	switch (cmd) {
	case LTT_CMD_START:
	case LTT_CMD_STOP:
	case LTT_CMD_SNAPSHOT:
		return sc.flags ? -EINVAL : 0;
	case LTT_CMD_SET_EVENTS:
		return w[1] > LTT_EVENTS_MAX ? -EINVAL : 0;
	case LTT_CMD_SET_PIDS:
		memcpy(w, b + offsetof(struct ltt_pids, flags), sizeof(w));
		if (w[0] || w[1])
			return -EINVAL;
		memcpy(w, b, sizeof(w));
		return w[1] > LTT_PIDS_MAX ? -EINVAL : 0;
	case LTT_CMD_SET_CGROUPS:
		memcpy(w, b + offsetof(struct ltt_cgroups, flags), sizeof(w));
		if (w[0] || w[1])
			return -EINVAL;
		memcpy(w, b, sizeof(w));
		return w[1] > LTT_CGROUPS_MAX ? -EINVAL : 0;
	case LTT_CMD_BUFFER_FD:
		return w[1] >= z->nr_cpu_ids ? -EINVAL : 0;
	}
	return 0;
}

static bool fz_pow2_in(__u32 v, __u32 lo, __u32 hi)
{
	return v >= lo && v <= hi && !(v & (v - 1));
}

/* STATUS of a session we made: the geometry it was made with. */
static void fz_check_status(struct fz *z, const struct ltt_status *st,
			    const struct ltt_cpu_status *cpus, __u32 room,
			    const struct fz_fd *f)
{
	__u32 i, n = room < st->n_cpus ? room : st->n_cpus;

	if (st->state > LTT_STATE_RECORDING || st->mode >= LTT_MODE_MAX ||
	    !fz_pow2_in(st->subbuf_size, LTT_SUBBUF_MIN, LTT_SUBBUF_MAX) ||
	    !fz_pow2_in(st->n_subbufs, 2, LTT_SUBBUFS_MAX) || !st->n_cpus ||
	    st->n_cpus > z->nr_cpu_ids)
		fz_bad(z, "STATUS: state %u mode %u geometry %u x %u, %u CPUs",
		       st->state, st->mode, st->n_subbufs, st->subbuf_size,
		       st->n_cpus);
	if (f && f->kind == FZ_SESSION &&
	    (st->mode != f->mode || st->subbuf_size != f->subbuf_size ||
	     st->n_subbufs != f->n_subbufs))
		fz_bad(z, "STATUS: mode %u geometry %u x %u, the session was made with %u, %u x %u",
		       st->mode, st->n_subbufs, st->subbuf_size, f->mode,
		       f->n_subbufs, f->subbuf_size);
	for (i = 0; cpus && i < n && i < 8; i++) {
		const struct ltt_cpu_status *c = &cpus[i];

		if (c->cpu >= z->nr_cpu_ids || c->__reserved ||
		    (i && c->cpu <= cpus[i - 1].cpu))
			fz_bad(z, "STATUS: entry %u: cpu %u, __reserved %u",
			       i, c->cpu, c->__reserved);
		/* Stopped: every event delivered, lost, or still there. */
		if (st->state == LTT_STATE_STOPPED &&
		    c->delivered + c->lost > c->produced)
			fz_bad(z, "STATUS: cpu %u: delivered %llu + lost %llu > produced %llu",
			       c->cpu, (unsigned long long)c->delivered,
			       (unsigned long long)c->lost,
			       (unsigned long long)c->produced);
	}
}

/* A session we made: it is stopped, with the geometry asked for. */
static void fz_new_session(struct fz *z, int fd, const struct ltt_create *c,
			   bool big)
{
	struct ltt_status st;
	struct fz_fd f = {
		.fd = fd, .kind = FZ_SESSION, .obj = ++z->next_obj,
		.cloexec = true, .mode = c->mode,
		.subbuf_size = c->subbuf_size ?: LTT_SUBBUF_DEFAULT,
		.n_subbufs = c->n_subbufs ?: LTT_SUBBUFS_DEFAULT,
	};

	f.sobj = f.obj;
	z->creates++;
	if (ltt_status(fd, &st, NULL, 0)) {
		fz_bad(z, "STATUS of the new session %d: %s", fd,
		       strerror(errno));
	} else {
		if (st.state != LTT_STATE_STOPPED)
			fz_bad(z, "a new session is recording");
		fz_check_status(z, &st, NULL, 0, &f);
	}
	if (big) {
		z->bigs++;
		close(fd);
		return;
	}
	fz_track(z, &f);
}

/* A buffer fd: BUFFER_INFO says what its session and CPU are. */
static void fz_new_buffer(struct fz *z, int fd, const struct fz_fd *s,
			  __u32 cpu)
{
	struct ltt_buffer_info bi;
	struct fz_fd f = {
		.fd = fd, .kind = FZ_BUFFER, .obj = ++z->next_obj,
		.cloexec = true, .cpu = cpu,
	};

	if (ioctl(fd, LTT_BUF_INFO, &bi)) {
		fz_bad(z, "BUFFER_INFO of the new buffer fd %d: %s", fd,
		       strerror(errno));
		return;
	}
	if (bi.cpu != cpu || bi.__reserved ||
	    !fz_pow2_in(bi.subbuf_size, LTT_SUBBUF_MIN, LTT_SUBBUF_MAX) ||
	    !fz_pow2_in(bi.n_subbufs, 2, LTT_SUBBUFS_MAX) ||
	    bi.mmap_size != (__u64)bi.subbuf_size * bi.n_subbufs ||
	    (s && (bi.subbuf_size != s->subbuf_size ||
		   bi.n_subbufs != s->n_subbufs)))
		fz_bad(z, "BUFFER_INFO of cpu %u: cpu %u, %u x %u, mmap_size %llu, __reserved %u",
		       cpu, bi.cpu, bi.n_subbufs, bi.subbuf_size,
		       (unsigned long long)bi.mmap_size, bi.__reserved);
	/* No read may ever block here. */
	fcntl(fd, F_SETFL, O_NONBLOCK);
	f.subbuf_size = bi.subbuf_size;
	f.n_subbufs = bi.n_subbufs;
	f.sobj = s ? s->sobj : f.obj;
	fz_track(z, &f);
}

/* An event fd: the layout it was made with, which did not fail. */
static void fz_new_event(struct fz *z, int fd,
			 const struct ltt_event_create *c)
{
	struct fz_fd f = {
		.fd = fd, .kind = FZ_EVENT, .obj = ++z->next_obj,
		.cloexec = true,
	};
	unsigned int i;

	for (i = 0; i < c->n_fields && i < LTT_FIELDS_MAX; i++) {
		if (c->fields[i].type == LTT_FIELD_STRING)
			f.string = true;
		else
			f.payload += c->fields[i].size;
	}
	fz_track(z, &f);
}

/* What came back from a call that succeeded. */
static void fz_ltt_ok(struct fz *z, unsigned int cmd, long ret,
		      uintptr_t addr, size_t size, bool big)
{
	struct ltt_event_info ei;
	struct ltt_status st;
	struct fz_fd *f;
	const void *out;
	__u32 room, id;

	if (cmd == LTT_CMD_CREATE || cmd == LTT_CMD_BUFFER_FD ||
	    cmd == LTT_CMD_EVENT_CREATE) {
		if (!fz_check_new_fd(z, ret))
			return;
	} else if (ret) {
		fz_bad(z, "returned %ld, not 0", ret);
		return;
	}

	switch (cmd) {
	case LTT_CMD_CREATE:
		fz_new_session(z, ret, (void *)z->buf, big);
		break;
	case LTT_CMD_BUFFER_FD:
		f = fz_lookup(z, ((struct ltt_buffer_req *)z->buf)->session_fd);
		fz_new_buffer(z, ret, f && f->kind == FZ_SESSION ? f : NULL,
			      ((struct ltt_buffer_req *)z->buf)->cpu);
		break;
	case LTT_CMD_EVENT_CREATE:
		fz_new_event(z, ret, (void *)z->buf);
		break;
	case LTT_CMD_START:
		z->starts++;
		break;
	case LTT_CMD_STATUS:
		if (z->call.ptr != FZ_PTR_VALID)
			break;
		memset(&st, 0, sizeof(st));
		memcpy(&st, fz_readback(&z->arg, addr),
		       size < sizeof(st) ? size : sizeof(st));
		memcpy(&room, z->buf + offsetof(struct ltt_status, n_cpus),
		       sizeof(room));
		f = fz_lookup(z, ((struct ltt_status *)z->buf)->session_fd);
		out = NULL;
		if (st.cpus >= (uintptr_t)z->data.k &&
		    st.cpus + 8 * sizeof(struct ltt_cpu_status) <=
		    (uintptr_t)z->data.k + FZ_RW_PAGES * z->page)
			out = fz_readback(&z->data, st.cpus);
		fz_check_status(z, &st, out, room, f);
		break;
	case LTT_CMD_EVENT_INFO:
		if (z->call.ptr != FZ_PTR_VALID)
			break;
		memcpy(&id, z->buf, sizeof(id));
		memcpy(&ei, fz_readback(&z->arg, addr), sizeof(ei));
		ltt_err[0] = '\0';
		if (ltt_check_event_info(&ei, ei.id) || ei.id < id ||
		    ei.id >= LTT_EVENTS_MAX ||
		    (id < z->n_kernel_events && ei.id != id))
			fz_bad(z, "EVENT_INFO of id %u described id %u %s",
			       id, ei.id, ltt_err);
		break;
	}
}

/* The size to give the kernel, and whether the tail past the struct is 0. */
static size_t fz_size_of(struct fz *z, unsigned int cmd, bool *tail_zero)
{
	size_t ksize = cmd < LTT_CMD_MAX ? fz_size[cmd].size : 16;
	size_t ver0 = cmd < LTT_CMD_MAX ? fz_size[cmd].ver0 : 16;
	unsigned int r = fz_below(z, 100);

	*tail_zero = true;
	if (r < 55)
		return fz_chance(z, 20) ? ver0 : ksize;
	if (r < 65)
		return ksize + 1 + fz_below(z, fz_chance(z, 80) ? 64 :
					       z->page - ksize);
	if (r < 73) {
		*tail_zero = false;
		return ksize + 1 + fz_below(z, 64);
	}
	if (r < 76)
		return 0;
	if (r < 80)
		return ver0 - 1;
	if (r < 82)
		return z->page;
	if (r < 85)
		return z->page + 1;
	if (r < 88)
		return fz_chance(z, 50) ? SIZE_MAX : 1ULL << (20 + fz_below(z, 40));
	return fz_below(z, ksize + 16);
}

/* One random ltt() call. */
static void fz_ltt(struct fz *z)
{
	unsigned int r = fz_below(z, 100), cmd;
	size_t size, ksize, n, room;
	bool tail_zero, big;
	enum fz_ptr kind;
	uintptr_t addr;
	long ret;
	int want;

	if (r < 88)
		cmd = fz_below(z, LTT_CMD_MAX);
	else if (r < 92)
		cmd = LTT_CMD_MAX + fz_below(z, 4);
	else if (r < 96)
		cmd = fz_chance(z, 50) ? fz_rand(z) :
		      fz_below(z, LTT_CMD_MAX) | 1U << (8 + fz_below(z, 24));
	else
		cmd = fz_boundary32(z);
	ksize = cmd < LTT_CMD_MAX ? fz_size[cmd].size : 16;

	/* The struct: valid, mutated, random or boundary values. */
	memset(z->buf, 0, sizeof(z->buf));
	r = fz_below(z, 100);
	if (r < 70 && cmd < LTT_CMD_MAX) {
		fz_valid(z, cmd);
		if (r >= 40)
			fz_mutate(z, cmd, ksize);
	} else if (r < 85) {
		fz_fill(z, z->buf, ksize);
	} else {
		for (n = 0; n + 4 <= ksize; n += 4) {
			__u32 v = fz_boundary32(z);

			memcpy(z->buf + n, &v, sizeof(v));
		}
	}
	fz_budget(z, cmd, &big);

	size = fz_size_of(z, cmd, &tail_zero);
	n = size < sizeof(z->buf) ? size : sizeof(z->buf);
	if (n > ksize) {
		memset(z->buf + ksize, 0, n - ksize);
		if (!tail_zero) {
			fz_fill(z, z->buf + ksize, n - ksize);
			z->buf[ksize + fz_below(z, n - ksize)] |= 1;
		}
	}
	addr = fz_place(z, &z->arg, z->buf, n, &kind, &room);
	want = -fz_expect(z, cmd, size, room, tail_zero);

	z->call = (struct fz_call){ .op = "ltt", .cmd = cmd, .ptr = kind,
				    .addr = addr, .size = size };
	errno = 0;
	ret = syscall(__NR_ltt, cmd, addr, size, 0, 0, 0);
	z->ltt_calls++;
	if (fz_judge(z, ret, cmd < LTT_CMD_MAX ? fz_errs[cmd] :
			 fz_errs_unknown, want, INT_MAX))
		fz_ltt_ok(z, cmd, ret, addr, size, big);
}

/* ---- Working the fds ---- */

/* The packet GET_SUBBUF gave: in the buffer, its header sane. */
static void fz_check_subbuf(struct fz *z, const struct fz_fd *f,
			    const struct ltt_subbuf *sb)
{
	__u64 mmap_size = (__u64)f->subbuf_size * f->n_subbufs;
	struct ltt_packet_header h;
	unsigned int i;

	if (sb->offset % f->subbuf_size || sb->offset >= mmap_size ||
	    sb->size < sizeof(h) || sb->size > f->subbuf_size ||
	    sb->size % 8) {
		fz_bad(z, "GET_SUBBUF: offset %llu size %llu in %u x %u",
		       (unsigned long long)sb->offset,
		       (unsigned long long)sb->size, f->n_subbufs,
		       f->subbuf_size);
		return;
	}
	for (i = 0; i < z->n_maps; i++) {
		const struct fz_map *m = &z->maps[i];

		if (m->obj != f->obj || !m->readable || sb->offset < m->off ||
		    sb->offset + sizeof(h) > m->off + m->len)
			continue;
		memcpy(&h, m->addr + (sb->offset - m->off), sizeof(h));
		if (h.magic != LTT_PACKET_MAGIC || h.cpu_id != f->cpu ||
		    h.packet_seq_num != sb->seq ||
		    h.packet_size != sb->size * 8 ||
		    h.content_size > h.packet_size ||
		    h.content_size < sizeof(h) * 8)
			fz_bad(z, "GET_SUBBUF %llu at %llu: %#x cpu %u seq %llu, %llu/%llu bits",
			       (unsigned long long)sb->seq,
			       (unsigned long long)sb->offset, h.magic,
			       h.cpu_id, (unsigned long long)h.packet_seq_num,
			       (unsigned long long)h.content_size,
			       (unsigned long long)h.packet_size);
		return;
	}
}

/* GET_SUBBUF with a good pointer; returns whether it took a packet. */
static bool fz_get(struct fz *z, struct fz_fd *f, int want)
{
	struct ltt_subbuf sb;
	long ret;

	z->call = (struct fz_call){ .op = "ioctl GET_SUBBUF", .fd = f->fd };
	ret = ioctl(f->fd, LTT_BUF_GET_SUBBUF, &sb);
	if (!fz_judge(z, ret, fz_errs_get, want, 0))
		return false;
	fz_set_held(z, f->obj, true);
	fz_check_subbuf(z, f, &sb);
	return true;
}

static void fz_ioctl(struct fz *z, struct fz_fd *f)
{
	unsigned int r = fz_below(z, 100), cmd;
	unsigned char junk[64];
	enum fz_ptr kind;
	uintptr_t arg;
	size_t room;
	int want = 0;
	long ret;

	fz_fill(z, junk, sizeof(junk));
	arg = fz_place(z, &z->arg, junk, sizeof(junk), &kind, &room);
	if (r < 30)
		cmd = LTT_BUF_GET_SUBBUF;
	else if (r < 55)
		cmd = LTT_BUF_PUT_SUBBUF;
	else if (r < 70)
		cmd = LTT_BUF_INFO;
	else if (r < 74)
		cmd = LTT_BUF_SNAPSHOT;
	else if (r < 78)
		cmd = LTT_BUF_SNAPSHOT_READ;
	else if (r < 85)
		cmd = _IOC(fz_below(z, 4), LTT_IOC_MAGIC, fz_below(z, 256),
			   fz_below(z, 64));
	else
		cmd = fz_rand(z);
	/*
	 * Not the ioctls the VFS answers for every file (FIONBIO, FIFREEZE,
	 * FICLONE, FS_IOC_*, ...): they do not reach LTT.
	 */
	switch (_IOC_TYPE(cmd)) {
	case 'T': case 'X': case 'f': case 0x94: case 0x15:
		cmd = _IOC(_IOC_DIR(cmd), LTT_IOC_MAGIC, _IOC_NR(cmd),
			   _IOC_SIZE(cmd));
	}

	z->call = (struct fz_call){ .op = "ioctl", .fd = f->fd,
				    .a = { cmd, arg } };
	if (f->kind != FZ_BUFFER) {
		ret = ioctl(f->fd, cmd, arg);
		fz_judge(z, ret, fz_errs_ioctl_other, ENOTTY, 0);
		return;
	}
	switch (cmd) {
	case LTT_BUF_GET_SUBBUF:
		/* A bad pointer: EFAULT, unless EAGAIN or ENODATA first. */
		if (fz_is_held(z, f->obj))
			want = EBUSY;
		else if (kind == FZ_PTR_VALID)
			return (void)fz_get(z, f, 0);
		ret = ioctl(f->fd, cmd, arg);
		if (fz_judge(z, ret, fz_errs_get, want, 0))
			fz_set_held(z, f->obj, true);
		return;
	case LTT_BUF_PUT_SUBBUF:
		ret = ioctl(f->fd, cmd, arg);
		if (fz_judge(z, ret, fz_errs_put,
			     fz_is_held(z, f->obj) ? 0 : EINVAL, 0))
			fz_set_held(z, f->obj, false);
		else if (fz_is_held(z, f->obj))
			fz_bad(z, "PUT_SUBBUF of the packet taken failed");
		return;
	case LTT_BUF_INFO:
		ret = ioctl(f->fd, cmd, arg);
		fz_judge(z, ret, fz_errs_info,
			 kind >= FZ_PTR_NULL || kind == FZ_PTR_RO ||
			 kind == FZ_PTR_STRADDLE_NONE ? EFAULT : 0, 0);
		return;
	case LTT_BUF_SNAPSHOT:
		/* EINVAL for a discard-mode buffer, EFAULT for a bad pointer. */
		ret = ioctl(f->fd, cmd, arg);
		fz_judge(z, ret, fz_errs_snapshot, 0, 0);
		return;
	case LTT_BUF_SNAPSHOT_READ:
		/* Junk positions and copy pointers: never a crash, only these. */
		ret = ioctl(f->fd, cmd, arg);
		fz_judge(z, ret, fz_errs_snapshot_read, 0, 0);
		return;
	}
	ret = ioctl(f->fd, cmd, arg);
	fz_judge(z, ret, fz_errs_ioctl_other, ENOTTY, 0);
}

/* Read a byte of a mapping: it must be there. */
static void fz_touch(const unsigned char *p)
{
	unsigned char c = __atomic_load_n(p, __ATOMIC_RELAXED);

	asm volatile("" : : "r" (c));
}

static void fz_mmap(struct fz *z, struct fz_fd *f)
{
	static const int prots[] = {
		PROT_READ, PROT_READ, PROT_READ, PROT_READ, PROT_READ,
		PROT_READ | PROT_WRITE, PROT_WRITE, PROT_NONE,
		PROT_READ | PROT_EXEC, PROT_EXEC,
	};
	size_t size = (size_t)f->subbuf_size * f->n_subbufs, len;
	unsigned int pages = size / z->page;
	int prot, flags;
	struct fz_map *m;
	__u64 off;
	void *p;

	if (f->kind != FZ_BUFFER) {
		size = 16 * z->page;
		pages = 16;
	}
	switch (fz_below(z, 8)) {
	case 0:
		len = z->page;
		break;
	case 1:
		len = (1 + fz_below(z, pages + 2)) * z->page;
		break;
	case 2:
		len = size + z->page;
		break;
	case 3:
		len = fz_chance(z, 50) ? 0 : 1ULL << 46;
		break;
	default:
		len = size;
	}
	switch (fz_below(z, 10)) {
	case 0:
		off = z->page;
		break;
	case 1:
		off = fz_below(z, pages + 2) * (__u64)z->page;
		break;
	case 2:
		off = size - z->page;
		break;
	case 3:
		off = fz_chance(z, 50) ? (__u64)z->page / 2 :
		      1ULL << (40 + fz_below(z, 23));
		break;
	default:
		off = 0;
	}
	if (len > z->page && off && len > size - off && fz_chance(z, 80))
		len = off < size ? size - off : z->page;
	prot = prots[fz_below(z, ARRAY_SIZE(prots))];
	flags = fz_chance(z, 65) ? MAP_SHARED : fz_chance(z, 70) ?
		MAP_PRIVATE : MAP_SHARED_VALIDATE;
	if (fz_chance(z, 10))
		flags |= MAP_POPULATE;
	if (fz_chance(z, 5))
		flags |= MAP_NORESERVE;

	z->call = (struct fz_call){ .op = "mmap", .fd = f->fd,
				    .a = { len, off, prot | flags << 8 } };
	p = mmap(NULL, len, prot, flags, f->fd, off);
	if (!fz_judge(z, p == MAP_FAILED ? -1 : 0, fz_errs_mmap, 0, 0))
		return;
	if (f->kind != FZ_BUFFER || prot & PROT_WRITE || off + len > size) {
		fz_bad(z, "mapped a %s fd %s", fz_kind_name[f->kind],
		       prot & PROT_WRITE ? "writable" : "past its end");
		munmap(p, len);
		return;
	}
	if (z->n_maps == FZ_MAPS_MAX)
		fz_unmap(z, 0);
	m = &z->maps[z->n_maps++];
	*m = (struct fz_map){ .addr = p, .len = len, .off = off,
			      .obj = f->obj, .sobj = f->sobj, .cpu = f->cpu,
			      .subbuf_size = f->subbuf_size,
			      .readable = prot & PROT_READ };
	/* Every page of the mapping is there. */
	if (m->readable)
		fz_touch(p + len - 1);
}

/* munmap, mprotect, mremap or touch a mapping. */
static void fz_map_op(struct fz *z)
{
	struct fz_map *m = &z->maps[fz_below(z, z->n_maps)];
	unsigned int r = fz_below(z, 100);
	void *p;

	if (r < 30) {
		fz_unmap(z, m - z->maps);
	} else if (r < 40 && m->len > (size_t)z->page) {
		/* The first page only: the rest stays. */
		z->call = (struct fz_call){ .op = "munmap",
			.a = { (uintptr_t)m->addr, z->page } };
		if (fz_judge(z, munmap(m->addr, z->page),
			     fz_errs_none, 0, 0)) {
			m->addr += z->page;
			m->len -= z->page;
			m->off += z->page;
		}
	} else if (r < 60) {
		/* Writable mappings of a buffer are refused. */
		z->call = (struct fz_call){ .op = "mprotect",
			.a = { (uintptr_t)m->addr, m->len, PROT_WRITE } };
		fz_judge(z, mprotect(m->addr, m->len, PROT_READ | PROT_WRITE),
			 fz_errs_mprotect, EACCES, 0);
	} else if (r < 70) {
		z->call = (struct fz_call){ .op = "mprotect",
			.a = { (uintptr_t)m->addr, m->len, PROT_READ } };
		if (fz_judge(z, mprotect(m->addr, m->len, PROT_READ),
			     fz_errs_none, 0, 0))
			m->readable = true;
	} else if (r < 80) {
		/* Never larger than the buffer. */
		z->call = (struct fz_call){ .op = "mremap",
			.a = { (uintptr_t)m->addr, m->len, m->len + z->page } };
		p = mremap(m->addr, m->len, m->len + z->page, MREMAP_MAYMOVE);
		if (fz_judge(z, p == MAP_FAILED ? -1 : 0,
			     fz_errs_mremap, 0, 0)) {
			fz_bad(z, "a buffer mapping grew");
			m->addr = p;
			m->len += z->page;
		}
	} else if (r < 85 && m->len > (size_t)z->page) {
		z->call = (struct fz_call){ .op = "mremap",
			.a = { (uintptr_t)m->addr, m->len, m->len - z->page } };
		p = mremap(m->addr, m->len, m->len - z->page, MREMAP_MAYMOVE);
		if (fz_judge(z, p == MAP_FAILED ? -1 : 0,
			     fz_errs_mremap, 0, 0)) {
			m->addr = p;
			m->len -= z->page;
		}
	} else if (m->readable) {
		fz_touch(m->addr + fz_below(z, m->len));
	}
}

/* poll, and GET_SUBBUF agrees with it. */
static void fz_poll(struct fz *z, struct fz_fd *f)
{
	struct pollfd p = { .fd = f->fd, .events = POLLIN | POLLOUT };
	bool held = fz_is_held(z, f->obj);
	int ret;

	z->call = (struct fz_call){ .op = "poll", .fd = f->fd };
	ret = poll(&p, 1, 0);
	if (!fz_judge(z, ret, fz_errs_none, 0, 1))
		return;
	if (f->kind != FZ_BUFFER) {
		/* No poll method: always ready. */
		if (ret != 1 || !(p.revents & POLLIN))
			fz_bad(z, "poll of a %s fd: %d, revents %#x",
			       fz_kind_name[f->kind], ret, p.revents);
		return;
	}
	if (p.revents & ~(POLLIN | POLLRDNORM | POLLHUP)) {
		fz_bad(z, "poll of a buffer: revents %#x", p.revents);
		return;
	}
	if (held)
		return;
	if (p.revents & POLLIN) {
		if (!fz_get(z, f, 0))
			fz_bad(z, "poll said POLLIN, GET_SUBBUF found no packet: %s",
			       strerror(errno));
	} else if (p.revents & POLLHUP) {
		fz_get(z, f, ENODATA);
	}
}

static void fz_fd_op(struct fz *z)
{
	struct fz_fd *f = &z->fds[fz_below(z, z->n_fds)], copy;
	unsigned int r = fz_below(z, 100);
	unsigned char junk[64];
	enum fz_ptr kind;
	uintptr_t buf;
	size_t room, n;
	int fd, flags;

	z->fd_ops++;
	if (r < 35) {
		fz_ioctl(z, f);
	} else if (r < 55) {
		fz_mmap(z, f);
	} else if (r < 68) {
		fz_poll(z, f);
	} else if (r < 78) {
		fz_fill(z, junk, sizeof(junk));
		buf = fz_place(z, &z->arg, junk, sizeof(junk), &kind, &room);
		n = fz_below(z, fz_chance(z, 80) ? 64 : 1U << 30);
		z->call = (struct fz_call){ .op = r < 73 ? "read" : "write",
					    .fd = f->fd, .a = { buf, n } };
		/* No read or write method; the buffer fd is read-only. */
		if (r < 73)
			fz_judge(z, read(f->fd, (void *)buf, n),
				 fz_errs_read, 0, n);
		else
			fz_judge(z, write(f->fd, (void *)buf, n),
				 fz_errs_write,
				 f->kind == FZ_BUFFER ? EBADF : 0, n);
	} else if (r < 86) {
		z->call = (struct fz_call){ .op = "dup", .fd = f->fd };
		fd = dup(f->fd);
		if (fz_judge(z, fd, fz_errs_dup, 0, INT_MAX)) {
			copy = *f;
			copy.fd = fd;
			copy.cloexec = false;
			fz_track(z, &copy);
		}
	} else if (r < 92) {
		z->call = (struct fz_call){ .op = "fcntl F_GETFD", .fd = f->fd };
		flags = fcntl(f->fd, F_GETFD);
		if (fz_judge(z, flags, fz_errs_none, 0, INT_MAX) &&
		    !(flags & FD_CLOEXEC) != !f->cloexec)
			fz_bad(z, "FD_CLOEXEC is %s", flags & FD_CLOEXEC ?
			       "set" : "clear");
	} else {
		fz_close(z, f - z->fds);
	}
}

/* ---- The run ---- */

static void fz_close_all(struct fz *z)
{
	while (z->n_maps)
		fz_unmap(z, z->n_maps - 1);
	while (z->n_fds)
		fz_close(z, z->n_fds - 1);
	z->n_held = 0;
}

static int fz_anchor(struct fz *z)
{
	static const struct ltt_create c = { .subbuf_size = 4096,
					     .n_subbufs = 2 };
	int fd = ltt(LTT_CMD_CREATE, &c, sizeof(c));

	if (fd < 0)
		return ltt_fail("CREATE of the anchor session: %s",
				strerror(errno));
	z->anchor = fcntl(fd, F_DUPFD_CLOEXEC, FZ_ANCHOR_FD);
	close(fd);
	if (z->anchor < 0)
		return ltt_fail("F_DUPFD to %d: %s", FZ_ANCHOR_FD,
				strerror(errno));
	return 0;
}

static void fz_crash(int sig)
{
	char msg[256];
	int n;

	n = snprintf(msg, sizeof(msg),
		     "# signal %d at seed %#llx iteration %lu\n", sig,
		     (unsigned long long)fz_current->seed, fz_current->iter);
	if (write(2, msg, n) < 0)
		n = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Fuzz for @count iterations from @seed.  @own_anchor: make the session
 * that keeps the probes attached (root), else the caller holds one.
 * Returns 0, or -1 with the failure in z->err.
 */
static int fz_run(struct fz *z, __u64 seed, unsigned long count,
		  bool own_anchor)
{
	struct ltt_registry reg;
	cpu_set_t possible;
	struct rlimit rl;
	__u64 t0 = ltt_now_ns(CLOCK_MONOTONIC);
	unsigned int i;
	char val[16];
	int ret = -1;

	memset(z, 0, sizeof(*z));
	z->seed = seed;
	z->rng = seed ? seed : 1;
	z->count = count;
	z->log_from = ltt_tunable("LTT_FUZZ_LOG", "fuzz_log", 0);
	z->log = z->log_from;
	/* LTT_FUZZ_LOG=N, N > 1: only the calls from iteration N on. */
	if (z->log_from == 1)
		z->log_from = 0;
	z->root = !geteuid();
	z->user_sessions = !ltt_get_user_sessions(val, sizeof(val)) &&
			   !strcmp(val, "1");
	z->page = sysconf(_SC_PAGESIZE);
	z->devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	z->anchor = -1;
	/*
	 * A page of no access, kept mapped: a page merely unmapped would
	 * be handed to the fuzzer's own next mmap().
	 */
	z->unmapped = mmap(NULL, z->page, PROT_NONE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	i = ltt_read_cpulist("/sys/devices/system/cpu/possible", &possible);
	z->nr_cpu_ids = (int)i > 0 ? i : 1;
	if (z->page != 4096) {
		snprintf(z->err, sizeof(z->err), "page size %ld, not 4096",
			 z->page);
		return -1;
	}
	/* Room for the fds kept, the arenas, the anchor. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur <= FZ_ANCHOR_FD) {
		rl.rlim_cur = rl.rlim_max > 1024 ? 1024 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (ltt_registry_load(&reg) || fz_arena_init(z, &z->arg) ||
	    fz_arena_init(z, &z->data) || z->devnull < 0 ||
	    (own_anchor && fz_anchor(z))) {
		snprintf(z->err, sizeof(z->err), "setup: %s", ltt_err);
		goto out;
	}
	for (i = 0; i < reg.n_events; i++)
		if (!(reg.ev[i].flags & LTT_EVENT_F_CUSTOM))
			z->n_kernel_events = i + 1;
	ltt_registry_free(&reg);

	fz_current = z;
	signal(SIGSEGV, fz_crash);
	signal(SIGBUS, fz_crash);
	printf("# fuzzing %lu calls from seed %#llx as %s, ltt_user_sessions=%d\n",
	       count, (unsigned long long)seed, z->root ? "root" : "nobody",
	       z->user_sessions);

	for (z->iter = 0; z->iter < count && !z->err[0]; z->iter++) {
		unsigned int r = fz_below(z, 100);

		if (z->iter && !(z->iter % FZ_CYCLE)) {
			fz_close_all(z);
			if (own_anchor) {
				close(z->anchor);
				if (fz_anchor(z)) {
					fz_bad(z, "%s", ltt_err);
					break;
				}
			}
		}
		if (r < 65 || !z->n_fds)
			fz_ltt(z);
		else if (r < 95)
			fz_fd_op(z);
		else if (z->n_maps)
			fz_map_op(z);
	}
	fz_close_all(z);

	printf("# %lu iterations in %.1f s: %lu ltt(), %lu fd operations, %lu ok\n",
	       z->iter, (ltt_now_ns(CLOCK_MONOTONIC) - t0) / 1e9,
	       z->ltt_calls, z->fd_ops, z->oks);
	printf("# %lu sessions made, %lu started\n", z->creates, z->starts);
	printf("# errnos:");
	for (i = 0; i < ARRAY_SIZE(z->by_errno); i++)
		if (z->by_errno[i]) {
#ifdef __GLIBC__
			printf(" %s", strerrorname_np(i) ?: "?");
#else
			printf(" errno %u", i);	/* musl has no names */
#endif
			printf(" %lu", z->by_errno[i]);
		}
	printf("\n");
	ret = z->err[0] ? -1 : 0;
out:
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	fz_current = NULL;
	if (own_anchor && z->anchor >= 0)
		close(z->anchor);
	if (z->devnull >= 0)
		close(z->devnull);
	fz_arena_free(z, &z->arg);
	fz_arena_free(z, &z->data);
	return ret;
}

static __u64 fz_seed(void)
{
	return ltt_tunable("LTT_FUZZ_SEED", "fuzz_seed", FZ_SEED);
}

static unsigned long fz_count(void)
{
	return ltt_tunable("LTT_FUZZ_COUNT", "fuzz_count", FZ_COUNT);
}

FIXTURE(fuzz) {
	struct fz *z;
	char user_sessions[16];	/* the sysctl as it was */
	char cg_mnt[32];	/* cgroup2, mounted here for fz_cgroup_fd */
};

/*
 * cgroup2 on a directory of the test's own, its root open as
 * fz_cgroup_fd; none (-1) on a kernel without it.
 */
static void fz_cgroup_open(char *mnt, size_t size)
{
	snprintf(mnt, size, "/tmp/ltt-fz-cg.XXXXXX");
	if (!mkdtemp(mnt)) {
		mnt[0] = 0;
		return;
	}
	if (mount("cgroup2", mnt, "cgroup2", 0, NULL)) {
		rmdir(mnt);
		mnt[0] = 0;
		return;
	}
	fz_cgroup_fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void fz_cgroup_close(char *mnt)
{
	if (fz_cgroup_fd >= 0)
		close(fz_cgroup_fd);
	fz_cgroup_fd = -1;
	if (!mnt[0])
		return;
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	mnt[0] = 0;
}

FIXTURE_SETUP(fuzz)
{
	if (geteuid())
		SKIP(return, "run as root");
	ASSERT_EQ(0, ltt_get_user_sessions(self->user_sessions,
					   sizeof(self->user_sessions)))
		TH_LOG("%s", ltt_err);
	self->z = mmap(NULL, sizeof(*self->z), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->z);
	fz_cgroup_open(self->cg_mnt, sizeof(self->cg_mnt));
}

FIXTURE_TEARDOWN(fuzz)
{
	fz_cgroup_close(self->cg_mnt);
	if (self->user_sessions[0])
		ltt_set_user_sessions(self->user_sessions);
	if (self->z && self->z != MAP_FAILED)
		munmap(self->z, sizeof(*self->z));
}

/*
 * Root: every call returns what its command may return; then a normal
 * recording works, its accounting exact.
 */
TEST_F_TIMEOUT(fuzz, root_calls_return_documented_errors, 140)
{
	ASSERT_EQ(0, fz_run(self->z, fz_seed(), fz_count(), true))
		TH_LOG("%s", self->z->err);
	ASSERT_EQ(0, ltt_check_recording()) TH_LOG("after fuzzing: %s",
						   ltt_err);
}

/*
 * In a child that becomes nobody: fuzz; 0, or 1 with the failure in
 * z->err (shared with the parent), 2 when it could not become nobody.
 */
static int fz_as_nobody(struct fz *z, __u64 seed, unsigned long count,
			int anchor)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		/* The parent's session keeps the probes attached. */
		close(anchor);
		if (ltt_become_nobody()) {
			snprintf(z->err, sizeof(z->err), "%s", ltt_err);
			_exit(2);
		}
		_exit(fz_run(z, seed, count, false) ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status))
		snprintf(z->err, sizeof(z->err),
			 "the fuzzer was killed by signal %d (seed %#llx)",
			 WTERMSIG(status), (unsigned long long)seed);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/*
 * Nobody, with kernel.ltt_user_sessions 0 (nothing allowed but EVENT_INFO
 * and commands on fds: CREATE and EVENT_CREATE are EPERM) and 1 (user
 * sessions and custom events): the same; then a normal recording works.
 * Half of LTT_FUZZ_COUNT each.
 */
TEST_F_TIMEOUT(fuzz, nobody_calls_return_documented_errors, 140)
{
	unsigned long count = fz_count() / 2;
	__u64 seed = fz_seed();
	struct fz *z = self->z;
	int anchor = -1, ret;

	ASSERT_EQ(0, fz_anchor(z)) TH_LOG("%s", ltt_err);
	anchor = z->anchor;

	ASSERT_EQ(0, ltt_set_user_sessions("0")) TH_LOG("%s", ltt_err);
	ret = fz_as_nobody(z, seed + 1, count, anchor);
	if (ret == 2)
		SKIP(goto out, "cannot become nobody: %.900s", z->err);
	ASSERT_EQ(0, ret) TH_LOG("ltt_user_sessions=0: %s", z->err);

	ASSERT_EQ(0, ltt_set_user_sessions("1")) TH_LOG("%s", ltt_err);
	ret = fz_as_nobody(z, seed + 2, count, anchor);
	ASSERT_EQ(0, ret) TH_LOG("ltt_user_sessions=1: %s", z->err);

	close(anchor);
	anchor = -1;
	ASSERT_EQ(0, ltt_check_recording()) TH_LOG("after fuzzing: %s",
						   ltt_err);
out:
	if (anchor >= 0)
		close(anchor);
}

int main(int argc, char **argv)
{
	return ltt_stress_main(argc, argv);
}
