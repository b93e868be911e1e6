/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attribution: which workload a process ran in (a container, a systemd
 * unit, a cgroup), as record format 4 tells (struct rec_process), and the
 * --container / --unit filters that choose one workload of a record. The
 * filters make views (analyze/recview.h) and never edit the loaded record:
 * report, report --suggest, report --emit and check read the same view
 * of the workload, in whatever order they are built.
 */
#ifndef CA_ANALYZE_ATTRIB_H
#define CA_ANALYZE_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/recview.h"
#include "recfile/recfile.h"

/* What report --by rolls checks up by. */
enum report_by {
	BY_PROCESS,     /* one block per process image (the default) */
	BY_PROGRAM,     /* one block per executable, every process of it together */
	BY_CONTAINER,
	BY_UNIT,
	BY_CGROUP,
};

/* "process", "program", "container", "unit", "cgroup" */
const char *report_by_name(enum report_by by);
/* The mode a name names; false if none (*by untouched). */
bool report_by_parse(const char *name, enum report_by *by);

/* The workload a process belongs to under by: its container id, unit or
 * cgroup path; NULL when it has none (a host process, no unit, a cgroup
 * not recorded) and for BY_PROCESS and BY_PROGRAM (one block of all). */
const char *workload_key(const struct rec_process *p, enum report_by by);
/* The program of an image: its executable, else its comm ("" if neither). */
const char *workload_program(const struct rec_process *p);

/* Whether p is an image of the program name: its comm, its executable,
 * or that executable's base name. NULL name: every image is. */
bool workload_program_is(const struct rec_process *p, const char *name);

/* v views only the images of the program name (workload_program_is())
 * and their checks; returns how many images it has. */
size_t record_view_program(struct rec_view *v, const struct record *r, const char *name);

/* report --container X / --unit NAME / --pid PID (NULL, 0: not given). */
struct workload_filter {
	const char *container;  /* id, unique id prefix (>= 3 hex digits), or
				 * name; its runtime's setup (runtime_setup
				 * images) is not the container's */
	const char *unit;       /* "cron" or "cron.service" */
	const uint32_t *pids;   /* processes by the pid their file gives them
				 * (rec_process_file_pid()), every image of
				 * each; a monitor's program lines have none */
	size_t npids;
};

/* A container id's first 12 digits: how runtimes show an id. */
#define WL_SHORT_ID 12

/*
 * v views only the processes f selects, and their checks; none given: v
 * views all of r. Several given: a process must match each. Returns 0, or
 * -1 with one line in err naming what matched nothing (or was ambiguous)
 * and listing what the record has; v then views nothing (diff compares
 * such a side as empty). Either way v is to be freed (rec_view_free()).
 */
int record_view_workload(struct rec_view *v, const struct record *r,
			 const struct workload_filter *f, char *err, size_t errlen);

/* report --cap: v views only the checks of the capabilities in caps, and
 * the processes that made one. Returns how many checks it has. */
size_t record_view_caps(struct rec_view *v, const struct record *r, uint64_t caps);

#endif
