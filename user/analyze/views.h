/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results that do not come from a record, as plain data for output/: what
 * `doctor` found out about the host, one `run`'s verdict, one `verify`'s
 * proof. Filled in tracer/, record/, engines/ and cli/, printed by
 * output/ (which includes none of them).
 */
#ifndef CA_ANALYZE_VIEWS_H
#define CA_ANALYZE_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/objset.h"
#include "analyze/verdict.h"
#include "facts/attach.h"

struct suggestion;

/* A process's capability sets and ids (tracer/privs.c reads them). */
struct privs {
	uint32_t uid, euid;
	uint64_t eff, prm, inh, bnd, amb;
	bool no_new_privs;
};

/* ---- doctor ---- */

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
	/* the BPF features the hooks prefer (facts/kfeat.h): those the kernel
	 * has, probed with the privileges record keeps (kfeat_known false
	 * when those are missing) */
	bool kfeat_known;
	uint32_t kfeat;
	bool kprobes;                /* a kprobe PMU: kretprobe_stack can matter */
	/* BPF maps and programs count against RLIMIT_MEMLOCK (before 5.11);
	 * the limit they then have (KiB, -1 unlimited: raised before the
	 * drop, as record does) */
	bool memlock_charged;
	long memlock_kib;
	bool iter_ksym;
	const char *ksyms_source;    /* NULL: none */
	size_t nsyms;
	char ksyms_err[512];
	uint64_t needed;             /* what record keeps: CAP_BPF and CAP_PERFMON */
	struct privs held;           /* when capaudit started */
	struct privs recording;      /* what record keeps (after the drop) */
	bool dropped;
	char priv_err[512];          /* missing privileges, or "" */
};

/* ---- run ---- */

/* What `capaudit run` prints about one run. */
struct run_result {
	char **cmd;
	uint64_t caps;
	const char *user;        /* NULL: as root */
	const char *service;     /* run --service: the unit file, or NULL */
	int exit_status;
	const char *check;       /* --check SHELL TEST, or NULL */
	int check_status;        /* its exit status */
	bool enough;             /* the verdict: it exited 0 (and --check passed), and
				  * no refusal changed or stopped what it did */
	struct verdict verdict;  /* why (analyze/verdict.h) */
	const char *record;      /* the record file written */
	const struct suggestion *sg;
};

/* ---- verify ---- */

/* What the removal of one member of the set showed. */
struct verify_member {
	int cap;
	bool kept;               /* its removal made the command fail */
	int replaced_by;         /* dropped in favour of this narrower one, or -1 */
	uint64_t replaced_by_set; /* ... of these narrower ones (one or more) */
	uint64_t broader_refused; /* kept: what its absence revealed that is not
				   * narrower (never tried in its place) */
	uint64_t narrower_failed; /* kept: narrower ones tried in its place, in vain */
	bool timed_out;          /* the run without it passed --timeout */
	bool userspace;          /* no kernel denial (but those of runs that
				  * succeeded): the program refused by itself */
	int exit_status, check_status;   /* of the run without it */
	int deny_cap;            /* the denial that most likely stopped it, or -1 */
	char *deny_func;         /* its call site */
	struct obj_set deny_objects;  /* what it was about (owned: the run's
				       * record is gone when this is shown) */
	bool exec_refused;       /* the kernel refused to execute the command */
	bool asked;              /* the program asked capset() to keep it */
	/* kept though the command exited 0 (analyze/verdict.h): RV_CHANGED or
	 * RV_REFUSED, with the denial that decided (its call site is deny_func) */
	enum run_verdict verdict;
	struct sg_denial deny;   /* a copy: func, sysname, sys, fact and objects
				  * not valid (deny_objects holds them) */
	char *deny_sysname;
	/* dropped: its refusals in the run that succeeded without it, and
	 * what each was (every one changed nothing the set needs) */
	struct verify_refusal {
		char *func;
		enum denial_kind kind;
		enum eff_kind eff;
		bool lookup;
		uint64_t count;
		struct obj_set objects;   /* owned */
	} refusals[4];
	size_t nrefusals;
	uint64_t more_refusals;  /* checks beyond those four sites */
};

struct verify_result {
	char **cmd;
	const char *user, *check;
	bool keep_path;          /* --user with the caller's PATH */
	int runs;
	bool proven;
	uint64_t set;            /* the proven set */
	bool have_suggested;
	uint64_t suggested;      /* report --suggest's, on the first run */
	char failure[1024];      /* why none was proven */
	bool restarted;          /* the suggested set failed with no denial naming what
				  * it lacked: the search dropped members from the
				  * first run's set instead */
	int interrupted;         /* the signal that stopped verify, 0 if none */
	double timeout;          /* seconds per run */
	int max_runs;
	size_t leftovers;        /* processes runs left behind (stopped) */
	char leftover_example[160]; /* "123 (sleep), 124 (perl) after run 4": the first run that left any */
	bool no_box;             /* runs went without a cgroup of their own: */
	char no_box_why[200];
	struct verify_member members[64];
	size_t nmembers;
	/* for --emit: the first run's suggestion, with the proven set */
	const struct suggestion *sg;
	const char *const *emit;
	size_t nemit;
	const char *emitted_to;  /* --emit-to: where the one snippet went ("-":
				  * standard output), or NULL */
	/* verify --service: the unit file, its name (or NULL), its User=
	 * (NULL: root) and what it grants */
	const char *service, *service_name, *service_user;
	uint64_t service_granted;
};

#endif
