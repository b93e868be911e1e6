/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text and the json of each command, one file a command holding both
 * (report.c, suggest.c, doctor.c, run.c, check.c, verify.c; diff.c has
 * diff.h), which output.c puts together as the text and json formatters.
 * Text is plain text for people, every string from the record escaped;
 * json is one object for programs, pure ASCII, every control byte escaped.
 */
#ifndef CA_OUTPUT_RENDER_H
#define CA_OUTPUT_RENDER_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

struct check_view;
struct doctor;
struct fleet;
struct record;
struct report;
struct run_result;
struct suggestion;
struct terms;
struct verify_result;

int text_report(FILE *f, const struct report *rep, const char *source);
int json_report(FILE *f, const struct report *rep, const char *source);
int text_suggest(FILE *f, const struct suggestion *s, const char *source);
int json_suggest(FILE *f, const struct suggestion *s, const char *source);
int text_doctor(FILE *f, const struct doctor *d);
int json_doctor(FILE *f, const struct doctor *d);
int text_run(FILE *f, const struct run_result *r);
int json_run(FILE *f, const struct run_result *r);
int text_check(FILE *f, const struct check_view *v);
int json_check(FILE *f, const struct check_view *v);
int text_verify(FILE *f, const struct verify_result *v);
int json_verify(FILE *f, const struct verify_result *v);
int text_fleet(FILE *f, const struct fleet *v, const char *source);
int json_fleet(FILE *f, const struct fleet *v, const char *source);

/* Shared by the commands (report.c, suggest.c). */
/* The names of mask, then a newline. */
void text_capset(FILE *f, uint64_t mask);
/* One record: "Record FILE" and what it says; a merged one's inputs. */
void text_header(FILE *f, const struct record *r, const char *source);
/* Denied checks with no granted alternative, blocking first, and what each
 * did (report --suggest, run). */
void text_denials(FILE *f, const struct suggestion *s, struct terms *t);
/* The "record" object: what one record says about itself. */
json_t *json_header(const struct record *r, const char *source);
/* A merged record's inputs (NULL: not merged). */
json_t *json_inputs(const struct record *r);
/* The suggestion's "denied" array (report --suggest, run). */
json_t *json_denials(const struct suggestion *s);

#endif
