/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's capability logic as data, read from its source by
 * tools/capsites/gen-capsites.py (docs/capsites.md): per call site, the
 * capabilities it accepts in the order it asks, whether the check is
 * audited, what a denial does, and a plain condition that allows without
 * any capability. One table per kernel source (Debian's linux-source-X.Y);
 * what the generator could not decide is "unknown" here too. Along the call
 * chain, a row with `via` is a caller's statement that uses the answer of a
 * function that answers false on a denial (or passes the answer on): its
 * effect is what the caller does then.
 */
#ifndef CA_CAPSITES_H
#define CA_CAPSITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KS_CAP_UNKNOWN (-2)
#define KS_MAXCAPS 4

enum ks_kind {
	KS_ONE,     /* one capability */
	KS_ANY,     /* any one of caps[] is enough (asked in that order) */
	KS_ALL,     /* every one of caps[] is needed */
	KS_UNKNOWN, /* the source did not say */
};

struct ksite {
	const char *file;
	unsigned int line;
	const char *func;
	signed char caps[KS_MAXCAPS]; /* in asking order; -1 ends, KS_CAP_UNKNOWN */
	unsigned char kind;           /* enum ks_kind */
	bool noaudit;
	/* What a denial does: "EPERM" (an errno returned), "ack:EPERM" (a
	 * netlink ack carrying that errno), "false" (a false value returned
	 * to the caller), "caller" (the answer is the function's own result),
	 * "value" (stored, passed on or another value returned: a silent
	 * change), "silent" (something is skipped or changed), "mode" (a
	 * sysctl file's access mode), "unknown". */
	const char *effect;
	const char *allowed_without;  /* a plain condition asked after the capability
				       * that allows without it, or NULL */
	const char *inlined_into;     /* static: same-file callers ("a,b"), or NULL */
	const char *via;    /* chain row: the function whose answer this statement uses; NULL: it asks itself */
	const char *when;   /* case labels of the enclosing switch ("SO_RCVBUFFORCE|..."), NULL */
	const char *change; /* silent/value: the statement a denial runs ("attr->ia_mode &= ~S_ISGID"), NULL */
};

struct ktable {
	const char *kernel;   /* "6.12" */
	const char *source;   /* "Debian linux-source-6.12 6.12.118-1~deb12u1" */
	const struct ksite *sites;
	size_t n;
};

/* Every table, oldest kernel first. */
const struct ktable *ktable_all(size_t *n);
/* The table for a kernel release ("6.18.44-..."): its own X.Y if there is
 * one (*exact true), else the newest older one, else the oldest; NULL if
 * release does not parse. */
const struct ktable *ktable_for(const char *release, bool *exact);

/* What a table says about capability cap asked at recorded call site fn
 * (a stack frame's function: a site's own function, or the caller a
 * static one was inlined into). Direct rows only (via NULL). */
struct ks_answer {
	size_t nsites;         /* matching rows (0: the table does not know) */
	const struct ksite *first;
	uint64_t alts;         /* capabilities every matching row accepts instead */
	bool asked_first;      /* cap is the first asked at every matching row */
	bool noaudit_all;      /* every matching row is a noaudit check */
	const char *effect;    /* shared by every matching row, else "unknown" */
	const char *allowed_without; /* the first matching row's, if any has one */
	bool all_needed;       /* a matching row needs every capability it lists */
	const char *change;    /* shared by every matching row, else NULL */
	const char *when;      /* the first matching row's, NULL if none */
	/* the errnos matching rows return on a refusal (plain ones, at most
	 * KS_MAXERRS): where the rows of one function disagree (mm/mlock.c
	 * do_mlock(): EPERM, ENOMEM), a syscall that failed with one of them
	 * failed from the refusal */
	const char *errs[4];
	size_t nerrs;
};
#define KS_MAXERRS 4

void ksite_lookup(const struct ktable *t, const char *fn, int cap, struct ks_answer *a);
/* As ksite_lookup(), but when op is not NULL and at least one matching row
 * has op among its '|'-separated when labels, only those rows match
 * (otherwise all matching rows, as ksite_lookup()). */
void ksite_lookup_op(const struct ktable *t, const char *fn, int cap, const char *op,
		     struct ks_answer *a);
/* The chain rows with via == callee whose function is caller (or whose
 * inlined_into lists caller), whose caps include cap (or are unknown),
 * narrowed by op as ksite_lookup_op(); the same answer fields (nsites 0: no
 * such row). */
void ksite_chain(const struct ktable *t, const char *caller, const char *callee, int cap,
		 const char *op, struct ks_answer *a);
/* The chain rows of caller for cap whatever their callee: a callee that
 * ends in a tail call to the capability API (fs/inode.c
 * in_group_or_capable()) leaves no frame, and the recorded call site is
 * then the caller. */
void ksite_chain_any(const struct ktable *t, const char *caller, int cap, const char *op,
		     struct ks_answer *a);

/* "fs/namei.c:414 generic_permission() (Linux 6.12 source: Debian
 * linux-source-6.12 ...)" into buf. */
const char *ksite_source(const struct ktable *t, const struct ksite *k, char *buf, size_t len);

/* An effect that is an errno name ("EPERM"); not "ack:EPERM". */
bool ks_effect_is_errno(const char *effect);
/* An effect that is a netlink ack carrying an errno ("ack:EPERM"): true,
 * *err pointing at "EPERM" in it. */
bool ks_effect_ack(const char *effect, const char **err);

/*
 * Whether capability a is less powerful than b where both are accepted:
 * CAP_SYS_ADMIN is above every other; CAP_DAC_OVERRIDE above
 * CAP_DAC_READ_SEARCH (fs/namei.c generic_permission(): the first allows
 * reading, writing and searching, the second reading and searching). No
 * other pair is ordered: -1 a below b, 1 above, 0 not comparable.
 */
int cap_power_cmp(int a, int b);

#endif
