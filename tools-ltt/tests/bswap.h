/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Convert a trace to the other byte order (tests only): tests/bswap.c.
 */
#ifndef LTT_TESTS_BSWAP_H
#define LTT_TESTS_BSWAP_H

#include <stddef.h>

/*
 * Write trace @in, in the other byte order, into directory @out (made
 * if need be): 0, or -1 with the reason in @err.
 */
int bswap_trace(const char *in, const char *out, char *err, size_t len);

#endif /* LTT_TESTS_BSWAP_H */
