/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sentences more than one format says (text, html): what a denial did
 * to its syscall, why a check is not a requirement, a site's syscalls.
 * Built from kernel facts and numbers, never from a record's strings.
 */
#ifndef CA_OUTPUT_WORDS_H
#define CA_OUTPUT_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/suggest.h"

/* "chown, fchownat, ..." (the first four; "(no syscall)" for checks made
 * outside one) into buf. Returns buf. */
const char *sys_list_str(const struct sys_count *sys, size_t n, char *buf, size_t len);

/* What the denial d did: "denied, and the syscall failed (EPERM/EACCES, 2x):
 * the program may have failed here", ...; syscall_results: the record
 * has them. Returns buf. */
const char *denial_meaning(const struct sg_denial *d, bool syscall_results, char *buf,
			   size_t len);

/* What a refusal does where d was asked, along the call chain
 * (analyze/effect.h), in plain words: "the call fails with EACCES", "the
 * call succeeds, but the kernel clears the set-group-ID bit", ... Returns
 * buf. */
const char *effect_meaning(const struct effect *e, char *buf, size_t len);

/* Where that comes from: the kernel's source (file, line, function, its
 * table) or the kernel fact. Returns buf. */
const char *effect_where(const struct suggestion *s, const struct effect *e, char *buf,
			 size_t len);

/* What the denial that decided a run's verdict did, one sentence:
 * "fchmodat succeeded, but without CAP_FSETID the kernel cleared the
 * set-group-ID bit"; "the kernel refused CAP_SYS_NICE at set_one_prio
 * (setpriority failed with EACCES) and the program went on". Returns
 * buf. */
const char *counted_denial_words(const struct sg_denial *d, char *buf, size_t len);

/* Why only verify can decide u, one line (the kernel fact's words where
 * it has one). Returns buf. */
const char *undecided_meaning(const struct sg_undecided *u, char *buf, size_t len);

/* Its JSON "why". */
const char *undecided_why_name(enum sg_undecided_why why);

/* Why a set-aside check is no requirement of the host's sets. Returns buf
 * or a constant. */
const char *aside_meaning(const struct sg_aside *a, char *buf, size_t len);

/*
 * Terms of art a report cannot do without, each explained in a short
 * parenthesis the first time one output uses it (docs/glossary.md has an
 * entry for each). A struct terms lives as long as one output: a page, a
 * report, a suggestion.
 */
enum term {
	TERM_NOAUDIT,        /* a check the kernel makes without logging it */
	TERM_AUDITED,        /* the other kind */
	TERM_CALL_SITE,      /* the kernel function that asked */
	TERM_ADVISORY,       /* a denial the syscall went on after */
	TERM_BLOCKING,       /* a denial that made the syscall fail */
	TERM_SET_ASIDE,      /* checked, but no requirement of the host's sets */
	TERM_RUNTIME_SETUP,  /* runc/crun setting a container up */
	TERM_PARTIAL,        /* a record that may miss checks */
	TERM_NR
};

struct terms {
	bool said[TERM_NR];
};

/* Section headings text and html share: the replacements; the checks set
 * aside (suggest.h: struct sg_aside). */
extern const char narrower_heading[];
extern const char aside_heading[];

/* " (WHAT IT MEANS; docs/glossary.md)" the first time t is used, "" after. */
const char *term_first(struct terms *t, enum term which);

/* After a program that is a container runtime setting a container up:
 * " (container runtime setup: not counted)", explained the first time. */
const char *runtime_setup_note(struct terms *t);

struct cap_row;

/* What a report's capability row needs explained, in one sentence or
 * several joined by "; ": the noaudit kind (first use), the user
 * namespace that decided, credentials not the program's own, an answer
 * that could not matter, and for a file-permission check without a user
 * stack or objects where to find which file. "" when nothing needs saying. */
const char *row_note(const struct cap_row *cr, struct terms *t, char *buf, size_t len);

/* For a file-permission capability (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH,
 * CAP_FOWNER), where to find which file: a record holds no path, only
 * the syscall; user stacks show the line of the program that asked.
 * NULL for the other capabilities. */
const char *file_check_hint(int cap);
/* Whether any of n suggestion sites has objects (the hint is then not
 * needed: the record names the files). */
bool sites_have_objects(const struct sg_site *sites, size_t n);

#endif
