/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttd --previous-boot: the previous boot's trace, kept by the kernel
 * (ltt.boot=...,persist=), written as a trace directory; shared by lttd
 * and `ltt record`.
 */
#ifndef LTT_LTTD_PREVIOUS_H
#define LTT_LTTD_PREVIOUS_H

#include <stdbool.h>

#include "run.h"

/*
 * The exit statuses of lttd --previous-boot beyond 0 and 1; 2 is also a
 * usage error's (the message tells them apart), kept for "none" because
 * ltt-crash-collect.service takes it as success.
 */
enum {
	LTTD_EXIT_NO_PREVIOUS = 2,	/* ENOENT: the kernel has none */
	LTTD_EXIT_PERM = 3,		/* EPERM: needs CAP_PERFMON */
	LTTD_EXIT_NO_SUPPORT = 4,	/* ENOSYS, EINVAL: a kernel without it */
};

/* Is @cfg a previous-boot command (--previous-boot[-file], --free)? */
bool lttd_previous_wanted(const struct lttd_config *cfg);

/*
 * Check the options (a usage error of @p exits 2), then read the image,
 * write it into cfg->rec.dir (DIR/BOOT-ID with --by-boot-id), print what
 * it holds on stdout, and free the kernel's copy with --free.  Returns
 * the exit status.
 */
int lttd_previous(const struct lttd_config *cfg, const struct opt_parser *p);

#endif /* LTT_LTTD_PREVIOUS_H */
