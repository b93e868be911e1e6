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
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "facts/callsite.h"
#include "lib/hindex.h"
#include "lib/msg.h"
#include "lib/outfile.h"
#include "lib/util.h"
#include "monitor/monitor.h"
#include "tracer/ksyms_iter.h"
#include "monitor/monstate.h"

/* ---- folding: identities, stacks, rows ------------------------------- */

/*
 * The program identity of the image (tgid, pstart, exec_id): from the
 * process table while it holds the image (its first fold counts it as one
 * more image of the identity), else from what the check itself carried
 * (comm, cgroup, uid: an image whose events were lost).
 */
uint32_t mon_identity(struct monitor *m, uint32_t tgid, uint64_t pstart, uint32_t exec_id,
		      const struct ca_meta *meta, bool count)
{
	struct session *s = m->sess;
	/* with its fork and exec events (or, lost, from the check itself) */
	struct rec_process *p = session_image_of_check(s, tgid, pstart, exec_id, meta);
	uint32_t at;

	session_attribute(s, p, meta->cgroup_id);
	at = fold_ident(&m->f, p->exe, p->build_id, p->comm, p, p->cgroup, p->uid, session_to_epoch(s, meta->first_ns));
	if (count && !p->pids) {
		p->pids = 1;   /* in the live table: "counted" */
		m->f.ids[at].pids++;
	}
	if (p->exited && p->mon_gen)
		p->mon_gen = (uint32_t)m->gen;   /* still in use: kept longer */
	return at;
}

/* The stack's frames are in the fold table: the kernel's map may let it go
 * (once a fold; a check that walks it again puts it back). Without this
 * the map fills over the weeks with every stack ever seen, and then each
 * new call site is a stack error. */
static int forget_stack(struct monitor *m, int at)
{
	struct mon_stack *st = &m->f.stacks[at];

	if (st->forgot_gen != m->gen) {
		st->forgot_gen = m->gen;
		tracer_forget_stack(m->tr, st->kstack);
	}
	return at;
}

/* The kernel stack kstack, symbolized once: its frames and call site. */
int mon_stack(struct monitor *m, uint64_t kstack)
{
	uint64_t ips[CA_STACK_DEPTH];
	int at = fold_find_stack(&m->f, kstack), n;
	char **frames;
	size_t nf;

	if (at >= 0)
		return forget_stack(m, at);
	if (!kstack || (n = tracer_stack(m->tr, kstack, ips)) < 0)
		return -1;
	frames = symbolize_kstack(m->ks, ips, (size_t)n, &nf);
	return forget_stack(m, fold_add_stack(&m->f, kstack, frames, nf));
}

/* The row of an entry (drained, or pending in a CPU's cache); its last
 * time widened. */
static struct mon_row *row_of(struct monitor *m, const struct ca_key *k, const struct ca_val *v,
			      int64_t *first)
{
	uint32_t ident = mon_identity(m, k->tgid, k->pstart, k->exec_id, &v->meta, true);
	struct mon_row *r;

	*first = session_to_epoch(m->sess, v->meta.first_ns ? v->meta.first_ns : v->last_ns);
	r = fold_row(&m->f, ident, k, mon_stack(m, k->kstack), *first);
	if (*first < r->first_ns)   /* a row its object made: a moment late */
		r->first_ns = *first;
	if (session_to_epoch(m->sess, v->last_ns) > r->last_ns)
		r->last_ns = session_to_epoch(m->sess, v->last_ns);
	return r;
}

/* One drained entry into its row: counts exact, times widened. */
static int fold_one(void *ctx, const struct ca_key *k, const struct ca_val *v)
{
	struct monitor *m = ctx;
	int64_t first;
	struct mon_row *r = row_of(m, k, v, &first);

	r->count += v->count;
	fold_row_objcounts(r, aggtab_objs(v));
	r->sys_failed += v->sys_failed;
	r->sys_restart += v->sys_restart;
	if (v->sys_other) {
		r->sys_other += v->sys_other;
		r->sys_errno = (int)v->sys_errno;
	}
	if (first < r->first_ns)
		r->first_ns = first;
	m->checks += v->count;
	return 0;
}

/* A CPU's pending cache count: in this checkpoint, not yet in the rows
 * (it reaches the map, and a later fold, when the slot is evicted). */
static void peek_one(void *ctx, const struct ca_key *k, const struct ca_val *v)
{
	struct monitor *m = ctx;
	int64_t first;

	row_of(m, k, v, &first)->pending += v->count;
}

/* Move the drained table into the rows, and let it go. The events read
 * first: a check in the drained map was made before the swap, and so
 * after the fork or exec event that names its image, which may still wait
 * in the ringbuf (made between the last poll and the swap). */
static void fold_table(struct monitor *m)
{
	tracer_poll(m->tr, 0);
	tracer_foreach_check(m->tr, fold_one, m);
	aggtab_free(&m->tr->tab);
}

/* ---- forgetting exited processes ---------------------------------------- */

/* An exit event may be lost (ringbuf full): a pid no process has is gone. */
static void sweep_gone(struct monitor *m)
{
	struct record *r = m->live;
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
	struct record *r = m->live;
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
	qsort(v, r->nprocs, sizeof(*v), rec_process_ptr_cmp);
	for (i = 0; i < r->nprocs; i = j) {
		bool drop = false;

		for (j = i; j < r->nprocs && !rec_process_ptr_cmp(&v[i], &v[j]); j++)
			drop |= v[j]->exited && m->gen >= (uint64_t)v[j]->mon_gen + 2;
		for (k = i; k < j; k++)
			keep[v[k] - r->procs] = !drop;
		gone += drop ? j - i : 0;
	}
	if (gone)
		record_keep_processes(r, keep);
	m->pruned += gone;
	m->prune_at = r->nprocs + MON_PRUNE_BACKLOG;
	free(v);
	free(keep);
}

/* A fold: drain (final: tracer_stop() took it all), fold, add what the
 * caches hold, forget old exits. A checkpoint's, and one between
 * checkpoints when MON_PRUNE_BACKLOG images joined the process table:
 * the images that exited before the last two folds go (their checks are
 * folded: none is in the kernel's map, and peek_one() keeps those a CPU's
 * cache still holds). */
static void fold_round(struct monitor *m, bool final)
{
	size_t i;

	if (!final && tracer_drain_grow(m->tr, false))
		fprintf(stderr, "capaudit: warning: draining the aggregation map: %s\n",
			strerror(errno));
	m->gen++;
	fold_table(m);
	for (i = 0; i < m->f.nrows; i++)
		m->f.rows[i].pending = 0;
	if (!final)
		tracer_peek_pending(m->tr, peek_one, m);
	prune(m);
}

/* ---- checkpoints ----------------------------------------------------- */

static void fill_header(struct monitor *m, struct record *cp, bool final)
{
	struct session *s = m->sess;
	struct rec_header *h = &cp->hdr;
	uint64_t ov[CA_OVERFLOW_SLOTS];
	struct rusage ru;
	size_t i;

	session_header(s, h, final ? "signal" : NULL, m->argc, m->argv);
	h->has_monitor = true;
	h->monitor_interval = m->o->interval;
	h->monitor_checkpoint = m->checkpoint;
	h->monitor_images = m->live->nprocs;
	h->monitor_forgotten = m->pruned;
	h->monitor_extra_folds = m->extra_folds;
	h->monitor_ids_past = m->f.ids_past;
	h->monitor_rows_past = m->f.rows_past;
	h->monitor_since_ns = session_real0(s);
	session_lost_so_far(s, &h->lost);
	h->symbols = xstrdup(session_ksyms_source(s) ? session_ksyms_source(s) : m->ks ? "kernel" : "unavailable");
	h->agg_drains = m->tr->drains;
	{
		uint64_t st[CA_STAT_NR];

		tracer_stats(m->tr, st);
		h->agg_spilled = st[CA_STAT_SPILLED];
	}
	h->agg_keys = m->tr->agg_max_used;
	getrusage(RUSAGE_SELF, &ru);
	h->loader_cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			  ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	h->loader_rss_kb = ru.ru_maxrss;
	tracer_overflow(m->tr, ov);
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

static long rss_kb_now(void)
{
	uint64_t rss;
	double cpu;

	self_usage(&rss, &cpu);
	return (long)(rss / 1024);
}

static void export_counters(struct monitor *m, const struct record *cp)
{
	struct mon_counters c = { 0 };

	c.checkpoint = m->checkpoint;
	c.checks = m->checks;
	c.identities = m->f.nids;
	c.rows = m->f.nrows;
	c.live_images = m->live->nprocs;
	c.pruned_images = m->pruned;
	c.events = m->ev ? m->ev->lines : 0;
	c.findings = m->ev ? m->ev->findings : 0;
	c.lost = rec_lost_total(&cp->hdr.lost);
	c.rss_kb = rss_kb_now();
	c.cpu_s = cp->hdr.loader_cpu_s;
	c.checkpoint_failures = m->ckpt_trouble.failures;
	c.events_failures = m->ev ? m->ev->trouble.failures : 0;
	m->last = c;
}

/* The checkpoint into -o, in place (OUTFILE_REWRITTEN: the name is the
 * monitor's). 0, or -1 with msg. */
static int write_checkpoint(struct monitor *m, const struct record *cp, char *msg, size_t len)
{
	struct outfile *o = session_outfile(m->sess);
	char err[1024];

	if (!o->f && outfile_open(o, m->o->rec.out, OUTFILE_REWRITTEN, err, sizeof(err))) {
		snprintf(msg, len, "%s", err);
		return -1;
	}
	return outfile_finish(o, recfile_write(o->f, cp), msg, len);
}

/*
 * One interval: drain and fold, add what the caches hold (final: the
 * hooks are detached and tracer_stop() took it all), forget old exits,
 * write the checkpoint in place. Signals wait while the file is written.
 * A checkpoint that cannot be written (a full disk, a directory gone) is
 * said (rate-limited), counted and written again at the next interval:
 * the counts are the monitor's, nothing is lost but the file's freshness.
 * Only the last one's failure is the monitor's (exit 1).
 */
static int checkpoint(struct monitor *m, bool final)
{
	struct record cp = { 0 };
	sigset_t old;
	char msg[1200];
	int rc;

	fold_round(m, final);
	m->checkpoint++;
	fill_header(m, &cp, final);
	cp.hdr.checks += fold_to_record(&m->f, &cp);
	export_counters(m, &cp);
	block_stop_signals(&old);
	rc = write_checkpoint(m, &cp, msg, sizeof(msg));
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc && final)
		p_err("%s", msg);
	else if (rc)
		trouble_failed(&m->ckpt_trouble, "%s", msg);
	else
		trouble_ok(&m->ckpt_trouble);
	m->last.checkpoint_failures = m->ckpt_trouble.failures;
	if (m->o->checkpointed)   /* the metrics: with the count of failures */
		m->o->checkpointed(&m->last, &cp, m->o->ctx);
	if (m->ev)
		mon_events_retry(m->ev);
	record_free(&cp);
	return final ? rc : 0;
}

/* ---- the loop -------------------------------------------------------- */

static void status(struct monitor *m, bool final)
{
	fprintf(stderr, "\rcapaudit: monitoring: checkpoint %llu, %llu %s, %zu %s, "
		"%zu live %s, rss %ld KiB\033[K%s", (unsigned long long)m->checkpoint,
		(unsigned long long)m->checks, plural(m->checks, "check", "checks"), m->f.nids,
		plural(m->f.nids, "program", "programs"), m->live->nprocs,
		plural(m->live->nprocs, "image", "images"), rss_kb_now(), final ? "\n" : "");
}

static int run_loop(struct monitor *m)
{
	int64_t interval = (int64_t)(m->o->interval * 1e9), now, next = now_monotonic_ns() + interval;
	int64_t last_drain = 0, last_status = 0;
	bool tty = !m->o->rec.quiet && isatty(STDERR_FILENO);
	int sig;

	for (;;) {
		tracer_poll(m->tr, 100);
		if (m->ev)
			mon_events_flush(m->ev, false);
		now = now_monotonic_ns();
		sig = session_take_signal();
		if (sig == SIGINT || sig == SIGTERM)
			break;
		if (sig == SIGHUP && m->ev)
			mon_events_reopen(m->ev);
		/* every interval, and whenever the map is half full (the
		 * kernel's map is fixed: draining keeps it from filling) */
		if (now - last_drain > 50000000LL) {
			last_drain = now;
			if (tracer_drain_if_full(m->tr) > 0)
				fold_table(m);
			if (m->ev)
				mon_events_losses(m->ev);
		}
		if (now >= next) {
			next = now + interval;
			if (checkpoint(m, false))
				return -1;
		} else if (m->live->nprocs >= m->prune_at) {
			fold_round(m, false);
			m->extra_folds++;
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
	fold_free(&m->f);
	mon_events_close(m->ev);
}

static void on_newkey(void *ctx, const struct ca_event *e)
{
	struct monitor *m = ctx;

	if (m->ev)
		mon_events_newkey(m->ev, e);
}

/* What a check was about: kept on its key's row (monobjs.c), which the
 * image's identity names; an image not in the process table (its events
 * lost) is left out, its checks counted in objects_more. */
static void on_object(void *ctx, const struct ca_obj_event *e)
{
	struct monitor *m = ctx;
	const struct ca_key *k = &e->key;
	struct rec_process *p = record_find_process(m->live, k->tgid,
						    session_to_epoch(m->sess, k->pstart), k->exec_id);
	/* the check was made a moment ago: its time is not in the event */
	struct ca_meta meta = { .uid = p ? p->uid : 0, .cgroup_id = p ? p->cgroup_id : 0,
				.first_ns = (uint64_t)now_monotonic_ns() };
	uint32_t ident;

	if (!p)
		return;
	ident = mon_identity(m, k->tgid, k->pstart, k->exec_id, &meta, false);
	fold_row_object(&m->f, fold_row(&m->f, ident, k, mon_stack(m, k->kstack),
					session_to_epoch(m->sess, meta.first_ns)), e);
}

int monitor_run(struct mon_opts *op, int all_argc, char **all_argv)
{
	struct rec_opts o = op->rec;
	struct session *s = session_new(&o);
	struct monitor m = { .o = op, .sess = s, .tr = session_tracer(s), .live = session_record(s),
			     .argc = all_argc, .argv = all_argv,
			     .ckpt_trouble = { .what = "checkpoint" } };
	int rc = 1;

	session_monitor(s, NULL, NULL);
	/* a restarted monitor (its unit's Restart=) keeps what the last run
	 * wrote: report can merge the two (report -i OLD -i NEW) */
	{
		char kept[PATH_MAX + 64], err[PATH_MAX + 128];
		int k = outfile_keep_previous(o.out, kept, sizeof(kept), err, sizeof(err));

		if (k < 0)
			p_err("warning: %s: the first checkpoint replaces it", err);
		else if (k > 0 && !o.quiet)
			fprintf(stderr, "capaudit: the previous %s is kept as %s\n", o.out, kept);
	}
	{
		const char *more[] = { op->events, op->outputs[0], op->outputs[1] };

		if (session_keep_outputs(s, more, ARRAY_SIZE(more)))
			goto out;
	}
	if (op->events && !(m.ev = mon_events_open(&m, op->events)))
		goto out;
	if (m.ev)
		session_monitor(s, on_newkey, &m);
	session_monitor_objects(s, on_object, &m);
	if (session_start(s, all_argv[0]))
		goto out;
	m.ks = session_ksyms(s);
	m.prune_at = m.live->nprocs + MON_PRUNE_BACKLOG;
	if (op->started && op->started(op->ctx))
		goto out;
	if (!o.quiet)
		fprintf(stderr, "capaudit: monitoring (%s); a checkpoint every %g s in %s\n",
			attach_mode_name(m.tr->mode), op->interval, o.out);
	if (run_loop(&m))
		goto out;
	tracer_stop(m.tr);   /* drains, and takes every CPU's pending counts */
	tracer_poll(m.tr, 0);
	if (m.ev)
		mon_events_flush(m.ev, true);
	if (checkpoint(&m, true))
		goto out;
	if (!o.quiet)
		fprintf(stderr, "capaudit: wrote %s (checkpoint %llu: %llu %s, %zu %s)\n",
			o.out, (unsigned long long)m.checkpoint, (unsigned long long)m.checks,
			plural(m.checks, "check", "checks"), m.f.nids,
			plural(m.f.nids, "program", "programs"));
	rc = 0;
out:
	free_monitor(&m);
	session_free(s);
	return rc;
}
