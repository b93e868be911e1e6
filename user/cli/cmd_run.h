/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_CMD_RUN_H
#define CA_CMD_RUN_H

#include <stdbool.h>
#include <stdint.h>


/* capaudit run --caps CAP[,CAP...] [--user USER] -- COMMAND */
int do_run(int argc, char **argv, int all_argc, char **all_argv);


#endif
