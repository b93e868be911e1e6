// SPDX-License-Identifier: GPL-2.0
#include "facts/capsites.h"

#include <linux/capability.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/kfacts.h"
#include "lib/util.h"

/* generated from user/facts/capsites/linux-*.tsv by tools/capsites/tsv2c.awk */
#include "capsites_data.h"

#define NTABLES (sizeof(ktables) / sizeof(ktables[0]))

const struct ktable *ktable_all(size_t *n)
{
	*n = NTABLES;
	return ktables;
}

/* "X.Y" of a release into buf; false if it does not start so. */
static bool release_xy(const char *release, char *buf, size_t len)
{
	const char *dot = strchr(release, '.');
	size_t n;

	if (!dot || dot == release || strspn(release, "0123456789") != (size_t)(dot - release))
		return false;
	n = (size_t)(dot + 1 - release) + strspn(dot + 1, "0123456789");
	if (n == (size_t)(dot + 1 - release) || n >= len)
		return false;
	memcpy(buf, release, n);
	buf[n] = 0;
	return true;
}

const struct ktable *ktable_for(const char *release, bool *exact)
{
	const struct ktable *older = NULL, *oldest = NULL;
	char xy[16];
	size_t i;

	*exact = false;
	if (!release || !release_xy(release, xy, sizeof(xy)))
		return NULL;
	for (i = 0; i < NTABLES; i++) {
		const struct ktable *t = &ktables[i];
		int c = kver_cmp(t->kernel, xy);

		if (c == 0) {
			*exact = true;
			return t;
		}
		if (c < 0 && (!older || kver_cmp(t->kernel, older->kernel) > 0))
			older = t;
		if (!oldest || kver_cmp(t->kernel, oldest->kernel) < 0)
			oldest = t;
	}
	return older ? older : oldest;
}

const char *ksite_source(const struct ktable *t, const struct ksite *k, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u %s() (Linux %s source: %s)", k->file, k->line, k->func,
		 t ? t->kernel : "?", t && t->source ? t->source : "?");
	return buf;
}

bool ks_effect_is_errno(const char *effect)
{
	return effect && effect[0] == 'E' && effect[1] >= 'A' && effect[1] <= 'Z';
}

bool ks_effect_ack(const char *effect, const char **err)
{
	if (!effect || strncmp(effect, "ack:", 4) || !ks_effect_is_errno(effect + 4))
		return false;
	if (err)
		*err = effect + 4;
	return true;
}

int cap_power_cmp(int a, int b)
{
	if (a == b)
		return 0;
	if (a == CAP_SYS_ADMIN)
		return 1;
	if (b == CAP_SYS_ADMIN)
		return -1;
	if (a == CAP_DAC_READ_SEARCH && b == CAP_DAC_OVERRIDE)
		return -1;
	if (a == CAP_DAC_OVERRIDE && b == CAP_DAC_READ_SEARCH)
		return 1;
	return 0;
}

/* fn is the row's function, or one of the callers it may be inlined into */
static bool row_matches(const struct ksite *k, const char *fn)
{
	const char *p;
	size_t len = strlen(fn);

	if (!strcmp(k->func, fn))
		return true;
	for (p = k->inlined_into; p && *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == len && !memcmp(p, fn, n))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

/* Where cap is in the row's caps, or (unknown_ok) an unknown capability
 * that may be it; -1 when neither. */
static int row_index(const struct ksite *k, int cap, bool unknown_ok)
{
	int i;

	for (i = 0; i < KS_MAXCAPS && k->caps[i] != -1; i++)
		if (k->caps[i] == cap || (unknown_ok && k->caps[i] == KS_CAP_UNKNOWN))
			return i;
	return -1;
}

/* op is one of the '|'-separated case labels of when */
static bool when_has(const char *when, const char *op)
{
	size_t len = strlen(op);
	const char *p;

	for (p = when; p && *p;) {
		const char *end = strchr(p, '|');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == len && !memcmp(p, op, n))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

/*
 * Each table's rows by the names they answer to (their function and the
 * callers it may be inlined into), sorted by name then row: a lookup is a
 * binary search, not a scan of ~1,300 rows (a record of 100,000 distinct
 * call sites took seconds). Built once, for every table, on first use.
 */
struct ks_name {
	const char *name;   /* not NUL-terminated when taken from inlined_into */
	size_t len;
	uint32_t row;
};

static struct ks_names {
	struct ks_name *v;
	size_t n;
} ks_index[NTABLES];
static pthread_once_t ks_index_once = PTHREAD_ONCE_INIT;

static int cmp_name_len(const char *a, size_t al, const char *b, size_t bl)
{
	int c = memcmp(a, b, al < bl ? al : bl);

	return c ? c : (al > bl) - (al < bl);
}

static int cmp_ks_name(const void *a, const void *b)
{
	const struct ks_name *x = a, *y = b;
	int c = cmp_name_len(x->name, x->len, y->name, y->len);

	return c ? c : (x->row > y->row) - (x->row < y->row);
}

static void ks_name_add(struct ks_names *ix, size_t *cap, const char *name, size_t len,
			uint32_t row)
{
	grow_array((void **)&ix->v, cap, ix->n + 1, sizeof(*ix->v));
	ix->v[ix->n++] = (struct ks_name){ name, len, row };
}

static void ks_index_build(void)
{
	size_t t, i;

	for (t = 0; t < NTABLES; t++) {
		struct ks_names *ix = &ks_index[t];
		size_t cap = 0;

		for (i = 0; i < ktables[t].n; i++) {
			const struct ksite *k = &ktables[t].sites[i];
			const char *p;

			ks_name_add(ix, &cap, k->func, strlen(k->func), (uint32_t)i);
			for (p = k->inlined_into; p && *p;) {
				const char *end = strchr(p, ',');
				size_t n = end ? (size_t)(end - p) : strlen(p);

				ks_name_add(ix, &cap, p, n, (uint32_t)i);
				p = end ? end + 1 : NULL;
			}
		}
		qsort(ix->v, ix->n, sizeof(*ix->v), cmp_ks_name);
	}
}

/* The index of table t, or NULL when t is not one of ktable_all()'s. */
static const struct ks_names *ks_names_of(const struct ktable *t)
{
	if (t < ktables || t >= ktables + NTABLES)
		return NULL;
	pthread_once(&ks_index_once, ks_index_build);
	return &ks_index[t - ktables];
}

/* The first entry of ix named fn (len), or ix->n. */
static size_t ks_first(const struct ks_names *ix, const char *fn, size_t len)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_name_len(ix->v[mid].name, ix->v[mid].len, fn, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The next row of t that answers to fn after row `after` (-1: the first),
 * in table order; -1 when none is left. */
static long next_row(const struct ktable *t, const struct ks_names *ix, size_t *pos,
		     const char *fn, size_t len, long after)
{
	if (!ix) {   /* a table of the caller's own (unit tests): scan it */
		size_t i;

		for (i = (size_t)(after + 1); i < t->n; i++)
			if (row_matches(&t->sites[i], fn))
				return (long)i;
		return -1;
	}
	for (; *pos < ix->n && !cmp_name_len(ix->v[*pos].name, ix->v[*pos].len, fn, len);
	     (*pos)++)
		if ((long)ix->v[*pos].row > after)
			return (long)ix->v[(*pos)++].row;
	return -1;
}

/* The rows a lookup reads: direct ones (callee NULL), or the chain rows
 * that use callee's answer. */
/* A callee of any name (ksite_chain_any()). */
static const char any_callee[] = "*";

static bool row_kind_ok(const struct ksite *k, const char *callee)
{
	if (callee == any_callee)
		return k->via != NULL;
	return callee ? k->via && !strcmp(k->via, callee) : !k->via;
}

/*
 * The rows of t that answer to fn (their function or a caller they may be
 * inlined into) and accept cap; of those, when op is given and some have it
 * among their case labels, only those. What they all say into a.
 */
static void ks_collect(const struct ktable *t, const char *fn, int cap, const char *op,
		       const char *callee, struct ks_answer *a)
{
	const struct ks_names *ix;
	size_t pos = 0, len;
	bool narrow = false, same_change = true;
	long i = -1;

	memset(a, 0, sizeof(*a));
	if (!t || !fn)
		return;
	ix = ks_names_of(t);
	len = strlen(fn);
	if (op) {
		if (ix)
			pos = ks_first(ix, fn, len);
		while (!narrow && (i = next_row(t, ix, &pos, fn, len, i)) >= 0) {
			const struct ksite *k = &t->sites[i];

			narrow = row_kind_ok(k, callee) && row_index(k, cap, callee != NULL) >= 0 &&
				 when_has(k->when, op);
		}
		i = -1;
	}
	if (ix)
		pos = ks_first(ix, fn, len);
	a->alts = ~0ULL;
	a->asked_first = true;
	a->noaudit_all = true;
	while ((i = next_row(t, ix, &pos, fn, len, i)) >= 0) {
		const struct ksite *k = &t->sites[i];
		uint64_t alts = 0;
		int j, at;

		if (!row_kind_ok(k, callee) || (at = row_index(k, cap, callee != NULL)) < 0)
			continue;
		if (narrow && !when_has(k->when, op))
			continue;
		if (k->effect && ks_effect_is_errno(k->effect) && a->nerrs < KS_MAXERRS) {
			size_t e;

			for (e = 0; e < a->nerrs && strcmp(a->errs[e], k->effect); e++)
				;
			if (e == a->nerrs)
				a->errs[a->nerrs++] = k->effect;
		}
		if (!a->nsites++) {
			a->first = k;
			a->effect = k->effect;
			a->change = k->change;
			a->when = k->when;
		} else {
			if (!a->effect || !k->effect || strcmp(a->effect, k->effect))
				a->effect = "unknown";
			if (!a->change || !k->change || strcmp(a->change, k->change))
				same_change = false;
		}
		if (k->kind == KS_ANY)
			for (j = 0; j < KS_MAXCAPS && k->caps[j] != -1; j++)
				if (j != at && k->caps[j] >= 0)
					alts |= 1ULL << k->caps[j];
		a->alts &= alts;
		a->asked_first &= at == 0;
		a->noaudit_all &= k->noaudit;
		a->all_needed |= k->kind == KS_ALL;
		if (k->allowed_without && !a->allowed_without)
			a->allowed_without = k->allowed_without;
	}
	if (!same_change)
		a->change = NULL;
	if (!a->nsites) {
		a->alts = 0;
		a->asked_first = a->noaudit_all = false;
	}
}

void ksite_chain_any(const struct ktable *t, const char *caller, int cap, const char *op,
		     struct ks_answer *a)
{
	ks_collect(t, caller, cap, op, any_callee, a);
}

void ksite_lookup(const struct ktable *t, const char *fn, int cap, struct ks_answer *a)
{
	ks_collect(t, fn, cap, NULL, NULL, a);
}

void ksite_lookup_op(const struct ktable *t, const char *fn, int cap, const char *op,
		     struct ks_answer *a)
{
	ks_collect(t, fn, cap, op, NULL, a);
}

void ksite_chain(const struct ktable *t, const char *caller, const char *callee, int cap,
		 const char *op, struct ks_answer *a)
{
	if (!callee) {
		memset(a, 0, sizeof(*a));
		return;
	}
	ks_collect(t, caller, cap, op, callee, a);
}
