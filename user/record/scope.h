/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --cgroup PATH, --container NAME|ID, --unit NAME: the cgroup v2
 * subtree to record, found before recording starts and held open (the
 * kernel side follows the tasks under it: bpf/capaudit.bpf.c followed()).
 */
#ifndef CA_RECORD_SCOPE_H
#define CA_RECORD_SCOPE_H

#include <stdbool.h>
#include <stdint.h>

#include "record/containers.h"

enum scope_kind { SCOPE_NONE, SCOPE_CGROUP, SCOPE_CONTAINER, SCOPE_UNIT };

struct scope {
	enum scope_kind kind;
	char root[256];          /* the v2 mount point */
	char path[4096];         /* the subtree, below root ("/system.slice/x.service") */
	uint64_t id;             /* its cgroup id */
	int fd;                  /* its directory, open; -1 */
	struct container_ref ct; /* SCOPE_CONTAINER */
	char unit[256];          /* SCOPE_UNIT: "x.service" */
	bool seen_populated;     /* held a process at some point */
	/* --container NAME --wait: until it starts, the whole hierarchy (path
	 * "/"), and the cgroup ids of the containers already running, which
	 * are not the start waited for */
	bool waiting;
	bool was_running;        /* NAME was running when the wait began */
	uint64_t *old_ids;
	size_t nold;
};

/* The options' name of a kind: "--cgroup", ... */
const char *scope_option(enum scope_kind k);
/* The header's scope: "cgroup", "container", "unit". */
const char *scope_name(enum scope_kind k);

/* Find what arg names; 0, or -1 with one line in err. */
int scope_resolve(struct scope *s, enum scope_kind kind, const char *arg, char *err,
		  size_t errlen);
/*
 * --container NAME --wait: the container has not started yet, so the scope
 * is the whole v2 hierarchy (every process followed: nothing a container
 * does from its first exec on is missed while it is being looked for) and
 * the containers running now are noted. 0, or -1 with one line in err.
 */
int scope_wait_begin(struct scope *s, const char *arg, char *err, size_t errlen);
/* Has a container that arg names started since? 1: the scope is now its
 * cgroup (path, id, fd, ct); 0: not yet. */
int scope_wait_poll(struct scope *s, const char *arg);
/* The same, from a process the kernel reported in a container's cgroup
 * path (id), its runtime's name for it: a container whose whole life fits
 * between two polls is caught by its first event. */
int scope_wait_saw(struct scope *s, const char *arg, const char *path, uint64_t id,
		   const struct workload *w, const char *name);

/* Whether a process is in it now: 1, 0, -1 (gone). Notes seen_populated. */
int scope_populated(struct scope *s);
void scope_close(struct scope *s);

#endif
