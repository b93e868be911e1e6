// SPDX-License-Identifier: GPL-2.0
/* A record's checks and findings as metrics (metrics_view.h). */
#include "analyze/metrics_view.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/check.h"
#include "analyze/suggest.h"
#include "facts/capnames.h"
#include "lib/hindex.h"
#include "lib/util.h"

/* What check --baseline b would report on r, counted by kind. */
static void count_findings(const struct record *r, struct baseline *b, enum check_match match,
			   uint64_t *by_kind)
{
	struct suggest_opts so = { 0 };
	struct observation obs = { 0 };
	struct check_result res;
	struct suggestion sg;
	size_t i;

	suggest_build(r, &so, &sg);
	observation_add(&obs, &sg);
	suggest_free(&sg);
	check_compare(&obs, b, false, match, &res);
	for (i = 0; i < res.n; i++)
		by_kind[res.f[i].kind]++;
	check_result_free(&res);
	observation_free(&obs);
}

const char *metrics_exe_label(const char *exe)
{
	static const char *const tmp[] = { "/tmp/", "/var/tmp/", "/dev/shm/", "/run/user/" };
	size_t i, len;

	if (!exe || !*exe)
		return "";
	len = strlen(exe);
	if (!strncmp(exe, "/memfd:", 7) || (len > 10 && !strcmp(exe + len - 10, " (deleted)")))
		return METRICS_EXE_TRANSIENT;
	/* a path that did not name the file (run by a relative path, or
	 * through a descriptor, and gone before it could be resolved) */
	if (exe[0] != '/' || exec_name_is_fd(exe))
		return METRICS_EXE_TRANSIENT;
	for (i = 0; i < sizeof(tmp) / sizeof(tmp[0]); i++)
		if (!strncmp(exe, tmp[i], strlen(tmp[i])))
			return METRICS_EXE_TRANSIENT;
	return exe;
}

/* The distinct exe values given out so far. */
struct exe_set {
	const char **v;
	size_t n, cap;
	struct hindex ix;
};

static bool exe_eq(const void *ctx, size_t pos)
{
	const void *const *q = ctx;
	const struct exe_set *s = q[0];

	return !strcmp(s->v[pos], q[1]);
}

/* exe, or METRICS_EXE_OTHER once METRICS_EXE_MAX others were given out */
static const char *exe_bounded(struct exe_set *s, const char *exe, uint64_t *overflow,
			       uint64_t count)
{
	uint64_t h = hash_str(0xe4e, exe);
	const void *q[2] = { s, exe };

	if (hindex_find(&s->ix, h, exe_eq, q) >= 0)
		return exe;
	if (s->n >= METRICS_EXE_MAX) {
		*overflow = sat_add(*overflow, count);
		return METRICS_EXE_OTHER;
	}
	grow_array((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v));
	s->v[s->n] = exe;
	hindex_add(&s->ix, h, s->n++);
	return exe;
}

/* A check's objects into the per-kind counts. */
static void count_objects(struct metrics_snapshot *out, const struct rec_check *c)
{
	size_t i;

	for (i = 0; i < c->nobjects; i++) {
		int kind = c->objects[i].kind;

		out->objects[kind > 0 && kind < OBJ_KIND_NR ? kind : 0] =
			sat_add(out->objects[kind > 0 && kind < OBJ_KIND_NR ? kind : 0],
				c->objects[i].count);
	}
	out->objects_unlisted = sat_add(out->objects_unlisted, c->objects_more);
	out->has_objects |= c->nobjects || c->objects_more;
}

void metrics_from_record(const struct record *r, struct baseline *b, enum check_match match,
			 bool keep_noaudit, struct metrics_snapshot *out)
{
	size_t n = r->nchecks + r->hdr.noverflow, i, k = 0;
	struct metrics_check_row *rows = xcalloc(n + 1, sizeof(*rows));
	char **caps = xcalloc(n + 1, sizeof(char *));
	char name[CAP_NAME_LEN];
	struct exe_set exes = { 0 };

	out->exe_overflow = 0;
	out->noaudit_left_out = 0;
	out->has_objects = false;
	memset(out->objects, 0, sizeof(out->objects));
	out->objects_unlisted = 0;
	for (i = 0; i < r->nchecks; i++) {
		const struct rec_check *c = &r->checks[i];
		const struct rec_process *p = check_process(r, c);
		bool noaudit = check_noaudit(r, c) != NOAUDIT_NO;

		/* the kernel probing (the mmap accounting check, ...): not
		 * the program's use of a capability */
		if (noaudit && !keep_noaudit) {
			out->noaudit_left_out = sat_add(out->noaudit_left_out, c->count);
			continue;
		}
		caps[k] = xstrdup(cap_name(c->cap, name));
		rows[k].exe = exe_bounded(&exes, metrics_exe_label(p ? p->exe : NULL),
					  &out->exe_overflow, c->count);
		/* a transient program's name is as many as its paths */
		rows[k].comm = !strcmp(rows[k].exe, METRICS_EXE_TRANSIENT) ||
			       !strcmp(rows[k].exe, METRICS_EXE_OTHER) ? rows[k].exe :
			       p ? p->comm : c->comm;
		rows[k].container = p && p->container_id ? p->container_id : "";
		rows[k].container_name = p && p->container_name ? p->container_name : "";
		rows[k].unit = p && p->unit ? p->unit : "";
		rows[k].cap = caps[k];
		rows[k].denied = c->ret != 0;
		rows[k].noaudit = noaudit;
		rows[k].count = c->count;
		k++;
		count_objects(out, c);
	}
	/* checks the kernel could count only per capability (its map was
	 * full): no program to name, but counted all the same */
	for (i = r->nchecks; i < n; i++) {
		const struct rec_overflow *o = &r->hdr.overflow[i - r->nchecks];

		caps[k] = xstrdup(cap_name(o->cap, name));
		rows[k] = (struct metrics_check_row){ .exe = "", .comm = "", .container = "",
			.container_name = "", .unit = "", .cap = caps[k], .denied = o->denied,
			.count = o->count };
		k++;
	}
	free(exes.v);
	hindex_free(&exes.ix);
	n = k;
	memset(out->findings, 0, sizeof(out->findings));
	out->has_baseline = b != NULL;
	if (b)
		count_findings(r, b, match, out->findings);
	out->checks = rows;
	out->nchecks = n;
	out->cap_names = caps;
	out->lost = r->hdr.lost;
}

void metrics_snapshot_free(struct metrics_snapshot *m)
{
	size_t i;

	for (i = 0; m->cap_names && i < m->nchecks; i++)
		free(m->cap_names[i]);
	free(m->cap_names);
	free((void *)m->checks);
	m->cap_names = NULL;
	m->checks = NULL;
	m->nchecks = 0;
}
