/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The end of a recording (collect.c): the kernel's aggregated checks and
 * stacks turned into the record's check and stack lines, symbolized.
 */
#ifndef CA_RECORD_COLLECT_H
#define CA_RECORD_COLLECT_H

#include "lib/ksyms.h"
#include "recfile/recfile.h"
#include "record/proctable.h"
#include "tracer/tracer.h"

/* into pt->rec, with the images of pt */
void collect_checks(struct proctable *pt, struct ksyms *ks, const char *kerr);
/* What the kernel side could not store so far (the record header's
 * "lost"; while recording, what the hooks have counted until now). */
void collect_lost(struct tracer *tr, struct rec_lost *l);

#endif
