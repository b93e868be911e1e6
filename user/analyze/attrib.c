// SPDX-License-Identifier: GPL-2.0
#include "analyze/attrib.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/capnames.h"
#include "lib/util.h"

static const char *const by_names[] = {
	[BY_PROCESS] = "process", [BY_PROGRAM] = "program", [BY_CONTAINER] = "container",
	[BY_UNIT] = "unit",
	[BY_CGROUP] = "cgroup",
};

const char *report_by_name(enum report_by by)
{
	return by < ARRAY_SIZE(by_names) ? by_names[by] : "process";
}

bool report_by_parse(const char *name, enum report_by *by)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(by_names); i++) {
		if (!strcmp(name, by_names[i])) {
			*by = (enum report_by)i;
			return true;
		}
	}
	return false;
}

const char *workload_key(const struct rec_process *p, enum report_by by)
{
	switch (by) {
	case BY_CONTAINER:
		return p->container_id;
	case BY_UNIT:
		return p->unit;
	case BY_CGROUP:
		return p->cgroup;
	default:
		return NULL;
	}
}

const char *workload_program(const struct rec_process *p)
{
	return p->exe ? p->exe : p->comm ? p->comm : "";
}

bool workload_program_is(const struct rec_process *p, const char *name)
{
	const char *base;

	if (!name)
		return true;
	if (p->comm && !strcmp(p->comm, name))
		return true;
	if (!p->exe)
		return false;
	base = strrchr(p->exe, '/');
	return !strcmp(p->exe, name) || (base && !strcmp(base + 1, name));
}

size_t record_view_program(struct rec_view *v, const struct record *r, const char *name)
{
	bool *keep = xcalloc(r->nprocs + 1, sizeof(*keep));
	size_t i, n = 0;

	for (i = 0; i < r->nprocs; i++)
		n += keep[i] = workload_program_is(&r->procs[i], name);
	rec_view_choose(v, r, keep, NULL);
	free(keep);
	return n;
}

/* ---- the lists an error names ------------------------------------------- */

/* Append to the line in buf; once it is full, end it with "..." and say
 * so (false): a host's record may have hundreds of containers. */
static bool appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t at = strlen(buf);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < len - at)
		return true;
	if (len > 4)
		strcpy(buf + len - 4, "...");
	return false;
}

/* One container of the record: the name and runtime any of its processes
 * gave (a process seen before the runtime named it may have none). */
struct ctr {
	const char *id, *name, *runtime;
};

static int cmp_ctr(const void *a, const void *b)
{
	return strcmp(((const struct ctr *)a)->id, ((const struct ctr *)b)->id);
}

/* The record's containers, one per id, sorted by id. */
static size_t list_containers(const struct record *r, struct ctr **out)
{
	struct ctr *c = xcalloc(r->nprocs + 1, sizeof(*c));
	size_t i, n = 0, k = 0;

	for (i = 0; i < r->nprocs; i++)
		if (r->procs[i].container_id)
			c[n++] = (struct ctr){ r->procs[i].container_id, r->procs[i].container_name,
					       r->procs[i].container_runtime };
	sort_array(c, n, sizeof(*c), cmp_ctr);
	for (i = 0; i < n; i++) {
		if (k && !strcmp(c[k - 1].id, c[i].id)) {
			c[k - 1].name = c[k - 1].name ? c[k - 1].name : c[i].name;
			c[k - 1].runtime = c[k - 1].runtime ? c[k - 1].runtime : c[i].runtime;
		} else {
			c[k++] = c[i];
		}
	}
	*out = c;
	return k;
}

/* "web (podman 0123456789ab)", "0123456789ab (podman)" */
static bool describe_ctr(char *buf, size_t len, const struct ctr *c, const char *sep)
{
	int w = WL_SHORT_ID;

	if (c->name)
		return appendf(buf, len, "%s%s (%s%s%.*s)", sep, c->name,
			       c->runtime ? c->runtime : "", c->runtime ? " " : "", w, c->id);
	if (c->runtime)
		return appendf(buf, len, "%s%.*s (%s)", sep, w, c->id, c->runtime);
	return appendf(buf, len, "%s%.*s", sep, w, c->id);
}

/* Where err goes on to what the record has: "; the record has: " before
 * the list, or why there is none. */
static void list_or_none(char *err, size_t errlen, const struct record *r, size_t n)
{
	if (n)
		appendf(err, errlen, "; the record has: ");
	else if (r->hdr.version < 4)
		appendf(err, errlen, "; a version %d record does not say where processes ran "
			"(format 4 does)", r->hdr.version);
	else
		appendf(err, errlen, "; the record has none");
}

/* ---- --container --------------------------------------------------------- */

/* How x named the containers it marked. */
enum ctr_match { CM_NONE, CM_ID, CM_NAME, CM_PREFIX };

/* Mark in hit[] the containers x names: its id; else its name (every
 * container that had it: a container run again under the same name gets
 * a new id); else the ids x is a prefix of (3 hex digits at least). */
static enum ctr_match mark_containers(const struct ctr *c, size_t n, const char *x, bool *hit,
				      size_t *nm)
{
	size_t i, len = strlen(x);

	*nm = 0;
	for (i = 0; i < n; i++)
		*nm += hit[i] = !strcmp(c[i].id, x);
	if (*nm)
		return CM_ID;
	for (i = 0; i < n; i++)
		*nm += hit[i] = c[i].name && !strcmp(c[i].name, x);
	if (*nm)
		return CM_NAME;
	if (len < 3 || !is_lower_hex(x))
		return CM_NONE;
	for (i = 0; i < n; i++)
		*nm += hit[i] = !strncmp(c[i].id, x, len);
	return *nm ? CM_PREFIX : CM_NONE;
}

/* The error: no match (every container listed), or a prefix of several
 * ids (those listed). */
static void container_error(const struct record *r, const struct ctr *c, size_t n,
			    const bool *hit, bool none, const char *x, char *err, size_t errlen)
{
	size_t i, k = 0;

	if (none) {
		snprintf(err, errlen, "--container %s: no container has that id or name%s", x,
			 *x && strlen(x) < 3 && is_lower_hex(x) ? " (an id prefix has 3 hex digits or more)" : "");
		list_or_none(err, errlen, r, n);
	} else {
		snprintf(err, errlen, "--container %s: ambiguous, the id prefix of: ", x);
	}
	for (i = 0; i < n; i++)
		if ((none || hit[i]) && !describe_ctr(err, errlen, &c[i], k++ ? ", " : ""))
			break;
}

static int match_container(const struct record *r, const char *x, bool *keep, char *err,
			   size_t errlen)
{
	struct ctr *c, key;
	size_t n = list_containers(r, &c), i, nm;
	bool *hit = xcalloc(n + 1, sizeof(*hit));
	enum ctr_match how = mark_containers(c, n, x, hit, &nm);
	int rc = 0;

	if (how == CM_NONE || (how == CM_PREFIX && nm > 1)) {
		container_error(r, c, n, hit, how == CM_NONE, x, err, errlen);
		rc = -1;
	}
	for (i = 0; !rc && i < r->nprocs; i++) {
		const struct ctr *at;

		key.id = r->procs[i].container_id;
		at = key.id ? bsearch(&key, c, n, sizeof(*c), cmp_ctr) : NULL;
		/* runc's stages set the container up from inside its cgroup:
		 * their checks are the runtime's, not the container's */
		keep[i] = keep[i] && at && hit[at - c] && !r->procs[i].runtime_setup;
	}
	free(hit);
	free(c);
	return rc;
}

/* ---- --unit ------------------------------------------------------------- */

/* "cron" names cron.service as systemctl takes it; "cron.timer" only itself */
static bool unit_is(const char *unit, const char *x)
{
	size_t n = strlen(x);

	return unit && (!strcmp(unit, x) || (!strncmp(unit, x, n) && !strcmp(unit + n, ".service")));
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "--unit X: ...; the record has: a.service, b.service" */
static void unit_error(const struct record *r, const char *x, char *err, size_t errlen)
{
	const char **u = xcalloc(r->nprocs + 1, sizeof(*u));
	size_t i, n = 0;

	for (i = 0; i < r->nprocs; i++)
		if (r->procs[i].unit)
			u[n++] = r->procs[i].unit;
	sort_array(u, n, sizeof(*u), cmp_strp);
	snprintf(err, errlen, "--unit %s: no process ran in that unit", x);
	list_or_none(err, errlen, r, n);
	for (i = 0; i < n; i++) {
		if (i && !strcmp(u[i - 1], u[i]))
			continue;   /* one unit has many processes */
		if (!appendf(err, errlen, "%s%s", i ? ", " : "", u[i]))
			break;
	}
	free(u);
}

static int match_unit(const struct record *r, const char *x, bool *keep, char *err,
		      size_t errlen)
{
	size_t i, nm = 0;

	for (i = 0; i < r->nprocs; i++)
		nm += unit_is(r->procs[i].unit, x);
	if (!nm) {
		unit_error(r, x, err, errlen);
		return -1;
	}
	for (i = 0; i < r->nprocs; i++)
		keep[i] = keep[i] && unit_is(r->procs[i].unit, x);
	return 0;
}

/* ---- --pid ------------------------------------------------------------- */

/* The pids the record's processes have (as their files give them),
 * sorted, each once; a monitor's program lines have none. */
static size_t list_pids(const struct record *r, uint32_t **out)
{
	uint32_t *v = xcalloc(r->nprocs + 1, sizeof(*v));
	size_t i, n = 0, k = 0;

	for (i = 0; i < r->nprocs; i++)
		if (!r->procs[i].pids)
			v[n++] = rec_process_file_pid(r, &r->procs[i]);
	sort_array(v, n, sizeof(*v), cmp_u32);
	for (i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	*out = v;
	return k;
}

/* "--pid 7: no process had that pid in the record; it has: 1, 2, ..." */
static void pid_error(const struct record *r, uint32_t pid, const uint32_t *v, size_t n,
		      char *err, size_t errlen)
{
	size_t i;

	snprintf(err, errlen, "--pid %u: no process had that pid in the record", pid);
	if (!n) {
		appendf(err, errlen, r->nprocs ? "; it has no processes, only a monitor's "
			"programs (their lines name programs, not processes)" :
			"; it has no processes");
		return;
	}
	appendf(err, errlen, "; it has: ");
	for (i = 0; i < n; i++)
		if (!appendf(err, errlen, "%s%u", i ? ", " : "", v[i]))
			break;
}

static int match_pids(const struct record *r, const uint32_t *pids, size_t npids, bool *keep,
		      char *err, size_t errlen)
{
	uint32_t *v;
	size_t n = list_pids(r, &v), i;
	int rc = 0;

	for (i = 0; i < npids; i++) {
		if (!bsearch(&pids[i], v, n, sizeof(*v), cmp_u32)) {
			pid_error(r, pids[i], v, n, err, errlen);
			rc = -1;
			break;
		}
	}
	free(v);
	if (rc)
		return rc;
	for (i = 0; i < r->nprocs; i++) {
		uint32_t pid = rec_process_file_pid(r, &r->procs[i]);
		size_t j;
		bool hit = false;

		for (j = 0; !r->procs[i].pids && j < npids && !hit; j++)
			hit = pids[j] == pid;
		keep[i] = keep[i] && hit;
	}
	return 0;
}

int record_view_workload(struct rec_view *v, const struct record *r,
			 const struct workload_filter *f, char *err, size_t errlen)
{
	bool *keep;
	size_t i;
	int rc = 0;

	if (!f->container && !f->unit && !f->npids) {
		rec_view_all(v, r);
		return 0;
	}
	keep = xcalloc(r->nprocs + 1, sizeof(*keep));
	for (i = 0; i < r->nprocs; i++)
		keep[i] = true;
	/* each matched against the whole record: an error lists all it has */
	if (f->container)
		rc = match_container(r, f->container, keep, err, errlen);
	if (!rc && f->unit)
		rc = match_unit(r, f->unit, keep, err, errlen);
	if (!rc && f->npids)
		rc = match_pids(r, f->pids, f->npids, keep, err, errlen);
	if (rc)
		rec_view_none(v, r);
	else
		rec_view_choose(v, r, keep, NULL);
	free(keep);
	return rc;
}

size_t record_view_caps(struct rec_view *v, const struct record *r, uint64_t caps)
{
	bool *keep_check = xcalloc(r->nchecks + 1, sizeof(*keep_check));
	bool *made_one = xcalloc(r->nprocs + 1, sizeof(*made_one));
	size_t i;

	for (i = 0; i < r->nchecks; i++) {
		const struct rec_process *p = check_process(r, &r->checks[i]);

		keep_check[i] = capset_has(caps, r->checks[i].cap);
		if (keep_check[i] && p)
			made_one[p - r->procs] = true;
	}
	rec_view_choose(v, r, made_one, keep_check);
	free(keep_check);
	free(made_one);
	return rec_view_record(v)->nchecks;
}
