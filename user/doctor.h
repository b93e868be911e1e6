/* SPDX-License-Identifier: GPL-2.0 */
/* capaudit doctor: what this host offers a capability tracer. */
#ifndef CA_DOCTOR_H
#define CA_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "privs.h"
#include "probe.h"

#define SYSCTL_UNKNOWN (-9999)

struct doctor_mode {
	enum attach_mode mode;
	bool ok;
	char why[320];
};

struct doctor {
	char kernel[128], machine[72];
	bool btf;
	char lockdown[96];
	long perf_event_paranoid, kptr_restrict, unprivileged_bpf_disabled, dmesg_restrict;
	bool tracefs;
	struct doctor_mode modes[ATTACH_NR - 1];   /* in attach_auto_order */
	int chosen;                  /* index into modes, -1 if none works */
	bool iter_ksym;
	const char *ksyms_source;    /* NULL: none */
	size_t nsyms;
	char ksyms_err[512];
	struct privs held;           /* when capaudit started */
	struct privs recording;      /* what record keeps (after the drop) */
	bool dropped;
	char priv_err[512];          /* missing privileges, or "" */
};

int do_doctor(int argc, char **argv, int all_argc, char **all_argv);

#endif
