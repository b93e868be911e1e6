/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Least privilege from a record: the capabilities a workload needs, which
 * of its CAP_SYS_ADMIN uses a narrower capability satisfies, and which
 * denials blocked it. Pure C; docs/suggest.md states the rules.
 */
#ifndef CA_SUGGEST_H
#define CA_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/effect.h"
#include "analyze/objset.h"
#include "analyze/runas.h"
#include "analyze/syscount.h"
#include "facts/capsites.h"
#include "facts/kfacts.h"
#include "lib/hindex.h"
#include "recfile/recfile.h"

enum evidence {
	EV_OBSERVED,  /* narrow denied, then CAP_SYS_ADMIN granted, same path */
	EV_FACT,      /* the kernel-fact table (record from an older kernel) */
	EV_SOURCE,    /* the capability-site table: the kernel's source accepts it */
};

/* What a denied check did, by its effect (analyze/effect.h) and how its
 * syscall ended (record --syscall-results). */
enum denial_kind {
	DENY_BLOCKING,  /* refused, and the program was told: the syscall failed with
			 * EPERM/EACCES or the error the kernel's source returns there,
			 * the netlink ack carried it, or the verifier rejected the program */
	DENY_ADVISORY,  /* the syscall went on, and the refusal changed nothing known
			 * (a kernel fact or the source says so) */
	DENY_UNKNOWN,   /* the record has no syscall results */
	DENY_OTHER_ERROR, /* the syscall failed with another error (errno) */
	DENY_INCONCLUSIVE, /* the syscall was interrupted (EINTR, restarted) */
	DENY_CHANGED,   /* the syscall succeeded, but did less: the kernel's source
			 * changes what it does on a refusal (a set-ID bit cleared) */
	DENY_DONE_WITHOUT, /* refused at an operation programs try and fall back from */
};

/* How much a denial kind says the program was stopped: blocking first. */
int denial_kind_rank(enum denial_kind k);
const char *denial_kind_name(enum denial_kind k);
/* A few words for it: "the syscall failed", "the syscall succeeded, changed". */
const char *denial_kind_words(enum denial_kind k);

/* Where a capability was asked for. */
struct sg_site {
	const char *func;           /* interned in the record */
	const struct kfact *fact;   /* replacements: the fact about this site, or NULL */
	const struct ksite *ksite;  /* the capability-site table's row, or NULL */
	uint64_t alts;              /* kept capabilities: what the kernel accepts
				     * instead at this site (capsites table) */
	bool noaudit_decides;       /* a noaudit check whose denial fails the call */
	const struct kfact *probe;  /* kept capabilities: a feature probe (KF_PROBE)
				     * asked here, or NULL */
	bool not_probe;             /* ... and a check here that was not one */
	uint64_t count;
	struct sys_count *sys;
	size_t nsys, capsys;
	struct obj_set objects;     /* what its checks were about */
};

/* `replace` (CAP_SYS_ADMIN, or another broader capability the kernel
 * accepts there) -> `with` at the call sites listed. */
struct sg_replace {
	int replace;
	int with;
	enum evidence evidence;
	const char *since;          /* first kernel accepting it there, NULL if not cited */
	bool kernel_too_old;        /* the record's kernel predates `since` */
	struct sg_site *sites;
	size_t nsites, capsites;
	struct hindex site_idx;     /* private: sites by function, while building */
};

/* A capability that stays required, and where. */
struct sg_keep {
	int cap;
	struct sg_site *sites;
	size_t nsites, capsites;
	struct hindex site_idx;     /* private: sites by function, while building */
	const struct kfact *why;    /* CAP_SYS_ADMIN only: the fact saying nothing narrower exists */
	uint64_t covered_by;        /* s->cover: every site accepts one of these,
				     * which the set keeps anyway */
};

/* A capability only verify can decide: every check of it was at a site
 * that allows without any capability when a plain condition holds, and
 * the kernel asked the capability first (capsites: allowed_without). */
enum sg_undecided_why {
	UD_ALLOWED_WITHOUT,  /* asked before a plain condition that allows without */
	UD_SYSCTL_OWNER,     /* a sysctl permission handler asked for root */
	UD_SYSADMIN_COVERS,  /* every site also takes CAP_SYS_ADMIN, which the set has */
	UD_PTRACE_UNKNOWN,   /* ptrace access to a process whose set was not read */
	UD_PROBE,            /* granted only at feature probes (kernel fact KF_PROBE) */
	UD_FALLBACK,         /* an operation programs try and fall back from (KF_FALLBACK) */
	UD_PROGRAM,          /* a listing or look-up some programs need, others tolerate */
	UD_VERIFIER,         /* the BPF verifier: stricter without it (KF_VERIFIER) */
};

struct sg_undecided {
	int cap;
	enum sg_undecided_why why;
	const char *func;           /* interned in the record */
	const struct ksite *ksite;
	const struct kfact *fact;   /* UD_PROBE, UD_FALLBACK, UD_PROGRAM, UD_VERIFIER */
	uint64_t count;
	struct obj_set objects;     /* what its checks were about */
};

/* Checks that make no requirement of the host's capability sets, though
 * the kernel made them (audited): set aside, with the reason. */
enum sg_aside_why {
	ASIDE_INSIDE,     /* credentials inside a user namespace: its capabilities */
	ASIDE_OWNER,      /* granted by owning the (child) user namespace */
	ASIDE_CHILD,      /* a child namespace, which of the two not recorded (< v3) */
	ASIDE_NO_EFFECT,  /* the answer could not change the outcome (capset) */
	ASIDE_ADVISORY,   /* granted where the outcome only tunes behaviour (kernel fact) */
	ASIDE_FOREIGN,    /* checked against credentials not the task's own (override_creds) */
};

struct sg_aside {
	int cap;
	enum sg_aside_why why;
	const char *func;           /* interned in the record */
	const struct kfact *fact;   /* ASIDE_ADVISORY: the fact */
	uint64_t granted, denied;
	struct obj_set objects;     /* what its checks were about */
};

/* A denied check that had no granted alternative. */
struct sg_denial {
	int cap;
	int alt;                    /* also accepted there (CAP_SYS_ADMIN), or -1 */
	const char *func;           /* interned in the record */
	uint64_t count, sys_failed;
	uint64_t sys_other;         /* failed with another error, the last: */
	int sys_errno;
	uint64_t sys_restart;       /* interrupted */
	enum denial_kind kind;
	bool in_ack;                /* a netlink request: its error is in the netlink
				     * ack, not in the syscall's return value */
	const char *effect;         /* what the kernel's source does on a denial
				     * there (capsites), NULL if unknown */
	struct effect eff;          /* what the refusal does, along the call chain */
	const char *sysname;        /* the first check's syscall, for the words */
	const struct kfact *fact;   /* KF_ONLY or KF_ADVISORY explanation, or NULL */
	struct sys_count *sys;
	size_t nsys, capsys;
	struct obj_set objects;     /* what its checks were about */
};

/* Ptrace access the kernel allowed without asking for CAP_SYS_PTRACE,
 * because the recording's set covered the target's
 * (cap_ptrace_access_check(): docs/suggest.md). */
struct sg_ptrace {
	uint32_t targets, unknown;  /* over the matched images */
	uint64_t target_prm;        /* the union of the targets' permitted sets */
	bool needs;                 /* `required` does not cover it: CAP_SYS_PTRACE added */
	const struct rec_process *example;  /* an image with an example target */
};

/* What one program image needs; progs[] parallels rec->procs[]. */
struct sg_program {
	const struct rec_process *proc;
	bool matched;               /* selected by --program (always, without it) */
	uint64_t required;
	uint64_t undecided;         /* granted where only verify can decide */
	uint64_t probed;            /* granted at feature probes (KF_PROBE) */
};

struct suggest_opts {
	const char *program;        /* only images whose comm or exe (basename) match */
};

struct suggestion {
	const struct record *rec;
	uint64_t required;          /* replacements applied */
	uint64_t observed;          /* granted audited checks, as seen */
	uint64_t denied;            /* denied with no granted alternative */
	struct sg_replace *repl;
	size_t nrepl, caprepl;
	struct sg_keep *keep;
	size_t nkeep, capkeep;
	struct sg_keep *cover;      /* granted, but every use also accepts a
				     * member of `required` (not required) */
	size_t ncover, capcover;
	struct sg_undecided *undecided; /* not in `required`: verify decides */
	size_t nundecided, capundecided;
	uint64_t undecided_caps;
	struct sg_ptrace ptrace;
	const struct ktable *ktab;  /* the capability-site table used, or NULL */
	bool ktab_exact;            /* of the record's own X.Y */
	struct sg_denial *deny;
	size_t ndeny, capdeny;
	struct sg_aside *aside;     /* by cap, reason, function */
	size_t naside, capaside;
	uint64_t asked;             /* capset(): permitted sets asked for, not required */
	/* record --service (analyze/service.h): what the unit grants, and of
	 * it what no check of the whole record asked for (--program aside) */
	bool service;
	uint64_t service_granted, service_unused;
	struct hindex deny_idx;     /* private: denials by what they count */
	struct sg_program *progs;
	size_t nprogs;
	size_t images_matched;      /* with --program */
	/* a container runtime setting a container up (runc's stages, crun:
	 * workload_is_runtime_setup()): left out of every answer, shown apart */
	size_t runtime_images;
	uint64_t runtime_granted;   /* what its audited checks were granted */
	struct runas runas;         /* who ran the matched images (report --emit) */
	uint64_t only;              /* suggest_keep_caps(): the capabilities shown
				     * (0: all) */
	struct fact_memo *memo;     /* private: kernel-fact lookups of this build */
	struct ks_memo *ksmemo;     /* private: capability-site lookups */
};

int suggest_build(const struct record *r, const struct suggest_opts *o, struct suggestion *s);
void suggest_free(struct suggestion *s);
/*
 * report --suggest --cap: keep what is about the capabilities in caps.
 * The suggestion is built from every check first, so that a fallback
 * still proves a replacement; then a replacement stays when caps has
 * CAP_SYS_ADMIN or its narrower capability (both are then shown), a kept
 * capability or a denial when caps has it (or a denial's alternative),
 * and the sets are those of what stays. s->only says what is shown.
 */
void suggest_keep_caps(struct suggestion *s, uint64_t caps);

/* "CAP_CHECKPOINT_RESTORE" is "CAP_RESTORE" in its original proposal;
 * people search for either. NULL for other capabilities. */
const char *cap_alias(int cap);

#endif
