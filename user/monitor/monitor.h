/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capaudit monitor: record the host (or a scope) for weeks with bounded
 * memory. Checks are folded per program identity, a checkpoint record is
 * written every interval, first uses go to an event stream.
 */
#ifndef CA_MONITOR_MONITOR_H
#define CA_MONITOR_MONITOR_H

#include <stdint.h>

#include "analyze/check.h"
#include "record/record.h"

struct mon_counters;
struct record;
struct baseline;

struct mon_opts {
	struct rec_opts rec;      /* scope, -o, --attach, -q, -v */
	double interval;          /* seconds between checkpoints */
	const char *events;       /* --events FILE|-, or NULL */
	struct baseline *baseline;  /* --baseline, loaded (borrowed), or NULL */
	enum check_match match;     /* --match: what a use must match in it */
	bool keep_noaudit;          /* --noaudit: events for the kernel's noaudit probing too */
	/* for whoever exports what the monitor sees (cli: --metrics,
	 * --listen): started() once attached and with the privileges dropped
	 * (a thread started then has no more than the monitor keeps), 0 or -1
	 * to stop (said); checkpointed() after each checkpoint is written,
	 * with the record it wrote */
	int (*started)(void *ctx);
	void (*checkpointed)(const struct mon_counters *c, const struct record *cp, void *ctx);
	void *ctx;
	/* other files those write every checkpoint (--metrics), or NULL: kept
	 * like -o, created and replaced with the caller's rights */
	const char *outputs[2];
};

/* What the intervals counted, totals since the monitor started: handed
 * to mon_opts.checkpointed. */
struct mon_counters {
	uint64_t checkpoint;      /* its number, from 1 */
	uint64_t checks;          /* checks folded so far (pending cache counts not included) */
	uint64_t identities;      /* program identities */
	uint64_t rows;            /* (identity, capability, verdict, call site, syscall, flags) */
	uint64_t live_images;     /* program images in the live process table */
	uint64_t pruned_images;   /* images forgotten after their exit */
	uint64_t events;          /* event lines written (first uses, losses, findings) */
	uint64_t findings;        /* uses the baseline does not allow */
	uint64_t lost;            /* every kind of loss (rec_lost_total) */
	long rss_kb;              /* the monitor's resident set now */
	double cpu_s;             /* its CPU time (user + system) */
	uint64_t checkpoint_failures;  /* checkpoints that could not be written */
	uint64_t events_failures;      /* event lines (or --events reopens) that failed */
};

/* Run until SIGINT or SIGTERM; capaudit monitor's exit code. */
int monitor_run(struct mon_opts *o, int all_argc, char **all_argv);

#endif
