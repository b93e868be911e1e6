// SPDX-License-Identifier: GPL-2.0
/* run --caps: how the command fared with only the capabilities given: as
 * text and as json (the formatters output.c makes of them; output/render.h). */
#include "output/render.h"

#include "analyze/views.h"
#include "facts/capjson.h"
#include "facts/capnames.h"
#include "lib/jsonutil.h"
#include "lib/util.h"
#include "output/words.h"

/* ---- text ---------------------------------------------------------------- */

int text_run(FILE *f, const struct run_result *r)
{
	char buf[1024], esc[4200], word[4200], wesc[8400];
	struct terms t = { 0 };
	size_t i, blocking = 0;

	for (i = 0; i < r->sg->ndeny; i++)
		blocking += r->sg->deny[i].kind == DENY_BLOCKING;
	fputs("\ncapaudit run:", f);
	for (i = 0; r->cmd[i]; i++)
		fprintf(f, " %s", ESC(r->cmd[i], esc));
	fprintf(f, "\n  capabilities: %s\n", capset_str(r->caps, buf, sizeof(buf)));
	fprintf(f, "  as: %s\n", r->user ? ESC(r->user, esc) : "root");
	fprintf(f, "  exit status: %d\n", r->exit_status);
	if (r->check)
		fprintf(f, "  check: %s: exit status %d\n", ESC(r->check, esc), r->check_status);
	fputs("\nDenied checks:\n", f);
	text_denials(f, r->sg, &t);
	if (r->enough)
		fprintf(f, "\nThis set is enough for what ran: the command exited 0%s%s.\n",
			r->check ? " and the check passed" : "",
			!r->sg->ndeny ? "" : blocking ? " (it carried on past the denials above)" :
			" (no denial made a syscall fail)");
	else
		fprintf(f, "\nThis set is not enough: %s%s.\n", r->exit_status ?
			"the command failed" : "the check failed",
			blocking ? "; the denials above that made a syscall fail are where to look" :
			!r->sg->ndeny ? "; no check was denied: the cause is not a capability check "
			"(see capaudit verify)" : "");
	/* the command as a shell takes it (quoted), then made safe to print */
	fprintf(f, "Record: %s (capaudit report --suggest -i %s)\n", ESC(r->record, esc),
		text_sanitize(shell_word(r->record ? r->record : "", word, sizeof(word)), wesc,
			      sizeof(wesc)));
	return ferror(f) ? -1 : 0;
}

/* ---- json ---------------------------------------------------------------- */

int json_run(FILE *f, const struct run_result *r)
{
	json_t *root = json_object(), *cmd = json_array();
	size_t i, blocking = 0;

	for (i = 0; r->cmd[i]; i++)
		json_array_append_new(cmd, json_bytes(r->cmd[i]));
	for (i = 0; i < r->sg->ndeny; i++)
		blocking += r->sg->deny[i].kind == DENY_BLOCKING;
	json_set(root, "command", cmd);
	json_set(root, "caps", json_capset(r->caps));
	json_set(root, "user", r->user ? json_bytes(r->user) : json_null());
	json_set(root, "exit_status", json_integer(r->exit_status));
	if (r->check) {
		json_set_bytes(root, "check", r->check);
		json_set(root, "check_status", json_integer(r->check_status));
	}
	json_set(root, "denials", json_denials(r->sg));
	json_set(root, "blocking_denials", json_uint(blocking));
	json_set(root, "enough", json_boolean(r->enough));
	json_set_bytes(root, "record", r->record);
	return json_write_pretty_free(f, root);
}
