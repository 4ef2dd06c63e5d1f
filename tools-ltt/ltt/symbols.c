// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel addresses named from a System.map (symbols.h).  The map's text
 * symbols (types T, t, W, w) sorted by address; an address is named by
 * the last symbol at or below it, up to the map's last symbol (past it,
 * and below the first, it is no kernel text of the map: a user address,
 * a module's, which the boot's module list names).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols.h"

struct sym {
	uint64_t addr;
	char *name;
};

struct symbols {
	struct sym *v;
	size_t n, room;
	int64_t offset;			/* add to the map's addresses */
	const struct prevboot *pb;	/* its modules; NULL: none */
	char buf[160];
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int sym_add(struct symbols *s, uint64_t addr, const char *name)
{
	if (s->n == s->room) {
		size_t room = s->room ? 2 * s->room : 4096;
		struct sym *v = realloc(s->v, room * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->room = room;
	}
	s->v[s->n].addr = addr;
	s->v[s->n].name = strdup(name);
	if (!s->v[s->n].name)
		return -1;
	s->n++;
	return 0;
}

struct symbols *symbols_load(const char *map, const struct prevboot *pb,
			     char *err, size_t len)
{
	struct symbols *s = calloc(1, sizeof(*s));
	char line[512], type, name[256];
	bool has_stext = false;
	uint64_t addr, stext = 0;
	unsigned int lineno = 0;
	FILE *f;

	if (!s) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	f = fopen(map, "re");
	if (!f) {
		snprintf(err, len, "%s: %s", map, strerror(errno));
		free(s);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3) {
			snprintf(err, len, "%s:%u: not a System.map line (ADDR TYPE NAME, as nm -n prints)",
				 map, lineno);
			goto fail;
		}
		if (!strcmp(name, "_stext")) {
			stext = addr;
			has_stext = true;
		}
		if (strchr("TtWw", type) && sym_add(s, addr, name)) {
			snprintf(err, len, "out of memory");
			goto fail;
		}
	}
	fclose(f);
	f = NULL;
	if (!s->n) {
		snprintf(err, len, "%s: no text symbol", map);
		goto fail;
	}
	if (pb && pb->has_stext && !has_stext) {
		snprintf(err, len, "%s: no _stext, so no KASLR offset for the boot's stext %#" PRIx64,
			 map, pb->stext);
		goto fail;
	}
	if (pb && pb->has_stext)
		s->offset = (int64_t)(pb->stext - stext);
	s->pb = pb;
	qsort(s->v, s->n, sizeof(*s->v), sym_cmp);
	return s;

fail:
	if (f)
		fclose(f);
	symbols_free(s);
	return NULL;
}

int64_t symbols_offset(const struct symbols *s)
{
	return s->offset;
}

const char *symbols_name(struct symbols *s, uint64_t addr)
{
	uint64_t a = addr - (uint64_t)s->offset;
	size_t lo = 0, hi = s->n;
	unsigned int i;

	for (i = 0; s->pb && i < s->pb->n_modules; i++) {
		const struct prevboot_module *m = &s->pb->modules[i];

		if (addr >= m->base && addr - m->base < m->size) {
			snprintf(s->buf, sizeof(s->buf), "[%s]+%#" PRIx64,
				 m->name, addr - m->base);
			return s->buf;
		}
	}
	if (a < s->v[0].addr || a > s->v[s->n - 1].addr)
		return NULL;
	/* the last symbol at or below a */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].addr <= a)
			lo = mid;
		else
			hi = mid;
	}
	if (a == s->v[lo].addr)
		snprintf(s->buf, sizeof(s->buf), "%s", s->v[lo].name);
	else
		snprintf(s->buf, sizeof(s->buf), "%s+%#" PRIx64, s->v[lo].name,
			 a - s->v[lo].addr);
	return s->buf;
}

void symbols_free(struct symbols *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	free(s);
}
