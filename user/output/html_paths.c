// SPDX-License-Identifier: GPL-2.0
/*
 * report --format html: the call paths. Per capability, each kernel call
 * site that asked for it, summed over every row of the report (a site
 * reached by a thousand processes is one row), with the programs that got
 * there and their example kernel stacks and user-space places (record
 * --user-stacks). Sorting the (capability, site) pairs keeps it
 * O(n log n) in the report's rows.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report.h"
#include "analyze/usite.h"
#include "facts/capnames.h"
#include "lib/util.h"
#include "output/html.h"

/* What one group shows at most: the rest is counted. */
#define MAX_NAMES 8
#define MAX_STACKS 3
#define MAX_USERS 4

/* One site of one capability row of one report row. */
struct path_ent {
	const struct proc_row *pr;
	const struct cap_row *cr;
	const struct site_stat *s;
	size_t order;            /* report order: ties keep it */
};

static int ent_cmp(const void *pa, const void *pb)
{
	const struct path_ent *a = pa, *b = pb;
	int c;

	if (a->cr->cap != b->cr->cap)
		return a->cr->cap < b->cr->cap ? -1 : 1;
	c = strcmp(a->s->func, b->s->func);
	if (c)
		return c;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* Every (row, capability, site) of the report, sorted; *n of them. */
static struct path_ent *collect(const struct report *rep, size_t *n)
{
	struct path_ent *e;
	size_t i, j, k, m = 0;

	for (i = 0; i < rep->nprocs; i++)
		for (j = 0; j < rep->procs[i].ncaps; j++)
			m += rep->procs[i].caps[j].nsites;
	e = m ? xcalloc(m, sizeof(*e)) : NULL;
	*n = 0;
	for (i = 0; i < rep->nprocs; i++)
		for (j = 0; j < rep->procs[i].ncaps; j++)
			for (k = 0; k < rep->procs[i].caps[j].nsites; k++) {
				e[*n].pr = &rep->procs[i];
				e[*n].cr = &rep->procs[i].caps[j];
				e[*n].s = &rep->procs[i].caps[j].sites[k];
				e[*n].order = *n;
				(*n)++;
			}
	sort_array(e, *n, sizeof(*e), ent_cmp);
	return e;
}

/* The distinct program names of e[0..n), up to MAX_NAMES. */
static void names_cell(FILE *f, const struct path_ent *e, size_t n)
{
	const char *seen[MAX_NAMES];
	size_t i, k, nseen = 0;

	fputs("<td class=\"programs\">", f);
	for (i = 0; i < n && nseen < MAX_NAMES; i++) {
		const char *name = e[i].pr->program ? e[i].pr->program : e[i].pr->proc->comm;

		for (k = 0; k < nseen && strcmp(seen[k], name); k++)
			;
		if (k < nseen)
			continue;
		seen[nseen++] = name;
		if (nseen > 1)
			fputs(", ", f);
		html_text(f, name);
	}
	if (i < n)
		fputs(", &hellip;", f);
	fprintf(f, " <span class=\"small\">(%zu row%s)</span></td>", n, n == 1 ? "" : "s");
}

static void stack_details(FILE *f, const struct rec_stack *st, const struct path_ent *e)
{
	size_t k;

	fputs("<details class=\"stack\"><summary>kernel stack (", f);
	html_text(f, e->pr->proc->comm);
	fprintf(f, ", %zu %s)</summary><pre>", st->n, plural(st->n, "frame", "frames"));
	for (k = 0; k < st->n; k++) {
		bool site = (int)k == st->site;   /* the call site's frame */

		fputs(site ? "<b>" : "", f);
		html_text(f, st->frames[k]);
		fputs(site ? "</b>\n" : "\n", f);
	}
	fputs("</pre></details>", f);
}

/* "from privops.c:38 (do_chown), via chown in libc.so.6, 1x" */
static void user_line(FILE *f, const struct site_user *u)
{
	char buf[600];
	int k;

	usite_format(&u->us->frames[u->own], buf, sizeof(buf));
	fputs("<li>from <code>", f);
	html_text(f, buf);
	fputs("</code>", f);
	for (k = 0; k < u->own; k++) {
		usite_format_short(&u->us->frames[k], buf, sizeof(buf));
		fputs(k ? ", " : ", via ", f);
		html_text(f, buf);
	}
	fprintf(f, ", %" PRIu64 "&times;</li>", u->count);
}

/* The example stacks (distinct, up to MAX_STACKS) and user places. */
static void stacks_cell(FILE *f, const struct path_ent *e, size_t n)
{
	const struct rec_stack *shown[MAX_STACKS];
	size_t i, k, nshown = 0, more = 0, users = 0;

	fputs("<td class=\"stacks\">", f);
	for (i = 0; i < n; i++) {
		const struct rec_stack *st = e[i].s->stack;

		if (!st)
			continue;
		for (k = 0; k < nshown && shown[k] != st; k++)
			;
		if (k < nshown)
			continue;
		if (nshown == MAX_STACKS) {
			more++;
			continue;
		}
		shown[nshown++] = st;
		stack_details(f, st, &e[i]);
	}
	if (!nshown)
		fputs("<span class=\"none\">no stack recorded</span>", f);
	if (more)
		fprintf(f, "<span class=\"small\">and %zu more stack%s</span>", more,
			more == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		for (k = 0; k < e[i].s->nusers && users < MAX_USERS; k++, users++) {
			fputs(users ? "" : "<ul class=\"users small\">", f);
			user_line(f, &e[i].s->users[k]);
		}
	fputs(users ? "</ul></td>" : "</td>", f);
}

/* One call site of one capability: the rows e[0..n) that reached it. */
static void site_row(FILE *f, const struct path_ent *e, size_t n)
{
	uint64_t granted = 0, denied = 0;
	struct obj_set about = { 0 };   /* the site's, over the programs that reached it */
	bool noaudit = false;
	size_t i;

	for (i = 0; i < n; i++) {
		granted = sat_add(granted, e[i].s->granted);
		denied = sat_add(denied, e[i].s->denied);
		noaudit |= e[i].cr->noaudit;
	}
	for (i = 0; i < n; i++)
		obj_set_merge(&about, &e[i].s->objects);
	fputs("<tr><td class=\"site\"><code>", f);
	html_text(f, e->s->func);
	fprintf(f, "</code>%s", noaudit ? " <span class=\"small\">noaudit</span>" : "");
	html_about(f, &about);
	fputs("</td>", f);
	names_cell(f, e, n);
	fprintf(f, "<td class=\"num granted\">%" PRIu64 "</td><td class=\"num denied%s\">%" PRIu64
		"</td>", granted, denied ? " some" : " zero", denied);
	stacks_cell(f, e, n);
	fputs("</tr>\n", f);
}

/* One capability: e[0..n) all have it, sorted by site. */
static void cap_block(FILE *f, const struct path_ent *e, size_t n)
{
	char name[CAP_NAME_LEN];
	uint64_t granted = 0, denied = 0;
	size_t i, j, sites = 0;

	for (i = 0; i < n; i++) {
		granted = sat_add(granted, e[i].s->granted);
		denied = sat_add(denied, e[i].s->denied);
		sites += !i || strcmp(e[i].s->func, e[i - 1].s->func);
	}
	cap_name(e->cr->cap, name);
	fprintf(f, "<details class=\"cap-paths\" data-cap=\"%s\" open><summary><span "
		"class=\"chip\">%s</span> %zu call site%s: granted %" PRIu64 ", denied %" PRIu64
		"</summary>\n<table class=\"paths\"><thead><tr><th>Call site</th><th>Programs</th>"
		"<th>Granted</th><th>Denied</th><th>Kernel stacks, user places</th></tr></thead>"
		"<tbody>\n", name, name, sites, sites == 1 ? "" : "s", granted, denied);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(e[j].s->func, e[i].s->func); j++)
			;
		site_row(f, e + i, j - i);
	}
	fputs("</tbody></table>\n</details>\n", f);
}

void html_paths(FILE *f, const struct report *rep)
{
	size_t i, j, n;
	struct path_ent *e = collect(rep, &n);

	fputs("<section id=\"paths\">\n<h2>Call paths</h2>\n<p class=\"small\">Per capability, "
	      "the kernel functions that checked it (call sites), the programs that got there, "
	      "and example kernel stacks, innermost frame first, the call site's in bold.</p>\n",
	      f);
	if (!n)
		fputs("<p class=\"none\">no capability check in this view</p>\n", f);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && e[j].cr->cap == e[i].cr->cap; j++)
			;
		cap_block(f, e + i, j - i);
	}
	free(e);
	fputs("</section>\n", f);
}
