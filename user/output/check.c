// SPDX-License-Identifier: GPL-2.0
/* check: the findings against a baseline: as text and as json
 * (the formatters output.c makes of them; output/render.h). */
#include "output/render.h"

#include "analyze/check.h"
#include "analyze/usite.h"
#include "facts/capnames.h"
#include "lib/jsonutil.h"
#include "lib/util.h"
#include "analyze/objtext.h"

/* ---- text ---------------------------------------------------------------- */

/* One line per finding: a stable, diffable form (no counts); under it
 * the program's line (--user-stacks) and, the first time a capability
 * is named (explained: one bit a capability), what it lets a program do. */
static void print_finding(FILE *f, const struct finding *x, const char *root,
			  uint64_t *explained)
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
			denial_kind_words(x->dkind));
	if (x->note)
		fprintf(f, "  -- note: %s", ESC(x->note, esc));
	if (!x->fails && x->kind >= FK_UNUSED_CAP)
		fputs("  (hint)", f);
	fputc('\n', f);
	objects_line(f, "      ", &x->objects);
	if (x->usrc) {
		fprintf(f, "      asked for at %s", ESC(usite_relative(x->usrc, root), esc));
		fprintf(f, ":%d%s%s%s\n", x->uline, x->ufunc ? " (" : "", x->ufunc ? ESC(x->ufunc, esc) : "",
			x->ufunc ? ")" : "");
	}
	if (cap_words(x->cap) && !capset_has(*explained, x->cap)) {
		fprintf(f, "      %s lets a program %s\n", n, cap_words(x->cap));
		*explained |= CAP_BIT(x->cap);
	}
}

int text_check(FILE *f, const struct check_view *v)
{
	const struct check_result *r = v->r;
	char esc[4200], cmd[16400];
	uint64_t explained = 0;
	size_t i;

	fprintf(f, "capaudit check: %zu record%s against %s (--match %s)\n", v->nrecords,
		v->nrecords == 1 ? "" : "s", ESC(v->baseline, esc), check_match_name(r->match));
	for (i = 0; i < r->n; i++)
		print_finding(f, &r->f[i], v->source_root, &explained);
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
		fprintf(f, "  if this is intended, accept it (then review the diff and commit it): %s\n",
			text_sanitize(v->update_cmd, cmd, sizeof(cmd)));
	return ferror(f) ? -1 : 0;
}

/* ---- json ---------------------------------------------------------------- */

int json_check(FILE *f, const struct check_view *v)
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
		objects_json_set(o, &x->objects);
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
