/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build id of the executable an exec event names. The kernel gives the
 * file's inode (device, number, generation: struct ca_event); the file is
 * opened by its path, or through /proc/PID/exe while the process lives, and
 * read only if it is that inode (a path may name another file by now: an
 * upgrade, another mount namespace). Each inode is read once.
 * The same table keeps the name each inode was exec'd by.
 */
#ifndef CA_RECORD_EXEID_H
#define CA_RECORD_EXEID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/hindex.h"

struct exe_file {
	uint64_t ino;
	uint32_t gen, dev;        /* dev: the kernel's dev_t (major << 20 | minor) */
	bool read;                /* build_id is known */
	char *build_id;           /* lowercase hex; NULL: the file has none */
	char *path;               /* the name an exec of it was given; NULL: none yet */
};

struct exe_ids {
	struct exe_file *v;
	size_t n, cap;
	struct hindex idx;
	uint64_t unread;          /* execs whose file could not be opened as that inode */
};

/* The build id of the inode (dev, ino, gen) that tgid exec'd from path, or
 * NULL (no build id, or the file could not be read: tried again next time).
 * The string lives as long as the cache. */
const char *exe_build_id(struct exe_ids *c, const char *path, uint32_t tgid, uint32_t dev,
			 uint64_t ino, uint32_t gen);
void exe_ids_free(struct exe_ids *c);
/* The executable's name, as an exec of the inode resolved it (its first),
 * kept for an image of the same file whose exec event was lost; NULL if
 * none was seen. */
void exe_name_note(struct exe_ids *c, const char *path, uint32_t dev, uint64_t ino, uint32_t gen);
const char *exe_name_known(struct exe_ids *c, uint32_t dev, uint64_t ino, uint32_t gen);
/* Whether path names that very inode (the kernel's dev_t, number). */
bool exe_path_is(const char *path, uint32_t dev, uint64_t ino);

#endif
