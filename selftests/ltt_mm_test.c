// SPDX-License-Identifier: GPL-2.0
/*
 * Memory events: page allocation and free, swap out and in (zram swap,
 * MADV_PAGEOUT), and waits on page I/O.  Each test makes the event happen
 * and checks its fields.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "ltt_workload.h"

#define PAGES	32

FIXTURE(mm) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

/*
 * The test reads its buffer after STOP, and the flush timer closes a
 * packet at every period with events in it: on a slow kernel (KASAN) the
 * block device's read outlasts eight 200 ms periods.
 */
static const struct ltt_create mm_create = {
	.subbuf_size = 16384,
	.n_subbufs = 8,
	.mode = LTT_MODE_DISCARD,
	.flush_ms = 10000,
};

FIXTURE_SETUP(mm)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, &mm_create);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(mm)
{
	ltt_session_close(&self->s);
}

/* Order-0 records of @name on @cpu. */
static size_t order0(const struct ltt_registry *reg, const struct ltt_trace *t,
		     const char *name, unsigned int cpu, size_t *other)
{
	size_t i, n = 0;

	*other = 0;
	for (i = 0; i < t->n; i++) {
		if (!ltt_ev_is(reg, &t->ev[i], name) || t->ev[i].cpu != cpu)
			continue;
		if (ltt_ev_field(reg, &t->ev[i], "order"))
			(*other)++;
		else
			n++;
	}
	return n;
}

/* Touching N fresh anonymous pages allocates N pages of order 0, at least. */
TEST_F(mm, touching_fresh_pages_gives_order_0_page_allocs)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	long ps = ltt_page_size(), i;
	size_t n, other;
	char *p;

	p = mmap(NULL, PAGES * ps, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	FILTER_SELF();
	FILTER_EVENTS("mm_page_alloc");
	START();
	for (i = 0; i < PAGES; i++)
		p[i * ps] = 1;
	STOP_AND_READ(&t);
	munmap(p, PAGES * ps);

	n = order0(reg, &t, "mm_page_alloc", self->cpu, &other);
	EXPECT_LE((size_t)PAGES, n)
		TH_LOG("order-0 page allocations for %d touched pages (%zu of higher order)",
		       PAGES, other);
	for (i = 0; i < (long)t.n; i++)
		EXPECT_GT(11, FIELD(&t.ev[i], "order")) TH_LOG("MAX_PAGE_ORDER is 10");
	ltt_trace_free(&t);
}

/* munmap() of N touched pages frees N pages of order 0, at least. */
TEST_F(mm, munmap_of_touched_pages_gives_order_0_page_frees)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	long ps = ltt_page_size(), i;
	size_t n, other;
	char *p;

	p = mmap(NULL, PAGES * ps, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < PAGES; i++)
		p[i * ps] = 1;
	FILTER_SELF();
	FILTER_EVENTS("mm_page_free");
	START();
	ASSERT_EQ(0, munmap(p, PAGES * ps));
	STOP_AND_READ(&t);

	n = order0(reg, &t, "mm_page_free", self->cpu, &other);
	EXPECT_LE((size_t)PAGES, n)
		TH_LOG("order-0 page frees for %d unmapped pages (%zu of higher order)",
		       PAGES, other);
	ltt_trace_free(&t);
}

/*
 * With swap on zram, MADV_PAGEOUT writes a page out (mm_swap_out with its
 * page frame) and touching it reads it back in (mm_swap_in with the frame
 * of the new page), as /proc/self/pagemap sees them.
 */
TEST_F(mm, pageout_then_touch_gives_swap_out_then_swap_in_with_the_page_frames)
{
	const struct ltt_registry *reg = &self->s.reg;
	unsigned long long pfn_out, pfn_in;
	struct ltt_trace t = { 0 };
	long out = -1, in = -1;
	size_t i, n_out = 0, n_in = 0;
	char *p;

	WORK(ltt_zram_swap_on());
	p = ltt_filled_page();
	ASSERT_NE(NULL, p) TH_LOG("%s", ltt_err);
	pfn_out = ltt_pfn(p);
	ASSERT_NE(0ULL, pfn_out) TH_LOG("no page frame in /proc/self/pagemap (not root?)");
	FILTER_SELF();
	FILTER_EVENTS("mm_swap_out", "mm_swap_in");
	START();
	WORK(ltt_work_swap_out_in(p));
	STOP_AND_READ(&t);
	pfn_in = ltt_pfn(p);

	for (i = 0; i < t.n; i++) {
		if (IS(&t.ev[i], "mm_swap_out")) {
			n_out++;
			out = i;
			EXPECT_EQ(pfn_out, (unsigned long long)FIELD(&t.ev[i], "pfn"))
				TH_LOG("the page frame written out");
		} else {
			n_in++;
			in = i;
			EXPECT_EQ(pfn_in, (unsigned long long)FIELD(&t.ev[i], "pfn"))
				TH_LOG("the page frame read in");
		}
	}
	EXPECT_EQ((size_t)1, n_out) TH_LOG("mm_swap_out records for one page");
	EXPECT_EQ((size_t)1, n_in) TH_LOG("mm_swap_in records for one page");
	EXPECT_LT(out, in) TH_LOG("swap in before swap out");
	munmap(p, ltt_page_size());
	ltt_trace_free(&t);
}

/*
 * Reading a fresh block device waits for its pages' I/O:
 * mm_page_wait_start then mm_page_wait_end, in pairs.  The device's
 * server answers the first read only once the reader sleeps, so at least
 * one read waits, whatever the timing.
 */
TEST_F(mm, block_device_read_gives_page_wait_start_end_pairs)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	struct ltt_nbd nbd;
	bool open = false;
	size_t i, n = 0;
	int ret;

	WORK(ltt_nbd_start(&nbd, gettid()));
	FILTER_SELF();
	FILTER_EVENTS("mm_page_wait_start", "mm_page_wait_end");
	START();
	ret = ltt_work_nbd_read();
	STOP_AND_READ(&t);
	ltt_nbd_stop(&nbd);
	ASSERT_EQ(0, ret) TH_LOG("%s", ltt_err);

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];
		bool start = IS(ev, "mm_page_wait_start");

		EXPECT_EQ(self->cpu, ev->cpu) TH_LOG("the test is pinned");
		EXPECT_NE(open, start)
			TH_LOG("seq %llu offset %u: %s %s",
			       (unsigned long long)ev->seq, ev->offset,
			       reg->ev[ev->id].name,
			       open ? "while waiting" : "without a start");
		open = start;
		n += !start;
	}
	EXPECT_FALSE(open) TH_LOG("a page wait never ended");
	EXPECT_LT((size_t)0, n) TH_LOG("no page wait reading %s", LTT_NBD_DEV);
	TH_LOG("%zu page waits", n);
	ltt_trace_free(&t);
}

TEST_HARNESS_MAIN
