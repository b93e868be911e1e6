/* SPDX-License-Identifier: GPL-2.0 */
/* capaudit verify's engine (docs/verify.md). */
#ifndef CA_ENGINES_VERIFY_H
#define CA_ENGINES_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/views.h"

struct verify_opts {
	char **cmd;              /* what each run runs, or with service the unit's
				  * first command (for the report) */
	const char *service;     /* --service UNIT|FILE: each run starts it, or NULL */
	const char *service_name;   /* its unit name (foo.service), or NULL */
	const char *user;        /* --user, or NULL */
	bool keep_path;          /* --keep-path: the caller's PATH for --user */
	const char *check;       /* --check TEST, or NULL */
	bool exit_judges;        /* --exit-judges: COMMAND's status says if it did its job */
	const char *program;     /* --program: whose suggested set to start from */
	const char *attach;      /* --attach, or NULL */
	const char *keep_dir;    /* -k: keep the runs' records there */
	bool quiet;              /* no progress lines */
	int max_runs;            /* 0: 10 + 2 per capability the caller has */
	double timeout;          /* seconds per run; 0: VERIFY_TIMEOUT_DEFAULT */
	uint64_t all;            /* the caller's own set (permitted and bounding), or
				  * --from's within it: the most any run holds */
	bool from;               /* all is --from's */
};

#define VERIFY_TIMEOUT_DEFAULT 120.0
#define VERIFY_INTERRUPTED 3

struct verify;

/* Prove a set for o->cmd: 0 proven, 1 none works, -1 no verdict (err says
 * why), VERIFY_INTERRUPTED a signal came (SIGINT, SIGTERM, SIGHUP,
 * SIGPIPE: the run under way was stopped; the result holds what was
 * decided so far). *out is always set: its result (also on 1), then
 * verify_free(). */
int verify_prove(const struct verify_opts *o, struct verify **out, char *err, size_t errlen);
/* The signal verify caught (from verify_prove() on), 0 if none. */
int verify_signal(void);
/* Remove the runs' records and their directory (not -k's): before the
 * report is printed, which a closed pipe may cut short. */
void verify_cleanup(struct verify *v);
const struct verify_result *verify_result(const struct verify *v);
void verify_free(struct verify *v);

#endif
