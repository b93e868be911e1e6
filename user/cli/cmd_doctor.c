// SPDX-License-Identifier: GPL-2.0
/* capaudit doctor: its options, doctor_probe() (engines/doctor.c), the output. */
#include <stdio.h>

#include "analyze/views.h"
#include "cli/options.h"
#include "lib/msg.h"
#include "output/output.h"
#include "cli/cmd_doctor.h"
#include "engines/doctor.h"

/* What the command line asked for. */
struct doctor_args {
	const char *fmt_name;
};

static const struct cli_opt doctor_opts[] = {
	{ "format", 'f', required_argument, "FORMAT", "text (default) or json", NULL,
	  CLI_ARG_FORMAT, CLI_STRING(struct doctor_args, fmt_name) },
	{ 0 },
};

static const struct cli_cmd doctor_cmd = {
	.name = "doctor",
	.synopsis = "capaudit doctor [--format text|json]",
	.about = "  what this host offers: kernel, BTF, lockdown, sysctls, attach modes that\n"
		 "  load and attach with the privileges `record` keeps, kernel symbols,\n"
		 "  privileges held against those needed. Exit 0 when record can work.\n",
	.opts = doctor_opts,
};

int do_doctor(int argc, char **argv, int all_argc, char **all_argv)
{
	struct doctor_args a = { .fmt_name = "text" };
	const struct formatter *fmt;
	struct cli_getopt g;
	struct doctor d = { 0 };
	int c, rc;

	cli_getopt_init(&g, &doctor_cmd, &a);
	c = cli_next(&g, argc, argv);   /* every option goes into a */
	if (c != CLI_END)
		return cli_exit_status(c);
	fmt = formatter_select(a.fmt_name, FOR_DOCTOR);
	if (!fmt)
		return EXIT_USAGE;
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
