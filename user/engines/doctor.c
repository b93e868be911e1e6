// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit doctor: kernel, BTF, lockdown, the sysctls that decide what an
 * unprivileged tracer may do, which attach modes really load and attach
 * (with the privileges `record` keeps), kernel symbols, privileges.
 */
#include "engines/doctor.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tracer/ksyms_iter.h"
#include "tracer/tracer.h"

static void read_lockdown(char *buf, size_t len)
{
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");
	char line[128] = "", *a, *b;

	if (!f) {
		snprintf(buf, len, "unknown (securityfs not mounted at /sys/kernel/security)");
		return;
	}
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	a = strchr(line, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b)
		snprintf(buf, len, "%.*s", (int)(b - a - 1), a + 1);
	else
		snprintf(buf, len, "unknown");
}

static void probe_modes(struct doctor *d, const struct kprobe_events *kpe)
{
	struct tracer_cfg cfg = { .self_tgid = (uint32_t)getpid(), .kprobe_events = kpe };
	struct tracer t;
	char err[1024];
	size_t i;

	d->chosen = -1;
	for (i = 0; i < ATTACH_NR - 1; i++) {
		struct doctor_mode *m = &d->modes[i];

		m->mode = attach_auto_order[i];
		cfg.modes.m[0] = m->mode;
		cfg.modes.n = 1;
		if (!tracer_start(&t, &cfg, NULL, NULL, err, sizeof(err))) {
			m->ok = true;
			tracer_close(&t);
			if (d->chosen < 0)
				d->chosen = (int)i;
		} else {
			snprintf(m->why, sizeof(m->why), "%s", t.why[m->mode]);
		}
	}
}

void doctor_probe(struct doctor *d, const char *argv0)
{
	struct kprobe_events kpe = { .entry = -1, .ret = -1 };
	struct utsname uts;
	struct ksyms *ks = NULL;
	char err[512];

	d->needed = PRIVS_NEEDED;
	uname(&uts);
	snprintf(d->kernel, sizeof(d->kernel), "%s", uts.release);
	snprintf(d->machine, sizeof(d->machine), "%s", uts.machine);
	d->btf = !access("/sys/kernel/btf/vmlinux", R_OK);
	read_lockdown(d->lockdown, sizeof(d->lockdown));
	d->perf_event_paranoid = read_sysctl("/proc/sys/kernel/perf_event_paranoid", SYSCTL_UNKNOWN);
	d->kptr_restrict = read_sysctl("/proc/sys/kernel/kptr_restrict", SYSCTL_UNKNOWN);
	d->unprivileged_bpf_disabled = read_sysctl("/proc/sys/kernel/unprivileged_bpf_disabled", SYSCTL_UNKNOWN);
	d->dmesg_restrict = read_sysctl("/proc/sys/kernel/dmesg_restrict", SYSCTL_UNKNOWN);
	d->tracefs = tracefs_dir() != NULL;
	privs_read(&d->held);
	/* as record does before the drop: RLIMIT_MEMLOCK raised, kprobe
	 * mode's perf events opened, /proc/kallsyms read without iter/ksym */
	privs_raise_memlock();
	kprobe_events_open(&kpe);
	d->iter_ksym = ksym_iter_supported();
	if (!d->iter_ksym)
		ks = ksyms_best(&d->ksyms_source, d->ksyms_err, sizeof(d->ksyms_err));
	if (privs_check(argv0, d->priv_err, sizeof(d->priv_err)) == 0) {
		/* probe with what record keeps, not with what we were given */
		if (privs_drop(err, sizeof(err)))
			snprintf(d->priv_err, sizeof(d->priv_err), "%s", err);
		else
			d->dropped = true;
	}
	privs_read(&d->recording);
	probe_modes(d, &kpe);
	d->kprobes = !access("/sys/bus/event_source/devices/kprobe/type", F_OK);
	if (!d->priv_err[0])
		d->kfeat_known = kfeat_use(&d->kfeat, d->kprobes, err, sizeof(err)) == 0;
	d->memlock_charged = bpf_memlock_charged();
	d->memlock_kib = privs_memlock_kib();
	kprobe_events_close(&kpe);
	if (d->iter_ksym)
		ks = ksyms_best(&d->ksyms_source, d->ksyms_err, sizeof(d->ksyms_err));
	d->nsyms = ksyms_count(ks);
	ksyms_free(ks);

}
