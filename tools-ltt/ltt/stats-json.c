// SPDX-License-Identifier: GPL-2.0
/*
 * ltt stats --json: the figures of analysis.c as one JSON object, every
 * row of every table (no --top).
 */
#include <stdio.h>

#include "analysis.h"
#include "json.h"
#include "ltt.h"
#include "stats-json.h"
#include "syscalls.h"

static void by_type(FILE *f, const struct stats *st, bool custom)
{
	const struct ltt_registry *reg = st->reg;
	unsigned int i, n = 0;

	fprintf(f, ",\"%s\":{", custom ? "custom_events" : "events_by_type");
	for (i = 0; i < reg->n_events; i++) {
		if (!st->per_event[i] || reg->events[i].custom != custom)
			continue;
		fputs(n++ ? "," : "", f);
		json_str(f, reg->events[i].name);
		fprintf(f, ":%llu", (unsigned long long)st->per_event[i]);
	}
	putc('}', f);
}

static void syscalls(FILE *f, const struct stats *st,
		     const struct ltt_syscall_table *table)
{
	unsigned int i, n = 0;

	fputs(",\"syscalls\":[", f);
	for (i = 0; i < STATS_SYSCALLS; i++) {
		unsigned int nr = i + st->syscall_base;
		const char *name = ltt_syscall_name(table, nr);

		if (!st->syscalls[i])
			continue;
		fprintf(f, "%s{\"nr\":%u,\"name\":", n++ ? "," : "", nr);
		json_str(f, name ? name : "?");
		fprintf(f, ",\"count\":%llu}", (unsigned long long)st->syscalls[i]);
	}
	fprintf(f, "],\"syscalls_other\":%llu", (unsigned long long)st->syscalls_other);
}

static void procs(FILE *f, const struct stats *st, const struct ltt_trace *t)
{
	uint32_t i;

	fputs(",\"processes\":[", f);
	for (i = 0; i < st->n_procs; i++) {
		const struct proc *p = &st->procs[i];
		const char *comm = ltt_trace_comm(t, p->pid);

		fprintf(f, "%s{\"pid\":%d,\"name\":", i ? "," : "", p->pid);
		json_str(f, comm ? comm : "?");
		fprintf(f, ",\"events\":%llu,\"syscalls\":%llu,\"cpu_ns\":%llu}",
			(unsigned long long)p->events,
			(unsigned long long)p->syscalls,
			(unsigned long long)p->cpu_ns);
	}
	putc(']', f);
}

/* The containers, as ltt stats prints them ([] without cgroups). */
static void groups(FILE *f, const struct stats *st)
{
	const struct containers *cg = st->cg;
	size_t pos = 0;
	uint32_t i, n = 0;

	fputs(",\"containers\":[", f);
	if (cg && ltt_trace_cgroups(st->trace, &pos, NULL, NULL)) {
		for (i = 0; i < cg->n_groups && i < st->cap_groups; i++) {
			const struct stats_group *g = &st->groups[i];
			const struct cg_info *c = cg->groups[i].first;

			if (!g->events && !g->cpu_ns)
				continue;
			fputs(n++ ? ",{\"name\":" : "{\"name\":", f);
			json_str(f, c->name.name);
			fputs(",\"kind\":", f);
			json_str(f, c->named ? ltt_cgroup_kind_name(c->name.kind) : "?");
			fputs(",\"runtime\":", f);
			json_str(f, c->name.runtime ? c->name.runtime : "");
			fputs(",\"id\":", f);
			json_str(f, c->name.id);
			fputs(",\"cgroup\":", f);
			if (c->named)
				json_str(f, c->path);
			else
				fputs("null", f);
			fprintf(f, ",\"events\":%llu,\"syscalls\":%llu,\"cpu_ns\":%llu,\"read_bytes\":%llu,\"write_bytes\":%llu}",
				(unsigned long long)g->events,
				(unsigned long long)g->syscalls,
				(unsigned long long)g->cpu_ns,
				(unsigned long long)g->read_bytes,
				(unsigned long long)g->write_bytes);
		}
	}
	putc(']', f);
}

static void times(FILE *f, const struct stats *st,
		  const struct ltt_syscall_table *table)
{
	unsigned int i, n = 0;

	fprintf(f, ",\"syscall_times\":{\"pid\":%d,\"calls\":[", st->pid);
	for (i = 0; i < STATS_SYSCALLS; i++) {
		const struct syscall_time *s = &st->times[i];
		unsigned int nr = i + st->syscall_base;
		const char *name = ltt_syscall_name(table, nr);

		if (!s->count)
			continue;
		fprintf(f, "%s{\"nr\":%u,\"name\":", n++ ? "," : "", nr);
		json_str(f, name ? name : "?");
		fprintf(f, ",\"count\":%llu,\"total_ns\":%llu,\"min_ns\":%llu,\"avg_ns\":%llu,\"max_ns\":%llu}",
			(unsigned long long)s->count,
			(unsigned long long)s->total_ns,
			(unsigned long long)s->min_ns,
			(unsigned long long)(s->total_ns / s->count),
			(unsigned long long)s->max_ns);
	}
	fprintf(f, "],\"unfinished\":%llu}", (unsigned long long)st->unfinished);
}

static void lost(FILE *f, const struct stats *st)
{
	unsigned int i, n = 0;

	fprintf(f, ",\"lost\":{\"events\":%llu,\"packets\":%llu,\"cpus\":[",
		(unsigned long long)st->lost_events,
		(unsigned long long)st->lost_packets);
	for (i = 0; i < st->max_cpu; i++)
		if (st->cpu[i].lost_events || st->cpu[i].lost_packets)
			fprintf(f, "%s{\"cpu\":%u,\"events\":%llu,\"packets\":%llu}",
				n++ ? "," : "", i,
				(unsigned long long)st->cpu[i].lost_events,
				(unsigned long long)st->cpu[i].lost_packets);
	fputs("]}", f);
}

void stats_print_json(FILE *f, const struct stats *st, const struct ltt_trace *t)
{
	int64_t offset = ltt_trace_clock_offset(t);
	char from[32];

	format_clock(from, sizeof(from), (int64_t)st->first_ts + offset, false);
	fputs("{\"trace\":", f);
	json_str(f, ltt_trace_dir(t));
	fprintf(f, ",\"events\":%llu,\"start\":\"%s\",\"first_ts\":%llu,\"duration_ns\":%llu",
		(unsigned long long)st->events, from,
		(unsigned long long)st->first_ts,
		(unsigned long long)(st->last_ts - st->first_ts));
	by_type(f, st, false);
	by_type(f, st, true);
	if (st->id_entry >= 0)
		syscalls(f, st, ltt_trace_syscalls(t));
	procs(f, st, t);
	groups(f, st);
	if (st->track_pid)
		times(f, st, ltt_trace_syscalls(t));
	lost(f, st);
	fputs("}\n", f);
}
