/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ltt export's formats besides Chrome's JSON (export.c): LTTng's kernel
 * layout (export-lttng.c) and Perfetto's protobuf trace
 * (export-perfetto.c), and how they write their output (export-file.c).
 */
#ifndef LTT_EXPORT_H
#define LTT_EXPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "filter.h"
#include "ltt.h"

/* What a format reads: the trace, its window, the selection. */
struct export_job {
	const char *cmd;		/* "ltt export" */
	const char *dir;		/* the first trace directory, as given */
	char *const *dirs;		/* all of them, read as one */
	unsigned int n_dirs;
	const char *output;		/* the path to write; "-": stdout */
	const struct opt_parser *p;	/* for usage errors */
	const char *from_arg, *to_arg;	/* --from, --to */
	const char *events, *expr;	/* -e, --filter */
};

/* Each returns ltt's exit status: 0, or 1 with its messages printed. */
int export_lttng(const struct export_job *job);
int export_perfetto(const struct export_job *job);

/*
 * An output directory (--format=lttng) made under a temporary name
 * beside @path (PATH.tmp-PID), renamed to @path when whole: an existing
 * @path is replaced only when it is an empty directory.  The temporary
 * is removed on failure; @path itself is never touched then.  (A file
 * output is outfile.h's out_file.)
 */
struct export_out {
	char *path, *tmp;
};
int export_out_open(struct export_out *o, const char *cmd, const char *path);
/* Rename into place: 0, or -1 with a message. */
int export_out_commit(struct export_out *o, const char *cmd);
void export_out_abort(struct export_out *o);

/* Read one trace's items of the job's window and selection. */
struct export_reader {
	struct ltt_trace *t;
	struct item_select sel;
	uint64_t from, to;
};
/* Open and place @r at the window's start; exits on a bad trace/option. */
void export_reader_open(struct export_reader *r, const struct export_job *job,
			bool select);
/* The next item of the window (selected), or NULL at its end. */
const struct ltt_item *export_reader_next(struct export_reader *r);
void export_reader_close(struct export_reader *r);

/* The kernel event @name of @reg, or -1 (none, or only a custom one). */
int export_kernel_id(const struct ltt_registry *reg, const char *name);
/*
 * Mark in @in_softirq (an entry per event of @reg) the events that the
 * work of a softirq records: a softirq with no recorded end lasts
 * through them.
 */
void export_softirq_events(const struct ltt_registry *reg, bool *in_softirq);

#endif
