// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel text the call-site cache's proofs skip over: the capability
 * API and the tracer's plumbing (facts/callsite.c's lists), as address
 * ranges from the running kernel's symbols, and the kernel's own text
 * (_stext.._etext). capaudit.bpf.c explains the proofs.
 */
#include "tracer/proofranges.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "facts/callsite.h"
#include "lib/ksyms.h"

/* The names to skip, hashed once: a kernel has ~120,000 symbols, and a
 * string compare against each of the ~50 names cost most of a read. */
#define NAME_SLOTS 256
static const char *name_set[NAME_SLOTS];

static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void name_set_init(void)
{
	const char *const *lists[2], *const *l;
	int i;

	if (name_set[0] || name_set[1])
		return;
	callsite_skipped_names(&lists[0], &lists[1]);
	for (i = 0; i < 2; i++)
		for (l = lists[i]; *l; l++) {
			uint32_t h = name_hash(*l, strlen(*l));

			while (name_set[h & (NAME_SLOTS - 1)])
				h++;
			name_set[h & (NAME_SLOTS - 1)] = *l;
		}
}

/* The first n bytes of name are a name to skip. */
static bool skipped_name(const char *name, size_t n)
{
	uint32_t h = name_hash(name, n);
	const char *s;

	if (n > 13 && !strncmp(name, "bpf_trace_run", 13))
		return true;
	while ((s = name_set[h & (NAME_SLOTS - 1)])) {
		if (strlen(s) == n && !memcmp(s, name, n))
			return true;
		h++;
	}
	return false;
}

static int add_symbol(void *ctx, uint64_t addr, uint64_t end, const char *name, const char *mod)
{
	struct ca_ranges *r = ctx;
	size_t n = strcspn(name, ".");

	if (!mod && !strcmp(name, "_stext"))
		r->text_lo = addr;
	if (!mod && !strcmp(name, "_etext"))
		r->text_hi = addr;
	if (mod || !addr)
		return 0;
	if (!strcmp(name, "cap_capable")) {
		r->capcap_lo = addr;
		r->capcap_hi = end;
	}
	/* compiler clones keep their base name's meaning: foo.isra.0 */
	if (!skipped_name(name, n))
		return 0;
	if (r->n && r->hi[r->n - 1] == addr) {
		r->hi[r->n - 1] = end;   /* adjacent: one range */
		return 0;
	}
	if (r->n == CA_SKIP_RANGES)
		return 1;   /* more than the BPF side takes: no proofs */
	r->lo[r->n] = addr;
	r->hi[r->n] = end;
	r->n++;
	return 0;
}

int proof_ranges_from_ksyms(const struct ksyms *ks, struct ca_ranges *r)
{
	name_set_init();
	memset(r, 0, sizeof(*r));
	if (!ks || ksyms_foreach(ks, add_symbol, r) || !r->text_lo || r->text_hi <= r->text_lo ||
	    !r->capcap_hi || !r->n) {
		r->n = 0;
		return -1;
	}
	return 0;
}

