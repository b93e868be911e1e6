/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a check was about, in words (record format 7's objects): the one
 * renderer every output uses. "/srv/app/config.yml (owner 65534:65534,
 * mode 0600)", "process 4242 (sleep, uid 65534)", "SOL_SOCKET
 * SO_RCVBUFFORCE", "netlink NETLINK_ROUTE RTM_NEWLINK", ... and a row's
 * bounded list of them, "a, b, c and 3 more". Each output escapes for
 * itself: text (control bytes, bidirectional controls, bytes that are not
 * UTF-8 shown as \xNN), HTML (character references too), JSON (jansson).
 * Ids stay numbers: a name looked up where the report is read could be
 * another machine's.
 * Here in analyze/ (pure: a record in, words out), not output/: the
 * monitor names the objects of its event lines with it too.
 */
#ifndef CA_ANALYZE_OBJTEXT_H
#define CA_ANALYZE_OBJTEXT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "analyze/objset.h"
#include "recfile/recfile.h"

/* How many objects a list shows before "and N more" (text, html). */
#define OBJ_SHOW 3

/* The record's name of a kind ("file", "sockopt"), "object" if unknown. */
const char *object_kind_name(int kind);
/* o in words, its strings as the record has them (not escaped: for JSON,
 * or for an escaper). Returns buf. */
char *object_raw(const struct rec_object *o, char *buf, size_t len);
/* o in words, escaped for a terminal or a text file. Returns buf. */
char *object_text(const struct rec_object *o, char *buf, size_t len);
/* The first show objects of s, then what else: "a, b and 3 more", "a and
 * others in 5 checks" (objects_more: checks about objects that did not
 * fit), not escaped; "" for an empty set. Returns buf. */
char *objects_raw(const struct obj_set *s, size_t show, char *buf, size_t len);
/* The same list escaped for text. Returns buf. */
char *objects_text(const struct obj_set *s, size_t show, char *buf, size_t len);
/* "INDENTabout LIST\n" (text), nothing for an empty set: the line each
 * text output puts under a row whose checks had objects. */
void objects_line(FILE *f, const char *indent, const struct obj_set *s);
/* The same list escaped for HTML, written to f. */
void objects_html(FILE *f, const struct obj_set *s, size_t show);
/* obj["objects"] = each object as the record has it (kind, path, name,
 * detail, pid, uid, gid, mode, num, count, late) with its "text", and
 * obj["objects_more"]; nothing when the set is empty (old records). */
void objects_json_set(json_t *obj, const struct obj_set *s);

#endif
