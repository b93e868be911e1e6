// SPDX-License-Identifier: GPL-2.0
/* The cgroup v2 subtree to record (scope.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cgroup.h"
#include "lib/util.h"
#include "record/scope.h"

#define SCOPE_MAX_DIRS 100000

const char *scope_option(enum scope_kind k)
{
	static const char *const o[] = { "", "--cgroup", "--container", "--unit" };

	return o[k];
}

const char *scope_name(enum scope_kind k)
{
	static const char *const n[] = { "", "cgroup", "container", "unit" };

	return n[k];
}

/* --cgroup PATH: below the v2 root, or a full path under it. */
static int cgroup_path(struct scope *s, const char *arg, char *err, size_t n)
{
	size_t rl = strlen(s->root);

	if (!strncmp(arg, s->root, rl) && (arg[rl] == '/' || !arg[rl]))
		arg += rl;
	else if (!strncmp(arg, "/sys/fs/cgroup", 14)) {
		snprintf(err, n, "--cgroup %s: not in the cgroup v2 hierarchy, which is mounted "
			 "at %s here (give the path below it)", arg, s->root);
		return -1;
	}
	snprintf(s->path, sizeof(s->path), "%s%s", arg[0] == '/' ? "" : "/", arg);
	if (!cgroup_id_of(s->root, s->path)) {
		snprintf(err, n, "--cgroup %s: no such cgroup (%s%s)", arg, s->root, s->path);
		return -1;
	}
	return 0;
}

/* --unit NAME: where systemd puts a unit's processes. */
struct unit_hunt {
	const char *unit;
	char system[4096], other[4096];
	size_t nother;
};

static int note_unit(void *ctx, const char *path, uint64_t id)
{
	struct unit_hunt *h = ctx;
	const char *base = strrchr(path, '/');

	(void)id;
	if (strcmp(base ? base + 1 : path, h->unit))
		return 0;
	if (!strncmp(path, "/system.slice/", 14) && !strchr(path + 14, '/'))
		snprintf(h->system, sizeof(h->system), "%s", path);
	else if (h->nother++ == 0)
		snprintf(h->other, sizeof(h->other), "%s", path);
	return 0;
}

static int unit_path(struct scope *s, const char *arg, char *err, size_t n)
{
	struct unit_hunt h = { .unit = s->unit };

	if (!arg[0] || strchr(arg, '/')) {
		snprintf(err, n, "--unit '%s': not a unit name (NAME or NAME.service)", arg);
		return -1;
	}
	snprintf(s->unit, sizeof(s->unit), "%s%s", arg, strchr(arg, '.') ? "" : ".service");
	cgroup_walk(s->root, "/", SCOPE_MAX_DIRS, note_unit, &h);
	if (h.system[0] || h.nother == 1) {
		snprintf(s->path, sizeof(s->path), "%s", h.system[0] ? h.system : h.other);
		return 0;
	}
	if (h.nother > 1)
		snprintf(err, n, "--unit %s: %zu cgroups have that name, none in /system.slice "
			 "(one is %s): give --cgroup PATH", s->unit, h.nother, h.other);
	else
		snprintf(err, n, "--unit %s: no cgroup of that name under %s (systemd puts a running "
			 "service's processes in %s/system.slice/%s): is it running?", s->unit,
			 s->root, s->root, s->unit);
	return -1;
}

/* The v2 root's path and the scope's open directory and id. */
static int open_scope(struct scope *s, const char *arg, char *err, size_t errlen)
{
	char full[4400];

	s->id = cgroup_id_of(s->root, s->path);
	snprintf(full, sizeof(full), "%s%s", s->root, strcmp(s->path, "/") ? s->path : "");
	if (s->fd >= 0)
		close(s->fd);
	s->fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->fd < 0 || !s->id) {
		snprintf(err, errlen, "%s %s: cannot open %s: %s", scope_option(s->kind), arg, full,
			 strerror(s->fd < 0 ? errno : ENOENT));
		return -1;
	}
	return 0;
}

static int v2_root(struct scope *s, enum scope_kind kind, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->kind = kind;
	if (kind == SCOPE_NONE || !cgroup_v2_root(s->root, sizeof(s->root)))
		return 0;
	snprintf(err, errlen, "%s: cgroup v2 is not mounted here (looked in /proc/self/mountinfo "
		 "for a cgroup2 file system)", scope_option(kind));
	return -1;
}

int scope_resolve(struct scope *s, enum scope_kind kind, const char *arg, char *err,
		  size_t errlen)
{
	int rc;

	if (v2_root(s, kind, err, errlen))
		return -1;
	if (kind == SCOPE_NONE)
		return 0;
	if (kind == SCOPE_CGROUP)
		rc = cgroup_path(s, arg, err, errlen);
	else if (kind == SCOPE_UNIT)
		rc = unit_path(s, arg, err, errlen);
	else if (!(rc = container_find(s->root, arg, &s->ct, err, errlen)))
		snprintf(s->path, sizeof(s->path), "%s", s->ct.cgroup);
	return rc ? -1 : open_scope(s, arg, err, errlen);
}

int scope_wait_begin(struct scope *s, const char *arg, char *err, size_t errlen)
{
	struct container_ref *c;
	size_t n;

	if (v2_root(s, SCOPE_CONTAINER, err, errlen))
		return -1;
	s->waiting = true;
	snprintf(s->path, sizeof(s->path), "/");
	n = container_list(s->root, &c);
	s->old_ids = xcalloc(n + 1, sizeof(*s->old_ids));
	for (size_t i = 0; i < n; i++)
		s->old_ids[s->nold++] = c[i].cgroup_id;
	s->was_running = container_match(c, n, arg) >= 0;
	free(c);
	return open_scope(s, arg, err, errlen);
}

static bool was_running(const struct scope *s, uint64_t id)
{
	for (size_t k = 0; k < s->nold; k++)
		if (s->old_ids[k] == id)
			return true;
	return false;
}

/* The container is c: the scope is its cgroup from now on. */
static void take(struct scope *s, const struct container_ref *c, const char *arg)
{
	char err[128];

	s->ct = *c;
	snprintf(s->path, sizeof(s->path), "%s", c->cgroup);
	s->waiting = false;
	/* gone already (it ran its course between two looks): the recording
	 * ends at the next look at its cgroup, with what it did */
	if (open_scope(s, arg, err, sizeof(err)) && s->fd >= 0) {
		close(s->fd);
		s->fd = -1;
	}
}

int scope_wait_saw(struct scope *s, const char *arg, const char *path, uint64_t id,
		   const struct workload *w, const char *name)
{
	struct container_ref c = { 0 };
	size_t end = w->container_end;

	if (!s->waiting || !w->container_id[0])
		return !s->waiting;
	/* a container's cgroup as container_list() takes one: made by root
	 * where its runtime made it, never a look-alike in a user's subtree */
	if (!cgroup_made_by_root(s->root, path, end))
		return 0;
	memcpy(c.id, w->container_id, sizeof(c.id));
	snprintf(c.name, sizeof(c.name), "%s", name);
	c.runtime = w->runtime;
	/* its cgroup: the path up to the component naming the id */
	snprintf(c.cgroup, sizeof(c.cgroup), "%.*s", (int)end, path);
	c.cgroup_id = end == strlen(path) ? id : cgroup_id_of(s->root, c.cgroup);
	if (was_running(s, c.cgroup_id) || container_match(&c, 1, arg) != 0)
		return 0;
	take(s, &c, arg);
	return 1;
}

int scope_wait_poll(struct scope *s, const char *arg)
{
	struct container_ref *c;
	size_t n, i, fresh = 0;
	ssize_t at;

	if (!s->waiting)
		return 1;
	n = container_list(s->root, &c);
	/* only the containers started since the wait began */
	for (i = 0; i < n; i++)
		if (!was_running(s, c[i].cgroup_id))
			c[fresh++] = c[i];
	at = container_match(c, fresh, arg);
	if (at >= 0)
		take(s, &c[at], arg);
	free(c);
	return !s->waiting;
}

int scope_populated(struct scope *s)
{
	int p = cgroup_populated(s->root, s->path);

	if (p == 1)
		s->seen_populated = true;
	return p;
}

void scope_close(struct scope *s)
{
	free(s->old_ids);
	s->old_ids = NULL;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}
