/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LTT, the Linux Trace Toolkit: what the kernel needs to record events.
 *
 * Every event is declared once, in <linux/ltt-events.h>.  This header
 * turns that list into the event ids, the packed record layouts and the
 * ltt_log_<name>() helpers that probes call.
 */
#ifndef _LINUX_LTT_H
#define _LINUX_LTT_H

#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/types.h>
#include <uapi/linux/ltt.h>

#ifdef CONFIG_LTT
/* The events that some recording session takes (kernel/ltt/write.c). */
extern unsigned long ltt_wanted[BITS_TO_LONGS(LTT_EVENTS_MAX)];

void __ltt_write(unsigned int id, const void *rec, unsigned int len);
void __ltt_write_str(unsigned int id, const void *rec, unsigned int len,
		     const char *str);

/*
 * Does some recording session take event @id?  A bit test, so that an
 * event nobody takes costs no call; the sessions' own filters decide.
 */
static __always_inline bool ltt_wants(unsigned int id)
{
	return test_bit(id, ltt_wanted);
}
#else
static inline bool ltt_wants(unsigned int id)
{
	return false;
}

static inline void __ltt_write(unsigned int id, const void *rec,
			       unsigned int len)
{
}

static inline void __ltt_write_str(unsigned int id, const void *rec,
				   unsigned int len, const char *str)
{
}
#endif

/* Record an event for the current task. */
static __always_inline void ltt_write(unsigned int id, const void *rec,
				      unsigned int len)
{
	if (ltt_wants(id))
		__ltt_write(id, rec, len);
}

/* The same, for an event that ends in a string. */
static __always_inline void ltt_write_str(unsigned int id, const void *rec,
					  unsigned int len, const char *str)
{
	if (ltt_wants(id))
		__ltt_write_str(id, rec, len, str);
}

/* Event ids, LTT_EV_<name>, in registry order. */
#define LTT_FIELD(...)
#define LTT_STRING(...)
#define LTT_EVENT(name, ...)		LTT_EV_##name,
#define LTT_EVENT_STR(name, ...)	LTT_EV_##name,
enum ltt_event_id {
#include <linux/ltt-events.h>
	LTT_NR_EVENTS
};

#undef LTT_FIELD
#undef LTT_STRING
#undef LTT_EVENT
#undef LTT_EVENT_STR

/*
 * Record layouts, struct ltt_rec_<name>, packed as they are stored, and
 * the helpers that record them, ltt_log_<name>(&rec[, string]).  Each
 * field is a packed anonymous struct, ended by the registry's semicolon.
 */
#define LTT_FIELD(type, name)	struct { type name; } __packed
#define LTT_STRING(name)	char name[]
#define LTT_EVENT(name, ...)						\
	struct ltt_rec_##name { __VA_ARGS__ } __packed;			\
	static __always_inline void					\
	ltt_log_##name(const struct ltt_rec_##name *rec)		\
	{								\
		ltt_write(LTT_EV_##name, rec, sizeof(*rec));		\
	}
#define LTT_EVENT_STR(name, ...)					\
	struct ltt_rec_##name { __VA_ARGS__ } __packed;			\
	static __always_inline void					\
	ltt_log_##name(const struct ltt_rec_##name *rec, const char *str) \
	{								\
		ltt_write_str(LTT_EV_##name, rec, sizeof(*rec), str);	\
	}
#include <linux/ltt-events.h>
#undef LTT_FIELD
#undef LTT_STRING
#undef LTT_EVENT
#undef LTT_EVENT_STR

/*
 * Custom events, for modules: an event type has a name, a description
 * and a field layout (struct ltt_field_info, offsets left 0: they are
 * computed), or, made by ltt_event_create_format(), one string field
 * "text" that ltt_event_logf() fills.  Its events land in the same
 * per-CPU buffers and timeline as the kernel's own.  ltt_event_log()
 * and ltt_event_logf() may be called from any context, until
 * ltt_event_destroy(), which must not race with them.
 */
struct ltt_event_type;

#ifdef CONFIG_LTT
struct ltt_event_type *ltt_event_create(const char *name,
					const char *description,
					const struct ltt_field_info *fields,
					unsigned int n_fields);
struct ltt_event_type *ltt_event_create_format(const char *name,
					       const char *description);
void ltt_event_destroy(struct ltt_event_type *type);
int ltt_event_log(struct ltt_event_type *type, const void *data,
		  unsigned int size);
__printf(2, 3)
int ltt_event_logf(struct ltt_event_type *type, const char *fmt, ...);
#else
static inline struct ltt_event_type *
ltt_event_create(const char *name, const char *description,
		 const struct ltt_field_info *fields, unsigned int n_fields)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline struct ltt_event_type *
ltt_event_create_format(const char *name, const char *description)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void ltt_event_destroy(struct ltt_event_type *type)
{
}

static inline int ltt_event_log(struct ltt_event_type *type,
				const void *data, unsigned int size)
{
	return 0;
}

static inline __printf(2, 3)
int ltt_event_logf(struct ltt_event_type *type, const char *fmt, ...)
{
	return 0;
}
#endif

/*
 * Direct hooks, for events that have no tracepoint: one line in the code
 * they trace, costing a patched-out branch while no session records.
 */
#ifdef CONFIG_LTT
#include <linux/jump_label.h>

DECLARE_STATIC_KEY_FALSE(ltt_hooks_key);

static __always_inline bool ltt_hooks_enabled(void)
{
	return static_branch_unlikely(&ltt_hooks_key);
}

/*
 * The kernel is locked down for confidentiality: records carry no
 * kernel address and no page frame, but 0 (kernel/ltt/session.c).
 */
extern bool ltt_redact;
unsigned long __ltt_redact_ip(unsigned long ip);

static __always_inline bool ltt_redacting(void)
{
	return unlikely(READ_ONCE(ltt_redact));
}
#else
static __always_inline bool ltt_hooks_enabled(void)
{
	return false;
}

static __always_inline bool ltt_redacting(void)
{
	return false;
}

static inline unsigned long __ltt_redact_ip(unsigned long ip)
{
	return ip;
}
#endif

/*
 * The address of function @fn's code, as kallsyms and System.map list
 * it: a Thumb-2 kernel's function pointers have bit 0 set.  0 under
 * lockdown.
 */
static __always_inline unsigned long ltt_code_addr(const void *fn)
{
	unsigned long addr = (unsigned long)fn;

	if (ltt_redacting())
		return 0;
	if (IS_ENABLED(CONFIG_THUMB2_KERNEL))
		addr &= ~1UL;
	return addr;
}

/* Where a trap happened: 0 under lockdown when that is kernel code. */
static __always_inline unsigned long ltt_trap_ip(unsigned long ip)
{
	return ltt_redacting() ? __ltt_redact_ip(ip) : ip;
}

/* A trap or exception reached its C handler; @ip is where it happened. */
static __always_inline void ltt_trap_entry(unsigned int trap, unsigned long ip)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_trap_entry rec = {
			.trap = trap,
			.ip = ltt_trap_ip(ip),
		};

		ltt_log_trap_entry(&rec);
	}
}

static __always_inline void ltt_trap_exit(void)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_trap_exit rec = {};

		ltt_log_trap_exit(&rec);
	}
}

/* The tick, from update_process_times(). */
static __always_inline void ltt_timer_tick(void)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_timer_tick rec = {};

		ltt_log_timer_tick(&rec);
	}
}

static __always_inline void ltt_schedule_timeout(long timeout)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_timer_schedule_timeout rec = {
			.timeout = timeout,
		};

		ltt_log_timer_schedule_timeout(&rec);
	}
}

/* A kernel thread starts running @func, from kthread(). */
static __always_inline void ltt_kthread(pid_t pid, const void *func)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_process_kthread rec = {
			.pid = pid,
			.func = ltt_code_addr(func),
		};

		ltt_log_process_kthread(&rec);
	}
}

/* A task waits for a locked buffer_head (its I/O) ... */
static __always_inline void ltt_buffer_wait_start(void)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_fs_buffer_wait_start rec = {};

		ltt_log_fs_buffer_wait_start(&rec);
	}
}

/* ... and has it. */
static __always_inline void ltt_buffer_wait_end(void)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_fs_buffer_wait_end rec = {};

		ltt_log_fs_buffer_wait_end(&rec);
	}
}

/* A task waits on a page (folio) bit, its I/O or its lock ... */
static __always_inline void ltt_page_wait_start(void)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_mm_page_wait_start rec = {};

		ltt_log_mm_page_wait_start(&rec);
	}
}

/* ... and is done waiting. */
static __always_inline void ltt_page_wait_end(void)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_mm_page_wait_end rec = {};

		ltt_log_mm_page_wait_end(&rec);
	}
}

/* A page is read from swap, or written to it. */
static __always_inline void ltt_swap_in(unsigned long pfn)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_mm_swap_in rec = {
			.pfn = ltt_redacting() ? 0 : pfn,
		};

		ltt_log_mm_swap_in(&rec);
	}
}

static __always_inline void ltt_swap_out(unsigned long pfn)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_mm_swap_out rec = {
			.pfn = ltt_redacting() ? 0 : pfn,
		};

		ltt_log_mm_swap_out(&rec);
	}
}

/*
 * The file system, where the VFS opens files and changes names and
 * attributes: any ABI, and the paths the kernel resolved.  @ret is what
 * the operation returns (0 or -errno; @file an ERR_PTR when the open
 * failed, @name what was asked for).
 */
struct file;
struct path;
struct qstr;

void __ltt_fs_open(int fd, unsigned int flags, const char *name,
		   struct file *file);
void __ltt_fs_rename(const struct path *old_dir, const struct qstr *old_last,
		     const struct path *new_dir, const struct qstr *new_last,
		     unsigned int flags, int ret);
void __ltt_fs_unlink(const struct path *dir, const struct qstr *last,
		     bool rmdir, int ret);
void __ltt_fs_mkdir(const struct path *dir, const struct qstr *last,
		    umode_t mode, int ret);
void __ltt_fs_link(const struct path *old, const struct path *new_dir,
		   const struct qstr *new_last, int ret);
void __ltt_fs_symlink(const char *text, const struct path *dir,
		      const struct qstr *last, int ret);
void __ltt_fs_truncate(const struct path *path, loff_t length, int ret);
void __ltt_fs_chmod(const struct path *path, umode_t mode, int ret);
void __ltt_fs_chown(const struct path *path, uid_t user, gid_t group,
		    int ret);
void __ltt_fs_dup(unsigned int oldfd, int newfd, bool cloexec);
void __ltt_fs_mmap(struct file *file, unsigned long fd, unsigned long len,
		   unsigned long prot, unsigned long flags, unsigned long ret);
void __ltt_fs_transfer(int in_fd, int out_fd, ssize_t ret);

/* An open, from do_sys_openat2(): before the fd is installed. */
static __always_inline void ltt_fs_open(int fd, unsigned int flags,
					const char *name, struct file *file)
{
	if (ltt_hooks_enabled())
		__ltt_fs_open(fd, flags, name, file);
}

/* rename, renameat, renameat2: the parents and the last components. */
static __always_inline void ltt_fs_rename(const struct path *old_dir,
					  const struct qstr *old_last,
					  const struct path *new_dir,
					  const struct qstr *new_last,
					  unsigned int flags, int ret)
{
	if (ltt_hooks_enabled())
		__ltt_fs_rename(old_dir, old_last, new_dir, new_last, flags,
				ret);
}

static __always_inline void ltt_fs_unlink(const struct path *dir,
					  const struct qstr *last, int ret)
{
	if (ltt_hooks_enabled())
		__ltt_fs_unlink(dir, last, false, ret);
}

static __always_inline void ltt_fs_rmdir(const struct path *dir,
					 const struct qstr *last, int ret)
{
	if (ltt_hooks_enabled())
		__ltt_fs_unlink(dir, last, true, ret);
}

static __always_inline void ltt_fs_mkdir(const struct path *dir,
					 const struct qstr *last,
					 umode_t mode, int ret)
{
	if (ltt_hooks_enabled())
		__ltt_fs_mkdir(dir, last, mode, ret);
}

/* A hard link to @old, made as @new_last in @new_dir. */
static __always_inline void ltt_fs_link(const struct path *old,
					const struct path *new_dir,
					const struct qstr *new_last, int ret)
{
	if (ltt_hooks_enabled())
		__ltt_fs_link(old, new_dir, new_last, ret);
}

/* A symbolic link holding @text, made as @last in @dir. */
static __always_inline void ltt_fs_symlink(const char *text,
					   const struct path *dir,
					   const struct qstr *last, int ret)
{
	if (ltt_hooks_enabled())
		__ltt_fs_symlink(text, dir, last, ret);
}

static __always_inline void ltt_fs_truncate(const struct path *path,
					    loff_t length, int ret)
{
	if (ltt_hooks_enabled())
		__ltt_fs_truncate(path, length, ret);
}

static __always_inline void ltt_fs_chmod(const struct path *path,
					 umode_t mode, int ret)
{
	if (ltt_hooks_enabled())
		__ltt_fs_chmod(path, mode, ret);
}

static __always_inline void ltt_fs_chown(const struct path *path,
					 uid_t user, gid_t group, int ret)
{
	if (ltt_hooks_enabled())
		__ltt_fs_chown(path, user, group, ret);
}

/* dup, dup2, dup3, fcntl F_DUPFD: @newfd is the new fd or -errno. */
static __always_inline void ltt_fs_dup(unsigned int oldfd, int newfd,
				       bool cloexec)
{
	if (ltt_hooks_enabled())
		__ltt_fs_dup(oldfd, newfd, cloexec);
}

/* mmap of every ABI, from ksys_mmap_pgoff(): @ret the address or -errno. */
static __always_inline void ltt_fs_mmap(struct file *file, unsigned long fd,
					unsigned long len, unsigned long prot,
					unsigned long flags, unsigned long ret)
{
	if (ltt_hooks_enabled() && file)
		__ltt_fs_mmap(file, fd, len, prot, flags, ret);
}

/* sendfile, splice, copy_file_range: @ret bytes from @in_fd to @out_fd. */
static __always_inline void ltt_fs_transfer(int in_fd, int out_fd,
					    ssize_t ret)
{
	if (ltt_hooks_enabled())
		__ltt_fs_transfer(in_fd, out_fd, ret);
}

/*
 * A fork copied a process's memory, enable flags and all: the flags'
 * registrations (kernel/ltt/enable.c) go with it, so that the kernel
 * keeps the child's words.  From copy_process(), which may sleep;
 * costs a patched-out branch until a process registers a flag.
 */
struct task_struct;

#ifdef CONFIG_LTT
DECLARE_STATIC_KEY_FALSE(ltt_enable_key);
void __ltt_fork(struct task_struct *child, unsigned long clone_flags);

static inline void ltt_fork(struct task_struct *child,
			    unsigned long clone_flags)
{
	if (static_branch_unlikely(&ltt_enable_key))
		__ltt_fork(child, clone_flags);
}
#else
static inline void ltt_fork(struct task_struct *child,
			    unsigned long clone_flags)
{
}
#endif

/* A WARN() fired in @caller, at @file:@line (NULL: not known), from __warn(). */
#ifdef CONFIG_LTT
void __ltt_warn(const char *file, int line, void *caller);

static __always_inline void ltt_warn(const char *file, int line, void *caller)
{
	if (ltt_hooks_enabled() && ltt_wants(LTT_EV_crash))
		__ltt_warn(file, line, caller);
}
#else
static inline void ltt_warn(const char *file, int line, void *caller)
{
}
#endif

#endif /* _LINUX_LTT_H */
