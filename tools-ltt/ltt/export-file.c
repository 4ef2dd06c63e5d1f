// SPDX-License-Identifier: GPL-2.0
/*
 * ltt export's output directory (export.h): written under a temporary
 * name and renamed when whole, and the reading of a window of the trace.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "window.h"

int export_out_open(struct export_out *o, const char *cmd, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->path = strdup(path);
	if (!o->path || asprintf(&o->tmp, "%s.tmp-%d", path, (int)getpid()) < 0) {
		o->tmp = NULL;
		warnx_cmd(cmd, "out of memory");
		return -1;
	}
	if (mkdir(o->tmp, 0777)) {
		warnx_cmd(cmd, "%s: %s", o->tmp, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void export_out_abort(struct export_out *o)
{
	if (o->tmp)
		nftw(o->tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}

int export_out_commit(struct export_out *o, const char *cmd)
{
	if (rename(o->tmp, o->path)) {
		warnx_cmd(cmd, "%s: %s", o->path,
			  errno == ENOTEMPTY || errno == EEXIST ?
			  "a directory that is not empty: not replaced" :
			  strerror(errno));
		export_out_abort(o);
		return -1;
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return 0;
}

void export_reader_open(struct export_reader *r, const struct export_job *job,
			bool select)
{
	struct time_window tw = { 0 };
	char err[300];

	memset(r, 0, sizeof(*r));
	r->t = open_traces_or_die(job->cmd, job->dirs, job->n_dirs);
	if (select && item_select_init(&r->sel, ltt_trace_registry(r->t),
				       job->events, job->expr, err,
				       sizeof(err)))
		opt_usage_error(job->p, "%s", err);
	tw.from_arg = job->from_arg;
	tw.to_arg = job->to_arg;
	trace_window(r->t, job->p, &tw);
	r->from = tw.from;
	r->to = tw.to;
}

const struct ltt_item *export_reader_next(struct export_reader *r)
{
	const struct ltt_item *it;

	while (ltt_trace_next(r->t, &it) > 0) {
		if (it->ts > r->to)
			return NULL;	/* items come in time order */
		if (it->ts < r->from || !item_selected(&r->sel, r->t, it))
			continue;
		return it;
	}
	return NULL;
}

int export_kernel_id(const struct ltt_registry *reg, const char *name)
{
	int id = ltt_registry_find(reg, name);

	return id >= 0 && reg->events[id].custom ? -1 : id;
}

void export_softirq_events(const struct ltt_registry *reg, bool *in_softirq)
{
	static const char *const soft[] = {
		"tasklet_action", "tasklet_hi_action", "timer_expired",
		"process_wakeup", "process_signal", "mm_page_alloc",
		"mm_page_free", "net_packet_in", "net_packet_out",
		"socket_receive",
	};
	unsigned int i;

	for (i = 0; i < sizeof(soft) / sizeof(soft[0]); i++) {
		int id = ltt_registry_find(reg, soft[i]);

		if (id >= 0)
			in_softirq[id] = true;
	}
}

void export_reader_close(struct export_reader *r)
{
	item_select_free(&r->sel);
	if (r->t)
		ltt_trace_close(r->t);
	r->t = NULL;
}
