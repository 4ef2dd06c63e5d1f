// SPDX-License-Identifier: GPL-2.0
/*
 * Filter expressions and event lists with exclusions, on the basic
 * fixture (counted in fixtures.h) and guest-mix (counted by the test
 * itself from the items, another way).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ltt/filter.h"
#include "../ltt/syscalls.h"
#include "tests.h"

unsigned int filter_count(const char *dir, const char *expr)
{
	const struct ltt_item *it;
	struct ltt_trace *t = ltt_trace_open(dir);
	struct filter *f;
	unsigned int n = 0;
	char err[256];

	assert_non_null(t);
	f = filter_new(expr, ltt_trace_registry(t), err, sizeof(err));
	if (!f)
		fail_msg("%s: %s", expr, err);
	while (ltt_trace_next(t, &it) > 0)
		n += filter_match(f, t, it);
	filter_free(f);
	ltt_trace_close(t);
	return n;
}

void filter_matches_fields_and_context(void **state)
{
	const char *basic = FIXTURE("basic");

	(void)state;
	assert_int_equal(filter_count(basic, "event == \"syscall_entry\""),
			 FX_BASIC_ENTRIES);
	assert_int_equal(filter_count(basic, "syscall == \"getppid\""), FX_GETPPID);
	assert_int_equal(filter_count(basic, "id == 110"), FX_GETPPID);
	assert_int_equal(filter_count(basic, "comm == \"worker\" && ret == 100"),
			 FX_GETPPID);
	assert_int_equal(filter_count(basic, "pid == 1 && event == \"syscall_exit\""),
			 FX_READS);
	assert_int_equal(filter_count(basic, "cpu == 1 && (ret == 4096 || fd == 3)"),
			 FX_READS + FX_BASIC_FILES);
	assert_int_equal(filter_count(basic, "filename =~ \"*inittab\""), 1);
	assert_int_equal(filter_count(basic, "filename == \"" FX_INITTAB "\""), 1);
	assert_int_equal(filter_count(basic, "!(event =~ \"syscall_*\")"),
			 FX_BASIC_EVENTS - FX_BASIC_ENTRIES - FX_BASIC_EXITS);
	/* a name the event does not have compares false, both ways */
	assert_int_equal(filter_count(basic, "ret < 0"), 0);
	assert_int_equal(filter_count(basic, "(fd == 3 || fd != 3) && event == \"syscall_entry\""), 0);
	/* tid: the task's own pid, whatever fields the event has */
	assert_int_equal(filter_count(basic, "tid == 1 && event == \"syscall_exit\""),
			 FX_READS);
	/* every exit but execve's returns non-zero */
	assert_int_equal(filter_count(basic, "ret"), FX_BASIC_EXITS - 1);
	assert_int_equal(filter_count(basic, "ts >= 0x0"), FX_BASIC_EVENTS);
}

void filter_counts_errors_of_guest_mix(void **state)
{
	const char *dir = FIXTURE("guest-mix");
	const struct ltt_item *it;
	struct ltt_trace *t = ltt_trace_open(dir);
	unsigned int failed = 0, sh_open = 0;

	(void)state;
	assert_non_null(t);
	while (ltt_trace_next(t, &it) > 0) {
		const char *comm = ltt_trace_comm(t, it->pid);
		int64_t ret;

		if (it->kind != LTT_ITEM_EVENT)
			continue;
		if (!strcmp(it->desc->name, "syscall_exit") &&
		    ltt_item_field(it, "ret", &ret) >= 0 && ret < 0)
			failed++;
		if (!strcmp(it->desc->name, "fs_open") && comm &&
		    !strcmp(comm, "sh"))
			sh_open++;
	}
	ltt_trace_close(t);
	assert_true(failed > 0 && sh_open > 0);
	assert_int_equal(filter_count(dir, "ret < 0"), failed);
	assert_int_equal(filter_count(dir, "comm == \"sh\" && event == \"fs_open\""),
			 sh_open);
}

static void parse_fails(const char *expr, const char *want)
{
	struct ltt_trace *t = ltt_trace_open(FIXTURE("basic"));
	char err[256] = "";

	assert_non_null(t);
	assert_null(filter_new(expr, ltt_trace_registry(t), err, sizeof(err)));
	assert_string_equal(err, want);
	ltt_trace_close(t);
}

void filter_reports_parse_errors(void **state)
{
	(void)state;
	parse_fails("", "at column 1: the expression ends too soon");
	parse_fails("pid ==", "at column 7: the expression ends too soon");
	parse_fails("pid = 3", "at column 5: \"=\": did you mean \"==\"?");
	parse_fails("(pid == 3", "at column 10: expected \")\"");
	parse_fails("comm == \"sh", "at column 9: a string without its closing quote");
	parse_fails("pid == 3 pid", "at column 10: unexpected \"pid\"");
	parse_fails("comm =~ 3", "at column 10: =~ takes a string pattern");
	parse_fails("pid == 12ab", "at column 8: not a number");
	/* what cannot match is refused, not "no event matches" */
	parse_fails("comm == sh", "at column 9: \"sh\" is no field of any event "
		    "of the trace, nor comm, pid, tid, cpu, event, syscall, ts, cgroup or container "
		    "(a string is quoted: \"sh\")");
	parse_fails("nosuchfield == 1 || pid", "at column 1: \"nosuchfield\" is no "
		    "field of any event of the trace, nor comm, pid, tid, cpu, "
		    "event, syscall, ts, cgroup or container (a string is quoted: \"nosuchfield\")");
	parse_fails("pid == 1 && comm == 3",
		    "at column 13: comm is a string, 3 a number: they never compare");
	parse_fails("\"x\" < ret", "at column 1: \"x\" is a string, ret a number: "
		    "they never compare");
	parse_fails("ret < 99999999999999999999",
		    "at column 7: 99999999999999999999: out of range (64-bit signed)");
	parse_fails("ret < -99999999999999999999",
		    "at column 7: -99999999999999999999: out of range (64-bit signed)");
}

/* 100,000 "!" or parentheses: a usage error, not a stack overflow. */
void filter_nesting_is_limited(void **state)
{
	size_t n = 100000, i;
	char *e = malloc(2 * n + 8);

	(void)state;
	assert_non_null(e);
	for (i = 0; i < n; i++)
		e[i] = '!';
	strcpy(e + n, "ret");
	parse_fails(e, "at column 257: more than 256 levels deep");
	for (i = 0; i < n; i++)
		e[i] = '(';
	strcpy(e + n, "ret");
	for (i = 0; i < n; i++)
		e[n + 3 + i] = ')';
	e[2 * n + 3] = '\0';
	parse_fails(e, "at column 257: more than 256 levels deep");
	/* a long chain of && is as deep in the tree eval() walks */
	e[0] = '\0';
	for (i = 0; i < 1000; i++)
		strcat(e, i ? " && ret" : "ret");
	parse_fails(e, "at column 1790: more than 256 levels deep");
	/* 200 levels are fine */
	for (i = 0; i < 200; i++)
		e[i] = '!';
	strcpy(e + 200, "ret");
	assert_int_equal(filter_count(FIXTURE("basic"), e), FX_BASIC_EXITS - 1);
	free(e);
}

void filter_event_lists_with_exclusions(void **state)
{
	struct ltt_trace *t = ltt_trace_open(FIXTURE("basic"));
	const struct ltt_registry *reg;
	uint64_t mask[4];
	unsigned int n;
	int entry, exit_, sched;

	(void)state;
	assert_non_null(t);
	reg = ltt_trace_registry(t);
	n = reg->n_events;
	assert_true(n <= 256);
	entry = ltt_registry_find(reg, "syscall_entry");
	exit_ = ltt_registry_find(reg, "syscall_exit");
	sched = ltt_registry_find(reg, "sched_change");
#define HAS(id) (!!(mask[(id) / 64] & (1ULL << ((id) % 64))))
	assert_int_equal(parse_event_list(reg, "!syscall_*", mask, n), 0);
	assert_false(HAS(entry));
	assert_false(HAS(exit_));
	assert_true(HAS(sched));
	assert_int_equal(parse_event_list(reg, "syscall_*,!syscall_exit", mask, n), 0);
	assert_true(HAS(entry));
	assert_false(HAS(exit_));
	assert_false(HAS(sched));
	assert_int_equal(parse_event_list(reg, "all,!sched_change", mask, n), 0);
	assert_true(HAS(entry));
	assert_false(HAS(sched));
	assert_int_equal(parse_event_list(reg, "!nosuch", mask, n), -1);
	assert_non_null(strstr(ltt_error(), "nosuch"));
#undef HAS
	ltt_trace_close(t);
}
