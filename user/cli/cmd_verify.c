// SPDX-License-Identifier: GPL-2.0
/* capaudit verify: its options, verify_prove() (record/verify.c), the output. */
#include "cli/cmd_verify.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "analyze/views.h"
#include "facts/attach.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "output/output.h"
#include "record/launch.h"
#include "record/privs.h"
#include "record/verify.h"

#define MAX_EMIT 5

static const char verify_usage[] =
	"usage: capaudit verify [--user USER] [--check TEST] [--emit KIND]... [--program NAME]\n"
	"                       [--format text|json] [--attach MODE] [--max-runs N] [-k DIR] [-q]\n"
	"                       -- COMMAND [ARGS...]\n"
	"  find the capability set COMMAND needs, with the kernel as the judge: record it\n"
	"  with the caller's privileges, run it under exactly the suggested set, add what\n"
	"  blocking denials reveal until it succeeds, then drop each member in turn and\n"
	"  keep only those whose removal makes it fail.\n"
	"  --user USER      run every time as USER (name or uid)\n"
	"  --check TEST     success is COMMAND exiting 0 and sh -c TEST (run as the caller\n"
	"                   after each run) exiting 0\n"
	"  --emit KIND      also print a snippet for the proven set: setcap, systemd,\n"
	"                   docker, kubernetes or capsh (may be repeated)\n"
	"  --program NAME   start from what that program of the tree needs (comm or exe)\n"
	"  --format FMT     text (default) or json; the command's output goes to stderr\n"
	"  --attach MODE    as record --attach\n"
	"  --max-runs N     give up after N runs (default 40)\n"
	"  -k DIR           keep every run's record in DIR (created; default: removed)\n"
	"  -q               no progress lines on standard error\n"
	"  Exit status: 0 a set was proven, 1 none works (or COMMAND fails even with the\n"
	"  caller's privileges), 2 usage errors.\n";

/* One run of the command under a set. */
int do_verify(int argc, char **argv, int all_argc, char **all_argv)
{
	static const struct option longopts[] = {
		{ "user", required_argument, NULL, 'u' },
		{ "check", required_argument, NULL, 'C' },
		{ "emit", required_argument, NULL, 'e' },
		{ "program", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "attach", required_argument, NULL, 'A' },
		{ "max-runs", required_argument, NULL, 'm' },
		{ "keep", required_argument, NULL, 'k' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct verify_opts v = { .max_runs = 40 };
	const char *emit[MAX_EMIT], *fmt_name = "text";
	const struct formatter *fmt;
	struct verify_result res;
	struct verify *vr = NULL;
	size_t nemit = 0, i;
	struct launch l = { 0 };
	struct privs pv;
	char err[1024], bad[256];
	struct attach_list modes;
	long runs;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+u:C:e:p:f:A:m:k:qh", longopts, NULL)) != -1) {
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
		case 'h':
			fputs(verify_usage, stdout);
			return EXIT_OK;
		default:
			fputs(verify_usage, stderr);
			return EXIT_USAGE;
		}
	}
	fmt = formatter_find(fmt_name);
	if (fmt == &output_json)
		cli_json_errors = true;
	if (!fmt || !fmt->verify) {
		p_err("unknown format '%s' for verify (text, json)", fmt_name);
		return EXIT_USAGE;
	}
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
