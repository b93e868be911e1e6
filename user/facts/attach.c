// SPDX-License-Identifier: GPL-2.0
#include "facts/attach.h"

#include <stdio.h>
#include <string.h>

const enum attach_mode attach_auto_order[ATTACH_NR - 1] = {
	ATTACH_TP_BTF, ATTACH_TRACEPOINT, ATTACH_FEXIT, ATTACH_KPROBE,
};

static const char *const names[ATTACH_NR] = {
	[ATTACH_AUTO] = "auto",
	[ATTACH_TP_BTF] = "tp_btf",
	[ATTACH_TRACEPOINT] = "tracepoint",
	[ATTACH_FEXIT] = "fexit",
	[ATTACH_KPROBE] = "kprobe",
};

const char *attach_mode_name(enum attach_mode m)
{
	return (unsigned)m < ATTACH_NR ? names[m] : "?";
}

/* -1 if s names no mode. */
static int attach_mode_parse(const char *s)
{
	int i;

	for (i = 0; s && i < ATTACH_NR; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

int attach_list_parse(const char *s, struct attach_list *l, char *err, unsigned long errlen)
{
	const char *p = s ? s : "", *e;
	unsigned int i;
	int m = -1;

	l->n = 0;
	if (!strcmp(p, "auto"))
		return 0;
	for (;;) {
		char word[16];
		size_t n;

		e = strchr(p, ',');
		n = e ? (size_t)(e - p) : strlen(p);
		if (n < sizeof(word)) {
			memcpy(word, p, n);
			word[n] = '\0';
			m = attach_mode_parse(word);
		}
		/* unknown, auto inside a list, empty, or a repeated mode */
		for (i = 0; m > ATTACH_AUTO && i < l->n; i++)
			if (l->m[i] == (enum attach_mode)m)
				m = -1;
		if (n >= sizeof(word) || m <= ATTACH_AUTO) {
			snprintf(err, errlen, "bad attach mode '%.*s' in '%s': auto, or one or more of "
				 "tp_btf, tracepoint, fexit, kprobe (comma-separated, each once)",
				 (int)n, p, s ? s : "");
			return -1;
		}
		l->m[l->n++] = (enum attach_mode)m;
		if (!e)
			return 0;
		p = e + 1;
	}
}

struct attach_list attach_list_resolve(const struct attach_list *l)
{
	struct attach_list r = { .n = 0 };
	unsigned int i;

	if (l && l->n)
		return *l;
	for (i = 0; i < ATTACH_NR - 1; i++)
		r.m[r.n++] = attach_auto_order[i];
	return r;
}

int attach_list_has(const struct attach_list *l, enum attach_mode m)
{
	struct attach_list r = attach_list_resolve(l);
	unsigned int i;

	for (i = 0; i < r.n; i++)
		if (r.m[i] == m)
			return 1;
	return 0;
}
