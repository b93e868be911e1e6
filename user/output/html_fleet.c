// SPDX-License-Identifier: GPL-2.0
/* report --fleet --format html: the fleet view as one page, a table row per
 * program build (the same cells as the JSON's "builds"). */
#include <stdio.h>

#include "analyze/fleet.h"
#include "facts/capnames.h"
#include "lib/util.h"
#include "output/html.h"

static void cell_time(FILE *f, int64_t ns)
{
	char buf[40];

	format_iso8601(ns, buf, sizeof(buf));
	fprintf(f, "<td>%s</td>", buf);
}

static void cell_caps(FILE *f, uint64_t mask)
{
	char names[CAPSET_STR_LEN];

	fputs("<td>", f);
	html_text(f, mask ? capset_str(mask, names, sizeof(names)) : "none");
	fputs("</td>", f);
}

static void where(FILE *f, const struct fleet *v, size_t host, size_t file)
{
	html_text(f, v->hosts[host]);
	fputs(" (", f);
	html_text(f, v->files[file]);
	fputs(")", f);
}

static void row(FILE *f, const struct fleet *v, const struct fleet_ident *id)
{
	char r[CAP_NAME_LEN], w[CAP_NAME_LEN], names[CAPSET_STR_LEN];
	size_t i;

	fputs("<tr><td>", f);
	html_text(f, *id->exe ? id->exe : id->comm);
	if (id->nbuilds > 1)
		fprintf(f, "<br><span class=\"small\">same path, %zu different builds</span>",
			id->nbuilds);
	fputs("</td><td class=\"small\">", f);
	html_text(f, *id->build_id ? id->build_id : "not known");
	fprintf(f, "</td><td>%zu</td><td>%llu</td>", id->nhosts, (unsigned long long)id->pids);
	cell_time(f, id->first_ns);
	cell_time(f, id->last_ns);
	cell_caps(f, id->required);
	fputs("<td>", f);
	for (i = 0; i < id->nrepl; i++)
		fprintf(f, "%s%s &rarr; %s", i ? "<br>" : "", cap_name(id->repl[i].replace, r),
			cap_name(id->repl[i].with, w));
	fputs("</td>", f);
	cell_time(f, id->stable_ns);
	fputs("<td>", f);
	if (!id->nchanges) {
		fputs("unchanged since its first record, ", f);
		where(f, v, id->stable_host, id->stable_file);
	}
	for (i = 0; i < id->nchanges; i++) {
		const struct fleet_change *c = &id->changes[i];
		char at[40];

		format_iso8601(c->at_ns, at, sizeof(at));
		fprintf(f, "%s%s ", i ? "<br>" : "", at);
		where(f, v, c->host, c->file);
		fprintf(f, " added %s", capset_str(c->added, names, sizeof(names)));
	}
	fputs("</td></tr>\n", f);
}

int html_fleet(FILE *f, const struct fleet *v, const char *source)
{
	char a[40], b[40];
	size_t i;

	html_head(f, "capaudit fleet", source);
	format_iso8601(v->first_ns, a, sizeof(a));
	format_iso8601(v->last_ns, b, sizeof(b));
	fprintf(f, "</p></header>\n<main>\n<section id=\"fleet\">\n<h2>Program builds</h2>\n"
		"<p>%zu records from %zu hosts, %s to %s. A program build is an executable and "
		"its build id; its required set is what <code>report --suggest</code> grants it, "
		"over every host; <em>stable since</em>: the record from which that set has not "
		"grown.</p>\n", v->nfiles, v->nhosts, a, b);
	fputs("<table id=\"builds\"><thead><tr><th>Program</th><th>Build id</th><th>Hosts</th>"
	      "<th>Processes</th><th>First seen</th><th>Last seen</th><th>Required</th>"
	      "<th>Narrower</th><th>Stable since</th><th>Changes</th></tr></thead><tbody>\n", f);
	for (i = 0; i < v->nids; i++)
		row(f, v, &v->ids[i]);
	fputs("</tbody></table>\n</section>\n</main>\n</body>\n</html>\n", f);
	return ferror(f) ? -1 : 0;
}
