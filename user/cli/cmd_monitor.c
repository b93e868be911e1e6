// SPDX-License-Identifier: GPL-2.0
/* capaudit monitor: its options, then monitor_run() (record/monitor.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_monitor.h"
#include "cli/options.h"
#include "facts/attach.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "record/monitor.h"
#include "record/procinfo.h"
#include "record/scope.h"

#define DEFAULT_MONITOR "capaudit-monitor.jsonl"

enum {
	O_ATTACH = CLI_LONG_ONLY, O_CGROUP, O_CONTAINER, O_UNIT, O_INTERVAL, O_EVENTS,
	O_BASELINE,
};

static const struct cli_opt monitor_opts[] = {
	{ "all", 'a', no_argument, NULL, "monitor every process on the system (the default)",
	  NULL },
	{ "pid", 'p', required_argument, "PID[,PID...]",
	  "monitor these processes and every descendant", NULL },
	{ "cgroup", O_CGROUP, required_argument, "PATH",
	  "monitor every process in this cgroup v2 subtree", NULL },
	{ "container", O_CONTAINER, required_argument, "NAME|ID", "monitor a running container",
	  NULL },
	{ "unit", O_UNIT, required_argument, "NAME[.service]", "monitor a systemd unit's processes",
	  NULL },
	{ "output", 'o', required_argument, "FILE",
	  "checkpoint record (default " DEFAULT_MONITOR ")",
	  "rewritten in place every interval; report, check and --suggest read it while the "
	  "monitor runs" },
	{ "interval", O_INTERVAL, required_argument, "SECONDS",
	  "between checkpoints (default 60)", NULL },
	{ "events", O_EVENTS, required_argument, "FILE|-",
	  "one JSON line per first use, loss or finding (docs/monitor.md)",
	  "appended and flushed line by line; SIGHUP reopens FILE" },
	{ "baseline", O_BASELINE, required_argument, "FILE",
	  "with --events: a line for each use this baseline does not allow",
	  "(the format check --baseline reads)" },
	{ "attach", O_ATTACH, required_argument, "MODE[,MODE...]",
	  "auto, or the attach modes to try, in order", NULL },
	{ "quiet", 'q', no_argument, NULL, "no status line", NULL },
	{ "verbose", 'v', no_argument, NULL, "show libbpf's log", NULL },
	{ 0 },
};

static const struct cli_cmd monitor_cmd = {
	.synopsis = "capaudit monitor [OPTIONS] [-a | -p PID[,PID...] | --cgroup PATH |\n"
		    "                           --container NAME|ID | --unit NAME]",
	.about = "  watch capability checks for as long as it runs, in bounded memory: a\n"
		 "  checkpoint record every --interval (one process line per program identity),\n"
		 "  first uses as JSON lines (--events). SIGHUP reopens the outputs, SIGINT and\n"
		 "  SIGTERM write a last checkpoint and exit 0.\n",
	.opts = monitor_opts,
};

static int parse_pids(struct rec_opts *o, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		uint32_t pid;

		if (parse_u32(tok, &pid) || pid == 0 || pid > 4194304 || o->npids == MAX_PIDS) {
			p_err("invalid PID '%s' in -p %s", tok, arg);
			rc = -1;
			break;
		}
		o->pidfds[o->npids] = pidfd_of((pid_t)pid);
		if (o->pidfds[o->npids] < 0)
			o->pidfds[o->npids] = -errno;
		o->pids[o->npids++] = (pid_t)pid;
	}
	free(copy);
	return rc || !o->npids ? -1 : 0;
}

static int set_scope(struct rec_opts *o, int kind)
{
	if (o->scope_kind) {
		p_err("give only one of --cgroup, --container and --unit");
		return -1;
	}
	o->scope_kind = kind;
	o->scope_arg = optarg;
	return 0;
}

static int monitor_opt(struct mon_opts *m, int c)
{
	struct rec_opts *o = &m->rec;
	char bad[256];

	switch (c) {
	case 'a':
		o->all = true;
		return 0;
	case 'p':
		return parse_pids(o, optarg);
	case O_CGROUP:
		return set_scope(o, SCOPE_CGROUP);
	case O_CONTAINER:
		return set_scope(o, SCOPE_CONTAINER);
	case O_UNIT:
		return set_scope(o, SCOPE_UNIT);
	case 'o':
		o->out = optarg;
		return 0;
	case O_INTERVAL:
		if (parse_seconds(optarg, &m->interval) || m->interval < 0.1 ||
		    m->interval > 86400) {
			p_err("invalid --interval '%s': seconds from 0.1 to 86400 expected", optarg);
			return -1;
		}
		return 0;
	case O_EVENTS:
		m->events = optarg;
		return 0;
	case O_BASELINE:
		m->baseline = optarg;
		return 0;
	case O_ATTACH:
		if (attach_list_parse(optarg, &o->modes, bad, sizeof(bad))) {
			p_err("%s", bad);
			return -1;
		}
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	case 'v':
		o->verbose = true;
		return 0;
	}
	return 0;
}

/* -1 to go on, else the exit status (0 after --help). */
static int parse_opts(int argc, char **argv, struct mon_opts *m)
{
	struct rec_opts *o = &m->rec;
	struct cli_getopt g;
	int c, scopes;

	memset(m, 0, sizeof(*m));
	o->out = DEFAULT_MONITOR;
	m->interval = 60;
	cli_getopt_init(&g, &monitor_cmd);
	while ((c = cli_next(&g, argc, argv)) >= 0)
		if (monitor_opt(m, c))
			return EXIT_USAGE;
	if (c != CLI_END)
		return cli_exit_status(c);
	if (optind < argc) {
		p_err("monitor runs no command ('%s'): record -- COMMAND does", argv[optind]);
		return EXIT_USAGE;
	}
	scopes = (o->npids > 0) + o->all + (o->scope_kind != 0);
	if (scopes > 1) {
		p_err("give only one of -a, -p, --cgroup, --container and --unit");
		return EXIT_USAGE;
	}
	o->all = !scopes || o->all;
	if (!o->out[0] || !strcmp(o->out, "-")) {
		p_err("-o: a file name expected (the checkpoint is rewritten in place)");
		return EXIT_USAGE;
	}
	if (m->baseline && !m->events) {
		p_err("--baseline needs --events: findings are event lines");
		return EXIT_USAGE;
	}
	/* a scope is watched for as long as the monitor runs, even empty */
	o->duration = o->scope_kind ? 1e12 : 0;
	o->ringbuf_kb = 4096;
	return -1;
}

int do_monitor(int argc, char **argv, int all_argc, char **all_argv)
{
	struct mon_opts m;
	int rc = parse_opts(argc, argv, &m);

	if (rc >= 0)
		return rc;
	return monitor_run(&m, all_argc, all_argv);
}
