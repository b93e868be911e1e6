// SPDX-License-Identifier: GPL-2.0
/*
 * A service unit's file and drop-ins, found where systemd finds them
 * (unitpath.h says the rules and their sources).
 */
#include "facts/unitpath.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/util.h"

/*
 * The system manager's unit path, highest precedence first: systemd.unit(5)
 * "Table 1. Load path when running in system mode", as Debian 12's
 * systemd 252 has it (`systemd-analyze unit-paths --system`; /lib is
 * /usr/lib on a merged /usr, and a directory met twice changes nothing).
 */
static const char *const system_unit_path[] = {
	"/etc/systemd/system.control", "/run/systemd/system.control", "/run/systemd/transient",
	"/run/systemd/generator.early", "/etc/systemd/system", "/etc/systemd/system.attached",
	"/run/systemd/system", "/run/systemd/system.attached", "/run/systemd/generator",
	"/usr/local/lib/systemd/system", "/lib/systemd/system", "/usr/lib/systemd/system",
	"/run/systemd/generator.late", NULL,
};

#define UNIT_NAME_MAX 255   /* systemd's UNIT_NAME_MAX, less its NUL */
#define SUFFIX ".service"

struct strv {
	char **v;
	size_t n;
};

static void strv_push(struct strv *s, char *str)
{
	s->v = xrealloc(s->v, (s->n + 2) * sizeof(char *));
	s->v[s->n++] = str;
	s->v[s->n] = NULL;
}

static void strv_clear(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

/* The unit path: $SYSTEMD_UNIT_PATH's directories (a list ending in ':'
 * goes before the usual ones), else the usual ones (systemd(1),
 * "Environment"). secure_getenv(), as systemd reads it. */
static bool load_path(struct strv *dirs)
{
	const char *e = secure_getenv("SYSTEMD_UNIT_PATH"), *p, *c;
	bool append = !e || (*e && e[strlen(e) - 1] == ':');

	for (p = e; p && *p; p = *c ? c + 1 : c) {
		c = strchrnul(p, ':');
		if (c > p)
			strv_push(dirs, strndup(p, (size_t)(c - p)));
	}
	for (size_t i = 0; append && system_unit_path[i]; i++)
		strv_push(dirs, xstrdup(system_unit_path[i]));
	return e != NULL;
}

const char *unitpath_dirs(char *buf, size_t len)
{
	struct strv d = { 0 };
	size_t n = 0;

	load_path(&d);
	buf[0] = '\0';
	for (size_t i = 0; i < d.n && n < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", i ? ", " : "", d.v[i]);

		if (w < 0)
			break;
		n += (size_t)w;
	}
	strv_clear(&d);
	return buf;
}

/* ---- names (src/basic/unit-name.c) -------------------------------------- */

/* A service unit's name: systemd's characters, at most one '@', a
 * prefix before it (or before the suffix). */
static bool service_name_valid(const char *n)
{
	size_t len = strlen(n), at = 0;
	const char *p;

	if (len <= strlen(SUFFIX) || len > UNIT_NAME_MAX || strcmp(n + len - strlen(SUFFIX), SUFFIX))
		return false;
	for (p = n; p < n + len - strlen(SUFFIX); p++) {
		if (*p == '@')
			at++;
		else if (!isalnum((unsigned char)*p) && !strchr(":-_.\\", *p))
			return false;
	}
	return at <= 1 && n[0] != '@' && n[0] != '.';
}

/* foo@bar.service: "foo@.service" (an instance's template), else NULL */
static char *template_of(const char *n)
{
	const char *at = strchr(n, '@');
	char *t;

	if (!at || !strcmp(at, "@" SUFFIX))
		return NULL;
	if (asprintf(&t, "%.*s@" SUFFIX, (int)(at - n), n) < 0)
		abort();
	return t;
}

/*
 * The next name up the dash prefixes (unit_file_find_dirs() in
 * src/shared/dropin.c): foo-bar-baz.service -> foo-bar-.service ->
 * foo-.service -> NULL; an instance keeps its instance
 * (foo-bar@i.service -> foo-@i.service).
 */
static char *dash_parent(const char *n)
{
	const char *at = strchr(n, '@'), *end = at ? at : n + strlen(n) - strlen(SUFFIX);
	size_t len = (size_t)(end - n);
	bool chopped = false;
	char *prefix = strndup(n, len), *out;

	for (;;) {
		char *dash = strrchr(prefix, '-');
		size_t k;

		if (!dash || dash == prefix) {
			free(prefix);
			return NULL;
		}
		k = (size_t)(dash - prefix);
		if (prefix[k + 1] || chopped) {
			prefix[k + 1] = '\0';
			break;
		}
		prefix[k] = '\0';   /* a trailing dash: chop it, once */
		chopped = true;
	}
	if (asprintf(&out, "%s%s", prefix, at ? at : SUFFIX) < 0)
		abort();
	free(prefix);
	return out;
}

/* ---- drop-in directories -------------------------------------------------- */

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* dir/NAME.service.d, the template's, the dash prefixes', in systemd's
 * order (unit_file_find_dirs()): the nearer first, so that its files
 * mask the farther ones'. */
static void name_dirs(const char *dir, const char *name, struct strv *out)
{
	char *path, *t, *up;

	if (asprintf(&path, "%s/%s.d", dir, name) < 0)
		abort();
	if (is_dir(path))
		strv_push(out, path);
	else
		free(path);
	t = template_of(name);
	if (t) {
		name_dirs(dir, t, out);
		free(t);
	}
	up = dash_parent(name);
	if (up) {
		name_dirs(dir, up, out);
		free(up);
	}
}

/* One *.conf of a drop-in directory. */
struct conf {
	const char *base;        /* into path */
	char *path;
	size_t order;            /* its directory's place: the first masks the rest */
};

static int conf_cmp(const void *a, const void *b)
{
	const struct conf *x = a, *y = b;
	int c = strcmp(x->base, y->base);

	return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

/* A file of a drop-in directory that systemd reads: "*.conf", not hidden
 * (conf_files_list(): dirent_is_file_with_suffix()). */
static bool conf_name(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	if (de->d_name[0] == '.' || n <= 5 || strcmp(de->d_name + n - 5, ".conf"))
		return false;
	return de->d_type == DT_REG || de->d_type == DT_LNK || de->d_type == DT_UNKNOWN;
}

/* What a masking entry is: a symlink to /dev/null, or an empty file
 * (nothing to apply); not a regular file: nothing systemd would read. */
static bool applies(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > 0;
}

static int collect(const struct strv *dirs, struct unit_sources *s, char *err, size_t errlen)
{
	struct conf *c = NULL;
	struct stat *seen = xcalloc(dirs->n + 1, sizeof(*seen));
	size_t n = 0, i, k;
	int rc = 0;

	for (i = 0; i < dirs->n && !rc; i++) {
		DIR *d = opendir(dirs->v[i]);
		struct dirent *de;

		if (!d)
			continue;   /* gone, or not for us to read: as systemd, go on */
		/* one directory under two names (/lib is /usr/lib on a merged
		 * /usr; a template's reached from two prefixes): its first */
		if (fstat(dirfd(d), &seen[i]))
			memset(&seen[i], 0, sizeof(seen[i]));
		for (k = 0; k < i; k++)
			if (seen[k].st_ino && seen[k].st_dev == seen[i].st_dev &&
			    seen[k].st_ino == seen[i].st_ino)
				break;
		if (k < i) {
			memset(&seen[i], 0, sizeof(seen[i]));
			closedir(d);
			continue;
		}
		while ((de = readdir(d))) {
			if (!conf_name(de))
				continue;
			if (n >= UNIT_MAX_DROPINS) {
				snprintf(err, errlen, "%s: more than %d drop-in files (*.conf) in the "
					 "unit's drop-in directories", dirs->v[i], UNIT_MAX_DROPINS);
				rc = -1;
				break;
			}
			c = xrealloc(c, (n + 1) * sizeof(*c));
			if (asprintf(&c[n].path, "%s/%s", dirs->v[i], de->d_name) < 0)
				abort();
			c[n].base = c[n].path + strlen(dirs->v[i]) + 1;
			c[n++].order = i;
		}
		closedir(d);
	}
	if (!rc) {
		if (n)   /* (qsort() of NULL is undefined, even of nothing) */
			qsort(c, n, sizeof(*c), conf_cmp);
		for (i = 0; i < n; i++) {
			if ((i && !strcmp(c[i].base, c[i - 1].base)) || !applies(c[i].path))
				continue;
			s->dropins = xrealloc(s->dropins, (s->ndropins + 1) * sizeof(char *));
			s->dropins[s->ndropins++] = c[i].path;
			c[i].path = NULL;
		}
	}
	for (i = 0; i < n; i++)
		free(c[i].path);
	free(c);
	free(seen);
	return rc;
}

/* ---- the unit ------------------------------------------------------------- */

/* Its real directory, for comparing two spellings of one. */
static char *real_dir(const char *path)
{
	char *copy = xstrdup(path), *slash = strrchr(copy, '/'), *r;

	if (!slash)
		r = realpath(".", NULL);
	else if (slash == copy)
		r = xstrdup("/");
	else {
		*slash = '\0';
		r = realpath(copy, NULL);
	}
	free(copy);
	return r;
}

static bool on_path(const struct strv *dirs, const char *real)
{
	for (size_t i = 0; real && i < dirs->n; i++) {
		char *r = realpath(dirs->v[i], NULL);
		bool same = r && !strcmp(r, real);

		free(r);
		if (same)
			return true;
	}
	return false;
}

/* The first file of name along the path, or NULL. */
static char *first_on_path(const struct strv *dirs, const char *name)
{
	struct stat st;

	for (size_t i = 0; i < dirs->n; i++) {
		char *p;

		if (asprintf(&p, "%s/%s", dirs->v[i], name) < 0)
			abort();
		if (!lstat(p, &st))
			return p;
		free(p);
	}
	return NULL;
}

/* A unit masked: its file a symlink to /dev/null, or empty
 * (systemd.unit(5): load state "masked"). */
static int masked(const char *arg, const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3))
		snprintf(err, errlen, "--service %s: the unit is masked (%s is a symlink to "
			 "/dev/null)", arg, path);
	else if (S_ISREG(st.st_mode) && st.st_size == 0)
		snprintf(err, errlen, "--service %s: the unit is masked (%s is empty)", arg, path);
	else
		return 0;
	return -1;
}

/* name, unless the argument is a file */
static char *as_name(const char *arg)
{
	static const char *const others[] = { ".socket", ".target", ".timer", ".mount",
		".automount", ".path", ".slice", ".scope", ".device", ".swap", NULL };
	size_t len = strlen(arg);
	char *n;

	for (size_t i = 0; others[i]; i++) {
		size_t k = strlen(others[i]);

		if (len > k && !strcmp(arg + len - k, others[i]))
			return NULL;
	}
	if (len > strlen(SUFFIX) && !strcmp(arg + len - strlen(SUFFIX), SUFFIX))
		return xstrdup(arg);
	if (asprintf(&n, "%s" SUFFIX, arg) < 0)
		abort();
	return n;
}

int unitpath_find(const char *arg, struct unit_sources *s, char *err, size_t errlen)
{
	struct strv dirs = { 0 }, dropdirs = { 0 }, names = { 0 };
	bool from_env, is_file = strchr(arg, '/') || !access(arg, F_OK);
	char *real = NULL, *base;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	from_env = load_path(&dirs);
	if (is_file) {
		s->unit = xstrdup(arg);
		base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : (char *)arg;
		s->name = service_name_valid(base) ? xstrdup(base) : NULL;
		/* its own directory, where it is not one of the path's:
		 * before them (systemd-analyze verify's way) */
		real = real_dir(arg);
		if (real && !on_path(&dirs, real)) {
			char *d = strrchr(arg, '/') ? strndup(arg, (size_t)(strrchr(arg, '/') - arg)) :
				  xstrdup(".");

			if (!*d) {
				free(d);
				d = xstrdup("/");
			}
			strv_push(&dirs, NULL);
			memmove(dirs.v + 1, dirs.v, (dirs.n - 1) * sizeof(char *));
			dirs.v[0] = d;
		}
	} else {
		char list[4096];

		s->name = as_name(arg);
		if (!s->name) {
			snprintf(err, errlen, "--service %s: not a service unit (systemd.service(5))",
				 arg);
			goto out;
		}
		if (!service_name_valid(s->name)) {
			snprintf(err, errlen, "--service '%s': not a unit name (letters, digits and "
				 ":-_.\\@) nor a file", arg);
			goto out;
		}
		s->unit = first_on_path(&dirs, s->name);
		if (!s->unit) {
			char *t = template_of(s->name);

			s->unit = t ? first_on_path(&dirs, t) : NULL;
			free(t);
		}
		if (!s->unit) {
			snprintf(err, errlen, "--service %s: no such unit in %s (the unit path: %s)",
				 s->name, unitpath_dirs(list, sizeof(list)),
				 from_env ? "SYSTEMD_UNIT_PATH" : "systemd.unit(5)");
			goto out;
		}
		if (masked(s->name, s->unit, err, errlen))
			goto out;
		s->by_name = true;
	}
	if (s->name) {
		/* an alias (a symlink to another unit's file): the drop-ins of
		 * the unit it names come first, then its own */
		char *target = realpath(s->unit, NULL), *tb = target ? strrchr(target, '/') : NULL;

		if (tb && strcmp(tb + 1, s->name) && service_name_valid(tb + 1))
			strv_push(&names, xstrdup(tb + 1));
		strv_push(&names, xstrdup(s->name));
		free(target);
		for (size_t k = 0; k < names.n; k++)
			for (size_t i = 0; i < dirs.n; i++)
				name_dirs(dirs.v[i], names.v[k], &dropdirs);
		/* the type's, every service's: after the names' (the most
		 * generic, masked by theirs) */
		for (size_t i = 0; i < dirs.n; i++) {
			char *p;

			if (asprintf(&p, "%s/service.d", dirs.v[i]) < 0)
				abort();
			if (is_dir(p))
				strv_push(&dropdirs, p);
			else
				free(p);
		}
	}
	rc = collect(&dropdirs, s, err, errlen);
out:
	free(real);
	strv_clear(&dirs);
	strv_clear(&dropdirs);
	strv_clear(&names);
	if (rc)
		unitpath_free(s);
	return rc;
}

void unitpath_free(struct unit_sources *s)
{
	for (size_t i = 0; i < s->ndropins; i++)
		free(s->dropins[i]);
	free(s->dropins);
	free(s->unit);
	free(s->name);
	memset(s, 0, sizeof(*s));
}
