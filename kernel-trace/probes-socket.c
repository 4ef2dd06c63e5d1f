// SPDX-License-Identifier: GPL-2.0
/*
 * LTT socket events: socket calls and creation, derived from the system
 * calls (native ones only, by probes-syscall.c), and bytes sent and
 * received, from the sock tracepoints.
 */
#include <linux/net.h>
#include <linux/uaccess.h>
#include <net/sock.h>
#include <asm/unistd.h>
#include <trace/events/sock.h>

#include "internal.h"

/* The SYS_* call of <linux/net.h> a system call makes, or 0. */
static unsigned int ltt_socket_call(long nr)
{
	switch (nr) {
#ifdef __NR_bind
	case __NR_bind:	return SYS_BIND;
#endif
#ifdef __NR_connect
	case __NR_connect:	return SYS_CONNECT;
#endif
#ifdef __NR_listen
	case __NR_listen:	return SYS_LISTEN;
#endif
#ifdef __NR_accept
	case __NR_accept:	return SYS_ACCEPT;
#endif
#ifdef __NR_accept4
	case __NR_accept4:	return SYS_ACCEPT4;
#endif
#ifdef __NR_getsockname
	case __NR_getsockname:	return SYS_GETSOCKNAME;
#endif
#ifdef __NR_getpeername
	case __NR_getpeername:	return SYS_GETPEERNAME;
#endif
#ifdef __NR_socketpair
	case __NR_socketpair:	return SYS_SOCKETPAIR;
#endif
#ifdef __NR_sendto
	case __NR_sendto:	return SYS_SENDTO;
#endif
#ifdef __NR_recvfrom
	case __NR_recvfrom:	return SYS_RECVFROM;
#endif
#ifdef __NR_shutdown
	case __NR_shutdown:	return SYS_SHUTDOWN;
#endif
#ifdef __NR_setsockopt
	case __NR_setsockopt:	return SYS_SETSOCKOPT;
#endif
#ifdef __NR_getsockopt
	case __NR_getsockopt:	return SYS_GETSOCKOPT;
#endif
#ifdef __NR_sendmsg
	case __NR_sendmsg:	return SYS_SENDMSG;
#endif
#ifdef __NR_recvmsg
	case __NR_recvmsg:	return SYS_RECVMSG;
#endif
#ifdef __NR_sendmmsg
	case __NR_sendmmsg:	return SYS_SENDMMSG;
#endif
#ifdef __NR_recvmmsg
	case __NR_recvmmsg:	return SYS_RECVMMSG;
#endif
	}
	return 0;
}

/*
 * The event of socket call @call (of <linux/net.h>) with arguments @a,
 * as many as it needs: socket() its type, socketpair() its fds, the
 * others their fd.
 */
static void ltt_socket_log(unsigned int call, const unsigned long *a,
			   long ret)
{
	struct ltt_rec_socket_call rec = { .call = call, .fd = a[0] };
	int sv[2];

	if (call == SYS_SOCKET) {
		struct ltt_rec_socket_create sock = {
			.type = a[1] & SOCK_TYPE_MASK,
			.fd = ret,
		};

		ltt_log_socket_create(&sock);
		return;
	}
	/* socketpair() has no fd argument: name the first it made. */
	if (call == SYS_SOCKETPAIR)
		rec.fd = ret < 0 || copy_from_user_nofault(sv,
				(void __user *)a[3], sizeof(sv)) ? -1 : sv[0];
	ltt_log_socket_call(&rec);
}

#ifdef __NR_socketcall
/*
 * socketcall(2): @a[0] the call, @a[1] the user array of its arguments,
 * of which only those ltt_socket_log() reads are fetched.
 */
static void ltt_socketcall_exit(const unsigned long *a, long ret)
{
	unsigned long args[4];
	unsigned int call = a[0], n = 1;

	if (call < SYS_SOCKET || call > SYS_SENDMMSG)
		return;
	if (call == SYS_SOCKET)
		n = 2;
	else if (call == SYS_SOCKETPAIR)
		n = 4;
	if (copy_from_user_nofault(args, (void __user *)a[1],
				   n * sizeof(args[0])))
		return;
	ltt_socket_log(call, args, ret);
}
#endif

/**
 * ltt_socket_exit - the socket events of a native system call at its exit
 * @nr: the system call
 * @a: its arguments
 * @ret: its return value
 *
 * socketcall(2), the multiplexer that the C library still calls on
 * i386, ppc32, s390 and sh, is decoded too.
 *
 * Return: whether @nr makes socket events (recorded or not).
 */
bool ltt_socket_exit(long nr, const unsigned long *a, long ret)
{
	unsigned int call;

#ifdef __NR_socketcall
	if (nr == __NR_socketcall) {
		ltt_socketcall_exit(a, ret);
		return true;
	}
#endif
#ifdef __NR_socket
	if (nr == __NR_socket) {
		ltt_socket_log(SYS_SOCKET, a, ret);
		return true;
	}
#endif
	call = ltt_socket_call(nr);
	if (call)
		ltt_socket_log(call, a, ret);
	return call;
}

static void ltt_probe_send(void *data, struct sock *sk, int ret, int flags)
{
	struct ltt_rec_socket_send rec = { .type = sk->sk_type, .bytes = ret };

	ltt_log_socket_send(&rec);
}

static void ltt_probe_recv(void *data, struct sock *sk, int ret, int flags)
{
	struct ltt_rec_socket_receive rec = {
		.type = sk->sk_type,
		.bytes = ret,
	};

	ltt_log_socket_receive(&rec);
}

static int ltt_socket_attach(void)
{
	int ret;

	ret = register_trace_sock_send_length(ltt_probe_send, NULL);
	if (ret)
		return ret;
	ret = register_trace_sock_recv_length(ltt_probe_recv, NULL);
	if (ret)
		unregister_trace_sock_send_length(ltt_probe_send, NULL);
	return ret;
}

static void ltt_socket_detach(void)
{
	unregister_trace_sock_recv_length(ltt_probe_recv, NULL);
	unregister_trace_sock_send_length(ltt_probe_send, NULL);
}

const struct ltt_probe_group ltt_socket_probes = {
	.name	= "socket",
	.attach	= ltt_socket_attach,
	.detach	= ltt_socket_detach,
};
