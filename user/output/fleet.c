// SPDX-License-Identifier: GPL-2.0
/* report --fleet in text and JSON: one entry per program build (fleet.h). */
#include <stdio.h>
#include <string.h>

#include "analyze/fleet.h"
#include "facts/capjson.h"
#include "facts/capnames.h"
#include "lib/jsonutil.h"
#include "lib/util.h"
#include "output/render.h"

/* ---- text --------------------------------------------------------------- */

static const char *iso(int64_t ns, char *buf, size_t len)
{
	format_iso8601(ns, buf, len);
	return buf;
}

static const char *safe(const char *s, char *buf, size_t len)
{
	return text_sanitize(s, buf, len);
}

/* "hostA (a2.jsonl)": a host and the record that says so */
static void text_where(FILE *f, const struct fleet *v, size_t host, size_t file)
{
	char h[1024], fl[1024];

	fprintf(f, "%s (%s)", safe(v->hosts[host], h, sizeof(h)),
		safe(v->files[file], fl, sizeof(fl)));
}

static void text_ident(FILE *f, const struct fleet *v, const struct fleet_ident *id)
{
	char a[40], b[40], buf[2048], names[CAPSET_STR_LEN];
	size_t i;

	if (*id->exe)
		fprintf(f, "\n%s", safe(id->exe, buf, sizeof(buf)));
	else   /* the monitor saw it start before it could read its file */
		fprintf(f, "\n%s (executable not known)", safe(id->comm, buf, sizeof(buf)));
	fprintf(f, "  build %s\n", *id->build_id ? safe(id->build_id, buf, sizeof(buf)) :
		"not known");
	if (id->nbuilds > 1)
		fprintf(f, "  note: same path, %zu different builds: each is its own entry "
			"(a build id names the file's contents)\n", id->nbuilds);
	fprintf(f, "  ran on %zu host%s (", id->nhosts, id->nhosts == 1 ? "" : "s");
	for (i = 0; i < id->nhosts && i < 8; i++)
		fprintf(f, "%s%s", i ? ", " : "", safe(v->hosts[id->host_list[i]], buf, sizeof(buf)));
	if (id->nhosts > 8)
		fprintf(f, ", and %zu more", id->nhosts - 8);
	fprintf(f, "), in %llu process%s, seen in %zu record%s\n", (unsigned long long)id->pids,
		id->pids == 1 ? "" : "es", id->nfiles, id->nfiles == 1 ? "" : "s");
	fprintf(f, "  first seen %s, last seen %s\n", iso(id->first_ns, a, sizeof(a)),
		iso(id->last_ns, b, sizeof(b)));
	fprintf(f, "  required: %s\n",
		id->required ? capset_str(id->required, names, sizeof(names)) : "none");
	for (i = 0; i < id->nrepl; i++) {
		char r[CAP_NAME_LEN], w[CAP_NAME_LEN];

		fprintf(f, "  narrower: its uses of %s need only %s\n", cap_name(id->repl[i].replace, r),
			cap_name(id->repl[i].with, w));
	}
	if (!id->nchanges) {
		fprintf(f, "  stable since %s: unchanged since its first record, ",
			iso(id->stable_ns, a, sizeof(a)));
		text_where(f, v, id->stable_host, id->stable_file);
		fputc('\n', f);
		return;
	}
	fprintf(f, "  stable since %s, when ", iso(id->stable_ns, a, sizeof(a)));
	text_where(f, v, id->stable_host, id->stable_file);
	fprintf(f, " first showed %s\n",
		capset_str(id->changes[id->nchanges - 1].added, names, sizeof(names)));
	for (i = 0; i < id->nchanges; i++) {
		const struct fleet_change *c = &id->changes[i];

		fprintf(f, "  changed %s: ", iso(c->at_ns, a, sizeof(a)));
		text_where(f, v, c->host, c->file);
		fprintf(f, " added %s\n", capset_str(c->added, names, sizeof(names)));
	}
}

int text_fleet(FILE *f, const struct fleet *v, const char *source)
{
	char a[40], b[40];
	size_t i, named = 0;

	for (i = 0; i < v->nhosts; i++)
		named += v->host_from_file[i];
	fprintf(f, "Fleet: %zu record%s from %zu host%s, %s to %s; %zu program build%s\n",
		v->nfiles, v->nfiles == 1 ? "" : "s", v->nhosts, v->nhosts == 1 ? "" : "s",
		iso(v->first_ns, a, sizeof(a)), iso(v->last_ns, b, sizeof(b)), v->nids,
		v->nids == 1 ? "" : "s");
	if (named)
		fprintf(f, "  %zu record%s name no host (written before records did): named by "
			"file\n", named, named == 1 ? "" : "s");
	fputs("  A program build is an executable and its build id. Its required set is what\n"
	      "  report --suggest grants it, over every host; stable since: the record from\n"
	      "  which that set has not grown (records of a host taken at different times\n"
	      "  are ordered by when each was written).\n", f);
	for (i = 0; i < v->nids; i++)
		text_ident(f, v, &v->ids[i]);
	return ferror(f) ? -1 : 0;
}

/* ---- json --------------------------------------------------------------- */

static json_t *json_time(int64_t ns)
{
	char buf[40];

	format_iso8601(ns, buf, sizeof(buf));
	return json_string(buf);
}

static json_t *ident_json(const struct fleet *v, const struct fleet_ident *id)
{
	json_t *o = json_object(), *hosts = json_array(), *ch = json_array(), *rp = json_array();
	char name[CAP_NAME_LEN];
	size_t i;

	json_set(o, "exe", *id->exe ? json_bytes(id->exe) : json_null());
	json_set(o, "build_id", *id->build_id ? json_bytes(id->build_id) : json_null());
	json_set_bytes(o, "program", id->comm);
	json_set(o, "builds_of_path", json_uint(id->nbuilds));
	json_set(o, "hosts", json_uint(id->nhosts));
	for (i = 0; i < id->nhosts; i++)
		json_array_append_new(hosts, json_bytes(v->hosts[id->host_list[i]]));
	json_set(o, "host_names", hosts);
	json_set(o, "processes", json_uint(id->pids));
	json_set(o, "records", json_uint(id->nfiles));
	json_set(o, "first_seen", json_time(id->first_ns));
	json_set(o, "first_seen_ns", json_integer(id->first_ns));
	json_set(o, "last_seen", json_time(id->last_ns));
	json_set(o, "last_seen_ns", json_integer(id->last_ns));
	json_set(o, "required", json_capset(id->required));
	for (i = 0; i < id->nrepl; i++) {
		json_t *r = json_object();

		json_set(r, "replace", json_string(cap_name(id->repl[i].replace, name)));
		json_set(r, "with", json_string(cap_name(id->repl[i].with, name)));
		json_array_append_new(rp, r);
	}
	json_set(o, "replacements", rp);
	json_set(o, "stable_since", json_time(id->stable_ns));
	json_set(o, "stable_since_ns", json_integer(id->stable_ns));
	json_set(o, "stable_host", json_bytes(v->hosts[id->stable_host]));
	json_set(o, "stable_file", json_bytes(v->files[id->stable_file]));
	for (i = 0; i < id->nchanges; i++) {
		const struct fleet_change *c = &id->changes[i];
		json_t *e = json_object();

		json_set(e, "at", json_time(c->at_ns));
		json_set(e, "at_ns", json_integer(c->at_ns));
		json_set(e, "host", json_bytes(v->hosts[c->host]));
		json_set(e, "file", json_bytes(v->files[c->file]));
		json_set(e, "added", json_capset(c->added));
		json_array_append_new(ch, e);
	}
	json_set(o, "changes", ch);
	return o;
}

/* The builds are written one by one (json_stream_*): a fleet has thousands. */
int json_fleet(FILE *f, const struct fleet *v, const char *source)
{
	json_t *head = json_object(), *fl = json_object(), *hosts = json_array(), *tail;
	struct json_stream js;
	size_t i;
	int rc;

	json_set_bytes(fl, "source", source);
	json_set(fl, "records", json_uint(v->nfiles));
	for (i = 0; i < v->nhosts; i++) {
		json_t *h = json_object();

		json_set(h, "name", json_bytes(v->hosts[i]));
		json_set(h, "named_by_file", json_boolean(v->host_from_file[i]));
		json_array_append_new(hosts, h);
	}
	json_set(fl, "hosts", hosts);
	json_set(fl, "first", json_time(v->first_ns));
	json_set(fl, "last", json_time(v->last_ns));
	json_set(head, "fleet", fl);
	json_stream_open(f, &js, head, "builds");
	json_decref(head);
	for (i = 0; i < v->nids; i++)
		json_stream_item(f, &js, ident_json(v, &v->ids[i]));
	tail = json_object();
	rc = json_stream_close(f, &js, tail);
	json_decref(tail);
	return rc;
}
