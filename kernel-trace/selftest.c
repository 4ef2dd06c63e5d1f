// SPDX-License-Identifier: GPL-2.0
/*
 * Triggers and knobs for the LTT selftests (CONFIG_LTT_SELFTEST), in
 * /sys/kernel/debug/ltt/:
 *
 *   hi_tasklet       writing anything schedules a hi tasklet, an event
 *                    that no system call makes happen in a minimal kernel
 *   start_delay_ms   LTT_CMD_START sleeps this long before it takes the
 *                    locks: a close() of the session fd can race it
 *   stop_delay_ms    a stop sleeps this long between flushing the
 *                    buffers and marking the session stopped
 *   log_delay_us     a custom event spins this long between finding the
 *                    session and writing to it: a STOP can race it
 *   snapshot_delay_ms  LTT_BUF_SNAPSHOT_READ sleeps this long between
 *                    copying a packet and checking it was not overwritten
 *   clock_back_ns    the next clock read returns this much less, once,
 *                    as ktime_get_mono_fast_ns() may after an NMI
 *   recurse_trap     while set, writing a trap_entry record raises a
 *                    trap_entry again, as a fault on the buffer would
 *   irq_repeat       the next custom event logged is logged once more
 *                    from a hard interrupt on its CPU, its task current
 *   dump_delay_ms    the state dump sleeps this long before each record:
 *                    a small dump lasts as long as a big system's
 *   offset_wrap_mib  a buffer made while it is set starts its write
 *                    offset this many MiB short of 4 GiB, where a 32-bit
 *                    kernel's offsets wrap: a test reaches the wrap with
 *                    a few MiB written rather than 4 GiB
 *   probes_attached  (read) whether the probes are attached
 *
 * The knobs widen race windows so that a test hits them every time.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/preempt.h>
#include <linux/string.h>

#include "internal.h"

u32 ltt_knobs[LTT_NR_KNOBS];
unsigned long ltt_selftest_clock_back_ns;

static const char *const ltt_knob_names[LTT_NR_KNOBS] = {
	[LTT_KNOB_START_DELAY_MS]	= "start_delay_ms",
	[LTT_KNOB_STOP_DELAY_MS]	= "stop_delay_ms",
	[LTT_KNOB_LOG_DELAY_US]		= "log_delay_us",
	[LTT_KNOB_RECURSE_TRAP]		= "recurse_trap",
	[LTT_KNOB_SNAPSHOT_DELAY_MS]	= "snapshot_delay_ms",
	[LTT_KNOB_IRQ_REPEAT]		= "irq_repeat",
	[LTT_KNOB_DUMP_DELAY_MS]	= "dump_delay_ms",
	[LTT_KNOB_OFFSET_WRAP_MIB]	= "offset_wrap_mib",
};

static void ltt_selftest_hi_tasklet_fn(struct tasklet_struct *t)
{
}

static DECLARE_TASKLET(ltt_selftest_hi_tasklet, ltt_selftest_hi_tasklet_fn);

static ssize_t ltt_selftest_hi_write(struct file *file, const char __user *buf,
				     size_t count, loff_t *ppos)
{
	tasklet_hi_schedule(&ltt_selftest_hi_tasklet);
	return count;
}

static const struct file_operations ltt_selftest_hi_fops = {
	.write	= ltt_selftest_hi_write,
	.llseek	= noop_llseek,
};

/**
 * ltt_selftest_sleep - sleep for a knob's milliseconds, if set
 * @knob: the knob
 */
void ltt_selftest_sleep(enum ltt_knob knob)
{
	u32 t = READ_ONCE(ltt_knobs[knob]);

	if (t)
		msleep(t);
}

/**
 * ltt_selftest_spin - busy-wait for a knob's microseconds, if set
 * @knob: the knob; at most a millisecond is spun
 */
void ltt_selftest_spin(enum ltt_knob knob)
{
	u32 t = READ_ONCE(ltt_knobs[knob]);

	if (t)
		udelay(min(t, 1000U));
}

static void ltt_irq_repeat_fn(struct irq_work *work);

/* The event irq_repeat logs again, and the hard interrupt that does. */
static struct {
	struct irq_work work;
	unsigned int id;
	kuid_t owner;
	unsigned int size;
	u8 data[LTT_EVENT_SIZE_MAX];
} ltt_irq_repeat = {
	.work = IRQ_WORK_INIT_HARD(ltt_irq_repeat_fn),
};

static void ltt_irq_repeat_fn(struct irq_work *work)
{
	ltt_write_custom(ltt_irq_repeat.id, ltt_irq_repeat.owner,
			 ltt_irq_repeat.data, ltt_irq_repeat.size);
}

/**
 * __ltt_selftest_irq_repeat - log a custom event again from a hard interrupt
 * @id: its type's id
 * @owner: the uid that made the type from user space, or INVALID_UID
 * @data: the payload, already checked
 * @size: its size, at most LTT_EVENT_SIZE_MAX
 *
 * When irq_repeat is set, once: the interrupt is raised on this CPU with
 * preemption off, so the task that logged is current when it writes.
 */
void __ltt_selftest_irq_repeat(unsigned int id, kuid_t owner,
			       const void *data, unsigned int size)
{
	if (!in_task() || !xchg(&ltt_knobs[LTT_KNOB_IRQ_REPEAT], 0))
		return;
	ltt_irq_repeat.id = id;
	ltt_irq_repeat.owner = owner;
	ltt_irq_repeat.size = min_t(unsigned int, size, LTT_EVENT_SIZE_MAX);
	memcpy(ltt_irq_repeat.data, data, ltt_irq_repeat.size);
	preempt_disable();
	irq_work_queue(&ltt_irq_repeat.work);
	preempt_enable();
	irq_work_sync(&ltt_irq_repeat.work);
}

static int __init ltt_selftest_init(void)
{
	struct dentry *dir = debugfs_create_dir("ltt", NULL);
	unsigned int i;

	debugfs_create_file("hi_tasklet", 0200, dir, NULL,
			    &ltt_selftest_hi_fops);
	for (i = 0; i < LTT_NR_KNOBS; i++)
		debugfs_create_u32(ltt_knob_names[i], 0600, dir, &ltt_knobs[i]);
	debugfs_create_ulong("clock_back_ns", 0600, dir,
			     &ltt_selftest_clock_back_ns);
	debugfs_create_bool("probes_attached", 0400, dir, &ltt_attached);
	return 0;
}
late_initcall(ltt_selftest_init);
