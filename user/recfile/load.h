/* SPDX-License-Identifier: GPL-2.0 */
/* Reading a record file for a subcommand, with the one error or warning line. */
#ifndef CA_RECLOAD_H
#define CA_RECLOAD_H

#include <stdbool.h>

#include "recfile/recfile.h"

/*
 * Load the record open in f into r (name for messages). Strict: any fault
 * is one "capaudit: FILE:LINE: why" line and -1. Lenient: what is valid is
 * kept and one warning line says how much was left out; only an unusable
 * file (no header, unreadable) fails.
 */
int load_record_file(FILE *f, const char *name, bool lenient, struct record *r);
/* A verdict from a record that lost checks (rec_lost_total()) may miss
 * what they used: one warning line on stderr saying what was lost. */
void warn_lost(const char *name, const struct record *r);

#endif
