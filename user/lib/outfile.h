/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output file that is complete or absent, and never replaces what it
 * should not (record -o, check --update):
 *   "-"                  standard output
 *   a device, a FIFO, /dev/stdout, /proc/self/fd/N
 *                        written through, never replaced (a FIFO must have
 *                        a reader when it is opened)
 *   a regular file, or a name not yet taken
 *                        written to an unnamed file beside the target (a
 *                        symlink's target, not the link) and put in place
 *                        only when complete: linked if the name was free,
 *                        renamed over the file if it is still the one that
 *                        was there at open; otherwise (another writer) the
 *                        data stays under a name of its own, and so when
 *                        the final step fails: the message says where
 *   a directory, a socket, a block device, a dangling symlink
 *                        refused at open, before anything runs
 */
#ifndef CA_OUTFILE_H
#define CA_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

enum outfile_kind { OUT_STDOUT, OUT_THROUGH, OUT_REPLACE };

/* outfile_open() flags */
#define OUTFILE_KEEP_OWNER 0x1   /* a replaced file keeps its owner and mode */
#define OUTFILE_KEEPER     0x2   /* the caller drops its privileges before it
				  * commits: a child keeps them to put the file
				  * in place (it never sees the data) */

struct outfile {
	enum outfile_kind kind;
	char *path;              /* as given, for messages */
	char *target;            /* OUT_REPLACE: the file put in place */
	FILE *f;                 /* what to write to */
	int fd;
	char *tmpname;           /* a named temporary file (no O_TMPFILE), or NULL */
	bool existed;            /* the target existed at open: its identity */
	dev_t dev;
	ino_t ino;
	pid_t keeper;            /* OUTFILE_KEEPER: the child, or 0 */
	int to_keeper, from_keeper;
};

/* 0, or -1 with one line "PATH: why" in err (nothing is left behind). */
int outfile_open(struct outfile *o, const char *path, unsigned int flags, char *err,
		 size_t errlen);
/*
 * Flush and put the file in place. 0, or -1 with one line in msg saying
 * what failed and, when the data was kept, where it is. The outfile is
 * closed either way.
 */
int outfile_commit(struct outfile *o, char *msg, size_t msglen);
/*
 * The end of every write: write_rc is what the writer returned (non-zero:
 * it failed, errno says why), then the file is discarded, or committed.
 * 0, or -1 with one line in msg ("cannot write PATH: why", or commit's).
 */
int outfile_finish(struct outfile *o, int write_rc, char *msg, size_t msglen);
/* Drop an unfinished output: nothing of it stays. */
void outfile_discard(struct outfile *o);

#endif
