// SPDX-License-Identifier: GPL-2.0
#include "callsite.h"

#include <stdio.h>
#include <string.h>

/*
 * The capability API: functions whose only job is to ask for a capability.
 * The call site is the first frame outside this list (and outside the
 * tracing plumbing below). bpf_token_capable() is here: it is how bpf(2)
 * asks for CAP_BPF/CAP_PERFMON since 6.9 (shared/kernel-facts.md §2).
 */
static const char *const cap_api[] = {
	"cap_capable", "cap_capable_helper", "security_capable",
	"capable", "ns_capable", "ns_capable_common", "ns_capable_noaudit",
	"ns_capable_setid", "file_ns_capable", "has_ns_capability",
	"has_ns_capability_noaudit", "has_capability", "has_capability_noaudit",
	"capable_wrt_inode_uidgid", "privileged_wrt_inode_uidgid",
	"inode_owner_or_capable", "ptracer_capable",
	"bpf_token_capable", "bpf_ns_capable",
	"sk_ns_capable", "sk_capable", "sk_net_capable",
	"netlink_ns_capable", "__netlink_ns_capable", "netlink_capable",
	"netlink_net_capable",
	NULL,
};

/* Frames of the tracer itself, which can sit above cap_capable. */
static const char *const plumbing_prefix[] = {
	"bpf_prog_", "bpf_trampoline_", "__bpf_trace_", "bpf_trace_run", "__bpf_prog_",
	"trace_call_bpf", "perf_trace_", "kprobe_", "kretprobe_", "__kretprobe_",
	"arch_rethook_", "rethook_", "ftrace_", "bpf_get_stack", "__traceiter_",
	"trace_event_raw_event_", "0x",
	NULL,
};

/* API frames that mean CAP_OPT_NOAUDIT. */
static const char *const noaudit_api[] = {
	"ns_capable_noaudit", "has_ns_capability_noaudit", "has_capability_noaudit",
	"ptracer_capable",
	NULL,
};

/*
 * Call sites that pass CAP_OPT_NOAUDIT to security_capable()/cap_capable()
 * themselves (no *_noaudit frame to see), verified in the 6.18 binary
 * (shared/kernel-facts.md §5 "opts values"). cap_vm_enough_memory()
 * tail-calls cap_capable(), so its caller is the frame seen.
 */
static const char *const noaudit_callers[] = {
	"cap_vm_enough_memory", "security_vm_enough_memory_mm", "__vm_enough_memory",
	"kallsyms_show_value",
	NULL,
};

static bool in_list(const char *fn, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(fn, *list))
			return true;
	return false;
}

static bool has_prefix(const char *fn, const char *const *list)
{
	for (; *list; list++)
		if (!strncmp(fn, *list, strlen(*list)))
			return true;
	return false;
}

const char *frame_function(const char *frame, char *buf, size_t len)
{
	size_t n = strcspn(frame, "+ ");

	/* compiler clones keep their base name's meaning: foo.isra.0, foo.cold */
	if (memchr(frame, '.', n))
		n = (size_t)((const char *)memchr(frame, '.', n) - frame);
	if (n >= len)
		n = len - 1;
	memcpy(buf, frame, n);
	buf[n] = '\0';
	return buf;
}

bool frame_is_plumbing(const char *frame)
{
	char fn[128];

	return has_prefix(frame_function(frame, fn, sizeof(fn)), plumbing_prefix);
}

static bool skip_frame(const char *fn)
{
	return in_list(fn, cap_api) || has_prefix(fn, plumbing_prefix);
}

int callsite_index(char *const *stack, size_t n)
{
	char fn[128];
	size_t i;

	for (i = 0; i < n; i++) {
		frame_function(stack[i], fn, sizeof(fn));
		if (fn[0] && !skip_frame(fn))
			return (int)i;
	}
	return -1;
}

enum noaudit_source noaudit_from_stack(char *const *stack, size_t n)
{
	int site = callsite_index(stack, n);
	char fn[128];
	size_t i;

	for (i = 0; i < n && (site < 0 || i < (size_t)site); i++) {
		frame_function(stack[i], fn, sizeof(fn));
		if (in_list(fn, noaudit_api))
			return NOAUDIT_API;
	}
	if (site >= 0) {
		frame_function(stack[site], fn, sizeof(fn));
		if (in_list(fn, noaudit_callers))
			return NOAUDIT_CALLER;
	}
	return NOAUDIT_NO;
}

const char *noaudit_source_name(enum noaudit_source s)
{
	switch (s) {
	case NOAUDIT_OPTS: return "opts";
	case NOAUDIT_API: return "noaudit-api";
	case NOAUDIT_CALLER: return "noaudit-caller";
	default: return "audited";
	}
}
