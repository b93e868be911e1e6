// SPDX-License-Identifier: GPL-2.0
/*
 * record --service: the unit's ExecStart= as systemd would start it. The
 * order of the steps is systemd's exec_child() (src/core/execute.c):
 * groups and gid, the bounding set, the ambient set (raised in the
 * inheritable set too), the uid with keep-caps and the ambient set raised
 * again (setresuid() to a non-root uid clears it), no_new_privs, exec.
 */
#include "record/service.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/service.h"
#include "facts/capnames.h"
#include "facts/unitpath.h"
#include "lib/hindex.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "record/launch.h"
#include "tracer/privs.h"

/* systemd's own search path for an ExecStart= without a slash (since
 * v239 the manager's PATH is not used) and the commands' PATH */
#define SYSTEMD_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin"

static void push_env(char ***v, size_t *n, const char *fmt, const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, fmt, a, b) < 0)
		abort();
	*v = xrealloc(*v, (*n + 2) * sizeof(char *));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

/* An executable in SYSTEMD_PATH, or NULL. */
static char *find_exec(const char *name)
{
	const char *p = SYSTEMD_PATH, *e;
	struct stat st;
	char buf[4096];

	for (;; p = e + 1) {
		e = strchrnul(p, ':');
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(e - p), p, name);
		if (!stat(buf, &st) && S_ISREG(st.st_mode) && !access(buf, X_OK))
			return xstrdup(buf);
		if (!*e)
			return NULL;
	}
}

static int resolve_paths(struct service *v)
{
	const struct unit_file *u = &v->unit;

	v->paths = xcalloc(u->nexec + 1, sizeof(char *));
	for (size_t i = 0; i < u->nexec; i++) {
		const char *p = u->exec[i].path;

		if (p[0] == '/') {
			v->paths[i] = xstrdup(p);
			continue;
		}
		/* systemd: "neither a valid executable name nor an absolute path" */
		if (strchr(p, '/')) {
			p_err("%s:%u: ExecStart=%s: a relative path; systemd takes an absolute path "
			      "or a bare name", u->exec[i].file, u->exec[i].line, p);
			return -1;
		}
		v->paths[i] = find_exec(p);
		if (!v->paths[i]) {
			p_err("%s:%u: ExecStart=%s: not found in %s", u->exec[i].file, u->exec[i].line, p,
			      SYSTEMD_PATH);
			return -1;
		}
	}
	return 0;
}

/* The groups already in v->groups, by gid (a unit may name 65,536: a
 * linear search each was quadratic). */
struct gid_key {
	gid_t g;
	const gid_t *v;
};

static bool gid_eq(const void *ctx, size_t pos)
{
	const struct gid_key *k = ctx;

	return k->v[pos] == k->g;
}

static void add_group(struct service *v, struct hindex *seen, gid_t g)
{
	struct gid_key k = { g, v->groups };
	uint64_t h = hash_u64(0, g);

	if (hindex_find(seen, h, gid_eq, &k) >= 0)
		return;
	v->groups = xrealloc(v->groups, (v->ngroups + 1) * sizeof(gid_t));
	v->groups[v->ngroups++] = g;
	hindex_add(seen, h, v->ngroups - 1);
}

static int group_id(const char *name, gid_t *gid)
{
	struct group *gr;
	uint32_t id;

	if (!parse_u32(name, &id)) {
		*gid = id;
		return 0;
	}
	gr = getgrnam(name);
	if (!gr)
		return -1;
	*gid = gr->gr_gid;
	return 0;
}

/*
 * User=, Group=, SupplementaryGroups= (get_supplementary_groups() in
 * systemd): the user's groups from the group database unless its gid is
 * 0, then SupplementaryGroups=. A unit started by PID 1 inherits no
 * groups: the list is set even when empty.
 */
static int resolve_creds(struct service *v)
{
	const struct unit_file *u = &v->unit;
	const char *home = "/", *shell = "/bin/sh", *name = "root";
	size_t nenv = 0, i;
	bool no_setuid = u->exec[0].no_setuid;
	struct hindex seen = { 0 };

	for (i = 1; i < u->nexec; i++)
		if (u->exec[i].no_setuid != no_setuid) {
			p_err("%s:%u: '!' on some ExecStart= commands and not on others: capaudit "
			      "runs them all with one set of credentials", u->exec[i].file,
			      u->exec[i].line);
			return -1;
		}
	v->uid = 0;
	v->gid = 0;
	if (u->user && !no_setuid) {
		uint32_t id;
		bool numeric = !parse_u32(u->user, &id);
		struct passwd *pw = numeric ? getpwuid(id) : getpwnam(u->user);

		if (!pw && !numeric) {
			p_err("%s:%u: User=%s: no such user on this host", u->user_file, u->user_line,
			      u->user);
			return -1;
		}
		v->set_user = true;
		v->uid = pw ? pw->pw_uid : id;
		v->gid = pw ? pw->pw_gid : id;
		if (pw) {
			name = pw->pw_name;
			home = pw->pw_dir;
			shell = pw->pw_shell;
		}
		/* systemd sets these for a unit with User= (now: pw is
		 * getpwnam()'s static entry, which the next lookup reuses) */
		push_env(&v->envp, &nenv, "%s=%s", "USER", name);
		push_env(&v->envp, &nenv, "%s=%s", "LOGNAME", name);
		push_env(&v->envp, &nenv, "%s=%s", "HOME", home);
		push_env(&v->envp, &nenv, "%s=%s", "SHELL", shell);
		if (pw && v->gid) {
			int n = 64;
			gid_t *gl = xcalloc((size_t)n, sizeof(gid_t));

			if (getgrouplist(pw->pw_name, v->gid, gl, &n) < 0) {
				gl = xrealloc(gl, (size_t)n * sizeof(gid_t));
				getgrouplist(pw->pw_name, v->gid, gl, &n);
			}
			for (int k = 0; k < n; k++)
				add_group(v, &seen, gl[k]);
			free(gl);
		}
	}
	if (u->group && !no_setuid && group_id(u->group, &v->gid)) {
		p_err("%s:%u: Group=%s: no such group on this host", u->group_file, u->group_line,
		      u->group);
		hindex_free(&seen);
		return -1;
	}
	for (i = 0; i < u->ngroups && !no_setuid; i++) {
		gid_t g;

		if (group_id(u->groups[i], &g)) {
			p_err("%s:%u: SupplementaryGroups=: no group %s on this host", u->groups_file,
			      u->groups_line, u->groups[i]);
			hindex_free(&seen);
			return -1;
		}
		add_group(v, &seen, g);
	}
	hindex_free(&seen);
	push_env(&v->envp, &nenv, "%s=%s", "PATH", SYSTEMD_PATH);
	for (i = 0; i < u->nenv; i++)
		push_env(&v->envp, &nenv, "%s%s", u->env[i], "");
	if (!v->envp)
		v->envp = xcalloc(1, sizeof(char *));
	return 0;
}

/* capaudit must hold what it hands on: CAP_SETPCAP (the sets), CAP_SETUID
 * and CAP_SETGID (the credentials), every capability of the ambient set,
 * and be root to give a root unit its bounding set. */
static int can_hand_on(struct service *v)
{
	struct privs pv;
	char names[CAPSET_STR_LEN];
	uint64_t missing;

	if (privs_read(&pv) || !launch_privileged(&pv, true)) {
		p_err("record --service needs root (CAP_SETPCAP, CAP_SETUID, CAP_SETGID) to start "
		      "the unit's command with its credentials and capabilities");
		return -1;
	}
	missing = (v->uid == 0 ? v->bounding : v->ambient) & ~(pv.prm & pv.bnd);
	if (v->uid == 0 && pv.euid != 0) {
		p_err("%s: the unit runs as root; capaudit must run as root to start it so",
		      v->unit.name);
		return -1;
	}
	if (missing && v->uid != 0) {
		p_err("%s: %s not in capaudit's own permitted or bounding set: the unit's "
		      "command cannot be given %s", v->unit.name,
		      capset_str(missing, names, sizeof(names)),
		      __builtin_popcountll(missing) > 1 ? "them" : "it");
		return -1;
	}
	/* root: the exec gives what capaudit's own bounding set still has;
	 * the header says what was applied, not what was asked for */
	if (missing && v->unit.has_bounding)
		fprintf(stderr, "capaudit: note: %s: %s outside capaudit's own bounding set: the "
			"command will not have %s\n", v->unit.name,
			capset_str(missing, names, sizeof(names)),
			__builtin_popcountll(missing) > 1 ? "them" : "it");
	v->bounding &= pv.bnd;
	v->ambient &= pv.bnd;
	return 0;
}

/* Which files make the unit: said when it was found by name or has
 * drop-ins, so that what was read is never a guess. */
static void say_sources(const struct unit_sources *s)
{
	if (s->by_name)
		fprintf(stderr, "capaudit: note: %s: the unit file is %s\n", s->name, s->unit);
	if (!s->ndropins)
		return;
	fprintf(stderr, "capaudit: note: %s: drop-ins, applied in this order: ", s->unit);
	for (size_t i = 0; i < s->ndropins; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", s->dropins[i]);
	fputc('\n', stderr);
}

int service_prepare(const char *arg, const struct service_opts *o, struct service *v)
{
	static const struct service_opts none;
	int max = cap_max_bits();
	uint64_t all = max >= 64 ? ~0ULL : (1ULL << max) - 1;
	struct unit_sources src;
	char err[4600];
	size_t i;
	int rc;

	if (!o)
		o = &none;
	memset(v, 0, sizeof(*v));
	if (unitpath_find(arg, &src, err, sizeof(err))) {
		p_err("%s", err);
		return EXIT_USAGE;
	}
	rc = unitfile_load_dropins(src.unit, src.dropins, src.ndropins, all, &v->unit, err,
				   sizeof(err));
	/* an error is one line that names its file: the list only after */
	if (!rc && !o->quiet)
		say_sources(&src);
	v->name = src.name;
	src.name = NULL;
	unitpath_free(&src);
	if (rc) {
		p_err("%s", err);
		service_free(v);
		return EXIT_USAGE;
	}
	for (i = 0; i < v->unit.nnotes && !o->quiet; i++)
		fprintf(stderr, "capaudit: note: %s\n", v->unit.notes[i]);
	if (v->unit.nexec > 1 && !o->quiet)
		fprintf(stderr, "capaudit: note: %s: %zu ExecStart= commands, run one after "
			"another in one recording\n", v->unit.name, v->unit.nexec);
	v->bounding = v->unit.bounding;
	v->ambient = v->unit.ambient & v->bounding;
	rc = resolve_paths(v) || resolve_creds(v) ? EXIT_USAGE : 0;
	if (!rc && o->set_caps) {
		/* what a drop-in of CapabilityBoundingSet=CAPS and, for a user
		 * other than root, AmbientCapabilities=CAPS gives the command */
		v->bounding = o->caps;
		v->ambient = v->uid == 0 ? v->ambient & o->caps : o->caps;
	}
	if (!rc && can_hand_on(v))
		rc = EXIT_FAIL;
	if (rc)
		service_free(v);
	return rc;
}

uint64_t service_granted(const struct service *v)
{
	return v->uid == 0 ? v->bounding : v->ambient;
}

void service_free(struct service *v)
{
	size_t i;

	for (i = 0; v->paths && i < v->unit.nexec; i++)
		free(v->paths[i]);
	free(v->paths);
	for (i = 0; v->envp && v->envp[i]; i++)
		free(v->envp[i]);
	free(v->envp);
	free(v->groups);
	free(v->name);
	unitfile_free(&v->unit);
	memset(v, 0, sizeof(*v));
}

/* The ambient set: exactly v->ambient (PR_CAP_AMBIENT_RAISE needs each in
 * the permitted and inheritable sets). */
static int set_ambient(const struct service *v, cap_value_t max)
{
	cap_value_t c;

	if (cap_reset_ambient())
		return -1;
	for (c = 0; c < max; c++)
		if (capset_has(v->ambient, c) && cap_set_ambient(c, CAP_SET))
			return -1;
	return 0;
}

int service_apply(const struct service *v, const char **stage)
{
	cap_value_t c, max = (cap_value_t)cap_max_bits();
	cap_t caps;
	int rc;

	*stage = "raising effective capabilities";
	if (launch_raise_effective())
		return -1;
	/* PID 1 starts a unit with no supplementary groups: set them always */
	*stage = "changing groups";
	if (setgroups(v->ngroups, v->groups) || setresgid(v->gid, v->gid, v->gid))
		return -1;
	*stage = "dropping capabilities from the bounding set";
	for (c = 0; c < max; c++)
		if (!capset_has(v->bounding, c) && cap_drop_bound(c))
			return -1;
	/* inheritable := ambient (PID 1's inheritable set is empty), then the
	 * ambient set raised from it */
	*stage = "setting the inheritable and ambient sets";
	caps = cap_get_proc();
	if (!caps || cap_clear_flag(caps, CAP_INHERITABLE)) {
		cap_free(caps);
		return -1;
	}
	for (c = 0; c < max; c++)
		if (capset_has(v->ambient, c))
			cap_set_flag(caps, CAP_INHERITABLE, 1, &c, CAP_SET);
	rc = cap_set_proc(caps);
	cap_free(caps);
	if (rc || set_ambient(v, max))
		return -1;
	if (v->set_user && v->uid != 0) {
		/* with an ambient set, keep the permitted set across the uid
		 * change (setresuid() clears the ambient set even so: raise it
		 * again); without one, systemd lets the change clear it, which
		 * matters to what a file with capabilities gains under
		 * NoNewPrivileges= */
		*stage = "changing user";
		if ((v->ambient && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0)) ||
		    setresuid(v->uid, v->uid, v->uid) || prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0))
			return -1;
		*stage = "raising the ambient set after the user change";
		if (v->ambient && set_ambient(v, max))
			return -1;
	}
	if (v->unit.no_new_privs) {
		*stage = "setting no_new_privs";
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			return -1;
	}
	/* the unit's environment, not capaudit's caller's */
	*stage = "setting the environment";
	if (clearenv())
		return -1;
	for (size_t i = 0; v->envp[i]; i++)
		if (putenv(v->envp[i]))
			return -1;
	return 0;
}

void service_exec(const struct service *v, int report_fd)
{
	const struct unit_file *u = &v->unit;
	int st = 0;

	if (u->nexec == 1) {
		execv(v->paths[0], u->exec[0].argv);
		return;
	}
	/* the recorder waits for this pipe to close (exec succeeded): this
	 * process stays, running the commands one after another */
	close(report_fd);
	for (size_t i = 0; i < u->nexec; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "capaudit: cannot start %s: %s\n", v->paths[i],
				strerror(errno));
			_exit(127);
		}
		if (pid == 0) {
			execv(v->paths[i], u->exec[i].argv);
			fprintf(stderr, "capaudit: cannot run %s: %s\n", v->paths[i],
				strerror(errno));
			_exit(errno == ENOENT ? 127 : 126);
		}
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR)
				_exit(127);
		/* systemd stops a oneshot at the first failure, unless '-' */
		if ((!WIFEXITED(st) || WEXITSTATUS(st)) && !u->exec[i].ignore_failure)
			break;
		st = 0;
	}
	if (WIFSIGNALED(st))
		_exit(128 + WTERMSIG(st));
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
}

void service_header(const struct service *v, struct rec_header *h)
{
	free(h->scope);
	h->scope = xstrdup("service");
	free(h->target_service);
	h->target_service = xstrdup(v->unit.name);
	h->has_service_caps = true;
	h->service_uid = v->uid;
	h->service_bounding = v->bounding;
	h->service_ambient = v->ambient;
}

void service_summary(const struct service *v, const struct record *r)
{
	char names[CAPSET_STR_LEN];
	uint64_t granted, unused;

	if (!service_removal_candidates(r, &granted, &unused))
		return;
	if (!granted)
		fprintf(stderr, "capaudit: %s grants no capability\n", v->unit.name);
	else if (!unused)
		fprintf(stderr, "capaudit: %s: every capability it grants was checked\n",
			v->unit.name);
	else
		fprintf(stderr, "capaudit: %s: removal candidates (granted, never checked): %s\n",
			v->unit.name, capset_str(unused, names, sizeof(names)));
}
