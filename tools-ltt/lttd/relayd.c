// SPDX-License-Identifier: GPL-2.0
/*
 * The producer side of lttng-relayd's protocol, version 2.10 (what
 * lttng-tools 2.10's consumer daemon spoke; relayd 2.11 and later still
 * take it, without trace chunks or a session daemon UUID).
 *
 * Two TCP connections: commands on the control port (a header of
 * struct relayd_hdr, a payload, for most a reply), packets on the data
 * port (struct relayd_data_hdr, then the packet).  Every integer of the
 * protocol is big-endian; the packets go as the kernel wrote them.
 *
 *   VERSION 2.10, CREATE_SESSION (name, host, live timer), ADD_STREAM
 *   "metadata", SEND_METADATA (the TSDL text);
 *   per packet: data frame, then SEND_INDEX with the same net_seq_num;
 *   a stream is added with its first packet, and STREAMS_SENT follows;
 *   an idle stream gets beacons (SEND_INDEX with packet_size 0), which
 *   relayd takes once the stream has a packet; at the end a beacon and
 *   CLOSE_STREAM per stream.
 *
 * relayd writes each stream into the directory the stream names, as
 * it comes: the packets, and index/NAME.idx.  A connection made again
 * after a failure names a new directory, so that nothing relayd wrote
 * is overwritten.
 */
#include <byteswap.h>
#include <endian.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt.h>

#include "relayd.h"

enum {
	RELAYD_ADD_STREAM	= 1,
	RELAYD_CREATE_SESSION	= 2,
	RELAYD_VERSION		= 5,
	RELAYD_SEND_METADATA	= 6,
	RELAYD_CLOSE_STREAM	= 7,
	RELAYD_SEND_INDEX	= 13,
	RELAYD_STREAMS_SENT	= 16,
};

#define RELAYD_OK		10	/* LTTNG_OK */
#define RELAYD_MAJOR		2
#define RELAYD_MINOR		10
#define RELAYD_LIVE_TIMER_US	1000000	/* relayd: "this session is live" */
#define RELAYD_TIMEOUT_S	2	/* a reply later than this: broken */

struct relayd_hdr {
	uint64_t circuit_id;
	uint64_t data_size;
	uint32_t cmd;
	uint32_t cmd_version;
} __attribute__((packed));

struct relayd_data_hdr {
	uint64_t circuit_id;
	uint64_t stream_id;
	uint64_t net_seq_num;
	uint32_t data_size;
	uint32_t padding_size;
} __attribute__((packed));

struct relayd_version {
	uint32_t major, minor;
} __attribute__((packed));

struct relayd_create_session {		/* 2.4 to 2.10 */
	char session_name[255];
	char hostname[64];
	uint32_t live_timer;
	uint32_t snapshot;
} __attribute__((packed));

struct relayd_session_reply {
	uint64_t session_id;
	uint32_t ret_code;
} __attribute__((packed));

struct relayd_add_stream {		/* 2.2 to 2.10 */
	char channel_name[264];
	char pathname[4096];
	uint64_t tracefile_size;
	uint64_t tracefile_count;
} __attribute__((packed));

struct relayd_stream_reply {
	uint64_t handle;
	uint32_t ret_code;
} __attribute__((packed));

struct relayd_metadata_payload {
	uint64_t stream_id;
	uint32_t padding_size;
} __attribute__((packed));

struct relayd_index {			/* 2.8 and later: all of it */
	uint64_t relay_stream_id;
	uint64_t net_seq_num;
	uint64_t packet_size;		/* bits; 0: a beacon */
	uint64_t content_size;		/* bits */
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t events_discarded;
	uint64_t stream_id;		/* the CTF stream class */
	uint64_t stream_instance_id;
	uint64_t packet_seq_num;
} __attribute__((packed));

struct relayd_close_stream {
	uint64_t stream_id;
	uint64_t last_net_seq_num;
} __attribute__((packed));

/* A CPU's stream, in the current connection. */
struct relayd_stream {
	uint64_t handle;		/* relayd's id; 0: not added yet */
	uint64_t next_seq;		/* net_seq_num of the next packet */
	uint64_t last_end;		/* timestamp_end of the last packet */
	bool busy;			/* a packet since the last beacon */
};

struct relayd {
	struct relayd_opts o;
	char host[256], port[16], data_port[16];
	char session[200], hostname[64], base[4096];
	int ctrl, data;			/* -1: down */
	uint64_t meta_handle;
	unsigned int n_streams;
	struct relayd_stream *streams;	/* by cpu */
	char *meta;			/* what relayd has (or gets on reconnect) */
	size_t meta_len;
	unsigned int meta_max_id;	/* the last event of it */
	bool meta_stale;		/* a metadata change that cannot append */
	struct relayd_stats st;
	uint64_t down_packets, down_events;	/* since the link went down */
	uint64_t retry_at;		/* CLOCK_MONOTONIC ns */
	unsigned int retry_ms;
	uint64_t cut_after;		/* LTT_RELAYD_CUT_AFTER: fault injection */
	bool cut_done;
	bool asked;			/* the last command went out whole */
	unsigned int failed_retries;	/* in a row: the wait doubles */
};

static void __attribute__((format(printf, 2, 3)))
relayd_say(const struct relayd *r, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: relayd %s:%s: ", r->o.prog, r->host, r->port);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Blocking, with timeouts, so that a stalled relayd is a broken one. */
static int relayd_dial(struct relayd *r, const char *port, char *why,
		       size_t len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	struct timeval tv = { .tv_sec = RELAYD_TIMEOUT_S };
	int fd = -1, one = 1, err;

	err = getaddrinfo(r->host, port, &hints, &ai);
	if (err) {
		snprintf(why, len, "%s", gai_strerror(err));
		return -1;
	}
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC,
			    a->ai_protocol);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (!connect(fd, a->ai_addr, a->ai_addrlen))
			break;
		snprintf(why, len, "port %s: %s", port, strerror(errno));
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

/* Send all of @iov; MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE. */
static int send_all(int fd, struct iovec *iov, int n)
{
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = n };
	ssize_t k;

	while (m.msg_iovlen) {
		k = sendmsg(fd, &m, MSG_NOSIGNAL);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		while (m.msg_iovlen && (size_t)k >= m.msg_iov->iov_len) {
			k -= m.msg_iov->iov_len;
			m.msg_iov++;
			m.msg_iovlen--;
		}
		if (m.msg_iovlen) {
			m.msg_iov->iov_base = (char *)m.msg_iov->iov_base + k;
			m.msg_iov->iov_len -= k;
		}
	}
	return 0;
}

static int recv_all(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t k;

	while (got < len) {
		k = recv(fd, (char *)buf + got, len - got, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (!k)
				errno = ECONNRESET;
			return -1;
		}
		got += k;
	}
	return 0;
}

/*
 * One command on the control connection: @cmd with @a and @b as its
 * payload, then @rlen bytes of reply (none when 0).
 */
static int relayd_cmd(struct relayd *r, uint32_t cmd, const void *a,
		      size_t alen, const void *b, size_t blen, void *reply,
		      size_t rlen)
{
	struct relayd_hdr h = {
		.data_size = htobe64(alen + blen),
		.cmd = htobe32(cmd),
	};
	struct iovec iov[3] = {
		{ &h, sizeof(h) }, { (void *)a, alen }, { (void *)b, blen },
	};

	r->asked = false;
	if (r->ctrl < 0) {
		errno = ENOTCONN;
		return -1;
	}
	if (send_all(r->ctrl, iov, 3))
		return -1;
	r->asked = true;
	if (rlen && recv_all(r->ctrl, reply, rlen)) {
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			errno = ETIMEDOUT;	/* SO_RCVTIMEO: relayd is stalled */
		return -1;
	}
	return 0;
}

/* A command whose reply is a bare return code. */
static int relayd_cmd_ok(struct relayd *r, uint32_t cmd, const void *a,
			 size_t alen)
{
	uint32_t ret;

	if (relayd_cmd(r, cmd, a, alen, NULL, 0, &ret, sizeof(ret)))
		return -1;
	if (be32toh(ret) != RELAYD_OK) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/* ADD_STREAM; returns relayd's handle, 0 on failure. */
static uint64_t relayd_add_stream(struct relayd *r, const char *name)
{
	struct relayd_add_stream m = { 0 };
	struct relayd_stream_reply rep;

	snprintf(m.channel_name, sizeof(m.channel_name), "%s", name);
	snprintf(m.pathname, sizeof(m.pathname), "%s", r->base);
	if (relayd_cmd(r, RELAYD_ADD_STREAM, &m, sizeof(m), NULL, 0, &rep,
		       sizeof(rep)))
		return 0;
	if (be32toh(rep.ret_code) != RELAYD_OK || !rep.handle) {
		errno = EPROTO;
		return 0;
	}
	return be64toh(rep.handle);
}

static int relayd_send_metadata(struct relayd *r, const char *text,
				size_t len)
{
	struct relayd_metadata_payload m = {
		.stream_id = htobe64(r->meta_handle),
	};

	return relayd_cmd(r, RELAYD_SEND_METADATA, &m, sizeof(m), text, len,
			  NULL, 0);
}

static void relayd_hang_up(struct relayd *r)
{
	if (r->ctrl >= 0)
		close(r->ctrl);
	if (r->data >= 0)
		close(r->data);
	r->ctrl = r->data = -1;
}

/* The link broke: say so once, count from now, retry later. */
static void relayd_broke(struct relayd *r, const char *what)
{
	relayd_say(r, "%s: %s; counting what is not sent, reconnecting every %u ms",
		   what, strerror(errno), r->retry_ms);
	relayd_hang_up(r);
	r->failed_retries = 0;
	r->retry_at = mono_ns() + r->retry_ms * 1000000ULL;
}

/*
 * Connect, create the session and its metadata stream, send the
 * metadata so far.  The data streams come with their packets.
 */
static int relayd_connect(struct relayd *r, char *why, size_t len)
{
	struct relayd_version v = { htobe32(RELAYD_MAJOR), htobe32(RELAYD_MINOR) };
	struct relayd_create_session cs = { .live_timer = htobe32(RELAYD_LIVE_TIMER_US) };
	struct relayd_session_reply sr;
	unsigned int i;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	r->ctrl = relayd_dial(r, r->port, why, len);
	if (r->ctrl < 0)
		return -1;
	r->data = relayd_dial(r, r->data_port, why, len);
	if (r->data < 0)
		goto fail;
	if (relayd_cmd(r, RELAYD_VERSION, &v, sizeof(v), NULL, 0, &v, sizeof(v)))
		goto fail_errno;
	if (be32toh(v.major) != RELAYD_MAJOR) {
		snprintf(why, len, "relayd speaks protocol %u.%u, not 2.x",
			 be32toh(v.major), be32toh(v.minor));
		goto fail;
	}
	snprintf(cs.session_name, sizeof(cs.session_name), "%s", r->session);
	snprintf(cs.hostname, sizeof(cs.hostname), "%s", r->hostname);
	if (relayd_cmd(r, RELAYD_CREATE_SESSION, &cs, sizeof(cs), NULL, 0, &sr,
		       sizeof(sr)))
		goto fail_errno;
	if (be32toh(sr.ret_code) != RELAYD_OK) {
		snprintf(why, len, "relayd refused session %s", r->session);
		goto fail;
	}
	/* HOST/SESSION-DATE-TIME, -2, -3 ... for the connections after */
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	r->st.connections++;
	if (r->st.connections == 1)
		snprintf(r->base, sizeof(r->base), "%s/%s-%s", r->hostname,
			 r->session, stamp);
	else
		snprintf(r->base, sizeof(r->base), "%s/%s-%s-%u", r->hostname,
			 r->session, stamp, r->st.connections);
	r->meta_handle = relayd_add_stream(r, "metadata");
	if (!r->meta_handle)
		goto fail_errno;
	if (r->meta_len && relayd_send_metadata(r, r->meta, r->meta_len))
		goto fail_errno;
	/*
	 * No STREAMS_SENT yet: viewers see the session once it has a data
	 * stream (babeltrace2 2.0 fails on a trace of metadata alone).
	 */
	for (i = 0; i < r->n_streams; i++)
		r->streams[i] = (struct relayd_stream){ 0 };
	return 0;

fail_errno:
	snprintf(why, len, "%s", strerror(errno));
fail:
	relayd_hang_up(r);
	return -1;
}

/* "HOST", "HOST:PORT", "[V6ADDR]:PORT" */
static int relayd_parse_url(struct relayd *r, const char *url)
{
	const char *colon, *host = url, *end;
	unsigned long port = RELAYD_CONTROL_PORT;
	size_t n;

	if (!strncmp(url, "tcp://", 6))
		host = url + 6;
	if (*host == '[') {
		end = strchr(host, ']');
		if (!end)
			return -1;
		host++;
		colon = end[1] == ':' ? end + 1 : NULL;
	} else {
		colon = strrchr(host, ':');
		end = colon ? colon : host + strlen(host);
	}
	n = end - host;
	if (!n || n >= sizeof(r->host))
		return -1;
	memcpy(r->host, host, n);
	r->host[n] = '\0';
	if (colon) {
		char *e;

		port = strtoul(colon + 1, &e, 10);
		if (*e || !port || port > 65534)
			return -1;
	}
	snprintf(r->port, sizeof(r->port), "%lu", port);
	snprintf(r->data_port, sizeof(r->data_port), "%lu", port + 1);
	return 0;
}

struct relayd *relayd_open(const struct relayd_opts *opts)
{
	struct relayd *r = calloc(1, sizeof(*r));
	const char *env;
	char why[256] = "";

	if (!r) {
		fprintf(stderr, "%s: out of memory\n", opts->prog);
		return NULL;
	}
	r->o = *opts;
	r->ctrl = r->data = -1;
	if (relayd_parse_url(r, opts->url)) {
		fprintf(stderr, "%s: --relayd %s: give HOST or HOST:PORT (the control port; data goes to PORT+1)\n",
			opts->prog, opts->url);
		free(r);
		return NULL;
	}
	snprintf(r->session, sizeof(r->session), "%s",
		 opts->session ? opts->session : "ltt");
	if (opts->hostname)
		snprintf(r->hostname, sizeof(r->hostname), "%s", opts->hostname);
	else if (gethostname(r->hostname, sizeof(r->hostname) - 1) ||
		 !r->hostname[0])
		strcpy(r->hostname, "localhost");
	if (strchr(r->session, '/') || strchr(r->hostname, '/') ||
	    !r->session[0]) {
		fprintf(stderr, "%s: session and host names are directory names: no '/'\n",
			opts->prog);
		free(r);
		return NULL;
	}
	env = getenv("LTT_RELAYD_RETRY_MS");
	r->retry_ms = env ? strtoul(env, NULL, 10) : 1000;
	env = getenv("LTT_RELAYD_CUT_AFTER");
	r->cut_after = env ? strtoull(env, NULL, 10) : 0;
	if (relayd_connect(r, why, sizeof(why))) {
		relayd_say(r, "cannot connect: %s (is lttng-relayd running there?)", why);
		free(r);
		return NULL;
	}
	if (!opts->quiet)
		relayd_say(r, "streaming session %s of host %s into %s",
			   r->session, r->hostname, r->base);
	return r;
}

/* The id of the last "event {" block of @text: our writer's layout. */
static unsigned int meta_last_id(const char *text, size_t len, size_t from,
				 unsigned int after, size_t *first_after)
{
	const char *p = text + from, *end = text + len, *ev, *id;
	unsigned int last = 0, v;

	*first_after = len;
	while (p < end && (ev = memmem(p, end - p, "event {", 7))) {
		id = memmem(ev, end - ev, "\tid = ", 6);
		if (!id)
			break;
		v = strtoul(id + 6, NULL, 10);
		if (v > after && *first_after == len)
			*first_after = ev - text;
		if (v > last)
			last = v;
		p = id + 6;
	}
	return last;
}

/*
 * Our clock reads CLOCK_MONOTONIC with the wall-clock offset: marked
 * absolute, babeltrace2 merges it with other machines' traces.
 */
static char *meta_absolute(const char *text, size_t len, size_t *out_len)
{
	static const char add[] = "\tabsolute = true;\n";
	const char *clock = memmem(text, len, "clock {\n", 8), *close;
	char *out;
	size_t at;

	close = clock ? memmem(clock, len - (clock - text), "};", 2) : NULL;
	if (!clock || !close ||
	    memmem(clock, close - clock, "absolute", 8)) {
		out = malloc(len ? len : 1);
		if (out)
			memcpy(out, text, len);
		*out_len = len;
		return out;
	}
	at = clock - text + 8;
	out = malloc(len + sizeof(add) - 1);
	if (!out)
		return NULL;
	memcpy(out, text, at);
	memcpy(out + at, add, sizeof(add) - 1);
	memcpy(out + at + sizeof(add) - 1, text + at, len - at);
	*out_len = len + sizeof(add) - 1;
	return out;
}

int relayd_metadata(struct relayd *r, const char *text, size_t len)
{
	static const char sig[] = "/* CTF 1.8 */\n";
	size_t from, add_len;
	unsigned int last;
	char *grown;

	if (!r->meta) {
		r->meta = meta_absolute(text, len, &r->meta_len);
		if (!r->meta)
			return -1;
		r->meta_max_id = meta_last_id(r->meta, r->meta_len, 0, 0, &from);
		if (r->ctrl >= 0 && relayd_send_metadata(r, r->meta, r->meta_len))
			relayd_broke(r, "sending the metadata");
		return 0;
	}
	/*
	 * The writer puts new event types last, in id order: append them,
	 * behind the signature babeltrace2's lttng-live wants at the start
	 * of every piece of text metadata it is sent.
	 */
	last = meta_last_id(text, len, 0, r->meta_max_id, &from);
	if (last <= r->meta_max_id)
		return 0;
	add_len = sizeof(sig) - 1 + len - from;
	grown = realloc(r->meta, r->meta_len + add_len);
	if (!grown)
		return -1;
	memcpy(grown + r->meta_len, sig, sizeof(sig) - 1);
	memcpy(grown + r->meta_len + sizeof(sig) - 1, text + from, len - from);
	if (r->ctrl >= 0 &&
	    relayd_send_metadata(r, grown + r->meta_len, add_len))
		relayd_broke(r, "sending appended metadata");
	r->meta = grown;
	r->meta_len += add_len;
	r->meta_max_id = last;
	return 0;
}

static struct relayd_stream *relayd_stream_of(struct relayd *r,
					      unsigned int cpu)
{
	struct relayd_stream *s;

	if (cpu >= r->n_streams) {
		if (cpu >= 65536)
			return NULL;
		s = realloc(r->streams, (cpu + 1) * sizeof(*s));
		if (!s)
			return NULL;
		memset(s + r->n_streams, 0, (cpu + 1 - r->n_streams) * sizeof(*s));
		r->streams = s;
		r->n_streams = cpu + 1;
	}
	return &r->streams[cpu];
}

static int relayd_index(struct relayd *r, const struct relayd_stream *s,
			const struct ltt_packet_header *h, uint64_t seq,
			uint64_t beacon_ts)
{
	struct relayd_index ix = {
		.relay_stream_id = htobe64(s->handle),
		.net_seq_num = htobe64(seq),
	};

	if (h) {
		ix.packet_size = htobe64(h->packet_size);
		ix.content_size = htobe64(h->content_size);
		ix.timestamp_begin = htobe64(h->timestamp_begin);
		ix.timestamp_end = htobe64(h->timestamp_end);
		ix.events_discarded = htobe64(h->events_discarded);
		ix.stream_id = htobe64(h->stream_id);
		ix.stream_instance_id = htobe64(h->cpu_id);
		ix.packet_seq_num = htobe64(h->packet_seq_num);
	} else {
		ix.timestamp_end = htobe64(beacon_ts);
	}
	return relayd_cmd_ok(r, RELAYD_SEND_INDEX, &ix, sizeof(ix));
}

/* Try the connection again when its time has come. */
static void relayd_retry(struct relayd *r)
{
	char why[256] = "";

	if (r->ctrl >= 0 || mono_ns() < r->retry_at)
		return;
	/*
	 * A stalled relayd accepts connections and never answers: each try
	 * holds the caller up to RELAYD_TIMEOUT_S, so the tries thin out,
	 * the wait doubling up to 16 times LTT_RELAYD_RETRY_MS.
	 */
	if (relayd_connect(r, why, sizeof(why))) {
		if (r->failed_retries < 4)
			r->failed_retries++;
		r->retry_at = mono_ns() +
			      (r->retry_ms * 1000000ULL << r->failed_retries);
		return;
	}
	r->failed_retries = 0;
	relayd_say(r, "connected again: %llu packets (%llu events) were not sent; now into %s",
		   (unsigned long long)r->down_packets,
		   (unsigned long long)r->down_events, r->base);
	r->down_packets = r->down_events = 0;
}

static void relayd_unsent(struct relayd *r, const struct ltt_packet_header *h)
{
	r->st.unsent_packets++;
	r->st.unsent_events += h->events;
	r->down_packets++;
	r->down_events += h->events;
}

bool relayd_header(const void *pkt, struct ltt_packet_header *h)
{
	memcpy(h, pkt, sizeof(*h));
	if (h->magic == LTT_PACKET_MAGIC)
		return true;
	if (h->magic != bswap_32(LTT_PACKET_MAGIC))
		return false;
	h->magic = LTT_PACKET_MAGIC;
	h->stream_id = bswap_32(h->stream_id);
	h->timestamp_begin = bswap_64(h->timestamp_begin);
	h->timestamp_end = bswap_64(h->timestamp_end);
	h->content_size = bswap_64(h->content_size);
	h->packet_size = bswap_64(h->packet_size);
	h->packet_seq_num = bswap_64(h->packet_seq_num);
	h->events_discarded = bswap_64(h->events_discarded);
	h->cpu_id = bswap_32(h->cpu_id);
	h->events = bswap_32(h->events);
	h->pid = (int32_t)bswap_32((uint32_t)h->pid);
	return true;
}

int relayd_packet(struct relayd *r, unsigned int cpu, const void *pkt,
		  size_t size)
{
	struct relayd_stream *s = relayd_stream_of(r, cpu);
	struct ltt_packet_header hc;
	const struct ltt_packet_header *h = &hc;
	struct relayd_data_hdr dh;
	struct iovec iov[2];
	struct pollfd pfd;
	char name[32];

	/* A packet as the kernel wrote it, in either byte order (ltt send). */
	if (!s || size < sizeof(hc) || !relayd_header(pkt, &hc) ||
	    h->packet_size / 8 != size || h->content_size > h->packet_size) {
		relayd_say(r, "cpu %u: a packet of %zu bytes that its header does not describe",
			   cpu, size);
		return -1;
	}
	if (r->cut_after && !r->cut_done && r->st.packets == r->cut_after) {
		/* LTT_RELAYD_CUT_AFTER=N: the link breaks after N packets */
		r->cut_done = true;
		shutdown(r->ctrl, SHUT_RDWR);
		shutdown(r->data, SHUT_RDWR);
	}
	relayd_retry(r);
	if (r->ctrl < 0) {
		relayd_unsent(r, h);
		return 0;
	}
	/* A link too slow to take the packet now: drop it, count it. */
	pfd = (struct pollfd){ .fd = r->data, .events = POLLOUT };
	if (poll(&pfd, 1, 0) == 0) {
		relayd_unsent(r, h);
		return 0;
	}
	if (!s->handle) {
		snprintf(name, sizeof(name), LTT_STREAM_FMT, cpu);
		s->handle = relayd_add_stream(r, name);
		if (!s->handle || relayd_cmd_ok(r, RELAYD_STREAMS_SENT, NULL, 0)) {
			s->handle = 0;
			relayd_broke(r, "adding a stream");
			relayd_unsent(r, h);
			return 0;
		}
	}
	dh = (struct relayd_data_hdr){
		.stream_id = htobe64(s->handle),
		.net_seq_num = htobe64(s->next_seq),
		.data_size = htobe32(size),
	};
	iov[0] = (struct iovec){ &dh, sizeof(dh) };
	iov[1] = (struct iovec){ (void *)pkt, size };
	if (send_all(r->data, iov, 2)) {
		relayd_broke(r, "sending a packet");
		relayd_unsent(r, h);
		return 0;
	}
	if (relayd_index(r, s, h, s->next_seq, 0)) {
		/* sent whole, no answer: relayd may yet write it */
		bool doubt = r->asked;

		relayd_broke(r, doubt ? "no reply to a packet's index" :
					"sending a packet's index");
		if (doubt) {
			r->st.doubt_packets++;
			r->st.doubt_events += h->events;
		} else {
			relayd_unsent(r, h);
		}
		return 0;
	}
	s->next_seq++;
	s->last_end = h->timestamp_end;
	s->busy = true;
	r->st.packets++;
	r->st.events += h->events;
	r->st.bytes += size;
	return 0;
}

void relayd_idle(struct relayd *r, uint64_t ts)
{
	unsigned int i;

	relayd_retry(r);
	for (i = 0; r->ctrl >= 0 && i < r->n_streams; i++) {
		struct relayd_stream *s = &r->streams[i];

		if (!s->handle || !s->next_seq)
			continue;	/* relayd takes beacons after a packet */
		if (s->busy) {
			s->busy = false;
			continue;
		}
		if (relayd_index(r, s, NULL, s->next_seq - 1,
				 ts > s->last_end ? ts : s->last_end))
			relayd_broke(r, "sending a beacon");
	}
}

void relayd_get_stats(const struct relayd *r, struct relayd_stats *st)
{
	*st = r->st;
}

int relayd_close(struct relayd *r, uint64_t ts, struct relayd_stats *st)
{
	unsigned int i;
	int ret;

	relayd_retry(r);
	for (i = 0; r->ctrl >= 0 && i < r->n_streams; i++) {
		struct relayd_stream *s = &r->streams[i];
		struct relayd_close_stream c;

		if (!s->handle)
			continue;
		c.stream_id = htobe64(s->handle);
		c.last_net_seq_num = htobe64(s->next_seq ? s->next_seq - 1 : 0);
		if ((s->next_seq &&
		     relayd_index(r, s, NULL, s->next_seq - 1,
				  ts > s->last_end ? ts : s->last_end)) ||
		    relayd_cmd_ok(r, RELAYD_CLOSE_STREAM, &c, sizeof(c)))
			relayd_broke(r, "closing the streams");
	}
	if (r->ctrl >= 0) {
		struct relayd_close_stream c = { htobe64(r->meta_handle), 0 };

		if (relayd_cmd_ok(r, RELAYD_CLOSE_STREAM, &c, sizeof(c)))
			relayd_broke(r, "closing the metadata stream");
	}
	relayd_hang_up(r);
	if (!r->o.quiet || r->st.unsent_packets || r->st.doubt_packets)
		relayd_say(r, "%llu packets (%llu events, %llu bytes) sent, %llu packets (%llu events) not sent%s",
			   (unsigned long long)r->st.packets,
			   (unsigned long long)r->st.events,
			   (unsigned long long)r->st.bytes,
			   (unsigned long long)r->st.unsent_packets,
			   (unsigned long long)r->st.unsent_events,
			   r->st.connections > 1 ? ", over more than one connection" : "");
	if (r->st.doubt_packets)
		relayd_say(r, "%llu packets (%llu events) sent but never acknowledged: relayd may have them",
			   (unsigned long long)r->st.doubt_packets,
			   (unsigned long long)r->st.doubt_events);
	ret = r->st.unsent_packets || r->st.doubt_packets ? 1 : 0;
	if (st)
		*st = r->st;
	free(r->streams);
	free(r->meta);
	free(r);
	return ret;
}
