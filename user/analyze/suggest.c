// SPDX-License-Identifier: GPL-2.0
/*
 * The pairing rule (docs/suggest.md). The helpers that accept a narrow
 * capability try it first and fall back to CAP_SYS_ADMIN, so a task that
 * holds CAP_SYS_ADMIN but not the narrow one shows, in one syscall, a
 * denied narrow check followed by a granted CAP_SYS_ADMIN check on the same
 * kernel path. Such a pair proves the narrow capability is accepted there.
 */
#include "analyze/suggest.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/attrib.h"
#include "analyze/service.h"
#include "facts/callsite.h"
#include "facts/capnames.h"
#include "lib/util.h"

/* One audited check row of the record, with what the analysis learns. */
struct row {
	const struct rec_check *c;
	const struct rec_stack *st;  /* NULL: no stack */
	const struct rec_process *proc;
	int site;                /* index of the call site frame, -1 if none */
	unsigned long site_off;  /* offset within the call site function */
	struct row *partner;     /* the other half of a fallback pair */
	bool noaudit_decides;    /* a noaudit check at a site whose denial fails
				  * the call (capsites): a requirement after all */
	/* the sort key, copied here: the sort then never follows c into the
	 * checks (a cache miss each on a big record) */
	size_t image;            /* index of its process line: the image */
	int syscall;
};

const char *cap_alias(int cap)
{
	return cap == CAP_CHECKPOINT_RESTORE ? "CAP_RESTORE" : NULL;
}

/* Interned in the record: equal names are equal pointers. */
static const char no_site[] = "?";

static const char *site_func(const struct row *r)
{
	return r->st ? r->st->site_func : no_site;
}

/*
 * Kernel facts are looked up per (function, capability, kind) for every
 * row; the function names are interned, so a small direct-mapped memo on
 * the pointer saves a table scan per row.
 */
#define FACT_MEMO 4096
struct fact_memo {
	const char *func;
	int cap;
	int kind;
	const struct kfact *fact;
};

/* Valid for one build only: the names are the record's. */
static const struct kfact *fact_for(struct suggestion *s, const char *func, int cap,
				    enum kfact_kind kind)
{
	size_t h = ((uintptr_t)func >> 4) ^ ((size_t)cap * 31) ^ ((size_t)kind * 131);
	struct fact_memo *m = &s->memo[h & (FACT_MEMO - 1)];
	int it = 0;

	if (m->func == func && m->cap == cap && m->kind == (int)kind)
		return m->fact;
	m->func = func;
	m->cap = cap;
	m->kind = (int)kind;
	m->fact = kfact_next(func, cap, kind, &it);
	return m->fact;
}

/* Capability-site lookups, memoized like kernel facts. */
#define KS_MEMO 4096
struct ks_memo {
	const char *func;
	int cap;
	struct ks_answer a;
};

static const struct ks_answer *ks_for(struct suggestion *s, const char *func, int cap)
{
	static const struct ks_answer none;
	size_t h = ((uintptr_t)func >> 4) ^ ((size_t)cap * 31);
	struct ks_memo *m;

	if (!s->ktab || !func || func == no_site)
		return &none;
	m = &s->ksmemo[h & (KS_MEMO - 1)];
	if (m->func != func || m->cap != cap) {
		m->func = func;
		m->cap = cap;
		ksite_lookup(s->ktab, func, cap, &m->a);
	}
	return &m->a;
}

/* The least powerful capability of alts below cap (cap_power_cmp()), or
 * -1 when none is. */
static int narrowest_below(int cap, uint64_t alts)
{
	int best = -1, c;

	for_each_cap(c, alts)
		if (cap_power_cmp(c, cap) < 0 && (best < 0 || cap_power_cmp(c, best) < 0))
			best = c;
	return best;
}

/* Same kernel path: every frame names the same function, and every frame
 * above the call site is identical (offsets included), so the two checks
 * came from one call of the call site function. */
static bool same_path(const struct row *a, const struct row *b)
{
	char fa[128], fb[128];
	size_t i;

	if (!a->st || !b->st || a->st->n != b->st->n || a->site < 0 || a->site != b->site)
		return false;
	if (a->st == b->st)
		return true;
	for (i = 0; i < a->st->n; i++) {
		if ((int)i > a->site) {
			if (strcmp(a->st->frames[i], b->st->frames[i]))
				return false;
		} else if (strcmp(frame_function(a->st->frames[i], fa, sizeof(fa)),
				  frame_function(b->st->frames[i], fb, sizeof(fb)))) {
			return false;
		}
	}
	return true;
}

static int cmp_row(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->image != b->image)
		return a->image < b->image ? -1 : 1;
	if (a->syscall != b->syscall)
		return a->syscall < b->syscall ? -1 : 1;
	if (a->site_off != b->site_off)
		return a->site_off < b->site_off ? -1 : 1;
	return 0;
}

/* A hash of what same_path() compares: the stack's depth and call site,
 * the function names up to the call site, the frames above it whole. */
static uint64_t path_hash(const struct row *r)
{
	uint64_t h = hash_u64((uint64_t)r->st->n, (uint64_t)r->site);
	char fn[128];
	size_t i;

	for (i = 0; i < r->st->n; i++)
		h = hash_str(h, (int)i > r->site ? r->st->frames[i] :
			     frame_function(r->st->frames[i], fn, sizeof(fn)));
	return h;
}

/* CAP_SYS_ADMIN rows of a group, ordered by path and call site offset. */
struct cand {
	uint64_t path;
	unsigned long off;
	struct row *row;
};

static int cmp_cand(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->path != b->path)
		return a->path < b->path ? -1 : 1;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

/*
 * Pair each denied non-CAP_SYS_ADMIN row with the CAP_SYS_ADMIN row of its
 * fallback, within one image and syscall (rows [lo, hi)). The fallback is
 * the one at the same call site offset (an out-of-line helper such as
 * bpf_token_capable() makes both checks from one call), else the nearest
 * one after it in the same function (inline `capable(X) || capable(CAP_SYS_ADMIN)`);
 * and it must not have happened only before the narrow check. The
 * candidates are looked up by path, not searched: a group of a hundred
 * thousand rows (a crafted record) is paired in n log n.
 */
static void pair_group(struct row *rows, size_t lo, size_t hi)
{
	struct cand *c = xcalloc(hi - lo + 1, sizeof(*c));
	size_t i, k, nc = 0;

	for (i = lo; i < hi; i++)
		if (rows[i].c->cap == CAP_SYS_ADMIN && rows[i].site >= 0 && rows[i].st)
			c[nc++] = (struct cand){ path_hash(&rows[i]), rows[i].site_off, &rows[i] };
	sort_array(c, nc, sizeof(*c), cmp_cand);
	for (i = lo; i < hi && nc; i++) {
		struct row *n = &rows[i], *best = NULL;
		struct cand key;
		size_t lo2 = 0, hi2 = nc;

		if (n->c->ret == 0 || n->c->cap == CAP_SYS_ADMIN || n->site < 0 || !n->st)
			continue;
		key = (struct cand){ path_hash(n), n->site_off, NULL };
		while (lo2 < hi2) {   /* the first candidate at or after n's offset */
			size_t mid = lo2 + (hi2 - lo2) / 2;

			if (c[mid].path < key.path || (c[mid].path == key.path && c[mid].off < key.off))
				lo2 = mid + 1;
			else
				hi2 = mid;
		}
		for (k = lo2; k < nc && c[k].path == key.path; k++) {
			struct row *a = c[k].row;

			if (a->partner || !same_path(n, a))
				continue;
			if (a->c->last_ns && n->c->first_ns && a->c->last_ns < n->c->first_ns)
				continue;
			best = a;   /* the nearest offset: they are in order */
			break;
		}
		if (best) {
			n->partner = best;
			best->partner = n;
		}
	}
	free(c);
}

/* ---- accumulating results --------------------------------------------- */

struct site_ctx {
	const struct sg_site *sites;
	const char *func;
};

static bool site_eq(const void *ctx, size_t pos)
{
	const struct site_ctx *sc = ctx;

	return sc->sites[pos].func == sc->func;   /* interned */
}

static struct sg_site *add_site(struct sg_site **sites, size_t *n, size_t *cap,
				struct hindex *idx, const char *func, const struct kfact *fact,
				const struct rec_check *c)
{
	struct site_ctx sc = { *sites, func };
	uint64_t h = hash_u64(0, (uint64_t)(uintptr_t)func);
	long at = hindex_find(idx, h, site_eq, &sc);
	struct sg_site *s;

	if (at >= 0) {
		s = &(*sites)[at];
	} else {
		grow_array((void **)sites, cap, *n + 1, sizeof(**sites));
		s = &(*sites)[*n];
		s->func = func;
		s->fact = fact;
		s->ksite = NULL;
		s->alts = 0;
		s->noaudit_decides = false;
		s->objects = (struct obj_set){ 0 };
		hindex_add(idx, h, (*n)++);
	}
	obj_set_add_check(&s->objects, c);
	s->count = sat_add(s->count, c->count);
	obj_set_add_check(&sys_count_add(&s->sys, &s->nsys, &s->capsys, c->syscall, c->sysname,
					 c->count)->objects, c);
	return s;
}

static void add_replace(struct suggestion *s, int replace, int with, enum evidence ev,
			const struct kfact *fact, const struct ksite *ks, const char *func,
			const struct rec_check *c)
{
	struct sg_replace *r = NULL;
	const char *since = fact ? fact->since : NULL;
	struct sg_site *st;
	size_t i;

	for (i = 0; i < s->nrepl && !r; i++)
		if (s->repl[i].with == with && s->repl[i].replace == replace &&
		    s->repl[i].evidence == ev && s->repl[i].since == since)
			r = &s->repl[i];
	if (!r) {
		grow_array((void **)&s->repl, &s->caprepl, s->nrepl + 1, sizeof(*r));
		r = &s->repl[s->nrepl++];
		r->replace = replace;
		r->with = with;
		r->evidence = ev;
		r->since = since;
		r->kernel_too_old = since && kver_cmp(record_oldest_kernel(s->rec), since) < 0;
	}
	st = add_site(&r->sites, &r->nsites, &r->capsites, &r->site_idx, func, fact, c);
	if (ks)
		st->ksite = ks;
}

static void add_keep(struct suggestion *s, int cap, const char *func, const struct rec_check *c,
		     const struct ks_answer *a, bool noaudit_decides, const struct kfact *probe)
{
	struct sg_keep *k = NULL;
	struct sg_site *st;
	int it = 0;
	size_t i;

	for (i = 0; i < s->nkeep && !k; i++)
		if (s->keep[i].cap == cap)
			k = &s->keep[i];
	if (!k) {
		grow_array((void **)&s->keep, &s->capkeep, s->nkeep + 1, sizeof(*k));
		k = &s->keep[s->nkeep++];
		/* (a slot minimise() emptied holds what moved elsewhere) */
		memset(k, 0, sizeof(*k));
		k->cap = cap;
	}
	if (cap == CAP_SYS_ADMIN && !k->why)
		k->why = kfact_next(func, CAP_SYS_ADMIN, KF_SYSADMIN_ONLY, &it);
	st = add_site(&k->sites, &k->nsites, &k->capsites, &k->site_idx, func, NULL, c);
	if (a && a->nsites) {
		st->ksite = a->first;
		st->alts = a->alts;
	}
	st->noaudit_decides |= noaudit_decides;
	if (probe)
		st->probe = probe;
	else
		st->not_probe = true;
}

static struct sg_undecided *add_undecided(struct suggestion *s, int cap,
					   enum sg_undecided_why why, const char *func,
					   const struct ksite *ks, uint64_t count)
{
	struct sg_undecided *u = NULL;
	size_t i;

	for (i = 0; i < s->nundecided && !u; i++)
		if (s->undecided[i].cap == cap && s->undecided[i].func == func &&
		    s->undecided[i].why == why)
			u = &s->undecided[i];
	if (!u) {
		grow_array((void **)&s->undecided, &s->capundecided, s->nundecided + 1,
			   sizeof(*u));
		u = &s->undecided[s->nundecided++];
		u->cap = cap;
		u->why = why;
		u->func = func;
		u->ksite = ks;
		u->fact = NULL;
		u->count = 0;
		u->objects = (struct obj_set){ 0 };
	}
	u->count = sat_add(u->count, count);
	s->undecided_caps |= CAP_BIT(cap);
	return u;
}

struct deny_ctx {
	const struct suggestion *s;
	const struct sg_denial *key;
};

static bool deny_eq(const void *ctx, size_t pos)
{
	const struct deny_ctx *dc = ctx;
	const struct sg_denial *d = &dc->s->deny[pos], *k = dc->key;

	return d->cap == k->cap && d->alt == k->alt && d->kind == k->kind && d->func == k->func &&
	       d->in_ack == k->in_ack && d->eff.kind == k->eff.kind &&
	       !strcmp(d->eff.at, k->eff.at);
}

int denial_kind_rank(enum denial_kind k)
{
	static const int rank[] = { [DENY_BLOCKING] = 7, [DENY_CHANGED] = 6,
				    [DENY_OTHER_ERROR] = 5, [DENY_INCONCLUSIVE] = 4,
				    [DENY_UNKNOWN] = 3, [DENY_DONE_WITHOUT] = 2,
				    [DENY_ADVISORY] = 1 };

	return (unsigned)k < ARRAY_SIZE(rank) ? rank[k] : 0;
}

const char *denial_kind_name(enum denial_kind k)
{
	static const char *const n[] = { [DENY_BLOCKING] = "blocking", [DENY_ADVISORY] = "advisory",
					 [DENY_UNKNOWN] = "unknown", [DENY_OTHER_ERROR] = "other-error",
					 [DENY_INCONCLUSIVE] = "inconclusive",
					 [DENY_CHANGED] = "changed",
					 [DENY_DONE_WITHOUT] = "done-without" };

	return (unsigned)k < ARRAY_SIZE(n) && n[k] ? n[k] : "unknown";
}

const char *denial_kind_words(enum denial_kind k)
{
	switch (k) {
	case DENY_BLOCKING: return "the syscall failed";
	case DENY_ADVISORY: return "advisory (the syscall went on)";
	case DENY_OTHER_ERROR: return "the syscall failed with another error";
	case DENY_INCONCLUSIVE: return "inconclusive (interrupted)";
	case DENY_CHANGED: return "the syscall succeeded, but did less";
	case DENY_DONE_WITHOUT: return "tried, and programs do without";
	default: return "outcome unknown";
	}
}

/* The outcome of a denied check's syscall: max of the two halves of a pair
 * (one event: both saw the same syscall end). */
struct outcome {
	uint64_t failed, other, restart;
	int errno_;
};

/* The syscall ended with the error name err (an errno the kernel's
 * source returns on a refusal there). */
static bool ended_with(struct outcome out, const struct effect *e)
{
	const char *n = out.errno_ > 0 ? strerrorname_np(out.errno_) : NULL;
	size_t i;

	if (!e->err)
		return false;
	if (out.failed)   /* EPERM or EACCES: a refusal's own errors */
		return true;
	if (out.other && n && !strcmp(n, e->err))
		return true;
	for (i = 0; out.other && n && i < e->nerrs; i++)
		if (!strcmp(n, e->errs[i]))
			return true;
	return false;
}

/*
 * What a denial did, from what the refusal does there (effect.h) and how
 * its syscall ended. With no syscall results the kernel's source alone
 * decides what it can (a silent change, an ack, a fact); the rest is
 * unknown.
 */
static enum denial_kind denial_kind_of(const struct suggestion *s, const struct effect *e,
				       struct outcome out)
{
	bool results = s->rec->hdr.syscall_results;
	bool failed = out.failed || out.other;

	switch (e->kind) {
	case EFF_NO_EFFECT:
	case EFF_TUNES:
		return DENY_ADVISORY;
	case EFF_DONE_WITHOUT:
		return DENY_DONE_WITHOUT;
	case EFF_ACK:
		/* the request failed, whatever sendmsg() returned */
		return DENY_BLOCKING;
	case EFF_SILENT:
		/* the call went on, changed; a syscall that failed anyway failed
		 * for another reason */
		if (!results || !failed)
			return DENY_CHANGED;
		break;
	case EFF_VERIFIER:
		/* the verifier checked more strictly: the load failed, or it
		 * accepted the program under the stricter rules */
		if (!results)
			return DENY_UNKNOWN;
		return failed ? DENY_BLOCKING : out.restart ? DENY_INCONCLUSIVE : DENY_ADVISORY;
	case EFF_FAILS:
	case EFF_PROGRAM:
		if (results && ended_with(out, e))
			return DENY_BLOCKING;
		break;
	default:
		break;
	}
	if (!results)
		return e->fact && e->fact->kind == KF_ADVISORY ? DENY_ADVISORY : DENY_UNKNOWN;
	return out.failed ? DENY_BLOCKING : out.other ? DENY_OTHER_ERROR :
	       out.restart ? DENY_INCONCLUSIVE : DENY_ADVISORY;
}

static void add_denial(struct suggestion *s, const struct row *r, int alt, struct outcome out,
		       const struct effect *eff)
{
	uint64_t failed = out.failed;
	const struct rec_check *c = r->c;
	const struct kfact *only, *adv;
	const struct ks_answer *ks;
	const char *effect;
	struct sg_denial *d, key;
	struct deny_ctx dc;
	const char *func = site_func(r);
	uint64_t h;
	long at;

	memset(&key, 0, sizeof(key));
	only = fact_for(s, func, c->cap, KF_ONLY);
	adv = fact_for(s, func, c->cap, KF_ADVISORY);
	ks = ks_for(s, func, c->cap);
	effect = ks->nsites && strcmp(ks->effect, "unknown") ? ks->effect : NULL;
	key.eff = *eff;
	key.cap = c->cap;
	key.alt = alt;
	key.func = func;
	key.kind = denial_kind_of(s, &key.eff, out);
	key.in_ack = key.eff.kind == EFF_ACK;
	dc = (struct deny_ctx){ s, &key };
	h = hash_str(hash_u64(hash_u64(hash_u64((uint64_t)(uintptr_t)func, (uint64_t)c->cap),
				       (uint64_t)alt), (uint64_t)key.kind << 8 | key.eff.kind),
		     key.eff.at);
	at = hindex_find(&s->deny_idx, h, deny_eq, &dc);
	if (at >= 0) {
		d = &s->deny[at];
	} else {
		grow_array((void **)&s->deny, &s->capdeny, s->ndeny + 1, sizeof(*d));
		d = &s->deny[s->ndeny];
		*d = key;
		d->fact = only ? only : adv;
		d->effect = effect;
		d->sysname = c->sysname;
		hindex_add(&s->deny_idx, h, s->ndeny++);
	}
	d->count = sat_add(d->count, c->count);
	d->sys_failed = sat_add(d->sys_failed, failed);
	d->sys_other = sat_add(d->sys_other, out.other);
	d->sys_restart = sat_add(d->sys_restart, out.restart);
	if (out.other)
		d->sys_errno = out.errno_;
	obj_set_add_check(&d->objects, c);
	obj_set_add_check(&sys_count_add(&d->sys, &d->nsys, &d->capsys, c->syscall, c->sysname,
					 c->count)->objects, c);
}

static void add_aside(struct suggestion *s, int cap, enum sg_aside_why why, const char *func,
		      const struct kfact *fact, const struct rec_check *c)
{
	struct sg_aside *a = NULL;
	size_t i;

	/* few: the kinds of checks that make no requirement */
	for (i = 0; i < s->naside && !a; i++)
		if (s->aside[i].cap == cap && s->aside[i].why == why && s->aside[i].func == func)
			a = &s->aside[i];
	if (!a) {
		grow_array((void **)&s->aside, &s->capaside, s->naside + 1, sizeof(*a));
		a = &s->aside[s->naside++];
		*a = (struct sg_aside){ .cap = cap, .why = why, .func = func, .fact = fact };
	}
	if (c->ret == 0)
		a->granted = sat_add(a->granted, c->count);
	else
		a->denied = sat_add(a->denied, c->count);
	obj_set_add_check(&a->objects, c);
}

static struct sg_program *program_of(struct suggestion *s, const struct rec_process *p)
{
	return &s->progs[p - s->rec->procs];
}

/* A granted CAP_SYS_ADMIN row without an observed fallback: the table may
 * still know a narrower capability, if the record's kernel predates it. */
static const struct kfact *fact_for_unpaired(struct suggestion *s, const char *func)
{
	const struct kfact *f;
	int it = 0;

	/* memoized as capability -1 of the same kind */
	size_t h = ((uintptr_t)func >> 4) ^ 0x5bd1e995;
	struct fact_memo *m = &s->memo[h & (FACT_MEMO - 1)];

	if (m->func == func && m->cap == -1 && m->kind == (int)KF_NARROW_OR_SYSADMIN)
		return m->fact;
	while ((f = kfact_next(func, -1, KF_NARROW_OR_SYSADMIN, &it))) {
		/* a newer kernel would have shown the narrow check first */
		if (f->since && kver_cmp(record_oldest_kernel(s->rec), f->since) < 0)
			break;
	}
	m->func = func;
	m->cap = -1;
	m->kind = (int)KF_NARROW_OR_SYSADMIN;
	m->fact = f;
	return f;
}

/*
 * Whether a granted check is one only verify can decide: at a site that
 * allows without any capability when a plain condition holds, asked
 * before it (the kernel's source says which; docs/capsites.md), or a
 * sysctl's permission handler asked for by root, whom the file's owner
 * bits let in anyway (fs/proc/proc_sysctl.c test_perm()).
 */
static bool undecided_here(const struct ks_answer *a, const struct row *r,
			   const struct rec_check *c)
{
	if (!a->nsites)
		return false;
	/* set*id(2): the hook compared the ids (no_effect would have set the
	 * check aside): the capability was needed */
	if (c->args_checked)
		return false;
	if (a->allowed_without)
		return true;
	return r->noaudit_decides && a->effect && !strcmp(a->effect, "mode") && c->uid == 0;
}

/*
 * A granted check that only a run can decide, by the kernel facts
 * (effect.h): the BPF verifier's stricter rules, an operation programs
 * try and fall back from, a listing or look-up by id; with the check's
 * syscall and operation (the record's op).
 */
static const struct kfact *run_decides(const struct row *r, const char *func, int cap)
{
	static const enum kfact_kind kinds[] = { KF_VERIFIER, KF_FALLBACK, KF_PROGRAM };
	const char *label = check_op_label(r->c);
	const struct kfact *f;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		int it = 0;

		while ((f = kfact_next(func, cap, kinds[k], &it)))
			if (kfact_during(f, r->c->sysname) && kfact_op(f, label))
				return f;
	}
	return NULL;
}

static void classify(struct suggestion *s, struct row *r)
{
	const struct rec_check *c = r->c;
	struct sg_program *prog = program_of(s, r->proc);
	const char *func = site_func(r);
	const struct kfact *f;
	struct effect eff;

	/* what a refusal does here: nothing, for this call's arguments? */
	effect_of(s->ktab, s->rec, c, func, &eff);
	if (eff.kind == EFF_NO_EFFECT) {
		add_aside(s, c->cap, ASIDE_NO_EFFECT, func, eff.fact, c);
		return;
	}
	if (c->ret == 0) {
		int asked = c->cap == CAP_SYS_ADMIN && r->partner ? r->partner->c->cap : c->cap;

		s->observed |= 1ULL << c->cap;
		/* the kernel's facts: the outcome only tunes behaviour here */
		if ((f = fact_for(s, func, asked, KF_ADVISORY))) {
			add_aside(s, asked, ASIDE_ADVISORY, func, f, c);
			return;
		}
		/* only a run decides (the narrow half of a pair: what the
		 * replacement would keep); like a feature probe, one use of
		 * the capability anywhere else makes it required (probes()) */
		if ((f = run_decides(r, func, asked))) {
			add_keep(s, asked, func, c, ks_for(s, func, asked), r->noaudit_decides, f);
			prog->probed |= CAP_BIT(asked);
			return;
		}
		if (c->cap == CAP_SYS_ADMIN && r->partner) {
			int with = r->partner->c->cap;

			f = fact_for(s, func, with, KF_NARROW_OR_SYSADMIN);
			add_replace(s, CAP_SYS_ADMIN, with, EV_OBSERVED, f, NULL, func, c);
			prog->required |= 1ULL << with;
		} else if (c->cap == CAP_SYS_ADMIN && (f = fact_for_unpaired(s, func))) {
			add_replace(s, CAP_SYS_ADMIN, f->cap, EV_FACT, f, NULL, func, c);
			prog->required |= 1ULL << f->cap;
		} else {
			/* the kernel's source: a narrower capability accepted here
			 * (asked after this one: a recording with it never sees
			 * the other), or a plain condition asked after it */
			const struct ks_answer *a = ks_for(s, func, c->cap);
			int with = narrowest_below(c->cap, a->alts);

			if (undecided_here(a, r, c)) {
				obj_set_add_check(&add_undecided(s, c->cap, a->allowed_without ?
								 UD_ALLOWED_WITHOUT : UD_SYSCTL_OWNER,
								 func, a->first, c->count)->objects, c);
				prog->undecided |= CAP_BIT(c->cap);
			} else if (with >= 0) {
				add_replace(s, c->cap, with, EV_SOURCE, NULL, a->first, func, c);
				prog->required |= 1ULL << with;
			} else {
				/* a feature probe: decided once every check is in */
				f = fact_for(s, func, c->cap, KF_PROBE);
				if (f && !kfact_during(f, c->sysname))
					f = NULL;
				add_keep(s, c->cap, func, c, a, r->noaudit_decides, f);
				if (f)
					prog->probed |= 1ULL << c->cap;
				else
					prog->required |= 1ULL << c->cap;
			}
		}
		return;
	}
	/* denied */
	if (r->partner && r->partner->c->ret == 0)
		return;  /* the fallback was granted: not a denial of the workload */
	if (c->cap == CAP_SYS_ADMIN && r->partner)
		return;  /* reported with its narrow half */
	/* a pair is one event: both halves saw the same syscall end */
	{
		const struct rec_check *p = r->partner ? r->partner->c : c;
		struct outcome out = {
			.failed = p->sys_failed > c->sys_failed ? p->sys_failed : c->sys_failed,
			.other = p->sys_other > c->sys_other ? p->sys_other : c->sys_other,
			.restart = p->sys_restart > c->sys_restart ? p->sys_restart : c->sys_restart,
			.errno_ = c->sys_errno ? c->sys_errno : p->sys_errno,
		};

		add_denial(s, r, r->partner ? CAP_SYS_ADMIN : -1, out, &eff);
	}
	s->denied |= 1ULL << c->cap;
}

static int cmp_aside(const void *x, const void *y)
{
	const struct sg_aside *a = x, *b = y;

	if (a->why != b->why)
		return (int)a->why - (int)b->why;
	if (a->cap != b->cap)
		return a->cap - b->cap;
	return strcmp(a->func, b->func);
}

static int cmp_site(const void *x, const void *y)
{
	const struct sg_site *a = x, *b = y;

	return strcmp(a->func, b->func);
}

static void sort_sites(struct sg_site *sites, size_t n)
{
	size_t i;

	sort_array(sites, n, sizeof(*sites), cmp_site);
	for (i = 0; i < n; i++)
		sys_count_sort(sites[i].sys, sites[i].nsys);
}

static int cmp_keep(const void *x, const void *y)
{
	return ((const struct sg_keep *)x)->cap - ((const struct sg_keep *)y)->cap;
}

static int cmp_repl(const void *x, const void *y)
{
	const struct sg_replace *a = x, *b = y;

	if (a->with != b->with)
		return a->with - b->with;
	return (int)a->evidence - (int)b->evidence;
}

static int cmp_deny(const void *x, const void *y)
{
	const struct sg_denial *a = x, *b = y;

	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	if (a->cap != b->cap)
		return a->cap - b->cap;
	return strcmp(a->func, b->func);
}

/*
 * A kept capability is not required when every site it was used at also
 * accepts another member of the set (capsites: the kernel asks either),
 * and never when one site needs it alone. The most powerful go first:
 * CAP_SYS_ADMIN covered by CAP_BPF, not CAP_BPF by CAP_SYS_ADMIN where a
 * site takes both. A member covered by CAP_SYS_ADMIN alone is verify's to
 * decide: CAP_SYS_ADMIN is what the narrow capabilities stand in for, and
 * it is in a set more often than any other only because a program probed
 * (fsopen(), pagemap); verify tries dropping CAP_SYS_ADMIN first, then the
 * narrow one. Programs' own sets lose a covered member where they hold one
 * that covers it.
 */
static int cmp_power_desc(const void *x, const void *y)
{
	const struct sg_keep *a = x, *b = y;
	int c = cap_power_cmp(b->cap, a->cap);

	return c ? c : a->cap - b->cap;
}

static void free_sites(struct sg_site *sites, size_t n);

/* The members of `by` that k's sites accept instead, if every site
 * accepts one of them; else 0. */
static uint64_t covered(const struct sg_keep *k, uint64_t by)
{
	uint64_t used = 0;
	size_t j;

	for (j = 0; j < k->nsites; j++) {
		if (!(k->sites[j].alts & by))
			return 0;
		used |= k->sites[j].alts & by;
	}
	return used;
}

/*
 * Feature probes (docs/capsites.md, "Probes the program tolerates"): a
 * kept capability every check of which was a probe of an optional feature
 * (kernel fact KF_PROBE: the new mount API, pagemap's frame numbers,
 * TCP_REPAIR, socket diagnostics' extra fields, audit user messages) is
 * not certainly required: the program may do without it when refused.
 * It leaves the set for verify, with the feature; run before minimise(),
 * so that what only such a CAP_SYS_ADMIN would cover stays required.
 */
static void probes(struct suggestion *s)
{
	size_t i, j, n;

	for (i = n = 0; i < s->nkeep; i++) {
		struct sg_keep *k = &s->keep[i];
		uint64_t bit = CAP_BIT(k->cap);
		bool all = k->nsites > 0;

		for (j = 0; j < k->nsites && all; j++)
			all = k->sites[j].probe && !k->sites[j].not_probe;
		if (!all) {
			/* required by a check that was no probe: the
			 * programs that probed need it too */
			for (j = 0; j < s->nprogs; j++)
				s->progs[j].required |= s->progs[j].probed & bit;
			s->keep[n++] = *k;
			continue;
		}
		for (j = 0; j < k->nsites; j++) {
			const struct kfact *f = k->sites[j].probe;
			enum sg_undecided_why why = f->kind == KF_VERIFIER ? UD_VERIFIER :
						    f->kind == KF_FALLBACK ? UD_FALLBACK :
						    f->kind == KF_PROGRAM ? UD_PROGRAM : UD_PROBE;

			struct sg_undecided *u = add_undecided(s, k->cap, why, k->sites[j].func,
							       k->sites[j].ksite, k->sites[j].count);

			u->fact = f;
			obj_set_merge(&u->objects, &k->sites[j].objects);
		}
		for (j = 0; j < s->nprogs; j++)
			if (s->progs[j].probed & bit)
				s->progs[j].undecided |= bit;
		free_sites(k->sites, k->nsites);
		hindex_free(&k->site_idx);
	}
	s->nkeep = n;
}

static void minimise(struct suggestion *s)
{
	size_t i, j, n;

	sort_array(s->keep, s->nkeep, sizeof(*s->keep), cmp_power_desc);
	for (i = 0; i < s->nkeep; i++) {
		struct sg_keep *k = &s->keep[i];
		uint64_t others = s->required & ~CAP_BIT(k->cap);

		if (k->cap == CAP_SYS_ADMIN)
			continue;
		/* by the other narrow members, else by CAP_SYS_ADMIN too */
		k->covered_by = covered(k, others & ~CAP_BIT(CAP_SYS_ADMIN));
		if (!k->covered_by && covered(k, others & CAP_BIT(CAP_SYS_ADMIN)))
			k->covered_by = CAP_BIT(CAP_SYS_ADMIN);
		if (k->covered_by)
			s->required &= ~CAP_BIT(k->cap);
	}
	for (i = n = 0; i < s->nkeep; i++) {
		struct sg_keep *k = &s->keep[i];

		if (!k->covered_by) {
			s->keep[n++] = *k;
			continue;
		}
		if (k->covered_by == CAP_BIT(CAP_SYS_ADMIN)) {
			/* CAP_SYS_ADMIN covers it only if CAP_SYS_ADMIN stays:
			 * verify, which tries CAP_SYS_ADMIN first, decides */
			for (j = 0; j < k->nsites; j++)
				obj_set_merge(&add_undecided(s, k->cap, UD_SYSADMIN_COVERS,
							     k->sites[j].func, k->sites[j].ksite,
							     k->sites[j].count)->objects,
					      &k->sites[j].objects);
			for (j = 0; j < s->nprogs; j++)
				if (s->progs[j].required & CAP_BIT(k->cap)) {
					s->progs[j].required &= ~CAP_BIT(k->cap);
					s->progs[j].undecided |= CAP_BIT(k->cap);
				}
			free_sites(k->sites, k->nsites);
			hindex_free(&k->site_idx);
			continue;
		}
		grow_array((void **)&s->cover, &s->capcover, s->ncover + 1, sizeof(*k));
		s->cover[s->ncover++] = *k;
		for (j = 0; j < s->nprogs; j++)
			if (s->progs[j].required & k->covered_by)
				s->progs[j].required &= ~CAP_BIT(k->cap);
	}
	s->nkeep = n;
}

/* The site name a CAP_SYS_PTRACE requirement of the subset rule is kept
 * under (a function of security/commoncap.c; one pointer, as interned
 * names are compared). */
static const char sg_ptrace_site[] = "cap_ptrace_access_check";

/*
 * Ptrace access the kernel let through without a check. A program that
 * reached other processes (ptrace attach, process_vm_readv, /proc/PID/mem,
 * ...) while its set covered theirs made no CAP_SYS_PTRACE check
 * (security/commoncap.c cap_ptrace_access_check(): cap_issubset() of the
 * target's permitted set in the caller's). With the suggested set the
 * kernel asks unless that set still covers every target's: so
 * CAP_SYS_PTRACE is required when `required` does not cover the union of
 * the targets' sets, and verify decides when a target's set was not read.
 */
static void ptrace_shortcut(struct suggestion *s)
{
	struct sg_ptrace *pt = &s->ptrace;
	size_t i;

	for (i = 0; i < s->nprogs; i++) {
		const struct rec_process *p = s->progs[i].proc;

		if (!s->progs[i].matched || (!p->ptrace_targets && !p->ptrace_unknown))
			continue;
		pt->targets += p->ptrace_targets;
		pt->unknown += p->ptrace_unknown;
		pt->target_prm |= p->ptrace_prm;
		if (!pt->example && p->ptrace_ex_comm)
			pt->example = p;
		if (p->ptrace_prm & ~s->progs[i].required)
			s->progs[i].required |= CAP_BIT(CAP_SYS_PTRACE);
		else if (p->ptrace_unknown && !(s->progs[i].required & CAP_BIT(CAP_SYS_PTRACE)))
			s->progs[i].undecided |= CAP_BIT(CAP_SYS_PTRACE);
	}
	if (s->required & CAP_BIT(CAP_SYS_PTRACE))
		return;   /* asked for and granted at a check the record has */
	pt->needs = pt->targets && (pt->target_prm & ~s->required);
	if (pt->needs) {
		struct rec_check c = { .count = pt->targets, .syscall = -1 };

		add_keep(s, CAP_SYS_PTRACE, sg_ptrace_site, &c, NULL, false, NULL);
		s->required |= CAP_BIT(CAP_SYS_PTRACE);
	} else if (pt->unknown) {
		add_undecided(s, CAP_SYS_PTRACE, UD_PTRACE_UNKNOWN, sg_ptrace_site, NULL,
			      pt->unknown);
	}
}

int suggest_build(const struct record *rec, const struct suggest_opts *o, struct suggestion *s)
{
	struct row *rows;
	size_t i, n = 0, lo;

	memset(s, 0, sizeof(*s));
	s->rec = rec;
	s->memo = xcalloc(FACT_MEMO, sizeof(*s->memo));
	s->ksmemo = xcalloc(KS_MEMO, sizeof(*s->ksmemo));
	s->ktab = ktable_for(record_oldest_kernel(rec), &s->ktab_exact);
	s->progs = xcalloc(rec->nprocs + 1, sizeof(*s->progs));
	s->nprogs = rec->nprocs;
	for (i = 0; i < rec->nprocs; i++) {
		s->progs[i].proc = &rec->procs[i];
		s->progs[i].matched = workload_program_is(&rec->procs[i], o->program);
		/* the runtime's setup is not the container's program, unless
		 * --program names it */
		if (rec->procs[i].runtime_setup && !o->program) {
			s->progs[i].matched = false;
			s->runtime_images++;
		}
		s->images_matched += s->progs[i].matched;
		if (s->progs[i].matched && rec->procs[i].has_capset)
			s->asked |= rec->procs[i].capset_prm;
	}

	{
		bool *matched = xcalloc(rec->nprocs + 1, sizeof(*matched));

		for (i = 0; i < rec->nprocs; i++)
			matched[i] = s->progs[i].matched;
		runas_build(rec, matched, &s->runas);
		free(matched);
	}
	s->service = service_removal_candidates(rec, &s->service_granted, &s->service_unused);

	rows = xcalloc(rec->nchecks + 1, sizeof(*rows));
	for (i = 0; i < rec->nchecks; i++) {
		const struct rec_check *c = &rec->checks[i];
		const struct rec_process *p = check_process(rec, c);
		struct row *r;

		bool decides = false;

		if (!p || !s->progs[p - rec->procs].matched) {
			if (p && p->runtime_setup && !o->program && c->ret == 0 &&
			    check_noaudit(rec, c) == NOAUDIT_NO)
				s->runtime_granted |= CAP_BIT(c->cap);
			continue;
		}
		/* noaudit checks are the kernel probing, unless the site's
		 * denial fails the call (capsites: an errno, a sysctl's mode) */
		if (check_noaudit(rec, c) != NOAUDIT_NO) {
			const struct rec_stack *st = check_stack(rec, c);
			const struct ks_answer *a = st ? ks_for(s, st->site_func, c->cap) : NULL;

			decides = a && a->nsites && a->noaudit_all &&
				  (ks_effect_is_errno(a->effect) || !strcmp(a->effect, "mode"));
			if (!decides)
				continue;
		}
		/* not the host's sets, or an answer that could not matter */
		if (c->userns != RU_HOST || c->no_effect || c->foreign_cred) {
			const struct rec_stack *st = check_stack(rec, c);

			add_aside(s, c->cap, c->foreign_cred ? ASIDE_FOREIGN :
				  c->no_effect ? ASIDE_NO_EFFECT :
				  c->userns == RU_INSIDE ? ASIDE_INSIDE :
				  c->userns == RU_OWNER ? ASIDE_OWNER : ASIDE_CHILD,
				  st ? st->site_func : no_site, NULL, c);
			continue;
		}
		r = &rows[n++];
		r->c = c;
		r->st = check_stack(rec, c);
		r->proc = p;
		r->site = r->st ? r->st->site : -1;
		r->site_off = r->site >= 0 ? r->st->site_off : 0;   /* parsed once per stack */
		r->image = (size_t)(p - rec->procs);
		r->syscall = c->syscall;
		r->noaudit_decides = decides;
	}
	sort_array(rows, n, sizeof(*rows), cmp_row);
	for (lo = 0; lo < n;) {
		size_t hi = lo + 1;

		while (hi < n && rows[hi].image == rows[lo].image &&
		       rows[hi].c->syscall == rows[lo].c->syscall)
			hi++;
		pair_group(rows, lo, hi);
		lo = hi;
	}
	for (i = 0; i < n; i++)
		classify(s, &rows[i]);
	free(rows);

	probes(s);
	for (i = 0; i < s->nkeep; i++)
		s->required |= 1ULL << s->keep[i].cap;
	for (i = 0; i < s->nrepl; i++)
		s->required |= 1ULL << s->repl[i].with;
	minimise(s);
	ptrace_shortcut(s);
	s->undecided_caps &= ~s->required;
	sort_array(s->keep, s->nkeep, sizeof(*s->keep), cmp_keep);
	sort_array(s->repl, s->nrepl, sizeof(*s->repl), cmp_repl);
	sort_array(s->deny, s->ndeny, sizeof(*s->deny), cmp_deny);
	sort_array(s->aside, s->naside, sizeof(*s->aside), cmp_aside);
	s->asked &= ~s->required;
	for (i = 0; i < s->nkeep; i++)
		sort_sites(s->keep[i].sites, s->keep[i].nsites);
	for (i = 0; i < s->nrepl; i++)
		sort_sites(s->repl[i].sites, s->repl[i].nsites);
	for (i = 0; i < s->ndeny; i++)
		sys_count_sort(s->deny[i].sys, s->deny[i].nsys);
	return 0;
}

static void free_sites(struct sg_site *sites, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(sites[i].sys);   /* func is the record's */
	free(sites);
}

/* Of the n keeps of v, those whose capability is in caps stay (in order);
 * the others are freed. How many stay. */
static size_t keep_only(struct sg_keep *v, size_t n, uint64_t caps)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++) {
		if (capset_has(caps, v[i].cap)) {
			v[kept++] = v[i];
			continue;
		}
		free_sites(v[i].sites, v[i].nsites);
		hindex_free(&v[i].site_idx);
	}
	return kept;
}

void suggest_free(struct suggestion *s)
{
	size_t i;

	for (i = 0; i < s->nrepl; i++) {
		free_sites(s->repl[i].sites, s->repl[i].nsites);
		hindex_free(&s->repl[i].site_idx);
	}
	free(s->repl);
	keep_only(s->keep, s->nkeep, 0);
	free(s->keep);
	keep_only(s->cover, s->ncover, 0);
	free(s->cover);
	free(s->undecided);
	free(s->ksmemo);
	for (i = 0; i < s->ndeny; i++) {
		free(s->deny[i].sys);
	}
	free(s->deny);
	free(s->aside);
	hindex_free(&s->deny_idx);
	free(s->progs);
	free(s->memo);
	memset(s, 0, sizeof(*s));
}

void suggest_keep_caps(struct suggestion *s, uint64_t caps)
{
	uint64_t shown = caps;
	size_t i, n;

	for (i = n = 0; i < s->nrepl; i++) {
		struct sg_replace *r = &s->repl[i];

		if (capset_has(caps, r->with) || capset_has(caps, r->replace)) {
			shown |= CAP_BIT(r->with) | CAP_BIT(r->replace);
			s->repl[n++] = *r;
			continue;
		}
		free_sites(r->sites, r->nsites);
		hindex_free(&r->site_idx);
	}
	s->nrepl = n;
	s->nkeep = keep_only(s->keep, s->nkeep, caps);
	s->ncover = keep_only(s->cover, s->ncover, caps);
	for (i = n = 0; i < s->nundecided; i++)
		if (capset_has(caps, s->undecided[i].cap))
			s->undecided[n++] = s->undecided[i];
	s->nundecided = n;
	s->undecided_caps &= caps;
	s->denied = 0;
	for (i = n = 0; i < s->ndeny; i++) {
		struct sg_denial *d = &s->deny[i];

		if (capset_has(caps, d->cap) || (d->alt >= 0 && capset_has(caps, d->alt))) {
			shown |= CAP_BIT(d->cap);
			s->denied |= CAP_BIT(d->cap);
			s->deny[n++] = *d;
			continue;
		}
		free(d->sys);
	}
	s->ndeny = n;
	/* the deny index points at denials no longer there: nothing is added now */
	hindex_free(&s->deny_idx);
	for (i = n = 0; i < s->naside; i++)
		if (capset_has(caps, s->aside[i].cap))
			s->aside[n++] = s->aside[i];
	s->naside = n;
	s->required = 0;
	for (i = 0; i < s->nkeep; i++)
		s->required |= CAP_BIT(s->keep[i].cap);
	for (i = 0; i < s->nrepl; i++)
		s->required |= CAP_BIT(s->repl[i].with);
	s->observed &= shown;
	s->asked &= shown;
	s->service_granted &= shown;
	s->service_unused &= shown;
	for (i = 0; i < s->nprogs; i++)
		s->progs[i].required &= shown;
	s->only = shown;
}
