// SPDX-License-Identifier: GPL-2.0
/*
 * lttd --previous-boot: what the kernel kept of the previous boot's
 * trace (LTT_CMD_PREVIOUS_BOOT), or an image in a file, checked by
 * libltt and written as a trace directory; a summary on stdout (the
 * journal, under ltt-crash-collect.service); --free gives the kernel's
 * copy back once it is safely written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../ltt/ltt.h"
#include "previous.h"

bool lttd_previous_wanted(const struct lttd_config *cfg)
{
	return cfg->previous || cfg->previous_file || cfg->free_previous;
}

/* What a previous-boot command cannot be given. */
static void prev_check_opts(const struct lttd_config *cfg,
			    const struct opt_parser *p)
{
	if (cfg->previous && cfg->previous_file)
		opt_usage_error(p, "--previous-boot reads the kernel's copy, --previous-boot-file a file: give one");
	if (cfg->previous_file && cfg->free_previous)
		opt_usage_error(p, "--free frees the kernel's copy: not with --previous-boot-file");
	if (cfg->by_boot_id && !cfg->rec.dir)
		opt_usage_error(p, "--by-boot-id names a directory in DIR: give -o DIR");
	if (cfg->rec.dir && !cfg->previous && !cfg->previous_file)
		opt_usage_error(p, "--free alone writes nothing: no -o DIR without --previous-boot");
	if (cfg->cmd || cfg->rec.events || cfg->rec.n_pids || cfg->n_cgroups ||
	    cfg->rec.session.overwrite || cfg->relayd || cfg->boot ||
	    cfg->seconds || cfg->n_triggers)
		opt_usage_error(p, "--previous-boot and --free record nothing: no command, -e, -p, --cgroup, --overwrite, --boot, --relayd, --time or --snapshot-on with them");
}

/* The exit status of a failed LTT_CMD_PREVIOUS_BOOT, said on stderr. */
static int prev_failed(const struct lttd_config *cfg, int err)
{
	fprintf(stderr, "%s: %s\n", cfg->prog, ltt_error());
	switch (err) {
	case ENOENT:
		return LTTD_EXIT_NO_PREVIOUS;
	case EPERM:
		return LTTD_EXIT_PERM;
	case ENOSYS:
	case EINVAL:
		return LTTD_EXIT_NO_SUPPORT;
	default:
		return 1;
	}
}

/* What the image holds: the boot, how it ended, each CPU. */
static void prev_summary(const struct ltt_prev *p, const char *dir,
			 bool already)
{
	const struct ltt_prev_header *h = &p->hdr;
	const char *end = ltt_crash_kind_name(h->end);
	uint64_t packets = 0, damaged = 0, bytes = 0;
	char uuid[37], size[32];
	unsigned int i;

	ltt_uuid_format(h->boot_id, uuid);
	printf("previous boot %s: Linux %s %s\n", uuid, h->release, h->machine);
	if (h->end == LTT_CRASH_NONE)
		printf("ended: no crash event (a reset, a hang or a power loss)\n");
	else if (end)
		printf("ended: %s%s%s\n", end, h->end_message[0] ? ": " : "",
		       h->end_message);
	else
		printf("ended: kind %u (unknown to this lttd)%s%s\n", h->end,
		       h->end_message[0] ? ": " : "", h->end_message);
	for (i = 0; i < h->n_cpus; i++) {
		const struct ltt_prev_cpu *c = &p->cpus[i];

		printf("cpu %u: %u packets kept, %u damaged%s, %" PRIu64 " events lost\n",
		       c->cpu, c->n_packets, c->n_damaged,
		       c->open_lost ? ", the open packet lost" : "",
		       (uint64_t)c->lost);
		packets += c->n_packets;
		damaged += c->n_damaged;
		bytes += c->size;
	}
	lttd_format_bytes(size, sizeof(size), bytes);
	if (dir)
		printf("%s %s: %" PRIu64 " packets (%s), %" PRIu64 " damaged, %u CPUs, %u modules\n",
		       already ? "already written:" : "wrote", dir, packets,
		       size, damaged, h->n_cpus, h->n_modules);
	else
		printf("%" PRIu64 " packets (%s), %" PRIu64 " damaged, %u CPUs, %u modules (no -o DIR: nothing written)\n",
		       packets, size, damaged, h->n_cpus, h->n_modules);
}

/* Read the image, from the kernel or the file; NULL with *@status. */
static struct ltt_prev *prev_load(const struct lttd_config *cfg, int *status)
{
	struct ltt_prev *p;
	int fd;

	if (cfg->previous_file) {
		p = ltt_prev_load(cfg->previous_file);
	} else {
		fd = ltt_previous_boot(0);
		if (fd < 0) {
			*status = prev_failed(cfg, errno);
			return NULL;
		}
		p = ltt_prev_read(fd, "LTT_CMD_PREVIOUS_BOOT");
		close(fd);
	}
	if (!p) {
		fprintf(stderr, "%s: %s\n", cfg->prog, ltt_error());
		if (cfg->free_previous)
			fprintf(stderr, "%s: the kernel's copy is kept (no --free): a newer ltt may read it\n",
				cfg->prog);
		*status = 1;
	}
	return p;
}

/* Read, write and say; 0 or the exit status. */
static int prev_write(const struct lttd_config *cfg)
{
	char dir[4096], uuid[37], info[4200];
	const char *to = cfg->rec.dir;
	bool already = false;
	struct ltt_prev *p;
	int status = 0;

	p = prev_load(cfg, &status);
	if (!p)
		return status;
	if (to && cfg->by_boot_id) {
		ltt_uuid_format(p->hdr.boot_id, uuid);
		snprintf(dir, sizeof(dir), "%s/%s", cfg->rec.dir, uuid);
		to = dir;
		/* run again in the same boot (no --free before): done already */
		snprintf(info, sizeof(info), "%s/%s", dir, LTT_PREV_FILE);
		already = !access(info, F_OK);
	}
	if (to && !already && ltt_prev_write_trace(p, to)) {
		fprintf(stderr, "%s: %s\n", cfg->prog, ltt_error());
		ltt_prev_free(p);
		return 1;
	}
	if (!cfg->quiet)
		prev_summary(p, to, already);
	ltt_prev_free(p);
	return 0;
}

int lttd_previous(const struct lttd_config *cfg, const struct opt_parser *p)
{
	int status = 0;

	prev_check_opts(cfg, p);
	if (cfg->previous || cfg->previous_file)
		status = prev_write(cfg);
	if (status || !cfg->free_previous)
		return status;
	if (ltt_previous_boot(LTT_PREVIOUS_FREE) < 0)
		return prev_failed(cfg, errno);
	if (!cfg->quiet)
		printf("freed the kernel's copy of the previous boot's trace\n");
	return 0;
}
