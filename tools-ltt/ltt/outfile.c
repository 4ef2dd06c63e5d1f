// SPDX-License-Identifier: GPL-2.0
/*
 * Output files written beside their target and renamed into place
 * (outfile.h): an error never removes what ltt did not create.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltt.h"
#include "outfile.h"

#define OUT_FILE_BUF	(1 << 20)

/* The open ones: exit() removes their temporaries. */
static struct out_file *open_files;

static void remove_temporaries(void)
{
	struct out_file *o;

	for (o = open_files; o; o = o->next)
		if (o->tmp)
			unlink(o->tmp);
}

static void out_file_free(struct out_file *o)
{
	struct out_file **p;

	for (p = &open_files; *p; p = &(*p)->next)
		if (*p == o) {
			*p = o->next;
			break;
		}
	free(o->target);
	free(o->tmp);
	o->target = o->tmp = NULL;
	o->f = NULL;
}

/*
 * o->f writes to o->fd through these, which keep the first error's
 * errno (stdio's flag keeps none: ENOSPC and EPIPE would read "write
 * error") and write nothing after it.
 */
static ssize_t cookie_write(void *cookie, const char *buf, size_t size)
{
	struct out_file *o = cookie;
	size_t done = 0;
	ssize_t n;

	if (o->error) {
		errno = o->error;
		return -1;
	}
	while (done < size) {
		n = write(o->fd, buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->error = n < 0 ? errno : EIO;
			errno = o->error;
			return done ? (ssize_t)done : -1;
		}
		done += n;
	}
	return done;
}

static int cookie_close(void *cookie)
{
	struct out_file *o = cookie;

	if (o->is_stdout)
		return 0;
	if (close(o->fd) && !o->error && errno != EINTR) {
		o->error = errno;
		return -1;
	}
	return 0;
}

/* o->f on @fd: 0, or -1 with errno set and @fd left open. */
static int open_stream(struct out_file *o, int fd)
{
	static const cookie_io_functions_t io = {
		.write = cookie_write, .close = cookie_close,
	};

	o->fd = fd;
	o->f = fopencookie(o, "w", io);
	if (!o->f)
		return -1;
	setvbuf(o->f, NULL, _IOFBF, OUT_FILE_BUF);
	return 0;
}

/* Write @path directly: a device, a FIFO, what cannot be renamed over. */
static int open_in_place(struct out_file *o, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666), err;

	if (fd < 0)
		return -1;
	if (open_stream(o, fd)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return 0;
}

/* A temporary file beside o->target, with @mode. */
static int open_beside(struct out_file *o, mode_t mode)
{
	const char *slash = strrchr(o->target, '/');
	const char *base = slash ? slash + 1 : o->target;
	int dirlen = slash ? (int)(slash - o->target + 1) : 0, fd, err;
	static bool registered;

	if (!*base) {			/* "dir/": a directory, as fopen says */
		errno = EISDIR;
		return -1;
	}
	if (asprintf(&o->tmp, "%.*s.%s.XXXXXX", dirlen, o->target, base) < 0) {
		o->tmp = NULL;
		errno = ENOMEM;
		return -1;
	}
	if (!registered && !atexit(remove_temporaries))
		registered = true;
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	/* mkstemp makes 0600: give it the old file's mode, or fopen's */
	if (fchmod(fd, mode) || open_stream(o, fd)) {
		err = errno;
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		errno = err;
		return -1;
	}
	o->next = open_files;
	open_files = o;
	return 0;
}

int out_file_open(struct out_file *o, const char *path)
{
	struct stat st, lst;
	mode_t mask;
	int err;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!strcmp(path, "-")) {
		o->is_stdout = true;
		/* what stdout holds goes first; then o->f alone writes there */
		if (fflush(stdout))
			return -1;
		return open_stream(o, STDOUT_FILENO);
	}
	if (!lstat(path, &lst)) {
		if (stat(path, &st)) {
			/* a dangling link: what it names is created */
			return open_in_place(o, path);
		}
		if (!S_ISREG(st.st_mode))
			return S_ISDIR(st.st_mode) ? (errno = EISDIR, -1) :
						     open_in_place(o, path);
		/* the regular file a link leads to is replaced, the link kept */
		o->target = S_ISLNK(lst.st_mode) ? realpath(path, NULL) :
						   strdup(path);
		if (!o->target)
			return -1;
		if (open_beside(o, st.st_mode & 07777)) {
			err = errno;
			free(o->target);
			o->target = NULL;
			/* a file we may write in a directory we may not */
			if ((err == EACCES || err == EPERM) &&
			    !access(path, W_OK))
				return open_in_place(o, path);
			errno = err;
			return -1;
		}
		return 0;
	}
	if (errno != ENOENT)
		return -1;
	o->target = strdup(path);
	if (!o->target)
		return -1;
	mask = umask(0);
	umask(mask);
	if (open_beside(o, 0666 & ~mask)) {
		err = errno;
		free(o->target);
		o->target = NULL;
		errno = err;
		return -1;
	}
	return 0;
}

int out_file_commit(struct out_file *o)
{
	int err;

	if (!o->f)
		return 0;
	fclose(o->f);		/* flushes through cookie_write, keeps o->error */
	o->f = NULL;
	err = o->error;
	if (!err && o->tmp && rename(o->tmp, o->target))
		err = errno;
	if (err && o->tmp)
		unlink(o->tmp);
	out_file_free(o);
	if (err)
		errno = err;
	return err ? -1 : 0;
}

void out_file_abort(struct out_file *o)
{
	int err = errno;

	if (o->f) {
		o->error = ECANCELED;	/* what is buffered is not written */
		fclose(o->f);
	}
	if (o->tmp)
		unlink(o->tmp);
	out_file_free(o);
	errno = err;
}

int out_file_finish(struct out_file *o, const char *cmd, bool write_failed)
{
	const char *name = o->is_stdout ? "standard output" : o->path;

	if (write_failed) {
		warnx_cmd(cmd, "%s: %s", name, errno ? strerror(errno) : "write error");
		out_file_abort(o);
		return -1;
	}
	if (out_file_commit(o)) {
		warnx_cmd(cmd, "%s: %s", name, strerror(errno));
		return -1;
	}
	return 0;
}
