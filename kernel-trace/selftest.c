// SPDX-License-Identifier: GPL-2.0
/*
 * Triggers for the LTT selftests (CONFIG_LTT_SELFTEST): events that no
 * system call makes happen in a minimal kernel.  Writing anything to
 * /sys/kernel/debug/ltt/hi_tasklet schedules a hi tasklet.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/interrupt.h>

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

static int __init ltt_selftest_init(void)
{
	struct dentry *dir = debugfs_create_dir("ltt", NULL);

	debugfs_create_file("hi_tasklet", 0200, dir, NULL,
			    &ltt_selftest_hi_fops);
	return 0;
}
late_initcall(ltt_selftest_init);
