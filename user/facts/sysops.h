/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A check's operation: the syscall's own argument that says what it asked
 * for, where a capability check's effect depends on it (the record's "op",
 * docs/record-format.md; the hook's encoding is bpf/capaudit.h ca_key.op):
 * setsockopt(2)'s level and option (net/core/sock.c sk_setsockopt()
 * refuses SO_RCVBUFFORCE, which programs try before SO_RCVBUF), bpf(2)'s
 * command, prctl(2)'s option, ioctl(2)'s request, fcntl(2)'s command,
 * ptrace(2)'s request, keyctl(2)'s operation, socket(2)'s family and type,
 * chmod(2)'s set-ID bits. Names come from this build's C headers: the
 * values are the same on x86_64 and arm64 for every name listed here.
 */
#ifndef CA_SYSOPS_H
#define CA_SYSOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A setsockopt level's name ("SOL_SOCKET"), or NULL. */
const char *sysop_level_name(long level);
/* The syscall (by name) carries an op. */
bool sysop_carried(const char *sysname);
/* The name the kernel's source gives the operation in a switch's case
 * label ("SO_RCVBUFFORCE", "TCP_REPAIR", "BPF_PROG_LOAD", "PR_SET_MM",
 * "F_SETPIPE_SZ"), or NULL when there is none here (a number this build
 * does not name, chmod's bits). */
const char *sysop_label(const char *sysname, int64_t op);
/* For a reader: "SOL_SOCKET SO_RCVBUFFORCE", "BPF_PROG_LOAD", "mode 02000",
 * "ioctl 0x5412"; NULL when op < 0 (not recorded) or the syscall carries
 * none. */
const char *sysop_name(const char *sysname, int64_t op, char *buf, size_t len);

#endif
