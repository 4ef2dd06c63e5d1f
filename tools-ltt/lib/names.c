// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Process and file names, learnt from the trace itself as it is read,
 * never from the machine reading it:
 *  - the state dump at the start of a trace names the processes alive
 *    then, their threads' process and their open files;
 *  - exec names a process after its file, fork gives the child its
 *    parent's name (and tells its process);
 *  - open names a file descriptor, close forgets it, dup copies it (dup2
 *    over an open descriptor forgets what it named); a new process
 *    inherits its parent's descriptors, exec closes the close-on-exec
 *    ones (O_CLOEXEC at open, or the dup's flag).
 *
 * Which events feed the tables is data (name_sources below): an event
 * that tells names is one more line there.  File descriptors belong to
 * processes: a thread's are looked up under its process when the trace
 * has said which that is.
 */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/* Events that name processes and files, and how. */
static const struct name_source {
	const char *event;
	enum name_kind kind;
	const char *a, *b;		/* field names; NULL: none */
	const char *c, *d;		/* optional: a trace may lack them */
} name_sources[] = {
	{ "statedump_process", COMM_SET, "pid", NULL, NULL, NULL },
	{ "statedump_process", TGID_SET, "pid", "tgid", NULL, NULL },
	{ "statedump_file", FILE_OPEN, "pid", "fd", NULL, NULL },
	{ "process_exec", FILE_EXEC, "pid", NULL, NULL, NULL },
	{ "process_exec", COMM_EXEC, "pid", NULL, NULL, NULL },
	{ "process_fork", COMM_INHERIT, "child", NULL, NULL, NULL },
	{ "process_fork", TGID_SET, "child", "child_tgid", NULL, NULL },
	{ "process_fork", FILE_INHERIT, "child", "child_tgid", NULL, NULL },
	{ "process_fork", CG_INHERIT, "child", NULL, NULL, NULL },
	{ "fs_open", FILE_OPEN, NULL, "fd", "flags", NULL },
	{ "fs_close", FILE_CLOSE, NULL, "fd", NULL, NULL },
	{ "fs_dup", FILE_DUP, "oldfd", "newfd", "cloexec", NULL },
	/* where tasks live (cgroups.c) */
	{ "statedump_cgroup", CG_DEFINE, "id", "parent", NULL, NULL },
	{ "cgroup_mkdir", CG_DEFINE, "id", "parent", NULL, NULL },
	{ "cgroup_rmdir", CG_REMOVE, "id", NULL, NULL, NULL },
	{ "cgroup_attach", CG_ATTACH, "pid", "id", "threadgroup", NULL },
	{ "process_ns", CG_PLACE, "pid", "cgroup", "vpid", "pidns" },
};

/* Open flags (the generic value: every architecture of the series). */
#define LTT_O_CLOEXEC	02000000

static uint64_t name_hash(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return key;
}

static struct name_entry *name_lookup(const struct name_table *nt,
				      uint64_t key)
{
	size_t i, mask = nt->n_slots - 1;

	for (i = name_hash(key) & mask; nt->slot[i].used; i = (i + 1) & mask)
		if (nt->slot[i].key == key)
			return &nt->slot[i];
	return &nt->slot[i];
}

static int name_table_init(struct name_table *nt, size_t n)
{
	nt->n_slots = n;
	nt->used = 0;
	nt->slot = calloc(n, sizeof(*nt->slot));
	return nt->slot ? 0 : -1;
}

static int name_grow(struct name_table *nt)
{
	struct name_table bigger;
	size_t i;

	if (name_table_init(&bigger, nt->n_slots * 2))
		return -1;
	for (i = 0; i < nt->n_slots; i++)
		if (nt->slot[i].used)
			*name_lookup(&bigger, nt->slot[i].key) = nt->slot[i];
	bigger.used = nt->used;
	free(nt->slot);
	*nt = bigger;
	return 0;
}

/* The entry of @key, made if new; NULL without memory. */
static struct name_entry *name_get(struct name_table *nt, uint64_t key)
{
	struct name_entry *e;

	if (2 * (nt->used + 1) > nt->n_slots && name_grow(nt))
		return NULL;
	e = name_lookup(nt, key);
	if (!e->used) {
		memset(e, 0, sizeof(*e));
		e->used = true;
		e->key = key;
		nt->used++;
	}
	return e;
}

/*
 * Names are for printing, one word in a line of text: control
 * characters become '?' and blanks '_'.  Cut to fit.
 */
static void name_copy(struct name_entry *e, const char *name)
{
	size_t i;

	/* the same name again (a file opened again): nothing to copy */
	if (!strncmp(e->name, name, sizeof(e->name) - 1))
		return;
	for (i = 0; name[i] && i < sizeof(e->name) - 1; i++) {
		unsigned char ch = name[i];

		e->name[i] = ch < 0x20 || ch == 0x7f ? '?' :
			     ch == ' ' ? '_' : ch;
	}
	e->name[i] = '\0';
}

static uint64_t pid_key(int32_t pid)
{
	return (uint32_t)pid;
}

int32_t names_tgid(const struct ltt_trace *t, int32_t pid)
{
	const struct name_entry *e = name_lookup(&t->tgid, pid_key(pid));

	return e->used ? e->value : pid;
}

static uint64_t file_key(const struct ltt_trace *t, int32_t pid, int32_t fd)
{
	return (uint64_t)(uint32_t)names_tgid(t, pid) << 32 | (uint32_t)fd;
}

/* Resolve a source's field names against the event; false if unusable. */
static bool names_resolve(const struct ltt_event_desc *d,
			  const struct name_source *src, struct name_rule *r)
{
	int a = src->a ? ltt_event_field_index(d, src->a) : -1;
	int b = src->b ? ltt_event_field_index(d, src->b) : -1;
	int c = src->c ? ltt_event_field_index(d, src->c) : -1;
	int e = src->d ? ltt_event_field_index(d, src->d) : -1;
	bool wants_string = src->kind == COMM_SET || src->kind == COMM_EXEC ||
			    src->kind == FILE_OPEN || src->kind == CG_DEFINE;

	if ((src->a && (a < 0 || d->fields[a].type == LTT_TYPE_STRING)) ||
	    (src->b && (b < 0 || d->fields[b].type == LTT_TYPE_STRING)) ||
	    (wants_string && !d->has_string))
		return false;
	r->kind = src->kind;
	r->a = a;
	r->b = b;
	r->c = c >= 0 && d->fields[c].type != LTT_TYPE_STRING ? c : -1;
	r->d = e >= 0 && d->fields[e].type != LTT_TYPE_STRING ? e : -1;
	return true;
}

int names_init(struct ltt_trace *t)
{
	const struct ltt_registry *reg = &t->md.reg;
	unsigned int i, n = 0;

	t->name_rule = calloc(reg->n_events ? reg->n_events : 1,
			      sizeof(*t->name_rule));
	if (!t->name_rule || name_table_init(&t->comm, 256) ||
	    name_table_init(&t->ahead, 64) ||
	    name_table_init(&t->tgid, 256) || name_table_init(&t->files, 256) ||
	    cgroups_init(&t->cg))
		return ltt_fail("out of memory");
	for (i = 0; i < ARRAY_SIZE(name_sources); i++) {
		const struct name_source *src = &name_sources[i];
		int id = ltt_registry_find(reg, src->event);
		struct name_rule *r = &t->rules[n], **tail;

		if (id < 0 || n == ARRAY_SIZE(t->rules) ||
		    !names_resolve(&reg->events[id], src, r))
			continue;
		/* keep the table's order: a fork names before it files */
		for (tail = &t->name_rule[id]; *tail; tail = &(*tail)->next)
			;
		*tail = r;
		n++;
	}
	return 0;
}

void names_free(struct ltt_trace *t)
{
	free(t->comm.slot);
	free(t->ahead.slot);
	free(t->tgid.slot);
	free(t->files.slot);
	free(t->name_rule);
	cgroups_free(&t->cg);
	t->comm.slot = t->ahead.slot = t->tgid.slot = t->files.slot = NULL;
	t->name_rule = NULL;
}

/* The descriptors of process @tgid, for files_inherit(). */
static size_t files_of(const struct name_table *nt, int32_t tgid,
		       struct name_entry *out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < nt->n_slots; i++) {
		const struct name_entry *e = &nt->slot[i];

		if (e->used && e->name[0] &&
		    (int32_t)(uint32_t)(e->key >> 32) == tgid) {
			if (n < max)
				out[n] = *e;
			n++;
		}
	}
	return n;
}

/* A new process @child gets a copy of @parent's descriptor table. */
static void files_inherit(struct ltt_trace *t, int32_t parent, int32_t child)
{
	size_t i, n = files_of(&t->files, parent, NULL, 0);
	struct name_entry *copy, *e;

	if (!n || parent == child)
		return;
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return;
	n = files_of(&t->files, parent, copy, n);
	for (i = 0; i < n; i++) {
		uint64_t key = (uint64_t)(uint32_t)child << 32 |
			       (copy[i].key & 0xffffffffULL);

		e = name_get(&t->files, key);
		if (!e)
			break;
		memcpy(e->name, copy[i].name, sizeof(e->name));
		e->cloexec = copy[i].cloexec;
	}
	free(copy);
}

/* Process @tgid execs: the close-on-exec descriptors are closed. */
static void files_exec(struct ltt_trace *t, int32_t tgid)
{
	size_t i;

	for (i = 0; i < t->files.n_slots; i++) {
		struct name_entry *e = &t->files.slot[i];

		if (e->used && e->cloexec &&
		    (int32_t)(uint32_t)(e->key >> 32) == tgid) {
			e->name[0] = '\0';
			e->cloexec = false;
		}
	}
}

/* newfd @b of the running task now refers to what fd @a did. */
static void files_dup(struct ltt_trace *t, const struct ltt_item *it,
		      int32_t a, int32_t b, bool cloexec)
{
	const struct name_entry *old;
	struct name_entry *e;
	char name[LTT_STRING_MAX];

	if (a < 0 || b < 0 || a == b)
		return;
	old = name_lookup(&t->files, file_key(t, it->pid, a));
	if (old->used)
		memcpy(name, old->name, sizeof(name));
	else
		name[0] = '\0';
	e = name_get(&t->files, file_key(t, it->pid, b));
	if (!e)
		return;
	memcpy(e->name, name, sizeof(e->name));
	e->cloexec = cloexec;
}

static void names_apply_one(struct ltt_trace *t, const struct name_rule *r,
			    const struct ltt_item *it)
{
	int32_t a = r->a >= 0 ? (int32_t)ltt_item_int(it, r->a) : it->pid;
	int32_t b = r->b >= 0 ? (int32_t)ltt_item_int(it, r->b) : 0;
	int64_t c = r->c >= 0 ? ltt_item_int(it, r->c) : 0;
	const char *name = ltt_item_string(it), *slash, *parent;
	struct name_entry *e;

	switch (r->kind) {
	case COMM_EXEC:
		slash = strrchr(name, '/');
		if (slash && slash[1])
			name = slash + 1;
		/* fall through */
	case COMM_SET:
		e = name_get(&t->comm, pid_key(a));
		if (e)
			name_copy(e, name);
		break;
	case COMM_INHERIT:
		parent = ltt_trace_comm(t, it->pid);
		e = parent ? name_get(&t->comm, pid_key(a)) : NULL;
		if (e)
			name_copy(e, parent);
		break;
	case TGID_SET:
		e = name_get(&t->tgid, pid_key(a));
		if (e)
			e->value = b;
		break;
	case FILE_OPEN:
		e = b >= 0 ? name_get(&t->files, file_key(t, a, b)) : NULL;
		if (e) {
			name_copy(e, name);
			e->cloexec = c & LTT_O_CLOEXEC;
		}
		break;
	case FILE_CLOSE:
		e = name_lookup(&t->files, file_key(t, a, b));
		if (e->used)
			e->name[0] = '\0';
		break;
	case FILE_DUP:
		files_dup(t, it, a, b, c);
		break;
	case FILE_INHERIT:
		if (a == b)
			files_inherit(t, names_tgid(t, it->pid), a);
		break;
	case FILE_EXEC:
		files_exec(t, names_tgid(t, a));
		break;
	default:
		cgroups_apply(t, r, it);
		break;
	}
}

void names_apply(struct ltt_trace *t, const struct name_rule *rule,
		 const struct ltt_item *it)
{
	for (; rule; rule = rule->next)
		names_apply_one(t, rule, it);
}

void names_ahead(struct ltt_trace *t, const struct name_rule *rule,
		 const struct ltt_item *it)
{
	struct name_entry *e;

	for (; rule; rule = rule->next) {
		if (rule->kind != COMM_SET)
			continue;
		e = name_get(&t->ahead, pid_key(rule->a >= 0 ?
			(int32_t)ltt_item_int(it, rule->a) : it->pid));
		/* the dump's first word on a task: the name it had then */
		if (e && !e->name[0])
			name_copy(e, ltt_item_string(it));
	}
}

const char *ltt_trace_comm(const struct ltt_trace *t, int32_t pid)
{
	const struct name_entry *e;

	if (!t->comm.slot)
		return NULL;
	/*
	 * pid 0 is the idle task of a whole-system trace; a user session
	 * writes every task not its user's as pid 0 too (and the idle
	 * task): whose, the trace does not say.
	 */
	if (pid == 0 && t->md.user_session)
		return "<hidden>";
	e = name_lookup(&t->comm, pid_key(pid));
	if (e->used)
		return e->name;
	/* not named yet: what the state dump will call it */
	e = name_lookup(&t->ahead, pid_key(pid));
	if (e->used && e->name[0])
		return e->name;
	return pid == 0 ? "<idle>" : NULL;
}

const char *ltt_trace_file(const struct ltt_trace *t, int32_t pid, int32_t fd)
{
	const struct name_entry *e;

	if (!t->files.slot || fd < 0)
		return NULL;
	e = name_lookup(&t->files, file_key(t, pid, fd));
	return e->used && e->name[0] ? e->name : NULL;
}
