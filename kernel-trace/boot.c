// SPDX-License-Identifier: GPL-2.0
/*
 * LTT boot tracing: ltt.boot= on the kernel command line makes a session
 * and starts it before the first user-space process runs, so that the
 * trace holds init's exec and every process of the boot.  A trace daemon
 * takes it over with LTT_CMD_BOOT (lttd --boot) and writes it out from
 * its first event; until then, a discard-mode session keeps the first
 * events and counts the rest lost, an overwrite-mode one the last ones.
 *
 *   ltt.boot=OPTION[,OPTION...]
 *     events=all|NAME[+NAME...]   events, or groups by prefix (sched,
 *                                 process, fs, ...); default all
 *     size=N[KMG]                 buffer per CPU (default 2M)
 *     subbuf=N[KMG]               packet size (default 256K)
 *     mode=discard|overwrite      default discard
 *     persist=NAME                record into the reserve_mem= region
 *                                 NAME, which the next boot reads back
 *                                 (persist.c); overwrite mode, its size
 *                                 and a 32K packet unless subbuf= says
 */
#include <linux/capability.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "internal.h"

static char ltt_boot_args[256] __initdata;
static bool ltt_boot_asked __initdata;

/* The boot session until somebody takes it, under ltt_boot_lock. */
static DEFINE_MUTEX(ltt_boot_lock);
static struct ltt_session *ltt_boot_session;

static int __init ltt_boot_setup(char *str)
{
	ltt_boot_asked = true;
	strscpy(ltt_boot_args, str);
	return 1;
}
__setup("ltt.boot=", ltt_boot_setup);

/* Does event @name belong to token @tok: itself, or its group? */
static bool __init ltt_boot_match(const char *name, const char *tok)
{
	size_t n = strlen(tok);

	return !strcmp(tok, "all") || !strcmp(name, tok) ||
	       (!strncmp(name, tok, n) && name[n] == '_');
}

/* Set the events of @list ("a+b+c") in @mask; -EINVAL for an unknown one. */
static int __init ltt_boot_events(unsigned long *mask, char *list)
{
	struct ltt_event_info ei;
	char *tok;
	bool hit;

	bitmap_zero(mask, LTT_EVENTS_MAX);
	while ((tok = strsep(&list, "+"))) {
		hit = false;
		for (ei.id = 0; ei.id < LTT_NR_EVENTS; ei.id++) {
			if (ltt_event_info(&ei) || !ltt_boot_match(ei.name, tok))
				continue;
			__set_bit(ei.id, mask);
			hit = true;
		}
		if (!hit) {
			pr_err("ltt: ltt.boot: no event or group %s\n", tok);
			return -EINVAL;
		}
	}
	/* Custom events, made later, are recorded too. */
	bitmap_set(mask, LTT_NR_EVENTS, LTT_EVENTS_MAX - LTT_NR_EVENTS);
	return 0;
}

/* Parse ltt.boot= into @a and @mask. */
static int __init ltt_boot_parse(char *args, struct ltt_create *a,
				 unsigned long *mask, const char **persist)
{
	unsigned long long size = 2ULL << 20;
	unsigned int subbuf = 0;
	char *opt, *val;
	int ret;

	bitmap_fill(mask, LTT_EVENTS_MAX);
	while ((opt = strsep(&args, ","))) {
		if (!*opt)
			continue;
		val = strchr(opt, '=');
		if (!val) {
			pr_err("ltt: ltt.boot: %s needs a value\n", opt);
			return -EINVAL;
		}
		*val++ = '\0';
		if (!strcmp(opt, "events")) {
			ret = ltt_boot_events(mask, val);
			if (ret)
				return ret;
		} else if (!strcmp(opt, "size")) {
			size = memparse(val, NULL);
		} else if (!strcmp(opt, "subbuf")) {
			subbuf = min_t(unsigned long long, memparse(val, NULL),
				       U32_MAX);
		} else if (!strcmp(opt, "persist") && *val) {
			*persist = val;
		} else if (!strcmp(opt, "mode") && !strcmp(val, "discard")) {
			a->mode = LTT_MODE_DISCARD;
		} else if (!strcmp(opt, "mode") && !strcmp(val, "overwrite")) {
			a->mode = LTT_MODE_OVERWRITE;
		} else {
			pr_err("ltt: ltt.boot: unknown option %s=%s\n", opt, val);
			return -EINVAL;
		}
	}
	if (*persist) {
		a->mode = LTT_MODE_OVERWRITE;
		ret = ltt_persist_setup(*persist, subbuf, a);
		return ret ?: ltt_create_defaults(a);
	}
	a->subbuf_size = subbuf ?: LTT_SUBBUF_DEFAULT;
	if (!a->subbuf_size || !is_power_of_2(a->subbuf_size) ||
	    size < 2ULL * a->subbuf_size) {
		pr_err("ltt: ltt.boot: size must hold two packets of a power of two\n");
		return -EINVAL;
	}
	/* div_u64: no 64-bit division by the compiler on 32-bit. */
	a->n_subbufs = rounddown_pow_of_two(min_t(u64,
						  div_u64(size, a->subbuf_size),
						  LTT_SUBBUFS_MAX));
	return ltt_create_defaults(a);
}

/* After every initcall, before init runs: make and start the session. */
static int __init ltt_boot_start(void)
{
	DECLARE_BITMAP(mask, LTT_EVENTS_MAX);
	struct ltt_create a = { 0 };
	const char *persist = NULL;
	struct ltt_session *s;
	int ret;

	if (!ltt_boot_asked)
		return 0;
	ret = ltt_boot_parse(ltt_boot_args, &a, mask, &persist);
	if (ret)
		goto fail;
	s = ltt_session_alloc(&a, false, !!persist);
	if (IS_ERR(s)) {
		ret = PTR_ERR(s);
		goto fail;
	}
	bitmap_copy(s->mask, mask, LTT_EVENTS_MAX);
	ret = ltt_session_start(s);
	if (ret) {
		ltt_session_put(s);
		goto fail;
	}
	scoped_guard(mutex, &ltt_boot_lock)
		ltt_boot_session = s;
	pr_info("ltt: boot session recording, %u x %u bytes per CPU, %s%s\n",
		a.n_subbufs, a.subbuf_size,
		a.mode == LTT_MODE_OVERWRITE ? "overwrite" : "discard",
		persist ? ", kept across boots" : "");
	return 0;
fail:
	pr_err("ltt: no boot session: %d\n", ret);
	return 0;
}
late_initcall_sync(ltt_boot_start);

/**
 * ltt_boot_take - LTT_CMD_BOOT: a session fd for the boot session
 *
 * The first caller gets the session, recording as it has since boot;
 * closing the fd stops it, as for any session.  Returns the fd, -EPERM
 * without CAP_PERFMON or CAP_SYS_ADMIN or from a pid namespace other than
 * the initial one (ltt_system_view_allowed()), -ENOENT when there is no boot
 * session (none was asked for, or it was taken).
 */
int ltt_boot_take(void)
{
	struct ltt_session *s;
	int fd;

	if (!ltt_system_view_allowed())
		return -EPERM;
	guard(mutex)(&ltt_boot_lock);
	s = ltt_boot_session;
	if (!s)
		return -ENOENT;
	/* The boot's reference goes to the file; ours covers a failure. */
	kref_get(&s->ref);
	fd = ltt_session_fd(s);
	if (fd >= 0) {
		ltt_boot_session = NULL;
		ltt_session_put(s);
	}
	return fd;
}
