// SPDX-License-Identifier: GPL-2.0
/*
 * The record in memory (struct record, recfile.h), which the reader
 * (read.cpp) fills and the writer (write.c) writes out: the process table
 * keyed by image, interned strings, stacks with their call site classified
 * once, a check's identity and the merging or dropping of duplicate
 * checks, lookups from a check to its process and stacks, the lost
 * counters in words, and freeing.
 */
#include "recfile/recfile.h"

#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "facts/callsite.h"
#include "facts/capjson.h"
#include "lib/jsonutil.h"
#include "lib/util.h"

static size_t pid_slot(const struct record *r, uint32_t pid, int64_t start_ns, uint32_t exec_id)
{
	uint64_t h = ((uint64_t)pid << 32 | exec_id) ^ ((uint64_t)start_ns * 0x9e3779b97f4a7c15ULL);
	size_t i;

	/* splitmix64's finalizer: every input bit reaches the low bits */
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	h ^= h >> 31;
	i = (size_t)h & (r->pidcap - 1);

	while (r->pidtab[i]) {
		const struct rec_process *p = &r->procs[r->pidtab[i] - 1];

		if (p->pid == pid && p->exec_id == exec_id && p->start_ns == start_ns)
			break;
		i = (i + 1) & (r->pidcap - 1);
	}
	return i;
}

static void rehash(struct record *r, size_t cap)
{
	size_t k;

	free(r->pidtab);
	r->pidcap = cap;
	r->pidtab = xcalloc(r->pidcap, sizeof(*r->pidtab));
	for (k = 0; k < r->nprocs; k++)
		r->pidtab[pid_slot(r, r->procs[k].pid, r->procs[k].start_ns,
				   r->procs[k].exec_id)] = (uint32_t)k + 1;
}

struct rec_process *record_add_process(struct record *r, uint32_t pid, int64_t start_ns,
				       uint32_t exec_id)
{
	struct rec_process *p;

	if ((r->nprocs + 1) * 2 > r->pidcap)  /* keep the table under half full */
		rehash(r, r->pidcap ? r->pidcap * 2 : 64);
	grow_array((void **)&r->procs, &r->cap_procs, r->nprocs + 1, sizeof(*r->procs));
	p = &r->procs[r->nprocs++];
	p->pid = pid;
	p->start_ns = start_ns;
	p->exec_id = exec_id;
	r->pidtab[pid_slot(r, pid, start_ns, exec_id)] = (uint32_t)r->nprocs;
	return p;
}

struct rec_check *record_add_check(struct record *r)
{
	grow_array((void **)&r->checks, &r->cap_checks, r->nchecks + 1, sizeof(*r->checks));
	r->checks[r->nchecks].op = -1;   /* not recorded, until said */
	return &r->checks[r->nchecks++];
}

static size_t str_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return (size_t)h;
}

char *record_intern(struct record *r, const char *s, size_t len)
{
	size_t i, mask;
	char *p;

	if ((r->nstr + 1) * 2 > r->strcap) {   /* rehash at half full */
		char **old = r->strtab;
		size_t oldcap = r->strcap, k;

		r->strcap = r->strcap ? r->strcap * 2 : 256;
		r->strtab = xcalloc(r->strcap, sizeof(char *));
		for (k = 0; k < oldcap; k++) {
			if (!old[k])
				continue;
			i = str_hash(old[k], strlen(old[k])) & (r->strcap - 1);
			while (r->strtab[i])
				i = (i + 1) & (r->strcap - 1);
			r->strtab[i] = old[k];
		}
		free(old);
	}
	mask = r->strcap - 1;
	for (i = str_hash(s, len) & mask; r->strtab[i]; i = (i + 1) & mask)
		if (!strncmp(r->strtab[i], s, len) && !r->strtab[i][len])
			return r->strtab[i];
	p = xcalloc(len + 1, 1);
	memcpy(p, s, len);
	r->strtab[i] = p;
	r->nstr++;
	return p;
}

/* Insert an existing string (owned by r from now on), without lookup. */
static void adopt_string(struct record *r, char *p)
{
	size_t i, mask;

	if ((r->nstr + 1) * 2 > r->strcap) {   /* grow via a dummy intern */
		char *tmp = record_intern(r, "", 0);

		(void)tmp;
	}
	mask = r->strcap - 1;
	for (i = str_hash(p, strlen(p)) & mask; r->strtab[i]; i = (i + 1) & mask)
		;
	r->strtab[i] = p;
	r->nstr++;
}

void record_take_checks(struct record *r, struct record *src)
{
	size_t i;

	if (src->nchecks) {
		grow_array((void **)&r->checks, &r->cap_checks, r->nchecks + src->nchecks,
			   sizeof(*r->checks));
		memcpy(r->checks + r->nchecks, src->checks, src->nchecks * sizeof(*src->checks));
		r->nchecks += src->nchecks;
		src->nchecks = 0;
	}
	for (i = 0; i < src->strcap; i++) {
		if (src->strtab[i]) {
			adopt_string(r, src->strtab[i]);
			src->strtab[i] = NULL;
		}
	}
	src->nstr = 0;
}

int record_add_stack(struct record *r, char **frames, size_t n)
{
	struct rec_stack *st;

	grow_array((void **)&r->stacks, &r->cap_stacks, r->nstacks + 1, sizeof(*st));
	st = &r->stacks[r->nstacks];
	st->frames = frames;
	st->n = n;
	/* classified once per stack, not once per check */
	st->site = callsite_index(frames, n);
	st->noaudit = (int)noaudit_from_stack(frames, n);
	if (st->site >= 0) {
		char fn[128];

		const char *off = strstr(frames[st->site], "+0x");

		frame_function(frames[st->site], fn, sizeof(fn));
		st->site_func = record_intern(r, fn, strlen(fn));
		st->site_off = off ? strtoul(off + 3, NULL, 16) : 0;
	} else {
		st->site_func = record_intern(r, "?", 1);
		st->site_off = 0;
	}
	return (int)r->nstacks++;
}

void rec_uframe_free(struct rec_uframe *f)
{
	free(f->build_id);
	free(f->object);
	free(f->function);
	free(f->source);
}

int record_add_ustack(struct record *r, struct rec_uframe *frames, size_t n)
{
	grow_array((void **)&r->ustacks, &r->cap_ustacks, r->nustacks + 1, sizeof(*r->ustacks));
	r->ustacks[r->nustacks].frames = frames;
	r->ustacks[r->nustacks].n = n;
	return (int)r->nustacks++;
}

const struct rec_ustack *check_ustack(const struct record *r, const struct rec_check *c)
{
	return c->ustack >= 0 && (size_t)c->ustack < r->nustacks ? &r->ustacks[c->ustack] : NULL;
}

/*
 * A check's identity: what the recorder aggregates by (the BPF map key,
 * once exec ids are aliased and stack ids replaced by record stacks).
 */
static uint64_t rec_check_key_hash(const struct rec_check *c)
{
	uint64_t h = ((uint64_t)c->pid << 32 | c->exec_id) ^ (uint64_t)c->start_ns;

	h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
	h ^= (uint64_t)(uint32_t)c->stack << 32 | (uint32_t)c->syscall;
	h ^= (uint64_t)c->op * 0xd6e8feb86659fd93ULL;
	h ^= (uint64_t)(uint32_t)c->ustack * 0x9e3779b97f4a7c15ULL;
	h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
	h ^= (uint64_t)(uint32_t)c->ret << 32 | (uint32_t)c->userns << 20 |
	     (uint32_t)c->args_checked << 18 | (uint32_t)c->foreign_cred << 17 | c->no_effect << 16 | (uint32_t)c->cap << 8 | c->init_ns << 4 | c->opts_known << 2 | c->opt_noaudit << 1 |
	     c->opt_insetid;
	h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
	return h ^ (h >> 33);
}

static bool rec_check_same_key(const struct rec_check *a, const struct rec_check *b)
{
	const char *ea = a->stack_error ? a->stack_error : "";
	const char *eb = b->stack_error ? b->stack_error : "";

	return a->pid == b->pid && a->exec_id == b->exec_id && a->start_ns == b->start_ns &&
	       a->stack == b->stack &&
	       a->ustack == b->ustack &&
	       a->syscall == b->syscall && a->op == b->op && a->ret == b->ret && a->cap == b->cap &&
	       a->init_ns == b->init_ns && a->userns == b->userns && a->no_effect == b->no_effect &&
	       a->args_checked == b->args_checked &&
	       a->foreign_cred == b->foreign_cred &&
	       a->opts_known == b->opts_known &&
	       a->opt_noaudit == b->opt_noaudit && a->opt_insetid == b->opt_insetid &&
	       (a->stack >= 0 || !strcmp(ea, eb));
}

/* Open addressing; each slot keeps 32 bits of the hash next to the index,
 * so a probe rarely touches a check line it does not match (the checks are
 * large and scattered: comparing them was most of the cost). */
struct dedup_slot {
	uint32_t idx1;   /* index + 1; 0 = empty */
	uint32_t tag;
};

/*
 * Finding the duplicates is most of the cost on a big record (random
 * probes into a table larger than the caches), so it runs on two threads,
 * each owning the keys whose hash has its top bit: each marks, for every
 * later copy of a key, the index of the first. Merging and compacting then
 * go in file order on one thread, exactly as a single pass would.
 */
struct dedup_part {
	const struct record *r;
	const uint64_t *hash;
	uint32_t *first1;        /* [i]: 1 + index of the first copy, 0 if i is one */
	unsigned int part;       /* keys with hash >> 63 == part */
};

static void *dedup_find(void *arg)
{
	struct dedup_part *d = arg;
	size_t cap = 16, i, n = d->r->nchecks;
	struct dedup_slot *tab;

	while (cap < n)   /* about half the keys each: load <= 0.5 */
		cap *= 2;
	tab = xcalloc(cap, sizeof(*tab));
	for (i = 0; i < n; i++) {
		uint64_t h = d->hash[i];
		uint32_t tag = (uint32_t)(h >> 32);
		size_t k;

		if (h >> 63 != d->part)
			continue;
		for (k = h & (cap - 1); tab[k].idx1; k = (k + 1) & (cap - 1))
			if (tab[k].tag == tag &&
			    rec_check_same_key(&d->r->checks[tab[k].idx1 - 1], &d->r->checks[i]))
				break;
		if (tab[k].idx1) {
			d->first1[i] = tab[k].idx1;
		} else {
			tab[k].idx1 = (uint32_t)i + 1;
			tab[k].tag = tag;
		}
	}
	free(tab);
	return NULL;
}

struct hash_range {
	const struct record *r;
	uint64_t *hash;
	size_t lo, hi;
};

static void *hash_checks(void *arg)
{
	struct hash_range *h = arg;
	size_t i;

	for (i = h->lo; i < h->hi; i++)
		h->hash[i] = rec_check_key_hash(&h->r->checks[i]);
	return NULL;
}

int record_dedup_checks(struct record *r, enum dedup how, size_t *removed,
			size_t *dup, size_t *orig)
{
	size_t n = r->nchecks, i, out = 0;
	uint64_t *hash = xcalloc(n + 1, sizeof(*hash));
	uint32_t *first1 = xcalloc(n + 1, sizeof(*first1));
	struct hash_range hr[2] = { { r, hash, 0, n / 2 }, { r, hash, n / 2, n } };
	struct dedup_part dp[2] = { { r, hash, first1, 0 }, { r, hash, first1, 1 } };
	pthread_t t;
	bool threaded = n >= 65536;   /* small records: not worth a thread */

	*removed = 0;
	if (threaded && !pthread_create(&t, NULL, hash_checks, &hr[1])) {
		hash_checks(&hr[0]);
		pthread_join(t, NULL);
	} else {
		hr[0].hi = n;
		hash_checks(&hr[0]);
	}
	if (threaded && !pthread_create(&t, NULL, dedup_find, &dp[1])) {
		dedup_find(&dp[0]);
		pthread_join(t, NULL);
	} else {
		/* one thread: both halves of the key space in turn */
		dedup_find(&dp[0]);
		dedup_find(&dp[1]);
	}
	/* merge in file order: the first copy takes the later ones' counts */
	for (i = 0; i < n; i++) {
		struct rec_check *c = &r->checks[i], *o;

		if (!first1[i])
			continue;
		o = &r->checks[first1[i] - 1];
		if (how == DEDUP_FAIL) {
			*dup = i;
			*orig = first1[i] - 1;
			free(hash);
			free(first1);
			return -1;
		}
		if (how == DEDUP_MERGE) {
			/* one line with both counts; who made it first (thread,
			 * uid, comm, cgroup) is the earlier one's */
			o->count = sat_add(o->count, c->count);
			o->sys_failed = sat_add(o->sys_failed, c->sys_failed);
			o->sys_restart = sat_add(o->sys_restart, c->sys_restart);
			if (c->sys_other) {
				o->sys_other = sat_add(o->sys_other, c->sys_other);
				o->sys_errno = c->sys_errno;
			}
			if (c->first_ns < o->first_ns) {
				o->first_ns = c->first_ns;
				o->tid = c->tid;
				o->uid = c->uid;
				o->comm = c->comm;
				o->cgroup = c->cgroup;
			}
			if (c->last_ns > o->last_ns)
				o->last_ns = c->last_ns;
		}
		if (how == DEDUP_MERGE)
			rec_check_objects_union(o, c);
		rec_check_objects_free(c);
		free(c->stack_error);
		(*removed)++;
	}
	for (i = 0; i < n; i++)
		if (!first1[i])
			r->checks[out++] = r->checks[i];
	r->nchecks = out;
	free(hash);
	free(first1);
	return 0;
}

const struct rec_stack *check_stack(const struct record *r, const struct rec_check *c)
{
	return c->stack >= 0 && (size_t)c->stack < r->nstacks ? &r->stacks[c->stack] : NULL;
}

enum noaudit_source check_noaudit(const struct record *r, const struct rec_check *c)
{
	const struct rec_stack *st;

	/* fexit/kprobe saw the opts argument: that is the truth */
	if (c->opts_known)
		return c->opt_noaudit ? NOAUDIT_OPTS : NOAUDIT_NO;
	st = check_stack(r, c);
	return st ? (enum noaudit_source)st->noaudit : NOAUDIT_NO;
}

struct rec_process *record_find_process(const struct record *r, uint32_t pid, int64_t start_ns,
					uint32_t exec_id)
{
	size_t i;

	if (!r->pidcap)
		return NULL;
	i = pid_slot(r, pid, start_ns, exec_id);
	return r->pidtab[i] ? &r->procs[r->pidtab[i] - 1] : NULL;
}

struct rec_process *check_process(const struct record *r, const struct rec_check *c)
{
	return record_find_process(r, c->pid, c->start_ns, c->exec_id);
}

static void free_process(struct rec_process *p)
{
	free(p->comm);
	free(p->exe);
	free(p->build_id);
	free(p->ptrace_ex_comm);
	free(p->ptrace_ex_via);
	free(p->cgroup);
	free(p->container_id);
	free(p->container_name);
	free(p->container_runtime);
	free(p->unit);
}

/* Keep only the checks whose keep[i] (parallel to r->checks) is true. */
static void record_keep_checks(struct record *r, const bool *keep)
{
	size_t i, n = 0;

	for (i = 0; i < r->nchecks; i++) {
		if (keep[i])
			r->checks[n++] = r->checks[i];
		else {
			free(r->checks[i].stack_error);
			rec_check_objects_free(&r->checks[i]);
		}
	}
	/* the vacated tail is zeroed: record_add_*() reuse it as new */
	if (r->nchecks > n)
		memset(r->checks + n, 0, (r->nchecks - n) * sizeof(*r->checks));
	r->nchecks = n;
}

void record_keep_processes(struct record *r, const bool *keep)
{
	bool *kc = xcalloc(r->nchecks + 1, sizeof(*kc));
	size_t i, n = 0;

	/* checks first: their process is found through the table as it is */
	for (i = 0; i < r->nchecks; i++) {
		const struct rec_process *p = check_process(r, &r->checks[i]);

		kc[i] = p && keep[p - r->procs];
	}
	record_keep_checks(r, kc);
	free(kc);
	for (i = n = 0; i < r->nprocs; i++) {
		if (keep[i])
			r->procs[n++] = r->procs[i];
		else
			free_process(&r->procs[i]);
	}
	if (r->nprocs > n)
		memset(r->procs + n, 0, (r->nprocs - n) * sizeof(*r->procs));
	r->nprocs = n;
	if (r->pidcap)
		rehash(r, r->pidcap);   /* the indexes moved */
}

int rec_process_ptr_cmp(const void *a, const void *b)
{
	const struct rec_process *x = *(const struct rec_process *const *)a;
	const struct rec_process *y = *(const struct rec_process *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

uint64_t record_count_reused_pids(const struct record *r)
{
	const struct rec_process **v = xcalloc(r->nprocs + 1, sizeof(*v));
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < r->nprocs; i++)
		v[i] = &r->procs[i];
	sort_array(v, r->nprocs, sizeof(*v), rec_process_ptr_cmp);
	/* lines of one process (its images) are next to each other */
	for (i = 1; i < r->nprocs; i++)
		n += v[i]->pid == v[i - 1]->pid && v[i]->start_ns != v[i - 1]->start_ns;
	free(v);
	return n;
}

/* The one list of loss kinds, in the order the "lost" object has always
 * had in records and in report --format json. */
#define LOST(key, what) { #key, what, offsetof(struct rec_lost, key) }
const struct rec_lost_kind rec_lost_kinds[] = {
	LOST(map_full, "checks without process or call site (map full)"),
	LOST(ringbuf_full, "process events dropped (ringbuf full)"),
	LOST(stack_errors, "checks without a stack"),
	LOST(proc_full, "processes not followed (table full)"),
	LOST(result_lost, "syscall results not kept"),
	LOST(hook_skipped, "checks the kernel ran no hook for (recursion)"),
};
#undef LOST
const size_t rec_lost_nkinds = ARRAY_SIZE(rec_lost_kinds);
/* a counter added to struct rec_lost and not to the list would be missed */
_Static_assert(sizeof(struct rec_lost) == ARRAY_SIZE(rec_lost_kinds) * sizeof(uint64_t),
	       "every member of struct rec_lost is in rec_lost_kinds");

uint64_t rec_lost_total(const struct rec_lost *l)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < rec_lost_nkinds; i++)
		total = sat_add(total, rec_lost_count(l, &rec_lost_kinds[i]));
	return total;
}

uint64_t rec_lost_describe(const struct rec_lost *l, char *buf, size_t len)
{
	size_t i, o = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < rec_lost_nkinds; i++) {
		uint64_t n = rec_lost_count(l, &rec_lost_kinds[i]);

		if (n && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%" PRIu64 " %s", o ? ", " : "", n,
					      rec_lost_kinds[i].what);
	}
	if (!rec_lost_total(l) && len)
		snprintf(buf, len, "nothing lost");
	return rec_lost_total(l);
}

void record_clear_header(struct rec_header *h)
{
	free(h->capaudit_version);
	free(h->kernel);
	free(h->machine);
	free(h->host);
	free(h->arch);
	free(h->attach);
	free(h->scope);
	free(h->target_cgroup);
	free(h->target_container);
	free(h->target_name);
	free(h->target_unit);
	free(h->target_service);
	free(h->symbols);
	strv_free(h->degraded, h->ndegraded);
	free(h->stop);
	strv_free(h->argv, h->argc);
	free(h->overflow);
	memset(h, 0, sizeof(*h));
}

void record_free(struct record *r)
{
	size_t i;

	record_clear_header(&r->hdr);
	for (i = 0; i < r->nprocs; i++)
		free_process(&r->procs[i]);
	free(r->procs);
	for (i = 0; i < r->nchecks; i++) {
		free(r->checks[i].stack_error);   /* comm is interned */
		rec_check_objects_free(&r->checks[i]);
	}
	for (i = 0; i < r->strcap; i++)
		free(r->strtab[i]);
	free(r->strtab);
	free(r->checks);
	for (i = 0; i < r->nstacks; i++)
		strv_free(r->stacks[i].frames, r->stacks[i].n);
	free(r->stacks);
	for (i = 0; i < r->nustacks; i++) {
		size_t k;

		for (k = 0; k < r->ustacks[i].n; k++)
			rec_uframe_free(&r->ustacks[i].frames[k]);
		free(r->ustacks[i].frames);
	}
	free(r->ustacks);
	free(r->pidtab);
	free(r->name);
	for (i = 0; i < r->ninputs; i++) {
		free(r->inputs[i].name);
		record_clear_header(&r->inputs[i].hdr);
	}
	free(r->inputs);
	memset(r, 0, sizeof(*r));
}

