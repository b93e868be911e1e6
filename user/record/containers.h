/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Containers as the host shows them: found by the cgroups their managers
 * make (facts/workload.h), named by the runtime's own state files
 * (podman: containers.json of its storage; docker: config.v2.json of each
 * container), else by asking the runtime's CLI (podman, docker, crictl).
 */
#ifndef CA_RECORD_CONTAINERS_H
#define CA_RECORD_CONTAINERS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "facts/workload.h"

struct container_ref {
	char id[WL_ID_LEN + 1];
	char name[256];         /* "" if the runtime's files did not say */
	const char *runtime;    /* as workload.h names them */
	char cgroup[4096];      /* its cgroup, below the v2 root */
	uint64_t cgroup_id;     /* that cgroup's id (a restart makes a new one) */
};

/* The containers running now, by their outermost cgroups, named: *out
 * (free() it) and their number. */
size_t container_list(const char *root, struct container_ref **out);

/* Which of c[0..n) arg names (its name, its id, or a unique prefix of it
 * of 3+ hex digits): its index; -1 if none, -2 if a prefix names several. */
ssize_t container_match(const struct container_ref *c, size_t n, const char *arg);

/*
 * The running container that arg names: a full id, a unique id prefix
 * (3+ hex digits), or a name. 0 and *out, or -1 and one line in err
 * saying what was tried and which containers are running.
 */
int container_find(const char *root, const char *arg, struct container_ref *out, char *err,
		   size_t errlen);

/* The runtime's name for a container id, into name ("" if not known).
 * Looked up once per id; the answers are kept. */
void container_name(const char *id, const char *runtime, char *name, size_t n);
void container_names_free(void);

#endif
