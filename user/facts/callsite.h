/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a symbolized kernel stack: where the capability was asked for,
 * and whether the check was a noaudit probe rather than a need.
 */
#ifndef CA_CALLSITE_H
#define CA_CALLSITE_H

#include <stdbool.h>
#include <stddef.h>

/* The function name of frame "func+0x1a [mod]" into buf ("func"). */
const char *frame_function(const char *frame, char *buf, size_t len);

/* The two lists of functions that are never a call site (NULL-terminated):
 * the capability API and the tracer's plumbing; names made by the tracer
 * (bpf_prog_<tag>_..., bpf_trampoline_N, bpf_trace_runN) match by pattern. */
void callsite_skipped_names(const char *const **api, const char *const **plumbing);

/* Is this frame the tracer's own (BPF program, trampoline, kprobe)? */
bool frame_is_plumbing(const char *frame);

/*
 * How many of the innermost frames of a stack walked at the hook are the
 * hook's own: those before the first frame of the capability API where
 * there is one (BPF programs, trampolines, tracing glue; without iter/ksym,
 * BPF code loaded after /proc/kallsyms was read is named after the last
 * kernel symbol, "exit_amd_microcode+0x1dc80ab5" on Debian's 5.10), else
 * the leading plumbing frames.
 */
size_t callsite_hook_frames(char *const *frames, size_t n);

/*
 * Index of the call site in stack (innermost first): the first frame that
 * is neither the capability machinery (cap_capable, security_capable,
 * capable, ns_capable, bpf_token_capable, ...) nor tracing plumbing.
 * -1 if the stack holds none.
 */
int callsite_index(char *const *stack, size_t n);

enum noaudit_source {
	NOAUDIT_NO = 0,
	NOAUDIT_OPTS,      /* the hook saw CAP_OPT_NOAUDIT */
	NOAUDIT_API,       /* a *_noaudit API frame is on the stack */
	NOAUDIT_CALLER,    /* a known caller that passes CAP_OPT_NOAUDIT itself */
};

/*
 * Classify a check from its stack when the hook gave no opts (trace
 * event): see docs/noaudit.md for the rule.
 */
enum noaudit_source noaudit_from_stack(char *const *stack, size_t n);
const char *noaudit_source_name(enum noaudit_source s);

#endif
