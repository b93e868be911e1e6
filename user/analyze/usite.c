// SPDX-License-Identifier: GPL-2.0
#include "analyze/usite.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path;
}

/* The mapped file object is the executable exe: the same path, exe given
 * relative ("build/privops"), or object deleted while mapped ("PATH
 * (deleted)", as ustacks.c names it). */
static bool same_file(const char *object, const char *exe)
{
	static const char deleted[] = " (deleted)";
	size_t no, ne, nd = sizeof(deleted) - 1;

	if (!object || !exe)
		return false;
	no = strlen(object);
	ne = strlen(exe);
	if (no > nd && !strcmp(object + no - nd, deleted))
		no -= nd;
	if (no == ne)
		return !strncmp(object, exe, no);
	return exe[0] != '/' && no > ne && object[no - ne - 1] == '/' &&
	       !strncmp(object + no - ne, exe, ne);
}

/* The C library, the dynamic loader and the language runtimes a program
 * calls through: never "the program's own code" while a frame of its own
 * is there. Matched on the file's name, versions and all. */
static bool system_library(const char *object)
{
	static const char *const lib[] = {
		"libc.so", "libc-2.", "ld-linux", "ld-musl", "ld64.so", "libpthread", "libm.so",
		"libdl.so", "librt.so", "libresolv.so", "libnss_", "libstdc++.so", "libgcc_s.so",
		"libpython", "libperl.so", "libruby", "libjvm.so", "libnode.so", "libglib-2.0.so",
	};
	const char *b = base(object);

	for (size_t i = 0; b && i < sizeof(lib) / sizeof(lib[0]); i++)
		if (!strncmp(b, lib[i], strlen(lib[i])))
			return true;
	return false;
}

int usite_own_frame(const struct rec_ustack *us, const char *exe)
{
	size_t i;

	if (!us || !us->n)
		return -1;
	/* in the executable: the first frame with a source line (a static
	 * binary's own libc wrappers have none), else the first */
	for (i = 0; i < us->n; i++)
		if (same_file(us->frames[i].object, exe) && us->frames[i].source &&
		    us->frames[i].line > 0)
			return (int)i;
	for (i = 0; i < us->n; i++)
		if (same_file(us->frames[i].object, exe))
			return (int)i;
	for (i = 0; i < us->n; i++)
		if (us->frames[i].source && us->frames[i].line > 0 &&
		    !system_library(us->frames[i].object))
			return (int)i;
	for (i = 0; i < us->n; i++)
		if (us->frames[i].object && !system_library(us->frames[i].object))
			return (int)i;
	/* a file that could not be found (deleted, another namespace): more
	 * likely the program than a library it called through */
	for (i = 1; i < us->n; i++)
		if (!us->frames[i].object && !us->frames[i].address)
			return (int)i;
	return 0;
}

bool usite_same(const struct rec_uframe *a, const struct rec_uframe *b)
{
	if (!a || !b)
		return a == b;
	if (a->source && b->source)
		return a->line == b->line && !strcmp(a->source, b->source);
	if (a->source || b->source)
		return false;
	if (a->offset != b->offset || a->address != b->address)
		return false;
	if (a->object && b->object)
		return !strcmp(a->object, b->object);
	if (a->build_id && b->build_id)
		return !strcmp(a->build_id, b->build_id);
	return !a->object && !b->object && !a->build_id && !b->build_id;
}

void usite_format(const struct rec_uframe *f, char *buf, size_t len)
{
	if (f->source && f->line > 0)
		snprintf(buf, len, "%s:%d (%s)", f->source, f->line,
			 f->function ? f->function : "?");
	else if (f->function)
		snprintf(buf, len, "%s+0x%" PRIx64 " in %s", f->function, f->func_off,
			 f->object ? f->object : "?");
	else if (f->object)
		snprintf(buf, len, "%s+0x%" PRIx64, f->object, f->offset);
	else if (f->build_id)
		snprintf(buf, len, "build id %.16s..+0x%" PRIx64, f->build_id, f->offset);
	else if (f->address)
		snprintf(buf, len, "address 0x%" PRIx64, f->offset);
	else
		snprintf(buf, len, "unknown file+0x%" PRIx64, f->offset);
}

void usite_format_short(const struct rec_uframe *f, char *buf, size_t len)
{
	if (f->function)
		snprintf(buf, len, "%s in %s", f->function, f->object ? base(f->object) : "?");
	else
		usite_format(f, buf, len);
}

const char *usite_relative(const char *source, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (source && n && !strncmp(source, root, n) && source[n] == '/')
		return source + n + 1;
	return source;
}
