// SPDX-License-Identifier: GPL-2.0
/*
 * What happens to a CPU: traps and exceptions (x86_64), interrupts, the
 * timer tick, softirqs and tasklets.  Each test makes the event happen
 * and checks its fields.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "ltt_workload.h"

FIXTURE(cpu) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

/*
 * Nothing reads while a test records, and the flush timer closes a packet
 * every flush_ms: sub-buffers for 3 s of ticks at 100 ms.
 */
static const struct ltt_create create_cpu = {
	.subbuf_size = 16384,
	.n_subbufs = 64,
	.mode = LTT_MODE_DISCARD,
	.flush_ms = 100,
};

FIXTURE_SETUP(cpu)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, &create_cpu);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(cpu)
{
	ltt_session_close(&self->s);
}

/* ---- Traps ---- */

/* Code at @ip lies within the 256 bytes from the start of @fn. */
static bool ip_in(__u64 ip, const void *fn)
{
	return ip >= (uintptr_t)fn && ip < (uintptr_t)fn + 256;
}

/*
 * The page fault's trap_entry and trap_exit: ltt_arch_test, on every
 * architecture.
 */

/* Exceptions a child raises in user mode, each in a function of its own. */
static char *ro_page;

static __attribute__((noipa)) void raise_de(void)
{
	asm volatile("xor %%ecx, %%ecx; div %%ecx" : : : "eax", "ecx", "edx");
}

static __attribute__((noipa)) void raise_bp(void)
{
	asm volatile("int3");
}

static __attribute__((noipa)) void raise_ud(void)
{
	asm volatile("ud2");
}

static __attribute__((noipa)) void raise_gp(void)
{
	asm volatile("hlt");	/* privileged */
}

static __attribute__((noipa)) void raise_pf(void)
{
	/* A write to a read-only page. */
	asm volatile("movb $1, (%0)" : : "r" (ro_page) : "memory");
}

FIXTURE(trap) {
	struct ltt_session s;
};

FIXTURE_VARIANT(trap) {
	const char *what;
	int trap;
	void (*raise)(void);
};

FIXTURE_VARIANT_ADD(trap, divide_error) {
	.what = "divide error (a div by 0), do_error_trap()",
	.trap = LTT_X86_TRAP_DE,
	.raise = raise_de,
};

FIXTURE_VARIANT_ADD(trap, invalid_opcode) {
	.what = "invalid opcode (ud2), do_error_trap()",
	.trap = LTT_X86_TRAP_UD,
	.raise = raise_ud,
};

FIXTURE_VARIANT_ADD(trap, page_fault) {
	.what = "page fault (a write to a read-only page), exc_page_fault()",
	.trap = LTT_X86_TRAP_PF,
	.raise = raise_pf,
};

FIXTURE_VARIANT_ADD(trap, breakpoint) {
	.what = "breakpoint (int3), exc_int3()",
	.trap = LTT_X86_TRAP_BP,
	.raise = raise_bp,
};

FIXTURE_VARIANT_ADD(trap, general_protection) {
	.what = "general protection (hlt in user mode), exc_general_protection()",
	.trap = LTT_X86_TRAP_GP,
	.raise = raise_gp,
};

FIXTURE_SETUP(trap)
{
	if (!ltt_setup(_metadata, &self->s, NULL, true))
		return;
	ASSERT_LE(0, ltt_pin_to_buffer_cpu(&self->s)) TH_LOG("%s", ltt_err);
}

FIXTURE_TEARDOWN(trap)
{
	ltt_session_close(&self->s);
}

static void exit_on_signal(int sig)
{
	_exit(0);
}

/*
 * A child raises the exception: trap_entry with its vector and an IP in
 * the raising function, then trap_exit on the same CPU (it is pinned).
 */
TEST_F(trap, exception_in_user_mode_gives_trap_entry_with_vector_and_ip_then_trap_exit)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct sigaction sa = { .sa_handler = exit_on_signal };
	struct ltt_trace t = { 0 };
	int go[2], status, sig;
	long i, n = 0, found = -1;
	pid_t child;
	char c;

	ro_page = mmap(NULL, ltt_page_size(), PROT_READ,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, ro_page);
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		for (sig = 1; sig < 32; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				sigaction(sig, &sa, NULL);
		close(go[1]);
		if (read(go[0], &c, 1) == 1)
			variant->raise();
		_exit(1);
	}
	close(go[0]);
	ASSERT_EQ(0, ltt_set_pids(self->s.fd, &child, 1))
		TH_LOG("SET_PIDS: %s", strerror(errno));
	FILTER_EVENTS("trap_entry", "trap_exit");
	START();
	ASSERT_EQ(1, write(go[1], "", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	STOP_AND_READ(&t);
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("the child did not take the exception's signal: status %#x",
		       status);

	/* The child faults before, e.g. on copy-on-write pages: skip those. */
	for (i = 0; i < (long)t.n; i++) {
		if (!IS(&t.ev[i], "trap_entry") ||
		    FIELD(&t.ev[i], "trap") != variant->trap)
			continue;
		n++;
		if (ip_in(FIELD(&t.ev[i], "ip"), variant->raise)) {
			found = i;
			break;
		}
	}
	ASSERT_LT(0, n)
		TH_LOG("no trap_entry of trap %d among %zu records: %s: %s",
		       variant->trap, t.n, variant->what,
		       "the handler has no ltt_trap_entry() hook");
	ASSERT_LE(0, found)
		TH_LOG("%s: %ld trap_entry of trap %d, none with an ip in %p (+256)",
		       variant->what, n, variant->trap, variant->raise);
	for (i = found + 1; i < (long)t.n; i++)
		if (t.ev[i].cpu == t.ev[found].cpu)
			break;
	ASSERT_LT(i, (long)t.n) TH_LOG("%s: no trap_exit after its trap_entry",
				       variant->what);
	EXPECT_TRUE(IS(&t.ev[i], "trap_exit"))
		TH_LOG("%s: after its trap_entry comes %s, not trap_exit",
		       variant->what, reg->ev[t.ev[i].id].name);
	ltt_trace_free(&t);
}

/* ---- Interrupts ---- */

/* Another CPU with a buffer than @cpu, or -1. */
static int other_cpu(const struct ltt_session *s, unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < s->n_cpus; i++)
		if (s->rd[i].cpu != cpu)
			return s->rd[i].cpu;
	return -1;
}

/*
 * Console output raises the UART's interrupts.  Routed to another CPU,
 * they interrupt a task spinning there in user mode (kernel 0), then the
 * idle CPU (kernel 1).  Per CPU, entries and exits alternate.
 */
TEST_F(cpu, console_output_gives_uart_irq_entries_from_user_and_kernel_mode_with_exits)
{
	const struct ltt_registry *reg = &self->s.reg;
	char path[64], saved[64] = "", val[16];
	struct ltt_trace t = { 0 };
	int irq, other, k, r, status;
	__u64 t0, t1, t2, t3;
	size_t n_user = 0, n_kernel = 0, n_uart = 0;
	unsigned int c;
	pid_t spinner;

	irq = ltt_uart_irq();
	ASSERT_LE(0, irq) TH_LOG("%s", ltt_err);
	other = other_cpu(&self->s, self->cpu);
	ASSERT_LE(0, other) TH_LOG("one CPU: the UART's irq goes to another than the writer's");
	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irq);
	ASSERT_EQ(0, ltt_read_str(path, saved, sizeof(saved))) TH_LOG("%s", ltt_err);
	snprintf(val, sizeof(val), "%d", other);
	ASSERT_EQ(0, ltt_write_str(path, val)) TH_LOG("%s", ltt_err);
	/* The IO-APIC moves an irq when it next fires: make it fire. */
	ASSERT_EQ(0, ltt_work_console(1)) TH_LOG("%s", ltt_err);

	spinner = fork();
	ASSERT_LE(0, spinner);
	if (!spinner) {
		ltt_pin_to_cpu(other);
		ltt_spin_user(5000000000ULL);
		_exit(0);
	}
	usleep(20000);
	FILTER_EVENTS("irq_entry", "irq_exit");
	START();
	t0 = ltt_now_ns(CLOCK_MONOTONIC);
	/* Rounds apart in time: each is an irq of its own, or a few. */
	for (r = 0, k = 0; r < 4 && !k; r++) {
		k = ltt_work_console(2);
		usleep(5000);
	}
	t1 = ltt_now_ns(CLOCK_MONOTONIC);
	kill(spinner, SIGKILL);
	waitpid(spinner, &status, 0);
	usleep(20000);
	t2 = ltt_now_ns(CLOCK_MONOTONIC);
	for (r = 0; r < 4 && !k; r++) {
		k = ltt_work_console(2);
		usleep(5000);
	}
	t3 = ltt_now_ns(CLOCK_MONOTONIC);
	ltt_write_str(path, saved);
	ASSERT_EQ(0, k) TH_LOG("%s", ltt_err);
	STOP_AND_READ(&t);

	for (c = 0; c < self->s.n_cpus; c++) {
		unsigned int cpu = self->s.rd[c].cpu;
		const struct ltt_event *prev = NULL;
		size_t i;

		for (i = 0; i < t.n; i++) {
			const struct ltt_event *ev = &t.ev[i];

			if (ev->cpu != cpu)
				continue;
			/* The session may start or stop within a handler. */
			if (prev)
				EXPECT_NE(prev->id, ev->id)
					TH_LOG("cpu %u: two %s in a row (seq %llu offset %u)",
					       cpu, reg->ev[ev->id].name,
					       (unsigned long long)ev->seq,
					       ev->offset);
			prev = ev;
			if (!IS(ev, "irq_entry"))
				continue;
			EXPECT_GE(1, FIELD(ev, "kernel"))
				TH_LOG("irq %lld: kernel is %lld, a boolean",
				       (long long)FIELD(ev, "irq"),
				       (long long)FIELD(ev, "kernel"));
			if (FIELD(ev, "irq") != irq || (int)cpu != other)
				continue;
			n_uart++;
			if (ev->ts >= t0 && ev->ts <= t1 && !FIELD(ev, "kernel"))
				n_user++;
			if (ev->ts >= t2 && ev->ts <= t3 && FIELD(ev, "kernel"))
				n_kernel++;
		}
	}
	EXPECT_LT(0, n_uart) TH_LOG("no irq_entry of irq %d (ttyS0) on cpu %d, its affinity",
				    irq, other);
	EXPECT_LT(0, n_user)
		TH_LOG("no irq_entry of irq %d, kernel 0, while cpu %d spun in user mode",
		       irq, other);
	if (!n_user || !n_kernel) {
		size_t i;

		TH_LOG("phases at +0 .. +%llu us (spinning), +%llu .. +%llu us (idle)",
		       (t1 - t0) / 1000, (t2 - t0) / 1000, (t3 - t0) / 1000);
		for (i = 0; i < t.n; i++)
			if (IS(&t.ev[i], "irq_entry"))
				TH_LOG("irq_entry cpu %u irq %lld kernel %lld at +%lld us",
				       t.ev[i].cpu, (long long)FIELD(&t.ev[i], "irq"),
				       (long long)FIELD(&t.ev[i], "kernel"),
				       ((long long)t.ev[i].ts - (long long)t0) / 1000);
	}
	EXPECT_LT(0, n_kernel) TH_LOG("no irq_entry of irq %d with kernel 1 while cpu %d was idle",
				      irq, other);
	TH_LOG("irq %d on cpu %d: %zu entries, %zu from user mode, %zu from idle",
	       irq, other, n_uart, n_user, n_kernel);
	ltt_trace_free(&t);
}

/* ---- The tick ---- */

#define HOST_MISSED_TICKS "the local timer interrupted the CPU as rarely: the host did not run the vCPU at every tick (QEMU TCG on a busy host?)"

#define TICK_WINDOWS	3

/*
 * A CPU that spins for a second of CLOCK_MONOTONIC ticks HZ times, +-10%;
 * each tick is one of its local timer interrupts (LOC in /proc/interrupts).
 * A busy host may not run the vCPU at every tick: up to three seconds are
 * spun, until one has HZ local timer interrupts +-10%, and the ticks of
 * that one are counted against HZ (if none has, HZ goes unchecked).
 * Every second's ticks must match its local timer interrupts, or, in a
 * second the host ran the vCPU late, at least match them and stay within
 * HZ.
 */
TEST_F(cpu, spinning_cpu_records_hz_timer_ticks_per_second)
{
	const struct ltt_registry *reg = &self->s.reg;
	long long loc[TICK_WINDOWS + 1], dloc = 0;
	__u64 ts[TICK_WINDOWS + 1];
	struct ltt_trace t = { 0 };
	double expected = 0;
	size_t i, n = 0;
	int w, last = 0;

	FILTER_EVENTS("timer_tick");
	START();
	loc[0] = ltt_local_timer_irqs(self->cpu);
	ts[0] = ltt_now_ns(CLOCK_MONOTONIC);
	for (w = 0; w < TICK_WINDOWS; w++) {
		ltt_spin_user(1000000000ULL);
		ts[w + 1] = ltt_now_ns(CLOCK_MONOTONIC);
		loc[w + 1] = ltt_local_timer_irqs(self->cpu);
		last = w;
		expected = (double)LTT_HZ * (ts[w + 1] - ts[w]) / 1e9;
		dloc = loc[w + 1] - loc[w];
		if (loc[w + 1] < 0 || (dloc >= expected * 0.9 && dloc <= expected * 1.1))
			break;
	}
	STOP_AND_READ(&t);
	ASSERT_LE(0, loc[0]) TH_LOG("%s", ltt_err);
	ASSERT_LE(0, loc[last + 1]) TH_LOG("%s", ltt_err);

	for (w = 0; w <= last; w++) {
		long long slack;

		dloc = loc[w + 1] - loc[w];
		for (i = 0, n = 0; i < t.n; i++)
			if (IS(&t.ev[i], "timer_tick") &&
			    t.ev[i].cpu == self->cpu && t.ev[i].ts >= ts[w] &&
			    t.ev[i].ts < ts[w + 1])
				n++;
		expected = (double)LTT_HZ * (ts[w + 1] - ts[w]) / 1e9;
		TH_LOG("second %d: %zu ticks, %lld local timer irqs on cpu %u in %llu ms, HZ %d",
		       w + 1, n, dloc, self->cpu, ltt_ms(ts[w + 1] - ts[w]),
		       LTT_HZ);
		/* The counts are read a moment off the window's edges. */
		slack = 2 + dloc / 20;
		/*
		 * A vCPU the host ran late takes one interrupt for several
		 * expired ticks (hrtimer_interrupt() runs them all): then no
		 * more ticks than the second had, and no fewer than interrupts.
		 */
		if (dloc < expected * 0.9) {
			EXPECT_GE(expected * 1.1 + 2, (double)n)
				TH_LOG("more ticks than a second of HZ");
		} else {
			EXPECT_GE(dloc + slack, (long long)n)
				TH_LOG("more ticks than local timer interrupts");
		}
		EXPECT_LE(dloc - slack, (long long)n)
			TH_LOG("ticks missing: the CPU took %lld local timer interrupts",
			       dloc);
	}
	/*
	 * A host that never ran the vCPU at every tick leaves HZ untested:
	 * the ticks matched the interrupts the CPU took, which is LTT's part.
	 */
	if (dloc < expected * 0.9) {
		TH_LOG("%s: HZ not checked", HOST_MISSED_TICKS);
		ltt_trace_free(&t);
		return;
	}
	EXPECT_LE(expected * 0.9, (double)n)
		TH_LOG("%zu ticks, expected %.0f +-10%%: ticks missing", n,
		       expected);
	EXPECT_GE(expected * 1.1, (double)n)
		TH_LOG("%zu ticks, expected %.0f +-10%%", n, expected);
	ltt_trace_free(&t);
}

/* ---- Softirqs ---- */

/* A loopback UDP packet is received in the NET_RX softirq. */
TEST_F(cpu, loopback_packet_gives_net_rx_softirq)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	size_t i, net_rx = 0;
	__u64 t0, t1;

	WORK(ltt_lo_up());
	FILTER_EVENTS("softirq");
	START();
	t0 = ltt_now_ns(CLOCK_MONOTONIC);
	WORK(ltt_work_udp(100));
	t1 = ltt_now_ns(CLOCK_MONOTONIC);
	STOP_AND_READ(&t);

	for (i = 0; i < t.n; i++) {
		__s64 vec = FIELD(&t.ev[i], "vec");

		EXPECT_GT(LTT_NR_SOFTIRQS, vec)
			TH_LOG("softirq vector %lld on cpu %u: there are %d",
			       (long long)vec, t.ev[i].cpu, LTT_NR_SOFTIRQS);
		if (vec == LTT_NET_RX_SOFTIRQ && t.ev[i].ts >= t0 &&
		    t.ev[i].ts <= t1)
			net_rx++;
	}
	EXPECT_LT(0, net_rx)
		TH_LOG("no softirq of vec %d (NET_RX) for a UDP packet on lo, among %zu",
		       LTT_NET_RX_SOFTIRQ, t.n);
	ltt_trace_free(&t);
}

/*
 * Timers expire in the TIMER softirq: the last softirq before each
 * timer_expired on its CPU has vec 1.
 */
TEST_F(cpu, timers_expire_within_the_timer_softirq)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	size_t expired = 0;
	unsigned int c;

	FILTER_EVENTS("softirq", "timer_expired");
	START();
	WORK(ltt_work_rcvtimeo(20));
	STOP_AND_READ(&t);

	for (c = 0; c < self->s.n_cpus; c++) {
		const struct ltt_event *last = NULL;
		size_t i;

		for (i = 0; i < t.n; i++) {
			const struct ltt_event *ev = &t.ev[i];

			if (ev->cpu != self->s.rd[c].cpu)
				continue;
			if (IS(ev, "softirq")) {
				last = ev;
				continue;
			}
			if (!last)	/* its softirq began before START */
				continue;
			expired++;
			EXPECT_EQ(LTT_TIMER_SOFTIRQ, FIELD(last, "vec"))
				TH_LOG("cpu %u: timer_expired (seq %llu offset %u) in softirq %lld",
				       ev->cpu, (unsigned long long)ev->seq,
				       ev->offset, (long long)FIELD(last, "vec"));
		}
	}
	EXPECT_LT(0, expired) TH_LOG("no timer_expired in a softirq, for a 20 ms socket timeout");
	ltt_trace_free(&t);
}

/* ---- Tasklets ---- */

/*
 * A keyboard LED change schedules the keyboard tasklet: tasklet_action
 * with kbd_bh as its function, in the TASKLET softirq (vec 6).
 */
TEST_F(cpu, keyboard_led_change_gives_tasklet_action_of_kbd_bh)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	unsigned long long kbd_bh;
	size_t i, n = 0, others = 0;

	FILTER_EVENTS("tasklet_action", "tasklet_hi_action", "softirq");
	START();
	WORK(ltt_work_kbd_tasklet());
	STOP_AND_READ(&t);
	kbd_bh = ltt_kallsyms("kbd_bh");
	ASSERT_NE(0ULL, kbd_bh) TH_LOG("%s", ltt_err);

	for (i = 0; i < t.n; i++) {
		const struct ltt_event *ev = &t.ev[i];
		long j;

		if (IS(ev, "softirq"))
			continue;
		if ((unsigned long long)FIELD(ev, "func") != kbd_bh) {
			others++;
			continue;
		}
		n++;
		EXPECT_TRUE(IS(ev, "tasklet_action"))
			TH_LOG("kbd_bh recorded as %s", reg->ev[ev->id].name);
		for (j = i - 1; j >= 0; j--)
			if (t.ev[j].cpu == ev->cpu && IS(&t.ev[j], "softirq"))
				break;
		if (j >= 0)
			EXPECT_EQ(6, FIELD(&t.ev[j], "vec"))
				TH_LOG("kbd_bh ran in softirq %lld, not TASKLET (6)",
				       (long long)FIELD(&t.ev[j], "vec"));
	}
	EXPECT_LT(0, n)
		TH_LOG("no tasklet_action of kbd_bh (%#llx) for KDSETLED; %zu of others",
		       kbd_bh, others);
	ltt_trace_free(&t);
}

/* A hi tasklet runs: tasklet_hi_action with its function. */
TEST_F(cpu, hi_tasklet_gives_tasklet_hi_action)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };

	FILTER_EVENTS("tasklet_hi_action");
	START();
	EXPECT_EQ(0, ltt_work_hi_tasklet()) TH_LOG("%s", ltt_err);
	STOP_AND_READ(&t);
	EXPECT_LT(0, ltt_count(reg, &t, "tasklet_hi_action", -1))
		TH_LOG("no tasklet_hi_action recorded");
	ltt_trace_free(&t);
}

TEST_HARNESS_MAIN
