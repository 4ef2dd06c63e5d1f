// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The event registry: what each event id is called and how its record
 * is laid out.  It comes from the kernel (LTT_CMD_EVENT_INFO) when
 * recording and from the trace's metadata when reading.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * A C identifier of at most LTT_NAME_MAX - 1 characters, as the kernel
 * makes them: the metadata writes names as they are.
 */
static bool registry_is_name(const char *s, size_t size)
{
	size_t i;

	if (!memchr(s, '\0', size) || !s[0] || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; s[i]; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* A description is usable: names set, fields packed in order. */
static int registry_check(const struct ltt_event_desc *d)
{
	unsigned int i, off = 0;

	if (!d->name[0] || !memchr(d->name, '\0', sizeof(d->name)))
		return ltt_fail("event %u: empty or overlong name", d->id);
	if (!registry_is_name(d->name, sizeof(d->name)))
		return ltt_fail("event %u: name \"%s\" is not an identifier",
				d->id, d->name);
	if (d->n_fields > LTT_FIELDS_MAX)
		return ltt_fail("event %s: %u fields, at most %u", d->name,
				d->n_fields, LTT_FIELDS_MAX);
	for (i = 0; i < d->n_fields; i++) {
		const struct ltt_field_desc *f = &d->fields[i];

		if (!registry_is_name(f->name, sizeof(f->name)))
			return ltt_fail("event %s field %u: bad name",
					d->name, i);
		if (f->offset != off)
			return ltt_fail("event %s field %s: offset %u, expected %u",
					d->name, f->name, f->offset, off);
		switch (f->type) {
		case LTT_TYPE_UNSIGNED:
		case LTT_TYPE_SIGNED:
			if (f->size != 1 && f->size != 2 && f->size != 4 &&
			    f->size != 8)
				return ltt_fail("event %s field %s: size %u",
						d->name, f->name, f->size);
			off += f->size;
			break;
		case LTT_TYPE_STRING:
			if (i != d->n_fields - 1)
				return ltt_fail("event %s field %s: a string must be last",
						d->name, f->name);
			break;
		default:
			return ltt_fail("event %s field %s: unknown type %u",
					d->name, f->name, f->type);
		}
	}
	if (off != d->payload_size)
		return ltt_fail("event %s: payload_size %u, fields add up to %u",
				d->name, d->payload_size, off);
	if (d->has_string != (d->n_fields &&
			      d->fields[d->n_fields - 1].type == LTT_TYPE_STRING))
		return ltt_fail("event %s: string flag does not match its fields",
				d->name);
	return 0;
}

int ltt_registry_add(struct ltt_registry *reg, const struct ltt_event_desc *d)
{
	struct ltt_event_desc *ev;

	if (d->id < reg->n_events)
		return ltt_fail("event %s: id %u, expected %u or more (ids increase)",
				d->name, d->id, reg->n_events);
	if (d->id >= LTT_EVENTS_MAX)
		return ltt_fail("event %s: id %u, at most %u", d->name, d->id,
				LTT_EVENTS_MAX - 1);
	if (registry_check(d))
		return -1;
	if (ltt_registry_find(reg, d->name) >= 0)
		return ltt_fail("event %s: defined twice", d->name);
	ev = realloc(reg->events, (d->id + 1) * sizeof(*ev));
	if (!ev)
		return ltt_fail("out of memory");
	/* Ids of destroyed custom events: slots with no name. */
	while (reg->n_events < d->id) {
		memset(&ev[reg->n_events], 0, sizeof(*ev));
		ev[reg->n_events].id = reg->n_events;
		reg->n_events++;
	}
	ev[reg->n_events++] = *d;
	reg->events = ev;
	return 0;
}

void ltt_registry_free(struct ltt_registry *reg)
{
	free(reg->events);
	reg->events = NULL;
	reg->n_events = 0;
}

int ltt_registry_find(const struct ltt_registry *reg, const char *name)
{
	unsigned int id;

	if (!name[0])
		return -1;
	for (id = 0; id < reg->n_events; id++)
		if (!strcmp(reg->events[id].name, name))
			return id;
	return -1;
}

int ltt_event_field_index(const struct ltt_event_desc *desc, const char *name)
{
	unsigned int i;

	for (i = 0; i < desc->n_fields; i++)
		if (!strcmp(desc->fields[i].name, name))
			return i;
	return -1;
}

/*
 * Turn the kernel's description into ours; anything @ei holds (an image
 * of the previous boot's is untrusted) gives a description that
 * ltt_registry_add() accepts or refuses, never more than our fields.
 */
static void registry_convert(struct ltt_event_desc *d,
			     const struct ltt_event_info *ei)
{
	unsigned int i;

	memset(d, 0, sizeof(*d));
	d->id = ei->id;
	memcpy(d->name, ei->name, sizeof(d->name));
	d->name[sizeof(d->name) - 1] = '\0';
	d->n_fields = ei->n_fields;
	d->payload_size = ei->payload_size;
	for (i = 0; i < ei->n_fields && i < LTT_FIELDS_MAX; i++) {
		const struct ltt_field_info *fi = &ei->fields[i];
		struct ltt_field_desc *f = &d->fields[i];

		memcpy(f->name, fi->name, sizeof(f->name));
		f->name[sizeof(f->name) - 1] = '\0';
		f->type = fi->type;
		f->size = fi->size;
		f->offset = fi->offset;
	}
	/* more fields than we hold: ltt_registry_add() refuses the count */
	d->has_string = d->n_fields && d->n_fields <= LTT_FIELDS_MAX &&
			d->fields[d->n_fields - 1].type == LTT_TYPE_STRING;
	d->custom = ei->flags & LTT_EVENT_F_CUSTOM;
}

int ltt_registry_add_info(struct ltt_registry *reg,
			  const struct ltt_event_info *ei)
{
	struct ltt_event_desc d;
	unsigned int i;

	/* the conversion would cut an unterminated name: refuse it */
	if (!memchr(ei->name, '\0', sizeof(ei->name)))
		return ltt_fail("event %u: name not NUL-terminated", ei->id);
	for (i = 0; i < ei->n_fields && i < LTT_FIELDS_MAX; i++)
		if (!memchr(ei->fields[i].name, '\0', sizeof(ei->fields[i].name)))
			return ltt_fail("event %u field %u: name not NUL-terminated",
					ei->id, i);
	registry_convert(&d, ei);
	return ltt_registry_add(reg, &d);
}

int ltt_registry_from_kernel(struct ltt_registry *reg)
{
	struct ltt_event_info ei;
	unsigned int id;

	memset(reg, 0, sizeof(*reg));
	/* Each call describes the event of the lowest id from ei.id on. */
	for (id = 0; id < LTT_EVENTS_MAX; id = ei.id + 1) {
		memset(&ei, 0, sizeof(ei));
		ei.id = id;
		if (ltt_syscall(LTT_CMD_EVENT_INFO, &ei, sizeof(ei))) {
			if (errno == ENOENT && id)
				return 0;
			ltt_registry_free(reg);
			if (errno == ENOSYS)
				return ltt_fail("no ltt() system call: this kernel lacks CONFIG_LTT");
			return ltt_fail_errno("LTT_CMD_EVENT_INFO id %u", id);
		}
		if (ltt_registry_add_info(reg, &ei)) {
			ltt_registry_free(reg);
			return -1;
		}
	}
	return 0;
}

/* "a, b, c": the registry's event names, for error messages. */
static const char *events_known(const struct ltt_registry *reg)
{
	static __thread char buf[1024];
	size_t n = 0;
	unsigned int id;

	buf[0] = '\0';
	for (id = 0; id < reg->n_events && n < sizeof(buf); id++)
		if (reg->events[id].name[0])
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      n ? ", " : "", reg->events[id].name);
	return buf;
}

/* Does the event @name match @word (a name, a prefix* or "all")? */
static bool events_word_matches(const char *word, const char *name)
{
	size_t len = strlen(word);

	if (!strcmp(word, "all"))
		return true;
	if (len && word[len - 1] == '*')
		return !strncmp(name, word, len - 1);
	return !strcmp(name, word);
}

/* Set the bits of every event matching @word in @mask. */
static int events_match(const struct ltt_registry *reg, const char *word,
			uint64_t *mask, unsigned int nbits)
{
	unsigned int id, hits = 0;
	unsigned long n;
	char *end;

	n = strtoul(word, &end, 10);
	if (end != word && *end == '\0') {
		if (n >= reg->n_events || n >= nbits)
			return ltt_fail("event id %lu: the registry has %u events",
					n, reg->n_events);
		mask[n / 64] |= 1ULL << (n % 64);
		return 0;
	}
	for (id = 0; id < reg->n_events && id < nbits; id++) {
		if (!events_word_matches(word, reg->events[id].name))
			continue;
		mask[id / 64] |= 1ULL << (id % 64);
		hits++;
	}
	if (!hits)
		return ltt_fail("no event matches \"%s\"; the events are: %s",
				word, events_known(reg));
	return 0;
}

int ltt_parse_events(const struct ltt_registry *reg, const char *list,
		     uint64_t *mask, unsigned int nbits)
{
	char *copy, *word, *save = NULL;
	unsigned int words = 0;
	int ret = 0;

	memset(mask, 0, (nbits + 63) / 64 * sizeof(*mask));
	copy = strdup(list);
	if (!copy)
		return ltt_fail("out of memory");
	for (word = strtok_r(copy, ", ", &save); word && !ret;
	     word = strtok_r(NULL, ", ", &save), words++)
		ret = events_match(reg, word, mask, nbits);
	free(copy);
	if (!ret && !words)
		return ltt_fail("empty event list");
	return ret;
}
