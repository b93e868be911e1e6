// SPDX-License-Identifier: GPL-2.0
/* report --format html: the suggestion's section, what report --suggest
 * says (docs/suggest.md), as tables. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/partial.h"
#include "analyze/suggest.h"
#include "facts/capnames.h"
#include "output/html.h"
#include "output/output.h"
#include "output/words.h"

static void chip(FILE *f, int cap)
{
	char name[CAP_NAME_LEN];

	fprintf(f, "<span class=\"chip\">%s</span>", cap_name(cap, name));
	if (cap_alias(cap))
		fprintf(f, " <span class=\"small\">(proposed as %s)</span>", cap_alias(cap));
}

static void syscalls(FILE *f, const struct sys_count *sys, size_t n)
{
	char buf[256];

	html_text(f, sys_list_str(sys, n, buf, sizeof(buf)));
}

/* The call sites of a replacement or a kept capability, as a list. */
static void sites_list(FILE *f, const struct sg_site *sites, size_t n)
{
	size_t j;

	fputs("<ul class=\"sites\">", f);
	for (j = 0; j < n; j++) {
		fputs("<li><code>", f);
		html_text(f, sites[j].func);
		fputs("</code> <span class=\"small\">(", f);
		syscalls(f, sites[j].sys, sites[j].nsys);
		fprintf(f, ")</span>, %" PRIu64 " check%s", sites[j].count,
			sites[j].count == 1 ? "" : "s");
		if (sites[j].fact) {
			fputs(": ", f);
			html_text(f, sites[j].fact->operation);
		}
		html_about(f, &sites[j].objects);
		fputs("</li>", f);
	}
	fputs("</ul>", f);
}

static void sets_table(FILE *f, const struct suggestion *s, struct terms *t)
{
	const struct rec_header *h = &s->rec->hdr;
	struct partial pa;
	char pw[600];

	if (record_partial(s->rec, &pa)) {
		fputs("<p class=\"warn\" id=\"sg-partial\"><strong>Partial record:</strong> the answer "
		      "may miss capabilities: ", f);
		html_text(f, partial_words(&pa, pw, sizeof(pw)));
		fputs(" (", f);
		html_text(f, partial_remedy);
		fputs("; docs/glossary.md)</p>\n", f);
	}

	fputs("<table id=\"sg-sets\" class=\"facts\"><tbody>\n<tr><th>Required capabilities</th><td>", f);
	html_capset(f, "sg-required", s->required);
	fputs("</td></tr>\n<tr><th>Observed: granted in audited checks", f);
	html_text(f, term_first(t, TERM_AUDITED));
	fputs("</th><td>", f);
	html_capset(f, "sg-observed", s->observed);
	fputs("</td></tr>\n<tr><th>Denied with no granted alternative</th><td>", f);
	html_capset(f, "sg-denied", s->denied);
	fputs("</td></tr>\n", f);
	if (s->runtime_images) {
		/* said here in full: the programs' tables then just name it */
		t->said[TERM_RUNTIME_SETUP] = true;
		fputs("<tr><th>Left out: the container runtime's setup (runc or crun preparing the "
		      "container before its program starts)</th><td>", f);
		html_capset(f, "sg-runtime", s->runtime_granted);
		fputs("</td></tr>\n", f);
	}
	if (s->service) {
		/* record --service: what the unit could stop granting */
		fputs("<tr><th>Unit file</th><td><code>", f);
		html_text(f, h->target_service ? h->target_service : "?");
		fprintf(f, "</code> (its commands ran as uid %u)</td></tr>\n<tr><th>It grants</th>"
			"<td>", h->service_uid);
		html_capset(f, "sg-service-granted", s->service_granted);
		fputs("</td></tr>\n<tr><th>Removal candidates (granted, never checked)</th><td>", f);
		html_capset(f, "sg-service-unused", s->service_unused);
		fputs("</td></tr>\n", f);
	}
	if (s->asked) {
		fputs("<tr><th>Asked for with capset() (kept in the permitted set), never used</th>"
		      "<td>", f);
		html_capset(f, "sg-asked", s->asked);
		fputs(" <span class=\"small\">if the program insists on them it fails at start "
		      "without them; capaudit verify tells</span></td></tr>\n", f);
	}
	fputs("</tbody></table>\n<p class=\"small\" id=\"verify-note\">A recording shows only the checks the kernel "
	      "made with the privileges it ran with: capaudit verify runs the program with this "
	      "set, and without each member, to prove it (docs/verify.md).</p>\n", f);
}

static void replacements(FILE *f, const struct suggestion *s)
{
	char n[CAP_NAME_LEN];
	size_t i;

	fprintf(f, "<h3 id=\"narrower\">%s</h3>\n", narrower_heading);
	if (!s->nrepl) {
		fputs("<p class=\"none\">none</p>\n", f);
		return;
	}
	fputs("<table id=\"replacements\"><thead><tr><th>Instead of</th><th>Narrower</th>"
	      "<th>Accepted</th><th>Evidence</th><th>Call sites</th></tr></thead><tbody>\n", f);
	for (i = 0; i < s->nrepl; i++) {
		const struct sg_replace *r = &s->repl[i];

		fputs("<tr><td>", f);
		chip(f, r->replace);
		fputs("</td><td>", f);
		chip(f, r->with);
		fputs("</td><td>", f);
		if (r->since) {
			fprintf(f, "since Linux %s", r->since);
		} else {
			fputs("on Linux ", f);
			html_text(f, record_oldest_kernel(s->rec));
			fprintf(f, " <span class=\"small\">(first version not verified; %s exists "
				"since %s)</span>", cap_name(r->with, n),
				cap_since(r->with) ? cap_since(r->with) : "?");
		}
		if (r->kernel_too_old) {
			fprintf(f, "<br><span class=\"warn\">needs Linux %s or later; %s is ",
				r->since, s->rec->ninputs ? "the oldest kernel of these records" :
				"this record's kernel");
			html_text(f, record_oldest_kernel(s->rec));
			fputs("</span>", f);
		}
		fputs("</td><td>", f);
		if (r->evidence == EV_OBSERVED) {
			fprintf(f, "observed fallback: %s denied, then CAP_SYS_ADMIN granted on the "
				"same kernel path", cap_name(r->with, n));
		} else if (r->evidence == EV_SOURCE) {
			char src[512];

			fputs("kernel source, which accepts either: ", f);
			html_text(f, r->sites[0].ksite ? ksite_source(s->ktab, r->sites[0].ksite, src,
								      sizeof(src)) : "?");
		} else {
			fputs("kernel fact: ", f);
			html_text(f, r->sites[0].fact ? r->sites[0].fact->source : "table");
		}
		fputs("</td><td>", f);
		sites_list(f, r->sites, r->nsites);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* Where CAP_SYS_ADMIN stays, then where each required capability is used. */
static void keeps(FILE *f, const struct suggestion *s, struct terms *t)
{
	char n[CAP_NAME_LEN];
	size_t i;

	for (i = 0; i < s->nkeep; i++) {
		const struct sg_keep *k = &s->keep[i];

		if (k->cap != CAP_SYS_ADMIN)
			continue;
		fputs("<h3>CAP_SYS_ADMIN stays required</h3>\n<p>It cannot be dropped: no narrower "
		      "capability was accepted at:</p>\n", f);
		sites_list(f, k->sites, k->nsites);
		if (k->why) {
			fputs("\n<p class=\"small\">", f);
			html_text(f, k->why->operation);
			fputs(": ", f);
			html_text(f, k->why->source);
			fputs("</p>", f);
		}
		fputc('\n', f);
	}
	fputs("<h3>Where each required capability is used", f);
	html_text(f, term_first(t, TERM_CALL_SITE));
	fputs("</h3>\n", f);
	if (!s->nkeep && !s->nrepl) {
		fputs("<p class=\"none\">nowhere: no audited capability check was granted</p>\n", f);
		return;
	}
	fputs("<table id=\"where\"><thead><tr><th>Capability</th><th>Call sites</th></tr></thead>"
	      "<tbody>\n", f);
	for (i = 0; i < s->nkeep; i++) {
		fputs("<tr><td>", f);
		chip(f, s->keep[i].cap);
		fputs("</td><td>", f);
		sites_list(f, s->keep[i].sites, s->keep[i].nsites);
		if (file_check_hint(s->keep[i].cap) &&
		    !sites_have_objects(s->keep[i].sites, s->keep[i].nsites)) {
			fputs("<p class=\"small file-hint\">", f);
			html_text(f, file_check_hint(s->keep[i].cap));
			fputs("</p>", f);
		}
		fputs("</td></tr>\n", f);
	}
	for (i = 0; i < s->nrepl; i++) {
		fputs("<tr><td>", f);
		chip(f, s->repl[i].with);
		fprintf(f, " <span class=\"small\">(instead of %s)</span></td><td>",
			cap_name(s->repl[i].replace, n));
		sites_list(f, s->repl[i].sites, s->repl[i].nsites);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* Members another covers, and those only verify can decide
 * (docs/capsites.md). */
static void covered_and_undecided(FILE *f, const struct suggestion *s)
{
	char src[512];
	size_t i;

	if (s->ncover) {
		fputs("<h3>Granted, but covered by another member of the set</h3>\n"
		      "<table id=\"covered\"><thead><tr><th>Capability</th><th>Covered by</th>"
		      "<th>Call sites</th></tr></thead><tbody>\n", f);
		for (i = 0; i < s->ncover; i++) {
			fputs("<tr><td>", f);
			chip(f, s->cover[i].cap);
			fputs("</td><td>", f);
			html_capset(f, NULL, s->cover[i].covered_by);
			fputs("</td><td>", f);
			sites_list(f, s->cover[i].sites, s->cover[i].nsites);
			fputs("</td></tr>\n", f);
		}
		fputs("</tbody></table>\n", f);
	}
	if (s->ptrace.needs) {
		fputs("<h3>CAP_SYS_PTRACE, though no check asked for it</h3>\n<p id=\"ptrace-"
		      "shortcut\">The program reached other processes (ptrace, process_vm_readv, "
		      "/proc/PID/mem, ...) while its capabilities covered theirs, so the kernel did "
		      "not ask (security/commoncap.c <code>cap_ptrace_access_check()</code>). "
		      "Without CAP_SYS_PTRACE the set would have to cover theirs.", f);
		if (s->ptrace.example) {
			fputs(" For example ", f);
			html_text(f, s->ptrace.example->comm);
			fputs(" reached ", f);
			html_text(f, s->ptrace.example->ptrace_ex_comm);
			fprintf(f, " (pid %u) by ", s->ptrace.example->ptrace_ex_pid);
			html_text(f, s->ptrace.example->ptrace_ex_via);
			fputc('.', f);
		}
		fputs("</p>\n", f);
	}
	if (!s->undecided_caps)
		return;
	fputs("<h3>Only verify can decide</h3>\n<table id=\"verify-decides\"><thead><tr>"
	      "<th>Capability</th><th>Call site</th><th>Why</th><th>Source</th></tr></thead>"
	      "<tbody>\n", f);
	for (i = 0; i < s->nundecided; i++) {
		const struct sg_undecided *u = &s->undecided[i];

		if (!capset_has(s->undecided_caps, u->cap))
			continue;
		fputs("<tr><td>", f);
		chip(f, u->cap);
		fputs("</td><td>", f);
		html_text(f, u->func);
		html_about(f, &u->objects);
		fputs("</td><td>", f);
		{
			char m[1200];

			html_text(f, undecided_meaning(u, m, sizeof(m)));
		}
		if (u->fact && u->why != UD_ALLOWED_WITHOUT) {
			fputs(" (kernel source: ", f);
			html_text(f, u->fact->source);
			fputs(")", f);
		}
		fputs("</td><td class=\"small\">", f);
		html_text(f, u->ksite ? ksite_source(s->ktab, u->ksite, src, sizeof(src)) : "");
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void denials(FILE *f, const struct suggestion *s, struct terms *t)
{
	char n[CAP_NAME_LEN], why[300];
	size_t i;

	fputs("<h3>Denied with no granted alternative</h3>\n", f);
	if (!s->ndeny) {
		fputs("<p class=\"none\">none</p>\n", f);
		return;
	}
	fputs("<table id=\"denials\"><thead><tr><th>Capability</th><th>Call site</th>"
	      "<th>Syscalls</th><th>Checks</th><th>What happened</th></tr></thead><tbody>\n", f);
	for (i = 0; i < s->ndeny; i++) {
		const struct sg_denial *d = &s->deny[i];

		fprintf(f, "<tr><td><span class=\"chip denied\">%s</span>%s</td><td><code>",
			cap_name(d->cap, n), d->alt >= 0 ? " <span class=\"small\">(or CAP_SYS_ADMIN)"
			"</span>" : "");
		html_text(f, d->func);
		fputs("</code>", f);
		html_about(f, &d->objects);
		fputs("</td><td>", f);
		syscalls(f, d->sys, d->nsys);
		fprintf(f, "</td><td class=\"num count\">%" PRIu64 "</td><td>", d->count);
		html_text(f, denial_meaning(d, s->rec->hdr.syscall_results, why, sizeof(why)));
		if (d->kind == DENY_ADVISORY)
			html_text(f, term_first(t, TERM_ADVISORY));
		if (d->eff.kind != EFF_UNKNOWN) {
			char m[1200];

			fputs("<br><span class=\"small\">what a refusal does there: ", f);
			html_text(f, effect_meaning(&d->eff, m, sizeof(m)));
			fputs("</span>", f);
		}
		if (d->fact && d->fact->kind == KF_ONLY) {
			fprintf(f, "<br><span class=\"small\">only %s is accepted there", n);
			if (d->fact->sysadmin_until)
				fprintf(f, " (CAP_SYS_ADMIN was accepted until Linux %s)",
					d->fact->sysadmin_until);
			fputs("</span>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void asides(FILE *f, const struct suggestion *s, struct terms *t)
{
	char n[CAP_NAME_LEN], why[400];
	size_t i;

	if (!s->naside)
		return;
	fprintf(f, "<h3 id=\"set-aside\">%s", aside_heading);
	html_text(f, term_first(t, TERM_SET_ASIDE));
	fputs("</h3>\n<table id=\"not-required\"><thead><tr><th>Capability</th><th>Call site</th>"
	      "<th>Granted</th><th>Denied</th><th>Why</th></tr></thead><tbody>\n", f);
	for (i = 0; i < s->naside; i++) {
		const struct sg_aside *a = &s->aside[i];

		fprintf(f, "<tr><td><span class=\"chip\">%s</span></td><td><code>",
			cap_name(a->cap, n));
		html_text(f, a->func);
		fputs("</code>", f);
		html_about(f, &a->objects);
		fprintf(f, "</td><td class=\"num\">%" PRIu64 "</td><td class=\"num\">%" PRIu64
			"</td><td>", a->granted, a->denied);
		html_text(f, aside_meaning(a, why, sizeof(why)));
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void programs(FILE *f, const struct suggestion *s)
{
	size_t i;

	fputs("<h3>By program</h3>\n<table id=\"sg-programs\"><thead><tr><th>PID</th>"
	      "<th>Program</th><th>Required</th></tr></thead><tbody>\n", f);
	for (i = 0; i < s->nprogs; i++) {
		const struct sg_program *p = &s->progs[i];
		const char *input = rec_process_input(s->rec, p->proc);

		if (!p->matched)
			continue;
		fprintf(f, "<tr><td class=\"num pid\">%u</td><td><b>",
			rec_process_file_pid(s->rec, p->proc));
		html_text(f, p->proc->comm);
		fputs("</b>", f);
		if (input) {
			fputs(" <span class=\"small\">", f);
			html_text(f, input);
			fputs("</span>", f);
		}
		fputs("</td><td>", f);
		html_capset(f, NULL, p->required);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* A snippet as report --emit prints it, its markup characters escaped.
 * Not html_text: emit_snippet() made the record's strings terminal-safe
 * already (text_escape), and a second pass would double every backslash
 * of its shell quoting ('\''), which must paste as it is. A control byte
 * but newline and tab cannot come from it; should one, it shows as \xNN. */
static void snippet_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
				fprintf(f, "\\x%02x", c);
			else
				fputc(c, f);
		}
	}
}

/* What report --emit KIND prints, each in a <details> to open and copy:
 * the same function writes it, into memory, then escaped. */
static void snippets(FILE *f, const struct suggestion *s)
{
	size_t k;

	fputs("<h3>Ready to paste</h3>\n<p class=\"small\">The required set as each tool "
	      "takes it (what report --emit KIND prints):</p>\n", f);
	for (k = 0; emit_kinds[k]; k++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (!m)
			continue;
		emit_snippet(m, emit_kinds[k], s);
		if (fclose(m)) {
			free(buf);
			continue;
		}
		fprintf(f, "<details class=\"emit\" data-kind=\"%s\"><summary><code>--emit %s"
			"</code></summary><pre>", emit_kinds[k], emit_kinds[k]);
		snippet_text(f, buf);
		fputs("</pre></details>\n", f);
		free(buf);
	}
}

void html_answer(FILE *f, const struct suggestion *s, struct terms *t)
{
	fputs("<section id=\"answer\">\n<h2>Least privilege: the answer</h2>\n", f);
	if (s->only) {     /* report --cap: what is about these */
		fputs("<p>Only what is about (--cap): ", f);
		html_capset(f, "suggest-only", s->only);
		fputs("</p>\n", f);
	}
	sets_table(f, s, t);
	replacements(f, s);
	snippets(f, s);
	fputs("</section>\n", f);
}

void html_suggest(FILE *f, const struct suggestion *s, struct terms *t)
{
	fputs("<section id=\"suggest\">\n<h2>Least privilege: the details</h2>\n", f);
	keeps(f, s, t);
	covered_and_undecided(f, s);
	denials(f, s, t);
	asides(f, s, t);
	programs(f, s);
	fputs("</section>\n", f);
}
