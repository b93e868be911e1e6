// SPDX-License-Identifier: GPL-2.0
/* A run's verdict by what the kernel did (verdict.h). */
#include "analyze/verdict.h"

#include <string.h>

#include "facts/capnames.h"

bool denial_counts(const struct sg_denial *d, bool *changed)
{
	*changed = false;
	switch (d->kind) {
	case DENY_CHANGED:
		*changed = true;
		return true;
	case DENY_BLOCKING:
		/* a file, path or listing the program may do without: the
		 * program judges, by its own success */
		return !d->eff.lookup && d->eff.kind != EFF_PROGRAM;
	default:
		/* tried and done without, changed nothing, or not known */
		return false;
	}
}

void run_verdict(const struct suggestion *sg, int exit_status, bool check_given,
		 int check_status, uint64_t counted, struct verdict *out)
{
	const struct sg_denial *first_changed = NULL, *first_refused = NULL;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; sg && i < sg->ndeny; i++) {
		const struct sg_denial *d = &sg->deny[i];
		bool changed;

		if (!capset_has(counted, d->cap) && !(d->alt >= 0 && capset_has(counted, d->alt)))
			continue;
		if (!denial_counts(d, &changed))
			continue;
		if (changed) {
			out->changed += d->count;
			if (!first_changed)
				first_changed = d;
		} else {
			out->refused += d->count;
			if (!first_refused)
				first_refused = d;
		}
	}
	if (exit_status || check_status) {
		out->v = RV_FAILED;
	} else if (out->changed) {
		out->v = RV_CHANGED;
		out->why = first_changed;
	} else if (out->refused && !check_given) {
		out->v = RV_REFUSED;
		out->why = first_refused;
	} else {
		out->v = RV_ENOUGH;
	}
}

const char *run_verdict_name(enum run_verdict v)
{
	switch (v) {
	case RV_ENOUGH: return "enough";
	case RV_FAILED: return "failed";
	case RV_CHANGED: return "changed";
	case RV_REFUSED: return "refused";
	default: return "?";
	}
}
