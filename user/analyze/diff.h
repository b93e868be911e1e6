/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capaudit diff OLD NEW: what a change added to or removed from what a
 * record shows. Both records are seen as report --by program sees them
 * (report_build(): a row per program, its executable else its comm; per
 * capability row its syscalls and call sites), and compared row by row:
 *
 *   capability  a capability row (the capability, noaudit or not, and the
 *               user namespace that decided it) checked at all, granted
 *               or denied (its counts say which)
 *   syscall     a syscall that led to checks of that capability
 *   callsite    a kernel call site where it was granted
 *   denial      a kernel call site where it was denied
 *
 * What NEW has and OLD lacks is added, what OLD has and NEW lacks is
 * removed. Pure data; output/ prints it.
 */
#ifndef CA_ANALYZE_DIFF_H
#define CA_ANALYZE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/report.h"
#include "recfile/recfile.h"

enum diff_kind {
	DK_CAPABILITY,
	DK_SYSCALL,
	DK_CALLSITE,
	DK_DENIAL,
	DK_NR,
};

/* "capability", "syscall", "callsite", "denial" */
const char *diff_kind_name(enum diff_kind k);

/* One thing one record has and the other lacks. */
struct diff_item {
	bool added;              /* in NEW only; else in OLD only */
	enum diff_kind kind;
	int cap;
	bool noaudit;
	enum rec_userns userns;
	char *name;              /* the syscall (check_syscall_label()) or the
				  * call site; NULL for a capability */
	uint64_t checks;         /* the checks it stands for in the record that
				  * has it: a capability's granted + denied, a
				  * syscall's, a call site's granted, a denial's */
	uint64_t granted, denied;   /* a capability's */
	/* what its checks were about (borrowed from the record that has it):
	 * a capability's over its call sites, a syscall's, a call site's */
	struct obj_set objects;
};

/* A program with changes, its items in a run of diff.items. */
struct diff_program {
	const char *program;     /* workload_program() (borrowed from a record) */
	bool in_old, in_new;     /* some image of it is in that record */
	size_t first, nitems;
	size_t nadded, nremoved;
};

struct diff_opts {
	bool noaudit;            /* compare noaudit checks too (report --noaudit) */
};

struct diff {
	struct diff_item *items; /* by program, capability, kind, name */
	size_t nitems;
	struct diff_program *progs;   /* by program */
	size_t nprogs;
	size_t added[DK_NR], removed[DK_NR];
	size_t nadded, nremoved; /* their sums */
	/* the required and denied sets each report shows (report.required,
	 * .denied: audited checks the host's sets decided) */
	uint64_t old_required, new_required, old_denied, new_denied;
	size_t old_programs, new_programs;   /* programs each record has */
};

/* Everything an output format needs to print a diff. */
struct diff_view {
	const struct diff *d;
	const char *old_name, *new_name;     /* the files as given */
	const struct record *old, *new;
	bool noaudit;
};

/* Compare old with new; the records must outlive d (program names are
 * theirs). Returns 0. */
int diff_build(const struct record *old, const struct record *new, const struct diff_opts *o,
	       struct diff *d);
void diff_free(struct diff *d);

#endif
