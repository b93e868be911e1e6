/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscall names, per architecture: a record's syscall numbers are those of
 * the architecture it was made on (its header's "arch"), whatever machine
 * reads it. The tables are generated from the kernel's UAPI headers by
 * tools/gen-syscalls.sh and kept in the tree (syscalls_<arch>.h).
 */
#ifndef CA_SYSCALLS_H
#define CA_SYSCALLS_H

#include <stdbool.h>

/* The architecture of records that do not name one (before "arch"). */
#define SYSCALL_ARCH_DEFAULT "x86_64"

/* The architecture this build records: the syscall table of the kernel
 * it runs on ("x86_64", "arm64"). */
const char *syscall_arch_native(void);
/* arch has a table here. */
bool syscall_arch_known(const char *arch);
/* Name of syscall nr of arch (NULL: SYSCALL_ARCH_DEFAULT), or NULL when
 * this build does not know it (an unknown arch or number). */
const char *syscall_name_arch(const char *arch, int nr);
/* The same for this build's own architecture (a live recording). */
const char *syscall_name(int nr);

#endif
