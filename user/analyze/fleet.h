/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report --fleet: records of many hosts, and of one host at several times
 * (a monitor's checkpoints collected daily), folded per program build
 * (executable path + build id): on how many hosts and in how many
 * processes it ran, when first and last, and since when its required set
 * has not changed. Records are folded one at a time (fleet_add), so any
 * number of files costs the size of their summaries, not of their checks.
 */
#ifndef CA_FLEET_H
#define CA_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/hindex.h"
#include "recfile/recfile.h"

/* One record's view of one program build: its process lines there. */
struct fleet_obs {
	int64_t at_ns;           /* the record's end: when the checkpoint was written */
	int64_t run_ns;          /* the monitor run it belongs to (since_ns), else the
				  * record's start: checkpoints of one run are cumulative */
	size_t host, file;       /* indexes in fleet.hosts, fleet.files */
	uint64_t required;       /* required as of this record (suggest: replacements applied) */
	uint64_t pids;           /* processes it stands for (sum of pids) */
};

/* The fleet-wide required set grew at a record: which, where, what. */
struct fleet_change {
	int64_t at_ns;
	size_t host, file;
	uint64_t added;
};

/* CAP_SYS_ADMIN (or another broad capability) whose uses by this build a
 * narrower one covers. */
struct fleet_repl {
	int replace, with;
};

struct fleet_ident {
	char *exe;               /* the executable path ("" when not known) */
	char *build_id;          /* "" when not known */
	char *comm;              /* a name for it when exe is not known */
	size_t nhosts;           /* distinct hosts it ran on */
	size_t *host_list;       /* those hosts (indexes in fleet.hosts), in order */
	size_t nfiles;           /* records that have it */
	uint64_t pids;           /* processes: the latest record of each host's run, summed */
	int64_t first_ns, last_ns;   /* its first and last check */
	uint64_t required;       /* the union over every record (a build's set only
				  * grows as more of its code runs) */
	int64_t stable_ns;       /* the record that made `required` what it is now */
	size_t stable_host, stable_file;
	int64_t first_at_ns;     /* its first record's time */
	struct fleet_change *changes;  /* after its first record, in time order */
	size_t nchanges;
	struct fleet_repl *repl;
	size_t nrepl, caprepl;
	size_t nbuilds;          /* builds seen of the same exe (1: no other) */
	/* private, while folding */
	struct fleet_obs *obs;
	size_t nobs, capobs;
	size_t last_file;        /* 1 + the file of obs[nobs - 1] */
};

struct fleet {
	struct fleet_ident *ids;  /* after fleet_finish: by exe, then build id */
	size_t nids, capids;
	char **hosts;            /* host names: the header's host, else the file name */
	bool *host_from_file;    /* parallel: named by its file (no host in the header) */
	size_t nhosts, caphosts;
	char **files;            /* every record folded, in order */
	size_t nfiles, capfiles;
	int64_t first_ns, last_ns;   /* over every record's start and end */
	struct hindex id_idx, host_idx;   /* private */
};

void fleet_init(struct fleet *f);
/* Fold one record read from file (its name, for hosts without one). */
void fleet_add(struct fleet *f, const struct record *r, const char *file);
/* Orders the identities and works out hosts, processes and stability. */
void fleet_finish(struct fleet *f);
void fleet_free(struct fleet *f);

#endif
