// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit monitor (docs/monitor.md). The session's phases as `record`
 * runs them (session_start), then a loop that never keeps what grows with
 * the number of processes: each interval the kernel's aggregation map is
 * drained and every entry folded into a row of its program identity
 * (executable, cgroup, uid) and (capability, verdict, call site function,
 * syscall, flags); the process table forgets images two intervals after
 * their exit (their checks may still sit in a CPU's call-site cache until
 * then); a checkpoint record is written from the rows. The sizes that
 * remain grow with distinct programs and call sites, not with processes.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "facts/callsite.h"
#include "lib/hindex.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "record/monitor.h"
#include "record/ksyms_iter.h"
#include "record/monstate.h"
#include "record/session.h"

void (*monitor_interval_hook)(const struct mon_counters *c, void *ctx);
void *monitor_interval_ctx;

/* ---- folding: identities, stacks, rows ------------------------------- */

static uint64_t ident_hash(const char *exe, const char *comm, const char *cgroup, uint32_t uid)
{
	/* the comm names a program only when its executable is not known */
	uint64_t h = hash_str(0x1d, exe ? exe : "");

	h = hash_str(h, exe ? "" : comm ? comm : "");
	return hash_u64(hash_str(h, cgroup ? cgroup : ""), uid);
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

struct ident_probe {
	const struct monitor *m;
	const char *exe, *comm, *cgroup;
	uint32_t uid;
};

static bool ident_eq(const void *ctx, size_t pos)
{
	const struct ident_probe *q = ctx;
	const struct mon_ident *id = &q->m->ids[pos];

	return id->uid == q->uid && str_eq(id->exe, q->exe) && str_eq(id->cgroup, q->cgroup) &&
	       (q->exe || str_eq(id->comm, q->comm));
}

/* The identity of (exe, comm, cgroup, uid), added if new. */
static uint32_t ident_get(struct monitor *m, const char *exe, const char *comm,
			  const struct rec_process *p, const char *cgroup, uint32_t uid,
			  int64_t first_ns)
{
	struct ident_probe q = { m, exe, comm, cgroup, uid };
	uint64_t h = ident_hash(exe, comm, cgroup, uid);
	long at = hindex_find(&m->ident_idx, h, ident_eq, &q);
	struct mon_ident *id;

	if (at >= 0)
		return (uint32_t)at;
	grow_array((void **)&m->ids, &m->cap_ids, m->nids + 1, sizeof(*m->ids));
	id = &m->ids[m->nids];
	memset(id, 0, sizeof(*id));
	id->exe = exe ? xstrdup(exe) : NULL;
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

/*
 * The program identity of the image (tgid, pstart, exec_id): from the
 * process table while it holds the image (its first fold counts it as one
 * more image of the identity), else from what the check itself carried
 * (comm, cgroup, uid: an image whose events were lost).
 */
uint32_t mon_identity(struct monitor *m, uint32_t tgid, uint64_t pstart, uint32_t exec_id,
		      const struct ca_meta *meta, bool count)
{
	struct session *s = m->s;
	struct rec_process *p = record_find_process(&s->rec, tgid, to_epoch(s, pstart), exec_id);
	char comm[CA_COMM_LEN + 1];
	uint32_t at;

	if (!p) {
		memcpy(comm, meta->comm, CA_COMM_LEN);
		comm[CA_COMM_LEN] = '\0';
		return ident_get(m, NULL, comm, NULL, cgroup_names_get(&s->cgn, meta->cgroup_id, 0),
				 meta->uid, to_epoch(s, meta->first_ns));
	}
	if (!p->cgroup_id)
		attribute_note(s, p, meta->cgroup_id);
	if (!p->cgroup && p->cgroup_id)
		attribute(s, p);
	at = ident_get(m, p->exe, p->comm, p, p->cgroup, p->uid, to_epoch(s, meta->first_ns));
	if (count && !p->pids) {
		p->pids = 1;   /* in the live table: "counted" */
		m->ids[at].pids++;
	}
	if (p->exited && p->mon_gen)
		p->mon_gen = (uint32_t)m->gen;   /* still in use: kept longer */
	return at;
}

struct stack_probe {
	const struct monitor *m;
	uint64_t kstack;
};

static bool kstack_eq(const void *ctx, size_t pos)
{
	const struct stack_probe *q = ctx;

	return q->m->stacks[pos].kstack == q->kstack;
}

/* The kernel stack kstack, symbolized once: its frames and call site. */
int mon_stack(struct monitor *m, uint64_t kstack)
{
	struct stack_probe q = { m, kstack };
	uint64_t ips[CA_STACK_DEPTH], h = hash_u64(0x57, kstack);
	long at = hindex_find(&m->stack_idx, h, kstack_eq, &q);
	struct mon_stack *st;
	char frame[256], fn[256];
	int n, i, site;

	if (at >= 0)
		return (int)at;
	if (!kstack || (n = tracer_stack(&m->s->tr, kstack, ips)) < 0)
		return -1;
	grow_array((void **)&m->stacks, &m->cap_stacks, m->nstacks + 1, sizeof(*m->stacks));
	st = &m->stacks[m->nstacks];
	memset(st, 0, sizeof(*st));
	st->kstack = kstack;
	st->frames = xcalloc((size_t)n + 1, sizeof(char *));
	for (i = 0; i < n; i++) {
		ksyms_format(m->ks, ips[i], frame, sizeof(frame));
		/* the stack starts at the hook: drop the tracer's own frames */
		if (!st->n && m->ks && frame_is_plumbing(frame))
			continue;
		st->frames[st->n++] = xstrdup(frame);
	}
	site = callsite_index(st->frames, st->n);
	if (site < 0)
		snprintf(fn, sizeof(fn), "?");
	else
		frame_function(st->frames[site], fn, sizeof(fn));
	st->site = record_intern(&m->strs, fn, strlen(fn));
	st->noaudit = noaudit_from_stack(st->frames, st->n) != NOAUDIT_NO;
	hindex_add(&m->stack_idx, h, m->nstacks);
	return (int)m->nstacks++;
}

const char *mon_site(const struct monitor *m, int stack)
{
	return stack < 0 ? "?" : m->stacks[stack].site;
}

static uint64_t row_hash(uint32_t ident, const struct ca_key *k, const char *site)
{
	uint64_t h = hash_u64(0x77, ident);

	h = hash_u64(h, (uint64_t)k->cap << 32 | (uint32_t)k->ret);
	h = hash_u64(h, (uint64_t)(uint32_t)k->syscall << 16 | k->flags);
	return hash_str(h, site);
}

struct row_probe {
	const struct monitor *m;
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
	       r->syscall == q->k->syscall && r->flags == q->k->flags && r->site == q->site;
}

/* The row of key k in identity ident, added if new. */
static struct mon_row *row_get(struct monitor *m, uint32_t ident, const struct ca_key *k,
			       int stack, int64_t first_ns)
{
	const char *site = mon_site(m, stack);
	struct row_probe q = { m, ident, k, site };
	uint64_t h = row_hash(ident, k, site);
	long at = hindex_find(&m->row_idx, h, row_eq, &q);
	struct mon_row *r;

	if (at >= 0)
		return &m->rows[at];
	grow_array((void **)&m->rows, &m->cap_rows, m->nrows + 1, sizeof(*m->rows));
	r = &m->rows[m->nrows];
	memset(r, 0, sizeof(*r));
	r->ident = ident;
	r->cap = k->cap;
	r->ret = k->ret;
	r->syscall = k->syscall;
	r->flags = k->flags;
	r->site = site;
	r->stack = stack;
	r->stack_err = k->kstack ? 0 : k->stack_err;
	r->first_ns = first_ns;
	hindex_add(&m->row_idx, h, m->nrows);
	return &m->rows[m->nrows++];
}

/* One drained entry into its row: counts exact, times widened. */
static int fold_one(void *ctx, const struct ca_key *k, const struct ca_val *v)
{
	struct monitor *m = ctx;
	uint32_t ident = mon_identity(m, k->tgid, k->pstart, k->exec_id, &v->meta, true);
	int64_t first = to_epoch(m->s, v->meta.first_ns ? v->meta.first_ns : v->last_ns);
	struct mon_row *r = row_get(m, ident, k, mon_stack(m, k->kstack), first);

	r->count += v->count;
	r->sys_failed += v->sys_failed;
	r->sys_restart += v->sys_restart;
	if (v->sys_other) {
		r->sys_other += v->sys_other;
		r->sys_errno = (int)v->sys_errno;
	}
	if (first < r->first_ns)
		r->first_ns = first;
	if (to_epoch(m->s, v->last_ns) > r->last_ns)
		r->last_ns = to_epoch(m->s, v->last_ns);
	m->checks += v->count;
	return 0;
}

/* A CPU's pending cache count: in this checkpoint, not yet in the rows
 * (it reaches the map, and a later fold, when the slot is evicted). */
static void peek_one(void *ctx, const struct ca_key *k, const struct ca_val *v)
{
	struct monitor *m = ctx;
	uint32_t ident = mon_identity(m, k->tgid, k->pstart, k->exec_id, &v->meta, true);
	int64_t first = to_epoch(m->s, v->meta.first_ns ? v->meta.first_ns : v->last_ns);
	struct mon_row *r = row_get(m, ident, k, mon_stack(m, k->kstack), first);

	r->pending += v->count;
	if (to_epoch(m->s, v->last_ns) > r->last_ns)
		r->last_ns = to_epoch(m->s, v->last_ns);
}

/* Move the drained table into the rows, and let it go. The events read
 * first: a check in the drained map was made before the swap, and so
 * after the fork or exec event that names its image, which may still wait
 * in the ringbuf (made between the last poll and the swap). */
static void fold_table(struct monitor *m)
{
	tracer_poll(&m->s->tr, 0);
	if (m->ev)
		mon_events_flush(m->ev);
	tracer_foreach_check(&m->s->tr, fold_one, m);
	aggtab_free(&m->s->tr.tab);
}

/* ---- forgetting exited processes ---------------------------------------- */

static int cmp_image(const void *a, const void *b)
{
	const struct rec_process *x = *(const struct rec_process *const *)a;
	const struct rec_process *y = *(const struct rec_process *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* An exit event may be lost (ringbuf full): a pid no process has is gone. */
static void sweep_gone(struct monitor *m)
{
	struct record *r = &m->s->rec;
	size_t i;

	for (i = 0; i < r->nprocs; i++)
		if (!r->procs[i].exited && kill((pid_t)r->procs[i].pid, 0) && errno == ESRCH)
			r->procs[i].exited = true;
}

/*
 * Images of a process whose exit was seen two folds ago and that no CPU's
 * cache still names go, with every earlier image of the process (the exit
 * event names only its last).
 */
static void prune(struct monitor *m)
{
	struct record *r = &m->s->rec;
	const struct rec_process **v = xcalloc(r->nprocs + 1, sizeof(*v));
	bool *keep = xcalloc(r->nprocs + 1, sizeof(bool));
	size_t i, j, k, gone = 0;

	if (m->gen % 30 == 0)
		sweep_gone(m);
	for (i = 0; i < r->nprocs; i++) {
		v[i] = &r->procs[i];
		if (r->procs[i].exited && !r->procs[i].mon_gen)
			r->procs[i].mon_gen = (uint32_t)m->gen;
	}
	qsort(v, r->nprocs, sizeof(*v), cmp_image);
	for (i = 0; i < r->nprocs; i = j) {
		bool drop = false;

		for (j = i; j < r->nprocs && !cmp_image(&v[i], &v[j]); j++)
			drop |= v[j]->exited && m->gen >= (uint64_t)v[j]->mon_gen + 2;
		for (k = i; k < j; k++)
			keep[v[k] - r->procs] = !drop;
		gone += drop ? j - i : 0;
	}
	if (gone)
		record_keep_processes(r, keep);
	m->pruned += gone;
	free(v);
	free(keep);
}

/* ---- checkpoints ----------------------------------------------------- */

#define MON_PID_BASE 0x40000000U   /* above any pid (PID_MAX_LIMIT is 2^22) */

static void add_ident_line(struct record *cp, const struct mon_ident *id, uint32_t i)
{
	struct rec_process *p = record_add_process(cp, MON_PID_BASE + i, id->first_ns, 0);

	p->uid = id->uid;
	p->comm = xstrdup(id->comm);
	p->exe = id->exe ? xstrdup(id->exe) : NULL;
	p->cgroup = id->cgroup ? xstrdup(id->cgroup) : NULL;
	p->container_id = id->container_id ? xstrdup(id->container_id) : NULL;
	p->container_name = id->container_name ? xstrdup(id->container_name) : NULL;
	p->container_runtime = id->container_runtime ? xstrdup(id->container_runtime) : NULL;
	p->unit = id->unit ? xstrdup(id->unit) : NULL;
	p->runtime_setup = id->runtime_setup;
	p->pids = id->pids ? id->pids : 1;
}

/* The record stack of monitor stack i, added at its first use. */
static int cp_stack(struct record *cp, const struct monitor *m, int *smap, int i)
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

static void add_row_check(struct record *cp, const struct monitor *m, const struct mon_row *r,
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
	c->init_ns = r->flags & CA_F_INIT_NS;
	c->userns = r->flags & CA_F_CRED_USERNS ? RU_INSIDE :
		    r->flags & CA_F_NS_OWNER ? RU_OWNER : RU_HOST;
	c->no_effect = r->flags & CA_F_NO_EFFECT;
	c->foreign_cred = r->flags & CA_F_FOREIGN_CRED;
	c->opts_known = r->flags & CA_F_OPTS_KNOWN;
	c->opt_noaudit = r->flags & CA_F_NOAUDIT;
	c->opt_insetid = r->flags & CA_F_INSETID;
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
}

static void fill_header(struct monitor *m, struct record *cp, bool final)
{
	struct session *s = m->s;
	struct rec_header *h = &cp->hdr;
	uint64_t ov[CA_OVERFLOW_SLOTS];
	struct rusage ru;
	size_t i;

	session_header(s, h, final ? "signal" : NULL, m->argc, m->argv);
	h->has_monitor = true;
	h->monitor_interval = m->o->interval;
	h->monitor_checkpoint = m->checkpoint;
	h->monitor_since_ns = s->real0;
	lost_so_far(s, &h->lost);
	h->symbols = xstrdup(s->ksyms_source ? s->ksyms_source : m->ks ? "kernel" : "unavailable");
	h->agg_drains = s->tr.drains;
	h->agg_keys = s->tr.agg_max_used;
	getrusage(RUSAGE_SELF, &ru);
	h->loader_cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			  ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	h->loader_rss_kb = ru.ru_maxrss;
	tracer_overflow(&s->tr, ov);
	for (i = 0; i < CA_OVERFLOW_SLOTS; i++) {
		struct rec_overflow *o;

		if (!ov[i])
			continue;
		h->overflow = xrealloc(h->overflow, (h->noverflow + 1) * sizeof(*o));
		o = &h->overflow[h->noverflow++];
		o->cap = (int)(i / 2);
		o->denied = i % 2;
		o->count = ov[i];
		h->checks += ov[i];
	}
}

/* The rows as a complete record (format version 4, scope "monitor"). */
static void build_checkpoint(struct monitor *m, struct record *cp, bool final)
{
	int *smap = xcalloc(m->nstacks + 1, sizeof(int));
	bool *used = xcalloc(m->nids + 1, sizeof(bool));
	size_t i;

	memset(smap, 0xff, (m->nstacks + 1) * sizeof(int));
	fill_header(m, cp, final);
	for (i = 0; i < m->nrows; i++)
		used[m->rows[i].ident] |= m->rows[i].count + m->rows[i].pending > 0;
	for (i = 0; i < m->nids; i++)
		if (used[i])
			add_ident_line(cp, &m->ids[i], (uint32_t)i);
	for (i = 0; i < m->nrows; i++) {
		if (!m->rows[i].count && !m->rows[i].pending)
			continue;
		add_row_check(cp, m, &m->rows[i], smap);
		cp->hdr.checks += m->rows[i].count + m->rows[i].pending;
	}
	free(smap);
	free(used);
}

static long rss_kb_now(void)
{
	FILE *f = fopen("/proc/self/statm", "re");
	long pages = 0, rss = 0;

	if (f && fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = 0;
	if (f)
		fclose(f);
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static void export_counters(struct monitor *m, const struct record *cp)
{
	struct mon_counters c = { 0 };

	c.checkpoint = m->checkpoint;
	c.checks = m->checks;
	c.identities = m->nids;
	c.rows = m->nrows;
	c.live_images = m->s->rec.nprocs;
	c.pruned_images = m->pruned;
	c.events = m->ev ? m->ev->lines : 0;
	c.findings = m->ev ? m->ev->findings : 0;
	c.lost = rec_lost_total(&cp->hdr.lost);
	c.rss_kb = rss_kb_now();
	c.cpu_s = cp->hdr.loader_cpu_s;
	m->last = c;
	if (monitor_interval_hook)
		monitor_interval_hook(&c, monitor_interval_ctx);
}

/*
 * One interval: drain and fold, add what the caches hold (final: the
 * hooks are detached and tracer_stop() took it all), forget old exits,
 * write the checkpoint in place. Signals wait while the file is written.
 */
static int checkpoint(struct monitor *m, bool final)
{
	struct record cp = { 0 };
	sigset_t block, old;
	size_t i;
	int rc;

	if (!final && tracer_drain(&m->s->tr))
		fprintf(stderr, "capaudit: warning: draining the aggregation map: %s\n",
			strerror(errno));
	m->gen++;
	fold_table(m);
	for (i = 0; i < m->nrows; i++)
		m->rows[i].pending = 0;
	if (!final)
		tracer_peek_pending(&m->s->tr, peek_one, m);
	prune(m);
	m->checkpoint++;
	build_checkpoint(m, &cp, final);
	export_counters(m, &cp);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	rc = m->s->outf.f || !session_open_out(m->o->rec.out, &m->s->outf) ?
	     session_finish_out(&m->s->outf, &cp) : -1;
	sigprocmask(SIG_SETMASK, &old, NULL);
	record_free(&cp);
	return rc;
}

/* ---- the loop -------------------------------------------------------- */

static void status(struct monitor *m, bool final)
{
	fprintf(stderr, "\rcapaudit: monitoring: checkpoint %llu, %llu checks, %zu programs, "
		"%zu live images, rss %ld KiB\033[K%s", (unsigned long long)m->checkpoint,
		(unsigned long long)m->checks, m->nids, m->s->rec.nprocs, rss_kb_now(),
		final ? "\n" : "");
}

static int run_loop(struct monitor *m)
{
	int64_t interval = (int64_t)(m->o->interval * 1e9), now, next = now_monotonic_ns() + interval;
	int64_t last_drain = 0, last_status = 0;
	bool tty = !m->o->rec.quiet && isatty(STDERR_FILENO);
	int sig;

	for (;;) {
		tracer_poll(&m->s->tr, 100);
		if (m->ev)
			mon_events_flush(m->ev);
		now = now_monotonic_ns();
		sig = session_take_signal();
		if (sig == SIGINT || sig == SIGTERM)
			break;
		if (sig == SIGHUP && m->ev && mon_events_reopen(m->ev))
			return -1;
		/* every interval, and whenever the map is half full (the
		 * kernel's map is fixed: draining keeps it from filling) */
		if (now - last_drain > 50000000LL) {
			last_drain = now;
			if (tracer_drain_if_full(&m->s->tr) > 0)
				fold_table(m);
			if (m->ev)
				mon_events_losses(m->ev);
		}
		if (now >= next) {
			next = now + interval;
			if (checkpoint(m, false))
				return -1;
		}
		if (tty && now - last_status > 1000000000LL) {
			last_status = now;
			status(m, false);
		}
	}
	if (tty)
		status(m, true);
	return 0;
}

static void free_monitor(struct monitor *m)
{
	size_t i, k;

	for (i = 0; i < m->nids; i++) {
		free(m->ids[i].exe);
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
	free(m->ids);
	free(m->stacks);
	free(m->rows);
	hindex_free(&m->ident_idx);
	hindex_free(&m->stack_idx);
	hindex_free(&m->row_idx);
	record_free(&m->strs);
	mon_events_close(m->ev);
}

static void on_newkey(struct session *s, const struct ca_event *e)
{
	struct monitor *m = s->mon;

	if (m->ev)
		mon_events_newkey(m->ev, e);
}

int monitor_run(struct mon_opts *op, int all_argc, char **all_argv)
{
	struct rec_opts o = op->rec;
	struct session s;
	struct monitor m = { .o = op, .s = &s, .argc = all_argc, .argv = all_argv };
	int rc = 1;

	session_init(&s, &o);
	s.monitor = true;
	s.mon = &m;
	if (op->events && !(m.ev = mon_events_open(&m, op->events, op->baseline)))
		goto out;
	if (m.ev)
		s.on_newkey = on_newkey;
	if (session_start(&s, all_argv[0]))
		goto out;
	/* root read /proc/kallsyms before the drop for the proofs only: the
	 * call sites need the table, from the kernel (iter/ksym) now */
	if (!s.ksyms_start && !s.ksyms)
		s.ksyms_start = ksyms_best(&s.ksyms_start_source, s.ksyms_start_err,
					   sizeof(s.ksyms_start_err));
	m.ks = s.ksyms_start ? s.ksyms_start : s.ksyms;
	s.ksyms_source = s.ksyms_start ? s.ksyms_start_source : s.ksyms ? "/proc/kallsyms" : NULL;
	if (!o.quiet)
		fprintf(stderr, "capaudit: monitoring (%s); a checkpoint every %g s in %s\n",
			attach_mode_name(s.tr.mode), op->interval, o.out);
	if (run_loop(&m))
		goto out;
	tracer_stop(&s.tr);   /* drains, and takes every CPU's pending counts */
	tracer_poll(&s.tr, 0);
	if (checkpoint(&m, true))
		goto out;
	if (!o.quiet)
		fprintf(stderr, "capaudit: wrote %s (checkpoint %llu: %llu checks, %zu programs)\n",
			o.out, (unsigned long long)m.checkpoint, (unsigned long long)m.checks,
			m.nids);
	rc = 0;
out:
	free_monitor(&m);
	session_cleanup(&s);
	return rc;
}
