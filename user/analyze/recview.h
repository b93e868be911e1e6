/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A filter's result as a view over an unchanged record. report --cap,
 * --program, --container, --unit and --pid (analyze/attrib.h) choose
 * processes and checks; the analysis, which reads a const struct record,
 * reads the view's record instead of the loaded one. Nothing filters by
 * editing the loaded record, so one record can give the suggestion (of
 * every check of the workload) and the --cap report in either order.
 */
#ifndef CA_ANALYZE_RECVIEW_H
#define CA_ANALYZE_RECVIEW_H

#include <stdbool.h>

#include "recfile/recfile.h"

struct rec_view {
	/* the chosen processes and checks, in arrays and a process table of
	 * the view's own (so check_process() finds only chosen ones); all
	 * they point to (strings, stacks, user stacks), the header and the
	 * inputs are the viewed record's, which must outlive the view */
	struct record chosen;
	/* nothing filtered out: the viewed record itself (chosen unused),
	 * not a copy of every check of a large record */
	const struct record *whole;
};

/* v views all of r. */
void rec_view_all(struct rec_view *v, const struct record *r);

/* v views the processes of r whose keep_proc[i] (parallel to r->procs)
 * is true, and of their checks those whose keep_check[i] (parallel to
 * r->checks; NULL: all) is; a check without a process is never chosen.
 * Both keep in r's order. */
void rec_view_choose(struct rec_view *v, const struct record *r, const bool *keep_proc,
		     const bool *keep_check);

/* v views none of r's processes and checks (r's header still). */
void rec_view_none(struct rec_view *v, const struct record *r);

/* What the analysis reads. */
const struct record *rec_view_record(const struct rec_view *v);

/* The view's own arrays freed; the viewed record is untouched. */
void rec_view_free(struct rec_view *v);

#endif
