/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capaudit monitor's state, shared by monitor.c (folding, checkpoints,
 * the loop) and monevents.c (the event stream).
 */
#ifndef CA_RECORD_MONSTATE_H
#define CA_RECORD_MONSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include "capaudit.h"
#include "lib/hindex.h"
#include "lib/ksyms.h"
#include "recfile/recfile.h"
#include "record/monitor.h"

struct session;
struct mon_events;

/* A program identity: what a checkpoint's process line stands for. */
struct mon_ident {
	char *exe;                /* NULL: not known (then comm names it) */
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
};

/* (identity, capability, verdict, call site function, syscall, flags) */
struct mon_row {
	uint32_t ident;
	int cap, ret, syscall;
	uint16_t flags;
	const char *site;
	int stack;                /* the first stack seen (frames above the site
				   * may differ between checks of the row), -1 */
	int stack_err;
	uint64_t count;           /* folded: exact */
	uint64_t pending;         /* in a CPU's cache at this checkpoint */
	int64_t first_ns, last_ns;
	uint64_t sys_failed, sys_other, sys_restart;
	int sys_errno;
};

struct monitor {
	const struct mon_opts *o;
	struct session *s;
	int argc;
	char **argv;
	const struct ksyms *ks;   /* the session's kernel symbols (borrowed) */
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
	uint64_t gen;             /* folds so far */
	uint64_t checkpoint;      /* checkpoints written */
	uint64_t checks;          /* checks folded */
	uint64_t pruned;          /* images forgotten */
	struct mon_counters last;
	struct mon_events *ev;    /* --events, or NULL */
};

/* monitor.c, for monevents.c */
uint32_t mon_identity(struct monitor *m, uint32_t tgid, uint64_t pstart, uint32_t exec_id,
		      const struct ca_meta *meta, bool count);
int mon_stack(struct monitor *m, uint64_t kstack);
const char *mon_site(const struct monitor *m, int stack);

/* monevents.c: --events FILE|- (docs/monitor.md) */
struct mon_events {
	struct monitor *m;
	char *path;               /* NULL: standard output */
	FILE *f;
	void *baseline;           /* struct baseline *, or NULL */
	struct hindex seen;       /* (identity, cap, verdict, site) already written */
	struct mon_seen *keys;
	size_t nkeys, cap_keys;
	struct rec_lost lost;     /* losses already written */
	uint64_t lines, findings;
	struct ca_event *deferred;  /* CA_EVENT_SMALL bytes each are valid */
	size_t ndefer, cap_defer;
	bool flushing;
};
#define MON_DEFER_MAX 4096
struct mon_seen {
	uint32_t ident;
	int cap, ret;
	const char *site;
};
struct mon_events *mon_events_open(struct monitor *m, const char *path, const char *baseline);
/* SIGHUP: the path again (logrotate); 0 or -1 (said) */
int mon_events_reopen(struct mon_events *ev);
void mon_events_newkey(struct mon_events *ev, const struct ca_event *e);
/* the events of images not known when they came (after each poll) */
void mon_events_flush(struct mon_events *ev);
/* a line for each kind of loss that grew */
void mon_events_losses(struct mon_events *ev);
void mon_events_close(struct mon_events *ev);

#endif
