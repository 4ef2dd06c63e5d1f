// SPDX-License-Identifier: GPL-2.0
/*
 * The LTT event registry as user space sees it: the name and field
 * layout of every event, made from <linux/ltt-events.h>.
 */
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/nospec.h>
#include <linux/string.h>

#include "internal.h"

/* Append an integer field to @info; records are packed. */
static void ltt_describe_field(struct ltt_event_info *info, const char *name,
			       bool is_signed, unsigned int size)
{
	struct ltt_field_info *f;

	if (WARN_ON_ONCE(info->n_fields >= LTT_FIELDS_MAX))
		return;
	f = &info->fields[info->n_fields++];
	strscpy(f->name, name);
	f->type = is_signed ? LTT_FIELD_SIGNED : LTT_FIELD_UNSIGNED;
	f->size = size;
	f->offset = info->payload_size;
	info->payload_size += size;
}

/* Append the trailing string field to @info. */
static void ltt_describe_string(struct ltt_event_info *info, const char *name)
{
	struct ltt_field_info *f;

	if (WARN_ON_ONCE(info->n_fields >= LTT_FIELDS_MAX))
		return;
	f = &info->fields[info->n_fields++];
	strscpy(f->name, name);
	f->type = LTT_FIELD_STRING;
	f->offset = info->payload_size;
}

/* One ltt_describe_<name>() per event. */
#define LTT_FIELD(type, name)						\
	ltt_describe_field(info, #name, is_signed_type(type), sizeof(type))
#define LTT_STRING(name)	ltt_describe_string(info, #name)
#define LTT_EVENT(event, ...)						\
	static void ltt_describe_##event(struct ltt_event_info *info)	\
	{								\
		strscpy(info->name, #event);				\
		__VA_ARGS__						\
	}
#define LTT_EVENT_STR(event, ...)	LTT_EVENT(event, __VA_ARGS__)
#include <linux/ltt-events.h>
#undef LTT_FIELD
#undef LTT_STRING
#undef LTT_EVENT
#undef LTT_EVENT_STR

/* And the table of them, indexed by event id. */
#define LTT_FIELD(...)
#define LTT_STRING(...)
#define LTT_EVENT(name, ...)		ltt_describe_##name,
#define LTT_EVENT_STR(name, ...)	ltt_describe_##name,
static void (*const ltt_describe[])(struct ltt_event_info *info) = {
#include <linux/ltt-events.h>
};

#undef LTT_FIELD
#undef LTT_STRING
#undef LTT_EVENT
#undef LTT_EVENT_STR

static_assert(ARRAY_SIZE(ltt_describe) == LTT_NR_EVENTS);

/**
 * ltt_event_info - describe one event for LTT_CMD_EVENT_INFO
 * @info: @info->id in; the rest is filled in
 *
 * Return: 0, or -ENOENT past the last event.
 */
int ltt_event_info(struct ltt_event_info *info)
{
	unsigned int id = info->id;

	if (id >= LTT_NR_EVENTS)
		return -ENOENT;
	id = array_index_nospec(id, LTT_NR_EVENTS);
	memset(info, 0, sizeof(*info));
	info->id = id;
	ltt_describe[id](info);
	return 0;
}
