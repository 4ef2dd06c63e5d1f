// SPDX-License-Identifier: GPL-2.0
/*
 * LTT's flight recorder across a crash: a boot session that records into
 * memory reserved at boot (reserve_mem=), which a panic, a reboot or a
 * reset that keeps the power on leave as they were, and the previous
 * boot's trace read back from it by the next boot.
 *
 *   reserve_mem=16M:4096:ltt ltt.boot=mode=overwrite,persist=ltt
 *
 * The region describes itself (struct ltt_region): its geometry, the
 * event registry of the boot that wrote it, the kernel's release and
 * build id, a boot id, the wall-clock offset, where the kernel's text was
 * (KASLR) and the modules loaded.  Its packets carry a checksum.  The
 * crash events (a panic, an oops, a WARN, an emergency restart, a reboot)
 * are recorded by every session; the ends of the kernel also freeze the
 * persistent buffers, closing each CPU's open packet where its last
 * whole record ends.
 *
 * The next boot reads the region as untrusted input: every size, offset
 * and count is checked against the region, every packet against its
 * checksum, its slot, its sizes and the times of its neighbours; what
 * passes is copied to kernel memory (struct ltt_prev_header and what
 * follows, <uapi/linux/ltt.h>), which LTT_CMD_PREVIOUS_BOOT hands out,
 * and the region is then reused for this boot: the recorder is on again
 * from the start, whether or not anybody collects the last trace.
 * Documentation/trace/ltt.rst has the format.
 */
#include <linux/anon_inodes.h>
#include <linux/buildid.h>
#include <linux/cpu.h>
#include <linux/crc32.h>
#include <linux/debugfs.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/kdebug.h>
#include <linux/kmsg_dump.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/ptrace.h>
#include <linux/random.h>
#include <linux/reboot.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include <linux/uuid.h>
#include <linux/vmalloc.h>

#include <asm/sections.h>

#include "internal.h"

#define LTT_REGION_MAGIC	0x314e474552545454ULL	/* "TTTREGN1" */
#define LTT_REGION_VERSION	1
#define LTT_REGION_CPUS_MAX	8192U
#define LTT_REGION_MODULES	64U
#define LTT_REGION_CUSTOM	128U
#define LTT_REGION_MODULES_MAX	4096U
#define LTT_PERSIST_SUBBUF	(32U << 10)
#define LTT_PERSIST_SUBBUF_MAX	(256U << 10)

/* ltt_region_cpu.state */
enum {
	LTT_RC_RECORDING,	/* not frozen: the boot ended without a word */
	LTT_RC_CLOSED,		/* frozen, its open packet closed */
	LTT_RC_OPEN_LOST,	/* frozen, its open packet torn */
};

struct ltt_region_cpu {
	u32 state;
	u32 __pad;
	u64 lost;
};

/*
 * The start of the region, version 1, in the CPU's byte order.  A later
 * kernel reads every version before its own.  The offsets are from the
 * region's start; the rings are n_cpus rings of n_subbufs packets.
 */
struct ltt_region {
	u64 magic;
	u32 version;
	u32 hdr_size;
	u64 size;
	u32 n_cpus;
	u32 subbuf_size;
	u32 n_subbufs;
	u32 event_size;
	u32 events_cap;
	u32 n_events;
	u32 modules_cap;
	u32 end;
	u64 cpus_offset;
	u64 events_offset;
	u64 modules_offset;
	u64 rings_offset;
	u64 end_ns;
	s64 realtime_offset;
	u64 stext;
	u8 boot_id[16];
	u8 build_id[BUILD_ID_SIZE_MAX];
	u32 build_id_size;
	char release[65];
	char kversion[65];
	char machine[65];
	u8 __pad[5];
	char end_message[LTT_PREV_MESSAGE_MAX];
};

/* This boot's region, once ltt.boot= made it. */
struct ltt_persist {
	struct ltt_region *r;
	phys_addr_t phys;
	size_t size;
	struct ltt_region_cpu *cpus;
	struct ltt_event_info *events;
	struct ltt_prev_module *modules;
	void *rings;
	struct ltt_buf **bufs;		/* the session's, while it lives */
	struct mutex lock;		/* @bufs, the tables */
};

static struct ltt_persist ltt_persist = {
	.lock = __MUTEX_INITIALIZER(ltt_persist.lock),
};

/* The previous boot's trace, as LTT_CMD_PREVIOUS_BOOT hands it out. */
struct ltt_prev {
	struct kref ref;
	size_t size;
	void *data;			/* struct ltt_prev_header ... */
};

static DEFINE_MUTEX(ltt_prev_lock);
static struct ltt_prev *ltt_prev;	/* under ltt_prev_lock */

static void ltt_prev_free(struct kref *ref)
{
	struct ltt_prev *p = container_of(ref, struct ltt_prev, ref);

	vfree(p->data);
	kfree(p);
}

/* Is [@off, @off + @n * @size) inside a region of @total bytes? */
static bool ltt_in_region(u64 off, u64 n, u64 size, u64 total)
{
	u64 len;

	if (check_mul_overflow(n, size, &len) || off > total)
		return false;
	return len <= total - off;
}

/* The checks a packet in slot @slot of @cpu's ring must pass. */
enum ltt_slot { LTT_SLOT_EMPTY, LTT_SLOT_WHOLE, LTT_SLOT_DAMAGED };

static enum ltt_slot ltt_prev_slot(const struct ltt_region *r,
				   const struct ltt_packet_header *h,
				   unsigned int cpu, unsigned int slot)
{
	static const struct ltt_packet_header zero;
	u64 content = h->content_size / BITS_PER_BYTE;

	if (!memcmp(h, &zero, sizeof(zero)))
		return LTT_SLOT_EMPTY;
	if (h->magic != LTT_PACKET_MAGIC || h->stream_id || h->cpu_id != cpu ||
	    h->content_size % BITS_PER_BYTE || content < LB_PKT_HDR ||
	    content > r->subbuf_size ||
	    h->packet_size != ALIGN(content, 8) * BITS_PER_BYTE ||
	    h->timestamp_begin > h->timestamp_end ||
	    (h->packet_seq_num & (r->n_subbufs - 1)) != slot ||
	    h->events > (content - LB_PKT_HDR) / LTT_HDR_COMPACT_SIZE)
		return LTT_SLOT_DAMAGED;
	if (ltt_packet_crc(h, content) != h->checksum)
		return LTT_SLOT_DAMAGED;
	return LTT_SLOT_WHOLE;
}

/* Is @r's geometry one this kernel reads, inside @size bytes? */
static int ltt_prev_geometry(const struct ltt_region *r, size_t size)
{
	u64 ring;

	if (size < sizeof(*r) || r->magic != LTT_REGION_MAGIC)
		return -ENOENT;
	if (r->version != LTT_REGION_VERSION || r->hdr_size < sizeof(*r) ||
	    r->hdr_size > size)
		return -EPROTO;
	if (!r->n_cpus || r->n_cpus > LTT_REGION_CPUS_MAX ||
	    !is_power_of_2(r->subbuf_size) ||
	    r->subbuf_size < LTT_SUBBUF_MIN ||
	    r->subbuf_size > LTT_SUBBUF_MAX ||
	    !is_power_of_2(r->n_subbufs) || r->n_subbufs < 2 ||
	    r->n_subbufs > LTT_SUBBUFS_MAX ||
	    r->event_size < LTT_EVENT_INFO_SIZE_VER0 ||
	    r->event_size > PAGE_SIZE || r->events_cap > LTT_EVENTS_MAX ||
	    r->n_events > r->events_cap ||
	    r->modules_cap > LTT_REGION_MODULES_MAX ||
	    r->end >= LTT_CRASH_MAX)
		return -EINVAL;
	ring = (u64)r->subbuf_size * r->n_subbufs;
	if (!ltt_in_region(r->cpus_offset, r->n_cpus,
			   sizeof(struct ltt_region_cpu), size) ||
	    !ltt_in_region(r->events_offset, r->events_cap, r->event_size,
			   size) ||
	    !ltt_in_region(r->modules_offset, r->modules_cap,
			   sizeof(struct ltt_prev_module), size) ||
	    !ltt_in_region(r->rings_offset, r->n_cpus, ring, size) ||
	    r->cpus_offset % 8 || r->modules_offset % 8 ||
	    r->rings_offset % 8)
		return -EINVAL;
	return 0;
}

struct ltt_kept {
	u64 seq;
	u32 slot;
};

static int ltt_kept_cmp(const void *a, const void *b)
{
	const struct ltt_kept *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The whole packets of @cpu's ring in @r, in @kept (n_subbufs entries),
 * oldest first; a packet older than its successor's time or sequence
 * allows is dropped.  Returns their number and adds the bytes to @bytes.
 */
static unsigned int ltt_prev_scan(const struct ltt_region *r, unsigned int cpu,
				  struct ltt_kept *kept, u32 *damaged,
				  u64 *bytes)
{
	const void *ring = (const void *)r + r->rings_offset +
			   (size_t)cpu * r->subbuf_size * r->n_subbufs;
	const struct ltt_packet_header *h, *prev;
	unsigned int i, n = 0, m;

	*damaged = 0;
	for (i = 0; i < r->n_subbufs; i++) {
		h = ring + (size_t)i * r->subbuf_size;
		switch (ltt_prev_slot(r, h, cpu, i)) {
		case LTT_SLOT_EMPTY:
			break;
		case LTT_SLOT_DAMAGED:
			(*damaged)++;
			break;
		case LTT_SLOT_WHOLE:
			kept[n].seq = h->packet_seq_num;
			kept[n++].slot = i;
			break;
		}
	}
	sort(kept, n, sizeof(*kept), ltt_kept_cmp, NULL);
	/*
	 * One ring holds one lap: packets more than a ring apart, or going
	 * back in time, cannot all be of the last boot's last lap.
	 */
	for (i = 0, m = 0; i < n; i++) {
		h = ring + (size_t)kept[i].slot * r->subbuf_size;
		if (m) {
			prev = ring + (size_t)kept[m - 1].slot * r->subbuf_size;
			if (h->timestamp_begin < prev->timestamp_end ||
			    kept[i].seq - kept[m - 1].seq >= r->n_subbufs) {
				(*damaged)++;
				continue;
			}
		}
		kept[m++] = kept[i];
		*bytes += h->packet_size / BITS_PER_BYTE;
	}
	return m;
}

/* A string of a region's, NUL-terminated in its copy. */
static void ltt_prev_str(char *to, const char *from, size_t size)
{
	memcpy(to, from, size);
	to[size - 1] = '\0';
}

/**
 * ltt_prev_build - check a region and copy the trace it holds
 * @r: the region, @size bytes, which nobody writes meanwhile
 * @size: its size
 * @out: the copy, on success
 *
 * Return: 0, -ENOENT when @r holds no trace (not a region of ours),
 * -EPROTO for a version this kernel does not read, -EINVAL for a
 * geometry that does not fit @size, -ENOMEM.
 */
static int ltt_prev_build(const struct ltt_region *r, size_t size,
			  struct ltt_prev **out)
{
	const struct ltt_region_cpu *rc;
	const struct ltt_prev_module *mod;
	struct ltt_prev_header *ph;
	struct ltt_kept **kept;
	struct ltt_prev_cpu *pc;
	u64 total, bytes = 0, at;
	unsigned int cpu, i, n_mods = 0;
	struct ltt_prev *p;
	size_t evsize;
	void *data;
	u32 *n_kept, *damaged;
	int ret;

	ret = ltt_prev_geometry(r, size);
	if (ret)
		return ret;
	rc = (const void *)r + r->cpus_offset;
	mod = (const void *)r + r->modules_offset;
	for (i = 0; i < r->modules_cap; i++)
		n_mods += !!mod[i].name[0];

	kept = kvcalloc(r->n_cpus, sizeof(*kept), GFP_KERNEL);
	n_kept = kvcalloc(r->n_cpus, sizeof(*n_kept), GFP_KERNEL);
	damaged = kvcalloc(r->n_cpus, sizeof(*damaged), GFP_KERNEL);
	ret = -ENOMEM;
	if (!kept || !n_kept || !damaged)
		goto out;
	for (cpu = 0; cpu < r->n_cpus; cpu++) {
		kept[cpu] = kvmalloc_array(r->n_subbufs, sizeof(**kept),
					   GFP_KERNEL);
		if (!kept[cpu])
			goto out;
		n_kept[cpu] = ltt_prev_scan(r, cpu, kept[cpu], &damaged[cpu],
					    &bytes);
	}

	evsize = sizeof(struct ltt_event_info);
	total = sizeof(*ph) + (u64)r->n_cpus * sizeof(*pc) +
		(u64)r->n_events * evsize + (u64)n_mods * sizeof(*mod);
	total = ALIGN(total, 8) + bytes;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	data = vzalloc(total);
	if (!p || !data) {
		kfree(p);
		vfree(data);
		goto out;
	}
	kref_init(&p->ref);
	p->size = total;
	p->data = data;

	ph = data;
	ph->magic = LTT_PREV_MAGIC;
	ph->version = LTT_PREV_VERSION;
	ph->header_size = sizeof(*ph);
	ph->n_cpus = r->n_cpus;
	ph->n_events = r->n_events;
	ph->event_size = evsize;
	ph->n_modules = n_mods;
	ph->subbuf_size = r->subbuf_size;
	ph->n_subbufs = r->n_subbufs;
	ph->end = r->end;
	ph->size = total;
	memcpy(ph->boot_id, r->boot_id, sizeof(ph->boot_id));
	ph->build_id_size = min_t(u32, r->build_id_size, sizeof(ph->build_id));
	memcpy(ph->build_id, r->build_id, ph->build_id_size);
	ltt_prev_str(ph->release, r->release, sizeof(ph->release));
	ltt_prev_str(ph->kversion, r->kversion, sizeof(ph->kversion));
	ltt_prev_str(ph->machine, r->machine, sizeof(ph->machine));
	ltt_prev_str(ph->end_message, r->end_message, sizeof(ph->end_message));
	ph->stext = r->stext;
	ph->realtime_offset = r->realtime_offset;
	ph->end_ns = r->end_ns;

	at = sizeof(*ph);
	ph->cpus_offset = at;
	pc = data + at;
	at += (u64)r->n_cpus * sizeof(*pc);
	ph->events_offset = at;
	for (i = 0; i < r->n_events; i++) {
		/* An older, shorter description reads with zeroes after it. */
		memcpy(data + at, (const void *)r + r->events_offset +
		       (size_t)i * r->event_size, min_t(size_t, evsize,
							r->event_size));
		at += evsize;
	}
	ph->modules_offset = at;
	for (i = 0; i < r->modules_cap; i++) {
		struct ltt_prev_module *to = data + at;

		if (!mod[i].name[0])
			continue;
		*to = mod[i];
		to->name[sizeof(to->name) - 1] = '\0';
		at += sizeof(*to);
	}
	at = ALIGN(at, 8);
	for (cpu = 0; cpu < r->n_cpus; cpu++) {
		const void *ring = (const void *)r + r->rings_offset +
				   (size_t)cpu * r->subbuf_size * r->n_subbufs;

		pc[cpu].cpu = cpu;
		pc[cpu].n_packets = n_kept[cpu];
		pc[cpu].n_damaged = damaged[cpu];
		pc[cpu].open_lost = rc[cpu].state == LTT_RC_OPEN_LOST;
		pc[cpu].lost = rc[cpu].state != LTT_RC_RECORDING ?
			       rc[cpu].lost : 0;
		pc[cpu].offset = at;
		for (i = 0; i < n_kept[cpu]; i++) {
			const struct ltt_packet_header *h =
				ring + (size_t)kept[cpu][i].slot * r->subbuf_size;
			size_t len = h->packet_size / BITS_PER_BYTE;

			memcpy(data + at, h, len);
			at += len;
		}
		pc[cpu].size = at - pc[cpu].offset;
	}
	*out = p;
	ret = 0;
out:
	for (cpu = 0; kept && cpu < r->n_cpus; cpu++)
		kvfree(kept[cpu]);
	kvfree(kept);
	kvfree(n_kept);
	kvfree(damaged);
	return ret;
}

/* The totals of @p, for the kernel log. */
static void ltt_prev_counts(const struct ltt_prev *p, u64 *kept, u64 *damaged,
			    u64 *torn)
{
	const struct ltt_prev_header *ph = p->data;
	const struct ltt_prev_cpu *pc = p->data + ph->cpus_offset;
	unsigned int cpu;

	*kept = *damaged = *torn = 0;
	for (cpu = 0; cpu < ph->n_cpus; cpu++) {
		*kept += pc[cpu].n_packets;
		*damaged += pc[cpu].n_damaged;
		*torn += pc[cpu].open_lost;
	}
}

static const char *const ltt_crash_names[LTT_CRASH_MAX] = {
	[LTT_CRASH_NONE]	= "no end recorded",
	[LTT_CRASH_PANIC]	= "panic",
	[LTT_CRASH_OOPS]	= "oops",
	[LTT_CRASH_WARN]	= "warning",
	[LTT_CRASH_EMERGENCY]	= "emergency restart",
	[LTT_CRASH_RESTART]	= "reboot",
	[LTT_CRASH_HALT]	= "halt",
	[LTT_CRASH_POWER_OFF]	= "power off",
};

/* Write this boot's description into @p's region, its rings zeroed. */
static void ltt_region_init(struct ltt_persist *p, unsigned int subbuf_size,
			    unsigned int n_subbufs, size_t meta)
{
	struct ltt_region *r = p->r;
	u64 off;

	memset(r, 0, meta);
	memset(p->rings, 0, (size_t)nr_cpu_ids * subbuf_size * n_subbufs);
	r->version = LTT_REGION_VERSION;
	r->hdr_size = sizeof(*r);
	r->size = p->size;
	r->n_cpus = nr_cpu_ids;
	r->subbuf_size = subbuf_size;
	r->n_subbufs = n_subbufs;
	r->event_size = sizeof(struct ltt_event_info);
	r->events_cap = LTT_NR_EVENTS + LTT_REGION_CUSTOM;
	r->modules_cap = LTT_REGION_MODULES;
	off = ALIGN(sizeof(*r), 8);
	r->cpus_offset = off;
	off += (u64)nr_cpu_ids * sizeof(struct ltt_region_cpu);
	r->events_offset = off;
	off += (u64)r->events_cap * r->event_size;
	r->modules_offset = ALIGN(off, 8);
	r->rings_offset = (void *)p->rings - (void *)r;
	generate_random_uuid(r->boot_id);
	if (!build_id_parse_buf(&__start_notes, r->build_id,
				&__stop_notes - &__start_notes))
		r->build_id_size = BUILD_ID_SIZE_MAX;
	strscpy(r->release, init_utsname()->release);
	strscpy(r->kversion, init_utsname()->version);
	strscpy(r->machine, init_utsname()->machine);
	r->stext = (unsigned long)_stext;
	r->realtime_offset = ktime_get_real_fast_ns() - ltt_clock();
	p->cpus = (void *)r + r->cpus_offset;
	p->events = (void *)r + r->events_offset;
	p->modules = (void *)r + r->modules_offset;
	/* Last: a region half written reads as none. */
	WRITE_ONCE(r->magic, LTT_REGION_MAGIC);
}

/* Describe event @ei in the region, for the next boot's reader. */
static void ltt_persist_add_event(struct ltt_persist *p,
				  const struct ltt_event_info *ei)
{
	struct ltt_region *r = p->r;

	lockdep_assert_held(&p->lock);
	if (r->n_events >= r->events_cap) {
		pr_warn_once("ltt: persist: no room to describe event %s: its records will not read after a crash\n",
			     ei->name);
		return;
	}
	p->events[r->n_events] = *ei;
	p->events[r->n_events].generation = 0;
	p->events[r->n_events].owner = 0;
	WRITE_ONCE(r->n_events, r->n_events + 1);
}

/**
 * ltt_persist_describe - a custom event type was made
 * @ei: its description
 *
 * A persistent region describes it, so that the next boot reads its
 * records.
 */
void ltt_persist_describe(const struct ltt_event_info *ei)
{
	struct ltt_persist *p = &ltt_persist;

	if (!READ_ONCE(p->r))
		return;
	guard(mutex)(&p->lock);
	ltt_persist_add_event(p, ei);
}

/**
 * ltt_persist_setup - make this boot's persistent region
 * @name: the reserve_mem= region's name
 * @subbuf_size: bytes per packet, 0 for the default
 * @a: the boot session's attributes: its geometry is set here
 *
 * The previous boot's trace, if the region holds one, is checked and
 * copied first.  Called once, at boot.
 *
 * Return: 0, -ENOENT for no such region, -EINVAL for one too small to
 * hold two packets per CPU, not page aligned, or a bad @subbuf_size,
 * -EPROTO or -ENOMEM when it holds a trace this kernel cannot read now
 * (of a later version, or too big to copy): it is kept as it is.
 */
int __init ltt_persist_setup(const char *name, unsigned int subbuf_size,
			     struct ltt_create *a)
{
	struct ltt_persist *p = &ltt_persist;
	struct ltt_event_info ei;
	struct ltt_prev *prev;
	phys_addr_t start, size;
	u64 kept, damaged, torn, per_cpu;
	size_t meta;
	unsigned int n;
	void *virt;
	int ret;

	if (!reserve_mem_find_by_name(name, &start, &size)) {
		pr_err("ltt: persist: no reserve_mem= region %s\n", name);
		return -ENOENT;
	}
	subbuf_size = subbuf_size ?: LTT_PERSIST_SUBBUF;
	/* Its CRC is computed by the last writer, irqs off or in an NMI. */
	if (!is_power_of_2(subbuf_size) || subbuf_size < LTT_SUBBUF_MIN ||
	    subbuf_size > LTT_PERSIST_SUBBUF_MAX) {
		pr_err("ltt: persist: subbuf=%u: a power of two from %u to %u\n",
		       subbuf_size, LTT_SUBBUF_MIN, LTT_PERSIST_SUBBUF_MAX);
		return -EINVAL;
	}
	meta = ALIGN(sizeof(struct ltt_region), 8) +
	       nr_cpu_ids * sizeof(struct ltt_region_cpu) +
	       (LTT_NR_EVENTS + LTT_REGION_CUSTOM) *
	       sizeof(struct ltt_event_info);
	meta = ALIGN(meta, 8) +
	       LTT_REGION_MODULES * sizeof(struct ltt_prev_module);
	meta = PAGE_ALIGN(meta);
	/* div_u64(): no 64-bit division by the compiler on 32-bit. */
	per_cpu = size > meta ? div_u64(size - meta, nr_cpu_ids) : 0;
	n = min_t(u64, div_u64(per_cpu, subbuf_size),
		  min_t(u64, LTT_SUBBUFS_MAX, LTT_BUFFER_MAX / subbuf_size));
	n = n >= 2 ? rounddown_pow_of_two(n) : 0;
	if (!n || !PAGE_ALIGNED(start)) {
		pr_err("ltt: persist: region %s (%pa bytes at %pa) holds no two %u-byte packets per CPU past its %zu bytes of description, or is not page aligned\n",
		       name, &size, &start, subbuf_size, meta);
		return -EINVAL;
	}
	virt = memremap(start, size, MEMREMAP_WB);
	if (!virt)
		return -ENOMEM;

	ret = ltt_prev_build(virt, size, &prev);
	if (ret == -EPROTO || ret == -ENOMEM) {
		/* Another kernel, or another day, may read it: keep it. */
		pr_warn("ltt: persist: region %s holds a trace this kernel cannot read now (%d): kept as it is, not recorded into\n",
			name, ret);
		memunmap(virt);
		return ret;
	}
	if (!ret) {
		ltt_prev_counts(prev, &kept, &damaged, &torn);
		/* Its strings are the region's: printed escaped. */
		pr_info("ltt: persist: the previous boot's trace (%*pE, %s): %llu packets kept, %llu damaged, %llu torn at the end\n",
			(int)strlen(((struct ltt_prev_header *)prev->data)->release),
			((struct ltt_prev_header *)prev->data)->release,
			ltt_crash_names[((struct ltt_prev_header *)prev->data)->end],
			kept, damaged, torn);
		ltt_prev = prev;
	} else if (ret == -ENOENT) {
		pr_info("ltt: persist: region %s holds no previous trace\n",
			name);
	} else {
		pr_warn("ltt: persist: region %s holds no trace that can be (%d): it is reused\n",
			name, ret);
	}

	/* The tables' users wait for the lock once they see @r. */
	guard(mutex)(&p->lock);
	p->phys = start;
	p->size = size;
	p->rings = virt + meta;
	WRITE_ONCE(p->r, virt);
	ltt_region_init(p, subbuf_size, n, meta);
	for (ei.id = 0; ei.id < LTT_NR_EVENTS; ei.id++)
		if (!ltt_event_info(&ei))
			ltt_persist_add_event(p, &ei);
	a->subbuf_size = subbuf_size;
	a->n_subbufs = n;
	pr_info("ltt: persist: recording into region %s, %u x %u bytes per CPU at %pa\n",
		name, n, subbuf_size, &start);
	return 0;
}

/**
 * ltt_persist_config - give a session's buffers the region's memory
 * @cfg: their configuration
 */
void ltt_persist_config(struct ltt_buf_config *cfg)
{
	cfg->mem = ltt_persist.rings;
	cfg->mem_phys = ltt_persist.phys + (ltt_persist.rings -
					    (void *)ltt_persist.r);
}

/**
 * ltt_persist_attach - the session recording into the region
 * @bufs: its buffers, nr_cpu_ids entries; NULL when it goes
 *
 * The ends of the kernel read them under RCU, taking no lock: once
 * they are detached, a grace period passes before they may be freed.
 */
void ltt_persist_attach(struct ltt_buf **bufs)
{
	scoped_guard(mutex, &ltt_persist.lock)
		WRITE_ONCE(ltt_persist.bufs, bufs);
	if (!bufs)
		synchronize_rcu();
}

/* Freeze CPU @cpu's buffer, in @p's region. */
static void ltt_persist_freeze(struct ltt_persist *p, unsigned int cpu)
{
	struct ltt_buf **bufs = READ_ONCE(p->bufs);
	u64 lost = 0;
	bool whole;

	/* Frozen once: a second end keeps what the first found. */
	if (!bufs || !bufs[cpu] ||
	    READ_ONCE(p->cpus[cpu].state) != LTT_RC_RECORDING)
		return;
	whole = ltt_buf_freeze(bufs[cpu], &lost);
	p->cpus[cpu].lost = lost;
	WRITE_ONCE(p->cpus[cpu].state, whole ? LTT_RC_CLOSED :
					       LTT_RC_OPEN_LOST);
}

static void ltt_persist_freeze_here(void *p)
{
	ltt_persist_freeze(p, smp_processor_id());
}

/*
 * The end of the boot, @kind: say so in the region and freeze its
 * buffers, each on its CPU when @ipi (the CPUs still run), else from
 * here (the others are stopped, or cannot be called).
 */
static void ltt_persist_end(unsigned int kind, const char *msg, bool ipi)
{
	struct ltt_persist *p = &ltt_persist;
	struct ltt_region *r = READ_ONCE(p->r);
	unsigned int cpu;

	if (!r || r->end == LTT_CRASH_PANIC)
		return;
	r->end = kind;
	r->end_ns = ltt_clock();
	r->realtime_offset = ktime_get_real_fast_ns() - r->end_ns;
	strscpy(r->end_message, msg ?: "");
	/* The session's buffers stay while we read (ltt_persist_attach()). */
	if (ipi) {
		cpus_read_lock();
		rcu_read_lock();
		on_each_cpu(ltt_persist_freeze_here, p, 1);
		for_each_possible_cpu(cpu)
			if (!cpu_online(cpu))
				ltt_persist_freeze(p, cpu);
		rcu_read_unlock();
		cpus_read_unlock();
		return;
	}
	rcu_read_lock();
	for_each_possible_cpu(cpu)
		ltt_persist_freeze(p, cpu);
	rcu_read_unlock();
}

/* Record a crash event, in every session that takes it. */
static void ltt_crash_event(unsigned int kind, unsigned long ip,
			    const char *msg)
{
	struct ltt_rec_crash rec = {
		.kind = kind,
		.ip = ip,
	};

	ltt_log_crash(&rec, msg ?: "");
}

/**
 * __ltt_warn - a WARN() fired
 * @file: where, or NULL
 * @line: at which line
 * @caller: in which function
 */
void __ltt_warn(const char *file, int line, void *caller)
{
	char msg[96];

	if (file)
		snprintf(msg, sizeof(msg), "%s:%d", file, line);
	else
		msg[0] = '\0';
	ltt_crash_event(LTT_CRASH_WARN, ltt_code_addr(caller), msg);
}

static int ltt_panic_notify(struct notifier_block *nb, unsigned long ev,
			    void *msg)
{
	/* The other CPUs are stopped: their buffers are closed from here. */
	ltt_crash_event(LTT_CRASH_PANIC, 0, msg);
	ltt_persist_end(LTT_CRASH_PANIC, msg, false);
	return NOTIFY_DONE;
}

static struct notifier_block ltt_panic_nb = {
	.notifier_call = ltt_panic_notify,
	/* Before the notifiers that may not return. */
	.priority = INT_MAX,
};

static int ltt_die_notify(struct notifier_block *nb, unsigned long ev,
			  void *data)
{
	struct die_args *args = data;

	if (ev == DIE_OOPS)
		ltt_crash_event(LTT_CRASH_OOPS,
				args->regs ? ltt_trap_ip(instruction_pointer(args->regs)) : 0,
				args->str);
	return NOTIFY_DONE;
}

static struct notifier_block ltt_die_nb = {
	.notifier_call = ltt_die_notify,
};

static int ltt_reboot_notify(struct notifier_block *nb, unsigned long ev,
			     void *cmd)
{
	unsigned int kind = ev == SYS_HALT ? LTT_CRASH_HALT :
			    ev == SYS_POWER_OFF ? LTT_CRASH_POWER_OFF :
						  LTT_CRASH_RESTART;

	ltt_crash_event(kind, 0, cmd);
	ltt_persist_end(kind, cmd, true);
	return NOTIFY_DONE;
}

static struct notifier_block ltt_reboot_nb = {
	.notifier_call = ltt_reboot_notify,
	/* After the others: what they do is recorded. */
	.priority = INT_MIN,
};

/* emergency_restart(): sysrq-b, a watchdog; no notifier but this one. */
static void ltt_kmsg_dump(struct kmsg_dumper *dumper,
			  struct kmsg_dump_detail *detail)
{
	if (detail->reason != KMSG_DUMP_EMERG)
		return;
	ltt_crash_event(LTT_CRASH_EMERGENCY, 0, "emergency restart");
	ltt_persist_end(LTT_CRASH_EMERGENCY, "emergency restart", false);
}

static struct kmsg_dumper ltt_kmsg_dumper = {
	.dump = ltt_kmsg_dump,
	.max_reason = KMSG_DUMP_EMERG,
};

#ifdef CONFIG_MODULES
/* Keep the region's module table as modules come and go. */
static int ltt_module_notify(struct notifier_block *nb, unsigned long ev,
			     void *data)
{
	struct ltt_persist *p = &ltt_persist;
	struct module *mod = data;
	unsigned int i;

	if (!READ_ONCE(p->r) ||
	    (ev != MODULE_STATE_COMING && ev != MODULE_STATE_GOING))
		return NOTIFY_DONE;
	guard(mutex)(&p->lock);
	for (i = 0; i < LTT_REGION_MODULES; i++) {
		struct ltt_prev_module *m = &p->modules[i];

		if (ev == MODULE_STATE_GOING &&
		    m->base == (unsigned long)mod->mem[MOD_TEXT].base) {
			WRITE_ONCE(m->name[0], '\0');
			break;
		}
		if (ev == MODULE_STATE_COMING && !m->name[0]) {
			m->base = (unsigned long)mod->mem[MOD_TEXT].base;
			m->size = mod->mem[MOD_TEXT].size;
			strscpy(m->name + 1, mod->name + 1, sizeof(m->name) - 1);
			WRITE_ONCE(m->name[0], mod->name[0]);
			break;
		}
	}
	return NOTIFY_DONE;
}

static struct notifier_block ltt_module_nb = {
	.notifier_call = ltt_module_notify,
};
#endif

static int __init ltt_crash_init(void)
{
	atomic_notifier_chain_register(&panic_notifier_list, &ltt_panic_nb);
	register_die_notifier(&ltt_die_nb);
	register_reboot_notifier(&ltt_reboot_nb);
	kmsg_dump_register(&ltt_kmsg_dumper);
#ifdef CONFIG_MODULES
	register_module_notifier(&ltt_module_nb);
#endif
	return 0;
}

/* Before ltt.boot='s session, which late_initcall_sync() makes. */
late_initcall(ltt_crash_init);

/* The previous boot's trace as a file: read and seek. */
static ssize_t ltt_prev_read(struct file *file, char __user *buf, size_t len,
			     loff_t *pos)
{
	struct ltt_prev *p = file->private_data;

	return simple_read_from_buffer(buf, len, pos, p->data, p->size);
}

static loff_t ltt_prev_llseek(struct file *file, loff_t off, int whence)
{
	struct ltt_prev *p = file->private_data;

	return fixed_size_llseek(file, off, whence, p->size);
}

static int ltt_prev_release(struct inode *inode, struct file *file)
{
	struct ltt_prev *p = file->private_data;

	kref_put(&p->ref, ltt_prev_free);
	return 0;
}

static const struct file_operations ltt_prev_fops = {
	.owner		= THIS_MODULE,
	.read		= ltt_prev_read,
	.llseek		= ltt_prev_llseek,
	.release	= ltt_prev_release,
};

/* An fd on @p, which takes a reference of its own; pread() works. */
static int ltt_prev_fd(struct ltt_prev *p)
{
	struct file *file;
	int fd;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		return fd;
	kref_get(&p->ref);
	file = anon_inode_getfile("[ltt-previous-boot]", &ltt_prev_fops, p,
				  O_RDONLY);
	if (IS_ERR(file)) {
		kref_put(&p->ref, ltt_prev_free);
		put_unused_fd(fd);
		return PTR_ERR(file);
	}
	file->f_mode |= FMODE_PREAD;
	fd_install(fd, file);
	return fd;
}

/**
 * ltt_previous_boot - LTT_CMD_PREVIOUS_BOOT
 * @flags: 0 or LTT_PREVIOUS_FREE
 *
 * Return: an fd on the previous boot's trace, 0 once it is freed,
 * -EPERM without the system view, -ENOENT when there is none, -EINVAL
 * for unknown @flags.
 */
int ltt_previous_boot(u32 flags)
{
	struct ltt_prev *p;

	if (flags & ~LTT_PREVIOUS_FREE)
		return -EINVAL;
	if (!ltt_system_view_allowed())
		return -EPERM;
	guard(mutex)(&ltt_prev_lock);
	p = ltt_prev;
	if (!p)
		return -ENOENT;
	if (flags & LTT_PREVIOUS_FREE) {
		ltt_prev = NULL;
		kref_put(&p->ref, ltt_prev_free);
		return 0;
	}
	return ltt_prev_fd(p);
}

#ifdef CONFIG_LTT_SELFTEST
/*
 * Selftest files in /sys/kernel/debug/ltt/:
 *   persist_region  this boot's region as it is (read)
 *   persist_check   a region written to it is checked as the next boot
 *                   would; a read then gives the copy that check made,
 *                   or fails with its errno
 *   persist_damage  "CPU K N": flip a byte in the middle of the records
 *                   of N closed packets of CPU's ring, from the K-th
 *                   before the open one back; a read lists "CPU SEQ" of
 *                   each packet damaged so
 *   warn_event      a write records the crash event a WARN() would
 */
static ssize_t ltt_region_read(struct file *file, char __user *buf,
			       size_t len, loff_t *pos)
{
	struct ltt_persist *p = &ltt_persist;

	if (!p->r)
		return -ENOENT;
	return simple_read_from_buffer(buf, len, pos, p->r, p->size);
}

static const struct file_operations ltt_region_fops = {
	.read	= ltt_region_read,
	.llseek	= default_llseek,
};

#define LTT_CHECK_MAX	(64U << 20)

struct ltt_check {
	struct mutex lock;		/* pread() and pwrite() take no other */
	void *region;
	size_t size;
	struct ltt_prev *prev;
	int ret;
	bool done;
};

static int ltt_check_open(struct inode *inode, struct file *file)
{
	struct ltt_check *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	mutex_init(&c->lock);
	file->private_data = c;
	return 0;
}

static ssize_t ltt_check_write(struct file *file, const char __user *buf,
			       size_t len, loff_t *pos)
{
	struct ltt_check *c = file->private_data;
	void *grown;

	guard(mutex)(&c->lock);
	if (c->done)
		return -EBUSY;
	if (len > LTT_CHECK_MAX - c->size)
		return -EFBIG;
	/* Exactly the bytes written: a read past them is out of bounds. */
	grown = vmalloc(c->size + len);
	if (!grown)
		return -ENOMEM;
	if (c->size)
		memcpy(grown, c->region, c->size);
	if (copy_from_user(grown + c->size, buf, len)) {
		vfree(grown);
		return -EFAULT;
	}
	vfree(c->region);
	c->region = grown;
	c->size += len;
	return len;
}

static ssize_t ltt_check_read(struct file *file, char __user *buf, size_t len,
			      loff_t *pos)
{
	struct ltt_check *c = file->private_data;

	guard(mutex)(&c->lock);
	if (!c->done) {
		c->done = true;
		c->ret = ltt_prev_build(c->region, c->size, &c->prev);
	}
	if (c->ret)
		return c->ret;
	return simple_read_from_buffer(buf, len, pos, c->prev->data,
				       c->prev->size);
}

static int ltt_check_release(struct inode *inode, struct file *file)
{
	struct ltt_check *c = file->private_data;

	if (c->prev)
		kref_put(&c->prev->ref, ltt_prev_free);
	vfree(c->region);
	mutex_destroy(&c->lock);
	kfree(c);
	return 0;
}

static const struct file_operations ltt_check_fops = {
	.open		= ltt_check_open,
	.write		= ltt_check_write,
	.read		= ltt_check_read,
	.release	= ltt_check_release,
	.llseek		= noop_llseek,
};

static char ltt_damaged[512];

static ssize_t ltt_damage_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *pos)
{
	struct ltt_persist *p = &ltt_persist;
	unsigned int cpu, k, n, i, used;
	struct ltt_packet_header *h;
	struct ltt_buf *buf;
	unsigned long w;
	char cmd[32];
	size_t at;

	if (!p->r)
		return -ENOENT;
	if (len >= sizeof(cmd) || copy_from_user(cmd, ubuf, len))
		return -EINVAL;
	cmd[len] = '\0';
	if (sscanf(cmd, "%u %u %u", &cpu, &k, &n) != 3 ||
	    cpu >= nr_cpu_ids || !k ||
	    n >= p->r->n_subbufs || k >= p->r->n_subbufs - n)
		return -EINVAL;
	guard(rcu)();
	buf = READ_ONCE(p->bufs) ? READ_ONCE(p->bufs)[cpu] : NULL;
	if (!buf)
		return -ENOENT;
	at = strlen(ltt_damaged);
	w = local_read(&buf->offset) & ~buf->sb_mask;
	for (i = 0; i < n; i++) {
		h = lb_ptr(buf, w - (unsigned long)(k + i) * lb_subbuf_size(buf));
		used = h->content_size / BITS_PER_BYTE;
		if (h->magic != LTT_PACKET_MAGIC || used <= LB_PKT_HDR)
			return -EAGAIN;
		((u8 *)h)[LB_PKT_HDR + (used - LB_PKT_HDR) / 2] ^= 0x5a;
		at += scnprintf(ltt_damaged + at, sizeof(ltt_damaged) - at,
				"%u %llu\n", cpu, h->packet_seq_num);
	}
	return len;
}

static ssize_t ltt_damage_read(struct file *file, char __user *buf,
			       size_t len, loff_t *pos)
{
	return simple_read_from_buffer(buf, len, pos, ltt_damaged,
				       strlen(ltt_damaged));
}

static const struct file_operations ltt_damage_fops = {
	.write	= ltt_damage_write,
	.read	= ltt_damage_read,
	.llseek	= default_llseek,
};

/* warn_event: a write records the crash event of a WARN(), not its splat. */
static ssize_t ltt_warn_write(struct file *file, const char __user *buf,
			      size_t len, loff_t *pos)
{
	ltt_warn(__FILE__, __LINE__, __builtin_return_address(0));
	return len;
}

static const struct file_operations ltt_warn_fops = {
	.write	= ltt_warn_write,
	.llseek	= noop_llseek,
};

static int __init ltt_persist_selftest_init(void)
{
	/* selftest.c's, made at late_initcall(). */
	struct dentry *dir = debugfs_lookup("ltt", NULL);

	if (!dir)
		return 0;
	debugfs_create_file("persist_region", 0400, dir, NULL,
			    &ltt_region_fops);
	debugfs_create_file("persist_check", 0600, dir, NULL, &ltt_check_fops);
	debugfs_create_file("persist_damage", 0600, dir, NULL,
			    &ltt_damage_fops);
	debugfs_create_file("warn_event", 0200, dir, NULL, &ltt_warn_fops);
	dput(dir);
	return 0;
}
late_initcall_sync(ltt_persist_selftest_init);
#endif
