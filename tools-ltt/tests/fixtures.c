// SPDX-License-Identifier: GPL-2.0
/*
 * The fixture traces (see fixtures.h), made with the test-only writer.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include <ltt/ltt.h>

#include "fixtures.h"
#include "writer.h"

#define EV(cpu, ts, name, ...)						\
	do {								\
		const int64_t f_[] = { __VA_ARGS__ };			\
		if (fx_event(w, cpu, ts, name, f_, NULL))		\
			return -1;					\
	} while (0)
#define EV_STR(cpu, ts, name, str, ...)					\
	do {								\
		const int64_t f_[] = { __VA_ARGS__ };			\
		if (fx_event(w, cpu, ts, name, f_, str))		\
			return -1;					\
	} while (0)

#define IP	0x7f0000401000LL

/* cpu0: bash forks the worker, which execs, calls getppid, exits. */
static int basic_cpu0(struct fx_writer *w)
{
	uint64_t t = FX_T0;
	unsigned int i;

	fx_set_pid(w, 0, 100);
	EV_STR(0, t, "process_exec", "/bin/bash", 100);
	EV(0, t + 1000, "syscall_entry", 57, IP);
	EV(0, t + 2000, "process_fork", 101, 101);
	EV(0, t + 3000, "syscall_exit", 101);
	EV(0, t + 4000, "sched_change", 101, 100, 1);
	EV(0, t + 5000, "syscall_entry", 59, IP);
	EV_STR(0, t + 6000, "process_exec", "/usr/bin/worker", 101);
	EV(0, t + 7000, "syscall_exit", 0);
	for (i = 0; i < FX_GETPPID; i++) {
		uint64_t c = t + 10000 + i * 1000ULL;

		EV(0, c, "syscall_entry", 110, IP + i);
		EV(0, c + FX_GETPPID_NS, "syscall_exit", 100);
	}
	t += 10000 + (FX_GETPPID - 1) * 1000ULL + FX_GETPPID_NS + FX_PAUSE_NS;
	EV(0, t, "syscall_entry", 1, IP);
	EV(0, t + 2000, "syscall_exit", 5);
	EV(0, t + 3000, "syscall_entry", 60, IP);
	EV(0, t + 4000, "process_exit", 101, 0);
	EV(0, t + 5000, "sched_change", 100, 101, 0x80);
	return 0;
}

/* cpu1: init wakes from idle, reads, sleeps; a flush in between. */
static int basic_cpu1(struct fx_writer *w)
{
	uint64_t t = FX_T0;
	unsigned int i;

	fx_set_pid(w, 1, 0);
	EV(1, t + 500, "sched_change", 1, 0, 0);
	EV_STR(1, t + 600, "fs_open", FX_INITTAB, 3, O_RDONLY, FX_DEV, 1001, 0);
	for (i = 0; i < FX_READS; i++) {
		uint64_t c = t + 1000 + i * 10000ULL;

		if (i == FX_READS / 2 && fx_flush(w, 1, c - 10))
			return -1;
		EV(1, c, "syscall_entry", 0, IP);
		EV(1, c + FX_READ_NS, "syscall_exit", 4096);
	}
	EV(1, t + 1000 + FX_READS * 10000ULL - 100, "fs_close", 3);
	EV(1, t + 1000 + FX_READS * 10000ULL, "sched_change", 0, 1, 1);
	return 0;
}

int fx_make_basic(const char *dir)
{
	struct ltt_registry reg;
	struct fx_writer w;

	if (fx_registry(&reg) ||
	    fx_open(&w, dir, &reg, 2, 4096, FX_CLOCK_OFFSET) ||
	    basic_cpu0(&w) || basic_cpu1(&w))
		return -1;
	return fx_close(&w, FX_T0 + 100000000ULL);
}

int fx_make_lossy(const char *dir)
{
	struct ltt_registry reg;
	struct fx_writer wr, *w = &wr;
	uint64_t t = FX_T0;

	if (fx_registry(&reg) || fx_registry_add_custom(&reg, FX_LOSSY_CUSTOM) ||
	    fx_open(w, dir, &reg, 1, 4096, FX_CLOCK_OFFSET))
		return -1;
	fx_set_pid(w, 0, 300);
	EV(0, t, "custom_0", 1);
	EV(0, t + 100, "custom_125", 125);
	EV_STR(0, t + 200, "process_exec", FX_LOSSY_STRING, 300);
	if (fx_lose(w, 0, t + 300, FX_LOSSY_LOST1))
		return -1;
	EV(0, t + 1000, "syscall_entry", 39, IP);
	EV(0, t + 2000, "syscall_exit", 300);
	if (fx_overwrite(w, 0, t + 3000, FX_LOSSY_GAP, FX_LOSSY_GAP_EVENTS))
		return -1;
	EV(0, t + 4000, "custom_129", 0xffffffffLL);
	EV(0, t + 5000, "syscall_entry", 39, IP);
	EV(0, t + 6000, "syscall_exit", 300);
	if (fx_lose(w, 0, t + 6500, FX_LOSSY_LOST_END) ||
	    fx_report_lost(w, 0, t + 6600))
		return -1;
	return fx_close(w, t + 7000);
}

void fx_long_path(char *buf)
{
	static const char part[] = "long-path-";
	unsigned int i;

	strcpy(buf, "/tmp/");
	for (i = strlen(buf); i < LTT_STRING_MAX - 1; i++)
		buf[i] = part[i % (sizeof(part) - 1)];
	buf[i] = '\0';
}

void fx_long_text(char *buf)
{
	static const char part[] = "say \"hi\\\t\x01\x7f\n\r ";
	unsigned int i;

	for (i = 0; i < LTT_STRING_MAX - 1; i++)
		buf[i] = part[i % (sizeof(part) - 1)];
	buf[i] = '\0';
}

int fx_make_strings(const char *dir)
{
	static const struct fx_field note[] = { { "text", false, 0 } };
	char path[LTT_STRING_MAX], text[LTT_STRING_MAX];
	struct ltt_registry reg;
	struct fx_writer wr, *w = &wr;
	uint64_t t = FX_T0;

	fx_long_path(path);
	fx_long_text(text);
	if (fx_registry(&reg) || fx_registry_add_event(&reg, "note", note, 1) ||
	    fx_open(w, dir, &reg, 1, 4096, FX_CLOCK_OFFSET))
		return -1;
	fx_set_pid(w, 0, FX_LONG_PID);
	EV_STR(0, t, "process_exec", path, FX_LONG_PID);
	EV_STR(0, t + 100, "fs_open", path, FX_LONG_FD, O_WRONLY | O_CREAT,
	       FX_DEV, 1002, 1);
	EV(0, t + 200, "fs_write", FX_LONG_FD, 10);
	EV_STR(0, t + 300, "note", text);
	EV_STR(0, t + 400, "note", "x");
	EV_STR(0, t + 500, "note", "");
	EV(0, t + 600, "fs_close", FX_LONG_FD);
	return fx_close(w, t + 1000);
}

/* The custom events of the sample modules (samples/ltt/). */
static int culprits_registry(struct ltt_registry *reg, bool custom)
{
	static const struct fx_field unlink_fields[] = { { "name", false, 0 } };
	static const struct fx_field kill_fields[] = {
		{ "sig", true, 4 }, { "target", true, 4 }, { "sender", true, 4 },
	};

	if (fx_registry(reg))
		return -1;
	if (!custom)
		return 0;
	return fx_registry_add_event(reg, "unlink", unlink_fields, 1) ||
	       fx_registry_add_event(reg, "kill", kill_fields, 3);
}

/* A system call by the task running on @cpu, with what it logs inside. */
#define CALL(cpu, ts, nr, ret, ...)					\
	do {								\
		EV(cpu, ts, "syscall_entry", nr, IP);			\
		__VA_ARGS__;						\
		EV(cpu, ts + 1000, "syscall_exit", ret);		\
	} while (0)

/* cpu0: the rewriter writes FX_WATCHED; rm unlinks FX_VICTIM. */
static int culprits_cpu0(struct fx_writer *w, bool custom)
{
	uint64_t t = FX_T0;

	fx_set_pid(w, 0, FX_REWRITER);
	EV_STR(0, t, "process_exec", "/usr/bin/rewriter", FX_REWRITER);
	CALL(0, t + 1000, 2, 4,
	     EV_STR(0, t + 1500, "fs_open", FX_WATCHED, 4, O_WRONLY,
		    FX_DEV, 1003, 0));
	CALL(0, t + 3000, 1, 10, EV(0, t + 3500, "fs_write", 1, 10));
	CALL(0, t + 5000, 1, 6, EV(0, t + 5500, "fs_write", 4, 6));
	CALL(0, t + 7000, 3, 0, EV(0, t + 7500, "fs_close", 4));
	EV(0, t + 9000, "sched_change", FX_RM, FX_REWRITER, 1);
	EV_STR(0, t + 10000, "process_exec", "/bin/rm", FX_RM);
	CALL(0, t + 11000, 87, 0, if (custom) {
		EV_STR(0, t + 11500, "unlink", FX_VICTIM);
		EV_STR(0, t + 11600, "fs_unlink", FX_VICTIM, 0);
	});
	return 0;
}

/* cpu1: the killer signals the sleeper; the unlinker unlinks "other". */
static int culprits_cpu1(struct fx_writer *w, bool custom)
{
	uint64_t t = FX_T0;

	fx_set_pid(w, 1, FX_KILLER);
	EV_STR(1, t + 500, "process_exec", "/usr/bin/killer", FX_KILLER);
	EV_STR(1, t + 600, "statedump_process", "sleep", FX_SLEEPER,
	       FX_SLEEPER, 1);
	EV(1, t + 2500, "process_signal", 17, FX_SLEEPER, FX_CLD_EXITED);
	CALL(1, t + 8000, 62, 0, {
		if (custom)
			EV(1, t + 8200, "kill", 15, FX_SLEEPER, FX_KILLER);
		EV(1, t + 8300, "process_signal", 15, FX_SLEEPER, FX_SI_USER);
	});
	EV(1, t + 12000, "sched_change", FX_SLEEPER, FX_KILLER, 1);
	EV(1, t + 12500, "process_exit", FX_SLEEPER, 15);
	EV(1, t + 12900, "sched_change", FX_KILLER, FX_SLEEPER, 0x80);
	EV(1, t + 13000, "sched_change", FX_UNLINKER, FX_KILLER, 1);
	EV_STR(1, t + 13500, "process_exec", "/usr/bin/unlinker", FX_UNLINKER);
	CALL(1, t + 14000, 263, 0,
	     if (custom) EV_STR(1, t + 14500, "unlink", "other"));
	return 0;
}

int fx_make_culprits(const char *dir, bool custom)
{
	struct ltt_registry reg;
	struct fx_writer w;

	if (culprits_registry(&reg, custom) ||
	    fx_open(&w, dir, &reg, 2, 4096, FX_CLOCK_OFFSET) ||
	    culprits_cpu0(&w, custom) || culprits_cpu1(&w, custom))
		return -1;
	return fx_close(&w, FX_T0 + 100000000ULL);
}

/*
 * blocking: a task in a read for the whole trace (cpu0) while another
 * makes FX_BLOCKING_CALLS calls (cpu1): more lines than ltt report
 * --syscalls holds back for time order.
 */
int fx_make_blocking(const char *dir)
{
	struct ltt_registry reg;
	struct fx_writer w_, *w = &w_;
	uint64_t t = FX_T0;
	unsigned int i;

	if (fx_registry(&reg) ||
	    fx_open(w, dir, &reg, 2, 16384, FX_CLOCK_OFFSET))
		return -1;
	fx_set_pid(w, 0, 700);
	fx_set_pid(w, 1, 701);
	EV_STR(0, t, "statedump_process", "reader", 700, 700, 1);
	EV_STR(0, t + 10, "statedump_process", "worker", 701, 701, 1);
	EV(0, t + 100, "syscall_entry", 0, IP);
	for (i = 0; i < FX_BLOCKING_CALLS; i++) {
		uint64_t c = t + 1000 + i * 1000ULL;

		EV(1, c, "syscall_entry", 110, IP);
		EV(1, c + 500, "syscall_exit", 700);
	}
	EV(0, t + 2000 + FX_BLOCKING_CALLS * 1000ULL, "syscall_exit", 5);
	return fx_close(w, t + 3000 + FX_BLOCKING_CALLS * 1000ULL);
}
