// SPDX-License-Identifier: GPL-2.0
/*
 * check --update on the baseline's own text: what stays keeps its bytes
 * (its place, its layout, its notes), what goes is cut out with the
 * separator before it, what comes is added where it sorts (at the end of
 * a list that is not sorted), laid out as its neighbours are. The result
 * is read back and compared with what it must allow by the caller
 * (baseline_same()); a text this editor cannot follow gives NULL, and the
 * caller writes the baseline whole.
 *
 * The text has been read by baseline_read() already: it is valid JSON, an
 * object with the baseline's members. The scanner below only finds where
 * each value begins and ends.
 */
#include "analyze/baseline.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "facts/capnames.h"
#include "lib/jsonutil.h"
#include "lib/util.h"

struct span {
	size_t a, b;   /* [a, b) */
};

/* A container's old parts: an array's elements, or an object's members
 * (key to the end of the value, with the key's and the value's spans). */
struct elems {
	struct span whole;       /* from [ or { to ] or } inclusive */
	struct span *el, *key, *val;
	size_t n, cap;
};

struct text {
	const char *t;
	size_t len;
};

/* ---- scanning ------------------------------------------------------------ */

static size_t ws(const struct text *x, size_t p)
{
	while (p < x->len && strchr(" \t\n\r", x->t[p]) && x->t[p])
		p++;
	return p;
}

/* The end of the string at p (after its closing quote), or 0. */
static size_t scan_string(const struct text *x, size_t p)
{
	if (p >= x->len || x->t[p] != '"')
		return 0;
	for (p++; p < x->len; p++) {
		if (x->t[p] == '\\')
			p++;
		else if (x->t[p] == '"')
			return p + 1;
	}
	return 0;
}

static size_t scan_value(const struct text *x, size_t p, int depth);

/* The end of the container at p, its parts into e (NULL: not kept). */
static size_t scan_container(const struct text *x, size_t p, int depth, struct elems *e)
{
	char close = x->t[p] == '{' ? '}' : ']';
	bool object = close == '}';
	size_t start = p;

	if (depth > 4096)
		return 0;
	p = ws(x, p + 1);
	if (p < x->len && x->t[p] == close)
		goto done;
	for (;;) {
		struct span k = { 0, 0 }, v;

		if (object) {
			k.a = p;
			k.b = scan_string(x, p);
			if (!k.b)
				return 0;
			p = ws(x, k.b);
			if (p >= x->len || x->t[p] != ':')
				return 0;
			p = ws(x, p + 1);
		}
		v.a = p;
		v.b = scan_value(x, p, depth + 1);
		if (!v.b)
			return 0;
		if (e) {
			grow_array((void **)&e->el, &e->cap, e->n + 1, sizeof(*e->el));
			e->key = xrealloc(e->key, e->cap * sizeof(*e->key));
			e->val = xrealloc(e->val, e->cap * sizeof(*e->val));
			e->el[e->n] = (struct span){ object ? k.a : v.a, v.b };
			e->key[e->n] = k;
			e->val[e->n++] = v;
		}
		p = ws(x, v.b);
		if (p < x->len && x->t[p] == ',') {
			p = ws(x, p + 1);
			continue;
		}
		if (p < x->len && x->t[p] == close)
			break;
		return 0;
	}
done:
	if (e)
		e->whole = (struct span){ start, p + 1 };
	return p + 1;
}

static size_t scan_value(const struct text *x, size_t p, int depth)
{
	if (p >= x->len)
		return 0;
	if (x->t[p] == '"')
		return scan_string(x, p);
	if (x->t[p] == '{' || x->t[p] == '[')
		return scan_container(x, p, depth, NULL);
	while (p < x->len && strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.",
				    x->t[p]) && x->t[p])
		p++;
	return p;
}

static void elems_free(struct elems *e)
{
	free(e->el);
	free(e->key);
	free(e->val);
	memset(e, 0, sizeof(*e));
}

/* The string at s decoded (malloc'd), or NULL. */
static char *decode(const struct text *x, struct span s)
{
	json_error_t err;
	json_t *v;
	char *out;

	if (s.b - s.a < 2 || x->t[s.a] != '"')
		return NULL;
	if (!memchr(x->t + s.a + 1, '\\', s.b - s.a - 2)) {
		out = xcalloc(s.b - s.a - 1, 1);
		memcpy(out, x->t + s.a + 1, s.b - s.a - 2);
		return out;
	}
	v = json_loadb(x->t + s.a, s.b - s.a, JSON_DECODE_ANY, &err);
	out = json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
	json_decref(v);
	return out;
}

/* Whether member i of e is named key (written with escapes, or not). */
static bool key_is(const struct text *x, const struct elems *e, size_t i, const char *key)
{
	struct span k = e->key[i];
	size_t l = strlen(key);
	char *name;
	bool is;

	if (!memchr(x->t + k.a, '\\', k.b - k.a))
		return k.b - k.a == l + 2 && !memcmp(x->t + k.a + 1, key, l);
	name = decode(x, k);
	is = name && !strcmp(name, key);
	free(name);
	return is;
}

/* The member of e named key, or -1. */
static long member(const struct text *x, const struct elems *e, const char *key)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		if (key_is(x, e, i, key))
			return (long)i;
	return -1;
}

/* ---- output -------------------------------------------------------------- */

struct sbuf {
	char *p;
	size_t n, cap;
};

static void put(struct sbuf *o, const char *s, size_t n)
{
	if (o->n + n + 1 > o->cap) {
		o->cap = (o->n + n + 1) * 2;
		o->p = xrealloc(o->p, o->cap);
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
	o->p[o->n] = '\0';
}

static void puts_(struct sbuf *o, const char *s)
{
	put(o, s, strlen(s));
}

static void put_span(struct sbuf *o, const struct text *x, struct span s)
{
	put(o, x->t + s.a, s.b - s.a);
}

/* How a container's elements are laid out: on lines of their own (each
 * indented by indent), or on one line. */
struct layout {
	bool lines;
	char indent[256];   /* of an element */
	char unit[64];      /* one level more */
};

/* The whitespace after the last newline of s[0..n), or "" (none: no line). */
static bool after_newline(const char *s, size_t n, char *buf, size_t len)
{
	const char *nl = NULL;
	size_t i, l;

	for (i = 0; i < n; i++)
		if (s[i] == '\n')
			nl = s + i;
	buf[0] = '\0';
	if (!nl)
		return false;
	l = (size_t)(s + n - nl - 1);
	if (l >= len)
		l = len - 1;
	memcpy(buf, nl + 1, l);
	buf[l] = '\0';
	return true;
}

/* The indentation of the line that holds p. */
static void line_indent(const struct text *x, size_t p, char *buf, size_t len)
{
	size_t s = p, e;

	while (s > 0 && x->t[s - 1] != '\n')
		s--;
	for (e = s; e < p && (x->t[e] == ' ' || x->t[e] == '\t'); e++)
		;
	if (e - s >= len)
		e = s + len - 1;
	memcpy(buf, x->t + s, e - s);
	buf[e - s] = '\0';
}

/* A new value v (taken) as text at lay, for a list laid out so: on one
 * line, or on lines indented as its neighbours. Pure printable ASCII, as
 * the baseline writer writes. */
static void put_new(struct sbuf *o, json_t *v, const struct layout *lay)
{
	char *s = json_dumps(v, (lay->lines ? JSON_INDENT(1) : JSON_INDENT(0)) |
			     JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
	const char *p;

	json_decref(v);
	if (!s)
		return;
	for (p = s; *p; p++) {
		if (*p == '\n') {
			size_t d = 0;

			puts_(o, "\n");
			puts_(o, lay->indent);
			while (p[1] == ' ') {
				p++;
				d++;
			}
			while (d--)
				puts_(o, lay->unit);
		} else if (*p == 0x7f) {
			puts_(o, "\\u007f");
		} else {
			put(o, p, 1);
		}
	}
	free(s);
}

/* One part of a container as it is written: an old element (its index)
 * with its text, or a new one. */
struct part {
	long old;          /* index in the old container, -1: new */
	struct sbuf s;     /* its text */
};

/*
 * The container e (or, e NULL or empty, a new one laid out by lay) with
 * parts: the old elements' separators where they have one, the first
 * one's leading and the last one's trailing whitespace, and between new
 * neighbours the container's own separator.
 */
static void put_container(struct sbuf *o, const struct text *x, const struct elems *e,
			  bool object, struct part *parts, size_t np, const struct layout *lay)
{
	char sep[300];
	struct span lead = { 0, 0 }, trail = { 0, 0 };
	bool old = e && e->n;
	size_t i;

	puts_(o, object ? "{" : "[");
	if (!np) {
		puts_(o, object ? "}" : "]");
		return;
	}
	if (old) {
		lead = (struct span){ e->whole.a + 1, e->el[0].a };
		trail = (struct span){ e->el[e->n - 1].b, e->whole.b - 1 };
	}
	/* the separator of a new element, or of an old one now after another */
	if (old && e->n >= 2 && e->el[1].a - e->el[0].b < sizeof(sep))
		snprintf(sep, sizeof(sep), "%.*s", (int)(e->el[1].a - e->el[0].b), x->t + e->el[0].b);
	else if (lay->lines)
		snprintf(sep, sizeof(sep), ",\n%s", lay->indent);
	else
		snprintf(sep, sizeof(sep), ", ");
	for (i = 0; i < np; i++) {
		long k = parts[i].old;

		if (i == 0 && old)
			put_span(o, x, lead);
		else if (i == 0 && lay->lines)
			(puts_(o, "\n"), puts_(o, lay->indent));
		else if (i && k > 0)
			put(o, x->t + e->el[k - 1].b, e->el[k].a - e->el[k - 1].b);
		else if (i)
			puts_(o, sep);
		put(o, parts[i].s.p ? parts[i].s.p : "", parts[i].s.n);
	}
	if (old) {
		put_span(o, x, trail);
	} else if (lay->lines) {
		size_t il = strlen(lay->indent), ul = strlen(lay->unit);

		puts_(o, "\n");
		put(o, lay->indent, il >= ul ? il - ul : 0);
	}
	puts_(o, object ? "}" : "]");
}

static void parts_free(struct part *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(p[i].s.p);
	free(p);
}

/* How the elements of container e are laid out: as its old ones are, else
 * (empty, or new) a level below its parent's (parent: the layout of the
 * container e is an element or member of). */
static void layout_of(const struct text *x, const struct elems *e, const struct layout *parent,
		      struct layout *lay)
{
	memset(lay, 0, sizeof(*lay));
	snprintf(lay->unit, sizeof(lay->unit), "%s", parent->unit);
	if (e && e->n) {
		lay->lines = after_newline(x->t + e->whole.a + 1, e->el[0].a - e->whole.a - 1,
					   lay->indent, sizeof(lay->indent));
		return;
	}
	lay->lines = parent->lines;
	if (!lay->lines)
		return;
	if (e)   /* an empty one: a level below the line it opens on */
		line_indent(x, e->whole.a, lay->indent, sizeof(lay->indent));
	else
		snprintf(lay->indent, sizeof(lay->indent), "%s", parent->indent);
	if (strlen(lay->indent) + strlen(lay->unit) < sizeof(lay->indent))
		strcat(lay->indent, lay->unit);
}

/* ---- the lists of names (syscalls, call sites) ---------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Free what bl_add_site() gave e. */
static void entry_sites_free(struct bl_entry *e)
{
	size_t i;

	for (i = 0; i < e->nsites; i++) {
		free(e->sites[i].func);
		free(e->sites[i].note);
	}
	free(e->sites);
	free(e->idx);
	memset(e, 0, sizeof(*e));
}

/* The name an old list element gives (a string, or an object's key
 * member: "syscall" or "function"), malloc'd; NULL: not one. */
static char *element_name(const struct text *x, struct span s, const char *key)
{
	struct elems m = { 0 };
	char *name = NULL;
	long k;

	if (x->t[s.a] != '{')
		return decode(x, s);
	if (scan_container(x, s.a, 0, &m) && (k = member(x, &m, key)) >= 0)
		name = decode(x, m.val[k]);
	elems_free(&m);
	return name;
}

/* An old name list (e: NULL when the member is missing) edited into
 * want's n names: old ones keep their text (and so their notes), new ones
 * (none has a note) go where they sort, or last in a list that is not
 * sorted. key: "syscall" or "function". */
static int put_names(struct sbuf *o, const struct text *x, const struct elems *e,
		     const struct bl_site *want, size_t n, const char *key,
		     const struct layout *parent)
{
	struct bl_entry seen = { 0 }, wanted = { 0 };
	size_t i, j, np = 0, nf = 0, nold = e ? e->n : 0;
	struct part *parts = xcalloc(n + nold + 1, sizeof(*parts));
	char **names = xcalloc(nold + 1, sizeof(*names));
	const char **fresh = xcalloc(n + 1, sizeof(*fresh));
	bool *written = xcalloc(n + 1, sizeof(*written)), sorted = true;
	struct layout lay;
	int rc = 0;

	layout_of(x, e, parent, &lay);
	for (i = 0; i < n; i++)
		bl_add_site(&wanted, want[i].func);
	for (i = 0; i < nold; i++) {
		names[i] = element_name(x, e->el[i], key);
		if (!names[i]) {
			rc = -1;
			goto out;
		}
		if (i && strcmp(names[i - 1], names[i]) > 0)
			sorted = false;
		bl_add_site(&seen, names[i]);
	}
	for (i = 0; i < n; i++)
		if (!bl_find_site(&seen, want[i].func))
			fresh[nf++] = want[i].func;
	sort_array(fresh, nf, sizeof(*fresh), cmp_str);
	for (i = 0, j = 0; i < nold || j < nf;) {
		if (i < nold && (j >= nf || !sorted || strcmp(names[i], fresh[j]) < 0)) {
			struct bl_site *w = bl_find_site(&wanted, names[i]);

			/* a name the file has twice: the first one stays */
			if (w && !written[w - wanted.sites]) {
				written[w - wanted.sites] = true;
				parts[np].old = (long)i;
				put_span(&parts[np++].s, x, e->el[i]);
			}
			i++;
		} else {
			parts[np].old = -1;
			put_new(&parts[np++].s, json_bytes(fresh[j++]), &lay);
		}
	}
	put_container(o, x, e, false, parts, np, &lay);
out:
	for (i = 0; i < nold; i++)
		free(names[i]);
	free(names);
	free(fresh);
	free(written);
	parts_free(parts, n + nold + 1);
	entry_sites_free(&seen);
	entry_sites_free(&wanted);
	return rc;
}

/* ---- entries -------------------------------------------------------------- */

/* A new entry, as the writer writes one (its lists sorted). */
static json_t *new_entry(const struct bl_entry *w)
{
	json_t *o = json_object(), *sys = json_array(), *sites = json_array();
	char name[CAP_NAME_LEN], **v;
	size_t i;

	json_object_set_new(o, "cap", json_string(cap_name(w->cap, name)));
	v = xcalloc(w->nsys + w->nsites + 1, sizeof(*v));
	for (i = 0; i < w->nsys; i++)
		v[i] = w->sys[i].func;
	sort_array(v, w->nsys, sizeof(*v), cmp_str);
	for (i = 0; i < w->nsys; i++)
		json_array_append_new(sys, json_bytes(v[i]));
	for (i = 0; i < w->nsites; i++)
		v[i] = w->sites[i].func;
	sort_array(v, w->nsites, sizeof(*v), cmp_str);
	for (i = 0; i < w->nsites; i++)
		json_array_append_new(sites, json_bytes(v[i]));
	free(v);
	if (w->has_sys)
		json_object_set_new(o, "syscalls", sys);
	else
		json_decref(sys);
	json_object_set_new(o, "callsites", sites);
	return o;
}

/* A member key: value, new, its value made by fill. */
static int put_member(struct sbuf *o, const char *key, const struct text *x,
		      const struct bl_site *want, size_t n, const char *item,
		      const struct layout *lay)
{
	puts_(o, "\"");
	puts_(o, key);
	puts_(o, "\": ");
	return put_names(o, x, NULL, want, n, item, lay);
}

/* The old entry at s edited into w: its members in their order, the
 * lists edited, "syscalls" added before "callsites" where it is missing. */
static int put_entry(struct sbuf *o, const struct text *x, struct span s, const struct bl_entry *w)
{
	struct elems m = { 0 };
	struct part *parts;
	struct layout lay, empty = { 0 };
	long ksys, ksites;
	size_t i, np = 0;
	int rc = 0;

	if (!scan_container(x, s.a, 0, &m) || x->t[s.a] != '{') {
		elems_free(&m);
		return -1;
	}
	layout_of(x, &m, &empty, &lay);
	/* a new list in this entry: one level below its members */
	{
		char ind[256];

		line_indent(x, s.a, ind, sizeof(ind));
		snprintf(lay.unit, sizeof(lay.unit), "%.63s",
			 strlen(lay.indent) > strlen(ind) ? lay.indent + strlen(ind) : "  ");
	}
	ksys = member(x, &m, "syscalls");
	ksites = member(x, &m, "callsites");
	parts = xcalloc(m.n + 3, sizeof(*parts));
	for (i = 0; i <= m.n && !rc; i++) {
		struct elems v = { 0 };

		/* "syscalls" goes before "callsites", or last */
		if (ksys < 0 && w->has_sys && (ksites >= 0 ? i == (size_t)ksites : i == m.n)) {
			parts[np].old = -1;
			rc |= put_member(&parts[np++].s, "syscalls", x, w->sys, w->nsys, "syscall",
					 &lay);
		}
		if (ksites < 0 && i == m.n && w->nsites) {
			parts[np].old = -1;
			rc |= put_member(&parts[np++].s, "callsites", x, w->sites, w->nsites,
					 "function", &lay);
		}
		if (i == m.n)
			break;
		parts[np].old = (long)i;
		if ((long)i != ksys && (long)i != ksites) {
			put_span(&parts[np++].s, x, m.el[i]);
			continue;
		}
		/* the key and what is between it and the list, then the list */
		put(&parts[np].s, x->t + m.key[i].a, m.val[i].a - m.key[i].a);
		if (x->t[m.val[i].a] != '[' || !scan_container(x, m.val[i].a, 0, &v)) {
			rc = -1;
		} else if ((long)i == ksys) {
			rc |= put_names(&parts[np].s, x, &v, w->sys, w->nsys, "syscall", &lay);
		} else {
			rc |= put_names(&parts[np].s, x, &v, w->sites, w->nsites, "function", &lay);
		}
		np++;
		elems_free(&v);
	}
	if (!rc)
		put_container(o, x, &m, true, parts, np, &lay);
	parts_free(parts, m.n + 3);
	elems_free(&m);
	return rc;
}

/* Whether the "cap" of the entry at s names a capability; its number. */
static int entry_cap(const struct text *x, struct span s)
{
	struct elems m = { 0 };
	long k;
	char *name;
	int c = -1;

	if (x->t[s.a] == '{' && scan_container(x, s.a, 0, &m) && (k = member(x, &m, "cap")) >= 0 &&
	    (name = decode(x, m.val[k]))) {
		c = cap_number(name);
		free(name);
	}
	elems_free(&m);
	return c;
}

static int cmp_entry_cap(const void *a, const void *b)
{
	return (*(const struct bl_entry *const *)a)->cap - (*(const struct bl_entry *const *)b)->cap;
}

/* An old list of entries (e: NULL when missing) edited into want's. */
static int put_entries(struct sbuf *o, const struct text *x, const struct elems *e,
		       const struct bl_entry *want, size_t n, const struct layout *parent)
{
	size_t nold = e ? e->n : 0, i, j, np = 0, nf = 0;
	struct part *parts = xcalloc(n + nold + 1, sizeof(*parts));
	const struct bl_entry **fresh = xcalloc(n + 1, sizeof(*fresh));
	int *caps = xcalloc(nold + 1, sizeof(*caps)), rc = 0;
	bool sorted = true;
	struct layout lay;

	layout_of(x, e, parent, &lay);
	for (i = 0; i < nold; i++) {
		caps[i] = entry_cap(x, e->el[i]);
		if (caps[i] < 0) {
			rc = -1;
			goto out;
		}
		if (i && caps[i - 1] > caps[i])
			sorted = false;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < nold && caps[j] != want[i].cap; j++)
			;
		if (j == nold)
			fresh[nf++] = &want[i];
	}
	sort_array(fresh, nf, sizeof(*fresh), cmp_entry_cap);
	for (i = 0, j = 0; (i < nold || j < nf) && !rc;) {
		if (i < nold && (j >= nf || !sorted || caps[i] < fresh[j]->cap)) {
			const struct bl_entry *w = bl_find((struct bl_entry *)want, n, caps[i]);

			if (w) {
				parts[np].old = (long)i;
				rc = put_entry(&parts[np++].s, x, e->el[i], w);
			}
			i++;
		} else {
			parts[np].old = -1;
			put_new(&parts[np++].s, new_entry(fresh[j++]), &lay);
		}
	}
	if (!rc)
		put_container(o, x, e, false, parts, np, &lay);
out:
	parts_free(parts, n + nold + 1);
	free(fresh);
	free(caps);
	return rc;
}

/* ---- the whole file ------------------------------------------------------- */

char *baseline_edit(const char *text, size_t len, const struct baseline *want, size_t *outlen)
{
	struct text x = { text, len };
	struct elems top = { 0 };
	struct sbuf o = { 0 };
	struct part *parts;
	struct layout lay, none = { .unit = "  " };
	long kcaps, kdenied;
	size_t p = ws(&x, 0), i, np = 0;
	int rc = 0;

	if (p >= len || text[p] != '{' || !scan_container(&x, p, 0, &top) ||
	    ws(&x, top.whole.b) != len) {
		elems_free(&top);
		return NULL;
	}
	layout_of(&x, &top, &none, &lay);
	snprintf(lay.unit, sizeof(lay.unit), "%.63s", *lay.indent ? lay.indent : "  ");
	kcaps = member(&x, &top, "capabilities");
	kdenied = member(&x, &top, "denied");
	parts = xcalloc(top.n + 3, sizeof(*parts));
	for (i = 0; i <= top.n && !rc; i++) {
		struct elems v = { 0 };
		struct sbuf *s;

		/* a list the file does not have and the baseline needs: last
		 * ("capabilities" before "denied") */
		if (i == top.n) {
			if (kcaps < 0 && want->ncaps) {
				parts[np].old = -1;
				s = &parts[np++].s;
				puts_(s, "\"capabilities\": ");
				rc |= put_entries(s, &x, NULL, want->caps, want->ncaps, &lay);
			}
			if (kdenied < 0 && want->ndenied) {
				parts[np].old = -1;
				s = &parts[np++].s;
				puts_(s, "\"denied\": ");
				rc |= put_entries(s, &x, NULL, want->denied, want->ndenied, &lay);
			}
			break;
		}
		parts[np].old = (long)i;
		s = &parts[np++].s;
		if (key_is(&x, &top, i, "version")) {
			put(s, text + top.key[i].a, top.val[i].a - top.key[i].a);
			puts_(s, "2");
		} else if ((long)i == kcaps || (long)i == kdenied) {
			put(s, text + top.key[i].a, top.val[i].a - top.key[i].a);
			if (text[top.val[i].a] != '[' || !scan_container(&x, top.val[i].a, 0, &v))
				rc = -1;
			else if ((long)i == kcaps)
				rc |= put_entries(s, &x, &v, want->caps, want->ncaps, &lay);
			else
				rc |= put_entries(s, &x, &v, want->denied, want->ndenied, &lay);
			elems_free(&v);
		} else {
			put_span(s, &x, top.el[i]);
		}
	}
	if (!rc) {
		put(&o, text, top.whole.a);
		put_container(&o, &x, &top, true, parts, np, &lay);
		put(&o, text + top.whole.b, len - top.whole.b);
	}
	parts_free(parts, top.n + 3);
	elems_free(&top);
	if (rc) {
		free(o.p);
		return NULL;
	}
	if (!o.p)
		o.p = xstrdup("");
	*outlen = o.n;
	return o.p;
}

/* ---- the same baseline ------------------------------------------------------ */

static bool same_note(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_entries(struct bl_entry *a, size_t na, struct bl_entry *b, size_t nb)
{
	size_t i, j;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++) {
		struct bl_entry *e = bl_find(b, nb, a[i].cap);

		if (!e || !same_note(a[i].note, e->note) || a[i].has_sys != e->has_sys ||
		    a[i].nsys != e->nsys || a[i].nsites != e->nsites)
			return false;
		for (j = 0; j < a[i].nsys; j++) {
			struct bl_site *s = bl_find_sys(e, a[i].sys[j].func);

			if (!s || !same_note(s->note, a[i].sys[j].note))
				return false;
		}
		for (j = 0; j < a[i].nsites; j++) {
			struct bl_site *s = bl_find_site(e, a[i].sites[j].func);

			if (!s || !same_note(s->note, a[i].sites[j].note))
				return false;
		}
	}
	return true;
}

bool baseline_same(const struct baseline *a, const struct baseline *b)
{
	return same_note(a->note, b->note) &&
	       same_entries(a->caps, a->ncaps, b->caps, b->ncaps) &&
	       same_entries(a->denied, a->ndenied, b->denied, b->ndenied);
}
