/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_SYSCALLS_H
#define CA_SYSCALLS_H

/* Name of x86_64 syscall nr, or NULL when this build does not know it. */
const char *syscall_name(int nr);

#endif
