/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LTT event registry: every event the kernel records, once.
 *
 *   LTT_EVENT(name, fields)       a record of fixed size
 *   LTT_EVENT_STR(name, fields)   the same, ending in a string
 *   LTT_FIELD(type, name);        an integer field, u8 ... s64
 *   LTT_STRING(name);             the trailing string, NUL-terminated
 *
 * <linux/ltt.h> makes the event ids (LTT_EV_<name>), the packed record
 * layouts (struct ltt_rec_<name>) and the emit helpers (ltt_log_<name>())
 * from this list, and kernel/ltt/registry.c the descriptions user space
 * reads with LTT_CMD_EVENT_INFO.  Ids follow the order of the list: add
 * events at the end, never reorder or remove one.
 *
 * No include guard: the list is expanded once per use.
 */

/* syscall: number and user-space IP of the call / its return value */
LTT_EVENT(syscall_entry,
	  LTT_FIELD(u16, id);
	  LTT_FIELD(u64, ip);)
LTT_EVENT(syscall_exit,
	  LTT_FIELD(s64, ret);)

/* scheduling change: incoming pid, outgoing pid and its state */
LTT_EVENT(sched_change,
	  LTT_FIELD(s32, in);
	  LTT_FIELD(s32, out);
	  LTT_FIELD(u16, out_state);)

/* process: fork or clone, exit (code is the wait(2) status), exec */
LTT_EVENT(process_fork,
	  LTT_FIELD(s32, child);
	  LTT_FIELD(s32, child_tgid);)
LTT_EVENT(process_exit,
	  LTT_FIELD(s32, pid);
	  LTT_FIELD(s32, code);)
LTT_EVENT_STR(process_exec,
	      LTT_FIELD(s32, pid);
	      LTT_STRING(filename);)
