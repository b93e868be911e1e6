/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the checks of one row were about (record format 7, struct
 * rec_object): the union of the objects of every check aggregated into a
 * report's call site, a suggestion's call site or denial, a check
 * finding, ... Bounded: the first OBJSET_MAX distinct objects are kept
 * with their counts summed, the checks about any other are counted in
 * more (with the checks' own objects_more). Pure C, no allocation: the
 * objects are the record's (borrowed), so a set lives as long as its
 * record; obj_set_own() copies one for a result that outlives it.
 */
#ifndef CA_ANALYZE_OBJSET_H
#define CA_ANALYZE_OBJSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "recfile/recfile.h"

#define OBJSET_MAX 8

struct obj_entry {
	const struct rec_object *o;   /* borrowed (or owned: obj_set_own) */
	uint64_t count;               /* checks about it, summed */
};

struct obj_set {
	struct obj_entry e[OBJSET_MAX];
	size_t n;
	uint64_t more;       /* checks about objects not kept */
	bool owned;          /* the objects are the set's copies (obj_set_own(),
			      * or an empty set made so): it outlives the record */
};

/* Whether a and b name the same thing: kind and what names it (path,
 * name, detail, pid, number); owner and mode do not (read once per key). */
bool obj_same(const struct rec_object *a, const struct rec_object *b);
/* One object seen count times. */
void obj_set_add(struct obj_set *s, const struct rec_object *o, uint64_t count);
/* Every object of a check, and its objects_more. */
void obj_set_add_check(struct obj_set *s, const struct rec_check *c);
/* src's objects and more into dst (src's objects must outlive dst unless
 * dst owns: then they are copied). */
void obj_set_merge(struct obj_set *dst, const struct obj_set *src);
/* Whether the set says anything (an old record's checks: never). */
static inline bool obj_set_any(const struct obj_set *s)
{
	return s->n || s->more;
}
/* dst = a copy of src that owns its objects, and copies those added
 * later (free with obj_set_release). */
void obj_set_own(struct obj_set *dst, const struct obj_set *src);
void obj_set_release(struct obj_set *s);

#endif
