// SPDX-License-Identifier: GPL-2.0
/*
 * A snapshot of the processes (tasks_iter.h) once taken: sorted, searched,
 * walked down, freed. No libbpf here (tasks_iter.c takes the snapshot), so
 * that the unit tests can link it with the record layer's process table.
 */
#include <stdlib.h>
#include <string.h>

#include "tracer/tasks_iter.h"
#include "lib/util.h"

static int cmp_tgid(const void *a, const void *b)
{
	const struct ca_task *x = a, *y = b;

	return x->tgid < y->tgid ? -1 : x->tgid > y->tgid;
}

void tasks_sort(struct task_snap *s)
{
	sort_array(s->t, s->n, sizeof(*s->t), cmp_tgid);
}

const struct ca_task *tasks_find(const struct task_snap *s, uint32_t tgid)
{
	struct ca_task key = { .tgid = tgid };

	return s->n ? bsearch(&key, s->t, s->n, sizeof(*s->t), cmp_tgid) : NULL;
}

/* Order by parent identity, for finding children in O(log n). */
static int cmp_parent(const void *a, const void *b)
{
	const struct ca_task *x = *(const struct ca_task *const *)a;
	const struct ca_task *y = *(const struct ca_task *const *)b;

	if (x->ppid != y->ppid)
		return x->ppid < y->ppid ? -1 : 1;
	return x->parent_start < y->parent_start ? -1 : x->parent_start > y->parent_start;
}

size_t tasks_descendants(const struct task_snap *s, const struct ca_task *const *roots,
			 size_t nroots, const struct ca_task ***out)
{
	/* breadth first from the roots; a task is its parent's child when its
	 * parent identity is the parent's (a pid given out again is not) */
	const struct ca_task **q = xcalloc(nroots + s->n + 1, sizeof(*q));
	const struct ca_task **kids = xcalloc(s->n + 1, sizeof(*kids));
	size_t head = 0, nq = 0, i;

	for (i = 0; i < s->n; i++)
		kids[i] = &s->t[i];
	sort_array(kids, s->n, sizeof(*kids), cmp_parent);
	for (i = 0; i < nroots; i++)
		q[nq++] = roots[i];
	while (head < nq) {
		const struct ca_task *p = q[head++];
		struct ca_task key = { .ppid = p->tgid, .parent_start = p->pstart };
		size_t lo = 0, hi = s->n;
		const struct ca_task *kp = &key;

		while (lo < hi) {   /* the first child of p */
			size_t mid = lo + (hi - lo) / 2;

			if (cmp_parent(&kids[mid], &kp) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* each task has one parent: it is queued at most once */
		for (; lo < s->n && !cmp_parent(&kids[lo], &kp); lo++)
			if (nq < nroots + s->n)
				q[nq++] = kids[lo];
	}
	free(kids);
	/* the roots are not their own descendants */
	memmove(q, q + nroots, (nq - nroots) * sizeof(*q));
	*out = q;
	return nq - nroots;
}

void tasks_free(struct task_snap *s)
{
	free(s->t);
	memset(s, 0, sizeof(*s));
}
