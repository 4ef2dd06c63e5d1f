// SPDX-License-Identifier: GPL-2.0
/*
 * udp-ping: send COUNT datagrams to oneself over the loopback and read
 * them back, for the demo's workload (scripts/guest/demo-workload.sh):
 * the guest's busybox has an nc without UDP.  Silent when every
 * datagram came back; a message and exit status 1 otherwise.
 *
 *   udp-ping [COUNT]     (default 3)
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static int fail(const char *what)
{
	perror(what);
	return 1;
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	struct timeval timeout = { .tv_sec = 2 };
	socklen_t len = sizeof(addr);
	int count = argc > 1 ? atoi(argv[1]) : 3;
	char buf[64];
	int rx, tx, i;

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || tx < 0)
		return fail("udp-ping: socket");
	/* Port 0: the kernel picks a free one, read back for the sender. */
	if (bind(rx, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(rx, (struct sockaddr *)&addr, &len))
		return fail("udp-ping: bind");
	if (setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)))
		return fail("udp-ping: setsockopt");
	for (i = 0; i < count; i++) {
		int n = snprintf(buf, sizeof(buf), "ping %d", i);

		if (sendto(tx, buf, n, 0, (struct sockaddr *)&addr,
			   sizeof(addr)) != n)
			return fail("udp-ping: sendto");
		if (recv(rx, buf, sizeof(buf), 0) != n)
			return fail("udp-ping: recv");
	}
	close(tx);
	close(rx);
	return 0;
}
