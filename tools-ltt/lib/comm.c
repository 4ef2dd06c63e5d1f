// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Process names, learnt from the trace itself as it is read: the state
 * dump at the start of a trace names the processes alive then, exec names
 * a process after its file, fork gives the child its parent's name.
 *
 * Which events feed the table is data (comm_sources below): a new event
 * that tells names (a state dump of the running processes, say) is one
 * more line there.
 */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/* Events that name processes, and how. */
static const struct comm_source {
	const char *event;
	const char *pid_field;
	enum comm_kind kind;
} comm_sources[] = {
	{ "process_exec", "pid", COMM_EXEC },
	{ "process_fork", "child", COMM_INHERIT },
	{ "statedump_process", "pid", COMM_SET },
};

static uint32_t comm_hash(int32_t pid)
{
	return (uint32_t)pid * 2654435761U;
}

static struct comm_entry *comm_lookup(const struct comm_table *c, int32_t pid)
{
	size_t i, mask = c->n_slots - 1;

	for (i = comm_hash(pid) & mask; c->slot[i].used; i = (i + 1) & mask)
		if (c->slot[i].pid == pid)
			return &c->slot[i];
	return &c->slot[i];
}

static int comm_grow(struct comm_table *c)
{
	struct comm_table bigger = { .n_slots = c->n_slots * 2 };
	size_t i;

	bigger.slot = calloc(bigger.n_slots, sizeof(*bigger.slot));
	if (!bigger.slot)
		return -1;
	for (i = 0; i < c->n_slots; i++)
		if (c->slot[i].used)
			*comm_lookup(&bigger, c->slot[i].pid) = c->slot[i];
	bigger.used = c->used;
	free(c->slot);
	*c = bigger;
	return 0;
}

/* Name @pid; the name is cut to fit. */
static void comm_set(struct comm_table *c, int32_t pid, const char *name)
{
	struct comm_entry *e;
	size_t i;

	if (2 * (c->used + 1) > c->n_slots && comm_grow(c))
		return;
	e = comm_lookup(c, pid);
	if (!e->used) {
		e->used = true;
		e->pid = pid;
		c->used++;
	}
	/*
	 * Names are for printing, one word in a line of text: control
	 * characters become '?' and blanks '_'.
	 */
	for (i = 0; name[i] && i < sizeof(e->name) - 1; i++) {
		unsigned char ch = name[i];

		e->name[i] = ch < 0x20 || ch == 0x7f ? '?' :
			     ch == ' ' ? '_' : ch;
	}
	e->name[i] = '\0';
}

int comm_init(struct ltt_trace *t)
{
	const struct ltt_registry *reg = &t->md.reg;
	unsigned int i, n = 0;

	t->comm.n_slots = 256;
	t->comm.slot = calloc(t->comm.n_slots, sizeof(*t->comm.slot));
	t->comm_rule = calloc(reg->n_events, sizeof(*t->comm_rule));
	if (!t->comm.slot || !t->comm_rule)
		return ltt_fail("out of memory");
	for (i = 0; i < ARRAY_SIZE(comm_sources); i++) {
		const struct comm_source *src = &comm_sources[i];
		int id = ltt_registry_find(reg, src->event), f;
		const struct ltt_event_desc *d;

		if (id < 0)
			continue;
		d = &reg->events[id];
		f = ltt_event_field_index(d, src->pid_field);
		if (f < 0 || d->fields[f].type == LTT_TYPE_STRING ||
		    (src->kind != COMM_INHERIT && !d->has_string))
			continue;
		t->rules[n].kind = src->kind;
		t->rules[n].pid_field = f;
		t->comm_rule[id] = &t->rules[n++];
	}
	return 0;
}

void comm_free(struct ltt_trace *t)
{
	free(t->comm.slot);
	free(t->comm_rule);
	t->comm.slot = NULL;
	t->comm_rule = NULL;
}

void comm_apply(struct ltt_trace *t, const struct comm_rule *rule,
		const struct ltt_item *it)
{
	int32_t pid = ltt_item_int(it, rule->pid_field);
	const char *name, *slash;

	switch (rule->kind) {
	case COMM_SET:
		comm_set(&t->comm, pid, ltt_item_string(it));
		break;
	case COMM_EXEC:
		name = ltt_item_string(it);
		slash = strrchr(name, '/');
		if (slash && slash[1])
			name = slash + 1;
		comm_set(&t->comm, pid, name);
		break;
	case COMM_INHERIT:
		name = ltt_trace_comm(t, it->pid);
		if (name)
			comm_set(&t->comm, pid, name);
		break;
	}
}

const char *ltt_trace_comm(const struct ltt_trace *t, int32_t pid)
{
	const struct comm_entry *e;

	if (!t->comm.slot)
		return NULL;
	e = comm_lookup(&t->comm, pid);
	if (e->used)
		return e->name;
	return pid == 0 ? "<idle>" : NULL;
}
