/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel addresses named from a System.map (`nm -n`: ADDR TYPE NAME),
 * moved by the KASLR offset of the boot that recorded the trace, and
 * from the modules that boot listed (prevboot.h): `ltt report --symbols`.
 */
#ifndef LTT_SYMBOLS_H
#define LTT_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "prevboot.h"

struct symbols;

/*
 * Read System.map @map; the trace's boot placed _stext at @pb->stext
 * when @pb has it (@pb may be NULL: no offset).  NULL with a message in
 * @err on failure.
 */
struct symbols *symbols_load(const char *map, const struct prevboot *pb,
			     char *err, size_t len);
/* The KASLR offset applied: the boot's _stext minus the map's. */
int64_t symbols_offset(const struct symbols *s);
/*
 * "func+0x1a" of kernel address @addr, "[module]+0x40" in a module of
 * the boot, or NULL when neither holds it (a user address).  Valid
 * until the next call.
 */
const char *symbols_name(struct symbols *s, uint64_t addr);
void symbols_free(struct symbols *s);

#endif /* LTT_SYMBOLS_H */
