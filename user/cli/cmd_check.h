/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_CMD_CHECK_H
#define CA_CMD_CHECK_H

/* capaudit check --baseline FILE [RECORD...] */
int do_check(int argc, char **argv, int all_argc, char **all_argv);

#endif
