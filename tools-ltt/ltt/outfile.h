/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output file (ltt view -o, ltt export -o, and any command that
 * writes a file the user names) that is never destroyed:
 *
 *	struct out_file o;
 *
 *	if (out_file_open(&o, path))		// before reading the trace
 *		fail: "%s: %s", path, strerror(errno)
 *	... write to o.f ...
 *	if (out_file_commit(&o))		// flushed, closed, in place
 *		fail: "%s: %s", o.path, strerror(errno)
 *	or, giving up:	out_file_abort(&o);
 *
 * "-" is the standard output.  A regular file, or a name that does not
 * exist yet, is written as a temporary file beside it (".NAME.XXXXXX",
 * same directory, so same file system) renamed over it by
 * out_file_commit(): until then the old file is whole, and an error or
 * out_file_abort() removes the temporary only.  A symbolic link to a
 * regular file is followed, the link kept.  Anything else that exists
 * (a character device, a FIFO, a socket, a link to /proc/self/fd/N) is
 * written directly and never removed, whatever happens.  A temporary
 * still open when the program exits (a usage error found late, exit()
 * anywhere) is removed then.
 */
#ifndef LTT_OUTFILE_H
#define LTT_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct out_file {
	FILE *f;		/* write here (1 MiB buffered) */
	const char *path;	/* as given, for messages ("-": stdout) */
	char *target;		/* what the rename replaces (links followed) */
	char *tmp;		/* the temporary, or NULL: writing in place */
	bool is_stdout;
	/* private: the descriptor under f, and the first write's errno */
	int fd;
	int error;
	struct out_file *next;	/* open ones, whose temporaries exit() removes */
};

/*
 * Open @path (kept, not copied) for writing: 0, or -1 with errno set
 * and nothing created.  @o must stay where it is until committed or
 * aborted (o->f writes through it).  Call it before the long work, so that an output
 * that cannot be written fails at once.
 */
int out_file_open(struct out_file *o, const char *path);

/*
 * Flush and close what was written, and put it in place: 0, or -1 with
 * errno set (a write error, ENOSPC...) and the temporary removed, the
 * target as it was.  The stream is closed either way.
 */
int out_file_commit(struct out_file *o);

/* Close without putting anything in place; removes only the temporary. */
void out_file_abort(struct out_file *o);

/*
 * Put @o in place once its content is written, or give it up when
 * @write_failed (errno set by the failed write, or 0): 0, or -1 with
 * "CMD: PATH: why" said on stderr and only the temporary removed.
 */
int out_file_finish(struct out_file *o, const char *cmd, bool write_failed);

#endif /* LTT_OUTFILE_H */
