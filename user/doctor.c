// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit doctor: kernel, BTF, lockdown, the sysctls that decide what an
 * unprivileged tracer may do, which attach modes really load and attach
 * (with the privileges `record` keeps), kernel symbols, privileges.
 */
#include "doctor.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "ksyms_iter.h"
#include "output.h"
#include "tracer.h"

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

static const char doctor_usage[] =
	"usage: capaudit doctor [--format text|json]\n"
	"  what this host offers: kernel, BTF, lockdown, sysctls, attach modes that\n"
	"  load and attach with the privileges `record` keeps, kernel symbols,\n"
	"  privileges held against those needed. Exit 0 when record can work.\n";

int do_doctor(int argc, char **argv, int all_argc, char **all_argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *fmt_name = "text";
	const struct formatter *fmt;
	struct kprobe_events kpe = { .entry = -1, .ret = -1 };
	struct doctor d = { 0 };
	struct utsname uts;
	struct ksyms *ks;
	char err[512];
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			fmt_name = optarg;
			break;
		case 'h':
			fputs(doctor_usage, stdout);
			return EXIT_OK;
		default:
			fputs(doctor_usage, stderr);
			return EXIT_USAGE;
		}
	}
	fmt = formatter_find(fmt_name);
	if (fmt == &output_json)
		cli_json_errors = true;
	if (!fmt || !fmt->doctor) {
		p_err("unknown format '%s' for doctor (text, json)", fmt_name);
		return EXIT_USAGE;
	}
	if (optind < argc) {
		p_err("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}

	uname(&uts);
	snprintf(d.kernel, sizeof(d.kernel), "%s", uts.release);
	snprintf(d.machine, sizeof(d.machine), "%s", uts.machine);
	d.btf = !access("/sys/kernel/btf/vmlinux", R_OK);
	read_lockdown(d.lockdown, sizeof(d.lockdown));
	d.perf_event_paranoid = read_sysctl("/proc/sys/kernel/perf_event_paranoid", SYSCTL_UNKNOWN);
	d.kptr_restrict = read_sysctl("/proc/sys/kernel/kptr_restrict", SYSCTL_UNKNOWN);
	d.unprivileged_bpf_disabled = read_sysctl("/proc/sys/kernel/unprivileged_bpf_disabled", SYSCTL_UNKNOWN);
	d.dmesg_restrict = read_sysctl("/proc/sys/kernel/dmesg_restrict", SYSCTL_UNKNOWN);
	d.tracefs = tracefs_dir() != NULL;
	privs_read(&d.held);
	/* as record does: kprobe mode's perf events before the drop */
	kprobe_events_open(&kpe);
	if (privs_check(all_argv[0], d.priv_err, sizeof(d.priv_err)) == 0) {
		/* probe with what record keeps, not with what we were given */
		if (privs_drop(err, sizeof(err)))
			snprintf(d.priv_err, sizeof(d.priv_err), "%s", err);
		else
			d.dropped = true;
	}
	privs_read(&d.recording);
	probe_modes(&d, &kpe);
	kprobe_events_close(&kpe);
	d.iter_ksym = ksym_iter_supported();
	ks = ksyms_best(&d.ksyms_source, d.ksyms_err, sizeof(d.ksyms_err));
	d.nsyms = ksyms_count(ks);
	ksyms_free(ks);

	rc = fmt->doctor(stdout, &d);
	if (fflush(stdout) || rc) {
		p_err("cannot write the report: output error");
		return EXIT_FAIL;
	}
	return d.chosen >= 0 && !d.priv_err[0] ? EXIT_OK : EXIT_FAIL;
}
