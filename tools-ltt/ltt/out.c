// SPDX-License-Identifier: GPL-2.0
/*
 * Fast text output for ltt report (see out.h).
 */
#include <errno.h>
#include <unistd.h>

#include "out.h"

void out_flush(struct out *o)
{
	const char *p = o->buf;
	size_t left = o->len;

	while (left && !o->failed) {
		ssize_t n = write(o->fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->failed = true;
			o->error = n < 0 ? errno : ENOSPC;
			break;
		}
		p += n;
		left -= n;
	}
	o->len = 0;
}
