// SPDX-License-Identifier: GPL-2.0
/* Option tables -> getopt_long's inputs, the --help text and the
 * --list-options listings (options.h). */
#include "cli/options.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/attrib.h"
#include "analyze/check.h"
#include "facts/attach.h"
#include "facts/capnames.h"
#include "lib/msg.h"
#include "lib/spell.h"
#include "lib/util.h"
#include "output/output.h"

#define HELP_COL 26    /* where an option's explanation starts */
#define WIDTH 80       /* explanations wrap before this column */

/* getopt_long's value for --list-options: no table can hold it */
#define LIST_OPTIONS (CLI_LONG_ONLY + 4096)

/* every command has -h, --help; it is listed like the table's own */
static const struct cli_opt help_opt = {
	"help", 'h', no_argument, NULL, "print this help and exit", NULL, CLI_ARG_ANY, CLI_CUSTOM,
};

static void add_opt(struct cli_getopt *g, size_t *n, const struct cli_opt *o)
{
	if (*n == CLI_MAX_OPTS) {
		/* a table that outgrew CLI_MAX_OPTS: a programming error */
		p_err("internal error: more than %d options", CLI_MAX_OPTS);
		abort();
	}
	/* a value stored takes an argument, a flag none: else a programming error */
	if (o->to.how != CLI_TO_CUSTOM &&
	    (o->to.how == CLI_TO_TRUE) != (o->has_arg == no_argument)) {
		p_err("internal error: --%s: its argument and where it goes disagree", o->lng);
		abort();
	}
	g->longs[(*n)++] = (struct option){ o->lng, o->has_arg, NULL, o->shrt };
	if (o->shrt < CLI_LONG_ONLY) {
		char *s = g->shorts + strlen(g->shorts);

		*s++ = (char)o->shrt;
		if (o->has_arg == required_argument)
			*s++ = ':';
		*s = '\0';
	}
}

void cli_getopt_init(struct cli_getopt *g, const struct cli_cmd *cmd, void *args)
{
	const struct cli_opt *o;
	size_t n = 0;

	memset(g, 0, sizeof(*g));
	g->cmd = cmd;
	g->args = args;
	/* '+': what follows the first operand is the audited command's */
	if (cmd->in_order)
		g->shorts[0] = '+';
	/* '-': operands come back in order with the options (report's
	 * -i FILE and FILE both name inputs: the first is the first given) */
	else if (cmd->operands_inline)
		g->shorts[0] = '-';
	/* ':' (after those): a missing argument is ':', not '?', and getopt
	 * prints nothing; bad_option() says what is wrong, in one line */
	strcat(g->shorts, ":");
	for (o = cmd->opts; o->lng; o++)
		add_opt(g, &n, o);
	add_opt(g, &n, &help_opt);
	/* --list-options=full: the whole table */
	g->longs[n++] = (struct option){ "list-options", optional_argument, NULL, LIST_OPTIONS };
	optind = 1;
}

static void list_options(const struct cli_cmd *cmd)
{
	const struct cli_opt *o;

	for (o = cmd->opts; o->lng; o++)
		printf("--%s\n", o->lng);
	printf("--%s\n", help_opt.lng);
}

/* "TAG\tLINE\n" for each line of s, its leading blanks dropped */
static void put_lines(const char *tag, const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, "\n");
		const char *l = s + strspn(s, " ");

		if (l < s + n)
			printf("%s\t%.*s\n", tag, (int)(s + n - l), l);
		s += n;
		s += *s == '\n';
	}
}

/* The words an option's argument may be, as --list-options=full gives them
 * (options.h): the tables they come from, so that they cannot go stale. */
static void put_complete(const struct cli_cmd *cmd, const struct cli_opt *o)
{
	static const char *const kinds[] = {
		[CLI_ARG_ANY] = "text", [CLI_ARG_FILE] = "file", [CLI_ARG_DIR] = "dir",
		[CLI_ARG_USER] = "user", [CLI_ARG_PIDS] = "pids", [CLI_ARG_UNITFILE] = "unitfile",
	};
	char buf[CAP_NAME_LEN + 512];
	const char *const *w;
	int i;

	if (o->has_arg == no_argument)
		return;
	switch (o->kind) {
	case CLI_ARG_CAPS:
	case CLI_ARG_CAPNAMES:
		fputs("list", stdout);
		for (i = 0; i <= CAP_LAST_CAP; i++)
			printf(" %s", cap_name(i, buf));
		if (o->kind == CLI_ARG_CAPS)
			fputs(" none", stdout);
		return;
	case CLI_ARG_ATTACH:
		fputs("list", stdout);
		for (i = 0; i < ATTACH_NR; i++)
			printf(" %s", attach_mode_name((enum attach_mode)i));
		return;
	case CLI_ARG_EMIT:
		fputs("one", stdout);
		for (w = emit_kinds; *w; w++)
			printf(" %s", *w);
		return;
	case CLI_ARG_FORMAT:
		printf("one %s", formatter_names(cmd->name, " ", buf, sizeof(buf)));
		return;
	case CLI_ARG_BY:
		fputs("one", stdout);
		for (i = BY_PROCESS; i <= BY_CGROUP; i++)
			printf(" %s", report_by_name((enum report_by)i));
		/* given besides one of those (cmd_report.c) */
		fputs(" user-site", stdout);
		return;
	case CLI_ARG_MATCH:
		fputs("one", stdout);
		for (i = MATCH_CAPABILITY; i <= MATCH_CALLSITE; i++)
			printf(" %s", check_match_name((enum check_match)i));
		return;
	default:
		if (o->kind >= 0 && (size_t)o->kind < sizeof(kinds) / sizeof(kinds[0]) &&
		    kinds[o->kind])
			fputs(kinds[o->kind], stdout);
		else
			fputs("text", stdout);
	}
}

static void list_full(const struct cli_cmd *cmd)
{
	const struct cli_opt *o = cmd->opts;

	printf("command\t%s\t%s\n", cmd->name,
	       cmd->in_order ? "command" : cmd->operands == CLI_ARG_FILE ? "file" : "");
	put_lines("usage", cmd->synopsis);
	put_lines("about", cmd->about);
	for (;; o++) {
		if (!o->lng)
			o = &help_opt;
		printf("option\t--%s\t", o->lng);
		if (o->shrt < CLI_LONG_ONLY)
			printf("-%c", o->shrt);
		printf("\t%s\t", o->arg ? o->arg : "");
		put_complete(cmd, o);
		printf("\t%s\t%s\n", o->help, o->more ? o->more : "");
		if (o == &help_opt)
			break;
	}
	put_lines("tail", cmd->tail);
}

/*
 * JSON decided once, before any option is acted on: a first, silent pass
 * over the command line for the command's format option, so that an error
 * in an option given before --format json (report --by bogus --format
 * json) is already JSON on stdout. The last --format given counts, as in
 * the real pass; the audited command's own options (after the first
 * operand of run and verify: '+') are not read.
 */
static void scan_format(const struct cli_getopt *g, int argc, char **argv)
{
	const struct cli_opt *o;
	const char *fmt = NULL;
	int save_opterr = opterr, c, f = 0;

	for (o = g->cmd->opts; o->lng; o++)
		if (o->kind == CLI_ARG_FORMAT)
			f = o->shrt;
	if (!f)
		return;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g->shorts, g->longs, NULL)) != -1)
		if (c == f)
			fmt = optarg;
	opterr = save_opterr;
	optind = 0;   /* glibc: a full restart of getopt's state */
	if (fmt && formatter_find(fmt) == &output_json)
		cli_json_errors = true;
}

/* The long option named by arg ("--NAME" or "--NAME=VALUE"), as getopt
 * takes it: the exact name, else the one it is a prefix of. NULL when none
 * or several; *nmatch says how many it is a prefix of. */
static const struct option *long_named(const struct cli_getopt *g, const char *arg,
				       size_t *nmatch)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "="), k;
	const struct option *hit = NULL;

	*nmatch = 0;
	for (k = 0; g->longs[k].name; k++) {
		if (strncmp(g->longs[k].name, name, len))
			continue;
		if (!g->longs[k].name[len]) {
			*nmatch = 1;
			return &g->longs[k];
		}
		if (g->longs[k].val != LIST_OPTIONS) {   /* hidden: never offered */
			hit = &g->longs[k];
			++*nmatch;
		}
	}
	return *nmatch == 1 ? hit : NULL;
}

/* The table's entry of an option getopt_long returned as val. */
static const struct cli_opt *opt_of(const struct cli_getopt *g, int val)
{
	const struct cli_opt *o;

	for (o = g->cmd->opts; o->lng; o++)
		if (o->shrt == val)
			return o;
	return val == help_opt.shrt ? &help_opt : NULL;
}

/* " (ARG)" for an option's argument, or "" */
static const char *arg_words(const struct cli_opt *o, char *buf, size_t len)
{
	if (!o || !o->arg)
		return "";
	snprintf(buf, len, " (%s)", o->arg);
	return buf;
}

/* The long option nearest to word (lib/spell.h: itself when it is one),
 * or NULL when none is near. */
static const char *nearest_long(const struct cli_getopt *g, const char *word)
{
	struct spell sp;
	size_t k;

	spell_init(&sp, word);
	for (k = 0; g->longs[k].name; k++)
		if (g->longs[k].val != LIST_OPTIONS)
			spell_try(&sp, g->longs[k].name);
	return spell_best(&sp);
}

/*
 * A long option typed with one dash ("-suggest") reaches getopt as a
 * cluster of short ones and is refused at its first letter; the element
 * holding it is argv[optind] (cluster not ended) or argv[optind - 1]. When
 * that word, without its dash, is a long option or close to one, offer it.
 */
static const char *one_dash_long(const struct cli_getopt *g, int argc, char **argv, char *out,
				 size_t outsz)
{
	int i;

	for (i = optind - 1; i <= optind && i < argc; i++) {
		const char *w = i > 0 ? argv[i] : NULL;
		const char *best;

		if (!w || w[0] != '-' || w[1] == '-' || strlen(w) < 3 ||
		    strlen(w + 1) > SPELL_MAX_LEN || !strchr(w + 1, optopt))
			continue;
		best = nearest_long(g, w + 1);
		if (best) {
			snprintf(out, outsz, " (did you mean --%s?)", best);
			return out;
		}
	}
	return "";
}

/*
 * An option getopt_long refused (c: '?' or ':'), in one line naming it and
 * where the options are explained, instead of the whole usage: a typo is
 * seen at once, and the nearest long option is offered when it is close
 * (lib/spell.h). getopt leaves the element it refused at argv[optind - 1]
 * when it was a long option or ended a cluster of short ones; optopt is
 * the short option, or the long one's val, or 0 for an unknown long one.
 */
static void bad_option(const struct cli_getopt *g, int c, int argc, char **argv)
{
	const char *cmd = g->cmd->name;
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	const struct option *lo = NULL;
	char buf[CLI_MAX_OPTS * 40], more[80];
	size_t n = 0, k, len;
	bool lng = false;

	if (!strncmp(arg, "--", 2) && arg[2]) {
		lo = long_named(g, arg, &n);
		/* a short option's trouble in a cluster that did not end here */
		lng = !optopt || (lo && lo->val == optopt);
	}
	if (!lng) {
		const struct cli_opt *o = opt_of(g, optopt);

		if (c == ':')
			p_err("option '-%c' of %s needs an argument%s: see capaudit %s --help", optopt,
			      cmd, arg_words(o, more, sizeof(more)), cmd);
		else if (optopt > ' ' && optopt < 127)
			p_err("unknown option '-%c' for %s%s: see capaudit %s --help", optopt, cmd,
			      one_dash_long(g, argc, argv, more, sizeof(more)), cmd);
		else
			p_err("unknown option for %s: see capaudit %s --help", cmd, cmd);
		return;
	}
	len = strcspn(arg, "=");
	if (c == ':' || (lo && optopt)) {
		p_err(c == ':' ? "option '--%s' of %s needs an argument%s: see capaudit %s --help" :
		      "option '--%s' of %s takes no argument%s: see capaudit %s --help", lo->name,
		      cmd, c == ':' ? arg_words(opt_of(g, lo->val), more, sizeof(more)) : "", cmd);
		return;
	}
	if (n > 1 && len > 2) {   /* a prefix of several: name them */
		buf[0] = '\0';
		for (k = 0; g->longs[k].name; k++)
			if (g->longs[k].val != LIST_OPTIONS &&
			    !strncmp(g->longs[k].name, arg + 2, len - 2) &&
			    strlen(buf) + strlen(g->longs[k].name) + 5 < sizeof(buf))
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s--%s",
					 buf[0] ? ", " : "", g->longs[k].name);
		p_err("option '%.*s' of %s is ambiguous (%s): see capaudit %s --help", (int)len, arg,
		      cmd, buf, cmd);
		return;
	}
	{
		char typed[SPELL_MAX_LEN + 1];
		const char *best;

		snprintf(typed, sizeof(typed), "%.*s", (int)(len - 2), arg + 2);
		best = len - 2 <= SPELL_MAX_LEN ? nearest_long(g, typed) : NULL;
		/* getopt found it a prefix of the hidden --list-options too */
		if (n == 1 && lo)
			best = lo->name;
		if (best)
			snprintf(more, sizeof(more), " (did you mean --%s?)", best);
		else
			more[0] = '\0';
		p_err("unknown option '%.*s' for %s%s: see capaudit %s --help", (int)len, arg, cmd,
		      more, cmd);
	}
}

/* The words of s from column col on, wrapped at WIDTH to HELP_COL; the
 * column it ends at. A word after col > HELP_COL gets a space first. */
static int put_words(FILE *f, const char *s, int col)
{
	s += strspn(s, " ");
	while (*s) {
		int n = (int)strcspn(s, " ");

		if (col > HELP_COL && col + 1 + n > WIDTH) {
			col = fprintf(f, "\n%*s", HELP_COL, "") - 1;
		} else if (col > HELP_COL) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", n, s);
		s += n;
		s += strspn(s, " ");
	}
	return col;
}

/* "  -x, --name ARG  help more" or "      --name ARG  help more" */
static void put_opt(FILE *f, const struct cli_opt *o)
{
	int col;

	if (o->shrt < CLI_LONG_ONLY)
		col = fprintf(f, "  -%c, --%s", o->shrt, o->lng);
	else
		col = fprintf(f, "      --%s", o->lng);
	if (o->arg)
		col += fprintf(f, " %s", o->arg);
	/* at least two spaces between the option and its explanation */
	if (col + 2 > HELP_COL)
		fprintf(f, "\n%*s", HELP_COL, "");
	else
		fprintf(f, "%*s", HELP_COL - col, "");
	col = put_words(f, o->help, HELP_COL);
	if (o->more)
		put_words(f, o->more, col);
	fputc('\n', f);
}

/* The whole --help text of cmd. */
static void cli_usage(FILE *f, const struct cli_cmd *cmd)
{
	const struct cli_opt *o;
	const char *s;

	fputs("usage: ", f);
	for (s = cmd->synopsis; *s; s++) {
		fputc(*s, f);
		if (*s == '\n')
			fputs("       ", f);   /* under the first line's command */
	}
	fputc('\n', f);
	if (cmd->about)
		fputs(cmd->about, f);
	fputs("options:\n", f);
	for (o = cmd->opts; o->lng; o++)
		put_opt(f, o);
	put_opt(f, &help_opt);
	if (cmd->tail)
		fputs(cmd->tail, f);
}

/* Whether x is in the row's range (none when hi is 0). */
static bool in_range(const struct cli_to *to, double x)
{
	return to->hi == 0 || (x >= to->lo && x <= to->hi);
}

/* optarg (or true) into the field of args that to names; 0, or -1 after
 * saying what is wrong with the argument. */
static int store(const struct cli_to *to, void *args)
{
	void *f = (char *)args + to->off;
	uint32_t u;
	double d;
	long l;
	size_t k;

	switch (to->how) {
	case CLI_TO_TRUE:
		*(bool *)f = true;
		return 0;
	case CLI_TO_STR:
		*(const char **)f = optarg;
		return 0;
	case CLI_TO_LIST: {
		size_t *n = (size_t *)((char *)args + to->off_n);
		const char ***v = f;

		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = optarg;
		return 0;
	}
	case CLI_TO_SECONDS:
		if (parse_seconds(optarg, &d) || !in_range(to, d))
			break;
		*(double *)f = d;
		return 0;
	case CLI_TO_U32:
	case CLI_TO_U32_POW2:
		if (parse_u32(optarg, &u) || !in_range(to, u) ||
		    (to->how == CLI_TO_U32_POW2 && (u & (u - 1))))
			break;
		*(uint32_t *)f = u;
		return 0;
	case CLI_TO_INT:
		if (parse_int_range(optarg, (long)to->lo, (long)to->hi, &l))
			break;
		*(int *)f = (int)l;
		return 0;
	case CLI_TO_ENUM:
		for (k = 0; to->names[k] && strcmp(to->names[k], optarg); k++)
			;
		if (!to->names[k])
			break;
		*(int *)f = (int)to->lo + (int)k;
		return 0;
	case CLI_TO_MATCH:
		if (check_match_parse(optarg) < 0)
			break;
		*(int *)f = check_match_parse(optarg);
		return 0;
	case CLI_TO_ATTACH:
		return cli_attach_arg(optarg, f);
	case CLI_TO_CUSTOM:
		return 0;
	}
	p_err(to->bad, optarg);
	return -1;
}

int cli_next(struct cli_getopt *g, int argc, char **argv)
{
	const struct cli_opt *o;
	int c;

	if (!g->scanned) {
		g->scanned = true;
		scan_format(g, argc, argv);
	}
	opterr = 0;   /* bad_option() says it */
	c = getopt_long(argc, argv, g->shorts, g->longs, NULL);
	/* an option of the table that goes into the args: the next one */
	while (c >= 0 && c != CLI_OPERAND && g->args && (o = opt_of(g, c)) &&
	       o->to.how != CLI_TO_CUSTOM) {
		if (store(&o->to, g->args))
			return CLI_BAD;
		c = getopt_long(argc, argv, g->shorts, g->longs, NULL);
	}

	switch (c) {
	case -1:
		return CLI_END;
	case 'h':
		cli_usage(stdout, g->cmd);
		return CLI_DONE;
	case LIST_OPTIONS:
		if (!optarg) {
			list_options(g->cmd);
		} else if (!strcmp(optarg, "full")) {
			list_full(g->cmd);
		} else {
			p_err("--list-options=%s: only --list-options=full", optarg);
			return CLI_BAD;
		}
		return CLI_DONE;
	case '?':
	case ':':
		bad_option(g, c, argc, argv);
		return CLI_BAD;
	default:
		return c;
	}
}

int cli_exit_status(int c)
{
	return c == CLI_DONE ? EXIT_OK : EXIT_USAGE;
}

int cli_attach_arg(const char *arg, struct attach_list *l)
{
	char bad[256];

	if (attach_list_parse(arg, l, bad, sizeof(bad))) {
		p_err("%s", bad);
		return -1;
	}
	return 0;
}
