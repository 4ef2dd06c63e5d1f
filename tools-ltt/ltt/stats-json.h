/* SPDX-License-Identifier: GPL-2.0 */
/* ltt stats --json (stats-json.c). */
#ifndef LTT_STATS_JSON_H
#define LTT_STATS_JSON_H

#include <stdio.h>

#include "analysis.h"

/* The figures of @st as one JSON object and a newline on @f. */
void stats_print_json(FILE *f, const struct stats *st, const struct ltt_trace *t);

#endif /* LTT_STATS_JSON_H */
