/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kind of file an input is, told from its first bytes before it is
 * parsed, so that a file given in the wrong place is named for what it is
 * ("capaudit-baseline.json: a baseline, not a record") instead of failing deep in a
 * parser ("invalid JSON: unclosed object or array"):
 *   record      line 1 is the header object: "type": "header"
 *               (docs/record-format.md)
 *   checkpoint  a record whose header says "scope": "monitor": what
 *               monitor -o writes (docs/monitor.md); a record to read
 *   baseline    one JSON object with "format": "capaudit-baseline"
 *               (docs/baseline.md)
 *   events      monitor --events lines: "ts" and "kind" on line 1
 *   gzip        gzip-compressed (bytes 1f 8b)
 * Anything else is left to the parser, whose error names the line. The
 * test is a look at the words, not a parse: it only ever adds a clearer
 * refusal of a file that is surely of another kind.
 */
#ifndef CA_RECFILE_KIND_H
#define CA_RECFILE_KIND_H

#include <stddef.h>
#include <stdio.h>

enum input_kind {
	INPUT_UNKNOWN = 0,
	INPUT_RECORD,
	INPUT_CHECKPOINT,
	INPUT_BASELINE,
	INPUT_EVENTS,
	INPUT_GZIP,
};

/* How many bytes are looked at: a record's header line is read whole when
 * it is shorter (its argv can be long; "type" comes first). */
#define INPUT_HEAD 4096

/* The kind of a file whose first len bytes are head. */
enum input_kind input_kind_of(const char *head, size_t len);

/*
 * The stream to parse f from, after a look at its first bytes: NULL when
 * it is surely not of the kind wanted (INPUT_RECORD: a record or a
 * checkpoint; INPUT_BASELINE), with one line in err naming the file
 * (name), what it is and what to do with it; or when it cannot be read.
 * The stream returned is closed with fclose(), f by its owner.
 */
FILE *input_expect(FILE *f, const char *name, enum input_kind want, char *err, size_t errlen);

#endif
