// SPDX-License-Identifier: GPL-2.0
/*
 * LTT file-system events, derived from the system calls that make them:
 * the fd and byte counts are what the calls return, the file name what
 * open() was given.  select() and poll() are recorded at entry, with the
 * timeout asked for (the kernel rewrites it with the time left).  Only
 * native system calls are decoded, not compat ones.
 *
 * Buffer waits have no tracepoint and are direct hooks (<linux/ltt.h>).
 */
#include <linux/poll.h>
#include <linux/time64.h>
#include <linux/uaccess.h>
#include <asm/unistd.h>

#include "internal.h"

static void ltt_fs_open(long ret, const char __user *uname)
{
	struct ltt_rec_fs_open rec = { .fd = ret };
	char name[LTT_STRING_MAX];
	long len;

	if (!ltt_event_enabled(LTT_EV_fs_open))
		return;
	len = strncpy_from_user_nofault(name, uname, sizeof(name));
	if (len < 0)
		strscpy(name, "?");
	/* A name that fills the buffer may still end right there. */
	rec.trunc = len == sizeof(name) &&
		    strnlen_user_nofault(uname, sizeof(name) + 1) > sizeof(name);
	ltt_log_fs_open(&rec, name);
}

/*
 * A struct timeval or timespec timeout from user space, in us; -1: none
 * (or unreadable).  Huge ones saturate at S64_MAX.
 */
static s64 ltt_user_timeout_us(const void __user *ut, bool timespec)
{
	struct __kernel_old_timeval tv;
	struct __kernel_timespec ts;

	if (!ut)
		return -1;
	if (timespec) {
		if (copy_from_user_nofault(&ts, ut, sizeof(ts)))
			return -1;
		return ltt_time_us(ts.tv_sec,
				   div_s64(ts.tv_nsec, NSEC_PER_USEC));
	}
	if (copy_from_user_nofault(&tv, ut, sizeof(tv)))
		return -1;
	return ltt_time_us(tv.tv_sec, tv.tv_usec);
}

static void ltt_fs_select(long nfds, const void __user *ut, bool timespec)
{
	struct ltt_rec_fs_select rec = { .nfds = nfds };

	if (!ltt_event_enabled(LTT_EV_fs_select))
		return;
	rec.timeout_us = ltt_user_timeout_us(ut, timespec);
	ltt_log_fs_select(&rec);
}

/* ppc64 wants old_select() too, for its compat table only. */
#if defined(__ARCH_WANT_SYS_OLD_SELECT) && BITS_PER_LONG == 32
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

	if (!ltt_event_enabled(LTT_EV_fs_select))
		return;
	if (copy_from_user_nofault(&arg, uarg, sizeof(arg)))
		arg = (typeof(arg)){ .n = -1, .tvp = 0 };
	ltt_fs_select(arg.n, (const void __user *)arg.tvp, false);
}
#endif

static void ltt_fs_poll(long nfds, s64 timeout_ms)
{
	struct ltt_rec_fs_poll rec = { .nfds = nfds, .timeout_ms = timeout_ms };

	ltt_log_fs_poll(&rec);
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
 * Returns whether @nr makes fs events at its entry (recorded or not).
 */
bool ltt_fs_enter(long nr, const unsigned long *a)
{
	s64 us;

	switch (nr) {
#ifdef __NR_select
	case __NR_select:
#ifdef LTT_OLD_SELECT
		ltt_fs_old_select((const void __user *)a[0]);
#else
		ltt_fs_select(a[0], (const void __user *)a[4], false);
#endif
		break;
#endif
#ifdef __NR__newselect
	case __NR__newselect:
		ltt_fs_select(a[0], (const void __user *)a[4], false);
		break;
#endif
	LTT_CASE_TIMESPEC64(pselect6)
		ltt_fs_select(a[0], (const void __user *)a[4], true);
		break;
#ifdef __NR_poll
	case __NR_poll:
		ltt_fs_poll(a[1], (int)a[2]);
		break;
#endif
	LTT_CASE_TIMESPEC64(ppoll)
		us = ltt_user_timeout_us((const void __user *)a[2], true);
		ltt_fs_poll(a[1], us < 0 ? -1 :
			    min_t(s64, div_s64(us, USEC_PER_MSEC), S32_MAX));
		break;
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

/*
 * _llseek(fd, high, low, result, whence) of 32-bit architectures (lseek64
 * in their C libraries): the offset it returns is at @result.
 */
static void __maybe_unused ltt_fs_llseek(long fd, long ret,
					 const void __user *result)
{
	struct ltt_rec_fs_seek rec = { .fd = fd, .offset = ret };
	loff_t off;

	if (!ltt_event_enabled(LTT_EV_fs_seek))
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
 * Returns whether @nr makes fs events at its exit (recorded or not).
 */
bool ltt_fs_exit(long nr, const unsigned long *a, long ret)
{
	switch (nr) {
#ifdef __NR_open
	case __NR_open:
		ltt_fs_open(ret, (const char __user *)a[0]);
		break;
#endif
#ifdef __NR_creat
	case __NR_creat:
		ltt_fs_open(ret, (const char __user *)a[0]);
		break;
#endif
	case __NR_openat:
	case __NR_openat2:
		ltt_fs_open(ret, (const char __user *)a[1]);
		break;
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
