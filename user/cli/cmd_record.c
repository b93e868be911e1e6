// SPDX-License-Identifier: GPL-2.0
/* capaudit record: its options, then record_run() (record/session.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "facts/attach.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "record/procinfo.h"
#include "cli/cmd_record.h"
#include "record/record.h"

/* ---- options ------------------------------------------------------------ */

static const char record_usage[] =
	"usage: capaudit record [-p PID[,PID...] | -a | -- COMMAND [ARGS...]]\n"
	"                       [-o FILE] [-d SECONDS] [--attach MODE] [--syscall-results]\n"
	"                       [--exact-stacks] [--user-stacks] [--max-keys N] [--ringbuf-kb N]\n"
	"                       [-q] [-v]\n"
	"  -p PID[,PID...]  follow these processes and every descendant\n"
	"  -a               record every process on the system\n"
	"  -- COMMAND       run COMMAND, record its process tree until it exits\n"
	"  -o FILE          record file (default " DEFAULT_RECORD ")\n"
	"  -d SECONDS       stop after SECONDS\n"
	"  --attach MODE[,MODE...]  auto (tp_btf, tracepoint, fexit, kprobe: the first\n"
	"                   that works), or the modes to try, in order\n"
	"  --syscall-results  learn whether syscalls with a denied check then failed\n"
	"                   (blocking) or went on (advisory); slows every syscall on\n"
	"                   the system while recording\n"
	"  --user-stacks    also capture the user stack where the kernel one is walked,\n"
	"                   symbolized now (function, file:line where debug info exists)\n"
	"  --exact-stacks   walk the kernel stack on every check instead of trusting\n"
	"                   the call-site cache between re-checks (about 10x the cost)\n"
	"  --max-keys N     entries of the kernel's aggregation map, fixed (default: sized\n"
	"                   from the host, grown when it fills fast); it is drained while\n"
	"                   recording, and what finds it full is counted per capability\n"
	"  --ringbuf-kb N   process event buffer, a power of two >= 4 (default 1024,\n"
	"                   4096 with -a)\n"
	"  -q               no live status line\n"
	"  -v               show libbpf's log\n";

static int parse_pids(struct rec_opts *o, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t pid;

		if (parse_u32(tok, &pid) || pid == 0 || pid > 4194304) {
			p_err("invalid PID '%s' in -p %s", tok, arg);
			rc = -1;
			break;
		}
		if (o->npids == MAX_PIDS) {
			p_err("-p: more than %d PIDs", MAX_PIDS);
			rc = -1;
			break;
		}
		/* pinned now: if it exits before recording begins, a process
		 * given its pid is not taken for it */
		o->pidfds[o->npids] = pidfd_of((pid_t)pid);
		if (o->pidfds[o->npids] < 0)
			o->pidfds[o->npids] = -errno;
		o->pids[o->npids++] = (pid_t)pid;
	}
	if (!rc && !o->npids) {
		p_err("-p needs at least one PID");
		rc = -1;
	}
	free(copy);
	return rc;
}

static int parse_opts(int argc, char **argv, struct rec_opts *o)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "all", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "attach", required_argument, NULL, 'A' },
		{ "syscall-results", no_argument, NULL, 'R' },
		{ "exact-stacks", no_argument, NULL, 'X' },
		{ "user-stacks", no_argument, NULL, 'U' },
		{ "max-keys", required_argument, NULL, 'K' },
		{ "ringbuf-kb", required_argument, NULL, 'B' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c, scopes;
	char bad_mode[256];

	memset(o, 0, sizeof(*o));
	o->out = DEFAULT_RECORD;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:ao:d:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_pids(o, optarg))
				return -1;
			break;
		case 'a':
			o->all = true;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'd':
			if (parse_seconds(optarg, &o->duration)) {
				p_err("invalid duration '%s': seconds > 0 expected", optarg);
				return -1;
			}
			break;
		case 'A':
			if (attach_list_parse(optarg, &o->modes, bad_mode, sizeof(bad_mode))) {
				p_err("%s", bad_mode);
				return -1;
			}
			break;
		case 'R':
			o->syscall_results = true;
			break;
		case 'U':
			o->user_stacks = true;
			break;
		case 'X':
			o->exact_stacks = true;
			break;
		case 'K':
			if (parse_u32(optarg, &o->max_keys) || o->max_keys < 1 ||
			    o->max_keys > (1U << 24)) {
				p_err("invalid --max-keys '%s': 1..16777216 expected", optarg);
				return -1;
			}
			break;
		case 'B':
			if (parse_u32(optarg, &o->ringbuf_kb) || o->ringbuf_kb < 4 ||
			    o->ringbuf_kb > (1U << 20) || (o->ringbuf_kb & (o->ringbuf_kb - 1))) {
				p_err("invalid --ringbuf-kb '%s': a power of two from 4 to 1048576 "
				      "expected", optarg);
				return -1;
			}
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			fputs(record_usage, stdout);
			exit(0);
		default:
			fputs(record_usage, stderr);
			return -1;
		}
	}
	if (optind < argc)
		o->cmd = &argv[optind];
	scopes = (o->npids > 0) + o->all + (o->cmd != NULL);
	if (scopes != 1) {
		p_err(scopes ? "give only one of -p, -a and -- COMMAND" :
		      "what to record? give -p PID, -a or -- COMMAND");
		return -1;
	}
	if (!o->out[0]) {
		p_err("-o: empty file name");
		return -1;
	}
	return 0;
}

int do_record(int argc, char **argv, int all_argc, char **all_argv)
{
	struct rec_opts o;

	if (parse_opts(argc, argv, &o))
		return 2;
	return record_run(&o, all_argc, all_argv);
}

/* -p: the PIDs that could not be pinned when named; 0 if none. */
