/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From a record to what it shows: per process, capability (audited or
 * noaudit), the granted/denied counts, the syscalls and the kernel call
 * sites. Pure data; output_*.c turn it into text or JSON.
 */
#ifndef CA_REPORT_H
#define CA_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "facts/callsite.h"
#include "analyze/attrib.h"
#include "analyze/objset.h"
#include "analyze/syscount.h"
#include "lib/hindex.h"
#include "recfile/recfile.h"

/* The user-space places that led to a call site (record --user-stacks). */
struct site_user {
	const struct rec_ustack *us;  /* one example user stack (borrowed) */
	int own;                 /* its frame in the program's own code */
	uint64_t count;
};

struct site_stat {
	char *func;              /* call site function, or "?" without a stack */
	uint64_t granted, denied;
	const struct rec_stack *stack;  /* one example stack (borrowed), or NULL */
	struct site_user *users; /* by own frame, most checks first */
	size_t nusers, capusers;
	struct hindex user_idx;  /* users by own frame, while building */
	struct obj_set objects;  /* what its checks were about (record version 7) */
};

/* report --by user-site: one row per (user place, program, capability,
 * kernel call site, noaudit) */
struct usite_row {
	const struct rec_uframe *where;  /* own frame (borrowed); NULL: no user stack */
	const struct rec_ustack *us;     /* its stack */
	const char *comm;                /* program (borrowed) */
	int cap;
	bool noaudit;
	const char *func;                /* kernel call site (borrowed) */
	uint64_t granted, denied;
	struct obj_set objects;          /* what its checks were about */
};

struct cap_row {
	int cap;
	bool noaudit;
	enum noaudit_source noaudit_by;
	uint64_t granted, denied;
	bool init_ns, other_ns;  /* checked against init / another user ns */
	enum rec_userns userns;  /* what decided them: a row per kind */
	bool foreign_cred;       /* some were checked against credentials not
				  * the process's own (overlayfs: its mounter's) */
	bool no_effect;          /* some could not change the outcome */
	struct sys_count *sys;
	size_t nsys, capsys;
	struct site_stat *sites;
	size_t nsites, capsites;
	struct hindex site_idx;  /* sites by function, while building */
};

/* A process image; with --by container|unit|cgroup, a program in one
 * workload: every image of it there (same exe, else same comm). */
struct proc_row {
	const struct rec_process *proc;  /* borrowed; never NULL: the image,
					  * or the program's first (by pid) */
	struct cap_row *caps;
	size_t ncaps, capcaps;
	uint64_t hidden;         /* noaudit checks not shown */
	uint64_t checks;         /* checks shown (granted + denied) */
	const char *program;     /* workload_program() (borrowed) */
	size_t npids;            /* distinct processes (pid, start): 1 by program */
	size_t block;            /* its workload in report.blocks (--by other
				  * than program) */
	bool runtime_setup;      /* --by container: the runtime setting the
				  * container up (rec_process.runtime_setup):
				  * not counted in its block's totals */
};

/* --by container|unit|cgroup: one workload, its programs in a run of rows. */
struct wl_block {
	const char *key;         /* workload_key(): container id, unit, cgroup
				  * path; NULL: the processes with none */
	const char *label;       /* the container's name (else its id), the unit,
				  * the cgroup path; NULL with key */
	const struct rec_process *proc;  /* one of its images, the one naming
					  * the container if any (borrowed) */
	size_t first, nrows;     /* its rows in report.procs */
	size_t npids;            /* distinct processes (runtime setup's apart) */
	size_t no_cgroup;        /* without key: those whose cgroup is not
				  * recorded (they may have run in a workload) */
	uint64_t checks, hidden;
	uint64_t required, denied;   /* as report.required, .denied */
};

struct report_opts {
	bool noaudit;            /* include noaudit checks (report --noaudit) */
	bool by_user_site;       /* also group by user-space place */
	enum report_by by;       /* rows per image, or per workload and program */
	uint64_t only;           /* report --cap: the record read is a view of
				  * only checks of these (record_view_caps());
				  * 0: all */
};

struct report {
	const struct record *rec;        /* borrowed */
	struct proc_row *procs;
	size_t nprocs;
	uint64_t required;       /* bit per cap: granted in an audited check */
	uint64_t denied;         /* bit per cap: denied in an audited check */
	uint64_t hidden_checks;  /* noaudit checks left out */
	uint64_t total_checks;   /* sum of counts in the record */
	bool by_user_site;
	struct usite_row *urows; /* --by user-site, sorted by place */
	size_t nurows, capurows;
	struct hindex urow_idx;  /* urows by what they count, while building */
	bool have_ustacks;       /* the record has user stacks */
	enum report_by by;
	struct wl_block *blocks; /* --by other than program: workloads with a
				  * key by label, then the one without */
	size_t nblocks;
	size_t *row_of;          /* private: image -> row, while building */
	uint64_t only;           /* report_opts.only */
};

/* The name of a check's user-namespace kind: "host", "inside", "owner",
 * "child" (JSON), and what it means (text). */
const char *userns_name(enum rec_userns u);
const char *userns_meaning(enum rec_userns u);


int report_build(const struct record *r, const struct report_opts *o, struct report *out);
void report_free(struct report *rep);

#endif
