/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output file that is complete or absent, and never replaces what it
 * should not (record -o, monitor's checkpoints and metrics, check --update):
 *   "-"                  standard output
 *   a device, a FIFO, /dev/stdout, /proc/self/fd/N
 *                        written through, never replaced (a FIFO must have
 *                        a reader when it is opened; another user's FIFO
 *                        in a sticky directory others may write is
 *                        refused: fs.protected_fifos' rule, whatever the
 *                        sysctl); a device or FIFO is refused where
 *                        OUTFILE_REGULAR asks for a regular file
 *   a regular file, or a name not yet taken
 *                        written to an unnamed file beside the target (a
 *                        symlink's target, not the link) and put in place
 *                        only when complete: linked if the name was free,
 *                        renamed over the file if it is still the one that
 *                        was there at open; otherwise (another writer) the
 *                        data stays under a name of its own, and so when
 *                        the final step fails: the message says where.
 *                        The directory is the one found at open (held
 *                        open), whatever its path names by then.
 *   a directory, a socket, a block device, a dangling symlink
 *                        refused at open, before anything runs
 *
 * Owner and mode: a replaced file keeps its mode, and its owner where the
 * writer may give it (OUTFILE_KEEP_OWNER: or fails). A new file is 0644
 * (less the umask) and belongs to its creator, except that one root creates
 * under sudo (real uid 0, SUDO_UID set) belongs to the user who ran sudo
 * (SUDO_UID, SUDO_GID): `sudo capaudit record -o caps.jsonl` in a checkout
 * leaves a file its owner can replace.
 *
 * The keeper: a caller about to drop its rights over files (record and
 * monitor keep only CAP_BPF and CAP_PERFMON, check --update none) starts
 * it first. It is a process forked with those rights, reduced by the
 * caller's restrict() to what creating and replacing files takes; from
 * then on outfile_open() and outfile_open_append() of the names given to
 * outfile_keeper_start() ask it: it opens or creates the file, hands the
 * descriptor over, and at commit puts the file in place, as often as the
 * caller asks (a monitor's checkpoint every interval). It never sees the
 * data, serves only those names (a caller taken over through its input
 * could otherwise have it replace any file), holds none of the caller's
 * descriptors, never opens anything in a way that waits (O_NONBLOCK; a
 * FIFO only where write-through is asked for), and exits when the caller
 * does (killed if it must be: PR_SET_PDEATHSIG).
 */
#ifndef CA_OUTFILE_H
#define CA_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

enum outfile_kind { OUT_STDOUT, OUT_THROUGH, OUT_REPLACE };

/* outfile_open() flags */
#define OUTFILE_KEEP_OWNER 0x1   /* a replaced file must keep its owner, or the open fails */
/* written again and again by one process (a monitor's checkpoints and
 * metrics): the name is its own, so at commit it replaces whatever is at
 * the name then (a copy another process renamed there: never through a
 * symlink, which is replaced itself), and a commit that fails leaves
 * nothing beside it (the next one brings the data again) */
#define OUTFILE_REWRITTEN  0x2
/* only a regular file (or a free name) will do: a FIFO, a device or a
 * socket at the name is refused before it is opened (a FIFO can keep its
 * writer waiting as long as its owner likes; a monitor's files are
 * written again and again). OUTFILE_REWRITTEN implies it, and
 * outfile_open_append() always applies it. */
#define OUTFILE_REGULAR    0x4

struct outfile {
	enum outfile_kind kind;
	char *path;              /* as given, for messages */
	char *target;            /* OUT_REPLACE: the file put in place */
	FILE *f;                 /* what to write to */
	int fd;
	int dirfd;               /* OUT_REPLACE: the target's directory */
	char *base;              /* the target's name in it */
	char *tmpname;           /* a named temporary file there (no O_TMPFILE), or NULL */
	bool existed;            /* the target existed at open: its identity */
	dev_t dev;
	ino_t ino;
	int kslot;               /* the keeper's file, or -1 */
	unsigned int flags;      /* outfile_open()'s */
};

/* 0, or -1 with one line "PATH: why" in err (nothing is left behind; errno
 * says why). */
int outfile_open(struct outfile *o, const char *path, unsigned int flags, char *err,
		 size_t errlen);
/*
 * The end of every write: write_rc is what the writer returned (non-zero:
 * it failed, errno says why), then the file is discarded, or committed.
 * 0, or -1 with one line in msg ("cannot write PATH: why", or what putting
 * the file in place said).
 */
int outfile_finish(struct outfile *o, int write_rc, char *msg, size_t msglen);
/* Drop an unfinished output: nothing of it stays. */
void outfile_discard(struct outfile *o);

/*
 * A regular file at path (not through a symlink) gets a second name beside
 * it, BASE.prev-YYYYMMDD-HHMMSS from its modification time (and -N when
 * that is taken): a daemon restarted by its unit keeps what its last run
 * wrote before the first checkpoint replaces it. 1 with the new name in
 * kept, 0 when there is no such file, -1 with err.
 */
int outfile_keep_previous(const char *path, char *kept, size_t keptlen, char *err,
			  size_t errlen);

/* A regular file to append to (created when missing, with the owner rules
 * above; a FIFO, a device or a socket at the name is refused, as with
 * OUTFILE_REGULAR; the names of the caller's descriptors are written
 * through): a descriptor, or -1 with "PATH: why" in err. */
int outfile_open_append(const char *path, char *err, size_t errlen);

/*
 * What to do when creating path failed with errno e: one clause for the
 * end of the message ("; make DIR writable for uid 0 or give OPT a file in
 * a directory it may write"), or "" when there is no advice.
 */
void outfile_advice(const char *path, int e, const char *opt, char *buf, size_t len);

/*
 * Start the keeper for the names in paths (NULL entries, "-" and names of
 * the caller's own descriptors are left out: nothing to keep for them).
 * restrict_fn runs in the keeper before it serves (0, or -1 with err).
 * 0, or -1 with err (no keeper).
 */
int outfile_keeper_start(const char *const *paths, size_t npaths,
			 int (*restrict_fn)(char *err, size_t errlen), char *err, size_t errlen);
/* Its pid, or 0 without one. */
pid_t outfile_keeper_pid(void);
/* End it (files it still holds unfinished are dropped). */
void outfile_keeper_stop(void);

#endif
