/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder's own table of aggregated checks. The kernel's aggregation
 * maps are drained into it while recording (a busy host would fill them
 * within seconds) and at the end; the call-site cache's pending counts
 * join it last. Entries with the same key merge: counts add up, the first
 * check's metadata is kept.
 */
#ifndef CA_AGGTAB_H
#define CA_AGGTAB_H

#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include "capaudit.h"

struct agg_entry {
	struct ca_key key;
	struct ca_val val;
};

struct aggtab {
	struct agg_entry *e;     /* in insertion order */
	size_t n, cap;
	uint32_t *idx;           /* open addressing: 1 + index into e; 0 empty */
	size_t idxcap;           /* power of two, kept at most half full */
	uint64_t total;          /* sum of the counts */
};

/* Add (merge) one key's counts. */
void aggtab_add(struct aggtab *t, const struct ca_key *k, const struct ca_val *v);
void aggtab_free(struct aggtab *t);

#endif
