// SPDX-License-Identifier: GPL-2.0
/* capaudit report: read record files (several merge into one record) and
 * print what they show. */
#include "cli/cmd_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "facts/capnames.h"
#include "lib/msg.h"
#include "lib/infile.h"
#include "lib/util.h"
#include "output/output.h"
#include "tracer/privs.h"
#include "recfile/recfile.h"
#include "recfile/load.h"
#include "analyze/attrib.h"
#include "analyze/fleet.h"
#include "analyze/recview.h"
#include "analyze/report.h"
#include "analyze/suggest.h"

enum { O_NOAUDIT = CLI_LONG_ONLY, O_SUGGEST, O_EMIT, O_PROGRAM, O_LENIENT, O_BY, O_CONTAINER,
       O_UNIT, O_CAP, O_PID, O_FLEET };

/* What the command line asks for. */
struct report_args {
	const char **in;         /* the record files, in the order given */
	size_t nin;
	const char *emit;
	const char *fmt_name;    /* --format, until formatter_select() */
	const struct formatter *fmt;
	bool suggest, lenient;
	bool fleet;              /* --fleet: per program build over the records */
	struct report_opts ro;
	struct suggest_opts so;
	struct workload_filter wf;
	uint32_t *pids;          /* --pid, as given (wf.pids) */
	uint64_t caps;           /* --cap: 0, every capability */
	bool by_set;             /* a --by other than user-site was given */
	bool defaulted;          /* no record named: DEFAULT_RECORD */
};

#define A struct report_args

static const struct cli_opt report_opts[] = {
	{ "input", 'i', required_argument, "FILE", "record file (default " DEFAULT_RECORD ");",
	  "given again, or as operands, several records merge into one report (records "
	  "copied from many nodes; - is standard input, once)", CLI_ARG_FILE,
	  CLI_LIST(A, in, nin) },
	{ "format", 'f', required_argument, "FORMAT", "text (default), json or html",
	  "(html: one self-contained page with the report, the suggestion and the call "
	  "paths)", CLI_ARG_FORMAT, CLI_STRING(A, fmt_name) },
	{ "noaudit", O_NOAUDIT, no_argument, NULL,
	  "include noaudit checks (kernel probing, never required)", NULL, CLI_ARG_ANY,
	  CLI_FLAG(A, ro.noaudit) },
	/* its old name: record --all means the whole system */
	{ "all", 'a', no_argument, NULL, "deprecated alias of --noaudit", NULL, CLI_ARG_ANY,
	  CLI_FLAG(A, ro.noaudit) },
	{ "by", O_BY, required_argument, "MODE",
	  "process (the default: a block per process image), program (a block per "
	  "executable), container, unit or cgroup",
	  "(per workload, in it per program: its processes and checks); user-site, also "
	  "given, groups the checks by the place in the program's own code that led to them "
	  "(a record made with --user-stacks)", CLI_ARG_BY, CLI_CUSTOM },
	{ "container", O_CONTAINER, required_argument, "X",
	  "only the processes of the container X: its id, a unique id prefix",
	  "(3 hex digits or more) or its name; with --suggest and --emit too", CLI_ARG_ANY,
	  CLI_STRING(A, wf.container) },
	{ "unit", O_UNIT, required_argument, "NAME",
	  "only the processes of the systemd unit NAME (cron: cron.service);",
	  "with --suggest and --emit too", CLI_ARG_ANY, CLI_STRING(A, wf.unit) },
	{ "pid", O_PID, required_argument, "PID",
	  "only the process PID (each of its images: after execve too);",
	  "given again, or PID,PID..., several; with --suggest and --emit too", CLI_ARG_ANY,
	  CLI_CUSTOM },
	{ "cap", O_CAP, required_argument, "CAP",
	  "only checks of the capability CAP (CAP_SYS_ADMIN, sys_admin or 21);",
	  "given again, or CAP,CAP..., several, and only the processes that made one; with "
	  "--suggest, what is about them (a replacement of CAP_SYS_ADMIN with both)",
	  CLI_ARG_CAPNAMES, CLI_CUSTOM },
	{ "suggest", O_SUGGEST, no_argument, NULL,
	  "least privilege: the required set, CAP_SYS_ADMIN's replacements",
	  "(and the sites that keep CAP_SYS_ADMIN, the denials)", CLI_ARG_ANY,
	  CLI_FLAG(A, suggest) },
	{ "emit", O_EMIT, required_argument, "KIND",
	  "only a ready snippet granting the required set",
	  "(KIND: setcap, systemd, docker, compose, kubernetes or capsh)", CLI_ARG_EMIT,
	  CLI_STRING(A, emit) },
	{ "program", O_PROGRAM, required_argument, "NAME",
	  "only program images whose name or executable is NAME", "(with --suggest or --emit)",
	  CLI_ARG_ANY, CLI_STRING(A, so.program) },
	{ "fleet", O_FLEET, no_argument, NULL,
	  "per program build (executable and build id) over records of many hosts:",
	  "on how many hosts and in how many processes it ran, first and last seen, its "
	  "required set and since when that set has not changed (a host's records taken at "
	  "different times are ordered by time)", CLI_ARG_ANY, CLI_FLAG(A, fleet) },
	{ "lenient", O_LENIENT, no_argument, NULL,
	  "read what is valid in a damaged record file",
	  "and say what was skipped (default: any fault is an error)", CLI_ARG_ANY,
	  CLI_FLAG(A, lenient) },
	{ 0 },
};

#undef A

static const struct cli_cmd report_cmd = {
	.name = "report",
	.synopsis = "capaudit report [-i FILE]... [--format text|json|html] [--noaudit]\n"
		    "                [--by process|program|container|unit|cgroup] [--by user-site]\n"
		    "                [--container X] [--unit NAME] [--pid PID] [--cap CAP]\n"
		    "                [FILE...]\n"
		    "capaudit report --suggest [-i FILE]... [--format text|json|html] [--program NAME]\n"
		    "                [--container X] [--unit NAME] [--pid PID] [--cap CAP]\n"
		    "                [FILE...]\n"
		    "capaudit report --emit setcap|systemd|docker|compose|kubernetes|capsh\n"
		    "                [-i FILE]... [--container X] [--unit NAME] [--pid PID]\n"
		    "                [FILE...]\n"
		    "capaudit report --fleet [-i FILE]... [--format text|json|html] [FILE...]",
	.about = "  every record given (-i FILE, or FILE) is read; several merge into one report\n"
		 "  (docs/report.md: counts add up, each file's header is listed, processes\n"
		 "  are marked with their file).\n",
	.opts = report_opts,
	.operands_inline = 1,
	.operands = CLI_ARG_FILE,
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

/* --pid PID[,PID...]: each a pid, strictly; 0, or -1 after saying which. */
static int pid_opt(struct report_args *a, const char *arg)
{
	const char *p = arg;

	for (;;) {
		size_t n = strcspn(p, ",");
		char tok[16] = "";
		uint32_t pid = 0;

		if (n < sizeof(tok))
			memcpy(tok, p, n);
		if (!n || n >= sizeof(tok) || parse_u32(tok, &pid) || !pid) {
			p_err("--pid %s: '%.*s' is not a pid (a number from 1)", arg, (int)n, p);
			return -1;
		}
		a->pids = xrealloc(a->pids, (a->wf.npids + 1) * sizeof(*a->pids));
		a->pids[a->wf.npids++] = pid;
		if (!p[n])
			break;
		p += n + 1;
	}
	a->wf.pids = a->pids;
	return 0;
}

/* --cap CAP[,CAP...]; 0, or -1 after naming what is not a capability. */
static int cap_opt(struct report_args *a, const char *arg)
{
	char bad[64], near[CAP_NAME_LEN];

	if (!cap_list_parse(arg, &a->caps, bad, sizeof(bad))) {
		a->ro.only = a->caps;
		return 0;
	}
	if (*bad && cap_suggest(bad, near))
		p_err("--cap %s: unknown capability '%s' (did you mean %s?)", arg, bad, near);
	else if (*bad)
		p_err("--cap %s: unknown capability '%s' (a name as CAP_SYS_ADMIN or sys_admin, "
		      "or a number 0-63)", arg, bad);
	else
		p_err("--cap '%s': an empty capability name", arg);
	return -1;
}

static void add_input(struct report_args *a, const char *path)
{
	a->in = xrealloc(a->in, (a->nin + 1) * sizeof(*a->in));
	a->in[a->nin++] = path;
}

/* The inputs: those given (operands after "--" too), else the default
 * record; standard input at most once. 0, or -1 after saying why. */
static int finish_inputs(struct report_args *a, int argc, char **argv)
{
	size_t k, stdin_n = 0;

	for (; optind < argc; optind++)
		add_input(a, argv[optind]);
	if (!a->nin) {
		add_input(a, DEFAULT_RECORD);
		a->defaulted = true;
	}
	for (k = 0; k < a->nin; k++)
		stdin_n += !strcmp(a->in[k], "-");
	if (stdin_n > 1) {
		p_err("'-' (standard input) given %zu times: it can be read once", stdin_n);
		return -1;
	}
	return 0;
}

/* The options of the table with a parser of their own, and operands (the
 * inputs -i FILE also names); 0, or -1 after saying what is wrong. */
static int report_opt(struct report_args *a, int c)
{
	switch (c) {
	case CLI_OPERAND:
		add_input(a, optarg);
		return 0;
	case O_BY:
		return by_opt(a, optarg);
	case O_PID:
		return pid_opt(a, optarg);
	case O_CAP:
		return cap_opt(a, optarg);
	}
	return 0;
}

/* CLI_GO_ON to go on and report, else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, struct report_args *a)
{
	struct cli_getopt g;
	size_t k;
	int c;

	memset(a, 0, sizeof(*a));
	a->fmt_name = "text";
	cli_getopt_init(&g, &report_cmd, a);
	while ((c = cli_next(&g, argc, argv)) >= 0)
		if (report_opt(a, c))
			return EXIT_USAGE;
	if (c != CLI_END)
		return cli_exit_status(c);
	a->fmt = formatter_select(a->fmt_name, FOR_REPORT);
	if (!a->fmt)
		return EXIT_USAGE;
	if (finish_inputs(a, argc, argv))
		return EXIT_USAGE;
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
	if (a->caps && a->emit) {
		p_err("--cap goes with the report and --suggest, not --emit: a snippet grants "
		      "the whole required set");
		return EXIT_USAGE;
	}
	if (a->fleet && (a->suggest || a->by_set || a->ro.by_user_site || a->wf.container ||
			 a->wf.unit || a->wf.npids || a->caps || a->so.program || a->ro.noaudit)) {
		p_err("--fleet goes alone with --format and --lenient: it gives each program "
		      "build's required set itself (a filter or a roll-up goes with one report)");
		return EXIT_USAGE;
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

/* Every input opened with the caller's rights, then every capability
 * dropped before a byte is parsed: records are untrusted input. files[]
 * gets one stream per input. 0, or the exit status after saying why (all
 * closed). */
static int open_inputs(const struct report_args *a, FILE **files)
{
	char err[1024];
	size_t i, k;
	int rc = EXIT_USAGE;

	for (i = 0; i < a->nin; i++) {
		files[i] = infile_open(a->in[i], err, sizeof(err));
		if (!files[i]) {
			/* the first use, most likely: say how a record is made */
			if (a->defaulted && errno == ENOENT)
				snprintf(err, sizeof(err), "%s: no such file: " RECORD_FIRST_HINT,
					 DEFAULT_RECORD);
			break;
		}
	}
	if (i == a->nin) {
		if (!privs_drop_all(err, sizeof(err)))
			return 0;
		rc = EXIT_FAIL;
	}
	p_err("%s", err);
	for (k = 0; k < i; k++)
		infile_close(files[k]);
	return rc;
}

/* Input i read and merged into rec (the first is rec); its stream closed.
 * 0, or -1 after the one line naming the file (rec then freed). */
static int load_input(const struct report_args *a, FILE *f, size_t i, struct record *rec)
{
	struct record more;
	char err[1200];
	int rc;

	rc = load_record_file(f, infile_name(a->in[i]), a->lenient, i ? &more : rec);
	infile_close(f);
	if (rc) {
		if (i)
			record_free(rec);
		return -1;
	}
	if (i && record_merge(rec, &more, err, sizeof(err))) {
		p_err("%s", err);
		record_free(&more);
		record_free(rec);
		return -1;
	}
	return 0;
}

/* Every input into one record, before anything is printed: a bad one is
 * the only output. 0, or the exit status (said). */
static int load_inputs(const struct report_args *a, struct record *rec)
{
	FILE **files = xcalloc(a->nin, sizeof(*files));
	size_t i;
	int rc = open_inputs(a, files);

	for (i = 0; !rc && i < a->nin; i++) {
		if (!load_input(a, files[i], i, rec))
			continue;
		rc = EXIT_USAGE;
		while (++i < a->nin)   /* the ones not read yet */
			infile_close(files[i]);
	}
	free(files);
	return rc;
}

/* What the report names as its source: the file, or the files merged. */
static char *source_name(const struct report_args *a)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < a->nin; i++)
		len += strlen(infile_name(a->in[i])) + 2;
	s = xcalloc(len, 1);
	for (i = 0; i < a->nin; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, infile_name(a->in[i]));
	}
	return s;
}

/* rec's suggestion into sg: 0, or -2 after saying that --program matched
 * nothing (sg then freed). */
static int build_suggestion(const struct report_args *a, const struct record *rec,
			    const char *in, struct suggestion *sg)
{
	suggest_build(rec, &a->so, sg);
	if (a->caps)
		suggest_keep_caps(sg, a->caps);
	if (!a->so.program || sg->images_matched)
		return 0;
	p_err("--program %s: no program of that name in %s", a->so.program, in);
	suggest_free(sg);
	return -2;
}

/* The report of rec (the workload's view): with --cap, of a view of only
 * those checks (a note when there are none). The report borrows that view
 * (its blocks point into it): only_caps is freed after the report. */
static void build_report(const struct report_args *a, const struct record *rec, const char *in,
			 struct rec_view *only_caps, struct report *rep)
{
	char names[CAPSET_STR_LEN], msg[4200], safe[8400];

	if (!a->caps)
		rec_view_all(only_caps, rec);
	else if (!record_view_caps(only_caps, rec, a->caps)) {
		snprintf(msg, sizeof(msg), "%s: no check of %s", in,
			 capset_str(a->caps, names, sizeof(names)));
		fprintf(stderr, "capaudit: note: %s\n", text_sanitize(msg, safe, sizeof(safe)));
	}
	report_build(rec_view_record(only_caps), &a->ro, rep);
}

/* The report, the suggestion, the snippet, or the page (html: report and
 * suggestion at once) of rec; 0, -1 (output error) or -2 (said). */
static int print_record(const struct report_args *a, const struct record *rec, const char *in)
{
	bool page = a->fmt->page && !a->emit;
	bool want_sg = a->suggest || page, want_rep = !a->suggest || page;
	struct rec_view only_caps;
	struct suggestion sg;
	struct report rep;
	int rc;

	/* the suggestion reads every check of rec (a fallback proves a
	 * replacement), then keeps what is about --cap; the report reads
	 * only --cap's checks. Both read views: rec stays as loaded. */
	if (want_sg && (rc = build_suggestion(a, rec, in, &sg)))
		return rc;
	if (want_rep)
		build_report(a, rec, in, &only_caps, &rep);
	if (page)
		rc = a->fmt->page(stdout, &rep, &sg, in);
	else if (a->emit)
		rc = emit_snippet(stdout, a->emit, &sg);
	else
		rc = a->suggest ? a->fmt->suggest(stdout, &sg, in) : a->fmt->report(stdout, &rep, in);
	if (want_sg)
		suggest_free(&sg);
	if (want_rep) {
		report_free(&rep);
		rec_view_free(&only_caps);
	}
	return rc;
}

/* The loaded record, filtered and printed: the exit status. */
static int report_record(const struct report_args *a, const struct record *rec)
{
	char err[1024], *in = source_name(a);
	struct rec_view workload;
	int rc;

	/* every view below sees only the workload asked for (in any of the
	 * records merged: one node may run it, others not) */
	if (record_view_workload(&workload, rec, &a->wf, err, sizeof(err))) {
		p_err("%s: %s", in, err);
		rc = -2;
	} else {
		rc = print_record(a, rec_view_record(&workload), in);
	}
	rec_view_free(&workload);
	free(in);
	if (rc == -2)
		return EXIT_USAGE;
	if (fflush(stdout) || rc) {
		p_err("cannot write the report: output error");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* --fleet: each input read, folded and freed in turn (never merged: a
 * fleet's records together would not fit), then the view printed. The
 * exit status. */
static int report_fleet(const struct report_args *a)
{
	FILE **files = xcalloc(a->nin, sizeof(*files));
	char *in = source_name(a);
	struct fleet fl;
	size_t i;
	int rc = open_inputs(a, files);

	fleet_init(&fl);
	for (i = 0; !rc && i < a->nin; i++) {
		const char *name = infile_name(a->in[i]);
		struct record r;

		rc = load_record_file(files[i], name, a->lenient, &r) ? EXIT_USAGE : 0;
		infile_close(files[i]);
		if (rc)
			break;
		fleet_add(&fl, &r, name);
		record_free(&r);
	}
	while (rc && ++i < a->nin)   /* the ones not read yet */
		infile_close(files[i]);
	free(files);
	if (!rc) {
		fleet_finish(&fl);
		if (a->fmt->fleet(stdout, &fl, in) || fflush(stdout)) {
			p_err("cannot write the report: output error");
			rc = EXIT_FAIL;
		}
	}
	fleet_free(&fl);
	free(in);
	return rc;
}

int do_report(int argc, char **argv, int all_argc, char **all_argv)
{
	struct report_args a;
	struct record rec;
	int rc = parse_args(argc, argv, &a);

	if (rc == CLI_GO_ON && a.fleet) {
		rc = report_fleet(&a);
	} else if (rc == CLI_GO_ON) {
		rc = load_inputs(&a, &rec);
		if (!rc) {
			rc = report_record(&a, &rec);
			record_free(&rec);
		}
	}
	free(a.in);
	free(a.pids);
	return rc;
}
