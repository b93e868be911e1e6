// SPDX-License-Identifier: GPL-2.0
/* Plain text for people; every string from the record is escaped. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "facts/capnames.h"
#include "facts/kfeat.h"
#include "facts/syscalls.h"
#include "output/diff.h"
#include "output/output.h"
#include "analyze/report.h"
#include "analyze/usite.h"
#include "analyze/partial.h"
#include "analyze/suggest.h"
#include "analyze/views.h"
#include "analyze/check.h"
#include "lib/util.h"
#include "output/words.h"


static void print_capset(FILE *f, uint64_t mask)
{
	char buf[CAPSET_STR_LEN];

	fprintf(f, "%s\n", capset_str(mask, buf, sizeof(buf)));
}

/* What a scoped recording recorded: ": web (591d49a5940b), /libpod_parent/..." */
static void print_target(FILE *f, const struct rec_header *h)
{
	char esc[1024];

	if (h->target_service)
		fprintf(f, ": %s", ESC(h->target_service, esc));
	else if (h->target_container) {
		char id[64];

		fprintf(f, ": %s", h->target_name ? ESC(h->target_name, esc) : "");
		snprintf(id, sizeof(id), "%.12s", h->target_container);
		fprintf(f, "%s%s%s", h->target_name ? " (" : "", text_escape(id, esc, sizeof(esc)),
			h->target_name ? ")" : "");
	} else if (h->target_unit)
		fprintf(f, ": %s", ESC(h->target_unit, esc));
	if (h->target_cgroup)
		fprintf(f, "%s%s", h->target_container || h->target_unit || h->target_service ?
			", cgroup " : ": ", ESC(h->target_cgroup, esc));
}

/* What one record says about itself: its kernel, attach mode and scope on
 * the first line (after "  NAME: " for an input of a merge), then, at ind,
 * its command, its time, and what is partial or incomplete in it. */
static void print_identity(FILE *f, const struct rec_header *h, const struct rec_input *in,
			   const char *name, const char *ind)
{
	const char *arch = h->arch ? h->arch : SYSCALL_ARCH_DEFAULT;
	char a[64], b[64], esc[1024];
	size_t i;

	format_iso8601(h->start_ns, a, sizeof(a));
	format_iso8601(h->end_ns, b, sizeof(b));
	if (name)
		fprintf(f, "  %s:", ESC(name, esc));
	fprintf(f, "%skernel %s", name ? " " : "  ", ESC(h->kernel, esc));
	/* made on another architecture than this one's: its syscalls are that one's */
	if (strcmp(arch, syscall_arch_native()))
		fprintf(f, " (%s)", ESC(arch, esc));
	fprintf(f, ", attach %s", h->attach ? ESC(h->attach, esc) : "?");
	fprintf(f, ", scope %s", h->scope ? ESC(h->scope, esc) : "?");
	print_target(f, h);
	fputc('\n', f);
	if (h->argc) {
		fprintf(f, "%scommand:", ind);
		for (i = 0; i < h->argc; i++)
			fprintf(f, " %s", ESC(h->argv[i], esc));
		fputc('\n', f);
	}
	fprintf(f, "%s%s .. %s (%.2f s)", ind, a, b, (double)(h->end_ns - h->start_ns) / 1e9);
	if (h->has_exit_status)
		fprintf(f, ", exit status %d", h->exit_status);
	fputc('\n', f);
	if (h->command_running)
		fprintf(f, "%sPARTIAL: the command was still running when recording stopped (%s): "
			"what it did after that is not here\n", ind,
			h->stop && !strcmp(h->stop, "duration") ? "-d" : "signal");
	if (h->pids_reused && h->version >= 2)
		fprintf(f, "%snote: %" PRIu64 " pids were given to another process while recording; "
			"each process has its own lines (pid and start time)\n", ind, h->pids_reused);
	else if (h->pids_reused)   /* version 1: processes were named by pid */
		fprintf(f, "%snote: %" PRIu64 " pids were reused while recording (pid_max wrapped); "
			"a reused pid's processes share one line, their counts stay exact\n",
			ind, h->pids_reused);
	for (i = 0; i < h->ndegraded; i++)   /* what the kernel's BPF could not give */
		fprintf(f, "%snote: %s\n", ind, ESC(h->degraded[i], esc));
	if (in->lenient && (in->skipped || in->missing || in->truncated))
		fprintf(f, "%sINCOMPLETE (--lenient): %zu of %zu lines skipped, %zu missing%s\n",
			ind, in->skipped, in->lines, in->missing,
			in->truncated ? ", no end line (file cut)" : "");
}

/* One record: "Record FILE" and what it says. Merged ones: how many and
 * which, then each as it was (kernels, commands and times differ from one
 * node to the next: no one line could hold them). */
static void print_header(FILE *f, const struct record *r, const char *source)
{
	char esc[4200];
	size_t i;

	if (!r->ninputs) {
		fprintf(f, "Record %s\n", ESC(source, esc));
		print_identity(f, &r->hdr, &r->input, NULL, "  ");
		return;
	}
	fprintf(f, "Records: %zu (", r->ninputs);
	for (i = 0; i < r->ninputs; i++)
		fprintf(f, "%s%s", i ? ", " : "", ESC(r->inputs[i].name, esc));
	fputs(")\n", f);
	for (i = 0; i < r->ninputs; i++)
		print_identity(f, &r->inputs[i].hdr, &r->inputs[i].input, r->inputs[i].name,
			       "    ");
}

/* "from privops.c:38 (do_chown), via chown in libc.so.6, 1x" */
static void print_users(FILE *f, const struct site_stat *s, const char *ind)
{
	char buf[600], esc[1300];
	size_t i;
	int k;

	for (i = 0; i < s->nusers; i++) {
		const struct site_user *u = &s->users[i];

		usite_format(&u->us->frames[u->own], buf, sizeof(buf));
		fprintf(f, "%s      from %s", ind, text_escape(buf, esc, sizeof(esc)));
		for (k = 0; k < u->own; k++) {
			usite_format_short(&u->us->frames[k], buf, sizeof(buf));
			fprintf(f, "%s %s", k ? "," : ", via", text_escape(buf, esc, sizeof(esc)));
		}
		fprintf(f, ", %" PRIu64 "x\n", u->count);
	}
}

/* One capability's line and what follows it; ind: the block's indent
 * ("" by program). Its note (words.c, as the html page's) explains what
 * a reader could not know. */
static void print_row(FILE *f, const struct cap_row *cr, const char *ind, struct terms *t)
{
	char name[CAP_NAME_LEN], esc[512], note[1200];
	size_t i;

	fprintf(f, "%s  %-24s granted %-8" PRIu64 " denied %-8" PRIu64, ind, cap_name(cr->cap, name),
		cr->granted, cr->denied);
	if (cr->noaudit)
		fprintf(f, " noaudit (%s)", noaudit_source_name(cr->noaudit_by));
	if (*row_note(cr, t, note, sizeof(note)))
		fprintf(f, "\n%s    note: %s", ind, note);
	fprintf(f, "\n%s    syscalls:", ind);
	for (i = 0; i < cr->nsys; i++) {
		const char *sn = cr->sys[i].name;

		if (cr->sys[i].nr < 0)
			fprintf(f, " (none) x%" PRIu64, cr->sys[i].count);
		else if (sn)
			fprintf(f, " %s x%" PRIu64, sn, cr->sys[i].count);
		else
			fprintf(f, " syscall_%d x%" PRIu64, cr->sys[i].nr, cr->sys[i].count);
		if (i + 1 < cr->nsys)
			fputc(',', f);
	}
	fputc('\n', f);
	for (i = 0; i < cr->nsites; i++) {
		const struct site_stat *s = &cr->sites[i];

		fprintf(f, "%s    call site %-32s", ind, ESC(s->func, esc));
		if (s->granted)
			fprintf(f, " granted %" PRIu64, s->granted);
		if (s->denied)
			fprintf(f, " denied %" PRIu64, s->denied);
		fprintf(f, "%s\n", term_first(t, TERM_CALL_SITE));
		print_users(f, s, ind);
	}
}

/* report --by user-site */
static void print_urows(FILE *f, const struct report *rep)
{
	char buf[600], esc[1300], name[CAP_NAME_LEN];
	const struct usite_row *prev = NULL;
	size_t i;

	fputs("\nBy user-space place (record --user-stacks):\n", f);
	if (!rep->have_ustacks)
		fputs("  this record has no user stacks (record --user-stacks)\n", f);
	for (i = 0; i < rep->nurows; i++) {
		const struct usite_row *u = &rep->urows[i];

		if (!prev || !usite_same(prev->where, u->where) || strcmp(prev->comm, u->comm)) {
			if (u->where)
				usite_format(u->where, buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "(no user stack)");
			fprintf(f, "%s", text_escape(buf, esc, sizeof(esc)));
			fprintf(f, " in %s\n", ESC(u->comm, esc));
		}
		fprintf(f, "  %-24s at %-32s", cap_name(u->cap, name), ESC(u->func, esc));
		if (u->granted)
			fprintf(f, " granted %" PRIu64, u->granted);
		if (u->denied)
			fprintf(f, " denied %" PRIu64, u->denied);
		if (u->noaudit)
			fputs(" noaudit", f);
		fputc('\n', f);
		prev = u;
	}
}

/* A row's capabilities, or that it has none, and what --noaudit would add. */
static void print_caps(FILE *f, const struct proc_row *pr, const char *ind, struct terms *t)
{
	size_t j;

	for (j = 0; j < pr->ncaps; j++)
		print_row(f, &pr->caps[j], ind, t);
	if (!pr->ncaps)
		fprintf(f, "%s  no capability checks\n", ind);
	if (pr->hidden)
		fprintf(f, "%s  (%" PRIu64 " noaudit checks not shown; --noaudit shows them)%s\n",
			ind, pr->hidden, term_first(t, TERM_NOAUDIT));
}

/* --by program: a block per process image */
static void print_images(FILE *f, const struct report *rep, struct terms *t)
{
	char esc[4200];
	size_t i;

	for (i = 0; i < rep->nprocs; i++) {
		const struct proc_row *pr = &rep->procs[i];
		const struct rec_process *p = pr->proc;

		/* a monitor's line is a program, its pid synthetic: say how many
		 * processes it stands for instead */
		if (p->pids)
			fprintf(f, "\nPROGRAM %s", ESC(p->comm, esc));
		else   /* as its file has it: a merge may have renumbered it */
			fprintf(f, "\nPID %u %s", rec_process_file_pid(rep->rec, p), ESC(p->comm, esc));
		/* a later program image of the same pid (after execve) */
		if (i > 0 && rep->procs[i - 1].proc->pid == p->pid)
			fputs(" (after execve)", f);
		if (p->exe)
			fprintf(f, "  %s", ESC(p->exe, esc));
		if (p->pids)
			fprintf(f, "  (%llu process%s, uid %u", (unsigned long long)p->pids,
				p->pids == 1 ? "" : "es", p->uid);
		else
			fprintf(f, "  (ppid %u, uid %u", rec_process_file_ppid(rep->rec, p), p->uid);
		if (p->exited)
			fprintf(f, ", exit status %d", p->exit_code);
		fputs(")", f);
		/* a merged record: which file it is from (pids repeat across them) */
		if (rec_process_input(rep->rec, p))
			fprintf(f, "  [%s]", ESC(rec_process_input(rep->rec, p), esc));
		fputc('\n', f);
		print_caps(f, pr, "", t);
	}
}

/* What a block without a key holds, per mode. */
static const char *const no_workload[] = {
	[BY_PROGRAM] = "Every process, by program",
	[BY_CONTAINER] = "(host: no container)",
	[BY_UNIT] = "(no systemd unit)",
	[BY_CGROUP] = "(no cgroup recorded)",
};

/* "Container web (podman, id 0123...)", "Unit cron.service", ... */
static void print_block_name(FILE *f, const struct report *rep, const struct wl_block *b)
{
	const struct rec_process *p = b->proc;
	const char *rt = p->container_runtime;
	char esc[4200], esc_rt[200], esc_id[300];

	if (!b->key) {
		fprintf(f, "\n%s\n", no_workload[rep->by]);
		return;
	}
	if (rep->by == BY_UNIT)
		fprintf(f, "\nUnit %s\n", ESC(b->key, esc));
	else if (rep->by == BY_CGROUP)
		fprintf(f, "\nCgroup %s\n", ESC(b->key, esc));
	else if (p->container_name)   /* the full id: what runtimes take */
		fprintf(f, "\nContainer %s (%s%sid %s)\n", ESC(b->label, esc), ESC(rt, esc_rt),
			rt ? ", " : "", ESC(b->key, esc_id));
	else
		fprintf(f, "\nContainer %s%s%s%s\n", ESC(b->key, esc), rt ? " (" : "",
			ESC(rt, esc_rt), rt ? ")" : "");
}

/* --by container|unit|cgroup: a block per workload, in it one per program */
static void print_workloads(FILE *f, const struct report *rep, struct terms *t)
{
	char esc[4200];
	size_t i, j;

	for (i = 0; i < rep->nblocks; i++) {
		const struct wl_block *b = &rep->blocks[i];

		print_block_name(f, rep, b);
		fprintf(f, "  %zu %s, %" PRIu64 " %s; required: ", b->npids,
			plural(b->npids, "process", "processes"), b->checks,
			plural(b->checks, "check", "checks"));
		print_capset(f, b->required);
		if (b->denied) {
			fputs("  denied: ", f);
			print_capset(f, b->denied);
		}
		if (b->no_cgroup && rep->by != BY_CGROUP)
			fprintf(f, "  (%zu of them with no cgroup recorded: where they ran is not "
				"known)\n", b->no_cgroup);
		for (j = b->first; j < b->first + b->nrows; j++) {
			const struct proc_row *pr = &rep->procs[j];

			fprintf(f, "  %s%s%s: %zu %s, %" PRIu64 " %s\n", ESC(pr->program, esc),
				pr->proc->exe ? "" : " (no executable recorded)",
				pr->runtime_setup ? runtime_setup_note(t) : "",
				pr->npids,
				plural(pr->npids, "process", "processes"), pr->checks,
				plural(pr->checks, "check", "checks"));
			print_caps(f, pr, "  ", t);
		}
	}
}

/* A merged record's losses, by the file that had them. */
static void print_lost_inputs(FILE *f, const struct record *r)
{
	char lostbuf[600], esc[4200];
	size_t i;

	for (i = 0; i < r->ninputs; i++)
		if (rec_lost_describe(&r->inputs[i].hdr.lost, lostbuf, sizeof(lostbuf)))
			fprintf(f, "  %s: %s\n", ESC(r->inputs[i].name, esc), lostbuf);
}

static int text_report(FILE *f, const struct report *rep, const char *source)
{
	const struct rec_header *h = &rep->rec->hdr;
	char name[CAP_NAME_LEN];
	char lostbuf[600];
	uint64_t lost = rec_lost_describe(&h->lost, lostbuf, sizeof(lostbuf));
	struct terms t = { 0 };
	size_t i;

	print_header(f, rep->rec, source);
	if (rep->only) {
		fputs("  only checks of (--cap): ", f);
		print_capset(f, rep->only);
	}
	if (rep->by == BY_PROCESS)
		print_images(f, rep, &t);
	else
		print_workloads(f, rep, &t);
	if (rep->by_user_site)
		print_urows(f, rep);
	fputs("\nRequired (granted in audited checks): ", f);
	print_capset(f, rep->required);
	fputs("Denied in audited checks: ", f);
	print_capset(f, rep->denied);
	if (rep->hidden_checks)
		fprintf(f, "Not shown: %" PRIu64 " noaudit checks (kernel probing, never a "
			"requirement; --noaudit shows them)\n", rep->hidden_checks);
	if (!lost) {
		fputs("Lost: none\n", f);
	} else {
		fprintf(f, "Lost: %s\n", lostbuf);
		print_lost_inputs(f, rep->rec);
		for (i = 0; i < h->noverflow; i++)
			fprintf(f, "  unattributed: %s %s x%" PRIu64 "\n",
				cap_name(h->overflow[i].cap, name),
				h->overflow[i].denied ? "denied" : "granted", h->overflow[i].count);
	}
	return ferror(f) ? -1 : 0;
}

/* ---- report --suggest ---------------------------------------------------- */

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
static const char *effect_meaning(const char *effect, char *buf, size_t len)
{
	if (ks_effect_is_errno(effect))
		snprintf(buf, len, "a denial returns %s", effect);
	else if (!strcmp(effect, "false"))
		snprintf(buf, len, "a denial returns false to its caller");
	else if (!strcmp(effect, "caller"))
		snprintf(buf, len, "the answer is returned to its caller, which decides");
	else if (!strcmp(effect, "value"))
		snprintf(buf, len, "the answer is stored or passed on: the call goes on, changed");
	else if (!strcmp(effect, "silent"))
		snprintf(buf, len, "a denial skips something: the call goes on");
	else if (!strcmp(effect, "mode"))
		snprintf(buf, len, "the answer sets a sysctl file's access mode");
	else
		snprintf(buf, len, "%s", effect);
	return buf;
}

/* Denied checks with no granted alternative, blocking first. */
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

static void print_denials(FILE *f, const struct suggestion *s, struct terms *t)
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
		if (d->fact && d->fact->kind == KF_ONLY) {
			fprintf(f, "    only %s is accepted there", capn(d->cap, n1));
			if (d->fact->sysadmin_until)
				fprintf(f, " (CAP_SYS_ADMIN was accepted until Linux %s)",
					d->fact->sysadmin_until);
			fputc('\n', f);
		}
		if (d->effect)
			fprintf(f, "    the kernel's source there: %s\n",
				effect_meaning(d->effect, why, sizeof(why)));
	}
}

static int text_suggest(FILE *f, const struct suggestion *s, const char *source)
{
	const struct rec_header *h = &s->rec->hdr;
	char n1[CAP_NAME_LEN], esc[4200], why[400];
	struct terms t = { 0 };
	size_t i, j;

	print_header(f, s->rec, source);
	if (s->only) {
		fputs("  only what is about (--cap): ", f);
		print_capset(f, s->only);
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
	print_capset(f, s->required);
	fputs("Observed (granted, audited): ", f);
	print_capset(f, s->observed);
	if (s->runtime_images) {
		fprintf(f, "Left out: the container runtime's own setup (runc or crun setting a "
			"container up, %zu program%s run), granted: ", s->runtime_images,
			s->runtime_images == 1 ? "" : "s");
		print_capset(f, s->runtime_granted);
	}
	if (s->service) {
		/* record --service: what the unit could stop granting */
		fprintf(f, "\nUnit file %s (its commands ran as uid %u)\n",
			ESC(h->target_service ? h->target_service : "?", esc), h->service_uid);
		fputs("  grants: ", f);
		print_capset(f, s->service_granted);
		fputs("  removal candidates (granted, never checked): ", f);
		print_capset(f, s->service_unused);
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
		if (file_check_hint(k->cap))
			fprintf(f, "    (%s)\n", file_check_hint(k->cap));
	}
	for (i = 0; i < s->nrepl; i++) {
		fputs("  ", f);
		print_capname_alias(f, s->repl[i].with);
		fprintf(f, " (instead of %s):", capn(s->repl[i].replace, n1));
		for (j = 0; j < s->repl[i].nsites; j++)
			fprintf(f, "%s %s", j ? "," : "", ESC(s->repl[i].sites[j].func, esc));
		fputc('\n', f);
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
			if (u->why == UD_ALLOWED_WITHOUT)
				fprintf(f, "asked before a plain condition that allows without it: "
					"%s\n", ESC(u->ksite->allowed_without, esc));
			else if (u->why == UD_SYSCTL_OWNER)
				fputs("a sysctl's permission handler asked for root, whom the file's "
				      "owner bits may let in anyway\n", f);
			else if (u->why == UD_PTRACE_UNKNOWN)
				fputs("it reached other processes whose capabilities capaudit could "
				      "not read (gone, another pid or user namespace, a pidfd)\n", f);
			else if (u->why == UD_PROBE)
				fprintf(f, "a feature programs try and do without: %s; refused, %s\n"
					"    (kernel source: %s)\n", u->fact->operation, u->fact->also,
					u->fact->source);
			else
				fputs("the kernel takes CAP_SYS_ADMIN there too, which the set has: "
				      "not needed if CAP_SYS_ADMIN stays (verify tries dropping "
				      "CAP_SYS_ADMIN first)\n", f);
			if (u->ksite)
				fprintf(f, "    (%s)\n", ksite_source(s->ktab, u->ksite, why,
								sizeof(why)));
		}
	}

	fputs("\nDenied with no granted alternative:\n", f);
	print_denials(f, s, &t);

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
		}
	}
	if (s->asked) {
		fputs("\nAsked for with capset() (kept in the permitted set), never used: ", f);
		print_capset(f, s->asked);
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
		print_capset(f, p->required);
	}
	return ferror(f) ? -1 : 0;
}

/* ---- doctor ------------------------------------------------------------ */

static void sysctl_val(FILE *f, const char *name, long v)
{
	if (v == SYSCTL_UNKNOWN)
		fprintf(f, "  %-32s unknown\n", name);
	else
		fprintf(f, "  %-32s %ld\n", name, v);
}

static int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

/* The BPF features the hooks prefer, and the path each missing one means
 * (facts/kfeat.h); how BPF memory is accounted. */
static void text_doctor_bpf(FILE *f, const struct doctor *d)
{
	char lines[KF_NR][KF_LINE];
	size_t i, n;

	fprintf(f, "\nBPF features the hooks use (docs/kernel-facts.md):\n");
	for (i = 0; i < KF_NR && d->kfeat_known; i++) {
		const struct kfeat_info *k = &kfeat_table[i];

		if (d->kfeat & k->bit)
			fprintf(f, "  %-16s yes: %s\n", k->name, k->what);
		else if (k->bit == KF_KRETPROBE_STACK && !d->kprobes)
			fprintf(f, "  %-16s -: no kprobes here\n", k->name);
		else
			fprintf(f, "  %-16s no: %s needs Linux %s (commit %s); instead %s\n", k->name,
				k->what, k->since, k->commit, k->instead);
	}
	if (!d->kfeat_known)
		fprintf(f, "  not probed: no BPF program loads with the privileges record keeps "
			"(the attach modes above say why)\n");
	n = d->kfeat_known ? kfeat_degraded(KF_ALL & ~d->kfeat, true, d->kprobes, lines, KF_NR) : 0;
	for (i = 0; i < n; i++)
		fprintf(f, "  degraded: %s\n", lines[i]);
	if (!d->memlock_charged)
		fprintf(f, "  %-16s the memory cgroup (Linux %s+)\n", "BPF memory", KF_MEMCG_SINCE);
	else if (d->memlock_kib < 0)
		fprintf(f, "  %-16s RLIMIT_MEMLOCK (before Linux %s): unlimited for the recording "
			"(raised before the privilege drop)\n", "BPF memory", KF_MEMCG_SINCE);
	else
		fprintf(f, "  %-16s RLIMIT_MEMLOCK (before Linux %s): %ld KiB, which CAP_BPF and "
			"CAP_PERFMON cannot raise: run as root, or raise it (ulimit -l unlimited)\n",
			"BPF memory", KF_MEMCG_SINCE, d->memlock_kib);
}

static int text_doctor(FILE *f, const struct doctor *d)
{
	char buf[1024];
	size_t i;

	fprintf(f, "capaudit doctor\n");
	fprintf(f, "  %-32s %s (%s)\n", "kernel", d->kernel, d->machine);
	fprintf(f, "  %-32s %s\n", "BTF (/sys/kernel/btf/vmlinux)", d->btf ? "yes" :
		"no: CO-RE programs cannot load");
	fprintf(f, "  %-32s %s\n", "lockdown", d->lockdown);
	sysctl_val(f, "kernel.perf_event_paranoid", d->perf_event_paranoid);
	sysctl_val(f, "kernel.kptr_restrict", d->kptr_restrict);
	sysctl_val(f, "kernel.unprivileged_bpf_disabled", d->unprivileged_bpf_disabled);
	sysctl_val(f, "kernel.dmesg_restrict", d->dmesg_restrict);
	fprintf(f, "  %-32s %s\n", "tracefs", d->tracefs ? "mounted" : "not mounted");

	fprintf(f, "\nAttach modes (load + attach with the privileges record keeps):\n");
	for (i = 0; i < ATTACH_NR - 1; i++) {
		const struct doctor_mode *m = &d->modes[i];

		fprintf(f, "  %-11s %s%s\n", attach_mode_name(m->mode), m->ok ? "works" : "no: ",
			m->ok ? ((int)i == d->chosen ? "  <- record --attach auto uses this" : "") :
			m->why);
	}

	text_doctor_bpf(f, d);

	fprintf(f, "\nKernel symbols: ");
	if (d->ksyms_source)
		fprintf(f, "%s, %zu text symbols\n", d->ksyms_source, d->nsyms);
	else
		fprintf(f, "unavailable: %s\n", d->ksyms_err);
	if (!d->iter_ksym)
		fprintf(f, "  (no iter/ksym iterator, Linux 6.0+: /proc/kallsyms is read before the "
			"privilege drop, which shows addresses with CAP_SYSLOG, or to anyone at "
			"kernel.perf_event_paranoid <= 1 with kptr_restrict 0)\n");

	fprintf(f, "\nPrivileges:\n");
	fprintf(f, "  %-10s uid %u, effective %s\n", "held",
		d->held.euid, popcount64(d->held.eff) > 6 ?
		(snprintf(buf, sizeof(buf), "%d capabilities", popcount64(d->held.eff)), buf) :
		capset_str(d->held.eff, buf, sizeof(buf)));
	fprintf(f, "  %-10s %s\n", "needed", capset_str(d->needed, buf, sizeof(buf)));
	if (d->dropped)
		fprintf(f, "  %-10s %s; bounding %s; no_new_privs %s\n", "recording",
			capset_str(d->recording.eff, buf, sizeof(buf)),
			d->recording.bnd == (d->recording.bnd & d->needed) ? "reduced to them" :
			"unchanged (no CAP_SETPCAP)", d->recording.no_new_privs ? "set" : "not set");
	if (d->priv_err[0])
		fprintf(f, "  problem: %s\n", d->priv_err);

	fputc('\n', f);
	if (d->chosen >= 0 && !d->priv_err[0])
		fprintf(f, "Verdict: capaudit record works here (attach %s).\n",
			attach_mode_name(d->modes[d->chosen].mode));
	else
		fprintf(f, "Verdict: capaudit record cannot work here: %s\n",
			d->priv_err[0] ? d->priv_err : "no attach mode loads and attaches");
	return ferror(f) ? -1 : 0;
}

/* ---- run --caps ---------------------------------------------------------- */

static int text_run(FILE *f, const struct run_result *r)
{
	char buf[1024], esc[4200], word[4200], wesc[8400];
	struct terms t = { 0 };
	size_t i, blocking = 0;

	for (i = 0; i < r->sg->ndeny; i++)
		blocking += r->sg->deny[i].kind == DENY_BLOCKING;
	fputs("\ncapaudit run:", f);
	for (i = 0; r->cmd[i]; i++)
		fprintf(f, " %s", ESC(r->cmd[i], esc));
	fprintf(f, "\n  capabilities: %s\n", capset_str(r->caps, buf, sizeof(buf)));
	fprintf(f, "  as: %s\n", r->user ? ESC(r->user, esc) : "root");
	fprintf(f, "  exit status: %d\n", r->exit_status);
	if (r->check)
		fprintf(f, "  check: %s: exit status %d\n", ESC(r->check, esc), r->check_status);
	fputs("\nDenied checks:\n", f);
	print_denials(f, r->sg, &t);
	if (r->enough)
		fprintf(f, "\nThis set is enough for what ran: the command exited 0%s%s.\n",
			r->check ? " and the check passed" : "",
			!r->sg->ndeny ? "" : blocking ? " (it carried on past the denials above)" :
			" (no denial made a syscall fail)");
	else
		fprintf(f, "\nThis set is not enough: %s%s.\n", r->exit_status ?
			"the command failed" : "the check failed",
			blocking ? "; the denials above that made a syscall fail are where to look" :
			!r->sg->ndeny ? "; no check was denied: the cause is not a capability check "
			"(see capaudit verify)" : "");
	/* the command as a shell takes it (quoted), then made safe to print */
	fprintf(f, "Record: %s (capaudit report --suggest -i %s)\n", ESC(r->record, esc),
		text_sanitize(shell_word(r->record ? r->record : "", word, sizeof(word)), wesc,
			      sizeof(wesc)));
	return ferror(f) ? -1 : 0;
}

/* ---- check ----------------------------------------------------------------- */

/* One line per finding: a stable, diffable form (no counts). */
static void print_finding(FILE *f, const struct finding *x, const char *root)
{
	char n[CAP_NAME_LEN], esc[600];

	/* a finding about a syscall: "CAP in SYSCALL (at SITES)" */
	if (x->syscall) {
		const char *what = x->kind == FK_NEW_SYSCALL ? "+ new syscall      " :
				   x->kind == FK_NEW_DENIAL ? "! new denial       " :
				   x->kind == FK_UNUSED_SYSCALL ? "- unused syscall   " :
				   x->kind == FK_UNUSED_DENIAL ? "- denial not seen  " : NULL;

		if (!what)
			return;
		fprintf(f, "%s%s in %s", what, cap_name(x->cap, n), ESC(x->syscall, esc));
		if (x->func)
			fprintf(f, " (at %s)", ESC(x->func, esc));
		goto rest;
	}
	switch (x->kind) {
	case FK_NEW_CAP:
		fprintf(f, "+ new capability   %s at %s", cap_name(x->cap, n), ESC(x->func, esc));
		break;
	case FK_NEW_SITE:
		fprintf(f, "+ new call site    %s at %s", cap_name(x->cap, n), ESC(x->func, esc));
		break;
	case FK_NEW_DENIAL:
		fprintf(f, "! new denial       %s at %s", cap_name(x->cap, n), ESC(x->func, esc));
		break;
	case FK_UNUSED_CAP:
		fprintf(f, "- unused           %s", cap_name(x->cap, n));
		break;
	case FK_UNUSED_SITE:
		fprintf(f, "- unused call site %s at %s", cap_name(x->cap, n), ESC(x->func, esc));
		break;
	case FK_UNUSED_DENIAL:   /* the whole capability's, or one call site's */
		fprintf(f, "- denial not seen  %s%s%s", cap_name(x->cap, n), x->func ? " at " : "",
			x->func ? ESC(x->func, esc) : "");
		break;
	default:
		return;
	}
	if (x->syscalls)
		fprintf(f, " (%s)", ESC(x->syscalls, esc));
rest:
	if (x->replaces_sys_admin)
		fputs(" [instead of CAP_SYS_ADMIN]", f);
	if (x->kind == FK_NEW_DENIAL)
		fprintf(f, ": %s", x->dkind == DENY_BLOCKING ? "blocking (the syscall failed)" :
			x->dkind == DENY_ADVISORY ? "advisory (the syscall went on)" :
			x->dkind == DENY_OTHER_ERROR ? "the syscall failed with another error" :
			x->dkind == DENY_INCONCLUSIVE ? "inconclusive (interrupted)" : "outcome unknown");
	if (x->note)
		fprintf(f, "  -- note: %s", ESC(x->note, esc));
	if (!x->fails && x->kind >= FK_UNUSED_CAP)
		fputs("  (hint)", f);
	fputc('\n', f);
	if (x->usrc) {
		fprintf(f, "      asked for at %s", ESC(usite_relative(x->usrc, root), esc));
		fprintf(f, ":%d%s%s%s\n", x->uline, x->ufunc ? " (" : "", x->ufunc ? ESC(x->ufunc, esc) : "",
			x->ufunc ? ")" : "");
	}
}

static int text_check(FILE *f, const struct check_view *v)
{
	const struct check_result *r = v->r;
	char esc[4200], cmd[16400];
	size_t i;

	fprintf(f, "capaudit check: %zu record%s against %s (--match %s)\n", v->nrecords,
		v->nrecords == 1 ? "" : "s", ESC(v->baseline, esc), check_match_name(r->match));
	for (i = 0; i < r->n; i++)
		print_finding(f, &r->f[i], v->source_root);
	if (r->nfail)
		fprintf(f, "FAIL: %zu finding%s the baseline does not allow%s", r->nfail,
			r->nfail == 1 ? "" : "s", r->nhint ? "" : "\n");
	else
		fprintf(f, "OK: nothing new (%zu allowed call site%s seen)%s", r->nallowed,
			r->nallowed == 1 ? "" : "s", r->nhint ? "" : "\n");
	if (r->nhint)
		fprintf(f, ", %zu hint%s\n", r->nhint, r->nhint == 1 ? "" : "s");
	/* sanitized, not escaped: the command's quoting stays as it is */
	if (r->nfail && v->update_cmd && *v->update_cmd)
		fprintf(f, "  if this is intended: %s, and review the diff\n",
			text_sanitize(v->update_cmd, cmd, sizeof(cmd)));
	return ferror(f) ? -1 : 0;
}

/* ---- verify ------------------------------------------------------------- */

static int text_verify(FILE *f, const struct verify_result *v)
{
	char buf[1024], nb[CAP_NAME_LEN], esc[4200];
	size_t i;

	fputs("capaudit verify:", f);
	for (i = 0; v->cmd[i]; i++)
		fprintf(f, " %s", text_escape(v->cmd[i], esc, sizeof(esc)));
	fprintf(f, "\n  as: %s\n", v->user ? text_escape(v->user, esc, sizeof(esc)) : "root");
	if (v->check)
		fprintf(f, "  success: exit status 0 and sh -c %s\n", text_escape(v->check, esc, sizeof(esc)));
	fprintf(f, "  runs: %d (at most %d; each stopped after %g s)\n", v->runs, v->max_runs,
		v->timeout);
	if (v->leftovers)
		fprintf(f, "  left behind: %zu process%s (first: %s), stopped before the next "
			"run\n", v->leftovers, v->leftovers == 1 ? "" : "es", v->leftover_example);
	if (v->no_box)
		fprintf(f, "  runs had no cgroup of their own (%s)\n", v->no_box_why);
	if (v->interrupted) {
		fprintf(f, "\nInterrupted by %s: no verdict.\n", sig_name(v->interrupted));
		for (i = 0; i < v->nmembers; i++)
			fprintf(f, "  so far: %s %s\n", cap_name(v->members[i].cap, nb),
				v->members[i].kept ? "needed" : "not needed");
		return ferror(f) ? -1 : 0;
	}
	if (!v->proven) {
		fprintf(f, "\nNo set proven: %s\n", v->failure);
		return ferror(f) ? -1 : 0;
	}
	fprintf(f, "\nProven set: %s\n", v->set ? capset_str(v->set, buf, sizeof(buf)) :
	       "none (the command needs no capability)");
	if (v->set)
		fputs("  (the command succeeded with exactly this set, and failed without each of:)\n", f);
	for (i = 0; i < v->nmembers; i++) {
		const struct verify_member *m = &v->members[i];

		if (!m->kept)
			continue;
		fprintf(f, "  %s: without it, exit status %d", cap_name(m->cap, nb), m->exit_status);
		if (v->check)
			fprintf(f, ", check %d", m->check_status);
		if (m->exec_refused)
			fputs("; the kernel refused to execute it (its file capabilities need it)",
			      f);
		else if (m->timed_out)
			fprintf(f, "; it did not end within %g s (--timeout)", v->timeout);
		else if (m->deny_cap >= 0)
			fprintf(f, "; denied %s at %s", cap_name(m->deny_cap, nb),
			       text_escape(m->deny_func, esc, sizeof(esc)));
		else if (m->asked)
			fputs("; refused in user space: no capability check failed (but those runs "
			      "that succeeded saw too); it asked capset() to keep it", f);
		else
			fputs("; refused in user space: no capability check failed (but those runs "
			      "that succeeded saw too); a privileged recording cannot see such a "
			      "need, only this run shows it", f);
		fputc('\n', f);
		if (m->narrower_failed)
			fprintf(f, "    %s instead did not work: only the broader %s does\n",
				capset_str(m->narrower_failed, buf, sizeof(buf)), cap_name(m->cap, nb));
		if (m->broader_refused)
			fprintf(f, "    (its absence also showed %s denied: not narrower, so never "
				"tried in its place)\n", capset_str(m->broader_refused, buf,
								     sizeof(buf)));
	}
	for (i = 0; i < v->nmembers; i++) {
		const struct verify_member *m = &v->members[i];

		if (m->kept)
			continue;
		if (m->replaced_by_set)
			fprintf(f, "  %s replaced by the narrower %s: the command succeeded with %s "
				"instead\n", cap_name(m->cap, nb),
				capset_str(m->replaced_by_set, buf, sizeof(buf)),
				__builtin_popcountll(m->replaced_by_set) == 1 ? "it" : "them");
		else
			fprintf(f, "  %s dropped: the command succeeded without it\n", cap_name(m->cap, nb));
	}
	if (v->have_suggested && v->suggested != v->set) {
		fprintf(f, "\nThe recording suggested %s", v->suggested ?
		       capset_str(v->suggested, buf, sizeof(buf)) : "no capability");
		fputs(": the runs above corrected it.\n", f);
	}
	for (i = 0; v->sg && i < v->nemit; i++) {
		fprintf(f, "\n# --emit %s\n", v->emit[i]);
		emit_snippet(f, v->emit[i], v->sg);
	}
	return ferror(f) ? -1 : 0;
}


const struct formatter output_text = {
	.name = "text",
	.report = text_report,
	.suggest = text_suggest,
	.doctor = text_doctor,
	.run = text_run,
	.verify = text_verify,
	.check = text_check,
	.diff = diff_text,
};
