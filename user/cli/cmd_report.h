/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_CMD_REPORT_H
#define CA_CMD_REPORT_H

/* capaudit report [-i FILE] [--format text|json] [--noaudit] */
int do_report(int argc, char **argv, int all_argc, char **all_argv);

#endif
