/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_CMD_DOCTOR_H
#define CA_CMD_DOCTOR_H

/* capaudit doctor [--format text|json] */
int do_doctor(int argc, char **argv, int all_argc, char **all_argv);

#endif
