// SPDX-License-Identifier: GPL-2.0
/* Containers as the host shows them (containers.h). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/cgroup.h"
#include "lib/util.h"
#include "record/containers.h"

/* podman's (rootful) container list, with names; docker's per-container
 * config. Paths of the runtimes' default storage. */
#define PODMAN_CONTAINERS "/var/lib/containers/storage/overlay-containers/containers.json"
#define DOCKER_CONTAINERS "/var/lib/docker/containers"
#define CLI_TIMEOUT_MS 10000
#define FIND_MAX_DIRS 100000
#define MAX_FOUND 4096

/* ---- names from the runtimes' files ------------------------------------- */

static struct { char *id, *name; } *names;
static size_t nnames, capnames;
static bool podman_read;

static void remember(const char *id, const char *name)
{
	if (nnames == capnames) {
		capnames = capnames ? capnames * 2 : 32;
		names = xrealloc(names, capnames * sizeof(*names));
	}
	names[nnames].id = xstrdup(id);
	names[nnames++].name = xstrdup(name);
}

static const char *known_name(const char *id)
{
	for (size_t i = 0; i < nnames; i++)
		if (!strcmp(names[i].id, id))
			return names[i].name;
	return NULL;
}

/* containers.json: [{"id": "...", "names": ["web"], ...}, ...] */
static void read_podman(void)
{
	json_t *all, *c;
	size_t i;

	if (podman_read)
		return;
	podman_read = true;
	all = json_load_file(PODMAN_CONTAINERS, 0, NULL);
	if (!json_is_array(all)) {
		json_decref(all);
		return;
	}
	json_array_foreach(all, i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));
		const char *name = json_string_value(json_array_get(json_object_get(c, "names"), 0));

		if (id && name && !known_name(id))
			remember(id, name);
	}
	json_decref(all);
}

/* config.v2.json's "Name": "/web" */
static void read_docker(const char *id)
{
	char path[512];
	const char *name;
	json_t *cfg;

	snprintf(path, sizeof(path), "%s/%s/config.v2.json", DOCKER_CONTAINERS, id);
	cfg = json_load_file(path, 0, NULL);
	name = json_string_value(json_object_get(cfg, "Name"));
	if (name)
		remember(id, name[0] == '/' ? name + 1 : name);
	json_decref(cfg);
}

void container_name(const char *id, const char *runtime, char *name, size_t n)
{
	const char *k = known_name(id);

	if (!k && runtime && !strcmp(runtime, "docker"))
		read_docker(id);
	else if (!k) {
		podman_read = false;   /* a container created since the last read */
		read_podman();
	}
	k = known_name(id);
	if (!k) {
		remember(id, "");   /* asked once */
		k = "";
	}
	snprintf(name, n, "%s", k);
}

void container_names_free(void)
{
	for (size_t i = 0; i < nnames; i++) {
		free(names[i].id);
		free(names[i].name);
	}
	free(names);
	names = NULL;
	nnames = capnames = 0;
	podman_read = false;
}

/* ---- the runtimes' CLIs ------------------------------------------------ */

/* Run argv (found on PATH) and keep the first line of its output; -1 if
 * it is not installed, fails, or takes longer than CLI_TIMEOUT_MS. */
static int run_cli(char *const argv[], char *out, size_t n)
{
	posix_spawn_file_actions_t fa;
	int pfd[2], st, rc = -1;
	size_t len = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, CLI_TIMEOUT_MS) <= 0) {
			kill(pid, SIGKILL);
			break;
		}
		r = read(pfd[0], out + len, n - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || (len += (size_t)r) == n - 1)
			break;
	}
	close(pfd[0]);
	out[len] = '\0';
	out[strcspn(out, "\n")] = '\0';
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && !WEXITSTATUS(st) && out[0])
		rc = 0;
	return rc;
}

/* The id a runtime's CLI gives for arg. */
static int id_from_cli(const char *arg, char *id, size_t n, const char **who)
{
	char *podman[] = { "podman", "container", "inspect", "--format", "{{.Id}}",
			   (char *)arg, NULL };
	char *docker[] = { "docker", "container", "inspect", "--format", "{{.Id}}",
			   (char *)arg, NULL };
	char *crictl[] = { "crictl", "inspect", "--output", "go-template", "--template",
			   "{{.status.id}}", (char *)arg, NULL };
	char *const *clis[] = { podman, docker, crictl };

	for (size_t i = 0; i < 3; i++) {
		if (!run_cli(clis[i], id, n) && workload_is_id(id, strlen(id))) {
			*who = clis[i][0];
			return 0;
		}
	}
	return -1;
}

/* ---- finding a running container ----------------------------------------- */

struct found {
	struct container_ref *c;
	size_t n;
	const char *root;
};

/*
 * Every container's cgroup: the one whose name carries its id (its own
 * subcgroups, libpod-<id>.scope/container, name the same id: the same
 * container), made where its runtime, running as root, made it. A cgroup
 * of that name in a subtree a user may write (delegated by systemd's
 * Delegate=yes, or any directory not root's on the way) is a look-alike
 * anyone with such a subtree can make, with any id: never a container.
 */
static int note_container(void *ctx, const char *path, uint64_t id)
{
	struct found *f = ctx;
	struct container_ref *c;
	struct workload w;

	if (!workload_from_cgroup(path, &w) || !w.container_id[0] || f->n == MAX_FOUND ||
	    !cgroup_made_by_root(f->root, path, w.container_end))
		return 0;
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->c[i].id, w.container_id) &&
		    strlen(f->c[i].cgroup) == w.container_end &&
		    !strncmp(f->c[i].cgroup, path, w.container_end))
			return 0;
	c = &f->c[f->n++];
	memset(c, 0, sizeof(*c));
	memcpy(c->id, w.container_id, sizeof(w.container_id));
	c->runtime = w.runtime;
	snprintf(c->cgroup, sizeof(c->cgroup), "%.*s", (int)w.container_end, path);
	c->cgroup_id = w.container_end == strlen(path) ? id : cgroup_id_of(f->root, c->cgroup);
	return 0;
}

/* The running containers, for the error message: "591d49a5940b (web), ..." */
static void list_running(const struct found *f, char *buf, size_t n)
{
	size_t len = 0;

	if (!f->n) {
		snprintf(buf, n, "none");
		return;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < f->n && len + 1 < n; i++) {
		int w = snprintf(buf + len, n - len, "%s%.12s%s%s%s", i ? ", " : "", f->c[i].id,
				 f->c[i].name[0] ? " (" : "", f->c[i].name,
				 f->c[i].name[0] ? ")" : "");
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

size_t container_list(const char *root, struct container_ref **out)
{
	struct found f = { xcalloc(MAX_FOUND, sizeof(*f.c)), 0, root };

	cgroup_walk(root, "/", FIND_MAX_DIRS, note_container, &f);
	for (size_t i = 0; i < f.n; i++)
		container_name(f.c[i].id, f.c[i].runtime, f.c[i].name, sizeof(f.c[i].name));
	*out = f.c;
	return f.n;
}

/* How c answers to arg: by its full id (2), its name (1), a prefix of its
 * id of 3+ hex digits (3), or not (0). */
static int answers(const struct container_ref *c, const char *arg)
{
	size_t len = strlen(arg);

	if (!strcmp(c->id, arg))
		return 2;
	if (!strcmp(c->name, arg))
		return 1;
	return len >= 3 && is_lower_hex(arg) && !strncmp(c->id, arg, len) ? 3 : 0;
}

ssize_t container_match(const struct container_ref *c, size_t n, const char *arg)
{
	size_t i, hits = 0, at = 0, full = 0, full_at = 0;

	for (i = 0; i < n; i++) {
		int a = answers(&c[i], arg);

		if (a == 2)
			full++, full_at = i;
		if (a)
			hits++, at = i;
	}
	/* a full id is that container's, unless two cgroups carry it */
	if (full)
		return full == 1 ? (ssize_t)full_at : -2;
	return hits == 1 ? (ssize_t)at : hits ? -2 : -1;
}

/* The containers arg names (container_match() said several), for the
 * message: "591d49a5940b (web) by its id, ..." */
static void list_answers(const struct container_ref *c, size_t n, const char *arg, char *buf,
			 size_t len)
{
	static const char *const how[] = { "", "by its name", "by its id", "by its id" };
	size_t i, used = 0, full = 0;
	bool same_id, *done = xcalloc(n ? n : 1, sizeof(*done));

	for (i = 0; i < n; i++)
		full += answers(&c[i], arg) == 2;
	buf[0] = '\0';
	/* in an order that does not depend on the walk of the tree (kernfs
	 * lists a directory by its names' hashes): those answering by their
	 * id first, then by their name, each by id and cgroup */
	for (int pass = 0; pass < 2; pass++) {
		for (;;) {
			size_t at = n;

			for (i = 0; i < n; i++) {
				int a = answers(&c[i], arg);

				if (done[i] || !a || (full && a != 2) || (pass == 0) != (a != 1))
					continue;
				if (at == n || strcmp(c[i].id, c[at].id) < 0 ||
				    (!strcmp(c[i].id, c[at].id) && strcmp(c[i].cgroup, c[at].cgroup) < 0))
					at = i;
			}
			if (at == n || used + 1 >= len)
				break;
			done[at] = true;
			/* two cgroups of one id: where each is */
			same_id = false;
			for (size_t k = 0; k < n; k++)
				same_id |= k != at && answers(&c[k], arg) && !strcmp(c[k].id, c[at].id);
			int w = snprintf(buf + used, len - used, "%s%.12s%s%s%s %s%s%s", used ? ", " : "",
					 c[at].id, c[at].name[0] ? " (" : "", c[at].name,
					 c[at].name[0] ? ")" : "", how[answers(&c[at], arg)],
					 same_id ? " in " : "", same_id ? c[at].cgroup : "");
			if (w < 0)
				break;
			used += (size_t)w < len - used ? (size_t)w : len - used - 1;
		}
	}
	free(done);
}

int container_find(const char *root, const char *arg, struct container_ref *out, char *err,
		   size_t errlen)
{
	struct found f = { NULL, 0, root };
	const char *who = NULL;
	char id[256], running[600];
	ssize_t at;
	int rc = -1;

	f.n = container_list(root, &f.c);
	/* its full id, its name or a prefix of its id, answered by one container
	 * only (else refused, naming them), then the runtimes' CLIs */
	at = container_match(f.c, f.n, arg);
	if (at == -1 && !id_from_cli(arg, id, sizeof(id), &who))
		at = container_match(f.c, f.n, id);
	list_running(&f, running, sizeof(running));
	if (at >= 0) {
		*out = f.c[at];
		rc = 0;
	} else if (at == -2) {
		char cands[1200];

		bool one_id = true;

		list_answers(f.c, f.n, arg, cands, sizeof(cands));
		for (size_t i = 0, first = f.n; i < f.n; i++)
			if (answers(&f.c[i], arg)) {
				if (first == f.n)
					first = i;
				one_id &= !strcmp(f.c[i].id, f.c[first].id);
			}
		if (one_id)
			snprintf(err, errlen, "--container %s: cgroups of root's in several places "
				 "carry its id: %s; record the right one with --cgroup PATH", arg,
				 cands);
		else
			snprintf(err, errlen, "--container %s: several running containers answer to "
				 "it: %s; give the full id", arg, cands);
	} else if (who) {
		snprintf(err, errlen, "--container %s: %s knows it as %.12s, but it is not running "
			 "(no cgroup of it under %s); running: %s", arg, who, id, root, running);
	} else {
		snprintf(err, errlen, "--container %s: no running container has that name or id "
			 "(looked for cgroups libpod-<id>, docker-<id>.scope, /docker/<id>, "
			 "cri-containerd-<id>.scope, crio-<id>, kubepods/.../pod<uid>/<id> under %s, "
			 "names in %s and %s/*/config.v2.json, and asked podman, docker and crictl "
			 "where installed); running: %s", arg, root, PODMAN_CONTAINERS,
			 DOCKER_CONTAINERS, running);
	}
	free(f.c);
	return rc;
}
