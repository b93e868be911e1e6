// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-fact table. Every row names its source; "KF §n" is
 * ../shared/kernel-facts.md section n ([RUN] = observed on Linux 6.18.44
 * with the capability:cap_capable trace event, [BIN] = read from that
 * kernel's binary); "LWN" is the LWN article on CAP_PERFMON/CAP_BPF/
 * CAP_RESTORE (shared/seeds/000-article.md). A row's `since` is set only
 * where the first accepting version is cited; otherwise it is NULL and the
 * suggester says the fact was verified on 6.18 only.
 * docs/kernel-facts.md renders this table for people.
 */
#include "kfacts.h"

#include <stdio.h>
#include <string.h>

#define CR "CAP_CHECKPOINT_RESTORE series, LKML v2 2020-06-03 (shared/seeds/001 is its RFC)"

static const struct kfact facts[] = {
	/* checkpoint_restore_ns_capable(): CAP_CHECKPOINT_RESTORE (40) || CAP_SYS_ADMIN */
	{ "alloc_pid", 40, KF_NARROW_OR_SYSADMIN, "5.9", NULL,
	  "clone3() with set_tid", NULL, "KF §3a, §4 [RUN]; " CR },
	{ "pid_ns_ctl_handler", 40, KF_NARROW_OR_SYSADMIN, "5.9", NULL,
	  "write to /proc/sys/kernel/ns_last_pid", NULL, "KF §3a, §4 [RUN]; " CR },
	{ "proc_map_files_get_link", 40, KF_NARROW_OR_SYSADMIN, "5.9", NULL,
	  "open /proc/PID/map_files/*", NULL, "KF §3a, §4 [RUN]; " CR },
	{ "prctl_set_mm_map", 40, KF_NARROW_OR_SYSADMIN, NULL, NULL,
	  "prctl(PR_SET_MM, PR_SET_MM_MAP) with exe_fd", NULL, "KF §3a, §4 [RUN]" },
	{ "tty_mode_ioctl", 40, KF_NARROW_OR_SYSADMIN, NULL, NULL,
	  "ioctl(TIOCSLCKTRMIOS)", NULL, "KF §3a, §4 [RUN]" },

	/* bpf_capable() / bpf_token_capable(): CAP_BPF (39) || CAP_SYS_ADMIN */
	{ "map_create", 39, KF_NARROW_OR_SYSADMIN, "5.8", NULL,
	  "bpf(BPF_MAP_CREATE)", NULL, "KF §3b, §4 [RUN]; LWN: CAP_BPF controls map creation" },
	{ "bpf_prog_load", 39, KF_NARROW_OR_SYSADMIN, "5.8", NULL, "bpf(BPF_PROG_LOAD)",
	  "CAP_PERFMON for kprobe/tracepoint/perf_event/tracing programs, CAP_NET_ADMIN for "
	  "tc/XDP and other networking programs",
	  "KF §3b, §4 [RUN]; LWN: program types need CAP_PERFMON or CAP_NET_ADMIN too" },
	{ "__sys_bpf", 39, KF_NARROW_OR_SYSADMIN, "5.8", NULL, "bpf(BPF_BTF_LOAD)", NULL,
	  "KF §3b, §4 [RUN]; LWN: CAP_BPF controls access to BTF" },
	{ "bpf_prog_get_info_by_fd", 39, KF_NARROW_OR_SYSADMIN, NULL, NULL,
	  "bpf(BPF_OBJ_GET_INFO_BY_FD) on a program", NULL, "KF §3b, §4 [RUN]" },

	/* perfmon_capable(): CAP_PERFMON (38) || CAP_SYS_ADMIN */
	{ "perf_allow_kernel", 38, KF_NARROW_OR_SYSADMIN, "5.8", NULL,
	  "perf_event_open() including kernel samples", NULL,
	  "KF §3c, §4 [RUN]; LWN: CAP_PERFMON for performance monitoring" },
	{ "find_get_context", 38, KF_NARROW_OR_SYSADMIN, "5.8", NULL,
	  "CPU-wide perf_event_open()", NULL, "KF §3c, §4 [RUN]; LWN" },
	{ "perf_trace_event_init", 38, KF_NARROW_OR_SYSADMIN, "5.8", NULL,
	  "perf_event_open() of a tracepoint with raw samples", NULL, "KF §3c, §4 [RUN]; LWN" },
	{ "__do_sys_perf_event_open", 38, KF_NARROW_OR_SYSADMIN, "5.8", NULL,
	  "perf_event_open() on another task", NULL, "KF §3c, §4 [RUN]; LWN" },
	{ "mm_access", 38, KF_NARROW_OR_SYSADMIN, NULL, NULL,
	  "read /proc/PID/maps (and similar) of another user's process", NULL, "KF §2, §4 [RUN]" },

	/* only the narrow capability: CAP_SYS_ADMIN does not substitute */
	{ "audit_multicast_bind", 37, KF_ONLY, "3.16", NULL,
	  "bind a NETLINK_AUDIT socket to the read-log group", NULL,
	  "KF §2, §3d [RUN]; commit 3a101b8de0d3 (shared/seeds/002)" },
	{ "do_syslog", 34, KF_ONLY, NULL, "6.8", "syslog(2), klogctl(), /proc/kmsg", NULL,
	  "KF §2, §3d [RUN]: CAP_SYS_ADMIN fallback removed by 09ce61e27db8 (v6.9)" },
	{ "devkmsg_open", 34, KF_ONLY, NULL, "6.8", "open /dev/kmsg for reading", NULL,
	  "KF §2, §3d [RUN]: CAP_SYS_ADMIN fallback removed by 09ce61e27db8 (v6.9)" },
	{ "bpf_token_create", 39, KF_ONLY, NULL, NULL, "bpf(BPF_TOKEN_CREATE)", NULL,
	  "KF §2, §3b [BIN]" },

	/* only CAP_SYS_ADMIN: nothing narrower is accepted */
	{ "bpf_obj_get_next_id", 21, KF_SYSADMIN_ONLY, NULL, NULL,
	  "bpf(BPF_*_GET_NEXT_ID): iterating BPF objects", NULL,
	  "KF §3b [RUN]; LWN: iterating BPF objects still requires CAP_SYS_ADMIN" },
	{ "perf_uprobe_event_init", 21, KF_SYSADMIN_ONLY, NULL, NULL,
	  "perf_event_open() of a uprobe (libbpf/bpftrace uprobes)", NULL,
	  "KF §3c [BIN][RUN]: CAP_PERFMON is refused (EACCES)" },

	/* denials that change nothing for the caller */
	{ "bpf_check", 38, KF_ADVISORY, NULL, NULL, "BPF verifier: pointer leaks, spectre",
	  NULL, "KF §3b, §4 [RUN]: four CAP_PERFMON checks, load succeeds without" },
	{ "bpf_check", 39, KF_ADVISORY, NULL, NULL, "BPF verifier: bounded loops, limits",
	  NULL, "KF §3b [RUN]" },
	{ "array_map_alloc", 38, KF_ADVISORY, NULL, NULL, "array map spectre hardening", NULL,
	  "KF §3b, §4 [RUN]" },
	{ "bpf_prog_kallsyms_add", 39, KF_ADVISORY, NULL, NULL, "program in kallsyms", NULL,
	  "KF §3b [BIN]" },
	{ "bpf_prog_alloc_no_stats", 39, KF_ADVISORY, NULL, NULL, "JIT constant blinding",
	  NULL, "KF §3b [BIN]" },
};

const struct kfact *kfact_next(const char *func, int cap, enum kfact_kind kind, int *iter)
{
	size_t i;

	for (i = (size_t)*iter; i < sizeof(facts) / sizeof(facts[0]); i++) {
		if (strcmp(facts[i].func, func) || facts[i].kind != kind)
			continue;
		if (cap >= 0 && facts[i].cap != cap)
			continue;
		*iter = (int)i + 1;
		return &facts[i];
	}
	*iter = (int)i;
	return NULL;
}

static int parse_ver(const char *s, int v[3])
{
	int n;

	v[0] = v[1] = v[2] = 0;
	n = s ? sscanf(s, "%d.%d.%d", &v[0], &v[1], &v[2]) : 0;
	return n >= 2 ? 0 : -1;
}

int kver_cmp(const char *a, const char *b)
{
	int x[3], y[3], i;

	if (parse_ver(a, x) || parse_ver(b, y))
		return -2;
	for (i = 0; i < 3; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

const char *cap_since(int cap)
{
	switch (cap) {
	case 34: return "2.6.37";   /* CAP_SYSLOG, KF §1 */
	case 37: return "3.16";     /* CAP_AUDIT_READ */
	case 38: return "5.8";      /* CAP_PERFMON */
	case 39: return "5.8";      /* CAP_BPF */
	case 40: return "5.9";      /* CAP_CHECKPOINT_RESTORE */
	default: return NULL;
	}
}
