/* SPDX-License-Identifier: GPL-2.0 */
/* capaudit diff's text and JSON, the .diff of output_text and output_json. */
#ifndef CA_OUTPUT_DIFF_H
#define CA_OUTPUT_DIFF_H

#include <stdio.h>

struct diff_view;

int diff_text(FILE *f, const struct diff_view *v);
int diff_json(FILE *f, const struct diff_view *v);

#endif
