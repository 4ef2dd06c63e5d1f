// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libltt error messages: one per thread, the last failure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static __thread char ltt_errbuf[512];

const char *ltt_error(void)
{
	return ltt_errbuf[0] ? ltt_errbuf : "no error";
}

int ltt_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ltt_errbuf, sizeof(ltt_errbuf), fmt, ap);
	va_end(ap);
	return -1;
}

int ltt_fail_errno(const char *fmt, ...)
{
	const char *why = strerror(errno);
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ltt_errbuf, sizeof(ltt_errbuf), fmt, ap);
	va_end(ap);
	n = strlen(ltt_errbuf);
	snprintf(ltt_errbuf + n, sizeof(ltt_errbuf) - n, ": %s", why);
	return -1;
}

int ltt_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}
