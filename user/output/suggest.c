// SPDX-License-Identifier: GPL-2.0
/* report --suggest: the required set and why (json schema:
 * docs/suggest.md): as text and as json
 * (the formatters output.c makes of them; output/render.h). */
#include "output/render.h"

#include <inttypes.h>
#include <string.h>

#include "analyze/partial.h"
#include "analyze/suggest.h"
#include "facts/capjson.h"
#include "facts/capnames.h"
#include "lib/jsonutil.h"
#include "lib/util.h"
#include "analyze/objtext.h"
#include "output/words.h"

/* ---- text ---------------------------------------------------------------- */

static void print_sys_list(FILE *f, const struct sys_count *sys, size_t n)
{
	char buf[256];

	fputs(sys_list_str(sys, n, buf, sizeof(buf)), f);
}

static const char *capn(int cap, char buf[CAP_NAME_LEN])
{
	return cap_name(cap, buf);
}

static void print_capname_alias(FILE *f, int cap)
{
	char n[CAP_NAME_LEN];

	fputs(cap_name(cap, n), f);
	if (cap_alias(cap))
		fprintf(f, " (proposed as %s)", cap_alias(cap));
}

/* What a capsites effect means, in words. */
/* CAP_SYS_PTRACE added for ptrace access the kernel allowed unasked. */
static void print_ptrace(FILE *f, const struct suggestion *s)
{
	const struct sg_ptrace *pt = &s->ptrace;
	uint64_t lacks = pt->target_prm & ~(s->required & ~CAP_BIT(CAP_SYS_PTRACE));
	char esc[256], esc2[256], esc3[256], name[CAP_NAME_LEN];
	int c, shown = 0;

	fprintf(f, "\nCAP_SYS_PTRACE is required though no check asked for it: the program "
		"reached %" PRIu32 " other process%s (ptrace, process_vm_readv, /proc/PID/mem, "
		"...) while its capabilities covered theirs, so the kernel did not ask "
		"(security/commoncap.c cap_ptrace_access_check()). Without CAP_SYS_PTRACE the "
		"set would have to cover theirs; it lacks %d of them:",
		pt->targets, pt->targets == 1 ? "" : "es", __builtin_popcountll(lacks));
	for (c = cap_next(lacks, -1); c >= 0 && shown < 4; c = cap_next(lacks, c), shown++)
		fprintf(f, "%s %s", shown ? "," : "", cap_name(c, name));
	fputs(__builtin_popcountll(lacks) > shown ? ", ...\n" : "\n", f);
	if (pt->example)
		fprintf(f, "  for example %s reached %s (pid %" PRIu32 ") by %s\n",
			ESC(pt->example->comm, esc), ESC(pt->example->ptrace_ex_comm, esc2),
			pt->example->ptrace_ex_pid, ESC(pt->example->ptrace_ex_via, esc3));
}

/* Under a capability's list of call sites: what the checks there were
 * about, one line ("about ...") for one site, else one per site that has
 * objects ("at FUNC: about ..."). */
static void sites_about(FILE *f, const struct sg_site *sites, size_t n)
{
	char esc[600], in[700];
	size_t j;

	for (j = 0; j < n; j++) {
		if (n == 1)
			snprintf(in, sizeof(in), "    ");
		else
			snprintf(in, sizeof(in), "    at %s: ", ESC(sites[j].func, esc));
		objects_line(f, in, &sites[j].objects);
	}
}

/* Denied checks with no granted alternative, blocking first. */
void text_denials(FILE *f, const struct suggestion *s, struct terms *t)
{
	const struct rec_header *h = &s->rec->hdr;
	char n1[CAP_NAME_LEN], esc[4200], why[300];
	size_t i;

	if (!s->ndeny)
		fputs("  none\n", f);
	for (i = 0; i < s->ndeny; i++) {
		const struct sg_denial *d = &s->deny[i];

		fprintf(f, "  %s", capn(d->cap, n1));
		if (d->alt >= 0)
			fputs(" (or CAP_SYS_ADMIN)", f);
		fprintf(f, " at %s (", ESC(d->func, esc));
		print_sys_list(f, d->sys, d->nsys);
		fprintf(f, "), %" PRIu64 "x: ", d->count);
		fprintf(f, "%s%s\n", denial_meaning(d, h->syscall_results, why, sizeof(why)),
			d->kind == DENY_ADVISORY ? term_first(t, TERM_ADVISORY) : "");
		objects_line(f, "    ", &d->objects);
		if (d->fact && d->fact->kind == KF_ONLY) {
			fprintf(f, "    only %s is accepted there", capn(d->cap, n1));
			if (d->fact->sysadmin_until)
				fprintf(f, " (CAP_SYS_ADMIN was accepted until Linux %s)",
					d->fact->sysadmin_until);
			fputc('\n', f);
		}
		if (d->eff.kind != EFF_UNKNOWN || d->effect) {
			char where[700];

			fprintf(f, "    what a refusal does there: %s\n      (%s)\n",
				effect_meaning(&d->eff, why, sizeof(why)),
				effect_where(s, &d->eff, where, sizeof(where)));
		}
	}
}

int text_suggest(FILE *f, const struct suggestion *s, const char *source)
{
	const struct rec_header *h = &s->rec->hdr;
	char n1[CAP_NAME_LEN], esc[4200], why[400];
	struct terms t = { 0 };
	size_t i, j;

	text_header(f, s->rec, source);
	if (s->only) {
		fputs("  only what is about (--cap): ", f);
		text_capset(f, s->only);
	}
	{
		struct partial pa;
		char pw[600];

		if (record_partial(s->rec, &pa))
			fprintf(f, "\nPARTIAL RECORD: the answer below may miss capabilities: %s\n"
				"  (%s; docs/glossary.md)\n", partial_words(&pa, pw, sizeof(pw)),
				partial_remedy);
	}
	fputs("\nRequired capabilities: ", f);
	text_capset(f, s->required);
	fputs("Observed (granted, audited): ", f);
	text_capset(f, s->observed);
	if (s->runtime_images) {
		fprintf(f, "Left out: the container runtime's own setup (runc or crun setting a "
			"container up, %zu program%s run), granted: ", s->runtime_images,
			s->runtime_images == 1 ? "" : "s");
		text_capset(f, s->runtime_granted);
	}
	if (s->service) {
		/* record --service: what the unit could stop granting */
		fprintf(f, "\nUnit file %s (its commands ran as uid %u)\n",
			ESC(h->target_service ? h->target_service : "?", esc), h->service_uid);
		fputs("  grants: ", f);
		text_capset(f, s->service_granted);
		fputs("  removal candidates (granted, never checked): ", f);
		text_capset(f, s->service_unused);
	}

	fprintf(f, "\n%s:\n", narrower_heading);
	if (!s->nrepl)
		fputs("  none\n", f);
	for (i = 0; i < s->nrepl; i++) {
		const struct sg_replace *r = &s->repl[i];

		fprintf(f, "  %s -> ", capn(r->replace, n1));
		print_capname_alias(f, r->with);
		if (r->since)
			fprintf(f, ", accepted since Linux %s", r->since);
		else
			fprintf(f, ", accepted on Linux %s (first version not verified; %s exists "
				"since %s)", ESC(record_oldest_kernel(s->rec), esc), capn(r->with, n1),
				cap_since(r->with) ? cap_since(r->with) : "?");
		fputc('\n', f);
		for (j = 0; j < r->nsites; j++) {
			const struct sg_site *st = &r->sites[j];

			fprintf(f, "    at %s (", ESC(st->func, esc));
			print_sys_list(f, st->sys, st->nsys);
			fprintf(f, "), %" PRIu64 " check%s", st->count, st->count == 1 ? "" : "s");
			if (st->fact)
				fprintf(f, ": %s", st->fact->operation);
			fputc('\n', f);
			objects_line(f, "      ", &st->objects);
		}
		if (r->evidence == EV_OBSERVED)
			fprintf(f, "    evidence: observed fallback: %s denied, then CAP_SYS_ADMIN "
				"granted on the same kernel path\n", capn(r->with, n1));
		else if (r->evidence == EV_SOURCE)
			fprintf(f, "    evidence: kernel source: %s accepts either\n",
				r->sites[0].ksite ? ksite_source(s->ktab, r->sites[0].ksite, why,
								 sizeof(why)) : "?");
		else
			fprintf(f, "    evidence: kernel fact (%s)\n",
				r->sites[0].fact ? r->sites[0].fact->source : "table");
		if (r->kernel_too_old)
			fprintf(f, "    note: needs Linux %s or later; %s is %s\n", r->since,
				s->rec->ninputs ? "the oldest kernel of these records" :
				"this record's kernel", ESC(record_oldest_kernel(s->rec), esc));
	}

	for (i = 0; i < s->nkeep; i++) {
		const struct sg_keep *k = &s->keep[i];

		if (k->cap != CAP_SYS_ADMIN)
			continue;
		fputs("\nCAP_SYS_ADMIN stays required: it cannot be dropped. No narrower capability "
		      "was accepted at:\n", f);
		for (j = 0; j < k->nsites; j++) {
			fprintf(f, "  %s (", ESC(k->sites[j].func, esc));
			print_sys_list(f, k->sites[j].sys, k->sites[j].nsys);
			fprintf(f, "), %" PRIu64 " check%s\n", k->sites[j].count,
				k->sites[j].count == 1 ? "" : "s");
			objects_line(f, "    ", &k->sites[j].objects);
		}
		if (k->why)
			fprintf(f, "  (%s: %s)\n", k->why->operation, k->why->source);
	}

	fprintf(f, "\nWhere each required capability is used%s:\n",
		term_first(&t, TERM_CALL_SITE));
	if (!s->nkeep && !s->nrepl)
		fputs("  nowhere: no audited capability check was granted\n", f);
	for (i = 0; i < s->nkeep; i++) {
		const struct sg_keep *k = &s->keep[i];

		fputs("  ", f);
		print_capname_alias(f, k->cap);
		fputs(":", f);
		for (j = 0; j < k->nsites; j++)
			fprintf(f, "%s %s", j ? "," : "", ESC(k->sites[j].func, esc));
		fputc('\n', f);
		sites_about(f, k->sites, k->nsites);
		if (file_check_hint(k->cap) && !sites_have_objects(k->sites, k->nsites))
			fprintf(f, "    (%s)\n", file_check_hint(k->cap));
	}
	for (i = 0; i < s->nrepl; i++) {
		fputs("  ", f);
		print_capname_alias(f, s->repl[i].with);
		fprintf(f, " (instead of %s):", capn(s->repl[i].replace, n1));
		for (j = 0; j < s->repl[i].nsites; j++)
			fprintf(f, "%s %s", j ? "," : "", ESC(s->repl[i].sites[j].func, esc));
		fputc('\n', f);
		sites_about(f, s->repl[i].sites, s->repl[i].nsites);
	}

	if (s->ptrace.needs)
		print_ptrace(f, s);
	if (s->rec->hdr.has_ptrace_watched && !s->rec->hdr.ptrace_watched)
		fputs("\nNot watched: ptrace access the kernel allows without a check (another "
		      "process reached while the set covers it). A program that reaches other "
		      "processes may need CAP_SYS_PTRACE that this answer lacks: record with "
		      "--ptrace-access on, or verify (docs/capsites.md).\n", f);
	if (s->ncover) {
		fputs("\nGranted, but covered by another member of the set (the kernel accepts "
		      "either at every site it was used):\n", f);
		for (i = 0; i < s->ncover; i++) {
			const struct sg_keep *k = &s->cover[i];

			fprintf(f, "  %s, covered by ", capn(k->cap, n1));
			{
				char cs[CAPSET_STR_LEN];

				fputs(capset_str(k->covered_by, cs, sizeof(cs)), f);
			}
			fputs(" at", f);
			for (j = 0; j < k->nsites; j++)
				fprintf(f, "%s %s", j ? "," : "", ESC(k->sites[j].func, esc));
			fputc('\n', f);
			sites_about(f, k->sites, k->nsites);
		}
	}
	if (s->undecided_caps) {
		fputs("\nOnly verify can decide (not in the set; capaudit verify runs without and "
		      "with them):\n", f);
		for (i = 0; i < s->nundecided; i++) {
			const struct sg_undecided *u = &s->undecided[i];

			if (!capset_has(s->undecided_caps, u->cap))
				continue;
			fprintf(f, "  %s at %s, %" PRIu64 "x: ", capn(u->cap, n1), ESC(u->func, esc),
				u->count);
			{
				char m[1200], e2[2500];

				fprintf(f, "%s\n", ESC(undecided_meaning(u, m, sizeof(m)), e2));
			}
			objects_line(f, "    ", &u->objects);
			if (u->fact && u->why != UD_ALLOWED_WITHOUT)
				fprintf(f, "    (kernel source: %s)\n", u->fact->source);
			if (u->ksite)
				fprintf(f, "    (%s)\n", ksite_source(s->ktab, u->ksite, why,
								sizeof(why)));
		}
	}

	fputs("\nDenied with no granted alternative:\n", f);
	text_denials(f, s, &t);

	if (s->naside) {
		fprintf(f, "\n%s%s:\n", aside_heading, term_first(&t, TERM_SET_ASIDE));
		for (i = 0; i < s->naside; i++) {
			const struct sg_aside *a = &s->aside[i];

			fprintf(f, "  %s at %s", capn(a->cap, n1), ESC(a->func, esc));
			if (a->granted)
				fprintf(f, ", granted %" PRIu64, a->granted);
			if (a->denied)
				fprintf(f, ", denied %" PRIu64, a->denied);
			fprintf(f, ": %s\n", aside_meaning(a, why, sizeof(why)));
			objects_line(f, "    ", &a->objects);
		}
	}
	if (s->asked) {
		fputs("\nAsked for with capset() (kept in the permitted set), never used: ", f);
		text_capset(f, s->asked);
		fputs("  If the program insists on them it fails at start without them; "
		      "capaudit verify tells.\n", f);
	}

	fputs("\nA recording shows only the checks the kernel made with the privileges it ran "
	      "with: capaudit verify runs the program with this set, and without each member, "
	      "to prove it (docs/verify.md).\n", f);
	fputs("\nBy program:\n", f);
	for (i = 0; i < s->nprogs; i++) {
		const struct sg_program *p = &s->progs[i];

		if (!p->matched)
			continue;
		fprintf(f, "  pid %u %s", rec_process_file_pid(s->rec, p->proc),
			ESC(p->proc->comm, esc));
		if (rec_process_input(s->rec, p->proc))
			fprintf(f, " [%s]", ESC(rec_process_input(s->rec, p->proc), esc));
		fputs(": ", f);
		text_capset(f, p->required);
	}
	return ferror(f) ? -1 : 0;
}

/* ---- json (schema: docs/suggest.md) -------------------------------------- */

static json_t *sys_json(const struct sys_count *sys, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		const char *sn = sys[i].name;

		json_array_append_new(a, sn ? json_string(sn) : json_integer(sys[i].nr));
	}
	return a;
}

static json_t *sites_json(const struct suggestion *s, const struct sg_site *sites, size_t n,
			    json_t **names)
{
	json_t *a = json_array();
	char src[512], name[CAP_NAME_LEN];
	size_t i;

	*names = json_array();
	for (i = 0; i < n; i++) {
		json_t *o = json_object();

		json_array_append_new(*names, json_bytes(sites[i].func));
		json_set_bytes(o, "function", sites[i].func);
		json_set(o, "count", json_uint(sites[i].count));
		json_set(o, "syscalls", sys_json(sites[i].sys, sites[i].nsys));
		if (sites[i].fact) {
			json_set(o, "operation", json_string(sites[i].fact->operation));
			json_set(o, "source", json_string(sites[i].fact->source));
			if (sites[i].fact->also)
				json_set(o, "also", json_string(sites[i].fact->also));
		} else if (sites[i].ksite) {
			json_set(o, "source", json_string(ksite_source(s->ktab, sites[i].ksite, src,
								       sizeof(src))));
		}
		if (sites[i].alts) {
			json_t *alts = json_array();
			int c;

			for_each_cap(c, sites[i].alts)
				json_array_append_new(alts, json_string(cap_name(c, name)));
			json_set(o, "also_accepted", alts);
		}
		if (sites[i].noaudit_decides)
			json_set(o, "noaudit_decides", json_boolean(true));
		objects_json_set(o, &sites[i].objects);
		json_array_append_new(a, o);
	}
	return a;
}

/* Ptrace access allowed without a check (struct sg_ptrace). */
static json_t *ptrace_json(const struct sg_ptrace *pt)
{
	json_t *o = json_object();

	json_set(o, "targets", json_integer(pt->targets));
	json_set(o, "unknown", json_integer(pt->unknown));
	json_set(o, "target_permitted", json_capset(pt->target_prm));
	json_set(o, "needs_sys_ptrace", json_boolean(pt->needs));
	json_set(o, "source", json_string("security/commoncap.c cap_ptrace_access_check(): "
					  "no check while the caller's set covers the target's"));
	if (pt->example) {
		json_t *ex = json_object();

		json_set(ex, "pid", json_integer(pt->example->ptrace_ex_pid));
		json_set_bytes(ex, "comm", pt->example->ptrace_ex_comm);
		json_set_bytes(ex, "via", pt->example->ptrace_ex_via);
		json_set_bytes(ex, "by", pt->example->comm);
		json_set(o, "example", ex);
	}
	return o;
}

/* What a refusal does there (analyze/effect.h). */
static json_t *effect_json(const struct suggestion *s, const struct effect *e)
{
	json_t *o = json_object();
	char buf[1200];

	json_set(o, "kind", json_string(eff_kind_name(e->kind)));
	json_set(o, "meaning", json_string(effect_meaning(e, buf, sizeof(buf))));
	if (e->err)
		json_set(o, "errno", json_string(e->err));
	if (e->change)
		json_set(o, "change", json_string(e->change));
	if (e->at[0])
		json_set_bytes(o, "decided_at", e->at);
	if (e->lookup)
		json_set(o, "file_lookup", json_true());
	json_set(o, "source", json_string(effect_where(s, e, buf, sizeof(buf))));
	return o;
}

json_t *json_denials(const struct suggestion *s)
{
	char name[CAP_NAME_LEN];
	json_t *a;
	size_t i;

	a = json_array();
	for (i = 0; i < s->ndeny; i++) {
		const struct sg_denial *d = &s->deny[i];
		json_t *o = json_object();

		json_set(o, "cap", json_string(cap_name(d->cap, name)));
		json_set(o, "also_accepted", d->alt >= 0 ? json_string(cap_name(d->alt, name)) :
			 json_null());
		json_set_bytes(o, "callsite", d->func);
		json_set(o, "count", json_uint(d->count));
		if (d->effect)   /* what the kernel's source does on a denial there */
			json_set(o, "kernel_effect", json_string(d->effect));
		json_set(o, "syscall_failed", json_uint(d->sys_failed));
		json_set(o, "kind", json_string(denial_kind_name(d->kind)));
		if (d->sys_other) {
			json_set(o, "syscall_other", json_uint(d->sys_other));
			json_set(o, "syscall_errno", json_string(strerrorname_np(d->sys_errno) ?
								  strerrorname_np(d->sys_errno) : "?"));
		}
		if (d->sys_restart)
			json_set(o, "syscall_restart", json_uint(d->sys_restart));
		if (d->in_ack)
			json_set(o, "in_netlink_ack", json_true());
		json_set(o, "effect", effect_json(s, &d->eff));
		json_set(o, "syscalls", sys_json(d->sys, d->nsys));
		if (d->fact && d->fact->kind == KF_ONLY) {
			json_set(o, "only", json_boolean(true));
			if (d->fact->sysadmin_until)
				json_set(o, "sysadmin_until", json_string(d->fact->sysadmin_until));
		}
		objects_json_set(o, &d->objects);
		json_array_append_new(a, o);
	}
	return a;
}

/* One entry of "keep", or of "covered" (cover: what covers it, no reason). */
static json_t *keep_json(const struct suggestion *s, const struct sg_keep *k, bool cover)
{
	char name[CAP_NAME_LEN];
	json_t *o = json_object(), *names, *d;

	json_set(o, "cap", json_string(cap_name(k->cap, name)));
	if (cover)
		json_set(o, "covered_by", json_capset(k->covered_by));
	d = sites_json(s, k->sites, k->nsites, &names);
	json_set(o, "callsites", names);
	json_set(o, "details", d);
	if (!cover && k->why)
		json_set(o, "reason", json_string(k->why->source));
	return o;
}

int json_suggest(FILE *f, const struct suggestion *s, const char *source)
{
	json_t *root = json_object(), *a, *names;
	char name[CAP_NAME_LEN];
	size_t i;

	json_set(root, "record", json_header(s->rec, source));
	json_set(root, "inputs", json_inputs(s->rec));   /* NULL: no key */
	if (s->only)   /* --cap */
		json_set(root, "only", json_capset(s->only));
	json_set(root, "required", json_capset(s->required));
	json_set(root, "observed", json_capset(s->observed));
	{
		struct partial pa;
		char pw[600];
		json_t *o;

		if (record_partial(s->rec, &pa)) {
			o = json_object();
			json_set(o, "missed_start", json_boolean(pa.missed_start));
			json_set(o, "missed_end", json_boolean(pa.missed_end));
			json_set(o, "lost", json_boolean(pa.lost));
			json_set(o, "why", json_string(partial_words(&pa, pw, sizeof(pw))));
			json_set(o, "remedy", json_string(partial_remedy));
			json_set(root, "partial", o);
		} else {
			json_set(root, "partial", json_null());
		}
	}
	if (s->runtime_images) {
		json_t *o = json_object();

		json_set(o, "images", json_integer((json_int_t)s->runtime_images));
		json_set(o, "granted", json_capset(s->runtime_granted));
		json_set(root, "runtime_setup_left_out", o);
	}
	json_set(root, "denied", json_capset(s->denied));
	if (s->service) {
		json_t *svc = json_object();

		json_set_bytes(svc, "file", s->rec->hdr.target_service);
		json_set(svc, "uid", json_integer(s->rec->hdr.service_uid));
		json_set(svc, "granted", json_capset(s->service_granted));
		json_set(svc, "removal_candidates", json_capset(s->service_unused));
		json_set(root, "service", svc);
	}

	a = json_array();
	for (i = 0; i < s->nrepl; i++) {
		const struct sg_replace *r = &s->repl[i];
		json_t *o = json_object(), *d;

		json_set(o, "replace", json_string(cap_name(r->replace, name)));
		json_set(o, "with", json_string(cap_name(r->with, name)));
		if (cap_alias(r->with))
			json_set(o, "with_alias", json_string(cap_alias(r->with)));
		d = sites_json(s, r->sites, r->nsites, &names);
		json_set(o, "callsites", names);
		json_set(o, "since", r->since ? json_string(r->since) : json_null());
		if (!r->since)
			json_set_bytes(o, "verified_on", record_oldest_kernel(s->rec));
		json_set(o, "evidence", json_string(r->evidence == EV_OBSERVED ? "observed" :
						     r->evidence == EV_SOURCE ? "kernel-source" :
						     "kernel-fact"));
		json_set(o, "kernel_too_old", json_boolean(r->kernel_too_old));
		json_set(o, "details", d);
		json_array_append_new(a, o);
	}
	json_set(root, "suggestions", a);

	a = json_array();
	for (i = 0; i < s->nkeep; i++)
		json_array_append_new(a, keep_json(s, &s->keep[i], false));
	json_set(root, "keep", a);

	a = json_array();
	for (i = 0; i < s->ncover; i++)
		json_array_append_new(a, keep_json(s, &s->cover[i], true));
	json_set(root, "covered", a);

	a = json_array();
	for (i = 0; i < s->nundecided; i++) {
		const struct sg_undecided *u = &s->undecided[i];
		char src[512];
		json_t *o;

		if (!capset_has(s->undecided_caps, u->cap))
			continue;   /* required anyway by another site */
		o = json_object();
		json_set(o, "cap", json_string(cap_name(u->cap, name)));
		json_set_bytes(o, "callsite", u->func);
		json_set(o, "count", json_uint(u->count));
		json_set(o, "why", json_string(undecided_why_name(u->why)));
		if (u->why == UD_ALLOWED_WITHOUT)
			json_set(o, "condition", json_string(u->ksite->allowed_without));
		if (u->fact) {   /* the kernel fact: probe, fallback, listing, verifier */
			json_set(o, "feature", json_string(u->fact->operation));
			json_set(o, "denied_means", json_string(u->fact->also));
			json_set(o, "fact_source", json_string(u->fact->source));
		}
		if (u->ksite)
			json_set(o, "source", json_string(ksite_source(s->ktab, u->ksite, src,
								       sizeof(src))));
		objects_json_set(o, &u->objects);
		json_array_append_new(a, o);
	}
	json_set(root, "verify_decides", a);
	if (s->ptrace.targets || s->ptrace.unknown)
		json_set(root, "ptrace_shortcut", ptrace_json(&s->ptrace));
	if (s->ktab) {
		json_t *o = json_object();

		json_set(o, "kernel", json_string(s->ktab->kernel));
		json_set(o, "exact", json_boolean(s->ktab_exact));
		json_set(o, "source", json_string(s->ktab->source));
		json_set(root, "kernel_source", o);
	}

	json_set(root, "denials", json_denials(s));

	a = json_array();
	for (i = 0; i < s->naside; i++) {
		static const char *const why[] = { "userns-inside", "userns-owner", "userns-child",
						   "no-effect", "advisory", "foreign-credentials" };
		const struct sg_aside *x = &s->aside[i];
		json_t *o = json_object();

		json_set(o, "cap", json_string(cap_name(x->cap, name)));
		json_set_bytes(o, "callsite", x->func);
		json_set(o, "why", json_string(why[x->why]));
		json_set(o, "granted", json_uint(x->granted));
		json_set(o, "denied", json_uint(x->denied));
		if (x->fact)
			json_set(o, "source", json_string(x->fact->source));
		objects_json_set(o, &x->objects);
		json_array_append_new(a, o);
	}
	json_set(root, "not_required", a);
	json_set(root, "asked_not_used", json_capset(s->asked));

	a = json_array();
	for (i = 0; i < s->nprogs; i++) {
		const struct sg_program *p = &s->progs[i];
		json_t *o;

		if (!p->matched)
			continue;
		o = json_object();
		json_set(o, "pid", json_integer(rec_process_file_pid(s->rec, p->proc)));
		json_set(o, "start_ns", json_integer(p->proc->start_ns));
		json_set(o, "exec_id", json_integer(p->proc->exec_id));
		json_set_bytes(o, "comm", p->proc->comm);
		json_set_bytes(o, "exe", p->proc->exe);
		json_set(o, "required", json_capset(p->required));
		if (p->proc->has_capset)
			json_set(o, "capset_permitted", json_capset(p->proc->capset_prm));
		json_set_bytes(o, "input", rec_process_input(s->rec, p->proc));
		json_array_append_new(a, o);
	}
	json_set(root, "programs", a);
	return json_write_pretty_free(f, root);
}
