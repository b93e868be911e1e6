/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One output interface, one implementation per format. The analysis code
 * builds data; only these functions decide how it looks.
 */
#ifndef CA_OUTPUT_H
#define CA_OUTPUT_H

#include <stdio.h>

struct report;
struct suggestion;
struct doctor;
struct run_result;
struct verify_result;
struct check_view;
struct diff_view;
struct fleet;

struct formatter {
	const char *name;
	int (*report)(FILE *f, const struct report *rep, const char *source);
	int (*suggest)(FILE *f, const struct suggestion *s, const char *source);
	/* A document that holds the report and its suggestion at once (html):
	 * report builds both for a formatter with a page. */
	int (*page)(FILE *f, const struct report *rep, const struct suggestion *s,
		    const char *source);
	int (*doctor)(FILE *f, const struct doctor *d);
	int (*run)(FILE *f, const struct run_result *r);
	int (*verify)(FILE *f, const struct verify_result *v);
	int (*check)(FILE *f, const struct check_view *v);
	int (*diff)(FILE *f, const struct diff_view *v);
	/* report --fleet: per program build over many hosts' records */
	int (*fleet)(FILE *f, const struct fleet *v, const char *source);
};

extern const struct formatter output_text;
extern const struct formatter output_json;
extern const struct formatter output_junit;
extern const struct formatter output_sarif;
extern const struct formatter output_github;
extern const struct formatter output_html;

/* NULL when no formatter has that name. */
const struct formatter *formatter_find(const char *name);

/* What a command asks its formatter to print (formatter_select). */
enum formatter_use { FOR_REPORT, FOR_CHECK, FOR_RUN, FOR_VERIFY, FOR_DOCTOR, FOR_DIFF };

/* The formatter --format NAME names, if it prints what use needs; else NULL
 * after "unknown format 'NAME' for COMMAND (the formats that do)" (exit 2).
 * json also makes later errors JSON on stdout too (msg.h). */
const struct formatter *formatter_select(const char *name, enum formatter_use use);
/* The formats command cmd ("report") takes, joined by sep, into buf: the
 * formatters that print what it needs; "" for a command without --format. */
const char *formatter_names(const char *cmd, const char *sep, char *buf, size_t len);

/* Ready-to-paste snippets for the required set (report --emit KIND). */
extern const char *const emit_kinds[];   /* NULL-terminated */
/* -1 if kind is unknown. */
int emit_snippet(FILE *f, const char *kind, const struct suggestion *s);

#endif
