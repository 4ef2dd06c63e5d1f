// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder across boots: LTT_CMD_PREVIOUS_BOOT and the check
 * the kernel makes of a region.  Needs a kernel booted with
 * reserve_mem=...:NAME ltt.boot=...,persist=NAME (scripts/crash-test.sh
 * boots one, twice, and runs this in the second boot); skips otherwise.
 *
 * The previous boot's copy must be what the uapi says: every offset in
 * bounds, every packet whole (its checksum, its CPU, its sizes, times in
 * order).  The region's check is fed fuzzed copies of this boot's own
 * region (debugfs persist_check, CONFIG_LTT_SELFTEST): whatever it
 * accepts must be as whole, and nothing it is fed may oops it.  Only
 * root may read or free the copy; freeing it leaves open fds theirs.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ltt_util.h"

#define NOBODY		65534
#define DEBUGFS		"/sys/kernel/debug/ltt/"
#define FUZZ_SEED	0x1badcafeU
#define FUZZ_ROUNDS	300

/* The start of a region, version 1 (Documentation/trace/ltt.rst). */
struct region_v1 {
	__u64 magic;
	__u32 version;
	__u32 hdr_size;
	__u64 size;
	__u32 n_cpus;
	__u32 subbuf_size;
	__u32 n_subbufs;
	__u32 event_size;
	__u32 events_cap;
	__u32 n_events;
	__u32 modules_cap;
	__u32 end;
	__u64 cpus_offset;
	__u64 events_offset;
	__u64 modules_offset;
	__u64 rings_offset;
};

static int previous(__u32 flags)
{
	struct ltt_previous p = { .flags = flags };

	return ltt(LTT_CMD_PREVIOUS_BOOT, &p, sizeof(p));
}

/* zlib's crc32(), as the packets' checksum is. */
static __u32 crc32_zlib(__u32 crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	int k;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320U : crc >> 1;
	}
	return ~crc;
}

static __u32 packet_crc(const struct ltt_packet_header *h, size_t len)
{
	struct ltt_packet_header copy = *h;

	copy.checksum = 0;
	return crc32_zlib(crc32_zlib(0, &copy, sizeof(copy)), (const char *)h +
			  sizeof(copy), len - sizeof(copy));
}

/* Is [@off, @off + @len) inside @size? */
static bool inside(__u64 off, __u64 len, __u64 size)
{
	return off <= size && len <= size - off;
}

/*
 * Is @img (@size bytes) a copy as the uapi describes it, every packet
 * whole?  0, or -1 with ltt_err saying what is wrong.
 */
static int check_copy(const void *img, size_t size, unsigned int *packets)
{
	const struct ltt_prev_header *ph = img;
	const struct ltt_prev_cpu *pc;
	unsigned int cpu, i;

	*packets = 0;
	if (size < sizeof(*ph) || ph->magic != LTT_PREV_MAGIC ||
	    ph->version != LTT_PREV_VERSION ||
	    ph->header_size != sizeof(*ph) || ph->size != size)
		return ltt_fail("header: magic %#x version %u size %llu of %zu",
				ph->magic, ph->version,
				(unsigned long long)ph->size, size);
	if (ph->end >= LTT_CRASH_MAX ||
	    !memchr(ph->release, 0, sizeof(ph->release)) ||
	    !memchr(ph->end_message, 0, sizeof(ph->end_message)))
		return ltt_fail("header: end %u, or a string not terminated",
				ph->end);
	if (!inside(ph->cpus_offset, (__u64)ph->n_cpus * sizeof(*pc), size) ||
	    !inside(ph->events_offset, (__u64)ph->n_events * ph->event_size,
		    size) ||
	    !inside(ph->modules_offset,
		    (__u64)ph->n_modules * sizeof(struct ltt_prev_module), size))
		return ltt_fail("tables out of bounds");
	pc = (const void *)((const char *)img + ph->cpus_offset);
	for (cpu = 0; cpu < ph->n_cpus; cpu++) {
		const char *p = (const char *)img + pc[cpu].offset;
		__u64 left = pc[cpu].size, prev_end = 0, prev_seq = 0;

		if (pc[cpu].cpu != cpu || !inside(pc[cpu].offset, left, size))
			return ltt_fail("cpu %u: packets out of bounds", cpu);
		for (i = 0; i < pc[cpu].n_packets; i++) {
			const struct ltt_packet_header *h = (const void *)p;
			__u64 content, psize;

			if (left < sizeof(*h))
				return ltt_fail("cpu %u packet %u: past the end",
						cpu, i);
			content = h->content_size / 8;
			psize = h->packet_size / 8;
			if (h->magic != LTT_PACKET_MAGIC || h->cpu_id != cpu ||
			    content < sizeof(*h) || content > ph->subbuf_size ||
			    psize < content || psize > left ||
			    h->timestamp_begin > h->timestamp_end)
				return ltt_fail("cpu %u packet %u: impossible header",
						cpu, i);
			if (packet_crc(h, content) != h->checksum)
				return ltt_fail("cpu %u packet %u: checksum", cpu, i);
			if (i && (h->packet_seq_num <= prev_seq ||
				  h->timestamp_begin < prev_end))
				return ltt_fail("cpu %u packet %u: out of order",
						cpu, i);
			prev_seq = h->packet_seq_num;
			prev_end = h->timestamp_end;
			p += psize;
			left -= psize;
		}
		if (left)
			return ltt_fail("cpu %u: %llu bytes after its packets",
					cpu, (unsigned long long)left);
		*packets += pc[cpu].n_packets;
	}
	return 0;
}

/* All of @fd, from 0, into a malloc()ed buffer; its size in @size. */
static void *read_all(int fd, size_t *size)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap), *grown;
	ssize_t r;

	while (buf) {
		r = pread(fd, buf + n, cap - n, n);
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (!r)
			break;
		n += r;
		if (n == cap) {
			grown = realloc(buf, cap * 2);
			if (!grown)
				free(buf);
			buf = grown;
			cap *= 2;
		}
	}
	*size = n;
	return buf;
}

static bool have_region(void)
{
	return access(DEBUGFS "persist_region", R_OK) == 0;
}

TEST(previous_boot_refuses_unknown_flags)
{
	struct ltt_previous p = { .__reserved = 1 };

	ASSERT_EQ(-1, previous(2));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, ltt(LTT_CMD_PREVIOUS_BOOT, &p, sizeof(p)));
	ASSERT_EQ(EINVAL, errno);
}

TEST(only_root_reads_or_frees_the_previous_boot)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(10);
		if (previous(0) != -1 || errno != EPERM)
			_exit(11);
		if (previous(LTT_PREVIOUS_FREE) != -1 || errno != EPERM)
			_exit(12);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

TEST(the_previous_boot_reads_whole)
{
	const struct ltt_prev_header *ph;
	unsigned int packets;
	size_t size;
	void *img;
	int fd = previous(0);

	if (fd < 0 && errno == ENOENT)
		SKIP(return, "no previous boot's trace");
	ASSERT_LE(0, fd);
	/* Read-only, seekable, its size the header's. */
	ASSERT_EQ(-1, write(fd, "x", 1));
	ASSERT_EQ(EBADF, errno);
	img = read_all(fd, &size);
	ASSERT_NE(NULL, img);
	ph = img;
	ASSERT_EQ((off_t)size, lseek(fd, 0, SEEK_END));
	ASSERT_EQ(0, check_copy(img, size, &packets)) TH_LOG("%s", ltt_err);
	ASSERT_LT(0, packets);
	ASSERT_LE(LTT_EVENT_INFO_SIZE_VER0, ph->event_size);
	ASSERT_LT(0, ph->n_events);
	TH_LOG("previous boot: %s, end %u \"%s\", %u packets", ph->release,
	       ph->end, ph->end_message, packets);
	free(img);
	close(fd);
}

/*
 * Mutate @r (a copy of a region of @size bytes): bytes of its header and
 * tables, of its packets' headers and anywhere, and now and then its
 * length.
 */
static size_t mutate(unsigned char *r, size_t size, unsigned int *seed,
		     const struct region_v1 *geo)
{
	unsigned int i, n = 1 + rand_r(seed) % 8;
	size_t at, slots = geo->n_cpus * geo->n_subbufs;

	for (i = 0; i < n; i++) {
		switch (rand_r(seed) % 4) {
		case 0:
			at = rand_r(seed) % sizeof(struct region_v1);
			break;
		case 1:
			at = rand_r(seed) % (geo->rings_offset ?: 1);
			break;
		case 2:
			at = geo->rings_offset +
			     (rand_r(seed) % slots) * (size_t)geo->subbuf_size +
			     rand_r(seed) % sizeof(struct ltt_packet_header);
			break;
		default:
			at = rand_r(seed) % size;
			break;
		}
		if (at < size)
			r[at] = rand_r(seed) % 5 ? r[at] ^ (1 << rand_r(seed) % 8) :
				rand_r(seed);
	}
	if (rand_r(seed) % 16 == 0)
		return rand_r(seed) % size;
	return size;
}

/* The kernel's check of @size bytes of @r: the copy's packets, or -errno. */
static int check_region(const void *r, size_t size, unsigned int *packets)
{
	size_t got, at = 0;
	ssize_t n;
	void *img;
	int fd = open(DEBUGFS "persist_check", O_RDWR), ret;

	if (fd < 0)
		return -1000 - errno;
	while (at < size) {
		n = write(fd, (const char *)r + at, size - at);
		if (n <= 0) {
			close(fd);
			return -2000 - errno;
		}
		at += n;
	}
	img = read_all(fd, &got);
	ret = img ? 0 : -errno;
	close(fd);
	if (ret)
		return ret;
	if (check_copy(img, got, packets))
		ret = -3000;
	free(img);
	return ret;
}

TEST(fuzzed_regions_are_never_taken_for_whole)
{
	unsigned int seed = FUZZ_SEED, round, packets, accepted = 0;
	struct region_v1 geo;
	unsigned char *live, *r;
	size_t size, len;
	int fd, ret;

	if (!have_region())
		SKIP(return, "no persistent region (ltt.boot=...,persist=)");
	fd = open(DEBUGFS "persist_region", O_RDONLY);
	ASSERT_LE(0, fd);
	live = read_all(fd, &size);
	close(fd);
	if (!live && errno == ENOENT)
		SKIP(return, "no persistent region (ltt.boot=...,persist=)");
	ASSERT_NE(NULL, live);
	ASSERT_LE(sizeof(geo), size);
	memcpy(&geo, live, sizeof(geo));
	ASSERT_EQ(1, geo.version);
	/* This boot's own region, recording meanwhile, checks whole. */
	ret = check_region(live, size, &packets);
	ASSERT_EQ(0, ret) TH_LOG("%s", ltt_err);
	r = malloc(size);
	ASSERT_NE(NULL, r);
	for (round = 0; round < FUZZ_ROUNDS; round++) {
		memcpy(r, live, size);
		len = mutate(r, size, &seed, &geo);
		ret = check_region(r, len, &packets);
		/* Refused as a whole, or what passed is whole. */
		ASSERT_TRUE(ret == 0 || ret == -ENOENT || ret == -EINVAL ||
			    ret == -EPROTO)
			TH_LOG("round %u: %d %s", round, ret, ltt_err);
		accepted += ret == 0;
	}
	/* The mutations do not all hit the geometry. */
	ASSERT_LT(0, accepted);
	TH_LOG("%u of %u fuzzed regions accepted, each whole", accepted,
	       FUZZ_ROUNDS);
	free(r);
	free(live);
}

/* Last: it frees the copy. */
TEST(freeing_leaves_open_fds_their_copy)
{
	size_t before, after;
	void *a, *b;
	int fd = previous(0);

	if (fd < 0 && errno == ENOENT)
		SKIP(return, "no previous boot's trace");
	ASSERT_LE(0, fd);
	a = read_all(fd, &before);
	ASSERT_NE(NULL, a);
	ASSERT_EQ(0, previous(LTT_PREVIOUS_FREE));
	ASSERT_EQ(-1, previous(0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, previous(LTT_PREVIOUS_FREE));
	ASSERT_EQ(ENOENT, errno);
	b = read_all(fd, &after);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(before, after);
	ASSERT_EQ(0, memcmp(a, b, before));
	free(a);
	free(b);
	close(fd);
}

TEST_HARNESS_MAIN
