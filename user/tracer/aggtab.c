// SPDX-License-Identifier: GPL-2.0
#include "tracer/aggtab.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* Keys are compared as bytes: no padding may hide in them. */
_Static_assert(sizeof(struct ca_key) == 72, "struct ca_key has padding");

static uint64_t key_hash(const struct ca_key *k)
{
	const uint64_t *w = (const uint64_t *)k;
	uint64_t h = 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i < sizeof(*k) / sizeof(*w); i++) {
		h ^= w[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 33;
	}
	return h;
}

/* The index slot of k: its entry, or the empty slot where it goes. */
static size_t slot(const struct aggtab *t, const struct ca_key *k)
{
	size_t mask = t->idxcap - 1, i = (size_t)key_hash(k) & mask;

	while (t->idx[i] && memcmp(&t->e[t->idx[i] - 1].key, k, sizeof(*k)))
		i = (i + 1) & mask;
	return i;
}

static void rehash(struct aggtab *t)
{
	size_t k;

	free(t->idx);
	t->idxcap = t->idxcap ? t->idxcap * 2 : 1024;
	t->idx = xcalloc(t->idxcap, sizeof(*t->idx));
	for (k = 0; k < t->n; k++)
		t->idx[slot(t, &t->e[k].key)] = (uint32_t)k + 1;
}

/* The earlier of two first checks; 0 means not known. */
static void merge_meta(struct ca_meta *into, const struct ca_meta *m)
{
	if (m->first_ns && (!into->first_ns || m->first_ns < into->first_ns))
		*into = *m;
}

/* A drained entry's object fingerprints and counts, into o. */
static void objs_add(struct agg_objs *o, const struct ca_val *v)
{
	size_t i, k;

	o->more += v->obj_more;
	for (i = 0; i < CA_OBJ_KEEP; i++) {
		if (!v->obj_fp[i])
			continue;
		for (k = 0; k < o->n && o->fp[k] != v->obj_fp[i]; k++)
			;
		if (k == o->n && o->n < AGG_OBJ_MAX) {
			o->fp[o->n] = v->obj_fp[i];
			o->count[o->n++] = 0;
		}
		if (k < o->n)
			o->count[k] += v->obj_count[i];
		else
			o->more += v->obj_count[i];
	}
}

const struct agg_objs *aggtab_objs(const struct ca_val *v)
{
	return &((const struct agg_entry *)((const char *)v - offsetof(struct agg_entry, val)))->objs;
}

void aggtab_add(struct aggtab *t, const struct ca_key *k, const struct ca_val *v)
{
	struct ca_val *o;
	size_t i;

	if ((t->n + 1) * 2 > t->idxcap)
		rehash(t);
	i = slot(t, k);
	t->total += v->count;
	if (!t->idx[i]) {
		grow_array((void **)&t->e, &t->cap, t->n + 1, sizeof(*t->e));
		t->e[t->n].key = *k;
		t->e[t->n].val = *v;
		memset(&t->e[t->n].objs, 0, sizeof(t->e[t->n].objs));
		objs_add(&t->e[t->n].objs, v);
		t->idx[i] = (uint32_t)++t->n;
		return;
	}
	objs_add(&t->e[t->idx[i] - 1].objs, v);
	o = &t->e[t->idx[i] - 1].val;
	o->count += v->count;
	o->sys_failed += v->sys_failed;
	o->sys_restart += v->sys_restart;
	if (v->sys_other) {
		o->sys_other += v->sys_other;
		o->sys_errno = v->sys_errno;
	}
	if (v->last_ns > o->last_ns)
		o->last_ns = v->last_ns;
	merge_meta(&o->meta, &v->meta);
}

void aggtab_free(struct aggtab *t)
{
	free(t->e);
	free(t->idx);
	memset(t, 0, sizeof(*t));
}
