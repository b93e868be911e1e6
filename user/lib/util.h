/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the loader and the analysis code. */
#ifndef CA_UTIL_H
#define CA_UTIL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Strict number parsing: the whole string, base 10, in range; "12abc",
 * "", " 1" and overflow are rejected. Return 0 or -1. */
int parse_u64(const char *s, uint64_t *out);
int parse_u32(const char *s, uint32_t *out);
int parse_int_range(const char *s, long min, long max, long *out);
/* "1.5" or "2" seconds, > 0; -1 on anything else. */
int parse_seconds(const char *s, double *out);

/* What file path is to execve(): an ELF executable, a script ("#!",
 * its interpreter into interp), something else, or not readable here. */
enum { EXEC_UNKNOWN, EXEC_ELF, EXEC_SCRIPT, EXEC_OTHER };
int exec_file_kind(const char *path, char *interp, size_t n);
/* An exec name that is a descriptor's, not a file's: /proc/.../fd/N,
 * /proc/self/exe, /dev/fd/N (fexecve), as the kernel passes it on. */
bool exec_name_is_fd(const char *path);

/* Sleep ms milliseconds (a wakeup by a signal ends it early). */
void pause_ms(long ms);

/* "SIGINT" for SIGINT ("signal N" if it has no name); a buffer of this
 * thread's, valid until the next call. */
const char *sig_name(int sig);
/* Block SIGINT, SIGTERM and SIGHUP, the old mask into *old (put it back
 * with sigprocmask(SIG_SETMASK, old, NULL)): a stop asked for while a file
 * is written waits until the file is whole. */
void block_stop_signals(sigset_t *old);

/* Wall clock in ns since the epoch, and monotonic ns. */
int64_t now_realtime_ns(void);
int64_t now_monotonic_ns(void);
/* "2026-12-03T04:01:02.123456Z" into buf (>= 32 bytes). */
void format_iso8601(int64_t epoch_ns, char *buf, size_t len);

/* Append bytes to a buffer, escaping everything a terminal could act on:
 * control bytes, DEL, bytes that are not valid UTF-8, C1 and bidirectional
 * control characters and backslash become \xNN or \\; other UTF-8 (a
 * path in /home/josé) is kept. A process name is attacker-controlled.
 * Returns buf. */
char *text_escape(const char *s, char *buf, size_t len);
/* A string of a record (NULL: "") escaped into the array buf, for a text
 * output: every field of a record a text output prints goes through it. */
#define ESC(s, buf) text_escape((s) ? (s) : "", buf, sizeof(buf))
/* Like text_escape, but a backslash stays as it is: for messages whose
 * parts were escaped already (a second pass would double them). */
char *text_sanitize(const char *s, char *buf, size_t len);
/* s as text_escape has it (whole: no length limit), with & < > " and '
 * then written as character references: fit for the text of an HTML or
 * XML element and for a quoted attribute value. A record's strings (comm,
 * paths, argv) can hold markup. */
void markup_escape(FILE *f, const char *s);

/* s as one word of a shell command line, for a hint the user can paste:
 * as it is when it holds only characters no shell treats specially, else
 * in single quotes (a ' as '\''); as much as fits in buf. Returns buf. */
char *shell_word(const char *s, char *buf, size_t len);

/* Copy of s in which every byte that is not part of valid UTF-8 is written
 * as the four characters \xNN, so that it can go into a JSON string without
 * losing information. Caller frees. */
char *utf8_sanitize(const char *s, size_t n);

/* a + b, or UINT64_MAX when that overflows: counts read from a file
 * (each up to INT64_MAX) are summed with it, and never wrap. */
static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

/* qsort() that takes an empty array as NULL (qsort's pointer must not be
 * NULL even when n is 0). */
void sort_array(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* Grow *arr (of *cap elements of size sz) to hold at least need elements. */
void grow_array(void **arr, size_t *cap, size_t need, size_t sz);
/* The qsort()/bsearch() order of uint32_t values, ascending. */
int cmp_u32(const void *a, const void *b);
/* Free the n strings of v, then v. */
void strv_free(char **v, size_t n);
/* Whether s is all lower-case hex digits (true for ""). */
bool is_lower_hex(const char *s);

/* The calling process's resident bytes (/proc/self/statm) and user + system
 * CPU seconds (getrusage): the monitor's own cost, for its metrics. 0, or -1
 * (what could not be read is 0). */
int self_usage(uint64_t *rss_bytes, double *cpu_seconds);

/* one or many: "1 process", "2 processes" in messages */
static inline const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
