/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_DIFF_CMD_H
#define CA_DIFF_CMD_H

/* capaudit diff OLD NEW */
int do_diff(int argc, char **argv, int all_argc, char **all_argv);

#endif
