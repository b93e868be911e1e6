// SPDX-License-Identifier: GPL-2.0
/* capaudit report: read a record file and print what it shows. */
#include "cli/cmd_report.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/msg.h"
#include "lib/infile.h"
#include "output/output.h"
#include "record/privs.h"
#include "recfile/recfile.h"
#include "recfile/load.h"
#include "analyze/report.h"
#include "analyze/suggest.h"

#define DEFAULT_RECORD "capaudit-record.jsonl"

static const char report_usage[] =
	"usage: capaudit report [-i FILE] [--format text|json] [--all] [--by user-site]\n"
	"       capaudit report --suggest [-i FILE] [--format text|json] [--program NAME]\n"
	"       capaudit report --emit setcap|systemd|docker|kubernetes|capsh [-i FILE]\n"
	"  -i FILE          record file (default " DEFAULT_RECORD ")\n"
	"  --format FORMAT  text (default) or json\n"
	"  --all            include noaudit checks (kernel probing, never required)\n"
	"  --by user-site   also group the checks by the place in the program's own\n"
	"                   code that led to them (a record made with --user-stacks)\n"
	"  --suggest        least privilege: required set, CAP_SYS_ADMIN replacements,\n"
	"                   sites that keep CAP_SYS_ADMIN, denials\n"
	"  --emit KIND      only a ready snippet granting the required set\n"
	"  --program NAME   only program images whose name or executable is NAME\n"
	"  --lenient        read what is valid in a damaged record file, say what was\n"
	"                   skipped (default: any fault is an error)\n";

int do_report(int argc, char **argv, int all_argc, char **all_argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'f' },
		{ "all", no_argument, NULL, 'a' },
		{ "suggest", no_argument, NULL, 's' },
		{ "emit", required_argument, NULL, 'e' },
		{ "program", required_argument, NULL, 'p' },
		{ "lenient", no_argument, NULL, 'l' },
		{ "by", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *in = DEFAULT_RECORD, *fmt_name = "text", *emit = NULL;
	const struct formatter *fmt;
	struct report_opts ro = { 0 };
	struct suggest_opts so = { 0 };
	bool suggest = false, lenient = false;
	size_t k;
	struct record rec;
	struct report rep;
	char err[1024];
	FILE *f;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:f:ah", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			in = optarg;
			break;
		case 'f':
			fmt_name = optarg;
			break;
		case 'a':
			ro.all = true;
			break;
		case 's':
			suggest = true;
			break;
		case 'e':
			emit = optarg;
			break;
		case 'p':
			so.program = optarg;
			break;
		case 'l':
			lenient = true;
			break;
		case 'b':
			if (strcmp(optarg, "user-site")) {
				p_err("unknown --by '%s' (user-site)", optarg);
				return EXIT_USAGE;
			}
			ro.by_user_site = true;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return EXIT_OK;
		default:
			fputs(report_usage, stderr);
			return EXIT_USAGE;
		}
	}
	fmt = formatter_find(fmt_name);
	if (fmt == &output_json)
		cli_json_errors = true;
	if (!fmt || !fmt->report) {
		p_err("unknown format '%s' for report (text, json)", fmt_name);
		return EXIT_USAGE;
	}
	if (optind < argc) {
		p_err("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (emit) {
		for (k = 0; emit_kinds[k] && strcmp(emit_kinds[k], emit); k++)
			;
		if (!emit_kinds[k]) {
			p_err("unknown --emit kind '%s' (setcap, systemd, docker, kubernetes, capsh)",
			      emit);
			return EXIT_USAGE;
		}
		suggest = true;
	}
	if (so.program && !suggest) {
		p_err("--program goes with --suggest or --emit");
		return EXIT_USAGE;
	}
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
	rc = load_record_file(f, in, lenient, &rec);
	infile_close(f);
	if (rc)
		return EXIT_USAGE;
	if (suggest) {
		struct suggestion sg;

		suggest_build(&rec, &so, &sg);
		if (so.program && !sg.images_matched) {
			p_err("--program %s: no program of that name in %s", so.program, in);
			rc = -2;
		} else {
			rc = emit ? emit_snippet(stdout, emit, &sg) : fmt->suggest(stdout, &sg, in);
		}
		suggest_free(&sg);
	} else {
		report_build(&rec, &ro, &rep);
		rc = fmt->report(stdout, &rep, in);
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
