// SPDX-License-Identifier: GPL-2.0
#include "analyze/syscount.h"

#include <string.h>

#include "lib/util.h"

static bool same_sys(const struct sys_count *s, int nr, const char *name)
{
	if (s->name && name)
		return !strcmp(s->name, name);
	return !s->name && !name && s->nr == nr;
}

struct sys_count *sys_count_add(struct sys_count **v, size_t *n, size_t *cap, int nr,
				const char *name, uint64_t count)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (same_sys(&(*v)[i], nr, name)) {
			(*v)[i].count = sat_add((*v)[i].count, count);
			return &(*v)[i];
		}
	}
	grow_array((void **)v, cap, *n + 1, sizeof(**v));
	(*v)[*n] = (struct sys_count){ nr, name, count, { .n = 0 } };
	return &(*v)[(*n)++];
}

static int cmp_sys(const void *a, const void *b)
{
	const struct sys_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

void sys_count_sort(struct sys_count *v, size_t n)
{
	sort_array(v, n, sizeof(*v), cmp_sys);
}
