// SPDX-License-Identifier: GPL-2.0
/*
 * Images of a previous boot's trace for the tests (prevboot.h): the
 * packets of a trace directory, their checksums set as a persist=
 * session's are, behind a header and the arrays the kernel writes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/internal.h"
#include "fixtures.h"
#include "prevboot.h"
#include "writer.h"

#define EV(cpu, ts, name, ...)						\
	do {								\
		const int64_t f_[] = { __VA_ARGS__ };			\
		if (fx_event(&w, cpu, ts, name, f_, NULL))		\
			return -1;					\
	} while (0)

int pb_crash_trace(const char *dir)
{
	struct ltt_registry reg;
	struct fx_writer w;
	const int64_t crash[] = { LTT_CRASH_PANIC, (int64_t)PB_CRASH_IP };
	uint64_t t;
	unsigned int i;

	if (fx_registry(&reg) ||
	    fx_open(&w, dir, &reg, 2, 4096, FX_CLOCK_OFFSET))
		return -1;
	fx_set_pid(&w, 0, 200);
	fx_set_pid(&w, 1, 300);
	for (i = 0; i < PB_CALLS; i++) {
		t = FX_T0 + i * PB_STEP_NS;
		EV(0, t, "syscall_entry", 110, 0x7f0000401000LL);
		EV(0, t + 1000, "syscall_exit", 1);
	}
	for (i = 0; i < PB_CALLS1; i++) {
		t = FX_T0 + i * PB_STEP_NS + 3000;
		EV(1, t, "syscall_entry", 0, 0x7f0000402000LL);
		EV(1, t + 2000, "syscall_exit", 8);
	}
	EV(0, PB_CRASH_TS - 1000, "trap_entry", 14, (int64_t)PB_TRAP_IP);
	if (fx_event(&w, 0, PB_CRASH_TS, "crash", crash, PB_MESSAGE))
		return -1;
	return fx_close(&w, PB_CRASH_TS + 1000);
}

/* The whole of @path in *@data; 0 bytes when it does not exist. */
static int pb_slurp(const char *path, unsigned char **data, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	*data = NULL;
	*len = 0;
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !(*data = malloc(st.st_size + 1)) ||
	    read(fd, *data, st.st_size) != st.st_size) {
		close(fd);
		return -1;
	}
	*len = st.st_size;
	close(fd);
	return 0;
}

/* Set each packet's checksum; the number of packets, -1 on damage. */
static int pb_checksum(unsigned char *pkts, size_t len)
{
	struct ltt_packet_header h;
	size_t off = 0;
	int n = 0;

	while (off < len) {
		if (len - off < sizeof(h))
			return -1;
		memcpy(&h, pkts + off, sizeof(h));
		if (h.packet_size / 8 > len - off || h.content_size < 8 * sizeof(h))
			return -1;
		h.checksum = 0;
		memcpy(pkts + off, &h, sizeof(h));
		h.checksum = ltt_crc32(0, pkts + off, h.content_size / 8);
		memcpy(pkts + off, &h, sizeof(h));
		off += h.packet_size / 8;
		n++;
	}
	return n;
}

/* The kernel's description of @d. */
static void pb_event_info(struct ltt_event_info *ei,
			  const struct ltt_event_desc *d)
{
	unsigned int i;

	memset(ei, 0, sizeof(*ei));
	ei->id = d->id;
	ei->n_fields = d->n_fields;
	snprintf(ei->name, sizeof(ei->name), "%s", d->name);
	ei->payload_size = d->payload_size;
	ei->flags = d->custom ? LTT_EVENT_F_CUSTOM : 0;
	for (i = 0; i < d->n_fields; i++) {
		snprintf(ei->fields[i].name, sizeof(ei->fields[i].name), "%s",
			 d->fields[i].name);
		ei->fields[i].type = d->fields[i].type;
		ei->fields[i].size = d->fields[i].size;
		ei->fields[i].offset = d->fields[i].offset;
	}
}

int pb_build(const char *dir, const struct pb_opts *o, unsigned char **img,
	     size_t *len)
{
	static const uint8_t boot_id[16] = {
		0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x49, 0x68,
		0x87, 0x76, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0 };
	struct ltt_trace *t = ltt_trace_open(dir);
	const struct ltt_registry *reg;
	struct ltt_prev_header h;
	struct ltt_prev_cpu cpus[2];
	struct ltt_prev_module mods[2];
	unsigned char *pkts[2], *out;
	size_t plen[2], off;
	char path[4200];
	unsigned int i;

	if (!t)
		return -1;
	memset(&h, 0, sizeof(h));
	memset(cpus, 0, sizeof(cpus));
	memset(mods, 0, sizeof(mods));
	reg = ltt_trace_registry(t);
	h.magic = LTT_PREV_MAGIC;
	h.version = LTT_PREV_VERSION;
	h.header_size = o->header_size ? o->header_size : sizeof(h);
	h.n_cpus = 2;
	h.n_events = reg->n_events;
	h.event_size = o->event_size ? o->event_size :
				       sizeof(struct ltt_event_info);
	h.n_modules = 2;
	h.subbuf_size = 4096;
	h.n_subbufs = 64;
	h.end = o->end ? o->end : LTT_CRASH_PANIC;
	memcpy(h.boot_id, boot_id, sizeof(boot_id));
	for (i = 0; i < 20; i++)
		h.build_id[i] = 0xb0 + i;
	h.build_id_size = 20;
	snprintf(h.release, sizeof(h.release), "%s", PB_RELEASE);
	snprintf(h.kversion, sizeof(h.kversion), "%s", PB_KVERSION);
	snprintf(h.machine, sizeof(h.machine), "%s", PB_MACHINE);
	snprintf(h.end_message, sizeof(h.end_message), "%s", PB_MESSAGE);
	h.stext = PB_STEXT;
	h.realtime_offset = ltt_trace_clock_offset(t);
	h.end_ns = PB_CRASH_TS;
	snprintf(mods[0].name, sizeof(mods[0].name), "%s", PB_MODULE);
	mods[0].base = PB_MODULE_BASE;
	mods[0].size = PB_MODULE_SIZE;
	snprintf(mods[1].name, sizeof(mods[1].name), "ext4");
	mods[1].base = PB_MODULE_BASE + 0x100000;
	mods[1].size = 0x80000;
	for (i = 0; i < 2; i++) {
		int n;

		snprintf(path, sizeof(path), "%s/" LTT_STREAM_FMT, dir, i);
		if (pb_slurp(path, &pkts[i], &plen[i]))
			return -1;
		n = pb_checksum(pkts[i], plen[i]);
		if (n < 0)
			return -1;
		cpus[i].cpu = i;
		cpus[i].n_packets = n;
		cpus[i].n_damaged = i;		/* cpu 1 lost one */
		cpus[i].open_lost = i == 0;
		cpus[i].size = plen[i];
		cpus[i].lost = 0;
	}
	/* header, CPUs, events, modules, packets */
	h.cpus_offset = h.header_size;
	h.events_offset = h.cpus_offset + sizeof(cpus);
	h.modules_offset = h.events_offset + (uint64_t)h.n_events * h.event_size;
	cpus[0].offset = h.modules_offset + sizeof(mods);
	cpus[1].offset = cpus[0].offset + plen[0];
	h.size = cpus[1].offset + plen[1];
	out = calloc(1, h.size);
	if (!out)
		return -1;
	memcpy(out, &h, sizeof(h) < h.header_size ? sizeof(h) : h.header_size);
	memcpy(out + h.cpus_offset, cpus, sizeof(cpus));
	for (i = 0; i < h.n_events; i++) {
		struct ltt_event_info ei;

		pb_event_info(&ei, &reg->events[i]);
		memcpy(out + h.events_offset + (uint64_t)i * h.event_size, &ei,
		       h.event_size < sizeof(ei) ? h.event_size : sizeof(ei));
	}
	memcpy(out + h.modules_offset, mods, sizeof(mods));
	off = cpus[0].offset;
	for (i = 0; i < 2; i++) {
		if (plen[i])
			memcpy(out + off, pkts[i], plen[i]);
		off += plen[i];
		free(pkts[i]);
	}
	ltt_trace_close(t);
	*img = out;
	*len = h.size;
	return 0;
}
