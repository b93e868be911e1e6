// SPDX-License-Identifier: GPL-2.0
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

enum noaudit_source check_noaudit(const struct record *r, const struct rec_check *c)
{
	const struct rec_stack *st;

	/* fexit/kprobe saw the opts argument: that is the truth */
	if (c->opts_known)
		return c->opt_noaudit ? NOAUDIT_OPTS : NOAUDIT_NO;
	st = check_stack(r, c);
	return st ? (enum noaudit_source)st->noaudit : NOAUDIT_NO;
}

/* Rows are made in the record's process order and sorted only after every
 * check is counted, so a process's row is at its own index (a scan here
 * cost 3 s on 1M checks from 10k processes). */
static struct proc_row *proc_row(struct report *rep, const struct rec_process *p)
{
	size_t i = (size_t)(p - rep->rec->procs);

	return i < rep->nprocs && rep->procs[i].proc == p ? &rep->procs[i] : NULL;
}

static struct cap_row *cap_row(struct proc_row *pr, int cap, bool noaudit,
			       enum noaudit_source by)
{
	struct cap_row *cr;
	size_t i;

	for (i = 0; i < pr->ncaps; i++)
		if (pr->caps[i].cap == cap && pr->caps[i].noaudit == noaudit)
			return &pr->caps[i];
	grow_array((void **)&pr->caps, &pr->capcaps, pr->ncaps + 1, sizeof(*cr));
	cr = &pr->caps[pr->ncaps++];
	cr->cap = cap;
	cr->noaudit = noaudit;
	cr->noaudit_by = by;
	return cr;
}

static void add_sys(struct cap_row *cr, int nr, uint64_t count)
{
	size_t i;

	for (i = 0; i < cr->nsys; i++) {
		if (cr->sys[i].nr == nr) {
			cr->sys[i].count += count;
			return;
		}
	}
	grow_array((void **)&cr->sys, &cr->capsys, cr->nsys + 1, sizeof(*cr->sys));
	cr->sys[cr->nsys++] = (struct sys_stat){ nr, count };
}

static void add_site(struct cap_row *cr, const struct record *r, const struct rec_check *c)
{
	const struct rec_stack *st = check_stack(r, c);
	char fn[128] = "?";
	struct site_stat *s = NULL;
	size_t i;

	if (st && st->site >= 0)
		frame_function(st->frames[st->site], fn, sizeof(fn));
	for (i = 0; i < cr->nsites && !s; i++)
		if (!strcmp(cr->sites[i].func, fn))
			s = &cr->sites[i];
	if (!s) {
		grow_array((void **)&cr->sites, &cr->capsites, cr->nsites + 1, sizeof(*s));
		s = &cr->sites[cr->nsites++];
		s->func = xstrdup(fn);
		s->stack = st;
	}
	if (c->ret == 0)
		s->granted += c->count;
	else
		s->denied += c->count;
}

static int cmp_proc(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;

	if (x->proc->pid != y->proc->pid)
		return x->proc->pid < y->proc->pid ? -1 : 1;
	return x->proc->exec_id < y->proc->exec_id ? -1 : x->proc->exec_id > y->proc->exec_id;
}

static int cmp_cap(const void *a, const void *b)
{
	const struct cap_row *x = a, *y = b;

	if (x->noaudit != y->noaudit)
		return x->noaudit - y->noaudit;
	return x->cap - y->cap;
}

static int cmp_site(const void *a, const void *b)
{
	const struct site_stat *x = a, *y = b;
	uint64_t nx = x->granted + x->denied, ny = y->granted + y->denied;

	if (nx != ny)
		return nx > ny ? -1 : 1;
	return strcmp(x->func, y->func);
}

static int cmp_sys(const void *a, const void *b)
{
	const struct sys_stat *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->nr - y->nr;
}

int report_build(const struct record *r, const struct report_opts *o, struct report *rep)
{
	size_t i, j;

	memset(rep, 0, sizeof(*rep));
	rep->rec = r;
	rep->all = o->all;
	rep->procs = xcalloc(r->nprocs + 1, sizeof(*rep->procs));
	for (i = 0; i < r->nprocs; i++)
		rep->procs[rep->nprocs++].proc = &r->procs[i];

	for (i = 0; i < r->nchecks; i++) {
		const struct rec_check *c = &r->checks[i];
		const struct rec_process *p = record_find_process(r, c->pid, c->exec_id);
		enum noaudit_source na = check_noaudit(r, c);
		struct proc_row *pr;
		struct cap_row *cr;

		rep->total_checks += c->count;
		if (!p)
			continue;  /* the reader guarantees processes; be safe */
		pr = proc_row(rep, p);
		if (!pr)
			continue;
		if (na != NOAUDIT_NO && !o->all) {
			pr->hidden += c->count;
			rep->hidden_checks += c->count;
			continue;
		}
		cr = cap_row(pr, c->cap, na != NOAUDIT_NO, na);
		if (c->ret == 0)
			cr->granted += c->count;
		else
			cr->denied += c->count;
		if (c->init_ns)
			cr->init_ns = true;
		else
			cr->other_ns = true;
		add_sys(cr, c->syscall, c->count);
		add_site(cr, r, c);
		if (na == NOAUDIT_NO) {
			if (c->ret == 0)
				rep->required |= 1ULL << c->cap;
			else
				rep->denied |= 1ULL << c->cap;
		}
	}
	sort_array(rep->procs, rep->nprocs, sizeof(*rep->procs), cmp_proc);
	for (i = 0; i < rep->nprocs; i++) {
		struct proc_row *pr = &rep->procs[i];

		sort_array(pr->caps, pr->ncaps, sizeof(*pr->caps), cmp_cap);
		for (j = 0; j < pr->ncaps; j++) {
			sort_array(pr->caps[j].sites, pr->caps[j].nsites, sizeof(struct site_stat),
			      cmp_site);
			sort_array(pr->caps[j].sys, pr->caps[j].nsys, sizeof(struct sys_stat), cmp_sys);
		}
	}
	return 0;
}

void report_free(struct report *rep)
{
	size_t i, j, k;

	for (i = 0; i < rep->nprocs; i++) {
		struct proc_row *pr = &rep->procs[i];

		for (j = 0; j < pr->ncaps; j++) {
			for (k = 0; k < pr->caps[j].nsites; k++)
				free(pr->caps[j].sites[k].func);
			free(pr->caps[j].sites);
			free(pr->caps[j].sys);
		}
		free(pr->caps);
	}
	free(rep->procs);
	memset(rep, 0, sizeof(*rep));
}
