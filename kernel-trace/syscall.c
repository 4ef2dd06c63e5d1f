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
#include <linux/file.h>
#include <linux/nospec.h>
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

/* The struct of every command on a session; each starts with its fd. */
union ltt_session_arg {
	s32 session_fd;
	struct ltt_session_cmd cmd;
	struct ltt_events events;
	struct ltt_pids pids;
	struct ltt_cgroups cgroups;
	struct ltt_status status;
	struct ltt_buffer_req buffer;
};

/* The size this kernel knows, and the first published, of each. */
static const struct {
	size_t size;
	size_t ver0;
} ltt_session_arg_size[LTT_CMD_MAX] = {
	[LTT_CMD_SET_EVENTS] = { sizeof(struct ltt_events), LTT_EVENTS_SIZE_VER0 },
	[LTT_CMD_SET_PIDS] = { sizeof(struct ltt_pids), LTT_PIDS_SIZE_VER0 },
	[LTT_CMD_SET_CGROUPS] = { sizeof(struct ltt_cgroups),
				  LTT_CGROUPS_SIZE_VER0 },
	[LTT_CMD_START] = { sizeof(struct ltt_session_cmd),
			    LTT_SESSION_CMD_SIZE_VER0 },
	[LTT_CMD_STOP] = { sizeof(struct ltt_session_cmd),
			   LTT_SESSION_CMD_SIZE_VER0 },
	[LTT_CMD_SNAPSHOT] = { sizeof(struct ltt_session_cmd),
			       LTT_SESSION_CMD_SIZE_VER0 },
	[LTT_CMD_STATUS] = { sizeof(struct ltt_status), LTT_STATUS_SIZE_VER0 },
	[LTT_CMD_BUFFER_FD] = { sizeof(struct ltt_buffer_req),
				LTT_BUFFER_REQ_SIZE_VER0 },
};

/* Run command @cmd, its struct copied in as @a, on session @s. */
static long ltt_session_cmd(struct ltt_session *s, unsigned int cmd,
			    union ltt_session_arg *a, void __user *uarg,
			    size_t usize)
{
	int ret;

	switch (cmd) {
	case LTT_CMD_START:
		return a->cmd.flags ? -EINVAL : ltt_session_start(s);
	case LTT_CMD_STOP:
	case LTT_CMD_SNAPSHOT:
		if (a->cmd.flags)
			return -EINVAL;
		return ltt_session_stop(s, cmd == LTT_CMD_SNAPSHOT);
	case LTT_CMD_SET_EVENTS:
		return ltt_session_set_events(s, u64_to_user_ptr(a->events.mask),
					      a->events.nbits);
	case LTT_CMD_SET_PIDS:
		if (a->pids.flags || a->pids.__reserved)
			return -EINVAL;
		return ltt_session_set_pids(s, u64_to_user_ptr(a->pids.pids),
					    a->pids.count);
	case LTT_CMD_SET_CGROUPS:
		if (a->cgroups.flags || a->cgroups.__reserved)
			return -EINVAL;
		return ltt_session_set_cgroups(s, u64_to_user_ptr(a->cgroups.fds),
					       a->cgroups.count);
	case LTT_CMD_STATUS:
		ret = ltt_session_status(s, &a->status,
					 u64_to_user_ptr(a->status.cpus));
		if (ret)
			return ret;
		return ltt_copy_out(uarg, usize, &a->status, sizeof(a->status));
	case LTT_CMD_BUFFER_FD:
		return ltt_session_buffer_fd(s, a->buffer.cpu);
	}
	return -EINVAL;
}

/* Copy in the struct of a command on a session, find the session, run it. */
static long ltt_cmd_session(unsigned int cmd, void __user *uarg, size_t usize)
{
	union ltt_session_arg a;
	struct ltt_session *s;
	long ret;

	cmd = array_index_nospec(cmd, LTT_CMD_MAX);
	ret = ltt_copy_in(&a, ltt_session_arg_size[cmd].size,
			  ltt_session_arg_size[cmd].ver0, uarg, usize);
	if (ret)
		return ret;
	/* The file, held to the end, keeps its release from racing us. */
	CLASS(fd, f)(a.session_fd);
	if (fd_empty(f))
		return -EBADF;
	s = ltt_session_of(fd_file(f));
	if (IS_ERR(s))
		return PTR_ERR(s);
	return ltt_session_cmd(s, cmd, &a, uarg, usize);
}

static long ltt_cmd_event_info(void __user *uarg, size_t usize)
{
	struct ltt_event_info info;
	int ret;

	ret = ltt_copy_in(&info, sizeof(info), LTT_EVENT_INFO_SIZE_VER0,
			  uarg, usize);
	if (ret)
		return ret;
	if (info.id < LTT_NR_EVENTS) {
		ret = ltt_event_info(&info);
		info.generation = ltt_custom_generation();
	} else {
		ret = ltt_custom_info(&info);
	}
	if (ret)
		return ret;
	return ltt_copy_out(uarg, usize, &info, sizeof(info));
}

static long ltt_cmd_event_create(void __user *uarg, size_t usize)
{
	struct ltt_event_create c;
	int ret;

	ret = ltt_copy_in(&c, sizeof(c), LTT_EVENT_CREATE_SIZE_VER0, uarg,
			  usize);
	if (ret)
		return ret;
	return ltt_custom_create_fd(&c);
}

static long ltt_cmd_event_log(void __user *uarg, size_t usize)
{
	struct ltt_event_log l;
	int ret;

	ret = ltt_copy_in(&l, sizeof(l), LTT_EVENT_LOG_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	return ltt_custom_log_user(&l);
}

static long ltt_cmd_boot(void __user *uarg, size_t usize)
{
	struct ltt_boot b;
	int ret;

	ret = ltt_copy_in(&b, sizeof(b), LTT_BOOT_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	if (b.flags || b.__reserved)
		return -EINVAL;
	return ltt_boot_take();
}

static long ltt_cmd_previous_boot(void __user *uarg, size_t usize)
{
	struct ltt_previous p;
	int ret;

	ret = ltt_copy_in(&p, sizeof(p), LTT_PREVIOUS_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	if (p.__reserved)
		return -EINVAL;
	return ltt_previous_boot(p.flags);
}

SYSCALL_DEFINE3(ltt, unsigned int, cmd, void __user *, arg, size_t, size)
{
	switch (cmd) {
	case LTT_CMD_CREATE:
		return ltt_cmd_create(arg, size);
	case LTT_CMD_SET_EVENTS:
	case LTT_CMD_SET_PIDS:
	case LTT_CMD_SET_CGROUPS:
	case LTT_CMD_START:
	case LTT_CMD_STOP:
	case LTT_CMD_SNAPSHOT:
	case LTT_CMD_STATUS:
	case LTT_CMD_BUFFER_FD:
		return ltt_cmd_session(cmd, arg, size);
	case LTT_CMD_EVENT_INFO:
		return ltt_cmd_event_info(arg, size);
	case LTT_CMD_EVENT_CREATE:
		return ltt_cmd_event_create(arg, size);
	case LTT_CMD_EVENT_LOG:
		return ltt_cmd_event_log(arg, size);
	case LTT_CMD_BOOT:
		return ltt_cmd_boot(arg, size);
	case LTT_CMD_PREVIOUS_BOOT:
		return ltt_cmd_previous_boot(arg, size);
	}
	return -EINVAL;
}
