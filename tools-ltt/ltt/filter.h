/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `ltt report`, `ltt stats`, `ltt view` and `ltt export` read of a
 * trace: an event list with exclusions (-e 'syscall_*,!mm_*') and a
 * filter expression (--filter 'comm == "sshd" && ret < 0').
 *
 * The expression language:
 *
 *   expr    := or
 *   or      := and { "||" and }
 *   and     := unary { "&&" unary }
 *   unary   := "!" unary | "(" expr ")" | compare
 *   compare := operand [ ("==" | "!=" | "<" | "<=" | ">" | ">=" | "=~") operand ]
 *   operand := NAME | NUMBER | "STRING"
 *
 * NAME is a field of the event (ret, fd, filename, ...) or, when the
 * event has no field of that name, one of the item's context: comm (the
 * task's name), pid (the task's, unless the event has a pid field: a
 * process_signal's target), tid (the task's own, always), cpu, event
 * (its name), syscall (syscall_entry's
 * and syscall_entry_compat's call name, in the table of the machine
 * that recorded the trace), ts (trace clock, ns), cgroup (the path of
 * the task's cgroup, "?" where the trace has not placed it) and
 * container (its name, as ltt names containers: cgname.h).  A comparison with a name the event
 * does not have is false.  What cannot match any event is refused by
 * filter_new(): a name no event has (an unquoted string), a number
 * compared with a string, a number out of range, nesting deeper than
 * 256 (eval() recurses).  "=~" matches a glob (fnmatch: "ss*").
 * Strings compare with strings, numbers with numbers; a bare operand is
 * true when it is a non-zero number or a non-empty string.  Lost-event
 * items never match.
 */
#ifndef LTT_FILTER_H
#define LTT_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt.h>

struct cg_args;

struct filter;

/*
 * Compile @expr for the events of @reg; NULL with a message in @err
 * ("at column N: what") when it does not parse.
 */
struct filter *filter_new(const char *expr, const struct ltt_registry *reg,
			  char *err, size_t err_len);
void filter_free(struct filter *f);
/* Does the current item of @t match? */
bool filter_match(struct filter *f, const struct ltt_trace *t,
		  const struct ltt_item *it);

/*
 * An event list with exclusions into a bitmap of @nbits ids: items as
 * ltt_parse_events() takes them, and "!ITEM" to leave ITEM out; a list
 * of exclusions only starts from every event.  -1 with ltt_error().
 */
int parse_event_list(const struct ltt_registry *reg, const char *list,
		     uint64_t *mask, unsigned int nbits);

struct containers;

/* -e and --filter together, for the commands that take both. */
struct item_select {
	uint64_t *mask;			/* NULL: every event */
	struct filter *filter;		/* NULL: no expression */
	struct containers *cg;		/* --cgroup, --container; NULL: none */
};

/*
 * From the -e list @events and the --filter @expr (each may be NULL);
 * -1 with a message in @err ("--event: ...", "--filter: ...").
 */
int item_select_init(struct item_select *sel, const struct ltt_registry *reg,
		     const char *events, const char *expr, char *err,
		     size_t err_len);
void item_select_free(struct item_select *sel);

/*
 * Take --cgroup and --container (@a) too; -1 without memory.  The
 * selection is @sel->cg: containers_check() it at the end.
 */
int item_select_containers(struct item_select *sel, const struct ltt_trace *t,
			   const struct cg_args *a);
/* Does the running task of @it pass --cgroup and --container? */
bool item_select_task(const struct item_select *sel, const struct ltt_item *it);

/* Lost-event items pass when neither -e nor --filter is given. */
static inline bool item_selected(const struct item_select *sel,
				 const struct ltt_trace *t,
				 const struct ltt_item *it)
{
	if (it->kind == LTT_ITEM_LOST)
		return !sel->mask && !sel->filter && !sel->cg;
	if (sel->mask &&
	    !(sel->mask[it->desc->id / 64] & (1ULL << (it->desc->id % 64))))
		return false;
	if (sel->cg && !item_select_task(sel, it))
		return false;
	return !sel->filter || filter_match(sel->filter, t, it);
}

#endif /* LTT_FILTER_H */
