// SPDX-License-Identifier: GPL-2.0
/*
 * An LTT custom event from a kprobe: who sends which signal to whom,
 * logged as the event "kill" with the fields sig, target (the process
 * signalled) and sender (the process sending), from
 * send_signal_locked(), where every signal sent to a task arrives,
 * whatever the path: kill(2), tkill(2), or the kernel's own (SIGCHLD,
 * timers).  kill(2)'s own functions are no place for a kprobe in 6.12:
 * kill_something_info() is inlined, and whether group_send_sig_info()
 * and do_send_sig_info() are depends on the configuration.
 *
 *   insmod ltt_kill.ko; ltt record -o t -- kill PID; ltt report t
 */
#include <linux/kprobes.h>
#include <linux/ltt.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>

struct kill_rec {
	s32 sig;
	s32 target;
	s32 sender;
} __packed;

static struct ltt_event_type *kill_event;

/*
 * int send_signal_locked(int sig, struct kernel_siginfo *info,
 *			  struct task_struct *t, enum pid_type type)
 */
static int kill_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct task_struct *t = (void *)regs_get_kernel_argument(regs, 2);
	struct kill_rec rec = {
		.sig = regs_get_kernel_argument(regs, 0),
		.target = task_tgid_nr(t),
		.sender = task_tgid_nr(current),
	};

	ltt_event_log(kill_event, &rec, sizeof(rec));
	return 0;
}

static struct kprobe kill_probe = {
	.symbol_name	= "send_signal_locked",
	.pre_handler	= kill_pre,
};

static int __init ltt_kill_init(void)
{
	static const struct ltt_field_info fields[] = {
		{ .name = "sig", .type = LTT_FIELD_SIGNED, .size = 4 },
		{ .name = "target", .type = LTT_FIELD_SIGNED, .size = 4 },
		{ .name = "sender", .type = LTT_FIELD_SIGNED, .size = 4 },
	};
	int ret;

	kill_event = ltt_event_create("kill", "a signal is sent to a process",
				      fields, ARRAY_SIZE(fields));
	if (IS_ERR(kill_event))
		return PTR_ERR(kill_event);
	ret = register_kprobe(&kill_probe);
	if (ret)
		ltt_event_destroy(kill_event);
	return ret;
}

static void __exit ltt_kill_exit(void)
{
	unregister_kprobe(&kill_probe);
	ltt_event_destroy(kill_event);
}

module_init(ltt_kill_init);
module_exit(ltt_kill_exit);
MODULE_DESCRIPTION("LTT sample: log who signals whom, through a kprobe");
MODULE_LICENSE("GPL");
