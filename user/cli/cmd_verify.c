// SPDX-License-Identifier: GPL-2.0
/* capaudit verify: its options, verify_prove() (engines/verify.c), the output. */
#include "cli/cmd_verify.h"

#include <stdio.h>
#include <string.h>

#include "analyze/views.h"
#include "cli/options.h"
#include "facts/attach.h"
#include "facts/capnames.h"
#include "lib/msg.h"
#include "lib/outfile.h"
#include "lib/util.h"
#include "output/output.h"
#include "record/launch.h"
#include "record/service.h"
#include "tracer/privs.h"
#include "engines/verify.h"

#define MAX_EMIT 6   /* every kind once */

enum { O_KEEP_PATH = CLI_LONG_ONLY, O_SERVICE, O_EMIT_TO };

/* What the command line asked for. */
struct verify_args {
	struct verify_opts v;
	const char *fmt_name;    /* --format, until formatter_select() */
	const struct formatter *fmt;
	const char *emit[MAX_EMIT];
	size_t nemit;
	const char *from;        /* --from CAPS, or NULL: the caller's privileges */
	uint64_t from_caps;
	const char *service;     /* --service UNIT|FILE, or NULL */
	struct service svc;      /* it, resolved once (the runs resolve it again) */
	bool have_svc;
	const char *emit_to;     /* --emit-to FILE, or NULL */
	struct outfile out;      /* it, open from the start */
	bool out_open;
};

#define A struct verify_args

static const struct cli_opt verify_opts[] = {
	{ "service", O_SERVICE, required_argument, "UNIT|FILE",
	  "prove a unit's ExecStart= as its file and drop-ins configure it",
	  "(a file, or a unit name on systemd's unit path: run as its User=, with its groups, "
	  "environment and NoNewPrivileges=; the first run has the unit's own sets, every "
	  "other a set within what it grants; docs/service.md)", CLI_ARG_UNITFILE,
	  CLI_STRING(A, service) },
	{ "user", 'u', required_argument, "USER", "run every time as USER (name or uid)",
	  "(with USER's HOME, USER, LOGNAME and login PATH)", CLI_ARG_USER, CLI_STRING(A, v.user) },
	{ "keep-path", O_KEEP_PATH, no_argument, NULL,
	  "with --user: keep the caller's PATH instead of USER's login PATH",
	  "(for a program that runs tools from directories only the caller's PATH has, such "
	  "as /usr/sbin)", CLI_ARG_ANY, CLI_FLAG(A, v.keep_path) },
	{ "check", 'C', required_argument, "TEST",
	  "success is COMMAND exiting 0 and sh -c TEST exiting 0",
	  "(TEST runs as the caller after each run)", CLI_ARG_ANY, CLI_STRING(A, v.check) },
	{ "exit-judges", 'J', no_argument, NULL,
	  "COMMAND's exit status says whether it did its job (a script that checks it)",
	  "(a refusal it went on from then counts only if it fails, as with --check)",
	  CLI_ARG_ANY, CLI_FLAG(A, v.exit_judges) },
	{ "emit", 'e', required_argument, "KIND",
	  "also print a snippet of KIND for the proven set",
	  "(setcap, systemd, docker, compose, kubernetes or capsh; may be repeated)", CLI_ARG_EMIT,
	  CLI_CUSTOM },
	{ "emit-to", O_EMIT_TO, required_argument, "FILE",
	  "write the one --emit snippet to FILE, alone, instead of into the report",
	  "(- for standard output: the report then goes to standard error; written only "
	  "when a set is proven, whole or not at all)", CLI_ARG_FILE, CLI_STRING(A, emit_to) },
	{ "from", 'F', required_argument, "CAPS",
	  "start from these capabilities instead of all the caller's (CAP[,CAP...] or none)",
	  "(for a program that fails holding more than it needs; every run's set is within them)",
	  CLI_ARG_CAPS, CLI_STRING(A, from) },
	{ "program", 'p', required_argument, "NAME",
	  "start from what that program of the tree needs (comm or exe)", NULL, CLI_ARG_ANY,
	  CLI_STRING(A, v.program) },
	{ "format", 'f', required_argument, "FORMAT", "text (default) or json",
	  "(the command's output goes to standard error)", CLI_ARG_FORMAT,
	  CLI_STRING(A, fmt_name) },
	{ "attach", 'A', required_argument, "MODE[,MODE...]", "as record --attach", NULL, CLI_ARG_ATTACH,
	  CLI_CUSTOM },
	{ "max-runs", 'm', required_argument, "N",
	  "give up after N runs (default 10 and 2 per capability the caller holds)", NULL,
	  CLI_ARG_ANY, CLI_INT(A, v.max_runs, 2, 1000, "--max-runs '%s': a number from 2 to 1000") },
	{ "timeout", 't', required_argument, "SECONDS",
	  "stop a run that takes longer, with all it started (default 120)",
	  "(the run counts as failed)", CLI_ARG_ANY,
	  CLI_SECONDS(A, v.timeout, 0, 86400, "--timeout '%s': seconds, more than 0 and at most 86400") },
	{ "keep", 'k', required_argument, "DIR",
	  "keep every run's record in DIR (created; default: removed)", NULL, CLI_ARG_DIR,
	  CLI_STRING(A, v.keep_dir) },
	{ "quiet", 'q', no_argument, NULL, "no progress lines on standard error", NULL,
	  CLI_ARG_ANY, CLI_FLAG(A, v.quiet) },
	{ 0 },
};

#undef A

static const struct cli_cmd verify_cmd = {
	.name = "verify",
	.synopsis = "capaudit verify [OPTIONS] -- COMMAND [ARGS...]\n"
		    "capaudit verify [OPTIONS] --service UNIT|FILE.service",
	.about = "  find the capability set COMMAND needs, with the kernel as the judge: record it\n"
		 "  with the caller's privileges, run it under exactly the suggested set, add what\n"
		 "  blocking denials reveal until it succeeds, then drop each member in turn and\n"
		 "  keep only those whose removal makes it fail.\n",
	.opts = verify_opts,
	.tail = "  Each run has a cgroup of its own: what it leaves running is named and stopped.\n"
		"  Exit status: 0 a set was proven, 1 none works (or COMMAND fails even with the\n"
		"  caller's privileges), 2 usage errors, 128+N stopped by signal N (SIGINT,\n"
		"  SIGTERM, SIGHUP, SIGPIPE): no verdict.\n",
	.in_order = 1,
};


/* --emit KIND, once more. */
static int add_emit(struct verify_args *a, const char *kind)
{
	size_t i;

	for (i = 0; emit_kinds[i] && strcmp(emit_kinds[i], kind); i++)
		;
	if (!emit_kinds[i]) {
		p_err("unknown --emit kind '%s' (setcap, systemd, docker, compose, kubernetes, "
		      "capsh)", kind);
		return EXIT_USAGE;
	}
	if (a->nemit == MAX_EMIT) {
		p_err("--emit: at most %d kinds", MAX_EMIT);
		return EXIT_USAGE;
	}
	a->emit[a->nemit++] = kind;
	return 0;
}

/* Options and operands: CLI_GO_ON, or the exit status (EXIT_OK after --help). */
static int parse_args(int argc, char **argv, struct verify_args *a)
{
	struct attach_list modes;
	struct cli_getopt g;
	struct launch l = { 0 };
	int c;

	a->fmt_name = "text";
	cli_getopt_init(&g, &verify_cmd, a);
	while ((c = cli_next(&g, argc, argv)) >= 0) {
		switch (c) {
		case 'A':   /* checked, and handed on as given */
			if (cli_attach_arg(optarg, &modes))
				return EXIT_USAGE;
			a->v.attach = optarg;
			break;
		case 'e':
			if (add_emit(a, optarg))
				return EXIT_USAGE;
			break;
		}
	}
	if (c != CLI_END)
		return cli_exit_status(c);
	a->fmt = formatter_select(a->fmt_name, FOR_VERIFY);
	if (!a->fmt)
		return EXIT_USAGE;
	if (a->emit_to && a->nemit != 1) {
		p_err("--emit-to writes one snippet: give one --emit KIND");
		return EXIT_USAGE;
	}
	if (a->service) {
		if (optind < argc || a->v.user || a->v.keep_path) {
			p_err("--service proves the unit's ExecStart=, as its User=: give no %s",
			      optind < argc ? "COMMAND" : a->v.user ? "--user" : "--keep-path");
			return EXIT_USAGE;
		}
	} else if (optind >= argc) {
		p_err("verify needs a command: capaudit verify [OPTIONS] -- COMMAND (or --service "
		      "UNIT)");
		return EXIT_USAGE;
	} else {
		a->v.cmd = &argv[optind];
	}
	if (a->from) {
		char bad[64], near[64];

		if (parse_capset(a->from, &a->from_caps, bad, sizeof(bad))) {
			if (*bad && cap_suggest(bad, near))
				p_err("unknown capability '%s' in --from %s (did you mean %s?)", bad,
				      a->from, near);
			else if (*bad)
				p_err("unknown capability '%s' in --from %s", bad, a->from);
			else
				p_err("an empty capability name in --from '%s'", a->from);
			return EXIT_USAGE;
		}
	}
	if (a->v.keep_path && !a->v.user) {
		p_err("--keep-path keeps the caller's PATH instead of --user's login PATH: give --user");
		return EXIT_USAGE;
	}
	if (a->v.user && launch_resolve_user(a->v.user, &l)) {
		p_err("--user %s: no such user", a->v.user);
		return EXIT_USAGE;
	}
	return CLI_GO_ON;
}

/* Every run sets its command's sets: root's work. What capaudit holds
 * (permitted and bounding) is all it can hand on. */
static int can_set_sets(struct verify_args *a)
{
	struct privs pv;

	if (privs_read(&pv) || !launch_privileged(&pv, a->v.user)) {
		p_err("verify needs root (CAP_SETPCAP%s) to run the command with each set",
		      a->v.user ? ", CAP_SETUID, CAP_SETGID" : "");
		return EXIT_FAIL;
	}
	a->v.all = pv.prm & pv.bnd;
	if (a->service) {
		/* the unit as its files say, once: which files, what they do not
		 * apply (its runs say nothing of it again) */
		int rc = service_prepare(a->service, NULL, &a->svc);

		if (rc)
			return rc;
		a->have_svc = true;
		a->v.service = a->service;
		a->v.service_name = a->svc.name;
		a->v.cmd = a->svc.unit.exec[0].argv;
		a->v.all &= service_granted(&a->svc);
	}
	if (a->from) {
		char name[CAP_NAME_LEN];

		if (a->from_caps & ~a->v.all) {
			p_err("--from: %s is not capaudit's own to hand on",
			      cap_name(__builtin_ctzll(a->from_caps & ~a->v.all), name));
			return EXIT_FAIL;
		}
		a->v.all = a->from_caps;
		a->v.from = true;
	}
	return 0;
}

/* --emit-to: the file is opened before anything runs (a directory, a
 * dangling symlink: refused at once), and written whole, or not at all. */
static int open_emit_to(struct verify_args *a)
{
	char err[1200];

	if (!a->emit_to)
		return 0;
	if (outfile_open(&a->out, a->emit_to, 0, err, sizeof(err))) {
		p_err("--emit-to %s", err);
		return EXIT_USAGE;
	}
	a->out_open = true;
	return 0;
}

/* The one snippet into --emit-to's file, once a set is proven; else
 * nothing of it stays. 0, or -1 (said). */
static int write_emit_to(struct verify_args *a, const struct verify_result *res, int rc)
{
	char msg[1200];
	int wrc;

	if (!a->out_open)
		return 0;
	a->out_open = false;
	if (rc || !res->proven || !res->sg || verify_signal()) {
		outfile_discard(&a->out);
		return 0;
	}
	wrc = emit_snippet(a->out.f, a->emit[0], res->sg);
	if (outfile_finish(&a->out, wrc, msg, sizeof(msg))) {
		p_err("--emit-to: %s", msg);
		return -1;
	}
	return 0;
}

/* The search (engines/verify.c), then the proven set printed. */
static int prove_and_print(struct verify_args *a)
{
	/* with the snippet on standard output, the report goes beside the
	 * progress lines */
	FILE *rep = a->emit_to && !strcmp(a->emit_to, "-") ? stderr : stdout;
	struct verify_result res;
	struct verify *vr = NULL;
	char err[1024];
	int rc, wrc;

	rc = verify_prove(&a->v, &vr, err, sizeof(err));
	/* the records go before the report: a closed pipe may cut it short */
	verify_cleanup(vr);
	if (rc < 0) {
		p_err("%s", err);
		write_emit_to(a, verify_result(vr), rc);
		verify_free(vr);
		return EXIT_USAGE;
	}
	res = *verify_result(vr);
	res.emit = a->emit;
	res.nemit = a->emit_to ? 0 : a->nemit;
	if (a->have_svc) {
		res.service = a->svc.unit.name;
		res.service_name = a->svc.name;
		res.service_user = a->svc.set_user && a->svc.uid ? a->svc.unit.user : NULL;
		res.service_granted = service_granted(&a->svc);
	}
	wrc = write_emit_to(a, &res, rc);
	if (!wrc && a->emit_to && res.proven)
		res.emitted_to = a->emit_to;
	if ((a->fmt->verify(rep, &res) || fflush(rep)) && !verify_signal())
		p_err("cannot write the report: output error");
	verify_free(vr);
	if (verify_signal())   /* the report says "interrupted: no verdict" */
		return 128 + verify_signal();
	return wrc ? EXIT_USAGE : rc ? EXIT_FAIL : EXIT_OK;
}

int do_verify(int argc, char **argv, int all_argc, char **all_argv)
{
	struct verify_args a = { 0 };
	int rc;

	(void)all_argc;
	(void)all_argv;
	if ((rc = parse_args(argc, argv, &a)) == CLI_GO_ON && !(rc = can_set_sets(&a)) &&
	    !(rc = open_emit_to(&a)))
		rc = prove_and_print(&a);
	if (a.out_open)
		outfile_discard(&a.out);
	if (a.have_svc)
		service_free(&a.svc);
	return rc;
}
