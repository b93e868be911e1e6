// SPDX-License-Identifier: GPL-2.0
#include "output/output.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/msg.h"
#include "output/diff.h"
#include "output/render.h"

/* Plain text for people; every string from the record is escaped. */
const struct formatter output_text = {
	.name = "text",
	.report = text_report,
	.suggest = text_suggest,
	.doctor = text_doctor,
	.run = text_run,
	.verify = text_verify,
	.check = text_check,
	.diff = diff_text,
	.fleet = text_fleet,
};

/* JSON for programs: one object, pure ASCII, every control byte escaped. */
const struct formatter output_json = {
	.name = "json",
	.report = json_report,
	.suggest = json_suggest,
	.doctor = json_doctor,
	.run = json_run,
	.verify = json_verify,
	.check = json_check,
	.diff = diff_json,
	.fleet = json_fleet,
};

static const struct formatter *const all[] = {
	&output_text, &output_json, &output_html, &output_junit, &output_sarif, &output_github, NULL,
};

const struct formatter *formatter_find(const char *name)
{
	size_t i;

	for (i = 0; name && all[i]; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

/* the command each use is for, in error messages */
static const char *const use_cmd[] = {
	[FOR_REPORT] = "report", [FOR_CHECK] = "check", [FOR_RUN] = "run",
	[FOR_VERIFY] = "verify", [FOR_DOCTOR] = "doctor", [FOR_DIFF] = "diff",
};

static bool prints(const struct formatter *f, enum formatter_use use)
{
	switch (use) {
	case FOR_REPORT: return f->report || f->page;
	case FOR_CHECK: return f->check;
	case FOR_RUN: return f->run;
	case FOR_VERIFY: return f->verify;
	case FOR_DOCTOR: return f->doctor;
	case FOR_DIFF: return f->diff;
	}
	return false;
}

/* The formatters that print what use needs, joined by sep, into buf. */
static const char *names_for(enum formatter_use use, const char *sep, char *buf, size_t len)
{
	size_t i, n = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; all[i] && n < len; i++)
		if (prints(all[i], use))
			n += snprintf(buf + n, len - n, "%s%s", n ? sep : "", all[i]->name);
	return buf;
}

const char *formatter_names(const char *cmd, const char *sep, char *buf, size_t len)
{
	size_t u;

	for (u = 0; u < sizeof(use_cmd) / sizeof(use_cmd[0]); u++)
		if (cmd && !strcmp(cmd, use_cmd[u]))
			return names_for((enum formatter_use)u, sep, buf, len);
	if (len)
		buf[0] = '\0';
	return buf;
}

const struct formatter *formatter_select(const char *name, enum formatter_use use)
{
	const struct formatter *f = formatter_find(name);
	char names[128];

	/* from here on stdout is JSON, errors included */
	if (f == &output_json)
		cli_json_errors = true;
	if (f && prints(f, use))
		return f;
	/* the list is the formatters that can: it cannot go stale */
	p_err("unknown format '%s' for %s (%s)", name, use_cmd[use],
	      names_for(use, ", ", names, sizeof(names)));
	return NULL;
}
