// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit verify: prove a capability set with the kernel as the judge.
 * Record the command with the caller's privileges, take the suggested set,
 * run the command under exactly that set (capaudit run), add what the
 * failing runs' denials reveal until it succeeds, then drop each member in
 * turn (CAP_SYS_ADMIN first: it stands in for the narrow ones) and keep
 * only those whose removal makes it fail. docs/verify.md states the rules.
 *
 * Every run is a child `capaudit run` (or, for the first, with the
 * caller's whole set): a recording drops the recorder's privileges, and
 * verify must keep them to set the next run's.
 */
#include "verify_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attach.h"
#include "capnames.h"
#include "cli.h"
#include "jsonutil.h"
#include "launch.h"
#include "output.h"
#include "privs.h"
#include "recfile.h"
#include "run_cmd.h"
#include "suggest.h"
#include "util.h"

#define CAP_SYS_ADMIN 21
#define MAX_EMIT 5

static const char verify_usage[] =
	"usage: capaudit verify [--user USER] [--check TEST] [--emit KIND]... [--program NAME]\n"
	"                       [--format text|json] [--attach MODE] [--max-runs N] [-k DIR] [-q]\n"
	"                       -- COMMAND [ARGS...]\n"
	"  find the capability set COMMAND needs, with the kernel as the judge: record it\n"
	"  with the caller's privileges, run it under exactly the suggested set, add what\n"
	"  blocking denials reveal until it succeeds, then drop each member in turn and\n"
	"  keep only those whose removal makes it fail.\n"
	"  --user USER      run every time as USER (name or uid)\n"
	"  --check TEST     success is COMMAND exiting 0 and sh -c TEST (run as the caller\n"
	"                   after each run) exiting 0\n"
	"  --emit KIND      also print a snippet for the proven set: setcap, systemd,\n"
	"                   docker, kubernetes or capsh (may be repeated)\n"
	"  --program NAME   start from what that program of the tree needs (comm or exe)\n"
	"  --format FMT     text (default) or json; the command's output goes to stderr\n"
	"  --attach MODE    as record --attach\n"
	"  --max-runs N     give up after N runs (default 40)\n"
	"  -k DIR           keep every run's record in DIR (created; default: removed)\n"
	"  -q               no progress lines on standard error\n"
	"  Exit status: 0 a set was proven, 1 none works (or COMMAND fails even with the\n"
	"  caller's privileges), 2 usage errors.\n";

/* One run of the command under a set. */
struct vrun {
	uint64_t caps;
	bool ok;                 /* it succeeded */
	bool exec_refused;       /* execve() failed with EPERM: no record */
	int exit_status, check_status;
	struct record rec;       /* its record (loaded) */
	bool have_rec;
	struct suggestion sg;    /* built on rec */
};

/* What the removal of one member showed. */
struct member {
	int cap;
	bool kept;               /* its removal made the command fail */
	int replaced_by;         /* dropped in favour of this narrower one, or -1 */
	int exit_status, check_status;   /* of the run without it */
	int deny_cap;            /* its first blocking denial, or -1 */
	char *deny_func;
	int deny_syscall;
	bool exec_refused;
	bool asked;              /* the program asked capset() to keep it */
};

struct verify {
	char **cmd;
	const char *user, *check, *program, *attach, *keep_dir;
	bool quiet;
	int max_runs;
	uint64_t all;            /* the caller's own set (permitted and bounding) */
	char dir[64];            /* where records go */
	int runs;
	struct member members[64];
	size_t nmembers;
	uint64_t proven;
	char failure[512];       /* why no set was proven */
	struct vrun base;        /* the run with the caller's privileges */
};

static void progress(const struct verify *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void progress(const struct verify *v, const char *fmt, ...)
{
	va_list ap;

	if (v->quiet)
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
	char nb[CAP_NAME_LEN];
	size_t o = 0;
	int c;

	buf[0] = '\0';
	for (c = 0; c < 64 && o < len; c++)
		if (caps & (1ULL << c))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "", cap_name(c, nb));
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
	struct suggest_opts so = { .program = v->program };
	ssize_t n;
	size_t a = 0, i;
	pid_t pid;
	int st;

	memset(r, 0, sizeof(*r));
	r->caps = caps;
	v->runs++;
	snprintf(path, sizeof(path), "%s/run%d.jsonl", v->dir, v->runs);
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
	if (v->user) {
		argv[a++] = "--user";
		argv[a++] = v->user;
	}
	if (v->attach) {
		argv[a++] = "--attach";
		argv[a++] = v->attach;
	}
	argv[a++] = "--";
	for (i = 0; v->cmd[i] && a < sizeof(argv) / sizeof(argv[0]) - 1; i++)
		argv[a++] = v->cmd[i];
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
		r->check_status = v->check ? run_check(v->check) : 0;
		r->ok = false;
		r->exec_refused = true;
		return 0;
	}
	if (recfile_load(path, &r->rec, err, errlen))
		return -1;
	r->have_rec = true;
	suggest_build(&r->rec, &so, &r->sg);
	r->exit_status = r->rec.hdr.has_exit_status ? r->rec.hdr.exit_status : 0;
	r->check_status = v->check ? run_check(v->check) : 0;
	r->ok = r->exit_status == 0 && r->check_status == 0;
	if (!v->keep_dir)
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
	add &= ~r->caps & v->all;
	if (!add)   /* no capability check failed: a capset() asking for more? */
		add = r->sg.asked & ~r->caps & v->all;
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

static void note_failure(struct member *m, const struct vrun *r)
{
	const struct sg_denial *d = worst_denial(r, m->cap);

	m->exit_status = r->exit_status;
	m->check_status = r->check_status;
	m->deny_cap = d ? d->cap : -1;
	m->deny_func = d ? xstrdup(d->func) : NULL;
	m->deny_syscall = d && d->nsys ? d->sys[0].nr : -1;
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

		if (v->runs >= v->max_runs) {
			snprintf(v->failure, sizeof(v->failure), "gave up after %d runs (--max-runs)",
				 v->max_runs);
			return -1;
		}
		vrun_free(last);
		if (run_with(v, s, last, err, errlen))
			return -2;
		progress(v, "run %d with %s: %s", v->runs, s ? capset_str(s, buf, sizeof(buf)) :
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
				    v->base.sg.aside[i].why == ASIDE_NO_EFFECT)
					add |= 1ULL << v->base.sg.aside[i].cap;
			add &= ~s & v->all;
			aside_tried = true;
		}
		if (!add) {
			const struct sg_denial *d = worst_denial(last, -1);
			char nb[CAP_NAME_LEN];

			snprintf(v->failure, sizeof(v->failure),
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

	for (c = 0; c < 64; c++)
		if (*set & (1ULL << c))
			order[n++] = c;
	qsort(order, (size_t)n, sizeof(order[0]), cmp_order);
	for (i = 0; i < n; i++) {
		struct member *m = &v->members[v->nmembers++];
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
		if (v->runs >= v->max_runs) {
			snprintf(v->failure, sizeof(v->failure), "gave up after %d runs (--max-runs)",
				 v->max_runs);
			return -1;
		}
		if (run_with(v, without, &r, err, errlen))
			return -2;
		progress(v, "run %d without %s: %s", v->runs, cap_name(m->cap, nb),
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
		if (add && v->runs < v->max_runs) {
			if (run_with(v, without | add, &r, err, errlen))
				return -2;
			progress(v, "run %d with %s instead: %s", v->runs,
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
static void proven_suggestion(const struct verify *v, struct suggestion *s)
{
	size_t i;
	bool given = false;

	*s = v->base.sg;
	s->required = v->proven;
	s->progs = xcalloc(s->nprogs + 1, sizeof(*s->progs));
	memcpy(s->progs, v->base.sg.progs, s->nprogs * sizeof(*s->progs));
	for (i = 0; i < s->nprogs; i++) {
		s->progs[i].required = 0;
		if (!given && s->progs[i].matched && s->progs[i].proc->exe) {
			s->progs[i].required = v->proven;
			given = true;
		}
	}
}

static void text_report(const struct verify *v, const char *const *emit, size_t nemit, int rc)
{
	char buf[1024], nb[CAP_NAME_LEN], esc[4200];
	size_t i;

	fputs("capaudit verify:", stdout);
	for (i = 0; v->cmd[i]; i++)
		printf(" %s", text_escape(v->cmd[i], esc, sizeof(esc)));
	printf("\n  as: %s\n", v->user ? text_escape(v->user, esc, sizeof(esc)) : "root");
	if (v->check)
		printf("  success: exit status 0 and sh -c %s\n", text_escape(v->check, esc, sizeof(esc)));
	printf("  runs: %d\n", v->runs);
	if (rc) {
		printf("\nNo set proven: %s\n", v->failure);
		return;
	}
	printf("\nProven set: %s\n", v->proven ? capset_str(v->proven, buf, sizeof(buf)) :
	       "none (the command needs no capability)");
	if (v->proven)
		puts("  (the command succeeded with exactly this set, and failed without each of:)");
	for (i = 0; i < v->nmembers; i++) {
		const struct member *m = &v->members[i];

		if (!m->kept)
			continue;
		printf("  %s: without it, exit status %d", cap_name(m->cap, nb), m->exit_status);
		if (v->check)
			printf(", check %d", m->check_status);
		if (m->exec_refused)
			fputs("; the kernel refused to execute it (its file capabilities need it)",
			      stdout);
		else if (m->deny_cap >= 0)
			printf("; denied %s at %s", cap_name(m->deny_cap, nb),
			       text_escape(m->deny_func, esc, sizeof(esc)));
		else if (m->asked)
			fputs("; no capability check failed: the program asks capset() to keep it",
			      stdout);
		else
			fputs("; no capability check failed (a privileged recording cannot see "
			      "such a need: only this run shows it)", stdout);
		fputc('\n', stdout);
	}
	for (i = 0; i < v->nmembers; i++) {
		const struct member *m = &v->members[i];

		if (m->kept)
			continue;
		if (m->replaced_by >= 0)
			printf("  %s replaced by %s: the command succeeded with it instead\n",
			       cap_name(m->cap, nb), cap_name(m->replaced_by, esc));
		else
			printf("  %s dropped: the command succeeded without it\n", cap_name(m->cap, nb));
	}
	if (v->base.sg.required != v->proven) {
		printf("\nThe recording suggested %s", v->base.sg.required ?
		       capset_str(v->base.sg.required, buf, sizeof(buf)) : "no capability");
		puts(": the runs above corrected it.");
	}
	if (nemit) {
		struct suggestion s;

		proven_suggestion(v, &s);
		for (i = 0; i < nemit; i++) {
			printf("\n# --emit %s\n", emit[i]);
			emit_snippet(stdout, emit[i], &s);
		}
		free(s.progs);
	}
}

static json_t *cap_or_null(int cap)
{
	char nb[CAP_NAME_LEN];

	return cap >= 0 ? json_string(cap_name(cap, nb)) : json_null();
}

static void json_report(const struct verify *v, const char *const *emit, size_t nemit, int rc)
{
	json_t *root = json_object(), *cmd = json_array(), *a;
	char nb[CAP_NAME_LEN];
	size_t i;

	for (i = 0; v->cmd[i]; i++)
		json_array_append_new(cmd, json_bytes(v->cmd[i]));
	json_set(root, "command", cmd);
	json_set(root, "user", v->user ? json_bytes(v->user) : json_null());
	json_set(root, "check", v->check ? json_bytes(v->check) : json_null());
	json_set(root, "runs", json_integer(v->runs));
	json_set(root, "proven", rc ? json_false() : json_true());
	json_set(root, "set", rc ? json_null() : json_capset(v->proven));
	json_set(root, "suggested", v->base.have_rec ? json_capset(v->base.sg.required) :
		 json_null());
	if (rc)
		json_set(root, "failure", json_string(v->failure));
	a = json_array();
	for (i = 0; i < v->nmembers; i++) {
		const struct member *m = &v->members[i];
		json_t *o = json_object();

		json_set(o, "cap", json_string(cap_name(m->cap, nb)));
		json_set(o, "kept", json_boolean(m->kept));
		json_set(o, "replaced_by", cap_or_null(m->replaced_by));
		if (m->kept) {
			json_t *e = json_object();

			json_set(e, "exit_status", json_integer(m->exit_status));
			if (v->check)
				json_set(e, "check_status", json_integer(m->check_status));
			json_set(e, "denied", cap_or_null(m->deny_cap));
			json_set(e, "exec_refused", json_boolean(m->exec_refused));
			json_set(e, "asked_by_capset", json_boolean(m->asked));
			json_set(e, "callsite", m->deny_func ? json_bytes(m->deny_func) : json_null());
			json_set(o, "without_it", e);
		}
		json_array_append_new(a, o);
	}
	json_set(root, "members", a);
	if (!rc && nemit) {
		struct suggestion s;
		json_t *sn = json_object();

		proven_suggestion(v, &s);
		for (i = 0; i < nemit; i++) {
			char *buf = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&buf, &len);

			if (m) {
				emit_snippet(m, emit[i], &s);
				fclose(m);
				json_set(sn, emit[i], json_bytes(buf ? buf : ""));
				free(buf);
			}
		}
		json_set(root, "snippets", sn);
		free(s.progs);
	}
	if (json_write_pretty(stdout, root))
		p_err("cannot write the report: output error");
	json_decref(root);
}

int do_verify(int argc, char **argv, int all_argc, char **all_argv)
{
	static const struct option longopts[] = {
		{ "user", required_argument, NULL, 'u' },
		{ "check", required_argument, NULL, 'C' },
		{ "emit", required_argument, NULL, 'e' },
		{ "program", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "attach", required_argument, NULL, 'A' },
		{ "max-runs", required_argument, NULL, 'm' },
		{ "keep", required_argument, NULL, 'k' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct verify v = { .max_runs = 40 };
	const char *emit[MAX_EMIT], *fmt = "text";
	size_t nemit = 0, i;
	struct launch l = { 0 };
	struct privs pv;
	char err[1024], bad[256];
	struct attach_list modes;
	uint64_t set;
	long runs;
	int c, rc = EXIT_OK;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+u:C:e:p:f:A:m:k:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'u': v.user = optarg; break;
		case 'C': v.check = optarg; break;
		case 'p': v.program = optarg; break;
		case 'f': fmt = optarg; break;
		case 'k': v.keep_dir = optarg; break;
		case 'q': v.quiet = true; break;
		case 'A':
			if (attach_list_parse(optarg, &modes, bad, sizeof(bad))) {
				p_err("%s", bad);
				return EXIT_USAGE;
			}
			v.attach = optarg;
			break;
		case 'e':
			for (i = 0; emit_kinds[i] && strcmp(emit_kinds[i], optarg); i++)
				;
			if (!emit_kinds[i]) {
				p_err("unknown --emit kind '%s' (setcap, systemd, docker, kubernetes, "
				      "capsh)", optarg);
				return EXIT_USAGE;
			}
			if (nemit == MAX_EMIT) {
				p_err("--emit: at most %d kinds", MAX_EMIT);
				return EXIT_USAGE;
			}
			emit[nemit++] = optarg;
			break;
		case 'm':
			if (parse_int_range(optarg, 2, 1000, &runs)) {
				p_err("--max-runs '%s': a number from 2 to 1000", optarg);
				return EXIT_USAGE;
			}
			v.max_runs = (int)runs;
			break;
		case 'h':
			fputs(verify_usage, stdout);
			return EXIT_OK;
		default:
			fputs(verify_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (strcmp(fmt, "text") && strcmp(fmt, "json")) {
		p_err("unknown format '%s' for verify (text, json)", fmt);
		return EXIT_USAGE;
	}
	if (!strcmp(fmt, "json"))
		cli_json_errors = true;
	if (optind >= argc) {
		p_err("verify needs a command: capaudit verify [OPTIONS] -- COMMAND");
		return EXIT_USAGE;
	}
	v.cmd = &argv[optind];
	if (v.user && launch_resolve_user(v.user, &l)) {
		p_err("--user %s: no such user", v.user);
		return EXIT_USAGE;
	}
	/* every run sets its command's sets: root's work */
	if (privs_read(&pv) || !(pv.prm & (1ULL << 8)) ||
	    (v.user && (pv.prm & 0xc0) != 0xc0)) {
		p_err("verify needs root (CAP_SETPCAP%s) to run the command with each set",
		      v.user ? ", CAP_SETUID, CAP_SETGID" : "");
		return EXIT_FAIL;
	}
	v.all = pv.prm & pv.bnd;
	if (v.keep_dir) {
		if (mkdir(v.keep_dir, 0700) && errno != EEXIST) {
			p_err("-k %s: %s", v.keep_dir, strerror(errno));
			return EXIT_USAGE;
		}
		snprintf(v.dir, sizeof(v.dir), "%.63s", v.keep_dir);
	} else {
		snprintf(v.dir, sizeof(v.dir), "/tmp/capaudit-verify.XXXXXX");
		if (!mkdtemp(v.dir)) {
			p_err("cannot make a directory for the records: %s", strerror(errno));
			return EXIT_FAIL;
		}
	}

	/* the caller's privileges: what the command does when nothing stops it */
	if (run_with(&v, v.all, &v.base, err, sizeof(err))) {
		p_err("%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	progress(&v, "run 1 with the caller's privileges: %s", v.base.ok ? "succeeded" : "failed");
	if (!v.base.ok) {
		snprintf(v.failure, sizeof(v.failure), "the command fails even with the caller's "
			 "privileges (exit status %d%s): nothing to prove", v.base.exit_status,
			 v.base.check_status ? ", the check failed" : "");
		rc = EXIT_FAIL;
	} else {
		struct vrun last = { 0 };
		int g;

		set = v.base.sg.required & v.all;
		g = grow(&v, &set, &last, err, sizeof(err));
		vrun_free(&last);
		if (!g)
			g = shrink(&v, &set, err, sizeof(err));
		if (g == -2) {
			p_err("%s", err);
			rc = EXIT_USAGE;
			goto out;
		}
		rc = g ? EXIT_FAIL : EXIT_OK;
		v.proven = set;
	}
	if (!strcmp(fmt, "json"))
		json_report(&v, emit, nemit, rc);
	else
		text_report(&v, emit, nemit, rc);
out:
	for (i = 0; i < v.nmembers; i++)
		free(v.members[i].deny_func);
	vrun_free(&v.base);
	if (!v.keep_dir)
		rmdir(v.dir);
	(void)all_argc;
	(void)all_argv;
	return rc;
}
