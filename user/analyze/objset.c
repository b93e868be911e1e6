// SPDX-License-Identifier: GPL-2.0
#include "analyze/objset.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

bool obj_same(const struct rec_object *a, const struct rec_object *b)
{
	return rec_object_same(a, b);   /* the record's own rule (recfile/objects.c) */
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A copy of o that the set owns. */
static const struct rec_object *object_copy(const struct rec_object *o)
{
	struct rec_object *c = xcalloc(1, sizeof(*c));

	*c = *o;
	c->path = dup_or_null(o->path);
	c->name = dup_or_null(o->name);
	c->detail = dup_or_null(o->detail);
	return c;
}

void obj_set_add(struct obj_set *s, const struct rec_object *o, uint64_t count)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (obj_same(s->e[i].o, o)) {
			s->e[i].count = sat_add(s->e[i].count, count);
			return;
		}
	if (s->n == OBJSET_MAX) {
		s->more = sat_add(s->more, count);
		return;
	}
	s->e[s->n++] = (struct obj_entry){ s->owned ? object_copy(o) : o, count };
}

void obj_set_add_check(struct obj_set *s, const struct rec_check *c)
{
	size_t i;

	for (i = 0; i < c->nobjects; i++)
		obj_set_add(s, &c->objects[i], c->objects[i].count);
	s->more = sat_add(s->more, c->objects_more);
}

void obj_set_merge(struct obj_set *dst, const struct obj_set *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		obj_set_add(dst, src->e[i].o, src->e[i].count);
	dst->more = sat_add(dst->more, src->more);
}

void obj_set_own(struct obj_set *dst, const struct obj_set *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->owned = true;
	obj_set_merge(dst, src);
}

void obj_set_release(struct obj_set *s)
{
	size_t i;

	if (!s->owned)
		return;
	for (i = 0; i < s->n; i++) {
		struct rec_object *o = (struct rec_object *)s->e[i].o;

		free(o->path);
		free(o->name);
		free(o->detail);
		free(o);
	}
	memset(s, 0, sizeof(*s));
}
