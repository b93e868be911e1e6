// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit: which capabilities does a workload use, where in the kernel,
 * and which narrower capability would do instead of CAP_SYS_ADMIN.
 */
#include <malloc.h>
#ifdef CAPAUDIT_STATIC
#include <nss.h>
#endif
#include <stdio.h>
#include <string.h>

#include "cli/cmd_check.h"
#include "cli/cmd_diff.h"
#include "lib/msg.h"
#include "lib/phase.h"
#include "lib/spell.h"
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

/* One line: what was not a command, the nearest one if it is close
 * (lib/spell.h: "reprot" is report), and where the commands are listed. */
static void unknown_command(const char *word)
{
	static const char *const options[] = { "--help", "--version", NULL };
	const char *const *o;
	const struct cmd *c;
	const char *best;
	struct spell sp;

	spell_init(&sp, word);
	if (word[0] == '-') {
		for (o = options; *o; o++)
			spell_try(&sp, *o);
		best = spell_best(&sp);
		if (best)
			p_err("unknown option '%s' (did you mean capaudit %s?): see capaudit help",
			      word, best);
		else
			p_err("unknown option '%s' before the command: see capaudit help", word);
		return;
	}
	for (c = cmds; c->name; c++)
		spell_try(&sp, c->name);
	best = spell_best(&sp);
	if (best)
		p_err("unknown command '%s' (did you mean capaudit %s?): see capaudit help", word,
		      best);
	else
		p_err("unknown command '%s': see capaudit help", word);
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	phase_mark("parse options");
	/* a fixed threshold: a block of 128 KiB or more is mapped on its own
	 * and given back when freed. glibc's default raises the threshold to
	 * the largest such block freed (libbpf's copies of the kernel's BTF,
	 * 5 MB), and every table below that size then grows in the heap,
	 * leaving what it outgrew resident */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#ifdef CAPAUDIT_STATIC
	/* A static glibc must not load the host's NSS modules (libnss_systemd,
	 * sss, ldap): they are built for the shared libc, and getpwuid() of a
	 * uid /etc/passwd lacks crashed in _nss_systemd_is_blocked() on Debian
	 * 12. Users and groups come from /etc/passwd and /etc/group alone,
	 * which glibc's own files service reads (built into libc since 2.34) */
	__nss_configure_lookup("passwd", "files");
	__nss_configure_lookup("group", "files");
	__nss_configure_lookup("initgroups", "files");
#endif
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
	unknown_command(argv[1]);
	return EXIT_USAGE;
}
