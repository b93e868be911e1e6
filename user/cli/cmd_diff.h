/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_CMD_DIFF_H
#define CA_CMD_DIFF_H

/* capaudit diff OLD NEW */
int do_diff(int argc, char **argv, int all_argc, char **all_argv);

#endif
