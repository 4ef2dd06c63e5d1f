// SPDX-License-Identifier: GPL-2.0
/*
 * The analyses of `ltt analyze` (analyses.h): distributions grouped by
 * sorting (key, value) pairs, I/O in a hash by process and file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"

struct kv {
	uint32_t key;
	uint64_t v;
};

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int kv_cmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

static unsigned int hist_bucket(uint64_t v)
{
	unsigned int b = v ? 63 - __builtin_clzll(v) : 0;

	return b < AN_HIST ? b : AN_HIST - 1;
}

/* The value of rank ceil(p n / 100) of @n sorted values. */
static uint64_t percentile(const uint64_t *v, uint64_t n, unsigned int p)
{
	uint64_t rank = (p * n + 99) / 100;

	return v[rank ? rank - 1 : 0];
}

void an_dist_of(struct an_dist *d, uint64_t *v, uint64_t n)
{
	uint64_t i;

	memset(d->hist, 0, sizeof(d->hist));
	d->count = n;
	d->total = 0;
	if (!n) {
		d->min = d->p50 = d->p90 = d->p99 = d->max = 0;
		return;
	}
	qsort(v, n, sizeof(*v), u64_cmp);
	for (i = 0; i < n; i++) {
		d->total += v[i];
		d->hist[hist_bucket(v[i])]++;
	}
	d->min = v[0];
	d->max = v[n - 1];
	d->p50 = percentile(v, n, 50);
	d->p90 = percentile(v, n, 90);
	d->p99 = percentile(v, n, 99);
}

static int dist_count_cmp(const void *a, const void *b)
{
	const struct an_dist *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/*
 * Group @n pairs by key into *@out (most values first), and all of them
 * into @all.
 */
static int group(struct kv *kv, uint64_t n, struct an_dist **out,
		 uint32_t *n_out, struct an_dist *all)
{
	uint64_t *v = malloc((n + 1) * sizeof(*v)), i, j, k;
	uint32_t groups = 0;

	*out = NULL;
	*n_out = 0;
	if (!v)
		return -1;
	qsort(kv, n, sizeof(*kv), kv_cmp);
	for (i = 0; i < n; i++)
		groups += !i || kv[i].key != kv[i - 1].key;
	*out = calloc(groups + 1, sizeof(**out));
	if (!*out) {
		free(v);
		return -1;
	}
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && kv[j].key == kv[i].key; j++)
			v[j - i] = kv[j].v;
		(*out)[*n_out].name = kv[i].key;
		an_dist_of(&(*out)[(*n_out)++], v, j - i);
	}
	qsort(*out, *n_out, sizeof(**out), dist_count_cmp);
	for (k = 0; k < n; k++)
		v[k] = kv[k].v;
	an_dist_of(all, v, n);
	free(v);
	return 0;
}

/* Events that change the file their string names (when ret is 0). */
static const char *const change_events[] = {
	"fs_rename", "fs_newname", "fs_unlink", "fs_rmdir", "fs_mkdir",
	"fs_link", "fs_symlink", "fs_truncate", "fs_chmod", "fs_chown",
	"fs_mmap_write",
};

static bool an_is_change(const struct analyses *an, int id)
{
	return id >= 0 && id < 128 && (an->change_ids[id / 64] >> (id % 64) & 1);
}

/* The row of group @g, made with those before it; NULL without memory. */
static struct an_group *an_group_row(struct analyses *an, uint32_t g)
{
	struct an_group *row = containers_row((void **)&an->groups,
					      &an->cap_groups,
					      sizeof(*an->groups), g);

	if (!row)
		an->failed = true;
	return row;
}

/* cputime.h's credit: the run's time to its container, if selected. */
static bool an_credit(void *ctx, int32_t pid, uint64_t ns)
{
	struct analyses *an = ctx;
	struct an_group *g;

	if (an->select && !containers_selected(an->select, pid))
		return false;
	if (pid && (g = an_group_row(an, containers_group(an->cg, pid))))
		g->cpu_ns += ns;
	return true;
}

int an_attach(struct analyses *an, struct timeline *tl,
	      struct containers *select)
{
	an->cg = malloc(sizeof(*an->cg));
	if (!an->cg || containers_init(an->cg, tl->trace, NULL)) {
		free(an->cg);
		an->cg = NULL;
		return -1;
	}
	an->select = select;
	tl->cpu_time.credit = an_credit;
	tl->cpu_time.credit_ctx = an;
	return 0;
}

int an_init(struct analyses *an, const struct ltt_registry *reg,
	    const struct timeline *tl)
{
	unsigned int i;

	memset(an, 0, sizeof(*an));
	an->tl = tl;
	an->id_read = ltt_registry_find(reg, "fs_read");
	an->id_write = ltt_registry_find(reg, "fs_write");
	for (i = 0; i < sizeof(change_events) / sizeof(change_events[0]); i++) {
		int id = ltt_registry_find(reg, change_events[i]);

		if (id >= 0 && id < 128 && !reg->events[id].custom &&
		    reg->events[id].has_string)
			an->change_ids[id / 64] |= 1ULL << (id % 64);
	}
	return 0;
}

static struct an_io *io_of(struct analyses *an, int32_t tgid, const char *file)
{
	uint32_t i;
	struct an_io *io;

	/* most recent first: a process reads one file many times in a row */
	for (i = an->n_io; i-- > 0;)
		if (an->io[i].tgid == tgid && !strcmp(an->io[i].file, file))
			return &an->io[i];
	if (an->n_io == an->cap_io) {
		uint32_t cap = an->cap_io ? 2 * an->cap_io : 64;

		io = realloc(an->io, cap * sizeof(*io));
		if (!io)
			return NULL;
		an->io = io;
		an->cap_io = cap;
	}
	io = &an->io[an->n_io];
	memset(io, 0, sizeof(*io));
	io->tgid = tgid;
	io->file = strdup(file);
	if (!io->file)
		return NULL;
	an->n_io++;
	return io;
}

void an_add(struct analyses *an, const struct ltt_trace *t,
	    const struct ltt_item *it)
{
	const struct tl_task *k;
	int64_t fd, bytes;
	const char *file;
	struct an_io *io;
	char buf[32];
	int id;

	if (it->kind != LTT_ITEM_EVENT)
		return;
	id = it->desc->id;
	if (an_is_change(an, id)) {
		int64_t ret = 0;

		ltt_item_field(it, "ret", &ret);
		k = an->tl ? tl_task(an->tl, it->pid) : NULL;
		io = ret ? NULL : io_of(an, k ? k->tgid : it->pid,
					ltt_item_string(it));
		if (io)
			io->changes++;
		else if (!ret)
			an->failed = true;
		return;
	}
	if ((id != an->id_read && id != an->id_write) ||
	    ltt_item_field(it, "fd", &fd) < 0 ||
	    ltt_item_field(it, "bytes", &bytes) < 0)
		return;
	file = ltt_trace_file(t, it->pid, fd);
	if (!file) {
		snprintf(buf, sizeof(buf), "fd %lld", (long long)fd);
		file = buf;
	}
	k = an->tl ? tl_task(an->tl, it->pid) : NULL;
	io = io_of(an, k ? k->tgid : it->pid, file);
	if (!io) {
		an->failed = true;
		return;
	}
	if (id == an->id_read) {
		io->reads++;
		io->read_bytes += bytes > 0 ? bytes : 0;
	} else {
		io->writes++;
		io->write_bytes += bytes > 0 ? bytes : 0;
	}
	if (an->cg) {
		struct an_group *g = an_group_row(an, containers_group(an->cg,
								       it->pid));

		if (g && id == an->id_read) {
			g->reads++;
			g->read_bytes += bytes > 0 ? bytes : 0;
		} else if (g) {
			g->writes++;
			g->write_bytes += bytes > 0 ? bytes : 0;
		}
	}
}

/* Waits for a CPU: runnable spans that end as the task runs. */
static int waits(struct analyses *an, const struct timeline *tl, int32_t pid)
{
	struct kv *wake = malloc((tl->n_states + 1) * sizeof(*wake));
	struct kv *pre = malloc((tl->n_states + 1) * sizeof(*pre));
	uint64_t nw = 0, np = 0;
	uint32_t i;
	int ret;

	if (!wake || !pre) {
		free(wake);
		free(pre);
		return -1;
	}
	for (i = 0; i + 1 < tl->n_states; i++) {
		const struct tl_state_span *s = &tl->states[i], *next = s + 1;
		bool preempted;

		if (s->state != TL_RUNNABLE || next->pid != s->pid ||
		    next->state != TL_RUNNING || next->t0 != s->t1 ||
		    (pid >= 0 && s->pid != pid))
			continue;
		preempted = i && s[-1].pid == s->pid &&
			    s[-1].state == TL_RUNNING && s[-1].t1 == s->t0;
		if (preempted)
			pre[np++] = (struct kv){ (uint32_t)s->pid, s->t1 - s->t0 };
		else
			wake[nw++] = (struct kv){ (uint32_t)s->pid, s->t1 - s->t0 };
	}
	ret = group(wake, nw, &an->wait_wakeup, &an->n_wait_wakeup,
		    &an->all_wakeup) ||
	      group(pre, np, &an->wait_preempt, &an->n_wait_preempt,
		    &an->all_preempt);
	free(wake);
	free(pre);
	return ret ? -1 : 0;
}

static int use_cmp(const void *a, const void *b)
{
	const struct an_cpu_use *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Time on a CPU per task and per process; each CPU's busy time. */
static int cpu_use(struct analyses *an, const struct timeline *tl)
{
	uint32_t i, j;

	an->tasks = calloc(tl->n_tasks + 1, sizeof(*an->tasks));
	an->procs = calloc(tl->n_tasks + 1, sizeof(*an->procs));
	if (!an->tasks || !an->procs)
		return -1;
	for (i = 0; i < tl->n_tasks; i++) {
		an->tasks[i].pid = tl->tasks[i].pid;
		an->tasks[i].tgid = tl->tasks[i].tgid;
		an->tasks[i].name = tl->tasks[i].name;
	}
	/* the same figures as ltt stats' (cputime.h) */
	for (i = 0; i < tl->n_tasks; i++)
		an->tasks[i].ns = cpu_time_of(&tl->cpu_time, tl->tasks[i].pid);
	for (i = 0; i < TL_CPUS; i++)
		an->cpu_busy[i] = tl->cpu_time.busy[i];
	/* processes: the tasks of each tgid, named after its leader */
	for (i = 0; i < tl->n_tasks; i++) {
		const struct an_cpu_use *k = &an->tasks[i];
		const struct tl_task *leader = tl_task(tl, k->tgid);

		if (!k->ns)
			continue;
		for (j = 0; j < an->n_procs && an->procs[j].tgid != k->tgid; j++)
			;
		if (j == an->n_procs) {
			an->procs[j].pid = an->procs[j].tgid = k->tgid;
			an->procs[j].name = leader ? leader->name : k->name;
			an->n_procs++;
		}
		an->procs[j].ns += k->ns;
	}
	an->n_tasks = tl->n_tasks;
	qsort(an->tasks, an->n_tasks, sizeof(*an->tasks), use_cmp);
	while (an->n_tasks && !an->tasks[an->n_tasks - 1].ns)
		an->n_tasks--;
	qsort(an->procs, an->n_procs, sizeof(*an->procs), use_cmp);
	return 0;
}

int an_compute(struct analyses *an, const struct timeline *tl, int32_t pid)
{
	struct kv *sys = malloc((tl->n_calls + 1) * sizeof(*sys));
	struct kv *irq = malloc((tl->n_calls + 1) * sizeof(*irq));
	uint64_t ns = 0, ni = 0;
	uint32_t i, j;
	int ret = -1;

	if (!sys || !irq)
		goto out;
	for (i = 0; i < tl->n_calls; i++) {
		const struct tl_call *c = &tl->calls[i];

		if (c->flags & TL_UNFINISHED)
			continue;
		if (c->kind == TL_SYSCALL && (pid < 0 || c->pid == pid))
			sys[ns++] = (struct kv){ c->name, c->t1 - c->t0 };
		else if (c->kind == TL_IRQ || c->kind == TL_SOFTIRQ)
			irq[ni++] = (struct kv){ c->name, c->t1 - c->t0 };
	}
	if (group(sys, ns, &an->syscalls, &an->n_syscalls, &an->all_syscalls))
		goto out;
	{
		struct an_dist all;

		if (group(irq, ni, &an->irqs, &an->n_irqs, &all))
			goto out;
	}
	an->irq_kind = calloc(an->n_irqs + 1, 1);
	if (!an->irq_kind)
		goto out;
	/* which names are softirqs: the calls say */
	for (i = 0; i < tl->n_calls; i++) {
		const struct tl_call *c = &tl->calls[i];

		if (c->kind != TL_IRQ && c->kind != TL_SOFTIRQ)
			continue;
		for (j = 0; j < an->n_irqs; j++)
			if (an->irqs[j].name == c->name)
				an->irq_kind[j] = c->kind;
	}
	if (waits(an, tl, pid) || cpu_use(an, tl))
		goto out;
	an->span = tl->t1 - tl->t0;
	an->n_cpus = tl->n_cpus;
	ret = an->failed ? -1 : 0;
out:
	free(sys);
	free(irq);
	return ret;
}

void an_free(struct analyses *an)
{
	uint32_t i;

	for (i = 0; i < an->n_io; i++)
		free(an->io[i].file);
	free(an->io);
	free(an->syscalls);
	free(an->wait_wakeup);
	free(an->wait_preempt);
	free(an->irqs);
	free(an->irq_kind);
	free(an->tasks);
	free(an->procs);
	if (an->cg)
		containers_free(an->cg);
	free(an->cg);
	free(an->groups);
	memset(an, 0, sizeof(*an));
}
