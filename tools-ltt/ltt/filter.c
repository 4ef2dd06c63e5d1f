// SPDX-License-Identifier: GPL-2.0
/*
 * Filter expressions and event lists with exclusions (filter.h): parsed
 * once into a tree; each name is looked up once per event id, when the
 * first event of that id is met.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "filter.h"
#include "ltt.h"
#include "syscalls.h"

enum node_kind {
	N_OR, N_AND, N_NOT,
	N_EQ, N_NE, N_LT, N_LE, N_GT, N_GE, N_GLOB,
	N_TRUTH,			/* a bare operand */
	N_NUMBER, N_STRING, N_NAME,
};

/* What a name is for one event id. */
enum name_use {
	USE_UNRESOLVED,
	USE_FIELD_INT,
	USE_FIELD_STRING,
	USE_COMM, USE_PID, USE_CPU, USE_EVENT, USE_SYSCALL, USE_TS, USE_TID,
	USE_CGROUP, USE_CONTAINER,
	USE_NONE,			/* this event has no such name */
};

/* How deep an expression may nest: eval() recurses that deep. */
#define FILTER_DEPTH_MAX	256

struct node {
	enum node_kind kind;
	unsigned int depth;		/* of the tree under it, itself 1 */
	int col;			/* where it starts, from 1 */
	struct node *a, *b;
	int64_t number;
	char *text;			/* string literal or name */
	/* N_NAME: per event id, what it is and the field index */
	uint8_t *use;
	int16_t *field;
};

struct filter {
	struct node *root;
	const struct ltt_registry *reg;
	unsigned int n_events;
	int syscall_entry;
	int syscall_compat, compat_abi;	/* syscall_entry_compat, its abi */
	const struct ltt_syscall_table *syscalls;	/* the trace's */
	bool have_syscalls;		/* syscalls looked up */
	struct containers *cg;		/* for cgroup and container; NULL: not yet */
};

struct parser {
	const char *s, *p;
	const struct ltt_registry *reg;
	char *err;
	size_t err_len;
	bool failed;
	unsigned int depth;		/* of parse_unary's recursion */
};

__attribute__((format(printf, 2, 3)))
static struct node *fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return NULL;
	ps->failed = true;
	n = snprintf(ps->err, ps->err_len, "at column %d: ",
		     (int)(ps->p - ps->s) + 1);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < ps->err_len)
		vsnprintf(ps->err + n, ps->err_len - n, fmt, ap);
	va_end(ap);
	return NULL;
}

static void skip(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static bool eat(struct parser *ps, const char *tok)
{
	size_t n = strlen(tok);

	skip(ps);
	if (strncmp(ps->p, tok, n))
		return false;
	ps->p += n;
	return true;
}

static void node_free(struct node *n)
{
	if (!n)
		return;
	node_free(n->a);
	node_free(n->b);
	free(n->text);
	free(n->use);
	free(n->field);
	free(n);
}

static struct node *node_new(struct parser *ps, enum node_kind kind,
			     struct node *a, struct node *b)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n) {
		node_free(a);
		node_free(b);
		return fail(ps, "out of memory");
	}
	n->kind = kind;
	n->a = a;
	n->b = b;
	n->depth = 1 + (a && b ? (a->depth > b->depth ? a->depth : b->depth) :
			a ? a->depth : b ? b->depth : 0);
	if (n->depth > FILTER_DEPTH_MAX) {
		node_free(n);
		return fail(ps, "more than %d levels deep", FILTER_DEPTH_MAX);
	}
	return n;
}

static struct node *parse_or(struct parser *ps);

static struct node *parse_string(struct parser *ps)
{
	size_t cap = strlen(ps->p) + 1, len = 0;
	const char *start = ps->p;
	char *buf = malloc(cap);
	struct node *n;

	if (!buf)
		return fail(ps, "out of memory");
	ps->p++;		/* the opening quote */
	while (*ps->p && *ps->p != '"') {
		if (*ps->p == '\\' && ps->p[1])
			ps->p++;
		buf[len++] = *ps->p++;
	}
	if (*ps->p != '"') {
		free(buf);
		ps->p = start;
		return fail(ps, "a string without its closing quote");
	}
	ps->p++;
	buf[len] = '\0';
	n = node_new(ps, N_STRING, NULL, NULL);
	if (n)
		n->text = buf;
	else
		free(buf);
	return n;
}

static struct node *parse_operand(struct parser *ps)
{
	unsigned int ne = ps->reg->n_events ? ps->reg->n_events : 1;
	const char *start;
	struct node *n;
	char *end;
	int col;

	skip(ps);
	col = ps->p - ps->s + 1;
	if (*ps->p == '"') {
		n = parse_string(ps);
		if (n)
			n->col = col;
		return n;
	}
	if (isdigit((unsigned char)*ps->p) ||
	    (*ps->p == '-' && isdigit((unsigned char)ps->p[1]))) {
		long long v;

		errno = 0;
		v = strtoll(ps->p, &end, 0);
		if (isalnum((unsigned char)*end) || *end == '_')
			return fail(ps, "not a number");
		if (errno == ERANGE)
			return fail(ps, "%.*s: out of range (64-bit signed)",
				    (int)(end - ps->p), ps->p);
		ps->p = end;
		n = node_new(ps, N_NUMBER, NULL, NULL);
		if (n) {
			n->number = v;
			n->col = col;
		}
		return n;
	}
	if (!isalpha((unsigned char)*ps->p) && *ps->p != '_')
		return fail(ps, *ps->p ? "expected a name, a number or a string" :
			    "the expression ends too soon");
	start = ps->p;
	while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
		ps->p++;
	n = node_new(ps, N_NAME, NULL, NULL);
	if (!n)
		return NULL;
	n->col = col;
	n->text = strndup(start, ps->p - start);
	n->use = calloc(ne, sizeof(*n->use));
	n->field = calloc(ne, sizeof(*n->field));
	if (!n->text || !n->use || !n->field) {
		node_free(n);
		return fail(ps, "out of memory");
	}
	return n;
}

static struct node *parse_compare(struct parser *ps)
{
	static const struct { const char *tok; enum node_kind kind; } ops[] = {
		{ "==", N_EQ }, { "!=", N_NE }, { "<=", N_LE }, { ">=", N_GE },
		{ "=~", N_GLOB }, { "<", N_LT }, { ">", N_GT },
	};
	struct node *a = parse_operand(ps), *b;
	unsigned int i;

	if (!a)
		return NULL;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (!eat(ps, ops[i].tok))
			continue;
		b = parse_operand(ps);
		if (!b) {
			node_free(a);
			return NULL;
		}
		if (ops[i].kind == N_GLOB && b->kind != N_STRING) {
			node_free(a);
			node_free(b);
			return fail(ps, "=~ takes a string pattern");
		}
		return node_new(ps, ops[i].kind, a, b);
	}
	skip(ps);
	if (*ps->p == '=' && ps->p[1] != '=')
		return node_free(a), fail(ps, "\"=\": did you mean \"==\"?");
	return node_new(ps, N_TRUTH, a, NULL);
}

static struct node *parse_unary(struct parser *ps)
{
	struct node *n;

	if (++ps->depth > FILTER_DEPTH_MAX) {
		skip(ps);
		return fail(ps, "more than %d levels deep", FILTER_DEPTH_MAX);
	}
	if (eat(ps, "!") ) {
		n = parse_unary(ps);
		n = n ? node_new(ps, N_NOT, n, NULL) : NULL;
	} else if (eat(ps, "(")) {
		n = parse_or(ps);
		if (n && !eat(ps, ")")) {
			node_free(n);
			n = fail(ps, "expected \")\"");
		}
	} else {
		n = parse_compare(ps);
	}
	ps->depth--;
	return n;
}

static struct node *parse_and(struct parser *ps)
{
	struct node *n = parse_unary(ps), *b;

	while (n && eat(ps, "&&")) {
		b = parse_unary(ps);
		if (!b) {
			node_free(n);
			return NULL;
		}
		n = node_new(ps, N_AND, n, b);
	}
	return n;
}

static struct node *parse_or(struct parser *ps)
{
	struct node *n = parse_and(ps), *b;

	while (n && eat(ps, "||")) {
		b = parse_and(ps);
		if (!b) {
			node_free(n);
			return NULL;
		}
		n = node_new(ps, N_OR, n, b);
	}
	return n;
}

/* The item's context: names that are no field of the event. */
enum { T_INT = 1, T_STR = 2 };
static const struct {
	const char *name;
	enum name_use use;
	int type;
} ctx[] = {
	{ "comm", USE_COMM, T_STR }, { "pid", USE_PID, T_INT },
	{ "tid", USE_TID, T_INT }, { "cpu", USE_CPU, T_INT },
	{ "event", USE_EVENT, T_STR }, { "syscall", USE_SYSCALL, T_STR },
	{ "ts", USE_TS, T_INT }, { "cgroup", USE_CGROUP, T_STR },
	{ "container", USE_CONTAINER, T_STR },
};

/* The types operand @n may have in some event: T_INT, T_STR, or 0. */
static int types_of(const struct ltt_registry *reg, const struct node *n)
{
	unsigned int id, k;
	int types = 0, i;

	if (n->kind == N_NUMBER)
		return T_INT;
	if (n->kind == N_STRING)
		return T_STR;
	for (id = 0; id < reg->n_events; id++) {
		i = ltt_event_field_index(&reg->events[id], n->text);
		if (i >= 0)
			types |= reg->events[id].fields[i].type ==
				 LTT_TYPE_STRING ? T_STR : T_INT;
	}
	for (k = 0; k < sizeof(ctx) / sizeof(ctx[0]); k++)
		if (!strcmp(n->text, ctx[k].name))
			types |= ctx[k].type;
	return types;
}

static const char *type_name(int types)
{
	return types == T_INT ? "a number" : "a string";
}

/* @n as written: a name, a number, a quoted string. */
static void operand_text(const struct node *n, char *buf, size_t len)
{
	if (n->kind == N_NUMBER)
		snprintf(buf, len, "%lld", (long long)n->number);
	else if (n->kind == N_STRING)
		snprintf(buf, len, "\"%.40s\"", n->text);
	else
		snprintf(buf, len, "%.40s", n->text);
}

/*
 * What cannot match any event is a usage error: a name that is no
 * field of any event nor of the context (an unquoted string), a
 * comparison of a number with a string.
 */
static int check(struct parser *ps, const struct node *n)
{
	char a[48], b[48];
	int ta, tb;

	if (!n)
		return 0;
	if (n->kind == N_NAME) {
		if (types_of(ps->reg, n))
			return 0;
		ps->p = ps->s + n->col - 1;
		fail(ps, "\"%s\" is no field of any event of the trace, nor "
		     "comm, pid, tid, cpu, event, syscall, ts, cgroup or container (a string "
		     "is quoted: \"%s\")", n->text, n->text);
		return -1;
	}
	if (check(ps, n->a) || check(ps, n->b))
		return -1;
	if (n->kind < N_EQ || n->kind > N_GLOB)
		return 0;
	ta = types_of(ps->reg, n->a);
	tb = types_of(ps->reg, n->b);
	if (ta & tb)
		return 0;
	ps->p = ps->s + n->a->col - 1;
	operand_text(n->a, a, sizeof(a));
	operand_text(n->b, b, sizeof(b));
	fail(ps, "%s is %s, %s %s: they never compare", a, type_name(ta), b,
	     type_name(tb));
	return -1;
}

struct filter *filter_new(const char *expr, const struct ltt_registry *reg,
			  char *err, size_t err_len)
{
	struct parser ps = { .s = expr, .p = expr, .reg = reg, .err = err,
			     .err_len = err_len };
	struct filter *f;
	struct node *root = parse_or(&ps);

	if (root) {
		skip(&ps);
		if (*ps.p) {
			node_free(root);
			root = fail(&ps, "unexpected \"%s\"", ps.p);
		} else if (check(&ps, root)) {
			node_free(root);
			root = NULL;
		}
	}
	if (!root)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f) {
		node_free(root);
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	f->root = root;
	f->reg = reg;
	f->n_events = reg->n_events;
	f->syscall_entry = ltt_registry_find(reg, "syscall_entry");
	f->syscall_compat = ltt_registry_find(reg, "syscall_entry_compat");
	f->compat_abi = f->syscall_compat < 0 ? -1 :
		ltt_event_field_index(&reg->events[f->syscall_compat], "abi");
	return f;
}

void filter_free(struct filter *f)
{
	if (!f)
		return;
	node_free(f->root);
	if (f->cg)
		containers_free(f->cg);
	free(f->cg);
	free(f);
}

/* A value: a number, a string, or none (the event has no such name). */
struct value {
	enum { V_NONE, V_NUMBER, V_STRING } type;
	int64_t number;
	const char *string;
};

static void resolve(struct filter *f, struct node *n, unsigned int id)
{
	const struct ltt_event_desc *d = &f->reg->events[id];
	int i = ltt_event_field_index(d, n->text);
	unsigned int k;

	if (i >= 0) {
		n->field[id] = i;
		n->use[id] = d->fields[i].type == LTT_TYPE_STRING ?
			     USE_FIELD_STRING : USE_FIELD_INT;
		return;
	}
	n->use[id] = USE_NONE;
	for (k = 0; k < sizeof(ctx) / sizeof(ctx[0]); k++)
		if (!strcmp(n->text, ctx[k].name))
			n->use[id] = ctx[k].use;
	if (n->use[id] == USE_SYSCALL && (int)id != f->syscall_entry &&
	    ((int)id != f->syscall_compat || f->compat_abi < 0))
		n->use[id] = USE_NONE;
}

/* The call of a syscall_entry(_compat), named by @t's table. */
static const char *syscall_name(struct filter *f, const struct ltt_trace *t,
				const struct ltt_item *it)
{
	const struct ltt_syscall_table *table;

	if (!f->have_syscalls) {
		f->syscalls = ltt_trace_syscalls(t);
		f->have_syscalls = true;
	}
	table = f->syscalls;
	if ((int)it->desc->id == f->syscall_compat)
		table = ltt_syscall_compat_table(table,
						 ltt_item_int(it, f->compat_abi));
	return ltt_syscall_name(table, ltt_item_int(it, 0));
}

/* The running task's cgroup, as container.h follows it. */
static const struct cg_info *cgroup_of(struct filter *f,
				       const struct ltt_trace *t,
				       const struct ltt_item *it)
{
	if (!f->cg) {
		f->cg = malloc(sizeof(*f->cg));
		if (!f->cg || containers_init(f->cg, t, NULL)) {
			free(f->cg);
			f->cg = NULL;
			return NULL;
		}
	}
	return containers_task(f->cg, it->pid);
}

static struct value eval_operand(struct filter *f, struct node *n,
				 const struct ltt_trace *t,
				 const struct ltt_item *it)
{
	struct value v = { V_NONE, 0, NULL };
	unsigned int id = it->desc->id;

	if (n->kind == N_NUMBER)
		return (struct value){ V_NUMBER, n->number, NULL };
	if (n->kind == N_STRING)
		return (struct value){ V_STRING, 0, n->text };
	if (id >= f->n_events)
		return v;
	if (n->use[id] == USE_UNRESOLVED)
		resolve(f, n, id);
	switch (n->use[id]) {
	case USE_FIELD_INT:
		return (struct value){ V_NUMBER, ltt_item_int(it, n->field[id]), NULL };
	case USE_FIELD_STRING:
		return (struct value){ V_STRING, 0, ltt_item_string(it) };
	case USE_COMM:
		v.string = ltt_trace_comm(t, it->pid);
		return (struct value){ V_STRING, 0, v.string ? v.string : "" };
	case USE_PID:
	case USE_TID:
		return (struct value){ V_NUMBER, it->pid, NULL };
	case USE_CPU:
		return (struct value){ V_NUMBER, it->cpu, NULL };
	case USE_EVENT:
		return (struct value){ V_STRING, 0, it->desc->name };
	case USE_SYSCALL:
		v.string = syscall_name(f, t, it);
		return (struct value){ V_STRING, 0, v.string ? v.string : "" };
	case USE_TS:
		return (struct value){ V_NUMBER, (int64_t)it->ts, NULL };
	case USE_CGROUP:
	case USE_CONTAINER: {
		const struct cg_info *cg = cgroup_of(f, t, it);

		if (!cg)
			return v;
		return (struct value){ V_STRING, 0, n->use[id] == USE_CGROUP ?
				       cg->path : cg->name.name };
	}
	default:
		return v;
	}
}

static bool eval(struct filter *f, struct node *n, const struct ltt_trace *t,
		 const struct ltt_item *it)
{
	struct value a, b;
	int c;

	switch (n->kind) {
	case N_OR:
		return eval(f, n->a, t, it) || eval(f, n->b, t, it);
	case N_AND:
		return eval(f, n->a, t, it) && eval(f, n->b, t, it);
	case N_NOT:
		return !eval(f, n->a, t, it);
	case N_TRUTH:
		a = eval_operand(f, n->a, t, it);
		return a.type == V_NUMBER ? a.number != 0 :
		       a.type == V_STRING ? *a.string != '\0' : false;
	default:
		break;
	}
	a = eval_operand(f, n->a, t, it);
	b = eval_operand(f, n->b, t, it);
	if (a.type == V_NONE || b.type == V_NONE || a.type != b.type)
		return false;
	if (n->kind == N_GLOB)
		return a.type == V_STRING && !fnmatch(b.string, a.string, 0);
	if (a.type == V_STRING)
		c = strcmp(a.string, b.string);
	else
		c = a.number < b.number ? -1 : a.number > b.number;
	switch (n->kind) {
	case N_EQ:
		return c == 0;
	case N_NE:
		return c != 0;
	case N_LT:
		return c < 0;
	case N_LE:
		return c <= 0;
	case N_GT:
		return c > 0;
	default:
		return c >= 0;
	}
}

bool filter_match(struct filter *f, const struct ltt_trace *t,
		  const struct ltt_item *it)
{
	if (it->kind != LTT_ITEM_EVENT)
		return false;
	return eval(f, f->root, t, it);
}

int parse_event_list(const struct ltt_registry *reg, const char *list,
		     uint64_t *mask, unsigned int nbits)
{
	size_t words = (nbits + 63) / 64;
	uint64_t *one = calloc(words + 1, sizeof(*one));
	char *copy = strdup(list), *word, *save = NULL;
	bool any_include = false;
	unsigned int i, n = 0;
	int ret = 0;

	if (!one || !copy) {
		free(one);
		free(copy);
		return ltt_parse_events(reg, "", mask, nbits);	/* its message */
	}
	memset(mask, 0, words * sizeof(*mask));
	for (word = strtok_r(copy, ", ", &save); word;
	     word = strtok_r(NULL, ", ", &save))
		any_include |= word[0] != '!';
	free(copy);
	copy = strdup(list);
	if (!copy) {
		free(one);
		return -1;
	}
	if (!any_include)
		for (i = 0; i < nbits; i++)
			mask[i / 64] |= 1ULL << (i % 64);
	for (word = strtok_r(copy, ", ", &save); word && !ret;
	     word = strtok_r(NULL, ", ", &save), n++) {
		bool exclude = word[0] == '!';
		size_t k;

		ret = ltt_parse_events(reg, word + exclude, one, nbits);
		for (k = 0; !ret && k < words; k++)
			mask[k] = exclude ? mask[k] & ~one[k] : mask[k] | one[k];
	}
	if (!ret && !n)
		ret = ltt_parse_events(reg, "", mask, nbits);	/* "empty" */
	free(copy);
	free(one);
	return ret;
}

int item_select_init(struct item_select *sel, const struct ltt_registry *reg,
		     const char *events, const char *expr, char *err,
		     size_t err_len)
{
	char why[256];

	memset(sel, 0, sizeof(*sel));
	if (events) {
		sel->mask = calloc((reg->n_events + 63) / 64 + 1, 8);
		if (!sel->mask ||
		    parse_event_list(reg, events, sel->mask, reg->n_events)) {
			snprintf(err, err_len, "--event: %s",
				 sel->mask ? ltt_error() : "out of memory");
			item_select_free(sel);
			return -1;
		}
	}
	if (expr) {
		sel->filter = filter_new(expr, reg, why, sizeof(why));
		if (!sel->filter) {
			snprintf(err, err_len, "--filter: %s", why);
			item_select_free(sel);
			return -1;
		}
	}
	return 0;
}

int item_select_containers(struct item_select *sel, const struct ltt_trace *t,
			   const struct cg_args *a)
{
	if (!a->cgroup && !a->container)
		return 0;
	sel->cg = malloc(sizeof(*sel->cg));
	if (!sel->cg || containers_init(sel->cg, t, a)) {
		free(sel->cg);
		sel->cg = NULL;
		return -1;
	}
	return 0;
}

bool item_select_task(const struct item_select *sel, const struct ltt_item *it)
{
	return containers_selected(sel->cg, it->pid);
}

void item_select_free(struct item_select *sel)
{
	if (sel->cg)
		containers_free(sel->cg);
	free(sel->cg);
	free(sel->mask);
	filter_free(sel->filter);
	memset(sel, 0, sizeof(*sel));
}
