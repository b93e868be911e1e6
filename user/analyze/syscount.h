/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which syscalls led to a row of checks, and how often: the same list in
 * a report's capability rows and in the suggester's call sites and
 * denials. Pure C.
 */
#ifndef CA_SYSCOUNT_H
#define CA_SYSCOUNT_H

#include <stddef.h>
#include <stdint.h>

struct sys_count {
	int nr;                  /* -1: not in a syscall */
	uint64_t count;
};

/* Add count checks made in syscall nr to the list *v (n entries, room for
 * *cap; grown as needed). Counts saturate. */
void sys_count_add(struct sys_count **v, size_t *n, size_t *cap, int nr, uint64_t count);
/* The order they are shown in: most checks first, then by number. */
void sys_count_sort(struct sys_count *v, size_t n);

#endif
