/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a record may have missed, so that every answer made from it can
 * say so: processes it attached to when they were already running (their
 * start: a daemon binds its ports and changes user there), a recording
 * stopped while they still ran (their end), and events lost on the way.
 */
#ifndef CA_ANALYZE_PARTIAL_H
#define CA_ANALYZE_PARTIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "recfile/recfile.h"

struct partial {
	bool missed_start;   /* a scope's process had started before the recording */
	bool missed_end;     /* stopped (-d, a signal) while they still ran */
	bool lost;           /* events were lost (rec_lost_total() > 0) */
};

/* What r may have missed (NULL: nothing); true if anything. */
bool record_partial(const struct record *r, struct partial *p);

/* One sentence per thing missed, each ending in '.', into buf: "" when
 * none. */
const char *partial_words(const struct partial *p, char *buf, size_t len);

/* How to get a complete answer. */
extern const char partial_remedy[];

#endif
