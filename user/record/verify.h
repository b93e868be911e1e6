/* SPDX-License-Identifier: GPL-2.0 */
/* capaudit verify's engine (docs/verify.md). */
#ifndef CA_RECORD_VERIFY_H
#define CA_RECORD_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/views.h"

struct verify_opts {
	char **cmd;
	const char *user;        /* --user, or NULL */
	const char *check;       /* --check TEST, or NULL */
	const char *program;     /* --program: whose suggested set to start from */
	const char *attach;      /* --attach, or NULL */
	const char *keep_dir;    /* -k: keep the runs' records there */
	bool quiet;              /* no progress lines */
	int max_runs;
	uint64_t all;            /* the caller's own set (permitted and bounding) */
};

struct verify;

/* Prove a set for o->cmd: 0 proven, 1 none works, -1 no verdict (err says
 * why). *out is always set: its result (also on 1), then verify_free(). */
int verify_prove(const struct verify_opts *o, struct verify **out, char *err, size_t errlen);
const struct verify_result *verify_result(const struct verify *v);
void verify_free(struct verify *v);

#endif
