// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor's tables (monitor/monfold.h): program identities, kernel
 * stacks by their key, rows of (identity, capability, verdict, call site
 * function, syscall, flags), and the checkpoint record made of them. No
 * libbpf here: the unit tests fold by hand what the kernel would give.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/callsite.h"
#include "facts/syscalls.h"
#include "lib/util.h"
#include "tracer/keyflags.h"
#include "monitor/monfold.h"

static uint64_t ident_hash(const char *exe, const char *build_id, const char *comm,
			   const char *cgroup, uint32_t uid)
{
	/* the comm names a program only when its executable is not known */
	uint64_t h = hash_str(hash_str(0x1d, exe ? exe : ""), build_id ? build_id : "");

	h = hash_str(h, exe ? "" : comm ? comm : "");
	return hash_u64(hash_str(h, cgroup ? cgroup : ""), uid);
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

struct ident_probe {
	const struct mon_fold *m;
	const char *exe, *build_id, *comm, *cgroup;
	uint32_t uid;
};

static bool ident_eq(const void *ctx, size_t pos)
{
	const struct ident_probe *q = ctx;
	const struct mon_ident *id = &q->m->ids[pos];

	return id->uid == q->uid && str_eq(id->exe, q->exe) && str_eq(id->cgroup, q->cgroup) &&
	       str_eq(id->build_id, q->build_id) && (q->exe || str_eq(id->comm, q->comm));
}

/* The identity of (exe, comm, cgroup, uid), added if new. */
/* The identity past the bound's checks go to (made once, beyond it). */
static uint32_t fold_past_ident(struct mon_fold *m, int64_t first_ns)
{
	struct mon_ident *id;

	if (m->has_past)
		return m->past_ident;
	grow_array((void **)&m->ids, &m->cap_ids, m->nids + 1, sizeof(*m->ids));
	id = &m->ids[m->nids];
	memset(id, 0, sizeof(*id));
	id->comm = xstrdup(MON_PAST_COMM);
	id->first_ns = first_ns;
	m->past_ident = (uint32_t)m->nids++;
	m->has_past = true;
	return m->past_ident;
}

uint32_t fold_ident(struct mon_fold *m, const char *exe, const char *build_id, const char *comm,
			  const struct rec_process *p, const char *cgroup, uint32_t uid,
			  int64_t first_ns)
{
	struct ident_probe q = { m, exe, build_id, comm, cgroup, uid };
	uint64_t h = ident_hash(exe, build_id, comm, cgroup, uid);
	long at = hindex_find(&m->ident_idx, h, ident_eq, &q);
	struct mon_ident *id;

	if (at >= 0)
		return (uint32_t)at;
	if (m->nids >= MON_IDENT_MAX) {
		m->ids_past++;
		return fold_past_ident(m, first_ns);
	}
	grow_array((void **)&m->ids, &m->cap_ids, m->nids + 1, sizeof(*m->ids));
	id = &m->ids[m->nids];
	memset(id, 0, sizeof(*id));
	id->exe = exe ? xstrdup(exe) : NULL;
	id->build_id = build_id ? xstrdup(build_id) : NULL;
	id->comm = xstrdup(comm ? comm : "?");
	id->cgroup = cgroup ? xstrdup(cgroup) : NULL;
	id->uid = uid;
	id->first_ns = first_ns;
	if (p) {
		id->container_id = p->container_id ? xstrdup(p->container_id) : NULL;
		id->container_name = p->container_name ? xstrdup(p->container_name) : NULL;
		id->container_runtime = p->container_runtime ? xstrdup(p->container_runtime) : NULL;
		id->unit = p->unit ? xstrdup(p->unit) : NULL;
		id->runtime_setup = p->runtime_setup;
	}
	hindex_add(&m->ident_idx, h, m->nids);
	return (uint32_t)m->nids++;
}


struct stack_probe {
	const struct mon_fold *m;
	uint64_t kstack;
};

static bool kstack_eq(const void *ctx, size_t pos)
{
	const struct stack_probe *q = ctx;

	return q->m->stacks[pos].kstack == q->kstack;
}


const char *fold_site(const struct mon_fold *m, int stack)
{
	return stack < 0 ? "?" : m->stacks[stack].site;
}


static uint64_t row_hash(uint32_t ident, const struct ca_key *k, const char *site)
{
	uint64_t h = hash_u64(0x77, ident);

	h = hash_u64(h, (uint64_t)k->cap << 32 | (uint32_t)k->ret);
	h = hash_u64(h, (uint64_t)(uint32_t)k->syscall << 16 | k->flags);
	h = hash_u64(h, k->op);
	return hash_str(h, site);
}

struct row_probe {
	const struct mon_fold *m;
	uint32_t ident;
	const struct ca_key *k;
	const char *site;
};

static bool row_eq(const void *ctx, size_t pos)
{
	const struct row_probe *q = ctx;
	const struct mon_row *r = &q->m->rows[pos];

	/* sites are interned: one pointer per name */
	return r->ident == q->ident && r->cap == q->k->cap && r->ret == q->k->ret &&
	       r->syscall == q->k->syscall && r->flags == q->k->flags && r->op == q->k->op &&
	       r->site == q->site;
}

struct mon_row *fold_find_row(const struct mon_fold *m, uint32_t ident, const struct ca_key *k,
			      int stack)
{
	const char *site = fold_site(m, stack);
	struct row_probe q = { m, ident, k, site };
	long at = hindex_find(&m->row_idx, row_hash(ident, k, site), row_eq, &q);

	return at >= 0 ? &m->rows[at] : NULL;
}

/* The row of key k in identity ident, added if new. */
struct mon_row *fold_row(struct mon_fold *m, uint32_t ident, const struct ca_key *k,
			       int stack, int64_t first_ns)
{
	const char *site = fold_site(m, stack);
	struct row_probe q = { m, ident, k, site };
	uint64_t h = row_hash(ident, k, site);
	long at = hindex_find(&m->row_idx, h, row_eq, &q);
	struct mon_row *r;

	if (at >= 0)
		return &m->rows[at];
	if (m->nrows >= MON_ROW_MAX && !(m->has_past && ident == m->past_ident && stack == -1)) {
		/* that identity's row of the capability and verdict, no call
		 * site: at most 2 x CA_MAX_CAP + 2 rows past the bound */
		struct ca_key past = { .cap = k->cap, .ret = k->ret, .syscall = -1 };

		m->rows_past++;
		return fold_row(m, fold_past_ident(m, first_ns), &past, -1, first_ns);
	}
	grow_array((void **)&m->rows, &m->cap_rows, m->nrows + 1, sizeof(*m->rows));
	r = &m->rows[m->nrows];
	memset(r, 0, sizeof(*r));
	r->ident = ident;
	r->cap = k->cap;
	r->ret = k->ret;
	r->syscall = k->syscall;
	r->flags = k->flags;
	r->op = k->op;
	r->site = site;
	r->stack = stack;
	r->stack_err = k->kstack ? 0 : k->stack_err;
	r->first_ns = first_ns;
	hindex_add(&m->row_idx, h, m->nrows);
	return &m->rows[m->nrows++];
}



static void add_ident_line(struct record *cp, const struct mon_ident *id, uint32_t i)
{
	struct rec_process *p = record_add_process(cp, MON_PID_BASE + i, id->first_ns, 0);

	p->uid = id->uid;
	p->comm = xstrdup(id->comm);
	p->exe = id->exe ? xstrdup(id->exe) : NULL;
	p->build_id = id->build_id ? xstrdup(id->build_id) : NULL;
	p->cgroup = id->cgroup ? xstrdup(id->cgroup) : NULL;
	p->container_id = id->container_id ? xstrdup(id->container_id) : NULL;
	p->container_name = id->container_name ? xstrdup(id->container_name) : NULL;
	p->container_runtime = id->container_runtime ? xstrdup(id->container_runtime) : NULL;
	p->unit = id->unit ? xstrdup(id->unit) : NULL;
	p->runtime_setup = id->runtime_setup;
	p->pids = id->pids ? id->pids : 1;
}

/* The record stack of monitor stack i, added at its first use. */
static int cp_stack(struct record *cp, const struct mon_fold *m, int *smap, int i)
{
	const struct mon_stack *st = &m->stacks[i];
	char **frames;
	size_t k;

	if (smap[i] >= 0)
		return smap[i];
	frames = xcalloc(st->n + 1, sizeof(char *));
	for (k = 0; k < st->n; k++)
		frames[k] = xstrdup(st->frames[k]);
	return smap[i] = record_add_stack(cp, frames, st->n);
}

static void add_row_check(struct record *cp, const struct mon_fold *m, const struct mon_row *r,
			  int *smap)
{
	const struct mon_ident *id = &m->ids[r->ident];
	struct rec_check *c = record_add_check(cp);
	char why[200];

	c->pid = MON_PID_BASE + r->ident;
	c->start_ns = id->first_ns;
	c->uid = id->uid;
	c->comm = record_intern(cp, id->comm, strlen(id->comm));
	c->cap = r->cap;
	c->ret = r->ret;
	c->count = r->count + r->pending;
	c->syscall = r->syscall;
	c->sysname = syscall_name(r->syscall);
	check_set_key_flags(c, r->flags);
	check_set_key_op(c, r->op);
	c->first_ns = r->first_ns;
	c->last_ns = r->last_ns > r->first_ns ? r->last_ns : r->first_ns;
	c->sys_failed = r->sys_failed;
	c->sys_other = r->sys_other;
	c->sys_errno = r->sys_errno;
	c->sys_restart = r->sys_restart;
	c->ustack = -1;
	c->stack = r->stack >= 0 ? cp_stack(cp, m, smap, r->stack) : -1;
	if (r->stack < 0) {
		snprintf(why, sizeof(why), "stack not captured: %s",
			 strerror(r->stack_err < 0 ? -r->stack_err : ENOENT));
		c->stack_error = xstrdup(why);
	}
	fold_row_objects_to(r, c);
}


/* The rows as a complete record (format version 4, scope "monitor"). */
uint64_t fold_to_record(const struct mon_fold *m, struct record *cp)
{
	int *smap = xcalloc(m->nstacks + 1, sizeof(int));
	bool *used = xcalloc(m->nids + 1, sizeof(bool));
	size_t i;

	memset(smap, 0xff, (m->nstacks + 1) * sizeof(int));
	uint64_t checks = 0;

	for (i = 0; i < m->nrows; i++)
		used[m->rows[i].ident] |= m->rows[i].count + m->rows[i].pending > 0;
	for (i = 0; i < m->nids; i++)
		if (used[i])
			add_ident_line(cp, &m->ids[i], (uint32_t)i);
	for (i = 0; i < m->nrows; i++) {
		if (!m->rows[i].count && !m->rows[i].pending)
			continue;
		add_row_check(cp, m, &m->rows[i], smap);
		checks += m->rows[i].count + m->rows[i].pending;
	}
	free(smap);
	free(used);
	return checks;
}


/* A stack's frames (ownership passes): its call site and noaudit frames
 * read once. Returns its index. */
int fold_add_stack(struct mon_fold *m, uint64_t kstack, char **frames, size_t n)
{
	struct mon_stack *st;
	char fn[256];
	int site = callsite_index(frames, n);

	grow_array((void **)&m->stacks, &m->cap_stacks, m->nstacks + 1, sizeof(*m->stacks));
	st = &m->stacks[m->nstacks];
	memset(st, 0, sizeof(*st));
	st->kstack = kstack;
	st->frames = frames;
	st->n = n;
	if (site < 0)
		snprintf(fn, sizeof(fn), "?");
	else
		frame_function(frames[site], fn, sizeof(fn));
	st->site = record_intern(&m->strs, fn, strlen(fn));
	st->noaudit = noaudit_from_stack(frames, n) != NOAUDIT_NO;
	hindex_add(&m->stack_idx, hash_u64(0x57, kstack), m->nstacks);
	return (int)m->nstacks++;
}

int fold_find_stack(const struct mon_fold *m, uint64_t kstack)
{
	struct stack_probe q = { m, kstack };

	return (int)hindex_find(&m->stack_idx, hash_u64(0x57, kstack), kstack_eq, &q);
}

void fold_free(struct mon_fold *m)
{
	size_t i, k;

	for (i = 0; i < m->nids; i++) {
		free(m->ids[i].exe);
		free(m->ids[i].build_id);
		free(m->ids[i].comm);
		free(m->ids[i].cgroup);
		free(m->ids[i].container_id);
		free(m->ids[i].container_name);
		free(m->ids[i].container_runtime);
		free(m->ids[i].unit);
	}
	for (i = 0; i < m->nstacks; i++) {
		for (k = 0; k < m->stacks[i].n; k++)
			free(m->stacks[i].frames[k]);
		free(m->stacks[i].frames);
	}
	for (i = 0; i < m->nrows; i++)
		fold_row_objects_free(&m->rows[i]);
	free(m->ids);
	free(m->stacks);
	free(m->rows);
	hindex_free(&m->ident_idx);
	hindex_free(&m->stack_idx);
	hindex_free(&m->row_idx);
	record_free(&m->strs);
	memset(m, 0, sizeof(*m));
}
