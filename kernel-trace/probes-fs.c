// SPDX-License-Identifier: GPL-2.0
/*
 * LTT file-system events.  Opens and the calls that change names and
 * attributes are hooked where the VFS makes them (<linux/ltt.h>), so that
 * every ABI is seen and the names are the paths the kernel resolved, not
 * strings that user space may rewrite under us.  Reads, writes, seeks,
 * ioctls, select() and poll() are derived from the native system calls:
 * the fd and byte counts are what the calls return (of ia32 and x32
 * processes too); select() and poll() are recorded at entry, with the
 * timeout asked for (the kernel rewrites it with the time left).
 *
 * Buffer waits have no tracepoint and are direct hooks (<linux/ltt.h>).
 */
#include <linux/compat.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/mman.h>
#include <linux/path.h>
#include <linux/poll.h>
#include <linux/time32.h>
#include <linux/time64.h>
#include <linux/uaccess.h>
#include <asm/unistd.h>

#include "internal.h"

/*
 * The absolute path of @path into @buf, LTT_STRING_MAX bytes, followed by
 * "/" and @last when there is one: the name of an entry of directory
 * @path as the kernel resolved it, cut to fit.  Returns @buf.
 */
static char *ltt_path_name(char *buf, const struct path *path,
			   const struct qstr *last)
{
	size_t len, n;
	char *p;

	p = d_path(path, buf, LTT_STRING_MAX);
	if (IS_ERR(p)) {
		strscpy(buf, "?", LTT_STRING_MAX);
		len = 1;
	} else {
		len = strlen(p);
		memmove(buf, p, len + 1);
	}
	if (!last)
		return buf;
	if (buf[len - 1] != '/' && len < LTT_STRING_MAX - 1)
		buf[len++] = '/';
	n = min_t(size_t, last->len, LTT_STRING_MAX - 1 - len);
	memcpy(buf + len, last->name, n);
	buf[len + n] = '\0';
	return buf;
}

void __ltt_fs_open(int fd, unsigned int flags, const char *name,
		   struct file *file)
{
	struct ltt_rec_fs_open rec = { .fd = fd, .flags = flags };
	char buf[LTT_STRING_MAX], *p = ERR_PTR(-ENOENT);
	struct inode *inode;

	if (!ltt_wants(LTT_EV_fs_open))
		return;
	if (!IS_ERR(file)) {
		inode = file_inode(file);
		rec.dev = new_encode_dev(inode->i_sb->s_dev);
		rec.ino = inode->i_ino;
		p = d_path(&file->f_path, buf, sizeof(buf));
		if (!IS_ERR(p))
			name = p;
	} else {
		rec.fd = PTR_ERR(file);
	}
	/* Else the name asked for: the open failed, or its path is too long. */
	if (IS_ERR(p))
		rec.trunc = PTR_ERR(p) == -ENAMETOOLONG ||
			    strnlen(name, LTT_STRING_MAX) == LTT_STRING_MAX;
	ltt_log_fs_open(&rec, name);
}

/* Is event @id, or the fs_newname that follows it, recorded now? */
static bool ltt_fs_names_enabled(unsigned int id)
{
	return ltt_wants(id) || ltt_wants(LTT_EV_fs_newname);
}

/*
 * An event of @id, @rec of @len bytes naming @name, and the fs_newname
 * @newname after it on the same CPU.
 */
static void ltt_fs_log_two_names(unsigned int id, const void *rec,
				 unsigned int len, int ret, const char *name,
				 const char *newname)
{
	struct ltt_rec_fs_newname nrec = { .ret = ret };

	/* Back to back: no interrupt's event between the two. */
	guard(irqsave)();
	ltt_write_str(id, rec, len, name);
	ltt_log_fs_newname(&nrec, newname);
}

noinline_for_stack
void __ltt_fs_rename(const struct path *old_dir, const struct qstr *old_last,
		     const struct path *new_dir, const struct qstr *new_last,
		     unsigned int flags, int ret)
{
	struct ltt_rec_fs_rename rec = { .ret = ret, .flags = flags };
	char old[LTT_STRING_MAX], new[LTT_STRING_MAX];

	if (!ltt_fs_names_enabled(LTT_EV_fs_rename))
		return;
	ltt_path_name(old, old_dir, old_last);
	ltt_path_name(new, new_dir, new_last);
	ltt_fs_log_two_names(LTT_EV_fs_rename, &rec, sizeof(rec), ret, old,
			     new);
}

noinline_for_stack
void __ltt_fs_link(const struct path *old, const struct path *new_dir,
		   const struct qstr *new_last, int ret)
{
	struct ltt_rec_fs_link rec = { .ret = ret };
	char oldname[LTT_STRING_MAX], new[LTT_STRING_MAX];

	if (!ltt_fs_names_enabled(LTT_EV_fs_link))
		return;
	ltt_path_name(oldname, old, NULL);
	ltt_path_name(new, new_dir, new_last);
	ltt_fs_log_two_names(LTT_EV_fs_link, &rec, sizeof(rec), ret, oldname,
			     new);
}

noinline_for_stack
void __ltt_fs_symlink(const char *text, const struct path *dir,
		      const struct qstr *last, int ret)
{
	struct ltt_rec_fs_symlink rec = { .ret = ret };
	char new[LTT_STRING_MAX];

	if (!ltt_fs_names_enabled(LTT_EV_fs_symlink))
		return;
	ltt_path_name(new, dir, last);
	ltt_fs_log_two_names(LTT_EV_fs_symlink, &rec, sizeof(rec), ret, text,
			     new);
}

void __ltt_fs_unlink(const struct path *dir, const struct qstr *last,
		     bool rmdir, int ret)
{
	char name[LTT_STRING_MAX];

	if (rmdir) {
		struct ltt_rec_fs_rmdir rec = { .ret = ret };

		if (!ltt_wants(LTT_EV_fs_rmdir))
			return;
		ltt_log_fs_rmdir(&rec, ltt_path_name(name, dir, last));
	} else {
		struct ltt_rec_fs_unlink rec = { .ret = ret };

		if (!ltt_wants(LTT_EV_fs_unlink))
			return;
		ltt_log_fs_unlink(&rec, ltt_path_name(name, dir, last));
	}
}

void __ltt_fs_mkdir(const struct path *dir, const struct qstr *last,
		    umode_t mode, int ret)
{
	struct ltt_rec_fs_mkdir rec = { .ret = ret, .mode = mode };
	char name[LTT_STRING_MAX];

	if (ltt_wants(LTT_EV_fs_mkdir))
		ltt_log_fs_mkdir(&rec, ltt_path_name(name, dir, last));
}

void __ltt_fs_truncate(const struct path *path, loff_t length, int ret)
{
	struct ltt_rec_fs_truncate rec = { .ret = ret, .length = length };
	char name[LTT_STRING_MAX];

	if (ltt_wants(LTT_EV_fs_truncate))
		ltt_log_fs_truncate(&rec, ltt_path_name(name, path, NULL));
}

void __ltt_fs_chmod(const struct path *path, umode_t mode, int ret)
{
	struct ltt_rec_fs_chmod rec = { .ret = ret, .mode = mode };
	char name[LTT_STRING_MAX];

	if (ltt_wants(LTT_EV_fs_chmod))
		ltt_log_fs_chmod(&rec, ltt_path_name(name, path, NULL));
}

void __ltt_fs_chown(const struct path *path, uid_t user, gid_t group,
		    int ret)
{
	struct ltt_rec_fs_chown rec = {
		.ret = ret,
		.uid = user,
		.gid = group,
	};
	char name[LTT_STRING_MAX];

	if (ltt_wants(LTT_EV_fs_chown))
		ltt_log_fs_chown(&rec, ltt_path_name(name, path, NULL));
}

void __ltt_fs_dup(unsigned int oldfd, int newfd, bool cloexec)
{
	struct ltt_rec_fs_dup rec = {
		.oldfd = oldfd,
		.newfd = newfd,
		.cloexec = cloexec,
	};

	ltt_log_fs_dup(&rec);
}

void __ltt_fs_mmap(struct file *file, unsigned long fd, unsigned long len,
		   unsigned long prot, unsigned long flags, unsigned long ret)
{
	struct ltt_rec_fs_mmap_write rec = { .fd = fd, .len = len };
	unsigned long type = flags & MAP_TYPE;
	char name[LTT_STRING_MAX];

	if (IS_ERR_VALUE(ret) || !(prot & PROT_WRITE) ||
	    (flags & MAP_ANONYMOUS) ||
	    (type != MAP_SHARED && type != MAP_SHARED_VALIDATE))
		return;
	if (ltt_wants(LTT_EV_fs_mmap_write))
		ltt_log_fs_mmap_write(&rec,
				      ltt_path_name(name, &file->f_path, NULL));
}

/* The timeout structs that select() and poll() calls take. */
enum ltt_timeout {
	LTT_TIMEVAL,		/* struct __kernel_old_timeval */
	LTT_TIMESPEC,		/* struct __kernel_timespec, 64-bit time */
	LTT_TIMESPEC32,		/* struct old_timespec32, 32-bit time */
};

/*
 * A timeout of type @type from user space, in us; -1: none (or
 * unreadable).  Huge ones saturate at S64_MAX.
 */
static s64 ltt_user_timeout_us(const void __user *ut, enum ltt_timeout type)
{
	struct __kernel_old_timeval tv;
	struct old_timespec32 ts32;
	struct __kernel_timespec ts;

	if (!ut)
		return -1;
	switch (type) {
	case LTT_TIMESPEC:
		if (copy_from_user_nofault(&ts, ut, sizeof(ts)))
			return -1;
		return ltt_time_us(ts.tv_sec,
				   div_s64(ts.tv_nsec, NSEC_PER_USEC));
	case LTT_TIMESPEC32:
		if (copy_from_user_nofault(&ts32, ut, sizeof(ts32)))
			return -1;
		return ltt_time_us(ts32.tv_sec, ts32.tv_nsec / NSEC_PER_USEC);
	default:
		if (copy_from_user_nofault(&tv, ut, sizeof(tv)))
			return -1;
		return ltt_time_us(tv.tv_sec, tv.tv_usec);
	}
}

static void ltt_fs_select(long nfds, const void __user *ut,
			  enum ltt_timeout type)
{
	struct ltt_rec_fs_select rec = { .nfds = nfds };

	if (!ltt_wants(LTT_EV_fs_select))
		return;
	rec.timeout_us = ltt_user_timeout_us(ut, type);
	ltt_log_fs_select(&rec);
}

/*
 * ppc64 wants old_select() too, for its compat table only; ARM's EABI
 * has the code but no __NR_select.
 */
#if defined(__ARCH_WANT_SYS_OLD_SELECT) && BITS_PER_LONG == 32 && \
	defined(__NR_select)
#define LTT_OLD_SELECT
#endif

#ifdef LTT_OLD_SELECT
/*
 * old_select(), __NR_select on i386, ppc32 and m68k: its one argument
 * points to the five of select() (fs/select.c's struct sel_arg_struct).
 */
static void ltt_fs_old_select(const void __user *uarg)
{
	struct {
		unsigned long n;
		unsigned long inp, outp, exp, tvp;
	} arg;

	if (!ltt_wants(LTT_EV_fs_select))
		return;
	if (copy_from_user_nofault(&arg, uarg, sizeof(arg)))
		arg = (typeof(arg)){ .n = -1, .tvp = 0 };
	ltt_fs_select(arg.n, (const void __user *)arg.tvp, LTT_TIMEVAL);
}
#endif

static void ltt_fs_poll(long nfds, s64 timeout_ms)
{
	struct ltt_rec_fs_poll rec = { .nfds = nfds, .timeout_ms = timeout_ms };

	ltt_log_fs_poll(&rec);
}

/* ppoll(): its timeout, a struct of @type, in ms. */
static void ltt_fs_ppoll(long nfds, const void __user *ut,
			 enum ltt_timeout type)
{
	s64 us = ltt_user_timeout_us(ut, type);

	ltt_fs_poll(nfds, us < 0 ? -1 :
		    min_t(s64, div_s64(us, USEC_PER_MSEC), S32_MAX));
}

/*
 * The calls that take a struct __kernel_timespec: the plain ones on 64-bit,
 * the _time64 ones on 32-bit.
 */
#if BITS_PER_LONG == 64
#define LTT_CASE_TIMESPEC64(call)	case __NR_##call:
#else
#define LTT_CASE_TIMESPEC64(call)	case __NR_##call##_time64:
#endif

/**
 * ltt_fs_enter - the fs events of a native system call at its entry
 * @nr: the system call
 * @a: its arguments
 *
 * Return: whether @nr makes fs events at its entry (recorded or not).
 */
bool ltt_fs_enter(long nr, const unsigned long *a)
{
	switch (nr) {
#ifdef __NR_select
	case __NR_select:
#ifdef LTT_OLD_SELECT
		ltt_fs_old_select((const void __user *)a[0]);
#else
		ltt_fs_select(a[0], (const void __user *)a[4], LTT_TIMEVAL);
#endif
		break;
#endif
#ifdef __NR__newselect
	case __NR__newselect:
		ltt_fs_select(a[0], (const void __user *)a[4], LTT_TIMEVAL);
		break;
#endif
	LTT_CASE_TIMESPEC64(pselect6)
		ltt_fs_select(a[0], (const void __user *)a[4], LTT_TIMESPEC);
		break;
#ifdef __NR_poll
	case __NR_poll:
		ltt_fs_poll(a[1], (int)a[2]);
		break;
#endif
	LTT_CASE_TIMESPEC64(ppoll)
		ltt_fs_ppoll(a[1], (const void __user *)a[2], LTT_TIMESPEC);
		break;
#if BITS_PER_LONG == 32
	/* The 32-bit time_t ones of 32-bit architectures. */
#ifdef __NR_pselect6
	case __NR_pselect6:
		ltt_fs_select(a[0], (const void __user *)a[4], LTT_TIMESPEC32);
		break;
#endif
#ifdef __NR_ppoll
	case __NR_ppoll:
		ltt_fs_ppoll(a[1], (const void __user *)a[2], LTT_TIMESPEC32);
		break;
#endif
#endif
	default:
		return false;
	}
	return true;
}

static void ltt_fs_read(long fd, long ret)
{
	struct ltt_rec_fs_read rec = { .fd = fd, .bytes = ret };

	ltt_log_fs_read(&rec);
}

static void ltt_fs_write(long fd, long ret)
{
	struct ltt_rec_fs_write rec = { .fd = fd, .bytes = ret };

	ltt_log_fs_write(&rec);
}

void __ltt_fs_transfer(int in_fd, int out_fd, ssize_t ret)
{
	ltt_fs_read(in_fd, ret);
	ltt_fs_write(out_fd, ret);
}

/*
 * _llseek(fd, high, low, result, whence) of 32-bit architectures (lseek64
 * in their C libraries): the offset it returns is at @result.
 */
static void __maybe_unused ltt_fs_llseek(long fd, long ret,
					 const void __user *result)
{
	struct ltt_rec_fs_seek rec = { .fd = fd, .offset = ret };
	loff_t off;

	if (!ltt_wants(LTT_EV_fs_seek))
		return;
	if (!ret && !copy_from_user_nofault(&off, result, sizeof(off)))
		rec.offset = off;
	else if (!ret)
		rec.offset = -EFAULT;
	ltt_log_fs_seek(&rec);
}

/**
 * ltt_fs_exit - the fs events of a native system call at its exit
 * @nr: the system call
 * @a: its arguments
 * @ret: its return value
 *
 * Return: whether @nr makes fs events at its exit (recorded or not).
 */
bool ltt_fs_exit(long nr, const unsigned long *a, long ret)
{
	switch (nr) {
	case __NR_close: {
		struct ltt_rec_fs_close rec = { .fd = a[0] };

		ltt_log_fs_close(&rec);
		break;
	}
	case __NR_read:
	case __NR_pread64:
	case __NR_readv:
	case __NR_preadv:
	case __NR_preadv2:
		ltt_fs_read(a[0], ret);
		break;
	case __NR_write:
	case __NR_pwrite64:
	case __NR_writev:
	case __NR_pwritev:
	case __NR_pwritev2:
		ltt_fs_write(a[0], ret);
		break;
#ifdef __NR_lseek
	case __NR_lseek: {
		struct ltt_rec_fs_seek rec = { .fd = a[0], .offset = ret };

		ltt_log_fs_seek(&rec);
		break;
	}
#endif
#if defined(__NR__llseek) || defined(__NR_llseek)
#ifdef __NR__llseek
	case __NR__llseek:
#else
	case __NR_llseek:	/* asm-generic's 32-bit name */
#endif
		ltt_fs_llseek(a[0], ret, (const void __user *)a[3]);
		break;
#endif
	case __NR_ioctl: {
		struct ltt_rec_fs_ioctl rec = { .fd = a[0], .cmd = a[1] };

		ltt_log_fs_ioctl(&rec);
		break;
	}
	default:
		return false;
	}
	return true;
}

#if defined(CONFIG_COMPAT) && defined(__NR_ia32_write)
/* An ia32 call's number in the native table, for the calls decoded here. */
static long ltt_fs_ia32_nr(long nr)
{
	switch (nr) {
	case __NR_ia32_read:		return __NR_read;
	case __NR_ia32_write:		return __NR_write;
	case __NR_ia32_close:		return __NR_close;
	case __NR_ia32_lseek:		return __NR_lseek;
	case __NR_ia32_ioctl:		return __NR_ioctl;
	case __NR_ia32_readv:		return __NR_readv;
	case __NR_ia32_writev:		return __NR_writev;
	case __NR_ia32_pread64:		return __NR_pread64;
	case __NR_ia32_pwrite64:	return __NR_pwrite64;
	case __NR_ia32_preadv:		return __NR_preadv;
	case __NR_ia32_pwritev:		return __NR_pwritev;
	case __NR_ia32_preadv2:		return __NR_preadv2;
	case __NR_ia32_pwritev2:	return __NR_pwritev2;
	default:			return -1;
	}
}

/* An x32 call's number (its bit cleared) in the native table. */
static long ltt_fs_x32_nr(long nr)
{
	switch (nr) {
	case __NR_x32_readv:		return __NR_readv;
	case __NR_x32_writev:		return __NR_writev;
	case __NR_x32_preadv:		return __NR_preadv;
	case __NR_x32_pwritev:		return __NR_pwritev;
	case __NR_x32_preadv2:		return __NR_preadv2;
	case __NR_x32_pwritev2:		return __NR_pwritev2;
	default:			return nr;
	}
}

/**
 * ltt_fs_exit_compat - the fs events of a compat system call at its exit
 * @nr: the system call, in its ABI's table
 * @a: its arguments
 * @ret: its return value
 *
 * The reads, writes, seeks, ioctls and closes of ia32 and x32 processes,
 * decoded as the native calls they match: their fd is the first
 * argument, and ia32's _llseek stores its offset as the native 32-bit
 * architectures' does.
 */
void ltt_fs_exit_compat(long nr, const unsigned long *a, long ret)
{
	bool x32 = in_x32_syscall();

	if (!x32 && nr == __NR_ia32__llseek) {
		ltt_fs_llseek(a[0], ret, compat_ptr(a[3]));
		return;
	}
	nr = x32 ? ltt_fs_x32_nr(nr & ~__X32_SYSCALL_BIT) : ltt_fs_ia32_nr(nr);
	if (nr >= 0)
		ltt_fs_exit(nr, a, ret);
}
#else
void ltt_fs_exit_compat(long nr, const unsigned long *a, long ret)
{
}
#endif
