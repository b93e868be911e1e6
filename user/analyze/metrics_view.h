/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What capaudit monitor's metrics show, as plain data: filled by the
 * monitor (monitor/ may include analyze/, not output/), written in the
 * Prometheus text format by output/metrics.c.
 */
#ifndef CA_METRICS_VIEW_H
#define CA_METRICS_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/check.h"
#include "recfile/recfile.h"

/* At most this many distinct exe label values; the checks of further
 * programs are counted under METRICS_EXE_OTHER (and in exe_overflow). */
#define METRICS_EXE_MAX 1000
#define METRICS_EXE_OTHER "(other)"
/* Deleted, memfd and temporary executables (/tmp, /var/tmp, /dev/shm,
 * /run/user): one value, so that a host that runs many of them does not
 * grow the label set without bound; their comm label is the same value
 * (and METRICS_EXE_OTHER's too). */
#define METRICS_EXE_TRANSIENT "(transient)"

/* One row of checks: a program identity's count for a capability and verdict.
 * NULL strings are empty labels. */
struct metrics_check_row {
	const char *exe;             /* executable path ("" when unknown), folded */
	const char *comm;
	const char *container;       /* container id, "" outside containers */
	const char *container_name;
	const char *unit;            /* systemd unit, "" when none */
	const char *cap;             /* "CAP_CHOWN" */
	bool denied;                 /* verdict="denied", else "granted" */
	uint64_t count;              /* checks since the monitor started */
	bool noaudit;                /* a noaudit check (only with keep_noaudit) */
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
	/* writes that failed (the monitor goes on, and tries again): the
	 * checkpoint (-o), the metrics file, event lines */
	uint64_t write_failures[3];
	char **cap_names;            /* metrics_from_record()'s: the rows' cap strings */
	uint64_t exe_overflow;       /* rows counted under METRICS_EXE_OTHER */
	uint64_t noaudit_left_out;   /* checks of noaudit rows not shown */
	/* what the checks were about (record format 7), by kind only: a
	 * path or a pid is never a label (unbounded, and a user's) */
	bool has_objects;            /* some check had objects: the counts are written */
	uint64_t objects[OBJ_KIND_NR];   /* checks seen with an object of each kind */
	uint64_t objects_unlisted;   /* checks about objects a check line could not list */
};

struct baseline;

/*
 * The checks and findings of a record (a monitor's checkpoint): one row
 * per check line, labelled from its process line (the strings are the
 * record's: valid while it is); findings as `check --baseline b` counts
 * them on this record (--match match), when b is not NULL. noaudit checks
 * (the kernel probing) are left out unless keep_noaudit. The other
 * fields are the caller's to fill. Free with metrics_snapshot_free().
 */
void metrics_from_record(const struct record *r, struct baseline *b, enum check_match match,
			 bool keep_noaudit, struct metrics_snapshot *out);
/* An executable as an exe label value: transient ones (deleted, memfd,
 * temporary directories) and paths that named no file (relative, a
 * descriptor's) folded into METRICS_EXE_TRANSIENT. */
const char *metrics_exe_label(const char *exe);
void metrics_snapshot_free(struct metrics_snapshot *m);

#endif
