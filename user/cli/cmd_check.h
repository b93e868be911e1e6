/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_CHECK_CMD_H
#define CA_CHECK_CMD_H

/* capaudit check --baseline FILE [RECORD...] */
int do_check(int argc, char **argv, int all_argc, char **all_argv);

#endif
