// SPDX-License-Identifier: GPL-2.0
/*
 * LTT probes on the network: packets in and out.
 */
#include <linux/skbuff.h>
#include <trace/events/net.h>

#include "internal.h"

static void ltt_probe_packet_out(void *data, struct sk_buff *skb)
{
	struct ltt_rec_net_packet_out rec = {
		.protocol = ntohs(skb->protocol),
	};

	ltt_log_net_packet_out(&rec);
}

static void ltt_probe_packet_in(void *data, struct sk_buff *skb)
{
	struct ltt_rec_net_packet_in rec = {
		.protocol = ntohs(skb->protocol),
	};

	ltt_log_net_packet_in(&rec);
}

static int ltt_net_attach(void)
{
	int ret;

	ret = register_trace_net_dev_queue(ltt_probe_packet_out, NULL);
	if (ret)
		return ret;
	ret = register_trace_netif_receive_skb(ltt_probe_packet_in, NULL);
	if (ret)
		unregister_trace_net_dev_queue(ltt_probe_packet_out, NULL);
	return ret;
}

static void ltt_net_detach(void)
{
	unregister_trace_netif_receive_skb(ltt_probe_packet_in, NULL);
	unregister_trace_net_dev_queue(ltt_probe_packet_out, NULL);
}

const struct ltt_probe_group ltt_net_probes = {
	.name	= "net",
	.attach	= ltt_net_attach,
	.detach	= ltt_net_detach,
};
