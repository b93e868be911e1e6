/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One output interface, one implementation per format. The analysis code
 * builds data; only these functions decide how it looks.
 */
#ifndef CA_OUTPUT_H
#define CA_OUTPUT_H

#include <stdio.h>

struct report;

struct formatter {
	const char *name;
	int (*report)(FILE *f, const struct report *rep, const char *source);
};

extern const struct formatter output_text;
extern const struct formatter output_json;

/* NULL when no formatter has that name. */
const struct formatter *formatter_find(const char *name);

#endif
