/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report --format html, in parts: the page and the report (html.c), the
 * suggestion (html_suggest.c), the call paths (html_paths.c). Every string
 * from a record goes out through html_text (markup_escape).
 */
#ifndef CA_OUTPUT_HTML_H
#define CA_OUTPUT_HTML_H

#include <stdint.h>
#include <stdio.h>

struct obj_set;
struct report;
struct suggestion;
struct terms;

/* s escaped for element text and quoted attributes; NULL as "". */
void html_text(FILE *f, const char *s);
/* <br><span class="about small">about A, B and 2 more</span>: what a
 * row's checks were about (record format 7); nothing for an empty set. */
void html_about(FILE *f, const struct obj_set *s);
/* The page's head, style and header up to the subtitle (left open). */
void html_head(FILE *f, const char *title, const char *source);
struct fleet;
/* report --fleet --format html (html_fleet.c) */
int html_fleet(FILE *f, const struct fleet *v, const char *source);
/* <span class="caps" id=ID> with a <span class="cap"> per member, or
 * "none"; id NULL: no id. */
void html_capset(FILE *f, const char *id, uint64_t mask);

/* <section id="answer">: the required set, the replacements and the
 * --emit snippets: what a reader came for, first on the page. */
void html_answer(FILE *f, const struct suggestion *s, struct terms *t);
/* <section id="suggest">: the rest of report --suggest's conclusions. */
void html_suggest(FILE *f, const struct suggestion *s, struct terms *t);
/* <section id="paths">: per capability, its call sites, their stacks. */
void html_paths(FILE *f, const struct report *rep);

#endif
