// SPDX-License-Identifier: GPL-2.0
#include "analyze/recview.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

void rec_view_all(struct rec_view *v, const struct record *r)
{
	memset(v, 0, sizeof(*v));
	v->whole = r;
}

/* The chosen record starts as r without processes and checks: the header,
 * the inputs and the stacks are r's (borrowed, never freed by the view). */
static void borrow_all_but_lines(struct record *chosen, const struct record *r)
{
	memset(chosen, 0, sizeof(*chosen));
	chosen->hdr = r->hdr;
	chosen->input = r->input;
	chosen->name = r->name;
	chosen->inputs = r->inputs;
	chosen->ninputs = r->ninputs;
	chosen->stacks = r->stacks;
	chosen->nstacks = r->nstacks;
	chosen->ustacks = r->ustacks;
	chosen->nustacks = r->nustacks;
}

void rec_view_choose(struct rec_view *v, const struct record *r, const bool *keep_proc,
		     const bool *keep_check)
{
	struct record *chosen = &v->chosen;
	size_t i;

	memset(v, 0, sizeof(*v));
	borrow_all_but_lines(chosen, r);
	/* added through the record's own functions: the view's process table
	 * then indexes the view's processes, as check_process() expects */
	for (i = 0; i < r->nprocs; i++) {
		const struct rec_process *p = &r->procs[i];

		if (keep_proc[i])
			*record_add_process(chosen, p->pid, p->start_ns, p->exec_id) = *p;
	}
	for (i = 0; i < r->nchecks; i++) {
		const struct rec_process *p = check_process(r, &r->checks[i]);

		if (p && keep_proc[p - r->procs] && (!keep_check || keep_check[i]))
			*record_add_check(chosen) = r->checks[i];
	}
}

void rec_view_none(struct rec_view *v, const struct record *r)
{
	memset(v, 0, sizeof(*v));
	borrow_all_but_lines(&v->chosen, r);
}

const struct record *rec_view_record(const struct rec_view *v)
{
	return v->whole ? v->whole : &v->chosen;
}

void rec_view_free(struct rec_view *v)
{
	/* only what rec_view_choose() allocated: the rest is borrowed */
	free(v->chosen.procs);
	free(v->chosen.checks);
	free(v->chosen.pidtab);
	free(v->chosen.strtab);
	memset(v, 0, sizeof(*v));
}
