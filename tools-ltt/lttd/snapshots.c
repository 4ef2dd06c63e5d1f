// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's snapshots on disk.  Each goes into a hidden
 * DIR/.snapshot-N.partial and is renamed DIR/snapshot-N when written,
 * so that a reader that lists DIR never finds one half written, and a
 * script that sent SIGUSR1 waits for the name to appear.  The newest
 * are kept: --max-snapshots N and --max-snapshots-size SIZE remove the
 * oldest of this run's snapshots (never the one just taken).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run.h"
#include "snapshots.h"

#define SNAPSHOT_PREFIX	"snapshot-"
#define PID_FILE	"lttd.pid"

struct kept {
	unsigned int n;
	uint64_t bytes;
};

struct snapshots {
	struct snapshots_opts o;
	int dir_fd;			/* -1: no DIR */
	bool wrote_pid;
	unsigned int taken;
	struct kept *kept;		/* oldest first */
	unsigned int n_kept, room;
	uint64_t kept_bytes;
	uint64_t stale, unfinished;
};

static void __attribute__((format(printf, 2, 3)))
sn_say(const struct snapshots *sn, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", sn->o.prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* mkdir -p DIR: each missing component, then DIR itself. */
static int sn_make_dir(const struct snapshots *sn, const char *dir)
{
	char path[4096];
	size_t i, len = strlen(dir);

	if (len >= sizeof(path)) {
		sn_say(sn, "%s: name too long", dir);
		return -1;
	}
	memcpy(path, dir, len + 1);
	for (i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i])
			continue;
		path[i] = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			sn_say(sn, "mkdir %s: %s", path, strerror(errno));
			return -1;
		}
		path[i] = dir[i];
	}
	return 0;
}

/* DIR must hold no trace and no snapshot of an earlier run. */
static int sn_check_empty(const struct snapshots *sn)
{
	int fd = dup(sn->dir_fd);
	struct dirent *d;
	DIR *dp;
	int ret = 0;

	dp = fd < 0 ? NULL : fdopendir(fd);
	if (!dp) {
		sn_say(sn, "%s: %s", sn->o.dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (!ret && (d = readdir(dp))) {
		if (!strcmp(d->d_name, "metadata"))
			ret = -1;
		else if (!strncmp(d->d_name, SNAPSHOT_PREFIX,
				  strlen(SNAPSHOT_PREFIX)) ||
			 !strncmp(d->d_name, "." SNAPSHOT_PREFIX,
				  strlen("." SNAPSHOT_PREFIX)))
			ret = -1;
		if (ret)
			sn_say(sn, "%s holds a trace or snapshots already (%s): remove them or choose another directory",
			       sn->o.dir, d->d_name);
	}
	closedir(dp);
	return ret;
}

static int sn_write_pid(struct snapshots *sn)
{
	char text[32];
	int fd, len;

	fd = openat(sn->dir_fd, PID_FILE, O_WRONLY | O_CREAT | O_TRUNC |
		    O_CLOEXEC, 0644);
	len = snprintf(text, sizeof(text), "%d\n", (int)getpid());
	if (fd < 0 || write(fd, text, len) != len) {
		sn_say(sn, "%s/%s: %s", sn->o.dir, PID_FILE, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	sn->wrote_pid = true;
	return 0;
}

struct snapshots *snapshots_open(const struct snapshots_opts *opts)
{
	struct snapshots *sn = calloc(1, sizeof(*sn));

	if (!sn) {
		fprintf(stderr, "%s: out of memory\n", opts->prog);
		return NULL;
	}
	sn->o = *opts;
	sn->dir_fd = -1;
	if (!opts->dir)
		return sn;
	if (sn_make_dir(sn, opts->dir))
		goto fail;
	sn->dir_fd = open(opts->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sn->dir_fd < 0) {
		sn_say(sn, "%s: %s", opts->dir, strerror(errno));
		goto fail;
	}
	if (sn_check_empty(sn) || sn_write_pid(sn))
		goto fail;
	return sn;
fail:
	snapshots_close(sn);
	return NULL;
}

/* The bytes of the files of @name in @dir_fd, and of its index/. */
static uint64_t sn_bytes_at(int dir_fd, const char *name, bool top)
{
	int fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *d;
	struct stat st;
	uint64_t sum = 0;
	DIR *dp;

	dp = fd < 0 ? NULL : fdopendir(fd);
	if (!dp) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((d = readdir(dp))) {
		if (fstatat(dirfd(dp), d->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISREG(st.st_mode))
			sum += st.st_size;
		else if (top && S_ISDIR(st.st_mode) && !strcmp(d->d_name, "index"))
			sum += sn_bytes_at(dirfd(dp), d->d_name, false);
	}
	closedir(dp);
	return sum;
}

/* The bytes of the files of DIR/@name (its packet indexes too). */
static uint64_t sn_bytes(const struct snapshots *sn, const char *name)
{
	return sn_bytes_at(sn->dir_fd, name, true);
}

/* Remove @name in @dir_fd: its files (and its index/), then itself. */
static int sn_remove_at(int dir_fd, const char *name, bool top)
{
	struct dirent *d;
	DIR *dp;
	int fd, ret = 0;

	fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dp = fd < 0 ? NULL : fdopendir(fd);
	if (!dp) {
		if (fd >= 0)
			close(fd);
		ret = -1;
	}
	while (dp && (d = readdir(dp))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (top && !strcmp(d->d_name, "index")) {
			if (sn_remove_at(dirfd(dp), d->d_name, false))
				ret = -1;
		} else if (unlinkat(dirfd(dp), d->d_name, 0)) {
			ret = -1;
		}
	}
	if (dp)
		closedir(dp);
	if (unlinkat(dir_fd, name, AT_REMOVEDIR))
		ret = -1;
	return ret;
}

/* Remove DIR/snapshot-@n: its files, then itself. */
static int sn_remove(const struct snapshots *sn, unsigned int n)
{
	char name[64];
	int ret;

	snprintf(name, sizeof(name), SNAPSHOT_PREFIX "%u", n);
	ret = sn_remove_at(sn->dir_fd, name, true);
	if (ret)
		sn_say(sn, "cannot remove %s/%s: %s", sn->o.dir, name,
		       strerror(errno));
	return ret;
}

/*
 * A snapshot that failed before its metadata was written is no trace:
 * remove DIR/@name (empty, or a metadata.new) and say so with true.
 */
static bool sn_no_metadata(const struct snapshots *sn, const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/metadata", name);
	if (!faccessat(sn->dir_fd, path, F_OK, 0))
		return false;
	snprintf(path, sizeof(path), "%s/metadata.new", name);
	unlinkat(sn->dir_fd, path, 0);
	unlinkat(sn->dir_fd, name, AT_REMOVEDIR);
	return true;
}

/* Past the limits, the oldest go; the newest always stays. */
static void sn_prune(struct snapshots *sn)
{
	while (sn->n_kept > 1 &&
	       ((sn->o.max_count && sn->n_kept > sn->o.max_count) ||
		(sn->o.max_bytes && sn->kept_bytes > sn->o.max_bytes))) {
		struct kept k = sn->kept[0];

		sn_remove(sn, k.n);
		if (!sn->o.quiet)
			sn_say(sn, "removed %s/" SNAPSHOT_PREFIX "%u (%s)",
			       sn->o.dir, k.n,
			       sn->o.max_count && sn->n_kept > sn->o.max_count ?
			       "--max-snapshots" : "--max-snapshots-size");
		sn->kept_bytes -= k.bytes;
		memmove(sn->kept, sn->kept + 1, --sn->n_kept * sizeof(*sn->kept));
	}
}

/* Note DIR/snapshot-@n as kept, and apply the limits. */
static void sn_keep(struct snapshots *sn, unsigned int n, const char *name)
{
	if (sn->n_kept == sn->room) {
		unsigned int room = sn->room ? 2 * sn->room : 16;
		struct kept *k = realloc(sn->kept, room * sizeof(*k));

		if (!k) {
			sn_say(sn, "out of memory: %s/%s is not counted against the limits",
			       sn->o.dir, name);
			return;
		}
		sn->kept = k;
		sn->room = room;
	}
	sn->kept[sn->n_kept].n = n;
	sn->kept[sn->n_kept].bytes = sn_bytes(sn, name);
	sn->kept_bytes += sn->kept[sn->n_kept++].bytes;
	sn_prune(sn);
}

/* "snapshot 2 (SIGUSR1): DIR/snapshot-2: 12 packets, ..." */
static void sn_report(const struct snapshots *sn, unsigned int n,
		      const char *why, const char *where,
		      const struct ltt_snapshot_stats *st)
{
	char bytes[32];

	lttd_format_bytes(bytes, sizeof(bytes), st->bytes);
	fprintf(stderr, "%s: snapshot %u (%s): %s: %llu packets, %llu events, %s, %llu overwritten while copied",
		sn->o.prog, n, why, where, (unsigned long long)st->packets,
		(unsigned long long)st->events, bytes,
		(unsigned long long)st->stale);
	if (st->unfinished)
		fprintf(stderr, ", %llu left unfinished by their writers",
			(unsigned long long)st->unfinished);
	if (st->restarted)
		fprintf(stderr, " (a kernel without live snapshots: the session was stopped and started again)");
	fputc('\n', stderr);
}

int snapshots_take(struct snapshots *sn, struct ltt_recorder *rec,
		   const char *why, unsigned int flags)
{
	struct ltt_snapshot_stats st;
	unsigned int n = sn->taken + 1;
	char partial[4200], final[4200], name[64];
	int ret;

	snprintf(name, sizeof(name), SNAPSHOT_PREFIX "%u", n);
	if (sn->o.dir) {
		snprintf(partial, sizeof(partial), "%s/." SNAPSHOT_PREFIX "%u.partial",
			 sn->o.dir, n);
		snprintf(final, sizeof(final), "%s/%s", sn->o.dir, name);
	}
	ret = ltt_recorder_snapshot_to(rec, sn->o.dir ? partial : NULL, flags,
				       &st);
	sn->taken = n;
	sn->stale += st.stale;
	sn->unfinished += st.unfinished;
	if (ret)
		sn_say(sn, "snapshot %u (%s): %s", n, why, ltt_error());
	if (!sn->o.dir) {
		if (!sn->o.quiet)
			sn_report(sn, n, why, "sent", &st);
		return ret;
	}
	if (access(partial, F_OK))
		return ret;	/* nothing of it was made */
	if (ret && sn_no_metadata(sn, partial + strlen(sn->o.dir) + 1))
		return ret;	/* nothing of it was written: gone */
	if (rename(partial, final)) {
		sn_say(sn, "%s: %s", final, strerror(errno));
		return -1;
	}
	if (ret)
		sn_say(sn, "%s: what was written is kept: incomplete", final);
	else if (!sn->o.quiet)
		sn_report(sn, n, why, final, &st);
	sn_keep(sn, n, name);
	return ret;
}

void snapshots_totals(const struct snapshots *sn, unsigned int *taken,
		      unsigned int *kept, uint64_t *stale,
		      uint64_t *unfinished)
{
	*taken = sn->taken;
	*kept = sn->n_kept;
	*stale = sn->stale;
	*unfinished = sn->unfinished;
}

void snapshots_close(struct snapshots *sn)
{
	if (!sn)
		return;
	if (sn->wrote_pid)
		unlinkat(sn->dir_fd, PID_FILE, 0);
	if (sn->dir_fd >= 0)
		close(sn->dir_fd);
	free(sn->kept);
	free(sn);
}
