/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capaudit monitor's metrics in the Prometheus text exposition format
 * (version 0.0.4), from plain data (docs/monitor.md, "Metrics"):
 *
 *   capaudit_checks_total{exe,comm,container,container_name,unit,cap,verdict}  counter
 *   capaudit_findings_total{kind}         counter (only with a baseline)
 *   capaudit_lost_total{kind}             counter, every kind of rec_lost_kinds
 *   capaudit_monitor_resident_bytes       gauge
 *   capaudit_monitor_cpu_seconds_total    counter
 *   capaudit_last_checkpoint_timestamp_seconds  gauge (absent before the first)
 *
 * Rows whose labels come out the same (the monitor's identities also hold
 * uid, build id and call site, which are not labels) are summed into one
 * series: a scrape never sees a duplicate. Label values are escaped
 * (backslash, double quote, newline); a byte that is not UTF-8 (the format
 * requires UTF-8) is first written as the four characters \xNN, as records
 * and JSON reports write it (lib/util.c utf8_sanitize). No sample carries a timestamp (the
 * node_exporter textfile collector refuses them).
 */
#ifndef CA_METRICS_H
#define CA_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/check.h"
#include "recfile/recfile.h"

/* One row of checks: a program identity's count for a capability and verdict.
 * NULL strings are empty labels. */
struct metrics_check_row {
	const char *exe;             /* executable path ("" when unknown) */
	const char *comm;
	const char *container;       /* container id, "" outside containers */
	const char *container_name;
	const char *unit;            /* systemd unit, "" when none */
	const char *cap;             /* "CAP_CHOWN" */
	bool denied;                 /* verdict="denied", else "granted" */
	uint64_t count;              /* checks since the monitor started */
};

struct metrics_snapshot {
	const struct metrics_check_row *checks;
	size_t nchecks;
	bool has_baseline;           /* findings are written only with --baseline */
	uint64_t findings[FK_NR];    /* by enum finding_kind; FK_NEW_CAP, FK_NEW_SITE
				      * and FK_NEW_DENIAL are written */
	struct rec_lost lost;        /* every kind is written, zeros too */
	uint64_t rss_bytes;          /* the monitor's resident set */
	double cpu_seconds;          /* the monitor's user + system CPU */
	double checkpoint_time;      /* Unix time of the last checkpoint; 0: none yet */
};

/* The exposition text of m to f. 0, or -1 (errno) when writing failed. */
int metrics_write(FILE *f, const struct metrics_snapshot *m);
/* The same text in a malloc'd buffer (NUL-terminated; *len its length), or NULL. */
char *metrics_text(const struct metrics_snapshot *m, size_t *len);
/*
 * --metrics FILE: the text written beside FILE and renamed over it, so a
 * reader (node_exporter's textfile collector) sees the old file or the new
 * one, never a part (lib/outfile.c; a new file is mode 0644). 0, or -1 with
 * one line in err.
 */
int metrics_write_file(const char *path, const struct metrics_snapshot *m, char *err,
		       size_t errlen);
/* The calling process's resident bytes (/proc/self/statm) and CPU seconds
 * (getrusage). 0, or -1 (the fields it could not read are 0). */
int metrics_self_usage(uint64_t *rss_bytes, double *cpu_seconds);

#endif
