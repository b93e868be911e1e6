// SPDX-License-Identifier: GPL-2.0
#include "facts/capsites.h"

#include <linux/capability.h>
#include <stdio.h>
#include <string.h>

#include "facts/kfacts.h"

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

static int row_index(const struct ksite *k, int cap)
{
	int i;

	for (i = 0; i < KS_MAXCAPS && k->caps[i] != -1; i++)
		if (k->caps[i] == cap)
			return i;
	return -1;
}

void ksite_lookup(const struct ktable *t, const char *fn, int cap, struct ks_answer *a)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	if (!t || !fn)
		return;
	a->alts = ~0ULL;
	a->asked_first = true;
	a->noaudit_all = true;
	for (i = 0; i < t->n; i++) {
		const struct ksite *k = &t->sites[i];
		uint64_t alts = 0;
		int j, at;

		if (!row_matches(k, fn) || (at = row_index(k, cap)) < 0)
			continue;
		if (!a->nsites++) {
			a->first = k;
			a->effect = k->effect;
		} else if (!a->effect || !k->effect || strcmp(a->effect, k->effect)) {
			a->effect = "unknown";
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
	if (!a->nsites) {
		a->alts = 0;
		a->asked_first = a->noaudit_all = false;
	}
}
