/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DIR/.previous-boot (LTT_PREV_FILE), which lttd --previous-boot writes
 * beside a previous boot's trace: what report prints of the boot, and
 * what symbolization needs (stext, the modules).
 */
#ifndef LTT_PREVBOOT_H
#define LTT_PREVBOOT_H

#include <stdbool.h>
#include <stdint.h>

#define PREVBOOT_MODULES_MAX	1024

struct prevboot_module {
	char name[64];
	uint64_t base, size;
};

struct prevboot {
	char boot_id[40];
	char release[128];
	char end[32];			/* "panic", "none", ... */
	char end_message[256];		/* as the file writes it: escaped */
	bool has_stext;
	uint64_t stext;
	unsigned int n_modules;
	struct prevboot_module *modules;
};

/*
 * Read DIR/.previous-boot into @pb: 1, 0 when there is none, -1 when it
 * cannot be read (errno).  Lines it does not know are skipped.
 */
int prevboot_read(const char *dir, struct prevboot *pb);
void prevboot_free(struct prevboot *pb);

#endif /* LTT_PREVBOOT_H */
