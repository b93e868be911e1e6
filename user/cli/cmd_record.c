// SPDX-License-Identifier: GPL-2.0
/* capaudit record: its options, then record_run() (record/session.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "facts/attach.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "record/procinfo.h"
#include "cli/cmd_record.h"
#include "cli/options.h"
#include "cli/scope_opts.h"
#include "recfile/recfile.h"
#include "record/launch.h"
#include "record/record.h"
#include "record/scope.h"
#include "record/service.h"

/* ---- options ------------------------------------------------------------ */

enum {
	O_ATTACH = CLI_LONG_ONLY, O_SYSCALL_RESULTS, O_EXACT_STACKS, O_USER_STACKS,
	O_MAX_KEYS, O_RINGBUF_KB, O_SERVICE, O_PTRACE_ACCESS,
	O_WAIT,
};

/* What the command line asked for. */
struct record_args {
	struct rec_opts o;
	const char *service_file;   /* --service FILE: read once the options are known */
};

#define A struct record_args

/* --ptrace-access: PTRACE_ACCESS_ON, PTRACE_ACCESS_OFF */
static const char *const on_off[] = { "on", "off", NULL };

static const struct cli_opt record_opts[] = {
	{ "pid", 'p', required_argument, "PID[,PID...]",
	  "follow these processes and every descendant", NULL, CLI_ARG_PIDS, CLI_CUSTOM },
	{ "all", 'a', no_argument, NULL, "record every process on the system", NULL,
	  CLI_ARG_ANY, CLI_FLAG(A, o.all) },
	{ "cgroup", O_SCOPE_CGROUP, required_argument, "PATH",
	  "record every process in this cgroup v2 subtree",
	  "(below the v2 mount point, or a full path), also those that join later; stops "
	  "when it is empty", CLI_ARG_ANY, CLI_CUSTOM },
	{ "container", O_SCOPE_CONTAINER, required_argument, "NAME|ID",
	  "record a running container (podman, docker, containerd, CRI-O, Kubernetes)",
	  "by name, id or unique id prefix; stops when it exits", CLI_ARG_ANY, CLI_CUSTOM },
	{ "wait", O_WAIT, no_argument, NULL,
	  "with --container: wait for it to start, and record it from its first exec",
	  "(start it in another shell; every process is followed until it has started, "
	  "then only it; -d bounds the wait and the recording)", CLI_ARG_ANY,
	  CLI_FLAG(A, o.scope_wait) },
	{ "unit", O_SCOPE_UNIT, required_argument, "NAME[.service]",
	  "record a systemd unit's processes (its cgroup);", "stops when they have exited",
	  CLI_ARG_ANY, CLI_CUSTOM },
	{ "output", 'o', required_argument, "FILE", "record file (default " DEFAULT_RECORD ")",
	  NULL, CLI_ARG_FILE, CLI_STRING(A, o.out) },
	{ "duration", 'd', required_argument, "SECONDS", "stop after SECONDS", NULL,
	  CLI_ARG_ANY, CLI_SECONDS(A, o.duration, 0, 0, "invalid duration '%s': seconds > 0 expected") },
	{ "service", O_SERVICE, required_argument, "UNIT|FILE",
	  "run the unit's ExecStart= as its file and drop-ins configure it",
	  "(a file, or a unit name found on systemd's unit path; its drop-ins, "
	  "NAME.service.d/*.conf, applied as systemd applies them; User=, Group=, "
	  "SupplementaryGroups=, AmbientCapabilities=, CapabilityBoundingSet=, "
	  "NoNewPrivileges=, Environment=; docs/service.md); prints the capabilities it grants "
	  "that no check asked for", CLI_ARG_UNITFILE, CLI_STRING(A, service_file) },
	{ "attach", O_ATTACH, required_argument, "MODE[,MODE...]",
	  "auto, or the attach modes to try, in order",
	  "(auto: tp_btf, tracepoint, fexit, kprobe, the first that works)", CLI_ARG_ATTACH,
	  CLI_ATTACH(A, o.modes) },
	{ "syscall-results", O_SYSCALL_RESULTS, no_argument, NULL,
	  "learn whether syscalls with a denied check failed",
	  "(blocking) or went on (advisory); slows every syscall on the system while "
	  "recording", CLI_ARG_ANY, CLI_FLAG(A, o.syscall_results) },
	{ "ptrace-access", O_PTRACE_ACCESS, required_argument, "on|off",
	  "watch ptrace access the kernel allows without asking for CAP_SYS_PTRACE",
	  "(another process reached while the caller's set covers the target's: "
	  "docs/capsites.md); default on with -- COMMAND and --service, off otherwise: "
	  "it slows every syscall on the system while recording", CLI_ARG_ANY,
	  CLI_ENUM(A, o.ptrace_access, on_off, PTRACE_ACCESS_ON,
		   "invalid --ptrace-access '%s': on or off expected") },
	{ "user-stacks", O_USER_STACKS, no_argument, NULL,
	  "also capture the user stack where the kernel one is walked",
	  "(symbolized at once: function, file:line where debug info exists)", CLI_ARG_ANY,
	  CLI_FLAG(A, o.user_stacks) },
	{ "exact-stacks", O_EXACT_STACKS, no_argument, NULL,
	  "walk the kernel stack on every check",
	  "instead of trusting the call-site cache between re-checks (about 10x the cost)",
	  CLI_ARG_ANY, CLI_FLAG(A, o.exact_stacks) },
	{ "max-keys", O_MAX_KEYS, required_argument, "N",
	  "entries of the kernel's aggregation map, fixed",
	  "(default: sized from the host, grown when it fills fast); it is drained while "
	  "recording, and what finds it full is counted per capability", CLI_ARG_ANY,
	  CLI_U32(A, o.max_keys, 1, 1U << 24, "invalid --max-keys '%s': 1..16777216 expected") },
	{ "ringbuf-kb", O_RINGBUF_KB, required_argument, "N",
	  "process event buffer in KiB, a power of two >= 4", "(default 1024, 4096 with -a)",
	  CLI_ARG_ANY, CLI_U32_POW2(A, o.ringbuf_kb, 4, 1U << 20, "invalid --ringbuf-kb '%s': "
				   "a power of two from 4 to 1048576 expected") },
	{ "quiet", 'q', no_argument, NULL, "no live status line", NULL, CLI_ARG_ANY,
	  CLI_FLAG(A, o.quiet) },
	{ "verbose", 'v', no_argument, NULL, "show libbpf's log", NULL, CLI_ARG_ANY,
	  CLI_FLAG(A, o.verbose) },
	{ 0 },
};

#undef A

static const struct cli_cmd record_cmd = {
	.name = "record",
	.synopsis = "capaudit record [OPTIONS] (-p PID[,PID...] | -a | --cgroup PATH |\n"
		    "                          --container NAME|ID | --unit NAME | -- COMMAND [ARGS...])\n"
		    "capaudit record [OPTIONS] --service UNIT|FILE.service",
	.about = "  record the capability checks of running processes and their descendants\n"
		 "  (-p), of every process (-a), of a cgroup, container or systemd unit, or of\n"
		 "  COMMAND's process tree until it exits; with --service, of a unit's\n"
		 "  ExecStart= started as its file and drop-ins configure it (user, groups,\n"
		 "  capability sets, no_new_privs).\n",
	.opts = record_opts,
	.in_order = 1,
};


/* -1 to go on and record, else the exit status (0 after --help). */
static int parse_opts(int argc, char **argv, struct record_args *a)
{
	struct rec_opts *o = &a->o;
	struct cli_getopt g;
	int c, scopes;

	memset(a, 0, sizeof(*a));
	o->out = DEFAULT_RECORD;
	cli_getopt_init(&g, &record_cmd, a);
	while ((c = cli_next(&g, argc, argv)) >= 0)
		if (scope_opt(o, c, optarg))
			return EXIT_USAGE;
	if (c != CLI_END)
		return cli_exit_status(c);
	if (optind < argc)
		o->cmd = &argv[optind];
	scopes = (o->npids > 0) + o->all + (o->cmd != NULL) + (o->scope_kind != 0) +
		 (a->service_file != NULL);
	if (scopes != 1) {
		p_err(scopes ? "give only one of -p, -a, --cgroup, --container, --unit, --service "
		      "and -- COMMAND" : "what to record? give -p PID, -a, --cgroup PATH, "
		      "--container NAME, --unit NAME, --service FILE or -- COMMAND");
		return EXIT_USAGE;
	}
	if (o->scope_wait && o->scope_kind != SCOPE_CONTAINER) {
		p_err("--wait waits for a container to start: give it with --container NAME|ID");
		return EXIT_USAGE;
	}
	if (!o->out[0]) {
		p_err("-o: empty file name");
		return EXIT_USAGE;
	}
	return -1;
}

/* --service: the unit's first command is the command; it starts as the
 * unit file says (record/service.c) */
static int record_service(struct rec_opts *o, const char *file, int all_argc, char **all_argv)
{
	struct service svc;
	struct launch l = { .service = &svc };
	int rc = service_prepare(file, NULL, &svc);

	if (rc)
		return rc;
	o->launch = &l;
	o->service = &svc;
	o->cmd = svc.unit.exec[0].argv;
	rc = record_run(o, all_argc, all_argv);
	service_free(&svc);
	return rc;
}

int do_record(int argc, char **argv, int all_argc, char **all_argv)
{
	struct record_args a;
	int rc = parse_opts(argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (a.service_file)
		return record_service(&a.o, a.service_file, all_argc, all_argv);
	return record_run(&a.o, all_argc, all_argv);
}
