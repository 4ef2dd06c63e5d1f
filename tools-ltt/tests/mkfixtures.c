// SPDX-License-Identifier: GPL-2.0
/*
 * mkfixtures DIR: write the fixture traces into DIR/basic, DIR/lossy.
 */
#include <stdio.h>
#include <sys/stat.h>

#include "fixtures.h"

int main(int argc, char **argv)
{
	char path[4096];

	if (argc != 2) {
		fprintf(stderr, "usage: mkfixtures DIR\n");
		return 2;
	}
	mkdir(argv[1], 0755);
	snprintf(path, sizeof(path), "%s/basic", argv[1]);
	if (fx_make_basic(path)) {
		fprintf(stderr, "mkfixtures: %s: failed\n", path);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/lossy", argv[1]);
	if (fx_make_lossy(path)) {
		fprintf(stderr, "mkfixtures: %s: failed\n", path);
		return 1;
	}
	return 0;
}
