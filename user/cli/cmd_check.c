// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit check --baseline FILE [RECORD...]: exit 0 when the records use
 * nothing the baseline does not allow, 1 with a readable diff when they do,
 * 2 on usage or input errors. --update rewrites the baseline instead.
 */
#include "cli/cmd_check.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/attrib.h"
#include "analyze/check.h"
#include "analyze/partial.h"
#include "analyze/recview.h"
#include "analyze/usite.h"
#include "facts/capnames.h"
#include "cli/options.h"
#include "lib/msg.h"
#include "lib/infile.h"
#include "lib/outfile.h"
#include "output/output.h"
#include "tracer/privs.h"
#include "recfile/recfile.h"
#include "recfile/load.h"
#include "lib/util.h"

enum { O_STRICT = CLI_LONG_ONLY, O_UPDATE, O_LENIENT, O_SOURCE_ROOT, O_CONTAINER, O_UNIT, O_MATCH };

/* What the command line asked for. */
struct check_args {
	const char *bpath, *source_root;
	const char *fmt_name;    /* --format, until formatter_select() */
	const struct formatter *fmt;
	struct suggest_opts so;
	struct workload_filter wf;
	enum check_match match;
	bool strict, update, lenient;
	bool given_records;      /* records named (else DEFAULT_RECORD) */
	char **records;
	size_t nrecords;
};

#define A struct check_args

static const struct cli_opt check_opts[] = {
	{ "baseline", 'b', required_argument, "FILE",
	  "the baseline: what the records may use (required)", NULL, CLI_ARG_FILE,
	  CLI_STRING(A, bpath) },
	{ "format", 'f', required_argument, "FORMAT",
	  "text (default), json, junit, sarif or github", NULL, CLI_ARG_FORMAT,
	  CLI_STRING(A, fmt_name) },
	{ "match", O_MATCH, required_argument, "LEVEL",
	  "what must match the baseline: capability, syscall or callsite",
	  "(default syscall: the capability and the syscalls that led to it; callsite: also "
	  "the kernel call sites, which differ between kernels, a function inlined or renamed)",
	  CLI_ARG_MATCH,
	  CLI_MATCH(A, match, "invalid --match '%s': capability, syscall or callsite") },
	{ "strict", O_STRICT, no_argument, NULL,
	  "capabilities the baseline allows but nothing used fail too", NULL, CLI_ARG_ANY,
	  CLI_FLAG(A, strict) },
	{ "update", O_UPDATE, no_argument, NULL,
	  "rewrite the baseline from the records and say what was added and removed",
	  "(what stays keeps its place, layout and notes)", CLI_ARG_ANY,
	  CLI_FLAG(A, update) },
	{ "program", 'p', required_argument, "NAME",
	  "judge only program images whose name or executable is NAME", NULL, CLI_ARG_ANY,
	  CLI_STRING(A, so.program) },
	{ "container", O_CONTAINER, required_argument, "X",
	  "judge only the processes of the container X: its id, a unique id prefix",
	  "(3 hex digits or more) or its name, in every record", CLI_ARG_ANY,
	  CLI_STRING(A, wf.container) },
	{ "unit", O_UNIT, required_argument, "NAME",
	  "judge only the processes of the systemd unit NAME (cron: cron.service)",
	  "in every record", CLI_ARG_ANY, CLI_STRING(A, wf.unit) },
	{ "lenient", O_LENIENT, no_argument, NULL,
	  "read what is valid in damaged records, warn what was skipped", NULL, CLI_ARG_ANY,
	  CLI_FLAG(A, lenient) },
	{ "source-root", O_SOURCE_ROOT, required_argument, "DIR",
	  "name files relative to DIR in what check prints (program lines, the baseline)",
	  "(default: the top of the git work tree the current directory is in, the "
	  "repository's root as CI annotations want it; outside one, the current directory)",
	  CLI_ARG_DIR, CLI_STRING(A, source_root) },
	{ 0 },
};

#undef A

static const struct cli_cmd check_cmd = {
	.name = "check",
	.synopsis = "capaudit check --baseline FILE [OPTIONS] [RECORD...]",
	.about = "  compare what the records show (required capabilities, the syscalls that led\n"
		 "  to them, their kernel call sites; denials) with what the baseline allows:\n"
		 "  capabilities, then syscalls; call sites only with --match callsite. Several\n"
		 "  records merge into one verdict (default record: " DEFAULT_RECORD ").\n",
	.opts = check_opts,
	.operands = CLI_ARG_FILE,
	.tail = "  exit: 0 nothing new, 1 something new (or unused with --strict), 2 errors\n",
};

/* Write b into the baseline opened for it: complete or untouched, with
 * its owner and mode (outfile.h). */
static int write_baseline(struct outfile *out, const struct baseline *b)
{
	char msg[1200];

	if (outfile_finish(out, baseline_write(out->f, b), msg, sizeof(msg))) {
		p_err("%s", msg);
		return -1;
	}
	return 0;
}


/* The check --update that takes what this check found into the baseline,
 * as one command to paste: the same baseline, records and choices of what
 * is observed (--container, --unit, --program, --lenient), every word
 * quoted for the shell. Cut short (and then no command) only past len. */
static void update_command(const struct check_args *a, char *buf, size_t len)
{
	const char *opt[] = { "--container", a->wf.container, "--unit", a->wf.unit,
			      "--program", a->so.program };
	char w[4200];
	size_t i, o;

	o = (size_t)snprintf(buf, len, "capaudit check --baseline %s --update",
			     shell_word(a->bpath, w, sizeof(w)));
	for (i = 0; i < ARRAY_SIZE(opt); i += 2)
		if (opt[i + 1] && o < len)
			o += (size_t)snprintf(buf + o, len - o, " %s %s", opt[i],
					      shell_word(opt[i + 1], w, sizeof(w)));
	if (a->lenient && o < len)
		o += (size_t)snprintf(buf + o, len - o, " --lenient");
	/* the records as given ("-" too: it is read again from a pipe);
	 * none given: check's default record, which it reads again */
	for (i = 0; a->given_records && i < a->nrecords && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, " %s%s", a->records[i][0] == '-' &&
				      a->records[i][1] ? "./" : "",
				      strcmp(a->records[i], "-") ?
				      shell_word(a->records[i], w, sizeof(w)) : "-");
	for (i = 0; a->given_records && i < a->nrecords && o < len; i++)
		if (!strcmp(a->records[i], "-")) {
			o += (size_t)snprintf(buf + o, len - o, " (with the record piped in again)");
			break;
		}
	if (o >= len)
		buf[0] = '\0';
}

/* The inputs and (--update) the output, opened with the caller's rights;
 * then every capability is dropped before a byte is parsed. */
struct check_files {
	FILE *base;              /* NULL: missing */
	FILE **rec;
	size_t nrec;
	struct outfile out;
	bool have_out;
};

static void close_files(struct check_files *cf)
{
	size_t i;

	infile_close(cf->base);
	for (i = 0; i < cf->nrec; i++)
		infile_close(cf->rec[i]);
	free(cf->rec);
	if (cf->have_out && cf->out.f)
		outfile_discard(&cf->out);
	outfile_keeper_stop();
	memset(cf, 0, sizeof(*cf));
}

static int open_files(struct check_files *cf, const struct check_args *a, bool *missing)
{
	const char *bpath = a->bpath;
	char err[1024], upd[8192];
	size_t i;

	memset(cf, 0, sizeof(*cf));
	*missing = false;
	cf->base = infile_open(bpath, err, sizeof(err));
	if (!cf->base) {
		*missing = errno == ENOENT;
		if (!(a->update && *missing)) {
			/* a broken baseline is never overwritten: its notes would be lost */
			update_command(a, upd, sizeof(upd));
			if (*missing && *upd)
				p_err("%s: create it from the record%s: %s", err,
				      a->nrecords == 1 ? "" : "s", upd);
			else
				p_err("%s", err);
			return -1;
		}
	}
	cf->rec = xcalloc(a->nrecords + 1, sizeof(*cf->rec));
	for (i = 0; i < a->nrecords; i++, cf->nrec++) {
		cf->rec[i] = infile_open(a->records[i], err, sizeof(err));
		if (!cf->rec[i]) {
			if (!a->given_records && errno == ENOENT)
				snprintf(err, sizeof(err), "%s: no such file: " RECORD_FIRST_HINT,
					 DEFAULT_RECORD);
			p_err("%s", err);
			return -1;
		}
	}
	/* a privileged caller drops its capabilities before it parses: the
	 * keeper process puts the baseline in place with them */
	if (a->update) {
		char advice[600];

		if (privs_keep_outputs(&bpath, 1, err, sizeof(err))) {
			p_err("%s", err);
			return -1;
		}
		if (outfile_open(&cf->out, bpath, OUTFILE_KEEP_OWNER, err, sizeof(err))) {
			outfile_advice(bpath, errno, "--baseline", advice, sizeof(advice));
			p_err("%s%s", err, advice);
			return -1;
		}
		cf->have_out = true;
	}
	if (privs_drop_all(err, sizeof(err))) {
		p_err("%s", err);
		return -1;
	}
	return 0;
}


/* The top of the git work tree dir lies in (the nearest directory, dir
 * itself or above, that holds a .git: a directory, or the file of a
 * linked work tree or submodule) into buf; false when there is none. dir
 * is a resolved absolute path. */
static bool work_tree_top(const char *dir, char *buf, size_t len)
{
	char probe[PATH_MAX + 8];
	struct stat st;
	size_t n;

	if (snprintf(buf, len, "%s", dir) >= (int)len)
		return false;
	for (;;) {
		snprintf(probe, sizeof(probe), "%s/.git", strcmp(buf, "/") ? buf : "");
		if (!stat(probe, &st))
			return true;
		n = strlen(buf);
		if (n <= 1)
			return false;
		while (n > 1 && buf[n - 1] != '/')
			n--;
		buf[n > 1 ? n - 1 : 1] = '\0';
	}
}

/* Where annotations name files from (struct check_view's source_root):
 * --source-root DIR (resolved), else the top of the git work tree of the
 * current directory, else the current directory. NULL when none can be
 * named (an unreadable current directory): paths then stay as recorded. */
static const char *annotation_root(const struct check_args *a, char *buf, size_t len)
{
	char cwd[PATH_MAX];

	if (a->source_root) {
		if (!realpath(a->source_root, cwd))
			return a->source_root;   /* as given: it may name a path elsewhere */
		snprintf(buf, len, "%s", cwd);
		return buf;
	}
	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	if (!work_tree_top(cwd, buf, len))
		snprintf(buf, len, "%s", cwd);
	return buf;
}

/* The baseline as annotations name it: relative to root when it lies
 * under it (its directory resolved, its own name kept: a symlink stays
 * itself), else as given. */
static const char *baseline_shown(const char *bpath, const char *root, char *buf, size_t len)
{
	char dir[PATH_MAX], *slash, *copy;
	const char *base, *rel;

	if (!root || !strcmp(bpath, "-"))
		return bpath;
	copy = xstrdup(bpath);
	slash = strrchr(copy, '/');
	base = slash ? slash + 1 : copy;
	if (slash)
		*slash = '\0';
	if (!realpath(slash ? (*copy ? copy : "/") : ".", dir) ||
	    snprintf(buf, len, "%s/%s", strcmp(dir, "/") ? dir : "", base) >= (int)len) {
		free(copy);
		return bpath;
	}
	free(copy);
	rel = usite_relative(buf, root);
	return rel == buf ? bpath : rel;
}

/* Options and operands: CLI_GO_ON, or the exit status (EXIT_OK after --help). */
static int parse_args(int argc, char **argv, struct check_args *a)
{
	static char *default_records[] = { DEFAULT_RECORD, NULL };
	struct cli_getopt g;
	int c;

	a->fmt_name = "text";
	a->match = MATCH_SYSCALL;
	cli_getopt_init(&g, &check_cmd, a);
	c = cli_next(&g, argc, argv);   /* every option goes into a */
	if (c != CLI_END)
		return cli_exit_status(c);
	a->fmt = formatter_select(a->fmt_name, FOR_CHECK);
	if (!a->fmt)
		return EXIT_USAGE;
	if (!a->bpath) {
		p_err("check needs --baseline FILE");
		return EXIT_USAGE;
	}
	a->given_records = optind < argc;
	a->records = optind < argc ? &argv[optind] : default_records;
	a->nrecords = optind < argc ? (size_t)(argc - optind) : 1;
	return CLI_GO_ON;
}

/* Record i into rec, and into workload the view of it that --container,
 * --unit and --pid choose (rec itself is never filtered); 0, or -1 (said;
 * nothing left to free). Each record must have that workload: a record
 * without is the wrong one. */
static int load_one(const struct check_args *a, struct check_files *cf, size_t i,
		    struct record *rec, struct rec_view *workload)
{
	const char *name = infile_name(a->records[i]);
	char err[1024];

	if (load_record_file(cf->rec[i], name, a->lenient, rec))
		return -1;
	if (record_view_workload(workload, rec, &a->wf, err, sizeof(err))) {
		p_err("%s: %s", name, err);
		rec_view_free(workload);
		record_free(rec);
		return -1;
	}
	return 0;
}

/* A record attached to running processes, or stopped while they ran: the
 * verdict may miss what they did then (analyze/partial.h). */
static void warn_partial(const char *name, const struct record *r)
{
	struct partial pa;
	char words[600], msg[1200], safe[2400];

	if (!record_partial(r, &pa) || !(pa.missed_start || pa.missed_end))
		return;   /* (losses: warn_lost() said) */
	pa.lost = false;
	snprintf(msg, sizeof(msg), "%s is a partial record: %s The verdict covers what was "
		 "recorded", name, partial_words(&pa, words, sizeof(words)));
	fprintf(stderr, "capaudit: warning: %s\n", text_sanitize(msg, safe, sizeof(safe)));
}

/* Records without user stacks (record --user-stacks): how many, and the
 * first one's name. */
struct stackless {
	size_t n;
	const char *first;
};

/* Every record into one observation; 0, or -1 when a record is unreadable
 * (said; obs is then freed). */
static int observe(const struct check_args *a, struct check_files *cf, struct observation *obs,
		   struct stackless *sl)
{
	size_t i;

	for (i = 0; i < a->nrecords; i++) {
		const char *name = infile_name(a->records[i]);
		const struct record *seen;
		struct rec_view workload;
		struct record rec;
		struct suggestion sg;

		if (load_one(a, cf, i, &rec, &workload)) {
			observation_free(obs);
			return -1;
		}
		seen = rec_view_record(&workload);
		if (!seen->nustacks && !sl->n++)
			sl->first = name;
		warn_lost(name, seen);
		warn_partial(name, seen);
		suggest_build(seen, &a->so, &sg);
		observation_add(obs, &sg);
		observation_add_user_sites(obs, seen);
		suggest_free(&sg);
		rec_view_free(&workload);
		record_free(&rec);
	}
	return 0;
}

/* "a, b, c, d and 3 more" of n names (sanitized) into buf. */
static const char *names_of(const struct bl_site *v, size_t n, char *buf, size_t len)
{
	char safe[600];
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < n && i < 4 && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "",
				      text_sanitize(v[i].func, safe, sizeof(safe)));
	if (n > 4 && o < len)
		snprintf(buf + o, len - o, " and %zu more", n - 4);
	return buf;
}

/* One line for what --update added or removed, plain. */
static void print_change(const struct bl_change *c)
{
	char n[CAP_NAME_LEN], what[CAP_NAME_LEN + 40], safe[600], note[700] = "", sys[2600],
		sites[2600];
	const struct bl_entry *e = c->entry;

	cap_name(c->cap, n);
	snprintf(what, sizeof(what), "%s%s", c->denied ? "the expected denial of " : "", n);
	if (c->note)
		snprintf(note, sizeof(note), " (its note was: %s)",
			 text_sanitize(c->note, safe, sizeof(safe)));
	if (c->syscall || c->site) {
		fprintf(stderr, "  %s %s %s %s %s%s%s\n", c->added ? "added" : "removed",
			c->syscall ? "syscall" : "kernel call site",
			text_sanitize(c->syscall ? c->syscall : c->site, safe, sizeof(safe)),
			c->added ? "to" : "of", what,
			c->added ? "" : c->syscall ? ": no record made it" : ": no record reached it",
			note);
		return;
	}
	if (!c->added) {
		fprintf(stderr, "  removed %s: no record %s it%s\n", what,
			c->denied ? "showed" : "used", note);
		return;
	}
	fprintf(stderr, "  added %s", what);
	if (e->nsys)
		fprintf(stderr, ", in syscall%s %s", e->nsys == 1 ? "" : "s",
			names_of(e->sys, e->nsys, sys, sizeof(sys)));
	if (e->nsites)
		fprintf(stderr, " at kernel call site%s %s", e->nsites == 1 ? "" : "s",
			names_of(e->sites, e->nsites, sites, sizeof(sites)));
	if (cap_words(c->cap))
		fprintf(stderr, ": it lets a program %s", cap_words(c->cap));
	fputc('\n', stderr);
}

/* The baseline's text (the bytes edited in place), when it reads as a
 * baseline that is exactly want; else NULL (written whole then). */
static char *edited_text(const char *text, size_t len, const struct baseline *want,
			 size_t *outlen)
{
	struct baseline back;
	char err[1024], *ed = baseline_edit(text, len, want, outlen);
	FILE *m = ed ? fmemopen(ed, *outlen ? *outlen : 1, "r") : NULL;
	bool same = false;

	if (m && !baseline_read(m, "edited", &back, err, sizeof(err))) {
		same = baseline_same(&back, want);
		baseline_free(&back);
	}
	if (m)
		fclose(m);
	if (!same) {
		free(ed);
		return NULL;
	}
	return ed;
}

/* --update: the baseline rewritten from what was observed, in the file's
 * own text (text: len bytes, NULL: no baseline yet), notes kept; what it
 * added and removed said, one line each. A baseline that already allows
 * exactly that is left as it is. */
static int update_baseline(const struct check_args *a, struct check_files *cf,
			   const struct observation *obs, const struct baseline *base,
			   const char *text, size_t len)
{
	struct baseline updated;
	struct bl_change *ch;
	char msg[1200], *ed = NULL;
	size_t i, nch, elen = 0;
	int rc;

	check_updated_baseline(obs, base, &updated);
	if (base && baseline_same(base, &updated)) {
		fprintf(stderr, "capaudit: %s already allows what the record%s show%s, no more: left "
			"as it is\n", a->bpath, a->nrecords == 1 ? "" : "s",
			a->nrecords == 1 ? "s" : "");
		baseline_free(&updated);
		return EXIT_OK;   /* the unfinished output is dropped unseen */
	}
	if (base && text) {
		ed = edited_text(text, len, &updated, &elen);
		if (!ed)
			fprintf(stderr, "capaudit: note: %s is written whole, in capaudit's order and "
				"layout: its own could not be kept\n", a->bpath);
	}
	if (ed) {
		errno = 0;
		rc = outfile_finish(&cf->out, fwrite(ed, 1, elen, cf->out.f) == elen ? 0 : -1, msg,
				    sizeof(msg));
		if (rc)
			p_err("%s", msg);
		rc = rc ? EXIT_FAIL : EXIT_OK;
	} else {
		rc = write_baseline(&cf->out, &updated) ? EXIT_FAIL : EXIT_OK;
	}
	free(ed);
	if (!rc) {
		fprintf(stderr, "capaudit: %s %s: %zu %s, %zu expected %s\n",
			base ? "updated" : "created", a->bpath, updated.ncaps,
			plural(updated.ncaps, "capability", "capabilities"), updated.ndenied,
			plural(updated.ndenied, "denial", "denials"));
		nch = check_update_changes(base, &updated, &ch);
		for (i = 0; i < nch; i++)
			print_change(&ch[i]);
		free(ch);
	}
	baseline_free(&updated);
	return rc;
}

/* The whole of f into *buf (*len bytes, NUL after them); 0, or -1 with
 * errno. */
static int read_all(FILE *f, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *p = xcalloc(cap, 1);

	while ((got = fread(p + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0) {
			cap *= 2;
			p = xrealloc(p, cap);
		}
	}
	if (ferror(f)) {
		free(p);
		return -1;
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
}

/* When a new finding has no line of the program, say once why it is
 * placed on the baseline file (github, junit, sarif), and what would name
 * the line. */
static void note_unplaced(const struct check_result *res, const struct stackless *sl)
{
	char safe[4200];
	size_t i, n = 0;

	for (i = 0; i < res->n; i++)
		n += res->f[i].kind <= FK_NEW_DENIAL && !res->f[i].usrc;
	if (!n)
		return;
	if (sl->n) {
		fprintf(stderr, "capaudit: note: %s", text_sanitize(sl->first, safe, sizeof(safe)));
		if (sl->n > 1)
			fprintf(stderr, " and %zu other record%s have", sl->n - 1,
				sl->n == 2 ? "" : "s");
		else
			fputs(" has", stderr);
		fputs(" no user stacks, so a finding is shown on the baseline file, not on the line "
		      "of the program that asked for the capability: record with capaudit record "
		      "--user-stacks, the program built with debug info and frame pointers (-g "
		      "-fno-omit-frame-pointer; docs/ci.md)\n", stderr);
		return;
	}
	fprintf(stderr, "capaudit: note: %zu finding%s no source line in the program's own "
		"code, so %s shown on the baseline file: the program that asked was built without "
		"debug info (-g), or it is not the project's own (a system tool such as chown)\n", n,
		n == 1 ? " has" : "s have", n == 1 ? "it is" : "they are");
}

/* The verdict: what was observed against the baseline, printed. */
static int compare(const struct check_args *a, const struct observation *obs,
		   struct baseline *base, const struct stackless *sl)
{
	struct check_result res;
	struct check_view view;
	char root[PATH_MAX], shown[2 * PATH_MAX], upd[8192];
	int rc;

	update_command(a, upd, sizeof(upd));
	/* a version 1 baseline lists no syscalls: say what is not compared */
	if (a->match >= MATCH_SYSCALL && check_entries_without_syscalls(base))
		fprintf(stderr, "capaudit: note: %s lists no syscalls for %zu entr%s (a version 1 "
			"baseline): only their capabilities%s are compared; %s adds them\n",
			infile_name(a->bpath), check_entries_without_syscalls(base),
			check_entries_without_syscalls(base) == 1 ? "y" : "ies",
			a->match == MATCH_CALLSITE ? " and call sites" : "",
			*upd ? upd : "check --update");
	check_compare(obs, base, a->strict, a->match, &res);
	/* the formats that place a finding on a file (text and json name the
	 * line under the finding when there is one) */
	if (strcmp(a->fmt->name, "text") && strcmp(a->fmt->name, "json"))
		note_unplaced(&res, sl);
	view.update_cmd = upd;
	view.r = &res;
	view.baseline = a->bpath;
	view.records = a->records;
	view.nrecords = a->nrecords;
	view.source_root = annotation_root(a, root, sizeof(root));
	view.baseline_shown = baseline_shown(a->bpath, view.source_root, shown, sizeof(shown));
	rc = a->fmt->check(stdout, &view);
	if (fflush(stdout) || rc) {
		p_err("cannot write the verdict: output error");
		rc = EXIT_USAGE;
	} else {
		rc = res.nfail ? EXIT_FAIL : EXIT_OK;
	}
	check_result_free(&res);
	return rc;
}

int do_check(int argc, char **argv, int all_argc, char **all_argv)
{
	struct check_args a = { 0 };
	struct observation obs = { 0 };
	struct stackless sl = { 0 };
	struct baseline base;
	struct check_files cf;
	bool missing = false, have_base;
	char err[1024], *text = NULL;
	size_t tlen = 0;
	FILE *mem = NULL;
	int rc;

	if ((rc = parse_args(argc, argv, &a)) != CLI_GO_ON)
		return rc;
	if (open_files(&cf, &a, &missing)) {
		close_files(&cf);
		return EXIT_USAGE;
	}
	/* --update edits the baseline's own text: read whole first */
	if (a.update && cf.base) {
		if (read_all(cf.base, &text, &tlen)) {
			p_err("%s: cannot read: %s", infile_name(a.bpath), strerror(errno));
			close_files(&cf);
			return EXIT_USAGE;
		}
		mem = fmemopen(text, tlen ? tlen : 1, "r");
		if (!mem) {
			p_err("%s: cannot read: %s", infile_name(a.bpath), strerror(errno));
			free(text);
			close_files(&cf);
			return EXIT_USAGE;
		}
		if (!tlen)
			fgetc(mem);   /* an empty file: at its end */
	}
	have_base = cf.base && !baseline_read(mem ? mem : cf.base, infile_name(a.bpath), &base, err,
					      sizeof(err));
	if (mem)
		fclose(mem);
	if (cf.base && !have_base) {
		free(text);
		p_err("%s", err);   /* never overwritten: its notes would be lost */
		close_files(&cf);
		return EXIT_USAGE;
	}
	if (observe(&a, &cf, &obs, &sl)) {
		rc = EXIT_USAGE;
	} else {
		if (a.update)
			rc = update_baseline(&a, &cf, &obs, have_base ? &base : NULL, text, tlen);
		else
			rc = compare(&a, &obs, &base, &sl);
		observation_free(&obs);
	}
	if (have_base)
		baseline_free(&base);
	free(text);
	close_files(&cf);
	return rc;
}
