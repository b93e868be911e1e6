// SPDX-License-Identifier: GPL-2.0
/*
 * report --format html: one self-contained page, to open in a browser or
 * attach to a ticket. It loads nothing: no script, no font, no style sheet
 * from elsewhere, and its Content-Security-Policy forbids any request, so
 * a record's strings cannot make it fetch anything even if escaping
 * failed. Sections, in the order a reader needs them: the answer (the
 * required set, its replacements, the --emit snippets: html_suggest.c),
 * the programs and the checks they made, with the notes the text report
 * gives, the rest of the suggestion, the record's facts, the call paths
 * (html_paths.c).
 * The tables carry the numbers report --format json has (tests/e2e/html.bats
 * compares them in a browser).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analyze/report.h"
#include "analyze/suggest.h"
#include "analyze/usite.h"
#include "analyze/views.h"
#include "facts/capnames.h"
#include "lib/util.h"
#include "output/html.h"
#include "output/output.h"
#include "analyze/objtext.h"
#include "output/words.h"

/* Small, and only what the page needs: system fonts, no images. */
static const char style[] =
	":root{font:14px/1.4 system-ui,sans-serif;color:#1d1d1f;background:#fff}"
	"body{margin:1.5em auto;max-width:1240px;padding:0 1em}"
	"h1{font-size:1.5em;margin:0 0 .2em}"
	"h2{font-size:1.25em;margin:1.8em 0 .5em;border-bottom:2px solid #c9ced6}"
	"h3{font-size:1.05em;margin:1.2em 0 .3em}"
	"table{border-collapse:collapse;margin:.4em 0 1em;width:100%}"
	"th,td{border:1px solid #d5d9e0;padding:.25em .5em;text-align:left;vertical-align:top}"
	"thead th{background:#eef1f5}tbody th{background:#f7f8fa;font-weight:600}"
	"table.facts{width:auto;min-width:50%}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	"tbody.proc{border-top:2px solid #9aa3b0}"
	"td.denied.some{color:#b00020;font-weight:600}td.zero{color:#98a0ab}"
	".chip{font:12.5px ui-monospace,monospace;background:#e6effc;border-radius:3px;"
	"padding:0 .35em;margin:0 .3em .1em 0;display:inline-block}"
	".chip.denied{background:#fde7ea}.none,.small{color:#6b7380}.small{font-size:.88em}"
	"code,pre{font:12.5px ui-monospace,monospace}pre{margin:.3em 0;white-space:pre-wrap}"
	"details{margin:.2em 0}summary{cursor:pointer}pre b{background:#fff3c4}"
	".warn{color:#8a4b00}ul{margin:.2em 0;padding-left:1.3em}";

void html_text(FILE *f, const char *s)
{
	markup_escape(f, s ? s : "");
}

void html_about(FILE *f, const struct obj_set *s)
{
	if (!obj_set_any(s))
		return;
	fputs("<br><span class=\"about small\">about ", f);
	objects_html(f, s, OBJ_SHOW);
	fputs("</span>", f);
}

void html_capset(FILE *f, const char *id, uint64_t mask)
{
	char name[CAP_NAME_LEN];
	int cap;

	fputs("<span class=\"caps\"", f);
	if (id)
		fprintf(f, " id=\"%s\"", id);
	fputc('>', f);
	for (cap = 0; cap < 64; cap++)
		if (mask & (1ULL << cap))
			fprintf(f, "<span class=\"chip\">%s</span>", cap_name(cap, name));
	if (!mask)
		fputs("<span class=\"none\">none</span>", f);
	fputs("</span>", f);
}

/* ---- the record --------------------------------------------------------- */

/* What a scoped recording recorded: its service, container, unit, cgroup. */
static void scope_cell(FILE *f, const struct rec_header *h)
{
	fputs("<td>", f);
	html_text(f, h->scope ? h->scope : "?");
	if (h->target_service) {
		fputs(": ", f);
		html_text(f, h->target_service);
	} else if (h->target_container) {
		fputs(": ", f);
		html_text(f, h->target_name ? h->target_name : h->target_container);
		if (h->target_name) {
			fputs(" <span class=\"small\">(", f);
			html_text(f, h->target_container);
			fputs(")</span>", f);
		}
	} else if (h->target_unit) {
		fputs(": ", f);
		html_text(f, h->target_unit);
	}
	if (h->target_cgroup) {
		fputs("<br><span class=\"small\">cgroup ", f);
		html_text(f, h->target_cgroup);
		fputs("</span>", f);
	}
	fputs("</td>", f);
}

/* One record's row of the records table. */
static void input_row(FILE *f, const struct rec_header *h, const char *name)
{
	char a[64], b[64];
	size_t i;

	format_iso8601(h->start_ns, a, sizeof(a));
	format_iso8601(h->end_ns, b, sizeof(b));
	fputs("<tr class=\"input\"><td class=\"file\">", f);
	html_text(f, name);
	fputs("</td><td class=\"kernel\">", f);
	html_text(f, h->kernel);
	if (h->machine) {
		fputs(" <span class=\"small\">", f);
		html_text(f, h->machine);
		fputs("</span>", f);
	}
	fputs("</td><td class=\"attach\">", f);
	html_text(f, h->attach ? h->attach : "?");
	fputs("</td>", f);
	scope_cell(f, h);
	fputs("<td><code>", f);
	for (i = 0; i < h->argc; i++) {
		if (i)
			fputc(' ', f);
		html_text(f, h->argv[i]);
	}
	fprintf(f, "</code></td><td>%s</td><td>%s</td><td class=\"num\">%.2f s</td><td>", a, b,
		(double)(h->end_ns - h->start_ns) / 1e9);
	if (h->has_exit_status)
		fprintf(f, "%d", h->exit_status);
	if (h->stop) {
		fputs(" <span class=\"small\">(", f);
		html_text(f, h->stop);
		fputs(")</span>", f);
	}
	fprintf(f, "</td><td class=\"num lost\">%" PRIu64 "</td></tr>\n", rec_lost_total(&h->lost));
}

/* What is partial or incomplete in one record, as list items. */
static void input_notes(FILE *f, const struct rec_header *h, const struct rec_input *in,
			const char *name)
{
	char lost[600];
	size_t i;

	if (h->command_running) {
		fputs("<li class=\"warn\">", f);
		html_text(f, name);
		fputs(": PARTIAL: the command was still running when recording stopped: what "
		      "it did after that is not here</li>\n", f);
	}
	if (h->pids_reused) {
		fputs("<li>", f);
		html_text(f, name);
		fprintf(f, ": %" PRIu64 " pids were given to another process while recording%s"
			"</li>\n", h->pids_reused, h->version >= 2 ?
			"; each process has its own rows (pid and start time)" :
			"; a reused pid's processes share one row, their counts stay exact");
	}
	for (i = 0; i < h->ndegraded; i++) {   /* what the kernel's BPF could not give */
		fputs("<li class=\"kernel-bpf\">", f);
		html_text(f, name);
		fputs(": ", f);
		html_text(f, h->degraded[i]);
		fputs("</li>\n", f);
	}
	if (in->lenient && (in->skipped || in->missing || in->truncated)) {
		fputs("<li class=\"warn\">", f);
		html_text(f, name);
		fprintf(f, ": INCOMPLETE (--lenient): %zu of %zu lines skipped, %zu missing%s</li>\n",
			in->skipped, in->lines, in->missing,
			in->truncated ? ", no end line (file cut)" : "");
	}
	if (rec_lost_describe(&h->lost, lost, sizeof(lost))) {
		fputs("<li class=\"warn\">", f);
		html_text(f, name);
		fputs(": lost: ", f);
		html_text(f, lost);
		fputs("</li>\n", f);
	}
}

/* Every kind of loss (the JSON "lost" object's keys) in a row, when
 * something was lost; else one line. */
static void lost_rows(FILE *f, const struct record *r)
{
	char name[CAP_NAME_LEN];
	size_t i;

	if (!rec_lost_total(&r->hdr.lost) && !r->hdr.noverflow) {
		fputs("<tr><th>Lost</th><td id=\"lost\">Nothing lost</td></tr>\n", f);
		return;
	}
	for (i = 0; i < rec_lost_nkinds; i++) {
		uint64_t v = rec_lost_count(&r->hdr.lost, &rec_lost_kinds[i]);

		fputs("<tr><th>Lost: ", f);
		html_text(f, rec_lost_kinds[i].what);
		fprintf(f, "</th><td class=\"num lost%s\" data-key=\"%s\">%" PRIu64 "</td></tr>\n",
			v ? "" : " zero", rec_lost_kinds[i].key, v);
	}
	for (i = 0; i < r->hdr.noverflow; i++)
		fprintf(f, "<tr><th>Unattributed (map full): %s %s</th><td class=\"num\">%" PRIu64
			"</td></tr>\n", cap_name(r->hdr.overflow[i].cap, name),
			r->hdr.overflow[i].denied ? "denied" : "granted", r->hdr.overflow[i].count);
}

static void record_section(FILE *f, const struct report *rep, const char *source,
			   struct terms *t)
{
	const struct record *r = rep->rec;
	size_t i, n = r->ninputs ? r->ninputs : 1;

	fprintf(f, "<section id=\"record\">\n<h2>Record%s</h2>\n", n > 1 ? "s" : "");
	fputs("<table id=\"inputs\"><thead><tr><th>File</th><th>Kernel</th><th>Attach</th>"
	      "<th>Scope</th><th>Command</th><th>Start</th><th>End</th><th>Duration</th>"
	      "<th>Exit status</th><th>Lost</th></tr></thead><tbody>\n", f);
	for (i = 0; i < n; i++)
		input_row(f, r->ninputs ? &r->inputs[i].hdr : &r->hdr,
			  r->ninputs ? r->inputs[i].name : source);
	fputs("</tbody></table>\n<ul class=\"notes\">\n", f);
	for (i = 0; i < n; i++)
		input_notes(f, r->ninputs ? &r->inputs[i].hdr : &r->hdr,
			    r->ninputs ? &r->inputs[i].input : &r->input,
			    r->ninputs ? r->inputs[i].name : source);
	fputs("</ul>\n<table id=\"summary\" class=\"facts\"><tbody>\n", f);
	if (rep->only) {   /* report --cap */
		fputs("<tr><th>Only checks of (--cap)</th><td>", f);
		html_capset(f, "only", rep->only);
		fputs("</td></tr>\n", f);
	}
	fprintf(f, "<tr><th>Checks in the record</th><td class=\"num\" id=\"total-checks\">%"
		PRIu64 "</td></tr>\n", rep->total_checks);
	fputs("<tr><th>Noaudit checks not shown, --noaudit shows them", f);
	html_text(f, term_first(t, TERM_NOAUDIT));
	fprintf(f, "</th><td class=\"num\" id=\"hidden-noaudit\">%" PRIu64
		"</td></tr>\n", rep->hidden_checks);
	fputs("<tr><th>Required: granted in audited checks", f);
	html_text(f, term_first(t, TERM_AUDITED));
	fputs("</th><td>", f);
	html_capset(f, "required", rep->required);
	fputs("</td></tr>\n<tr><th>Denied in audited checks</th><td>", f);
	html_capset(f, "denied", rep->denied);
	fputs("</td></tr>\n", f);
	lost_rows(f, r);
	fputs("</tbody></table>\n</section>\n", f);
}

/* ---- the programs -------------------------------------------------------- */

static void num_cell(FILE *f, const char *cls, uint64_t v)
{
	fprintf(f, "<td class=\"num %s%s\">%" PRIu64 "</td>", cls, v ? " some" : " zero", v);
}

/* The rest of a capability's row: its counts, syscalls and what to know
 * (the text report's note: row_note()). */
static void cap_cells(FILE *f, const struct cap_row *cr, struct terms *t)
{
	char name[CAP_NAME_LEN], note[1200];
	size_t i;

	fprintf(f, "<td class=\"cap\"><span class=\"chip%s\">%s</span></td>",
		cr->denied && !cr->granted ? " denied" : "", cap_name(cr->cap, name));
	num_cell(f, "granted", cr->granted);
	num_cell(f, "denied", cr->denied);
	fputs("<td class=\"syscalls\">", f);
	for (i = 0; i < cr->nsys; i++) {
		const char *sn = cr->sys[i].name;  /* the record's, not this host's */

		if (i)
			fputs(", ", f);
		if (cr->sys[i].nr < 0)
			fputs("(none)", f);
		else if (sn)
			fputs(sn, f);
		else
			fprintf(f, "syscall_%d", cr->sys[i].nr);
		fprintf(f, " &times;%" PRIu64, cr->sys[i].count);
	}
	fputs("</td><td class=\"small note\">", f);
	if (cr->noaudit)
		fprintf(f, "noaudit (%s) ", noaudit_source_name(cr->noaudit_by));
	html_text(f, row_note(cr, t, note, sizeof(note)));
	fputs("</td>", f);
}

/* The first cells of a process image's rows (--by process). */
static void image_cells(FILE *f, const struct report *rep, size_t i, size_t span,
			struct terms *t)
{
	const struct proc_row *pr = &rep->procs[i];
	const struct rec_process *p = pr->proc;
	const char *input = rec_process_input(rep->rec, p);

	fprintf(f, "<td rowspan=\"%zu\" class=\"program\"><b>", span);
	html_text(f, p->comm);
	fputs("</b>", f);
	if (i > 0 && rep->procs[i - 1].proc->pid == p->pid)
		fputs(" <span class=\"small\">(after execve)</span>", f);
	if (p->exe) {
		fputs("<br><code class=\"small\">", f);
		html_text(f, p->exe);
		fputs("</code>", f);
	}
	if (pr->hidden) {
		fprintf(f, "<br><span class=\"small\">%" PRIu64 " noaudit checks not shown",
			pr->hidden);
		html_text(f, term_first(t, TERM_NOAUDIT));
		fputs("</span>", f);
	}
	fprintf(f, "</td><td rowspan=\"%zu\" class=\"pid\">", span);
	/* a monitor's line is a program, its pid synthetic */
	if (p->pids)
		fprintf(f, "%" PRIu64 " process%s<br><span class=\"small\">uid %u", (uint64_t)p->pids,
			p->pids == 1 ? "" : "es", p->uid);
	else
		fprintf(f, "%u<br><span class=\"small\">ppid %u, uid %u",
			rec_process_file_pid(rep->rec, p), rec_process_file_ppid(rep->rec, p), p->uid);
	if (p->exited)
		fprintf(f, ", exit status %d", p->exit_code);
	fputs("</span>", f);
	if (input) {   /* a merged record: pids repeat across its files */
		fputs("<br><span class=\"small input\">", f);
		html_text(f, input);
		fputs("</span>", f);
	}
	fputs("</td>", f);
}

/* The first cells of a program's rows in a workload (--by other modes). */
static void program_cells(FILE *f, const struct proc_row *pr, size_t span, struct terms *t)
{
	fprintf(f, "<td rowspan=\"%zu\" class=\"program\"><b>", span);
	html_text(f, pr->program);
	fputs("</b>", f);
	if (!pr->proc->exe)
		fputs(" <span class=\"small\">(no executable recorded)</span>", f);
	if (pr->runtime_setup) {
		fputs(" <span class=\"small\">", f);
		html_text(f, runtime_setup_note(t));
		fputs("</span>", f);
	}
	if (pr->hidden) {
		fprintf(f, "<br><span class=\"small\">%" PRIu64 " noaudit checks not shown",
			pr->hidden);
		html_text(f, term_first(t, TERM_NOAUDIT));
		fputs("</span>", f);
	}
	fprintf(f, "</td><td rowspan=\"%zu\" class=\"num processes\">%zu</td>"
		"<td rowspan=\"%zu\" class=\"num checks\">%" PRIu64 "</td>", span, pr->npids, span,
		pr->checks);
}

/* One row: a tbody of its capabilities, the first row naming it. */
static void row_tbody(FILE *f, const struct report *rep, size_t i, struct terms *t)
{
	const struct proc_row *pr = &rep->procs[i];
	size_t j, span = pr->ncaps ? pr->ncaps : 1;

	if (rep->by == BY_PROCESS)
		fprintf(f, "<tbody class=\"proc\" data-pid=\"%u\" data-exec-id=\"%u\">\n<tr>",
			rec_process_file_pid(rep->rec, pr->proc), pr->proc->exec_id);
	else
		fputs("<tbody class=\"proc\">\n<tr>", f);
	if (rep->by == BY_PROCESS)
		image_cells(f, rep, i, span, t);
	else
		program_cells(f, pr, span, t);
	if (!pr->ncaps)
		fputs("<td colspan=\"5\" class=\"none\">no capability checks</td></tr>\n", f);
	for (j = 0; j < pr->ncaps; j++) {
		if (j)
			fputs("<tr>", f);
		cap_cells(f, &pr->caps[j], t);
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n", f);
}

static const char cap_heads[] = "<th>Capability</th><th>Granted</th><th>Denied</th>"
				"<th>Syscalls</th><th>Note</th></tr></thead>\n";

/* What a block without a key holds, per mode. */
static const char *const no_workload[] = {
	[BY_PROGRAM] = "Every process, by program",
	[BY_CONTAINER] = "(host: no container)",
	[BY_UNIT] = "(no systemd unit)",
	[BY_CGROUP] = "(no cgroup recorded)",
};

/* After a container's name: its runtime, and its id when it has a name
 * (the full id: what runtimes take). */
static void container_more(FILE *f, const struct wl_block *w)
{
	const char *rt = w->proc->container_runtime, *name = w->proc->container_name;

	if (!rt && !name)
		return;
	fputs(" <span class=\"small\">(", f);
	html_text(f, rt);
	if (name) {
		fputs(rt ? ", id " : "id ", f);
		html_text(f, w->key);
	}
	fputs(")</span>", f);
}

/* --by container|unit|cgroup|program: a heading and table per workload */
static void workload_tables(FILE *f, const struct report *rep, struct terms *t)
{
	static const char *const kind[] = {
		[BY_CONTAINER] = "Container", [BY_UNIT] = "Unit", [BY_CGROUP] = "Cgroup",
		[BY_PROGRAM] = "",
	};
	size_t b, j;

	for (b = 0; b < rep->nblocks; b++) {
		const struct wl_block *w = &rep->blocks[b];

		fputs("<h3 class=\"workload\">", f);
		if (w->key) {
			fprintf(f, "%s ", kind[rep->by]);
			html_text(f, w->label ? w->label : w->key);
			if (rep->by == BY_CONTAINER)
				container_more(f, w);
		} else {
			fputs(no_workload[rep->by], f);
		}
		fprintf(f, "</h3>\n<p>%zu process%s, %" PRIu64 " check%s; required: ", w->npids,
			w->npids == 1 ? "" : "es", w->checks, w->checks == 1 ? "" : "s");
		html_capset(f, NULL, w->required);
		if (w->denied) {
			fputs("; denied: ", f);
			html_capset(f, NULL, w->denied);
		}
		fputs("</p>\n<table class=\"programs\"><thead><tr><th>Program</th>"
		      "<th>Processes</th><th>Checks</th>", f);
		fputs(cap_heads, f);
		for (j = w->first; j < w->first + w->nrows; j++)
			row_tbody(f, rep, j, t);
		fputs("</table>\n", f);
	}
}

/* --by user-site: a row per user-space place, program, capability, site */
static void user_site_table(FILE *f, const struct report *rep)
{
	char buf[600], name[CAP_NAME_LEN];
	size_t i;

	fputs("<h3>By user-space place (record --user-stacks)</h3>\n", f);
	if (!rep->have_ustacks)
		fputs("<p class=\"none\">this record has no user stacks (record --user-stacks)"
		      "</p>\n", f);
	fputs("<table id=\"user-sites\"><thead><tr><th>Place</th><th>Program</th>"
	      "<th>Capability</th><th>Call site</th><th>Granted</th><th>Denied</th></tr>"
	      "</thead><tbody>\n", f);
	for (i = 0; i < rep->nurows; i++) {
		const struct usite_row *u = &rep->urows[i];

		if (u->where)
			usite_format(u->where, buf, sizeof(buf));
		fputs("<tr><td><code>", f);
		html_text(f, u->where ? buf : "(no user stack)");
		fputs("</code></td><td>", f);
		html_text(f, u->comm);
		fprintf(f, "</td><td class=\"cap\"><span class=\"chip\">%s</span>%s</td><td><code>",
			cap_name(u->cap, name), u->noaudit ? " <span class=\"small\">noaudit</span>" : "");
		html_text(f, u->func);
		fputs("</code>", f);
		html_about(f, &u->objects);
		fputs("</td>", f);
		num_cell(f, "granted", u->granted);
		num_cell(f, "denied", u->denied);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void programs_section(FILE *f, const struct report *rep, struct terms *t)
{
	size_t i;

	fprintf(f, "<section id=\"programs\">\n<h2>%s</h2>\n", rep->by == BY_PROCESS ?
		"Programs" : rep->by == BY_PROGRAM ? "Programs (by executable)" :
		rep->by == BY_CONTAINER ? "Containers" : rep->by == BY_UNIT ? "Units" : "Cgroups");
	if (rep->by == BY_PROCESS) {
		fputs("<table id=\"images\" class=\"programs\"><thead><tr><th>Program</th>"
		      "<th>PID</th>", f);
		fputs(cap_heads, f);
		for (i = 0; i < rep->nprocs; i++)
			row_tbody(f, rep, i, t);
		fputs("</table>\n", f);
		if (!rep->nprocs)
			fputs("<p class=\"none\">no process in this record</p>\n", f);
	} else {
		workload_tables(f, rep, t);
	}
	if (rep->by_user_site)
		user_site_table(f, rep);
	fputs("</section>\n", f);
}

/* ---- the page ------------------------------------------------------------- */

/* The page's head and header, up to the subtitle naming source: the
 * report's page and the fleet view's (html_fleet.c) share them. */
void html_head(FILE *f, const char *title, const char *source)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      /* nothing may load: not even if a string slipped through */
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"capaudit " CAPAUDIT_VERSION "\">\n<title>", f);
	html_text(f, title);
	fputs(": ", f);
	html_text(f, source);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<header><h1>", style);
	html_text(f, title);
	fputs("</h1><p class=\"small\" id=\"source\">", f);
	html_text(f, source);
}

static int html_page(FILE *f, const struct report *rep, const struct suggestion *s,
		     const char *source)
{
	struct terms t = { 0 };

	html_head(f, "capaudit report", source);
	fputs("</p>\n<nav class=\"small\"><a href=\"#answer\">Least privilege</a> &middot; "
	      "<a href=\"#programs\">Programs</a> &middot; <a href=\"#suggest\">Details</a> "
	      "&middot; <a href=\"#record\">Record</a> &middot; <a href=\"#paths\">Call "
	      "paths</a> &middot; words explained: docs/glossary.md</nav></header>\n<main>\n", f);
	/* the answer first, then what it rests on */
	html_answer(f, s, &t);
	programs_section(f, rep, &t);
	html_suggest(f, s, &t);
	record_section(f, rep, source, &t);
	html_paths(f, rep);
	fputs("</main>\n</body>\n</html>\n", f);
	return ferror(f) ? -1 : 0;
}

const struct formatter output_html = {
	.name = "html",
	.page = html_page,
	.fleet = html_fleet,
};
