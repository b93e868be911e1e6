// SPDX-License-Identifier: GPL-2.0
#include "attach.h"

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

int attach_mode_parse(const char *s)
{
	int i;

	for (i = 0; s && i < ATTACH_NR; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

int attach_mode_has_opts(enum attach_mode m)
{
	return m == ATTACH_FEXIT || m == ATTACH_KPROBE;
}
