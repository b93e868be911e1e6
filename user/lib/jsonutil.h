/* SPDX-License-Identifier: GPL-2.0 */
/* jansson helpers: safe strings in, strict typed fields out. */
#ifndef CA_JSONUTIL_H
#define CA_JSONUTIL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* A JSON string from bytes that may not be UTF-8 (see utf8_sanitize). */
json_t *json_bytes(const char *s);
/* obj[key] = s as above; NULL s sets nothing. */
void json_set_bytes(json_t *obj, const char *key, const char *s);
/* A count or size as a JSON integer: above INT64_MAX (the largest jansson
 * writes) it saturates, never turning negative. */
json_t *json_uint(uint64_t v);
/* obj[key] = new reference v (steals v). */
void json_set(json_t *obj, const char *key, json_t *v);

/* Dump v compactly on one line, pure printable ASCII (every control byte,
 * DEL and non-ASCII escaped), then a newline. Returns 0 or -1. */
int json_write_line(FILE *f, const json_t *v);
/* Same, indented, for reports; then the reference to v dropped (a
 * command's whole JSON, built to be written once). */
int json_write_pretty_free(FILE *f, json_t *v);

/*
 * An indented report whose one member is a long array, written as it is
 * made, never held whole (the JSON of an -a record of a busy host is
 * hundreds of MB): the text is what json_write_pretty_free() would write for
 * the same object.
 *   json_stream_open(f, head, "processes"): head's members, then the key
 *   json_stream_item(f, s, item): one array element (a new reference: taken)
 *   json_stream_close(f, s, tail): the array's end, then tail's members
 */
struct json_stream {
	size_t items;
	int rc;
};
void json_stream_open(FILE *f, struct json_stream *s, const json_t *head, const char *key);
void json_stream_item(FILE *f, struct json_stream *s, json_t *item);
int json_stream_close(FILE *f, struct json_stream *s, const json_t *tail);

/*
 * Typed field readers. Each returns 0 on success; on a missing (when
 * required) or mistyped field returns -1 and writes "field 'key': why"
 * into err. Optional missing fields leave *out untouched and return 0.
 */
int json_get_str(json_t *o, const char *key, bool required, const char **out, char *err, size_t n);
int json_get_i64(json_t *o, const char *key, bool required, int64_t min, int64_t max,
		 int64_t *out, char *err, size_t n);

#endif
