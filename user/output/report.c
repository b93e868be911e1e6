// SPDX-License-Identifier: GPL-2.0
/* report: the capabilities each program asked for, per record and
 * workload: as text and as json
 * (the formatters output.c makes of them; output/render.h). */
#include "output/render.h"

#include <inttypes.h>
#include <string.h>

#include "analyze/report.h"
#include "analyze/usite.h"
#include "facts/capjson.h"
#include "facts/capnames.h"
#include "facts/syscalls.h"
#include "lib/jsonutil.h"
#include "lib/util.h"
#include "output/words.h"
#include "analyze/objtext.h"

/* ---- text ---------------------------------------------------------------- */

void text_capset(FILE *f, uint64_t mask)
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
void text_header(FILE *f, const struct record *r, const char *source)
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
	char name[CAP_NAME_LEN], esc[512], note[1200], in[40];
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
		snprintf(in, sizeof(in), "%s      ", ind);
		objects_line(f, in, &s->objects);
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
		objects_line(f, "    ", &u->objects);
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
		text_capset(f, b->required);
		if (b->denied) {
			fputs("  denied: ", f);
			text_capset(f, b->denied);
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

int text_report(FILE *f, const struct report *rep, const char *source)
{
	const struct rec_header *h = &rep->rec->hdr;
	char name[CAP_NAME_LEN];
	char lostbuf[600];
	uint64_t lost = rec_lost_describe(&h->lost, lostbuf, sizeof(lostbuf));
	struct terms t = { 0 };
	size_t i;

	text_header(f, rep->rec, source);
	if (rep->only) {
		fputs("  only checks of (--cap): ", f);
		text_capset(f, rep->only);
	}
	if (rep->by == BY_PROCESS)
		print_images(f, rep, &t);
	else
		print_workloads(f, rep, &t);
	if (rep->by_user_site)
		print_urows(f, rep);
	fputs("\nRequired (granted in audited checks): ", f);
	text_capset(f, rep->required);
	fputs("Denied in audited checks: ", f);
	text_capset(f, rep->denied);
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

/* ---- json ---------------------------------------------------------------- */

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

json_t *json_header(const struct record *r, const char *source)
{
	return identity_json(&r->hdr, &r->input, source);
}

/* A merged record's inputs, each as its own "record" object would be,
 * with what differs from one file to the next besides (NULL: not merged). */
json_t *json_inputs(const struct record *r)
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
		json_set_bytes(o, "host", in->hdr.host);
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
		objects_json_set(so, &s->objects);
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
int json_report(FILE *f, const struct report *rep, const char *source)
{
	json_t *head = json_object(), *root = json_object();
	struct json_stream js;
	size_t i;
	int rc;

	json_set(head, "record", json_header(rep->rec, source));
	json_set(head, "inputs", json_inputs(rep->rec));   /* NULL: no key */
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
			objects_json_set(o, &u->objects);
			json_array_append_new(ua, o);
		}
		json_set(root, "user_sites", ua);
	}
	rc = json_stream_close(f, &js, root);
	json_decref(root);
	return rc;
}
