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

	if (rep->row_of)   /* --by a workload: rows are programs */
		return i < rep->rec->nprocs ? &rep->procs[rep->row_of[i]] : NULL;
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
	struct usite_row key = { .where = where, .comm = c->comm ? c->comm : "", .cap = c->cap,
				 .noaudit = noaudit, .func = st ? st->site_func : "?" };
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
	obj_set_add_check(&u->objects, c);
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
	obj_set_add_check(&s->objects, c);
	add_user(s, c, up);
}

/* By pid; a pid given out again: the earlier process first. A merged
 * record: by input, then by the pid its file has (file_pid; 0 in a record
 * as read), whatever the merge renumbered. */
static int cmp_image(const struct rec_process *x, const struct rec_process *y)
{
	if (x->input != y->input)
		return x->input < y->input ? -1 : 1;
	if (x->file_pid != y->file_pid)
		return x->file_pid < y->file_pid ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->exec_id < y->exec_id ? -1 : x->exec_id > y->exec_id;
}

static int cmp_proc(const void *a, const void *b)
{
	return cmp_image(((const struct proc_row *)a)->proc, ((const struct proc_row *)b)->proc);
}

static int cmp_proc_ptr(const void *a, const void *b)
{
	return cmp_image(*(const struct rec_process *const *)a, *(const struct rec_process *const *)b);
}

/* A check the host's sets decided, whose answer could matter: the
 * capability is required (granted) or was missing (denied), of the whole
 * record and of the check's workload. */
static void require(struct report *rep, const struct proc_row *pr, const struct rec_check *c)
{
	uint64_t bit = 1ULL << c->cap;

	if (c->ret == 0)
		rep->required |= bit;
	else
		rep->denied |= bit;
	if (rep->by == BY_PROCESS || pr->runtime_setup)
		return;
	if (c->ret == 0)
		rep->blocks[pr->block].required |= bit;
	else
		rep->blocks[pr->block].denied |= bit;
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

/* ---- --by container|unit|cgroup: rows per workload and program --------- */

/* One image, in the order of its workload and program; a container's
 * runtime setup after its own programs. */
struct member {
	const char *key, *prog;
	bool setup;
	const struct rec_process *p;
};

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int d;

	if ((d = cmp_str(x->key, y->key)))
		return d;
	if (x->setup != y->setup)
		return x->setup - y->setup;
	if ((d = strcmp(x->prog, y->prog)))
		return d;
	return cmp_image(x->p, y->p);
}

static bool same_row(const struct member *x, const struct member *y)
{
	return x->setup == y->setup && !strcmp(x->prog, y->prog);
}

/* Distinct processes (pid, start) among n images: the images of one
 * process are its execs, one process however many programs it ran. */
static size_t count_processes(const struct member *m, size_t n)
{
	const struct rec_process **p = xcalloc(n + 1, sizeof(*p));
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		p[i] = m[i].p;
	sort_array(p, n, sizeof(*p), cmp_proc_ptr);
	for (i = 0; i < n; i++)
		k += !i || p[i]->pid != p[i - 1]->pid || p[i]->start_ns != p[i - 1]->start_ns;
	free(p);
	return k;
}

/* Distinct processes among the n images that want() picks. */
static size_t count_some(const struct member *m, size_t n, bool (*want)(const struct member *))
{
	struct member *sub = xcalloc(n + 1, sizeof(*sub));
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (want(&m[i]))
			sub[k++] = m[i];
	k = count_processes(sub, k);
	free(sub);
	return k;
}

/* An image whose cgroup the record lacks (a record before format 4, or not
 * resolved while recording): of no known container or unit, but not known
 * to be in none either. */
static bool no_cgroup(const struct member *m)
{
	return !m->p->cgroup;
}

/* The workload's own: not its runtime setting it up. */
static bool own(const struct member *m)
{
	return !m->setup;
}

/* A workload's images: members[from, to). */
struct span {
	size_t from, to;
	struct wl_block b;
};

/* Workloads by label (a container's name reads better than its id), the
 * one without a key last. */
static int cmp_span(const void *a, const void *b)
{
	const struct wl_block *x = &((const struct span *)a)->b, *y = &((const struct span *)b)->b;
	int d;

	if (!x->key || !y->key)
		return !x->key - !y->key;
	if ((d = strcmp(x->label, y->label)))
		return d;
	return strcmp(x->key, y->key);
}

/* The image that names the workload best: one that gave the container's
 * name, if any did. */
static void name_block(struct wl_block *b, const struct member *m, size_t n, enum report_by by)
{
	size_t i;

	b->key = m[0].key;
	b->proc = m[0].p;
	for (i = 0; by == BY_CONTAINER && i < n; i++) {
		if (m[i].p->container_name) {
			b->proc = m[i].p;
			break;
		}
	}
	b->label = !b->key ? NULL : by == BY_CONTAINER && b->proc->container_name ?
		   b->proc->container_name : b->key;
}

/* The workloads of sorted members, in the order they are shown. */
static size_t make_spans(struct member *m, size_t n, enum report_by by, struct span **out)
{
	struct span *sp = xcalloc(n + 1, sizeof(*sp));
	size_t i, ns = 0;

	for (i = 0; i < n; i++) {
		if (i && !cmp_str(m[i].key, m[i - 1].key))
			continue;
		if (ns)
			sp[ns - 1].to = i;
		sp[ns++].from = i;
	}
	if (ns)
		sp[ns - 1].to = n;
	for (i = 0; i < ns; i++)
		name_block(&sp[i].b, &m[sp[i].from], sp[i].to - sp[i].from, by);
	sort_array(sp, ns, sizeof(*sp), cmp_span);
	*out = sp;
	return ns;
}

/* One row per program of a workload, each image pointed at its row. */
static void add_program_rows(struct report *rep, const struct member *m, const struct span *s,
			     size_t bi)
{
	const struct record *r = rep->rec;
	size_t i, from = s->from;

	for (i = s->from; i < s->to; i++) {
		struct proc_row *pr;

		if (i > s->from && !same_row(&m[i], &m[i - 1])) {
			rep->procs[rep->nprocs - 1].npids = count_processes(&m[from], i - from);
			from = i;
		}
		if (i == from)
			rep->procs[rep->nprocs++] = (struct proc_row){ .proc = m[i].p,
				.program = m[i].prog, .block = bi, .runtime_setup = m[i].setup };
		pr = &rep->procs[rep->nprocs - 1];
		rep->row_of[m[i].p - r->procs] = (size_t)(pr - rep->procs);
	}
	rep->procs[rep->nprocs - 1].npids = count_processes(&m[from], s->to - from);
}

static void report_group(struct report *rep, enum report_by by)
{
	const struct record *r = rep->rec;
	struct member *m = xcalloc(r->nprocs + 1, sizeof(*m));
	struct span *sp;
	size_t i, ns;

	for (i = 0; i < r->nprocs; i++)
		m[i] = (struct member){ workload_key(&r->procs[i], by),
					workload_program(&r->procs[i]),
					by == BY_CONTAINER && r->procs[i].runtime_setup, &r->procs[i] };
	sort_array(m, r->nprocs, sizeof(*m), cmp_member);
	ns = make_spans(m, r->nprocs, by, &sp);
	rep->row_of = xcalloc(r->nprocs + 1, sizeof(*rep->row_of));
	rep->blocks = xcalloc(ns + 1, sizeof(*rep->blocks));
	for (i = 0; i < ns; i++) {
		struct wl_block *b = &rep->blocks[rep->nblocks++];

		*b = sp[i].b;
		b->first = rep->nprocs;
		add_program_rows(rep, m, &sp[i], i);
		b->nrows = rep->nprocs - b->first;
		b->npids = count_some(&m[sp[i].from], sp[i].to - sp[i].from, own);
		if (!b->key)
			b->no_cgroup = count_some(&m[sp[i].from], sp[i].to - sp[i].from, no_cgroup);
	}
	free(sp);
	free(m);
}

/* A workload's totals, from its rows once every check is counted. */
static void sum_blocks(struct report *rep)
{
	size_t i, j;

	for (i = 0; i < rep->nblocks; i++) {
		struct wl_block *b = &rep->blocks[i];

		for (j = b->first; j < b->first + b->nrows; j++) {
			if (rep->procs[j].runtime_setup)
				continue;   /* shown, not the container's */
			b->checks = sat_add(b->checks, rep->procs[j].checks);
			b->hidden = sat_add(b->hidden, rep->procs[j].hidden);
		}
	}
}

int report_build(const struct record *r, const struct report_opts *o, struct report *rep)
{
	size_t i, j, k;

	memset(rep, 0, sizeof(*rep));
	rep->rec = r;
	rep->by_user_site = o->by_user_site;
	rep->have_ustacks = r->nustacks > 0;
	rep->by = o->by;
	rep->only = o->only;
	rep->procs = xcalloc(r->nprocs + 1, sizeof(*rep->procs));
	if (o->by != BY_PROCESS)
		report_group(rep, o->by);
	for (i = 0; o->by == BY_PROCESS && i < r->nprocs; i++)
		rep->procs[rep->nprocs++] = (struct proc_row){ .proc = &r->procs[i],
			.program = workload_program(&r->procs[i]), .npids = 1 };

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
		pr->checks = sat_add(pr->checks, c->count);
		if (c->ret == 0)
			cr->granted = sat_add(cr->granted, c->count);
		else
			cr->denied = sat_add(cr->denied, c->count);
		/* why a row is no requirement: the report's note says */
		cr->foreign_cred |= c->foreign_cred;
		cr->no_effect |= c->no_effect;
		if (c->init_ns)
			cr->init_ns = true;
		else
			cr->other_ns = true;
		obj_set_add_check(&sys_count_add(&cr->sys, &cr->nsys, &cr->capsys, c->syscall,
						 c->sysname, c->count)->objects, c);
		up.us = check_ustack(r, c);
		up.own = usite_own_frame(up.us, p->exe);
		add_site(cr, c, st, up);
		if (o->by_user_site)
			add_urow(rep, c, st, up, na != NOAUDIT_NO);
		/* the host's sets decided, the task's own credentials, and the
		 * answer could matter */
		if (na == NOAUDIT_NO && c->userns == RU_HOST && !c->no_effect && !c->foreign_cred)
			require(rep, pr, c);
	}
	/* by workload the rows are in their order already */
	if (rep->by == BY_PROCESS)
		sort_array(rep->procs, rep->nprocs, sizeof(*rep->procs), cmp_proc);
	sum_blocks(rep);
	free(rep->row_of);
	rep->row_of = NULL;
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
	free(rep->blocks);
	free(rep->row_of);
	free(rep->urows);
	hindex_free(&rep->urow_idx);
	memset(rep, 0, sizeof(*rep));
}
