// SPDX-License-Identifier: GPL-2.0
#include "analyze/report.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/usite.h"
#include "lib/util.h"

/* Rows are made in the record's process order and sorted only after every
 * check is counted, so a process's row is at its own index (a scan here
 * cost 3 s on 1M checks from 10k processes). */
static struct proc_row *proc_row(struct report *rep, const struct rec_process *p)
{
	size_t i = (size_t)(p - rep->rec->procs);

	return i < rep->nprocs && rep->procs[i].proc == p ? &rep->procs[i] : NULL;
}

const char *userns_name(enum rec_userns u)
{
	static const char *const n[] = { "host", "inside", "owner", "child" };

	return u <= RU_CHILD ? n[u] : "host";
}

const char *userns_meaning(enum rec_userns u)
{
	switch (u) {
	case RU_INSIDE:
		return "inside a user namespace: the process's own capabilities there decided, "
		       "not the host's";
	case RU_OWNER:
		return "granted because the process's user owns that user namespace: no "
		       "capability needed";
	case RU_CHILD:
		return "against a child user namespace (a record before version 3 does not tell "
		       "whether the process was inside it or owned it): not counted as a host "
		       "capability";
	default:
		return "the host's capability sets decided";
	}
}

static struct cap_row *cap_row(struct proc_row *pr, int cap, bool noaudit,
			       enum noaudit_source by, enum rec_userns userns)
{
	struct cap_row *cr;
	size_t i;

	for (i = 0; i < pr->ncaps; i++)
		if (pr->caps[i].cap == cap && pr->caps[i].noaudit == noaudit &&
		    pr->caps[i].userns == userns)
			return &pr->caps[i];
	grow_array((void **)&pr->caps, &pr->capcaps, pr->ncaps + 1, sizeof(*cr));
	cr = &pr->caps[pr->ncaps++];
	cr->cap = cap;
	cr->noaudit = noaudit;
	cr->noaudit_by = by;
	cr->userns = userns;
	return cr;
}

/* A check's user place: its user stack and the frame in the program's
 * own code (own < 0: none). Found once per check. */
struct uplace {
	const struct rec_ustack *us;
	int own;
};

/* A hash consistent with usite_same(): by source line, else by offset. */
static uint64_t place_hash(uint64_t h, const struct rec_uframe *w)
{
	if (!w)
		return h;
	if (w->source)
		return hash_u64(hash_str(h, w->source), (uint64_t)w->line);
	return hash_u64(hash_u64(h, w->offset), w->address);
}

struct user_ctx {
	const struct site_stat *s;
	const struct rec_uframe *where;
};

static bool user_eq(const void *ctx, size_t pos)
{
	const struct user_ctx *uc = ctx;
	const struct site_user *u = &uc->s->users[pos];

	return usite_same(&u->us->frames[u->own], uc->where);
}

/* The user place of a check, grouped by its own frame. */
static void add_user(struct site_stat *s, const struct rec_check *c, struct uplace up)
{
	const struct rec_ustack *us = up.us;
	int own = up.own;
	struct user_ctx uc;
	uint64_t h;
	long at;

	if (own < 0)
		return;
	uc = (struct user_ctx){ s, &us->frames[own] };
	h = place_hash(0, uc.where);
	at = hindex_find(&s->user_idx, h, user_eq, &uc);
	if (at >= 0) {
		s->users[at].count = sat_add(s->users[at].count, c->count);
		return;
	}
	grow_array((void **)&s->users, &s->capusers, s->nusers + 1, sizeof(*s->users));
	s->users[s->nusers] = (struct site_user){ us, own, c->count };
	hindex_add(&s->user_idx, h, s->nusers++);
}

struct urow_ctx {
	const struct report *rep;
	const struct usite_row *key;
};

static bool urow_eq(const void *ctx, size_t pos)
{
	const struct urow_ctx *uc = ctx;
	const struct usite_row *u = &uc->rep->urows[pos], *k = uc->key;

	return u->cap == k->cap && u->noaudit == k->noaudit && !strcmp(u->func, k->func) &&
	       !strcmp(u->comm, k->comm) && usite_same(u->where, k->where);
}

/* --by user-site: one more check in its (place, program, cap, site) row */
static void add_urow(struct report *rep, const struct rec_check *c, const struct rec_stack *st,
		     struct uplace up, bool noaudit)
{
	const struct rec_ustack *us = up.us;
	const struct rec_uframe *where = up.own >= 0 ? &us->frames[up.own] : NULL;
	struct usite_row key = { where, NULL, c->comm ? c->comm : "", c->cap, noaudit,
				 st ? st->site_func : "?", 0, 0 };
	uint64_t h = hash_str(hash_str(hash_u64((uint64_t)c->cap, noaudit), key.func), key.comm);
	struct urow_ctx uc = { rep, &key };
	struct usite_row *u;
	long at;

	h = place_hash(h, where);
	at = hindex_find(&rep->urow_idx, h, urow_eq, &uc);
	if (at >= 0) {
		u = &rep->urows[at];
		goto count;
	}
	grow_array((void **)&rep->urows, &rep->capurows, rep->nurows + 1, sizeof(*u));
	u = &rep->urows[rep->nurows];
	*u = key;
	u->us = where ? us : NULL;
	hindex_add(&rep->urow_idx, h, rep->nurows++);
count:
	if (c->ret == 0)
		u->granted = sat_add(u->granted, c->count);
	else
		u->denied = sat_add(u->denied, c->count);
}

struct site_ctx {
	const struct cap_row *cr;
	const char *fn;
};

static bool site_eq(const void *ctx, size_t pos)
{
	const struct site_ctx *sc = ctx;

	return !strcmp(sc->cr->sites[pos].func, sc->fn);
}

static void add_site(struct cap_row *cr, const struct rec_check *c, const struct rec_stack *st,
		     struct uplace up)
{
	/* the call site's function, named once per stack by the reader */
	const char *fn = st ? st->site_func : "?";
	struct site_ctx sc = { cr, fn };
	uint64_t h = hash_str(0, fn);
	long at = hindex_find(&cr->site_idx, h, site_eq, &sc);
	struct site_stat *s;

	if (at >= 0) {
		s = &cr->sites[at];
	} else {
		grow_array((void **)&cr->sites, &cr->capsites, cr->nsites + 1, sizeof(*s));
		s = &cr->sites[cr->nsites];
		s->func = xstrdup(fn);
		s->stack = st;
		hindex_add(&cr->site_idx, h, cr->nsites++);
	}
	if (c->ret == 0)
		s->granted = sat_add(s->granted, c->count);
	else
		s->denied = sat_add(s->denied, c->count);
	add_user(s, c, up);
}

static int cmp_proc(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;

	if (x->proc->pid != y->proc->pid)
		return x->proc->pid < y->proc->pid ? -1 : 1;
	/* a pid given out again: the earlier process first */
	if (x->proc->start_ns != y->proc->start_ns)
		return x->proc->start_ns < y->proc->start_ns ? -1 : 1;
	return x->proc->exec_id < y->proc->exec_id ? -1 : x->proc->exec_id > y->proc->exec_id;
}

static int cmp_cap(const void *a, const void *b)
{
	const struct cap_row *x = a, *y = b;

	if (x->noaudit != y->noaudit)
		return x->noaudit - y->noaudit;
	if (x->cap != y->cap)
		return x->cap - y->cap;
	return (int)x->userns - (int)y->userns;
}

static int cmp_site(const void *a, const void *b)
{
	const struct site_stat *x = a, *y = b;
	uint64_t nx = x->granted + x->denied, ny = y->granted + y->denied;

	if (nx != ny)
		return nx > ny ? -1 : 1;
	return strcmp(x->func, y->func);
}

static int cmp_user(const void *a, const void *b)
{
	const struct site_user *x = a, *y = b;

	return x->count != y->count ? (x->count > y->count ? -1 : 1) : 0;
}

static int cmp_str(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : !a - !b;   /* NULL last */
}

/* Places with a source line first, by file and line, then the others by
 * file (or build id) and offset, no user stack last: rows of one place are
 * adjacent, which the text output relies on. */
static int cmp_urow(const void *a, const void *b)
{
	const struct usite_row *x = a, *y = b;
	const struct rec_uframe *p = x->where, *q = y->where;
	int d;

	if (p && q) {
		if (!p->source != !q->source)
			return !p->source - !q->source;
		if (p->source) {
			if ((d = strcmp(p->source, q->source)))
				return d;
			if (p->line != q->line)
				return p->line < q->line ? -1 : 1;
		} else {
			if ((d = cmp_str(p->object, q->object)) || (d = cmp_str(p->build_id, q->build_id)))
				return d;
			if (p->offset != q->offset)
				return p->offset < q->offset ? -1 : 1;
		}
	} else if (p || q) {
		return !p - !q;
	}
	if ((d = strcmp(x->comm, y->comm)))
		return d;
	return x->cap - y->cap;
}

int report_build(const struct record *r, const struct report_opts *o, struct report *rep)
{
	size_t i, j, k;

	memset(rep, 0, sizeof(*rep));
	rep->rec = r;
	rep->by_user_site = o->by_user_site;
	rep->have_ustacks = r->nustacks > 0;
	rep->procs = xcalloc(r->nprocs + 1, sizeof(*rep->procs));
	for (i = 0; i < r->nprocs; i++)
		rep->procs[rep->nprocs++].proc = &r->procs[i];

	for (i = 0; i < r->nchecks; i++) {
		const struct rec_check *c = &r->checks[i];
		const struct rec_process *p = check_process(r, c);
		const struct rec_stack *st = check_stack(r, c);
		enum noaudit_source na = check_noaudit(r, c);
		struct proc_row *pr;
		struct cap_row *cr;
		struct uplace up;

		rep->total_checks = sat_add(rep->total_checks, c->count);
		if (!p)
			continue;  /* the reader guarantees processes; be safe */
		pr = proc_row(rep, p);
		if (!pr)
			continue;
		if (na != NOAUDIT_NO && !o->noaudit) {
			pr->hidden = sat_add(pr->hidden, c->count);
			rep->hidden_checks = sat_add(rep->hidden_checks, c->count);
			continue;
		}
		cr = cap_row(pr, c->cap, na != NOAUDIT_NO, na, c->userns);
		if (c->ret == 0)
			cr->granted = sat_add(cr->granted, c->count);
		else
			cr->denied = sat_add(cr->denied, c->count);
		if (c->init_ns)
			cr->init_ns = true;
		else
			cr->other_ns = true;
		sys_count_add(&cr->sys, &cr->nsys, &cr->capsys, c->syscall, c->count);
		up.us = check_ustack(r, c);
		up.own = usite_own_frame(up.us, p->exe);
		add_site(cr, c, st, up);
		if (o->by_user_site)
			add_urow(rep, c, st, up, na != NOAUDIT_NO);
		/* the host's sets decided, and the answer could matter */
		if (na == NOAUDIT_NO && c->userns == RU_HOST && !c->no_effect) {
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
			sys_count_sort(pr->caps[j].sys, pr->caps[j].nsys);
			for (k = 0; k < pr->caps[j].nsites; k++)
				sort_array(pr->caps[j].sites[k].users, pr->caps[j].sites[k].nusers,
					   sizeof(struct site_user), cmp_user);
		}
	}
	sort_array(rep->urows, rep->nurows, sizeof(*rep->urows), cmp_urow);
	return 0;
}

void report_free(struct report *rep)
{
	size_t i, j, k;

	for (i = 0; i < rep->nprocs; i++) {
		struct proc_row *pr = &rep->procs[i];

		for (j = 0; j < pr->ncaps; j++) {
			for (k = 0; k < pr->caps[j].nsites; k++) {
				free(pr->caps[j].sites[k].func);
				free(pr->caps[j].sites[k].users);
				hindex_free(&pr->caps[j].sites[k].user_idx);
			}
			free(pr->caps[j].sites);
			hindex_free(&pr->caps[j].site_idx);
			free(pr->caps[j].sys);
		}
		free(pr->caps);
	}
	free(rep->procs);
	free(rep->urows);
	hindex_free(&rep->urow_idx);
	memset(rep, 0, sizeof(*rep));
}
