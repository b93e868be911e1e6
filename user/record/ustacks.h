/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --user-stacks: turn the BPF side's user stacks (build id + file
 * offset frames, and the leaf caller's device, inode and offset) into
 * record ustacks, symbolized while the binaries are still there.
 *
 * Which file a build id or an inode stands for is learnt from what the
 * loader can see: the executables of the recorded processes, the
 * executable mappings of live processes (/proc/PID/maps, read when a
 * process makes its first check and again at the end) and of capaudit
 * itself. What cannot be found degrades: a frame keeps its build id and
 * offset (stripped or unknown file), or its offset alone (deleted file).
 */
#ifndef CA_USTACKS_H
#define CA_USTACKS_H

#include <linux/types.h>
#include <stdint.h>
#include <sys/types.h>

#include "tracer/abi.h"
#include "recfile/recfile.h"

struct tracer;
struct ustacks;

struct ustacks *ustacks_new(void);
void ustacks_free(struct ustacks *u);

/* Learn the executable file mappings of a live process (best effort). */
void ustacks_scan_pid(struct ustacks *u, pid_t pid);
/* The same, once per program name (comm) seen. */
void ustacks_scan_new(struct ustacks *u, pid_t pid, const char *comm);
/* Learn one file by path (a process's executable). */
void ustacks_add_file(struct ustacks *u, const char *path);

/* The record ustack for the user stack of key k (-1: none captured), made
 * and symbolized on first use and shared by every key with the same one. */
int ustacks_resolve(struct ustacks *u, struct tracer *t, struct record *rec,
		    const struct ca_key *k);

#endif
