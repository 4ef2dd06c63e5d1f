/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LTT event registry: every event the kernel records, once.
 *
 *   LTT_EVENT(ID, name, fields)           a record of fixed size
 *   LTT_EVENT_STR(ID, name, fields, str)  the same plus a trailing string
 *   LTT_FIELD(type, name)                 one field, u8 ... s64
 *
 * The ids (enum ltt_event_id, LTT_EV_<ID>), the packed record structs
 * (struct ltt_rec_<name>), the emit helpers (ltt_log_<name>()) and the
 * descriptions that LTT_CMD_EVENT_INFO gives user space are all made
 * from this list by <linux/ltt.h>.  Ids are the order of the lines: add
 * new events at the end, never reorder.
 *
 * No include guard: this file is read once per expansion.
 */

/* syscall: number and user-space IP of the call / its return value */
LTT_EVENT(SYSCALL_ENTRY, syscall_entry,
	  LTT_FIELD(u16, id)
	  LTT_FIELD(u64, ip))
LTT_EVENT(SYSCALL_EXIT, syscall_exit,
	  LTT_FIELD(s64, ret))

/* scheduling change: incoming pid, outgoing pid and its state */
LTT_EVENT(SCHED_CHANGE, sched_change,
	  LTT_FIELD(s32, in)
	  LTT_FIELD(s32, out)
	  LTT_FIELD(u16, out_state))

/* process: fork or clone, exit, exec */
LTT_EVENT(PROCESS_FORK, process_fork,
	  LTT_FIELD(s32, child)
	  LTT_FIELD(s32, child_tgid))
LTT_EVENT(PROCESS_EXIT, process_exit,
	  LTT_FIELD(s32, pid)
	  LTT_FIELD(s32, code))
LTT_EVENT_STR(PROCESS_EXEC, process_exec,
	      LTT_FIELD(s32, pid),
	      filename)
