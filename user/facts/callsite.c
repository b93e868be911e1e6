// SPDX-License-Identifier: GPL-2.0
#include "facts/callsite.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/*
 * The capability API: functions whose only job is to ask for a capability.
 * The call site is the first frame outside this list (and outside the
 * tracing plumbing below). bpf_token_capable() is here: it is how bpf(2)
 * asks for CAP_BPF/CAP_PERFMON since 6.9 (kernel/bpf/token.c).
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

/*
 * Frames of the tracer itself, which sit above cap_capable in a captured
 * stack: BPF programs and trampolines (module "[bpf]", or
 * bpf_prog_<16 hex digits>_<name>), the trace event's BPF and perf glue,
 * kprobe/kretprobe/rethook handlers. Exact names: a prefix such as
 * "perf_trace_" would also swallow real call sites (perf_trace_event_init).
 */
static const char *const plumbing[] = {
	"__bpf_trace_cap_capable", "__traceiter_cap_capable", "trace_call_bpf",
	"perf_trace_run_bpf_submit", "perf_trace_cap_capable",
	"trace_event_raw_event_cap_capable", "bpf_get_stackid", "bpf_get_stackid_raw_tp",
	"bpf_get_stack", "kprobe_perf_func", "kprobe_dispatcher", "kretprobe_perf_func",
	"kretprobe_dispatcher", "kprobe_ftrace_handler", "kretprobe_trampoline",
	"__kretprobe_trampoline", "kretprobe_trampoline_handler",
	"__kretprobe_trampoline_handler", "arch_rethook_trampoline",
	"arch_rethook_trampoline_callback", "rethook_trampoline_handler", "fprobe_handler",
	"ftrace_regs_caller", "ftrace_caller", "ftrace_call", "ftrace_regs_call",
	/* ftrace's own trampolines (module "[__builtin__ftrace]"): fexit on
	 * Debian's 6.1 showed "ftrace_trampoline+0x2079 [__builtin__ftrace]" on
	 * top of cap_capable+0x5 */
	"ftrace_trampoline",
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
 * (include/linux/security.h CAP_OPT_NOAUDIT). cap_vm_enough_memory()
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

/* "bpf_prog_64594527cf16f4d7_name", "bpf_trampoline_6442451234", "bpf_trace_run5" */
static bool generated_name(const char *fn)
{
	size_t i;

	if (!strncmp(fn, "bpf_prog_", 9)) {
		for (i = 9; i < 25; i++)
			if (!isxdigit((unsigned char)fn[i]))
				return false;
		return fn[25] == '_' || fn[25] == '\0';
	}
	if (!strncmp(fn, "bpf_trampoline_", 15))
		return isdigit((unsigned char)fn[15]);
	if (!strncmp(fn, "bpf_trace_run", 13))
		return isdigit((unsigned char)fn[13]);
	return !strncmp(fn, "0x", 2);   /* unsymbolized: JIT code without a symbol */
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

static bool plumbing_function(const char *fn)
{
	return in_list(fn, plumbing) || generated_name(fn);
}

/* JIT code and trampolines: BPF's "[bpf]" and ftrace's "[__builtin__ftrace]" */
static bool plumbing_module(const char *frame)
{
	static const char *const mods[] = { " [bpf]", " [__builtin__ftrace]", NULL };
	size_t n = strlen(frame), k;
	const char *const *m;

	for (m = mods; *m; m++) {
		k = strlen(*m);
		if (n > k && !strcmp(frame + n - k, *m))
			return true;
	}
	return false;
}

bool frame_is_plumbing(const char *frame)
{
	char fn[128];

	if (plumbing_module(frame))
		return true;
	return plumbing_function(frame_function(frame, fn, sizeof(fn)));
}

size_t callsite_hook_frames(char *const *frames, size_t n)
{
	char fn[128];
	size_t i;

	for (i = 0; i < n; i++)
		if (in_list(frame_function(frames[i], fn, sizeof(fn)), cap_api))
			return i;
	for (i = 0; i < n && frame_is_plumbing(frames[i]); i++)
		;
	return i;
}

/* Is function fn (a base name: no ".isra.0") part of the capability API
 * or of the tracer's plumbing, i.e. never a call site? */
static bool skip_frame(const char *fn)
{
	return in_list(fn, cap_api) || plumbing_function(fn);
}

void callsite_skipped_names(const char *const **api, const char *const **plumb)
{
	*api = cap_api;
	*plumb = plumbing;
}

int callsite_index(char *const *stack, size_t n)
{
	char fn[128];
	size_t i;

	for (i = 0; i < n; i++) {
		frame_function(stack[i], fn, sizeof(fn));
		if (fn[0] && !skip_frame(fn) && !plumbing_module(stack[i]))
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
