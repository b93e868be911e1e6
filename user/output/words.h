/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sentences more than one format says (text, html): what a denial did
 * to its syscall, why a check is not a requirement, a site's syscalls.
 * Built from kernel facts and numbers, never from a record's strings.
 */
#ifndef CA_OUTPUT_WORDS_H
#define CA_OUTPUT_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/suggest.h"

/* "chown, fchownat, ..." (the first four; "(no syscall)" for checks made
 * outside one) into buf. Returns buf. */
const char *sys_list_str(const struct sys_count *sys, size_t n, char *buf, size_t len);

/* What the denial d did: "denied, and the syscall failed (EPERM/EACCES, 2x):
 * the program may have failed here", ...; syscall_results: the record
 * has them. Returns buf. */
const char *denial_meaning(const struct sg_denial *d, bool syscall_results, char *buf,
			   size_t len);

/* Why a set-aside check is no requirement of the host's sets. Returns buf
 * or a constant. */
const char *aside_meaning(const struct sg_aside *a, char *buf, size_t len);

#endif
