/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capaudit monitor's bounded tables: checks folded per program identity
 * (monfold.c), and the checkpoint record they make. Plain data: the
 * session and the kernel's maps are monitor.c's.
 */
#ifndef CA_MONITOR_MONFOLD_H
#define CA_MONITOR_MONFOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include "tracer/abi.h"
#include "lib/hindex.h"
#include "recfile/recfile.h"
#include "tracer/aggtab.h"

/* A checkpoint's process line for identity i has pid MON_PID_BASE + i:
 * above any pid (PID_MAX_LIMIT is 2^22), stable for the monitor's life. */
#define MON_PID_BASE 0x40000000U

/* A program identity: what a checkpoint's process line stands for. */
struct mon_ident {
	char *exe;                /* NULL: not known (then comm names it) */
	char *build_id;           /* the executable's, NULL: not known (an upgrade
				   * at the same path is another identity) */
	char *comm;               /* of its first image */
	char *cgroup;             /* NULL: not known */
	char *container_id, *container_name, *container_runtime, *unit;
	uint32_t uid;
	bool runtime_setup;
	uint64_t pids;            /* images folded into it */
	int64_t first_ns;         /* its first check, epoch ns */
};

/* A kernel stack, symbolized once (by its key in the kernel's stack map). */
struct mon_stack {
	uint64_t kstack;
	char **frames;
	size_t n;
	const char *site;         /* the call site's function (interned), or "?" */
	bool noaudit;             /* a noaudit API or caller on it */
	uint64_t forgot_gen;      /* the fold that last took it out of the kernel's map */
};

/* What a row's checks were about (monobjs.c): at most MON_OBJ_PER_ROW
 * objects a row, MON_OBJ_MAX in the monitor (about 1 KiB each at most:
 * 64 MiB), the checks about others counted in objects_more. */
#define MON_OBJ_PER_ROW 4
#define MON_OBJ_MAX 65536
struct mon_obj {
	uint64_t fp;              /* the hook's fingerprint */
	uint64_t count;           /* checks about it, folded */
	struct rec_object o;
};

/* (identity, capability, verdict, call site function, syscall, flags) */
struct mon_row {
	uint32_t ident;
	int cap, ret, syscall;
	uint16_t flags;
	uint32_t op;              /* ca_key.op */
	const char *site;
	int stack;                /* the first stack seen (frames above the site
				   * may differ between checks of the row), -1 */
	int stack_err;
	uint64_t count;           /* folded: exact */
	uint64_t pending;         /* in a CPU's cache at this checkpoint */
	int64_t first_ns, last_ns;
	uint64_t sys_failed, sys_other, sys_restart;
	int sys_errno;
	struct mon_obj *objs;
	uint8_t nobjs;
	uint64_t objs_more;       /* checks about objects not kept */
};

/* The monitor's bound on what grows with the host's variety, not its
 * process rate: program identities and rows. Past them, a new identity's
 * checks go to one identity that says so (comm MON_PAST_COMM, no exe) and a
 * new row's to that identity's row of the capability and verdict (no
 * call site); the checks stay counted, what was not kept is counted
 * (ids_past, rows_past: the checkpoint's monitor object). About 1 KiB an
 * identity and 0.3 KiB a row with their indexes and strings (estimated,
 * not measured at the bounds): 16 MiB and 40 MiB at most. */
#define MON_IDENT_MAX 16384
#define MON_ROW_MAX 131072
#define MON_PAST_COMM "(past the monitor's bound)"

struct mon_fold {
	uint64_t ids_past;        /* identities not kept (MON_IDENT_MAX) */
	uint64_t rows_past;       /* rows not kept (MON_ROW_MAX) */
	bool has_past;            /* past_ident made */
	uint32_t past_ident;
	struct mon_ident *ids;
	size_t nids, cap_ids;
	struct hindex ident_idx;
	struct mon_stack *stacks;
	size_t nstacks, cap_stacks;
	struct hindex stack_idx;
	struct mon_row *rows;
	size_t nrows, cap_rows;
	struct hindex row_idx;
	struct record strs;       /* interned call site names only */
	size_t nobjs;             /* objects held by all rows (MON_OBJ_MAX) */
};

/* The identity (exe, cgroup, uid), or (comm, cgroup, uid) when exe is
 * NULL, added if new; p (or NULL) gives the container, unit and runtime
 * flag of a new one. */
uint32_t fold_ident(struct mon_fold *m, const char *exe, const char *build_id, const char *comm,
		    const struct rec_process *p, const char *cgroup, uint32_t uid, int64_t first_ns);
/* The stack of kstack, or -1; a new one from its frames (taken). */
int fold_find_stack(const struct mon_fold *m, uint64_t kstack);
int fold_add_stack(struct mon_fold *m, uint64_t kstack, char **frames, size_t n);
/* A stack's call site function ("?" for -1: no stack). */
const char *fold_site(const struct mon_fold *m, int stack);
/* The row of key k's (cap, ret, syscall, flags) at stack's call site in
 * identity ident, added if new (counts zero). */
struct mon_row *fold_row(struct mon_fold *m, uint32_t ident, const struct ca_key *k, int stack,
			 int64_t first_ns);
/* The row of key k, or NULL (none added). */
struct mon_row *fold_find_row(const struct mon_fold *m, uint32_t ident, const struct ca_key *k,
			      int stack);
/* monobjs.c: the object e on row r, if it is new and fits the bounds */
void fold_row_object(struct mon_fold *f, struct mon_row *r, const struct ca_obj_event *e);
/* the drained counts of the row's objects (fingerprints not kept: more) */
void fold_row_objcounts(struct mon_row *r, const struct agg_objs *a);
/* copies of the row's objects onto check line c, and its objects_more */
void fold_row_objects_to(const struct mon_row *r, struct rec_check *c);
void fold_row_objects_free(struct mon_row *r);
/* Identity lines (those with a count), check lines, their stacks into cp;
 * returns the checks they hold (count + pending). */
uint64_t fold_to_record(const struct mon_fold *m, struct record *cp);
void fold_free(struct mon_fold *m);

#endif
