// SPDX-License-Identifier: GPL-2.0
#include "analyze/baseline.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "facts/capnames.h"
#include "recfile/kind.h"
#include "lib/infile.h"
#include "lib/jsonutil.h"
#include "lib/util.h"

struct bl_entry *bl_find(struct bl_entry *list, size_t n, int cap)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i].cap == cap)
			return &list[i];
	return NULL;
}

static size_t site_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;   /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)(h ^ (h >> 29));
}

/* The index slot of func: its site, or the empty slot where it goes. */
static size_t site_slot(const struct bl_entry *e, const char *func)
{
	size_t mask = e->idxcap - 1, i = site_hash(func) & mask;

	while (e->idx[i] && strcmp(e->sites[e->idx[i] - 1].func, func))
		i = (i + 1) & mask;
	return i;
}

/* Rebuild the index, at least twice the sites' number of slots. */
static void site_reindex(struct bl_entry *e, size_t need)
{
	size_t k;

	if (need * 2 > e->idxcap || e->idx_stale) {
		while (need * 2 > e->idxcap)
			e->idxcap = e->idxcap ? e->idxcap * 2 : 16;
		free(e->idx);
		e->idx = xcalloc(e->idxcap, sizeof(*e->idx));
		for (k = 0; k < e->nsites; k++)
			e->idx[site_slot(e, e->sites[k].func)] = (uint32_t)k + 1;
		e->idx_stale = false;
	}
}

struct bl_site *bl_find_site(struct bl_entry *e, const char *func)
{
	size_t i;

	if (!e || !e->nsites)
		return NULL;
	site_reindex(e, e->nsites);
	i = site_slot(e, func);
	return e->idx[i] ? &e->sites[e->idx[i] - 1] : NULL;
}

struct bl_entry *bl_add(struct bl_entry **list, size_t *n, size_t *cap, int capnum)
{
	struct bl_entry *e = bl_find(*list, *n, capnum);

	if (e)
		return e;
	grow_array((void **)list, cap, *n + 1, sizeof(**list));
	e = &(*list)[(*n)++];
	e->cap = capnum;
	return e;
}

struct bl_site *bl_add_site(struct bl_entry *e, const char *func)
{
	struct bl_site *s = bl_find_site(e, func);

	if (s)
		return s;
	site_reindex(e, e->nsites + 1);
	grow_array((void **)&e->sites, &e->capsites, e->nsites + 1, sizeof(*e->sites));
	s = &e->sites[e->nsites++];
	s->func = xstrdup(func);
	e->idx[site_slot(e, func)] = (uint32_t)e->nsites;
	return s;
}

struct bl_site *bl_find_sys(const struct bl_entry *e, const char *name)
{
	size_t i;

	for (i = 0; e && i < e->nsys; i++)
		if (!strcmp(e->sys[i].func, name))
			return &e->sys[i];
	return NULL;
}

struct bl_site *bl_add_sys(struct bl_entry *e, const char *name)
{
	struct bl_site *s = bl_find_sys(e, name);

	e->has_sys = true;
	if (s)
		return s;
	grow_array((void **)&e->sys, &e->capsys, e->nsys + 1, sizeof(*e->sys));
	s = &e->sys[e->nsys++];
	s->func = xstrdup(name);
	s->note = NULL;
	return s;
}

static void free_entries(struct bl_entry *list, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < list[i].nsites; j++) {
			free(list[i].sites[j].func);
			free(list[i].sites[j].note);
		}
		for (j = 0; j < list[i].nsys; j++) {
			free(list[i].sys[j].func);
			free(list[i].sys[j].note);
		}
		free(list[i].sys);
		free(list[i].sites);
		free(list[i].idx);
		free(list[i].note);
	}
	free(list);
}

void baseline_free(struct baseline *b)
{
	free_entries(b->caps, b->ncaps);
	free_entries(b->denied, b->ndenied);
	free(b->note);
	memset(b, 0, sizeof(*b));
}

/* ---- reading ------------------------------------------------------------ */

/* One item of a list of callsites or syscalls: a name, or {field: name,
 * "note": ...}. 0 with *name and *note (NULL: none); -1 with why when the
 * object's fields are wrong; 1 when the item is neither. */
static int read_named(json_t *s, const char *field, const char **name, const char **note,
		      char *why, size_t wlen)
{
	*name = *note = NULL;
	if (json_is_string(s)) {
		*name = json_string_value(s);
		return 0;
	}
	if (!json_is_object(s))
		return 1;
	if (json_get_str(s, field, true, name, why, wlen) ||
	    json_get_str(s, "note", false, note, why, wlen))
		return -1;
	return 0;
}

/* note, when there is one, as the note of bs */
static void set_note(struct bl_site *bs, const char *note)
{
	if (note) {
		free(bs->note);
		bs->note = xstrdup(note);
	}
}

/* An entry's "syscalls" (version 2): names, or {"syscall", "note"}. */
static int read_syscalls(json_t *e, const char *key, size_t i, struct bl_entry *be, char *why,
			 size_t wlen)
{
	json_t *arr = json_object_get(e, "syscalls"), *s;
	size_t j;

	if (!arr)
		return 0;
	if (!json_is_array(arr)) {
		snprintf(why, wlen, "syscalls must be an array");
		return -1;
	}
	be->has_sys = true;
	json_array_foreach(arr, j, s) {
		const char *name, *note;
		int rc = read_named(s, "syscall", &name, &note, why, wlen);

		if (rc < 0)
			return -1;
		if (rc > 0) {
			snprintf(why, wlen, "syscalls[%zu] must be a syscall name or {\"syscall\": ..., "
				 "\"note\": ...}", j);
			return -1;
		}
		if (!*name) {
			snprintf(why, wlen, "syscalls[%zu] is empty", j);
			return -1;
		}
		set_note(bl_add_sys(be, name), note);
	}
	(void)key;
	(void)i;
	return 0;
}

static int read_entries(json_t *arr, const char *key, struct bl_entry **list, size_t *n,
			size_t *cap, char *why, size_t wlen)
{
	json_t *e, *sites, *s;
	size_t i, j;

	if (!arr)
		return 0;
	if (!json_is_array(arr)) {
		snprintf(why, wlen, "'%s' must be an array", key);
		return -1;
	}
	json_array_foreach(arr, i, e) {
		const char *name = NULL, *note = NULL;
		struct bl_entry *be;
		char safe[64];
		int c;

		if (!json_is_object(e)) {
			snprintf(why, wlen, "%s[%zu] must be an object", key, i);
			return -1;
		}
		if (json_get_str(e, "cap", true, &name, why, wlen) ||
		    json_get_str(e, "note", false, &note, why, wlen))
			goto bad;
		c = cap_number(name);
		if (c < 0 || c > 63) {
			snprintf(why, wlen, "%s[%zu]: unknown capability '%s'", key, i,
				 text_escape(name, safe, sizeof(safe)));
			return -1;
		}
		if (bl_find(*list, *n, c)) {
			snprintf(why, wlen, "%s[%zu]: %s is listed twice", key, i,
				 text_escape(name, safe, sizeof(safe)));
			return -1;
		}
		be = bl_add(list, n, cap, c);
		be->note = note ? xstrdup(note) : NULL;
		sites = json_object_get(e, "callsites");
		if (sites && !json_is_array(sites)) {
			snprintf(why, wlen, "%s[%zu].callsites must be an array", key, i);
			return -1;
		}
		json_array_foreach(sites, j, s) {
			const char *fn, *snote;
			int rc = read_named(s, "function", &fn, &snote, why, wlen);

			if (rc < 0)
				goto bad;
			if (rc > 0) {
				snprintf(why, wlen, "%s[%zu].callsites[%zu] must be a function name "
					 "or {\"function\": ..., \"note\": ...}", key, i, j);
				return -1;
			}
			if (!*fn) {
				snprintf(why, wlen, "%s[%zu].callsites[%zu] is empty", key, i, j);
				return -1;
			}
			set_note(bl_add_site(be, fn), snote);
		}
		if (read_syscalls(e, key, i, be, why, wlen))
			goto bad;
	}
	return 0;
bad:
	{
		char tmp[256];

		snprintf(tmp, sizeof(tmp), "%s[%zu]: %s", key, i, why);
		snprintf(why, wlen, "%s", tmp);
	}
	return -1;
}

int baseline_load(const char *path, struct baseline *b, bool *missing, char *err, size_t n)
{
	FILE *f;
	int rc;

	memset(b, 0, sizeof(*b));
	*missing = false;
	f = infile_open(path, err, n);
	if (!f) {
		*missing = errno == ENOENT;
		return -1;
	}
	rc = baseline_read(f, infile_name(path), b, err, n);
	infile_close(f);
	return rc;
}

int baseline_read(FILE *f, const char *path, struct baseline *b, char *err, size_t n)
{
	json_error_t jerr;
	json_t *root;
	FILE *in;
	const char *format = NULL, *note = NULL;
	int64_t version = 0;
	char why[512] = "";
	const char *k;
	json_t *v;

	memset(b, 0, sizeof(*b));
	/* a record, events or a gzip file named as such, not as bad JSON */
	in = input_expect(f, path, INPUT_BASELINE, err, n);
	if (!in)
		return -1;
	/* JSON_DISABLE_EOF_CHECK off: anything after the object is an error */
	root = json_loadf(in, JSON_REJECT_DUPLICATES, &jerr);
	fclose(in);
	if (!root) {
		char safe[300];

		text_escape(jerr.text, safe, sizeof(safe));
		if (jerr.line > 0)
			snprintf(err, n, "%s:%d:%d: invalid JSON: %s", path, jerr.line, jerr.column,
				 safe);
		else
			snprintf(err, n, "%s: %s", path, safe);
		return -1;
	}
	if (!json_is_object(root)) {
		snprintf(why, sizeof(why), "a baseline is a JSON object");
		goto bad;
	}
	if (json_get_str(root, "format", true, &format, why, sizeof(why)))
		goto bad;
	if (strcmp(format, BASELINE_FORMAT)) {
		snprintf(why, sizeof(why), "format is '%.40s', not '%s'", format, BASELINE_FORMAT);
		goto bad;
	}
	if (json_get_i64(root, "version", true, 1, INT32_MAX, &version, why, sizeof(why)))
		goto bad;
	if (version > BASELINE_VERSION) {
		snprintf(why, sizeof(why), "baseline version %lld is newer than this capaudit reads "
			 "(%d)", (long long)version, BASELINE_VERSION);
		goto bad;
	}
	json_object_foreach(root, k, v) {
		if (strcmp(k, "format") && strcmp(k, "version") && strcmp(k, "note") &&
		    strcmp(k, "capabilities") && strcmp(k, "denied")) {
			char safe[64];

			snprintf(why, sizeof(why), "unknown field '%s' (format, version, note, "
				 "capabilities, denied)", text_escape(k, safe, sizeof(safe)));
			goto bad;
		}
	}
	if (json_get_str(root, "note", false, &note, why, sizeof(why)))
		goto bad;
	b->note = note ? xstrdup(note) : NULL;
	if (read_entries(json_object_get(root, "capabilities"), "capabilities", &b->caps,
			 &b->ncaps, &b->capcaps, why, sizeof(why)) ||
	    read_entries(json_object_get(root, "denied"), "denied", &b->denied, &b->ndenied,
			 &b->capdenied, why, sizeof(why)))
		goto bad;
	json_decref(root);
	return 0;
bad:
	{
		char safe[600];

		snprintf(err, n, "%s: %s", path, text_escape(why, safe, sizeof(safe)));
	}
	json_decref(root);
	baseline_free(b);
	return -1;
}

/* ---- writing ------------------------------------------------------------ */

static int cmp_entry(const void *a, const void *b)
{
	return ((const struct bl_entry *)a)->cap - ((const struct bl_entry *)b)->cap;
}

static int cmp_site(const void *a, const void *b)
{
	return strcmp(((const struct bl_site *)a)->func, ((const struct bl_site *)b)->func);
}

/* Names with their notes: "name", or {key: name, "note": note}. */
static json_t *names_json(struct bl_site *v, size_t n, const char *key)
{
	json_t *a = json_array();
	size_t j;

	sort_array(v, n, sizeof(*v), cmp_site);
	for (j = 0; j < n; j++) {
		if (v[j].note) {
			json_t *so = json_object();

			json_set_bytes(so, key, v[j].func);
			json_set_bytes(so, "note", v[j].note);
			json_array_append_new(a, so);
		} else {
			json_array_append_new(a, json_bytes(v[j].func));
		}
	}
	return a;
}

static json_t *entries_json(struct bl_entry *list, size_t n)
{
	json_t *a = json_array();
	char name[CAP_NAME_LEN];
	size_t i;

	sort_array(list, n, sizeof(*list), cmp_entry);
	for (i = 0; i < n; i++) {
		json_t *o = json_object();

		json_set(o, "cap", json_string(cap_name(list[i].cap, name)));
		json_set_bytes(o, "note", list[i].note);
		if (list[i].has_sys)
			json_set(o, "syscalls", names_json(list[i].sys, list[i].nsys, "syscall"));
		json_set(o, "callsites", names_json(list[i].sites, list[i].nsites, "function"));
		list[i].idx_stale = true;   /* sorted */
		json_array_append_new(a, o);
	}
	return a;
}

int baseline_write(FILE *f, const struct baseline *cb)
{
	struct baseline *b = (struct baseline *)cb;   /* sorted in place */
	json_t *root = json_object();

	json_set(root, "format", json_string(BASELINE_FORMAT));
	json_set(root, "version", json_integer(BASELINE_VERSION));
	json_set_bytes(root, "note", b->note);
	json_set(root, "capabilities", entries_json(b->caps, b->ncaps));
	json_set(root, "denied", entries_json(b->denied, b->ndenied));
	return json_write_pretty_free(f, root);
}
