// SPDX-License-Identifier: GPL-2.0
/*
 * The LTT event registry as user space sees it: names and field layouts
 * of every event, built from <linux/ltt-events.h>.
 */
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "internal.h"

struct ltt_field_desc {
	const char *name;
	u8 type;
	u8 size;
};

struct ltt_event_desc {
	const char *name;
	const struct ltt_field_desc *fields;
	unsigned int n_fields;
	unsigned int payload_size;
	const char *string;		/* name of the trailing string, or NULL */
};

/* The fields of each event: ltt_fields_<name>[]. */
#define LTT_FIELD(type, name)						\
	{ #name, is_signed_type(type) ? LTT_FIELD_SIGNED :		\
					LTT_FIELD_UNSIGNED, sizeof(type) },
#define LTT_EVENT(ID, name, fields)					\
	static const struct ltt_field_desc ltt_fields_##name[] = { fields }; \
	static_assert(ARRAY_SIZE(ltt_fields_##name) < LTT_FIELDS_MAX);
#define LTT_EVENT_STR(ID, name, fields, str)				\
	LTT_EVENT(ID, name, fields)
#include <linux/ltt-events.h>
#undef LTT_FIELD
#undef LTT_EVENT
#undef LTT_EVENT_STR

#define LTT_FIELD(type, name)
#define LTT_EVENT(ID, name, fields)					\
	[LTT_EV_##ID] = { #name, ltt_fields_##name,			\
			  ARRAY_SIZE(ltt_fields_##name),		\
			  sizeof(struct ltt_rec_##name), NULL },
#define LTT_EVENT_STR(ID, name, fields, str)				\
	[LTT_EV_##ID] = { #name, ltt_fields_##name,			\
			  ARRAY_SIZE(ltt_fields_##name),		\
			  sizeof(struct ltt_rec_##name), #str },
static const struct ltt_event_desc ltt_events[LTT_NR_EVENTS] = {
#include <linux/ltt-events.h>
};
#undef LTT_FIELD
#undef LTT_EVENT
#undef LTT_EVENT_STR

/**
 * ltt_event_info - describe one event for LTT_CMD_EVENT_INFO
 * @info: @info->id in; the rest is filled in
 *
 * Returns 0, or -ENOENT past the last event.
 */
int ltt_event_info(struct ltt_event_info *info)
{
	const struct ltt_event_desc *ev;
	struct ltt_field_info *f;
	unsigned int i, offset = 0;

	if (info->id >= LTT_NR_EVENTS)
		return -ENOENT;
	ev = &ltt_events[info->id];
	memset(info, 0, sizeof(*info));
	info->id = ev - ltt_events;
	strscpy(info->name, ev->name);
	info->payload_size = ev->payload_size;
	for (i = 0; i < ev->n_fields; i++) {
		f = &info->fields[i];
		strscpy(f->name, ev->fields[i].name);
		f->type = ev->fields[i].type;
		f->size = ev->fields[i].size;
		f->offset = offset;
		offset += f->size;
	}
	if (ev->string) {
		f = &info->fields[i++];
		strscpy(f->name, ev->string);
		f->type = LTT_FIELD_STRING;
		f->offset = offset;
	}
	info->n_fields = i;
	return 0;
}
