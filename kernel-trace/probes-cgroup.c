// SPDX-License-Identifier: GPL-2.0
/*
 * LTT probes on the cgroup v2 hierarchy: cgroups made and removed, tasks
 * moved.  The other hierarchies (cgroup v1) name no container LTT knows
 * of, and are not recorded.
 */
#include <linux/cgroup.h>
#include <linux/kernfs.h>
#include <linux/sched.h>
#include <trace/events/cgroup.h>

#include "internal.h"

/**
 * ltt_cgroup_path - the path of a cgroup from the hierarchy's root
 * @cgrp: the cgroup
 * @buf: where to write it
 * @len: the room at @buf
 *
 * As the tracepoints' own path (cgroup_path()), for the state dump; it
 * takes kernfs_rename_lock.  Cut to @len bytes.
 *
 * Return: @buf.
 */
const char *ltt_cgroup_path(struct cgroup *cgrp, char *buf, size_t len)
{
	if (kernfs_path(cgrp->kn, buf, len) < 0)
		strscpy(buf, "?", len);
	return buf;
}

/* Is @cgrp one of the v2 hierarchy's? */
static bool ltt_cgroup_v2(const struct cgroup *cgrp)
{
	return cgrp->root == &cgrp_dfl_root;
}

static u64 ltt_cgroup_parent_id(struct cgroup *cgrp)
{
	struct cgroup *parent = cgroup_parent(cgrp);

	return parent ? cgroup_id(parent) : 0;
}

/* @path is from the hierarchy's root, whoever makes the cgroup. */
static void ltt_probe_cgroup_mkdir(void *data, struct cgroup *cgrp,
				   const char *path)
{
	struct ltt_rec_cgroup_mkdir rec = {
		.id = cgroup_id(cgrp),
		.parent = ltt_cgroup_parent_id(cgrp),
	};

	if (ltt_cgroup_v2(cgrp))
		ltt_log_cgroup_mkdir(&rec, path);
}

static void ltt_probe_cgroup_rmdir(void *data, struct cgroup *cgrp,
				   const char *path)
{
	struct ltt_rec_cgroup_rmdir rec = { .id = cgroup_id(cgrp) };

	if (ltt_cgroup_v2(cgrp))
		ltt_log_cgroup_rmdir(&rec);
}

/*
 * After the move: @task is in @dst_cgrp already.  Whether a process
 * passes a session's cgroup filter may have changed: its enable flags
 * are written again, soon.
 */
static void ltt_probe_cgroup_attach(void *data, struct cgroup *dst_cgrp,
				    const char *path, struct task_struct *task,
				    bool threadgroup)
{
	if (!ltt_cgroup_v2(dst_cgrp))
		return;
	ltt_write_cgroup_attach(cgroup_id(dst_cgrp), task, threadgroup);
	ltt_enable_moved();
}

static int ltt_cgroup_attach(void)
{
	int ret;

	ret = register_trace_cgroup_mkdir(ltt_probe_cgroup_mkdir, NULL);
	if (ret)
		return ret;
	ret = register_trace_cgroup_rmdir(ltt_probe_cgroup_rmdir, NULL);
	if (ret)
		goto no_rmdir;
	ret = register_trace_cgroup_attach_task(ltt_probe_cgroup_attach, NULL);
	if (ret)
		goto no_attach;
	return 0;

no_attach:
	unregister_trace_cgroup_rmdir(ltt_probe_cgroup_rmdir, NULL);
no_rmdir:
	unregister_trace_cgroup_mkdir(ltt_probe_cgroup_mkdir, NULL);
	return ret;
}

static void ltt_cgroup_detach(void)
{
	unregister_trace_cgroup_attach_task(ltt_probe_cgroup_attach, NULL);
	unregister_trace_cgroup_rmdir(ltt_probe_cgroup_rmdir, NULL);
	unregister_trace_cgroup_mkdir(ltt_probe_cgroup_mkdir, NULL);
}

const struct ltt_probe_group ltt_cgroup_probes = {
	.name	= "cgroup",
	.attach	= ltt_cgroup_attach,
	.detach	= ltt_cgroup_detach,
};
