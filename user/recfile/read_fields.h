// SPDX-License-Identifier: GPL-2.0
/*
 * The record reader's lines (C++, simdjson On-Demand), read by the tables
 * of fields.c: one loop for every object, whatever its line type. What a
 * line means beyond its fields (ids in order, a process not twice, a
 * check after its process) is here too; read.cpp finds the lines.
 */
#ifndef CA_RECFILE_READ_FIELDS_H
#define CA_RECFILE_READ_FIELDS_H

#include "recfile/read_values.h"

extern "C" {
#include "recfile/fields.h"
}

namespace recread {

/* All or nothing: a header that fails half-way (and is then read again by
 * the slow path) leaves nothing behind. */
bool read_header(ondemand::object obj, record *r, Line &l);
bool read_process(ondemand::object obj, record *r, Line &l);
/* A stack line, or (ustack) a user stack line. holes: non-NULL when
 * lenient, ids may then skip the stacks of lost lines, counted there. */
bool read_stack_line(ondemand::object obj, record *r, size_t *holes, bool ustack, Line &l);
/* r: where processes and stacks are looked up; sink: where the check and
 * its interned strings go (r itself, or a worker's private record). */
bool read_check(ondemand::object obj, const record *r, record *sink, Line &l);
bool read_end(ondemand::object obj, const record *r, rec_end_line *end, Line &l);

} // namespace recread

#endif
