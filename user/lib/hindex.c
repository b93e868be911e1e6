// SPDX-License-Identifier: GPL-2.0
#include "lib/hindex.h"

#include <stdlib.h>

#include "lib/util.h"

uint64_t hash_u64(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	return (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
}

uint64_t hash_str(uint64_t h, const char *s)
{
	uint64_t f = 1469598103934665603ULL;   /* FNV-1a, then mixed in */

	for (; s && *s; s++)
		f = (f ^ (unsigned char)*s) * 1099511628211ULL;
	return hash_u64(h, f);
}

static void grow(struct hindex *x)
{
	uint32_t *pos = x->pos, *tag = x->tag;
	size_t cap = x->cap, i, j;

	x->cap = cap ? cap * 2 : 64;
	x->pos = xcalloc(x->cap, sizeof(*x->pos));
	x->tag = xcalloc(x->cap, sizeof(*x->tag));
	for (i = 0; i < cap; i++) {
		if (!pos[i])
			continue;
		/* the tag holds the hash's high 32 bits; the slot came from the
		 * low ones, which are not kept: re-home by the tag */
		for (j = tag[i] & (x->cap - 1); x->pos[j]; j = (j + 1) & (x->cap - 1))
			;
		x->pos[j] = pos[i];
		x->tag[j] = tag[i];
	}
	free(pos);
	free(tag);
}

/* Slots are homed by the tag (the hash's high 32 bits), so that growing
 * needs nothing but what is stored. */
static uint32_t tag_of(uint64_t hash)
{
	return (uint32_t)(hash >> 32);
}

long hindex_find(const struct hindex *x, uint64_t hash, bool (*eq)(const void *ctx, size_t pos),
		 const void *ctx)
{
	uint32_t t = tag_of(hash);
	size_t i;

	if (!x->cap)
		return -1;
	for (i = t & (x->cap - 1); x->pos[i]; i = (i + 1) & (x->cap - 1))
		if (x->tag[i] == t && eq(ctx, x->pos[i] - 1))
			return (long)(x->pos[i] - 1);
	return -1;
}

void hindex_add(struct hindex *x, uint64_t hash, size_t pos)
{
	uint32_t t = tag_of(hash);
	size_t i;

	if ((x->n + 1) * 2 > x->cap)
		grow(x);
	for (i = t & (x->cap - 1); x->pos[i]; i = (i + 1) & (x->cap - 1))
		;
	x->pos[i] = (uint32_t)pos + 1;
	x->tag[i] = t;
	x->n++;
}

void hindex_free(struct hindex *x)
{
	free(x->pos);
	free(x->tag);
	x->pos = x->tag = NULL;
	x->cap = x->n = 0;
}
