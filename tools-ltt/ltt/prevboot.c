// SPDX-License-Identifier: GPL-2.0
/*
 * DIR/.previous-boot read back (prevboot.h).  libltt writes it from an
 * image it checked, but the file is a text file anyone may have edited:
 * every line is parsed with bounds, and what does not parse is skipped.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt.h>

#include "prevboot.h"

/* @value into @dst of @size bytes, cut to fit. */
static void pb_copy(char *dst, size_t size, const char *value)
{
	snprintf(dst, size, "%s", value);
}

/* "NAME 0xBASE SIZE" of a moduleN= line. */
static void pb_module(struct prevboot *pb, const char *value)
{
	struct prevboot_module m, *grown;
	char name[64];

	if (pb->n_modules >= PREVBOOT_MODULES_MAX ||
	    sscanf(value, "%63s %" SCNx64 " %" SCNu64, name, &m.base,
		   &m.size) != 3)
		return;
	pb_copy(m.name, sizeof(m.name), name);
	grown = realloc(pb->modules, (pb->n_modules + 1) * sizeof(*grown));
	if (!grown)
		return;
	pb->modules = grown;
	pb->modules[pb->n_modules++] = m;
}

int prevboot_read(const char *dir, struct prevboot *pb)
{
	char path[4200], line[1024];
	FILE *f;

	memset(pb, 0, sizeof(*pb));
	snprintf(path, sizeof(path), "%s/%s", dir, LTT_PREV_FILE);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -1;
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '='), *value;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !eq)
			continue;
		*eq = '\0';
		value = eq + 1;
		if (!strcmp(line, "boot_id"))
			pb_copy(pb->boot_id, sizeof(pb->boot_id), value);
		else if (!strcmp(line, "release"))
			pb_copy(pb->release, sizeof(pb->release), value);
		else if (!strcmp(line, "end"))
			pb_copy(pb->end, sizeof(pb->end), value);
		else if (!strcmp(line, "end_message"))
			pb_copy(pb->end_message, sizeof(pb->end_message), value);
		else if (!strcmp(line, "stext"))
			pb->has_stext = sscanf(value, "%" SCNx64, &pb->stext) == 1;
		else if (!strncmp(line, "module", 6))
			pb_module(pb, value);
	}
	fclose(f);
	return 1;
}

void prevboot_free(struct prevboot *pb)
{
	free(pb->modules);
	memset(pb, 0, sizeof(*pb));
}
