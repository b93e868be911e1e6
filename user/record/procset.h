/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A set of processes by identity (tgid, start time: bpf/capaudit.h): the
 * processes `record -p` still follows, so that it stops when the last one
 * has exited, and never waits on a process that only has a reused pid.
 */
#ifndef CA_PROCSET_H
#define CA_PROCSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct procset_entry {
	uint32_t tgid;
	uint8_t state;           /* 0 empty, 1 in the set, 2 removed */
	uint64_t start;
};

struct procset {
	struct procset_entry *e;
	size_t cap;              /* power of two */
	size_t n;                /* in the set */
	size_t used;             /* in the set or removed (probe chains) */
};

/* true if it was not in the set */
bool procset_add(struct procset *s, uint32_t tgid, uint64_t start);
/* true if it was in the set */
bool procset_del(struct procset *s, uint32_t tgid, uint64_t start);
bool procset_has(const struct procset *s, uint32_t tgid, uint64_t start);
/* Remove every member for which keep() says false. */
void procset_filter(struct procset *s, bool (*keep)(void *ctx, uint32_t tgid, uint64_t start),
		    void *ctx);
/* Call fn for every member (fn must not change the set). */
void procset_foreach(const struct procset *s, void (*fn)(void *ctx, uint32_t tgid,
							  uint64_t start), void *ctx);
void procset_free(struct procset *s);

#endif
