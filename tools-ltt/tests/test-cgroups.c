// SPDX-License-Identifier: GPL-2.0
/*
 * Where each task lives (lib/cgroups.c, ltt/container.c) in the
 * containers fixtures: the state dump, forks, moves, a child born
 * elsewhere, a seek; the damaged trace's warnings.
 */
#include <string.h>

#include "../ltt/container.h"
#include "../ltt/ltt.h"
#include "tests.h"

static void assert_in(const struct ltt_trace *t, int32_t pid,
		      const char *path, uint64_t want_id)
{
	uint64_t id = 12345;
	const char *got = ltt_trace_cgroup(t, pid, &id);

	if (!path)
		assert_null(got);
	else {
		assert_non_null(got);
		assert_string_equal(got, path);
	}
	assert_int_equal(id, want_id);
}

/* The items up to the first at or after @ts: the state then. */
static struct ltt_trace *read_until(const char *dir, const char *event,
				    int32_t field0)
{
	struct ltt_trace *t = ltt_trace_open(dir);
	const struct ltt_item *it;

	assert_non_null(t);
	while (ltt_trace_next(t, &it) > 0)
		if (it->kind == LTT_ITEM_EVENT &&
		    !strcmp(it->desc->name, event) &&
		    ltt_item_int(it, 0) == field0)
			return t;
	fail_msg("no %s %d in %s", event, field0, dir);
	return NULL;
}

void cgroups_follow_the_fixture(void **state)
{
	const char *dir = FIXTURE("containers");
	struct ltt_trace *t;
	const struct ltt_item *it;
	uint32_t ns = 0;
	int32_t vpid = 0;
	uint64_t id;
	const char *path;
	size_t pos = 0;
	unsigned int n = 0;

	(void)state;
	/* the dump placed them; the worker was born where nginx is */
	t = read_until(dir, "syscall_entry", 59);	/* the worker's execve */
	assert_in(t, FX_CG_NGINX_PID, FX_CG_NGINX_PATH, FX_CG_NGINX);
	assert_in(t, FX_CG_WORKER, FX_CG_NGINX_PATH, FX_CG_NGINX);
	assert_in(t, 1, FX_CG_INIT_PATH, FX_CG_INIT);
	assert_in(t, FX_CG_APP_THREAD, FX_CG_DOCKER_PATH, FX_CG_DOCKER);
	assert_in(t, 4242, NULL, 0);		/* never placed */
	assert_int_equal(ltt_trace_pidns(t, FX_CG_APP_THREAD, &ns, &vpid), 1);
	assert_int_equal(ns, FX_CG_PIDNS);
	assert_int_equal(vpid, 2);
	assert_int_equal(ltt_trace_pidns(t, FX_CG_WORKER, &ns, &vpid), 1);
	assert_int_equal(vpid, FX_CG_WORKER);	/* the initial namespace */
	ltt_trace_close(t);

	/* the attach is the mover's event: it moves from the next one on */
	t = read_until(dir, "cgroup_attach", FX_CG_BACKUP);
	assert_in(t, FX_CG_WORKER, FX_CG_NGINX_PATH, FX_CG_NGINX);
	assert_int_equal(ltt_trace_next(t, &it), 1);
	assert_in(t, FX_CG_WORKER, FX_CG_BACKUP_PATH, FX_CG_BACKUP);
	assert_in(t, FX_CG_NGINX_PID, FX_CG_NGINX_PATH, FX_CG_NGINX);
	ltt_trace_close(t);

	/* born in the payload cgroup, pid 3 of the container */
	t = read_until(dir, "syscall_exit", 3);
	assert_in(t, FX_CG_CHILD, FX_CG_PAYLOAD_PATH, FX_CG_PAYLOAD);
	assert_int_equal(ltt_trace_pidns(t, FX_CG_CHILD, &ns, &vpid), 1);
	assert_int_equal(ns, FX_CG_PIDNS);
	assert_int_equal(vpid, 3);
	while (ltt_trace_next(t, &it) > 0)
		;
	/* every cgroup named, the removed one too; no warning */
	while (ltt_trace_cgroups(t, &pos, &id, &path)) {
		assert_true(id >= FX_CG_ROOT && id <= FX_CG_PAYLOAD);
		assert_int_equal(path[0], '/');
		n++;
	}
	assert_int_equal(n, 7);
	assert_int_equal(ltt_trace_n_warnings(t), 0);
	ltt_trace_close(t);
}

/* A seek learns the state dump: the tasks are placed in the window. */
void cgroups_survive_a_seek(void **state)
{
	struct ltt_trace *t = ltt_trace_open(FIXTURE("containers"));
	const struct ltt_item *it;

	(void)state;
	assert_non_null(t);
	assert_int_equal(ltt_trace_seek(t, FX_T0 + 20000), 0);
	assert_int_equal(ltt_trace_next(t, &it), 1);
	assert_in(t, FX_CG_NGINX_PID, FX_CG_NGINX_PATH, FX_CG_NGINX);
	assert_in(t, FX_CG_APP, FX_CG_DOCKER_PATH, FX_CG_DOCKER);
	ltt_trace_close(t);
}

void cgroups_damaged_records(void **state)
{
	struct ltt_trace *t = ltt_trace_open(FIXTURE("containers-damaged"));
	const struct ltt_item *it;
	struct containers cg;
	struct cg_args sel = { .cgroup = "/" };
	const struct cg_info *info;

	(void)state;
	assert_non_null(t);
	assert_int_equal(containers_init(&cg, t, &sel), 0);
	while (ltt_trace_next(t, &it) > 0)
		if (it->kind == LTT_ITEM_EVENT)
			(void)containers_task(&cg, it->pid);
	/* placed in cgroups nothing names: the ids kept, no path */
	assert_in(t, 800, NULL, 999);
	assert_in(t, 801, NULL, 998);
	assert_in(t, 802, "/", FX_CG_ROOT);
	info = containers_task(&cg, 800);
	assert_false(info->named);
	assert_string_equal(info->name.name, "?");
	assert_false(containers_selected(&cg, 800));	/* not even by "/" */
	assert_true(containers_selected(&cg, 802));
	/* a relative path, id 0, an unnamed cgroup: once each */
	assert_int_equal(ltt_trace_n_warnings(t), 3);
	assert_non_null(strstr(ltt_trace_warning(t, 0), "\"relative/path\" is not absolute"));
	assert_non_null(strstr(ltt_trace_warning(t, 1), "id 0"));
	assert_non_null(strstr(ltt_trace_warning(t, 2), "cgroup 999"));
	assert_int_equal(ltt_trace_n_errors(t), 0);
	containers_free(&cg);
	ltt_trace_close(t);
}

/* --cgroup as lttd takes it, --container by name and by id. */
void cgroups_select(void **state)
{
	static const struct {
		struct cg_args a;
		bool nginx, app, child;
	} cases[] = {
		{ { "/sys/fs/cgroup/system.slice//", NULL }, true, true, true },
		{ { "/system.slice/nginx.service/", NULL }, true, false, false },
		{ { "/system.slice/nginx", NULL }, false, false, false },
		{ { FX_CG_PAYLOAD_PATH, NULL }, false, false, true },
		{ { NULL, FX_CG_DOCKER_NAME }, false, true, true },
		{ { NULL, FX_CG_DOCKER_ID }, false, true, true },
		{ { NULL, "3f2a9c1e77b0a1" }, false, true, true },
		{ { NULL, "3f2a9c1e" }, false, false, false },	/* too short */
		{ { NULL, FX_CG_NGINX_NAME }, true, false, false },
		{ { FX_CG_NGINX_PATH, FX_CG_DOCKER_NAME }, false, false, false },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ltt_trace *t = read_until(FIXTURE("containers"),
						 "syscall_exit", 3);
		struct containers cg;

		assert_int_equal(containers_init(&cg, t, &cases[i].a), 0);
		if (containers_selected(&cg, FX_CG_NGINX_PID) != cases[i].nginx ||
		    containers_selected(&cg, FX_CG_APP) != cases[i].app ||
		    containers_selected(&cg, FX_CG_CHILD) != cases[i].child)
			fail_msg("case %u (%s, %s)", i,
				 cases[i].a.cgroup ? cases[i].a.cgroup : "-",
				 cases[i].a.container ? cases[i].a.container : "-");
		containers_free(&cg);
		ltt_trace_close(t);
	}
}
