// SPDX-License-Identifier: GPL-2.0
/*
 * The fschanges fixture (see fixtures.h): every way a file changes or
 * disappears and every way a process dies, each by a culprit of its
 * own, as the kernel records them (resolved paths, open flags, inode,
 * fs_newname after a rename or link, the signal's si_code).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include <ltt/ltt.h>

#include "fixtures.h"
#include "writer.h"

/* x86_64 system call numbers of the story */
enum {
	NR_WRITE = 1, NR_CLOSE = 3, NR_MMAP = 9, NR_DUP2 = 33, NR_KILL = 62,
	NR_FCNTL = 72, NR_FTRUNCATE = 77, NR_RENAME = 82, NR_RMDIR = 84,
	NR_LINK = 86, NR_UNLINK = 87, NR_FCHMOD = 91, NR_TGKILL = 234,
	NR_OPENAT = 257, NR_FCHOWNAT = 260, NR_UNLINKAT = 263,
	NR_FCHMODAT = 268, NR_PIDFD_SEND_SIGNAL = 424,
};

#define SI_KERNEL	0x80
#define SI_TKILL	(-6)
#define SI_TIMER	(-2)
#define SEGV_MAPERR	1
#define BUS_ADRERR	2

struct story {
	struct fx_writer *w;
	unsigned int cpu;
	uint64_t t;
	int32_t pid;			/* the task running on cpu */
};

#define EV(s, name, str, ...)						\
	do {								\
		const int64_t f_[] = { __VA_ARGS__ };			\
		if (fx_event((s)->w, (s)->cpu, (s)->t += 1000, name, f_, str)) \
			return -1;					\
	} while (0)
#define EV0(s, name, str)						\
	do {								\
		static const int64_t none_[1];				\
		if (fx_event((s)->w, (s)->cpu, (s)->t += 1000, name, none_, \
			     str))					\
			return -1;					\
	} while (0)

/* The CPU goes to @pid, which execs @path (NULL: keeps its name). */
static int run(struct story *s, int32_t pid, const char *path)
{
	EV(s, "sched_change", NULL, pid, s->pid, 1);
	s->pid = pid;
	if (path)
		EV(s, "process_exec", path, pid);
	return 0;
}

static int entry(struct story *s, int nr)
{
	EV(s, "syscall_entry", NULL, nr, 0x401000);
	return 0;
}

static int sys_exit(struct story *s, int64_t ret)
{
	EV(s, "syscall_exit", NULL, ret);
	return 0;
}

/* openat() of @path as fd @fd (or -errno) with @flags, inode @ino. */
static int do_open(struct story *s, const char *path, int32_t fd,
		   uint32_t flags, uint64_t ino)
{
	if (entry(s, NR_OPENAT))
		return -1;
	EV(s, "fs_open", path, fd, flags, fd < 0 ? 0 : FX_DEV,
	   fd < 0 ? 0 : ino, 0);
	return sys_exit(s, fd);
}

static int do_write(struct story *s, int32_t fd, int32_t bytes)
{
	if (entry(s, NR_WRITE))
		return -1;
	EV(s, "fs_write", NULL, fd, bytes);
	return sys_exit(s, bytes);
}

static int do_close(struct story *s, int32_t fd)
{
	if (entry(s, NR_CLOSE))
		return -1;
	EV(s, "fs_close", NULL, fd);
	return sys_exit(s, 0);
}

/* dup2() (@nr NR_DUP2) or fcntl(F_DUPFD) (NR_FCNTL) */
static int do_dup(struct story *s, int nr, int32_t oldfd, int32_t newfd,
		  bool cloexec)
{
	if (entry(s, nr))
		return -1;
	EV(s, "fs_dup", NULL, oldfd, newfd, cloexec);
	return sys_exit(s, newfd);
}

/* @event (fs_rename, fs_link, fs_symlink) and its fs_newname */
static int do_two_names(struct story *s, int nr, const char *event,
			const char *oldname, const char *newname, int32_t ret)
{
	if (entry(s, nr))
		return -1;
	if (!strcmp(event, "fs_rename"))
		EV(s, event, oldname, ret, 0);
	else
		EV(s, event, oldname, ret);
	EV(s, "fs_newname", newname, ret);
	return sys_exit(s, ret);
}

/* fs_unlink or fs_rmdir of @name */
static int do_remove(struct story *s, int nr, const char *event,
		     const char *name, int32_t ret)
{
	if (entry(s, nr))
		return -1;
	EV(s, event, name, ret);
	return sys_exit(s, ret);
}

static int do_signal(struct story *s, int nr, int sig, int32_t target,
		     int32_t code)
{
	if (nr >= 0 && entry(s, nr))
		return -1;
	EV(s, "process_signal", NULL, sig, target, code);
	return nr >= 0 ? sys_exit(s, 0) : 0;
}

/* @pid exits, killed by @sig (0: exits normally) */
static int do_die(struct story *s, int32_t pid, int sig)
{
	if (run(s, pid, NULL))
		return -1;
	EV(s, "process_exit", NULL, pid, sig ? sig : 0);
	return 0;
}

#define F	FX_FS_FILE
#define WR	(O_WRONLY | O_CREAT | O_TRUNC)
#define APP	(O_WRONLY | O_CREAT | O_APPEND)

/* cpu0: who-modified's cases, in the order of FX_FS_* */
static int story_modified(struct story *s)
{
	/* someone reads it first: its inode is known from then on */
	if (run(s, FX_FS_READER, "/bin/cat") ||
	    do_open(s, F, 3, O_RDONLY, FX_FS_INO) || do_close(s, 3))
		return -1;
	/* sh -c 'echo x > F': open, dup2 to 1, write 1 */
	if (run(s, FX_FS_REDIRECT, "/bin/sh") ||
	    do_open(s, F, 3, WR, FX_FS_INO) ||
	    do_dup(s, NR_DUP2, 3, 1, false) || do_close(s, 3) ||
	    do_write(s, 1, 2))
		return -1;
	/* >> */
	if (run(s, FX_FS_APPEND, "/bin/sh") ||
	    do_open(s, F, 3, APP, FX_FS_INO) ||
	    do_dup(s, NR_DUP2, 3, 1, false) || do_close(s, 3) ||
	    do_write(s, 1, 2))
		return -1;
	/* sed -i: a temporary file renamed over it */
	if (run(s, FX_FS_SED, "/bin/sed") ||
	    do_open(s, F, 3, O_RDONLY, FX_FS_INO) ||
	    do_open(s, "/etc/sedAbC123", 4, O_RDWR | O_CREAT | O_EXCL, 2001) ||
	    do_write(s, 4, 20) || do_close(s, 4) || do_close(s, 3) ||
	    do_two_names(s, NR_RENAME, "fs_rename", "/etc/sedAbC123", F, 0))
		return -1;
	/* an editor: writes app.conf~new, renames it over */
	if (run(s, FX_FS_EDITOR, "/usr/bin/vi") ||
	    do_open(s, "/etc/app.conf~new", 3, WR, 2002) ||
	    do_write(s, 3, 30) || do_close(s, 3) ||
	    do_two_names(s, NR_RENAME, "fs_rename", "/etc/app.conf~new", F, 0))
		return -1;
	/* cp over it (coreutils: O_TRUNC) */
	if (run(s, FX_FS_CP, "/bin/cp") ||
	    do_open(s, F, 4, O_WRONLY | O_TRUNC, 2002) ||
	    do_write(s, 4, 40) || do_close(s, 4))
		return -1;
	/* mv over it */
	if (run(s, FX_FS_MV, "/bin/mv") ||
	    do_two_names(s, NR_RENAME, "fs_rename", "/tmp/new.conf", F, 0))
		return -1;
	/* install: unlink, create, write, chmod */
	if (run(s, FX_FS_INSTALL, "/usr/bin/install") ||
	    do_remove(s, NR_UNLINK, "fs_unlink", F, 0) ||
	    do_open(s, F, 4, O_WRONLY | O_CREAT | O_EXCL, 2003) ||
	    do_write(s, 4, 50) || do_close(s, 4) || entry(s, NR_FCHMODAT))
		return -1;
	EV(s, "fs_chmod", F, 0, 0755);
	/* truncate -s 0 */
	if (sys_exit(s, 0) || run(s, FX_FS_TRUNCATE, "/usr/bin/truncate") ||
	    do_open(s, F, 3, O_WRONLY | O_CREAT | O_NONBLOCK, 2003) ||
	    entry(s, NR_FTRUNCATE))
		return -1;
	EV(s, "fs_truncate", F, 0, 0);
	if (sys_exit(s, 0) || do_close(s, 3))
		return -1;
	/* tee */
	if (run(s, FX_FS_TEE, "/usr/bin/tee") ||
	    do_open(s, F, 3, WR, 2003) || do_write(s, 3, 60))
		return -1;
	/* dd of=F: open, moved to fd 1 */
	if (run(s, FX_FS_DD, "/bin/dd") ||
	    do_open(s, F, 3, WR, 2003) || do_dup(s, NR_DUP2, 3, 1, false) ||
	    do_close(s, 3) || do_write(s, 1, 512))
		return -1;
	/* a descriptor dup'd by fcntl(F_DUPFD) */
	if (run(s, FX_FS_DUP, "/usr/bin/app") ||
	    do_open(s, F, 3, APP, 2003) || do_dup(s, NR_FCNTL, 3, 10, false) ||
	    do_close(s, 3) || do_write(s, 10, 7))
		return -1;
	/*
	 * inherited: the shell opens fd 3 (and fd 4 close-on-exec), forks;
	 * the child execs logger and writes to fd 3
	 */
	if (run(s, FX_FS_PARENT, "/bin/sh") ||
	    do_open(s, F, 3, APP, 2003) ||
	    do_open(s, F, 4, APP | O_CLOEXEC, 2003))
		return -1;
	EV(s, "process_fork", NULL, FX_FS_CHILD, FX_FS_CHILD);
	if (run(s, FX_FS_CHILD, "/usr/bin/logger") || do_write(s, 3, 8))
		return -1;
	/* relative (the kernel resolved it) */
	if (run(s, FX_FS_RELATIVE, "/bin/sh") ||
	    do_open(s, F, 3, APP, 2003) || do_write(s, 3, 9))
		return -1;
	/* a hard link made, then written through */
	if (run(s, FX_FS_LINKER, "/bin/ln") ||
	    do_two_names(s, NR_LINK, "fs_link", F, FX_FS_HARDLINK, 0) ||
	    run(s, FX_FS_HARD, "/bin/sh") ||
	    do_open(s, FX_FS_HARDLINK, 3, APP, 2003) || do_write(s, 3, 10))
		return -1;
	/* a hard link the trace never saw made: the same inode */
	if (run(s, FX_FS_INODE, "/bin/sh") ||
	    do_open(s, FX_FS_OLDLINK, 3, APP, 2003) || do_write(s, 3, 11))
		return -1;
	/* a shared writable mapping */
	if (run(s, FX_FS_MAPPER, "/usr/bin/mapper") ||
	    do_open(s, F, 3, O_RDWR, 2003) || entry(s, NR_MMAP))
		return -1;
	EV(s, "fs_mmap_write", F, 3, 4096);
	if (sys_exit(s, 0x7f0000000000LL) || run(s, FX_FS_CHMOD, "/bin/chmod") ||
	    entry(s, NR_FCHMODAT))
		return -1;
	EV(s, "fs_chmod", F, 0, 0600);
	if (sys_exit(s, 0) || run(s, FX_FS_CHOWN, "/bin/chown") ||
	    entry(s, NR_FCHOWNAT))
		return -1;
	EV(s, "fs_chown", F, 0, 1000, -1);
	if (sys_exit(s, 0))
		return -1;
	/* not changes: a failed rename over it, a dup2 onto its fd */
	if (run(s, FX_FS_FAILED, "/bin/mv") ||
	    do_two_names(s, NR_RENAME, "fs_rename", "/tmp/nosuch", F, -2) ||
	    run(s, FX_FS_DUPOVER, "/usr/bin/app") ||
	    do_open(s, F, 3, O_RDWR, 2003) ||
	    do_open(s, "/tmp/log", 5, APP, 3001) ||
	    do_dup(s, NR_DUP2, 5, 3, false) || do_write(s, 3, 12) ||
	    do_dup(s, NR_DUP2, 9, 5, false) || do_write(s, 5, 13))
		return -1;
	return 0;
}

/* cpu0, then: who-unlinked's cases */
static int story_unlinked(struct story *s)
{
	if (run(s, FX_FS_RM_FAILED, "/bin/rm") ||
	    do_remove(s, NR_UNLINK, "fs_unlink", FX_FS_VICTIM, -13) ||
	    run(s, FX_FS_RM, "/bin/rm") ||
	    do_remove(s, NR_UNLINKAT, "fs_unlink", FX_FS_VICTIM, 0) ||
	    run(s, FX_FS_MV_OVER, "/bin/mv") ||
	    do_two_names(s, NR_RENAME, "fs_rename", "/srv/data/new",
			 FX_FS_REPLACED, 0) ||
	    run(s, FX_FS_RM_TREE, "/bin/rm") ||
	    do_remove(s, NR_UNLINKAT, "fs_unlink", FX_FS_TREE "/sub/file", 0) ||
	    do_remove(s, NR_UNLINKAT, "fs_rmdir", FX_FS_TREE "/sub", 0) ||
	    do_remove(s, NR_RMDIR, "fs_rmdir", FX_FS_TREE, 0))
		return -1;
	return 0;
}

/* @pid runs @path and dies of a SIGALRM sent from an interrupt, @code */
static int timer_signal(struct story *s, int32_t pid, const char *path,
			int32_t code)
{
	if (run(s, pid, path))
		return -1;
	EV(s, "irq_entry", NULL, 0, 0);
	if (do_signal(s, -1, 14, pid, code))
		return -1;
	EV0(s, "irq_exit", NULL);
	return do_die(s, pid, 14);
}

/* cpu1: who-killed's cases, and odd input */
static int story_killed(struct story *s)
{
	/* an fs_newname with no event before it */
	EV(s, "fs_newname", "/nowhere", 0);
	/* kill(), tgkill(), pidfd_send_signal() */
	if (run(s, FX_FS_KILLER, "/bin/kill") ||
	    do_signal(s, NR_KILL, 15, FX_FS_VICTIM1, 0) ||
	    do_die(s, FX_FS_VICTIM1, 15) ||
	    run(s, FX_FS_TGKILLER, "/usr/bin/tgkiller") ||
	    do_signal(s, NR_TGKILL, 9, FX_FS_VICTIM2, SI_TKILL) ||
	    do_die(s, FX_FS_VICTIM2, 9) ||
	    run(s, FX_FS_PIDFD, "/usr/bin/pidfd") ||
	    do_signal(s, NR_PIDFD_SEND_SIGNAL, 15, FX_FS_VICTIM3, 0) ||
	    do_die(s, FX_FS_VICTIM3, 15))
		return -1;
	/* a fault: SIGSEGV to the faulting task, from a trap */
	if (run(s, FX_FS_SEGV, "/usr/bin/crash"))
		return -1;
	EV(s, "trap_entry", NULL, 14, 0x401234);
	if (do_signal(s, -1, 11, FX_FS_SEGV, SEGV_MAPERR))
		return -1;
	EV0(s, "trap_exit", NULL);
	if (do_die(s, FX_FS_SEGV, 11))
		return -1;
	/* SIGBUS */
	if (run(s, FX_FS_BUS, "/usr/bin/mapbus") ||
	    do_signal(s, -1, 7, FX_FS_BUS, BUS_ADRERR) ||
	    do_die(s, FX_FS_BUS, 7))
		return -1;
	/* SIGPIPE: the kernel, in the writer's write() */
	if (run(s, FX_FS_PIPE, "/usr/bin/yes") || entry(s, NR_WRITE) ||
	    do_signal(s, -1, 13, FX_FS_PIPE, 0) || sys_exit(s, -32) ||
	    do_die(s, FX_FS_PIPE, 13))
		return -1;
	/* the OOM killer, in the context of a task allocating */
	if (run(s, FX_FS_ALLOC, "/usr/bin/alloc") ||
	    do_signal(s, -1, 9, FX_FS_OOM, SI_KERNEL) ||
	    do_die(s, FX_FS_OOM, 9))
		return -1;
	/* SIGALRM of alarm() and of a POSIX timer, from an interrupt */
	if (timer_signal(s, FX_FS_ALARM, "/usr/bin/alarmed", SI_KERNEL) ||
	    timer_signal(s, FX_FS_PTIMER, "/usr/bin/ptimer", SI_TIMER))
		return -1;
	/* SIGTERM (handled), then SIGKILL from another: the second ended it */
	if (run(s, FX_FS_TERMER, "/bin/kill") ||
	    do_signal(s, NR_KILL, 15, FX_FS_TOUGH, 0) ||
	    run(s, FX_FS_KILLER9, "/bin/kill") ||
	    do_signal(s, NR_KILL, 9, FX_FS_TOUGH, 0) ||
	    do_die(s, FX_FS_TOUGH, 9))
		return -1;
	/* a signal the victim survives: it is still there at the end */
	if (run(s, FX_FS_USR1ER, "/bin/kill") ||
	    do_signal(s, NR_KILL, 10, FX_FS_SURVIVOR, 0))
		return -1;
	return 0;
}

/* The names of the victims, as a state dump tells them. */
static int story_names(struct story *s)
{
	static const struct { int32_t pid; const char *comm; } v[] = {
		{ FX_FS_VICTIM1, "sleep" }, { FX_FS_VICTIM2, "sleep" },
		{ FX_FS_VICTIM3, "sleep" }, { FX_FS_OOM, "hog" },
		{ FX_FS_TOUGH, "tough" }, { FX_FS_SURVIVOR, "daemon" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		EV(s, "statedump_process", v[i].comm, v[i].pid, v[i].pid, 1);
	return 0;
}

int fx_make_fschanges(const char *dir)
{
	struct ltt_registry reg;
	struct fx_writer w;
	struct story s0 = { &w, 0, FX_T0, 0 }, s1 = { &w, 1, FX_T0 + 500, 0 };

	if (fx_registry(&reg) ||
	    fx_open(&w, dir, &reg, 2, 4096, FX_CLOCK_OFFSET))
		return -1;
	fx_set_pid(&w, 0, 0);
	fx_set_pid(&w, 1, 0);
	if (story_names(&s1) || story_modified(&s0) || story_unlinked(&s0) ||
	    story_killed(&s1))
		return -1;
	return fx_close(&w, FX_T0 + 100000000ULL);
}
