// SPDX-License-Identifier: GPL-2.0
/*
 * The reader on the fixture traces: decoding, merge, pids, names, losses.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "writer.h"

#define IP	0x7f0000401000LL

void reader_reads_every_event(void **state)
{
	struct seen_list l;
	size_t i, lost = 0;

	(void)state;
	read_all(FIXTURE("basic"), &l);
	assert_int_equal(l.n_errors, 0);
	for (i = 0; i < l.n; i++)
		lost += l.v[i].item.kind == LTT_ITEM_LOST;
	assert_int_equal(lost, 0);
	assert_int_equal(count_events(&l, NULL, -1), FX_BASIC_EVENTS);
	assert_int_equal(count_events(&l, "syscall_entry", -1), FX_BASIC_ENTRIES);
	assert_int_equal(count_events(&l, "syscall_exit", -1), FX_BASIC_EXITS);
	assert_int_equal(count_events(&l, "sched_change", -1), FX_BASIC_SCHED);
	assert_int_equal(count_events(&l, NULL, 1), FX_CPU1_EVENTS);
	seen_free(&l);
}

/*
 * The fixture's metadata describes the registry it was made with, which
 * the registry of today extends: ids are only ever appended.
 */
void reader_registry_matches_the_kernel_layout(void **state)
{
	struct ltt_trace *t = ltt_trace_open(FIXTURE("basic"));
	const struct ltt_registry *reg;
	struct ltt_registry want;
	unsigned int id, i;

	(void)state;
	assert_non_null(t);
	assert_int_equal(fx_registry(&want), 0);
	reg = ltt_trace_registry(t);
	assert_true(reg->n_events >= 6);
	assert_true(reg->n_events <= want.n_events);
	for (id = 0; id < reg->n_events; id++) {
		const struct ltt_event_desc *a = &reg->events[id];
		const struct ltt_event_desc *b = &want.events[id];

		assert_string_equal(a->name, b->name);
		assert_int_equal(a->n_fields, b->n_fields);
		assert_int_equal(a->payload_size, b->payload_size);
		assert_int_equal(a->has_string, b->has_string);
		for (i = 0; i < a->n_fields; i++) {
			assert_string_equal(a->fields[i].name, b->fields[i].name);
			assert_int_equal(a->fields[i].type, b->fields[i].type);
			assert_int_equal(a->fields[i].size, b->fields[i].size);
			assert_int_equal(a->fields[i].offset, b->fields[i].offset);
		}
	}
	/* syscall_entry: u16 id, u64 ip, packed */
	id = ltt_registry_find(reg, "syscall_entry");
	assert_int_equal(reg->events[id].payload_size, 10);
	ltt_registry_free(&want);
	ltt_trace_close(t);
}

void reader_clock_offset_from_metadata(void **state)
{
	struct ltt_trace *t = ltt_trace_open(FIXTURE("basic"));

	(void)state;
	assert_non_null(t);
	assert_true(ltt_trace_clock_offset(t) == FX_CLOCK_OFFSET);
	ltt_trace_close(t);
}

void reader_merges_cpus_in_time_order(void **state)
{
	struct seen_list l;
	size_t i;

	(void)state;
	read_all(FIXTURE("basic"), &l);
	assert_true(l.n > 2);
	assert_true(l.v[0].item.ts == FX_T0);
	for (i = 1; i < l.n; i++) {
		const struct ltt_item *a = &l.v[i - 1].item, *b = &l.v[i].item;

		assert_true(a->ts <= b->ts);
		/* equal times: the lower CPU first */
		if (a->ts == b->ts)
			assert_true(a->cpu < b->cpu);
	}
	/* cpu1's first event comes second, between cpu0's first two */
	assert_int_equal(l.v[1].item.cpu, 1);
	assert_string_equal(l.v[1].name, "sched_change");
	seen_free(&l);
}

void reader_follows_pid_through_sched_change(void **state)
{
	struct seen_list l;
	bool switched = false;
	size_t i;

	(void)state;
	read_all(FIXTURE("basic"), &l);
	for (i = 0; i < l.n; i++) {
		const struct seen *s = &l.v[i];

		if (s->item.cpu != 0)
			continue;
		if (!strcmp(s->name, "sched_change") && s->f[0] == 101) {
			/* the switch belongs to the task leaving */
			assert_int_equal(s->item.pid, 100);
			switched = true;
			continue;
		}
		if (!strcmp(s->name, "sched_change")) {
			assert_int_equal(s->item.pid, 101);
			break;
		}
		assert_int_equal(s->item.pid, switched ? 101 : 100);
	}
	assert_true(switched);
	/* cpu1: idle's switch to init, then init's reads */
	for (i = 0; i < l.n; i++)
		if (l.v[i].item.cpu == 1 && !strcmp(l.v[i].name, "syscall_entry"))
			assert_int_equal(l.v[i].item.pid, 1);
	assert_int_equal(l.v[1].item.pid, 0);
	seen_free(&l);
}

void reader_names_processes_by_exec_and_fork(void **state)
{
	struct seen_list l;
	size_t i;

	(void)state;
	read_all(FIXTURE("basic"), &l);
	for (i = 0; i < l.n; i++) {
		const struct seen *s = &l.v[i];

		if (!strcmp(s->name, "syscall_entry") && s->f[0] == 59)
			/* before its exec, the child has its parent's name */
			assert_string_equal(s->comm, "bash");
		if (!strcmp(s->name, "syscall_entry") && s->f[0] == 110)
			assert_string_equal(s->comm, "worker");
		if (s->item.pid == 0)
			assert_string_equal(s->comm, "<idle>");
		if (s->item.pid == 1)
			assert_string_equal(s->comm, "");	/* never told */
	}
	seen_free(&l);
}

/*
 * A user session writes the tasks of other users as pid 0: in its trace
 * pid 0 is <hidden>, not <idle> (idle is pid 0 of the whole system's).
 */
void reader_names_pid_0_of_a_user_session_hidden(void **state)
{
	char dir[256];
	struct seen_list l;
	size_t i, zero = 0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/ltt-user-XXXXXX",
		 getenv("TMPDIR") ?: "/tmp");
	assert_non_null(mkdtemp(dir));
	fx_user_session = true;
	assert_int_equal(fx_make_basic(dir), 0);
	fx_user_session = false;
	read_all(dir, &l);
	for (i = 0; i < l.n; i++) {
		const struct seen *s = &l.v[i];

		if (s->item.pid == 0) {
			assert_string_equal(s->comm, "<hidden>");
			zero++;
		}
		if (!strcmp(s->name, "syscall_entry") && s->f[0] == 110)
			assert_string_equal(s->comm, "worker");
	}
	assert_true(zero > 0);
	seen_free(&l);
	remove_copy(dir);
}

void reader_decodes_fields(void **state)
{
	struct seen_list l;
	size_t i;

	(void)state;
	read_all(FIXTURE("basic"), &l);
	assert_string_equal(l.v[0].name, "process_exec");
	assert_int_equal(l.v[0].f[0], 100);
	{
		struct ltt_trace *t = ltt_trace_open(FIXTURE("basic"));
		const struct ltt_item *it;
		int64_t v = 0;

		assert_non_null(t);
		assert_int_equal(ltt_trace_next(t, &it), 1);
		assert_int_equal(ltt_item_field(it, "pid", &v), 0);
		assert_int_equal(v, 100);
		assert_int_equal(ltt_item_field(it, "filename", &v), -1);
		assert_int_equal(ltt_item_field(it, "nosuch", &v), -1);
		assert_string_equal(ltt_item_string(it), "/bin/bash");
		ltt_trace_close(t);
	}
	assert_string_equal(l.v[0].str, "/bin/bash");
	for (i = 0; i < l.n; i++) {
		const struct seen *s = &l.v[i];

		if (!strcmp(s->name, "syscall_entry") && s->f[0] == 57)
			assert_true(s->f[1] == IP);
		if (!strcmp(s->name, "process_fork")) {
			assert_int_equal(s->f[0], 101);
			assert_int_equal(s->f[1], 101);
		}
		if (!strcmp(s->name, "syscall_exit") && s->item.cpu == 1)
			assert_int_equal(s->f[0], 4096);
		if (!strcmp(s->name, "sched_change") && s->f[1] == 101)
			assert_int_equal(s->f[2], 0x80);
	}
	seen_free(&l);
}

void reader_extended_header_after_a_pause(void **state)
{
	uint64_t want = FX_T0 + 10000 + (FX_GETPPID - 1) * 1000ULL +
			FX_GETPPID_NS + FX_PAUSE_NS;
	struct seen_list l;
	size_t i;
	bool found = false;

	(void)state;
	read_all(FIXTURE("basic"), &l);
	for (i = 0; i < l.n; i++) {
		const struct seen *s = &l.v[i];

		if (!strcmp(s->name, "syscall_entry") && s->f[0] == 1) {
			assert_true(s->item.ts == want);
			/* and the compact record after it counts from there */
			assert_true(l.v[i + 1].item.ts == want + 2000);
			found = true;
		}
	}
	assert_true(found);
	seen_free(&l);
}

void reader_lost_ranges_and_extended_ids(void **state)
{
	struct seen_list l;
	size_t i, lost = 0;

	(void)state;
	read_all(FIXTURE("lossy"), &l);
	assert_int_equal(l.n_errors, 0);
	assert_int_equal(count_events(&l, NULL, -1), FX_LOSSY_EVENTS);
	for (i = 0; i < l.n; i++) {
		const struct seen *s = &l.v[i];

		if (s->item.kind == LTT_ITEM_LOST) {
			if (lost++ == 0) {
				assert_int_equal(s->item.lost_events, FX_LOSSY_LOST1);
				assert_int_equal(s->item.lost_packets, 0);
				assert_true(s->item.lost_from == FX_T0 + 200);
				assert_true(s->item.ts == FX_T0 + 1000);
			} else if (lost == 2) {
				assert_int_equal(s->item.lost_events,
						 FX_LOSSY_GAP * FX_LOSSY_GAP_EVENTS);
				assert_int_equal(s->item.lost_packets, FX_LOSSY_GAP);
			} else {
				/* told by an empty packet, after the last record */
				assert_int_equal(s->item.lost_events,
						 FX_LOSSY_LOST_END);
				assert_int_equal(s->item.lost_packets, 0);
				assert_true(s->item.lost_from == FX_T0 + 6000);
				assert_true(s->item.ts == FX_T0 + 6600);
				assert_int_equal(i, l.n - 1);
			}
			continue;
		}
		if (!strcmp(s->name, "custom_125"))
			assert_int_equal(s->f[0], 125);
		if (!strcmp(s->name, "custom_129"))
			assert_true(s->f[0] == 0xffffffffLL);
		if (!strcmp(s->name, "process_exec"))
			assert_string_equal(s->str, FX_LOSSY_STRING);
	}
	assert_int_equal(lost, 3);
	seen_free(&l);
}

void reader_formats_fields(void **state)
{
	struct ltt_trace *t = ltt_trace_open(FIXTURE("lossy"));
	const struct ltt_item *it;
	char buf[64];
	int checked = 0;

	(void)state;
	assert_non_null(t);
	while (ltt_trace_next(t, &it) > 0) {
		if (it->kind != LTT_ITEM_EVENT)
			continue;
		if (!strcmp(it->desc->name, "process_exec")) {
			ltt_item_format_field(it, 1, buf, sizeof(buf));
			assert_string_equal(buf, "\"we\\\"ird\\\\name\\x0a\"");
			/* named once the exec is behind */
			assert_null(ltt_trace_comm(t, 300));
			checked++;
		}
		if (!strcmp(it->desc->name, "syscall_entry"))
			assert_string_equal(ltt_trace_comm(t, 300), "we\"ird\\name?");
		if (!strcmp(it->desc->name, "custom_129")) {
			ltt_item_format_field(it, 0, buf, sizeof(buf));
			assert_string_equal(buf, "4294967295");
			checked++;
		}
	}
	assert_int_equal(checked, 2);
	ltt_trace_close(t);

	t = ltt_trace_open(FIXTURE("basic"));
	assert_non_null(t);
	while (ltt_trace_next(t, &it) > 0)
		if (!strcmp(it->desc->name, "sched_change"))
			break;
	ltt_item_format_field(it, 0, buf, sizeof(buf));
	assert_string_equal(buf, "1");
	/* a tiny buffer: cut, never overrun */
	assert_true(ltt_item_format_field(it, 0, buf, 1) >= 0);
	ltt_trace_close(t);
}

void reader_empty_stream_file(void **state)
{
	const char *dir = copy_fixture("basic");
	struct seen_list l;
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/channel0_1", dir);
	assert_int_equal(truncate(path, 0), 0);
	read_all(dir, &l);
	assert_int_equal(l.n_errors, 0);
	assert_int_equal(count_events(&l, NULL, 1), 0);
	assert_int_equal(count_events(&l, NULL, 0),
			 FX_BASIC_EVENTS - FX_CPU1_EVENTS);
	seen_free(&l);
	remove_copy(dir);
}

void reader_no_metadata(void **state)
{
	(void)state;
	assert_null(ltt_trace_open("/nonexistent/trace"));
	assert_non_null(strstr(ltt_error(), "/nonexistent/trace/metadata"));
	assert_null(ltt_trace_open(FIXTURE("")));
	assert_non_null(strstr(ltt_error(), "no metadata"));
}

static bool mask_has(const uint64_t *mask, unsigned int id)
{
	return mask[id / 64] & (1ULL << (id % 64));
}

void reader_parses_event_lists(void **state)
{
	struct ltt_registry reg;
	uint64_t mask[LTT_EVENTS_MAX / 64];
	unsigned int id;

	(void)state;
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(ltt_parse_events(&reg, "syscall_*", mask, reg.n_events), 0);
	for (id = 0; id < reg.n_events; id++)
		assert_int_equal(mask_has(mask, id),
				 !strncmp(reg.events[id].name, "syscall_", 8));
	assert_true(mask_has(mask, 0) && mask_has(mask, 1));
	assert_int_equal(ltt_parse_events(&reg, "all", mask, reg.n_events), 0);
	for (id = 0; id < reg.n_events; id++)
		assert_true(mask_has(mask, id));
	assert_int_equal(ltt_parse_events(&reg, "sched_change, 5", mask,
					  reg.n_events), 0);
	for (id = 0; id < reg.n_events; id++)
		assert_int_equal(mask_has(mask, id), id == 2 || id == 5);
	assert_int_equal(ltt_parse_events(&reg, "bogus", mask, reg.n_events), -1);
	assert_non_null(strstr(ltt_error(), "bogus"));
	assert_non_null(strstr(ltt_error(), "syscall_entry"));
	assert_int_equal(ltt_parse_events(&reg, "4000", mask, reg.n_events), -1);
	assert_int_equal(ltt_parse_events(&reg, " , ", mask, reg.n_events), -1);
	assert_non_null(strstr(ltt_error(), "empty"));
	ltt_registry_free(&reg);
}

void reader_names_files_by_open_and_close(void **state)
{
	struct ltt_trace *t = ltt_trace_open(FIXTURE("basic"));
	const struct ltt_item *it;
	unsigned int reads = 0;
	bool closed = false;

	(void)state;
	assert_non_null(t);
	while (ltt_trace_next(t, &it) > 0) {
		if (it->cpu != 1)
			continue;
		if (!strcmp(it->desc->name, "fs_close")) {
			/* a close still names its file */
			assert_string_equal(ltt_trace_file(t, 1, 3), FX_INITTAB);
			closed = true;
		}
		if (!strcmp(it->desc->name, "syscall_entry")) {
			assert_string_equal(ltt_trace_file(t, 1, 3), FX_INITTAB);
			reads++;
		}
		assert_null(ltt_trace_file(t, 1, 4));
		assert_null(ltt_trace_file(t, 101, 3));
	}
	assert_true(closed);
	assert_int_equal(reads, FX_READS);
	assert_null(ltt_trace_file(t, 1, 3));
	ltt_trace_close(t);
}

void reader_files_of_threads_and_state_dump(void **state)
{
	struct ltt_trace *t = ltt_trace_open(FIXTURE("guest-idle"));
	const struct ltt_item *it;
	unsigned int dumped = 0;

	(void)state;
	assert_non_null(t);
	while (ltt_trace_next(t, &it) > 0) {
		const struct ltt_item *prev;
		int64_t pid, fd;
		char path[LTT_STRING_MAX];

		if (it->kind != LTT_ITEM_EVENT ||
		    strcmp(it->desc->name, "statedump_file"))
			continue;
		snprintf(path, sizeof(path), "%s", ltt_item_string(it));
		assert_true(ltt_item_field(it, "pid", &pid) >= 0);
		assert_true(ltt_item_field(it, "fd", &fd) >= 0);
		/* known once the dump item is behind */
		assert_null(ltt_trace_file(t, pid, fd));
		assert_int_equal(ltt_trace_next(t, &prev), 1);
		assert_string_equal(ltt_trace_file(t, pid, fd), path);
		dumped++;
	}
	assert_true(dumped > 0);
	ltt_trace_close(t);
}

/*
 * The kernel writes strings of up to LTT_STRING_MAX - 1 characters: they
 * are read whole, and so are the file names they tell.
 */
void reader_strings_up_to_the_limit(void **state)
{
	char path[LTT_STRING_MAX], text[LTT_STRING_MAX];
	struct ltt_trace *t = ltt_trace_open(FIXTURE("strings"));
	const struct ltt_item *it;
	unsigned int notes = 0, files = 0;

	(void)state;
	fx_long_path(path);
	fx_long_text(text);
	assert_int_equal(strlen(path), LTT_STRING_MAX - 1);
	assert_int_equal(strlen(text), LTT_STRING_MAX - 1);
	assert_non_null(t);
	while (ltt_trace_next(t, &it) > 0) {
		const char *name = it->desc->name, *file;

		if (!strcmp(name, "process_exec") || !strcmp(name, "fs_open")) {
			assert_string_equal(ltt_item_string(it), path);
			assert_int_equal(it->size, it->desc->payload_size +
					 LTT_STRING_MAX);
		} else if (!strcmp(name, "note") && notes++ == 0) {
			assert_string_equal(ltt_item_string(it), text);
		} else if (!strcmp(name, "fs_write") ||
			   !strcmp(name, "fs_close")) {
			file = ltt_trace_file(t, FX_LONG_PID, FX_LONG_FD);
			assert_non_null(file);
			assert_string_equal(file, path);
			files++;
		}
	}
	assert_int_equal(notes, 3);
	assert_int_equal(files, 2);
	assert_int_equal(ltt_trace_n_errors(t), 0);
	ltt_trace_close(t);
}
