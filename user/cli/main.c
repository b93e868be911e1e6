// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit: which capabilities does a workload use, where in the kernel,
 * and which narrower capability would do instead of CAP_SYS_ADMIN.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd_check.h"
#include "cli/cmd_diff.h"
#include "lib/msg.h"
#include "cli/cmd_doctor.h"
#include "cli/cmd_monitor.h"
#include "cli/cmd_record.h"
#include "cli/cmd_report.h"
#include "cli/cmd_run.h"
#include "cli/cmd_verify.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv, int all_argc, char **all_argv);
	const char *help;
};

static int do_help(int argc, char **argv, int all_argc, char **all_argv);
static int do_version(int argc, char **argv, int all_argc, char **all_argv)
{
	printf("capaudit %s\n", CAPAUDIT_VERSION);
	return EXIT_OK;
}

static const struct cmd cmds[] = {
	{ "record", do_record, "record the capability checks of a process tree" },
	{ "monitor", do_monitor, "watch a host for weeks: checkpoints, first-use events, bounded memory" },
	{ "report", do_report, "what a record shows; --suggest: least privilege" },
	{ "check", do_check, "compare records with a baseline: CI verdict, exit 1 on new privileges" },
	{ "diff", do_diff, "what changed between two records, per program; exit 1 on additions" },
	{ "run", do_run, "run a command with exactly given capabilities, list denials" },
	{ "verify", do_verify, "prove the set a command needs: run it with each, minimise" },
	{ "doctor", do_doctor, "what this host offers: attach modes, symbols, privileges" },
	{ "version", do_version, "print the version" },
	{ "help", do_help, "this text" },
	{ 0 },
};

static int do_help(int argc, char **argv, int all_argc, char **all_argv)
{
	const struct cmd *c;

	printf("usage: capaudit COMMAND [OPTIONS]\n\ncommands:\n");
	for (c = cmds; c->name; c++)
		printf("  %-8s %s\n", c->name, c->help);
	printf("\n'capaudit COMMAND --help' describes each command's options.\n");
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2) {
		do_help(0, NULL, argc, argv);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return do_help(0, NULL, argc, argv);
	if (!strcmp(argv[1], "--version"))
		return do_version(0, NULL, argc, argv);
	for (c = cmds; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1, argc, argv);
	p_err("unknown command '%s' (try: capaudit help)", argv[1]);
	return EXIT_USAGE;
}
