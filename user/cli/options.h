/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each command's options, declared once in a table: getopt_long's short
 * string and struct option array, the --help text and the hidden
 * --list-options all come from it, so that no option can be parsed and
 * left unexplained (tests/e2e/options.bats holds every command to that).
 */
#ifndef CA_CLI_OPTIONS_H
#define CA_CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* shrt of an option with no short form: getopt_long returns these */
#define CLI_LONG_ONLY 256

/* What an option's argument is, for the shell completions: the words
 * --list-options=full gives for it (cli_list_full). */
enum cli_arg_kind {
	CLI_ARG_ANY = 0,      /* no argument, or any text: nothing to complete */
	CLI_ARG_FILE,         /* a file name */
	CLI_ARG_DIR,          /* a directory */
	CLI_ARG_USER,         /* a user name or uid */
	CLI_ARG_PIDS,         /* PID[,PID...] */
	CLI_ARG_UNITFILE,     /* a systemd unit file, NAME.service */
	CLI_ARG_CAPS,         /* capability names, comma-separated, or none */
	CLI_ARG_ATTACH,       /* auto, or attach modes, comma-separated */
	CLI_ARG_EMIT,         /* a snippet kind (report --emit) */
	CLI_ARG_FORMAT,       /* one of the formats of this command */
	CLI_ARG_BY,           /* a report roll-up (report --by) */
	CLI_ARG_MATCH,        /* what check compares (check --match) */
	CLI_ARG_CAPNAMES,     /* capability names, comma-separated ("none" is
			       * CLI_ARG_CAPS's, for a set to grant) */
};

struct cli_opt {
	const char *lng;      /* long name without "--"; NULL ends a table */
	int shrt;             /* its letter (-x), or a value >= CLI_LONG_ONLY */
	int has_arg;          /* no_argument or required_argument */
	const char *arg;      /* the argument's name in the help, e.g. FILE */
	const char *help;     /* one line: what it does */
	const char *more;     /* NULL, or what else --help says about it */
	int kind;             /* enum cli_arg_kind of the argument */
};

struct cli_cmd {
	const char *name;     /* the command: "record" */
	const char *synopsis; /* usage lines after "usage: ", '\n' between */
	const char *about;    /* NULL, or a paragraph before the options */
	const struct cli_opt *opts;
	const char *tail;     /* NULL, or what follows the options (exit status) */
	int in_order;         /* stop at the first operand (-- COMMAND ARGS) */
	int operands_inline;  /* return each operand as CLI_OPERAND (optarg: it),
			       * in its place among the options */
	int operands;         /* without in_order: enum cli_arg_kind of the
			       * operands (CLI_ARG_FILE: check's records) */
};

#define CLI_MAX_OPTS 32

/* getopt_long's inputs for one command, built from its table */
struct cli_getopt {
	const struct cli_cmd *cmd;
	char shorts[3 * CLI_MAX_OPTS + 3];   /* '+' or '-', ':', the options, NUL */
	struct option longs[CLI_MAX_OPTS + 3];
	bool scanned;         /* the command line was read for --format json */
};

/* What cli_next() returns besides an option's shrt. */
enum {
	CLI_END = -1,         /* no more options: operands start at optind */
	CLI_DONE = -2,        /* --help or --list-options printed: exit 0 */
	CLI_BAD = -3,         /* an unknown option or a missing argument: one
			       * line on stderr names it (and the nearest long
			       * option, if one is close) and points to
			       * capaudit CMD --help; exit 2 */
	CLI_OPERAND = 1,      /* an operand (cli_cmd.operands_inline) */
};

/* Build g from cmd and restart getopt (optind = 1). */
void cli_getopt_init(struct cli_getopt *g, const struct cli_cmd *cmd);

/* The next option's shrt (optarg set), or CLI_END, CLI_DONE, CLI_BAD.
 * --help (-h) and the hidden --list-options (one long option per line, for
 * tests) are every command's and handled here; --list-options=full prints
 * the whole table, for the generated manual pages and completions:
 *   command TAB NAME TAB OPERANDS ("command": in_order, the audited
 *           command; "file": files; "": none)
 *   usage TAB a line of the synopsis (a line not starting with "capaudit"
 *         continues the one before)
 *   about TAB a line of the paragraph before the options
 *   option TAB --LONG TAB -X or "" TAB ARG or "" TAB COMPLETE TAB HELP TAB MORE
 *   tail TAB a line of what follows the options
 * COMPLETE is "" (no argument), text, file, dir, user, pids, unitfile,
 * "one WORD..." (one of the words) or "list WORD..." (comma-separated). */
int cli_next(struct cli_getopt *g, int argc, char **argv);

/* What a command's parse_args() returns when the command is to go on;
 * anything else is its exit status (EXIT_OK after --help). */
#define CLI_GO_ON (-1)

/* CLI_DONE or CLI_BAD as the process exit status (EXIT_OK, EXIT_USAGE). */
int cli_exit_status(int c);

struct attach_list;
/* --attach MODE[,MODE...] into l: 0, or -1 (said). */
int cli_attach_arg(const char *arg, struct attach_list *l);

#endif
