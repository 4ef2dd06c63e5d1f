// SPDX-License-Identifier: GPL-2.0
/*
 * The host tests of libltt and ltt's analyses, and their shared helpers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"

void seen_add(struct seen_list *out, const struct ltt_trace *t,
	      const struct ltt_item *it)
{
	const char *comm;
	struct seen *s;
	unsigned int i;

	if (out->n == out->cap) {
		out->cap = out->cap ? 2 * out->cap : 1024;
		out->v = realloc(out->v, out->cap * sizeof(*out->v));
		assert_non_null(out->v);
	}
	s = &out->v[out->n++];
	memset(s, 0, sizeof(*s));
	s->item = *it;
	if (it->kind == LTT_ITEM_EVENT) {
		snprintf(s->name, sizeof(s->name), "%s", it->desc->name);
		for (i = 0; i < it->desc->n_fields; i++)
			if (it->desc->fields[i].type != LTT_TYPE_STRING)
				s->f[i] = ltt_item_int(it, i);
		snprintf(s->str, sizeof(s->str), "%s", ltt_item_string(it));
		s->item.desc = NULL;	/* dangles after close */
		s->item.payload = NULL;
	}
	s->item.file = NULL;
	comm = ltt_trace_comm(t, it->pid);
	snprintf(s->comm, sizeof(s->comm), "%s", comm ? comm : "");
}

void seen_errors(struct seen_list *out, const struct ltt_trace *t)
{
	out->n_errors = ltt_trace_n_errors(t);
	if (out->n_errors)
		snprintf(out->error, sizeof(out->error), "%s",
			 ltt_trace_error(t, 0));
}

void read_all(const char *dir, struct seen_list *out)
{
	struct ltt_trace *t = ltt_trace_open(dir);
	const struct ltt_item *it;

	memset(out, 0, sizeof(*out));
	if (!t)
		fail_msg("ltt_trace_open(%s): %s", dir, ltt_error());
	while (ltt_trace_next(t, &it) > 0)
		seen_add(out, t, it);
	seen_errors(out, t);
	ltt_trace_close(t);
}

void seen_free(struct seen_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

size_t count_events(const struct seen_list *l, const char *name, int cpu)
{
	size_t i, n = 0;

	for (i = 0; i < l->n; i++)
		if (l->v[i].item.kind == LTT_ITEM_EVENT &&
		    (!name || !strcmp(l->v[i].name, name)) &&
		    (cpu < 0 || l->v[i].item.cpu == (uint32_t)cpu))
			n++;
	return n;
}

static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	assert_true(in >= 0);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, n), n);
	close(in);
	close(out);
}

const char *copy_fixture(const char *name)
{
	static const char *const files[] = { "metadata", "channel0_0",
					     "channel0_1" };
	static char dir[256];
	char from[512], to[512];
	unsigned int i;

	snprintf(dir, sizeof(dir), "/tmp/ltt-test-%d-%s", getpid(), name);
	mkdir(dir, 0755);
	for (i = 0; i < 3; i++) {
		snprintf(from, sizeof(from), "%s/%s", FIXTURE(""), name);
		snprintf(from + strlen(from), sizeof(from) - strlen(from),
			 "/%s", files[i]);
		if (access(from, R_OK))
			continue;
		snprintf(to, sizeof(to), "%s/%s", dir, files[i]);
		copy_file(from, to);
	}
	return dir;
}

void remove_copy(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TESTS_READER,
		TESTS_METADATA,
		TESTS_DAMAGED,
		TESTS_ENDIAN,
		TESTS_STATS,
		TESTS_GUEST,
		TESTS_FOLLOW,
		TESTS_WATCH,
		TESTS_DETECTORS,
		TESTS_TIMELINE,
		TESTS_FILTER,
		TESTS_SYSCALLS,
		TESTS_ANALYSES,
		TESTS_STARTUP,
		TESTS_CONTROL,
		TESTS_INDEX,
		TESTS_OUT,
		TESTS_CGNAME,
		TESTS_CGROUPS,
		TESTS_PREVIOUS,
	};

	/* LTT_TESTS=startup_* runs only the tests whose names match */
	if (getenv("LTT_TESTS"))
		cmocka_set_test_filter(getenv("LTT_TESTS"));
	return cmocka_run_group_tests_name("libltt and ltt", tests, NULL,
					   NULL);
}
