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
#include <linux/types.h>
#include <uapi/linux/ltt.h>

#ifdef CONFIG_LTT
void __ltt_write(unsigned int id, const void *rec, unsigned int len,
		 const char *str, pid_t also);
#else
static inline void __ltt_write(unsigned int id, const void *rec,
			       unsigned int len, const char *str, pid_t also)
{
}
#endif

/* Record an event for the current task. */
static __always_inline void ltt_write(unsigned int id, const void *rec,
				      unsigned int len, const char *str)
{
	__ltt_write(id, rec, len, str, 0);
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

#endif /* _LINUX_LTT_H */
