// SPDX-License-Identifier: GPL-2.0
#include "probe.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* Does the running kernel's BTF have name of kind? -1 if no BTF at all. */
static int btf_has(const char *name, int kind)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, name, kind);
	btf__free(btf);
	return id > 0;
}

int attach_precheck(enum attach_mode m, char *why, size_t n)
{
	const char *tfs;
	char path[160];
	int r;

	switch (m) {
	case ATTACH_TP_BTF:
		r = btf_has("btf_trace_cap_capable", BTF_KIND_TYPEDEF);
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
		r = btf_has("cap_capable", BTF_KIND_FUNC);
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
