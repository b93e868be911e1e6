/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space call sites (record --user-stacks): which frame of a user
 * stack stands for the program's own code, and how a frame reads. Pure C,
 * shared by report, check and their outputs.
 */
#ifndef CA_USITE_H
#define CA_USITE_H

#include <stdbool.h>
#include <stddef.h>

#include "recfile/recfile.h"

/*
 * The frame that stands for the program's own code: the first one in the
 * process's executable (exe, as the record names it); else the first with
 * a source line outside the C library, the loader and the language
 * runtimes (libstdc++, libpython...); else the first with an object
 * outside them; else the first below the top whose file was not found
 * (deleted); else the top one; -1 for no stack. Frames above it (index <
 * result) are the libraries it called through (libc's wrapper).
 */
int usite_own_frame(const struct rec_ustack *us, const char *exe);

/* The same place: source and line, else object (or build id) and offset. */
bool usite_same(const struct rec_uframe *a, const struct rec_uframe *b);

/* "/src/privops.c:38 (do_chown)", "do_chown+0x19 in /bin/privops",
 * "/bin/privops+0x12b9", "build id 607ffdeb..+0x12b9", "address 0x7f.." */
void usite_format(const struct rec_uframe *f, char *buf, size_t len);

/* "chown in libc.so.6": a library frame, briefly. */
void usite_format_short(const struct rec_uframe *f, char *buf, size_t len);

/* Source path relative to root when it lies under it ("examples/privops.c"),
 * else as recorded. */
const char *usite_relative(const char *source, const char *root);

#endif
