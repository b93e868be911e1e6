/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a run with a reduced set did its job, judged by what the
 * kernel did (run --caps, and each run of verify): not only the exit
 * status, but what each refusal did (analyze/effect.h). A syscall that
 * succeeded but did less (a set-ID bit cleared) means the set failed,
 * whatever the exit status or --check; a refusal the program was told of
 * (the syscall failed with the error the kernel's source returns there,
 * a netlink ack, the verifier rejecting a program) that the program went
 * on from is for --check to judge; without one, the set is not shown to
 * be enough. Refusals of operations programs try and fall back from, of
 * files and listings the program may do without, and those that change
 * nothing do not count (docs/verify.md "What a refusal does").
 */
#ifndef CA_VERDICT_H
#define CA_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/suggest.h"

enum run_verdict {
	RV_ENOUGH,   /* it exited 0 (and --check passed), and no refusal counted */
	RV_FAILED,   /* the command failed, or --check did */
	RV_CHANGED,  /* it exited 0, but a refusal silently changed what a syscall did */
	RV_REFUSED,  /* it exited 0, but the kernel refused an operation the program was
		      * told of and went on from; no --check said it did its job */
};

struct verdict {
	enum run_verdict v;
	const struct sg_denial *why;   /* CHANGED, REFUSED: the denial that decided */
	uint64_t changed, refused;     /* checks of each kind that counted */
};

/* Judge a run: sg built on its record; only denials of the capabilities
 * in counted count (verify: those the run withheld from the caller's;
 * run: all). check_given: --check was given (check_status its status). */
void run_verdict(const struct suggestion *sg, int exit_status, bool check_given,
		 int check_status, uint64_t counted, struct verdict *out);

/* Whether denial d counts against the set it was made with (CHANGED,
 * REFUSED), judged as run_verdict() does; *changed says which. */
bool denial_counts(const struct sg_denial *d, bool *changed);

const char *run_verdict_name(enum run_verdict v);

#endif
