// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup and container of each task as a trace is read (container.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "ltt.h"

static uint32_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (uint32_t)k;
}

/*
 * --cgroup's PATH as the trace writes paths: from the hierarchy's root,
 * one slash between components, none at the end; a path under the
 * usual mount points of cgroup2 (/sys/fs/cgroup, /sys/fs/cgroup/unified:
 * what lttd --cgroup takes) loses them.
 */
static void normalise(const char *in, char *out, size_t len)
{
	static const char *const mounts[] = { "/sys/fs/cgroup/unified",
					      "/sys/fs/cgroup" };
	size_t i, n = 0, m;

	for (i = 0; i < ARRAY_SIZE(mounts); i++) {
		m = strlen(mounts[i]);
		if (!strncmp(in, mounts[i], m) && (!in[m] || in[m] == '/')) {
			in += m;
			break;
		}
	}
	out[n++] = '/';
	for (; *in && n < len - 1; in++) {
		if (*in == '/' && out[n - 1] == '/')
			continue;
		out[n++] = *in;
	}
	if (n > 1 && out[n - 1] == '/')
		n--;
	out[n] = '\0';
}

int containers_init(struct containers *c, const struct ltt_trace *t,
		    const struct cg_args *sel)
{
	memset(c, 0, sizeof(*c));
	c->trace = t;
	strcpy(c->unknown.path, "?");
	strcpy(c->unknown.name.name, "?");
	c->unknown.name.uid = -1;
	c->unknown.selected = 0;
	c->info_slots = 64;
	c->task_slots = 256;
	c->info = calloc(c->info_slots, sizeof(*c->info));
	c->tasks = calloc(c->task_slots, sizeof(*c->tasks));
	if (!c->info || !c->tasks)
		return -1;
	if (sel && (sel->cgroup || sel->container)) {
		c->selecting = true;
		c->cgroup_arg = sel->cgroup;
		c->container = sel->container;
		if (sel->cgroup)
			normalise(sel->cgroup, c->cgroup, sizeof(c->cgroup));
	}
	c->unknown.group = UINT32_MAX;
	return 0;
}

void containers_free(struct containers *c)
{
	uint32_t i;

	for (i = 0; c->info && i < c->info_slots; i++)
		free(c->info[i]);
	free(c->info);
	free(c->tasks);
	free(c->groups);
	memset(c, 0, sizeof(*c));
}

/* Is cgroup @path (named) in --cgroup's subtree, of --container's name? */
static bool path_selected(const struct containers *c, const char *path,
			  const struct ltt_cgroup_name *name)
{
	size_t n = strlen(c->cgroup);

	if (c->cgroup_arg && strcmp(c->cgroup, "/") &&
	    (strncmp(path, c->cgroup, n) || (path[n] && path[n] != '/')))
		return false;
	if (c->container) {
		size_t k = strlen(c->container);

		/* the name shown, the whole id, or 12 digits of it or more */
		if (strcmp(name->name, c->container) &&
		    strcmp(name->id, c->container) &&
		    (k < 12 || strncmp(name->id, c->container, k)))
			return false;
	}
	return true;
}

/* The entry of cgroup @id at @path (NULL: not named), made if new. */
static struct cg_info *info_get(struct containers *c, uint64_t id,
				const char *path)
{
	uint32_t h, mask = c->info_slots - 1, i;
	struct cg_info *e;

	for (h = hash64(id) & mask; c->info[h]; h = (h + 1) & mask)
		if (c->info[h]->id == id)
			break;
	e = c->info[h];
	if (e && (path ? e->named && !strcmp(e->path, path) : !e->named))
		return e;
	if (!e) {
		if (2 * (c->n_info + 1) > c->info_slots) {
			uint32_t n = 2 * c->info_slots;
			struct cg_info **bigger = calloc(n, sizeof(*bigger));

			if (!bigger)
				return NULL;
			for (i = 0; i < c->info_slots; i++) {
				if (!c->info[i])
					continue;
				for (h = hash64(c->info[i]->id) & (n - 1);
				     bigger[h]; h = (h + 1) & (n - 1))
					;
				bigger[h] = c->info[i];
			}
			free(c->info);
			c->info = bigger;
			c->info_slots = n;
			return info_get(c, id, path);
		}
		e = calloc(1, sizeof(*e));
		if (!e)
			return NULL;
		c->info[h] = e;
		c->n_info++;
		e->id = id;
	}
	/* new, or named (again) since */
	e->named = path != NULL;
	snprintf(e->path, sizeof(e->path), "%s", path ? path : "?");
	if (path)
		ltt_cgroup_name(path, &e->name);
	else {
		memset(&e->name, 0, sizeof(e->name));
		e->name.uid = -1;
		strcpy(e->name.name, "?");
	}
	e->selected = path ? path_selected(c, path, &e->name) : 0;
	e->group = UINT32_MAX;
	return e;
}

const struct cg_info *containers_task(struct containers *c, int32_t pid)
{
	uint64_t serial = ltt_trace_cgroup_serial(c->trace), id;
	uint32_t h, mask = c->task_slots - 1, i;
	struct cg_task_cache *k;
	const char *path;

	for (h = hash64((uint32_t)pid) & mask; c->tasks[h].used;
	     h = (h + 1) & mask)
		if (c->tasks[h].pid == pid)
			break;
	k = &c->tasks[h];
	if (k->used && k->serial == serial)
		return k->info;
	if (!k->used) {
		if (2 * (c->n_tasks + 1) > c->task_slots) {
			uint32_t n = 2 * c->task_slots;
			struct cg_task_cache *bigger = calloc(n, sizeof(*bigger));

			if (!bigger) {
				c->failed = true;
				return &c->unknown;
			}
			for (i = 0; i < c->task_slots; i++) {
				if (!c->tasks[i].used)
					continue;
				for (h = hash64((uint32_t)c->tasks[i].pid) & (n - 1);
				     bigger[h].used; h = (h + 1) & (n - 1))
					;
				bigger[h] = c->tasks[i];
			}
			free(c->tasks);
			c->tasks = bigger;
			c->task_slots = n;
			return containers_task(c, pid);
		}
		k->used = true;
		k->pid = pid;
		c->n_tasks++;
	}
	path = ltt_trace_cgroup(c->trace, pid, &id);
	k->info = id ? info_get(c, id, path) : &c->unknown;
	if (!k->info) {
		c->failed = true;
		k->info = &c->unknown;
	}
	k->serial = serial;
	return k->info;
}

bool containers_selected(struct containers *c, int32_t pid)
{
	return !c->selecting || containers_task(c, pid)->selected > 0;
}

uint32_t containers_group(struct containers *c, int32_t pid)
{
	struct cg_info *e = (struct cg_info *)containers_task(c, pid);
	uint32_t i;

	if (e->group != UINT32_MAX)
		return e->group;
	for (i = 0; i < c->n_groups; i++)
		if (!strcmp(c->groups[i].name, e->name.name))
			break;
	if (i == c->n_groups) {
		if (c->n_groups == c->cap_groups) {
			uint32_t cap = c->cap_groups ? 2 * c->cap_groups : 16;
			struct cg_group *g = realloc(c->groups, cap * sizeof(*g));

			if (!g) {
				c->failed = true;
				return 0;
			}
			c->groups = g;
			c->cap_groups = cap;
		}
		c->groups[i].first = e;
		c->groups[i].name = e->name.name;
		c->n_groups++;
	}
	e->group = i;
	return i;
}

int containers_check(struct containers *c, const char *cmd)
{
	const char *path, *dir = ltt_trace_dir(c->trace);
	struct ltt_cgroup_name name;
	size_t pos = 0;
	unsigned int n = 0;
	char what[600];

	if (!c->selecting)
		return 0;
	while (ltt_trace_cgroups(c->trace, &pos, NULL, &path)) {
		n++;
		ltt_cgroup_name(path, &name);
		if (path_selected(c, path, &name))
			return 0;
	}
	snprintf(what, sizeof(what), "%s%s%s%s%s%s%s",
		 c->cgroup_arg ? "--cgroup " : "",
		 c->cgroup_arg ? c->cgroup : "",
		 c->cgroup_arg && c->container ? " " : "",
		 c->container ? "--container \"" : "",
		 c->container ? c->container : "", c->container ? "\"" : "",
		 "");
	if (!n) {
		warnx_cmd(cmd, "%s: %s: the trace names no cgroup (recorded without the cgroup and statedump events, or by a kernel without them)",
			  dir, what);
		return 2;
	}
	warnx_cmd(cmd, "%s: %s: no such %s in the trace, which names these:",
		  dir, what, c->cgroup_arg ? "cgroup" : "container");
	pos = 0;
	n = 0;
	while (ltt_trace_cgroups(c->trace, &pos, NULL, &path) && n++ < 20) {
		ltt_cgroup_name(path, &name);
		fprintf(stderr, "  %-40s %s\n", name.name, path);
	}
	if (n > 20)
		fprintf(stderr, "  (and more: ltt stats lists the containers)\n");
	return 2;
}

void container_name_of(const char *path, char *buf, size_t len)
{
	struct ltt_cgroup_name name;

	if (!path || ltt_cgroup_name(path, &name))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%s", name.name);
}

void *containers_row(void **rows, uint32_t *cap, size_t size, uint32_t g)
{
	if (g >= *cap) {
		uint32_t n = g + 16;
		char *bigger = realloc(*rows, (size_t)n * size);

		if (!bigger)
			return NULL;
		memset(bigger + (size_t)*cap * size, 0, (size_t)(n - *cap) * size);
		*rows = bigger;
		*cap = n;
	}
	return (char *)*rows + (size_t)g * size;
}
