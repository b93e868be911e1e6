/* SPDX-License-Identifier: GPL-2.0 */
/* Error reporting shared by every subcommand. */
#ifndef CA_CLI_H
#define CA_CLI_H

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

#endif
