/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening a record or a baseline to read (report -i, check, --baseline):
 * "-" is standard input; a FIFO is waited on for a writer for at most
 * INFILE_FIFO_WAIT_S seconds (never forever); a terminal, a directory, a
 * socket or a block device is refused with one line.
 */
#ifndef CA_INFILE_H
#define CA_INFILE_H

#include <stddef.h>
#include <stdio.h>

#define INFILE_FIFO_WAIT_S 10

/* path's name in messages: "standard input" for "-". */
const char *infile_name(const char *path);
/* The stream, or NULL with "PATH: why" in err and errno set (ENOENT when
 * there is no such file). */
FILE *infile_open(const char *path, char *err, size_t errlen);
/* The first bytes of f, up to cap (fewer only at the end of the file),
 * into head (*len: how many), to tell what kind of file it is before it
 * is parsed; and a stream that reads them again, then the rest of f, in
 * f's place. That stream is closed with fclose(); f stays open (its owner
 * closes it). NULL when f cannot be read (errno set), or on no memory. */
FILE *infile_peek(FILE *f, char *head, size_t cap, size_t *len);
/* Close what infile_open() gave (standard input stays open). */
void infile_close(FILE *f);

#endif
