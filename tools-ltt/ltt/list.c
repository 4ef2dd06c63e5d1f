// SPDX-License-Identifier: GPL-2.0
/*
 * ltt list: the events a trace holds (its metadata), or the running
 * kernel knows (LTT_CMD_EVENT_INFO), with their fields: what -e and
 * --filter take.
 */
#include <stdio.h>
#include <string.h>

#include "filter.h"
#include "ltt.h"

static const struct ltt_opt list_opts[] = {
	{ 'e', "event", "LIST", "only these events (names, prefix*, ids; !ITEM leaves out)" },
};

/* "u16", "s64", "string" */
static void type_name(const struct ltt_field_desc *f, char *buf, size_t len)
{
	if (f->type == LTT_TYPE_STRING)
		snprintf(buf, len, "string");
	else
		snprintf(buf, len, "%c%u", f->type == LTT_TYPE_SIGNED ? 's' : 'u',
			 f->size * 8);
}

int cmd_list(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER_ANYWHERE("ltt list", "[OPTIONS] [DIR]",
		"List the events of the trace in DIR (from its metadata), or without\n"
		"DIR those of the running kernel, custom events included: id, name,\n"
		"fields and their types, the names -e and --filter take.",
		list_opts);
	struct ltt_registry kernel = { 0 };
	const struct ltt_registry *reg;
	struct ltt_trace *t = NULL;
	struct item_select sel;
	const char *events = NULL;
	char err[300], type[16];
	unsigned int i, j;
	int c;

	while ((c = opt_next(&p, argc, argv)) != -1)
		if (c == 'e')
			events = p.arg;
	if (p.ind < argc - 1)
		opt_usage_error(&p, "at most one trace directory");
	if (p.ind == argc - 1) {
		t = open_trace_or_die(p.cmd, argv[p.ind]);
		reg = ltt_trace_registry(t);
	} else {
		if (ltt_registry_from_kernel(&kernel)) {
			warnx_cmd(p.cmd, "the running kernel's events: %s (is it an LTT kernel? give a trace directory)",
				  ltt_error());
			return 1;
		}
		reg = &kernel;
	}
	if (item_select_init(&sel, reg, events, NULL, err, sizeof(err)))
		opt_usage_error(&p, "%s", err);
	for (i = 0; i < reg->n_events; i++) {
		const struct ltt_event_desc *d = &reg->events[i];

		if (!d->name[0] ||
		    (sel.mask && !(sel.mask[i / 64] & (1ULL << (i % 64)))))
			continue;
		printf(d->n_fields || d->custom ? "%4u  %-24s" : "%4u  %s", d->id,
		       d->name);
		for (j = 0; j < d->n_fields; j++) {
			type_name(&d->fields[j], type, sizeof(type));
			printf(" %s:%s", d->fields[j].name, type);
		}
		printf("%s\n", d->custom ? "  (custom)" : "");
	}
	item_select_free(&sel);
	if (t)
		ltt_trace_close(t);
	else
		ltt_registry_free(&kernel);
	if (fflush(stdout) || ferror(stdout)) {
		warnx_cmd(p.cmd, "write error on the standard output");
		return 1;
	}
	return 0;
}
