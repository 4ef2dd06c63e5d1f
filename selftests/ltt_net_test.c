// SPDX-License-Identifier: GPL-2.0
/*
 * Sockets and the network: socket calls and creation (derived from the
 * system calls), bytes sent and received, and packets through loopback.
 * Each test makes the event happen and checks its fields.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "ltt_workload.h"

FIXTURE(net) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

FIXTURE_SETUP(net)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, NULL);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(net)
{
	ltt_session_close(&self->s);
}

/* socket() gives socket_create with the type and the fd. */
TEST_F(net, socket_gives_socket_create_with_type_and_fd)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	int udp, tcp;

	FILTER_SELF();
	FILTER_EVENTS("socket_create");
	START();
	udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	tcp = socket(AF_INET, SOCK_STREAM, 0);
	STOP_AND_READ(&t);
	ASSERT_LE(0, udp);
	ASSERT_LE(0, tcp);
	close(udp);
	close(tcp);

	ASSERT_EQ((size_t)2, t.n) TH_LOG("socket_create records for two socket() calls");
	EXPECT_EQ(SOCK_DGRAM, FIELD(&t.ev[0], "type"))
		TH_LOG("the type without SOCK_CLOEXEC");
	EXPECT_EQ(udp, FIELD(&t.ev[0], "fd"));
	EXPECT_EQ(SOCK_STREAM, FIELD(&t.ev[1], "type"));
	EXPECT_EQ(tcp, FIELD(&t.ev[1], "fd"));
	ltt_trace_free(&t);
}

/*
 * bind, connect, sendto and recvfrom give socket_call with the SYS_*
 * number and the fd; sendto and recvfrom of 100 bytes give socket_send
 * and socket_receive with the socket type and 100.
 */
TEST_F(net, udp_exchange_gives_socket_calls_and_bytes_sent_and_received)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	struct ltt_trace t = { 0 };
	char buf[100] = { 0 };
	int rx, tx;
	size_t i, n_call = 0, n_send = 0, n_recv = 0;

	WORK(ltt_lo_up());
	rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, rx);
	ASSERT_LE(0, tx);
	FILTER_SELF();
	FILTER_EVENTS("socket_call", "socket_send", "socket_receive");
	START();
	ASSERT_EQ(0, bind(rx, (struct sockaddr *)&a, sizeof(a)));
	ASSERT_EQ(0, getsockname(rx, (struct sockaddr *)&a, &alen));
	ASSERT_EQ(0, connect(tx, (struct sockaddr *)&a, sizeof(a)));
	ASSERT_EQ(100, sendto(tx, buf, 100, 0, NULL, 0));
	ASSERT_EQ(100, recvfrom(rx, buf, sizeof(buf), 0, NULL, NULL));
	STOP_AND_READ(&t);
	close(rx);
	close(tx);

	for (i = 0; i < t.n; i++) {
		static const struct { int call; bool rx; } want[] = {
			{ LTT_SYS_BIND, true }, { 6 /* GETSOCKNAME */, true },
			{ LTT_SYS_CONNECT, false }, { LTT_SYS_SENDTO, false },
			{ LTT_SYS_RECVFROM, true },
		};
		const struct ltt_event *ev = &t.ev[i];

		if (IS(ev, "socket_call")) {
			if (n_call < ARRAY_SIZE(want)) {
				EXPECT_EQ(want[n_call].call, FIELD(ev, "call"))
					TH_LOG("socket call %zu", n_call);
				EXPECT_EQ(want[n_call].rx ? rx : tx,
					  FIELD(ev, "fd"))
					TH_LOG("socket call %zu (%lld)", n_call,
					       (long long)FIELD(ev, "call"));
			}
			n_call++;
		} else if (IS(ev, "socket_send")) {
			n_send++;
			EXPECT_EQ(SOCK_DGRAM, FIELD(ev, "type"));
			EXPECT_EQ(100, FIELD(ev, "bytes"));
		} else {
			n_recv++;
			EXPECT_EQ(SOCK_DGRAM, FIELD(ev, "type"));
			EXPECT_EQ(100, FIELD(ev, "bytes"));
		}
	}
	EXPECT_EQ((size_t)5, n_call) TH_LOG("bind, getsockname, connect, sendto, recvfrom");
	EXPECT_EQ((size_t)1, n_send);
	EXPECT_EQ((size_t)1, n_recv);
	ltt_trace_free(&t);
}

/*
 * socketpair() takes no fd: its socket_call names the first of the two
 * it makes, read at the exit through its fourth argument (which MIPS
 * overwrites with the error flag, a3, on the way out), not its first
 * argument (the domain, AF_UNIX = 1, which reads as stdout).
 */
TEST_F(net, socketpair_gives_socket_call_with_one_of_its_fds)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	int sv[2];

	FILTER_SELF();
	FILTER_EVENTS("socket_call");
	START();
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	STOP_AND_READ(&t);
	close(sv[0]);
	close(sv[1]);

	ASSERT_EQ((size_t)1, t.n) TH_LOG("socket_call records for one socketpair()");
	EXPECT_EQ(8 /* SYS_SOCKETPAIR */, FIELD(&t.ev[0], "call"));
	EXPECT_EQ(sv[0], FIELD(&t.ev[0], "fd"))
		TH_LOG("socketpair() made fds %d and %d", sv[0], sv[1]);
	ltt_trace_free(&t);
}

/*
 * A UDP packet through lo: net_packet_out, then net_packet_in, both of
 * protocol ETH_P_IP.  (IPv6 may send packets of its own on lo: they are
 * counted apart.)
 */
TEST_F(net, loopback_udp_packet_gives_packet_out_then_in_of_ipv4)
{
	const struct ltt_registry *reg = &self->s.reg;
	const struct ltt_event *out = NULL, *in = NULL;
	size_t i, n_out = 0, n_in = 0, other = 0;
	struct ltt_trace t = { 0 };

	WORK(ltt_lo_up());
	FILTER_EVENTS("net_packet_out", "net_packet_in");
	START();
	WORK(ltt_work_udp(100));
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];

		if (FIELD(ev, "protocol") != LTT_ETH_P_IP) {
			TH_LOG("%s of protocol %#llx", reg->ev[ev->id].name,
			       (unsigned long long)FIELD(ev, "protocol"));
			other++;
		} else if (IS(ev, "net_packet_out")) {
			out = ev;
			n_out++;
		} else {
			in = ev;
			n_in++;
		}
	}
	if (other)
		TH_LOG("%zu packets of other protocols, not counted", other);
	EXPECT_EQ((size_t)1, n_out) TH_LOG("IPv4 packets out, for one UDP datagram");
	EXPECT_EQ((size_t)1, n_in) TH_LOG("IPv4 packets in, for one UDP datagram");
	ASSERT_NE(NULL, out);
	ASSERT_NE(NULL, in);
	EXPECT_LE(out->ts, in->ts) TH_LOG("the packet came in before it went out");
	ltt_trace_free(&t);
}

TEST_HARNESS_MAIN
