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

#include "callsite.h"
#include "recfile.h"

struct site_stat {
	char *func;              /* call site function, or "?" without a stack */
	uint64_t granted, denied;
	const struct rec_stack *stack;  /* one example stack (borrowed), or NULL */
};

struct sys_stat {
	int nr;                  /* -1: not in a syscall */
	uint64_t count;
};

struct cap_row {
	int cap;
	bool noaudit;
	enum noaudit_source noaudit_by;
	uint64_t granted, denied;
	bool init_ns, other_ns;  /* checked against init / another user ns */
	struct sys_stat *sys;
	size_t nsys, capsys;
	struct site_stat *sites;
	size_t nsites, capsites;
};

struct proc_row {
	const struct rec_process *proc;  /* borrowed; never NULL */
	struct cap_row *caps;
	size_t ncaps, capcaps;
	uint64_t hidden;         /* noaudit checks not shown */
};

struct report_opts {
	bool all;                /* include noaudit checks */
};

struct report {
	const struct record *rec;        /* borrowed */
	bool all;
	struct proc_row *procs;
	size_t nprocs;
	uint64_t required;       /* bit per cap: granted in an audited check */
	uint64_t denied;         /* bit per cap: denied in an audited check */
	uint64_t hidden_checks;  /* noaudit checks left out */
	uint64_t total_checks;   /* sum of counts in the record */
};

/* Whether a check is noaudit, and how that was decided. */
enum noaudit_source check_noaudit(const struct record *r, const struct rec_check *c);

int report_build(const struct record *r, const struct report_opts *o, struct report *out);
void report_free(struct report *rep);

#endif
