// SPDX-License-Identifier: GPL-2.0
/*
 * Merging records (record_merge, recfile.h): the records copied from many
 * nodes (record, monitor) read as one, for `report FILE...`. What a
 * record says about itself is kept per input (record.inputs); what is
 * additive is summed into the merged header; processes keep their
 * identity, renumbered only where two inputs' pids would meet.
 */
#include "recfile/recfile.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "facts/kfacts.h"
#include "facts/syscalls.h"
#include "lib/util.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A deep copy: the first input keeps the header its file had while the
 * merged record's own header becomes the sums. */
static void header_copy(struct rec_header *to, const struct rec_header *from)
{
	size_t i;

	*to = *from;
	to->capaudit_version = dup_or_null(from->capaudit_version);
	to->kernel = dup_or_null(from->kernel);
	to->machine = dup_or_null(from->machine);
	to->host = dup_or_null(from->host);
	to->arch = dup_or_null(from->arch);
	to->attach = dup_or_null(from->attach);
	to->scope = dup_or_null(from->scope);
	to->target_cgroup = dup_or_null(from->target_cgroup);
	to->target_container = dup_or_null(from->target_container);
	to->target_name = dup_or_null(from->target_name);
	to->target_unit = dup_or_null(from->target_unit);
	to->target_service = dup_or_null(from->target_service);
	to->symbols = dup_or_null(from->symbols);
	to->degraded = xcalloc(from->ndegraded + 1, sizeof(char *));
	for (i = 0; i < from->ndegraded; i++)
		to->degraded[i] = xstrdup(from->degraded[i]);
	to->stop = dup_or_null(from->stop);
	to->argv = xcalloc(from->argc + 1, sizeof(char *));
	for (i = 0; i < from->argc; i++)
		to->argv[i] = xstrdup(from->argv[i]);
	to->overflow = xcalloc(from->noverflow + 1, sizeof(*to->overflow));
	if (from->noverflow)
		memcpy(to->overflow, from->overflow, from->noverflow * sizeof(*to->overflow));
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The record --service part of a header: the unit file and its grants. */
static bool same_service(const struct rec_header *a, const struct rec_header *b)
{
	if (a->has_service_caps != b->has_service_caps)
		return false;
	return !a->has_service_caps ||
	       (same_str(a->target_service, b->target_service) &&
		a->service_bounding == b->service_bounding &&
		a->service_ambient == b->service_ambient && a->service_uid == b->service_uid);
}

static const char *name_of(const struct record *r)
{
	return r->name ? r->name : "(unnamed record)";
}

/* The first input: dst itself before its first merge. */
static const struct rec_header *first_header(const struct record *dst)
{
	return dst->ninputs ? &dst->inputs[0].hdr : &dst->hdr;
}

static const char *first_name(const struct record *dst)
{
	return dst->ninputs ? dst->inputs[0].name : name_of(dst);
}

/* The distinct pids of r's processes, sorted; their number in *n. */
static uint32_t *sorted_pids(const struct record *r, size_t *n)
{
	uint32_t *v = xcalloc(r->nprocs + 1, sizeof(*v));
	size_t i, k = 0;

	for (i = 0; i < r->nprocs; i++)
		v[i] = r->procs[i].pid;
	sort_array(v, r->nprocs, sizeof(*v), cmp_u32);
	for (i = 0; i < r->nprocs; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	*n = k;
	return v;
}

static bool has_pid(const uint32_t *v, size_t n, uint32_t pid)
{
	return bsearch(&pid, v, n, sizeof(*v), cmp_u32) != NULL;
}

/* src's pids that dst has too, each with the fresh pid it gets. */
struct pid_map {
	uint32_t *from, *to;     /* sorted by from */
	size_t n;
};

static uint32_t map_pid(const struct pid_map *m, uint32_t pid)
{
	const uint32_t *at = bsearch(&pid, m->from, m->n, sizeof(*m->from), cmp_u32);

	return at ? m->to[at - m->from] : pid;
}

/*
 * A pid of src that dst has is renumbered, whichever process had it in
 * dst: two hosts' processes under one pid would read as one pid given out
 * twice (or, same start, as one process), and a monitor's synthetic pids
 * (2^30 + n) are the same in every file. Every process of src with that
 * pid gets the same fresh one (so a pid src reused stays reused within
 * it, and a ppid naming it follows). Fresh pids are above every pid of
 * both, so they meet nothing. -1 when they would not fit 32 bits.
 */
static int plan_pids(const struct record *dst, const struct record *src, struct pid_map *m)
{
	size_t nd, ns, i;
	uint32_t *d = sorted_pids(dst, &nd), *s = sorted_pids(src, &ns);
	uint64_t next = 1 + (uint64_t)(nd ? d[nd - 1] : 0);

	if (ns && s[ns - 1] >= next)
		next = (uint64_t)s[ns - 1] + 1;
	memset(m, 0, sizeof(*m));
	m->from = xcalloc(ns + 1, sizeof(*m->from));
	m->to = xcalloc(ns + 1, sizeof(*m->to));
	for (i = 0; i < ns; i++) {
		if (!has_pid(d, nd, s[i]))
			continue;
		if (next > UINT32_MAX)
			break;
		m->from[m->n] = s[i];   /* s is sorted: so is from */
		m->to[m->n++] = (uint32_t)next++;
	}
	free(d);
	free(s);
	return i < ns ? -1 : 0;
}

static void free_map(struct pid_map *m)
{
	free(m->from);
	free(m->to);
}

/* What cannot merge, said in err; 0 when src can. */
static int can_merge(const struct record *dst, const struct record *src, struct pid_map *m,
		     char *err, size_t errlen)
{
	const struct rec_header *first = first_header(dst);

	if (src->ninputs) {
		snprintf(err, errlen, "%s: a merged record cannot be merged again", name_of(src));
		return -1;
	}
	/* a unit file's removal candidates are what its commands never asked
	 * for: another unit's (or another recording's) checks would hide them */
	if (!same_service(first, &src->hdr)) {
		snprintf(err, errlen, "%s: cannot be merged with %s: only records of one unit "
			 "file (record --service) with the same grants merge, since what the unit "
			 "could stop granting is judged by its own checks", name_of(src),
			 first_name(dst));
		return -1;
	}
	/* indexes into the merged arrays: pidtab holds 32 bits, checks int */
	if (dst->nprocs + src->nprocs >= UINT32_MAX || dst->nstacks + src->nstacks > INT_MAX ||
	    dst->nustacks + src->nustacks > INT_MAX) {
		snprintf(err, errlen, "%s: too many processes or stacks to merge with the records "
			 "before it", name_of(src));
		return -1;
	}
	if (plan_pids(dst, src, m)) {
		free_map(m);
		snprintf(err, errlen, "%s: no pid left to renumber its processes into (32 bits)",
			 name_of(src));
		return -1;
	}
	return 0;
}

/* Checks counted only per capability: a row per (capability, verdict). */
static void add_overflow(struct rec_header *h, const struct rec_overflow *o)
{
	size_t i;

	for (i = 0; i < h->noverflow; i++) {
		if (h->overflow[i].cap == o->cap && h->overflow[i].denied == o->denied) {
			h->overflow[i].count = sat_add(h->overflow[i].count, o->count);
			return;
		}
	}
	h->overflow = xrealloc(h->overflow, (h->noverflow + 1) * sizeof(*h->overflow));
	h->overflow[h->noverflow++] = *o;
}

/* A target string survives only if every input has the same: a merged
 * record of two units' recordings was pointed at neither. */
static void keep_if_same(char **mine, const char *theirs)
{
	if (!same_str(*mine, theirs)) {
		free(*mine);
		*mine = NULL;
	}
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* What is additive, summed; what says how much the record knows, its
 * least (version, syscall results); times, their span. */
static void header_add(struct rec_header *h, const struct rec_header *s)
{
	size_t i;

	if (s->version < h->version)
		h->version = s->version;
	if (s->start_ns < h->start_ns)
		h->start_ns = s->start_ns;
	if (s->end_ns > h->end_ns)
		h->end_ns = s->end_ns;
	h->checks = sat_add(h->checks, s->checks);
	/* a denial whose syscall result was not recorded must not read as
	 * one that did not fail */
	h->syscall_results = h->syscall_results && s->syscall_results;
	h->ptrace_watched = h->ptrace_watched && s->ptrace_watched;
	h->has_ptrace_watched = h->has_ptrace_watched || s->has_ptrace_watched;
	/* each check keeps its syscall's name (read with its own record's
	 * table); a merge of architectures has no one table for the numbers */
	if (strcmp(h->arch ? h->arch : SYSCALL_ARCH_DEFAULT, s->arch ? s->arch : SYSCALL_ARCH_DEFAULT)) {
		free(h->arch);
		h->arch = xstrdup(REC_ARCH_MIXED);
	}
	for (i = 0; i < rec_lost_nkinds; i++) {
		uint64_t *mine = (uint64_t *)(void *)((char *)&h->lost + rec_lost_kinds[i].off);

		*mine = sat_add(*mine, rec_lost_count(&s->lost, &rec_lost_kinds[i]));
	}
	for (i = 0; i < s->noverflow; i++)
		add_overflow(h, &s->overflow[i]);
	h->command_running = h->command_running || s->command_running;
	h->has_cache = h->has_cache || s->has_cache;
	h->cache_misses = sat_add(h->cache_misses, s->cache_misses);
	h->cache_hit_walks = sat_add(h->cache_hit_walks, s->cache_hit_walks);
	h->cache_splits = sat_add(h->cache_splits, s->cache_splits);
	h->cache_unproven = sat_add(h->cache_unproven, s->cache_unproven);
	h->cache_path_proofs = sat_add(h->cache_path_proofs, s->cache_path_proofs);
	h->cache_path_splits = sat_add(h->cache_path_splits, s->cache_path_splits);
	h->loader_cpu_s += s->loader_cpu_s;
	h->loader_rss_kb = h->loader_rss_kb > s->loader_rss_kb ? h->loader_rss_kb : s->loader_rss_kb;
	h->pids_reused = sat_add(h->pids_reused, s->pids_reused);
	h->agg_drains = sat_add(h->agg_drains, s->agg_drains);
	h->agg_spilled = sat_add(h->agg_spilled, s->agg_spilled);
	h->agg_keys = (uint32_t)max_u64(h->agg_keys, s->agg_keys);
	keep_if_same(&h->target_cgroup, s->target_cgroup);
	keep_if_same(&h->target_container, s->target_container);
	keep_if_same(&h->target_name, s->target_name);
	keep_if_same(&h->target_unit, s->target_unit);
	keep_if_same(&h->target_service, s->target_service);
}

static void input_add(struct rec_input *in, const struct rec_input *s)
{
	in->lenient = in->lenient || s->lenient;
	in->truncated = in->truncated || s->truncated;
	in->lines += s->lines;
	in->skipped += s->skipped;
	in->missing += s->missing;
}

static struct rec_source *new_source(struct record *dst)
{
	dst->inputs = xrealloc(dst->inputs, (dst->ninputs + 1) * sizeof(*dst->inputs));
	memset(&dst->inputs[dst->ninputs], 0, sizeof(*dst->inputs));
	return &dst->inputs[dst->ninputs++];
}

/* Before its first merge dst becomes input 0 of itself. */
static void first_source(struct record *dst)
{
	struct rec_source *in = new_source(dst);
	size_t i;

	in->name = xstrdup(name_of(dst));
	header_copy(&in->hdr, &dst->hdr);
	in->input = dst->input;
	in->nprocs = dst->nprocs;
	in->nchecks = dst->nchecks;
	for (i = 0; i < dst->nprocs; i++) {
		dst->procs[i].input = 0;
		dst->procs[i].file_pid = dst->procs[i].pid;
		dst->procs[i].file_ppid = dst->procs[i].ppid;
	}
}

/* Stacks appended; their call site's name interned in dst, where equal
 * names are one pointer (the analyses key call sites by it). */
static void move_stacks(struct record *dst, struct record *src)
{
	size_t i;

	grow_array((void **)&dst->stacks, &dst->cap_stacks, dst->nstacks + src->nstacks,
		   sizeof(*dst->stacks));
	for (i = 0; i < src->nstacks; i++) {
		struct rec_stack st = src->stacks[i];

		if (st.site_func)
			st.site_func = record_intern(dst, st.site_func, strlen(st.site_func));
		dst->stacks[dst->nstacks++] = st;
	}
	src->nstacks = 0;
	grow_array((void **)&dst->ustacks, &dst->cap_ustacks, dst->nustacks + src->nustacks,
		   sizeof(*dst->ustacks));
	if (src->nustacks)   /* none: both may be NULL, which memcpy() must not get */
		memcpy(dst->ustacks + dst->nustacks, src->ustacks,
		       src->nustacks * sizeof(*src->ustacks));
	dst->nustacks += src->nustacks;
	src->nustacks = 0;
}

/* Processes appended as input k, pids and ppids through the map. */
static void move_processes(struct record *dst, struct record *src, const struct pid_map *m,
			   uint32_t k)
{
	size_t i;

	for (i = 0; i < src->nprocs; i++) {
		struct rec_process p = src->procs[i];

		p.file_pid = p.pid;
		p.file_ppid = p.ppid;
		p.pid = map_pid(m, p.pid);
		/* a parent of the same file, renumbered with it */
		p.ppid = map_pid(m, p.ppid);
		p.input = k;
		*record_add_process(dst, p.pid, p.start_ns, p.exec_id) = p;
	}
	src->nprocs = 0;   /* their strings are dst's now */
}

static void move_checks(struct record *dst, struct record *src, const struct pid_map *m,
			size_t stack0, size_t ustack0)
{
	size_t i;

	grow_array((void **)&dst->checks, &dst->cap_checks, dst->nchecks + src->nchecks,
		   sizeof(*dst->checks));
	for (i = 0; i < src->nchecks; i++) {
		struct rec_check c = src->checks[i];

		c.pid = map_pid(m, c.pid);
		if (c.comm)   /* src's table goes with src */
			c.comm = record_intern(dst, c.comm, strlen(c.comm));
		if (c.sysname)
			c.sysname = record_intern(dst, c.sysname, strlen(c.sysname));
		if (c.stack >= 0)
			c.stack += (int)stack0;
		if (c.ustack >= 0)
			c.ustack += (int)ustack0;
		dst->checks[dst->nchecks++] = c;
	}
	src->nchecks = 0;
}

static size_t count_renumbered(const struct record *src, const struct pid_map *m)
{
	size_t i, n = 0;

	for (i = 0; i < src->nprocs; i++)
		n += map_pid(m, src->procs[i].pid) != src->procs[i].pid;
	return n;
}

int record_merge(struct record *dst, struct record *src, char *err, size_t errlen)
{
	size_t stack0 = dst->nstacks, ustack0 = dst->nustacks;
	struct rec_source *in;
	struct pid_map m;
	uint32_t k;

	if (can_merge(dst, src, &m, err, errlen))
		return -1;
	if (!dst->ninputs)
		first_source(dst);
	k = (uint32_t)dst->ninputs;
	header_add(&dst->hdr, &src->hdr);
	input_add(&dst->input, &src->input);
	in = new_source(dst);
	in->name = xstrdup(name_of(src));
	in->hdr = src->hdr;   /* moved: src's header is the input's now */
	memset(&src->hdr, 0, sizeof(src->hdr));
	in->input = src->input;
	in->nprocs = src->nprocs;
	in->nchecks = src->nchecks;
	in->renumbered = count_renumbered(src, &m);
	move_stacks(dst, src);
	move_processes(dst, src, &m, k);
	move_checks(dst, src, &m, stack0, ustack0);
	free_map(&m);
	record_free(src);
	return 0;
}

uint32_t rec_process_file_pid(const struct record *r, const struct rec_process *p)
{
	return r->ninputs ? p->file_pid : p->pid;
}

uint32_t rec_process_file_ppid(const struct record *r, const struct rec_process *p)
{
	return r->ninputs ? p->file_ppid : p->ppid;
}

const char *rec_process_input(const struct record *r, const struct rec_process *p)
{
	return p->input < r->ninputs ? r->inputs[p->input].name : NULL;
}

const char *record_oldest_kernel(const struct record *r)
{
	const char *k = r->hdr.kernel;
	size_t i;

	for (i = 0; i < r->ninputs; i++) {
		const char *ki = r->inputs[i].hdr.kernel;

		if (ki && (!k || kver_cmp(ki, k) == -1))   /* -2: not a version */
			k = ki;
	}
	return k;
}
