// SPDX-License-Identifier: GPL-2.0
/*
 * ltt send: ship a recorded trace to lttng-relayd, as lttd would have
 * streamed it: the metadata, then every packet of every CPU in the order
 * of their start times, with beacons for the streams that wait, so that
 * a live viewer (babeltrace2 -i lttng-live) sees it as it goes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../lttd/relayd.h"
#include "ltt.h"

enum { OPT_SESSION = 256, OPT_HOSTNAME, OPT_PACE };

static const struct ltt_opt send_opts[] = {
	{ 'r', "relayd", "HOST[:PORT]", "lttng-relayd's control port (5342; data: PORT+1)" },
	{ OPT_SESSION, "session", "NAME", "the session name viewers list (default: DIR's name)" },
	{ OPT_HOSTNAME, "hostname", "NAME", "the host name viewers list (default: this machine's)" },
	{ OPT_PACE, "pace", "MS", "wait MS ms after each packet (a replay to watch live)" },
	{ 'q', "quiet", NULL, "no messages but errors" },
};

struct send_stream {
	unsigned int cpu;
	const unsigned char *map;
	size_t size, pos;
};

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * The packet at s->pos, its header in host order in *@h (a trace of the
 * other byte order is sent as it is), or NULL at the end or on damage.
 */
static const void *send_peek(const char *dir, const struct send_stream *s,
			     struct ltt_packet_header *h, bool *bad)
{
	if (s->pos >= s->size)
		return NULL;
	if (s->size - s->pos < sizeof(*h) ||
	    !relayd_header(s->map + s->pos, h) ||
	    h->packet_size % 64 || !h->packet_size ||
	    h->packet_size / 8 > s->size - s->pos) {
		fprintf(stderr, "ltt send: %s/" LTT_STREAM_FMT ": offset %zu: not a whole packet; the stream ends here\n",
			dir, s->cpu, s->pos);
		*bad = true;
		return NULL;
	}
	return s->map + s->pos;
}

static int send_open_streams(const char *dir, struct send_stream **out,
			     unsigned int *n_out)
{
	struct send_stream *ss = NULL, *grown;
	unsigned int n = 0, cpu;
	struct dirent *de;
	DIR *d = opendir(dir);
	char path[4096], tail;

	if (!d) {
		fprintf(stderr, "ltt send: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		struct stat st;
		void *map;
		int fd;

		if (sscanf(de->d_name, "channel0_%u%c", &cpu, &tail) != 1)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st)) {
			fprintf(stderr, "ltt send: %s: %s\n", path, strerror(errno));
			goto fail;
		}
		if (!st.st_size) {
			close(fd);
			continue;
		}
		map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		if (map == MAP_FAILED) {
			fprintf(stderr, "ltt send: %s: mmap: %s\n", path, strerror(errno));
			goto fail;
		}
		grown = realloc(ss, (n + 1) * sizeof(*ss));
		if (!grown) {
			munmap(map, st.st_size);
			goto fail;
		}
		ss = grown;
		ss[n++] = (struct send_stream){ cpu, map, st.st_size, 0 };
	}
	closedir(d);
	*out = ss;
	*n_out = n;
	return 0;
fail:
	closedir(d);
	free(ss);
	return -1;
}

static char *send_read_metadata(const char *dir, size_t *len)
{
	char path[4096], *text = NULL;
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !(text = malloc(st.st_size + 1)) ||
	    read(fd, text, st.st_size) != st.st_size) {
		fprintf(stderr, "ltt send: %s: %s\n", path,
			errno ? strerror(errno) : "short read");
		free(text);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	*len = st.st_size;
	return text;
}

int cmd_send(int argc, char **argv)
{
	struct opt_parser p = OPT_PARSER_ANYWHERE("ltt send", "[OPTIONS] DIR --relayd HOST[:PORT]",
		"Send the trace in DIR to lttng-relayd, packet by packet in time\n"
		"order, as lttd --relayd would have streamed it; a live viewer\n"
		"(babeltrace2 -i lttng-live) watches it arrive.  Exits 1 when a\n"
		"packet did not reach relayd.",
		send_opts);
	struct relayd_opts ro = { .prog = "ltt send" };
	struct send_stream *ss = NULL;
	unsigned int n = 0, i, pace = 0;
	struct ltt_packet_header h, nh = { 0 };
	const void *pkt;
	uint64_t end_ts = 0;
	char *meta, *dir, *base_copy;
	bool bad = false;
	size_t meta_len;
	struct relayd *r;
	int c, ret;

	while ((c = opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case 'r':
			ro.url = p.arg;
			break;
		case OPT_SESSION:
			ro.session = p.arg;
			break;
		case OPT_HOSTNAME:
			ro.hostname = p.arg;
			break;
		case OPT_PACE:
			pace = opt_u64(&p, "--pace", p.arg);
			break;
		case 'q':
			ro.quiet = true;
			break;
		}
	}
	if (p.ind != argc - 1)
		opt_usage_error(&p, "give one trace directory");
	if (!ro.url)
		opt_usage_error(&p, "no collector: give --relayd HOST[:PORT]");
	dir = argv[p.ind];
	base_copy = strdup(dir);
	if (!base_copy)
		return 1;
	if (!ro.session) {
		size_t l = strlen(base_copy);

		while (l > 1 && base_copy[l - 1] == '/')
			base_copy[--l] = '\0';
		ro.session = basename(base_copy);
	}
	meta = send_read_metadata(dir, &meta_len);
	if (!meta || send_open_streams(dir, &ss, &n)) {
		free(meta);
		free(base_copy);
		return 1;
	}
	r = relayd_open(&ro);
	if (!r || relayd_metadata(r, meta, meta_len)) {
		ret = 1;
		goto out;
	}
	/*
	 * Every stream's first packet first: relayd takes beacons only for a
	 * stream that has a packet, and a viewer that attaches early must
	 * find every stream there.  The viewer orders the events anyway.
	 */
	for (i = 0; i < n; i++) {
		pkt = send_peek(dir, &ss[i], &h, &bad);
		if (!pkt)
			continue;
		if (relayd_packet(r, ss[i].cpu, pkt, h.packet_size / 8)) {
			bad = true;
			break;
		}
		if (h.timestamp_end > end_ts)
			end_ts = h.timestamp_end;
		ss[i].pos += h.packet_size / 8;
	}
	for (;;) {
		struct send_stream *next = NULL;
		const void *npkt = NULL;

		/* the packet that starts first goes first */
		for (i = 0; i < n; i++) {
			pkt = send_peek(dir, &ss[i], &h, &bad);
			if (!pkt) {
				ss[i].pos = ss[i].size;
				continue;
			}
			if (!npkt || h.timestamp_begin < nh.timestamp_begin) {
				npkt = pkt;
				nh = h;
				next = &ss[i];
			}
		}
		if (!next)
			break;
		if (relayd_packet(r, next->cpu, npkt, nh.packet_size / 8)) {
			bad = true;
			break;
		}
		if (nh.timestamp_end > end_ts)
			end_ts = nh.timestamp_end;
		next->pos += nh.packet_size / 8;
		/* no stream has anything before the next packet's start */
		npkt = NULL;
		for (i = 0; i < n; i++) {
			pkt = ss[i].pos < ss[i].size ?
			      send_peek(dir, &ss[i], &h, &bad) : NULL;
			if (pkt && (!npkt || h.timestamp_begin < nh.timestamp_begin)) {
				npkt = pkt;
				nh = h;
			}
		}
		relayd_idle(r, npkt && nh.timestamp_begin ?
			       nh.timestamp_begin - 1 : end_ts);
		if (pace)
			sleep_ms(pace);
	}
	ret = relayd_close(r, end_ts, NULL);
	if (bad)
		ret = 1;
out:
	for (i = 0; i < n; i++)
		munmap((void *)ss[i].map, ss[i].size);
	free(ss);
	free(meta);
	free(base_copy);
	return ret;
}
