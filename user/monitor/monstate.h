/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capaudit monitor's state, shared by monitor.c (folding, checkpoints,
 * the loop) and monevents.c (the event stream).
 */
#ifndef CA_MONITOR_MONSTATE_H
#define CA_MONITOR_MONSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include "tracer/abi.h"
#include "lib/hindex.h"
#include "lib/ksyms.h"
#include "lib/msg.h"
#include "recfile/recfile.h"
#include "monitor/monfold.h"
#include "monitor/monitor.h"
#include "tracer/tracer.h"

struct session;
struct mon_events;

struct monitor {
	const struct mon_opts *o;
	struct session *sess;     /* the recording (record/record.h) */
	struct tracer *tr;        /* its tracer, attached */
	struct record *live;      /* its live process table */
	int argc;
	char **argv;
	const struct ksyms *ks;   /* the session's kernel symbols (borrowed) */
	struct mon_fold f;        /* identities, stacks, rows */
	uint64_t gen;             /* folds so far */
	uint64_t checkpoint;      /* checkpoints written */
	uint64_t checks;          /* checks folded */
	uint64_t pruned;          /* images forgotten */
	size_t prune_at;          /* a fold and prune between checkpoints when
				   * the process table reaches this size */
	uint64_t extra_folds;     /* those folds */
	struct mon_counters last;
	struct mon_events *ev;    /* --events, or NULL */
	struct trouble ckpt_trouble;  /* checkpoints that could not be written */
};

/* How many images may join the process table between two prunes: a host
 * starting processes faster than this a checkpoint interval gets a fold
 * and prune in between, so that the exited ones wait for at most two
 * such rounds, not two intervals (at 4,000 process starts a second and
 * --interval 60: 480,000 images). */
#define MON_PRUNE_BACKLOG 8192

/* monitor.c, for monevents.c */
uint32_t mon_identity(struct monitor *m, uint32_t tgid, uint64_t pstart, uint32_t exec_id,
		      const struct ca_meta *meta, bool count);
int mon_stack(struct monitor *m, uint64_t kstack);

/* monevents.c: --events FILE|- (docs/monitor.md) */
struct mon_events {
	struct monitor *m;
	char *path;               /* NULL: standard output */
	FILE *f;
	struct hindex seen;       /* (identity, cap, verdict, site) already written */
	struct mon_seen *keys;
	size_t nkeys, cap_keys;
	struct rec_lost lost;     /* losses already written */
	uint64_t lines, findings;
	struct ca_event *deferred;  /* CA_EVENT_SMALL bytes each are valid */
	size_t ndefer, cap_defer;
	struct ca_event *held;    /* new keys of this poll: their object events
				   * follow them (CA_EVENT_SMALL bytes each) */
	size_t nheld, cap_held;
	bool flushing;
	bool reopen;              /* SIGHUP's reopen failed: tried again each checkpoint */
	struct trouble trouble;   /* lines or reopens that failed */
};
#define MON_DEFER_MAX 4096
#define MON_DEFER_NS 100000000LL
struct mon_seen {
	uint32_t ident;
	int cap, ret;
	const char *site;
};
struct mon_events *mon_events_open(struct monitor *m, const char *path);
/* SIGHUP: the path again (logrotate); 0 or -1 (said) */
int mon_events_reopen(struct mon_events *ev);
void mon_events_retry(struct mon_events *ev);
void mon_events_newkey(struct mon_events *ev, const struct ca_event *e);
/* the events of images not known when they came, once they are old
 * enough (all: every one, at the end) */
void mon_events_flush(struct mon_events *ev, bool all);
/* a line for each kind of loss that grew */
void mon_events_losses(struct mon_events *ev);
void mon_events_close(struct mon_events *ev);

#endif
