// SPDX-License-Identifier: GPL-2.0
/* capaudit doctor: its options, doctor_probe() (record/doctor.c), the output. */
#include <getopt.h>
#include <stdio.h>

#include "analyze/views.h"
#include "lib/msg.h"
#include "output/output.h"
#include "cli/cmd_doctor.h"
#include "record/doctor.h"

static const char doctor_usage[] =
	"usage: capaudit doctor [--format text|json]\n"
	"  what this host offers: kernel, BTF, lockdown, sysctls, attach modes that\n"
	"  load and attach with the privileges `record` keeps, kernel symbols,\n"
	"  privileges held against those needed. Exit 0 when record can work.\n";

int do_doctor(int argc, char **argv, int all_argc, char **all_argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *fmt_name = "text";
	const struct formatter *fmt;
	struct doctor d = { 0 };
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			fmt_name = optarg;
			break;
		case 'h':
			fputs(doctor_usage, stdout);
			return EXIT_OK;
		default:
			fputs(doctor_usage, stderr);
			return EXIT_USAGE;
		}
	}
	fmt = formatter_find(fmt_name);
	if (fmt == &output_json)
		cli_json_errors = true;
	if (!fmt || !fmt->doctor) {
		p_err("unknown format '%s' for doctor (text, json)", fmt_name);
		return EXIT_USAGE;
	}
	if (optind < argc) {
		p_err("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}

	doctor_probe(&d, all_argv[0]);
	rc = fmt->doctor(stdout, &d);
	if (fflush(stdout) || rc) {
		p_err("cannot write the report: output error");
		return EXIT_FAIL;
	}
	return d.chosen >= 0 && !d.priv_err[0] ? EXIT_OK : EXIT_FAIL;
}
