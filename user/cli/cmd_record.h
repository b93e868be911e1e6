/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_CMD_RECORD_H
#define CA_CMD_RECORD_H

/* capaudit record ...; all_argv is capaudit's whole command line, kept in
 * the record header. Returns the process exit code. */
int do_record(int argc, char **argv, int all_argc, char **all_argv);

#endif
