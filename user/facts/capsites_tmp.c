// SPDX-License-Identifier: GPL-2.0
/* TEMP: stubs of i42-gen's API until it lands */
#include "facts/capsites.h"

#include <string.h>

void ksite_lookup_op(const struct ktable *t, const char *fn, int cap, const char *op,
		     struct ks_answer *a)
{
	(void)op;
	ksite_lookup(t, fn, cap, a);
}

void ksite_chain(const struct ktable *t, const char *caller, const char *callee, int cap,
		 const char *op, struct ks_answer *a)
{
	(void)t; (void)caller; (void)callee; (void)cap; (void)op;
	memset(a, 0, sizeof(*a));
	a->effect = "unknown";
}

bool ks_effect_ack(const char *effect, const char **err)
{
	if (!effect || strncmp(effect, "ack:", 4))
		return false;
	if (err)
		*err = effect + 4;
	return true;
}
