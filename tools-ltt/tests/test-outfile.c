// SPDX-License-Identifier: GPL-2.0
/*
 * Output files (ltt/outfile.h): written beside the target and renamed
 * into place; an error or an abort leaves the old file whole and no
 * temporary; what is not a regular file is written, never replaced.
 */
#include <dirent.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "../ltt/outfile.h"

static void slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* Entries of @dir besides . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

void outfile_replaces_only_on_commit(void **state)
{
	char dir[] = "/tmp/ltt-outfile-XXXXXX", path[64], link[64], buf[64];
	struct out_file o;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.json", dir);
	snprintf(link, sizeof(link), "%s/link.json", dir);

	/* a new file: created by the commit, with fopen's mode */
	assert_int_equal(out_file_open(&o, path), 0);
	fputs("one", o.f);
	assert_int_equal(entries(dir), 1);	/* the temporary */
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(out_file_commit(&o), 0);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "one");
	assert_int_equal(entries(dir), 1);

	/* aborted: the old file whole, its mode kept, no temporary */
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(out_file_open(&o, path), 0);
	fputs("two, longer than one", o.f);
	fflush(o.f);
	out_file_abort(&o);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "one");
	assert_int_equal(entries(dir), 1);

	/* committed over it: the new text, the old mode */
	assert_int_equal(out_file_open(&o, path), 0);
	fputs("three", o.f);
	assert_int_equal(out_file_commit(&o), 0);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "three");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);

	/* through a link: the file replaced, the link kept */
	assert_int_equal(symlink("out.json", link), 0);
	assert_int_equal(out_file_open(&o, link), 0);
	fputs("four", o.f);
	assert_int_equal(out_file_commit(&o), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "four");
	assert_int_equal(entries(dir), 2);

	/* a directory that is not there: nothing made, errno said */
	snprintf(buf, sizeof(buf), "%s/no/such.json", dir);
	assert_int_equal(out_file_open(&o, buf), -1);
	assert_int_equal(errno, ENOENT);
	/* a directory: EISDIR */
	assert_int_equal(out_file_open(&o, dir), -1);
	assert_int_equal(errno, EISDIR);

	unlink(link);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

void outfile_keeps_what_it_did_not_create(void **state)
{
	char dir[] = "/tmp/ltt-outfile-XXXXXX", fifo[64], buf[64];
	struct out_file o;
	struct stat st;
	int fds[2], fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* a FIFO with a reader: written in place, kept on abort */
	fd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(fd >= 0);
	assert_int_equal(out_file_open(&o, fifo), 0);
	assert_null(o.tmp);
	fputs("in the fifo", o.f);
	assert_int_equal(out_file_commit(&o), 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 11);
	close(fd);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));

	/* a write error (EPIPE: the reader gone) is kept and said */
	assert_int_equal(pipe(fds), 0);
	snprintf(buf, sizeof(buf), "/proc/self/fd/%d", fds[1]);
	if (!access(buf, W_OK)) {
		char link[64];

		snprintf(link, sizeof(link), "%s/fd", dir);
		assert_int_equal(symlink(buf, link), 0);
		close(fds[0]);
		signal(SIGPIPE, SIG_IGN);
		assert_int_equal(out_file_open(&o, link), 0);
		fputs("lost", o.f);
		assert_int_equal(out_file_commit(&o), -1);
		assert_int_equal(errno, EPIPE);
		signal(SIGPIPE, SIG_DFL);
		assert_int_equal(lstat(link, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
		unlink(link);
	} else {
		close(fds[0]);
	}
	close(fds[1]);
	assert_int_equal(entries(dir), 1);
	unlink(fifo);
	assert_int_equal(rmdir(dir), 0);
}
