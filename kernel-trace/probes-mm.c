// SPDX-License-Identifier: GPL-2.0
/*
 * LTT probes on memory: page allocation and free.  Swap and page waits
 * have no tracepoint and are direct hooks (<linux/ltt.h>).
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <trace/events/kmem.h>

#include "internal.h"

static void ltt_probe_page_alloc(void *data, struct page *page,
				 unsigned int order, gfp_t gfp, int migratetype)
{
	struct ltt_rec_mm_page_alloc rec = { .order = order };

	if (page)
		ltt_log_mm_page_alloc(&rec);
}

static void ltt_probe_page_free(void *data, struct page *page,
				unsigned int order)
{
	struct ltt_rec_mm_page_free rec = { .order = order };

	ltt_log_mm_page_free(&rec);
}

static int ltt_mm_attach(void)
{
	int ret;

	ret = register_trace_mm_page_alloc(ltt_probe_page_alloc, NULL);
	if (ret)
		return ret;
	ret = register_trace_mm_page_free(ltt_probe_page_free, NULL);
	if (ret)
		unregister_trace_mm_page_alloc(ltt_probe_page_alloc, NULL);
	return ret;
}

static void ltt_mm_detach(void)
{
	unregister_trace_mm_page_free(ltt_probe_page_free, NULL);
	unregister_trace_mm_page_alloc(ltt_probe_page_alloc, NULL);
}

const struct ltt_probe_group ltt_mm_probes = {
	.name	= "mm",
	.attach	= ltt_mm_attach,
	.detach	= ltt_mm_detach,
};
