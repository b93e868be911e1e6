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
#include "record/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/suggest.h"
#include "facts/capnames.h"
#include "lib/util.h"
#include "recfile/recfile.h"
#include "record/launch.h"

struct vrun {
	uint64_t caps;
	bool ok;                 /* it succeeded */
	bool exec_refused;       /* execve() failed with EPERM: no record */
	int exit_status, check_status;
	struct record rec;       /* its record (loaded) */
	bool have_rec;
	struct suggestion sg;    /* built on rec */
};

struct verify {
	struct verify_opts o;
	char dir[64];            /* where records go */
	struct vrun base;        /* the run with the caller's privileges */
	struct verify_result res;
	struct suggestion emit_sg;  /* the first run's, with the proven set */
};

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

/*
 * Run the command under exactly caps with `capaudit run` (a child: the
 * recording drops its privileges, ours must stay), then load its record.
 * -1: no verdict (capaudit could not record); 0 otherwise, r->ok says.
 */
static int run_with(struct verify *v, uint64_t caps, struct vrun *r, char *err, size_t errlen)
{
	char path[128], capsarg[1024], self[4096];
	const char *argv[32 + 4096];
	struct suggest_opts so = { .program = v->o.program };
	ssize_t n;
	size_t a = 0, i;
	pid_t pid;
	int st;

	memset(r, 0, sizeof(*r));
	r->caps = caps;
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
	argv[a++] = "--caps";
	argv[a++] = caps ? capsarg : "none";
	argv[a++] = "-o";
	argv[a++] = path;
	if (v->o.user) {
		argv[a++] = "--user";
		argv[a++] = v->o.user;
	}
	if (v->o.attach) {
		argv[a++] = "--attach";
		argv[a++] = v->o.attach;
	}
	argv[a++] = "--";
	for (i = 0; v->o.cmd[i] && a < sizeof(argv) / sizeof(argv[0]) - 1; i++)
		argv[a++] = v->o.cmd[i];
	argv[a] = NULL;

	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
			_exit(127);
		execv(self, (char **)argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
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
	r->ok = r->exit_status == 0 && r->check_status == 0;
	if (!v->o.keep_dir)
		unlink(path);
	return 0;
}

/* The denial that most likely stopped the run: of the capability that
 * was taken away (cap, -1: any) first, then blocking before the rest. */
static const struct sg_denial *worst_denial(const struct vrun *r, int cap)
{
	const struct sg_denial *best = NULL;
	size_t i;

	for (i = 0; i < r->sg.ndeny; i++) {
		const struct sg_denial *d = &r->sg.deny[i];
		int mine = cap >= 0 && (d->cap == cap || d->alt == cap);
		int best_mine = best && cap >= 0 && (best->cap == cap || best->alt == cap);

		if (!best || mine > best_mine ||
		    (mine == best_mine && denial_kind_rank(d->kind) > denial_kind_rank(best->kind)))
			best = d;
	}
	return best;
}

/*
 * What a failed run says is missing from its set: the capabilities of
 * its denials that were not advisory (the narrow one of a "X or
 * CAP_SYS_ADMIN" pair), then those its programs asked capset() for. Only
 * capabilities the caller has.
 */
static uint64_t revealed(const struct verify *v, const struct vrun *r)
{
	uint64_t add = 0;
	size_t i;

	for (i = 0; i < r->sg.ndeny; i++)
		if (r->sg.deny[i].kind != DENY_ADVISORY)
			add |= 1ULL << r->sg.deny[i].cap;
	add &= ~r->caps & v->o.all;
	if (!add)   /* no capability check failed: a capset() asking for more? */
		add = r->sg.asked & ~r->caps & v->o.all;
	return add;
}

static int cmp_order(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	/* CAP_SYS_ADMIN first: it stands in for the narrow ones */
	if ((x == CAP_SYS_ADMIN) != (y == CAP_SYS_ADMIN))
		return x == CAP_SYS_ADMIN ? -1 : 1;
	return x - y;
}

static void note_failure(struct verify_member *m, const struct vrun *r)
{
	const struct sg_denial *d = worst_denial(r, m->cap);

	m->exit_status = r->exit_status;
	m->check_status = r->check_status;
	m->deny_cap = d ? d->cap : -1;
	m->deny_func = d ? xstrdup(d->func) : NULL;
	m->exec_refused = r->exec_refused;
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

/* Phase 1: from the suggested set, add what failures reveal until the
 * command succeeds. The set that worked, or -1. */
static int grow(struct verify *v, uint64_t *set, struct vrun *last, char *err, size_t errlen)
{
	uint64_t s = *set;
	bool aside_tried = false;
	char buf[1024];

	for (;;) {
		uint64_t add;

		if (v->res.runs >= v->o.max_runs) {
			snprintf(v->res.failure, sizeof(v->res.failure), "gave up after %d runs (--max-runs)",
				 v->o.max_runs);
			return -1;
		}
		vrun_free(last);
		if (run_with(v, s, last, err, errlen))
			return -2;
		progress(v, "run %d with %s: %s", v->res.runs, s ? capset_str(s, buf, sizeof(buf)) :
			 "no capabilities", last->ok ? "succeeded" : "failed");
		if (last->ok) {
			*set = s;
			return 0;
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
			const struct sg_denial *d = worst_denial(last, -1);
			char nb[CAP_NAME_LEN];

			snprintf(v->res.failure, sizeof(v->res.failure),
				 "with %s the command fails (exit status %d%s) and no denied check "
				 "says what is missing%s%s%s", s ? capset_str(s, buf, sizeof(buf)) : "no "
				 "capabilities", last->exit_status, last->check_status ?
				 ", the check failed" : "", d ? "; last denial: " : "",
				 d ? cap_name(d->cap, nb) : "", d ? " (already in the set)" : "");
			return -1;
		}
		s |= add;
	}
}

/* Phase 2: drop each member in turn; keep those the command fails
 * without. A failure that reveals narrower capabilities is tried with
 * them instead (CAP_SYS_ADMIN -> CAP_BPF, say). */
static int shrink(struct verify *v, uint64_t *set, char *err, size_t errlen)
{
	int order[64], n = 0, i, c;
	char buf[1024], nb[CAP_NAME_LEN];

	for_each_cap(c, *set)
		order[n++] = c;
	qsort(order, (size_t)n, sizeof(order[0]), cmp_order);
	for (i = 0; i < n; i++) {
		struct verify_member *m = &v->res.members[v->res.nmembers++];
		uint64_t without = *set & ~(1ULL << order[i]), add;
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
			snprintf(v->res.failure, sizeof(v->res.failure), "gave up after %d runs (--max-runs)",
				 v->o.max_runs);
			return -1;
		}
		if (run_with(v, without, &r, err, errlen))
			return -2;
		progress(v, "run %d without %s: %s", v->res.runs, cap_name(m->cap, nb),
			 r.ok ? "succeeded: not needed" : "failed");
		if (r.ok) {
			*set = without;
			vrun_free(&r);
			continue;
		}
		note_failure(m, &r);
		m->asked = asked_for(v, m->cap);
		add = revealed(v, &r) & ~(1ULL << order[i]);
		vrun_free(&r);
		if (add && v->res.runs < v->o.max_runs) {
			if (run_with(v, without | add, &r, err, errlen))
				return -2;
			progress(v, "run %d with %s instead: %s", v->res.runs,
				 capset_str(without | add, buf, sizeof(buf)), r.ok ? "succeeded" : "failed");
			if (r.ok && __builtin_popcountll(add) == 1) {
				m->replaced_by = __builtin_ctzll(add);
				*set = without | add;
				vrun_free(&r);
				continue;
			}
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
	v->res.sg = s;
}


int verify_prove(const struct verify_opts *o, struct verify **out, char *err, size_t errlen)
{
	struct verify *v = xcalloc(1, sizeof(*v));
	uint64_t set;

	*out = v;
	v->o = *o;
	v->res.cmd = o->cmd;
	v->res.user = o->user;
	v->res.check = o->check;
	if (o->keep_dir) {
		if (mkdir(o->keep_dir, 0700) && errno != EEXIST) {
			snprintf(err, errlen, "-k %s: %s", o->keep_dir, strerror(errno));
			return -1;
		}
		snprintf(v->dir, sizeof(v->dir), "%.63s", o->keep_dir);
	} else {
		snprintf(v->dir, sizeof(v->dir), "/tmp/capaudit-verify.XXXXXX");
		if (!mkdtemp(v->dir)) {
			v->dir[0] = '\0';
			snprintf(err, errlen, "cannot make a directory for the records: %s",
				 strerror(errno));
			return -1;
		}
	}
	/* the caller's privileges: what the command does when nothing stops it */
	if (run_with(v, o->all, &v->base, err, errlen))
		return -1;
	progress(v, "run 1 with the caller's privileges: %s", v->base.ok ? "succeeded" : "failed");
	v->res.have_suggested = v->base.have_rec;
	v->res.suggested = v->base.sg.required;
	if (!v->base.ok) {
		snprintf(v->res.failure, sizeof(v->res.failure), "the command fails even with the "
			 "caller's privileges (exit status %d%s): nothing to prove",
			 v->base.exit_status, v->base.check_status ? ", the check failed" : "");
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
		if (!g)
			g = shrink(v, &set, err, errlen);
		if (g == -2)
			return -1;
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

void verify_free(struct verify *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->res.nmembers; i++)
		free(v->res.members[i].deny_func);
	if (v->res.sg)
		free(v->emit_sg.progs);
	vrun_free(&v->base);
	if (!v->o.keep_dir && v->dir[0])
		rmdir(v->dir);
	free(v);
}
