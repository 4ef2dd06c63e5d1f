// SPDX-License-Identifier: GPL-2.0
/*
 * The ltt() syscall: LTT's one control entry point.
 *
 * ltt(cmd, arg, size) copies the command's struct in with
 * copy_struct_from_user(), so that older and newer user space work with
 * any kernel: a short struct is zero-extended, a long one is accepted
 * only when the part this kernel does not know is zero (else E2BIG).
 */
#include <linux/err.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>

#include "internal.h"

/* Copy in a command struct of which user space passed @usize bytes. */
static int ltt_copy_in(void *dst, size_t ksize, size_t ver0,
		       const void __user *src, size_t usize)
{
	if (usize < ver0)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	return copy_struct_from_user(dst, ksize, src, usize);
}

/* Copy out the reply, as much of it as user space knows. */
static int ltt_copy_out(void __user *dst, size_t usize, const void *src,
			size_t ksize)
{
	if (copy_to_user(dst, src, min(usize, ksize)))
		return -EFAULT;
	return 0;
}

static long ltt_cmd_create(void __user *uarg, size_t usize)
{
	struct ltt_create a;
	int ret;

	ret = ltt_copy_in(&a, sizeof(a), LTT_CREATE_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	return ltt_session_create(&a);
}

static long ltt_cmd_session(unsigned int cmd, void __user *uarg, size_t usize)
{
	struct ltt_session *s;
	struct ltt_session_cmd c;
	int ret;

	ret = ltt_copy_in(&c, sizeof(c), LTT_SESSION_CMD_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	if (c.flags)
		return -EINVAL;
	s = ltt_session_get(c.session_fd);
	if (IS_ERR(s))
		return PTR_ERR(s);
	if (cmd == LTT_CMD_START)
		ret = ltt_session_start(s);
	else
		ret = ltt_session_stop(s, cmd == LTT_CMD_SNAPSHOT);
	ltt_session_put(s);
	return ret;
}

static long ltt_cmd_set_events(void __user *uarg, size_t usize)
{
	struct ltt_session *s;
	struct ltt_events e;
	int ret;

	ret = ltt_copy_in(&e, sizeof(e), LTT_EVENTS_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	s = ltt_session_get(e.session_fd);
	if (IS_ERR(s))
		return PTR_ERR(s);
	ret = ltt_session_set_events(s, u64_to_user_ptr(e.mask), e.nbits);
	ltt_session_put(s);
	return ret;
}

static long ltt_cmd_set_pids(void __user *uarg, size_t usize)
{
	struct ltt_session *s;
	struct ltt_pids p;
	int ret;

	ret = ltt_copy_in(&p, sizeof(p), LTT_PIDS_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	if (p.flags || p.__reserved)
		return -EINVAL;
	s = ltt_session_get(p.session_fd);
	if (IS_ERR(s))
		return PTR_ERR(s);
	ret = ltt_session_set_pids(s, u64_to_user_ptr(p.pids), p.count);
	ltt_session_put(s);
	return ret;
}

static long ltt_cmd_status(void __user *uarg, size_t usize)
{
	struct ltt_session *s;
	struct ltt_status st;
	int ret;

	ret = ltt_copy_in(&st, sizeof(st), LTT_STATUS_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	s = ltt_session_get(st.session_fd);
	if (IS_ERR(s))
		return PTR_ERR(s);
	ret = ltt_session_status(s, &st, u64_to_user_ptr(st.cpus));
	ltt_session_put(s);
	if (ret)
		return ret;
	return ltt_copy_out(uarg, usize, &st, sizeof(st));
}

static long ltt_cmd_buffer_fd(void __user *uarg, size_t usize)
{
	struct ltt_session *s;
	struct ltt_buffer_req r;
	int ret;

	ret = ltt_copy_in(&r, sizeof(r), LTT_BUFFER_REQ_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	s = ltt_session_get(r.session_fd);
	if (IS_ERR(s))
		return PTR_ERR(s);
	ret = ltt_session_buffer_fd(s, r.cpu);
	ltt_session_put(s);
	return ret;
}

static long ltt_cmd_event_info(void __user *uarg, size_t usize)
{
	struct ltt_event_info info;
	int ret;

	ret = ltt_copy_in(&info, sizeof(info), LTT_EVENT_INFO_SIZE_VER0,
			  uarg, usize);
	if (ret)
		return ret;
	ret = ltt_event_info(&info);
	if (ret)
		return ret;
	return ltt_copy_out(uarg, usize, &info, sizeof(info));
}

SYSCALL_DEFINE3(ltt, unsigned int, cmd, void __user *, arg, size_t, size)
{
	switch (cmd) {
	case LTT_CMD_CREATE:
		return ltt_cmd_create(arg, size);
	case LTT_CMD_SET_EVENTS:
		return ltt_cmd_set_events(arg, size);
	case LTT_CMD_SET_PIDS:
		return ltt_cmd_set_pids(arg, size);
	case LTT_CMD_START:
	case LTT_CMD_STOP:
	case LTT_CMD_SNAPSHOT:
		return ltt_cmd_session(cmd, arg, size);
	case LTT_CMD_STATUS:
		return ltt_cmd_status(arg, size);
	case LTT_CMD_BUFFER_FD:
		return ltt_cmd_buffer_fd(arg, size);
	case LTT_CMD_EVENT_INFO:
		return ltt_cmd_event_info(arg, size);
	}
	return -EINVAL;
}
