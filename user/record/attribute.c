// SPDX-License-Identifier: GPL-2.0
/*
 * Where each process ran: its cgroup v2 path, and the container or unit
 * that path names (facts/workload.h). The kernel gives a cgroup id with a
 * process's events and with each check; the path is looked up at the
 * first event, while the process and its cgroup are most likely still
 * there (a container run with --rm takes its cgroup with it), and the
 * lookups are kept, so that a cgroup costs one lookup however many
 * processes ran in it. An image's cgroup is the one of its first event:
 * runc moves a container's first process into the container's cgroup
 * before its exec, so the exec'd image is the container's. A path names a
 * container only where root made it (lib/cgroup.h cgroup_made_by_root()):
 * a user with a delegated subtree can name a cgroup there as any
 * container's.
 */
#include <string.h>

#include "facts/workload.h"
#include "lib/cgroup.h"
#include "lib/util.h"
#include "record/containers.h"
#include "record/proctable.h"

void attribute_note(struct proctable *pt, struct rec_process *p, uint64_t cgroup_id)
{
	struct workload w;
	const char *path;
	char name[256];

	if (p->cgroup_id || !cgroup_id)
		return;
	p->cgroup_id = cgroup_id;
	path = cgroup_names_get(pt->cgn, cgroup_id, (pid_t)p->pid);
	/* the runtime's name while the container is still known to it; and
	 * whether root made its cgroup, asked now, while it is there */
	if (!path || !workload_from_cgroup(path, &w) || !w.container_id[0] ||
	    !cgroup_names_by_root(pt->cgn, cgroup_id, w.container_end))
		return;
	container_name(w.container_id, w.runtime, name, sizeof(name));
	/* record --container NAME --wait: is this its start? */
	if (pt->scope->waiting &&
	    scope_wait_saw(pt->scope, pt->o->scope_arg, path, cgroup_id, &w, name))
		pt->container_started(pt->started_ctx);
}

void attribute(struct proctable *pt, struct rec_process *p)
{
	const char *path = cgroup_names_get(pt->cgn, p->cgroup_id, 0);
	struct workload w;
	char name[256];

	if (!path)
		return;
	proctable_set_str(&p->cgroup, path);
	if (!workload_from_cgroup(path, &w))
		return;
	if (w.unit[0])
		proctable_set_str(&p->unit, w.unit);
	/* a cgroup named as a container's in a subtree a user may write is a
	 * look-alike (containers.c note_container()): not a container */
	if (!w.container_id[0] || !cgroup_names_by_root(pt->cgn, p->cgroup_id, w.container_end))
		return;
	p->runtime_setup = workload_is_runtime_setup(p->comm, p->exe);
	proctable_set_str(&p->container_id, w.container_id);
	proctable_set_str(&p->container_runtime, w.runtime);
	container_name(w.container_id, w.runtime, name, sizeof(name));
	if (name[0])
		proctable_set_str(&p->container_name, name);
}

/* The runtime's fork of itself before it exec'd its sealed copy (runc:
 * "exe" with no file of its own) is the runtime too: an image whose next
 * image in the same process is the runtime's, back to the first. */
static void mark_runtime_forks(struct record *r)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (size_t i = 0; i < r->nprocs; i++) {
			struct rec_process *p = &r->procs[i], *next;

			if (p->runtime_setup || !p->container_id || p->exe)
				continue;
			next = record_find_process(r, p->pid, p->start_ns, p->exec_id + 1);
			if (next && next->runtime_setup)
				p->runtime_setup = changed = true;
		}
	}
}

void attribute_processes(struct proctable *pt)
{
	size_t i;

	/* an image seen only through its checks: the first check's cgroup */
	for (i = 0; i < pt->rec->nchecks; i++) {
		struct rec_process *p = check_process(pt->rec, &pt->rec->checks[i]);

		if (p && !p->cgroup_id)
			p->cgroup_id = pt->rec->checks[i].cgroup;
	}
	for (i = 0; i < pt->rec->nprocs; i++)
		attribute(pt, &pt->rec->procs[i]);
	mark_runtime_forks(pt->rec);
}
