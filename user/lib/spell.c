// SPDX-License-Identifier: GPL-2.0
/* Edit distance and "did you mean" (spell.h). */
#include "lib/spell.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* The optimal string alignment distance: Levenshtein's three edits and a
 * swap of two adjacent letters, each costing one. Three rows of the
 * dynamic programming table suffice (a swap looks two rows back). */
size_t spell_distance(const char *a, const char *b)
{
	size_t rows[3][SPELL_MAX_LEN + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2], *t;

	if (la > SPELL_MAX_LEN || lb > SPELL_MAX_LEN)
		return SPELL_FAR;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t best = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < best)
				best = prev[j] + 1;            /* a[i-1] deleted */
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;         /* b[j-1] inserted */
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;       /* two letters swapped */
			cur[j] = best;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

bool spell_close(const char *typed, size_t d)
{
	size_t third = (strlen(typed) + 2) / 3;

	return d != SPELL_FAR && d <= 2 && d <= third;
}

void spell_init(struct spell *s, const char *typed)
{
	s->typed = typed;
	s->best = NULL;
	s->dist = SPELL_FAR;
	s->tie = false;
}

void spell_try(struct spell *s, const char *candidate)
{
	size_t d = spell_distance(s->typed, candidate);

	if (d == SPELL_FAR)
		return;
	if (d < s->dist) {
		s->best = candidate;
		s->dist = d;
		s->tie = false;
	} else if (d == s->dist && strcasecmp(candidate, s->best)) {
		s->tie = true;
	}
}

const char *spell_best(const struct spell *s)
{
	if (!s->best || s->tie || !spell_close(s->typed, s->dist))
		return NULL;
	return s->best;
}
