// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit verify's engine: prove a capability set with the kernel as the
 * judge. Record the command with the caller's privileges, take the
 * suggested set, run the command under exactly that set (capaudit run),
 * add what the failing runs' denials reveal until it succeeds, then drop
 * each member in turn (CAP_SYS_ADMIN first: it stands in for the narrow
 * ones) and keep only those whose removal makes it fail. docs/verify.md
 * states the rules.
 *
 * Every run is a child `capaudit run` (or, for the first, with the
 * caller's whole set): a recording drops the recorder's privileges, and
 * verify must keep them to set the next run's.
 */
#include "engines/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze/suggest.h"
#include "analyze/verdict.h"
#include "facts/capnames.h"
#include "lib/proctree.h"
#include "lib/util.h"
#include "recfile/recfile.h"
#include "record/launch.h"
#include "engines/runbox.h"

struct vrun {
	uint64_t caps;
	bool ok;                 /* it succeeded */
	bool exec_refused;       /* execve() failed with EPERM: no record */
	bool timed_out;          /* stopped at --timeout: its record so far, if written */
	int exit_status, check_status;
	struct verdict verdict;  /* by what the kernel did (analyze/verdict.h) */
	struct record rec;       /* its record (loaded) */
	bool have_rec;
	struct suggestion sg;    /* built on rec */
};

/* A denial seen in a run that succeeded: no evidence against any set. */
struct passing {
	int cap;
	char *func;
};

struct verify {
	struct verify_opts o;
	char dir[256];           /* where records go */
	struct passing *pass;
	size_t npass, cappass;
	struct vrun base;        /* the run with the caller's privileges */
	struct verify_result res;
	struct suggestion emit_sg;  /* the first run's, with the proven set */
};

/* SIGINT, SIGTERM, SIGHUP or SIGPIPE: the run under way is stopped, and
 * verify ends without a verdict. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa = { 0 };
	size_t i;

	sa.sa_handler = on_signal;   /* no SA_RESTART: waits end at once */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int verify_signal(void)
{
	return stop_signal;
}

static void progress(const struct verify *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void progress(const struct verify *v, const char *fmt, ...)
{
	va_list ap;

	if (v->o.quiet)
		return;
	va_start(ap, fmt);
	fputs("capaudit verify: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void vrun_free(struct vrun *r)
{
	if (r->have_rec) {
		suggest_free(&r->sg);
		record_free(&r->rec);
	}
	memset(r, 0, sizeof(*r));
}

/* "CAP_CHOWN,CAP_NET_RAW": run --caps's form */
static void caps_arg(uint64_t caps, char *buf, size_t len)
{
	capset_join(caps, ",", "", buf, len);
}

static bool passing_has(const struct verify *v, int cap, const char *func)
{
	size_t i;

	for (i = 0; i < v->npass; i++)
		if (v->pass[i].cap == cap && !strcmp(v->pass[i].func, func))
			return true;
	return false;
}

/* A run succeeded: its denials are no evidence for any member. */
static void note_passing(struct verify *v, const struct vrun *r)
{
	size_t i;

	for (i = 0; i < r->sg.ndeny; i++) {
		const struct sg_denial *d = &r->sg.deny[i];

		if (passing_has(v, d->cap, d->func))
			continue;
		grow_array((void **)&v->pass, &v->cappass, v->npass + 1, sizeof(*v->pass));
		v->pass[v->npass].cap = d->cap;
		v->pass[v->npass++].func = xstrdup(d->func);
	}
}

static bool is_evidence(const struct verify *v, const struct sg_denial *d)
{
	return !passing_has(v, d->cap, d->func);
}

/* At --timeout: which of the run's processes were still running (not
 * capaudit run itself, pid, nor its helpers), on the progress line. */
static void name_running(const struct verify *v, const struct runbox *box, pid_t self)
{
	char names[400];

	if (runbox_left(box, self, names, sizeof(names)))
		progress(v, "run %d still running at --timeout: %s", v->res.runs, names);
}

/* How long capaudit run has to write its record once told to stop. */
#define VERIFY_STOP_GRACE_NS (10 * 1000000000LL)

/* Wait for the run's process, stopping it at --timeout (its record kept)
 * or its whole box at a signal: its wait status, or -1 (r->timed_out, or
 * stop_signal set). */
static int wait_run(struct verify *v, pid_t pid, const struct runbox *box, struct vrun *r)
{
	int64_t deadline = now_monotonic_ns() + (int64_t)(v->o.timeout * 1e9);
	bool killed = false, stopping = false;
	int st;

	for (;;) {
		/* (the orphans of the run's processes are ours meanwhile: we are
		 * their subreaper; reaped as they exit) */
		pid_t w = runbox_reap(pid, &st);

		if (w == pid)
			return killed || stopping ? -1 : st;
		if (w < 0)
			return -1;
		if (!killed && !stopping && !stop_signal && now_monotonic_ns() >= deadline) {
			/* capaudit run stops recording at SIGTERM and writes what it
			 * has: the denials that kept the command going (a script's
			 * kill refused) are then there to be named */
			r->timed_out = true;
			name_running(v, box, pid);
			kill(pid, SIGTERM);
			stopping = true;
			deadline = now_monotonic_ns() + VERIFY_STOP_GRACE_NS;
		} else if (!killed && (stop_signal || now_monotonic_ns() >= deadline)) {
			runbox_kill(box, pid);
			kill(pid, SIGKILL);
			killed = true;
		}
		pause_ms(20);
	}
}

/* What a run left behind, in its box or moved out of it (still below
 * us): named, stopped, counted (a run stopped at --timeout: named then
 * already, stopped now). */
static void sweep_box(struct verify *v, struct runbox *box, pid_t pgid, bool timed_out)
{
	char names[400];
	size_t n = runbox_left(box, 0, names, sizeof(names));
	int st;

	if (n && !timed_out) {
		progress(v, "run %d left %zu process%s behind: %s; stopped", v->res.runs, n,
			 n == 1 ? "" : "es", names);
		if (!v->res.leftovers)
			snprintf(v->res.leftover_example, sizeof(v->res.leftover_example),
				 "%.120s after run %d", names, v->res.runs);
		v->res.leftovers += n;
	}
	/* (capaudit's own helpers too, not counted: the run's output keeper
	 * ends with it) */
	if (runbox_kill(box, pgid))
		progress(v, "run %d: cannot stop what it left behind: %s", v->res.runs,
			 strerror(errno));
	runbox_reap(0, &st);
	runbox_close(box);
}

/*
 * What a run stopped at --timeout recorded until then, if it could write
 * it: every program's denials (not only --program's: the script judging
 * a daemon is often what a denial kept from ending). Kept with -k.
 */
static void timed_out_record(struct verify *v, const char *path, struct vrun *r)
{
	struct suggest_opts all = { 0 };
	char err[512];

	if (!access(path, F_OK) && !recfile_load(path, &r->rec, err, sizeof(err))) {
		r->have_rec = true;
		suggest_build(&r->rec, &all, &r->sg);
	}
	if (!v->o.keep_dir)
		unlink(path);
}

/*
 * Run the command under exactly caps with `capaudit run` (a child: the
 * recording drops its privileges, ours must stay), in a cgroup of its
 * own, then load its record. -1: no verdict (capaudit could not record,
 * or a signal came: stop_signal); 0 otherwise, r->ok says.
 */
static int run_with(struct verify *v, uint64_t caps, struct vrun *r, char *err, size_t errlen)
{
	char path[320], capsarg[1024], self[4096];
	const char *argv[32 + 4096];
	struct suggest_opts so = { .program = v->o.program };
	struct runbox box;
	ssize_t n;
	size_t a = 0, i;
	pid_t pid;
	int st;

	memset(r, 0, sizeof(*r));
	r->caps = caps;
	r->verdict.v = RV_FAILED;   /* until judged */
	if (stop_signal)
		return -1;
	v->res.runs++;
	snprintf(path, sizeof(path), "%s/run%d.jsonl", v->dir, v->res.runs);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		snprintf(err, errlen, "cannot find capaudit's own executable: %s", strerror(errno));
		return -1;
	}
	self[n] = '\0';
	caps_arg(caps, capsarg, sizeof(capsarg));
	argv[a++] = self;
	argv[a++] = "run";
	argv[a++] = "-q";
	argv[a++] = "--format";
	argv[a++] = "json";   /* the command's output on stderr, the report on stdout */
	/* a unit's first run is the unit as configured: its own sets */
	if (!v->o.service || r != &v->base || v->o.from) {
		argv[a++] = "--caps";
		argv[a++] = caps ? capsarg : "none";
	}
	argv[a++] = "-o";
	argv[a++] = path;
	if (v->o.user) {
		argv[a++] = "--user";
		argv[a++] = v->o.user;
	}
	if (v->o.keep_path)
		argv[a++] = "--keep-path";
	if (v->o.attach) {
		argv[a++] = "--attach";
		argv[a++] = v->o.attach;
	}
	if (v->o.service) {
		argv[a++] = "--service";
		argv[a++] = v->o.service;
	} else {
		argv[a++] = "--";
		for (i = 0; v->o.cmd[i] && a < sizeof(argv) / sizeof(argv[0]) - 1; i++)
			argv[a++] = v->o.cmd[i];
	}
	argv[a] = NULL;

	if (runbox_open(&box, "capaudit-verify", v->res.runs) && !v->res.no_box) {
		v->res.no_box = true;
		snprintf(v->res.no_box_why, sizeof(v->res.no_box_why), "%s", box.why_none);
		progress(v, "runs go without a cgroup of their own (%s): what a run leaves "
			 "behind outside its process group is not found", box.why_none);
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		runbox_close(&box);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		signal(SIGPIPE, SIG_DFL);
		runbox_enter(&box);
		if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
			_exit(127);
		execv(self, (char **)argv);
		_exit(127);
	}
	st = wait_run(v, pid, &box, r);
	sweep_box(v, &box, pid, r->timed_out);
	if (stop_signal) {
		unlink(path);
		return -1;
	}
	if (r->timed_out) {
		timed_out_record(v, path, r);
		r->exit_status = 124;   /* as timeout(1) says */
		r->check_status = 0;
		r->ok = false;
		progress(v, "run %d passed --timeout (%g s): stopped", v->res.runs, v->o.timeout);
		return 0;
	}
	if (st < 0) {
		snprintf(err, errlen, "waitpid: %s", strerror(errno));
		return -1;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) > 1) {
		snprintf(err, errlen, "capaudit run could not record the command (exit status %d)",
			 WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		return -1;
	}
	if (WEXITSTATUS(st) == 1 && access(path, F_OK)) {
		/* run: the kernel refused to execute it with this set */
		r->exit_status = 126;
		r->check_status = v->o.check ? run_check(v->o.check) : 0;
		r->ok = false;
		r->exec_refused = true;
		return 0;
	}
	if (recfile_load(path, &r->rec, err, errlen))
		return -1;
	r->have_rec = true;
	suggest_build(&r->rec, &so, &r->sg);
	r->exit_status = r->rec.hdr.has_exit_status ? r->rec.hdr.exit_status : 0;
	r->check_status = v->o.check ? run_check(v->o.check) : 0;
	/* a run with less than the caller's privileges succeeds only if
	 * nothing the kernel refused it changed or stopped what it did
	 * (analyze/verdict.h); the first run's refusals are the caller's own */
	run_verdict(&r->sg, r->exit_status, v->o.check || v->o.exit_judges, r->check_status,
		    caps == v->o.all ? 0 : v->o.all & ~caps, &r->verdict);
	r->ok = r->verdict.v == RV_ENOUGH;
	if (r->ok)
		note_passing(v, r);
	if (!v->o.keep_dir)
		unlink(path);
	return 0;
}

/* A run that did not succeed, on its progress line. */
static const char *run_words(const struct vrun *r)
{
	switch (r->verdict.v) {
	case RV_CHANGED:
		return "exited 0, but a refusal changed what a syscall did";
	case RV_REFUSED:
		return "exited 0, but went on past a refusal (only --check can judge that)";
	default:
		return "failed";
	}
}

/* The denial that most likely stopped the run: of the capability that
 * was taken away (cap, -1: any) first, then blocking before the rest;
 * never one that a run that succeeded saw too. */
static const struct sg_denial *worst_denial(const struct verify *v, const struct vrun *r, int cap)
{
	const struct sg_denial *best = NULL;
	size_t i;

	for (i = 0; i < r->sg.ndeny; i++) {
		const struct sg_denial *d = &r->sg.deny[i];
		int mine = cap >= 0 && (d->cap == cap || d->alt == cap);
		int best_mine = best && cap >= 0 && (best->cap == cap || best->alt == cap);

		if (!is_evidence(v, d))
			continue;
		if (!best || mine > best_mine ||
		    (mine == best_mine && denial_kind_rank(d->kind) > denial_kind_rank(best->kind)))
			best = d;
	}
	return best;
}

/*
 * What a failed run says is missing from its set: the capabilities of
 * its denials that were not advisory (the narrow one of a "X or
 * CAP_SYS_ADMIN" pair) and that no run that succeeded saw, then those
 * its programs asked capset() for. Only capabilities the caller has.
 */
static uint64_t revealed(const struct verify *v, const struct vrun *r)
{
	uint64_t add = 0;
	size_t i;

	for (i = 0; i < r->sg.ndeny; i++)
		if (r->sg.deny[i].kind != DENY_ADVISORY &&
		    r->sg.deny[i].kind != DENY_DONE_WITHOUT && is_evidence(v, &r->sg.deny[i]))
			add |= 1ULL << r->sg.deny[i].cap;
	add &= ~r->caps & v->o.all;
	/* only operations programs try and fall back from were refused: the
	 * program may need one after all */
	for (i = 0; !add && i < r->sg.ndeny; i++)
		if (r->sg.deny[i].kind == DENY_DONE_WITHOUT && is_evidence(v, &r->sg.deny[i]))
			add |= 1ULL << r->sg.deny[i].cap;
	add &= ~r->caps & v->o.all;
	if (!add)   /* no capability check failed: a capset() asking for more? */
		add = r->sg.asked & ~r->caps & v->o.all;
	return add;
}

/* Most powerful first (docs/verify.md, "An order by power"): dropping
 * CAP_SYS_ADMIN is tried before the narrow capabilities it stands in
 * for, CAP_DAC_OVERRIDE before CAP_DAC_READ_SEARCH; else by number. */
static int cmp_order(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	int c = cap_power_cmp(y, x);

	return c ? c : x - y;
}

/* Every member of caps is less powerful than cap (cap_power_cmp()). */
static bool all_narrower(uint64_t caps, int cap)
{
	int c;

	if (!caps)
		return false;
	for_each_cap(c, caps)
		if (cap_power_cmp(c, cap) >= 0)
			return false;
	return true;
}

static void note_failure(const struct verify *v, struct verify_member *m, const struct vrun *r)
{
	const struct sg_denial *d = r->have_rec ? worst_denial(v, r, m->cap) : NULL;

	/* it exited 0, but a refusal changed or stopped what it did: that
	 * denial is the reason */
	m->verdict = r->verdict.v;
	if (r->verdict.v == RV_CHANGED || r->verdict.v == RV_REFUSED) {
		d = r->verdict.why;
		m->deny = *d;
		m->deny.func = NULL;
		m->deny.sysname = NULL;
		m->deny.sys = NULL;
		m->deny.nsys = m->deny.capsys = 0;
		m->deny.fact = NULL;
		m->deny.objects = (struct obj_set){ 0 };
		m->deny_sysname = d->sysname ? xstrdup(d->sysname) : NULL;
	}

	m->exit_status = r->exit_status;
	m->check_status = r->check_status;
	m->deny_cap = d ? d->cap : -1;
	m->deny_func = d ? xstrdup(d->func) : NULL;
	obj_set_release(&m->deny_objects);
	if (d)
		obj_set_own(&m->deny_objects, &d->objects);
	m->exec_refused = r->exec_refused;
	m->timed_out = r->timed_out;
	m->userspace = !d && r->have_rec;
}

/* A member dropped: what its refusals were in the run that worked
 * without it (each changed nothing the command needed). */
static void note_refusals(struct verify_member *m, const struct vrun *r)
{
	size_t i;

	for (i = 0; i < r->sg.ndeny; i++) {
		const struct sg_denial *d = &r->sg.deny[i];
		struct verify_refusal *x;

		if (d->cap != m->cap && d->alt != m->cap)
			continue;
		if (m->nrefusals >= sizeof(m->refusals) / sizeof(m->refusals[0])) {
			m->more_refusals += d->count;
			continue;
		}
		x = &m->refusals[m->nrefusals++];
		x->func = xstrdup(d->func);
		x->kind = d->kind;
		x->eff = d->eff.kind;
		x->lookup = d->eff.lookup;
		x->count = d->count;
		obj_set_own(&x->objects, &d->objects);
	}
}

/* Did a program of the first run ask capset() to keep cap? */
static bool asked_for(const struct verify *v, int cap)
{
	size_t i;

	for (i = 0; i < v->base.rec.nprocs; i++)
		if (v->base.rec.procs[i].has_capset &&
		    (v->base.rec.procs[i].capset_prm & (1ULL << cap)))
			return true;
	return false;
}

static void gave_up(struct verify *v, const char *what, uint64_t left)
{
	char buf[600];

	snprintf(v->res.failure, sizeof(v->res.failure), "gave up after %d runs (--max-runs %d) "
		 "%s%s%s", v->res.runs, v->o.max_runs, what, left ? ": still to try: " : "",
		 left ? capset_str(left, buf, sizeof(buf)) : "");
}

/* The run with s did not end: say so, and the denial in it that most
 * likely kept it going (a daemon's judge whose kill was refused). */
static void timeout_failure(struct verify *v, uint64_t s, const struct vrun *r)
{
	const struct sg_denial *d = r->have_rec ? worst_denial(v, r, -1) : NULL;
	char buf[1024], cn[64], why[400] = "";

	if (d)
		snprintf(why, sizeof(why), "; in that run the kernel refused %s at %s: a refusal "
			 "that keeps a script from stopping what it started makes a run last "
			 "(docs/verify.md, \"Daemons\")", cap_name(d->cap, cn), d->func);
	snprintf(v->res.failure, sizeof(v->res.failure), "with %s the command did not end "
		 "within --timeout %g s%s", s ? capset_str(s, buf, sizeof(buf)) : "no capabilities",
		 v->o.timeout, why);
}

/* Phase 1: from the suggested set, add what failures reveal until the
 * command succeeds. 0 (*set worked), -1 (gave up), -2 (stopped), -3 (it
 * fails and no denial says what is missing). */
static int grow(struct verify *v, uint64_t *set, struct vrun *last, char *err, size_t errlen)
{
	uint64_t s = *set;
	bool aside_tried = false;
	char buf[1024];

	for (;;) {
		uint64_t add;

		if (v->res.runs >= v->o.max_runs) {
			gave_up(v, "before a set worked", 0);
			return -1;
		}
		vrun_free(last);
		if (run_with(v, s, last, err, errlen))
			return -2;
		progress(v, "run %d with %s: %s", v->res.runs, s ? capset_str(s, buf, sizeof(buf)) :
			 "no capabilities", last->ok ? "succeeded" : last->timed_out ? "timed out" :
			 run_words(last));
		if (last->ok) {
			*set = s;
			return 0;
		}
		if (last->timed_out) {
			timeout_failure(v, s, last);
			return -1;
		}
		add = revealed(v, last);
		if (!add && !aside_tried) {
			/* what the kernel asked but capaudit set aside (advisory,
			 * no effect): the program may need it after all */
			size_t i;

			for (i = 0; i < v->base.sg.naside; i++)
				if (v->base.sg.aside[i].why == ASIDE_ADVISORY ||
				    v->base.sg.aside[i].why == ASIDE_NO_EFFECT ||
				    v->base.sg.aside[i].why == ASIDE_FOREIGN)
					add |= 1ULL << v->base.sg.aside[i].cap;
			add &= ~s & v->o.all;
			aside_tried = true;
		}
		if (!add) {
			const struct sg_denial *d = last->have_rec ? worst_denial(v, last, -1) : NULL;
			char nb[CAP_NAME_LEN];

			snprintf(v->res.failure, sizeof(v->res.failure),
				 "with %s the command fails (exit status %d%s) and no denied check "
				 "says what is missing%s%s%s", s ? capset_str(s, buf, sizeof(buf)) : "no "
				 "capabilities", last->exit_status, last->check_status ?
				 ", the check failed" : "", d ? "; last denial: " : "",
				 d ? cap_name(d->cap, nb) : "", d ? " (already in the set)" : "");
			return -3;
		}
		s |= add;
	}
}

/*
 * Phase 2: drop each member in turn, the most powerful first; keep those
 * the command fails without. A failure that reveals capabilities
 * narrower than the member (CAP_SYS_ADMIN -> CAP_BPF, CAP_PERFMON) is
 * tried with them instead, never one that is not narrower: least
 * privilege is an order by power, not a count (docs/verify.md).
 */
static int shrink(struct verify *v, uint64_t *set, char *err, size_t errlen)
{
	int order[64], n = 0, i, c;
	char buf[1024], nb[CAP_NAME_LEN];

	for_each_cap(c, *set)
		order[n++] = c;
	qsort(order, (size_t)n, sizeof(order[0]), cmp_order);
	for (i = 0; i < n; i++) {
		struct verify_member *m = &v->res.members[v->res.nmembers++];
		uint64_t without = *set & ~(1ULL << order[i]), add, narrow;
		struct vrun r = { 0 };

		memset(m, 0, sizeof(*m));
		m->cap = order[i];
		m->replaced_by = -1;
		m->deny_cap = -1;
		if (!(*set & (1ULL << order[i]))) {
			m->kept = false;   /* replaced already by a narrower one */
			continue;
		}
		if (v->res.runs >= v->o.max_runs) {
			uint64_t left = 0;
			int k;

			for (k = i; k < n; k++)
				left |= *set & (1ULL << order[k]);
			v->res.nmembers--;
			gave_up(v, "while dropping members one by one", left);
			return -1;
		}
		if (run_with(v, without, &r, err, errlen))
			return -2;
		progress(v, "run %d without %s (set %s): %s", v->res.runs, cap_name(m->cap, nb),
			 without ? capset_str(without, buf, sizeof(buf)) : "none",
			 r.ok ? "succeeded: not needed" : r.timed_out ? "timed out" : run_words(&r));
		if (r.ok) {
			note_refusals(m, &r);
			*set = without;
			vrun_free(&r);
			continue;
		}
		note_failure(v, m, &r);
		m->asked = asked_for(v, m->cap);
		add = revealed(v, &r) & ~(1ULL << order[i]);
		vrun_free(&r);
		narrow = all_narrower(add, m->cap) ? add : 0;
		m->broader_refused = add & ~narrow;
		if (narrow && v->res.runs < v->o.max_runs) {
			if (run_with(v, without | narrow, &r, err, errlen))
				return -2;
			progress(v, "run %d with %s instead of %s: %s", v->res.runs,
				 capset_str(narrow, buf, sizeof(buf)), cap_name(m->cap, nb),
				 r.ok ? "succeeded" : run_words(&r));
			if (r.ok) {
				m->replaced_by_set = narrow;
				m->replaced_by = __builtin_ctzll(narrow);
				*set = without | narrow;
				vrun_free(&r);
				continue;
			}
			m->narrower_failed = narrow;
			vrun_free(&r);
		}
		m->kept = true;
	}
	return 0;
}

/* A suggestion to emit snippets from: the proven set for the command's
 * own program, nothing for the rest of the tree. */
static void proven_suggestion(struct verify *v)
{
	struct suggestion *s = &v->emit_sg;
	size_t i;
	bool given = false;

	*s = v->base.sg;
	s->required = v->res.set;
	s->progs = xcalloc(s->nprogs + 1, sizeof(*s->progs));
	memcpy(s->progs, v->base.sg.progs, s->nprogs * sizeof(*s->progs));
	for (i = 0; i < s->nprogs; i++) {
		s->progs[i].required = 0;
		if (!given && s->progs[i].matched && s->progs[i].proc->exe) {
			s->progs[i].required = v->res.set;
			given = true;
		}
	}
	/* a unit's snippet names it (a drop-in of its own) */
	if (v->o.service_name)
		s->runas.unit = v->o.service_name;
	v->res.sg = s;
}


/* A run ended without a verdict: a signal (then what was decided so far
 * stays in the result), or capaudit could not record. */
static int stopped(struct verify *v)
{
	if (!stop_signal)
		return -1;
	v->res.interrupted = stop_signal;
	return VERIFY_INTERRUPTED;
}

int verify_prove(const struct verify_opts *o, struct verify **out, char *err, size_t errlen)
{
	struct verify *v = xcalloc(1, sizeof(*v));
	uint64_t set;

	*out = v;
	v->o = *o;
	/* each member needs a run, and growing one per capability at most */
	if (v->o.max_runs <= 0)
		v->o.max_runs = 10 + 2 * __builtin_popcountll(o->all);
	if (v->o.timeout <= 0)
		v->o.timeout = VERIFY_TIMEOUT_DEFAULT;
	v->res.cmd = o->cmd;
	v->res.user = o->user;
	v->res.keep_path = o->keep_path;
	v->res.check = o->check;
	v->res.timeout = v->o.timeout;
	v->res.max_runs = v->o.max_runs;
	catch_signals();
	/* whatever a run starts stays below us, wherever it moves (runbox.h):
	 * found and stopped after each run */
	if (proctree_subreaper())
		progress(v, "cannot be the runs' subreaper (%s): what a run moves out of its "
			 "cgroup and session is not found", strerror(errno));
	if (o->keep_dir) {
		if (mkdir(o->keep_dir, 0700) && errno != EEXIST) {
			snprintf(err, errlen, "-k %s: %s", o->keep_dir, strerror(errno));
			return -1;
		}
		snprintf(v->dir, sizeof(v->dir), "%.63s", o->keep_dir);
	} else {
		const char *tmp = getenv("TMPDIR");

		if (!tmp || !*tmp || strlen(tmp) > sizeof(v->dir) - 24)
			tmp = "/tmp";
		snprintf(v->dir, sizeof(v->dir), "%s/capaudit-verify.XXXXXX", tmp);
		if (!mkdtemp(v->dir)) {
			v->dir[0] = '\0';
			snprintf(err, errlen, "cannot make a directory for the records: %s",
				 strerror(errno));
			return -1;
		}
	}
	/* the caller's privileges: what the command does when nothing stops it */
	if (run_with(v, o->all, &v->base, err, errlen))
		return stopped(v);
	progress(v, "run 1 with %s: %s", o->from ? "--from's capabilities" : o->service ?
		 "the unit's own sets" : "the caller's privileges",
		 v->base.ok ? "succeeded" : "failed");
	v->res.have_suggested = v->base.have_rec;
	v->res.suggested = v->base.sg.required;
	if (!v->base.ok) {
		if (v->base.timed_out)
			snprintf(v->res.failure, sizeof(v->res.failure), "the command did not end "
				 "within --timeout %g s even with the caller's privileges: nothing "
				 "to prove (a daemon: see docs/verify.md, \"Daemons\")", v->o.timeout);
		else
			snprintf(v->res.failure, sizeof(v->res.failure), "the command fails even "
				 "with %s (exit status %d%s): nothing to prove%s", o->from ?
				 "--from's capabilities" : o->service ? "the unit's own sets" :
				 "the caller's privileges",
				 v->base.exit_status, v->base.check_status ? ", the check failed" : "",
				 o->from ? "" : o->service ? " (with more than the unit grants: "
				 "--from CAPS)" : " (a program that fails holding more than it "
				 "needs: start from a smaller set with --from CAPS)");
		return 1;
	}
	{
		struct vrun last = { 0 };
		int g;

		/* what only a run can decide is tried too: shrink drops it if
		 * the command works without (docs/capsites.md) */
		set = (v->base.sg.required | v->base.sg.undecided_caps) & o->all;
		g = grow(v, &set, &last, err, errlen);
		vrun_free(&last);
		if (g == -3) {
			/* what the set lacks no check said (a refusal the kernel
			 * does not log, a path the program takes with some
			 * capabilities and not others): the first run's set worked,
			 * so drop its members one by one from there */
			progress(v, "%s; starting again from the set of run 1", v->res.failure);
			v->res.restarted = true;
			v->res.failure[0] = '\0';
			set = o->all;
			g = 0;
		}
		if (!g)
			g = shrink(v, &set, err, errlen);
		if (g == -2)
			return stopped(v);
		if (g)
			return 1;
	}
	v->res.set = set;
	v->res.proven = true;
	proven_suggestion(v);
	return 0;
}

const struct verify_result *verify_result(const struct verify *v)
{
	return &v->res;
}

void verify_cleanup(struct verify *v)
{
	char path[320];
	int i;

	if (!v || v->o.keep_dir || !v->dir[0])
		return;
	for (i = 1; i <= v->res.runs; i++) {
		snprintf(path, sizeof(path), "%s/run%d.jsonl", v->dir, i);
		unlink(path);
	}
	rmdir(v->dir);
	v->dir[0] = '\0';
}

void verify_free(struct verify *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->res.nmembers; i++) {
		size_t k;

		free(v->res.members[i].deny_func);
		free(v->res.members[i].deny_sysname);
		obj_set_release(&v->res.members[i].deny_objects);
		for (k = 0; k < v->res.members[i].nrefusals; k++) {
			free(v->res.members[i].refusals[k].func);
			obj_set_release(&v->res.members[i].refusals[k].objects);
		}
	}
	for (i = 0; i < v->npass; i++)
		free(v->pass[i].func);
	free(v->pass);
	if (v->res.sg)
		free(v->emit_sg.progs);
	vrun_free(&v->base);
	verify_cleanup(v);
	free(v);
}
