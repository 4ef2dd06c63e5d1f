// SPDX-License-Identifier: GPL-2.0
/*
 * The fixtures of containers (fixtures.h): a trace with cgroups, written
 * with its manifest, and one whose cgroup records are damaged.
 *
 * The manifest is the generator's own account, kept by hand beside the
 * records (not by the readers' code): where each task is, so where each
 * event belongs, and the CPU time of each cgroup as cputime.h defines it.
 */
#include <stdio.h>
#include <string.h>

#include <ltt/ltt.h>

#include "fixtures.h"
#include "writer.h"

#define IP	0x7f0000401000LL
#define CG_TASKS	16

/* The generator's model: where each task is, what each CPU runs. */
struct cg_model {
	struct fx_writer *w;
	FILE *manifest;			/* NULL: none */
	struct { int32_t pid; const char *path; } task[CG_TASKS];
	unsigned int n_tasks;
	struct { int32_t pid; uint64_t since; bool seen; } cpu[2];
	struct { const char *path; uint64_t ns; } cpu_ns[CG_TASKS];
	unsigned int n_cpu_ns;
	uint64_t last_ts;
};

static const char *cg_where(const struct cg_model *m, int32_t pid)
{
	unsigned int i;

	for (i = 0; i < m->n_tasks; i++)
		if (m->task[i].pid == pid)
			return m->task[i].path;
	return NULL;
}

/* Task @pid is in @path from now on (NULL: nowhere the trace says). */
static void cg_put(struct cg_model *m, int32_t pid, const char *path)
{
	unsigned int i;

	for (i = 0; i < m->n_tasks; i++)
		if (m->task[i].pid == pid)
			break;
	if (i == m->n_tasks && m->n_tasks < CG_TASKS)
		m->task[m->n_tasks++].pid = pid;
	if (i < CG_TASKS)
		m->task[i].path = path;
}

static void cg_credit(struct cg_model *m, unsigned int cpu, uint64_t ts)
{
	const char *path = cg_where(m, m->cpu[cpu].pid);
	unsigned int i;

	if (!m->cpu[cpu].seen || !m->cpu[cpu].pid || !path)
		return;
	for (i = 0; i < m->n_cpu_ns; i++)
		if (!strcmp(m->cpu_ns[i].path, path))
			break;
	if (i == m->n_cpu_ns && m->n_cpu_ns < CG_TASKS)
		m->cpu_ns[m->n_cpu_ns++].path = path;
	if (i < CG_TASKS)
		m->cpu_ns[i].ns += ts - m->cpu[cpu].since;
	m->cpu[cpu].since = ts;
}

/* One event, and its line in the manifest: TS CPU PID EVENT CGROUP. */
static int cg_event(struct cg_model *m, unsigned int cpu, uint64_t ts,
		    const char *name, const int64_t *f, unsigned int n,
		    const char *str)
{
	const char *path;

	if (!m->cpu[cpu].seen) {
		m->cpu[cpu].seen = true;
		m->cpu[cpu].since = ts;
	}
	path = cg_where(m, m->cpu[cpu].pid);
	if (m->manifest)
		fprintf(m->manifest, "%llu %u %d %s %s\n",
			(unsigned long long)ts, cpu, m->cpu[cpu].pid, name,
			path ? path : "?");
	if (ts > m->last_ts)
		m->last_ts = ts;
	if (!strcmp(name, "sched_change")) {
		cg_credit(m, cpu, ts);
		m->cpu[cpu].pid = f[0];
		m->cpu[cpu].since = ts;
	}
	if (fx_event_n(m->w, cpu, ts, name, f, n, str))
		return -1;
	if (!strcmp(name, "sched_change"))
		fx_set_pid(m->w, cpu, f[0]);
	return 0;
}

#define CEV(cpu, ts, name, ...)						\
	do {								\
		const int64_t f_[] = { __VA_ARGS__ };			\
		if (cg_event(m, cpu, ts, name, f_,			\
			     sizeof(f_) / sizeof(f_[0]), NULL))		\
			return -1;					\
	} while (0)
#define CEV_STR(cpu, ts, name, str, ...)				\
	do {								\
		const int64_t f_[] = { __VA_ARGS__ };			\
		if (cg_event(m, cpu, ts, name, f_,			\
			     sizeof(f_) / sizeof(f_[0]), str))		\
			return -1;					\
	} while (0)

#define CG_INIT_NS	0xEFFFFFFCLL	/* the initial pid namespace */

static const struct {
	uint64_t id, parent;
	const char *path;
} cg_dump[] = {
	{ FX_CG_ROOT, 0, "/" },
	{ FX_CG_INIT, FX_CG_ROOT, FX_CG_INIT_PATH },
	{ FX_CG_SYSTEM, FX_CG_ROOT, "/system.slice" },
	{ FX_CG_NGINX, FX_CG_SYSTEM, FX_CG_NGINX_PATH },
	{ FX_CG_DOCKER, FX_CG_SYSTEM, FX_CG_DOCKER_PATH },
};

static const struct {
	int32_t pid, tgid, ppid;
	const char *name;
	uint64_t cgroup;
	const char *path;
	int32_t vpid;
	int64_t pidns;
} cg_tasks[] = {
	{ 1, 1, 0, "systemd", FX_CG_INIT, FX_CG_INIT_PATH, 1, CG_INIT_NS },
	{ FX_CG_KWORKER, FX_CG_KWORKER, 2, "kworker/0:1", FX_CG_ROOT, "/",
	  FX_CG_KWORKER, CG_INIT_NS },
	{ FX_CG_NGINX_PID, FX_CG_NGINX_PID, 1, "nginx", FX_CG_NGINX,
	  FX_CG_NGINX_PATH, FX_CG_NGINX_PID, CG_INIT_NS },
	{ FX_CG_APP, FX_CG_APP, 1, "app", FX_CG_DOCKER, FX_CG_DOCKER_PATH, 1,
	  FX_CG_PIDNS },
	{ FX_CG_APP_THREAD, FX_CG_APP, 1, "app", FX_CG_DOCKER,
	  FX_CG_DOCKER_PATH, 2, FX_CG_PIDNS },
};

/* cpu0: the state dump, nginx forks a worker, systemd moves it. */
static int cg_cpu0(struct cg_model *m)
{
	uint64_t t = FX_T0;
	unsigned int i;

	fx_set_pid(m->w, 0, FX_CG_KWORKER);
	m->cpu[0].pid = FX_CG_KWORKER;
	for (i = 0; i < sizeof(cg_dump) / sizeof(cg_dump[0]); i++)
		CEV_STR(0, t += 100, "statedump_cgroup", cg_dump[i].path,
			cg_dump[i].id, cg_dump[i].parent);
	for (i = 0; i < sizeof(cg_tasks) / sizeof(cg_tasks[0]); i++) {
		CEV_STR(0, t += 100, "statedump_process", cg_tasks[i].name,
			cg_tasks[i].pid, cg_tasks[i].tgid, cg_tasks[i].ppid);
		CEV(0, t += 100, "process_ns", cg_tasks[i].cgroup,
		    cg_tasks[i].pid, cg_tasks[i].vpid, cg_tasks[i].pidns);
		cg_put(m, cg_tasks[i].pid, cg_tasks[i].path);
	}
	t = FX_T0 + 10000;
	CEV(0, t, "sched_change", FX_CG_NGINX_PID, FX_CG_KWORKER, 1);
	for (i = 0; i < 3; i++) {
		CEV(0, t += 1000, "syscall_entry", 110, IP);
		CEV(0, t += 500, "syscall_exit", 1);
	}
	CEV(0, t += 1000, "syscall_entry", 1, IP);
	CEV(0, t += 100, "fs_write", 1, FX_CG_NGINX_WRITE);
	CEV(0, t += 400, "syscall_exit", FX_CG_NGINX_WRITE);
	/* the worker is born in nginx.service: no process_ns */
	CEV(0, t += 1000, "syscall_entry", 57, IP);
	CEV(0, t += 1000, "process_fork", FX_CG_WORKER, FX_CG_WORKER);
	cg_put(m, FX_CG_WORKER, FX_CG_NGINX_PATH);
	CEV(0, t += 1000, "syscall_exit", FX_CG_WORKER);
	CEV(0, t += 1000, "sched_change", FX_CG_WORKER, FX_CG_NGINX_PID, 1);
	CEV(0, t += 1000, "syscall_entry", 59, IP);
	CEV_STR(0, t += 1000, "process_exec", "/usr/sbin/nginx-worker",
		FX_CG_WORKER);
	CEV(0, t += 1000, "syscall_exit", 0);
	for (i = 0; i < 2; i++) {
		CEV(0, t += 1000, "syscall_entry", 110, IP);
		CEV(0, t += 500, "syscall_exit", FX_CG_NGINX_PID);
	}
	/* systemd makes backup.service and moves the worker's process in */
	CEV(0, t += 1000, "sched_change", 1, FX_CG_WORKER, 1);
	CEV_STR(0, t += 1000, "cgroup_mkdir", FX_CG_BACKUP_PATH, FX_CG_BACKUP,
		FX_CG_SYSTEM);
	CEV(0, t += 1000, "cgroup_attach", FX_CG_BACKUP, FX_CG_WORKER, 1);
	cg_put(m, FX_CG_WORKER, FX_CG_BACKUP_PATH);
	CEV(0, t += 1000, "sched_change", FX_CG_WORKER, 1, 1);
	for (i = 0; i < 2; i++) {
		CEV(0, t += 1000, "syscall_entry", 110, IP);
		CEV(0, t += 500, "syscall_exit", FX_CG_NGINX_PID);
	}
	CEV(0, t += 1000, "sched_change", 0, FX_CG_WORKER, 1);
	return 0;
}

/* cpu1: the container's process, its thread, a child born in a sub-cgroup. */
static int cg_cpu1(struct cg_model *m)
{
	uint64_t t = FX_T0 + 20000;
	unsigned int i;

	fx_set_pid(m->w, 1, FX_CG_APP);
	m->cpu[1].pid = FX_CG_APP;
	for (i = 0; i < 4; i++) {
		CEV(1, t += 1000, "syscall_entry", 110, IP);
		CEV(1, t += 500, "syscall_exit", 1);
	}
	CEV(1, t += 1000, "syscall_entry", 0, IP);
	CEV(1, t += 100, "fs_read", 0, FX_CG_APP_READ);
	CEV(1, t += 400, "syscall_exit", FX_CG_APP_READ);
	CEV_STR(1, t += 1000, "cgroup_mkdir", FX_CG_PAYLOAD_PATH, FX_CG_PAYLOAD,
		FX_CG_DOCKER);
	/* clone3(CLONE_INTO_CGROUP): born in the payload cgroup */
	CEV(1, t += 1000, "syscall_entry", 435, IP);
	CEV(1, t += 1000, "process_fork", FX_CG_CHILD, FX_CG_CHILD);
	cg_put(m, FX_CG_CHILD, FX_CG_DOCKER_PATH);
	CEV(1, t += 100, "process_ns", FX_CG_PAYLOAD, FX_CG_CHILD, 3,
	    FX_CG_PIDNS);
	cg_put(m, FX_CG_CHILD, FX_CG_PAYLOAD_PATH);
	CEV(1, t += 900, "syscall_exit", 3);
	CEV(1, t += 1000, "sched_change", FX_CG_APP_THREAD, FX_CG_APP, 1);
	for (i = 0; i < 2; i++) {
		CEV(1, t += 1000, "syscall_entry", 110, IP);
		CEV(1, t += 500, "syscall_exit", 1);
	}
	CEV(1, t += 1000, "sched_change", FX_CG_CHILD, FX_CG_APP_THREAD, 1);
	CEV(1, t += 1000, "syscall_entry", 59, IP);
	CEV_STR(1, t += 1000, "process_exec", "/bin/sh", FX_CG_CHILD);
	CEV(1, t += 1000, "syscall_exit", 0);
	CEV(1, t += 1000, "syscall_entry", 110, IP);
	CEV(1, t += 500, "syscall_exit", 1);
	CEV(1, t += 1000, "syscall_entry", 231, IP);
	CEV(1, t += 1000, "process_exit", FX_CG_CHILD, 0);
	CEV(1, t += 1000, "sched_change", FX_CG_APP, FX_CG_CHILD, 0x80);
	CEV(1, t += 1000, "cgroup_rmdir", FX_CG_PAYLOAD);
	CEV(1, t += 1000, "syscall_entry", 110, IP);
	CEV(1, t += 500, "syscall_exit", 1);
	CEV(1, t += 1000, "sched_change", 0, FX_CG_APP, 1);
	return 0;
}

int fx_make_containers(const char *dir, FILE *manifest)
{
	static const char *const names[][2] = {
		{ "/", "/" },
		{ FX_CG_INIT_PATH, "init.scope" },
		{ FX_CG_NGINX_PATH, FX_CG_NGINX_NAME },
		{ FX_CG_DOCKER_PATH, FX_CG_DOCKER_NAME },
		{ FX_CG_PAYLOAD_PATH, FX_CG_DOCKER_NAME },
		{ FX_CG_BACKUP_PATH, "backup.service" },
	};
	struct cg_model model = { .manifest = manifest }, *m = &model;
	struct ltt_registry reg;
	struct fx_writer w;
	unsigned int i;

	model.w = &w;
	if (manifest) {
		fputs("# tests/fixtures/containers: TS CPU PID EVENT CGROUP (the task's, before the event;\n"
		      "# ? where the trace has not placed it); `name CGROUP NAME`: the names ltt shows;\n"
		      "# `cpu CGROUP NS`: CPU time (cputime.h) spent in each.  Written by mkfixtures.\n",
		      manifest);
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			fprintf(manifest, "name %s %s\n", names[i][0],
				names[i][1]);
	}
	if (fx_registry(&reg) ||
	    fx_open(&w, dir, &reg, 2, 4096, FX_CLOCK_OFFSET) ||
	    cg_cpu0(m) || cg_cpu1(m))
		return -1;
	for (i = 0; i < 2; i++)
		cg_credit(m, i, m->last_ts);
	for (i = 0; manifest && i < m->n_cpu_ns; i++)
		fprintf(manifest, "cpu %s %llu\n", m->cpu_ns[i].path,
			(unsigned long long)m->cpu_ns[i].ns);
	return fx_close(&w, m->last_ts + 1000);
}

/*
 * Damaged cgroup records: a relative path, id 0, a task put in a cgroup
 * nothing names, a move to one, the removal of one, a path of control
 * bytes; the tasks' events around them.
 */
int fx_make_containers_damaged(const char *dir)
{
	struct cg_model model = { 0 }, *m = &model;
	struct ltt_registry reg;
	struct fx_writer w;
	uint64_t t = FX_T0;

	model.w = &w;
	if (fx_registry(&reg) ||
	    fx_open(&w, dir, &reg, 1, 4096, FX_CLOCK_OFFSET))
		return -1;
	fx_set_pid(&w, 0, 800);
	CEV_STR(0, t += 100, "statedump_cgroup", "/", FX_CG_ROOT, 0);
	CEV_STR(0, t += 100, "statedump_cgroup", "relative/path", 8, 1);
	CEV_STR(0, t += 100, "statedump_cgroup", "/zero", 0, 1);
	CEV_STR(0, t += 100, "statedump_cgroup", "/bad\x01\xff\x7f name", 9, 1);
	CEV_STR(0, t += 100, "statedump_process", "lost", 800, 800, 1);
	CEV(0, t += 100, "process_ns", 999, 800, 800, CG_INIT_NS);
	CEV(0, t += 100, "syscall_entry", 110, IP);
	CEV(0, t += 100, "syscall_exit", 1);
	CEV(0, t += 100, "cgroup_attach", 998, 801, 1);
	CEV(0, t += 100, "cgroup_attach", 0, 800, 0);
	CEV(0, t += 100, "cgroup_rmdir", 997);
	CEV(0, t += 100, "cgroup_attach", 9, 802, 0);
	CEV(0, t += 100, "sched_change", 801, 800, 1);
	CEV(0, t += 100, "syscall_entry", 110, IP);
	CEV(0, t += 100, "sched_change", 802, 801, 1);
	CEV(0, t += 100, "syscall_entry", 110, IP);
	CEV(0, t += 100, "process_ns", FX_CG_ROOT, 802, -5, 0);
	CEV(0, t += 100, "syscall_exit", 1);
	return fx_close(&w, t + 1000);
}
