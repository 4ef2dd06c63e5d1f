// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The previous boot's trace written as a trace directory, the layout the
 * recorder writes: the metadata (of the image's events, with the
 * previous boot's clock offset, machine and release), one stream file
 * and its packet index per CPU that kept packets, and beside them
 * LTT_PREV_FILE, what the image says of the boot as key=value lines for
 * the tools (`ltt report` prints it and symbolizes with its stext and
 * modules).  The image was checked by ltt_prev_read(): this file trusts
 * it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/*
 * A value kept on its line: a backslash, a newline, a control or
 * non-ASCII character (and a space, with @space: the module lines are
 * words) is written \\, \n or \xHH, which ltt reads back.
 */
static void pw_value(FILE *f, const char *s, bool space)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p < 0x20 || *p > 0x7e || (space && *p == ' '))
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
}

static void pw_string(FILE *f, const char *key, const char *value)
{
	fprintf(f, "%s=", key);
	pw_value(f, value, false);
	fputc('\n', f);
}

/* The text of LTT_PREV_FILE. */
static void pw_info(FILE *f, const struct ltt_prev *p)
{
	const struct ltt_prev_header *h = &p->hdr;
	const char *end = ltt_crash_kind_name(h->end);
	char uuid[37];
	unsigned int i;

	fprintf(f, "# the previous boot's trace (LTT_CMD_PREVIOUS_BOOT); lttd(8)\n");
	ltt_uuid_format(h->boot_id, uuid);
	fprintf(f, "boot_id=%s\n", uuid);
	pw_string(f, "release", h->release);
	pw_string(f, "kversion", h->kversion);
	pw_string(f, "machine", h->machine);
	fprintf(f, "build_id=");
	for (i = 0; i < h->build_id_size; i++)
		fprintf(f, "%02x", h->build_id[i]);
	fprintf(f, "\nstext=%#" PRIx64 "\n", (uint64_t)h->stext);
	if (end)
		fprintf(f, "end=%s\n", end);
	else
		fprintf(f, "end=%u\n", h->end);
	pw_string(f, "end_message", h->end_message);
	fprintf(f, "end_ns=%" PRIu64 "\n", (uint64_t)h->end_ns);
	fprintf(f, "realtime_offset=%" PRId64 "\n", (int64_t)h->realtime_offset);
	fprintf(f, "subbuf_size=%u\nn_subbufs=%u\n", h->subbuf_size,
		h->n_subbufs);
	for (i = 0; i < h->n_cpus; i++) {
		const struct ltt_prev_cpu *c = &p->cpus[i];

		fprintf(f, "cpu%u.n_packets=%u\ncpu%u.n_damaged=%u\n"
			"cpu%u.open_lost=%u\ncpu%u.lost=%" PRIu64 "\n",
			c->cpu, c->n_packets, c->cpu, c->n_damaged, c->cpu,
			c->open_lost, c->cpu, (uint64_t)c->lost);
	}
	for (i = 0; i < h->n_modules; i++) {
		const struct ltt_prev_module *m = &p->modules[i];

		fprintf(f, "module%u=", i);
		pw_value(f, m->name, true);
		fprintf(f, " %#" PRIx64 " %" PRIu64 "\n", (uint64_t)m->base,
			(uint64_t)m->size);
	}
}

/* @name in @dir_fd, written whole and fsync'd. */
static int pw_file(int dir_fd, const char *dir, const char *name,
		   const void *data, size_t len)
{
	int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			0644);
	int ret = 0;

	if (fd < 0)
		return ltt_fail_errno("%s/%s", dir, name);
	if (ltt_write_all(fd, data, len))
		ret = ltt_fail_errno("%s/%s", dir, name);
	else if (fsync(fd))
		ret = ltt_fail_errno("%s/%s: fsync", dir, name);
	close(fd);
	return ret;
}

static int pw_info_file(int dir_fd, const char *dir, const struct ltt_prev *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret;

	if (!f)
		return ltt_fail_errno("%s/%s", dir, LTT_PREV_FILE);
	pw_info(f, p);
	if (fclose(f)) {
		free(text);
		return ltt_fail_errno("%s/%s", dir, LTT_PREV_FILE);
	}
	ret = pw_file(dir_fd, dir, LTT_PREV_FILE, text, len);
	free(text);
	return ret;
}

/* The metadata: the image's registry, clock offset and machine. */
static int pw_metadata(int dir_fd, const char *dir, const struct ltt_prev *p)
{
	const struct ltt_prev_header *h = &p->hdr;
	char uuid[37], end[16];
	const char *kind = ltt_crash_kind_name(h->end);
	const char *extra[][2] = {
		{ "previous_boot_id", uuid },
		{ "previous_boot_end", kind ? kind : end },
		{ "previous_boot_end_message", h->end_message },
	};
	struct ltt_metadata_env env = {
		.arch = h->machine,
		.release = h->release,
		.version = h->kversion,
		.extra = (const char *const (*)[2])extra,
		.n_extra = ARRAY_SIZE(extra),
	};
	int fd, ret;

	ltt_uuid_format(h->boot_id, uuid);
	snprintf(end, sizeof(end), "%u", h->end);
	fd = openat(dir_fd, "metadata", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0644);
	if (fd < 0)
		return ltt_fail_errno("%s/metadata", dir);
	ret = ltt_metadata_write_env(fd, &p->reg, h->realtime_offset,
				     LTT_HOST_BIG_ENDIAN, &env);
	if (!ret && fsync(fd))
		ret = ltt_fail_errno("%s/metadata: fsync", dir);
	close(fd);
	return ret;
}

/* One CPU's packets into its stream file, an index entry per packet. */
static int pw_stream(int dir_fd, const char *dir, const struct ltt_prev *p,
		     const struct ltt_prev_cpu *c)
{
	const unsigned char *pkt = p->image + c->offset;
	struct ltt_packet_header h;
	uint64_t off = 0;
	char name[32];
	unsigned int k;
	int idx;

	snprintf(name, sizeof(name), LTT_STREAM_FMT, c->cpu);
	if (pw_file(dir_fd, dir, name, pkt, c->size))
		return -1;
	/* the index only speeds readers up: one that fails is dropped */
	idx = ltt_index_create(dir_fd, name);
	for (k = 0; idx >= 0 && k < c->n_packets; k++) {
		memcpy(&h, pkt + off, sizeof(h));
		if (ltt_index_append(idx, off, &h)) {
			close(idx);
			idx = -1;
			snprintf(name, sizeof(name), "index/" LTT_STREAM_FMT ".idx",
				 c->cpu);
			unlinkat(dir_fd, name, 0);
		}
		off += h.packet_size / 8;
	}
	if (idx >= 0)
		close(idx);
	return 0;
}

int ltt_prev_write_trace(const struct ltt_prev *p, const char *dir)
{
	unsigned int i;
	bool made;
	int dir_fd, ret;

	if (ltt_make_trace_dir(dir, &made))
		return -1;
	dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0)
		return ltt_fail_errno("%s", dir);
	ret = pw_metadata(dir_fd, dir, p);
	for (i = 0; !ret && i < p->hdr.n_cpus; i++)
		if (p->cpus[i].n_packets)
			ret = pw_stream(dir_fd, dir, p, &p->cpus[i]);
	if (!ret)
		ret = pw_info_file(dir_fd, dir, p);
	if (!ret && fsync(dir_fd))
		ret = ltt_fail_errno("%s: fsync", dir);
	close(dir_fd);
	return ret;
}
