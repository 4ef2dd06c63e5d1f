/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup and container of a task at the current item of a trace,
 * for every command: the path libltt follows (ltt_trace_cgroup()), the
 * name cgname.c gives it, cached per cgroup and per task; the selection
 * of --cgroup PATH and --container NAME; the containers as groups for
 * the breakdowns of ltt stats, ltt analyze, ltt view and ltt export.
 */
#ifndef LTT_CONTAINER_H
#define LTT_CONTAINER_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt.h>

#include "cgname.h"

struct cg_args;

/* A cgroup as the trace named it, or the "?" of a task not placed. */
struct cg_info {
	uint64_t id;			/* 0: the trace has not placed the task */
	bool named;			/* the trace named its path */
	char path[LTT_STRING_MAX];	/* "?" when not named */
	struct ltt_cgroup_name name;	/* .name "?" when not named */
	int8_t selected;		/* -1: not judged yet */
	uint32_t group;			/* index in containers.groups */
};

/* A container: the cgroups of one name (a service and its sub-cgroups). */
struct cg_group {
	const struct cg_info *first;	/* its first cgroup met */
	const char *name;		/* first->name.name */
};

struct cg_task_cache {
	int32_t pid;
	bool used;
	uint64_t serial;		/* ltt_trace_cgroup_serial() then */
	struct cg_info *info;
};

struct containers {
	const struct ltt_trace *trace;
	struct cg_info **info;		/* by id: open addressing */
	uint32_t n_info, info_slots;
	struct cg_info unknown;		/* tasks the trace has not placed */
	struct cg_task_cache *tasks;
	uint32_t n_tasks, task_slots;
	struct cg_group *groups;
	uint32_t n_groups, cap_groups;
	/* --cgroup, --container */
	bool selecting;
	const char *cgroup_arg, *container;
	char cgroup[LTT_STRING_MAX];	/* normalised */
	bool failed;			/* out of memory */
};

int containers_init(struct containers *c, const struct ltt_trace *t,
		    const struct cg_args *sel);
void containers_free(struct containers *c);
/* Task @pid's cgroup now (never NULL: &c->unknown without memory). */
const struct cg_info *containers_task(struct containers *c, int32_t pid);
/* Does task @pid pass --cgroup and --container (true without them)? */
bool containers_selected(struct containers *c, int32_t pid);
/* The group (container) of task @pid now: an index of c->groups. */
uint32_t containers_group(struct containers *c, int32_t pid);
/*
 * At the end: when --cgroup or --container names nothing the trace
 * named, say so ("CMD: DIR: no cgroup PATH in the trace; its cgroups:
 * ...") and return 2 (a selection of nothing, as -e nosuch is); else 0.
 */
int containers_check(struct containers *c, const char *cmd);
/*
 * Row @g of a breakdown's table of @size-byte rows, one per group:
 * *@rows holds *@cap of them, grown (new rows zeroed) to hold @g; NULL
 * without memory.
 */
void *containers_row(void **rows, uint32_t *cap, size_t size, uint32_t g);
/* The container name of cgroup @path ("?" for NULL) into @buf. */
void container_name_of(const char *path, char *buf, size_t len);

#endif /* LTT_CONTAINER_H */
