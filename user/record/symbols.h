/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols for a recording (symbols.c): the text ranges the
 * call-site cache's proofs need, and the names of the stacks at the end.
 */
#ifndef CA_RECORD_SYMBOLS_H
#define CA_RECORD_SYMBOLS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/ksyms.h"
#include "record/record.h"
#include "tracer/proofranges.h"
#include "tracer/tracer.h"

struct rec_symbols {
	struct tracer *tr;        /* the session's (borrowed): the ranges go there */
	bool verbose;
	struct ksyms *ksyms;      /* read before dropping privileges, if needed */
	struct ksyms *ksyms_start; /* read once attached (call-site proofs; the end) */
	const char *ksyms_start_source;
	char ksyms_start_err[256];
	pthread_t symbols_tid;    /* reading them */
	bool symbols_thread_started;
	char *modules_start;      /* /proc/modules' names and sizes then */
	struct ca_ranges ranges;  /* the call-site proofs' text ranges ... */
	bool ranges_read, ranges_set; /* ... read as root at the start, and set */
	bool started;             /* start_symbols() ran */
	bool set_at_join;         /* started before the tracer loaded: the
				     thread leaves the ranges to join_symbols() */
	struct ca_ranges thread_ranges; /* ... which it read here */
	bool thread_ranges_ok;
	bool before_command;      /* read before the command runs (root: it was
				     so when they came from /proc/kallsyms) */
	const char *ksyms_source;
	char ksyms_err[512];
};

/* symbolize_kstack(): record/record.h */
void start_symbols(struct rec_symbols *y);
/* Before the object loads (privileges dropped), where the symbols are to
 * be read before the command runs: read while the verifier works. */
void start_symbols_early(struct rec_symbols *y);
void join_symbols(struct rec_symbols *y);
struct ksyms *end_symbols(struct rec_symbols *y, char *kerr, size_t n);
/* capaudit monitor: the table for call sites while it runs (from the
 * kernel, if the start read none), or NULL */
const struct ksyms *symbols_now(struct rec_symbols *y);

#endif
