// SPDX-License-Identifier: GPL-2.0
#include "lib/msg.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>

#include "lib/jsonutil.h"
#include "lib/util.h"

bool cli_json_errors;

void p_err(const char *fmt, ...)
{
	char msg[2048], safe[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "capaudit: %s\n", text_sanitize(msg, safe, sizeof(safe)));
	if (cli_json_errors) {
		json_t *o = json_object();

		json_set_bytes(o, "error", msg);
		json_write_line(stdout, o);
		json_decref(o);
		fflush(stdout);
	}
}
