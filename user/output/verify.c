// SPDX-License-Identifier: GPL-2.0
/* verify: the suggestion tried out, run by run: as text and as json
 * (the formatters output.c makes of them; output/render.h). */
#include "output/render.h"

#include <inttypes.h>
#include <string.h>

#include "analyze/views.h"
#include "facts/capjson.h"
#include "facts/capnames.h"
#include "lib/jsonutil.h"
#include "lib/util.h"
#include "analyze/objtext.h"
#include "output/output.h"
#include "output/words.h"

/* The denial that decided a member's verdict, as words.c takes it. */
static const char *kept_words(const struct verify_member *m, char *buf, size_t len)
{
	struct sg_denial d = m->deny;

	d.func = m->deny_func ? m->deny_func : "?";
	d.sysname = m->deny_sysname;
	return counted_denial_words(&d, buf, len);
}

/* What a refusal of a dropped member was, in the run that worked. */
static const char *refusal_words(const struct verify_refusal *x)
{
	if (x->lookup)
		return "a file or path the program asked for and did without";
	if (x->eff == EFF_PROGRAM)
		return "a listing or look-up the program did without";
	if (x->kind == DENY_DONE_WITHOUT)
		return "an operation programs try and fall back from";
	if (x->eff == EFF_VERIFIER)
		return "the BPF verifier accepted the program under its stricter rules";
	if (x->kind == DENY_BLOCKING)
		return "refused, and the check says the command did its job";
	if (x->kind == DENY_ADVISORY)
		return "the syscall went on, and nothing it changes is known";
	return "what it changed is not known";
}

/* ---- text ---------------------------------------------------------------- */

int text_verify(FILE *f, const struct verify_result *v)
{
	char buf[1024], nb[CAP_NAME_LEN], esc[4200];
	size_t i;

	fputs("capaudit verify:", f);
	for (i = 0; v->cmd[i]; i++)
		fprintf(f, " %s", text_escape(v->cmd[i], esc, sizeof(esc)));
	if (v->service) {
		fprintf(f, "\n  unit: %s", text_escape(v->service, esc, sizeof(esc)));
		if (v->service_name)
			fprintf(f, " (%s)", text_escape(v->service_name, esc, sizeof(esc)));
		fprintf(f, ", as its User=: %s\n", v->service_user ?
			text_escape(v->service_user, esc, sizeof(esc)) : "root");
	} else {
		fprintf(f, "\n  as: %s%s\n", v->user ? text_escape(v->user, esc, sizeof(esc)) :
			"root", v->keep_path ? " (with the caller's PATH)" : "");
	}
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
		if (m->verdict == RV_CHANGED)
			fprintf(f, "; %s", text_escape(kept_words(m, buf, sizeof(buf)), esc,
						       sizeof(esc)));
		else if (m->verdict == RV_REFUSED)
			fprintf(f, "; %s (whether it did its job without, only --check can say)",
				text_escape(kept_words(m, buf, sizeof(buf)), esc, sizeof(esc)));
		else if (m->exec_refused)
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
		objects_line(f, "    ", &m->deny_objects);
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
		else {
			size_t k;

			fprintf(f, "  %s dropped: the command succeeded without it", cap_name(m->cap, nb));
			for (k = 0; k < m->nrefusals; k++)
				fprintf(f, "%s%" PRIu64 "x at %s: %s", k ? "; " : " (refused there ",
					m->refusals[k].count, text_escape(m->refusals[k].func, esc,
									 sizeof(esc)),
					refusal_words(&m->refusals[k]));
			if (m->more_refusals)
				fprintf(f, "; %" PRIu64 "x elsewhere", m->more_refusals);
			fputs(m->nrefusals ? ")\n" : "\n", f);
			for (k = 0; k < m->nrefusals; k++) {
				char in[700];

				snprintf(in, sizeof(in), "    at %s: ",
					 text_escape(m->refusals[k].func, esc, sizeof(esc)));
				objects_line(f, in, &m->refusals[k].objects);
			}
		}
	}
	if (v->restarted)
		fputs("\nThe suggested set failed, and no denied check named what it lacked (a refusal "
		      "the kernel does not log, or a path the program takes only with some "
		      "capabilities): the members were dropped one by one from the set of the first "
		      "run instead.\n", f);
	if (v->have_suggested && v->suggested != v->set) {
		fprintf(f, "\nThe recording suggested %s", v->suggested ?
		       capset_str(v->suggested, buf, sizeof(buf)) : "no capability");
		fputs(": the runs above corrected it.\n", f);
	}
	if (v->service) {
		uint64_t extra = v->service_granted & ~v->set, lacks = v->set & ~v->service_granted;

		fprintf(f, "\nThe unit grants %s", v->service_granted ?
			capset_str(v->service_granted, buf, sizeof(buf)) : "no capability");
		if (extra)
			fprintf(f, ": %s not needed (the command succeeded without %s)",
				capset_str(extra, buf, sizeof(buf)),
				__builtin_popcountll(extra) == 1 ? "it" : "them");
		else if (!lacks)
			fputs(": each is needed", f);
		if (lacks)
			fprintf(f, "%s the proven set needs %s, which it does not grant", extra ?
				";" : ":", capset_str(lacks, buf, sizeof(buf)));
		fputs(".\n", f);
	}
	if (v->emitted_to)
		fprintf(f, "\n--emit %s: written to %s\n", v->emit[0], strcmp(v->emitted_to, "-") ?
			text_escape(v->emitted_to, esc, sizeof(esc)) : "standard output");
	for (i = 0; v->sg && i < v->nemit; i++) {
		fprintf(f, "\n# --emit %s\n", v->emit[i]);
		emit_snippet(f, v->emit[i], v->sg);
	}
	return ferror(f) ? -1 : 0;
}

/* ---- json ---------------------------------------------------------------- */

static json_t *cap_or_null(int cap)
{
	char nb[CAP_NAME_LEN];

	return cap >= 0 ? json_string(cap_name(cap, nb)) : json_null();
}

int json_verify(FILE *f, const struct verify_result *v)
{
	json_t *root = json_object(), *cmd = json_array(), *a;
	char nb[CAP_NAME_LEN];
	size_t i;

	for (i = 0; v->cmd[i]; i++)
		json_array_append_new(cmd, json_bytes(v->cmd[i]));
	json_set(root, "command", cmd);
	json_set(root, "user", v->user ? json_bytes(v->user) : json_null());
	json_set(root, "keep_path", json_boolean(v->keep_path));
	if (v->service) {
		json_t *s = json_object();

		json_set(s, "file", json_bytes(v->service));
		json_set(s, "name", v->service_name ? json_bytes(v->service_name) : json_null());
		json_set(s, "user", v->service_user ? json_bytes(v->service_user) : json_null());
		json_set(s, "granted", json_capset(v->service_granted));
		json_set(s, "not_needed", v->proven ? json_capset(v->service_granted & ~v->set) :
			 json_null());
		json_set(root, "service", s);
	} else {
		json_set(root, "service", json_null());
	}
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
	json_set(root, "restarted_from_first_run", json_boolean(v->restarted));
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
			if (m->verdict == RV_CHANGED || m->verdict == RV_REFUSED) {
				char buf[1200];

				json_set(e, "verdict", json_string(run_verdict_name(m->verdict)));
				json_set(e, "reason", json_string(kept_words(m, buf, sizeof(buf))));
				json_set(e, "effect", json_string(eff_kind_name(m->deny.eff.kind)));
			}
			objects_json_set(e, &m->deny_objects);
			json_set(o, "without_it", e);
		} else if (!m->replaced_by_set) {
			json_t *r = json_array();
			size_t k;

			for (k = 0; k < m->nrefusals; k++) {
				json_t *x = json_object();

				json_set_bytes(x, "callsite", m->refusals[k].func);
				json_set(x, "count", json_uint(m->refusals[k].count));
				json_set(x, "denial", json_string(denial_kind_name(m->refusals[k].kind)));
				json_set(x, "what", json_string(refusal_words(&m->refusals[k])));
				objects_json_set(x, &m->refusals[k].objects);
				json_array_append_new(r, x);
			}
			json_set(o, "refusals_without_it", r);
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
	json_set(root, "emitted_to", v->emitted_to ? json_bytes(v->emitted_to) : json_null());
	return json_write_pretty_free(f, root);
}
