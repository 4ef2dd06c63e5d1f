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

#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/types.h>
#include <uapi/linux/ltt.h>

#ifdef CONFIG_LTT
void __ltt_write(unsigned int id, const void *rec, unsigned int len,
		 const char *str);
#else
static inline void __ltt_write(unsigned int id, const void *rec,
			       unsigned int len, const char *str)
{
}
#endif

/* Record an event for the current task. */
static __always_inline void ltt_write(unsigned int id, const void *rec,
				      unsigned int len, const char *str)
{
	__ltt_write(id, rec, len, str);
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
		ltt_write(LTT_EV_##name, rec, sizeof(*rec), NULL);	\
	}
#define LTT_EVENT_STR(name, ...)					\
	struct ltt_rec_##name { __VA_ARGS__ } __packed;			\
	static __always_inline void					\
	ltt_log_##name(const struct ltt_rec_##name *rec, const char *str) \
	{								\
		ltt_write(LTT_EV_##name, rec, sizeof(*rec), str);	\
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
#else
static __always_inline bool ltt_hooks_enabled(void)
{
	return false;
}
#endif

/* A trap or exception reached its C handler; @ip is where it happened. */
static __always_inline void ltt_trap_entry(unsigned int trap, unsigned long ip)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_trap_entry rec = { .trap = trap, .ip = ip };

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
			.func = (unsigned long)func,
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
		struct ltt_rec_mm_swap_in rec = { .pfn = pfn };

		ltt_log_mm_swap_in(&rec);
	}
}

static __always_inline void ltt_swap_out(unsigned long pfn)
{
	if (ltt_hooks_enabled()) {
		struct ltt_rec_mm_swap_out rec = { .pfn = pfn };

		ltt_log_mm_swap_out(&rec);
	}
}

#endif /* _LINUX_LTT_H */
