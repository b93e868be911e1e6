// SPDX-License-Identifier: GPL-2.0
#include "analyze/diff.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/check.h"
#include "lib/util.h"

static const char *const kind_names[DK_NR] = {
	[DK_CAPABILITY] = "capability",
	[DK_SYSCALL] = "syscall",
	[DK_CALLSITE] = "callsite",
	[DK_DENIAL] = "denial",
};

const char *diff_kind_name(enum diff_kind k)
{
	return (unsigned)k < DK_NR ? kind_names[k] : "?";
}

/* One thing a report shows, flattened: the two records' are sorted
 * together, so that what both have ends up side by side. */
struct fact {
	const char *program;
	struct diff_item it;     /* added: from NEW */
};

struct facts {
	struct fact *v;
	size_t n, cap;
};

static struct fact *add_fact(struct facts *fs, const struct proc_row *pr, const struct cap_row *cr,
			     enum diff_kind kind, const char *name, bool from_new)
{
	struct fact *f;

	grow_array((void **)&fs->v, &fs->cap, fs->n + 1, sizeof(*f));
	f = &fs->v[fs->n++];
	f->program = pr->program;
	f->it = (struct diff_item){ .added = from_new, .kind = kind, .cap = cr->cap,
				    .noaudit = cr->noaudit, .userns = cr->userns,
				    .name = name ? xstrdup(name) : NULL };
	return f;
}

/* Every capability row of rep, with its syscalls, granted call sites and
 * denials. */
static void add_report(struct facts *fs, const struct report *rep, bool from_new)
{
	char num[32];
	size_t i, j, k;

	for (i = 0; i < rep->nprocs; i++) {
		const struct proc_row *pr = &rep->procs[i];

		for (j = 0; j < pr->ncaps; j++) {
			const struct cap_row *cr = &pr->caps[j];
			struct fact *f = add_fact(fs, pr, cr, DK_CAPABILITY, NULL, from_new);

			f->it.granted = cr->granted;
			f->it.denied = cr->denied;
			f->it.checks = sat_add(cr->granted, cr->denied);
			for (k = 0; k < cr->nsites; k++)
				obj_set_merge(&f->it.objects, &cr->sites[k].objects);
			for (k = 0; k < cr->nsys; k++) {
				f = add_fact(fs, pr, cr, DK_SYSCALL,
					     check_syscall_label(cr->sys[k].nr, cr->sys[k].name, num,
								 sizeof(num)), from_new);
				f->it.checks = cr->sys[k].count;
				f->it.objects = cr->sys[k].objects;
			}
			for (k = 0; k < cr->nsites; k++) {
				const struct site_stat *s = &cr->sites[k];

				if (s->granted) {
					f = add_fact(fs, pr, cr, DK_CALLSITE, s->func, from_new);
					f->it.checks = s->granted;
					f->it.objects = s->objects;
				}
				if (s->denied) {
					f = add_fact(fs, pr, cr, DK_DENIAL, s->func, from_new);
					f->it.checks = s->denied;
					f->it.objects = s->objects;
				}
			}
		}
	}
}

/* What a fact is about, whichever record it is from. */
static int cmp_key(const struct fact *x, const struct fact *y)
{
	const struct diff_item *a = &x->it, *b = &y->it;
	int d;

	if ((d = strcmp(x->program, y->program)))
		return d;
	if (a->cap != b->cap)
		return a->cap - b->cap;
	if (a->noaudit != b->noaudit)
		return a->noaudit - b->noaudit;
	if (a->userns != b->userns)
		return (int)a->userns - (int)b->userns;
	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	return strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

/* Removed (OLD's) before added (NEW's) of one key: each key is once in a
 * report, so a pair is one of each. */
static int cmp_fact(const void *p, const void *q)
{
	const struct fact *x = p, *y = q;
	int d = cmp_key(x, y);

	return d ? d : x->it.added - y->it.added;
}

static int cmp_prog(const void *p, const void *q)
{
	return strcmp(*(const char *const *)p, ((const struct proc_row *)q)->program);
}

/* Whether rep (--by program: rows by program) has a row for program. */
static bool has_program(const struct report *rep, const char *program)
{
	return bsearch(&program, rep->procs, rep->nprocs, sizeof(*rep->procs), cmp_prog) != NULL;
}

static void count(struct diff *d, const struct diff_item *it)
{
	if (it->added) {
		d->added[it->kind]++;
		d->nadded++;
	} else {
		d->removed[it->kind]++;
		d->nremoved++;
	}
}

/* The facts only one record has, as items, and their programs. */
static void keep_unpaired(struct diff *d, struct facts *fs, const struct report *old,
			  const struct report *new)
{
	struct diff_program *p = NULL;
	size_t i, capitems = 0, capprogs = 0;

	for (i = 0; i < fs->n; i++) {
		struct fact *f = &fs->v[i];

		if (i + 1 < fs->n && !cmp_key(f, &fs->v[i + 1])) {
			free(f->it.name);
			free(fs->v[++i].it.name);
			continue;
		}
		if (!p || strcmp(p->program, f->program)) {
			grow_array((void **)&d->progs, &capprogs, d->nprogs + 1, sizeof(*p));
			p = &d->progs[d->nprogs++];
			*p = (struct diff_program){ .program = f->program, .first = d->nitems,
				.in_old = has_program(old, f->program),
				.in_new = has_program(new, f->program) };
		}
		grow_array((void **)&d->items, &capitems, d->nitems + 1, sizeof(*d->items));
		d->items[d->nitems++] = f->it;   /* its name moves too */
		p->nitems++;
		if (f->it.added)
			p->nadded++;
		else
			p->nremoved++;
		count(d, &f->it);
	}
}

int diff_build(const struct record *old, const struct record *new, const struct diff_opts *o,
	       struct diff *d)
{
	struct report_opts ro = { .noaudit = o->noaudit, .by = BY_PROGRAM };
	struct report ro_old, ro_new;
	struct facts fs = { 0 };

	memset(d, 0, sizeof(*d));
	report_build(old, &ro, &ro_old);
	report_build(new, &ro, &ro_new);
	add_report(&fs, &ro_old, false);
	add_report(&fs, &ro_new, true);
	sort_array(fs.v, fs.n, sizeof(*fs.v), cmp_fact);
	keep_unpaired(d, &fs, &ro_old, &ro_new);
	d->old_required = ro_old.required;
	d->new_required = ro_new.required;
	d->old_denied = ro_old.denied;
	d->new_denied = ro_new.denied;
	d->old_programs = ro_old.nprocs;
	d->new_programs = ro_new.nprocs;
	free(fs.v);
	report_free(&ro_old);
	report_free(&ro_new);
	return 0;
}

void diff_free(struct diff *d)
{
	size_t i;

	for (i = 0; i < d->nitems; i++)
		free(d->items[i].name);
	free(d->items);
	free(d->progs);
	memset(d, 0, sizeof(*d));
}
