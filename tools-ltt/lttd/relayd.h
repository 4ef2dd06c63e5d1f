/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A producer of LTTng's relay daemon protocol, version 2.10: lttd,
 * `ltt record` and `ltt send` stream a trace to lttng-relayd, where
 * babeltrace2's lttng-live source watches it and whence relayd writes a
 * trace directory that ltt and babeltrace2 read.
 *
 * The sender never waits long for relayd: a packet it cannot send at
 * once (a slow link) or at all (a broken one) is counted and dropped,
 * and a broken connection is made again, into a new trace directory of
 * relayd, every LTT_RELAYD_RETRY_MS (1000) ms.  lttd(8) describes it.
 */
#ifndef LTT_LTTD_RELAYD_H
#define LTT_LTTD_RELAYD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ltt_packet_header;

#define RELAYD_CONTROL_PORT	5342	/* lttng-relayd's defaults */
#define RELAYD_DATA_PORT	5343
#define RELAYD_LIVE_PORT	5344

struct relayd_opts {
	const char *prog;		/* for messages */
	const char *url;		/* HOST[:PORT]: the control port, data next */
	const char *session;		/* NULL: "ltt" */
	const char *hostname;		/* NULL: this machine's name */
	bool quiet;			/* no messages but errors */
};

/* What reached relayd, and what did not. */
struct relayd_stats {
	uint64_t packets, events, bytes;	/* acknowledged by relayd */
	uint64_t unsent_packets, unsent_events;	/* counted, dropped */
	/* sent whole, but the link broke before relayd said it had them */
	uint64_t doubt_packets, doubt_events;
	unsigned int connections;		/* 1 + reconnections */
};

struct relayd;

/* Connect and create the session; NULL with a message on stderr. */
struct relayd *relayd_open(const struct relayd_opts *opts);
/*
 * The trace's whole metadata text, at the start and whenever it grows
 * (custom events): what relayd lacks of it goes as appended metadata.
 */
int relayd_metadata(struct relayd *r, const char *text, size_t len);
/*
 * One packet of the stream of @cpu, as the kernel wrote it (struct
 * ltt_packet_header first): the data, then its index.  Returns 0 (also
 * when the packet was counted as unsent), -1 on a bad packet.
 */
int relayd_packet(struct relayd *r, unsigned int cpu, const void *pkt,
		  size_t size);
/*
 * The header of the packet at @pkt (at least its size of bytes) in
 * host order, in *@h, from a trace of either byte order; false when its
 * magic is not LTT_PACKET_MAGIC either way.
 */
bool relayd_header(const void *pkt, struct ltt_packet_header *h);
/*
 * Nothing is coming on any stream before trace time @ts: beacons for
 * the streams that have sent nothing since the last call, so that the
 * live viewer moves on; a broken connection is retried here.
 */
void relayd_idle(struct relayd *r, uint64_t ts);
/*
 * The end: final beacons at @ts, every stream closed, the connection
 * closed, a line of totals unless quiet.  Returns 0 when everything
 * reached relayd, 1 otherwise.  Frees @r.
 */
int relayd_close(struct relayd *r, uint64_t ts, struct relayd_stats *st);
void relayd_get_stats(const struct relayd *r, struct relayd_stats *st);

#endif /* LTT_LTTD_RELAYD_H */
