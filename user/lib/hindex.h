/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hash index over an array the caller owns: it maps a hash to the
 * elements' positions, and the caller's equality test tells which one is
 * meant. For the tables that grow one row per distinct thing in a record
 * (call sites, user places, observations): a linear search there made a
 * record of 100,000 distinct call sites take minutes.
 */
#ifndef CA_HINDEX_H
#define CA_HINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hindex {
	uint32_t *pos;           /* 1 + position; 0: empty */
	uint32_t *tag;           /* the hash's high bits, to skip most tests */
	size_t cap, n;           /* cap: a power of two, at most half full */
};

/* Position of the element with this hash that eq(ctx, position) accepts,
 * or -1. */
long hindex_find(const struct hindex *x, uint64_t hash, bool (*eq)(const void *ctx, size_t pos),
		 const void *ctx);
/* Index position under hash (an element not in the index yet). */
void hindex_add(struct hindex *x, uint64_t hash, size_t pos);
void hindex_free(struct hindex *x);

/* Hashes to build keys from. */
uint64_t hash_str(uint64_t h, const char *s);
uint64_t hash_u64(uint64_t h, uint64_t v);

#endif
