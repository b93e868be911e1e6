/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The process images of one recording (proctable.c), inside the record
 * layer: which processes are followed (-p targets and their descendants,
 * the command's tree), their images from the kernel's fork/exec/exit
 * events and /proc, and where each ran (attribute.c). session.c owns one
 * and lends it what it shares (the record, the tracer, the scope).
 */
#ifndef CA_RECORD_PROCTABLE_H
#define CA_RECORD_PROCTABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/cgroup.h"
#include "recfile/recfile.h"
#include "record/exeid.h"
#include "record/procset.h"
#include "record/record.h"
#include "record/scope.h"
#include "record/objects.h"
#include "record/ustacks.h"
#include "tracer/abi.h"
#include "tracer/tasks_iter.h"
#include "tracer/tracer.h"

struct proctable {
	/* the session's, borrowed */
	const struct rec_opts *o;
	struct record *rec;
	struct tracer *tr;
	struct scope *scope;
	struct cgroup_names *cgn; /* every process's cgroup path, container and unit */
	int64_t epoch_off;        /* CLOCK_REALTIME - CLOCK_MONOTONIC, at the start */
	pid_t child;              /* -- COMMAND, once started */
	uint64_t child_start;     /* its process start time (struct ca_key) */
	/* -p: the processes still followed, and whether an exit event may
	 * have been lost (then they are checked against a snapshot) */
	struct procset live;
	uint64_t ringbuf_lost_seen;
	/* -a: the processes that ran before recording, with the executables
	 * /proc showed while we could read it (before the privilege drop) */
	struct task_snap before;
	char **before_exe;        /* [i]: of before.t[i], or NULL */
	/* the cgroup ids of the scope's subtree when recording began (which
	 * processes of the snapshot are in it) */
	uint64_t *scope_ids;
	size_t nscope_ids;
	/* who may see what (session.c caller_policy()) */
	uid_t uid;
	bool only_uid;            /* follow only processes acting as uid */
	/* executables' build ids, by inode (exeid.c) */
	struct exe_ids exes;
	/* see proctable_alias_exec() */
	bool launcher_known, cmd_known;
	uint32_t launcher_exec_id, cmd_exec_id;
	struct ustacks *us;       /* --user-stacks: which files the build ids name */
	struct objtab *objs;      /* what the checks were about (record/objects.h) */
	/* what is done with a CA_EV_NEWKEY event (capaudit monitor), and
	 * with the start of the container record --container --wait awaits */
	void (*on_newkey)(void *ctx, const struct ca_event *e);
	void (*on_object)(void *ctx, const struct ca_obj_event *e);   /* monitor's, ctx newkey_ctx */
	void *newkey_ctx;
	void (*container_started)(void *ctx);
	void *started_ctx;
};

/* proctable.c */
int64_t proctable_to_epoch(const struct proctable *pt, uint64_t mono);
uint32_t proctable_alias_exec(struct proctable *pt, uint32_t pid, uint64_t pstart,
			      uint32_t exec_id);
/* *dst = a copy of src (NULL: none), the old one freed */
void proctable_set_str(char **dst, const char *src);
struct rec_process *proctable_image(struct proctable *pt, uint32_t pid, uint64_t pstart,
				    uint32_t exec_id, const char *comm, uint64_t boot_ns);
/* the tracer's event callback (ctx: the proctable) */
int proctable_on_event(void *ctx, const struct ca_event *e);
int proctable_refresh_followed(struct proctable *pt);
bool proctable_any_followed(struct proctable *pt);
int proctable_name_processes(struct proctable *pt);
void proctable_follow_named(void *ctx, uint32_t tgid, uint64_t start);
void proctable_free(struct proctable *pt);
/* An image with no executable yet (its exec or fork event was lost: the
 * ring buffer was full) named from its check's ca_meta.exe: the name an
 * exec of that file had, or what the exec hook kept of it. */
void proctable_image_exe(struct proctable *pt, struct rec_process *p, const struct ca_exe_id *id);

/* attribute.c */
/* A process's cgroup, noted at its first event (while its path can still
 * be read); the rest is looked up at the end. */
void attribute_note(struct proctable *pt, struct rec_process *p, uint64_t cgroup_id);
/* One process line's cgroup path, container and unit (from its cgroup_id). */
void attribute(struct proctable *pt, struct rec_process *p);
/* Every process line's cgroup path, container and unit. */
void attribute_processes(struct proctable *pt);

#endif
