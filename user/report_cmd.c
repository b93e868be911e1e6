// SPDX-License-Identifier: GPL-2.0
/* capaudit report: read a record file and print what it shows. */
#include "report_cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "recfile.h"
#include "report.h"

#define DEFAULT_RECORD "capaudit-record.jsonl"

static const char report_usage[] =
	"usage: capaudit report [-i FILE] [--format text|json] [--all]\n"
	"  -i FILE          record file (default " DEFAULT_RECORD ")\n"
	"  --format FORMAT  text (default) or json\n"
	"  --all            include noaudit checks (kernel probing, never required)\n";

int do_report(int argc, char **argv, int all_argc, char **all_argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'f' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *in = DEFAULT_RECORD, *fmt_name = "text";
	const struct formatter *fmt;
	struct report_opts ro = { 0 };
	struct record rec;
	struct report rep;
	char err[1024];
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
	if (recfile_load(in, &rec, err, sizeof(err))) {
		p_err("%s", err);
		return EXIT_USAGE;
	}
	report_build(&rec, &ro, &rep);
	rc = fmt->report(stdout, &rep, in);
	if (fflush(stdout) || rc) {
		p_err("cannot write the report: output error");
		rc = EXIT_FAIL;
	}
	report_free(&rep);
	record_free(&rec);
	return rc ? EXIT_FAIL : EXIT_OK;
}
