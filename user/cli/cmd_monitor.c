// SPDX-License-Identifier: GPL-2.0
/* capaudit monitor: its options, then monitor_run() (monitor/monitor.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/baseline.h"
#include "analyze/metrics_view.h"
#include "cli/cmd_monitor.h"
#include "cli/options.h"
#include "cli/scope_opts.h"
#include "facts/attach.h"
#include "lib/httpd.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "output/metrics.h"
#include "monitor/monitor.h"
#include "record/procinfo.h"
#include "record/scope.h"

#define DEFAULT_MONITOR "capaudit-monitor.jsonl"

enum {
	O_ATTACH = CLI_LONG_ONLY, O_INTERVAL, O_EVENTS,
	O_BASELINE, O_MATCH, O_METRICS, O_LISTEN, O_NOAUDIT,
};

/* What the command line asked of the exporters, and their state. */
struct exporters {
	const char *baseline_path;
	struct baseline baseline;
	const char *metrics;       /* --metrics FILE */
	const char *listen;        /* --listen ADDR:PORT */
	struct httpd *httpd;
	unsigned int port;         /* the port --listen asked for (0: any) */
	enum check_match match;    /* --match */
	bool quiet;
	bool noaudit;              /* --noaudit: keep the kernel's probing (m.keep_noaudit) */
	struct trouble metrics_trouble;  /* --metrics writes that failed */
};

/* What the command line asked for: the monitor's options, the exporters'. */
struct monitor_args {
	struct mon_opts m;
	struct exporters x;
};

#define A struct monitor_args

static const struct cli_opt monitor_opts[] = {
	{ "all", 'a', no_argument, NULL, "monitor every process on the system (the default)",
	  NULL, CLI_ARG_ANY, CLI_FLAG(A, m.rec.all) },
	{ "pid", 'p', required_argument, "PID[,PID...]",
	  "monitor these processes and every descendant", NULL, CLI_ARG_PIDS, CLI_CUSTOM },
	{ "cgroup", O_SCOPE_CGROUP, required_argument, "PATH",
	  "monitor every process in this cgroup v2 subtree", NULL, CLI_ARG_ANY, CLI_CUSTOM },
	{ "container", O_SCOPE_CONTAINER, required_argument, "NAME|ID", "monitor a running container",
	  NULL, CLI_ARG_ANY, CLI_CUSTOM },
	{ "unit", O_SCOPE_UNIT, required_argument, "NAME[.service]", "monitor a systemd unit's processes",
	  NULL, CLI_ARG_ANY, CLI_CUSTOM },
	{ "output", 'o', required_argument, "FILE",
	  "checkpoint record (default " DEFAULT_MONITOR ")",
	  "rewritten in place every interval; report, check and --suggest read it while the "
	  "monitor runs", CLI_ARG_FILE, CLI_STRING(A, m.rec.out) },
	{ "interval", O_INTERVAL, required_argument, "SECONDS",
	  "between checkpoints (default 60)", NULL, CLI_ARG_ANY,
	  CLI_SECONDS(A, m.interval, 0.1, 86400,
		      "invalid --interval '%s': seconds from 0.1 to 86400 expected") },
	{ "events", O_EVENTS, required_argument, "FILE|-",
	  "one JSON line per first use, loss or finding (docs/monitor.md)",
	  "appended and flushed line by line; SIGHUP reopens FILE", CLI_ARG_FILE,
	  CLI_STRING(A, m.events) },
	{ "baseline", O_BASELINE, required_argument, "FILE",
	  "findings: uses this baseline does not allow (the format check --baseline reads)",
	  "an event line each (--events), counted in the metrics", CLI_ARG_FILE,
	  CLI_STRING(A, x.baseline_path) },
	{ "match", O_MATCH, required_argument, "LEVEL",
	  "what a use must match in --baseline: capability, syscall (default) or callsite",
	  "as check --match", CLI_ARG_MATCH,
	  CLI_MATCH(A, m.match, "invalid --match '%s': capability, syscall or callsite") },
	{ "metrics", O_METRICS, required_argument, "FILE",
	  "Prometheus text format, replaced at each checkpoint",
	  "node_exporter's textfile collector reads FILE.prom files", CLI_ARG_FILE,
	  CLI_STRING(A, x.metrics) },
	{ "listen", O_LISTEN, required_argument, "ADDR:PORT",
	  "serve the metrics at http://ADDR:PORT/metrics",
	  ":PORT is 127.0.0.1; 0.0.0.0:PORT or [::]:PORT every address", CLI_ARG_ANY,
	  CLI_STRING(A, x.listen) },
	{ "attach", O_ATTACH, required_argument, "MODE[,MODE...]",
	  "auto, or the attach modes to try, in order", NULL, CLI_ARG_ATTACH,
	  CLI_ATTACH(A, m.rec.modes) },
	{ "noaudit", O_NOAUDIT, no_argument, NULL,
	  "keep noaudit checks (the kernel probing) in events and metrics",
	  "(left out by default: they are no program's use of a capability)", CLI_ARG_ANY,
	  CLI_FLAG(A, m.keep_noaudit) },
	{ "quiet", 'q', no_argument, NULL, "no status line", NULL, CLI_ARG_ANY, CLI_FLAG(A, m.rec.quiet) },
	{ "verbose", 'v', no_argument, NULL, "show libbpf's log", NULL, CLI_ARG_ANY, CLI_FLAG(A, m.rec.verbose) },
	{ 0 },
};

#undef A

static const struct cli_cmd monitor_cmd = {
	.name = "monitor",
	.synopsis = "capaudit monitor [OPTIONS] [-a | -p PID[,PID...] | --cgroup PATH |\n"
		    "                           --container NAME|ID | --unit NAME]",
	.about = "  watch capability checks for as long as it runs, in bounded memory: a\n"
		 "  checkpoint record every --interval (one process line per program identity),\n"
		 "  first uses as JSON lines (--events), metrics (--metrics, --listen). SIGHUP\n"
		 "  reopens the event file, SIGINT and SIGTERM write a last checkpoint and exit 0.\n",
	.opts = monitor_opts,
};



/* -1 to go on, else the exit status (0 after --help). */
static int parse_opts(int argc, char **argv, struct monitor_args *a)
{
	struct mon_opts *m = &a->m;
	struct exporters *x = &a->x;
	struct rec_opts *o = &m->rec;
	struct cli_getopt g;
	struct httpd_addr addr;
	char err[1024];
	int c, scopes;

	memset(a, 0, sizeof(*a));
	x->metrics_trouble.what = "metrics file";
	o->out = DEFAULT_MONITOR;
	m->interval = 60;
	m->match = MATCH_SYSCALL;
	cli_getopt_init(&g, &monitor_cmd, a);
	while ((c = cli_next(&g, argc, argv)) >= 0)
		if (scope_opt(o, c, optarg))
			return EXIT_USAGE;
	if (c != CLI_END)
		return cli_exit_status(c);
	x->noaudit = m->keep_noaudit;
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
	if (x->baseline_path && !m->events && !x->metrics && !x->listen) {
		p_err("--baseline needs --events, --metrics or --listen: that is where findings go");
		return EXIT_USAGE;
	}
	if (x->metrics && (!x->metrics[0] || !strcmp(x->metrics, "-"))) {
		p_err("--metrics: a file name expected (it is replaced at each checkpoint)");
		return EXIT_USAGE;
	}
	if (x->listen && httpd_parse_listen(x->listen, &addr, err, sizeof(err))) {
		p_err("%s", err);
		return EXIT_USAGE;
	}
	x->port = x->listen ? addr.port : 0;
	/* what the server shows is every program and container of the host,
	 * to anyone who connects: said once, at the start */
	if (x->listen && !httpd_addr_loopback(&addr))
		p_err("warning: --listen %s is reachable from other hosts, and /metrics names "
		      "every program and container here to anyone who connects: bind 127.0.0.1 "
		      "and put an authenticating proxy in front (docs/monitor.md)", x->listen);
	/* a scope is watched for as long as the monitor runs, even empty */
	o->duration = o->scope_kind ? 1e12 : 0;
	/* 1 MiB, not record -a's 4: the consumer's mapping holds it twice in
	 * the resident set (kernel/bpf/ringbuf.c maps every page at mmap),
	 * 8 MiB of an idle monitor's 25; at 4,000 process starts a second
	 * (three events each, ~100 bytes) it still holds ~0.9 s of a monitor
	 * kept from the CPU, and what does not fit is counted (ringbuf_full) */
	o->ringbuf_kb = 1024;
	return -1;
}

/* ---- the exporters: metrics file and HTTP server ----------------------- */

/* The metrics now: the checkpoint's rows (none before the first), and
 * the monitor's write failures (c, or NULL before the first). */
static void publish(struct exporters *x, const struct record *cp, const struct mon_counters *c)
{
	struct metrics_snapshot snap = { 0 };
	char err[1200];

	if (cp) {
		metrics_from_record(cp, x->baseline_path ? &x->baseline : NULL, x->match, x->noaudit,
				    &snap);
		snap.checkpoint_time = now_realtime_ns() / 1e9;
	} else {
		snap.has_baseline = x->baseline_path != NULL;
	}
	self_usage(&snap.rss_bytes, &snap.cpu_seconds);
	if (c) {
		snap.write_failures[0] = c->checkpoint_failures;
		snap.write_failures[2] = c->events_failures;
	}
	snap.write_failures[1] = x->metrics_trouble.failures;
	/* the next checkpoint tries again */
	if (x->metrics && metrics_write_file(x->metrics, &snap, err, sizeof(err)))
		trouble_failed(&x->metrics_trouble, "--metrics: %s", err);
	else if (x->metrics)
		trouble_ok(&x->metrics_trouble);
	if (x->httpd && cp) {
		size_t len;
		char *text = metrics_text(&snap, &len);

		if (text)
			httpd_publish(x->httpd, text, len);
		free(text);
	}
	metrics_snapshot_free(&snap);
}

/* Attached, privileges dropped: the server's thread gets no more than the
 * monitor keeps. A metrics file that cannot be written is said now, not
 * after the first interval. */
static int exporters_start(void *ctx)
{
	struct exporters *x = ctx;
	char err[1200];

	if (x->listen) {
		x->httpd = httpd_start(x->listen, "/metrics",
				       "text/plain; version=0.0.4; charset=utf-8", err, sizeof(err));
		if (!x->httpd) {
			p_err("%s", err);
			return -1;
		}
		/* :0 took a free port: the only way to learn it, even with -q */
		if (!x->quiet || httpd_port(x->httpd) != x->port)
			fprintf(stderr, "capaudit: serving /metrics at --listen %s (port %u)\n",
				x->listen, httpd_port(x->httpd));
	}
	if (x->metrics) {
		struct metrics_snapshot snap = { .has_baseline = x->baseline_path != NULL };

		self_usage(&snap.rss_bytes, &snap.cpu_seconds);
		if (metrics_write_file(x->metrics, &snap, err, sizeof(err))) {
			p_err("--metrics: %s", err);
			return -1;
		}
	}
	return 0;
}

static void exporters_checkpointed(const struct mon_counters *c, const struct record *cp,
				   void *ctx)
{
	publish(ctx, cp, c);
}

int do_monitor(int argc, char **argv, int all_argc, char **all_argv)
{
	struct monitor_args a;
	char err[1200];
	bool missing = false;
	int rc = parse_opts(argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (a.x.baseline_path) {
		if (baseline_load(a.x.baseline_path, &a.x.baseline, &missing, err, sizeof(err))) {
			p_err("%s", err);
			return EXIT_FAIL;
		}
		a.m.baseline = &a.x.baseline;
	}
	a.x.quiet = a.m.rec.quiet;
	a.x.match = a.m.match;
	a.m.outputs[0] = a.x.metrics;
	if (a.x.metrics || a.x.listen) {
		a.m.started = exporters_start;
		a.m.checkpointed = exporters_checkpointed;
		a.m.ctx = &a.x;
	}
	rc = monitor_run(&a.m, all_argc, all_argv);
	httpd_stop(a.x.httpd);
	if (a.x.baseline_path)
		baseline_free(&a.x.baseline);
	return rc;
}
