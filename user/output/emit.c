// SPDX-License-Identifier: GPL-2.0
/*
 * report --emit KIND: the required set (replacements applied) in the form
 * people paste into their configuration. Only the snippet goes to stdout.
 */
#include <ctype.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "facts/capnames.h"
#include "output/output.h"
#include "analyze/partial.h"
#include "analyze/suggest.h"
#include "lib/util.h"

const char *const emit_kinds[] = { "setcap", "systemd", "docker", "compose", "kubernetes",
				    "capsh", NULL };

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

/* Where the audited command starts in capaudit's command line: after
 * "--"; argc when there is none. */
static size_t command_start(const struct rec_header *h)
{
	size_t i;

	for (i = 0; i < h->argc; i++)
		if (!strcmp(h->argv[i], "--"))
			return i + 1;
	return h->argc;
}

static bool same_command(const struct rec_header *a, const struct rec_header *b)
{
	size_t i, sa = command_start(a), sb = command_start(b);

	if (a->argc - sa != b->argc - sb)
		return false;
	for (i = 0; sa + i < a->argc; i++)
		if (strcmp(a->argv[sa + i], b->argv[sb + i]))
			return false;
	return true;
}

/* Every input of a merged record ran the first one's command. */
static bool one_command(const struct record *r)
{
	size_t i;

	for (i = 1; i < r->ninputs; i++)
		if (!same_command(&r->inputs[0].hdr, &r->inputs[i].hdr))
			return false;
	return true;
}

/* The audited command: what followed "--" in capaudit's command line;
 * COMMAND when there is none, or merged records ran different ones. */
static void print_command(FILE *f, const struct suggestion *s)
{
	const struct rec_header *h = &s->rec->hdr;
	size_t i, start = command_start(h);

	if (start >= h->argc || !one_command(s->rec)) {
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
	char safe[4200], interp[256];
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
		if (exec_file_kind(p->proc->exe, interp, sizeof(interp)) == EXEC_SCRIPT) {
			/* the kernel ignores file capabilities on scripts
			 * (fs/binfmt_script.c: the interpreter is executed) */
			fputs("# ", f);
			fputs(text_escape(p->proc->exe, safe, sizeof(safe)), f);
			fputs(" is a script: the kernel ignores file capabilities on scripts.\n"
			      "# Give the process the set instead (--emit systemd or capsh: "
			      "ambient capabilities);\n"
			      "# on its interpreter, every script it runs would get them:\n# setcap ", f);
			caps(f, mask, ",", true, false);
			fputs("+ep ", f);
			shell_quote(f, text_escape(interp, safe, sizeof(safe)));
			fputc('\n', f);
			any = true;
			continue;
		}
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

/* ---- what the record says about users and privilege gains ---------- */

/* The image's program for a note: its executable, else its name. */
static const char *image_name(const struct rec_process *p, char *buf, size_t len)
{
	return text_escape(p->exe ? p->exe : p->comm ? p->comm : "?", buf, len);
}

/* A unit name fit for a path and a comment line: systemd's own characters
 * (a cgroup path is the workload's to choose), ending in ".service". */
static bool service_name_ok(const char *u)
{
	size_t n = u ? strlen(u) : 0;
	const char *p;

	if (n <= 8 || n > 255 || strcmp(u + n - 8, ".service"))
		return false;
	for (p = u; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(":-_.\\@", *p))
			return false;
	return true;
}

/* A user name User= takes as it is (else the uid is given): the portable
 * characters, not starting with a digit or '-'. */
static bool user_name_ok(const char *u)
{
	const char *p;

	if (!u || !*u || strlen(u) > 64 || isdigit((unsigned char)*u) || *u == '-')
		return false;
	for (p = u; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return false;
	return true;
}

/* Comment lines (each "IND# TEXT") saying why SETTING is left out, when the
 * record does not show that no exec gained privilege. false: nothing to
 * say, the setting is sound. */
static bool gain_note(FILE *f, const char *ind, const char *setting, const struct runas *r)
{
	char name[600];

	switch (r->gain) {
	case GAIN_NONE:
		return false;
	case GAIN_SEEN:
		fprintf(f, "%s# %s left out: %s", ind, setting,
			image_name(r->gainer, name, sizeof(name)));
		if (r->ngainers > 1)
			fprintf(f, " (and %zu more)", r->ngainers - 1);
		fprintf(f, " gained privilege at exec\n%s# (a setuid or setgid bit, or file "
			"capabilities): with it the kernel would refuse that\n", ind);
		return true;
	case GAIN_UNKNOWN:
		if (r->version < 4)
			fprintf(f, "%s# %s left out: a version %d record does not say whether an "
				"exec\n%s# gained privilege (setuid bit, file capabilities); record "
				"again to know\n", ind, setting, r->version, ind);
		else
			fprintf(f, "%s# %s left out: %s of the record were lost, and with them\n"
				"%s# whether an exec gained privilege (setuid bit, file "
				"capabilities)\n", ind, setting,
				r->events_lost ? "process events" : "lines", ind);
		return true;
	}
	return false;
}

/* Comment lines saying why no user is set (SETTING) though not every
 * process ran as root: nothing when one user or root ran them all. */
static void user_note(FILE *f, const char *ind, const char *setting, const struct runas *r)
{
	if (runas_one_user(r) || runas_all_root(r) || !r->nuids)
		return;
	if (r->events_lost || r->lines_lost)
		fprintf(f, "%s# no %s: process lines were lost, so not every user is known\n",
			ind, setting);
	else if (r->userns)
		fprintf(f, "%s# no %s: the checks ran inside a user namespace, whose users\n"
			"%s# the record shows as the host's uids (%u%s)\n", ind, setting, ind,
			r->uids[0], r->nuids > 1 ? ", ..." : "");
	else if (r->nuids > 1)
		fprintf(f, "%s# no %s: the processes ran as more than one user (uids %u, %u%s)\n",
			ind, setting, r->uids[0], r->uids[1], r->nuids > 2 ? ", ..." : "");
	/* root: nothing to set, nothing to explain */
}

/* A container's non-root user gets added capabilities in its bounding set
 * only (Docker, and Kubernetes through containerd or CRI-O: no ambient
 * set), so an exec can gain them from file capabilities and nothing else:
 * say so, and that forbidding privilege gains (SETTING) would stop that
 * too. true when said (then SETTING is left out). */
static bool nonroot_note(FILE *f, const char *ind, const char *who, const char *setting,
			 const struct suggestion *s)
{
	if (!runas_one_user(&s->runas) || !s->required)
		return false;
	fprintf(f, "%s# uid %u is not root: %s adds capabilities to a non-root user's\n"
		"%s# bounding set only, not to its effective set. The program gets them\n"
		"%s# from file capabilities in the image (capaudit report --emit setcap),\n"
		"%s# which %s would make the kernel ignore: left out\n",
		ind, s->runas.uids[0], who, ind, ind, ind, setting);
	return true;
}

/* ---- the snippets -------------------------------------------------------- */

/* A drop-in: it changes what the vendor's unit says without copying it.
 * An empty assignment first resets each list the unit may have set (the
 * lines that follow are merged into the list, not replacing it). */
static int emit_systemd(FILE *f, const struct suggestion *s)
{
	const struct runas *r = &s->runas;
	bool known = service_name_ok(r->unit);
	const char *unit = known ? r->unit : "NAME.service";

	fprintf(f, "# /etc/systemd/system/%s.d/capaudit.conf\n", unit);
	fprintf(f, "# then: systemctl daemon-reload && systemctl restart %s\n", unit);
	if (known && r->user_unit)
		fputs("# (a system service: it ran under a user manager, which can neither\n"
		      "# give nor drop capabilities; a user service with these fails to start)\n", f);
	fputs("[Service]\n# each empty assignment resets what the unit itself set\n"
	      "CapabilityBoundingSet=\n", f);
	if (s->required) {
		fputs("CapabilityBoundingSet=", f);
		caps(f, s->required, " ", false, false);
		fputc('\n', f);
	}
	fputs("AmbientCapabilities=\n", f);
	if (s->required && runas_one_user(r) && !runas_all_root(r)) {
		/* a non-root User= keeps capabilities across exec only as ambient
		 * ones (root gets the bounding set's anyway) */
		fputs("AmbientCapabilities=", f);
		caps(f, s->required, " ", false, false);
		fputc('\n', f);
	} else if (s->required && r->nuids > 1)
		/* no User=: the service starts as root; a change of user clears
		 * the ambient set (security/commoncap.c cap_emulate_setxuid()) */
		fputs("# no AmbientCapabilities: without User= the service starts as root, which\n"
		      "# has the bounding set's capabilities; the kernel clears ambient ones when\n"
		      "# the program changes user\n", f);
	if (runas_one_user(r)) {
		struct passwd *pw = getpwuid(r->uids[0]);

		/* the name is this machine's for that uid: say which uid it was */
		if (pw && user_name_ok(pw->pw_name)) {
			fprintf(f, "# every process ran as uid %u (%s here)\n", r->uids[0],
				pw->pw_name);
			fprintf(f, "User=%s\n", pw->pw_name);
		} else {
			fprintf(f, "# every process ran as uid %u\nUser=%u\n", r->uids[0], r->uids[0]);
		}
	} else {
		user_note(f, "", "User=", r);
	}
	if (!gain_note(f, "", "NoNewPrivileges=yes", r))
		fputs("NoNewPrivileges=yes\n", f);
	return 0;
}

/* Capability names as containers take them: without "CAP_", each one in
 * QUOTE, separated by SEP. */
static void container_caps(FILE *f, uint64_t mask, const char *before, const char *sep,
			   const char *quote)
{
	char n[CAP_NAME_LEN];
	bool first = true;
	int c;

	for_each_cap(c, mask) {
		cap_name(c, n);
		fprintf(f, "%s%s%s%s", first ? "" : sep, before, quote,
			strncmp(n, "CAP_", 4) ? n : n + 4);
		fputs(quote, f);
		first = false;
	}
}

/* docker run's flags on one line, after the notes (comment lines): the
 * line alone is `grep -v '^#'`. */
static int emit_docker(FILE *f, const struct suggestion *s)
{
	bool no_nnp = nonroot_note(f, "", "Docker", "--security-opt no-new-privileges", s);

	no_nnp |= gain_note(f, "", "--security-opt no-new-privileges", &s->runas);
	user_note(f, "", "--user", &s->runas);
	fputs("--cap-drop ALL", f);
	if (s->required)
		fputc(' ', f);
	container_caps(f, s->required, "--cap-add ", " ", "");
	if (!no_nnp)
		fputs(" --security-opt no-new-privileges", f);
	if (runas_one_user(&s->runas))
		fprintf(f, " --user %u", s->runas.uids[0]);
	fputc('\n', f);
	return 0;
}

/* The keys of one service in compose.yaml. */
static int emit_compose(FILE *f, const struct suggestion *s)
{
	bool no_nnp;

	fputs("# compose.yaml: under services: NAME:\n", f);
	no_nnp = nonroot_note(f, "", "Docker", "no-new-privileges", s);
	no_nnp |= gain_note(f, "", "security_opt no-new-privileges", &s->runas);
	user_note(f, "", "user", &s->runas);
	fputs("cap_drop: [\"ALL\"]\n", f);
	if (s->required) {
		fputs("cap_add: [", f);
		container_caps(f, s->required, "", ", ", "\"");
		fputs("]\n", f);
	}
	if (!no_nnp)
		fputs("security_opt: [\"no-new-privileges:true\"]\n", f);
	if (runas_one_user(&s->runas))
		fprintf(f, "user: \"%u\"\n", s->runas.uids[0]);
	return 0;
}

/* A container's securityContext (spec.containers[].securityContext). */
static int emit_kubernetes(FILE *f, const struct suggestion *s)
{
	bool no_ape;

	fputs("securityContext:\n  capabilities:\n    drop: [\"ALL\"]\n", f);
	if (s->required) {
		fputs("    add: [", f);
		container_caps(f, s->required, "", ", ", "\"");
		fputs("]\n", f);
	}
	no_ape = nonroot_note(f, "  ", "Kubernetes", "allowPrivilegeEscalation: false", s);
	no_ape |= gain_note(f, "  ", "allowPrivilegeEscalation: false", &s->runas);
	if (!no_ape)
		fputs("  allowPrivilegeEscalation: false\n", f);
	if (runas_one_user(&s->runas))
		fprintf(f, "  runAsUser: %u\n  runAsNonRoot: true\n", s->runas.uids[0]);
	else
		user_note(f, "  ", "runAsUser", &s->runas);
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

static int emit_kind(FILE *f, const char *kind, const struct suggestion *s);

/*
 * Capabilities only verify can decide (asked before a rule that allows
 * without them: docs/capsites.md) are granted in the snippet, so that it
 * works as it is, with a note naming them: verify finds which can go.
 */
int emit_snippet(FILE *f, const char *kind, const struct suggestion *s)
{
	struct suggestion with;
	char buf[CAPSET_STR_LEN];
	struct partial pa;
	size_t i;
	int rc;

	if (record_partial(s->rec, &pa)) {
		char pw[600];

		fprintf(f, "# WARNING: made from a partial record, this may miss capabilities: %s\n"
			"# (%s)\n", partial_words(&pa, pw, sizeof(pw)), partial_remedy);
	}

	if (!s->undecided_caps)
		return emit_kind(f, kind, s);
	fprintf(f, "# %s: granted, but only capaudit verify can tell whether it is needed\n"
		"# (report --suggest says why, under \"Only verify can decide\")\n",
		capset_str(s->undecided_caps, buf, sizeof(buf)));
	with = *s;
	with.required |= s->undecided_caps;
	with.progs = xcalloc(s->nprogs + 1, sizeof(*with.progs));
	for (i = 0; i < s->nprogs; i++) {
		with.progs[i] = s->progs[i];
		with.progs[i].required |= s->progs[i].undecided & s->undecided_caps;
	}
	rc = emit_kind(f, kind, &with);
	free(with.progs);
	return rc;
}

static int emit_kind(FILE *f, const char *kind, const struct suggestion *s)
{
	if (!strcmp(kind, "setcap"))
		return emit_setcap(f, s);
	if (!strcmp(kind, "systemd"))
		return emit_systemd(f, s);
	if (!strcmp(kind, "docker"))
		return emit_docker(f, s);
	if (!strcmp(kind, "compose"))
		return emit_compose(f, s);
	if (!strcmp(kind, "kubernetes"))
		return emit_kubernetes(f, s);
	if (!strcmp(kind, "capsh"))
		return emit_capsh(f, s);
	return -1;
}
