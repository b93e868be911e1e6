// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit run: run a command with exactly a capability set while recording
 * it, then list every denied check with its call site. This is how a user
 * proves that `report --suggest` was right: with the suggested set there
 * is no blocking denial.
 */
#include "cli/cmd_run.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "facts/capnames.h"
#include "lib/msg.h"
#include "record/launch.h"
#include "output/output.h"
#include "record/privs.h"
#include "recfile/recfile.h"
#include "record/record.h"
#include "analyze/suggest.h"

#define DEFAULT_RUN_RECORD "capaudit-run.jsonl"

static const char run_usage[] =
	"usage: capaudit run --caps CAP[,CAP...]|none [--user USER] [--check TEST] [-o FILE]\n"
	"                    [--format text|json] [--program NAME] [--attach MODE] [-q]\n"
	"                    -- COMMAND [ARGS...]\n"
	"  run COMMAND with exactly these capabilities (bounding, permitted, effective,\n"
	"  inheritable and ambient), as root or as USER, record it, and list every\n"
	"  denied check with its call site and whether it made a syscall fail.\n"
	"  --caps SET       the set: names or numbers, comma-separated, or none\n"
	"  --user USER      run as USER (name or uid) with exactly that set\n"
	"  --check TEST     the set is enough when sh -c TEST (run as the caller after\n"
	"                   the command) exits 0 too; for programs whose status says little\n"
	"  -o FILE          record file (default " DEFAULT_RUN_RECORD ")\n"
	"  --format FMT     text (default) or json; with json the command's standard\n"
	"                   output goes to standard error\n"
	"  --program NAME   judge the denials of that program only (comm or exe)\n"
	"  --attach MODE    as record --attach\n"
	"  -q               no status line while recording\n"
	"  Exit status: 0 the set is enough (the command exited 0, and TEST passed),\n"
	"  1 it is not, 2 usage errors or no verdict (capaudit could not record).\n";


int do_run(int argc, char **argv, int all_argc, char **all_argv)
{
	static const struct option longopts[] = {
		{ "caps", required_argument, NULL, 'c' },
		{ "user", required_argument, NULL, 'u' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "program", required_argument, NULL, 'p' },
		{ "attach", required_argument, NULL, 'A' },
		{ "check", required_argument, NULL, 'C' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct launch l = { 0 };
	struct rec_opts o = { 0 };
	struct suggest_opts so = { 0 };
	const char *caps = NULL, *user = NULL, *fmt_name = "text", *check = NULL;
	const struct formatter *fmt;
	struct run_result rr = { 0 };
	struct suggestion sg;
	struct record rec;
	struct privs pv;
	char err[1024], bad[64], uidname[32];
	int c;
	char bad_mode[256];

	o.out = DEFAULT_RUN_RECORD;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+c:u:o:f:p:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': caps = optarg; break;
		case 'u': user = optarg; break;
		case 'o': o.out = optarg; break;
		case 'f': fmt_name = optarg; break;
		case 'p': so.program = optarg; break;
		case 'C': check = optarg; break;
		case 'q': o.quiet = true; break;
		case 'A':
			if (attach_list_parse(optarg, &o.modes, bad_mode, sizeof(bad_mode))) {
				p_err("%s", bad_mode);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			fputs(run_usage, stdout);
			return EXIT_OK;
		default:
			fputs(run_usage, stderr);
			return EXIT_USAGE;
		}
	}
	fmt = formatter_find(fmt_name);
	if (fmt == &output_json)
		cli_json_errors = true;
	if (!fmt || !fmt->run) {
		p_err("unknown format '%s' for run (text, json)", fmt_name);
		return EXIT_USAGE;
	}
	if (!caps) {
		p_err("run needs --caps CAP[,CAP...] (or --caps none)");
		return EXIT_USAGE;
	}
	if (parse_capset(caps, &l.caps, bad, sizeof(bad))) {
		p_err("unknown capability '%s' in --caps %s", bad, caps);
		return EXIT_USAGE;
	}
	l.set_caps = true;
	if (user && launch_resolve_user(user, &l)) {
		p_err("--user %s: no such user", user);
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		p_err("run needs a command: capaudit run --caps ... -- COMMAND");
		return EXIT_USAGE;
	}
	if (!strcmp(o.out, "-")) {
		p_err("run -o -: run reads its record back to report on it; give a file");
		return EXIT_USAGE;
	}
	/* setting another process's sets takes more than recording does */
	if (privs_read(&pv) || !launch_privileged(&pv, user)) {
		p_err("run --caps needs root (CAP_SETPCAP%s) to set the command's capabilities",
		      user ? ", CAP_SETUID, CAP_SETGID" : "");
		return EXIT_FAIL;
	}
	/* a capability outside our own bounding set cannot be handed on (a
	 * container, or a machine that dropped some): say which, up front */
	if (l.caps & ~(pv.bnd & pv.prm)) {
		char name[CAP_NAME_LEN];
		int cap = __builtin_ctzll(l.caps & ~(pv.bnd & pv.prm));

		p_err("--caps: %s is not in capaudit's own %s set, so the command cannot be given it",
		      cap_name(cap, name), pv.bnd & (1ULL << cap) ? "permitted" : "bounding");
		return EXIT_FAIL;
	}
	o.cmd = &argv[optind];
	o.launch = &l;
	o.syscall_results = true;   /* the point of run: which denials blocked */
	/* stdout is the report's */
	o.cmd_stdout_to_stderr = fmt == &output_json;
	record_run(&o, all_argc, all_argv);
	/* the kernel refused to start it with this set (a file with
	 * capabilities and its effective bit needs them in the bounding set:
	 * EPERM): not enough, and no record */
	if (!o.recorded && o.exec_errno == EPERM) {
		fprintf(stderr, "capaudit: this set is not enough: the kernel refused to execute "
			"%s with it\n", o.cmd[0]);
		return EXIT_FAIL;
	}
	if (!o.recorded)
		return EXIT_USAGE;   /* no verdict: record said why */

	if (recfile_load(o.out, &rec, err, sizeof(err))) {
		p_err("%s", err);
		return EXIT_FAIL;
	}
	suggest_build(&rec, &so, &sg);
	rr.cmd = o.cmd;
	rr.caps = l.caps;
	if (l.set_user && !l.user)   /* a bare uid without a passwd entry */
		snprintf(uidname, sizeof(uidname), "uid %u", l.uid);
	rr.user = !l.set_user ? NULL : l.user ? l.user : uidname;
	rr.exit_status = o.cmd_status;
	rr.check = check;
	rr.check_status = check ? run_check(check) : 0;
	rr.enough = rr.exit_status == 0 && rr.check_status == 0;
	rr.record = o.out;
	rr.sg = &sg;
	if (fmt->run(stdout, &rr) || fflush(stdout))
		p_err("cannot write the report: output error");
	suggest_free(&sg);
	record_free(&rec);
	return rr.enough ? EXIT_OK : EXIT_FAIL;
}
