// SPDX-License-Identifier: GPL-2.0
#include "record/procset.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

enum { EMPTY, IN, REMOVED };

static size_t home(const struct procset *s, uint32_t tgid, uint64_t start)
{
	uint64_t h = ((uint64_t)tgid << 32) ^ start;

	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return (size_t)(h ^ (h >> 31)) & (s->cap - 1);
}

/* The slot holding (tgid, start), or NULL. */
static struct procset_entry *find(const struct procset *s, uint32_t tgid, uint64_t start)
{
	size_t i;

	if (!s->cap)
		return NULL;
	for (i = home(s, tgid, start); s->e[i].state != EMPTY; i = (i + 1) & (s->cap - 1))
		if (s->e[i].state == IN && s->e[i].tgid == tgid && s->e[i].start == start)
			return &s->e[i];
	return NULL;
}

static void insert(struct procset *s, uint32_t tgid, uint64_t start)
{
	size_t i = home(s, tgid, start);

	while (s->e[i].state == IN)
		i = (i + 1) & (s->cap - 1);
	if (s->e[i].state == EMPTY)
		s->used++;
	s->e[i].state = IN;
	s->e[i].tgid = tgid;
	s->e[i].start = start;
	s->n++;
}

/* Rebuild without removed slots, at twice the size when over half in use. */
static void rebuild(struct procset *s)
{
	struct procset_entry *old = s->e;
	size_t oldcap = s->cap, i;

	s->cap = !s->cap ? 64 : (s->n + 1) * 2 > s->cap / 2 ? s->cap * 2 : s->cap;
	s->e = xcalloc(s->cap, sizeof(*s->e));
	s->n = s->used = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].state == IN)
			insert(s, old[i].tgid, old[i].start);
	free(old);
}

bool procset_add(struct procset *s, uint32_t tgid, uint64_t start)
{
	if (find(s, tgid, start))
		return false;
	if ((s->used + 1) * 2 > s->cap)
		rebuild(s);
	insert(s, tgid, start);
	return true;
}

bool procset_del(struct procset *s, uint32_t tgid, uint64_t start)
{
	struct procset_entry *e = find(s, tgid, start);

	if (!e)
		return false;
	e->state = REMOVED;
	s->n--;
	return true;
}

bool procset_has(const struct procset *s, uint32_t tgid, uint64_t start)
{
	return find(s, tgid, start) != NULL;
}

void procset_filter(struct procset *s, bool (*keep)(void *ctx, uint32_t tgid, uint64_t start),
		    void *ctx)
{
	size_t i;

	for (i = 0; i < s->cap; i++) {
		if (s->e[i].state == IN && !keep(ctx, s->e[i].tgid, s->e[i].start)) {
			s->e[i].state = REMOVED;
			s->n--;
		}
	}
}

void procset_foreach(const struct procset *s, void (*fn)(void *ctx, uint32_t tgid,
							  uint64_t start), void *ctx)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		if (s->e[i].state == IN)
			fn(ctx, s->e[i].tgid, s->e[i].start);
}

void procset_free(struct procset *s)
{
	free(s->e);
	memset(s, 0, sizeof(*s));
}
