// SPDX-License-Identifier: GPL-2.0
/* JSON for programs: one object, pure ASCII, every control byte escaped. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "facts/capjson.h"
#include "facts/capnames.h"
#include "facts/kfeat.h"
#include "facts/syscalls.h"
#include "lib/jsonutil.h"
#include "lib/util.h"
#include "output/diff.h"
#include "output/output.h"
#include "analyze/report.h"
#include "analyze/partial.h"
#include "analyze/suggest.h"
#include "analyze/views.h"
#include "analyze/check.h"

/* What one record says about itself, as "record" has always had it. */
static json_t *identity_json(const struct rec_header *h, const struct rec_input *in,
			     const char *source)
{
	json_t *o = json_object(), *argv = json_array();
	size_t i;

	json_set_bytes(o, "file", source);
	json_set_bytes(o, "kernel", h->kernel);
	json_set(o, "arch", json_string(h->arch ? h->arch : SYSCALL_ARCH_DEFAULT));
	json_set_bytes(o, "attach", h->attach);
	json_set_bytes(o, "scope", h->scope);
	json_set(o, "target", rec_target_json(h));   /* NULL: no key */
	for (i = 0; i < h->argc; i++)
		json_array_append_new(argv, json_bytes(h->argv[i]));
	json_set(o, "argv", argv);
	json_set(o, "start_ns", json_integer(h->start_ns));
	json_set(o, "end_ns", json_integer(h->end_ns));
	if (h->has_exit_status)
		json_set(o, "exit_status", json_integer(h->exit_status));
	json_set_bytes(o, "stop", h->stop);
	if (h->command_running)
		json_set(o, "command_running", json_true());
	json_set(o, "lost", rec_lost_json(&h->lost));
	json_set(o, "pids_reused", json_uint(h->pids_reused));
	json_set(o, "kernel_bpf", rec_kernel_bpf_json(h));   /* NULL: no key */
	/* false: ptrace access the kernel allows unasked was not watched
	 * (docs/capsites.md), and a suggestion cannot add CAP_SYS_PTRACE for it */
	if (h->has_ptrace_watched)
		json_set(o, "ptrace_watched", json_boolean(h->ptrace_watched));
	if (in->lenient) {
		/* read with --lenient: what was left out of this report */
		json_t *li = json_object();

		json_set(li, "lines", json_uint(in->lines));
		json_set(li, "skipped", json_uint(in->skipped));
		json_set(li, "missing", json_uint(in->missing));
		json_set(li, "truncated", json_boolean(in->truncated));
		json_set(o, "lenient", li);
	}
	return o;
}

static json_t *header_json(const struct record *r, const char *source)
{
	return identity_json(&r->hdr, &r->input, source);
}

/* A merged record's inputs, each as its own "record" object would be,
 * with what differs from one file to the next besides (NULL: not merged). */
static json_t *inputs_json(const struct record *r)
{
	json_t *a;
	size_t i;

	if (!r->ninputs)
		return NULL;
	a = json_array();
	for (i = 0; i < r->ninputs; i++) {
		const struct rec_source *in = &r->inputs[i];
		json_t *o = identity_json(&in->hdr, &in->input, in->name);

		json_set(o, "version", json_integer(in->hdr.version));
		json_set_bytes(o, "machine", in->hdr.machine);
		json_set(o, "checks", json_uint(in->hdr.checks));
		json_set(o, "process_lines", json_uint(in->nprocs));
		json_set(o, "check_lines", json_uint(in->nchecks));
		json_set(o, "renumbered", json_uint(in->renumbered));
		json_array_append_new(a, o);
	}
	return a;
}

/* one user place: where (own code), via (libraries above it), the stack */
static json_t *user_json(const struct rec_ustack *us, int own, uint64_t count)
{
	json_t *o = json_object(), *via = json_array(), *fr = json_array();
	size_t i;

	json_set(o, "count", json_uint(count));
	json_set(o, "where", rec_uframe_json(&us->frames[own]));
	for (i = 0; i < (size_t)own; i++)
		json_array_append_new(via, rec_uframe_json(&us->frames[i]));
	json_set(o, "via", via);
	for (i = 0; i < us->n; i++)
		json_array_append_new(fr, rec_uframe_json(&us->frames[i]));
	json_set(o, "frames", fr);
	return o;
}

static json_t *row_json(const struct cap_row *cr)
{
	json_t *o = json_object(), *sys = json_array(), *sites = json_array();
	char name[CAP_NAME_LEN];
	size_t i, k;

	json_set(o, "cap", json_string(cap_name(cr->cap, name)));
	json_set(o, "number", json_integer(cr->cap));
	json_set(o, "granted", json_uint(cr->granted));
	json_set(o, "denied", json_uint(cr->denied));
	json_set(o, "noaudit", json_boolean(cr->noaudit));
	if (cr->noaudit)
		json_set(o, "noaudit_by", json_string(noaudit_source_name(cr->noaudit_by)));
	json_set(o, "init_ns", json_boolean(cr->init_ns));
	json_set(o, "other_ns", json_boolean(cr->other_ns));
	json_set(o, "userns", json_string(userns_name(cr->userns)));
	for (i = 0; i < cr->nsys; i++) {
		json_t *s = json_object();
		const char *sn = cr->sys[i].name;

		json_set(s, "nr", json_integer(cr->sys[i].nr));
		if (sn)
			json_set(s, "name", json_string(sn));
		json_set(s, "count", json_uint(cr->sys[i].count));
		json_array_append_new(sys, s);
	}
	json_set(o, "syscalls", sys);
	for (i = 0; i < cr->nsites; i++) {
		const struct site_stat *s = &cr->sites[i];
		json_t *so = json_object(), *st = json_array();

		json_set_bytes(so, "function", s->func);
		json_set(so, "granted", json_uint(s->granted));
		json_set(so, "denied", json_uint(s->denied));
		for (k = 0; s->stack && k < s->stack->n; k++)
			json_array_append_new(st, json_bytes(s->stack->frames[k]));
		json_set(so, "stack", st);
		if (s->nusers) {
			json_t *ua = json_array();

			for (k = 0; k < s->nusers; k++)
				json_array_append_new(ua, user_json(s->users[k].us, s->users[k].own,
								    s->users[k].count));
			json_set(so, "user", ua);
		}
		json_array_append_new(sites, so);
	}
	json_set(o, "callsites", sites);
	return o;
}

static json_t *caps_json(const struct proc_row *pr)
{
	json_t *caps = json_array();
	size_t j;

	for (j = 0; j < pr->ncaps; j++)
		json_array_append_new(caps, row_json(&pr->caps[j]));
	return caps;
}

/* --by program: one object per process image */
static json_t *image_json(const struct record *rec, const struct proc_row *pr)
{
	json_t *po = json_object();

	json_set(po, "pid", json_integer(rec_process_file_pid(rec, pr->proc)));
	json_set(po, "start_ns", json_integer(pr->proc->start_ns));
	json_set(po, "exec_id", json_integer(pr->proc->exec_id));
	json_set(po, "ppid", json_integer(rec_process_file_ppid(rec, pr->proc)));
	json_set(po, "uid", json_integer(pr->proc->uid));
	json_set_bytes(po, "comm", pr->proc->comm);
	json_set_bytes(po, "exe", pr->proc->exe);
	if (pr->proc->build_id)
		json_set(po, "build_id", json_string(pr->proc->build_id));
	if (pr->proc->exited)
		json_set(po, "exit_code", json_integer(pr->proc->exit_code));
	if (pr->proc->pids)   /* a monitor's program identity: its images */
		json_set(po, "pids", json_uint(pr->proc->pids));
	json_set(po, "capabilities", caps_json(pr));
	json_set(po, "hidden_noaudit", json_uint(pr->hidden));
	/* a merged record: the file it is from (pids repeat across them) */
	json_set_bytes(po, "input", rec_process_input(rec, pr->proc));
	return po;
}

/* --by container|unit|cgroup: a program of a workload */
static json_t *program_json(const struct proc_row *pr)
{
	json_t *o = json_object();

	json_set_bytes(o, "program", pr->program);
	json_set_bytes(o, "exe", pr->proc->exe);
	json_set_bytes(o, "comm", pr->proc->comm);
	if (pr->runtime_setup)
		json_set(o, "runtime_setup", json_true());
	json_set(o, "processes", json_uint(pr->npids));
	json_set(o, "checks", json_uint(pr->checks));
	json_set(o, "hidden_noaudit", json_uint(pr->hidden));
	json_set(o, "capabilities", caps_json(pr));
	return o;
}

/* What names a workload: "container": {id, name, runtime}, "unit" or
 * "cgroup"; null for the processes without one. */
static json_t *workload_name_json(const struct report *rep, const struct wl_block *b)
{
	const struct rec_process *p = b->proc;
	json_t *o;

	if (!b->key)
		return json_null();
	if (rep->by != BY_CONTAINER)
		return json_bytes(b->key);
	o = json_object();
	json_set_bytes(o, "id", b->key);
	json_set_bytes(o, "name", p->container_name);
	json_set_bytes(o, "runtime", p->container_runtime);
	return o;
}

static json_t *workload_json(const struct report *rep, const struct wl_block *b)
{
	json_t *o = json_object(), *progs = json_array();
	size_t j;

	json_set(o, report_by_name(rep->by), workload_name_json(rep, b));
	json_set(o, "processes", json_uint(b->npids));
	if (!b->key)
		json_set(o, "no_cgroup", json_uint(b->no_cgroup));
	json_set(o, "checks", json_uint(b->checks));
	json_set(o, "hidden_noaudit", json_uint(b->hidden));
	json_set(o, "required", json_capset(b->required));
	json_set(o, "denied", json_capset(b->denied));
	for (j = b->first; j < b->first + b->nrows; j++)
		json_array_append_new(progs, program_json(&rep->procs[j]));
	json_set(o, "programs", progs);
	return o;
}

/* The processes (or workloads) are written one by one (json_stream_*): a
 * record of a busy host has hundreds of thousands. */
static int json_report(FILE *f, const struct report *rep, const char *source)
{
	json_t *head = json_object(), *root = json_object();
	struct json_stream js;
	size_t i;
	int rc;

	json_set(head, "record", header_json(rep->rec, source));
	json_set(head, "inputs", inputs_json(rep->rec));   /* NULL: no key */
	json_set(head, "by", json_string(report_by_name(rep->by)));
	if (rep->only)   /* --cap */
		json_set(head, "only", json_capset(rep->only));
	json_stream_open(f, &js, head, rep->by == BY_PROCESS ? "processes" : "workloads");
	json_decref(head);
	for (i = 0; rep->by == BY_PROCESS && i < rep->nprocs; i++)
		json_stream_item(f, &js, image_json(rep->rec, &rep->procs[i]));
	for (i = 0; i < rep->nblocks; i++)
		json_stream_item(f, &js, workload_json(rep, &rep->blocks[i]));
	json_set(root, "required", json_capset(rep->required));
	json_set(root, "denied", json_capset(rep->denied));
	json_set(root, "hidden_noaudit", json_uint(rep->hidden_checks));
	json_set(root, "total_checks", json_uint(rep->total_checks));
	if (rep->by_user_site) {
		json_t *ua = json_array();
		char name[CAP_NAME_LEN];
		size_t i;

		for (i = 0; i < rep->nurows; i++) {
			const struct usite_row *u = &rep->urows[i];
			json_t *o = json_object();

			json_set(o, "where", u->where ? rec_uframe_json(u->where) : json_null());
			json_set_bytes(o, "program", u->comm);
			json_set(o, "cap", json_string(cap_name(u->cap, name)));
			json_set_bytes(o, "callsite", u->func);
			json_set(o, "granted", json_uint(u->granted));
			json_set(o, "denied", json_uint(u->denied));
			json_set(o, "noaudit", json_boolean(u->noaudit));
			json_array_append_new(ua, o);
		}
		json_set(root, "user_sites", ua);
	}
	rc = json_stream_close(f, &js, root);
	json_decref(root);
	return rc;
}

/* ---- report --suggest (schema: docs/suggest.md) ------------------------- */

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

static json_t *denials_json(const struct suggestion *s)
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
		json_set(o, "syscalls", sys_json(d->sys, d->nsys));
		if (d->fact && d->fact->kind == KF_ONLY) {
			json_set(o, "only", json_boolean(true));
			if (d->fact->sysadmin_until)
				json_set(o, "sysadmin_until", json_string(d->fact->sysadmin_until));
		}
		json_array_append_new(a, o);
	}
	return a;
}

static int json_suggest(FILE *f, const struct suggestion *s, const char *source)
{
	json_t *root = json_object(), *a, *names;
	char name[CAP_NAME_LEN];
	size_t i;

	json_set(root, "record", header_json(s->rec, source));
	json_set(root, "inputs", inputs_json(s->rec));   /* NULL: no key */
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
	for (i = 0; i < s->nkeep; i++) {
		const struct sg_keep *k = &s->keep[i];
		json_t *o = json_object(), *d;

		json_set(o, "cap", json_string(cap_name(k->cap, name)));
		d = sites_json(s, k->sites, k->nsites, &names);
		json_set(o, "callsites", names);
		json_set(o, "details", d);
		if (k->why)
			json_set(o, "reason", json_string(k->why->source));
		json_array_append_new(a, o);
	}
	json_set(root, "keep", a);

	a = json_array();
	for (i = 0; i < s->ncover; i++) {
		const struct sg_keep *k = &s->cover[i];
		json_t *o = json_object(), *d;

		json_set(o, "cap", json_string(cap_name(k->cap, name)));
		json_set(o, "covered_by", json_capset(k->covered_by));
		d = sites_json(s, k->sites, k->nsites, &names);
		json_set(o, "callsites", names);
		json_set(o, "details", d);
		json_array_append_new(a, o);
	}
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
		if (u->why == UD_ALLOWED_WITHOUT) {
			json_set(o, "why", json_string("allowed-without"));
			json_set(o, "condition", json_string(u->ksite->allowed_without));
		} else if (u->why == UD_SYSCTL_OWNER) {
			json_set(o, "why", json_string("sysctl-owner"));
		} else if (u->why == UD_PTRACE_UNKNOWN) {
			json_set(o, "why", json_string("ptrace-target-unknown"));
		} else if (u->why == UD_PROBE) {
			json_set(o, "why", json_string("probe"));
			json_set(o, "feature", json_string(u->fact->operation));
			json_set(o, "denied_means", json_string(u->fact->also));
			json_set(o, "fact_source", json_string(u->fact->source));
		} else {
			json_set(o, "why", json_string("covered-by-sys-admin"));
		}
		if (u->ksite)
			json_set(o, "source", json_string(ksite_source(s->ktab, u->ksite, src,
								       sizeof(src))));
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

	json_set(root, "denials", denials_json(s));

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

/* ---- doctor ------------------------------------------------------------ */

static json_t *sysctl_json(long v)
{
	return v == SYSCTL_UNKNOWN ? json_null() : json_integer(v);
}

static json_t *privs_json(const struct privs *p)
{
	json_t *o = json_object();

	json_set(o, "uid", json_integer(p->uid));
	json_set(o, "euid", json_integer(p->euid));
	json_set(o, "effective", json_capset(p->eff));
	json_set(o, "permitted", json_capset(p->prm));
	json_set(o, "inheritable", json_capset(p->inh));
	json_set(o, "bounding", json_capset(p->bnd));
	json_set(o, "ambient", json_capset(p->amb));
	json_set(o, "no_new_privs", json_boolean(p->no_new_privs));
	return o;
}

/* {"task_btf": true, ..., "memlock": {...}, "degraded": [...]}: the BPF
 * features the hooks prefer (null: not probed), how BPF memory counts */
static json_t *doctor_bpf_json(const struct doctor *d)
{
	json_t *o = json_object(), *ml = json_object(), *deg = json_array();
	char lines[KF_NR][KF_LINE];
	size_t i, n;

	for (i = 0; i < KF_NR; i++)   /* null: not probed, or no kprobes to matter */
		json_set(o, kfeat_table[i].name, d->kfeat_known && (d->kprobes ||
			 kfeat_table[i].bit != KF_KRETPROBE_STACK) ?
			 json_boolean(d->kfeat & kfeat_table[i].bit) : json_null());
	n = d->kfeat_known ? kfeat_degraded(KF_ALL & ~d->kfeat, true, d->kprobes, lines, KF_NR) : 0;
	for (i = 0; i < n; i++)
		json_array_append_new(deg, json_string(lines[i]));
	json_set(o, "degraded", deg);
	json_set(ml, "rlimit", json_boolean(d->memlock_charged));
	json_set(ml, "limit_kib", d->memlock_kib < 0 ? json_null() : json_integer(d->memlock_kib));
	json_set(o, "memlock", ml);
	return o;
}

static int json_doctor(FILE *f, const struct doctor *d)
{
	json_t *root = json_object(), *sys = json_object(), *modes = json_array();
	json_t *ks = json_object(), *pv = json_object();
	size_t i;

	json_set(root, "kernel", json_string(d->kernel));
	json_set(root, "machine", json_string(d->machine));
	json_set(root, "btf", json_boolean(d->btf));
	json_set(root, "lockdown", json_string(d->lockdown));
	json_set(sys, "perf_event_paranoid", sysctl_json(d->perf_event_paranoid));
	json_set(sys, "kptr_restrict", sysctl_json(d->kptr_restrict));
	json_set(sys, "unprivileged_bpf_disabled", sysctl_json(d->unprivileged_bpf_disabled));
	json_set(sys, "dmesg_restrict", sysctl_json(d->dmesg_restrict));
	json_set(root, "sysctl", sys);
	json_set(root, "tracefs", json_boolean(d->tracefs));
	for (i = 0; i < ATTACH_NR - 1; i++) {
		json_t *m = json_object();

		json_set(m, "mode", json_string(attach_mode_name(d->modes[i].mode)));
		json_set(m, "works", json_boolean(d->modes[i].ok));
		if (!d->modes[i].ok)
			json_set(m, "why", json_string(d->modes[i].why));
		json_array_append_new(modes, m);
	}
	json_set(root, "attach_modes", modes);
	json_set(root, "attach_auto", d->chosen >= 0 ?
		 json_string(attach_mode_name(d->modes[d->chosen].mode)) : json_null());
	json_set(root, "bpf_features", doctor_bpf_json(d));
	json_set(ks, "iter_ksym", json_boolean(d->iter_ksym));
	json_set(ks, "source", d->ksyms_source ? json_string(d->ksyms_source) : json_null());
	json_set(ks, "count", json_uint(d->nsyms));
	if (!d->ksyms_source)
		json_set(ks, "error", json_string(d->ksyms_err));
	json_set(root, "symbols", ks);
	json_set(pv, "held", privs_json(&d->held));
	json_set(pv, "needed", json_capset(d->needed));
	if (d->dropped)
		json_set(pv, "recording", privs_json(&d->recording));
	if (d->priv_err[0])
		json_set(pv, "problem", json_string(d->priv_err));
	json_set(root, "privileges", pv);
	json_set(root, "record_works", json_boolean(d->chosen >= 0 && !d->priv_err[0]));
	return json_write_pretty_free(f, root);
}

/* ---- run --caps ---------------------------------------------------------- */

static int json_run(FILE *f, const struct run_result *r)
{
	json_t *root = json_object(), *cmd = json_array();
	size_t i, blocking = 0;

	for (i = 0; r->cmd[i]; i++)
		json_array_append_new(cmd, json_bytes(r->cmd[i]));
	for (i = 0; i < r->sg->ndeny; i++)
		blocking += r->sg->deny[i].kind == DENY_BLOCKING;
	json_set(root, "command", cmd);
	json_set(root, "caps", json_capset(r->caps));
	json_set(root, "user", r->user ? json_bytes(r->user) : json_null());
	json_set(root, "exit_status", json_integer(r->exit_status));
	if (r->check) {
		json_set_bytes(root, "check", r->check);
		json_set(root, "check_status", json_integer(r->check_status));
	}
	json_set(root, "denials", denials_json(r->sg));
	json_set(root, "blocking_denials", json_uint(blocking));
	json_set(root, "enough", json_boolean(r->enough));
	json_set_bytes(root, "record", r->record);
	return json_write_pretty_free(f, root);
}

/* ---- check ----------------------------------------------------------------- */


static int json_check(FILE *f, const struct check_view *v)
{
	const struct check_result *r = v->r;
	json_t *root = json_object(), *fa = json_array(), *recs = json_array();
	char name[CAP_NAME_LEN];
	size_t i;

	json_set(root, "result", json_string(r->nfail ? "fail" : "pass"));
	json_set_bytes(root, "baseline", v->baseline);
	for (i = 0; i < v->nrecords; i++)
		json_array_append_new(recs, json_bytes(v->records[i]));
	json_set(root, "records", recs);
	json_set(root, "strict", json_boolean(r->strict));
	json_set(root, "match", json_string(check_match_name(r->match)));
	json_set(root, "failures", json_uint(r->nfail));
	json_set(root, "hints", json_uint(r->nhint));
	json_set(root, "allowed", json_uint(r->nallowed));
	for (i = 0; i < r->n; i++) {
		const struct finding *x = &r->f[i];
		json_t *o;

		if (x->kind == FK_ALLOWED)
			continue;
		o = json_object();
		json_set(o, "kind", json_string(finding_kind_name(x->kind)));
		json_set(o, "fails", json_boolean(x->fails));
		json_set(o, "cap", json_string(cap_name(x->cap, name)));
		json_set(o, "callsite", x->func ? json_bytes(x->func) : json_null());
		if (x->syscall)
			json_set_bytes(o, "syscall", x->syscall);
		if (x->syscalls)
			json_set_bytes(o, "syscalls", x->syscalls);
		if (x->count)
			json_set(o, "count", json_uint(x->count));
		if (x->kind == FK_NEW_DENIAL)
			json_set(o, "denial", json_string(denial_kind_name(x->dkind)));
		if (x->replaces_sys_admin)
			json_set(o, "instead_of", json_string("CAP_SYS_ADMIN"));
		json_set_bytes(o, "note", x->note);
		if (x->usrc) {
			/* the user place, named as report --format json names
			 * a user frame (source as recorded) */
			json_t *w = json_object();

			json_set_bytes(w, "source", x->usrc);
			json_set(w, "line", json_integer(x->uline));
			json_set_bytes(w, "function", x->ufunc);
			json_set(o, "where", w);
		}
		json_array_append_new(fa, o);
	}
	json_set(root, "findings", fa);
	return json_write_pretty_free(f, root);
}

/* ---- verify ------------------------------------------------------------- */

static json_t *cap_or_null(int cap)
{
	char nb[CAP_NAME_LEN];

	return cap >= 0 ? json_string(cap_name(cap, nb)) : json_null();
}

static int json_verify(FILE *f, const struct verify_result *v)
{
	json_t *root = json_object(), *cmd = json_array(), *a;
	char nb[CAP_NAME_LEN];
	size_t i;

	for (i = 0; v->cmd[i]; i++)
		json_array_append_new(cmd, json_bytes(v->cmd[i]));
	json_set(root, "command", cmd);
	json_set(root, "user", v->user ? json_bytes(v->user) : json_null());
	json_set(root, "check", v->check ? json_bytes(v->check) : json_null());
	json_set(root, "runs", json_integer(v->runs));
	json_set(root, "max_runs", json_integer(v->max_runs));
	json_set(root, "timeout", json_real(v->timeout));
	json_set(root, "interrupted", v->interrupted ? json_string(sig_name(v->interrupted)) :
		 json_null());
	json_set(root, "left_behind", json_integer((json_int_t)v->leftovers));
	if (v->leftovers)
		json_set(root, "left_behind_example", json_string(v->leftover_example));
	json_set(root, "own_cgroups", json_boolean(!v->no_box));
	json_set(root, "proven", json_boolean(v->proven));
	json_set(root, "set", v->proven ? json_capset(v->set) : json_null());
	json_set(root, "suggested", v->have_suggested ? json_capset(v->suggested) : json_null());
	if (!v->proven)
		json_set(root, "failure", json_string(v->failure));
	a = json_array();
	for (i = 0; i < v->nmembers; i++) {
		const struct verify_member *m = &v->members[i];
		json_t *o = json_object();

		json_set(o, "cap", json_string(cap_name(m->cap, nb)));
		json_set(o, "kept", json_boolean(m->kept));
		json_set(o, "replaced_by", cap_or_null(m->replaced_by));
		json_set(o, "replaced_by_set", json_capset(m->replaced_by_set));
		if (m->kept) {
			json_t *e = json_object();

			json_set(e, "exit_status", json_integer(m->exit_status));
			if (v->check)
				json_set(e, "check_status", json_integer(m->check_status));
			json_set(e, "denied", cap_or_null(m->deny_cap));
			json_set(e, "exec_refused", json_boolean(m->exec_refused));
			json_set(e, "asked_by_capset", json_boolean(m->asked));
			json_set(e, "callsite", m->deny_func ? json_bytes(m->deny_func) : json_null());
			json_set(e, "timed_out", json_boolean(m->timed_out));
			json_set(e, "refused_in_user_space", json_boolean(m->userspace));
			json_set(e, "narrower_tried", json_capset(m->narrower_failed));
			json_set(e, "broader_not_tried", json_capset(m->broader_refused));
			json_set(o, "without_it", e);
		}
		json_array_append_new(a, o);
	}
	json_set(root, "members", a);
	if (v->proven && v->sg && v->nemit) {
		json_t *sn = json_object();

		for (i = 0; i < v->nemit; i++) {
			char *buf = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&buf, &len);

			if (m) {
				emit_snippet(m, v->emit[i], v->sg);
				fclose(m);
				json_set(sn, v->emit[i], json_bytes(buf ? buf : ""));
				free(buf);
			}
		}
		json_set(root, "snippets", sn);
	}
	return json_write_pretty_free(f, root);
}


const struct formatter output_json = {
	.name = "json",
	.report = json_report,
	.suggest = json_suggest,
	.doctor = json_doctor,
	.run = json_run,
	.verify = json_verify,
	.check = json_check,
	.diff = diff_json,
};
