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
 *   clock_back_ns    the next clock read returns this much less, once,
 *                    as ktime_get_mono_fast_ns() may after an NMI
 *   recurse_trap     while set, writing a trap_entry record raises a
 *                    trap_entry again, as a fault on the buffer would
 *
 * The knobs widen race windows so that a test hits them every time.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/interrupt.h>

#include "internal.h"

u32 ltt_selftest_start_delay_ms;
u32 ltt_selftest_stop_delay_ms;
u32 ltt_selftest_log_delay_us;
unsigned long ltt_selftest_clock_back_ns;
u32 ltt_selftest_recurse_trap;

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
 * @ms: the knob
 */
void ltt_selftest_sleep(const u32 *ms)
{
	u32 t = READ_ONCE(*ms);

	if (t)
		msleep(t);
}

/**
 * ltt_selftest_spin - busy-wait for a knob's microseconds, if set
 * @us: the knob; at most a millisecond is spun
 */
void ltt_selftest_spin(const u32 *us)
{
	u32 t = READ_ONCE(*us);

	if (t)
		udelay(min(t, 1000U));
}

static int __init ltt_selftest_init(void)
{
	struct dentry *dir = debugfs_create_dir("ltt", NULL);

	debugfs_create_file("hi_tasklet", 0200, dir, NULL,
			    &ltt_selftest_hi_fops);
	debugfs_create_u32("start_delay_ms", 0600, dir,
			   &ltt_selftest_start_delay_ms);
	debugfs_create_u32("stop_delay_ms", 0600, dir,
			   &ltt_selftest_stop_delay_ms);
	debugfs_create_u32("log_delay_us", 0600, dir,
			   &ltt_selftest_log_delay_us);
	debugfs_create_ulong("clock_back_ns", 0600, dir,
			     &ltt_selftest_clock_back_ns);
	debugfs_create_u32("recurse_trap", 0600, dir,
			   &ltt_selftest_recurse_trap);
	return 0;
}
late_initcall(ltt_selftest_init);
