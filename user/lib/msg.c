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

#define TROUBLE_EVERY_NS 60000000000LL   /* a minute between two lines */

void trouble_failed(struct trouble *t, const char *fmt, ...)
{
	long long now = (long long)now_monotonic_ns();
	char msg[1600];
	va_list ap;

	t->failures++;
	t->unsaid++;
	if (t->failing && now - t->said_ns < TROUBLE_EVERY_NS)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (t->unsaid > 1)
		p_err("warning: %s (%llu failures to write the %s in the last minute; trying again "
		      "at each checkpoint)", msg, t->unsaid, t->what);
	else
		p_err("warning: %s (trying again at each checkpoint)", msg);
	t->failing = true;
	t->said_ns = now;
	t->unsaid = 0;
}

void trouble_ok(struct trouble *t)
{
	if (!t->failing)
		return;
	p_err("the %s is written again (after %llu failures in all)", t->what, t->failures);
	t->failing = false;
	t->unsaid = 0;
}
