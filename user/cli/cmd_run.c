// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit run: run a command with exactly a capability set while recording
 * it, then list every denied check with its call site. This is how a user
 * proves that `report --suggest` was right: with the suggested set there
 * is no blocking denial.
 */
#include "cli/cmd_run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/options.h"
#include "facts/capnames.h"
#include "lib/cgroup.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "record/launch.h"
#include "record/service.h"
#include "output/output.h"
#include "tracer/privs.h"
#include "recfile/recfile.h"
#include "record/record.h"
#include "analyze/suggest.h"

#define DEFAULT_RUN_RECORD "capaudit-run.jsonl"

enum { O_ATTACH = CLI_LONG_ONLY, O_CHECK, O_KEEP_PATH, O_SERVICE };

/* What the command line asked for. */
struct run_args {
	struct launch l;
	struct rec_opts o;
	struct suggest_opts so;
	const char *user, *check;
	const char *service;     /* --service UNIT|FILE, or NULL */
	struct service svc;      /* the unit, resolved (with --service) */
	bool exit_judges;        /* --exit-judges: the command's status says if it did its job */
	const char *caps;        /* --caps, parsed once the options are read */
	const char *fmt_name;    /* --format, until formatter_select() */
	const struct formatter *fmt;
};

#define A struct run_args

static const struct cli_opt run_opts[] = {
	{ "caps", 'c', required_argument, "SET",
	  "the set: capability names or numbers, comma-separated, or none", NULL, CLI_ARG_CAPS,
	  CLI_STRING(A, caps) },
	{ "user", 'u', required_argument, "USER", "run as USER (name or uid) with exactly that set",
	  "(with USER's HOME, USER, LOGNAME and login PATH)", CLI_ARG_USER, CLI_STRING(A, user) },
	{ "service", O_SERVICE, required_argument, "UNIT|FILE",
	  "run a unit's ExecStart= as its file and drop-ins configure it, with the set",
	  "(its User=, groups, environment and NoNewPrivileges=; the set is its bounding set "
	  "and, for a user other than root, its ambient set, as a drop-in would give them; "
	  "without --caps the unit's own sets; docs/service.md)", CLI_ARG_UNITFILE,
	  CLI_STRING(A, service) },
	{ "keep-path", O_KEEP_PATH, no_argument, NULL,
	  "with --user: keep the caller's PATH instead of USER's login PATH",
	  "(for a program that runs tools from directories only the caller's PATH has, such "
	  "as /usr/sbin)", CLI_ARG_ANY, CLI_FLAG(A, l.keep_path) },
	{ "check", O_CHECK, required_argument, "TEST",
	  "the set is enough when sh -c TEST exits 0 too",
	  "(run as the caller after the command; for programs whose status says little)",
	  CLI_ARG_ANY, CLI_STRING(A, check) },
	{ "exit-judges", 'J', no_argument, NULL,
	  "the command's exit status says whether it did its job (a script that checks it)",
	  "(a refusal it went on from then counts only if it fails, as with --check)",
	  CLI_ARG_ANY, CLI_FLAG(A, exit_judges) },
	{ "output", 'o', required_argument, "FILE", "record file (default " DEFAULT_RUN_RECORD ")",
	  NULL, CLI_ARG_FILE, CLI_STRING(A, o.out) },
	{ "format", 'f', required_argument, "FORMAT", "text (default) or json",
	  "(with json the command's standard output goes to standard error)", CLI_ARG_FORMAT,
	  CLI_STRING(A, fmt_name) },
	{ "program", 'p', required_argument, "NAME",
	  "judge the denials of that program only (comm or exe)", NULL, CLI_ARG_ANY,
	  CLI_STRING(A, so.program) },
	{ "attach", O_ATTACH, required_argument, "MODE[,MODE...]", "as record --attach", NULL,
	  CLI_ARG_ATTACH, CLI_ATTACH(A, o.modes) },
	{ "quiet", 'q', no_argument, NULL, "no status line while recording", NULL,
	  CLI_ARG_ANY, CLI_FLAG(A, o.quiet) },
	{ 0 },
};

#undef A

static const struct cli_cmd run_cmd = {
	.name = "run",
	.synopsis = "capaudit run --caps CAP[,CAP...]|none [OPTIONS] -- COMMAND [ARGS...]\n"
		    "capaudit run [--caps CAP[,CAP...]|none] [OPTIONS] --service UNIT|FILE.service",
	.about = "  run COMMAND with exactly these capabilities (bounding, permitted, effective,\n"
		 "  inheritable and ambient), as root or as USER, record it, and list every\n"
		 "  denied check with its call site and whether it made a syscall fail.\n",
	.opts = run_opts,
	.tail = "  Exit status: 0 the set is enough (the command exited 0, and TEST passed),\n"
		"  1 it is not, 2 usage errors or no verdict (capaudit could not record).\n",
	.in_order = 1,
};


/* Options and operands: CLI_GO_ON, or the exit status (EXIT_OK after --help). */
static int parse_args(int argc, char **argv, struct run_args *a)
{
	const char *caps;
	struct cli_getopt g;
	char bad[256], near[CAP_NAME_LEN];
	int c;

	a->o.out = DEFAULT_RUN_RECORD;
	a->fmt_name = "text";
	cli_getopt_init(&g, &run_cmd, a);
	c = cli_next(&g, argc, argv);   /* every option goes into a */
	if (c != CLI_END)
		return cli_exit_status(c);
	caps = a->caps;
	a->fmt = formatter_select(a->fmt_name, FOR_RUN);
	if (!a->fmt)
		return EXIT_USAGE;
	if (!caps && !a->service) {
		p_err("run needs --caps CAP[,CAP...] (or --caps none)");
		return EXIT_USAGE;
	}
	if (caps && parse_capset(caps, &a->l.caps, bad, sizeof(bad))) {
		if (*bad && cap_suggest(bad, near))
			p_err("unknown capability '%s' in --caps %s (did you mean %s?)", bad, caps,
			      near);
		else if (*bad)
			p_err("unknown capability '%s' in --caps %s", bad, caps);
		else
			p_err("an empty capability name in --caps '%s'", caps);
		return EXIT_USAGE;
	}
	a->l.set_caps = caps != NULL;
	/* where the kernel makes it a boundary, the command cannot leave the
	 * cgroup it starts in (verify's: a run's own) */
	a->l.cgroupns = cgroup_v2_nsdelegate();
	if (a->service) {
		if (a->user || a->l.keep_path || optind < argc) {
			p_err("--service runs the unit's ExecStart= as its User= with its environment: "
			      "give no %s", a->user ? "--user" : a->l.keep_path ? "--keep-path" :
			      "COMMAND");
			return EXIT_USAGE;
		}
		if (!strcmp(a->o.out, "-")) {
			p_err("run -o -: run reads its record back to report on it; give a file");
			return EXIT_USAGE;
		}
		return CLI_GO_ON;
	}
	if (a->l.keep_path && !a->user) {
		p_err("--keep-path keeps the caller's PATH instead of --user's login PATH: give --user");
		return EXIT_USAGE;
	}
	if (a->user && launch_resolve_user(a->user, &a->l)) {
		p_err("--user %s: no such user", a->user);
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		p_err("run needs a command: capaudit run --caps ... -- COMMAND");
		return EXIT_USAGE;
	}
	if (!strcmp(a->o.out, "-")) {
		p_err("run -o -: run reads its record back to report on it; give a file");
		return EXIT_USAGE;
	}
	a->o.cmd = &argv[optind];
	return CLI_GO_ON;
}

/* Setting another process's sets takes more than recording does, and a
 * capability outside capaudit's own bounding set cannot be handed on (a
 * container, or a machine that dropped some): say which, up front. */
static int can_hand_on(const struct run_args *a)
{
	struct privs pv;
	char name[CAP_NAME_LEN];
	int cap;

	if (privs_read(&pv) || !launch_privileged(&pv, a->user)) {
		p_err("run %s needs root (CAP_SETPCAP%s) to set the command's capabilities",
		      a->service ? "--service" : "--caps", a->user ? ", CAP_SETUID, CAP_SETGID" : "");
		return EXIT_FAIL;
	}
	if (!(a->l.caps & ~(pv.bnd & pv.prm)))
		return 0;
	cap = __builtin_ctzll(a->l.caps & ~(pv.bnd & pv.prm));
	p_err("--caps: %s is not in capaudit's own %s set, so the command cannot be given it",
	      cap_name(cap, name), pv.bnd & CAP_BIT(cap) ? "permitted" : "bounding");
	return EXIT_FAIL;
}

/* Record the command under the set; 0 when there is a record to judge. */
static int record_under_set(struct run_args *a, int all_argc, char **all_argv)
{
	a->o.launch = &a->l;
	a->o.syscall_results = true;   /* the point of run: which denials blocked */
	a->o.stop_started = true;      /* nothing it started outlives run */
	a->o.cmd_stdout_to_stderr = a->fmt == &output_json;   /* stdout is the report's */
	record_run(&a->o, all_argc, all_argv);
	if (a->o.stop_signal) {
		/* cut short: neither enough nor not enough */
		fprintf(stderr, "capaudit run: interrupted by %s: no verdict%s%s\n",
			sig_name(a->o.stop_signal), a->o.recorded ? "; the record so far is in " : "",
			a->o.recorded ? a->o.out : "");
		return 128 + a->o.stop_signal;
	}
	/* the kernel refused to start it with this set (a file with
	 * capabilities and its effective bit needs them in the bounding set:
	 * EPERM): not enough, and no record */
	if (!a->o.recorded && a->o.exec_errno == EPERM) {
		fprintf(stderr, "capaudit: this set is not enough: the kernel refused to execute "
			"%s with it\n", a->o.cmd[0]);
		return EXIT_FAIL;
	}
	if (!a->o.recorded)
		return EXIT_USAGE;   /* no verdict: record said why */
	return 0;
}

/* Read the record back, judge it and print the verdict. */
static int verdict(const struct run_args *a)
{
	struct run_result rr = { 0 };
	struct suggestion sg;
	struct record rec;
	char err[1024], uidname[32];

	if (recfile_load(a->o.out, &rec, err, sizeof(err))) {
		p_err("%s", err);
		return EXIT_FAIL;
	}
	suggest_build(&rec, &a->so, &sg);
	rr.cmd = a->o.cmd;
	rr.caps = a->service ? service_granted(&a->svc) : a->l.caps;
	if (a->l.set_user && !a->l.user)   /* a bare uid without a passwd entry */
		snprintf(uidname, sizeof(uidname), "uid %u", a->l.uid);
	rr.user = !a->l.set_user ? NULL : a->l.user ? a->l.user : uidname;
	if (a->service) {
		rr.service = a->svc.unit.name;
		rr.user = a->svc.unit.user && a->svc.set_user ? a->svc.unit.user : NULL;
	}
	rr.exit_status = a->o.cmd_status;
	rr.check = a->check;
	rr.check_status = a->check ? run_check(a->check) : 0;
	/* by what the kernel did, not only the exit status (analyze/verdict.h) */
	run_verdict(&sg, rr.exit_status, a->check || a->exit_judges, rr.check_status, ~0ULL,
		    &rr.verdict);
	rr.enough = rr.verdict.v == RV_ENOUGH;
	rr.record = a->o.out;
	rr.sg = &sg;
	if (a->fmt->run(stdout, &rr) || fflush(stdout))
		p_err("cannot write the report: output error");
	suggest_free(&sg);
	record_free(&rec);
	return rr.enough ? EXIT_OK : EXIT_FAIL;
}

/* --service: the unit's first command is the command, started as the unit
 * says with the set (record/service.c) */
static int prepare_service(struct run_args *a)
{
	struct service_opts so = { .quiet = a->o.quiet, .set_caps = a->l.set_caps,
				   .caps = a->l.caps };
	int rc = service_prepare(a->service, &so, &a->svc);

	if (rc)
		return rc;
	a->l.service = &a->svc;
	a->o.service = &a->svc;
	a->o.cmd = a->svc.unit.exec[0].argv;
	return 0;
}

int do_run(int argc, char **argv, int all_argc, char **all_argv)
{
	struct run_args a = { 0 };
	int rc;

	if ((rc = parse_args(argc, argv, &a)) != CLI_GO_ON || (rc = can_hand_on(&a)) ||
	    (a.service && (rc = prepare_service(&a))))
		return rc;
	rc = record_under_set(&a, all_argc, all_argv);
	if (!rc)
		rc = verdict(&a);
	if (a.service)
		service_free(&a.svc);
	return rc;
}
