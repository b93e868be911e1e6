/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A record of a unit file (record --service): the capabilities the unit
 * grants its commands, and those no check asked for, its removal
 * candidates (docs/service.md). Pure C.
 */
#ifndef CA_ANALYZE_SERVICE_H
#define CA_ANALYZE_SERVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "recfile/recfile.h"

/* The unit's granted set and, of it, what no check asked for: the
 * capabilities the unit could stop granting. false when the record is
 * not of a unit file. */
bool service_removal_candidates(const struct record *r, uint64_t *granted, uint64_t *unused);

#endif
