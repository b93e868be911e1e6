// SPDX-License-Identifier: GPL-2.0
/*
 * A check line's objects (format version 7, recfile.h struct rec_object):
 * freeing them, and the union of two lines' objects when two check lines
 * of the same identity become one (model.c record_dedup_checks()).
 */
#include <stdlib.h>
#include <string.h>

#include "recfile/recfile.h"
#include "lib/util.h"

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

bool rec_object_same(const struct rec_object *a, const struct rec_object *b)
{
	return a->kind == b->kind && a->pid == b->pid && a->num == b->num &&
	       same_str(a->path, b->path) && same_str(a->name, b->name) &&
	       same_str(a->detail, b->detail);
}

void rec_object_clear(struct rec_object *o)
{
	free(o->path);
	free(o->name);
	free(o->detail);
	o->path = o->name = o->detail = NULL;
}

void rec_check_objects_free(struct rec_check *c)
{
	size_t i;

	for (i = 0; i < c->nobjects; i++)
		rec_object_clear(&c->objects[i]);
	free(c->objects);
	c->objects = NULL;
	c->nobjects = 0;
}

void rec_check_objects_add(struct rec_check *c, struct rec_object *o)
{
	size_t i;

	for (i = 0; i < c->nobjects; i++) {
		if (rec_object_same(&c->objects[i], o)) {
			c->objects[i].count = sat_add(c->objects[i].count, o->count);
			/* what the hook read beats what was read later */
			if (c->objects[i].late && !o->late) {
				c->objects[i].uid = o->uid;
				c->objects[i].gid = o->gid;
				c->objects[i].mode = o->mode;
				c->objects[i].late = false;
			}
			rec_object_clear(o);
			return;
		}
	}
	if (c->nobjects >= REC_MAX_OBJECTS) {
		c->objects_more = sat_add(c->objects_more, o->count);
		rec_object_clear(o);
		return;
	}
	c->objects = xrealloc(c->objects, (c->nobjects + 1) * sizeof(*c->objects));
	c->objects[c->nobjects++] = *o;
	memset(o, 0, sizeof(*o));
}

void rec_check_objects_union(struct rec_check *into, struct rec_check *from)
{
	size_t i;

	into->objects_more = sat_add(into->objects_more, from->objects_more);
	for (i = 0; i < from->nobjects; i++)
		rec_check_objects_add(into, &from->objects[i]);
	free(from->objects);
	from->objects = NULL;
	from->nobjects = 0;
	from->objects_more = 0;
}
