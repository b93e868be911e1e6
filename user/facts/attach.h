/* SPDX-License-Identifier: GPL-2.0 */
/* The attach modes and their names (pure: used by the analysis side too). */
#ifndef CA_ATTACH_H
#define CA_ATTACH_H

enum attach_mode {
	ATTACH_AUTO = 0,
	ATTACH_TP_BTF,      /* tp_btf/cap_capable: trace event, Linux 6.14+ */
	ATTACH_TRACEPOINT,  /* tracepoint/capability/cap_capable via tracefs */
	ATTACH_FEXIT,       /* fexit/cap_capable: BPF trampolines */
	ATTACH_KPROBE,      /* kprobe + kretprobe on cap_capable */
	ATTACH_NR,
};

/* The order in which --attach auto tries the modes. */
extern const enum attach_mode attach_auto_order[ATTACH_NR - 1];

/* --attach MODE[,MODE...]: the modes to try, in order; n == 0 is auto. */
struct attach_list {
	enum attach_mode m[ATTACH_NR - 1];
	unsigned int n;
};

const char *attach_mode_name(enum attach_mode m);
/* "auto" or a comma-separated list of distinct modes; -1 on anything else,
 * with one line in err naming the offending word. */
int attach_list_parse(const char *s, struct attach_list *l, char *err, unsigned long errlen);
/* Whether m is among the modes l tries (auto: all). */
int attach_list_has(const struct attach_list *l, enum attach_mode m);
/* The modes to try, auto expanded. */
struct attach_list attach_list_resolve(const struct attach_list *l);

#endif
