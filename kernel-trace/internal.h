/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LTT internals above the buffer (buffer.h): sessions, the write path,
 * custom events, enable flags and the probe groups.
 * Documentation/trace/ltt.rst explains the design.
 */
#ifndef _KERNEL_LTT_INTERNAL_H
#define _KERNEL_LTT_INTERNAL_H

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/kref.h>
#include <linux/ltt.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/time64.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <linux/workqueue.h>

#include "buffer.h"
#include "selftest.h"

struct mm_struct;

enum ltt_session_state {
	LTT_SESSION_NEW,
	LTT_SESSION_RECORDING,
	LTT_SESSION_STOPPED,
};

struct ltt_pidset {
	struct rcu_head rcu;
	unsigned int n;
	pid_t pids[];
};

/*
 * A cgroup filter: the cgroups whose subtrees pass, each by its id and
 * its depth in the hierarchy, so that a task's cgroup is judged by one
 * entry of its ancestors array.  No reference is held: a filter pins no
 * removed cgroup, and one removed holds no task.
 */
struct ltt_cgset {
	struct rcu_head rcu;
	unsigned int n;
	struct {
		u64 id;
		int level;
	} cg[];
};

struct ltt_session {
	struct kref ref;
	struct mutex lock;		/* state changes and settings */
	int state;			/* enum ltt_session_state */
	bool armed;			/* counted in the probes' users */
	unsigned int mode;
	unsigned int subbuf_size;
	unsigned int n_subbufs;
	bool user;			/* an unprivileged user's session */
	bool persist;			/* its buffers in persist.c's region */
	kuid_t uid;			/* whose */
	const struct cred *cred;	/* the creator's, for the state dump */
	DECLARE_BITMAP(mask, LTT_EVENTS_MAX);
	struct ltt_pidset __rcu *pids;
	struct ltt_cgset __rcu *cgroups;
	struct ltt_buf **bufs;		/* nr_cpu_ids entries, NULL if none */
	struct work_struct dump;	/* the state dump, queued by START */
	bool dump_hurry;		/* stopping: the dump waits no more */
};

/*
 * The sessions that record, read by the write path under
 * preempt_disable; START and stop replace the array under
 * ltt_record_lock.
 */
struct ltt_recording {
	struct rcu_head rcu;
	unsigned int n;
	struct ltt_session *s[];
};

extern struct ltt_recording __rcu *ltt_recording;
extern struct mutex ltt_record_lock;

/*
 * The @i-th recording session of @r, or NULL (past the end, or a session
 * that stopped when no smaller copy of the array could be allocated).
 * @r is rcu_dereference_sched(ltt_recording), under preempt_disable.
 */
static __always_inline struct ltt_session *
ltt_recording_at(const struct ltt_recording *r, unsigned int i)
{
	return r && i < r->n ? READ_ONCE(r->s[i]) : NULL;
}

/* How many entries @r has (0 for none). */
static __always_inline unsigned int ltt_recording_n(const struct ltt_recording *r)
{
	return r ? r->n : 0;
}

/* session.c */
void ltt_session_put(struct ltt_session *s);
struct ltt_session *ltt_session_of(struct file *file);
bool ltt_system_view_allowed(void);
int ltt_session_create(const struct ltt_create *attr);
int ltt_create_defaults(struct ltt_create *a);
struct ltt_session *ltt_session_alloc(const struct ltt_create *a, bool user,
				      bool persist);
int ltt_session_fd(struct ltt_session *s);
int ltt_session_start(struct ltt_session *s);
int ltt_session_stop(struct ltt_session *s, bool snapshot);
int ltt_session_set_events(struct ltt_session *s, const u64 __user *umask,
			   unsigned int nbits);
int ltt_session_set_pids(struct ltt_session *s, const s32 __user *upids,
			 unsigned int count);
int ltt_session_set_cgroups(struct ltt_session *s, const s32 __user *ufds,
			    unsigned int count);
int ltt_session_status(struct ltt_session *s, struct ltt_status *st,
		       struct ltt_cpu_status __user *ucpus);
int ltt_session_buffer_fd(struct ltt_session *s, unsigned int cpu);
extern int ltt_user_sessions;
extern bool ltt_attached;

/* boot.c */
int ltt_boot_take(void);

/* persist.c */
int ltt_persist_setup(const char *name, unsigned int subbuf_size,
		      struct ltt_create *a);
void ltt_persist_config(struct ltt_buf_config *cfg);
void ltt_persist_attach(struct ltt_buf **bufs);
void ltt_persist_describe(const struct ltt_event_info *ei);
int ltt_previous_boot(u32 flags);

/* The kernel's ELF notes, its build id among them: the linker's. */
extern const void __start_notes;
extern const void __stop_notes;

/* write.c */
void ltt_recording_masks_changed(void);
bool ltt_task_passes(struct ltt_session *s, struct task_struct *t);
void ltt_session_write(struct ltt_session *s, unsigned int id,
		       const void *rec, unsigned int len, const char *str);
pid_t ltt_session_pid(const struct ltt_session *s, struct task_struct *t);
bool ltt_user_owns(const struct ltt_session *s, struct task_struct *t);
void ltt_write_custom(unsigned int id, kuid_t owner, const void *data,
		      unsigned int size);
bool ltt_custom_would_take(unsigned int id, struct task_struct *p,
			   struct mm_struct *mm);
void ltt_write_sched_change(struct task_struct *prev,
			    struct task_struct *next, unsigned int state);
void ltt_write_signal(int sig, int code, struct task_struct *target);
void ltt_write_cgroup_attach(u64 id, struct task_struct *task,
			     bool threadgroup);
void ltt_write_task(unsigned int id, const void *rec, unsigned int len,
		    struct task_struct *other);

/* probes-process.c, probes-cgroup.c: for the state dump too */
void ltt_process_ns(struct task_struct *t, struct ltt_rec_process_ns *rec);
const char *ltt_cgroup_path(struct cgroup *cgrp, char *buf, size_t len);
int ltt_recording_add(struct ltt_session *s);
void ltt_recording_del(struct ltt_session *s);

/* registry.c */
int ltt_event_info(struct ltt_event_info *info);

/* custom.c */
void ltt_custom_sessions_get(void);
void ltt_custom_sessions_put(void);
int ltt_custom_info(struct ltt_event_info *info);
u32 ltt_custom_generation(void);
int ltt_custom_create_fd(struct ltt_event_create *c);
int ltt_custom_log_user(const struct ltt_event_log *l);

/* enable.c */
void ltt_enable_sync(void);
void ltt_enable_moved(void);
int ltt_enable_register(const struct file *owner, unsigned int id, u64 addr,
			u32 bit);
void ltt_enable_unregister(const struct file *owner);

/*
 * perfmon_capable() without its audit record, for what anyone may ask
 * (EVENT_INFO): a denial there is not an event worth a log line.
 */
static inline bool ltt_perfmon_noaudit(void)
{
	return ns_capable_noaudit(&init_user_ns, CAP_PERFMON) ||
	       ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}

/*
 * The user whom the current task's registrations and custom types count
 * against: the one who made the outermost user namespace it is in, or
 * its own uid.  A range of subordinate uids is still one user.
 */
static inline kuid_t ltt_charge_uid(void)
{
	const struct user_namespace *ns = current_user_ns();
	kuid_t uid = current_uid();

	for (; ns != &init_user_ns; ns = ns->parent)
		uid = ns->owner;
	return uid;
}

/* @sec seconds and @us microseconds in us, saturated at S64_MAX. */
static inline s64 ltt_time_us(s64 sec, s64 us)
{
	s64 t;

	if (sec < 0 || us < 0)
		return -1;
	if (check_mul_overflow(sec, (s64)USEC_PER_SEC, &t) ||
	    check_add_overflow(t, us, &t))
		return S64_MAX;
	return t;
}

/* A group of probes, attached while a session exists. */
struct ltt_probe_group {
	const char *name;
	int (*attach)(void);
	void (*detach)(void);
};

extern const struct ltt_probe_group ltt_syscall_probes;
extern const struct ltt_probe_group ltt_sched_probes;
extern const struct ltt_probe_group ltt_process_probes;
extern const struct ltt_probe_group ltt_irq_probes;
extern const struct ltt_probe_group ltt_timer_probes;
extern const struct ltt_probe_group ltt_mm_probes;
extern const struct ltt_probe_group ltt_socket_probes;
extern const struct ltt_probe_group ltt_net_probes;
extern const struct ltt_probe_group ltt_cgroup_probes;

/*
 * Events derived from native system calls, called by probes-syscall.c;
 * each returns whether @nr is one of its calls.
 */
bool ltt_fs_enter(long nr, const unsigned long *a);
bool ltt_fs_exit(long nr, const unsigned long *a, long ret);
void ltt_fs_exit_compat(long nr, const unsigned long *a, long ret);
bool ltt_ipc_exit(long nr, const unsigned long *a, long ret);
#ifdef CONFIG_NET
bool ltt_socket_exit(long nr, const unsigned long *a, long ret);
#else
static inline bool ltt_socket_exit(long nr, const unsigned long *a, long ret)
{
	return false;
}
#endif

/* statedump.c */
void ltt_statedump_work(struct work_struct *work);

#endif /* _KERNEL_LTT_INTERNAL_H */
