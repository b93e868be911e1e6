// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit diff OLD NEW: what a change added to or removed from two
 * records, per program (analyze/diff.h). Exit 0 when nothing was added,
 * 1 when something was, 2 on usage or input errors.
 */
#include "cli/cmd_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/attrib.h"
#include "analyze/diff.h"
#include "analyze/recview.h"
#include "cli/options.h"
#include "lib/infile.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "output/output.h"
#include "recfile/load.h"
#include "recfile/recfile.h"
#include "tracer/privs.h"

enum { O_NOAUDIT = CLI_LONG_ONLY, O_CONTAINER, O_UNIT, O_LENIENT };

/* What the command line asked for. */
struct diff_args {
	const char *fmt_name;    /* --format, until formatter_select() */
	const struct formatter *fmt;
	const char *program;
	struct workload_filter wf;
	struct diff_opts o;
	bool lenient;
	const char *path[2];     /* OLD, NEW */
};

#define A struct diff_args

static const struct cli_opt diff_opts[] = {
	{ "format", 'f', required_argument, "FORMAT", "text (default) or json", NULL,
	  CLI_ARG_FORMAT, CLI_STRING(A, fmt_name) },
	{ "noaudit", O_NOAUDIT, no_argument, NULL,
	  "compare noaudit checks too (kernel probing, never required)", NULL, CLI_ARG_ANY,
	  CLI_FLAG(A, o.noaudit) },
	{ "program", 'p', required_argument, "NAME",
	  "compare only program images whose name or executable is NAME", NULL, CLI_ARG_ANY,
	  CLI_STRING(A, program) },
	{ "container", O_CONTAINER, required_argument, "X",
	  "compare only the processes of the container X: its id, a unique id prefix",
	  "(3 hex digits or more) or its name", CLI_ARG_ANY, CLI_STRING(A, wf.container) },
	{ "unit", O_UNIT, required_argument, "NAME",
	  "compare only the processes of the systemd unit NAME (cron: cron.service)", NULL,
	  CLI_ARG_ANY, CLI_STRING(A, wf.unit) },
	{ "lenient", O_LENIENT, no_argument, NULL,
	  "read what is valid in damaged records, warn what was skipped", NULL, CLI_ARG_ANY,
	  CLI_FLAG(A, lenient) },
	{ 0 },
};

#undef A

static const struct cli_cmd diff_cmd = {
	.name = "diff",
	.synopsis = "capaudit diff [--format text|json] [--noaudit] [-p NAME] [--container X]\n"
		    "              [--unit NAME] [--lenient] OLD NEW",
	.about = "  what NEW shows that OLD does not (added) and the reverse (removed), per\n"
		 "  program (its executable, else its comm, as report --by program): the\n"
		 "  capabilities checked, the syscalls that led to them, the kernel call sites\n"
		 "  where they were granted, and the denials.\n",
	.opts = diff_opts,
	.operands = CLI_ARG_FILE,
	.tail = "  exit: 0 nothing added, 1 something added (what was removed does not count),\n"
		"  2 errors\n",
};


/* CLI_GO_ON, or the exit status (EXIT_OK after --help). */
static int parse_args(int argc, char **argv, struct diff_args *a)
{
	struct cli_getopt g;
	int c;

	a->fmt_name = "text";
	cli_getopt_init(&g, &diff_cmd, a);
	c = cli_next(&g, argc, argv);   /* every option goes into a */
	if (c != CLI_END)
		return cli_exit_status(c);
	a->fmt = formatter_select(a->fmt_name, FOR_DIFF);
	if (!a->fmt)
		return EXIT_USAGE;
	if (argc - optind != 2) {
		p_err("diff compares two records: capaudit diff OLD NEW (%d given)", argc - optind);
		return EXIT_USAGE;
	}
	a->path[0] = argv[optind];
	a->path[1] = argv[optind + 1];
	if (!strcmp(a->path[0], "-") && !strcmp(a->path[1], "-")) {
		p_err("'-' (standard input) given twice: it can be read once");
		return EXIT_USAGE;
	}
	return CLI_GO_ON;
}

/* Both records, opened with the caller's rights, read with none: records
 * are untrusted input. 0, or the exit status (said; nothing left loaded). */
static int load_both(const struct diff_args *a, struct record rec[2])
{
	FILE *f[2] = { NULL, NULL };
	char err[1024];
	int i, rc = 0;

	for (i = 0; i < 2 && !rc; i++) {
		f[i] = infile_open(a->path[i], err, sizeof(err));
		if (!f[i]) {
			p_err("%s", err);
			rc = EXIT_USAGE;
		}
	}
	if (!rc && privs_drop_all(err, sizeof(err))) {
		p_err("%s", err);
		rc = EXIT_USAGE;   /* every error is 2: 1 means "added" here */
	}
	for (i = 0; i < 2 && !rc; i++) {
		if (load_record_file(f[i], infile_name(a->path[i]), a->lenient, &rec[i])) {
			rc = EXIT_USAGE;
			if (i)
				record_free(&rec[0]);
		}
	}
	for (i = 0; i < 2; i++)
		if (f[i])
			infile_close(f[i]);
	return rc;
}

/* One side as compared: a view of its record by --container, --unit and
 * --pid, and of that by --program; the record itself stays as loaded. */
struct diff_side {
	struct rec_view workload;
	struct rec_view program;
};

static const struct record *side_record(const struct diff_side *side)
{
	return rec_view_record(&side->program);
}

/*
 * --program, --container, --unit on both records. What matches in one
 * record only is what the change added or removed (the other side is
 * then empty, and a note says so); matching in neither is an error.
 * 0, or -1 (said). Either way both sides are to be freed.
 */
static int filter_both(const struct diff_args *a, const struct record rec[2],
		       struct diff_side side[2])
{
	char err[2][1024];
	bool none[2] = { false, false };
	int i;

	/* a side without the workload views nothing: compared as empty */
	for (i = 0; i < 2; i++)
		none[i] = record_view_workload(&side[i].workload, &rec[i], &a->wf, err[i],
					       sizeof(err[i])) != 0;
	if (none[0] && none[1]) {
		p_err("%s: %s", infile_name(a->path[0]), err[0]);
		return -1;
	}
	for (i = 0; i < 2; i++) {
		char msg[2200], safe[4400];

		if (!none[i])
			continue;
		snprintf(msg, sizeof(msg), "%s: %s: compared as empty", infile_name(a->path[i]),
			 err[i]);
		fprintf(stderr, "capaudit: note: %s\n", text_sanitize(msg, safe, sizeof(safe)));
	}
	for (i = 0; i < 2; i++) {
		const struct record *workload = rec_view_record(&side[i].workload);

		if (a->program)
			none[i] = !record_view_program(&side[i].program, workload, a->program);
		else
			rec_view_all(&side[i].program, workload);
	}
	if (a->program && none[0] && none[1]) {
		p_err("--program %s: no program of that name in %s or %s", a->program,
		      infile_name(a->path[0]), infile_name(a->path[1]));
		return -1;
	}
	return 0;
}

static int compare(const struct diff_args *a, const struct diff_side side[2])
{
	const struct record *old = side_record(&side[0]), *new = side_record(&side[1]);
	struct diff_view v = { .old_name = infile_name(a->path[0]),
			       .new_name = infile_name(a->path[1]),
			       .old = old, .new = new, .noaudit = a->o.noaudit };
	struct diff d;
	int rc;

	warn_lost(v.old_name, old);
	warn_lost(v.new_name, new);
	diff_build(old, new, &a->o, &d);
	v.d = &d;
	rc = a->fmt->diff(stdout, &v);
	if (fflush(stdout) || rc) {
		p_err("cannot write the diff: output error");
		rc = EXIT_USAGE;   /* 1 would read as "something added" */
	} else {
		rc = d.nadded ? 1 : EXIT_OK;
	}
	diff_free(&d);
	return rc;
}

int do_diff(int argc, char **argv, int all_argc, char **all_argv)
{
	struct diff_args a = { 0 };
	struct diff_side side[2];
	struct record rec[2];
	int i, rc = parse_args(argc, argv, &a);

	if (rc != CLI_GO_ON)
		return rc;
	rc = load_both(&a, rec);
	if (rc)
		return rc;
	memset(side, 0, sizeof(side));   /* a view filter_both() did not make frees as none */
	rc = filter_both(&a, rec, side) ? EXIT_USAGE : compare(&a, side);
	for (i = 0; i < 2; i++) {
		rec_view_free(&side[i].program);
		rec_view_free(&side[i].workload);
	}
	record_free(&rec[0]);
	record_free(&rec[1]);
	return rc;
}
