// SPDX-License-Identifier: GPL-2.0
#include "lib/jsonutil.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"


json_t *json_bytes(const char *s)
{
	char *clean = utf8_sanitize(s ? s : "", s ? strlen(s) : 0);
	json_t *v = json_string(clean);

	free(clean);
	return v;
}

void json_set_bytes(json_t *obj, const char *key, const char *s)
{
	if (s)
		json_object_set_new(obj, key, json_bytes(s));
}

json_t *json_uint(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

void json_set(json_t *obj, const char *key, json_t *v)
{
	json_object_set_new(obj, key, v);
}

static int write_ascii(FILE *f, const json_t *v, size_t flags)
{
	char *s = json_dumps(v, flags | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER);
	int rc = 0;
	char *p;

	if (!s)
		return -1;
	/* ENSURE_ASCII escapes >= 0x80 and < 0x20; DEL can only be inside a
	 * string; runs between DELs go out whole (not a call per byte) */
	for (p = s; *p;) {
		size_t n = strcspn(p, "\x7f");

		if (n && fwrite(p, 1, n, f) != n)
			rc = -1;
		p += n;
		if (*p == 0x7f) {
			if (fputs("\\u007f", f) == EOF)
				rc = -1;
			p++;
		}
	}
	if (fputc('\n', f) == EOF)
		rc = -1;
	free(s);
	return rc;
}

int json_write_line(FILE *f, const json_t *v) { return write_ascii(f, v, JSON_COMPACT); }

/* v indented with JSON_INDENT(2) as the value of a member at depth levels
 * (2 spaces each), no newline after it; with members_only, an object's
 * members alone (between its braces), for splicing into another object. */
static int write_nested(FILE *f, const json_t *v, int depth, bool members_only)
{
	char *s = json_dumps(v, JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER), *p, *end;
	int rc = 0;

	if (!s)
		return -1;
	p = s;
	end = s + strlen(s);
	if (members_only) {   /* "{\n  a: 1,\n  b: 2\n}" -> "  a: 1,\n  b: 2" */
		if (end - s < 4) {   /* "{}" */
			free(s);
			return 0;
		}
		p += 2;
		end -= 2;
	}
	while (p < end) {
		size_t n = strcspn(p, "\n\x7f");

		if (p + n > end)
			n = (size_t)(end - p);
		if (n && fwrite(p, 1, n, f) != n)
			rc = -1;
		p += n;
		if (p >= end)
			break;
		if (*p == 0x7f) {
			if (fputs("\\u007f", f) == EOF)
				rc = -1;
		} else if (fprintf(f, "\n%*s", 2 * depth, "") < 0) {
			rc = -1;
		}
		p++;
	}
	free(s);
	return rc;
}

void json_stream_open(FILE *f, struct json_stream *s, const json_t *head, const char *key)
{
	s->items = 0;
	s->rc = fputs("{\n", f) == EOF ? -1 : 0;
	if (json_object_size(head)) {
		s->rc |= write_nested(f, head, 0, true);
		s->rc |= fputs(",\n", f) == EOF ? -1 : 0;
	}
	s->rc |= fprintf(f, "  \"%s\": [", key) < 0 ? -1 : 0;
}

void json_stream_item(FILE *f, struct json_stream *s, json_t *item)
{
	s->rc |= fputs(s->items++ ? ",\n    " : "\n    ", f) == EOF ? -1 : 0;
	s->rc |= write_nested(f, item, 2, false);
	json_decref(item);
}

int json_stream_close(FILE *f, struct json_stream *s, const json_t *tail)
{
	s->rc |= fputs(s->items ? "\n  ]" : "]", f) == EOF ? -1 : 0;
	if (json_object_size(tail)) {
		s->rc |= fputs(",\n", f) == EOF ? -1 : 0;
		s->rc |= write_nested(f, tail, 0, true);
	}
	s->rc |= fputs("\n}\n", f) == EOF ? -1 : 0;
	return s->rc;
}
static int json_write_pretty(FILE *f, const json_t *v) { return write_ascii(f, v, JSON_INDENT(2)); }

int json_write_pretty_free(FILE *f, json_t *v)
{
	int rc = json_write_pretty(f, v);

	json_decref(v);
	return rc;
}

static json_t *field(json_t *o, const char *key, bool required, int *rc, char *err, size_t n)
{
	json_t *v = json_object_get(o, key);

	*rc = 0;
	if (!v && required) {
		snprintf(err, n, "missing field '%s'", key);
		*rc = -1;
	}
	return v;
}

int json_get_str(json_t *o, const char *key, bool required, const char **out, char *err, size_t n)
{
	int rc;
	json_t *v = field(o, key, required, &rc, err, n);

	if (!v)
		return rc;
	if (!json_is_string(v)) {
		snprintf(err, n, "field '%s' must be a string", key);
		return -1;
	}
	*out = json_string_value(v);
	return 0;
}

int json_get_i64(json_t *o, const char *key, bool required, int64_t min, int64_t max,
		 int64_t *out, char *err, size_t n)
{
	int rc;
	json_t *v = field(o, key, required, &rc, err, n);
	json_int_t x;

	if (!v)
		return rc;
	if (!json_is_integer(v)) {
		snprintf(err, n, "field '%s' must be an integer", key);
		return -1;
	}
	x = json_integer_value(v);
	if (x < min || x > max) {
		snprintf(err, n, "field '%s' is %lld, outside %lld..%lld", key, (long long)x,
			 (long long)min, (long long)max);
		return -1;
	}
	*out = x;
	return 0;
}
