// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup path conventions of container managers and systemd (workload.h).
 * Each path component is looked at once, from the root down, so that the
 * innermost container or unit wins (a podman container inside a systemd
 * service is the container; a service inside a container, the unit).
 */
#include <stdio.h>
#include <string.h>

#include "facts/workload.h"

bool workload_is_id(const char *s, size_t len)
{
	size_t i;

	if (len != WL_ID_LEN)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* Prefixes before a container id in a component, and who uses them. A
 * monitor's own cgroup (libpod-conmon-<id>, crio-conmon-<id>) is not the
 * container: "conmon-" after the prefix fails the id test. */
static const struct { const char *prefix, *runtime; } id_prefixes[] = {
	{ "libpod-", "podman" },
	{ "docker-", "docker" },
	{ "cri-containerd-", "containerd" },
	{ "crio-", "cri-o" },
};

/* The component [c, c + len) names a container: its id into w. parent is
 * the component above it ("docker" for cgroupfs docker's /docker/<id>). */
static bool container_component(const char *c, size_t len, const char *parent, size_t plen,
				 bool in_pod, struct workload *w)
{
	size_t i;

	if (len > 6 && !memcmp(c + len - 6, ".scope", 6))
		len -= 6;
	for (i = 0; i < sizeof(id_prefixes) / sizeof(id_prefixes[0]); i++) {
		size_t n = strlen(id_prefixes[i].prefix);

		if (len > n && !memcmp(c, id_prefixes[i].prefix, n) &&
		    workload_is_id(c + n, len - n)) {
			memcpy(w->container_id, c + n, WL_ID_LEN);
			w->container_id[WL_ID_LEN] = '\0';
			w->runtime = id_prefixes[i].runtime;
			return true;
		}
	}
	if (!workload_is_id(c, len))
		return false;
	/* a bare id: cgroupfs-managed docker (/docker/<id>), or a pod's
	 * container (kubepods/.../pod<uid>/<id>) */
	if (plen == 6 && !memcmp(parent, "docker", 6))
		w->runtime = "docker";
	else if (in_pod)
		w->runtime = "kubernetes";
	else
		return false;
	memcpy(w->container_id, c, WL_ID_LEN);
	w->container_id[WL_ID_LEN] = '\0';
	return true;
}

/* A pod's cgroup: pod<uid> (cgroupfs) or kubepods-<qos>-pod<uid>.slice
 * (systemd; the uid's '-' written '_'). */
static bool pod_component(const char *c, size_t len, struct workload *w)
{
	const char *p;
	size_t n;

	if (len > 6 && !memcmp(c + len - 6, ".slice", 6))
		len -= 6;
	for (p = c + len; p > c && p[-1] != '-'; p--)
		;
	if (len > 3 && !memcmp(c, "pod", 3))
		p = c;
	n = len - (size_t)(p - c);
	if (n <= 3 || memcmp(p, "pod", 3) || n - 3 >= sizeof(w->pod_uid))
		return false;
	memcpy(w->pod_uid, p + 3, n - 3);
	w->pod_uid[n - 3] = '\0';
	for (char *q = w->pod_uid; *q; q++)
		if (*q == '_')
			*q = '-';
	return true;
}

bool workload_from_cgroup(const char *path, struct workload *w)
{
	const char *c = path, *parent = "", *e;
	size_t plen = 0;
	bool kube = false, in_pod = false;

	memset(w, 0, sizeof(*w));
	while (c && *c) {
		while (*c == '/')
			c++;
		if (!*c)
			break;
		e = strchr(c, '/');
		size_t len = e ? (size_t)(e - c) : strlen(c);

		if (len >= 8 && !memcmp(c, "kubepods", 8))
			kube = true;
		if (kube && pod_component(c, len, w)) {
			in_pod = true;
		} else if (container_component(c, len, parent, plen, in_pod, w)) {
			w->unit[0] = '\0';   /* a unit above the container is not its own */
			w->container_end = (size_t)(c - path) + len;
		} else if (len > 8 && !memcmp(c + len - 8, ".service", 8) &&
			   len < sizeof(w->unit)) {
			memcpy(w->unit, c, len);
			w->unit[len] = '\0';
		}
		parent = c;
		plen = len;
		c = e;
	}
	return w->container_id[0] || w->unit[0];
}

bool workload_is_runtime_setup(const char *comm, const char *exe)
{
	const char *base = exe ? strrchr(exe, '/') : NULL;

	base = base ? base + 1 : exe;
	if (comm && (!strncmp(comm, "runc:[", 6) || !strcmp(comm, "runc") ||
		     !strcmp(comm, "crun")))
		return true;
	if (!exe)
		return false;
	return !strncmp(exe, "/dev/fd/", 8) || !strncmp(exe, "/memfd:runc", 11) ||
	       !strcmp(base, "runc") || !strcmp(base, "crun");
}
