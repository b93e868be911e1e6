// SPDX-License-Identifier: GPL-2.0
/*
 * A systemd service unit file, read the way systemd reads it (the rules
 * are cited where they are applied; docs/service.md lists what is applied
 * and what is refused).
 */
#include "facts/unitfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "facts/capnames.h"
#include "lib/hindex.h"
#include "lib/util.h"

/*
 * Limits, each one FILE:LINE error: the parse is linear in the file's
 * size, and these bound what it builds (an audited file may be anyone's).
 */
#define UNIT_MAX_LINE (1 << 20)   /* a logical line: systemd's LONG_LINE_MAX */
#define UNIT_MAX_EXEC 512         /* ExecStart= commands */
#define UNIT_MAX_ENV 4096         /* Environment= variables */
#define UNIT_MAX_GROUPS 65536     /* SupplementaryGroups=: the kernel's NGROUPS_MAX */
/* one argument, and all of a command's: what execve(2) takes
 * (MAX_ARG_STRLEN, 32 pages; a quarter of the default 8 MiB stack limit) */
#define UNIT_MAX_ARG (32 * 4096)
#define UNIT_MAX_ARGV (2 << 20)

/* The parse in progress: where errors point. */
struct parser {
	const char *name;       /* the file being read (u->files) */
	unsigned line;          /* the first physical line of the logical one */
	char *err;
	size_t errlen;
	struct unit_file *u;
	uint64_t all;           /* every capability */
	const char *service_file;  /* the first [Service] header, NULL if none */
	unsigned service_line;
	const char *ambient_file;  /* the last AmbientCapabilities= */
	/* ExecStart= values, split once every Environment= of every file is
	 * known (systemd expands them when it starts the command) */
	char **raw_exec;
	const char **raw_file;
	unsigned *raw_line;
	size_t nraw;
	struct hindex envx;     /* u->env by name */
	size_t argv_bytes;      /* the command being expanded, so far */
};

__attribute__((format(printf, 3, 4)))
static int fail_at(struct parser *p, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->err, p->errlen, "%s:%u: ", p->name, line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < p->errlen)
		vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

__attribute__((format(printf, 2, 3)))
static void note(struct parser *p, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n = snprintf(buf, sizeof(buf), "%s:%u: ", p->name, p->line);

	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	p->u->notes = xrealloc(p->u->notes, (p->u->nnotes + 1) * sizeof(char *));
	p->u->notes[p->u->nnotes++] = xstrdup(buf);
}

/* Room for n elements: a power of two, so that growing one element at a
 * time reallocates only log(n) times. */
static size_t grown(size_t n)
{
	size_t c = 4;

	while (c < n)
		c <<= 1;
	return c;
}

/* Append s to a NULL-terminated array of *n strings. */
static void push_str(char ***v, size_t *n, char *s)
{
	if (!*v || grown(*n + 2) != grown(*n + 1))
		*v = xrealloc(*v, grown(*n + 2) * sizeof(char *));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

/* ---- values ------------------------------------------------------------- */

/*
 * Specifiers (%i, %n, %h, ...) come from the unit's name and the manager
 * (systemd.unit(5) "Specifiers"): a file audited on its own has neither,
 * so they are refused, not guessed. "%%" is a '%'. Returns a copy with
 * "%%" resolved, or NULL after saying which specifier was met.
 */
static char *no_specifiers(struct parser *p, const char *key, const char *v)
{
	char *out = xcalloc(strlen(v) + 1, 1), *o = out;

	for (; *v; v++) {
		if (*v != '%') {
			*o++ = *v;
			continue;
		}
		if (v[1] == '%') {
			*o++ = '%';
			v++;
			continue;
		}
		free(out);
		if (!v[1])
			fail_at(p, p->line, "%s= ends in a lone '%%' (write %%%% for a percent sign)",
				key);
		else
			fail_at(p, p->line, "%s= uses the specifier %%%c, which capaudit does not "
				"resolve (it needs the unit's instance and the manager): write the "
				"value out", key, v[1]);
		return NULL;
	}
	*o = '\0';
	return out;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* Append code point cp as UTF-8. */
static void put_utf8(char **o, unsigned long cp)
{
	unsigned char *u = (unsigned char *)*o;

	if (cp < 0x80) {
		*u++ = (unsigned char)cp;
	} else if (cp < 0x800) {
		*u++ = (unsigned char)(0xc0 | cp >> 6);
		*u++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*u++ = (unsigned char)(0xe0 | cp >> 12);
		*u++ = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		*u++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else {
		*u++ = (unsigned char)(0xf0 | cp >> 18);
		*u++ = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		*u++ = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		*u++ = (unsigned char)(0x80 | (cp & 0x3f));
	}
	*o = (char *)u;
}

/* A C-style escape after the backslash at *s (systemd.syntax(7): \a \b \f
 * \n \r \t \v \\ \" \' \s \xxx \nnn \uxxxx \Uxxxxxxxx) into *o; 0, or -1
 * after saying why. */
static int unescape(struct parser *p, const char *key, const char **s, char **o)
{
	static const char simple[] = "a\ab\bf\fn\nr\rt\tv\v\\\\\"\"''s ";
	const char *c = *s + 1;
	unsigned long v = 0;
	int i, n, base;

	if (!*c)
		return fail_at(p, p->line, "%s= ends in a lone backslash", key);
	for (i = 0; simple[i]; i += 2)
		if (*c == simple[i]) {
			*(*o)++ = simple[i + 1];
			*s = c + 1;
			return 0;
		}
	switch (*c) {
	case 'x': n = 2; base = 16; c++; break;
	case 'u': n = 4; base = 16; c++; break;
	case 'U': n = 8; base = 16; c++; break;
	default:
		if (*c < '0' || *c > '7')
			return fail_at(p, p->line, "%s= has an unknown escape '\\%c'", key, *c);
		n = 3;
		base = 8;
	}
	for (i = 0; i < n; i++) {
		int d = hexval((unsigned char)c[i]);

		if (d < 0 || d >= base)
			return fail_at(p, p->line, "%s= has an incomplete escape '\\%.*s'", key,
				       (int)(c - *s) + i, *s + 1);
		v = v * (unsigned long)base + (unsigned long)d;
	}
	/* what systemd's cunescape_one() refuses (src/basic/escape.c): NUL,
	 * an octal byte above \377, a \u surrogate, a \U that is not a
	 * character (unichar_is_valid(), src/basic/utf8.c) */
	if (v == 0)
		return fail_at(p, p->line, "%s= has an escape for a NUL byte, which an argument "
			       "cannot hold", key);
	if (base == 8 && v > 0377)
		return fail_at(p, p->line, "%s= has the octal escape '\\%.3s', above \\377 (a "
			       "byte)", key, c);
	if (n == 4 && v >= 0xd800 && v <= 0xdfff)
		return fail_at(p, p->line, "%s= has the escape '\\u%.4s', a UTF-16 surrogate, "
			       "not a character", key, c);
	if (n == 8 && (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) ||
		       (v >= 0xfdd0 && v <= 0xfdef) || (v & 0xfffe) == 0xfffe))
		return fail_at(p, p->line, "%s= has the escape '\\U%.8s', which is not a character",
			       key, c);
	if (**s == '\\' && (*s)[1] != 'u' && (*s)[1] != 'U')
		*(*o)++ = (char)v;   /* \xNN and octal are bytes */
	else
		put_utf8(o, v);
	*s = c + n;
	return 0;
}

/* A word of a value, unquoted and unescaped. */
struct word {
	char *s;
	bool sep;               /* a lone unquoted ";" (it joins commands) */
};

/*
 * Split v into words the way systemd does for command lines and lists
 * (extract_first_word() with EXTRACT_UNQUOTE | EXTRACT_CUNESCAPE):
 * whitespace separates, "..." and '...' hold whitespace, and the quotes
 * go. 0, or -1 after saying why.
 */
static int split_words(struct parser *p, const char *key, const char *v, struct word **out,
		       size_t *nout)
{
	struct word *w = NULL;
	size_t n = 0;
	/* one buffer for every word (escapes only shrink: \U0010FFFF, 10
	 * bytes, is 4), each word copied out at its own size: linear */
	char *buf = xcalloc(strlen(v) + 1, 1);

	for (;;) {
		char *o = buf;
		bool quoted = false;
		const char *start;

		while (*v && strchr(" \t\n\r", *v))
			v++;
		if (!*v)
			break;
		start = v;
		while (*v && !strchr(" \t\n\r", *v)) {
			if (*v == '"' || *v == '\'') {
				char q = *v++;

				quoted = true;
				while (*v && *v != q) {
					if (*v == '\\') {
						if (unescape(p, key, &v, &o))
							goto bad;
					} else {
						*o++ = *v++;
					}
				}
				if (!*v) {
					fail_at(p, p->line, "%s= has an unterminated %s quote", key,
						q == '"' ? "double" : "single");
					goto bad;
				}
				v++;
			} else if (*v == '\\') {
				if (unescape(p, key, &v, &o))
					goto bad;
			} else {
				*o++ = *v++;
			}
		}
		*o = '\0';
		if (!w || grown(n + 1) != grown(n))
			w = xrealloc(w, grown(n + 1) * sizeof(*w));
		w[n].s = xstrdup(buf);
		w[n++].sep = !quoted && v - start == 1 && *start == ';';
		continue;
bad:
		free(buf);
		for (size_t i = 0; i < n; i++)
			free(w[i].s);
		free(w);
		return -1;
	}
	free(buf);
	*out = w;
	*nout = n;
	return 0;
}

static void free_words(struct word *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i].s);
	free(w);
}

static bool env_name_ok(const char *s, size_t len)
{
	if (!len || isdigit((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* systemd's boolean (parse_boolean()); -1 when it is none. */
static int parse_bool(const char *v)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };

	for (size_t i = 0; i < 6; i++) {
		if (!strcasecmp(v, yes[i]))
			return 1;
		if (!strcasecmp(v, no[i]))
			return 0;
	}
	return -1;
}

/*
 * CapabilityBoundingSet= and AmbientCapabilities=
 * (config_parse_capability_set() in systemd): a leading '~' inverts the
 * list; the first assignment, an empty one or "~" replaces what was
 * there; later ones are merged: added, or with '~' taken away. The
 * bounding set starts unset (every capability).
 */
static int cap_assign(struct parser *p, const char *key, const char *v, uint64_t all,
		      bool *is_set, uint64_t *set)
{
	bool invert = *v == '~';
	uint64_t sum = 0;
	struct word *w;
	size_t n, i;

	if (invert)
		v++;
	if (split_words(p, key, v, &w, &n))
		return -1;
	for (i = 0; i < n; i++) {
		const char *s = w[i].s;
		int c = -1;

		/* systemd takes "cap_chown" and numbers, not "chown" */
		if (!strncasecmp(s, "cap_", 4) || (s[0] >= '0' && s[0] <= '9'))
			c = cap_number(s);
		if (c < 0 || !(all & CAP_BIT(c))) {
			fail_at(p, p->line, "%s=: unknown capability '%s'", key, s);
			free_words(w, n);
			return -1;
		}
		sum |= CAP_BIT(c);
	}
	free_words(w, n);
	if (!sum || !*is_set)
		*set = invert ? all & ~sum : sum;
	else if (invert)
		*set &= ~sum;
	else
		*set |= sum;
	*is_set = true;
	return 0;
}

/* The variables by name (p->envx over u->env): a unit of 100,000
 * Environment= lines was quadratic with a linear search. */
struct env_key {
	const struct unit_file *u;
	const char *name;
	size_t len;
};

static bool env_eq(const void *ctx, size_t pos)
{
	const struct env_key *k = ctx;
	const char *e = k->u->env[pos];

	return !strncmp(e, k->name, k->len) && e[k->len] == '=';
}

static uint64_t env_hash(const char *name, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++)
		h = hash_u64(h, (unsigned char)name[i]);
	return h;
}

/* The position of variable name[0..len) in u->env, or -1. */
static long env_find(const struct parser *p, const char *name, size_t len)
{
	struct env_key k = { p->u, name, len };

	return hindex_find(&p->envx, env_hash(name, len), env_eq, &k);
}

/* Environment=: a list of NAME=value words; later names win; empty resets. */
static int env_assign(struct parser *p, const char *v)
{
	struct unit_file *u = p->u;
	struct word *w;
	size_t n, i;
	long j;

	if (!*v) {
		strv_free(u->env, u->nenv);
		u->env = NULL;
		u->nenv = 0;
		hindex_free(&p->envx);
		memset(&p->envx, 0, sizeof(p->envx));
		return 0;
	}
	if (split_words(p, "Environment", v, &w, &n))
		return -1;
	for (i = 0; i < n; i++) {
		const char *eq = strchr(w[i].s, '=');
		size_t len = eq ? (size_t)(eq - w[i].s) : 0;

		if (!eq || !env_name_ok(w[i].s, len)) {
			fail_at(p, p->line, "Environment=: '%s' is not NAME=value", w[i].s);
			free_words(w, n);
			return -1;
		}
		j = env_find(p, w[i].s, len);
		if (j >= 0) {
			free(u->env[j]);
			u->env[j] = w[i].s;
		} else if (u->nenv >= UNIT_MAX_ENV) {
			fail_at(p, p->line, "Environment=: more than %d variables", UNIT_MAX_ENV);
			free_words(w, n);
			return -1;
		} else {
			hindex_add(&p->envx, env_hash(w[i].s, len), u->nenv);
			push_str(&u->env, &u->nenv, w[i].s);
		}
		w[i].s = NULL;
	}
	free_words(w, n);
	return 0;
}

/* The value of an Environment= variable, or NULL. */
static const char *env_get(const struct parser *p, const char *name, size_t len)
{
	long i = env_find(p, name, len);

	return i >= 0 ? p->u->env[i] + len + 1 : NULL;
}

static int unknown_var(struct parser *p, unsigned line, const char *name, size_t len)
{
	return fail_at(p, line, "ExecStart= uses $%.*s, which no Environment= of this file sets "
		       "(capaudit reads neither EnvironmentFile= nor the manager's environment; "
		       "prefix the command with ':' to pass '$' as it is)", (int)len, name);
}

/* Append argument a (taken) to a command's argv, within what execve(2)
 * takes: one argument, and all of them. 0, or -1 after saying why. */
static int add_arg(struct parser *p, unsigned line, char ***argv, size_t *argc, char *a)
{
	size_t len = strlen(a) + 1;

	if (len > UNIT_MAX_ARG || p->argv_bytes + len > UNIT_MAX_ARGV) {
		free(a);
		return fail_at(p, line, "ExecStart=: %s longer than execve(2) takes (%s)",
			       len > UNIT_MAX_ARG ? "an argument" : "the command's arguments are",
			       len > UNIT_MAX_ARG ? "128 KiB an argument" : "2 MiB in all");
	}
	p->argv_bytes += len;
	push_str(argv, argc, a);
	return 0;
}

/*
 * Variables in an argument (replace_env_argv() in systemd): a word that is
 * exactly $NAME becomes the value's whitespace-separated words, ${NAME}
 * anywhere is the value in place, $$ is '$'. Appends to argv.
 */
static int expand_word(struct parser *p, unsigned line, const char *s, char ***argv,
		       size_t *argc)
{
	char *out, *o;
	size_t need;

	if (s[0] == '$' && s[1] && s[1] != '{' && s[1] != '$') {
		size_t len = strlen(s + 1);
		const char *val = env_get(p, s + 1, len), *e;

		if (!env_name_ok(s + 1, len) || !val)
			return unknown_var(p, line, s + 1, len);
		for (;;) {
			while (*val && strchr(" \t\n\r", *val))
				val++;
			if (!*val)
				return 0;
			e = val + strcspn(val, " \t\n\r");
			if (add_arg(p, line, argv, argc, strndup(val, (size_t)(e - val))))
				return -1;
			val = e;
		}
	}
	need = strlen(s) + 1;
	for (const char *c = strstr(s, "${"); c; c = strstr(c + 2, "${")) {
		const char *val = env_get(p, c + 2, strcspn(c + 2, "}"));

		if (val)
			need += strlen(val);
		if (need > UNIT_MAX_ARG)   /* said by add_arg(), before any allocation */
			return add_arg(p, line, argv, argc, xstrdup(s)) ? -1 :
			       fail_at(p, line, "ExecStart=: an argument longer than execve(2) "
				       "takes (128 KiB an argument)");
	}
	out = o = xcalloc(need, 1);
	while (*s) {
		if (s[0] == '$' && s[1] == '$') {
			*o++ = '$';
			s += 2;
		} else if (s[0] == '$' && s[1] == '{') {
			size_t len = strcspn(s + 2, "}");
			const char *val = env_get(p, s + 2, len);

			if (!s[2 + len] || !env_name_ok(s + 2, len) || !val) {
				free(out);
				return unknown_var(p, line, s + 2, len);
			}
			o = stpcpy(o, val);
			s += len + 3;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return add_arg(p, line, argv, argc, out);
}

/*
 * One command: prefixes on its first word (systemd.service(5), "Table 1.
 * Special executable prefixes"), then its words. '-' and '@' are applied,
 * ':' passes '$' unexpanded, '!' skips the user change, "!!" is "!" only
 * where the kernel lacks ambient capabilities (Linux < 4.3), so it changes
 * nothing here. '+' and '|' are refused: a command run with full
 * privileges, or through the user's shell, is not the unit as configured.
 */
static int add_command(struct parser *p, unsigned line, struct word *w, size_t n)
{
	struct unit_file *u = p->u;
	struct unit_exec e = { .file = p->name, .line = line };
	bool at = false, no_env = false;
	const char *s = w[0].s;
	size_t i;

	for (;; s++) {
		if (*s == '-')
			e.ignore_failure = true;
		else if (*s == '@')
			at = true;
		else if (*s == ':')
			no_env = true;
		else if (s[0] == '!' && s[1] == '!')
			s++;
		else if (*s == '!')
			e.no_setuid = true;
		else if (*s == '+')
			return fail_at(p, line, "ExecStart= prefix '+' runs the command with full "
				       "privileges, outside User=, the capability settings and the "
				       "sandbox: there is no configured set to audit (remove the '+' "
				       "to audit the unit's settings, or record it with "
				       "'capaudit record -- COMMAND')");
		else if (*s == '|')
			return fail_at(p, line, "ExecStart= prefix '|' (run through the user's "
				       "login shell) is not supported");
		else
			break;
	}
	if (!*s)
		return fail_at(p, line, "ExecStart= has prefixes but no command");
	e.path = xstrdup(s);
	if (at && n < 2) {
		free(e.path);
		return fail_at(p, line, "ExecStart= prefix '@' needs the program's argv[0] after "
			       "its path");
	}
	if (u->nexec >= UNIT_MAX_EXEC) {
		free(e.path);
		return fail_at(p, line, "ExecStart=: more than %d commands", UNIT_MAX_EXEC);
	}
	p->argv_bytes = 0;
	if (add_arg(p, line, &e.argv, &e.argc, xstrdup(at ? w[1].s : s))) {
		free(e.path);
		return -1;
	}
	for (i = at ? 2 : 1; i < n; i++) {
		if (no_env ? add_arg(p, line, &e.argv, &e.argc, xstrdup(w[i].s)) :
		    expand_word(p, line, w[i].s, &e.argv, &e.argc)) {
			free(e.path);
			strv_free(e.argv, e.argc);
			return -1;
		}
	}
	u->exec = xrealloc(u->exec, (u->nexec + 1) * sizeof(*u->exec));
	u->exec[u->nexec++] = e;
	return 0;
}

/* ExecStart= values into commands, a lone ";" separating two on one line. */
static int split_commands(struct parser *p)
{
	for (size_t k = 0; k < p->nraw; k++) {
		struct word *w;
		size_t n, i, first = 0;
		int rc = 0;

		p->line = p->raw_line[k];
		p->name = p->raw_file[k];
		if (split_words(p, "ExecStart", p->raw_exec[k], &w, &n))
			return -1;
		for (i = 0; i <= n && !rc; i++) {
			if (i < n && !w[i].sep)
				continue;
			if (i == first)
				rc = fail_at(p, p->line, "ExecStart= has an empty command%s",
					     n ? " around ';'" : "");
			else
				rc = add_command(p, p->line, w + first, i - first);
			first = i + 1;
		}
		free_words(w, n);
		if (rc)
			return -1;
	}
	return 0;
}

/* ---- keys ----------------------------------------------------------------- */

/* Settings that change what the service runs as or with, which capaudit
 * does not reproduce: said, so that a difference is not a surprise. */
static const char *const not_applied[][2] = {
	{ "DynamicUser", "the service runs as User= (or root), not as a dynamic user" },
	{ "PrivateUsers", "no user namespace is set up: capabilities are the host's" },
	{ "SecureBits", "the securebits stay as capaudit's" },
	{ "EnvironmentFile", "its variables are not set" },
	{ "PAMName", "no PAM session is opened" },
	{ "RootDirectory", "the command runs in capaudit's root" },
	{ "RootImage", "the command runs in capaudit's root" },
	{ "WorkingDirectory", "the command runs in capaudit's working directory" },
	{ "ExecStartPre", "it is not run" },
	{ "ExecStartPost", "it is not run" },
	{ "ExecCondition", "it is not run" },
	{ "SystemCallFilter", "no seccomp filter is installed" },
};

static int set_str(struct parser *p, const char *key, const char *v, char **dst,
		   const char **file, unsigned *line)
{
	char *s;

	free(*dst);
	*dst = NULL;
	if (!*v)
		return 0;
	s = no_specifiers(p, key, v);
	if (!s)
		return -1;
	*dst = s;
	*file = p->name;
	*line = p->line;
	return 0;
}

static int service_key(struct parser *p, const char *key, const char *v, uint64_t all)
{
	struct unit_file *u = p->u;
	char *s;
	int b, rc;

	if (!strcmp(key, "ExecStart")) {
		size_t i;

		if (!*v) {   /* an empty assignment resets the list */
			for (i = 0; i < p->nraw; i++)
				free(p->raw_exec[i]);
			p->nraw = 0;
			return 0;
		}
		if (p->nraw >= UNIT_MAX_EXEC)
			return fail_at(p, p->line, "ExecStart=: more than %d commands", UNIT_MAX_EXEC);
		s = no_specifiers(p, key, v);
		if (!s)
			return -1;
		p->raw_exec = xrealloc(p->raw_exec, (p->nraw + 1) * sizeof(char *));
		p->raw_file = xrealloc(p->raw_file, (p->nraw + 1) * sizeof(char *));
		p->raw_line = xrealloc(p->raw_line, (p->nraw + 1) * sizeof(unsigned));
		p->raw_exec[p->nraw] = s;
		p->raw_file[p->nraw] = p->name;
		p->raw_line[p->nraw++] = p->line;
		return 0;
	}
	if (!strcmp(key, "Type")) {
		const char *unused_file;
		unsigned unused;

		return set_str(p, key, v, &u->type, &unused_file, &unused);
	}
	if (!strcmp(key, "User"))
		return set_str(p, key, v, &u->user, &u->user_file, &u->user_line);
	if (!strcmp(key, "Group"))
		return set_str(p, key, v, &u->group, &u->group_file, &u->group_line);
	if (!strcmp(key, "SupplementaryGroups")) {
		struct word *w;
		size_t n, i;

		if (!*v) {
			strv_free(u->groups, u->ngroups);
			u->groups = NULL;
			u->ngroups = 0;
			return 0;
		}
		s = no_specifiers(p, key, v);
		if (!s)
			return -1;
		rc = split_words(p, key, s, &w, &n);
		free(s);
		if (rc)
			return -1;
		for (i = 0; i < n; i++) {
			if (u->ngroups >= UNIT_MAX_GROUPS) {
				free_words(w, n);
				return fail_at(p, p->line, "SupplementaryGroups=: more than %d groups "
					       "(the kernel's NGROUPS_MAX)", UNIT_MAX_GROUPS);
			}
			push_str(&u->groups, &u->ngroups, w[i].s);
			w[i].s = NULL;
		}
		free_words(w, n);
		u->groups_file = p->name;
		u->groups_line = p->line;
		return 0;
	}
	if (!strcmp(key, "CapabilityBoundingSet")) {
		u->bounding_line = p->line;
		return cap_assign(p, key, v, all, &u->has_bounding, &u->bounding);
	}
	if (!strcmp(key, "AmbientCapabilities")) {
		bool set = u->ambient != 0;

		p->ambient_file = p->name;
		u->ambient_line = p->line;
		return cap_assign(p, key, v, all, &set, &u->ambient);
	}
	if (!strcmp(key, "NoNewPrivileges")) {
		b = parse_bool(v);
		if (b < 0)
			return fail_at(p, p->line, "NoNewPrivileges=: '%s' is not a boolean", v);
		u->no_new_privs = b;
		return 0;
	}
	if (!strcmp(key, "Environment")) {
		s = no_specifiers(p, key, v);
		if (!s)
			return -1;
		rc = env_assign(p, s);
		free(s);
		return rc;
	}
	for (size_t i = 0; i < sizeof(not_applied) / sizeof(not_applied[0]); i++) {
		if (strcmp(key, not_applied[i][0]) || !*v)
			continue;
		/* DynamicUser=no and PrivateUsers=no are what capaudit does */
		if ((!strcmp(key, "DynamicUser") || !strcmp(key, "PrivateUsers")) &&
		    parse_bool(v) == 0)
			continue;
		note(p, "%s= is not applied: %s", key, not_applied[i][1]);
	}
	return 0;
}

/* ---- lines ----------------------------------------------------------------- */

static char *trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* One logical line (continuations joined, comments gone, trimmed). */
static int logical_line(struct parser *p, char *l, char **section, uint64_t all)
{
	char *eq, *key, *val;

	if (*l == '[') {
		size_t len = strlen(l);

		if (len < 3 || l[len - 1] != ']')
			return fail_at(p, p->line, "'%s' is not a section header ([Name])", l);
		free(*section);
		*section = strndup(l + 1, len - 2);
		if (!strcmp(*section, "Service") && !p->service_file) {
			p->service_file = p->name;
			p->service_line = p->line;
		}
		return 0;
	}
	eq = strchr(l, '=');
	if (!eq)
		return fail_at(p, p->line, "'%s' is neither a [Section], a Key=value assignment "
			       "nor a comment", l);
	*eq = '\0';
	key = trim(l);
	val = trim(eq + 1);
	if (!*key)
		return fail_at(p, p->line, "an assignment without a key");
	if (!*section)
		return fail_at(p, p->line, "%s= comes before any [Section]", key);
	if (strcmp(*section, "Service"))
		return 0;   /* [Unit], [Install], ...: nothing that decides privileges */
	return service_key(p, key, val, all);
}

/* After the last line of the last file: the commands, and what systemd
 * would refuse. */
static int finish(struct parser *p)
{
	struct unit_file *u = p->u;

	p->name = u->files[0];
	if (!p->service_file)
		return fail_at(p, 1, "no [Service] section: not a service unit");
	p->name = p->service_file;
	if (!p->nraw)
		return fail_at(p, p->service_line, "[Service] has no ExecStart=");
	if (split_commands(p))
		return -1;
	/* systemd: "Service has more than one ExecStart= setting, which is
	 * only allowed for Type=oneshot services"; a drop-in that means to
	 * replace the command resets the list first */
	if (u->nexec > 1 && (!u->type || strcmp(u->type, "oneshot"))) {
		p->name = u->exec[1].file;
		if (u->exec[1].file == u->exec[0].file)
			return fail_at(p, u->exec[1].line, "a second ExecStart= command (the first "
				       "is on line %u): only Type=oneshot services may have several",
				       u->exec[0].line);
		return fail_at(p, u->exec[1].line, "a second ExecStart= command (the first is at "
			       "%s:%u): only Type=oneshot services may have several (a drop-in "
			       "replaces the unit's after an empty ExecStart=)", u->exec[0].file,
			       u->exec[0].line);
	}
	/* the kernel refuses an ambient capability outside the bounding set */
	if (u->has_bounding && (u->ambient & ~u->bounding)) {
		char names[CAPSET_STR_LEN];

		p->name = p->ambient_file;
		p->line = u->ambient_line;
		note(p, "AmbientCapabilities= %s outside CapabilityBoundingSet=: not raised",
		     capset_str(u->ambient & ~u->bounding, names, sizeof(names)));
		u->ambient &= u->bounding;
	}
	return 0;
}

static void parser_begin(struct parser *p, struct unit_file *u, uint64_t all_caps, char *err,
			 size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->err = err;
	p->errlen = errlen;
	p->u = u;
	p->all = all_caps;
	memset(u, 0, sizeof(*u));
	u->bounding = all_caps;
}

/* One more file (name, len bytes of text): its lines go on from the
 * files before (keys accumulate or reset as within one file), its
 * sections and continued lines do not. 0, or -1 after saying why. */
static int parser_file(struct parser *p, const char *name, const char *text, size_t len)
{
	struct unit_file *u = p->u;
	char *section = NULL, *acc = NULL;
	size_t acc_len = 0;
	const char *s = text, *end = text + len;
	unsigned lineno = 0;
	int rc = 0;

	u->files = xrealloc(u->files, (u->nfiles + 1) * sizeof(char *));
	u->files[u->nfiles] = xstrdup(name);
	p->name = u->files[u->nfiles++];
	if (!u->name)
		u->name = xstrdup(name);
	if (memchr(text, '\0', len))
		return fail_at(p, 1, "a NUL byte: not a unit file");
	while (s < end && !rc) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		char *line = strndup(s, n), *l = trim(line);
		bool cont;

		lineno++;
		s += n + (nl ? 1 : 0);
		/* a comment, even in the middle of a continued line, is left
		 * out (systemd.syntax(7)) */
		if (*l == '#' || *l == ';' || (!*l && !acc)) {
			free(line);
			continue;
		}
		if (!acc)
			p->line = lineno;
		/* a trailing backslash continues the line; it is read as a space */
		cont = *l && l[strlen(l) - 1] == '\\';
		if (cont)
			l[strlen(l) - 1] = ' ';
		{
			size_t ll = strlen(l);

			if (acc_len + ll > UNIT_MAX_LINE) {
				free(line);
				rc = fail_at(p, p->line, "a line longer than 1 MiB (systemd's limit, "
					     "continuations included)");
				break;
			}
			if (!acc || grown(acc_len + ll + 1) != grown(acc_len + 1))
				acc = xrealloc(acc, grown(acc_len + ll + 1));
			memcpy(acc + acc_len, l, ll + 1);
			acc_len += ll;
		}
		free(line);
		if (cont && s < end)
			continue;
		rc = logical_line(p, trim(acc), &section, p->all);
		free(acc);
		acc = NULL;
		acc_len = 0;
	}
	if (!rc && acc)
		rc = logical_line(p, trim(acc), &section, p->all);
	free(acc);
	free(section);
	return rc;
}

/* The last file read (rc 0): the commands; then the parser's own memory,
 * and u's when it failed. */
static int parser_end(struct parser *p, int rc)
{
	if (!rc)
		rc = finish(p);
	for (size_t i = 0; i < p->nraw; i++)
		free(p->raw_exec[i]);
	free(p->raw_exec);
	free(p->raw_file);
	free(p->raw_line);
	hindex_free(&p->envx);
	if (rc)
		unitfile_free(p->u);
	return rc;
}

int unitfile_parse(const char *text, size_t len, const char *name, uint64_t all_caps,
		   struct unit_file *u, char *err, size_t errlen)
{
	struct parser p;

	parser_begin(&p, u, all_caps, err, errlen);
	return parser_end(&p, parser_file(&p, name, text, len));
}

/* Read path into *buf (at most UNIT_MAX_SIZE, and *left of all files
 * together): its length, or -1 with "path: why" in err. */
static long read_unit(const char *path, char **buf, size_t *left, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	size_t max = *left < UNIT_MAX_SIZE ? *left : UNIT_MAX_SIZE, n;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	*buf = xcalloc(max + 1, 1);
	n = fread(*buf, 1, max + 1, f);
	if (ferror(f) || n > max) {
		if (ferror(f))
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		else if (max == UNIT_MAX_SIZE)
			snprintf(err, errlen, "%s: larger than 4 MiB: not a unit file", path);
		else
			snprintf(err, errlen, "%s: the unit and its drop-ins are larger than 16 MiB "
				 "together", path);
		fclose(f);
		free(*buf);
		*buf = NULL;
		return -1;
	}
	fclose(f);
	*left -= n;
	return (long)n;
}

int unitfile_load_dropins(const char *path, char *const *dropins, size_t ndropins,
			  uint64_t all_caps, struct unit_file *u, char *err, size_t errlen)
{
	struct parser p;
	size_t left = UNIT_MAX_TOTAL;
	int rc = 0;

	parser_begin(&p, u, all_caps, err, errlen);
	for (size_t i = 0; i <= ndropins && !rc; i++) {
		const char *f = i ? dropins[i - 1] : path;
		char *buf = NULL;
		long n = read_unit(f, &buf, &left, err, errlen);

		rc = n < 0 ? -1 : parser_file(&p, f, buf, (size_t)n);
		free(buf);
	}
	return parser_end(&p, rc);
}

int unitfile_load(const char *path, uint64_t all_caps, struct unit_file *u, char *err,
		  size_t errlen)
{
	return unitfile_load_dropins(path, NULL, 0, all_caps, u, err, errlen);
}

void unitfile_free(struct unit_file *u)
{
	size_t i;

	free(u->name);
	strv_free(u->files, u->nfiles);
	free(u->type);
	for (i = 0; i < u->nexec; i++) {
		free(u->exec[i].path);
		strv_free(u->exec[i].argv, u->exec[i].argc);
	}
	free(u->exec);
	free(u->user);
	free(u->group);
	strv_free(u->groups, u->ngroups);
	strv_free(u->env, u->nenv);
	strv_free(u->notes, u->nnotes);
	memset(u, 0, sizeof(*u));
}
