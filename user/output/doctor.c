// SPDX-License-Identifier: GPL-2.0
/* doctor: what this kernel and these privileges allow: as text and as json
 * (the formatters output.c makes of them; output/render.h). */
#include "output/render.h"

#include "analyze/views.h"
#include "facts/capjson.h"
#include "facts/capnames.h"
#include "facts/kfeat.h"
#include "lib/jsonutil.h"

/* ---- text ---------------------------------------------------------------- */

static void sysctl_val(FILE *f, const char *name, long v)
{
	if (v == SYSCTL_UNKNOWN)
		fprintf(f, "  %-32s unknown\n", name);
	else
		fprintf(f, "  %-32s %ld\n", name, v);
}

static int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

/* The BPF features the hooks prefer, and the path each missing one means
 * (facts/kfeat.h); how BPF memory is accounted. */
static void text_doctor_bpf(FILE *f, const struct doctor *d)
{
	char lines[KF_NR][KF_LINE];
	size_t i, n;

	fprintf(f, "\nBPF features the hooks use (docs/kernel-facts.md):\n");
	for (i = 0; i < KF_NR && d->kfeat_known; i++) {
		const struct kfeat_info *k = &kfeat_table[i];

		if (d->kfeat & k->bit)
			fprintf(f, "  %-16s yes: %s\n", k->name, k->what);
		else if (k->bit == KF_KRETPROBE_STACK && !d->kprobes)
			fprintf(f, "  %-16s -: no kprobes here\n", k->name);
		else
			fprintf(f, "  %-16s no: %s needs Linux %s (commit %s); instead %s\n", k->name,
				k->what, k->since, k->commit, k->instead);
	}
	if (!d->kfeat_known)
		fprintf(f, "  not probed: no BPF program loads with the privileges record keeps "
			"(the attach modes above say why)\n");
	n = d->kfeat_known ? kfeat_degraded(KF_ALL & ~d->kfeat, true, d->kprobes, lines, KF_NR) : 0;
	for (i = 0; i < n; i++)
		fprintf(f, "  degraded: %s\n", lines[i]);
	if (!d->memlock_charged)
		fprintf(f, "  %-16s the memory cgroup (Linux %s+)\n", "BPF memory", KF_MEMCG_SINCE);
	else if (d->memlock_kib < 0)
		fprintf(f, "  %-16s RLIMIT_MEMLOCK (before Linux %s): unlimited for the recording "
			"(raised before the privilege drop)\n", "BPF memory", KF_MEMCG_SINCE);
	else
		fprintf(f, "  %-16s RLIMIT_MEMLOCK (before Linux %s): %ld KiB, which CAP_BPF and "
			"CAP_PERFMON cannot raise: run as root, or raise it (ulimit -l unlimited)\n",
			"BPF memory", KF_MEMCG_SINCE, d->memlock_kib);
}

int text_doctor(FILE *f, const struct doctor *d)
{
	char buf[1024];
	size_t i;

	fprintf(f, "capaudit doctor\n");
	fprintf(f, "  %-32s %s (%s)\n", "kernel", d->kernel, d->machine);
	fprintf(f, "  %-32s %s\n", "BTF (/sys/kernel/btf/vmlinux)", d->btf ? "yes" :
		"no: CO-RE programs cannot load");
	fprintf(f, "  %-32s %s\n", "lockdown", d->lockdown);
	sysctl_val(f, "kernel.perf_event_paranoid", d->perf_event_paranoid);
	sysctl_val(f, "kernel.kptr_restrict", d->kptr_restrict);
	sysctl_val(f, "kernel.unprivileged_bpf_disabled", d->unprivileged_bpf_disabled);
	sysctl_val(f, "kernel.dmesg_restrict", d->dmesg_restrict);
	fprintf(f, "  %-32s %s\n", "tracefs", d->tracefs ? "mounted" : "not mounted");

	fprintf(f, "\nAttach modes (load + attach with the privileges record keeps):\n");
	for (i = 0; i < ATTACH_NR - 1; i++) {
		const struct doctor_mode *m = &d->modes[i];

		fprintf(f, "  %-11s %s%s\n", attach_mode_name(m->mode), m->ok ? "works" : "no: ",
			m->ok ? ((int)i == d->chosen ? "  <- record --attach auto uses this" : "") :
			m->why);
	}

	text_doctor_bpf(f, d);

	fprintf(f, "\nKernel symbols: ");
	if (d->ksyms_source)
		fprintf(f, "%s, %zu text symbols\n", d->ksyms_source, d->nsyms);
	else
		fprintf(f, "unavailable: %s\n", d->ksyms_err);
	if (!d->iter_ksym)
		fprintf(f, "  (no iter/ksym iterator, Linux 6.0+: /proc/kallsyms is read before the "
			"privilege drop, which shows addresses with CAP_SYSLOG, or to anyone at "
			"kernel.perf_event_paranoid <= 1 with kptr_restrict 0)\n");

	fprintf(f, "\nPrivileges:\n");
	fprintf(f, "  %-10s uid %u, effective %s\n", "held",
		d->held.euid, popcount64(d->held.eff) > 6 ?
		(snprintf(buf, sizeof(buf), "%d capabilities", popcount64(d->held.eff)), buf) :
		capset_str(d->held.eff, buf, sizeof(buf)));
	fprintf(f, "  %-10s %s\n", "needed", capset_str(d->needed, buf, sizeof(buf)));
	if (d->dropped)
		fprintf(f, "  %-10s %s; bounding %s; no_new_privs %s\n", "recording",
			capset_str(d->recording.eff, buf, sizeof(buf)),
			d->recording.bnd == (d->recording.bnd & d->needed) ? "reduced to them" :
			"unchanged (no CAP_SETPCAP)", d->recording.no_new_privs ? "set" : "not set");
	if (d->priv_err[0])
		fprintf(f, "  problem: %s\n", d->priv_err);

	fputc('\n', f);
	if (d->chosen >= 0 && !d->priv_err[0])
		fprintf(f, "Verdict: capaudit record works here (attach %s).\n",
			attach_mode_name(d->modes[d->chosen].mode));
	else
		fprintf(f, "Verdict: capaudit record cannot work here: %s\n",
			d->priv_err[0] ? d->priv_err : "no attach mode loads and attaches");
	return ferror(f) ? -1 : 0;
}

/* ---- json ---------------------------------------------------------------- */

static json_t *sysctl_json(long v)
{
	return v == SYSCTL_UNKNOWN ? json_null() : json_integer(v);
}

static json_t *privs_json(const struct privs *p)
{
	json_t *o = json_object();

	json_set(o, "uid", json_integer(p->uid));
	json_set(o, "euid", json_integer(p->euid));
	json_set(o, "effective", json_capset(p->eff));
	json_set(o, "permitted", json_capset(p->prm));
	json_set(o, "inheritable", json_capset(p->inh));
	json_set(o, "bounding", json_capset(p->bnd));
	json_set(o, "ambient", json_capset(p->amb));
	json_set(o, "no_new_privs", json_boolean(p->no_new_privs));
	return o;
}

/* {"task_btf": true, ..., "memlock": {...}, "degraded": [...]}: the BPF
 * features the hooks prefer (null: not probed), how BPF memory counts */
static json_t *doctor_bpf_json(const struct doctor *d)
{
	json_t *o = json_object(), *ml = json_object(), *deg = json_array();
	char lines[KF_NR][KF_LINE];
	size_t i, n;

	for (i = 0; i < KF_NR; i++)   /* null: not probed, or no kprobes to matter */
		json_set(o, kfeat_table[i].name, d->kfeat_known && (d->kprobes ||
			 kfeat_table[i].bit != KF_KRETPROBE_STACK) ?
			 json_boolean(d->kfeat & kfeat_table[i].bit) : json_null());
	n = d->kfeat_known ? kfeat_degraded(KF_ALL & ~d->kfeat, true, d->kprobes, lines, KF_NR) : 0;
	for (i = 0; i < n; i++)
		json_array_append_new(deg, json_string(lines[i]));
	json_set(o, "degraded", deg);
	json_set(ml, "rlimit", json_boolean(d->memlock_charged));
	json_set(ml, "limit_kib", d->memlock_kib < 0 ? json_null() : json_integer(d->memlock_kib));
	json_set(o, "memlock", ml);
	return o;
}

int json_doctor(FILE *f, const struct doctor *d)
{
	json_t *root = json_object(), *sys = json_object(), *modes = json_array();
	json_t *ks = json_object(), *pv = json_object();
	size_t i;

	json_set(root, "kernel", json_string(d->kernel));
	json_set(root, "machine", json_string(d->machine));
	json_set(root, "btf", json_boolean(d->btf));
	json_set(root, "lockdown", json_string(d->lockdown));
	json_set(sys, "perf_event_paranoid", sysctl_json(d->perf_event_paranoid));
	json_set(sys, "kptr_restrict", sysctl_json(d->kptr_restrict));
	json_set(sys, "unprivileged_bpf_disabled", sysctl_json(d->unprivileged_bpf_disabled));
	json_set(sys, "dmesg_restrict", sysctl_json(d->dmesg_restrict));
	json_set(root, "sysctl", sys);
	json_set(root, "tracefs", json_boolean(d->tracefs));
	for (i = 0; i < ATTACH_NR - 1; i++) {
		json_t *m = json_object();

		json_set(m, "mode", json_string(attach_mode_name(d->modes[i].mode)));
		json_set(m, "works", json_boolean(d->modes[i].ok));
		if (!d->modes[i].ok)
			json_set(m, "why", json_string(d->modes[i].why));
		json_array_append_new(modes, m);
	}
	json_set(root, "attach_modes", modes);
	json_set(root, "attach_auto", d->chosen >= 0 ?
		 json_string(attach_mode_name(d->modes[d->chosen].mode)) : json_null());
	json_set(root, "bpf_features", doctor_bpf_json(d));
	json_set(ks, "iter_ksym", json_boolean(d->iter_ksym));
	json_set(ks, "source", d->ksyms_source ? json_string(d->ksyms_source) : json_null());
	json_set(ks, "count", json_uint(d->nsyms));
	if (!d->ksyms_source)
		json_set(ks, "error", json_string(d->ksyms_err));
	json_set(root, "symbols", ks);
	json_set(pv, "held", privs_json(&d->held));
	json_set(pv, "needed", json_capset(d->needed));
	if (d->dropped)
		json_set(pv, "recording", privs_json(&d->recording));
	if (d->priv_err[0])
		json_set(pv, "problem", json_string(d->priv_err));
	json_set(root, "privileges", pv);
	json_set(root, "record_works", json_boolean(d->chosen >= 0 && !d->priv_err[0]));
	return json_write_pretty_free(f, root);
}
