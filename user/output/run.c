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
	if (r->service)
		fprintf(f, "  unit: %s (its ExecStart=, with its drop-ins)\n", ESC(r->service, esc));
	fprintf(f, "  as: %s\n", r->user ? ESC(r->user, esc) : "root");
	fprintf(f, "  exit status: %d\n", r->exit_status);
	if (r->check)
		fprintf(f, "  check: %s: exit status %d\n", ESC(r->check, esc), r->check_status);
	fputs("\nDenied checks:\n", f);
	text_denials(f, r->sg, &t);
	switch (r->verdict.v) {
	case RV_ENOUGH:
		fprintf(f, "\nThis set is enough for what ran: the command exited 0%s%s.\n",
			r->check ? " and the check passed" : "",
			!r->sg->ndeny ? "" : r->verdict.refused ? " (the check says it did its job "
			"past the refusals above)" : blocking ? " (it carried on past the denials "
			"above: programs try some and do without)" : " (no denial made a syscall "
			"fail or changed what one did)");
		break;
	case RV_CHANGED:
		fprintf(f, "\nThis set is not enough: the command exited 0, but %s.\n",
			counted_denial_words(r->verdict.why, word, sizeof(word)));
		break;
	case RV_REFUSED:
		fprintf(f, "\nThis set is not shown to be enough: the command exited 0, but %s. "
			"Whether it did its job without it, only a check can say (--check TEST).\n",
			counted_denial_words(r->verdict.why, word, sizeof(word)));
		break;
	default:
		fprintf(f, "\nThis set is not enough: %s%s.\n", r->exit_status ?
			"the command failed" : "the check failed",
			blocking ? "; the denials above that made a syscall fail are where to look" :
			!r->sg->ndeny ? "; no check was denied: the cause is not a capability check "
			"(see capaudit verify)" : "");
		break;
	}
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
	json_set(root, "service", r->service ? json_bytes(r->service) : json_null());
	json_set(root, "exit_status", json_integer(r->exit_status));
	if (r->check) {
		json_set_bytes(root, "check", r->check);
		json_set(root, "check_status", json_integer(r->check_status));
	}
	json_set(root, "denials", json_denials(r->sg));
	json_set(root, "blocking_denials", json_uint(blocking));
	json_set(root, "enough", json_boolean(r->enough));
	json_set(root, "verdict", json_string(run_verdict_name(r->verdict.v)));
	if (r->verdict.why) {
		char word[1200];

		json_set(root, "verdict_why", json_string(counted_denial_words(r->verdict.why, word,
									       sizeof(word))));
	}
	json_set_bytes(root, "record", r->record);
	return json_write_pretty_free(f, root);
}
