// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Where each task lives, learnt from the trace as it is read (as names.c
 * learns names), never from the machine reading it:
 *  - statedump_cgroup and cgroup_mkdir name a cgroup (v2) by its id, with
 *    its path from the hierarchy's root; cgroup_rmdir removes it;
 *  - process_ns places a task: its cgroup, pid namespace and the pid its
 *    namespace gives it (the state dump has one per task, a fork has one
 *    when the child is not where its parent is);
 *  - cgroup_attach moves a task, or its whole process (threadgroup);
 *  - a fork puts the child where its parent (the running task) is.
 *
 * A damaged record (a path that is not absolute, id 0) is ignored, and
 * an id no record named is kept (its path unknown): each kind is said
 * once, as a warning of the trace.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/* The initial pid namespace's inode number (PROC_PID_INIT_INO). */
#define LTT_PIDNS_INIT	0xEFFFFFFCU

static uint64_t cg_hash(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return key;
}

static struct cg_task *cg_task_slot(const struct cg_tables *cg, int32_t pid)
{
	size_t i, mask = cg->n_task_slots - 1;

	for (i = cg_hash((uint32_t)pid) & mask; cg->tasks[i].used;
	     i = (i + 1) & mask)
		if (cg->tasks[i].pid == pid)
			return &cg->tasks[i];
	return &cg->tasks[i];
}

static struct cg_group *cg_group_slot(const struct cg_tables *cg, uint64_t id)
{
	size_t i, mask = cg->n_group_slots - 1;

	for (i = cg_hash(id) & mask; cg->groups[i].used; i = (i + 1) & mask)
		if (cg->groups[i].id == id)
			return &cg->groups[i];
	return &cg->groups[i];
}

int cgroups_init(struct cg_tables *cg)
{
	memset(cg, 0, sizeof(*cg));
	cg->n_task_slots = 256;
	cg->n_group_slots = 64;
	cg->tasks = calloc(cg->n_task_slots, sizeof(*cg->tasks));
	cg->groups = calloc(cg->n_group_slots, sizeof(*cg->groups));
	return cg->tasks && cg->groups ? 0 : -1;
}

void cgroups_free(struct cg_tables *cg)
{
	size_t i;

	for (i = 0; cg->groups && i < cg->n_group_slots; i++)
		free(cg->groups[i].path);
	free(cg->groups);
	free(cg->tasks);
	memset(cg, 0, sizeof(*cg));
}

/* Task @pid's entry, made (nowhere) if new; NULL without memory. */
static struct cg_task *cg_task_get(struct cg_tables *cg, int32_t pid)
{
	struct cg_task *e;
	size_t i;

	if (2 * (cg->n_tasks + 1) > cg->n_task_slots) {
		struct cg_tables bigger = *cg;

		bigger.n_task_slots = 2 * cg->n_task_slots;
		bigger.tasks = calloc(bigger.n_task_slots, sizeof(*bigger.tasks));
		if (!bigger.tasks)
			return NULL;
		for (i = 0; i < cg->n_task_slots; i++)
			if (cg->tasks[i].used)
				*cg_task_slot(&bigger, cg->tasks[i].pid) =
					cg->tasks[i];
		free(cg->tasks);
		cg->tasks = bigger.tasks;
		cg->n_task_slots = bigger.n_task_slots;
	}
	e = cg_task_slot(cg, pid);
	if (!e->used) {
		memset(e, 0, sizeof(*e));
		e->used = true;
		e->pid = pid;
		cg->n_tasks++;
	}
	return e;
}

/* Cgroup @id's entry, made (unnamed) if new; NULL without memory. */
static struct cg_group *cg_group_get(struct cg_tables *cg, uint64_t id)
{
	struct cg_group *e;
	size_t i;

	if (2 * (cg->n_groups + 1) > cg->n_group_slots) {
		struct cg_tables bigger = *cg;

		bigger.n_group_slots = 2 * cg->n_group_slots;
		bigger.groups = calloc(bigger.n_group_slots,
				       sizeof(*bigger.groups));
		if (!bigger.groups)
			return NULL;
		for (i = 0; i < cg->n_group_slots; i++)
			if (cg->groups[i].used)
				*cg_group_slot(&bigger, cg->groups[i].id) =
					cg->groups[i];
		free(cg->groups);
		cg->groups = bigger.groups;
		cg->n_group_slots = bigger.n_group_slots;
	}
	e = cg_group_slot(cg, id);
	if (!e->used) {
		memset(e, 0, sizeof(*e));
		e->used = true;
		e->id = id;
		cg->n_groups++;
	}
	return e;
}

/* Each kind of damage is said once per trace. */
enum {
	CG_WARN_PATH = 1 << 0,
	CG_WARN_ID = 1 << 1,
	CG_WARN_UNNAMED = 1 << 2,
	CG_WARN_REMOVED = 1 << 3,
	CG_WARN_MEMORY = 1 << 4,
};

__printf(4, 5)
static void cg_warn(struct ltt_trace *t, const struct ltt_item *it,
		    unsigned int kind, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (t->cg.warned & kind)
		return;
	t->cg.warned |= kind;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	trace_add_warning(t, "%s/%s: offset %llu: %s %s", t->parts[0].dir,
			  it->file ? it->file : "?",
			  (unsigned long long)it->offset, it->desc->name, msg);
}

/* A cgroup the trace names, as a task is put in it: said if unnamed. */
static void cg_check_named(struct ltt_trace *t, const struct ltt_item *it,
			   uint64_t id, int32_t pid)
{
	const struct cg_group *g = cg_group_slot(&t->cg, id);

	if (!g->used || !g->path)
		cg_warn(t, it, CG_WARN_UNNAMED,
			"puts task %d in cgroup %llu, which no statedump_cgroup nor cgroup_mkdir names (a damaged trace, or a user session's, which names only its tasks' cgroups of the state dump): its path is shown as \"?\"",
			pid, (unsigned long long)id);
	else if (g->removed)
		cg_warn(t, it, CG_WARN_REMOVED,
			"puts task %d in cgroup %llu (%s), removed before",
			pid, (unsigned long long)id, g->path);
}

/* statedump_cgroup, cgroup_mkdir: cgroup @id is at @path. */
static void cg_define(struct ltt_trace *t, const struct ltt_item *it,
		      uint64_t id, const char *path)
{
	struct cg_group *g;
	char *copy;

	if (!id) {
		cg_warn(t, it, CG_WARN_ID, "names cgroup id 0, which no cgroup has: ignored");
		return;
	}
	if (path[0] != '/') {
		cg_warn(t, it, CG_WARN_PATH,
			"of cgroup %llu: its path \"%.64s\" is not absolute: ignored",
			(unsigned long long)id, path);
		return;
	}
	g = cg_group_get(&t->cg, id);
	copy = g ? strdup(path) : NULL;
	if (!copy) {
		cg_warn(t, it, CG_WARN_MEMORY, "out of memory: cgroups not followed");
		return;
	}
	free(g->path);
	g->path = copy;
	g->removed = false;
}

static void cg_remove(struct ltt_trace *t, const struct ltt_item *it,
		      uint64_t id)
{
	struct cg_group *g = cg_group_slot(&t->cg, id);

	if (!g->used || !g->path)
		cg_warn(t, it, CG_WARN_UNNAMED,
			"removes cgroup %llu, which no statedump_cgroup nor cgroup_mkdir names",
			(unsigned long long)id);
	else
		g->removed = true;
}

/* Task @pid (its whole process when @threadgroup) moves to cgroup @id. */
static void cg_attach(struct ltt_trace *t, const struct ltt_item *it,
		      int32_t pid, uint64_t id, bool threadgroup)
{
	struct cg_tables *cg = &t->cg;
	struct cg_task *e;
	int32_t tgid;
	size_t i;

	if (!id) {
		cg_warn(t, it, CG_WARN_ID, "names cgroup id 0, which no cgroup has: ignored");
		return;
	}
	cg_check_named(t, it, id, pid);
	e = cg_task_get(cg, pid);
	if (!e) {
		cg_warn(t, it, CG_WARN_MEMORY, "out of memory: cgroups not followed");
		return;
	}
	e->cgroup = id;
	if (!threadgroup)
		return;
	tgid = names_tgid(t, pid);
	for (i = 0; i < cg->n_task_slots; i++)
		if (cg->tasks[i].used && names_tgid(t, cg->tasks[i].pid) == tgid)
			cg->tasks[i].cgroup = id;
}

/* process_ns: task @pid is in cgroup @id, pid namespace @ns as @vpid. */
static void cg_place(struct ltt_trace *t, const struct ltt_item *it,
		     int32_t pid, uint64_t id, bool has_ns, int32_t vpid,
		     uint32_t ns)
{
	struct cg_task *e;

	if (id)
		cg_check_named(t, it, id, pid);
	e = cg_task_get(&t->cg, pid);
	if (!e) {
		cg_warn(t, it, CG_WARN_MEMORY, "out of memory: cgroups not followed");
		return;
	}
	e->cgroup = id;
	if (has_ns) {
		e->pidns = ns;
		e->vpid = vpid;
		e->ns_known = ns != 0;
	}
}

/* process_fork: child @pid is where the running task is. */
static void cg_inherit(struct ltt_trace *t, const struct ltt_item *it,
		       int32_t child)
{
	const struct cg_task *parent = cg_task_slot(&t->cg, it->pid);
	struct cg_task copy, *e;

	if (child == it->pid)
		return;
	if (!parent->used) {
		/* a reused pid: what the trace said of the old task goes */
		e = cg_task_slot(&t->cg, child);
		if (e->used) {
			e->cgroup = 0;
			e->ns_known = false;
		}
		return;
	}
	copy = *parent;
	e = cg_task_get(&t->cg, child);
	if (!e)
		return;
	e->cgroup = copy.cgroup;
	/*
	 * The kernel records process_ns after a fork in any pid namespace
	 * but the initial one, where a task's pid is its own.
	 */
	e->ns_known = copy.ns_known && copy.pidns == LTT_PIDNS_INIT;
	e->pidns = copy.pidns;
	e->vpid = child;
}

void cgroups_apply(struct ltt_trace *t, const struct name_rule *r,
		   const struct ltt_item *it)
{
	uint64_t a = r->a >= 0 ? (uint64_t)ltt_item_int(it, r->a) : 0;
	uint64_t b = r->b >= 0 ? (uint64_t)ltt_item_int(it, r->b) : 0;
	int64_t c = r->c >= 0 ? ltt_item_int(it, r->c) : 0;
	int64_t d = r->d >= 0 ? ltt_item_int(it, r->d) : 0;

	t->cg.serial++;
	switch (r->kind) {
	case CG_DEFINE:
		cg_define(t, it, a, ltt_item_string(it));
		break;
	case CG_REMOVE:
		cg_remove(t, it, a);
		break;
	case CG_ATTACH:
		cg_attach(t, it, (int32_t)a, b, c);
		break;
	case CG_PLACE:
		cg_place(t, it, (int32_t)a, b, r->c >= 0 && r->d >= 0,
			 (int32_t)c, (uint32_t)d);
		break;
	case CG_INHERIT:
		cg_inherit(t, it, (int32_t)a);
		break;
	default:
		break;
	}
}

const char *ltt_trace_cgroup(const struct ltt_trace *t, int32_t pid,
			     uint64_t *id)
{
	const struct cg_task *e;
	const struct cg_group *g;

	if (id)
		*id = 0;
	if (!t->cg.tasks)
		return NULL;
	e = cg_task_slot(&t->cg, pid);
	if (!e->used || !e->cgroup)
		return NULL;
	if (id)
		*id = e->cgroup;
	g = cg_group_slot(&t->cg, e->cgroup);
	return g->used ? g->path : NULL;
}

int ltt_trace_pidns(const struct ltt_trace *t, int32_t pid, uint32_t *pidns,
		    int32_t *vpid)
{
	const struct cg_task *e;

	if (!t->cg.tasks)
		return 0;
	e = cg_task_slot(&t->cg, pid);
	if (!e->used || !e->ns_known)
		return 0;
	if (pidns)
		*pidns = e->pidns;
	if (vpid)
		*vpid = e->vpid;
	return 1;
}

uint64_t ltt_trace_cgroup_serial(const struct ltt_trace *t)
{
	return t->cg.serial;
}

int ltt_trace_cgroups(const struct ltt_trace *t, size_t *pos, uint64_t *id,
		      const char **path)
{
	const struct cg_tables *cg = &t->cg;

	for (; *pos < cg->n_group_slots; (*pos)++) {
		const struct cg_group *g = &cg->groups[*pos];

		if (!g->used || !g->path)
			continue;
		if (id)
			*id = g->id;
		if (path)
			*path = g->path;
		(*pos)++;
		return 1;
	}
	return 0;
}
