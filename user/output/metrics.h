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

#include "analyze/metrics_view.h"

/* The exposition text of m in a malloc'd buffer (NUL-terminated; *len its
 * length), or NULL. */
char *metrics_text(const struct metrics_snapshot *m, size_t *len);
/*
 * --metrics FILE: the text written beside FILE and renamed over it, so a
 * reader (node_exporter's textfile collector) sees the old file or the new
 * one, never a part (lib/outfile.c; a new file is mode 0644). 0, or -1 with
 * one line in err.
 */
int metrics_write_file(const char *path, const struct metrics_snapshot *m, char *err,
		       size_t errlen);

#endif
