/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LTT internals shared by kernel/ltt/: sessions, buffers, probe groups.
 * Documentation/trace/ltt.rst explains the design.
 */
#ifndef _KERNEL_LTT_INTERNAL_H
#define _KERNEL_LTT_INTERNAL_H

#include <linux/ltt.h>
#include <linux/irq_work.h>
#include <linux/kref.h>
#include <asm/local.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/time64.h>
#include <linux/rcupdate.h>
#include <linux/timer.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

struct mm_struct;

/* Per sub-buffer state; commit and events are written by the owning CPU. */
struct ltt_subbuf_state {
	local_t commit;			/* bytes committed, this lap */
	local_t events;			/* records committed, this lap */
	unsigned long unread;		/* records of the last lap, until read */
	unsigned long ready;		/* start of the last complete packet */
};

/* One CPU's ring of sub-buffers. */
struct ltt_buf {
	/* The write path's: written by the owning CPU only ... */
	local_t offset;			/* write position, bytes, all laps */
	local_t produced;		/* events offered to the buffer */
	u64 last_ts;			/* timestamp of a recent record */
	/* ... and its geometry, set up once. */
	void *data;			/* vmalloc_user(), mapped read-only */
	struct ltt_subbuf_state *sb;
	unsigned long sb_mask;		/* sub-buffer size - 1 */
	unsigned long size_mask;	/* ring size - 1 */
	unsigned int sb_order;		/* log2(sub-buffer size) */
	unsigned int n_mask;		/* number of sub-buffers - 1 */

	local_t lost;			/* events dropped or overwritten */
	u64 lost_reported;		/* @lost in the last closed packet */

	/* Set up once. */
	struct ltt_session *session;
	unsigned int cpu;
	bool overwrite;
	bool flushing;			/* the flush timer re-arms itself */
	struct irq_work wakeup;
	struct timer_list flush_timer;

	/* Reader side, under the session lock. */
	atomic_long_t consumed ____cacheline_aligned_in_smp;
	u64 delivered;
	bool held;			/* a packet is taken (GET, no PUT yet) */
	bool has_reader;		/* a buffer fd is open */
	wait_queue_head_t wait;
	wait_queue_head_t room;		/* the state dump, for a free packet */
};

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

struct ltt_session {
	struct kref ref;
	struct mutex lock;		/* state changes and settings */
	int state;			/* enum ltt_session_state */
	bool armed;			/* counted in the probes' users */
	unsigned int mode;
	unsigned int subbuf_size;
	unsigned int n_subbufs;
	unsigned long flush_jiffies;
	bool user;			/* an unprivileged user's session */
	kuid_t uid;			/* whose */
	const struct cred *cred;	/* the creator's, for the state dump */
	DECLARE_BITMAP(mask, LTT_EVENTS_MAX);
	struct ltt_pidset __rcu *pids;
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

/* buffer.c */
struct ltt_buf *ltt_buf_create(struct ltt_session *s, unsigned int cpu);
void ltt_buf_destroy(struct ltt_buf *buf);
void ltt_buf_start(struct ltt_buf *buf);
void ltt_buf_cpu_offline(struct ltt_buf *buf);
void ltt_buf_stop(struct ltt_buf *buf);
void ltt_buf_wake(struct ltt_buf *buf);
bool ltt_buf_has_room(struct ltt_buf *buf);
void ltt_buf_status(struct ltt_buf *buf, struct ltt_cpu_status *st);
int ltt_buf_open_fd(struct ltt_buf *buf);

/* session.c */
void ltt_session_put(struct ltt_session *s);
struct ltt_session *ltt_session_of(struct file *file);
bool ltt_system_view_allowed(void);
int ltt_session_create(const struct ltt_create *attr);
int ltt_create_defaults(struct ltt_create *a);
struct ltt_session *ltt_session_alloc(const struct ltt_create *a, bool user);
int ltt_session_fd(struct ltt_session *s);
int ltt_session_start(struct ltt_session *s);
int ltt_session_stop(struct ltt_session *s, bool snapshot);
int ltt_session_set_events(struct ltt_session *s, const u64 __user *umask,
			   unsigned int nbits);
int ltt_session_set_pids(struct ltt_session *s, const s32 __user *upids,
			 unsigned int count);
int ltt_session_status(struct ltt_session *s, struct ltt_status *st,
		       struct ltt_cpu_status __user *ucpus);
int ltt_session_buffer_fd(struct ltt_session *s, unsigned int cpu);
extern int ltt_user_sessions;
extern bool ltt_attached;

/* boot.c */
int ltt_boot_take(void);

/* write.c */
void ltt_recording_masks_changed(void);
bool ltt_task_passes(struct ltt_session *s, struct task_struct *t);
void ltt_session_write(struct ltt_session *s, unsigned int id,
		       const void *rec, unsigned int len, const char *str);
pid_t ltt_session_pid(const struct ltt_session *s, struct task_struct *t);
void ltt_write_custom(unsigned int id, bool user, const void *data,
		      unsigned int size);
bool ltt_custom_would_take(unsigned int id, struct task_struct *p,
			   struct mm_struct *mm);
void ltt_write_sched_change(struct task_struct *prev,
			    struct task_struct *next, unsigned int state);
void ltt_write_signal(int sig, int code, struct task_struct *target);
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
int ltt_enable_register(const struct file *owner, unsigned int id, u64 addr,
			u32 bit);
void ltt_enable_unregister(const struct file *owner);

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

/* selftest.c: the knobs of CONFIG_LTT_SELFTEST, no-ops without it. */
enum ltt_knob {
	LTT_KNOB_START_DELAY_MS,	/* START sleeps before the locks */
	LTT_KNOB_STOP_DELAY_MS,		/* a stop sleeps before STOPPED */
	LTT_KNOB_LOG_DELAY_US,		/* a custom event spins mid-write */
	LTT_KNOB_RECURSE_TRAP,		/* trap_entry writes recurse */
	LTT_KNOB_SNAPSHOT_DELAY_MS,	/* a snapshot read sleeps mid-copy */
	LTT_KNOB_IRQ_REPEAT,		/* a custom event again, in hardirq */
	LTT_NR_KNOBS
};

#ifdef CONFIG_LTT_SELFTEST
extern u32 ltt_knobs[LTT_NR_KNOBS];
extern unsigned long ltt_selftest_clock_back_ns;
void ltt_selftest_sleep(enum ltt_knob knob);
void ltt_selftest_spin(enum ltt_knob knob);
void __ltt_selftest_irq_repeat(unsigned int id, bool user, const void *data,
			       unsigned int size);

/* irq_repeat: log a custom event again from a hard interrupt, once. */
static __always_inline void ltt_selftest_irq_repeat(unsigned int id, bool user,
						    const void *data,
						    unsigned int size)
{
	if (unlikely(READ_ONCE(ltt_knobs[LTT_KNOB_IRQ_REPEAT])))
		__ltt_selftest_irq_repeat(id, user, data, size);
}

/* The clock's skew that clock_back_ns asks for, taken once. */
static __always_inline unsigned long ltt_selftest_clock_skew(void)
{
	if (likely(!READ_ONCE(ltt_selftest_clock_back_ns)))
		return 0;
	return xchg(&ltt_selftest_clock_back_ns, 0);
}

/* recurse_trap: a trap_entry write recurses, as a fault in it would. */
static __always_inline void ltt_selftest_recurse(unsigned int id)
{
	if (unlikely(READ_ONCE(ltt_knobs[LTT_KNOB_RECURSE_TRAP])) &&
	    id == LTT_EV_trap_entry)
		ltt_trap_entry(0, _THIS_IP_);
}
#else
static inline void ltt_selftest_sleep(enum ltt_knob knob)
{
}

static inline void ltt_selftest_spin(enum ltt_knob knob)
{
}

static inline void ltt_selftest_irq_repeat(unsigned int id, bool user,
					   const void *data, unsigned int size)
{
}

static __always_inline unsigned long ltt_selftest_clock_skew(void)
{
	return 0;
}

static __always_inline void ltt_selftest_recurse(unsigned int id)
{
}
#endif

#endif /* _KERNEL_LTT_INTERNAL_H */
