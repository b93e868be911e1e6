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

int scope_resolve(struct scope *s, enum scope_kind kind, const char *arg, char *err,
		  size_t errlen)
{
	char full[4400];
	int rc;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->kind = kind;
	if (kind == SCOPE_NONE)
		return 0;
	if (cgroup_v2_root(s->root, sizeof(s->root))) {
		snprintf(err, errlen, "%s: cgroup v2 is not mounted here (looked in "
			 "/proc/self/mountinfo for a cgroup2 file system)", scope_option(kind));
		return -1;
	}
	if (kind == SCOPE_CGROUP)
		rc = cgroup_path(s, arg, err, errlen);
	else if (kind == SCOPE_UNIT)
		rc = unit_path(s, arg, err, errlen);
	else if (!(rc = container_find(s->root, arg, &s->ct, err, errlen)))
		snprintf(s->path, sizeof(s->path), "%s", s->ct.cgroup);
	if (rc)
		return -1;
	s->id = cgroup_id_of(s->root, s->path);
	snprintf(full, sizeof(full), "%s%s", s->root, s->path);
	s->fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->fd < 0 || !s->id) {
		snprintf(err, errlen, "%s %s: cannot open %s: %s", scope_option(kind), arg, full,
			 strerror(s->fd < 0 ? errno : ENOENT));
		return -1;
	}
	return 0;
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
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}
