// SPDX-License-Identifier: GPL-2.0
#include "lib/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
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

/* ---- owners ---------------------------------------------------------------- */

/* The user who ran sudo, when root runs under it (real uid 0, SUDO_UID a
 * number other than 0): 0 and the ids (gid -1 without SUDO_GID), or -1. */
static int sudo_owner(uid_t *uid, gid_t *gid)
{
	const char *u = getenv("SUDO_UID"), *g = getenv("SUDO_GID");
	uint32_t v;

	if (getuid() != 0 || !u || parse_u32(u, &v) || v == 0 || v == (uint32_t)-1)
		return -1;
	*uid = (uid_t)v;
	*gid = (gid_t)-1;
	if (g && !parse_u32(g, &v) && v != (uint32_t)-1)
		*gid = (gid_t)v;
	return 0;
}

/* A file root has just created under sudo goes to the user who ran sudo,
 * as far as the creator may give it (CAP_CHOWN). */
static void give_new_file(int fd)
{
	uid_t u;
	gid_t g;

	if (!sudo_owner(&u, &g))
		(void)!fchown(fd, u, g);
}

/* What a file that is not a regular one is, for messages. */
static const char *kind_of(mode_t mode)
{
	return S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device" :
	       S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket" :
	       S_ISDIR(mode) ? "a directory" : S_ISLNK(mode) ? "a symlink" : "not a regular file";
}

/* A name where only a regular file will do (a file written again and
 * again, or appended to): anything else at it is refused, before it is
 * opened. A FIFO would keep the writer waiting: at open for a reader, then
 * at each write for its reader to read, however long its owner likes. */
static int not_regular(const char *path, mode_t mode, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s, not a regular file: not writing to it%s", path,
		 kind_of(mode), S_ISFIFO(mode) ? " (its reader could keep the writer waiting)" : "");
	errno = S_ISDIR(mode) ? EISDIR : EINVAL;
	return -1;
}

/*
 * fs.protected_fifos' rule (fs/namei.c may_create_in_sticky()), applied at
 * its strictest (2) whatever the sysctl says: a FIFO in a sticky directory
 * that others may write (world or group) is written to only when it
 * belongs to the writer or to the directory's owner. Another user's FIFO
 * there could hold the writer as long as that user likes. dirfd: the
 * directory the FIFO is in. true when it may be opened.
 */
static bool may_open_fifo(int dirfd, const struct stat *fifo)
{
	struct stat d;

	if (fstat(dirfd, &d))
		return false;
	if (!(d.st_mode & S_ISVTX) || !(d.st_mode & (S_IWOTH | S_IWGRP)))
		return true;
	return fifo->st_uid == geteuid() || fifo->st_uid == d.st_uid;
}

/* Write through an existing device, FIFO or descriptor name, opened as
 * name (o->path, or a /proc/self/fd name of what the lookup found). */
static int open_through(struct outfile *o, const struct stat *st, const char *name, char *err,
			size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO without a reader fails (ENXIO) instead of
	 * waiting for one; O_APPEND: a file behind /dev/stdout opened with >>
	 * keeps what it holds */
	o->fd = open(name, O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0) {
		int e = errno;

		if (errno == ENXIO && S_ISFIFO(st->st_mode))
			snprintf(err, errlen, "%s: a FIFO with no reader (start the reader first)",
				 o->path);
		else
			snprintf(err, errlen, "cannot open %s: %s", o->path, strerror(errno));
		errno = e;
		return -1;
	}
	fcntl(o->fd, F_SETFL, fcntl(o->fd, F_GETFL) & ~O_NONBLOCK);
	o->kind = OUT_THROUGH;
	return 0;
}

/* A name of the target's directory: the target's path up to its last
 * slash, then name (for messages: the data is in ...). Caller frees. */
static char *beside(const struct outfile *o, const char *name)
{
	size_t dirlen = strlen(o->target) - strlen(o->base);
	char *p = xcalloc(dirlen + strlen(name) + 1, 1);

	memcpy(p, o->target, dirlen);
	strcpy(p + dirlen, name);
	return p;
}

/* A named temporary file beside the target, where the filesystem has no
 * O_TMPFILE: its descriptor (o->tmpname set), or -1. */
static int open_named_tmp(struct outfile *o)
{
	size_t n = strlen(o->base) + 24;
	unsigned int r;
	int i, fd;

	o->tmpname = xcalloc(n, 1);
	for (i = 0; i < 100; i++) {
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (unsigned int)now_monotonic_ns() + (unsigned int)i;
		snprintf(o->tmpname, n, "%s.capaudit-%08x", o->base, r);
		fd = openat(o->dirfd, o->tmpname, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			break;
	}
	free(o->tmpname);
	o->tmpname = NULL;
	return -1;
}

/* An unnamed file (O_TMPFILE) in the target's directory (o->dirfd, held
 * from the lookup on), or a named one where the filesystem has none. */
static int open_replace(struct outfile *o, const struct stat *st, unsigned int flags, char *err,
			size_t errlen)
{
	int e;

	o->kind = OUT_REPLACE;
	/* read back by copy_aside() */
	o->fd = openat(o->dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
	if (o->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))
		o->fd = open_named_tmp(o);
	if (o->fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot create %s: %s", o->path, strerror(e));
		errno = e;
		return -1;
	}
	if (!o->existed) {
		give_new_file(o->fd);
		return 0;
	}
	/* replacing a file: its mode, and its owner while we may (fchown of
	 * another user's file needs CAP_CHOWN); KEEP_OWNER insists */
	(void)!fchmod(o->fd, st->st_mode & 07777);
	if ((st->st_uid != geteuid() || st->st_gid != getegid()) &&
	    fchown(o->fd, st->st_uid, st->st_gid) && (flags & OUTFILE_KEEP_OWNER)) {
		e = errno;
		snprintf(err, errlen, "%s belongs to uid %u gid %u: cannot keep its owner (%s): run "
			 "as that user or as root", o->path, (unsigned)st->st_uid, (unsigned)st->st_gid,
			 strerror(e));
		errno = e;
		return -1;
	}
	return 0;
}

/* ---- putting the file in place --------------------------------------- */

/* A new name beside the target for the data (linkat() fails if it is
 * taken): the name in the target's directory, or NULL. */
static char *link_unique(struct outfile *o, const char *from)
{
	size_t n = strlen(o->base) + 32;
	char *name = xcalloc(n, 1);
	unsigned int r;
	int i;

	for (i = 0; i < 100; i++) {
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (unsigned int)now_monotonic_ns() + (unsigned int)i;
		snprintf(name, n, "%s.capaudit-%08x", o->base, r);
		if (!linkat(AT_FDCWD, from, o->dirfd, name, AT_SYMLINK_FOLLOW))
			return name;
		if (errno != EEXIST)
			break;
	}
	free(name);
	return NULL;
}

/* No name can be made beside the target (its directory became
 * unwritable, or is gone): the unnamed file's data goes to a new file in
 * $TMPDIR. */
static char *copy_aside(struct outfile *o)
{
	const char *tmpdir = getenv("TMPDIR");
	char buf[65536], *name;
	off_t off = 0;
	ssize_t n;
	size_t len;
	int fd;

	len = strlen(tmpdir && *tmpdir ? tmpdir : "/tmp") + strlen(o->base) + 32;
	name = xcalloc(len, 1);
	snprintf(name, len, "%s/capaudit-%s-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp", o->base);
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0) {
		free(name);
		return NULL;
	}
	give_new_file(fd);
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
 * The last step, as the keeper or the process itself: the data gets a
 * name of its own, then takes the target's only if the target is still
 * what it was at open. -1 with msg saying where the data is.
 */
static int put_in_place(struct outfile *o, char *msg, size_t msglen)
{
	char proc[64], *name, *shown;
	struct stat st;
	int e, rc = -1;

	if (o->tmpname) {
		name = xstrdup(o->tmpname);
	} else {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
		name = link_unique(o, proc);
		if (!name && (o->flags & OUTFILE_REWRITTEN)) {
			snprintf(msg, msglen, "cannot write %s: %s", o->path, strerror(errno));
			return -1;
		}
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
	shown = beside(o, name);
	if (o->flags & OUTFILE_REWRITTEN) {
		/* the name is this writer's: whatever is there now is replaced */
		if (!renameat(o->dirfd, name, o->dirfd, o->base)) {
			rc = 0;
		} else {
			e = errno;
			unlinkat(o->dirfd, name, 0);
			snprintf(msg, msglen, "cannot write %s: %s", o->path, strerror(e));
		}
		goto out;
	}
	if (o->existed && !fstatat(o->dirfd, o->base, &st, AT_SYMLINK_NOFOLLOW) &&
	    (st.st_dev != o->dev || st.st_ino != o->ino)) {
		snprintf(msg, msglen, "%s was replaced by another process meanwhile: not replacing "
			 "it again; this one is in %s", o->path, shown);
		goto out;
	}
	if (o->existed && !renameat(o->dirfd, name, o->dirfd, o->base)) {
		rc = 0;
		goto out;
	}
	if (o->existed && errno != ENOENT) {
		e = errno;
		snprintf(msg, msglen, "cannot rename %s to %s: %s; the data is in %s", shown, o->path,
			 strerror(e), shown);
		goto out;
	}
	/* the name was free at open: take it only if it still is */
	if (!linkat(o->dirfd, name, o->dirfd, o->base, 0)) {
		unlinkat(o->dirfd, name, 0);
		rc = 0;
		goto out;
	}
	e = errno;
	if (e == EEXIST)
		snprintf(msg, msglen, "%s was created by another process meanwhile: not replacing "
			 "it; this one is in %s", o->path, shown);
	else
		snprintf(msg, msglen, "cannot write %s: %s; the data is in %s", o->path, strerror(e),
			 shown);
out:
	free(shown);
	free(name);
	return rc;
}

/* ---- opening, here or in the keeper ----------------------------------------- */

static void close_out(struct outfile *o);

/* ---- resolving the name once ----------------------------------------------- */

/*
 * The name is looked up once: its directory is opened (O_PATH), and
 * everything after that is relative to that descriptor (fstatat, openat,
 * linkat, renameat), so that another user renaming, exchanging or linking
 * things in a directory they may write (renameat2(RENAME_EXCHANGE) of a
 * file and a symlink) can neither move the output elsewhere nor have it
 * created outside that directory.
 *
 * A symlink anywhere in the name, in its directories as at its final name,
 * is followed only by the rule of the kernel's fs.protected_symlinks
 * (fs/namei.c may_follow_link()), applied whatever that sysctl says: not
 * in a sticky, world-writable directory unless the link belongs to the
 * writer or to the directory's owner. The name is walked one component at
 * a time (walk_name()), never by the kernel's own lookup, which applies
 * the rule only at the sysctl's setting; a link's text is walked the same
 * way, and the directory of the file it leads to is then the one written
 * in (a symlink's target is replaced, never the link). A process that
 * writes the same name again and again (a monitor's checkpoints) follows
 * a symlink only if one was there at its first write, to the same
 * directory: one planted later is refused.
 */

/* What the first write of a name found (a process writes few names). */
struct first_seen {
	char *path;
	bool link;               /* a symlink was there */
	dev_t dir_dev;           /* the directory written in */
	ino_t dir_ino;
};
static struct first_seen *seen;
static size_t nseen;

static struct first_seen *first_seen_of(const char *path)
{
	size_t i;

	for (i = 0; i < nseen; i++)
		if (!strcmp(seen[i].path, path))
			return &seen[i];
	return NULL;
}

static void remember_first(const char *path, bool link, int dirfd)
{
	struct stat d;

	if (first_seen_of(path) || fstat(dirfd, &d))
		return;
	seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
	seen[nseen++] = (struct first_seen){ xstrdup(path), link, d.st_dev, d.st_ino };
}

/* fs.protected_symlinks' rule (may_follow_link()): a link in a sticky,
 * world-writable directory is followed only by its owner or the
 * directory's. */
static bool may_follow(int dirfd, const struct stat *link)
{
	struct stat d;

	if (fstat(dirfd, &d))
		return false;
	if ((d.st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return true;
	return link->st_uid == geteuid() || link->st_uid == d.st_uid;
}

static int fail_at(char *err, size_t errlen, int e, const char *fmt, const char *path)
{
	snprintf(err, errlen, fmt, path, strerror(e));
	errno = e;
	return -1;
}

#define MAX_LINKS 40   /* as the kernel's MAXSYMLINKS (include/linux/namei.h) */

/*
 * Walk name from the directory at (AT_FDCWD: the working directory; an
 * absolute name starts at /) one component at a time, each opened
 * (O_PATH, O_NOFOLLOW) in the one before: a symlink on the way is
 * followed by may_follow()'s rule only (fs.protected_symlinks' rule,
 * fs/namei.c may_follow_link(), applied to every component whatever the
 * sysctl says, where the kernel would apply it at its setting), its text
 * walked the same way. The kernel never follows a link here: with the
 * sysctl at 0 it would follow any (another user's link in /tmp into a
 * directory only root may enter), and at 1 it refuses with EACCES, which
 * reads as a directory capaudit may not write.
 *
 * follow_last: a symlink at the last name is followed too (and the links
 * its text names); else the last name is left as it is. *dirfd gets the
 * directory that holds the last name (O_PATH), *base the name (caller
 * frees). path: the name as given, for messages. 0, or -1 with err (errno
 * says why: ENOENT when a directory on the way is missing).
 */
static int walk_name(int at, const char *name, bool follow_last, const char *path, int *dirfd,
		     char **base, char *err, size_t errlen)
{
	char *rest = xstrdup(name), *comp, *next, *p, *more, target[PATH_MAX];
	char shown[PATH_MAX];    /* the directories walked, as text, for messages */
	int fd, nfd, links = 0, e;
	bool last;
	struct stat lst;
	ssize_t tl;
	size_t n;

	*dirfd = -1;
	*base = NULL;
	snprintf(shown, sizeof(shown), "%s", rest[0] == '/' ? "/" : "");
	fd = rest[0] == '/' ? open("/", O_PATH | O_DIRECTORY | O_CLOEXEC) :
			      openat(at, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		goto fail_errno;
	for (p = rest;;) {
		while (*p == '/')
			p++;
		comp = p;
		while (*p && *p != '/')
			p++;
		for (next = p; *next == '/'; next++)
			;
		last = !*next;
		if (*p)
			*p++ = '\0';
		/* the last name, as it is: "" when there is none ("/") */
		if (last && (!follow_last || !*comp || !strcmp(comp, ".") || !strcmp(comp, ".."))) {
			*base = xstrdup(comp);
			break;
		}
		if (!strcmp(comp, "."))
			continue;
		if (strcmp(comp, "..")) {
			if (fstatat(fd, comp, &lst, AT_SYMLINK_NOFOLLOW)) {
				if (errno == ENOENT && last) {
					*base = xstrdup(comp);   /* a free name */
					break;
				}
				goto fail_errno;
			}
			if (S_ISLNK(lst.st_mode)) {
				if (!may_follow(fd, &lst)) {
					snprintf(err, errlen, "%s: %s%s is a symlink of uid %u in a sticky "
						 "directory anyone may write: not following it (the rule of "
						 "fs.protected_symlinks)", path, shown, comp,
						 (unsigned)lst.st_uid);
					e = ELOOP;   /* as O_NOFOLLOW says it; no advice about the directory */
					goto fail;
				}
				tl = readlinkat(fd, comp, target, sizeof(target) - 1);
				if (tl <= 0 || ++links > MAX_LINKS) {
					e = tl < 0 ? errno : ELOOP;
					snprintf(err, errlen, "%s: cannot follow the symlink %s%s: %s", path,
						 shown, comp, strerror(e));
					goto fail;
				}
				target[tl] = '\0';
				/* walk on: the link's text, then what came after it */
				n = strlen(target) + strlen(next) + 2;
				more = xcalloc(n, 1);
				snprintf(more, n, "%s%s%s", target, *next ? "/" : "", next);
				free(rest);
				rest = p = more;
				if (target[0] == '/') {
					close(fd);
					fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
					if (fd < 0)
						goto fail_errno;
					snprintf(shown, sizeof(shown), "/");
				}
				continue;
			}
			if (last) {
				*base = xstrdup(comp);
				break;
			}
		}
		/* a directory (or ..): opened in the one before, never through a link */
		nfd = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0)
			goto fail_errno;
		close(fd);
		fd = nfd;
		n = strlen(shown);
		snprintf(shown + n, sizeof(shown) - n, "%s/", comp);
	}
	*dirfd = fd;
	free(rest);
	return 0;
fail_errno:
	e = errno;
	snprintf(err, errlen, "cannot create %s: %s", path, strerror(e));
fail:
	if (fd >= 0)
		close(fd);
	free(rest);
	errno = e;
	return -1;
}

/* The symlink at o->base followed: its text walked as any name is
 * (walk_name(), never by the kernel), to the last name it leads to, whose
 * directory becomes o->dirfd and its name there o->base. 0, or -1 with
 * err. */
static int follow_link(struct outfile *o, char *err, size_t errlen)
{
	char proc[64], dir[PATH_MAX], *base;
	ssize_t n;
	size_t len;
	int dirfd;

	if (walk_name(o->dirfd, o->base, true, o->path, &dirfd, &base, err, errlen))
		return errno == ENOENT ? fail_at(err, errlen, ENOENT, "%s: a symlink to a missing "
						 "file (not writing through it)%.0s", o->path) : -1;
	close(o->dirfd);
	o->dirfd = dirfd;
	free(o->base);
	o->base = base;
	if (!base[0] || !strcmp(base, ".") || !strcmp(base, ".."))
		return fail_at(err, errlen, EISDIR, "%s: is a directory%.0s", o->path);
	/* its name, for messages ("this one is in ...") */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", dirfd);
	n = readlink(proc, dir, sizeof(dir) - 1);
	dir[n > 0 ? n : 0] = '\0';
	len = strlen(dir) + strlen(base) + 2;
	free(o->target);
	o->target = xcalloc(len, 1);
	snprintf(o->target, len, "%s%s%s", dir, n > 1 ? "/" : "", base);
	return 0;
}

/* Open o->path in this process: 0, or -1 with err (errno says why). */
static int open_here(struct outfile *o, unsigned int flags, char *err, size_t errlen)
{
	const char *path = o->path, *slash;
	struct first_seen *first = first_seen_of(path);
	struct stat lst, st, d;
	bool link = false;
	char *dir;
	int fd, e;

	o->flags = flags;
	if (!path[0]) {
		snprintf(err, errlen, "empty output file name");
		errno = EINVAL;
		return -1;
	}
	/* /dev/stdout, /proc/self/fd/N: whatever the descriptor is */
	if (fd_name(path)) {
		if (stat(path, &st))
			return fail_at(err, errlen, errno, "cannot open %s: %s", path);
		return open_through(o, &st, path, err, errlen);
	}
	slash = strrchr(path, '/');
	o->base = xstrdup(slash ? slash + 1 : path);
	if (!o->base[0] || !strcmp(o->base, ".") || !strcmp(o->base, ".."))
		return fail_at(err, errlen, EISDIR, "%s: is a directory%.0s", path);
	/* the directory, walked component by component (walk_name()) */
	if (walk_name(AT_FDCWD, path, false, path, &o->dirfd, &dir, err, errlen))
		return -1;
	free(dir);
	o->target = xstrdup(path);
	if (fstatat(o->dirfd, o->base, &lst, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			return fail_at(err, errlen, errno, "cannot create %s: %s", path);
		remember_first(path, false, o->dirfd);
		return open_replace(o, &lst, flags, err, errlen);
	}
	st = lst;
	if (S_ISLNK(lst.st_mode)) {
		link = true;
		if (first && !first->link)
			return fail_at(err, errlen, EPERM, "%s: a symlink was put there after capaudit "
				       "first wrote it: not writing through it (%s)", path);
		if (!may_follow(o->dirfd, &lst)) {
			snprintf(err, errlen, "%s: a symlink of uid %u in a sticky directory anyone may "
				 "write: not following it (the rule of fs.protected_symlinks)", path,
				 (unsigned)lst.st_uid);
			errno = ELOOP;   /* as O_NOFOLLOW says it; no advice about the directory */
			return -1;
		}
		/* from here on, what it leads to, in its own directory: a symlink's
		 * target is replaced, never the link */
		if (follow_link(o, err, errlen))
			return -1;
		if (fstatat(o->dirfd, o->base, &st, AT_SYMLINK_NOFOLLOW)) {
			if (errno == ENOENT)
				return fail_at(err, errlen, ENOENT, "%s: a symlink to a missing file "
					       "(not writing through it)%.0s", path);
			return fail_at(err, errlen, errno, "%s: %s", path);
		}
	}
	if (S_ISDIR(st.st_mode))
		return fail_at(err, errlen, EISDIR, "%s: is a directory%.0s", path);
	if (!S_ISREG(st.st_mode) && (flags & (OUTFILE_REGULAR | OUTFILE_REWRITTEN)))
		return not_regular(path, st.st_mode, err, errlen);
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		/* reopened through what was found, not looked up again */
		struct stat now;
		char proc[64];

		fd = openat(o->dirfd, o->base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return fail_at(err, errlen, errno, "cannot open %s: %s", path);
		if (fstat(fd, &now) || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
			close(fd);
			return fail_at(err, errlen, EAGAIN, "%s: replaced while it was opened: not "
				       "writing to it (%s)", path);
		}
		if (S_ISFIFO(st.st_mode)) {
			/* the directory it is in (through a symlink, its own) */
			if (!may_open_fifo(o->dirfd, &st)) {
				close(fd);
				snprintf(err, errlen, "%s: a FIFO of uid %u in a sticky directory others "
					 "may write: not writing to it (the rule of fs.protected_fifos)",
					 path, (unsigned)st.st_uid);
				errno = EINVAL;   /* no advice about the directory */
				return -1;
			}
		}
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		e = open_through(o, &st, proc, err, errlen);
		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file, a device or a FIFO: not replacing it",
			 path);
		errno = EINVAL;
		return -1;
	}
	/* a symlink's target is replaced, never the link */
	if (link) {
		if (first && (fstat(o->dirfd, &d) || d.st_dev != first->dir_dev ||
			      d.st_ino != first->dir_ino))
			return fail_at(err, errlen, EPERM, "%s: its symlink now points into another "
				       "directory than when capaudit first wrote it: not writing "
				       "through it (%s)", path);
	}
	remember_first(path, link, o->dirfd);
	o->existed = true;
	o->dev = st.st_dev;
	o->ino = st.st_ino;
	return open_replace(o, &st, flags, err, errlen);
}

int outfile_keep_previous(const char *path, char *kept, size_t keptlen, char *err,
			  size_t errlen)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char *dir, name[NAME_MAX + 1], stamp[32];
	bool linked = false;
	struct stat st;
	struct tm tm;
	int dirfd, i, e = 0;

	if (!base[0] || fd_name(path) || !strcmp(path, "-"))
		return 0;
	/* its directory walked as open_here() walks it: a name on the way that
	 * it would refuse is left for the open to say so */
	if (walk_name(AT_FDCWD, path, false, path, &dirfd, &dir, err, errlen))
		return 0;
	free(dir);
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode)) {
		if (dirfd >= 0)
			close(dirfd);
		return 0;   /* nothing to keep: the open says what is wrong, if anything */
	}
	localtime_r(&st.st_mtime, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (i = 0; i < 100 && !linked; i++) {
		if (i)
			snprintf(name, sizeof(name), "%s.prev-%s-%d", base, stamp, i);
		else
			snprintf(name, sizeof(name), "%s.prev-%s", base, stamp);
		linked = !linkat(dirfd, base, dirfd, name, 0);
		e = errno;
		if (!linked && e != EEXIST)
			break;
	}
	close(dirfd);
	if (!linked) {
		snprintf(err, errlen, "cannot keep the previous %s beside it: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	snprintf(kept, keptlen, "%.*s%s", (int)(base - path), path, name);
	return 1;
}

/* The symlink base in dirfd followed (walk_name()) to what it leads to,
 * opened O_PATH: the descriptor, or -1 with err. */
static int open_link_target(int dirfd, const char *base, const char *path, char *err,
			    size_t errlen)
{
	int ldir, fd, e;
	char *lbase;

	if (walk_name(dirfd, base, true, path, &ldir, &lbase, err, errlen))
		return errno == ENOENT ? fail_at(err, errlen, ENOENT, "%s: a symlink to a missing "
						 "file (not writing through it)%.0s", path) : -1;
	fd = lbase[0] ? openat(ldir, lbase, O_PATH | O_NOFOLLOW | O_CLOEXEC) :
			dup(ldir);   /* a link to / */
	e = errno;
	close(ldir);
	free(lbase);
	if (fd < 0 && e == ENOENT)
		fail_at(err, errlen, ENOENT, "%s: a symlink to a missing file (not writing through "
			"it)%.0s", path);
	else if (fd < 0)
		fail_at(err, errlen, e, "%s: %s", path);
	return fd;
}

/* What was found at a name to append to (an O_PATH descriptor, pathfd),
 * opened for appending if it is a regular file: never waiting (O_NONBLOCK),
 * never anything else. The descriptor, or -1 with err (said set). */
static int append_regular(const char *path, int pathfd, char *err, size_t errlen, bool *said)
{
	char proc[64];
	struct stat st;
	int fd;

	if (fstat(pathfd, &st))
		return -1;
	if (!S_ISREG(st.st_mode)) {
		*said = true;
		return not_regular(path, st.st_mode, err, errlen);
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pathfd);
	fd = open(proc, O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/* Append to path in this process: a descriptor, or -1 with err. Only a
 * regular file is appended to (a name others may write could hold a FIFO
 * that keeps the writer waiting for a reader); a missing one is created. */
static int append_here(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	struct first_seen *first = first_seen_of(path);
	int dirfd, pathfd, fd = -1, i, e = 0, follow;
	bool said = false;
	struct stat lst;
	char *dir;

	if (fd_name(path)) {
		/* the caller's own descriptor, whatever it is; its open never waits */
		fd = open(path, O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			fail_at(err, errlen, errno, "%s: %s", path);
		else
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		return fd;
	}
	/* one walk to the directory, then everything in it, as open_here() */
	if (walk_name(AT_FDCWD, path, false, path, &dirfd, &dir, err, errlen))
		return -1;
	free(dir);
	for (i = 0; i < 3 && fd < 0; i++) {
		follow = O_NOFOLLOW;
		if (!fstatat(dirfd, base, &lst, AT_SYMLINK_NOFOLLOW) && S_ISLNK(lst.st_mode)) {
			if (first && !first->link) {
				e = EPERM;
				snprintf(err, errlen, "%s: a symlink was put there after capaudit first "
					 "wrote it: not writing through it", path);
				said = true;
				break;
			}
			if (!may_follow(dirfd, &lst)) {
				e = ELOOP;
				snprintf(err, errlen, "%s: a symlink of uid %u in a sticky directory "
					 "anyone may write: not following it (the rule of "
					 "fs.protected_symlinks)", path, (unsigned)lst.st_uid);
				said = true;
				break;
			}
			follow = 0;
		}
		/* what is there, not opened yet (O_PATH): its type decides; a
		 * symlink's text is walked as any name (walk_name()) */
		if (follow) {
			pathfd = openat(dirfd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		} else {
			pathfd = open_link_target(dirfd, base, path, err, errlen);
			if (pathfd < 0) {
				e = errno;
				said = true;
				break;
			}
		}
		if (pathfd >= 0) {
			fd = append_regular(path, pathfd, err, errlen, &said);
			e = errno;
			close(pathfd);
			if (fd >= 0)
				remember_first(path, !follow, dirfd);
			break;
		}
		e = errno;
		if (e != ENOENT)
			break;
		fd = openat(dirfd, base, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC | O_CREAT |
			    O_EXCL | O_NOFOLLOW, 0644);
		if (fd >= 0) {
			give_new_file(fd);
			remember_first(path, false, dirfd);
			break;
		}
		e = errno;
		if (e != EEXIST)
			break;
	}
	close(dirfd);
	if (fd < 0) {
		if (!said)
			snprintf(err, errlen, "%s: %s", path, strerror(e));
		errno = e;
	}
	return fd;
}

/* ---- the keeper ------------------------------------------------------------- */

#define KEEPER_SLOTS 8

enum { K_READY, K_OPEN, K_APPEND, K_COMMIT, K_DISCARD };

struct keeper_req {
	int op;
	int slot;
	unsigned int flags;
	char path[PATH_MAX];
};

struct keeper_rep {
	int rc;
	int err;                 /* errno of a failure */
	int kind;
	int slot;                /* the keeper's file (OUT_REPLACE), or -1 */
	char msg[1024];
};

static struct {
	pid_t pid;
	int sock;
	char **paths;            /* the names it serves */
	size_t npaths;
} keeper = { .sock = -1 };

/* One message, with a descriptor (fd >= 0) passed along. 0 or -1. */
static int send_msg(int sock, const void *buf, size_t len, int fd)
{
	union {
		char b[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { (void *)buf, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof(u));
		mh.msg_control = u.b;
		mh.msg_controllen = sizeof(u.b);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

/* One message of exactly len bytes; *fd gets a descriptor passed along
 * (or -1). 0, or -1 (end of file, an error, a short message). */
static int recv_msg(int sock, void *buf, size_t len, int *fd)
{
	union {
		char b[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { buf, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b,
			     .msg_controllen = sizeof(u.b) };
	struct cmsghdr *c;
	ssize_t n;

	if (fd)
		*fd = -1;
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	for (c = n > 0 ? CMSG_FIRSTHDR(&mh) : NULL; c; c = CMSG_NXTHDR(&mh, c)) {
		int got;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		memcpy(&got, CMSG_DATA(c), sizeof(int));
		if (fd && *fd < 0)
			*fd = got;
		else
			close(got);
	}
	if (n != (ssize_t)len || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		if (fd && *fd >= 0) {
			close(*fd);
			*fd = -1;
		}
		return -1;
	}
	return 0;
}

/* One of the names the keeper was started for. */
static bool declared(const char *path)
{
	size_t i;

	for (i = 0; i < keeper.npaths; i++)
		if (!strcmp(keeper.paths[i], path))
			return true;
	return false;
}

/* In the caller: a keeper runs, and serves path. */
static bool keeper_serves(const char *path)
{
	return keeper.pid > 0 && declared(path);
}

/* One request, in the keeper; *fd: a descriptor to pass back, or -1. */
static void keeper_serve(struct outfile *slots, struct keeper_req *q, struct keeper_rep *r,
			 int *fd)
{
	struct outfile *o;
	int i;

	*fd = -1;
	r->slot = -1;
	q->path[sizeof(q->path) - 1] = '\0';
	switch (q->op) {
	case K_OPEN:
	case K_APPEND:
		if (!declared(q->path)) {
			snprintf(r->msg, sizeof(r->msg), "%.900s: not a file capaudit was asked to write",
				 q->path);
			r->err = EPERM;
			break;
		}
		if (q->op == K_APPEND) {
			*fd = append_here(q->path, r->msg, sizeof(r->msg));
			r->err = errno;
			break;
		}
		for (i = 0; i < KEEPER_SLOTS && slots[i].path; i++)
			;
		if (i == KEEPER_SLOTS) {
			snprintf(r->msg, sizeof(r->msg), "%.900s: too many files open at once", q->path);
			r->err = EMFILE;
			break;
		}
		o = &slots[i];
		memset(o, 0, sizeof(*o));
		o->fd = o->dirfd = o->kslot = -1;
		o->path = xstrdup(q->path);
		if (open_here(o, q->flags, r->msg, sizeof(r->msg))) {
			r->err = errno;
			outfile_discard(o);
			break;
		}
		r->kind = (int)o->kind;
		*fd = o->fd;
		if (o->kind == OUT_REPLACE)
			r->slot = i;
		break;
	case K_COMMIT:
	case K_DISCARD:
		if (q->slot < 0 || q->slot >= KEEPER_SLOTS || !slots[q->slot].path) {
			snprintf(r->msg, sizeof(r->msg), "the keeper holds no such file");
			r->err = EINVAL;
			break;
		}
		o = &slots[q->slot];
		if (q->op == K_DISCARD) {
			outfile_discard(o);
			return;
		}
		r->rc = put_in_place(o, r->msg, sizeof(r->msg));
		close_out(o);
		return;
	default:
		r->err = EINVAL;
		snprintf(r->msg, sizeof(r->msg), "the keeper got a request it does not know");
	}
	r->rc = *fd >= 0 ? 0 : -1;
}

/* The keeper's life: nothing of the caller's but the socket, only the
 * rights restrict_fn leaves, one request at a time until end of file. It
 * never outlives the caller (parent): killed when the caller ends, however
 * it ends, even if a request were to hold it (PR_SET_PDEATHSIG: the
 * kernel sends it as it gives the keeper a new parent, kernel/exit.c
 * forget_original_parent()). */
static void keeper_main(int sock, pid_t parent, int (*restrict_fn)(char *err, size_t errlen))
{
	struct outfile slots[KEEPER_SLOTS];
	struct keeper_req q;
	struct keeper_rep r;
	int i, fd, null;

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	if (sock > 3)
		syscall(SYS_close_range, 3U, (unsigned int)sock - 1, 0U);
	syscall(SYS_close_range, (unsigned int)sock + 1, ~0U, 0U);
	memset(slots, 0, sizeof(slots));
	memset(&r, 0, sizeof(r));
	if (restrict_fn && restrict_fn(r.msg, sizeof(r.msg)))
		r.rc = -1;
	/* after restrict_fn: a change of credentials may clear it */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);   /* the caller is gone already: nothing to serve */
	if (send_msg(sock, &r, sizeof(r), -1) || r.rc)
		_exit(1);
	while (!recv_msg(sock, &q, sizeof(q), NULL)) {
		memset(&r, 0, sizeof(r));
		keeper_serve(slots, &q, &r, &fd);
		if (send_msg(sock, &r, sizeof(r), fd))
			break;
		/* what was written through or appended to: nothing to keep */
		if (fd >= 0 && r.slot < 0) {
			for (i = 0; i < KEEPER_SLOTS; i++)
				if (slots[i].path && slots[i].fd == fd)
					close_out(&slots[i]);
			if (q.op == K_APPEND)
				close(fd);
		}
	}
	for (i = 0; i < KEEPER_SLOTS; i++)
		if (slots[i].path)
			outfile_discard(&slots[i]);
	_exit(0);
}

/* A request and its answer; *fd gets a descriptor passed back (or -1).
 * 0, or -1 when the keeper is gone. */
static int keeper_call(struct keeper_req *q, struct keeper_rep *r, int *fd)
{
	memset(r, 0, sizeof(*r));
	if (send_msg(keeper.sock, q, sizeof(*q), -1) || recv_msg(keeper.sock, r, sizeof(*r), fd))
		return -1;
	r->msg[sizeof(r->msg) - 1] = '\0';
	return 0;
}

/* Open (op K_OPEN) or append to (K_APPEND) path through the keeper: the
 * descriptor, or -1 with err (errno says why). */
static int keeper_open(int op, const char *path, unsigned int flags, int *kind, int *slot,
		       char *err, size_t errlen)
{
	struct keeper_req q = { .op = op, .slot = -1, .flags = flags };
	struct keeper_rep r;
	int fd;

	snprintf(q.path, sizeof(q.path), "%s", path);
	if (keeper_call(&q, &r, &fd)) {
		snprintf(err, errlen, "cannot create %s: the keeper process is gone", path);
		errno = EPIPE;
		return -1;
	}
	if (r.rc || fd < 0) {
		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "%s", r.msg);
		errno = r.err ? r.err : EIO;
		return -1;
	}
	*kind = r.kind;
	*slot = r.slot;
	return fd;
}

int outfile_keeper_start(const char *const *paths, size_t npaths,
			 int (*restrict_fn)(char *err, size_t errlen), char *err, size_t errlen)
{
	struct keeper_rep r;
	pid_t parent;
	int sv[2];
	size_t i;

	if (keeper.pid > 0)
		return 0;
	for (i = 0; i < npaths; i++) {
		if (!paths[i] || !paths[i][0] || !strcmp(paths[i], "-") || fd_name(paths[i]) ||
		    strlen(paths[i]) >= PATH_MAX)
			continue;
		keeper.paths = xrealloc(keeper.paths, (keeper.npaths + 1) * sizeof(char *));
		keeper.paths[keeper.npaths++] = xstrdup(paths[i]);
	}
	if (!keeper.npaths)
		return 0;   /* standard output, descriptors: nothing to keep */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		snprintf(err, errlen, "cannot start the process that writes %s: socketpair: %s",
			 keeper.paths[0], strerror(errno));
		outfile_keeper_stop();
		return -1;
	}
	fflush(NULL);
	parent = getpid();
	keeper.pid = fork();
	if (keeper.pid < 0) {
		snprintf(err, errlen, "cannot start the process that writes %s: fork: %s",
			 keeper.paths[0], strerror(errno));
		keeper.pid = 0;
		close(sv[0]);
		close(sv[1]);
		outfile_keeper_stop();
		return -1;
	}
	if (keeper.pid == 0) {
		close(sv[0]);
		keeper_main(sv[1], parent, restrict_fn);
	}
	close(sv[1]);
	keeper.sock = sv[0];
	if (recv_msg(keeper.sock, &r, sizeof(r), NULL) || r.rc) {
		r.msg[sizeof(r.msg) - 1] = '\0';
		snprintf(err, errlen, "cannot start the process that writes %s: %s", keeper.paths[0],
			 r.rc ? r.msg : "it exited");
		outfile_keeper_stop();
		return -1;
	}
	return 0;
}

pid_t outfile_keeper_pid(void)
{
	return keeper.pid > 0 ? keeper.pid : 0;
}

void outfile_keeper_stop(void)
{
	size_t i;

	if (keeper.sock >= 0)
		close(keeper.sock);   /* end of file: it drops what it holds and exits */
	keeper.sock = -1;
	if (keeper.pid > 0)
		waitpid(keeper.pid, NULL, 0);
	keeper.pid = 0;
	for (i = 0; i < keeper.npaths; i++)
		free(keeper.paths[i]);
	free(keeper.paths);
	keeper.paths = NULL;
	keeper.npaths = 0;
}

/* ---- open, commit, discard ------------------------------------------------ */

int outfile_open(struct outfile *o, const char *path, unsigned int flags, char *err,
		 size_t errlen)
{
	int rc, kind;

	memset(o, 0, sizeof(*o));
	o->fd = o->dirfd = o->kslot = -1;
	o->path = xstrdup(path);
	if (!strcmp(path, "-")) {
		o->kind = OUT_STDOUT;
		o->f = stdout;
		return 0;
	}
	if (keeper_serves(path)) {
		o->fd = keeper_open(K_OPEN, path, flags, &kind, &o->kslot, err, errlen);
		if (o->fd < 0)
			goto fail;
		o->kind = (enum outfile_kind)kind;
	} else if (open_here(o, flags, err, errlen)) {
		goto fail;
	}
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

int outfile_open_append(const char *path, char *err, size_t errlen)
{
	int kind, slot;

	if (keeper_serves(path))
		return keeper_open(K_APPEND, path, 0, &kind, &slot, err, errlen);
	return append_here(path, err, errlen);
}

static void close_out(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	else if (!o->f && o->fd >= 0)
		close(o->fd);
	o->f = NULL;
	o->fd = -1;
	if (o->dirfd >= 0)
		close(o->dirfd);
	o->dirfd = -1;
	o->kslot = -1;
	free(o->path);
	free(o->target);
	free(o->base);
	free(o->tmpname);
	o->path = o->target = o->base = o->tmpname = NULL;
}

/*
 * Flush and put the file in place. 0, or -1 with one line in msg saying
 * what failed and, when the data was kept, where it is. The outfile is
 * closed either way.
 */
static int outfile_commit(struct outfile *o, char *msg, size_t msglen)
{
	int rc = 0;

	msg[0] = '\0';
	if (fflush(o->f) || ferror(o->f) || (o->kind == OUT_REPLACE && fsync(o->fd))) {
		snprintf(msg, msglen, "cannot write %s: %s", o->path, strerror(errno));
		outfile_discard(o);
		return -1;
	}
	if (o->kind == OUT_REPLACE && o->kslot >= 0) {
		struct keeper_req q = { .op = K_COMMIT, .slot = o->kslot };
		struct keeper_rep r;

		if (keeper_call(&q, &r, NULL)) {
			snprintf(msg, msglen, "cannot write %s: the keeper process is gone", o->path);
			rc = -1;
		} else if (r.rc) {
			snprintf(msg, msglen, "%s", r.msg);
			rc = -1;
		}
		o->kslot = -1;
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
	if (o->kslot >= 0 && keeper.sock >= 0) {
		struct keeper_req q = { .op = K_DISCARD, .slot = o->kslot };
		struct keeper_rep r;

		(void)keeper_call(&q, &r, NULL);
	} else if (o->tmpname && o->dirfd >= 0) {
		unlinkat(o->dirfd, o->tmpname, 0);
	}
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

void outfile_advice(const char *path, int e, const char *opt, char *buf, size_t len)
{
	char *dir = dir_of(path);

	switch (e) {
	case EACCES:
	case EPERM:
		snprintf(buf, len, "; uid %u%s may not create files in %s: give %s a file in a "
			 "directory it may write, or make %s writable for it", (unsigned)geteuid(),
			 geteuid() ? "" : " without CAP_DAC_OVERRIDE", dir, opt, dir);
		break;
	case EROFS:
		snprintf(buf, len, "; %s is on a read-only file system: give %s a file on a "
			 "writable one", dir, opt);
		break;
	case ENOENT:
	case ENOTDIR:
		snprintf(buf, len, "; %s is not a directory: create it first, or give %s a file in "
			 "an existing one", dir, opt);
		break;
	case ENOSPC:
	case EDQUOT:
		snprintf(buf, len, "; %s's file system is full: free space there, or give %s a file "
			 "elsewhere", dir, opt);
		break;
	default:
		buf[0] = '\0';
	}
	free(dir);
}
