/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "Did you mean": the nearest of a few known words to a mistyped one, by
 * edit distance (Damerau-Levenshtein, adjacent transpositions counted as
 * one edit: "reprot" is one edit from "report"). Letters are compared
 * without case. A word is suggested only when it is close relative to the
 * length of what was typed (spell_close), and only when it is the one
 * nearest: two equally near words suggest neither.
 */
#ifndef CA_SPELL_H
#define CA_SPELL_H

#include <stdbool.h>
#include <stddef.h>

/* Words longer than this are never near anything (the distance of such a
 * pair is SPELL_FAR): the table stays on the stack. */
#define SPELL_MAX_LEN 64
#define SPELL_FAR ((size_t)-1)

/* The edit distance of a and b (insertions, deletions, substitutions and
 * adjacent transpositions, letters without case), or SPELL_FAR. */
size_t spell_distance(const char *a, const char *b);

/* Whether distance d from the typed word is close enough to suggest:
 * at most 2 edits, and at most a third of its length rounded up (one edit
 * in a word of up to 3 letters: "rn" -> "run", not "x" -> "run"). */
bool spell_close(const char *typed, size_t d);

/* Looking for the nearest word: spell_init, spell_try each candidate,
 * then spell_best. */
struct spell {
	const char *typed;
	const char *best;     /* the nearest so far */
	size_t dist;          /* its distance */
	bool tie;             /* another candidate is as near */
};

void spell_init(struct spell *s, const char *typed);
void spell_try(struct spell *s, const char *candidate);
/* The one nearest candidate if it is close (spell_close), else NULL. */
const char *spell_best(const struct spell *s);

#endif
