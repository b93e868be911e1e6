// SPDX-License-Identifier: GPL-2.0
/*
 * report --emit KIND: the required set (replacements applied) in the form
 * people paste into their configuration. Only the snippet goes to stdout.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "facts/capnames.h"
#include "output/output.h"
#include "analyze/suggest.h"
#include "lib/util.h"

const char *const emit_kinds[] = { "setcap", "systemd", "docker", "kubernetes", "capsh", NULL };

/* Print the caps of mask: prefix + NAME (lower-cased, "cap_" kept or cut) + sep. */
static void caps(FILE *f, uint64_t mask, const char *sep, bool lower, bool strip)
{
	char n[CAP_NAME_LEN];
	bool first = true;
	int c, i;

	for_each_cap(c, mask) {
		cap_name(c, n);
		if (lower)
			for (i = 0; n[i]; i++)
				n[i] = (char)tolower((unsigned char)n[i]);
		fprintf(f, "%s%s", first ? "" : sep, strip && !strncasecmp(n, "cap_", 4) ? n + 4 : n);
		first = false;
	}
}

/* Quote s for a POSIX shell. */
static void shell_quote(FILE *f, const char *s)
{
	bool plain = *s != '\0';
	const char *p;

	for (p = s; *p && plain; p++)
		plain = isalnum((unsigned char)*p) || strchr("/._-=:,+@", *p);
	if (plain) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (p = s; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

/* The audited command: what followed "--" in capaudit's command line. */
static void print_command(FILE *f, const struct suggestion *s)
{
	const struct rec_header *h = &s->rec->hdr;
	size_t i, start = h->argc;

	for (i = 0; i < h->argc; i++) {
		if (!strcmp(h->argv[i], "--")) {
			start = i + 1;
			break;
		}
	}
	if (start >= h->argc) {
		fputs("COMMAND", f);
		return;
	}
	for (i = start; i < h->argc; i++) {
		char *clean = utf8_sanitize(h->argv[i], strlen(h->argv[i]));
		char safe[4096];

		/* terminal-safe: control bytes as \xNN, then quoted */
		shell_quote(f, text_escape(clean, safe, sizeof(safe)));
		free(clean);
		if (i + 1 < h->argc)
			fputc(' ', f);
	}
}

static int emit_setcap(FILE *f, const struct suggestion *s)
{
	char safe[4200];
	size_t i, j;
	bool any = false;

	/* file capabilities belong to each executable: one line per program,
	 * the union of what every image of it needed (the first image may
	 * have needed nothing: a later one decides too) */
	for (i = 0; i < s->nprogs; i++) {
		const struct sg_program *p = &s->progs[i];
		uint64_t mask = p->required;
		bool dup = false;

		if (!p->matched || !p->proc->exe)
			continue;
		for (j = 0; j < i; j++)
			dup |= s->progs[j].matched && s->progs[j].proc->exe &&
			       !strcmp(s->progs[j].proc->exe, p->proc->exe);
		if (dup)
			continue;
		for (j = i + 1; j < s->nprogs; j++)
			if (s->progs[j].matched && s->progs[j].proc->exe &&
			    !strcmp(s->progs[j].proc->exe, p->proc->exe))
				mask |= s->progs[j].required;
		if (!mask)
			continue;
		fputs("setcap ", f);
		caps(f, mask, ",", true, false);
		fputs("+ep ", f);
		shell_quote(f, text_escape(p->proc->exe, safe, sizeof(safe)));
		fputc('\n', f);
		any = true;
	}
	if (!any)
		fputs("# no program needs a capability: nothing to set "
		      "(setcap -r FILE removes file capabilities)\n", f);
	return 0;
}

static int emit_systemd(FILE *f, const struct suggestion *s)
{
	fputs("[Service]\nCapabilityBoundingSet=", f);
	caps(f, s->required, " ", false, false);
	fputs("\nAmbientCapabilities=", f);
	caps(f, s->required, " ", false, false);
	fputs("\nNoNewPrivileges=yes\n", f);
	return 0;
}

static int emit_docker(FILE *f, const struct suggestion *s)
{
	char n[CAP_NAME_LEN];
	int c;

	fputs("--cap-drop=ALL", f);
	for_each_cap(c, s->required) {
		cap_name(c, n);
		fprintf(f, " --cap-add=%s", strncmp(n, "CAP_", 4) ? n : n + 4);
	}
	fputc('\n', f);
	return 0;
}

static int emit_kubernetes(FILE *f, const struct suggestion *s)
{
	char n[CAP_NAME_LEN];
	bool first = true;
	int c;

	fputs("securityContext:\n  capabilities:\n    drop: [\"ALL\"]\n    add: [", f);
	for_each_cap(c, s->required) {
		cap_name(c, n);
		fprintf(f, "%s\"%s\"", first ? "" : ", ", strncmp(n, "CAP_", 4) ? n : n + 4);
		first = false;
	}
	fputs("]\n", f);
	return 0;
}

static int emit_capsh(FILE *f, const struct suggestion *s)
{
	/* as root the bounding set is what limits the command; --inh and
	 * --addamb keep the set across exec for a non-root --user */
	uint64_t all = 0;
	int c, max = (int)cap_max_bits();

	for (c = 0; c < max && c < 64; c++)
		all |= 1ULL << c;
	fputs("capsh", f);
	if (all & ~s->required) {
		fputs(" --drop=", f);
		caps(f, all & ~s->required, ",", true, false);
	}
	if (s->required) {
		fputs(" --inh=", f);
		caps(f, s->required, ",", true, false);
		fputs(" --addamb=", f);
		caps(f, s->required, ",", true, false);
	}
	fputs(" -- -c ", f);
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		print_command(m, s);
		fclose(m);
		shell_quote(f, buf ? buf : "");
		free(buf);
	}
	fputc('\n', f);
	return 0;
}

int emit_snippet(FILE *f, const char *kind, const struct suggestion *s)
{
	if (!strcmp(kind, "setcap"))
		return emit_setcap(f, s);
	if (!strcmp(kind, "systemd"))
		return emit_systemd(f, s);
	if (!strcmp(kind, "docker"))
		return emit_docker(f, s);
	if (!strcmp(kind, "kubernetes"))
		return emit_kubernetes(f, s);
	if (!strcmp(kind, "capsh"))
		return emit_capsh(f, s);
	return -1;
}
