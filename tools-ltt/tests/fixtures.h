/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture traces: what they hold, for the tests to check.
 *
 *  basic:  2 CPUs.  cpu0: bash (100) forks worker (101), which execs
 *	    /usr/bin/worker, makes FX_GETPPID getppid calls, a write after
 *	    a 50 ms pause (extended record header) and exits.  cpu1: init
 *	    (1) runs after idle, opens /etc/inittab (fd 3), makes FX_READS
 *	    reads and closes it.  No loss.
 *  lossy:  1 CPU, flight-recorder style: events dropped, packets
 *	    overwritten, custom events with ids past 126 (extended headers),
 *	    a string that needs escaping; at the end, more events dropped
 *	    and told by an empty packet, as the kernel does at stop.
 *  culprits: 2 CPUs, a case for each `ltt watch` who-* script.  cpu0:
 *	    rewriter (300) opens FX_WATCHED and writes to it (and to its
 *	    stdout), then rm (302) unlinks FX_VICTIM.  cpu1: killer (303)
 *	    sends SIGCHLD, then SIGTERM, to sleep (304); unlinker (305)
 *	    unlinks another file; sleep exits, killed by SIGTERM.  With the
 *	    sample modules' custom events "unlink" and "kill", and rm's
 *	    fs_unlink; culprits-plain: the same without any of them (no
 *	    event names what was unlinked).
 */
#ifndef LTT_TESTS_FIXTURES_H
#define LTT_TESTS_FIXTURES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define FX_CLOCK_OFFSET		1764460800000000000LL	/* 2025-11-30 00:00 UTC */
#define FX_T0			1000000000ULL		/* 1 s of uptime */
#define FX_DEV			0x801			/* fs_open's dev: sda1 */
/* signals' si_code */
#define FX_SI_USER		0
#define FX_CLD_EXITED		1

#define FX_GETPPID		200	/* calls, 500 ns each, by 101 */
#define FX_GETPPID_NS		500
#define FX_READS		50	/* calls, 3000 ns each, by 1 */
#define FX_READ_NS		3000
#define FX_PAUSE_NS		50000000ULL

/*
 * basic, counted: syscall entries fork, execve, getppid x FX_GETPPID,
 * write, exit (which has no exit record) on cpu0 and FX_READS reads on
 * cpu1; two sched_change per CPU; two exec, one fork, one exit.
 */
#define FX_BASIC_ENTRIES	(4 + FX_GETPPID + FX_READS)
#define FX_BASIC_EXITS		(FX_BASIC_ENTRIES - 1)
#define FX_BASIC_SCHED		4
#define FX_BASIC_FILES		2	/* fs_open, fs_close */
#define FX_BASIC_EVENTS		(FX_BASIC_ENTRIES + FX_BASIC_EXITS + \
				 FX_BASIC_SCHED + 4 + FX_BASIC_FILES)
#define FX_CPU1_EVENTS		(2 * FX_READS + 2 + FX_BASIC_FILES)
#define FX_INITTAB		"/etc/inittab"
/* CPU time from sched_change, from each CPU's first event */
#define FX_CPU_BASH		4000ULL
#define FX_CPU_WORKER		(209500ULL + FX_PAUSE_NS + 5000 - 4000)
#define FX_CPU_INIT		500500ULL

/* lossy: 8 events, 3 lost ranges */
#define FX_LOSSY_EVENTS		8
#define FX_LOSSY_LOST1		7	/* dropped events */
#define FX_LOSSY_GAP		3	/* overwritten packets ... */
#define FX_LOSSY_GAP_EVENTS	10	/* ... of this many events each */
#define FX_LOSSY_CUSTOM		130	/* custom events in the registry */
#define FX_LOSSY_LOST_END	5	/* dropped at the end */
#define FX_LOSSY_LOST		(FX_LOSSY_LOST1 + FX_LOSSY_GAP * \
				 FX_LOSSY_GAP_EVENTS + FX_LOSSY_LOST_END)
#define FX_LOSSY_STRING		"we\"ird\\name\n"

/* culprits */
#define FX_WATCHED		"/tmp/watched"
#define FX_VICTIM		"/tmp/victim"
#define FX_REWRITER		300
#define FX_RM			302
#define FX_KILLER		303
#define FX_SLEEPER		304
#define FX_UNLINKER		305

/*
 * strings: 1 CPU, the longest strings the kernel writes (LTT_STRING_MAX
 * - 1 characters): process 400 execs FX_LONG_PATH's file, opens it as fd
 * FX_LONG_FD, writes to it and closes it; the custom event "note" (one
 * string field, "text") logs FX_LONG_TEXT's text (escapes needed), "x"
 * and "".
 */
#define FX_LONG_PID		400
#define FX_LONG_FD		5
/* @buf (LTT_STRING_MAX bytes) gets the long path or the long text. */
void fx_long_path(char *buf);
void fx_long_text(char *buf);

/*
 * fschanges: 2 CPUs (tests/fixtures-fs.c).  cpu0: FX_FS_FILE (inode
 * FX_FS_INO) read by cat, then changed by one process per way (each
 * named after its program), then two that do not change it (a rename
 * over it that fails, a write to a descriptor dup2() moved another
 * file onto); then who-unlinked's cases.  cpu1: an fs_newname with no
 * event before it, then who-killed's cases: each victim's sender.
 */
#define FX_FS_FILE		"/etc/app.conf"
#define FX_FS_INO		1000
#define FX_FS_HARDLINK		"/var/hard.conf"	/* linked in the trace */
#define FX_FS_OLDLINK		"/srv/old-link"		/* same inode, before */
#define FX_FS_READER		500	/* cat: reads, no change */
#define FX_FS_REDIRECT		501	/* sh: > (truncated, written) */
#define FX_FS_APPEND		502	/* sh: >> (written) */
#define FX_FS_SED		503	/* sed -i (replaced) */
#define FX_FS_EDITOR		504	/* vi (replaced) */
#define FX_FS_CP		505	/* cp (truncated, written) */
#define FX_FS_MV		506	/* mv (replaced) */
#define FX_FS_INSTALL		507	/* install (written, metadata) */
#define FX_FS_TRUNCATE		508	/* truncate -s 0 (truncated) */
#define FX_FS_TEE		509	/* tee (truncated, written) */
#define FX_FS_DD		510	/* dd of= (truncated, written) */
#define FX_FS_DUP		511	/* write through fcntl(F_DUPFD)'s fd */
#define FX_FS_PARENT		512	/* sh: opens fd 3, 4 (O_CLOEXEC), forks */
#define FX_FS_CHILD		513	/* logger: writes the inherited fd 3 */
#define FX_FS_RELATIVE		514	/* sh: a path the kernel resolved */
#define FX_FS_LINKER		515	/* ln: the hard link FX_FS_HARDLINK */
#define FX_FS_HARD		516	/* sh: writes through it */
#define FX_FS_INODE		517	/* sh: writes through FX_FS_OLDLINK */
#define FX_FS_MAPPER		518	/* mapper: MAP_SHARED, PROT_WRITE */
#define FX_FS_CHMOD		519	/* chmod 0600 */
#define FX_FS_CHOWN		520	/* chown 1000 */
#define FX_FS_FAILED		521	/* mv: rename over it fails (-ENOENT) */
#define FX_FS_DUPOVER		522	/* app: dup2 of another file onto its fd */
/* who-unlinked */
#define FX_FS_VICTIM		"/srv/data/victim"
#define FX_FS_REPLACED		"/srv/data/replaced"
#define FX_FS_TREE		"/srv/tree"	/* holds sub/file */
#define FX_FS_RM_FAILED		530	/* rm: unlink fails (-EACCES) */
#define FX_FS_RM		531	/* rm FX_FS_VICTIM */
#define FX_FS_MV_OVER		532	/* mv /srv/data/new FX_FS_REPLACED */
#define FX_FS_RM_TREE		533	/* rm -r FX_FS_TREE */
/* who-killed: victim and sender */
#define FX_FS_VICTIM1		540	/* kill() by FX_FS_KILLER */
#define FX_FS_KILLER		541
#define FX_FS_VICTIM2		542	/* tgkill() by FX_FS_TGKILLER */
#define FX_FS_TGKILLER		543
#define FX_FS_VICTIM3		544	/* pidfd_send_signal() by FX_FS_PIDFD */
#define FX_FS_PIDFD		545
#define FX_FS_SEGV		546	/* SIGSEGV, SEGV_MAPERR */
#define FX_FS_BUS		547	/* SIGBUS, BUS_ADRERR */
#define FX_FS_PIPE		548	/* SIGPIPE in write() */
#define FX_FS_OOM		549	/* SIGKILL, SI_KERNEL in FX_FS_ALLOC */
#define FX_FS_ALLOC		550
#define FX_FS_ALARM		551	/* SIGALRM, SI_KERNEL */
#define FX_FS_PTIMER		552	/* SIGALRM, SI_TIMER */
#define FX_FS_TOUGH		553	/* SIGTERM by 554, SIGKILL by 555 */
#define FX_FS_TERMER		554
#define FX_FS_KILLER9		555
#define FX_FS_SURVIVOR		556	/* SIGUSR1 by 557, never exits */
#define FX_FS_USR1ER		557

/*
 * containers: 2 CPUs (tests/fixtures-cg.c), with the manifest of which
 * event belongs to which cgroup (tests/fixtures/containers.manifest).
 * The state dump (by a kworker, on cpu0) names five cgroups and places
 * systemd in init.scope, nginx in nginx.service and the docker
 * container's process "app" and its thread in its own pid namespace.
 * cpu0: nginx writes, forks a worker (born where nginx is: no
 * process_ns), which execs; systemd makes backup.service and moves the
 * worker's process into it.  cpu1: app reads, makes a payload cgroup
 * below its container, clones a child into it (a process_ns), its
 * thread runs, the child execs /bin/sh and exits, app removes the
 * cgroup.
 */
#define FX_CG_ROOT		1
#define FX_CG_INIT		2
#define FX_CG_SYSTEM		3
#define FX_CG_NGINX		4
#define FX_CG_DOCKER		5
#define FX_CG_BACKUP		6
#define FX_CG_PAYLOAD		7
#define FX_CG_DOCKER_ID		"3f2a9c1e77b0a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f60123"
#define FX_CG_INIT_PATH		"/init.scope"
#define FX_CG_NGINX_PATH	"/system.slice/nginx.service"
#define FX_CG_DOCKER_PATH	"/system.slice/docker-" FX_CG_DOCKER_ID ".scope"
#define FX_CG_PAYLOAD_PATH	FX_CG_DOCKER_PATH "/payload"
#define FX_CG_BACKUP_PATH	"/system.slice/backup.service"
#define FX_CG_NGINX_NAME	"nginx.service"
#define FX_CG_DOCKER_NAME	"docker:3f2a9c1e77b0"
#define FX_CG_PIDNS		0xF0000010LL	/* the container's */
#define FX_CG_KWORKER		50
#define FX_CG_NGINX_PID		700
#define FX_CG_WORKER		701
#define FX_CG_APP		710
#define FX_CG_APP_THREAD	711
#define FX_CG_CHILD		712	/* pid 3 in the container */
#define FX_CG_NGINX_WRITE	100	/* bytes */
#define FX_CG_APP_READ		200

/* The trace in @dir, its manifest into @manifest (may be NULL). */
int fx_make_containers(const char *dir, FILE *manifest);
/* containers-damaged: 1 CPU, damaged cgroup records (fixtures-cg.c). */
int fx_make_containers_damaged(const char *dir);

int fx_make_basic(const char *dir);
int fx_make_fschanges(const char *dir);
int fx_make_strings(const char *dir);
int fx_make_lossy(const char *dir);
int fx_make_culprits(const char *dir, bool custom);
#define FX_BLOCKING_CALLS	5000
int fx_make_blocking(const char *dir);

#endif /* LTT_TESTS_FIXTURES_H */
