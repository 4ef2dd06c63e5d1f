// SPDX-License-Identifier: GPL-2.0
/*
 * bswap-trace IN OUT: write trace IN in the other byte order into OUT
 * (a little-endian trace becomes the big-endian one a powerpc or s390x
 * kernel would have written, and back).  Tests only: tests/endian.sh.
 */
#include <stdio.h>
#include <string.h>

#include "bswap.h"

int main(int argc, char **argv)
{
	char err[4608];

	if (argc != 3 || !strcmp(argv[1], "-h")) {
		fprintf(stderr, "usage: bswap-trace IN_TRACE OUT_DIR\n");
		return 2;
	}
	if (bswap_trace(argv[1], argv[2], err, sizeof(err))) {
		fprintf(stderr, "bswap-trace: %s\n", err);
		return 1;
	}
	return 0;
}
