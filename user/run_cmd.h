/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_RUN_CMD_H
#define CA_RUN_CMD_H

#include <stdbool.h>
#include <stdint.h>

struct suggestion;

/* What `capaudit run` prints about one run. */
struct run_result {
	char **cmd;
	uint64_t caps;
	const char *user;        /* NULL: as root */
	int exit_status;
	const char *check;       /* --check SHELL TEST, or NULL */
	int check_status;        /* its exit status */
	bool enough;             /* the verdict: it exited 0 (and --check passed) */
	const char *record;      /* the record file written */
	const struct suggestion *sg;
};

/* capaudit run --caps CAP[,CAP...] [--user USER] -- COMMAND */
int do_run(int argc, char **argv, int all_argc, char **all_argv);

/* sh -c TEST as the caller, its standard output on standard error; its
 * shell-style exit status (-1 if it could not be started). */
int run_check(const char *test);

#endif
