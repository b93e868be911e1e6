/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_CMD_VERIFY_H
#define CA_CMD_VERIFY_H

/* capaudit verify [OPTIONS] -- COMMAND: prove a capability set by running
 * COMMAND under it (docs/verify.md). */
int do_verify(int argc, char **argv, int all_argc, char **all_argv);

#endif
