/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libltt: control LTT sessions and read LTT traces.
 *
 * Two halves:
 *  - control: thin wrappers of the ltt() system call (sessions, event
 *    mask, pid filter, start/stop/snapshot, status, buffer fds, the
 *    event registry) and a recorder that streams a session's buffers
 *    into a CTF trace directory (what lttd and `ltt record` run);
 *  - reader: open a trace directory, iterate its events merged across
 *    the per-CPU streams in time order, decoded through the metadata,
 *    with lost-event ranges as items of their own.
 *
 * Functions that fail return -1 (or NULL) and leave a message in
 * ltt_error(), per thread.
 */
#ifndef LTT_LTT_H
#define LTT_LTT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <linux/ltt.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The last failure of a libltt function in this thread. */
const char *ltt_error(void);

/* ------------------------------------------------------------------ */
/* The event registry                                                  */

enum ltt_type {
	LTT_TYPE_UNSIGNED	= LTT_FIELD_UNSIGNED,
	LTT_TYPE_SIGNED		= LTT_FIELD_SIGNED,
	LTT_TYPE_STRING		= LTT_FIELD_STRING,
};

struct ltt_field_desc {
	char name[LTT_NAME_MAX];
	enum ltt_type type;
	unsigned int size;		/* bytes; 0 for the string */
	unsigned int offset;		/* in the payload */
};

struct ltt_event_desc {
	unsigned int id;
	char name[LTT_NAME_MAX];
	unsigned int n_fields;
	unsigned int payload_size;	/* fixed part, without the string */
	bool has_string;		/* the last field is a string */
	bool custom;			/* made by a module or a process */
	struct ltt_field_desc fields[LTT_FIELDS_MAX];
};

/* The metadata's model.emf.uri of a custom event. */
#define LTT_CUSTOM_URI		"ltt:custom"


/*
 * Event descriptions indexed by id.  The kernel's events have the ids
 * from 0 with no hole; custom events follow, and the ids of custom
 * events destroyed before the trace began are slots with an empty name.
 */
struct ltt_registry {
	unsigned int n_events;
	struct ltt_event_desc *events;
};

/* Read the kernel's registry with LTT_CMD_EVENT_INFO. */
int ltt_registry_from_kernel(struct ltt_registry *reg);
/*
 * Append @desc (its id must be reg->n_events or more: the slots between
 * get empty names); checks the layout.
 */
int ltt_registry_add(struct ltt_registry *reg,
		     const struct ltt_event_desc *desc);
void ltt_registry_free(struct ltt_registry *reg);
/* The id of the event @name, or -1. */
int ltt_registry_find(const struct ltt_registry *reg, const char *name);
/* The index of the field @name of @desc, or -1. */
int ltt_event_field_index(const struct ltt_event_desc *desc,
			  const char *name);

/*
 * Parse an event list into a bitmap of @nbits ids: names, ids, "all",
 * and prefixes ending in '*' ("syscall_*"), separated by commas.
 */
int ltt_parse_events(const struct ltt_registry *reg, const char *list,
		     uint64_t *mask, unsigned int nbits);

/* ------------------------------------------------------------------ */
/* Control: the ltt() system call                                      */

#ifndef __NR_ltt
#define __NR_ltt 463
#endif

/* ltt(cmd, arg, size); -1 with errno on failure. */
long ltt_syscall(unsigned int cmd, void *arg, size_t size);

struct ltt_session_opts {
	uint32_t subbuf_size;		/* 0: LTT_SUBBUF_DEFAULT */
	uint32_t n_subbufs;		/* 0: LTT_SUBBUFS_DEFAULT */
	bool overwrite;			/* flight recorder */
	uint32_t flush_ms;		/* 0: LTT_FLUSH_MS_DEFAULT */
};

/* Returns the session fd. */
int ltt_session_create(const struct ltt_session_opts *opts);
/*
 * The session fd of the boot session (ltt.boot= on the kernel command
 * line), recording since boot; the first caller gets it.
 */
int ltt_session_boot(void);					/* LTT_1.1 */
int ltt_session_set_events(int session_fd, const uint64_t *mask,
			   unsigned int nbits);
int ltt_session_set_pids(int session_fd, const pid_t *pids,
			 unsigned int count);
/*
 * Record only the tasks in the cgroup (v2) directories open as @fds and
 * below them; @count 0 removes the filter.
 */
int ltt_session_set_cgroups(int session_fd, const int *fds,
			    unsigned int count);			/* LTT_1.6 */
int ltt_session_start(int session_fd);
int ltt_session_stop(int session_fd);
int ltt_session_snapshot(int session_fd);
/* STATUS with room for @n CPUs in @cpus (may be NULL with n 0). */
int ltt_session_status(int session_fd, struct ltt_status *st,
		       struct ltt_cpu_status *cpus, unsigned int n);
/* Returns the buffer fd of @cpu. */
int ltt_session_buffer_fd(int session_fd, unsigned int cpu);

/*
 * Custom events from user space.  ltt_event_create() makes an event type
 * (a C identifier for @name, the fields in record order: name, type and
 * size, 0 for the last one when it is a string; offsets are ignored) and
 * returns its event fd; the type lives until that fd is closed, at the
 * latest when the process exits.  ltt_event_log() records one event with
 * @data laid out as the fields say (packed, native byte order, the
 * string with its NUL), at most LTT_EVENT_SIZE_MAX bytes; it lands in
 * the recording session's buffers, in the kernel's timeline.  An event
 * made by ltt_event_create_format() has one string field, "text", that
 * ltt_event_logf() fills (cut at LTT_STRING_MAX - 1 characters).
 * Creating needs CAP_PERFMON or the sysctl kernel.ltt_user_sessions = 1.
 */
int ltt_event_create(const char *name, const char *description,
		     const struct ltt_field_desc *fields, unsigned int n_fields);
int ltt_event_create_format(const char *name, const char *description);
int ltt_event_log(int event_fd, const void *data, size_t size);
int ltt_event_logf(int event_fd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Enable flags (LTT_1.3).  Each event fd that ltt_event_create() makes
 * has a word in this process's memory that the kernel keeps nonzero
 * while some recording session would take the event from this process
 * (its mask, pid filter and user scope), zero while none would, through
 * fork() too.  ltt_event_log() and ltt_event_logf() test it first and
 * return 0 with no system call while it is zero.  On a hot path, take
 * the word once and test it with one load:
 *
 *	const volatile uint32_t *on = ltt_event_flag(fd);
 *	...
 *	if (ltt_event_on(on))
 *		ltt_event_log_now(fd, &rec, sizeof(rec));
 *
 * or LTT_EVENT_LOG(fd, on, &rec, sizeof(rec)).  An fd that libltt did
 * not make (or made on a kernel without flags) reads a word that is
 * always nonzero.  ltt_event_log_now() logs without testing the word.
 */
const volatile uint32_t *ltt_event_flag(int event_fd);		/* LTT_1.3 */
int ltt_event_log_now(int event_fd, const void *data, size_t size);

static inline int ltt_event_on(const volatile uint32_t *flag)
{
	return *flag != 0;
}

#define LTT_EVENT_LOG(fd, flag, data, size)				\
	(ltt_event_on(flag) ? ltt_event_log_now((fd), (data), (size)) : 0)

/* ------------------------------------------------------------------ */
/* The recorder: a session streamed into a trace directory             */

struct ltt_recorder;

struct ltt_record_opts {
	/*
	 * Created if missing; must hold no trace.  NULL: every packet is
	 * taken and dropped unwritten (lttd --discard, benchmarks).
	 */
	const char *dir;
	struct ltt_session_opts session;
	const char *events;		/* ltt_parse_events() list; NULL: all */
	const pid_t *pids;		/* pid filter; count 0: none */
	unsigned int n_pids;
};

/* Totals of what the recorder wrote, from the packets themselves. */
struct ltt_record_stats {
	uint64_t packets;
	uint64_t events;
	uint64_t bytes;
	uint64_t lost;			/* events_discarded, summed over CPUs */
};

/*
 * Create the session, map its buffers and write the metadata (fsync'd
 * before any packet, so that a killed recorder leaves a readable trace).
 */
struct ltt_recorder *ltt_recorder_create(const struct ltt_record_opts *opts);
/*
 * A recorder of the boot session (ltt_session_boot()), which records
 * already: @opts->session is not used (the session has its geometry and
 * mode), events and pids change its filters if given, and start only
 * marks the recorder as recording.
 */
struct ltt_recorder *ltt_recorder_create_boot(const struct ltt_record_opts *opts);	/* LTT_1.1 */
int ltt_recorder_start(struct ltt_recorder *rec);
/* Before start: ltt_session_set_cgroups() on the recorder's session. */
int ltt_recorder_set_cgroups(struct ltt_recorder *rec, const int *fds,
			     unsigned int count);			/* LTT_1.6 */
/*
 * Wait up to @timeout_ms for packets (epoll_pwait() with @sigmask, which
 * may be NULL) and write every complete one.  Returns 0, or -1.  An
 * interrupting signal returns 0.
 */
int ltt_recorder_pump(struct ltt_recorder *rec, int timeout_ms,
		      const void *sigmask);
/*
 * Flight recorder: write the packets of its rings that the recorder's
 * trace (and sink) do not hold yet into them, while it records
 * (LTT_BUF_SNAPSHOT_READ; a kernel without it is stopped, drained and
 * started again).
 */
int ltt_recorder_snapshot(struct ltt_recorder *rec);

/* What one snapshot wrote, and what it had to leave out. */
struct ltt_snapshot_stats {
	uint64_t packets;
	uint64_t events;
	uint64_t bytes;			/* of its packets */
	uint64_t stale;			/* packets overwritten before or while copied */
	uint64_t unfinished;		/* packets whose writers did not finish in time */
	bool restarted;			/* a kernel without live snapshots: stopped, drained, started */
};

enum ltt_snapshot_flags {
	/* STOP first: the last snapshot, which nothing overwrites */
	LTT_SNAPSHOT_FINAL = 1 << 0,
};

/*
 * Flight recorder: every packet its rings hold into @dir, a new trace
 * directory (made as ltt_record_opts.dir is) of its own, metadata and
 * per-CPU streams, while the session goes on recording.  A packet the
 * kernel overwrites before or while it is copied is left out (the gap in
 * the stream's packet_seq_num says so to readers) and counted in @st.
 * The recorder's own trace and the sink get the packets they lack, as
 * with ltt_recorder_snapshot().  @dir NULL: those only.  @flags: enum
 * ltt_snapshot_flags.  On failure what was written stays in @dir.
 */
int ltt_recorder_snapshot_to(struct ltt_recorder *rec, const char *dir,
			     unsigned int flags,
			     struct ltt_snapshot_stats *st);	/* LTT_1.2 */
/* STOP (if recording) and write every packet left, to ENODATA. */
int ltt_recorder_stop(struct ltt_recorder *rec);
void ltt_recorder_stats(const struct ltt_recorder *rec,
			struct ltt_record_stats *st);
/* LTT_CMD_STATUS: *cpus gets an array owned by the recorder. */
int ltt_recorder_status(struct ltt_recorder *rec, struct ltt_status *st,
			const struct ltt_cpu_status **cpus);
bool ltt_recorder_overwrite(const struct ltt_recorder *rec);
void ltt_recorder_destroy(struct ltt_recorder *rec);

/*
 * Somewhere else for the trace to go as well (lttd --relayd): every
 * version of the metadata text (now, and again, whole, when custom
 * events are made) and every packet, straight from the buffer's
 * mapping, before it is given back.  Either may be NULL; a callback
 * that returns non-zero fails the recorder's call.  Before start only.
 */
struct ltt_recorder_sink {
	int (*metadata)(void *ctx, const char *text, size_t len);
	int (*packet)(void *ctx, unsigned int cpu, const void *packet,
		      size_t size);
	void *ctx;
};
int ltt_recorder_set_sink(struct ltt_recorder *rec,
			  const struct ltt_recorder_sink *sink);	/* LTT_1.1 */

/* ------------------------------------------------------------------ */
/* The trace on disk                                                   */

/*
 * Write the TSDL metadata of a trace of @reg events whose clock is
 * CLOCK_MONOTONIC, @real_minus_mono_ns behind wall-clock time.
 */
int ltt_metadata_write(int fd, const struct ltt_registry *reg,
		       int64_t real_minus_mono_ns);

/* The stream file of @cpu in a trace directory. */
#define LTT_STREAM_FMT	"channel0_%u"

/* ------------------------------------------------------------------ */
/* The previous boot's trace (LTT_CMD_PREVIOUS_BOOT)                   */

/*
 * LTT_CMD_PREVIOUS_BOOT with @flags: 0 returns a read-only fd on the
 * image of the previous boot's trace, LTT_PREVIOUS_FREE frees the
 * kernel's copy and returns 0.  -1 with errno (ENOENT: no such trace;
 * EPERM: needs CAP_PERFMON; ENOSYS, EINVAL: a kernel without it) and a
 * message in ltt_error().  LTT_1.7.
 */
int ltt_previous_boot(unsigned int flags);

/*
 * An image of the previous boot's trace, read whole and checked as
 * untrusted input: magic and version, every offset, size and count
 * within the image (and no two parts overlapping), the strings
 * NUL-terminated, each packet's header possible (magic, sizes, CPU,
 * sequence, times, checksum) and the packets filling their CPU's bytes
 * exactly.  @hdr is the image's header as this libltt knows it (a longer
 * one from a newer kernel is cut), @cpus and @modules copies of its
 * arrays, @reg its event descriptions; @image the whole image.
 */
struct ltt_prev {
	struct ltt_prev_header hdr;
	struct ltt_prev_cpu *cpus;		/* hdr.n_cpus */
	struct ltt_prev_module *modules;	/* hdr.n_modules */
	struct ltt_registry reg;
	const unsigned char *image;		/* hdr.size bytes */
};

/*
 * Read the image from @fd (to its end; @name for messages: the file,
 * "LTT_CMD_PREVIOUS_BOOT") or from the file @path.  NULL on failure,
 * ltt_error() saying what is wrong and where ("NAME: cpu 1 packet 3 at
 * offset 8192: content_size 12 bits is not whole bytes").  LTT_1.7.
 */
struct ltt_prev *ltt_prev_read(int fd, const char *name);
struct ltt_prev *ltt_prev_load(const char *path);
void ltt_prev_free(struct ltt_prev *p);

/*
 * Write @p as a trace directory @dir (made as ltt_record_opts.dir is: it
 * must hold no trace): the metadata of its events, with its clock offset
 * (wall-clock times are the previous boot's) and its machine and
 * release in the env; a stream file and its index per CPU that kept
 * packets; and DIR/.previous-boot (LTT_PREV_FILE), what the image says
 * of the boot, as key=value lines (hidden: babeltrace2 takes any other
 * file of a trace directory for a stream).  On failure what was written
 * stays.
 * LTT_1.7.
 */
#define LTT_PREV_FILE		".previous-boot"
int ltt_prev_write_trace(const struct ltt_prev *p, const char *dir);

/* "panic", "oops", "warn"... of enum ltt_crash_kind; NULL when unknown. */
const char *ltt_crash_kind_name(unsigned int kind);		/* LTT_1.7 */
/* @uuid as text, "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (37 bytes). */
void ltt_uuid_format(const uint8_t uuid[16], char buf[37]);	/* LTT_1.7 */

/* ------------------------------------------------------------------ */
/* The reader                                                          */

struct ltt_trace;

enum ltt_item_kind {
	LTT_ITEM_EVENT,
	LTT_ITEM_LOST,		/* events went missing on a CPU */
};

/*
 * One item of a trace, valid until the next call of ltt_trace_next().
 * Events point into the mapped stream file: no copy, no allocation.  In
 * a trace of the other byte order than the host's, the payload is a
 * copy with its integers swapped: fields read the same either way.
 */
struct ltt_item {
	enum ltt_item_kind kind;
	uint32_t cpu;
	uint64_t ts;			/* trace clock, ns; LOST: end of range */
	int32_t pid;			/* the task running on the CPU */
	const struct ltt_event_desc *desc;	/* events */
	const unsigned char *payload;
	uint32_t size;			/* payload bytes, string included */
	/* LOST: lost_events over [lost_from, ts], lost_packets not read. */
	uint64_t lost_from;
	uint64_t lost_events;
	uint64_t lost_packets;
	/* Where: stream file name and byte offset of the record/packet. */
	const char *file;
	uint64_t offset;
};

/*
 * Open a trace directory written by lttd.  A directory with no metadata
 * but snapshot-N directories (lttd --overwrite -o DIR) is read as one
 * trace: its snapshots in the order taken, the packets a snapshot
 * repeats from the one before it read once.
 */
struct ltt_trace *ltt_trace_open(const char *dir);
/*
 * Open @n trace directories (each as ltt_trace_open() takes it) as one
 * trace, their items merged in time order.  Their event descriptions
 * must agree (the same ids, up to the shorter list); the clock offset
 * and machine are the first's.  LTT_1.6.
 */
struct ltt_trace *ltt_trace_open_dirs(const char *const *dirs,
				      unsigned int n);
void ltt_trace_close(struct ltt_trace *t);
/*
 * The next item in time order: 1, or 0 at the end.  A damaged stream
 * ends early, with an error (ltt_trace_errors()); the others go on.
 * A followed trace returns LTT_TRACE_WAIT when no item can go yet.
 */
int ltt_trace_next(struct ltt_trace *t, const struct ltt_item **item);

/*
 * Following a trace while it is written (lttd, `ltt record`): its stream
 * files grow by whole packets, new ones appear, and the metadata may be
 * replaced by a longer one (custom events).  ltt_trace_next() gives an
 * item once every stream has data past it, or once it is
 * LTT_FOLLOW_LAG_MS old on this machine's CLOCK_MONOTONIC (the trace
 * clock), so that a quiet CPU holds nothing back for longer.  Items come
 * in the same order as from the finished trace unless a stream falls
 * more than that behind.
 */
#define LTT_TRACE_WAIT		2	/* nothing to give yet: look again later */
#define LTT_FOLLOW_LAG_MS	500
/*
 * Follow the trace in @dir (its metadata must exist), expecting
 * @n_streams stream files (the CPUs recorded).
 */
struct ltt_trace *ltt_trace_follow(const char *dir, unsigned int n_streams);
/* The writer is done: what is left is read as a finished trace. */
void ltt_trace_follow_end(struct ltt_trace *t);
/*
 * Is a followed trace still written?  1: a stream file is open for
 * writing (or none exists yet), 0: none is, -1: cannot tell (needs a
 * file lease: the files' owner or CAP_LEASE).
 */
int ltt_trace_writing(const struct ltt_trace *t);

const struct ltt_registry *ltt_trace_registry(const struct ltt_trace *t);
/* Add to a trace time to get wall-clock (CLOCK_REALTIME) ns. */
int64_t ltt_trace_clock_offset(const struct ltt_trace *t);
/*
 * The machine that recorded the trace, as its uname -m said (the
 * metadata's env.arch: "x86_64", "i686", "ppc"...), or NULL (LTT_1.4).
 */
const char *ltt_trace_arch(const struct ltt_trace *t);
/* The trace's directory, as opened. */
const char *ltt_trace_dir(const struct ltt_trace *t);
/* Errors met so far: "DIR/FILE: offset N: what", one per damaged stream. */
unsigned int ltt_trace_n_errors(const struct ltt_trace *t);
const char *ltt_trace_error(const struct ltt_trace *t, unsigned int i);

/*
 * Go to time @ts (trace clock): the next items are those at or after it.
 * The items before @ts are read (not given) for what they say of names,
 * in time order: the processes and files are named from @ts on as a
 * read from the start names them (the packet index is not used).  Lost
 * events before @ts are not told.  0, or -1 (a followed trace).  LTT_1.5.
 */
int ltt_trace_seek(struct ltt_trace *t, uint64_t ts);
/*
 * The time of the trace's first item and of its last (its last packets
 * decoded, found with the packet index or headers; @last may be NULL):
 * 1, or 0 for a trace with no item.  LTT_1.5.
 */
int ltt_trace_time_range(struct ltt_trace *t, uint64_t *first,
			 uint64_t *last);
/*
 * Warnings: what was not as it should be but lost nothing ("DIR/index/
 * channel0_0.idx: ...: index ignored, ..."), printed, not failed on.
 * LTT_1.5.
 */
unsigned int ltt_trace_n_warnings(const struct ltt_trace *t);
const char *ltt_trace_warning(const struct ltt_trace *t, unsigned int i);

/*
 * The name of process @pid as the items before the current one told it
 * (state dump, exec, fork), or NULL ("<idle>" for pid 0).  After the
 * last item: as the whole trace told it.
 */
const char *ltt_trace_comm(const struct ltt_trace *t, int32_t pid);
/*
 * The file that descriptor @fd of task @pid names, as the items before
 * the current one told it (state dump, open; close forgets it), or NULL.
 */
const char *ltt_trace_file(const struct ltt_trace *t, int32_t pid,
			   int32_t fd);

/*
 * Where task @pid lives, as the items before the current one told it
 * (the state dump's process_ns, cgroup_attach, process_ns after a fork,
 * a fork: where its parent is): the path of its cgroup (v2) from the
 * hierarchy's root, and its id in *@id (@id may be NULL).  NULL when the
 * trace has not placed the task (*@id 0), or placed it in a cgroup no
 * record named (*@id that id: a damaged trace, a user session's).
 * LTT_1.6.
 */
const char *ltt_trace_cgroup(const struct ltt_trace *t, int32_t pid,
			     uint64_t *id);
/*
 * Task @pid's pid namespace (its inode number) in *@pidns and the pid
 * it has there in *@vpid (either may be NULL): 1, or 0 when the trace
 * has not told it.  LTT_1.6.
 */
int ltt_trace_pidns(const struct ltt_trace *t, int32_t pid, uint32_t *pidns,
		    int32_t *vpid);
/*
 * A number that changes whenever what ltt_trace_cgroup() answers of
 * some task may have changed: for caches of it.  LTT_1.6.
 */
uint64_t ltt_trace_cgroup_serial(const struct ltt_trace *t);
/*
 * The cgroups the items so far named (removed ones too): start with
 * *@pos 0; 1 with the next one's id and path, 0 after the last.  LTT_1.6.
 */
int ltt_trace_cgroups(const struct ltt_trace *t, size_t *pos, uint64_t *id,
		      const char **path);

/* Field access on an event item; @i indexes desc->fields. */
static inline uint64_t ltt_item_raw(const struct ltt_item *it, unsigned int i)
{
	const struct ltt_field_desc *f = &it->desc->fields[i];
	const unsigned char *p = it->payload + f->offset;

	switch (f->size) {
	case 1:
		return p[0];
	case 2: {
		uint16_t v;

		memcpy(&v, p, 2);
		return v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, p, 4);
		return v;
	}
	default: {
		uint64_t v;

		memcpy(&v, p, 8);
		return v;
	}
	}
}

/* The integer field @i, sign-extended when signed. */
static inline int64_t ltt_item_int(const struct ltt_item *it, unsigned int i)
{
	const struct ltt_field_desc *f = &it->desc->fields[i];
	uint64_t v = ltt_item_raw(it, i);

	if (f->type == LTT_TYPE_SIGNED && f->size < 8) {
		unsigned int shift = 64 - 8 * f->size;

		return (int64_t)(v << shift) >> shift;
	}
	return (int64_t)v;
}

/* The string field (NUL-terminated, in the mapping), or "". */
static inline const char *ltt_item_string(const struct ltt_item *it)
{
	if (!it->desc->has_string)
		return "";
	return (const char *)it->payload + it->desc->payload_size;
}

/*
 * The integer field @name of an event: its index, with its value in
 * *@value; -1 when the event has no such integer field.
 */
static inline int ltt_item_field(const struct ltt_item *it, const char *name,
				 int64_t *value)
{
	int i = ltt_event_field_index(it->desc, name);

	if (i < 0 || it->desc->fields[i].type == LTT_TYPE_STRING)
		return -1;
	*value = ltt_item_int(it, i);
	return i;
}

/* Field @i as text ("-38", "\"/bin/ls\"" with quotes for strings). */
int ltt_item_format_field(const struct ltt_item *it, unsigned int i,
			  char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* LTT_LTT_H */
