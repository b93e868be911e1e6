/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel accepts at a call site, as cited facts (see
 * docs/kernel-facts.md: kernel files and functions). The suggester uses
 * them when a record cannot show it (an older kernel, where the narrow
 * check did not exist yet) and to explain denials.
 */
#ifndef CA_KFACTS_H
#define CA_KFACTS_H

#include <stdbool.h>

enum kfact_kind {
	/* `cap` is checked first and CAP_SYS_ADMIN accepted instead */
	KF_NARROW_OR_SYSADMIN,
	/* only `cap` is accepted: CAP_SYS_ADMIN does not substitute
	 * (sysadmin_until: the last version where it still did, or NULL) */
	KF_ONLY,
	/* only CAP_SYS_ADMIN is accepted: no narrower capability exists */
	KF_SYSADMIN_ONLY,
	/* a denial here changes nothing for the caller (features, hardening) */
	KF_ADVISORY,
	/* an optional feature programs try and do without when refused (a
	 * new interface with an older one beside it, extra fields in an
	 * answer): granted here, `cap` is a probe that only verify decides */
	KF_PROBE,
	/* decided later: the BPF verifier checks a program more strictly
	 * without `cap`; whether it still accepts this program only loading
	 * it shows */
	KF_VERIFIER,
	/* an operation programs try and fall back from when refused, to a
	 * plainer one beside it (SO_RCVBUFFORCE, then SO_RCVBUF) */
	KF_FALLBACK,
	/* a listing or a look-up by id: some programs need it (bpftool prog
	 * show), others try it and carry on (naming their own objects) */
	KF_PROGRAM,
	/* a refusal here changes something only during the syscalls of
	 * `during`: during any other, the call's own arguments (or what the
	 * kernel did before asking) leave nothing for it to change */
	KF_MATTERS_DURING,
};

struct kfact {
	const char *func;        /* call site function */
	int cap;                 /* the capability asked for */
	enum kfact_kind kind;
	const char *since;       /* first kernel accepting `cap` here, NULL if not verified */
	const char *sysadmin_until; /* KF_ONLY: last version with a CAP_SYS_ADMIN fallback */
	const char *operation;   /* what user space did */
	const char *also;        /* what else may be needed there, or NULL */
	const char *source;      /* where the fact comes from */
	const char *during;      /* only when asked during one of these syscalls
				  * (space-separated names), or NULL: any */
	const char *op;          /* only for these operations of the syscall (the
				  * record's op: facts/sysops.h sysop_label(),
				  * space-separated), or NULL: any */
};

/* The facts for function func and capability cap (-1: any), in table
 * order; *iter starts at 0. NULL when there are no more. A syscall's
 * entry matches under each name it is recorded by (__do_sys_X,
 * __x64_sys_X, __arm64_sys_X, ...). */
const struct kfact *kfact_next(const char *func, int cap, enum kfact_kind kind, int *iter);

/* Whether fact f applies to a check made during syscall sysname (NULL:
 * not known, which matches only a fact for any syscall). */
bool kfact_during(const struct kfact *f, const char *sysname);

/* Whether fact f applies to operation label (sysop_label(); NULL: not
 * recorded, which matches only a fact for any operation). */
bool kfact_op(const struct kfact *f, const char *label);

/* Compare kernel release strings by their leading "X.Y[.Z]"; -2 if either
 * does not parse. */
int kver_cmp(const char *a, const char *b);

/* Version in which capability cap was added (e.g. "5.8" for CAP_BPF), or
 * NULL when it predates the versions capaudit tracks. */
const char *cap_since(int cap);

#endif
