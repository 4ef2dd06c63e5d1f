// SPDX-License-Identifier: GPL-2.0
/*
 * insnprof: a QEMU TCG plugin that counts the guest instructions each
 * translation block executes, between marks the guest sets (make
 * profile, scripts/bench.sh --profile).
 *
 *   qemu-system-x86_64 -icount shift=0 \
 *       -plugin insnprof.so,mark=ADDR,out=FILE ...
 *
 * ADDR is a user-space function of a static (non-PIE) guest program,
 * ltt-bench's prof_mark(), which starts with the marker instruction
 * below; each time a block that starts at ADDR with that instruction
 * runs, the counts are snapshot.  FILE gets, for each window between two
 * snapshots, the blocks that ran in it:
 *
 *   window N insns TOTAL
 *   VADDR INSNS            (instructions the block at VADDR executed)
 *
 * Under -icount QEMU runs every vCPU in one thread, so the inline
 * counters need no atomics.
 *
 * QEMU's plugin API (version 1, QEMU 7.2) is declared here, the part of
 * it this plugin uses: Debian ships no header for it.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;

enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

#define EXPORT __attribute__((visibility("default")))

EXPORT int qemu_plugin_version = 1;

/* prof_mark()'s first instruction: xchg %rbx,%rbx, which nothing else uses. */
static const unsigned char marker[] = { 0x48, 0x87, 0xdb };

/* One translation of a block: its instructions, times it ran. */
struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t runs;
	uint64_t at_mark;	/* runs at the last mark */
};

static struct block **blocks;
static size_t n_blocks, max_blocks;
static uint64_t mark_addr;
static FILE *out;
static unsigned int window;
static bool failed;

static struct block *new_block(void)
{
	struct block *b;

	if (n_blocks == max_blocks) {
		size_t n = max_blocks ? 2 * max_blocks : 65536;
		struct block **nb = realloc(blocks, n * sizeof(*nb));

		if (!nb)
			return NULL;
		blocks = nb;
		max_blocks = n;
	}
	b = calloc(1, sizeof(*b));
	if (b)
		blocks[n_blocks++] = b;
	return b;
}

/* A mark: the window since the previous one, then a new window. */
static void on_mark(unsigned int vcpu, void *data)
{
	uint64_t total = 0;
	size_t i;

	(void)vcpu;
	(void)data;
	for (i = 0; i < n_blocks; i++)
		total += (blocks[i]->runs - blocks[i]->at_mark) * blocks[i]->insns;
	if (window > 0) {
		fprintf(out, "window %u insns %" PRIu64 "\n", window, total);
		for (i = 0; i < n_blocks; i++) {
			struct block *b = blocks[i];
			uint64_t n = (b->runs - b->at_mark) * b->insns;

			if (n)
				fprintf(out, "%" PRIx64 " %" PRIu64 "\n", b->vaddr, n);
		}
		fflush(out);
	}
	for (i = 0; i < n_blocks; i++)
		blocks[i]->at_mark = blocks[i]->runs;
	window++;
}

static bool is_mark(struct qemu_plugin_tb *tb)
{
	struct qemu_plugin_insn *insn;

	if (!mark_addr || qemu_plugin_tb_vaddr(tb) != mark_addr)
		return false;
	insn = qemu_plugin_tb_get_insn(tb, 0);
	return insn && qemu_plugin_insn_size(insn) == sizeof(marker) &&
	       !memcmp(qemu_plugin_insn_data(insn), marker, sizeof(marker));
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = new_block();

	(void)id;
	if (!b) {
		failed = true;
		return;
	}
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = qemu_plugin_tb_n_insns(tb);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->runs, 1);
	if (is_mark(tb))
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_mark,
						     QEMU_PLUGIN_CB_NO_REGS, NULL);
}

static void at_exit(qemu_plugin_id_t id, void *data)
{
	(void)id;
	(void)data;
	if (failed)
		fprintf(out, "error out of memory: some blocks were not counted\n");
	fprintf(out, "end windows %u\n", window ? window - 1 : 0);
	fclose(out);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			       int argc, char **argv)
{
	const char *path = NULL;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "mark=", 5))
			mark_addr = strtoull(argv[i] + 5, NULL, 0);
		else if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
	}
	if (!path || !mark_addr) {
		fprintf(stderr, "insnprof: give mark=ADDR and out=FILE\n");
		return 1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return 1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
