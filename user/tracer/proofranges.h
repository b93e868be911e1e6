/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_PROOFRANGES_H
#define CA_PROOFRANGES_H

#include <linux/types.h>

#include "capaudit.h"

struct ksyms;

/* The call-site cache's text ranges (struct ca_ranges) from the kernel's
 * symbols; -1, r->n 0 (no proofs: every hit walks) when they do not give
 * them. */
int proof_ranges_from_ksyms(const struct ksyms *ks, struct ca_ranges *r);

#endif
