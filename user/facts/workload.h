/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a cgroup v2 path names: the container or systemd unit a process
 * ran in, by the path conventions of the managers that made it (docs/
 * services-and-containers.md lists them):
 *
 *   podman         .../libpod-<id>[.scope][/...]    (libpod-conmon-<id>: its monitor)
 *   docker         .../docker-<id>.scope, /docker/<id>
 *   containerd     .../cri-containerd-<id>.scope, /kubepods/.../pod<uid>/<id>
 *   CRI-O          .../crio-<id>[.scope]             (crio-conmon-<id>: its monitor)
 *   systemd        .../<name>.service (the innermost), /system.slice/...
 *
 * <id> is 64 hex digits. Pure string work: no file is read.
 */
#ifndef CA_FACTS_WORKLOAD_H
#define CA_FACTS_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#define WL_ID_LEN 64

struct workload {
	char container_id[WL_ID_LEN + 1];   /* "" if none */
	size_t container_end;   /* the path's length up to the end of the
				 * component naming it: the container's cgroup */
	const char *runtime;    /* "podman", "docker", "containerd", "cri-o",
				 * "kubernetes" (a pod's container, runtime not
				 * named by the path), or NULL */
	char pod_uid[64];       /* Kubernetes: the pod's uid, "" if none */
	char unit[256];         /* the innermost systemd unit ("cron.service"), "" if none */
};

/* Fill w from the cgroup path (relative to the v2 root, "/a/b"). Returns
 * true when it names a container or a unit. */
bool workload_from_cgroup(const char *path, struct workload *w);

/*
 * The program image (comm, exe: either may be NULL) is a container runtime
 * setting a container up in the container's cgroup: runc names its stages
 * "runc:[0:PARENT]", "runc:[1:CHILD]", "runc:[2:INIT]" (prctl) and runs
 * from a sealed copy of itself (/dev/fd/N, memfd:runc); crun as "crun".
 */
bool workload_is_runtime_setup(const char *comm, const char *exe);

/* s is a container id: 64 lowercase hex digits. */
bool workload_is_id(const char *s, size_t len);

#endif
