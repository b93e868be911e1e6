/* SPDX-License-Identifier: GPL-2.0 */
/* What this kernel offers for hooking cap_capable(). */
#ifndef CA_PROBE_H
#define CA_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "facts/attach.h"

/*
 * Cheap checks before loading anything: 0 when the mode may work here,
 * -1 with the reason in why (e.g. "kprobes are not built into this kernel").
 * Loading and attaching remain the final word.
 */
int attach_precheck(enum attach_mode m, char *why, size_t n);

/*
 * Does the kernel's BTF name this type or function? A scan of the string
 * section (no parse: parsing vmlinux BTF costs ~11 MB of memory); a hint
 * for prechecks, not proof. -1 without kernel BTF.
 */
int btf_has_name(const char *name);

/*
 * kprobe mode's perf events on cap_capable() (return, then entry), opened
 * before capaudit drops to CAP_BPF + CAP_PERFMON: Debian's and Ubuntu's
 * kernels add kernel.perf_event_paranoid=3 (their default), at which only
 * CAP_SYS_ADMIN may open perf events (seen on Debian 6.1 and 6.12: EACCES
 * for a CAP_PERFMON-only loader). The BPF programs are attached to these
 * fds later. entry/ret are -1 when not open; err is the errno then.
 */
struct kprobe_events {
	int entry, ret;
	int err;
};
void kprobe_events_open(struct kprobe_events *k);
void kprobe_events_close(struct kprobe_events *k);

/*
 * What the hooks use: kfeat_probe(), with kprobe (kprobe mode) whether a
 * stack can be walked past a kretprobe (KF_KRETPROBE_STACK, from
 * /proc/kallsyms; left clear otherwise), less the features named in
 * $CAPAUDIT_WITHOUT (facts/kfeat.h names, comma-separated), which tries
 * an older kernel's paths on a newer one (tests/e2e/kfeat.bats). 0; 1
 * when the kernel could not be probed (*have then holds only what needs
 * no load); -1 with one line in err when the variable names something
 * else.
 */
int kfeat_use(uint32_t *have, bool kprobe, char *err, size_t errlen);

/*
 * Does this kernel charge BPF maps and programs to RLIMIT_MEMLOCK (before
 * Linux 5.11) rather than to the memory cgroup? From its BTF, so that a
 * limit that refuses every load does not hide it. Cached.
 */
bool bpf_memlock_charged(void);

/*
 * Why a BPF load just refused with err (an errno) may have been refused,
 * when it is RLIMIT_MEMLOCK (EPERM, a kernel that charges it, a finite
 * limit): a sentence into buf, else "".
 */
const char *bpf_memlock_hint(int err, char *buf, size_t n);

/* The number in a one-number procfs/sysfs file, or unknown. */
long read_sysctl(const char *path, long unknown);

/* kernel.perf_event_paranoid, -1 if unreadable */
int perf_event_paranoid(void);

/* The tracefs directory holding events/, or NULL when not mounted. */
const char *tracefs_dir(void);

#endif
