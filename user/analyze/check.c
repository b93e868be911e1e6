// SPDX-License-Identifier: GPL-2.0
#include "analyze/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/capnames.h"
#include "analyze/usite.h"
#include "lib/util.h"

static const char *const kind_names[FK_NR] = {
	[FK_NEW_CAP] = "new-capability",
	[FK_NEW_SYSCALL] = "new-syscall",
	[FK_NEW_SITE] = "new-callsite",
	[FK_NEW_DENIAL] = "new-denial",
	[FK_UNUSED_CAP] = "unused-capability",
	[FK_UNUSED_SYSCALL] = "unused-syscall",
	[FK_UNUSED_SITE] = "unused-callsite",
	[FK_UNUSED_DENIAL] = "unused-denial",
	[FK_ALLOWED] = "allowed",
};

const char *finding_kind_name(enum finding_kind k)
{
	return (unsigned)k < FK_NR ? kind_names[k] : "?";
}

static const char *const match_names[] = {
	[MATCH_CAPABILITY] = "capability",
	[MATCH_SYSCALL] = "syscall",
	[MATCH_CALLSITE] = "callsite",
};

const char *check_match_name(enum check_match m)
{
	return (unsigned)m < ARRAY_SIZE(match_names) ? match_names[m] : "?";
}

int check_match_parse(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(match_names); i++)
		if (!strcmp(s, match_names[i]))
			return (int)i;
	return -1;
}

const char *check_syscall_label(int nr, const char *name, char *buf, size_t len)
{
	if (name)
		return name;
	if (nr < 0)
		return "(none)";
	snprintf(buf, len, "syscall_%d", nr);
	return buf;
}

size_t check_entries_without_syscalls(const struct baseline *b)
{
	size_t i, n = 0;

	for (i = 0; i < b->ncaps; i++)
		n += !b->caps[i].has_sys;
	for (i = 0; i < b->ndenied; i++)
		n += !b->denied[i].has_sys;
	return n;
}

/* Add name to the list "a, b" in *dst unless it is there. */
static void append_name(char **dst, const char *sn)
{
	char *cur = *dst;
	size_t len;

	if (cur) {   /* skip a name already listed */
		const char *p = strstr(cur, sn);
		size_t l = strlen(sn);

		if (p && (p == cur || p[-1] == ' ') && (p[l] == ',' || !p[l]))
			return;
	}
	len = (cur ? strlen(cur) + 2 : 0) + strlen(sn) + 1;
	*dst = xcalloc(len, 1);
	snprintf(*dst, len, "%s%s%s", cur ? cur : "", cur ? ", " : "", sn);
	free(cur);
}

/* "socket, bind" from a syscall list. */
static void append_syscalls(char **dst, const struct sys_count *sys, size_t n)
{
	char num[32];
	size_t i;

	for (i = 0; i < n; i++)
		append_name(dst, check_syscall_label(sys[i].nr, sys[i].name, num, sizeof(num)));
}

struct extra_key {
	const struct observation *o;
	int cap;
	bool denied;
	const char *func;
};

static bool extra_eq(const void *ctx, size_t pos)
{
	const struct extra_key *k = ctx;
	const struct obs_extra *x = &k->o->extra[pos];

	return x->cap == k->cap && x->denied == k->denied && !strcmp(x->func, k->func);
}

static uint64_t extra_hash(int cap, bool denied, const char *func)
{
	return hash_str(hash_u64((uint64_t)cap, denied), func);
}

/* The extra of (cap, denied, func), or NULL. */
static struct obs_extra *find_extra(const struct observation *o, int cap, bool denied,
				    const char *func)
{
	struct extra_key k = { o, cap, denied, func };
	long at = hindex_find(&o->extra_idx, extra_hash(cap, denied, func), extra_eq, &k);

	return at >= 0 ? &o->extra[at] : NULL;
}

static struct obs_extra *extra(struct observation *o, int cap, bool denied, const char *func)
{
	struct obs_extra *x = find_extra(o, cap, denied, func);

	if (x)
		return x;
	grow_array((void **)&o->extra, &o->capextra, o->nextra + 1, sizeof(*x));
	x = &o->extra[o->nextra];
	x->cap = cap;
	x->denied = denied;
	x->func = xstrdup(func);
	x->kind = DENY_ADVISORY;
	hindex_add(&o->extra_idx, extra_hash(cap, denied, func), o->nextra++);
	return x;
}

/* ---- the same by syscall ---- */

struct sx_key {
	const struct observation *o;
	int cap;
	bool denied;
	const char *name;
};

static bool sx_eq(const void *ctx, size_t pos)
{
	const struct sx_key *k = ctx;
	const struct obs_sys *x = &k->o->sx[pos];

	return x->cap == k->cap && x->denied == k->denied && !strcmp(x->name, k->name);
}

static uint64_t sx_hash(int cap, bool denied, const char *name)
{
	return hash_str(hash_u64((uint64_t)cap + 0x5c5c, denied), name);
}

static struct obs_sys *find_sx(const struct observation *o, int cap, bool denied,
			       const char *name)
{
	struct sx_key k = { o, cap, denied, name };
	long at = hindex_find(&o->sx_idx, sx_hash(cap, denied, name), sx_eq, &k);

	return at >= 0 ? &o->sx[at] : NULL;
}

static struct obs_sys *sx(struct observation *o, int cap, bool denied, const char *name)
{
	struct obs_sys *x = find_sx(o, cap, denied, name);

	if (x)
		return x;
	grow_array((void **)&o->sx, &o->capsx, o->nsx + 1, sizeof(*x));
	x = &o->sx[o->nsx];
	memset(x, 0, sizeof(*x));
	x->cap = cap;
	x->denied = denied;
	x->name = xstrdup(name);
	x->kind = DENY_ADVISORY;
	hindex_add(&o->sx_idx, sx_hash(cap, denied, name), o->nsx++);
	return x;
}

struct sxsite_key {
	const struct observation *o;
	size_t sx;
	const char *site;
};

static bool sxsite_eq(const void *ctx, size_t pos)
{
	const struct sxsite_key *k = ctx;
	const struct obs_sx_site *e = &k->o->sxsite[pos];

	return e->sx == k->sx && !strcmp(e->site, k->site);
}

/* Add site to the list "a, b" of o->sx[at] unless it is there: a hash
 * lookup, and the list grown in place (amortized), never searched. */
static void sx_add_site(struct observation *o, size_t at, const char *site)
{
	struct sxsite_key k = { o, at, site };
	uint64_t h = hash_str(hash_u64((uint64_t)at, 0x5173), site);
	struct obs_sys *x = &o->sx[at];
	size_t l = strlen(site), need;

	if (hindex_find(&o->sxsite_idx, h, sxsite_eq, &k) >= 0)
		return;
	grow_array((void **)&o->sxsite, &o->capsxsite, o->nsxsite + 1, sizeof(*o->sxsite));
	o->sxsite[o->nsxsite].sx = at;
	o->sxsite[o->nsxsite].site = xstrdup(site);
	hindex_add(&o->sxsite_idx, h, o->nsxsite++);
	need = x->sites_len + (x->sites_len ? 2 : 0) + l + 1;
	if (need > x->sites_cap) {
		x->sites_cap = need * 2;
		x->sites = xrealloc(x->sites, x->sites_cap);
	}
	if (x->sites_len) {
		memcpy(x->sites + x->sites_len, ", ", 2);
		x->sites_len += 2;
	}
	memcpy(x->sites + x->sites_len, site, l + 1);
	x->sites_len += l;
}

/* The syscalls of one (cap, site): into the entry and their extras. */
static void add_sys(struct observation *o, struct bl_entry *e, bool denied, const char *func,
		    const struct sys_count *sys, size_t n, bool replaces, enum denial_kind kind)
{
	char num[32];
	size_t i;

	for (i = 0; i < n; i++) {
		const char *name = check_syscall_label(sys[i].nr, sys[i].name, num, sizeof(num));
		struct obs_sys *x = sx(o, e->cap, denied, name);

		bl_add_sys(e, name);
		x->count = sat_add(x->count, sys[i].count);
		x->objects.owned = true;   /* copies: each record is freed after it is added */
		obj_set_merge(&x->objects, &sys[i].objects);
		x->replaces |= replaces;
		if (denial_kind_rank(kind) > denial_kind_rank(x->kind))
			x->kind = kind;
		sx_add_site(o, (size_t)(x - o->sx), func);
	}
}

static void add_sites(struct observation *o, int cap, const struct sg_site *sites, size_t n,
		      bool replaces)
{
	struct bl_entry *e = bl_add(&o->caps, &o->ncaps, &o->capcaps, cap);
	size_t i;

	for (i = 0; i < n; i++) {
		struct obs_extra *x = extra(o, cap, false, sites[i].func);

		bl_add_site(e, sites[i].func);
		x->count = sat_add(x->count, sites[i].count);
		x->objects.owned = true;
		obj_set_merge(&x->objects, &sites[i].objects);
		x->replaces |= replaces;
		append_syscalls(&x->syscalls, sites[i].sys, sites[i].nsys);
		add_sys(o, e, false, sites[i].func, sites[i].sys, sites[i].nsys, replaces,
			DENY_ADVISORY);
	}
}

void observation_add(struct observation *o, const struct suggestion *s)
{
	size_t i;

	for (i = 0; i < s->nkeep; i++)
		add_sites(o, s->keep[i].cap, s->keep[i].sites, s->keep[i].nsites, false);
	for (i = 0; i < s->nrepl; i++)
		add_sites(o, s->repl[i].with, s->repl[i].sites, s->repl[i].nsites, true);
	/* used, though another member or a run decides whether required: the
	 * workload does them, a baseline allows them */
	for (i = 0; i < s->ncover; i++)
		add_sites(o, s->cover[i].cap, s->cover[i].sites, s->cover[i].nsites, false);
	for (i = 0; i < s->nundecided; i++) {
		struct sg_site st = { .func = s->undecided[i].func, .count = s->undecided[i].count,
				      .objects = s->undecided[i].objects };

		add_sites(o, s->undecided[i].cap, &st, 1, false);
	}
	for (i = 0; i < s->ndeny; i++) {
		const struct sg_denial *d = &s->deny[i];
		struct bl_entry *e = bl_add(&o->denied, &o->ndenied, &o->capdenied, d->cap);
		struct obs_extra *x = extra(o, d->cap, true, d->func);

		bl_add_site(e, d->func);
		x->count = sat_add(x->count, d->count);
		x->objects.owned = true;
		obj_set_merge(&x->objects, &d->objects);
		/* blocking anywhere makes it blocking */
		if (denial_kind_rank(d->kind) > denial_kind_rank(x->kind))
			x->kind = d->kind;
		append_syscalls(&x->syscalls, d->sys, d->nsys);
		add_sys(o, e, true, d->func, d->sys, d->nsys, false, d->kind);
	}
}

void observation_free(struct observation *o)
{
	struct baseline tmp = { 0 };
	size_t i;

	tmp.caps = o->caps;
	tmp.ncaps = o->ncaps;
	tmp.denied = o->denied;
	tmp.ndenied = o->ndenied;
	baseline_free(&tmp);
	for (i = 0; i < o->nextra; i++) {
		free(o->extra[i].func);
		free(o->extra[i].syscalls);
		free(o->extra[i].usrc);
		free(o->extra[i].ufunc);
		obj_set_release(&o->extra[i].objects);
	}
	free(o->extra);
	hindex_free(&o->extra_idx);
	for (i = 0; i < o->nsx; i++) {
		free(o->sx[i].name);
		free(o->sx[i].sites);
		free(o->sx[i].usrc);
		free(o->sx[i].ufunc);
		obj_set_release(&o->sx[i].objects);
	}
	free(o->sx);
	hindex_free(&o->sx_idx);
	for (i = 0; i < o->nsxsite; i++)
		free(o->sxsite[i].site);
	free(o->sxsite);
	hindex_free(&o->sxsite_idx);
	memset(o, 0, sizeof(*o));
}

/* One pass: extras of the check's own capability (any_cap false), or any
 * extra at its kernel call site (the narrow capability suggested in place
 * of the CAP_SYS_ADMIN that was checked there) still without a place. */
static void user_sites_pass(struct observation *o, const struct record *rec, bool any_cap)
{
	size_t i;
	int cap;

	for (i = 0; i < rec->nchecks; i++) {
		const struct rec_check *c = &rec->checks[i];
		const struct rec_ustack *us = check_ustack(rec, c);
		const struct rec_process *p;
		const struct rec_stack *st = check_stack(rec, c);
		const struct rec_uframe *w;
		int own;

		if (!us || !st)
			continue;
		p = check_process(rec, c);
		own = usite_own_frame(us, p ? p->exe : NULL);
		if (own < 0)
			continue;
		w = &us->frames[own];
		if (!w->source || w->line <= 0)
			continue;
		/* its own capability's extra, or (any_cap) every capability's at
		 * that site: looked up, not searched */
		for (cap = any_cap ? 0 : c->cap; cap <= (any_cap ? REC_MAX_CAP : c->cap); cap++) {
			struct obs_extra *x = find_extra(o, cap, c->ret != 0, st->site_func);
			struct obs_sys *y;
			char num[32];

			if (!x)
				continue;
			if (!x->usrc) {
				x->usrc = xstrdup(w->source);
				x->ufunc = w->function ? xstrdup(w->function) : NULL;
				x->uline = w->line;
			}
			/* and the syscall's, for findings by syscall */
			y = find_sx(o, cap, c->ret != 0,
				    check_syscall_label(c->syscall, c->sysname, num, sizeof(num)));
			if (y && !y->usrc) {
				y->usrc = xstrdup(w->source);
				y->ufunc = w->function ? xstrdup(w->function) : NULL;
				y->uline = w->line;
			}
		}
	}
}

void observation_add_user_sites(struct observation *o, const struct record *rec)
{
	if (!rec->nustacks)
		return;
	user_sites_pass(o, rec, false);
	user_sites_pass(o, rec, true);
}

/* ---- comparing ----------------------------------------------------------- */

static struct finding *add_finding(struct check_result *r, enum finding_kind k, int cap,
				   const char *func)
{
	struct finding *f;

	grow_array((void **)&r->f, &r->capn, r->n + 1, sizeof(*f));
	f = &r->f[r->n++];
	f->kind = k;
	f->cap = cap;
	f->func = func ? xstrdup(func) : NULL;
	switch (k) {
	case FK_NEW_CAP: case FK_NEW_SYSCALL: case FK_NEW_SITE: case FK_NEW_DENIAL:
		f->fails = true;
		break;
	case FK_UNUSED_CAP: case FK_UNUSED_SYSCALL: case FK_UNUSED_SITE: case FK_UNUSED_DENIAL:
		f->fails = r->strict;
		break;
	default:
		break;
	}
	if (f->fails)
		r->nfail++;
	else if (k == FK_ALLOWED)
		r->nallowed++;
	else
		r->nhint++;
	return f;
}

static void fill_from_extra(struct finding *f, const struct observation *o, bool denied)
{
	const struct obs_extra *x = find_extra(o, f->cap, denied, f->func);

	if (!x)
		return;
	f->count = x->count;
	f->syscalls = x->syscalls ? xstrdup(x->syscalls) : NULL;
	f->replaces_sys_admin = x->replaces;
	f->dkind = x->kind;
	f->usrc = x->usrc ? xstrdup(x->usrc) : NULL;
	f->ufunc = x->ufunc ? xstrdup(x->ufunc) : NULL;
	f->uline = x->uline;
	obj_set_own(&f->objects, &x->objects);
}

/* A finding about one syscall of a capability. */
static struct finding *add_sys_finding(struct check_result *r, enum finding_kind k, int cap,
				       const char *name, const struct observation *o, bool denied)
{
	struct finding *f = add_finding(r, k, cap, NULL);
	const struct obs_sys *x = o ? find_sx(o, cap, denied, name) : NULL;

	f->syscall = xstrdup(name);
	if (!x)
		return f;
	f->func = x->sites ? xstrdup(x->sites) : NULL;
	f->count = x->count;
	f->replaces_sys_admin = x->replaces;
	f->dkind = x->kind;
	f->usrc = x->usrc ? xstrdup(x->usrc) : NULL;
	f->ufunc = x->ufunc ? xstrdup(x->ufunc) : NULL;
	f->uline = x->uline;
	obj_set_own(&f->objects, &x->objects);
	return f;
}

/*
 * seen against allowed (capabilities, or denials): a capability not
 * allowed at all is new at each of its call sites; then, at MATCH_SYSCALL
 * and above, each syscall the baseline's entry does not list (where it
 * lists them); at MATCH_CALLSITE each call site it does not list. Call
 * sites below MATCH_CALLSITE are detail: listed as allowed.
 */
static void compare_lists(const struct observation *o, struct bl_entry *seen, size_t nseen,
			  struct bl_entry *allowed, size_t nallowed, bool denied,
			  enum check_match match, struct check_result *r)
{
	size_t i, j;

	for (i = 0; i < nseen; i++) {
		struct bl_entry *e = &seen[i], *b = bl_find(allowed, nallowed, e->cap);

		if (b && match >= MATCH_SYSCALL && b->has_sys)
			for (j = 0; j < e->nsys; j++)
				if (!bl_find_sys(b, e->sys[j].func))
					add_sys_finding(r, denied ? FK_NEW_DENIAL : FK_NEW_SYSCALL,
							e->cap, e->sys[j].func, o, denied);
		for (j = 0; j < e->nsites; j++) {
			enum finding_kind k = FK_ALLOWED;
			struct finding *f;

			if (!b)
				k = denied ? FK_NEW_DENIAL : FK_NEW_CAP;
			else if (match == MATCH_CALLSITE && !bl_find_site(b, e->sites[j].func))
				k = denied ? FK_NEW_DENIAL : FK_NEW_SITE;
			f = add_finding(r, k, e->cap, e->sites[j].func);
			fill_from_extra(f, o, denied);
		}
	}
	for (i = 0; i < nallowed; i++) {
		struct bl_entry *b = &allowed[i], *e = bl_find(seen, nseen, b->cap);

		if (!e) {
			add_finding(r, denied ? FK_UNUSED_DENIAL : FK_UNUSED_CAP, b->cap, NULL)->note =
				b->note;
			continue;
		}
		if (match >= MATCH_SYSCALL && b->has_sys)
			for (j = 0; j < b->nsys; j++)
				if (!bl_find_sys(e, b->sys[j].func))
					add_sys_finding(r, denied ? FK_UNUSED_DENIAL : FK_UNUSED_SYSCALL,
							b->cap, b->sys[j].func, NULL, denied)->note =
						b->sys[j].note;
		if (match == MATCH_CALLSITE)
			for (j = 0; j < b->nsites; j++)
				if (!bl_find_site(e, b->sites[j].func))
					add_finding(r, denied ? FK_UNUSED_DENIAL : FK_UNUSED_SITE,
						    b->cap, b->sites[j].func)->note = b->sites[j].note;
	}
}

static int cmp_finding(const void *x, const void *y)
{
	const struct finding *a = x, *b = y;
	int c;

	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	if (a->cap != b->cap)
		return a->cap - b->cap;
	c = strcmp(a->syscall ? a->syscall : "", b->syscall ? b->syscall : "");
	if (c)
		return c;
	c = strcmp(a->func ? a->func : "", b->func ? b->func : "");
	return c;
}

void check_compare(const struct observation *o, struct baseline *b, bool strict,
		   enum check_match match, struct check_result *r)
{
	memset(r, 0, sizeof(*r));
	r->strict = strict;
	r->match = match;
	compare_lists(o, o->caps, o->ncaps, b->caps, b->ncaps, false, match, r);
	compare_lists(o, o->denied, o->ndenied, b->denied, b->ndenied, true, match, r);
	sort_array(r->f, r->n, sizeof(*r->f), cmp_finding);
}

void check_result_free(struct check_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->f[i].func);
		free(r->f[i].syscall);
		free(r->f[i].syscalls);
		free(r->f[i].usrc);
		free(r->f[i].ufunc);
		obj_set_release(&r->f[i].objects);
	}
	free(r->f);
	memset(r, 0, sizeof(*r));
}

/* ---- --update -------------------------------------------------------------- */

static void copy_entries(struct bl_entry *seen, size_t nseen, const struct bl_entry *old,
			 size_t nold, struct bl_entry **out, size_t *n, size_t *cap)
{
	size_t i, j;

	for (i = 0; i < nseen; i++) {
		struct bl_entry *e = bl_add(out, n, cap, seen[i].cap);
		struct bl_entry *o = bl_find((struct bl_entry *)old, nold, seen[i].cap);

		if (o && o->note)
			e->note = xstrdup(o->note);
		for (j = 0; j < seen[i].nsites; j++) {
			struct bl_site *s = bl_add_site(e, seen[i].sites[j].func);
			struct bl_site *os = o ? bl_find_site(o, s->func) : NULL;

			if (os && os->note)
				s->note = xstrdup(os->note);
		}
		/* the syscalls, always written (version 2) */
		e->has_sys = true;
		for (j = 0; j < seen[i].nsys; j++) {
			struct bl_site *s = bl_add_sys(e, seen[i].sys[j].func);
			struct bl_site *os = o ? bl_find_sys(o, s->func) : NULL;

			if (os && os->note)
				s->note = xstrdup(os->note);
		}
	}
}

void check_updated_baseline(const struct observation *o, const struct baseline *old,
			    struct baseline *out)
{
	memset(out, 0, sizeof(*out));
	if (old && old->note)
		out->note = xstrdup(old->note);
	copy_entries(o->caps, o->ncaps, old ? old->caps : NULL, old ? old->ncaps : 0,
		     &out->caps, &out->ncaps, &out->capcaps);
	copy_entries(o->denied, o->ndenied, old ? old->denied : NULL, old ? old->ndenied : 0,
		     &out->denied, &out->ndenied, &out->capdenied);
}

static void add_change(struct bl_change **v, size_t *n, size_t *cap, struct bl_change c)
{
	grow_array((void **)v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = c;
}

/* What of list `from` is not in list `to` (both may be NULL): whole
 * entries, else their syscalls and call sites. */
static void list_changes(struct bl_entry *from, size_t nfrom, struct bl_entry *to, size_t nto,
			 bool added, bool denied, struct bl_change **v, size_t *n, size_t *cap)
{
	size_t i, j;

	for (i = 0; i < nfrom; i++) {
		struct bl_entry *e = &from[i], *o = bl_find(to, nto, e->cap);
		struct bl_change c = { .added = added, .denied = denied, .cap = e->cap, .entry = e };

		if (!o) {
			c.note = added ? NULL : e->note;
			add_change(v, n, cap, c);
			continue;
		}
		for (j = 0; j < e->nsys; j++)
			if (!bl_find_sys(o, e->sys[j].func)) {
				c.syscall = e->sys[j].func;
				c.note = added ? NULL : e->sys[j].note;
				add_change(v, n, cap, c);
			}
		c.syscall = NULL;
		for (j = 0; j < e->nsites; j++)
			if (!bl_find_site(o, e->sites[j].func)) {
				c.site = e->sites[j].func;
				c.note = added ? NULL : e->sites[j].note;
				add_change(v, n, cap, c);
			}
	}
}

static int cmp_change(const void *x, const void *y)
{
	const struct bl_change *a = x, *b = y;

	if (a->added != b->added)
		return a->added ? -1 : 1;
	if (a->denied != b->denied)
		return a->denied ? 1 : -1;
	if (a->cap != b->cap)
		return a->cap - b->cap;
	if (!!a->syscall + 2 * !!a->site != !!b->syscall + 2 * !!b->site)
		return (!!a->syscall + 2 * !!a->site) - (!!b->syscall + 2 * !!b->site);
	return strcmp(a->syscall ? a->syscall : a->site ? a->site : "",
		      b->syscall ? b->syscall : b->site ? b->site : "");
}

size_t check_update_changes(const struct baseline *old, const struct baseline *upd,
			    struct bl_change **out)
{
	struct baseline none = { 0 };
	size_t n = 0, cap = 0;

	if (!old)
		old = &none;
	*out = NULL;
	list_changes(upd->caps, upd->ncaps, old->caps, old->ncaps, true, false, out, &n, &cap);
	list_changes(upd->denied, upd->ndenied, old->denied, old->ndenied, true, true, out, &n, &cap);
	list_changes(old->caps, old->ncaps, upd->caps, upd->ncaps, false, false, out, &n, &cap);
	list_changes(old->denied, old->ndenied, upd->denied, upd->ndenied, false, true, out, &n,
		     &cap);
	sort_array(*out, n, sizeof(**out), cmp_change);
	return n;
}

const char *check_baseline_shown(const struct check_view *v)
{
	return v->baseline_shown ? v->baseline_shown : v->baseline;
}

void check_message(const struct finding *x, const struct check_view *v, const char *about,
		   char *buf, size_t len)
{
	char n[CAP_NAME_LEN], sys[300] = "", where[4400] = "";
	const char *fn = x->func ? x->func : "", *baseline = check_baseline_shown(v);
	size_t o;

	cap_name(x->cap, n);
	if (x->syscalls)
		snprintf(sys, sizeof(sys), " (%s)", x->syscalls);
	/* where the program asked for it (--user-stacks), named as file= is */
	if (x->usrc)
		snprintf(where, sizeof(where), ", asked for at %s:%d%s%s%s",
			 usite_relative(x->usrc, v->source_root), x->uline, x->ufunc ? " (" : "",
			 x->ufunc ? x->ufunc : "", x->ufunc ? ")" : "");
	switch (x->kind) {
	case FK_NEW_CAP:
		snprintf(buf, len, "New capability %s at kernel call site %s%s%s%s: not allowed by "
			 "%s.", n, fn, sys, x->replaces_sys_admin ? ", instead of CAP_SYS_ADMIN" : "",
			 where, baseline);
		break;
	case FK_NEW_SYSCALL:
		snprintf(buf, len, "%s used in a new syscall %s%s%s%s%s: not allowed by %s.", n,
			 x->syscall, x->func ? " (at kernel call site " : "", fn, x->func ? ")" : "",
			 where, baseline);
		break;
	case FK_NEW_SITE:
		snprintf(buf, len, "%s used at a new kernel call site %s%s%s: not allowed by %s.", n,
			 fn, sys, where, baseline);
		break;
	case FK_NEW_DENIAL:
		if (x->syscall)
			snprintf(sys, sizeof(sys), " in syscall %s", x->syscall);
		snprintf(buf, len, "New denied %s check at %s%s (%s)%s: not expected by %s.", n,
			 x->func ? fn : "?", sys,
			 x->dkind == DENY_ADVISORY ? "advisory" :
			 x->dkind == DENY_INCONCLUSIVE ? "the syscall was interrupted" :
			 denial_kind_words(x->dkind), where, baseline);
		break;
	case FK_UNUSED_CAP:
		snprintf(buf, len, "%s is allowed by %s but no record used it.", n, baseline);
		break;
	case FK_UNUSED_SYSCALL:
		snprintf(buf, len, "%s in syscall %s is allowed by %s but no record made it.", n,
			 x->syscall, baseline);
		break;
	case FK_UNUSED_SITE:
		snprintf(buf, len, "%s at %s is allowed by %s but no record reached it.", n, fn,
			 baseline);
		break;
	case FK_UNUSED_DENIAL:
		snprintf(buf, len, "Expected denial of %s%s%s (%s) was not seen.", n,
			 x->syscall ? " in syscall " : x->func ? " at " : "",
			 x->syscall ? x->syscall : fn, baseline);
		break;
	default:
		snprintf(buf, len, "%s at %s is allowed%s.", n, fn, where);
	}
	o = strlen(buf);
	/* what it was about: the file, the process, the option */
	if (about && *about && o + 1 < len)
		o += (size_t)snprintf(buf + o, len - o, " About %s.", about);
	o = o < len ? o : len - 1;
	/* what the capability lets a program do, in plain words */
	if (cap_words(x->cap) && o + 1 < len)
		o += (size_t)snprintf(buf + o, len - o, " %s lets a program %s.", n,
				      cap_words(x->cap));
	/* how to accept it: the command last, to be copied whole */
	if (x->fails && v->update_cmd && *v->update_cmd && o + 1 < len)
		snprintf(buf + o, len - o, " %s (then review the diff and commit it): %s",
			 x->kind >= FK_UNUSED_CAP ? "If it is no longer needed, drop it" :
			 "If this is intended, accept it", v->update_cmd);
}
