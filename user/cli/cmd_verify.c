// SPDX-License-Identifier: GPL-2.0
/* capaudit verify: its options, verify_prove() (record/verify.c), the output. */
#include "cli/cmd_verify.h"

#include <stdio.h>
#include <string.h>

#include "analyze/views.h"
#include "cli/options.h"
#include "facts/attach.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "output/output.h"
#include "record/launch.h"
#include "record/privs.h"
#include "record/verify.h"

#define MAX_EMIT 5

static const struct cli_opt verify_opts[] = {
	{ "user", 'u', required_argument, "USER", "run every time as USER (name or uid)", NULL },
	{ "check", 'C', required_argument, "TEST",
	  "success is COMMAND exiting 0 and sh -c TEST exiting 0",
	  "(TEST runs as the caller after each run)" },
	{ "emit", 'e', required_argument, "KIND",
	  "also print a snippet of KIND for the proven set",
	  "(setcap, systemd, docker, kubernetes or capsh; may be repeated)" },
	{ "program", 'p', required_argument, "NAME",
	  "start from what that program of the tree needs (comm or exe)", NULL },
	{ "format", 'f', required_argument, "FORMAT", "text (default) or json",
	  "(the command's output goes to standard error)" },
	{ "attach", 'A', required_argument, "MODE[,MODE...]", "as record --attach", NULL },
	{ "max-runs", 'm', required_argument, "N", "give up after N runs (default 40)", NULL },
	{ "keep", 'k', required_argument, "DIR",
	  "keep every run's record in DIR (created; default: removed)", NULL },
	{ "quiet", 'q', no_argument, NULL, "no progress lines on standard error", NULL },
	{ 0 },
};

static const struct cli_cmd verify_cmd = {
	.synopsis = "capaudit verify [OPTIONS] -- COMMAND [ARGS...]",
	.about = "  find the capability set COMMAND needs, with the kernel as the judge: record it\n"
		 "  with the caller's privileges, run it under exactly the suggested set, add what\n"
		 "  blocking denials reveal until it succeeds, then drop each member in turn and\n"
		 "  keep only those whose removal makes it fail.\n",
	.opts = verify_opts,
	.tail = "  Exit status: 0 a set was proven, 1 none works (or COMMAND fails even with the\n"
		"  caller's privileges), 2 usage errors.\n",
	.in_order = 1,
};

/* One run of the command under a set. */
int do_verify(int argc, char **argv, int all_argc, char **all_argv)
{
	struct verify_opts v = { .max_runs = 40 };
	const char *emit[MAX_EMIT], *fmt_name = "text";
	const struct formatter *fmt;
	struct cli_getopt g;
	struct verify_result res;
	struct verify *vr = NULL;
	size_t nemit = 0, i;
	struct launch l = { 0 };
	struct privs pv;
	char err[1024], bad[256];
	struct attach_list modes;
	long runs;
	int c, rc;

	cli_getopt_init(&g, &verify_cmd);
	while ((c = cli_next(&g, argc, argv)) >= 0) {
		switch (c) {
		case 'u': v.user = optarg; break;
		case 'C': v.check = optarg; break;
		case 'p': v.program = optarg; break;
		case 'f': fmt_name = optarg; break;
		case 'k': v.keep_dir = optarg; break;
		case 'q': v.quiet = true; break;
		case 'A':
			if (attach_list_parse(optarg, &modes, bad, sizeof(bad))) {
				p_err("%s", bad);
				return EXIT_USAGE;
			}
			v.attach = optarg;
			break;
		case 'e':
			for (i = 0; emit_kinds[i] && strcmp(emit_kinds[i], optarg); i++)
				;
			if (!emit_kinds[i]) {
				p_err("unknown --emit kind '%s' (setcap, systemd, docker, kubernetes, "
				      "capsh)", optarg);
				return EXIT_USAGE;
			}
			if (nemit == MAX_EMIT) {
				p_err("--emit: at most %d kinds", MAX_EMIT);
				return EXIT_USAGE;
			}
			emit[nemit++] = optarg;
			break;
		case 'm':
			if (parse_int_range(optarg, 2, 1000, &runs)) {
				p_err("--max-runs '%s': a number from 2 to 1000", optarg);
				return EXIT_USAGE;
			}
			v.max_runs = (int)runs;
			break;
		}
	}
	if (c != CLI_END)
		return cli_exit_status(c);
	fmt = formatter_select(fmt_name, FOR_VERIFY);
	if (!fmt)
		return EXIT_USAGE;
	if (optind >= argc) {
		p_err("verify needs a command: capaudit verify [OPTIONS] -- COMMAND");
		return EXIT_USAGE;
	}
	v.cmd = &argv[optind];
	if (v.user && launch_resolve_user(v.user, &l)) {
		p_err("--user %s: no such user", v.user);
		return EXIT_USAGE;
	}
	/* every run sets its command's sets: root's work */
	if (privs_read(&pv) || !launch_privileged(&pv, v.user)) {
		p_err("verify needs root (CAP_SETPCAP%s) to run the command with each set",
		      v.user ? ", CAP_SETUID, CAP_SETGID" : "");
		return EXIT_FAIL;
	}
	v.all = pv.prm & pv.bnd;
	rc = verify_prove(&v, &vr, err, sizeof(err));
	if (rc < 0) {
		p_err("%s", err);
		verify_free(vr);
		return EXIT_USAGE;
	}
	res = *verify_result(vr);
	res.emit = emit;
	res.nemit = nemit;
	if (fmt->verify(stdout, &res) || fflush(stdout))
		p_err("cannot write the report: output error");
	verify_free(vr);
	(void)all_argc;
	(void)all_argv;
	return rc ? EXIT_FAIL : EXIT_OK;
}
