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
	const char *record;      /* the record file written */
	const struct suggestion *sg;
};

/* capaudit run --caps CAP[,CAP...] [--user USER] -- COMMAND */
int do_run(int argc, char **argv, int all_argc, char **all_argv);

#endif
