// SPDX-License-Identifier: GPL-2.0
/*
 * LTT custom events: event types that modules and processes create at
 * run time, with ids after the kernel's own.  User space holds a type
 * through an event fd and logs with LTT_CMD_EVENT_LOG; modules use
 * ltt_event_create() and ltt_event_log() from <linux/ltt.h>.
 *
 * While any session exists, a destroyed type stays in the registry,
 * marked dead and its id unused, so that a trace reader can still learn
 * the layout of the records it left.  The last session to go reaps the
 * dead types.
 */
#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/ctype.h>
#include <linux/export.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "internal.h"

struct ltt_event_type {
	struct kref ref;		/* creators (fds, modules) */
	struct ltt_event_info info;	/* id, name, layout, flags, owner */
	bool has_string;		/* the last field is a string */
	bool user;			/* created from user space */
	bool counted;			/* in the unprivileged quotas */
	kuid_t uid;			/* of the creator, for user types */
	kuid_t charge;			/* whom the quotas count it against */
	struct pid *owner;		/* the creator's thread group, or NULL */
};

/* Who may record @t in a user session: its user, none for a module's. */
static kuid_t ltt_type_owner(const struct ltt_event_type *t)
{
	return t->user ? t->uid : INVALID_UID;
}

/* The registry of custom types, by id, and what it depends on. */
static DEFINE_MUTEX(ltt_custom_lock);
static DEFINE_IDR(ltt_custom_idr);
static u32 ltt_custom_gen;		/* bumped on every change */
static unsigned int ltt_custom_sessions;	/* sessions that exist */
static unsigned int ltt_custom_user_types;	/* made by the unprivileged */
static DEFINE_XARRAY(ltt_custom_uid_types);	/* the same, per uid */

/*
 * Types of unprivileged users, live or dead (a dead type holds its id
 * while sessions exist): each may hold LTT_USER_TYPES_MAX, all together
 * LTT_USER_TYPES_TOTAL, so that neither one user nor all of them can
 * take the ids that others, modules and the administrator need.
 */
#define LTT_USER_TYPES_MAX	64
#define LTT_USER_TYPES_TOTAL	1024

/* Unprivileged @uid's types; under ltt_custom_lock. */
static unsigned long ltt_uid_types(kuid_t uid)
{
	void *e = xa_load(&ltt_custom_uid_types, __kuid_val(uid));

	return e ? xa_to_value(e) : 0;
}

/* Count one more type (@n 1) or one less (-1) of @uid's. */
static int ltt_uid_types_add(kuid_t uid, int n)
{
	unsigned long now = ltt_uid_types(uid) + n;

	if (!now) {
		xa_erase(&ltt_custom_uid_types, __kuid_val(uid));
		return 0;
	}
	return xa_err(xa_store(&ltt_custom_uid_types, __kuid_val(uid),
			       xa_mk_value(now), GFP_KERNEL_ACCOUNT));
}

/* Letters, digits and '_', not starting with a digit: a C identifier. */
static bool ltt_valid_name(const char *name, size_t max)
{
	size_t i, len = strnlen(name, max);

	if (!len || len == max || isdigit(name[0]))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_')
			return false;
	return true;
}

/*
 * Check the layout in @info->fields and complete it: offsets and the
 * payload size.  Returns 0 or -EINVAL.
 */
static int ltt_custom_layout(struct ltt_event_info *info, bool *has_string)
{
	struct ltt_field_info *f;
	unsigned int i, j;

	if (info->n_fields > LTT_FIELDS_MAX)
		return -EINVAL;
	info->payload_size = 0;
	*has_string = false;
	for (i = 0; i < info->n_fields; i++) {
		f = &info->fields[i];
		if (!ltt_valid_name(f->name, sizeof(f->name)) || f->offset)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (!strcmp(f->name, info->fields[j].name))
				return -EINVAL;
		switch (f->type) {
		case LTT_FIELD_UNSIGNED:
		case LTT_FIELD_SIGNED:
			if (f->size != 1 && f->size != 2 && f->size != 4 &&
			    f->size != 8)
				return -EINVAL;
			break;
		case LTT_FIELD_STRING:
			if (f->size || i != info->n_fields - 1)
				return -EINVAL;
			*has_string = true;
			break;
		default:
			return -EINVAL;
		}
		f->offset = info->payload_size;
		info->payload_size += f->size;
	}
	return 0;
}

/* Do two types record the same fields? */
static bool ltt_same_layout(const struct ltt_event_info *a,
			    const struct ltt_event_info *b)
{
	return a->n_fields == b->n_fields &&
	       !memcmp(a->fields, b->fields, a->n_fields * sizeof(a->fields[0]));
}

/* Is @name one of the kernel's own events?  Under ltt_custom_lock. */
static bool ltt_kernel_name(const char *name)
{
	struct ltt_event_info ki;
	unsigned int id;

	for (id = 0; id < LTT_NR_EVENTS; id++) {
		ki.id = id;
		if (!ltt_event_info(&ki) && !strcmp(ki.name, name))
			return true;
	}
	return false;
}

/* The custom type named @name, live or dead, or NULL. */
static struct ltt_event_type *ltt_custom_find(const char *name)
{
	struct ltt_event_type *t;
	int id;

	idr_for_each_entry(&ltt_custom_idr, t, id)
		if (!strcmp(t->info.name, name))
			return t;
	return NULL;
}

/*
 * Make (or share) the type described by @info.  A live type of that name
 * and layout is shared; a dead one comes back to life with its id; one
 * of another layout is -EEXIST.
 */
static struct ltt_event_type *ltt_custom_create(struct ltt_event_info *info,
						bool user)
{
	struct ltt_event_type *t;
	bool has_string, counted;
	int ret;

	if (!ltt_valid_name(info->name, sizeof(info->name)) ||
	    strnlen(info->description, sizeof(info->description)) ==
	    sizeof(info->description))
		return ERR_PTR(-EINVAL);
	ret = ltt_custom_layout(info, &has_string);
	if (ret)
		return ERR_PTR(ret);

	guard(mutex)(&ltt_custom_lock);
	if (ltt_kernel_name(info->name))
		return ERR_PTR(-EEXIST);
	t = ltt_custom_find(info->name);
	if (t) {
		/* Nobody logs into another user's type, nor takes it over. */
		if (!ltt_same_layout(&t->info, info) || t->user != user ||
		    (user && !uid_eq(t->uid, current_uid())))
			return ERR_PTR(-EEXIST);
		if (t->info.flags & LTT_EVENT_F_DEAD) {
			t->info.flags &= ~LTT_EVENT_F_DEAD;
			kref_init(&t->ref);
			ltt_custom_gen++;
		} else {
			kref_get(&t->ref);
		}
		return t;
	}

	counted = user && !perfmon_capable();
	if (counted && (ltt_custom_user_types >= LTT_USER_TYPES_TOTAL ||
			ltt_uid_types(ltt_charge_uid()) >= LTT_USER_TYPES_MAX))
		return ERR_PTR(-ENOSPC);
	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->uid = current_uid();
	t->charge = ltt_charge_uid();
	if (counted) {
		ret = ltt_uid_types_add(t->charge, 1);
		if (ret) {
			kfree(t);
			return ERR_PTR(ret);
		}
	}
	kref_init(&t->ref);
	t->info = *info;
	t->info.flags = LTT_EVENT_F_CUSTOM;
	t->owner = user ? get_pid(task_tgid(current)) : NULL;
	t->has_string = has_string;
	t->user = user;
	ret = idr_alloc_cyclic(&ltt_custom_idr, t, LTT_NR_EVENTS,
			       LTT_EVENTS_MAX, GFP_KERNEL);
	if (ret < 0) {
		if (counted)
			ltt_uid_types_add(t->charge, -1);
		put_pid(t->owner);
		kfree(t);
		return ERR_PTR(ret);
	}
	t->info.id = ret;
	t->counted = counted;
	ltt_custom_user_types += counted;
	ltt_custom_gen++;
	ltt_persist_describe(&t->info);
	return t;
}

/* Take @t out of the registry and free it; under ltt_custom_lock. */
static void ltt_custom_free(struct ltt_event_type *t)
{
	idr_remove(&ltt_custom_idr, t->info.id);
	if (t->counted) {
		ltt_custom_user_types--;
		ltt_uid_types_add(t->charge, -1);
	}
	put_pid(t->owner);
	kfree(t);
}

/* The last creator let go: dead while sessions exist, else gone. */
static void ltt_custom_release(struct kref *ref)
{
	struct ltt_event_type *t = container_of(ref, struct ltt_event_type,
						ref);

	ltt_custom_gen++;
	if (ltt_custom_sessions)
		t->info.flags |= LTT_EVENT_F_DEAD;
	else
		ltt_custom_free(t);
}

static void ltt_custom_put(struct ltt_event_type *t)
{
	guard(mutex)(&ltt_custom_lock);
	kref_put(&t->ref, ltt_custom_release);
}

/**
 * ltt_custom_sessions_get - a session is made: keep dead types
 */
void ltt_custom_sessions_get(void)
{
	guard(mutex)(&ltt_custom_lock);
	ltt_custom_sessions++;
}

/**
 * ltt_custom_sessions_put - a session is freed: the last one reaps
 */
void ltt_custom_sessions_put(void)
{
	struct ltt_event_type *t;
	int id;

	guard(mutex)(&ltt_custom_lock);
	if (--ltt_custom_sessions)
		return;
	idr_for_each_entry(&ltt_custom_idr, t, id)
		if (t->info.flags & LTT_EVENT_F_DEAD)
			ltt_custom_free(t);
}

/**
 * ltt_custom_info - describe the custom event of the lowest id from
 *	@info->id on that the caller may know of
 * @info: @info->id in; the rest is filled in
 *
 * Types made from user space by another uid are skipped, unless the
 * caller may trace the system (CAP_PERFMON): their names, like their
 * records, are their users' own.
 *
 * Return: 0, or -ENOENT when there is none.
 */
int ltt_custom_info(struct ltt_event_info *info)
{
	bool all = ltt_perfmon_noaudit();
	struct ltt_event_type *t;
	int id;

	if (info->id >= LTT_EVENTS_MAX)
		return -ENOENT;
	id = max_t(u32, info->id, LTT_NR_EVENTS);
	guard(mutex)(&ltt_custom_lock);
	for (;; id++) {
		t = idr_get_next(&ltt_custom_idr, &id);
		if (!t)
			return -ENOENT;
		/* Another user's types are not theirs to know of. */
		if (all || !t->user || uid_eq(t->uid, current_uid()))
			break;
	}
	*info = t->info;
	info->generation = ltt_custom_gen;
	/*
	 * The creator's pid as the caller sees it, while the process lives
	 * (its number may go to another after), else 0.
	 */
	scoped_guard(rcu)
		info->owner = t->owner && pid_has_task(t->owner, PIDTYPE_TGID) ?
			      pid_vnr(t->owner) : 0;
	return 0;
}

/**
 * ltt_custom_generation - the registry's generation
 */
u32 ltt_custom_generation(void)
{
	guard(mutex)(&ltt_custom_lock);
	return ltt_custom_gen;
}

/*
 * Is @size right for @t's layout, and @data's string one string?  Its
 * first NUL must be its last byte: bytes after an early NUL would be
 * read as records of their own, forged ones.
 */
static int ltt_custom_check(const struct ltt_event_type *t, const void *data,
			    unsigned int size)
{
	const char *str = data + t->info.payload_size;
	unsigned int slen;

	if (size > LTT_EVENT_SIZE_MAX)
		return -E2BIG;
	if (!t->has_string)
		return size == t->info.payload_size ? 0 : -EINVAL;
	if (size <= t->info.payload_size)
		return -EINVAL;
	slen = size - t->info.payload_size;
	if (slen > LTT_STRING_MAX)
		return -E2BIG;
	if (strnlen(str, slen) != slen - 1)
		return -EINVAL;
	return 0;
}

/**
 * ltt_event_create - make a custom event type
 * @name: its name, a C identifier not used by another event
 * @description: what it records, up to LTT_DESC_MAX - 1 characters
 * @fields: the fields in record order (name, type and size; offsets 0)
 * @n_fields: how many, up to LTT_FIELDS_MAX; only the last may be a string
 *
 * Return: the type, or ERR_PTR(-EINVAL) for a bad name or layout,
 * -EEXIST when another event has the name, -ENOSPC when every custom id
 * is taken, -ENOMEM.  A type of the same name and layout is shared.
 */
struct ltt_event_type *ltt_event_create(const char *name,
					const char *description,
					const struct ltt_field_info *fields,
					unsigned int n_fields)
{
	struct ltt_event_info info = { .n_fields = n_fields };

	if (n_fields > LTT_FIELDS_MAX || strscpy(info.name, name) < 0 ||
	    strscpy(info.description, description ?: "") < 0)
		return ERR_PTR(-EINVAL);
	memcpy(info.fields, fields, n_fields * sizeof(*fields));
	return ltt_custom_create(&info, false);
}
EXPORT_SYMBOL_GPL(ltt_event_create);

/**
 * ltt_event_create_format - make a custom event type of formatted text
 * @name: its name, as for ltt_event_create()
 * @description: what it records
 *
 * The type has one string field, "text", that ltt_event_logf() fills.
 */
struct ltt_event_type *ltt_event_create_format(const char *name,
					       const char *description)
{
	static const struct ltt_field_info text = {
		.name = "text",
		.type = LTT_FIELD_STRING,
	};

	return ltt_event_create(name, description, &text, 1);
}
EXPORT_SYMBOL_GPL(ltt_event_create_format);

/**
 * ltt_event_destroy - let go of a custom event type
 * @type: from ltt_event_create(); no ltt_event_log() may run on it
 */
void ltt_event_destroy(struct ltt_event_type *type)
{
	if (!IS_ERR_OR_NULL(type))
		ltt_custom_put(type);
}
EXPORT_SYMBOL_GPL(ltt_event_destroy);

/**
 * ltt_event_log - record an event of a custom type
 * @type: the type
 * @data: the payload, laid out as the type's fields say
 * @size: its size: the fixed part, plus the string and its NUL when the
 *	last field is a string
 *
 * Return: 0 (recorded or not), -E2BIG above LTT_EVENT_SIZE_MAX or for a
 * string longer than LTT_STRING_MAX with its NUL, -EINVAL when @size does
 * not fit the layout or the string's first NUL is not its last byte.
 */
int ltt_event_log(struct ltt_event_type *type, const void *data,
		  unsigned int size)
{
	int ret = ltt_custom_check(type, data, size);

	if (!ret) {
		ltt_write_custom(type->info.id, ltt_type_owner(type), data, size);
		ltt_selftest_irq_repeat(type->info.id, ltt_type_owner(type),
					data, size);
	}
	return ret;
}
EXPORT_SYMBOL_GPL(ltt_event_log);

/**
 * ltt_event_logf - record an event of a type made by
 *	ltt_event_create_format()
 * @type: the type
 * @fmt: printf format of the text, cut at LTT_STRING_MAX - 1 characters
 *
 * Return: 0, or -EINVAL when @type's only field is not a string.
 */
int ltt_event_logf(struct ltt_event_type *type, const char *fmt, ...)
{
	char text[LTT_STRING_MAX];
	va_list args;
	int len;

	if (type->info.n_fields != 1 || !type->has_string)
		return -EINVAL;
	va_start(args, fmt);
	len = vscnprintf(text, sizeof(text), fmt, args);
	va_end(args);
	ltt_write_custom(type->info.id, ltt_type_owner(type), text, len + 1);
	return 0;
}
EXPORT_SYMBOL_GPL(ltt_event_logf);

/* User space: an event fd holds one reference to its type. */
static int ltt_event_fd_release(struct inode *inode, struct file *file)
{
	ltt_enable_unregister(file);
	ltt_custom_put(file->private_data);
	return 0;
}

static const struct file_operations ltt_event_fops = {
	.owner		= THIS_MODULE,
	.release	= ltt_event_fd_release,
	.llseek		= noop_llseek,
};

/**
 * ltt_custom_create_fd - LTT_CMD_EVENT_CREATE
 * @c: the request, copied in
 *
 * With LTT_EVENT_CREATE_ENABLE_FLAG, the kernel keeps the flag word of
 * @c (enable.c) until the fd is released.
 *
 * Return: an event fd, or -EPERM, -EINVAL, -EEXIST, -ENOSPC, -ENOMEM, and
 * for the flag -EINVAL (misaligned, bit beyond 31) or -EFAULT.
 */
int ltt_custom_create_fd(struct ltt_event_create *c)
{
	struct ltt_event_info info = { .n_fields = c->n_fields };
	bool flag = c->flags & LTT_EVENT_CREATE_ENABLE_FLAG;
	struct ltt_event_type *t;
	struct file *file;
	int fd, ret;

	if (!perfmon_capable() && !READ_ONCE(ltt_user_sessions))
		return -EPERM;
	if ((c->flags & ~LTT_EVENT_CREATE_ENABLE_FLAG) || c->__reserved ||
	    c->n_fields > LTT_FIELDS_MAX)
		return -EINVAL;
	if (!flag && (c->enable_addr || c->enable_bit))
		return -EINVAL;
	memcpy(info.name, c->name, sizeof(info.name));
	memcpy(info.description, c->description, sizeof(info.description));
	memcpy(info.fields, c->fields, sizeof(info.fields));
	t = ltt_custom_create(&info, true);
	if (IS_ERR(t))
		return PTR_ERR(t);
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		ltt_custom_put(t);
		return fd;
	}
	file = anon_inode_getfile("[ltt-event]", &ltt_event_fops, t, O_RDWR);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		ltt_custom_put(t);
		return PTR_ERR(file);
	}
	/* The file's release puts @t, and the flag if any, from here on. */
	if (flag) {
		ret = ltt_enable_register(file, t->info.id, c->enable_addr,
					  c->enable_bit);
		if (ret) {
			put_unused_fd(fd);
			fput(file);
			return ret;
		}
	}
	fd_install(fd, file);
	return fd;
}

/**
 * ltt_custom_log_user - LTT_CMD_EVENT_LOG
 * @l: the request, copied in
 *
 * Return: 0, -EBADF, -EINVAL (not an event fd, bad size or string), -E2BIG,
 * -EFAULT.
 */
int ltt_custom_log_user(const struct ltt_event_log *l)
{
	CLASS(fd, f)(l->event_fd);
	struct ltt_event_type *t;
	u8 data[LTT_EVENT_SIZE_MAX];

	if (fd_empty(f))
		return -EBADF;
	if (fd_file(f)->f_op != &ltt_event_fops)
		return -EINVAL;
	t = fd_file(f)->private_data;
	if (l->size > LTT_EVENT_SIZE_MAX)
		return -E2BIG;
	if (copy_from_user(data, u64_to_user_ptr(l->data), l->size))
		return -EFAULT;
	return ltt_event_log(t, data, l->size);
}
