// SPDX-License-Identifier: GPL-2.0
/* A record's checks and findings as metrics (metrics_view.h). */
#include "analyze/metrics_view.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/check.h"
#include "analyze/suggest.h"
#include "facts/capnames.h"
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

void metrics_from_record(const struct record *r, struct baseline *b, enum check_match match,
			 struct metrics_snapshot *out)
{
	size_t n = r->nchecks + r->hdr.noverflow, i;
	struct metrics_check_row *rows = xcalloc(n + 1, sizeof(*rows));
	char **caps = xcalloc(n + 1, sizeof(char *));
	char name[CAP_NAME_LEN];

	for (i = 0; i < r->nchecks; i++) {
		const struct rec_check *c = &r->checks[i];
		const struct rec_process *p = check_process(r, c);

		caps[i] = xstrdup(cap_name(c->cap, name));
		rows[i].exe = p && p->exe ? p->exe : "";
		rows[i].comm = p ? p->comm : c->comm;
		rows[i].container = p && p->container_id ? p->container_id : "";
		rows[i].container_name = p && p->container_name ? p->container_name : "";
		rows[i].unit = p && p->unit ? p->unit : "";
		rows[i].cap = caps[i];
		rows[i].denied = c->ret != 0;
		rows[i].count = c->count;
	}
	/* checks the kernel could count only per capability (its map was
	 * full): no program to name, but counted all the same */
	for (i = r->nchecks; i < n; i++) {
		const struct rec_overflow *o = &r->hdr.overflow[i - r->nchecks];

		caps[i] = xstrdup(cap_name(o->cap, name));
		rows[i] = (struct metrics_check_row){ .exe = "", .comm = "", .container = "",
			.container_name = "", .unit = "", .cap = caps[i], .denied = o->denied,
			.count = o->count };
	}
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
