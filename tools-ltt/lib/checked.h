/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Arithmetic on times that come from a trace's files.  A hostile trace
 * may hold any timestamp and any clock offset, and signed overflow is
 * undefined: sums saturate at the int64_t bounds (years 1677 and 2262,
 * which no real trace reaches), so that a nonsense time prints as a
 * bound instead of wrapping around.  Shared by libltt and ltt.
 */
#ifndef LTT_LIB_CHECKED_H
#define LTT_LIB_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

/* @a + @b, saturated. */
static inline int64_t ltt_sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b < 0 ? INT64_MIN : INT64_MAX;
	return r;
}

/* @a - @b, saturated. */
static inline int64_t ltt_sat_sub(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* Wall-clock ns of trace time @ts (unsigned, any value): @ts + @offset. */
static inline int64_t ltt_wall_ns(uint64_t ts, int64_t offset)
{
	int64_t r;

	/* the true sum is at least INT64_MIN: only too large overflows */
	if (__builtin_add_overflow(ts, offset, &r))
		return INT64_MAX;
	return r;
}

/* *@ns = @secs * 10^9 + @frac; false when it does not fit. */
static inline bool ltt_secs_to_ns(int64_t secs, int64_t frac, int64_t *ns)
{
	return !__builtin_mul_overflow(secs, 1000000000, ns) &&
	       !__builtin_add_overflow(*ns, frac, ns);
}

#endif /* LTT_LIB_CHECKED_H */
