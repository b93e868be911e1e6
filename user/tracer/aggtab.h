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

/* The objects of a key's checks as drained (each drain's entry is new in
 * the kernel, with a list of its own: CA_OBJ_KEEP fingerprints), merged
 * by fingerprint up to AGG_OBJ_MAX; the rest is counted in more. */
#define AGG_OBJ_MAX 16
struct agg_objs {
	uint64_t fp[AGG_OBJ_MAX];
	uint64_t count[AGG_OBJ_MAX];
	size_t n;
	uint64_t more;
};

struct agg_entry {
	struct ca_key key;
	struct ca_val val;   /* val.obj_*: the last drain's, see objs */
	struct agg_objs objs;
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
/* The objects of the entry whose val is v (a val tracer_foreach_check()
 * gave: one of the table's). */
const struct agg_objs *aggtab_objs(const struct ca_val *v);

#endif
