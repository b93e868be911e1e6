// SPDX-License-Identifier: GPL-2.0
/* capaudit report: read a record file and print what it shows. */
#include "cli/cmd_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "lib/msg.h"
#include "lib/infile.h"
#include "output/output.h"
#include "record/privs.h"
#include "recfile/recfile.h"
#include "recfile/load.h"
#include "analyze/attrib.h"
#include "analyze/report.h"
#include "analyze/suggest.h"

enum { O_NOAUDIT = CLI_LONG_ONLY, O_SUGGEST, O_EMIT, O_PROGRAM, O_LENIENT, O_BY, O_CONTAINER,
       O_UNIT };

static const struct cli_opt report_opts[] = {
	{ "input", 'i', required_argument, "FILE", "record file (default " DEFAULT_RECORD ")",
	  NULL, CLI_ARG_FILE },
	{ "format", 'f', required_argument, "FORMAT", "text (default) or json", NULL,
	  CLI_ARG_FORMAT },
	{ "noaudit", O_NOAUDIT, no_argument, NULL,
	  "include noaudit checks (kernel probing, never required)", NULL, CLI_ARG_ANY },
	/* its old name: record --all means the whole system */
	{ "all", 'a', no_argument, NULL, "deprecated alias of --noaudit", NULL, CLI_ARG_ANY },
	{ "by", O_BY, required_argument, "MODE",
	  "process (the default: a block per process image), program (a block per "
	  "executable), container, unit or cgroup",
	  "(per workload, in it per program: its processes and checks); user-site, also "
	  "given, groups the checks by the place in the program's own code that led to them "
	  "(a record made with --user-stacks)", CLI_ARG_BY },
	{ "container", O_CONTAINER, required_argument, "X",
	  "only the processes of the container X: its id, a unique id prefix",
	  "(3 hex digits or more) or its name; with --suggest and --emit too", CLI_ARG_ANY },
	{ "unit", O_UNIT, required_argument, "NAME",
	  "only the processes of the systemd unit NAME (cron: cron.service);",
	  "with --suggest and --emit too", CLI_ARG_ANY },
	{ "suggest", O_SUGGEST, no_argument, NULL,
	  "least privilege: the required set, CAP_SYS_ADMIN's replacements",
	  "(and the sites that keep CAP_SYS_ADMIN, the denials)", CLI_ARG_ANY },
	{ "emit", O_EMIT, required_argument, "KIND",
	  "only a ready snippet granting the required set",
	  "(KIND: setcap, systemd, docker, compose, kubernetes or capsh)", CLI_ARG_EMIT },
	{ "program", O_PROGRAM, required_argument, "NAME",
	  "only program images whose name or executable is NAME", "(with --suggest or --emit)",
	  CLI_ARG_ANY },
	{ "lenient", O_LENIENT, no_argument, NULL,
	  "read what is valid in a damaged record file",
	  "and say what was skipped (default: any fault is an error)", CLI_ARG_ANY },
	{ 0 },
};

static const struct cli_cmd report_cmd = {
	.name = "report",
	.synopsis = "capaudit report [-i FILE] [--format text|json] [--noaudit]\n"
		    "                [--by process|program|container|unit|cgroup] [--by user-site]\n"
		    "                [--container X] [--unit NAME]\n"
		    "capaudit report --suggest [-i FILE] [--format text|json] [--program NAME]\n"
		    "                [--container X] [--unit NAME]\n"
		    "capaudit report --emit setcap|systemd|docker|compose|kubernetes|capsh [-i FILE]\n"
		    "                [--container X] [--unit NAME]",
	.opts = report_opts,
};

/* What the command line asks for. */
struct report_args {
	const char *in, *emit;
	const struct formatter *fmt;
	bool suggest, lenient;
	struct report_opts ro;
	struct suggest_opts so;
	struct workload_filter wf;
	bool by_set;             /* a --by other than user-site was given */
};

/* --by MODE: one roll-up (process, program, container, unit, cgroup), and user-site
 * besides it. 0, or -1 after saying what is wrong. */
static int by_opt(struct report_args *a, const char *mode)
{
	enum report_by by;

	if (!strcmp(mode, "user-site")) {
		a->ro.by_user_site = true;
		return 0;
	}
	if (!report_by_parse(mode, &by)) {
		p_err("unknown --by '%s' (process, program, container, unit, cgroup, user-site)",
		      mode);
		return -1;
	}
	if (a->by_set && by != a->ro.by) {
		p_err("--by %s and --by %s: one roll-up at a time", report_by_name(a->ro.by), mode);
		return -1;
	}
	a->ro.by = by;
	a->by_set = true;
	return 0;
}

/* One option of the table; 0, or -1 after saying what is wrong. */
static int report_opt(struct report_args *a, int c, const char **fmt_name)
{
	switch (c) {
	case 'i':
		a->in = optarg;
		break;
	case 'f':
		*fmt_name = optarg;
		break;
	case O_NOAUDIT:
	case 'a':
		a->ro.noaudit = true;
		break;
	case O_SUGGEST:
		a->suggest = true;
		break;
	case O_EMIT:
		a->emit = optarg;
		break;
	case O_PROGRAM:
		a->so.program = optarg;
		break;
	case O_LENIENT:
		a->lenient = true;
		break;
	case O_BY:
		return by_opt(a, optarg);
	case O_CONTAINER:
		a->wf.container = optarg;
		break;
	case O_UNIT:
		a->wf.unit = optarg;
		break;
	}
	return 0;
}

/* CLI_GO_ON to go on and report, else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, struct report_args *a)
{
	const char *fmt_name = "text";
	struct cli_getopt g;
	size_t k;
	int c;

	memset(a, 0, sizeof(*a));
	a->in = DEFAULT_RECORD;
	cli_getopt_init(&g, &report_cmd);
	while ((c = cli_next(&g, argc, argv)) >= 0)
		if (report_opt(a, c, &fmt_name))
			return EXIT_USAGE;
	if (c != CLI_END)
		return cli_exit_status(c);
	a->fmt = formatter_select(fmt_name, FOR_REPORT);
	if (!a->fmt)
		return EXIT_USAGE;
	if (optind < argc) {
		p_err("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (a->emit) {
		for (k = 0; emit_kinds[k] && strcmp(emit_kinds[k], a->emit); k++)
			;
		if (!emit_kinds[k]) {
			p_err("unknown --emit kind '%s' (setcap, systemd, docker, compose, "
			      "kubernetes, capsh)", a->emit);
			return EXIT_USAGE;
		}
		a->suggest = true;
	}
	if (a->so.program && !a->suggest) {
		p_err("--program goes with --suggest or --emit");
		return EXIT_USAGE;
	}
	if (a->suggest && a->ro.by != BY_PROCESS) {
		p_err("--by %s goes with the report, not --suggest or --emit (--container or "
		      "--unit chooses a workload for those)", report_by_name(a->ro.by));
		return EXIT_USAGE;
	}
	return CLI_GO_ON;
}

int do_report(int argc, char **argv, int all_argc, char **all_argv)
{
	struct report_args a;
	const char *in;
	struct record rec;
	struct report rep;
	char err[1024];
	FILE *f;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc != CLI_GO_ON)
		return rc;
	in = a.in;
	/* opened with the caller's rights, parsed with none: the record is
	 * untrusted input */
	f = infile_open(in, err, sizeof(err));
	if (!f) {
		p_err("%s", err);
		return EXIT_USAGE;
	}
	if (privs_drop_all(err, sizeof(err))) {
		p_err("%s", err);
		infile_close(f);
		return EXIT_FAIL;
	}
	if (!strcmp(in, "-"))
		in = "standard input";   /* its name in messages and the report */
	rc = load_record_file(f, in, a.lenient, &rec);
	infile_close(f);
	if (rc)
		return EXIT_USAGE;
	/* every view below sees only the workload asked for */
	if (record_keep_workload(&rec, &a.wf, err, sizeof(err))) {
		p_err("%s: %s", in, err);
		record_free(&rec);
		return EXIT_USAGE;
	}
	if (a.suggest) {
		struct suggestion sg;

		suggest_build(&rec, &a.so, &sg);
		if (a.so.program && !sg.images_matched) {
			p_err("--program %s: no program of that name in %s", a.so.program, in);
			rc = -2;
		} else {
			rc = a.emit ? emit_snippet(stdout, a.emit, &sg) : a.fmt->suggest(stdout, &sg, in);
		}
		suggest_free(&sg);
	} else {
		report_build(&rec, &a.ro, &rep);
		rc = a.fmt->report(stdout, &rep, in);
		report_free(&rep);
	}
	record_free(&rec);
	if (rc == -2)
		return EXIT_USAGE;
	if (fflush(stdout) || rc) {
		p_err("cannot write the report: output error");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
