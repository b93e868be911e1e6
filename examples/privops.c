// SPDX-License-Identifier: GPL-2.0
/*
 * Two privileged calls, each on its own source line, for the user-stack
 * symbolization tests:
 *
 *   privops [--wait] FILE
 *
 * chown(FILE, 65534, 65534) (CAP_CHOWN), then sethostname() with the
 * current hostname (CAP_SYS_ADMIN; gethostname() first, so nothing
 * changes). --wait reads one byte from stdin first (a test can delete the
 * binary meanwhile). The line of each call carries a marker comment (the
 * word LINE, a colon and the call's name) for grep -n.
 *
 * Each call sits in a noinline, noclone function that uses its result, so
 * that it stays a real call (never inlined, never a tail call) and its
 * return address lies in that function, on that line.
 *
 * Exit 0 when both calls succeed, 1 otherwise (one line on stderr per
 * failed call), 2 on usage errors.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__clang__)
#define NOIPA __attribute__((noinline))
#else
#define NOIPA __attribute__((noipa))   /* noinline, noclone, no IPA */
#endif

#ifndef HOST_NAME_MAX
#define HOST_NAME_MAX 64
#endif

NOIPA static int do_chown(const char *file)
{
	int rc;

	rc = chown(file, 65534, 65534); /* LINE:chown */
	if (rc)
		fprintf(stderr, "privops: chown %s: %s\n", file, strerror(errno));
	return rc;
}

NOIPA static int do_sethostname(void)
{
	char name[HOST_NAME_MAX + 1];
	int rc;

	if (gethostname(name, sizeof(name))) {
		fprintf(stderr, "privops: gethostname: %s\n", strerror(errno));
		return -1;
	}
	name[HOST_NAME_MAX] = '\0';
	rc = sethostname(name, strlen(name)); /* LINE:sethostname */
	if (rc)
		fprintf(stderr, "privops: sethostname: %s\n", strerror(errno));
	return rc;
}

int main(int argc, char **argv)
{
	const char *file;
	int wait = 0, rc;
	char c;

	if (argc == 3 && !strcmp(argv[1], "--wait")) {
		wait = 1;
		file = argv[2];
	} else if (argc == 2 && strcmp(argv[1], "--wait")) {
		file = argv[1];
	} else {
		fprintf(stderr, "usage: privops [--wait] FILE\n");
		return 2;
	}
	if (wait && read(0, &c, 1) < 0) {
		fprintf(stderr, "privops: read stdin: %s\n", strerror(errno));
		return 1;
	}
	rc = do_chown(file);
	rc |= do_sethostname();
	return rc ? 1 : 0;
}
