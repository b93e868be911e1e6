/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_CMD_MONITOR_H
#define CA_CMD_MONITOR_H

/* capaudit monitor ...; returns the process exit code. */
int do_monitor(int argc, char **argv, int all_argc, char **all_argv);

#endif
