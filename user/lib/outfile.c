// SPDX-License-Identifier: GPL-2.0
#include "lib/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"

/* Names that stand for a file descriptor (/dev/stdout, /dev/fd/N,
 * /proc/self/fd/N, /proc/PID/fd/N): written through, whatever the
 * descriptor is (a pipe, a terminal, a file the shell opened). */
static bool fd_name(const char *path)
{
	const char *p;

	if (!strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr") ||
	    !strncmp(path, "/dev/fd/", 8))
		return true;
	if (strncmp(path, "/proc/", 6) || !(p = strchr(path + 6, '/')))
		return false;
	return !strncmp(p, "/fd/", 4) && p[4] && !strchr(p + 4, '/');
}

static char *dir_of(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');

	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	return dir;
}

/* Write through an existing device, FIFO or descriptor name. */
static int open_through(struct outfile *o, const struct stat *st, char *err, size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO without a reader fails (ENXIO) instead of
	 * waiting for one; O_APPEND: a file behind /dev/stdout opened with >>
	 * keeps what it holds */
	o->fd = open(o->path, O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0) {
		if (errno == ENXIO && S_ISFIFO(st->st_mode))
			snprintf(err, errlen, "%s: a FIFO with no reader (start the reader first)",
				 o->path);
		else
			snprintf(err, errlen, "cannot open %s: %s", o->path, strerror(errno));
		return -1;
	}
	fcntl(o->fd, F_SETFL, fcntl(o->fd, F_GETFL) & ~O_NONBLOCK);
	o->kind = OUT_THROUGH;
	return 0;
}

/* An unnamed file (O_TMPFILE) in the target's directory, or a named one
 * where the filesystem has none. */
static int open_replace(struct outfile *o, const struct stat *st, unsigned int flags, char *err,
			size_t errlen)
{
	char *dir = dir_of(o->target);
	int e;

	o->kind = OUT_REPLACE;
	o->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);   /* read back by copy_aside() */
	free(dir);
	if (o->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		size_t n = strlen(o->target) + 24;

		o->tmpname = xcalloc(n, 1);
		snprintf(o->tmpname, n, "%s.capaudit-XXXXXX", o->target);
		o->fd = mkostemp(o->tmpname, O_CLOEXEC);
		if (o->fd >= 0)
			(void)!fchmod(o->fd, 0644);   /* mkstemp's 0600 still works */
		else {
			free(o->tmpname);
			o->tmpname = NULL;
		}
	}
	if (o->fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", o->path, strerror(errno));
		return -1;
	}
	if (!o->existed)
		return 0;
	/* replacing a file: its mode, and with KEEP_OWNER its owner (while we
	 * may: fchown of another user's file needs CAP_CHOWN) */
	(void)!fchmod(o->fd, st->st_mode & 07777);
	if ((flags & OUTFILE_KEEP_OWNER) && (st->st_uid != geteuid() || st->st_gid != getegid()) &&
	    fchown(o->fd, st->st_uid, st->st_gid)) {
		e = errno;
		snprintf(err, errlen, "%s belongs to uid %u gid %u: cannot keep its owner (%s): run "
			 "as that user or as root", o->path, (unsigned)st->st_uid, (unsigned)st->st_gid,
			 strerror(e));
		return -1;
	}
	return 0;
}

/* ---- putting the file in place --------------------------------------- */

/* A new name beside the target for the data (link() fails if it is taken). */
static char *link_unique(struct outfile *o, const char *from)
{
	size_t n = strlen(o->target) + 32;
	char *name = xcalloc(n, 1);
	unsigned int r;
	int i;

	for (i = 0; i < 100; i++) {
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (unsigned int)now_monotonic_ns() + (unsigned int)i;
		snprintf(name, n, "%s.capaudit-%08x", o->target, r);
		if (!linkat(AT_FDCWD, from, AT_FDCWD, name, AT_SYMLINK_FOLLOW))
			return name;
		if (errno != EEXIST)
			break;
	}
	free(name);
	return NULL;
}

/* No name can be made beside the target (its directory became
 * unwritable): the unnamed file's data goes to a new file in $TMPDIR. */
static char *copy_aside(struct outfile *o)
{
	const char *tmpdir = getenv("TMPDIR"), *base = strrchr(o->target, '/');
	char buf[65536], *name;
	off_t off = 0;
	ssize_t n;
	size_t len;
	int fd;

	base = base ? base + 1 : o->target;
	len = strlen(tmpdir && *tmpdir ? tmpdir : "/tmp") + strlen(base) + 32;
	name = xcalloc(len, 1);
	snprintf(name, len, "%s/capaudit-%s-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp", base);
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0) {
		free(name);
		return NULL;
	}
	while ((n = pread(o->fd, buf, sizeof(buf), off)) > 0) {
		if (write(fd, buf, (size_t)n) != n)
			break;
		off += n;
	}
	if (n != 0 || fsync(fd) || close(fd)) {
		unlink(name);
		free(name);
		return NULL;
	}
	return name;
}

/*
 * The last step, as the privileged keeper or the process itself: the data
 * gets a name of its own, then takes the target's only if the target is
 * still what it was at open. -1 with msg saying where the data is.
 */
static int put_in_place(struct outfile *o, char *msg, size_t msglen)
{
	char proc[64], *name;
	struct stat st;
	int e;

	if (o->tmpname) {
		name = xstrdup(o->tmpname);
	} else {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
		name = link_unique(o, proc);
		if (!name) {
			e = errno;
			name = copy_aside(o);
			if (name)
				snprintf(msg, msglen, "cannot write %s: %s; the data is in %s", o->path,
					 strerror(e), name);
			else
				snprintf(msg, msglen, "cannot write %s: %s (and no copy could be made "
					 "elsewhere)", o->path, strerror(e));
			free(name);
			return -1;
		}
	}
	if (o->existed && !stat(o->target, &st) && (st.st_dev != o->dev || st.st_ino != o->ino)) {
		snprintf(msg, msglen, "%s was replaced by another process meanwhile: not replacing "
			 "it again; this one is in %s", o->path, name);
		free(name);
		return -1;
	}
	if (o->existed && !rename(name, o->target)) {
		free(name);
		return 0;
	}
	if (o->existed && errno != ENOENT) {
		e = errno;
		snprintf(msg, msglen, "cannot rename %s to %s: %s; the data is in %s", name, o->path,
			 strerror(e), name);
		free(name);
		return -1;
	}
	/* the name was free at open: take it only if it still is */
	if (!link(name, o->target)) {
		unlink(name);
		free(name);
		return 0;
	}
	e = errno;
	if (e == EEXIST)
		snprintf(msg, msglen, "%s was created by another process meanwhile: not replacing "
			 "it; this one is in %s", o->path, name);
	else
		snprintf(msg, msglen, "cannot write %s: %s; the data is in %s", o->path, strerror(e),
			 name);
	free(name);
	return -1;
}

/* ---- the keeper ----------------------------------------------------------- */

struct keeper_reply {
	int rc;
	char msg[1024];
};

/* The child that keeps the caller's privileges: it waits for one byte,
 * puts the file in place (or, on end of file, drops it) and exits. It
 * reads nothing else, from anyone. */
static void keeper_main(struct outfile *o, int in, int out)
{
	struct keeper_reply rep = { 0 };
	char c = 0;
	ssize_t n;

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	do
		n = read(in, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && c == 'c') {
		rep.rc = put_in_place(o, rep.msg, sizeof(rep.msg));
		if (write(out, &rep, sizeof(rep)) != sizeof(rep))
			_exit(1);
		_exit(0);
	}
	if (o->tmpname)
		unlink(o->tmpname);
	_exit(0);
}

static int start_keeper(struct outfile *o, char *err, size_t errlen)
{
	int to[2], from[2];

	if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) {
		snprintf(err, errlen, "%s: pipe: %s", o->path, strerror(errno));
		return -1;
	}
	o->keeper = fork();
	if (o->keeper < 0) {
		snprintf(err, errlen, "%s: fork: %s", o->path, strerror(errno));
		o->keeper = 0;
		return -1;
	}
	if (o->keeper == 0) {
		close(to[1]);
		close(from[0]);
		keeper_main(o, to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	o->to_keeper = to[1];
	o->from_keeper = from[0];
	return 0;
}

/* ---- open, commit, discard ------------------------------------------------ */

int outfile_open(struct outfile *o, const char *path, unsigned int flags, char *err,
		 size_t errlen)
{
	struct stat lst, st;
	char real[PATH_MAX];
	int rc;

	memset(o, 0, sizeof(*o));
	o->fd = o->to_keeper = o->from_keeper = -1;
	o->path = xstrdup(path);
	if (!strcmp(path, "-")) {
		o->kind = OUT_STDOUT;
		o->f = stdout;
		return 0;
	}
	if (!path[0]) {
		snprintf(err, errlen, "empty output file name");
		goto fail;
	}
	if (lstat(path, &lst) == 0) {
		if (stat(path, &st)) {
			snprintf(err, errlen, S_ISLNK(lst.st_mode) ? "%s: a symlink to a missing file "
				 "(not writing through it)" : "%s: %s", path, strerror(errno));
			goto fail;
		}
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: is a directory", path);
			goto fail;
		}
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || fd_name(path)) {
			if (open_through(o, &st, err, errlen))
				goto fail;
			goto stream;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s: not a regular file, a device or a FIFO: not "
				 "replacing it", path);
			goto fail;
		}
		/* a symlink's target is replaced, never the link */
		if (!realpath(path, real)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		o->target = xstrdup(real);
		o->existed = true;
		o->dev = st.st_dev;
		o->ino = st.st_ino;
	} else if (errno == ENOENT) {
		o->target = xstrdup(path);
	} else {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		goto fail;
	}
	if (open_replace(o, &st, flags, err, errlen))
		goto fail;
	if ((flags & OUTFILE_KEEPER) && start_keeper(o, err, errlen))
		goto fail;
stream:
	o->f = fdopen(o->fd, "w");
	if (!o->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	rc = errno;
	outfile_discard(o);
	errno = rc;
	return -1;
}

static void close_out(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	else if (!o->f && o->fd >= 0)
		close(o->fd);
	o->f = NULL;
	o->fd = -1;
	if (o->to_keeper >= 0)
		close(o->to_keeper);   /* end of file: the keeper drops the file */
	if (o->from_keeper >= 0)
		close(o->from_keeper);
	o->to_keeper = o->from_keeper = -1;
	if (o->keeper > 0)
		waitpid(o->keeper, NULL, 0);
	o->keeper = 0;
	free(o->path);
	free(o->target);
	free(o->tmpname);
	o->path = o->target = o->tmpname = NULL;
}

int outfile_commit(struct outfile *o, char *msg, size_t msglen)
{
	struct keeper_reply rep = { 0 };
	int rc = 0;

	msg[0] = '\0';
	if (fflush(o->f) || ferror(o->f) || (o->kind == OUT_REPLACE && fsync(o->fd))) {
		snprintf(msg, msglen, "cannot write %s: %s", o->path, strerror(errno));
		outfile_discard(o);
		return -1;
	}
	if (o->kind == OUT_REPLACE && o->keeper > 0) {
		if (write(o->to_keeper, "c", 1) != 1 ||
		    read(o->from_keeper, &rep, sizeof(rep)) != sizeof(rep)) {
			snprintf(msg, msglen, "cannot write %s: the keeper process failed", o->path);
			rc = -1;
		} else if (rep.rc) {
			rep.msg[sizeof(rep.msg) - 1] = '\0';
			snprintf(msg, msglen, "%s", rep.msg);
			rc = -1;
		}
	} else if (o->kind == OUT_REPLACE) {
		rc = put_in_place(o, msg, msglen);
	}
	if (o->f && o->f != stdout && fclose(o->f) && !rc) {
		snprintf(msg, msglen, "cannot write %s: %s", o->path, strerror(errno));
		rc = -1;
	}
	o->f = NULL;
	o->fd = -1;
	close_out(o);
	return rc;
}

void outfile_discard(struct outfile *o)
{
	if (o->tmpname && o->keeper <= 0)
		unlink(o->tmpname);
	close_out(o);
}

int outfile_finish(struct outfile *o, int write_rc, char *msg, size_t msglen)
{
	if (write_rc) {
		snprintf(msg, msglen, "cannot write %s: %s", o->path, strerror(errno));
		outfile_discard(o);
		return -1;
	}
	return outfile_commit(o, msg, msglen);
}
