/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup v2 hierarchy as files: where it is mounted (/sys/fs/cgroup,
 * or /sys/fs/cgroup/unified on a hybrid host), a cgroup's id (its
 * directory's inode number: what bpf_get_current_cgroup_id() returns),
 * and the path of an id. Paths are relative to the hierarchy's root and
 * start with '/' ("/system.slice/cron.service"), as /proc/PID/cgroup's
 * "0::" line gives them.
 */
#ifndef CA_LIB_CGROUP_H
#define CA_LIB_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/hindex.h"

/* The v2 mount point into root (no trailing '/'); -1 if v2 is not mounted. */
int cgroup_v2_root(char *root, size_t n);

/* Whether that mount has nsdelegate: then a cgroup namespace is a
 * delegation boundary, and the kernel refuses to move a process in one to
 * a cgroup outside its namespace's root (ENOENT; kernel/cgroup/cgroup.c
 * cgroup_procs_write_permission()), whatever its rights on the files. */
bool cgroup_v2_nsdelegate(void);

/* One line of /proc/self/mountinfo: 1 when it is a cgroup2 mount (its
 * mount point into mnt, *nsdelegate whether its super options hold
 * nsdelegate), else 0. */
int cgroup_mountinfo_line(const char *line, char *mnt, size_t n, bool *nsdelegate);

/* The id of ROOT/path; 0 if it is not there. */
uint64_t cgroup_id_of(const char *root, const char *path);

/* /proc/PID/cgroup's v2 path into out; -1 if unreadable or absent. */
int cgroup_of_pid(pid_t pid, char *out, size_t n);

/* Whether ROOT/path holds a process (its cgroup.events says "populated
 * 1"): 1, 0, or -1 when it is gone or unreadable. */
int cgroup_populated(const char *root, const char *path);

/*
 * Whether every directory from ROOT down to ROOT/path's first len bytes
 * (a cgroup, and each above it) belongs to root: a cgroup that a manager
 * running as root made, in no subtree given to a user. The kernel gives a
 * new cgroup's directory its creator's fsuid and fsgid (kernel/cgroup/
 * cgroup.c cgroup_create(); cgroup_kn_set_ugid() in older kernels),
 * and systemd's Delegate=yes chowns the delegated directory to its user:
 * whatever a user makes there is theirs. false also when one is gone.
 */
bool cgroup_made_by_root(const char *root, const char *path, size_t len);

/* Calls fn for every cgroup below and including ROOT/path, depth first,
 * with its path and id; fn returns non-zero to stop (returned). At most
 * max_dirs directories are visited (a bound on a host with millions). */
int cgroup_walk(const char *root, const char *path, size_t max_dirs,
		int (*fn)(void *ctx, const char *path, uint64_t id), void *ctx);

/* Ids to paths, learned once each. */
struct cgroup_names {
	char root[256];
	bool have_root;
	struct cgn_entry {
		uint64_t id;
		char *path;
		signed char by_root;   /* cgroup_names_by_root(): -1 not asked yet */
	} *e;
	size_t n, cap;
	struct hindex ix;
	size_t walks;            /* tree walks done for ids not found otherwise */
};

void cgroup_names_init(struct cgroup_names *c);
/* The path of id (pid: a process that had it, 0 if none): known ones at
 * once, then /proc/PID/cgroup (checked against id), then a walk of the
 * tree. NULL if not found (a cgroup removed before it was looked up);
 * the answer, found or not, is kept. */
const char *cgroup_names_get(struct cgroup_names *c, uint64_t id, pid_t pid);
/* cgroup_made_by_root() of id's path up to len, asked once: the answer
 * stays when the cgroup is gone (false if it was gone at the first ask).
 * len is the caller's choice for that path, the same every time. */
bool cgroup_names_by_root(struct cgroup_names *c, uint64_t id, size_t len);
void cgroup_names_free(struct cgroup_names *c);

#endif
