/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Images of a previous boot's trace, as LTT_CMD_PREVIOUS_BOOT gives them
 * (struct ltt_prev_header and what its offsets locate), made from a
 * trace directory's packets for the tests (test-previous.c, the
 * mkprevboot tool of tests/cli-previous.sh).
 */
#ifndef LTT_TESTS_PREVBOOT_H
#define LTT_TESTS_PREVBOOT_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt.h>

/* What the images say of the boot. */
#define PB_RELEASE	"6.12.30-ltt"
#define PB_KVERSION	"#1 SMP PREEMPT_DYNAMIC Tue Dec  2 10:00:00 UTC 2025"
#define PB_MACHINE	"x86_64"
#define PB_MESSAGE	"Kernel panic - not syncing: sysrq triggered crash"
#define PB_BOOT_ID	"0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"
#define PB_STEXT	0xffffffff9a000000ULL	/* KASLR: System.map's + 0x19000000 */
#define PB_MAP_STEXT	0xffffffff81000000ULL
#define PB_MODULE	"ltt_crashme"
#define PB_MODULE_BASE	0xffffffffc0a00000ULL
#define PB_MODULE_SIZE	0x3000ULL

/*
 * The crash trace pb_crash_trace() writes: 2 CPUs of 4 KiB packets.
 * cpu0: a shell (200) makes PB_CALLS getppid calls, one every
 * PB_STEP_NS, from FX_T0 on, then a page fault in the kernel (trap_entry
 * at PB_TRAP_IP, in do_fault+0x10 of tests/cli-previous.map) and the
 * panic (crash, kind panic, at PB_CRASH_IP: panic+0x42) at PB_CRASH_TS.
 * cpu1: a daemon (300) makes PB_CALLS1 calls, each PB_STEP_NS, and goes
 * idle long before the crash: its last event is at PB_CPU1_LAST.
 */
#define PB_CALLS	300
#define PB_CALLS1	200
#define PB_STEP_NS	10000000ULL	/* 10 ms */
#define PB_TRAP_IP	(PB_STEXT + 0x123410)
#define PB_CRASH_IP	(PB_STEXT + 0x4542)
#define PB_CRASH_TS	(FX_T0 + PB_CALLS * PB_STEP_NS + 2000000)
#define PB_CPU1_LAST	(FX_T0 + (PB_CALLS1 - 1) * PB_STEP_NS + 5000)

int pb_crash_trace(const char *dir);

/* How to build an image; zero: as the kernel makes it. */
struct pb_opts {
	uint32_t event_size;		/* 0: sizeof(struct ltt_event_info) */
	uint32_t header_size;		/* 0: sizeof(struct ltt_prev_header) */
	unsigned int end;		/* enum ltt_crash_kind; 0: panic */
};

/*
 * The image of trace @dir's packets (their checksums set), events and
 * clock offset, with the header's strings above: malloc'd in *@img.
 */
int pb_build(const char *dir, const struct pb_opts *o, unsigned char **img,
	     size_t *len);

#endif /* LTT_TESTS_PREVBOOT_H */
