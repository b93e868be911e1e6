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
#include <stddef.h>
#include <stdint.h>
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

/* How cli_next() stores an option into the command's arguments (the
 * args given to cli_getopt_init()), instead of returning it. */
enum cli_to_how {
	CLI_TO_CUSTOM = 0,    /* returned: the command's switch acts on it */
	CLI_TO_TRUE,          /* bool: true (no argument) */
	CLI_TO_STR,           /* const char *: the argument */
	CLI_TO_LIST,          /* const char **, size_t: appended (xrealloc; the
			       * command frees the array) */
	CLI_TO_SECONDS,       /* double: parse_seconds() (> 0), in lo..hi */
	CLI_TO_U32,           /* uint32_t: parse_u32(), in lo..hi */
	CLI_TO_U32_POW2,      /* uint32_t: the same, and a power of two */
	CLI_TO_INT,           /* int: parse_int_range(lo, hi) */
	CLI_TO_ENUM,          /* an enum (int-sized): lo + the index of the
			       * argument in names */
	CLI_TO_MATCH,         /* enum check_match: check_match_parse() */
	CLI_TO_ATTACH,        /* struct attach_list: cli_attach_arg() */
};

struct cli_to {
	enum cli_to_how how;
	size_t off;           /* offsetof the field in the command's args */
	size_t off_n;         /* CLI_TO_LIST: offsetof its count (size_t) */
	double lo, hi;        /* numbers: the range (hi 0: none); CLI_TO_ENUM: lo
			       * is the value of names[0] */
	const char *const *names;  /* CLI_TO_ENUM: the words, NULL-terminated */
	const char *bad;      /* what is said of a bad argument: a format with
			       * one %s, the argument (CLI_TO_ATTACH: its own) */
};

/* offsetof(T, f), checked at compile time to be of type 'type' */
#define CLI_OFF(T, f, type)                                                               \
	(offsetof(T, f) +                                                                 \
	 0 * sizeof(char[1 - 2 * !__builtin_types_compatible_p(__typeof__(((T *)0)->f), type)]))
/* offsetof(T, f), checked to be of an int-sized type (an enum) */
#define CLI_OFF_INT(T, f) (offsetof(T, f) + 0 * sizeof(char[1 - 2 * (sizeof(((T *)0)->f) != sizeof(int))]))

/* The last member of a table's row (struct cli_opt.to): where its value
 * goes. T is the command's args type, f a field of it (a.b for nested). */
#define CLI_CUSTOM                 .to = { CLI_TO_CUSTOM }
#define CLI_FLAG(T, f)             .to = { CLI_TO_TRUE, CLI_OFF(T, f, bool) }
#define CLI_STRING(T, f)           .to = { CLI_TO_STR, CLI_OFF(T, f, const char *) }
#define CLI_LIST(T, f, n)                                                                 \
	.to = { CLI_TO_LIST, CLI_OFF(T, f, const char **), CLI_OFF(T, n, size_t) }
#define CLI_SECONDS(T, f, lo, hi, msg)                                                    \
	.to = { CLI_TO_SECONDS, CLI_OFF(T, f, double), 0, lo, hi, NULL, msg }
#define CLI_U32(T, f, lo, hi, msg)                                                        \
	.to = { CLI_TO_U32, CLI_OFF(T, f, uint32_t), 0, lo, hi, NULL, msg }
#define CLI_U32_POW2(T, f, lo, hi, msg)                                                   \
	.to = { CLI_TO_U32_POW2, CLI_OFF(T, f, uint32_t), 0, lo, hi, NULL, msg }
#define CLI_INT(T, f, lo, hi, msg)                                                        \
	.to = { CLI_TO_INT, CLI_OFF(T, f, int), 0, lo, hi, NULL, msg }
#define CLI_ENUM(T, f, names, first, msg)                                                 \
	.to = { CLI_TO_ENUM, CLI_OFF_INT(T, f), 0, first, 0, names, msg }
#define CLI_MATCH(T, f, msg)       .to = { CLI_TO_MATCH, CLI_OFF_INT(T, f), .bad = msg }
#define CLI_ATTACH(T, f)           .to = { CLI_TO_ATTACH, CLI_OFF(T, f, struct attach_list) }

struct cli_opt {
	const char *lng;      /* long name without "--"; NULL ends a table */
	int shrt;             /* its letter (-x), or a value >= CLI_LONG_ONLY */
	int has_arg;          /* no_argument or required_argument */
	const char *arg;      /* the argument's name in the help, e.g. FILE */
	const char *help;     /* one line: what it does */
	const char *more;     /* NULL, or what else --help says about it */
	int kind;             /* enum cli_arg_kind of the argument */
	struct cli_to to;     /* where cli_next() puts it: CLI_FLAG(...) etc. */
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
	void *args;           /* where the table's CLI_TO_* options go */
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

/* Build g from cmd and restart getopt (optind = 1); args: the command's
 * arguments, where the options of the table with a CLI_TO_* go. */
void cli_getopt_init(struct cli_getopt *g, const struct cli_cmd *cmd, void *args);

/* The next CLI_CUSTOM option's shrt (optarg set), or CLI_END, CLI_DONE,
 * CLI_BAD. The others are stored into g's args as their row says, in the
 * order given; a bad argument is said (the row's message) and CLI_BAD.
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
