// SPDX-License-Identifier: GPL-2.0
/* capaudit diff in text and JSON (the formatters' .diff; output/diff.h). */
#include "output/diff.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "analyze/diff.h"
#include "facts/capjson.h"
#include "facts/capnames.h"
#include "lib/jsonutil.h"
#include "lib/util.h"
#include "analyze/objtext.h"


/* ---- text ------------------------------------------------------------------ */

/* "  old a.jsonl: kernel 6.1.0, attach fexit, scope command, 2 programs" */
static void text_side(FILE *f, const char *which, const char *name, const struct record *r,
		      size_t nprogs)
{
	char esc[4200], k[300], a[300], sc[300];

	fprintf(f, "  %s %s: kernel %s, attach %s, scope %s, %zu %s\n", which, ESC(name, esc),
		ESC(r->hdr.kernel, k), r->hdr.attach ? ESC(r->hdr.attach, a) : "?",
		r->hdr.scope ? ESC(r->hdr.scope, sc) : "?", nprogs,
		plural(nprogs, "program", "programs"));
}

/* "CAP_SYS_ADMIN", "CAP_SYS_ADMIN noaudit", "CAP_SYS_ADMIN [userns inside]" */
static const char *cap_label(const struct diff_item *it, char *buf, size_t len)
{
	char n[CAP_NAME_LEN];

	snprintf(buf, len, "%s%s%s%s%s", cap_name(it->cap, n), it->noaudit ? " noaudit" : "",
		 it->userns != RU_HOST ? " [userns " : "",
		 it->userns != RU_HOST ? userns_name(it->userns) : "",
		 it->userns != RU_HOST ? "]" : "");
	return buf;
}

/* Whether a call site or denial item of it->cap follows it in the
 * program's items (to end) with the same change: its objects are said
 * there, where the report says them, not on every line above it too. */
static bool site_follows(const struct diff_item *it, const struct diff_item *end)
{
	const struct diff_item *x;

	for (x = it + 1; x < end && x->cap == it->cap; x++)
		if (x->added == it->added && x->noaudit == it->noaudit &&
		    x->userns == it->userns && (x->kind == DK_CALLSITE || x->kind == DK_DENIAL))
			return true;
	return false;
}

static void text_item(FILE *f, const struct diff_item *it, const struct diff_item *end)
{
	char label[CAP_NAME_LEN + 32], esc[1024];

	fprintf(f, "  %c %-24s ", it->added ? '+' : '-', cap_label(it, label, sizeof(label)));
	switch (it->kind) {
	case DK_CAPABILITY:
		fprintf(f, "checked: granted %" PRIu64 ", denied %" PRIu64 "\n", it->granted,
			it->denied);
		break;
	case DK_SYSCALL:
		fprintf(f, "syscall %s x%" PRIu64 "\n", ESC(it->name, esc), it->checks);
		break;
	case DK_CALLSITE:
		fprintf(f, "call site %s, granted %" PRIu64 "\n", ESC(it->name, esc), it->checks);
		break;
	default:
		fprintf(f, "denied at %s x%" PRIu64 "\n", ESC(it->name, esc), it->checks);
	}
	if (!site_follows(it, end))
		objects_line(f, "      ", &it->objects);
}

/* "CAP_CHOWN -> CAP_CHOWN, CAP_NET_ADMIN (added CAP_NET_ADMIN)" */
static void text_set(FILE *f, const char *what, uint64_t old, uint64_t new)
{
	char a[CAPSET_STR_LEN], b[CAPSET_STR_LEN];

	fprintf(f, "%s: %s", what, capset_str(old, a, sizeof(a)));
	if (old == new) {
		fputs(" (no change)\n", f);
		return;
	}
	fprintf(f, " -> %s (", capset_str(new, b, sizeof(b)));
	if (new & ~old)
		fprintf(f, "added %s%s", capset_str(new & ~old, a, sizeof(a)), old & ~new ? "; " : "");
	if (old & ~new)
		fprintf(f, "removed %s", capset_str(old & ~new, a, sizeof(a)));
	fputs(")\n", f);
}

/* "3 (1 capability, 1 syscall, 1 call site, 0 denials)" */
static void text_counts(FILE *f, size_t total, const size_t *n)
{
	fprintf(f, "%zu (%zu %s, %zu %s, %zu %s, %zu %s)", total,
		n[DK_CAPABILITY], plural(n[DK_CAPABILITY], "capability", "capabilities"),
		n[DK_SYSCALL], plural(n[DK_SYSCALL], "syscall", "syscalls"),
		n[DK_CALLSITE], plural(n[DK_CALLSITE], "call site", "call sites"),
		n[DK_DENIAL], plural(n[DK_DENIAL], "denial", "denials"));
}

int diff_text(FILE *f, const struct diff_view *v)
{
	const struct diff *d = v->d;
	char esc[4200];
	size_t i, j;

	fputs("capaudit diff\n", f);
	text_side(f, "old", v->old_name, v->old, d->old_programs);
	text_side(f, "new", v->new_name, v->new, d->new_programs);
	if (!v->noaudit)
		fputs("  (noaudit checks are not compared; --noaudit compares them)\n", f);
	for (i = 0; i < d->nprogs; i++) {
		const struct diff_program *p = &d->progs[i];

		fprintf(f, "\n%s%s\n", ESC(p->program, esc),
			!p->in_old ? " (only in new)" : !p->in_new ? " (only in old)" : "");
		for (j = p->first; j < p->first + p->nitems; j++)
			text_item(f, &d->items[j], &d->items[p->first + p->nitems]);
	}
	fputc('\n', f);
	text_set(f, "Required (granted in audited checks)", d->old_required, d->new_required);
	text_set(f, "Denied in audited checks", d->old_denied, d->new_denied);
	if (!d->nadded && !d->nremoved) {
		fputs("No change: the same capabilities, syscalls, call sites and denials in every "
		      "program\n", f);
		return ferror(f) ? -1 : 0;
	}
	fputs("Added: ", f);
	text_counts(f, d->nadded, d->added);
	fputs("; removed: ", f);
	text_counts(f, d->nremoved, d->removed);
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}

/* ---- JSON ------------------------------------------------------------------ */

static json_t *side_json(const char *name, const struct record *r, size_t nprogs)
{
	json_t *o = json_object();

	json_set_bytes(o, "file", name);
	json_set_bytes(o, "kernel", r->hdr.kernel);
	json_set_bytes(o, "attach", r->hdr.attach);
	json_set_bytes(o, "scope", r->hdr.scope);
	json_set(o, "programs", json_uint(nprogs));
	return o;
}

static json_t *counts_json(size_t total, const size_t *n)
{
	static const char *const keys[DK_NR] = {
		[DK_CAPABILITY] = "capabilities", [DK_SYSCALL] = "syscalls",
		[DK_CALLSITE] = "callsites", [DK_DENIAL] = "denials",
	};
	json_t *o = json_object();
	size_t k;

	json_set(o, "total", json_uint(total));
	for (k = 0; k < DK_NR; k++)
		json_set(o, keys[k], json_uint(n[k]));
	return o;
}

static json_t *set_json(uint64_t old, uint64_t new)
{
	json_t *o = json_object();

	json_set(o, "old", json_capset(old));
	json_set(o, "new", json_capset(new));
	json_set(o, "added", json_capset(new & ~old));
	json_set(o, "removed", json_capset(old & ~new));
	return o;
}

static json_t *item_json(const struct diff_item *it)
{
	json_t *o = json_object();
	char n[CAP_NAME_LEN];

	json_set(o, "change", json_string(it->added ? "added" : "removed"));
	json_set(o, "kind", json_string(diff_kind_name(it->kind)));
	json_set(o, "cap", json_string(cap_name(it->cap, n)));
	json_set(o, "number", json_integer(it->cap));
	json_set(o, "noaudit", json_boolean(it->noaudit));
	json_set(o, "userns", json_string(userns_name(it->userns)));
	if (it->kind == DK_SYSCALL)
		json_set_bytes(o, "syscall", it->name);
	else if (it->kind != DK_CAPABILITY)
		json_set_bytes(o, "callsite", it->name);
	json_set(o, "checks", json_uint(it->checks));
	if (it->kind == DK_CAPABILITY) {
		json_set(o, "granted", json_uint(it->granted));
		json_set(o, "denied", json_uint(it->denied));
	}
	objects_json_set(o, &it->objects);
	return o;
}

int diff_json(FILE *f, const struct diff_view *v)
{
	const struct diff *d = v->d;
	json_t *root = json_object(), *progs = json_array();
	size_t i, j;

	json_set(root, "old", side_json(v->old_name, v->old, d->old_programs));
	json_set(root, "new", side_json(v->new_name, v->new, d->new_programs));
	json_set(root, "noaudit", json_boolean(v->noaudit));
	json_set(root, "result", json_string(d->nadded ? "added" : d->nremoved ? "removed" :
					      "same"));
	json_set(root, "added", counts_json(d->nadded, d->added));
	json_set(root, "removed", counts_json(d->nremoved, d->removed));
	json_set(root, "required", set_json(d->old_required, d->new_required));
	json_set(root, "denied", set_json(d->old_denied, d->new_denied));
	for (i = 0; i < d->nprogs; i++) {
		const struct diff_program *p = &d->progs[i];
		json_t *po = json_object(), *ch = json_array();

		json_set_bytes(po, "program", p->program);
		json_set(po, "in_old", json_boolean(p->in_old));
		json_set(po, "in_new", json_boolean(p->in_new));
		json_set(po, "added", json_uint(p->nadded));
		json_set(po, "removed", json_uint(p->nremoved));
		for (j = p->first; j < p->first + p->nitems; j++)
			json_array_append_new(ch, item_json(&d->items[j]));
		json_set(po, "changes", ch);
		json_array_append_new(progs, po);
	}
	json_set(root, "programs", progs);
	return json_write_pretty_free(f, root);
}
