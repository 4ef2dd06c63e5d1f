// SPDX-License-Identifier: GPL-2.0
/*
 * An LTT custom event from a kprobe: the name of every file unlinked,
 * logged as the event "unlink" with one string field, "name", from
 * do_unlinkat().  The process that unlinks is the event's own.
 *
 *   insmod ltt_unlink.ko; ltt record -o t -- rm FILE; ltt report t
 */
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/ltt.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/string.h>

static struct ltt_event_type *unlink_event;

/* int do_unlinkat(int dfd, struct filename *name) */
static int unlink_pre(struct kprobe *p, struct pt_regs *regs)
{
	const struct filename *name = (void *)regs_get_kernel_argument(regs, 1);

	if (!IS_ERR_OR_NULL(name) && name->name)
		ltt_event_log(unlink_event, name->name,
			      strnlen(name->name, LTT_STRING_MAX - 1) + 1);
	return 0;
}

static struct kprobe unlink_probe = {
	.symbol_name	= "do_unlinkat",
	.pre_handler	= unlink_pre,
};

static int __init ltt_unlink_init(void)
{
	static const struct ltt_field_info fields[] = {
		{ .name = "name", .type = LTT_FIELD_STRING },
	};
	int ret;

	unlink_event = ltt_event_create("unlink", "a file is unlinked",
					fields, ARRAY_SIZE(fields));
	if (IS_ERR(unlink_event))
		return PTR_ERR(unlink_event);
	ret = register_kprobe(&unlink_probe);
	if (ret)
		ltt_event_destroy(unlink_event);
	return ret;
}

static void __exit ltt_unlink_exit(void)
{
	unregister_kprobe(&unlink_probe);
	ltt_event_destroy(unlink_event);
}

module_init(ltt_unlink_init);
module_exit(ltt_unlink_exit);
MODULE_DESCRIPTION("LTT sample: log the files unlinked, through a kprobe");
MODULE_LICENSE("GPL");
