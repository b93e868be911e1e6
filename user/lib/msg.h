/* SPDX-License-Identifier: GPL-2.0 */
/* Error reporting shared by every subcommand. */
#ifndef CA_MSG_H
#define CA_MSG_H

#include <stdbool.h>

/* Exit codes */
#define EXIT_OK     0
#define EXIT_FAIL   1   /* runtime error (or, for check, a finding) */
#define EXIT_USAGE  2   /* bad arguments or bad input */

/* When set, p_err also prints {"error": "..."} on stdout so that stdout
 * stays parseable JSON. */
extern bool cli_json_errors;

/* One line on stderr: "capaudit: <message>". */
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A daemon's trouble of one kind (a monitor's checkpoint, metrics or
 * events that cannot be written): the first failure is said at once,
 * later ones at most once a minute with how many there were, and the
 * recovery once; the count goes on (a metric).
 */
struct trouble {
	const char *what;        /* "checkpoint", "metrics", "events" */
	unsigned long long failures;
	unsigned long long unsaid;  /* failures since the last line */
	long long said_ns;       /* monotonic time of the last line */
	bool failing;
};
/* A failure, with its message (one line). */
void trouble_failed(struct trouble *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A success: said once if it ends a run of failures. */
void trouble_ok(struct trouble *t);

#endif
