// SPDX-License-Identifier: GPL-2.0
#include "tracer/probe.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "facts/kfacts.h"
#include "facts/kfeat.h"

const char *tracefs_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/events", dirs[i]);
		if (!access(path, F_OK))
			return dirs[i];
	}
	return NULL;
}

int btf_has_name(const char *name)
{
	size_t nl = strlen(name), keep = nl + 1, n, have = 0;
	char *buf, pat[160];
	FILE *f;
	int found = 0;

	if (nl + 2 > sizeof(pat))
		return 0;
	f = fopen("/sys/kernel/btf/vmlinux", "r");
	if (!f)
		return -1;
	/* "\0name\0": a whole string of the string section */
	pat[0] = '\0';
	memcpy(pat + 1, name, nl);
	pat[nl + 1] = '\0';
	buf = malloc((1 << 20) + keep);
	while (buf && !found && (n = fread(buf + have, 1, 1 << 20, f)) > 0) {
		have += n;
		found = memmem(buf, have, pat, nl + 2) != NULL;
		/* keep a tail: a match may straddle two reads */
		if (have > keep) {
			memmove(buf, buf + have - keep, keep);
			have = keep;
		}
	}
	free(buf);
	fclose(f);
	return found;
}

int attach_precheck(enum attach_mode m, char *why, size_t n)
{
	const char *tfs;
	char path[160];
	int r;

	switch (m) {
	case ATTACH_TP_BTF:
		r = btf_has_name("btf_trace_cap_capable");
		if (r < 0)
			snprintf(why, n, "no kernel BTF (/sys/kernel/btf/vmlinux)");
		else if (!r)
			snprintf(why, n, "no capability:cap_capable trace event (needs Linux 6.14+)");
		return r > 0 ? 0 : -1;
	case ATTACH_TRACEPOINT:
		tfs = tracefs_dir();
		if (!tfs) {
			if (!access("/sys/kernel/tracing", F_OK) &&
			    access("/sys/kernel/tracing/events", F_OK) && errno == EACCES)
				snprintf(why, n, "tracefs is not readable by this user (tp_btf needs "
					 "no tracefs)");
			else
				snprintf(why, n, "tracefs is not mounted (mount -t tracefs nodev "
					 "/sys/kernel/tracing)");
			return -1;
		}
		snprintf(path, sizeof(path), "%s/events/capability/cap_capable/id", tfs);
		if (access(path, R_OK)) {
			if (errno == ENOENT)
				snprintf(why, n, "no capability:cap_capable trace event (needs Linux 6.14+)");
			else
				snprintf(why, n, "%s: %s", path, strerror(errno));
			return -1;
		}
		return 0;
	case ATTACH_FEXIT:
		r = btf_has_name("cap_capable");
		if (r <= 0) {
			snprintf(why, n, r < 0 ? "no kernel BTF (/sys/kernel/btf/vmlinux)" :
				 "cap_capable is not in the kernel BTF");
			return -1;
		}
		return 0;
	case ATTACH_KPROBE:
		if (access("/sys/bus/event_source/devices/kprobe/type", F_OK)) {
			snprintf(why, n, "kprobes are not built into this kernel (no kprobe PMU)");
			return -1;
		}
		return 0;
	default:
		snprintf(why, n, "not a concrete attach mode");
		return -1;
	}
}

long read_sysctl(const char *path, long unknown)
{
	FILE *f = fopen(path, "r");
	long v;

	if (!f)
		return unknown;
	if (fscanf(f, "%ld", &v) != 1)
		v = unknown;
	fclose(f);
	return v;
}

/* "config:0" in the kprobe PMU's format/retprobe: the bit that makes a
 * return probe */
static int retprobe_bit(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/kprobe/format/retprobe", "r");
	int bit = -1;

	if (!f)
		return -1;
	if (fscanf(f, "config:%d", &bit) != 1 || bit < 0 || bit > 63)
		bit = -1;
	fclose(f);
	return bit;
}

static int open_probe(int type, int bit, bool ret)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (__u32)type;
	attr.config = ret ? 1ULL << bit : 0;
	attr.config1 = (__u64)(uintptr_t)"cap_capable";   /* kprobe_func */
	attr.config2 = 0;                                 /* offset */
	return (int)syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
}

void kprobe_events_open(struct kprobe_events *k)
{
	int type = (int)read_sysctl("/sys/bus/event_source/devices/kprobe/type", -1);
	int bit = retprobe_bit();

	k->entry = k->ret = -1;
	k->err = 0;
	if (type < 0 || bit < 0) {
		k->err = ENOENT;
		return;
	}
	/* the return probe first: its entry handler then runs after the
	 * entry probe (tracer/tracer.c attach_kprobes() says why) */
	k->ret = open_probe(type, bit, true);
	if (k->ret < 0) {
		k->err = errno;
		return;
	}
	k->entry = open_probe(type, bit, false);
	if (k->entry < 0) {
		k->err = errno;
		close(k->ret);
		k->ret = -1;
	}
}

void kprobe_events_close(struct kprobe_events *k)
{
	if (k->entry >= 0)
		close(k->entry);
	if (k->ret >= 0)
		close(k->ret);
	k->entry = k->ret = -1;
}

int perf_event_paranoid(void)
{
	return (int)read_sysctl("/proc/sys/kernel/perf_event_paranoid", -1);
}

/* 1 if a kprobe program may call the helper, else 0 (an error included:
 * the load decides then, on the path that needs least) */
static uint32_t helper_ok(enum bpf_func_id id)
{
	return libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, id, NULL) == 1;
}

/* Is a kernel function of this name in /proc/kallsyms (names are shown
 * to anyone, addresses only with CAP_SYSLOG)? */
static bool kallsyms_has(const char *const *names)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char *line = NULL, *sym;
	size_t cap = 0, i;
	bool found = false;

	while (f && !found && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\t\n")] = '\0';
		sym = strrchr(line, ' ');
		for (i = 0; sym && names[i] && !found; i++)
			found = !strcmp(sym + 1, names[i]);
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

/* Can a stack be walked past a kretprobe? The x86 unwinder learns the
 * return address the trampoline took from kretprobe_find_ret_addr()
 * since 5.15 (commit 19138af1bd88), from rethook_find_ret_addr() once
 * kretprobes run on rethook (6.0); before, the walk ends at
 * kretprobe_trampoline. arm64's asks kretprobe_find_ret_addr() only
 * since 5.16 (commit cd9bc2c92588, arch/arm64/kernel/stacktrace.c),
 * whose name alone says nothing of that: its release does (one that
 * does not parse: the walk at the entry, which works everywhere). */
static bool kretprobe_stack_ok(void)
{
	static const char *const names[] = { "kretprobe_find_ret_addr", "rethook_find_ret_addr",
		NULL };
#if defined(__aarch64__)
	struct utsname u;

	if (uname(&u) || kver_cmp(u.release, "5.16") < 0)
		return false;
#endif
	return kallsyms_has(names);
}

/*
 * The hooks' preferred BPF features this kernel has (facts/kfeat.h KF_*)
 * into *have: 0, or -1 (none) when not even a bare kprobe program loads,
 * each helper probed once with libbpf_probe_bpf_helper() in a kprobe
 * program: the helpers at stake are offered to every tracing program type
 * alike (kernel/trace/bpf_trace.c bpf_tracing_func_proto()). The three
 * that take a task need the BTF pointer of bpf_get_current_task_btf(), so
 * without it none is used. Loads small programs (CAP_BPF and CAP_PERFMON);
 * cached for the process.
 */
static int kfeat_probe(uint32_t *out)
{
	static int probed = -2;   /* -2: not yet */
	static uint32_t have;

	if (probed != -2) {
		*out = have;
		return probed;
	}
	/* a helper probe that cannot load at all (RLIMIT_MEMLOCK before 5.11,
	 * no CAP_PERFMON) reads as "supported": a bare program must load
	 * first (libbpf_probe_bpf_helper() only tells a refused helper from
	 * any other failure by the verifier's words) */
	probed = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_KPROBE, NULL) == 1 ? 0 : -1;
	*out = have = 0;
	if (probed || !helper_ok(BPF_FUNC_get_current_task_btf))
		return probed;
	have = KF_TASK_BTF;
	have |= helper_ok(BPF_FUNC_task_pt_regs) ? KF_TASK_PT_REGS : 0;
	have |= helper_ok(BPF_FUNC_find_vma) ? KF_FIND_VMA : 0;
	have |= helper_ok(BPF_FUNC_task_storage_get) ? KF_TASK_STORAGE : 0;
	*out = have;
	return 0;
}

int kfeat_use(uint32_t *have, bool kprobe, char *err, size_t errlen)
{
	static int kretprobe = -1;
	char why[200];
	uint32_t without;
	int rc;

	*have = 0;
	if (kfeat_parse_list(getenv("CAPAUDIT_WITHOUT"), &without, why, sizeof(why))) {
		snprintf(err, errlen, "CAPAUDIT_WITHOUT: %s", why);
		return -1;
	}
	rc = kfeat_probe(have);
	if (kprobe && kretprobe < 0)   /* a scan of /proc/kallsyms: only when asked */
		kretprobe = kretprobe_stack_ok();
	if (kprobe && kretprobe)
		*have |= KF_KRETPROBE_STACK;
	*have &= ~without;
	if (!(*have & KF_TASK_BTF))   /* these take its task pointer */
		*have &= ~(KF_TASK_PT_REGS | KF_FIND_VMA | KF_TASK_STORAGE);
	return rc ? 1 : 0;
}

const char *bpf_memlock_hint(int err, char *buf, size_t n)
{
	struct rlimit r;

	buf[0] = '\0';
	if ((err == EPERM || err == -EPERM) && bpf_memlock_charged() &&
	    !getrlimit(RLIMIT_MEMLOCK, &r) && r.rlim_cur != RLIM_INFINITY)
		snprintf(buf, n, "before Linux %s BPF maps and programs count against "
			 "RLIMIT_MEMLOCK (%llu KiB here), which only CAP_SYS_RESOURCE raises: "
			 "run capaudit as root, or raise it first (ulimit -l unlimited, "
			 "LimitMEMLOCK=infinity)", KF_MEMCG_SINCE,
			 (unsigned long long)(r.rlim_cur / 1024));
	return buf;
}

bool bpf_memlock_charged(void)
{
	static int charged = -1;

	/* struct bpf_map_memory held a map's charge (user, pages) until the
	 * charge went (commit 80ee81e0403c, 5.11); a name in the kernel's BTF,
	 * found without loading anything (which the limit may refuse) */
	if (charged < 0)
		charged = btf_has_name("bpf_map_memory") > 0;
	return charged;
}
