// SPDX-License-Identifier: GPL-2.0
/* The cgroup v2 hierarchy as files (cgroup.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cgroup.h"
#include "lib/util.h"

int cgroup_mountinfo_line(const char *line, char *mnt, size_t n, bool *nsdelegate)
{
	/* id parent major:minor root mountpoint options... - fstype source
	 * super-options */
	const char *sep = strstr(line, " - "), *super;
	char point[4096], opts[1024];

	*nsdelegate = false;
	if (!sep || strncmp(sep + 3, "cgroup2 ", 8) ||
	    sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1 || strlen(point) >= n)
		return 0;
	snprintf(mnt, n, "%s", point);
	super = strchr(sep + 11, ' ');
	if (super && sscanf(super + 1, "%1023s", opts) == 1) {
		char *tok, *save = NULL;

		for (tok = strtok_r(opts, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (!strcmp(tok, "nsdelegate"))
				*nsdelegate = true;
	}
	return 1;
}

/*
 * /proc/self/mountinfo's cgroup2 mounts: /sys/fs/cgroup when it is one
 * (pure v2 hosts), else the first (hybrid: /sys/fs/cgroup/unified).
 */
static int v2_mount(char *root, size_t n, bool *nsdelegate)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], mnt[4096], first[4096] = "";
	bool nsd, first_nsd = false;
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!cgroup_mountinfo_line(line, mnt, sizeof(mnt), &nsd))
			continue;
		if (!strcmp(mnt, "/sys/fs/cgroup") || found < 0) {
			snprintf(first, sizeof(first), "%s", mnt);
			first_nsd = nsd;
			found = 0;
			if (!strcmp(mnt, "/sys/fs/cgroup"))
				break;
		}
	}
	fclose(f);
	if (found < 0 || strlen(first) >= n)
		return -1;
	snprintf(root, n, "%s", first);
	*nsdelegate = first_nsd;
	return 0;
}

int cgroup_v2_root(char *root, size_t n)
{
	bool nsd;

	return v2_mount(root, n, &nsd);
}

bool cgroup_v2_nsdelegate(void)
{
	char root[4096];
	bool nsd = false;

	return !v2_mount(root, sizeof(root), &nsd) && nsd;
}

static int join(char *out, size_t n, const char *root, const char *path)
{
	int len = snprintf(out, n, "%s%s%s", root, path[0] == '/' ? "" : "/", path);

	return len < 0 || (size_t)len >= n ? -1 : 0;
}

uint64_t cgroup_id_of(const char *root, const char *path)
{
	char full[4096];
	struct stat st;

	if (join(full, sizeof(full), root, path) || stat(full, &st) || !S_ISDIR(st.st_mode))
		return 0;
	return (uint64_t)st.st_ino;
}

int cgroup_of_pid(pid_t pid, char *out, size_t n)
{
	char name[64], line[4096];
	FILE *f;
	int rc = -1;

	snprintf(name, sizeof(name), "/proc/%d/cgroup", (int)pid);
	f = fopen(name, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t len;

		if (strncmp(line, "0::", 3))
			continue;
		len = strcspn(line + 3, "\n");
		if (len < n && line[3] == '/') {
			memcpy(out, line + 3, len);
			out[len] = '\0';
			rc = 0;
		}
		break;
	}
	fclose(f);
	return rc;
}

int cgroup_populated(const char *root, const char *path)
{
	char full[4096], line[256];
	int rc = -1;
	FILE *f;

	if (join(full, sizeof(full) - 16, root, path))
		return -1;
	strcat(full, "/cgroup.events");
	f = fopen(full, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "populated ", 10))
			rc = line[10] == '1';
	fclose(f);
	return rc;
}

bool cgroup_made_by_root(const char *root, const char *path, size_t len)
{
	char full[4096];
	size_t rlen = strlen(root), i;
	struct stat st;

	if (len > strlen(path) || rlen + len + 2 > sizeof(full))
		return false;
	snprintf(full, sizeof(full), "%s/", root);
	memcpy(full + rlen + 1, path[0] == '/' ? path + 1 : path, len - (path[0] == '/'));
	full[rlen + 1 + len - (path[0] == '/')] = '\0';
	/* each directory on the way: ROOT, ROOT/a, ROOT/a/b, ..., the cgroup */
	for (i = rlen; ; i++) {
		if (full[i] == '/' || !full[i]) {
			char c = full[i];

			full[i] = '\0';
			if (lstat(full, &st) || !S_ISDIR(st.st_mode) || st.st_uid != 0)
				return false;
			full[i] = c;
			if (!c)
				return true;
		}
	}
}

/* One level of the walk: path's subdirectories, recursively. */
static int walk(const char *root, char *path, size_t plen, size_t cap, size_t *budget,
		int (*fn)(void *, const char *, uint64_t), void *ctx)
{
	char full[4096];
	struct dirent *d;
	DIR *dir;
	int rc;

	if (join(full, sizeof(full), root, path) || !(dir = opendir(full)))
		return 0;   /* gone meanwhile: nothing below it */
	rc = 0;
	while (!rc && (d = readdir(dir))) {
		size_t len = strlen(d->d_name);

		if (d->d_type != DT_DIR || d->d_name[0] == '.' || plen + 1 + len >= cap)
			continue;
		if (!*budget)
			break;
		(*budget)--;
		snprintf(path + plen, cap - plen, "%s%s", plen == 1 ? "" : "/", d->d_name);
		rc = fn(ctx, path, (uint64_t)d->d_ino);
		if (!rc)
			rc = walk(root, path, strlen(path), cap, budget, fn, ctx);
		path[plen] = '\0';
	}
	closedir(dir);
	return rc;
}

int cgroup_walk(const char *root, const char *path, size_t max_dirs,
		int (*fn)(void *ctx, const char *path, uint64_t id), void *ctx)
{
	char p[4096];
	uint64_t id = cgroup_id_of(root, path);
	size_t budget = max_dirs;
	int rc;

	if (!id || strlen(path) >= sizeof(p))
		return 0;
	snprintf(p, sizeof(p), "%s", path[0] ? path : "/");
	rc = fn(ctx, p, id);
	return rc ? rc : walk(root, p, strlen(p), sizeof(p), &budget, fn, ctx);
}

/* ---- ids to paths ---------------------------------------------------- */

void cgroup_names_init(struct cgroup_names *c)
{
	memset(c, 0, sizeof(*c));
	c->have_root = !cgroup_v2_root(c->root, sizeof(c->root));
}

static bool same_id(const void *ctx, size_t pos)
{
	const struct { const struct cgroup_names *c; uint64_t id; } *k = ctx;

	return k->c->e[pos].id == k->id;
}

static long find(const struct cgroup_names *c, uint64_t id)
{
	struct { const struct cgroup_names *c; uint64_t id; } k = { c, id };

	return hindex_find(&c->ix, hash_u64(0, id), same_id, &k);
}

static const char *learn(struct cgroup_names *c, uint64_t id, const char *path)
{
	long at = find(c, id);

	if (at >= 0) {
		if (!c->e[at].path && path)
			c->e[at].path = xstrdup(path);
		return c->e[at].path;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->e = xrealloc(c->e, c->cap * sizeof(*c->e));
	}
	c->e[c->n] = (struct cgn_entry){ id, path ? xstrdup(path) : NULL, -1 };
	hindex_add(&c->ix, hash_u64(0, id), c->n);
	return c->e[c->n++].path;
}

/* A walk learns every cgroup it passes, so one walk answers many ids. */
static int learn_one(void *ctx, const char *path, uint64_t id)
{
	struct cgroup_names *c = ctx;

	if (find(c, id) < 0 || !c->e[find(c, id)].path)
		learn(c, id, path);
	return 0;
}

#define WALK_MAX_DIRS 100000

const char *cgroup_names_get(struct cgroup_names *c, uint64_t id, pid_t pid)
{
	char path[4096];
	long at;

	if (!id || !c->have_root)
		return NULL;
	at = find(c, id);
	if (at >= 0)
		return c->e[at].path;
	if (pid > 0 && !cgroup_of_pid(pid, path, sizeof(path)) &&
	    cgroup_id_of(c->root, path) == id)
		return learn(c, id, path);
	c->walks++;
	cgroup_walk(c->root, "/", WALK_MAX_DIRS, learn_one, c);
	return learn(c, id, NULL);   /* NULL if the walk did not find it either */
}

bool cgroup_names_by_root(struct cgroup_names *c, uint64_t id, size_t len)
{
	long at = find(c, id);

	if (at < 0 || !c->e[at].path)
		return false;
	if (c->e[at].by_root < 0)
		c->e[at].by_root = cgroup_made_by_root(c->root, c->e[at].path, len);
	return c->e[at].by_root;
}

void cgroup_names_free(struct cgroup_names *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->e[i].path);
	free(c->e);
	hindex_free(&c->ix);
	memset(c, 0, sizeof(*c));
}
