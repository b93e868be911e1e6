/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a refusal really does: one model of a denial's effect, for the
 * first answer (suggest.c), run's verdict and verify's (verdict.c). It
 * follows the recorded kernel stack from the function that asked up
 * through its callers, with the capability-site table of the record's
 * kernel (facts/capsites.h: what each statement does with the answer,
 * generated from the kernel's source) and the hand-kept kernel facts
 * (facts/kfacts.h: the BPF verifier, known try-and-fall-back operations,
 * listings some programs need and others tolerate). docs/kernel-facts.md
 * "What a refusal does" describes the kinds, each with a real example.
 */
#ifndef CA_EFFECT_H
#define CA_EFFECT_H

#include <stdbool.h>

#include "facts/capsites.h"
#include "facts/kfacts.h"
#include "recfile/recfile.h"

enum eff_kind {
	EFF_UNKNOWN,      /* the source does not say (or the tables do not know the site) */
	EFF_FAILS,        /* the call fails with err */
	EFF_SILENT,       /* the call succeeds, changed: words, change */
	EFF_ACK,          /* a netlink request refused in its ack (err); sendmsg() succeeds */
	EFF_VERIFIER,     /* decided later: the BPF verifier checks the program more strictly */
	EFF_NO_EFFECT,    /* for this call: its own arguments make the answer irrelevant */
	EFF_DONE_WITHOUT, /* tried and done without: an operation programs try, then fall back */
	EFF_PROGRAM,      /* program-dependent: a listing or look-up some need, others tolerate */
	EFF_TUNES,        /* only tunes behaviour (hardening): the call does the same job */
	EFF_NR
};

struct effect {
	enum eff_kind kind;
	const char *err;          /* FAILS, ACK: "EPERM" (static or the table's) */
	const char *errs[KS_MAXERRS]; /* FAILS: every errno the matching statements
				   * return (rows of one function may differ) */
	size_t nerrs;
	const char *words;        /* SILENT: what the kernel does instead, in plain words
				   * ("clears the set-group-ID bit"), or NULL */
	const char *words_past;   /* ... the same, done ("cleared the set-group-ID bit") */
	const char *change;       /* SILENT: the kernel's own statement, or NULL */
	char at[64];              /* the function whose statement decides: the call
				   * site, or a caller of it along the stack; "" if none */
	const struct ksite *row;  /* the capability-site row it comes from, or NULL */
	const struct kfact *fact; /* the kernel fact it comes from, or NULL */
	bool lookup;              /* a file-permission check, or a permission query
				   * (access()): programs try paths and files and ask
				   * what they may, and carry on; the program judges */
	bool in_ack;              /* reached through a netlink request */
};

/* Short names, one list for everyone (JSON "effect": "silent-change", ...). */
const char *eff_kind_name(enum eff_kind k);

/* The operation a check asked for, by the name the kernel facts and the
 * capability-site table use ("SO_RCVBUFFORCE", "BPF_PROG_LOAD"): its
 * op's, else (a record without one) the one name all its socket option,
 * bpf and ioctl objects give; NULL when neither says. */
const char *check_op_label(const struct rec_check *c);

/*
 * What a refusal of check c does, asked at call site func (the record's
 * call-site frame; NULL: no stack) with the table t (NULL: none for the
 * record's kernel) of its kernel. Deterministic: the same check, stack
 * and table give the same effect.
 */
void effect_of(const struct ktable *t, const struct record *rec, const struct rec_check *c,
	       const char *func, struct effect *e);

/* "fs/attr.c setattr_prepare(): attr->ia_mode &= ~S_ISGID" style source
 * of e into buf (the table's row with its kernel, else the fact's). */
const char *effect_source(const struct ktable *t, const struct effect *e, char *buf, size_t len);

#endif
