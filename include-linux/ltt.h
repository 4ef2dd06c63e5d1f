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

#include <linux/types.h>
#include <linux/compiler.h>
#include <uapi/linux/ltt.h>

/* Event ids: LTT_EV_<ID>, in registry order. */
#define LTT_FIELD(type, name)
#define LTT_EVENT(ID, name, fields)		LTT_EV_##ID,
#define LTT_EVENT_STR(ID, name, fields, str)	LTT_EV_##ID,
enum ltt_event_id {
#include <linux/ltt-events.h>
	LTT_NR_EVENTS
};

#undef LTT_FIELD
#undef LTT_EVENT
#undef LTT_EVENT_STR

/* Record layouts: struct ltt_rec_<name>, packed as stored. */
#define LTT_FIELD(type, name)			type name;
#define LTT_EVENT(ID, name, fields)		\
	struct ltt_rec_##name { fields } __packed;
#define LTT_EVENT_STR(ID, name, fields, str)	\
	LTT_EVENT(ID, name, fields)
#include <linux/ltt-events.h>
#undef LTT_FIELD
#undef LTT_EVENT
#undef LTT_EVENT_STR

#ifdef CONFIG_LTT

void ltt_write(unsigned int id, const void *rec, unsigned int len,
	       const char *str);

#else

static inline void ltt_write(unsigned int id, const void *rec,
			     unsigned int len, const char *str)
{
}

#endif /* CONFIG_LTT */

/*
 * Emit helpers: ltt_log_<name>(&rec) records one event, with the string
 * as the last argument for events that carry one.
 */
#define LTT_FIELD(type, name)
#define LTT_EVENT(ID, name, fields)					\
static __always_inline void						\
ltt_log_##name(const struct ltt_rec_##name *rec)			\
{									\
	ltt_write(LTT_EV_##ID, rec, sizeof(*rec), NULL);		\
}
#define LTT_EVENT_STR(ID, name, fields, str)				\
static __always_inline void						\
ltt_log_##name(const struct ltt_rec_##name *rec, const char *str)	\
{									\
	ltt_write(LTT_EV_##ID, rec, sizeof(*rec), str);			\
}
#include <linux/ltt-events.h>
#undef LTT_FIELD
#undef LTT_EVENT
#undef LTT_EVENT_STR

#endif /* _LINUX_LTT_H */
