/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which syscalls led to a row of checks, and how often: the same list in
 * a report's capability rows and in the suggester's call sites and
 * denials. Pure C.
 */
#ifndef CA_SYSCOUNT_H
#define CA_SYSCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/objset.h"

struct sys_count {
	int nr;                  /* -1: not in a syscall */
	const char *name;        /* its name (struct rec_check's sysname); NULL:
				  * none, or not known */
	uint64_t count;
	struct obj_set objects;  /* what its checks were about, where the list's
				  * owner adds them (a suggestion's sites and
				  * denials: check's findings by syscall) */
};

/* Add count checks made in syscall nr, named name, to the list *v (n
 * entries, room for *cap; grown as needed). A syscall is its name where
 * one is known (records of several architectures number them
 * differently), else its number. Counts saturate. Returns its entry. */
struct sys_count *sys_count_add(struct sys_count **v, size_t *n, size_t *cap, int nr, const char *name,
		   uint64_t count);
/* The order they are shown in: most checks first, then by number. */
void sys_count_sort(struct sys_count *v, size_t n);

#endif
