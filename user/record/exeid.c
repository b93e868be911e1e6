// SPDX-License-Identifier: GPL-2.0
/* Executables' build ids, by the inode the kernel ran (exeid.h). */
#include "record/exeid.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/usym.h"
#include "lib/util.h"

struct probe {
	const struct exe_ids *c;
	uint64_t ino;
	uint32_t gen, dev;
};

static bool file_eq(const void *ctx, size_t pos)
{
	const struct probe *q = ctx;
	const struct exe_file *f = &q->c->v[pos];

	return f->ino == q->ino && f->gen == q->gen && f->dev == q->dev;
}

/* path opened, if it is the inode (dev, ino); else -1 */
static int open_inode(const char *path, uint32_t dev, uint64_t ino)
{
	struct stat st;
	int fd;

	if (!path || !*path)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	/* the kernel's dev_t is major << 20 | minor; st_dev encodes them
	 * its own way */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_ino != ino ||
	    major(st.st_dev) != dev >> 20 || minor(st.st_dev) != (dev & 0xfffff)) {
		close(fd);
		return -1;
	}
	return fd;
}

bool exe_path_is(const char *path, uint32_t dev, uint64_t ino)
{
	struct stat st;

	return ino && !stat(path, &st) && S_ISREG(st.st_mode) && st.st_ino == ino &&
	       major(st.st_dev) == dev >> 20 && minor(st.st_dev) == (dev & 0xfffff);
}

/* The entry of the inode (dev, ino, gen), added (nothing known yet) if new. */
static struct exe_file *file_of(struct exe_ids *c, uint32_t dev, uint64_t ino, uint32_t gen)
{
	struct probe q = { c, ino, gen, dev };
	uint64_t h = hash_u64(hash_u64(0xe1d, ino), (uint64_t)gen << 32 | dev);
	long at = hindex_find(&c->idx, h, file_eq, &q);
	struct exe_file *f;

	if (at >= 0)
		return &c->v[at];
	grow_array((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v));
	f = &c->v[c->n];
	memset(f, 0, sizeof(*f));
	f->ino = ino;
	f->gen = gen;
	f->dev = dev;
	hindex_add(&c->idx, h, c->n);
	return &c->v[c->n++];
}

const char *exe_build_id(struct exe_ids *c, const char *path, uint32_t tgid, uint32_t dev,
			 uint64_t ino, uint32_t gen)
{
	struct exe_file *f;
	char hex[129], proc[64];
	int fd;

	if (!ino)
		return NULL;
	f = file_of(c, dev, ino, gen);
	if (f->read)
		return f->build_id;
	fd = open_inode(path, dev, ino);
	if (fd < 0) {
		/* another mount namespace, or replaced: the process's own
		 * link, while it lives and we may follow it */
		snprintf(proc, sizeof(proc), "/proc/%u/exe", tgid);
		fd = open_inode(proc, dev, ino);
	}
	if (fd < 0) {
		c->unread++;
		return NULL;
	}
	f->read = true;
	f->build_id = usym_build_id_fd(fd, hex, sizeof(hex)) ? NULL : xstrdup(hex);
	close(fd);
	return f->build_id;
}

void exe_name_note(struct exe_ids *c, const char *path, uint32_t dev, uint64_t ino, uint32_t gen)
{
	struct exe_file *f;

	if (!ino || !path)
		return;
	f = file_of(c, dev, ino, gen);
	if (!f->path)
		f->path = xstrdup(path);
}

const char *exe_name_known(struct exe_ids *c, uint32_t dev, uint64_t ino, uint32_t gen)
{
	return ino ? file_of(c, dev, ino, gen)->path : NULL;
}

void exe_ids_free(struct exe_ids *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].build_id);
		free(c->v[i].path);
	}
	free(c->v);
	hindex_free(&c->idx);
	c->v = NULL;
	c->n = c->cap = 0;
}
