// SPDX-License-Identifier: GPL-2.0
/*
 * report --fleet (fleet.h): per program build over many records. Each
 * record is folded as it is read: its suggestion (suggest_build) gives
 * every process line's required set, and each build gets one observation
 * per record. fleet_finish sorts each build's observations by time (n log
 * n in all) and walks them once.
 */
#include "analyze/fleet.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/suggest.h"
#include "lib/util.h"

void fleet_init(struct fleet *f)
{
	memset(f, 0, sizeof(*f));
	f->first_ns = INT64_MAX;
}

struct id_key {
	const struct fleet *f;
	const char *exe, *build_id, *comm;
};

static bool id_eq(const void *ctx, size_t pos)
{
	const struct id_key *k = ctx;
	const struct fleet_ident *id = &k->f->ids[pos];

	/* comm is part of the key only without an exe (else it is a name
	 * to show: a program may rename its thread) */
	return !strcmp(id->exe, k->exe) && !strcmp(id->build_id, k->build_id) &&
	       (*k->exe || !strcmp(id->comm, k->comm));
}

/* A process line's build: exe and build id; without an exe, its name. */
static struct fleet_ident *ident_of(struct fleet *f, const struct rec_process *p)
{
	struct id_key k = { f, p->exe ? p->exe : "", p->build_id ? p->build_id : "",
			    p->exe ? "" : (p->comm ? p->comm : "?") };
	uint64_t h = hash_str(hash_str(hash_str(0, k.exe), k.build_id), k.comm);
	long pos = hindex_find(&f->id_idx, h, id_eq, &k);
	struct fleet_ident *id;

	if (pos >= 0)
		return &f->ids[pos];
	grow_array((void **)&f->ids, &f->capids, f->nids + 1, sizeof(*f->ids));
	id = &f->ids[f->nids];
	memset(id, 0, sizeof(*id));
	id->exe = xstrdup(k.exe);
	id->build_id = xstrdup(k.build_id);
	id->comm = xstrdup(p->exe ? (p->comm ? p->comm : "") : k.comm);
	id->first_ns = INT64_MAX;
	id->last_ns = INT64_MIN;
	hindex_add(&f->id_idx, h, f->nids);
	return &f->ids[f->nids++];
}

static bool host_eq(const void *ctx, size_t pos)
{
	const void *const *k = ctx;
	const struct fleet *f = k[0];

	return !strcmp(f->hosts[pos], k[1]) && f->host_from_file[pos] == (k[2] != NULL);
}

/* The host a record came from: its header's host, else its file name
 * (a record written before the header had one). */
static size_t host_of(struct fleet *f, const struct record *r, const char *file)
{
	const char *name = r->hdr.host && *r->hdr.host ? r->hdr.host : file;
	const void *k[3] = { f, name, name == file ? name : NULL };
	uint64_t h = hash_str(hash_u64(0, name == file), name);
	long pos = hindex_find(&f->host_idx, h, host_eq, k);

	if (pos >= 0)
		return pos;
	grow_array((void **)&f->hosts, &f->caphosts, f->nhosts + 1, sizeof(*f->hosts));
	f->host_from_file = xrealloc(f->host_from_file, f->caphosts * sizeof(bool));
	f->hosts[f->nhosts] = xstrdup(name);
	f->host_from_file[f->nhosts] = name == file;
	hindex_add(&f->host_idx, h, f->nhosts);
	return f->nhosts++;
}

/* The observation of id in the record being folded (file), new or the
 * one its other process lines there began. */
static struct fleet_obs *obs_of(struct fleet_ident *id, const struct record *r, size_t host,
				size_t file)
{
	struct fleet_obs *o;

	if (id->last_file == file + 1)
		return &id->obs[id->nobs - 1];
	grow_array((void **)&id->obs, &id->capobs, id->nobs + 1, sizeof(*id->obs));
	o = &id->obs[id->nobs++];
	memset(o, 0, sizeof(*o));
	o->at_ns = r->hdr.end_ns;
	o->run_ns = r->hdr.has_monitor ? r->hdr.monitor_since_ns : r->hdr.start_ns;
	o->host = host;
	o->file = file;
	id->last_file = file + 1;
	return o;
}

static void add_repl(struct fleet_ident *id, int replace, int with)
{
	size_t i;

	for (i = 0; i < id->nrepl; i++)
		if (id->repl[i].replace == replace && id->repl[i].with == with)
			return;
	grow_array((void **)&id->repl, &id->caprepl, id->nrepl + 1, sizeof(*id->repl));
	id->repl[id->nrepl++] = (struct fleet_repl){ replace, with };
}

/* A replacement's call site: the broad capability asked there (func is
 * interned in the record, as a stack's site_func is: compared by pointer). */
struct repl_site {
	int replace, with;
	const char *func;
};

static int by_site(const void *a, const void *b)
{
	const struct repl_site *x = a, *y = b;

	if (x->replace != y->replace)
		return x->replace < y->replace ? -1 : 1;
	/* any order of the pointers will do: one that is total */
	return (uintptr_t)x->func < (uintptr_t)y->func ? -1 : (uintptr_t)x->func > (uintptr_t)y->func;
}

/* Every site of every replacement of the suggestion, sorted for lookups
 * by (capability, site): a record of many programs has many sites, and
 * each check looks up its own. */
static struct repl_site *repl_sites(const struct suggestion *sg, size_t *n)
{
	struct repl_site *rs;
	size_t i, k, total = 0;

	for (i = 0; i < sg->nrepl; i++)
		total += sg->repl[i].nsites;
	rs = xcalloc(total + 1, sizeof(*rs));
	*n = 0;
	for (i = 0; i < sg->nrepl; i++)
		for (k = 0; k < sg->repl[i].nsites; k++)
			rs[(*n)++] = (struct repl_site){ sg->repl[i].replace, sg->repl[i].with,
							 sg->repl[i].sites[k].func };
	qsort(rs, *n, sizeof(*rs), by_site);
	return rs;
}

/* The replacements whose call sites this granted check was at: its
 * build's uses of the broad capability there are covered. */
static void note_repl(struct fleet_ident *id, const struct repl_site *rs, size_t n,
		      const struct record *r, const struct rec_check *c)
{
	const struct rec_stack *st;
	struct repl_site key;
	size_t lo = 0, hi = n;

	if (c->ret || !n || !(st = check_stack(r, c)) || !st->site_func)
		return;
	key = (struct repl_site){ c->cap, 0, st->site_func };
	while (lo < hi) {   /* the first entry not below key */
		size_t mid = lo + (hi - lo) / 2;

		if (by_site(&rs[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && !by_site(&rs[lo], &key); lo++)
		add_repl(id, rs[lo].replace, rs[lo].with);
}

void fleet_add(struct fleet *f, const struct record *r, const char *file)
{
	struct suggest_opts so = { 0 };
	size_t *of;   /* process line -> 1 + its build's index; 0: none */
	struct repl_site *rs;
	struct suggestion sg;
	size_t i, nrs, host, fi = f->nfiles;

	grow_array((void **)&f->files, &f->capfiles, f->nfiles + 1, sizeof(*f->files));
	f->files[f->nfiles++] = xstrdup(file);
	host = host_of(f, r, file);
	if (r->hdr.start_ns < f->first_ns)
		f->first_ns = r->hdr.start_ns;
	if (r->hdr.end_ns > f->last_ns)
		f->last_ns = r->hdr.end_ns;
	suggest_build(r, &so, &sg);
	rs = repl_sites(&sg, &nrs);
	/* each process line's build, for the checks below (by index:
	 * f->ids moves as it grows); none for the runtime's container
	 * setup, never a program's requirement */
	of = xcalloc(r->nprocs + 1, sizeof(*of));
	for (i = 0; i < r->nprocs; i++) {
		const struct rec_process *p = &r->procs[i];
		struct fleet_ident *id;
		struct fleet_obs *o;

		if (!sg.progs[i].matched)
			continue;
		id = ident_of(f, p);
		of[i] = 1 + (size_t)(id - f->ids);
		o = obs_of(id, r, host, fi);
		o->required |= sg.progs[i].required;
		o->pids += p->pids ? p->pids : 1;
	}
	for (i = 0; i < r->nchecks; i++) {
		const struct rec_check *c = &r->checks[i];
		const struct rec_process *p = check_process(r, c);
		struct fleet_ident *id;

		if (!p || !of[p - r->procs])
			continue;
		id = &f->ids[of[p - r->procs] - 1];
		if (c->first_ns && c->first_ns < id->first_ns)
			id->first_ns = c->first_ns;
		if (c->last_ns > id->last_ns)
			id->last_ns = c->last_ns;
		note_repl(id, rs, nrs, r, c);
	}
	free(rs);
	free(of);
	suggest_free(&sg);
}

/* ---- fleet_finish ------------------------------------------------------- */

static int by_run(const void *a, const void *b)
{
	const struct fleet_obs *x = a, *y = b;

	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	if (x->run_ns != y->run_ns)
		return x->run_ns < y->run_ns ? -1 : 1;
	if (x->at_ns != y->at_ns)
		return x->at_ns < y->at_ns ? -1 : 1;
	return x->file < y->file ? -1 : x->file > y->file;
}

static int by_time(const void *a, const void *b)
{
	const struct fleet_obs *x = a, *y = b;

	if (x->at_ns != y->at_ns)
		return x->at_ns < y->at_ns ? -1 : 1;
	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return x->file < y->file ? -1 : x->file > y->file;
}

/* Hosts and processes: sorted by host and run, each run's processes are
 * those of its latest record (a monitor's checkpoints count cumulatively
 * since it started); runs and hosts add up. */
static void count_hosts(struct fleet_ident *id)
{
	size_t i;

	qsort(id->obs, id->nobs, sizeof(*id->obs), by_run);
	/* at most one host a record */
	id->host_list = xcalloc(id->nobs + 1, sizeof(*id->host_list));
	for (i = 0; i < id->nobs; i++) {
		const struct fleet_obs *o = &id->obs[i], *next = i + 1 < id->nobs ? o + 1 : NULL;

		if (!i || id->obs[i - 1].host != o->host)
			id->host_list[id->nhosts++] = o->host;
		if (!next || next->host != o->host || next->run_ns != o->run_ns)
			id->pids += o->pids;
	}
	id->nfiles = id->nobs;
}

/* Stability: in time order over every host, the union of the sets
 * required so far; each growth after the first record is a change, and
 * the last one (else the first record) is when the set became what it is. */
static void find_changes(struct fleet_ident *id)
{
	uint64_t seen = 0;
	size_t i;

	qsort(id->obs, id->nobs, sizeof(*id->obs), by_time);
	for (i = 0; i < id->nobs; i++) {
		const struct fleet_obs *o = &id->obs[i];
		uint64_t added = o->required & ~seen;

		if (!i) {
			id->first_at_ns = o->at_ns;
			id->stable_ns = o->at_ns;
			id->stable_host = o->host;
			id->stable_file = o->file;
		} else if (added) {
			id->changes = xrealloc(id->changes, (id->nchanges + 1) * sizeof(*id->changes));
			id->changes[id->nchanges++] =
				(struct fleet_change){ o->at_ns, o->host, o->file, added };
			id->stable_ns = o->at_ns;
			id->stable_host = o->host;
			id->stable_file = o->file;
		}
		seen |= o->required;
	}
	id->required = seen;
}

static int by_exe(const void *a, const void *b)
{
	const struct fleet_ident *x = a, *y = b;
	int c = strcmp(x->exe, y->exe);

	if (!c)
		c = strcmp(x->comm, y->comm);
	return c ? c : strcmp(x->build_id, y->build_id);
}

void fleet_finish(struct fleet *f)
{
	size_t i, j;

	for (i = 0; i < f->nids; i++) {
		struct fleet_ident *id = &f->ids[i];

		count_hosts(id);
		find_changes(id);
		if (id->first_ns == INT64_MAX)   /* no check: its first record */
			id->first_ns = id->first_at_ns;
		if (id->last_ns == INT64_MIN)
			id->last_ns = id->first_ns;
	}
	/* the index's positions are stale once sorted: it is not used again */
	hindex_free(&f->id_idx);
	qsort(f->ids, f->nids, sizeof(*f->ids), by_exe);
	/* same path, other builds: runs of one exe (sorted together) */
	for (i = 0; i < f->nids; i = j) {
		for (j = i + 1; j < f->nids && *f->ids[i].exe && !strcmp(f->ids[i].exe, f->ids[j].exe);
		     j++)
			;
		for (size_t k = i; k < j; k++)
			f->ids[k].nbuilds = j - i;
	}
	if (f->first_ns == INT64_MAX)
		f->first_ns = 0;
}

void fleet_free(struct fleet *f)
{
	size_t i;

	for (i = 0; i < f->nids; i++) {
		free(f->ids[i].exe);
		free(f->ids[i].build_id);
		free(f->ids[i].comm);
		free(f->ids[i].obs);
		free(f->ids[i].host_list);
		free(f->ids[i].changes);
		free(f->ids[i].repl);
	}
	free(f->ids);
	for (i = 0; i < f->nhosts; i++)
		free(f->hosts[i]);
	free(f->hosts);
	free(f->host_from_file);
	for (i = 0; i < f->nfiles; i++)
		free(f->files[i]);
	free(f->files);
	hindex_free(&f->id_idx);
	hindex_free(&f->host_idx);
	memset(f, 0, sizeof(*f));
}
