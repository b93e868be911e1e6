// SPDX-License-Identifier: GPL-2.0
/*
 * The objects benchmark's workload (tools/bench/objcost.sh): waits for a
 * line on stdin, then loops CALLS times on utimensat(AT_FDCWD, NAME,
 * times, 0) of a file root does not own (one CAP_FOWNER check per call,
 * an object the hook reads: NAME relative to the cwd, so the cwd's path
 * is walked too), prints "done" and waits for another line before it
 * exits, so that the program's accounting can be read around the loop
 * alone.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

int main(int argc, char **argv)
{
	const struct timespec ts[2] = { { 0, 0 }, { 0, 0 } };
	long n = argc > 2 ? atol(argv[1]) : 0, i;
	char line[16];

	if (n <= 0) {
		fprintf(stderr, "usage: objwork CALLS NAME\n");
		return 2;
	}
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (i = 0; i < n; i++)
		utimensat(AT_FDCWD, argv[2], ts, 0);
	printf("done\n");
	fflush(stdout);
	return fgets(line, sizeof(line), stdin) ? 0 : 1;
}
