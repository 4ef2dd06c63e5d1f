/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * LTT, the Linux Trace Toolkit: the user-space ABI of the ltt() syscall
 * and of the trace buffers it hands out.
 *
 * Documentation/trace/ltt.rst describes the commands; this header is the
 * reference for the layouts.  Every command takes (cmd, arg, size) where
 * size is sizeof() the struct as user space knows it: the kernel accepts
 * any size from the first published version up, ignoring a larger tail
 * only when it is zero (E2BIG otherwise).
 */
#ifndef _UAPI_LINUX_LTT_H
#define _UAPI_LINUX_LTT_H

#include <linux/types.h>
#include <linux/ioctl.h>

/* Commands of ltt(cmd, arg, size). */
enum ltt_cmd {
	LTT_CMD_CREATE		= 0,	/* struct ltt_create; returns a session fd */
	LTT_CMD_SET_EVENTS	= 1,	/* struct ltt_events */
	LTT_CMD_SET_PIDS	= 2,	/* struct ltt_pids */
	LTT_CMD_START		= 3,	/* struct ltt_session_cmd */
	LTT_CMD_STOP		= 4,	/* struct ltt_session_cmd */
	LTT_CMD_STATUS		= 5,	/* struct ltt_status */
	LTT_CMD_BUFFER_FD	= 6,	/* struct ltt_buffer_req; returns a buffer fd */
	LTT_CMD_EVENT_INFO	= 7,	/* struct ltt_event_info */
	LTT_CMD_SNAPSHOT	= 8,	/* struct ltt_session_cmd */
	LTT_CMD_EVENT_CREATE	= 9,	/* struct ltt_event_create; returns an event fd */
	LTT_CMD_EVENT_LOG	= 10,	/* struct ltt_event_log */
	LTT_CMD_BOOT		= 11,	/* struct ltt_boot; returns a session fd */
	LTT_CMD_SET_CGROUPS	= 12,	/* struct ltt_cgroups */
	LTT_CMD_PREVIOUS_BOOT	= 13,	/* struct ltt_previous; returns an fd */

	/* Not ABI: grows as commands are added. */
	LTT_CMD_MAX,
};

/**
 * struct ltt_boot - LTT_CMD_BOOT: take over the boot session
 * @flags: Input, must be 0.
 * @__reserved: Input, must be 0.
 *
 * ltt.boot= on the kernel command line makes a session that records
 * from before the first user-space process.  The first caller gets a
 * session fd for it, recording (START is EBUSY; read its buffers as
 * any session's); closing the fd stops it.  Needs CAP_PERFMON or
 * CAP_SYS_ADMIN (EPERM); ENOENT when there is no boot session, or it
 * was taken.
 */
struct ltt_boot {
	__u32 flags;
	__u32 __reserved;
};

#define LTT_BOOT_SIZE_VER0	8

/* Buffer modes, ltt_create.mode. */
enum ltt_mode {
	/* A full buffer drops the newest event and counts it lost. */
	LTT_MODE_DISCARD	= 0,
	/* Flight recorder: the oldest packets are overwritten. */
	LTT_MODE_OVERWRITE	= 1,

	/* Not ABI. */
	LTT_MODE_MAX,
};

/**
 * struct ltt_create - LTT_CMD_CREATE: a system-wide session
 * @subbuf_size: Input, bytes per sub-buffer (packet), a power of two from
 *	LTT_SUBBUF_MIN to LTT_SUBBUF_MAX; 0 picks LTT_SUBBUF_DEFAULT.
 * @n_subbufs: Input, sub-buffers per CPU, a power of two from 2 to
 *	LTT_SUBBUFS_MAX; 0 picks LTT_SUBBUFS_DEFAULT.
 * @mode: Input, enum ltt_mode.
 * @flags: Input, must be 0.
 * @flush_ms: Input, how often a partly filled packet is handed to the
 *	reader, in milliseconds (1 to 10000); 0 picks LTT_FLUSH_MS_DEFAULT.
 * @__reserved: Input, must be 0.
 *
 * Returns a session fd (close-on-exec).  Closing it (its last copy)
 * stops the session; the buffers go when the last fd on them is closed.
 * Buffers are made for every possible CPU: a CPU that comes online
 * later records too, and one that goes offline hands its open packet
 * to the reader first.  Needs
 * CAP_PERFMON or CAP_SYS_ADMIN, or the sysctl kernel.ltt_user_sessions
 * set to 1: then the session of an unprivileged user records only the
 * events of tasks with the caller's uid, only the events that tell
 * nothing of the kernel's internals (system calls, process life, file
 * system, sockets, IPC, signals and the custom events of user space),
 * and scheduling changes with the other users' pids read as 0.  All
 * (allowed) events are enabled and no pid filter is set until
 * LTT_CMD_SET_EVENTS and LTT_CMD_SET_PIDS say otherwise.
 */
struct ltt_create {
	__u32 subbuf_size;
	__u32 n_subbufs;
	__u32 mode;
	__u32 flags;
	__u32 flush_ms;
	__u32 __reserved;
};

#define LTT_CREATE_SIZE_VER0	24

#define LTT_SUBBUF_MIN		4096U
#define LTT_SUBBUF_MAX		(16U << 20)
#define LTT_SUBBUF_DEFAULT	(256U << 10)
#define LTT_SUBBUFS_MAX		1024U
#define LTT_SUBBUFS_DEFAULT	8U
#define LTT_BUFFER_MAX		(256ULL << 20)	/* per CPU */
#define LTT_FLUSH_MS_DEFAULT	200U

/**
 * struct ltt_session_cmd - LTT_CMD_START, LTT_CMD_STOP, LTT_CMD_SNAPSHOT
 * @session_fd: Input, the session.
 * @flags: Input, must be 0.
 *
 * START fails with EBUSY when this session is recording already; any
 * number of sessions record at once.
 * STOP fails with EINVAL when the session is not recording; it hands
 * every partly filled packet to the readers.  SNAPSHOT (overwrite mode
 * only, else EINVAL) stops the session as STOP does, so that the readers
 * find the newest packets, oldest first; START resumes recording.  To
 * read a flight recorder without stopping it, use LTT_BUF_SNAPSHOT and
 * LTT_BUF_SNAPSHOT_READ on its buffer fds.
 */
struct ltt_session_cmd {
	__s32 session_fd;
	__u32 flags;
};

#define LTT_SESSION_CMD_SIZE_VER0	8

/**
 * struct ltt_events - LTT_CMD_SET_EVENTS: which events are recorded
 * @session_fd: Input, the session.
 * @nbits: Input, bits in the mask (at most LTT_EVENTS_MAX); events past
 *	it are disabled, bits past the last event are ignored.
 * @mask: Input, user pointer to a bitmap of event ids, in __u64 words,
 *	bit (id % 64) of word (id / 64).
 */
struct ltt_events {
	__s32 session_fd;
	__u32 nbits;
	__aligned_u64 mask;
};

#define LTT_EVENTS_SIZE_VER0	16
#define LTT_EVENTS_MAX		4096U

/**
 * struct ltt_pids - LTT_CMD_SET_PIDS: record only these processes
 * @session_fd: Input, the session.
 * @count: Input, number of pids (at most LTT_PIDS_MAX); 0 removes the
 *	filter.
 * @pids: Input, user pointer to @count __s32 pids, each an existing
 *	process or thread and, in a user session, one the caller may
 *	ptrace (ESRCH otherwise).  An event passes when the
 *	current task's pid or thread-group id is in the list; a
 *	sched_change also passes when the task it switches to is.
 * @flags: Input, must be 0.
 * @__reserved: Input, must be 0.
 */
struct ltt_pids {
	__s32 session_fd;
	__u32 count;
	__aligned_u64 pids;
	__u32 flags;
	__u32 __reserved;
};

#define LTT_PIDS_SIZE_VER0	24
#define LTT_PIDS_MAX		64U

/**
 * struct ltt_cgroups - LTT_CMD_SET_CGROUPS: record only these containers
 * @session_fd: Input, the session.
 * @count: Input, number of cgroups (at most LTT_CGROUPS_MAX, EINVAL
 *	otherwise); 0 removes the filter.
 * @fds: Input, user pointer to @count __s32 file descriptors, each open
 *	on a directory of the cgroup v2 hierarchy, not with O_PATH (EBADF
 *	otherwise; ENOENT for the directory of a cgroup removed since).  An
 *	event passes when the current task is in one of these cgroups or
 *	below it, from the moment it moves in (a cgroup made later under
 *	one of them included); a sched_change also passes when the task it
 *	switches to is, a fork when the child is, a cgroup_attach when the
 *	task moved is.  With a pid filter too, an event passes both.  The
 *	filter holds no reference: a cgroup removed meanwhile holds no
 *	task, and so passes nothing.
 *	EOPNOTSUPP without CONFIG_CGROUPS.
 * @flags: Input, must be 0.
 * @__reserved: Input, must be 0.
 */
struct ltt_cgroups {
	__s32 session_fd;
	__u32 count;
	__aligned_u64 fds;
	__u32 flags;
	__u32 __reserved;
};

#define LTT_CGROUPS_SIZE_VER0	24
#define LTT_CGROUPS_MAX		16U

/**
 * struct ltt_cpu_status - one CPU's accounting, in struct ltt_status
 * @cpu: Output, the CPU number.
 * @__reserved: Output, 0.
 * @produced: Output, events the probes tried to record on this CPU.
 * @delivered: Output, events in packets the reader has released.
 * @lost: Output, events dropped (buffer full) or overwritten.
 *
 * Once the session is stopped and every packet released,
 * produced == delivered + lost, exactly.
 */
struct ltt_cpu_status {
	__u32 cpu;
	__u32 __reserved;
	__u64 produced;
	__u64 delivered;
	__u64 lost;
};

/* ltt_status.state */
enum ltt_state {
	LTT_STATE_STOPPED	= 0,
	LTT_STATE_RECORDING	= 1,
};

/**
 * struct ltt_status - LTT_CMD_STATUS
 * @session_fd: Input, the session.
 * @n_cpus: Input, room in @cpus (may be 0, with @cpus NULL); Output,
 *	CPUs that have a buffer (only min(Input, Output) entries are
 *	written, in CPU order).
 * @cpus: Input, user pointer to an array of struct ltt_cpu_status.
 * @state: Output, enum ltt_state.
 * @mode: Output, enum ltt_mode.
 * @subbuf_size: Output, bytes per sub-buffer.
 * @n_subbufs: Output, sub-buffers per CPU.
 * @mono_ns: Output, CLOCK_MONOTONIC (the trace clock) ...
 * @real_ns: Output, ... and CLOCK_REALTIME read together: their
 *	difference turns trace timestamps into wall-clock time.
 */
struct ltt_status {
	__s32 session_fd;
	__u32 n_cpus;
	__aligned_u64 cpus;
	__u32 state;
	__u32 mode;
	__u32 subbuf_size;
	__u32 n_subbufs;
	__u64 mono_ns;
	__u64 real_ns;
};

#define LTT_STATUS_SIZE_VER0	48

/**
 * struct ltt_buffer_req - LTT_CMD_BUFFER_FD
 * @session_fd: Input, the session.
 * @cpu: Input, the CPU whose buffer is wanted: EINVAL for a number no
 *	CPU can have (nr_cpu_ids or more), ENODEV for one that has no
 *	buffer (not a possible CPU).  Every possible CPU has a buffer,
 *	online or not.
 *
 * Returns a read-only fd (close-on-exec) to mmap the whole buffer
 * (subbuf_size * n_subbufs bytes, PROT_READ, MAP_SHARED), poll for
 * complete packets, and take them with the LTT_BUF_* ioctls.  One reader
 * at a time: a second fd on the same buffer gets EBUSY.
 */
struct ltt_buffer_req {
	__s32 session_fd;
	__u32 cpu;
};

#define LTT_BUFFER_REQ_SIZE_VER0	8

/* struct ltt_field_info.type */
enum ltt_field_type {
	LTT_FIELD_UNSIGNED	= 0,	/* little or native endian integer */
	LTT_FIELD_SIGNED	= 1,
	LTT_FIELD_STRING	= 2,	/* NUL-terminated, last in a record */
};

#define LTT_NAME_MAX		32
#define LTT_DESC_MAX		64
#define LTT_FIELDS_MAX		8

/**
 * struct ltt_field_info - one field of a record
 * @name: Output, NUL-terminated.
 * @type: Output, enum ltt_field_type.
 * @size: Output, bytes (0 for a string).
 * @offset: Output, byte offset in the payload (records are packed).
 */
struct ltt_field_info {
	char name[LTT_NAME_MAX];
	__u8 type;
	__u8 size;
	__u16 offset;
};

/* struct ltt_event_info.flags */
#define LTT_EVENT_F_CUSTOM	(1U << 0)	/* made by a module or a process */
#define LTT_EVENT_F_DEAD	(1U << 1)	/* destroyed; kept for the trace */

/**
 * struct ltt_event_info - LTT_CMD_EVENT_INFO: the event registry
 * @id: Input, the lowest event id wanted; Output, the id of the event
 *	described, the lowest that exists from Input on (ENOENT: none).
 *	The kernel's own events have the ids from 0 with no hole; custom
 *	events follow, with holes where some were destroyed.  Custom
 *	events another uid made from user space are skipped unless the
 *	caller has CAP_PERFMON.
 * @n_fields: Output, entries used in @fields.
 * @name: Output, NUL-terminated, e.g. "syscall_entry".
 * @payload_size: Output, bytes of the fixed part of the record (without
 *	a trailing string field).
 * @flags: Output, LTT_EVENT_F_*.
 * @fields: Output, the fields in record order.
 * @generation: Output, changes whenever an event is created or
 *	destroyed: a reader that saw the same value has every event it
 *	may see (another user's types move it too).
 * @owner: Output, the thread-group id that created a custom event from
 *	user space, in the caller's pid namespace, while it lives (0 where
 *	it has none there, or it has exited); 0 for the kernel's events
 *	and those of modules.
 * @description: Output, NUL-terminated, may be empty.
 *
 * A destroyed custom event stays described (LTT_EVENT_F_DEAD), and its
 * id unused, while any session exists: traces may hold its records.
 */
struct ltt_event_info {
	__u32 id;
	__u32 n_fields;
	char name[LTT_NAME_MAX];
	__u32 payload_size;
	__u32 flags;
	struct ltt_field_info fields[LTT_FIELDS_MAX];
	__u32 generation;
	__s32 owner;
	char description[LTT_DESC_MAX];
};

#define LTT_EVENT_INFO_SIZE_VER0	(48 + 36 * LTT_FIELDS_MAX)
#define LTT_EVENT_INFO_SIZE_VER1	(LTT_EVENT_INFO_SIZE_VER0 + 8 + LTT_DESC_MAX)

/**
 * struct ltt_event_create - LTT_CMD_EVENT_CREATE: a custom event type
 * @name: Input, NUL-terminated: letters, digits and '_', not starting
 *	with a digit, unique among the events that exist (EEXIST).
 * @description: Input, NUL-terminated, may be empty.
 * @n_fields: Input, entries used in @fields, up to LTT_FIELDS_MAX.
 * @flags: Input, 0 or LTT_EVENT_CREATE_ENABLE_FLAG (EINVAL for others).
 * @fields: Input, the record's fields in order: @name (same rules as the
 *	event's, unique in the event), @type, @size (1, 2, 4 or 8 for an
 *	integer, 0 for a string) and @offset (must be 0: records are
 *	packed).  Only the last field may be a string.
 * @enable_addr: Input, with LTT_EVENT_CREATE_ENABLE_FLAG: user address
 *	of a 32-bit word of the caller's memory, 4-byte aligned and
 *	writable (EINVAL when misaligned, EFAULT when not mapped writable).
 *	The kernel sets bit @enable_bit of it while some recording session
 *	would take an event of this type from the calling process, and
 *	clears it when none would: the process tests the word before
 *	LTT_CMD_EVENT_LOG.  The other bits are left alone.  A child made by
 *	fork() has its copy of the word kept too; exec() ends it.
 *	0 without the flag.
 * @enable_bit: Input, the bit of @enable_addr, 0 to 31 (EINVAL beyond).
 * @__reserved: Input, must be 0.
 *
 * Returns an event fd (close-on-exec) through which LTT_CMD_EVENT_LOG
 * logs events of the new type; the type is destroyed when the last copy
 * of the fd is closed, at the latest when its process exits.  Needs
 * CAP_PERFMON or CAP_SYS_ADMIN, or kernel.ltt_user_sessions set to 1
 * (EPERM otherwise); ENOSPC when every custom id is taken, or an
 * unprivileged caller's uid holds 64 types (live, or dead while sessions
 * exist), or the unprivileged together 1024.  A live or dead type of the
 * same name and layout is shared, but only with its creator's uid
 * (EEXIST for another's).  With an enable flag, ENOSPC too when the
 * system holds 65536 of them.
 */
struct ltt_event_create {
	char name[LTT_NAME_MAX];
	char description[LTT_DESC_MAX];
	__u32 n_fields;
	__u32 flags;
	struct ltt_field_info fields[LTT_FIELDS_MAX];
	__aligned_u64 enable_addr;
	__u32 enable_bit;
	__u32 __reserved;
};

#define LTT_EVENT_CREATE_SIZE_VER0	(104 + 36 * LTT_FIELDS_MAX)
#define LTT_EVENT_CREATE_SIZE_VER1	(LTT_EVENT_CREATE_SIZE_VER0 + 16)

/*
 * Flags of struct ltt_event_create.  LTT_EVENT_CREATE_FLAGS_MAX is not
 * ABI: it grows with the flags.
 */
enum ltt_event_create_flags {
	LTT_EVENT_CREATE_ENABLE_FLAG	= 1U << 0,	/* keep @enable_addr */
	LTT_EVENT_CREATE_FLAGS_MAX	= 1U << 1,
};

/*
 * Largest payload of a custom event: every field an 8-byte integer but
 * the last, a string of at most LTT_STRING_MAX bytes, its NUL included.
 */
#define LTT_EVENT_SIZE_MAX		(8U * (LTT_FIELDS_MAX - 1) + LTT_STRING_MAX)

/**
 * struct ltt_event_log - LTT_CMD_EVENT_LOG: record a custom event
 * @event_fd: Input, from LTT_CMD_EVENT_CREATE.
 * @size: Input, bytes at @data, at most LTT_EVENT_SIZE_MAX (E2BIG).
 * @data: Input, user pointer to the payload, laid out as the fields say:
 *	exactly payload_size bytes, or, when the last field is a string,
 *	more: a string whose only NUL is its last byte (EINVAL otherwise),
 *	of at most LTT_STRING_MAX bytes with that NUL (E2BIG otherwise).
 *
 * The event is recorded like the kernel's: on the current CPU, in the
 * recording session (if any) when its mask and pid filter let it pass,
 * counted lost when the buffer is full or a packet cannot hold it.
 * Returns 0 whether or not a session recorded it.
 */
struct ltt_event_log {
	__s32 event_fd;
	__u32 size;
	__aligned_u64 data;
};

#define LTT_EVENT_LOG_SIZE_VER0		16

/**
 * struct ltt_previous - LTT_CMD_PREVIOUS_BOOT: the trace of the last boot
 * @flags: Input, 0 for an fd on that trace, or LTT_PREVIOUS_FREE to free
 *	the kernel's copy (fds open on it keep reading theirs).
 * @__reserved: Input, must be 0.
 *
 * A boot session made with ltt.boot=...,persist=REGION records into
 * memory reserved at boot (reserve_mem=), which a reboot, a panic or a
 * reset that keeps the power on leave as they were.  When the next boot
 * names the same region, the kernel reads what the previous boot left
 * there as untrusted input, packet by packet, keeps a copy of the
 * packets that are whole (struct ltt_prev_cpu counts the others), and
 * records its own boot in the region.  Returns a read-only, seekable fd
 * (close-on-exec) on that copy: struct ltt_prev_header, then what its
 * offsets locate.  Needs CAP_PERFMON or CAP_SYS_ADMIN, from the initial
 * pid namespace (EPERM); ENOENT when there is no such trace (no region,
 * the region held none, or it was freed); EINVAL for unknown @flags.
 */
struct ltt_previous {
	__u32 flags;
	__u32 __reserved;
};

#define LTT_PREVIOUS_SIZE_VER0	8
#define LTT_PREVIOUS_FREE	(1U << 0)

/* The kind of a crash event, and ltt_prev_header.end. */
enum ltt_crash_kind {
	LTT_CRASH_NONE		= 0,	/* no crash event: a reset, a hang */
	LTT_CRASH_PANIC		= 1,
	LTT_CRASH_OOPS		= 2,	/* die(): the kernel may go on */
	LTT_CRASH_WARN		= 3,	/* WARN(): the kernel goes on */
	LTT_CRASH_EMERGENCY	= 4,	/* emergency_restart(): sysrq-b, watchdogs */
	LTT_CRASH_RESTART	= 5,	/* orderly reboot */
	LTT_CRASH_HALT		= 6,
	LTT_CRASH_POWER_OFF	= 7,

	/* Not ABI. */
	LTT_CRASH_MAX,
};

#define LTT_PREV_MAGIC		0x5054544cU	/* "LTTP" */
#define LTT_PREV_VERSION	1
#define LTT_PREV_MESSAGE_MAX	128
#define LTT_PREV_MODULE_NAME	56

/**
 * struct ltt_prev_header - the start of the previous boot's trace
 * @magic: LTT_PREV_MAGIC.
 * @version: LTT_PREV_VERSION.
 * @header_size: bytes of this struct, as the kernel wrote it.
 * @n_cpus: entries at @cpus_offset: the CPUs of the previous boot.
 * @n_events: event descriptions at @events_offset, @event_size bytes
 *	each: struct ltt_event_info, as LTT_CMD_EVENT_INFO gave them in
 *	the previous boot (its custom events included).
 * @event_size: see @n_events.
 * @n_modules: entries at @modules_offset: the modules loaded at the end.
 * @subbuf_size: bytes per sub-buffer in the previous boot.
 * @n_subbufs: sub-buffers per CPU in the previous boot.
 * @size: bytes of the whole copy.
 * @cpus_offset: see @n_cpus.
 * @events_offset: see @n_events.
 * @modules_offset: see @n_modules.
 * @boot_id: a random UUID the previous boot made for itself.
 * @build_id: the previous kernel's GNU build id, @build_id_size bytes.
 * @build_id_size: 0 when it had none.
 * @end: enum ltt_crash_kind of the end of the previous boot: a panic,
 *	an emergency restart, a reboot, halt or power off (an oops or a
 *	WARN is an event only); LTT_CRASH_NONE when nothing froze the
 *	region (a reset, a hang, power).
 * @release: uname -r of the previous kernel, NUL-terminated.
 * @kversion: uname -v.
 * @machine: uname -m.
 * @__pad: 0.
 * @end_message: the last crash event's message (a panic's text).
 * @stext: the address of _stext in the previous boot: minus System.map's
 *	_stext, the KASLR offset to add to that boot's symbols.
 * @realtime_offset: CLOCK_REALTIME minus the trace clock, in ns, as the
 *	previous boot last read it: a timestamp plus this is wall-clock time.
 * @end_ns: trace clock of the last crash event, 0 for none.
 */
struct ltt_prev_header {
	__u32 magic;
	__u32 version;
	__u32 header_size;
	__u32 n_cpus;
	__u32 n_events;
	__u32 event_size;
	__u32 n_modules;
	__u32 subbuf_size;
	__u32 n_subbufs;
	__u32 end;
	__u64 size;
	__u64 cpus_offset;
	__u64 events_offset;
	__u64 modules_offset;
	__u8 boot_id[16];
	__u8 build_id[20];
	__u32 build_id_size;
	char release[65];
	char kversion[65];
	char machine[65];
	__u8 __pad[5];
	char end_message[LTT_PREV_MESSAGE_MAX];
	__u64 stext;
	__s64 realtime_offset;
	__u64 end_ns;
};

/**
 * struct ltt_prev_cpu - one CPU of the previous boot
 * @cpu: the CPU number.
 * @n_packets: whole packets kept, in packet_seq_num order, at @offset,
 *	each packet_size bytes (a CTF stream as it is).
 * @n_damaged: packets dropped: torn, or written over since they were
 *	closed (a checksum, a size or a time that cannot be).
 * @open_lost: 1 when the packet being written at the end could not be
 *	closed (a writer was stopped in the middle of a record): dropped.
 * @offset: of the first packet in the copy.
 * @size: bytes of the packets.
 * @lost: events lost on this CPU, as counted at the end (0 when the
 *	region was never frozen: then only the packets' own counts tell).
 */
struct ltt_prev_cpu {
	__u32 cpu;
	__u32 n_packets;
	__u32 n_damaged;
	__u32 open_lost;
	__u64 offset;
	__u64 size;
	__u64 lost;
};

/**
 * struct ltt_prev_module - a module loaded at the end of the previous boot
 * @name: NUL-terminated.
 * @base: address of its text.
 * @size: bytes of its text.
 */
struct ltt_prev_module {
	char name[LTT_PREV_MODULE_NAME];
	__u64 base;
	__u64 size;
};

/*
 * The trace format.  A buffer is a ring of packets, one per sub-buffer.
 * A packet starts with struct ltt_packet_header and holds records back
 * to back, unaligned.  All integers are in the CPU's byte order.  The
 * layout is that of a CTF 1.8 packet, so a trace is the packets as they
 * are plus TSDL metadata.
 */
#define LTT_PACKET_MAGIC	0xC1FC1FC1U

/**
 * struct ltt_packet_header - start of every packet
 * @magic: LTT_PACKET_MAGIC.
 * @stream_id: 0.
 * @timestamp_begin: trace clock (ns) at the first record: it is that
 *	record's timestamp.
 * @timestamp_end: trace clock when the packet was closed.
 * @content_size: bits of header and records.
 * @packet_size: bits of the packet as it should be stored: content_size
 *	rounded up to 8 bytes.
 * @packet_seq_num: packet index on this CPU, from 0: the packet's
 *	position (as LTT_BUF_SNAPSHOT gives it) over the sub-buffer size.
 * @events_discarded: events lost on this CPU since the buffer was made,
 *	counted when the packet was closed.
 * @cpu_id: the CPU.
 * @events: records in this packet.
 * @pid: the task running when the packet was opened: the pid to which
 *	the first records belong, until a sched_change says otherwise.
 * @checksum: in a session that records into memory kept across boots
 *	(ltt.boot=...,persist=), the CRC32 (crc32_le(~0, ...), as zlib's
 *	crc32() computes it) of the packet's content_size bits with this
 *	field 0; else 0.
 */
struct ltt_packet_header {
	__u32 magic;
	__u32 stream_id;
	__u64 timestamp_begin;
	__u64 timestamp_end;
	__u64 content_size;
	__u64 packet_size;
	__u64 packet_seq_num;
	__u64 events_discarded;
	__u32 cpu_id;
	__u32 events;
	__s32 pid;
	__u32 checksum;
};

/*
 * Every record starts with a 32-bit header: the event id in the low
 * LTT_HDR_ID_BITS bits, the low LTT_HDR_TS_BITS bits of the timestamp
 * above them.  A reader recovers the full time from the previous record
 * (or the packet's timestamp_begin): the writer guarantees that less
 * than 2^LTT_HDR_TS_BITS ns separate two records.  When that would not
 * hold, or the id does not fit, the id bits read LTT_HDR_ID_EXTENDED and
 * a __u16 id and a __u64 full timestamp follow the 32-bit header (whose
 * timestamp bits still hold the low bits of that timestamp).
 */
#define LTT_HDR_ID_BITS		7
#define LTT_HDR_TS_BITS		25
#define LTT_HDR_ID_EXTENDED	((1U << LTT_HDR_ID_BITS) - 1)
#define LTT_HDR_COMPACT_SIZE	4
#define LTT_HDR_EXTENDED_SIZE	14

/* Longest string field, NUL included; longer ones are cut. */
#define LTT_STRING_MAX		256

/* The abi field of syscall_entry_compat: whose table its id is in. */
#define LTT_SYSCALL_ABI_COMPAT	1	/* the compat ABI's own table */
#define LTT_SYSCALL_ABI_X32	2	/* x86's x32: the native table */

/**
 * struct ltt_subbuf - LTT_BUF_GET_SUBBUF
 * @offset: Output, where the packet starts in the mapping.
 * @size: Output, packet_size in bytes: what to store.
 * @seq: Output, packet_seq_num.
 */
struct ltt_subbuf {
	__u64 offset;
	__u64 size;
	__u64 seq;
};

/**
 * struct ltt_buffer_info - LTT_BUF_INFO
 * @cpu: Output, the CPU.
 * @subbuf_size: Output, bytes per sub-buffer.
 * @n_subbufs: Output, sub-buffers in the ring.
 * @__reserved: Output, 0.
 * @mmap_size: Output, bytes to map.
 */
struct ltt_buffer_info {
	__u32 cpu;
	__u32 subbuf_size;
	__u32 n_subbufs;
	__u32 __reserved;
	__u64 mmap_size;
};

/**
 * struct ltt_snapshot - LTT_BUF_SNAPSHOT
 * @begin: Output, position of the oldest packet the ring holds: bytes
 *	written to the buffer before it, all laps counted (on a 32-bit
 *	kernel, counted right while less than 4 GiB are written between
 *	two snapshots).
 * @end: Output, position just past the newest packet, closed by the call.
 *
 * The packets of a snapshot start at @begin, @begin + subbuf_size, ...
 * up to @end (none when equal).
 */
struct ltt_snapshot {
	__u64 begin;
	__u64 end;
};

/**
 * struct ltt_snapshot_read - LTT_BUF_SNAPSHOT_READ
 * @pos: Input, a packet's position, from an LTT_BUF_SNAPSHOT.
 * @buf: Input, user pointer to subbuf_size bytes for the packet.
 * @size: Output, bytes copied: the packet_size of its header.
 */
struct ltt_snapshot_read {
	__u64 pos;
	__aligned_u64 buf;
	__u64 size;
};

/*
 * Buffer fd ioctls.  GET_SUBBUF takes the oldest complete packet (EAGAIN:
 * none yet, also before the first START; ENODATA: the session is stopped
 * and all was read; EBUSY: a packet is taken already, or an
 * overwrite-mode session is recording) and PUT_SUBBUF releases it
 * (EINVAL: none taken).  poll() gives POLLIN for a complete packet and
 * POLLHUP once a stopped session's buffer is read.
 *
 * A flight recorder (overwrite mode) is read while it records with
 * SNAPSHOT, which closes the packet being written and gives the range of
 * packets the ring holds (EINVAL: a discard-mode buffer), and
 * SNAPSHOT_READ, which copies one of them out (EINVAL: @pos is not a
 * packet's; EAGAIN: its writers are not done with it yet; ESTALE: the
 * recorder has overwritten it, before or while it was copied: what was
 * copied is to be dropped).  The recorder never waits for the reader.
 */
/* Registered in Documentation/userspace-api/ioctl/ioctl-number.rst. */
#define LTT_IOC_MAGIC		0xB9
#define LTT_BUF_GET_SUBBUF	_IOR(LTT_IOC_MAGIC, 1, struct ltt_subbuf)
#define LTT_BUF_PUT_SUBBUF	_IO(LTT_IOC_MAGIC, 2)
#define LTT_BUF_INFO		_IOR(LTT_IOC_MAGIC, 3, struct ltt_buffer_info)
#define LTT_BUF_SNAPSHOT	_IOR(LTT_IOC_MAGIC, 4, struct ltt_snapshot)
#define LTT_BUF_SNAPSHOT_READ	_IOWR(LTT_IOC_MAGIC, 5, struct ltt_snapshot_read)

#endif /* _UAPI_LINUX_LTT_H */
