// SPDX-License-Identifier: GPL-2.0
#include "facts/capnames.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "lib/util.h"
#include "lib/spell.h"

const char *cap_name(int cap, char buf[CAP_NAME_LEN])
{
	char *n = NULL;
	size_t i;

	if (cap >= 0)
		n = cap_to_name((cap_value_t)cap);
	/* libcap spells an unknown capability as its number */
	if (!n || strncmp(n, "cap_", 4) != 0) {
		snprintf(buf, CAP_NAME_LEN, "%d", cap);
	} else {
		snprintf(buf, CAP_NAME_LEN, "%s", n);
		for (i = 0; buf[i]; i++)
			buf[i] = (char)toupper((unsigned char)buf[i]);
	}
	cap_free(n);
	return buf;
}

int cap_number(const char *name)
{
	char lower[CAP_NAME_LEN + 4];
	cap_value_t v;
	long num;
	size_t i, o = 0;

	if (!name || !*name || strlen(name) >= CAP_NAME_LEN)
		return -1;
	if (!parse_int_range(name, 0, 63, &num))
		return (int)num;
	if (strncasecmp(name, "cap_", 4) != 0) {
		memcpy(lower, "cap_", 4);
		o = 4;
	}
	for (i = 0; name[i]; i++)
		lower[o++] = (char)tolower((unsigned char)name[i]);
	lower[o] = '\0';
	if (cap_from_name(lower, &v) != 0 || v < 0)
		return -1;
	/* cap_from_name also takes numbers; we only want real names here */
	if (isdigit((unsigned char)lower[4]))
		return -1;
	return (int)v;
}

const char *cap_suggest(const char *typed, char buf[CAP_NAME_LEN])
{
	char want[CAP_NAME_LEN + 4], names[CAP_LAST_CAP + 1][CAP_NAME_LEN];
	const char *best;
	struct spell sp;
	int i;

	if (!typed || !*typed || strlen(typed) >= CAP_NAME_LEN || cap_number(typed) >= 0)
		return NULL;
	/* compared as the capability is named: CAP_ and the rest */
	snprintf(want, sizeof(want), "%s%s", strncasecmp(typed, "cap_", 4) ? "CAP_" : "", typed);
	spell_init(&sp, want);
	for (i = 0; i <= CAP_LAST_CAP; i++)
		spell_try(&sp, cap_name(i, names[i]));
	best = spell_best(&sp);
	if (!best)
		return NULL;
	snprintf(buf, CAP_NAME_LEN, "%s", best);
	return buf;
}

int cap_list_parse(const char *s, uint64_t *mask, char *bad, size_t badlen)
{
	uint64_t add = 0;
	const char *p = s;

	for (;;) {
		size_t n = strcspn(p, ",");
		char name[CAP_NAME_LEN];
		int c = -1;

		/* each name whole: an empty one is a mistake, not nothing */
		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			c = cap_number(name);
		}
		if (c < 0) {
			snprintf(bad, badlen, "%.*s", (int)n, p);
			return -1;
		}
		add |= CAP_BIT(c);
		if (!p[n])
			break;
		p += n + 1;
	}
	*mask |= add;
	return 0;
}

const char *capset_join(uint64_t mask, const char *sep, const char *none, char *buf,
			size_t len)
{
	char name[CAP_NAME_LEN];
	size_t o = 0;
	int c;

	buf[0] = '\0';
	for_each_cap(c, mask) {
		if (o >= len)
			break;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? sep : "", cap_name(c, name));
	}
	if (!o)
		snprintf(buf, len, "%s", none);
	return buf;
}

const char *capset_str(uint64_t mask, char *buf, size_t len)
{
	return capset_join(mask, ", ", "none", buf, len);
}
