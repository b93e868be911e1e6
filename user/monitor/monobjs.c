// SPDX-License-Identifier: GPL-2.0
/*
 * What the monitor's checks were about (issue 44): the objects the hook
 * sends (CA_EV_OBJECT) kept on the row of their key, bounded for a run of
 * months. A row keeps its first MON_OBJ_PER_ROW distinct objects (as the
 * kernel keeps 4 fingerprints per key), the monitor at most MON_OBJ_MAX in
 * all; the checks about any other are counted (objects_more), never
 * dropped silently. Objects are named by the recorder's code
 * (record/objects.h objtab_object_of()), and live as long as their row.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "monitor/monfold.h"
#include "record/objects.h"

static struct mon_obj *find_fp(const struct mon_row *r, uint64_t fp)
{
	size_t i;

	for (i = 0; i < r->nobjs; i++)
		if (r->objs[i].fp == fp)
			return &r->objs[i];
	return NULL;
}

void fold_row_object(struct mon_fold *f, struct mon_row *r, const struct ca_obj_event *e)
{
	struct mon_obj *o;

	/* the same object again: each drain's new kernel entry sends it anew */
	if (find_fp(r, e->fp))
		return;
	/* full: the checks about it are counted when they are folded */
	if (r->nobjs >= MON_OBJ_PER_ROW || f->nobjs >= MON_OBJ_MAX)
		return;
	r->objs = xrealloc(r->objs, (r->nobjs + 1) * sizeof(*r->objs));
	o = &r->objs[r->nobjs];
	memset(o, 0, sizeof(*o));
	objtab_object_of(e, &o->o);
	if (o->o.kind == OBJ_NONE) {
		rec_object_clear(&o->o);
		return;
	}
	o->fp = e->fp;
	r->nobjs++;
	f->nobjs++;
}

void fold_row_objcounts(struct mon_row *r, const struct agg_objs *a)
{
	struct mon_obj *o;
	size_t i;

	if (!a)
		return;
	r->objs_more = sat_add(r->objs_more, a->more);
	for (i = 0; i < a->n; i++) {
		uint64_t n = a->count[i] ? a->count[i] : 1;

		if ((o = find_fp(r, a->fp[i])))
			o->count = sat_add(o->count, n);
		else   /* not kept (a bound), or its event was lost */
			r->objs_more = sat_add(r->objs_more, n);
	}
}

void fold_row_objects_to(const struct mon_row *r, struct rec_check *c)
{
	size_t i;

	for (i = 0; i < r->nobjs; i++) {
		struct rec_object x = r->objs[i].o;

		x.path = x.path ? xstrdup(x.path) : NULL;
		x.name = x.name ? xstrdup(x.name) : NULL;
		x.detail = x.detail ? xstrdup(x.detail) : NULL;
		/* seen, not yet folded (its checks still in a CPU's cache) */
		x.count = r->objs[i].count ? r->objs[i].count : 1;
		rec_check_objects_add(c, &x);
	}
	c->objects_more = sat_add(c->objects_more, r->objs_more);
}

void fold_row_objects_free(struct mon_row *r)
{
	size_t i;

	for (i = 0; i < r->nobjs; i++)
		rec_object_clear(&r->objs[i].o);
	free(r->objs);
	r->objs = NULL;
	r->nobjs = 0;
}
