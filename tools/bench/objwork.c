// SPDX-License-Identifier: GPL-2.0
/*
 * The objects benchmark's workload (tools/bench/objcost.sh): waits for a
 * line on stdin, then loops CALLS times on utimensat(AT_FDCWD, NAME,
 * times, 0) of a file root does not own (one CAP_FOWNER check per call,
 * an object the hook reads: NAME relative to the cwd, so the cwd's path
 * is walked too), prints "done" and waits for another line before it
 * exits, so that the program's accounting can be read around the loop
 * alone. With COPIES > 1 the name is passed from that many buffers in
 * turn: the call-site cache's tag mixes the pointer, so each call is a
 * cache miss (64 slots), the slow path where the hook reads objects.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int main(int argc, char **argv)
{
	const struct timespec ts[2] = { { 0, 0 }, { 0, 0 } };
	long n = argc > 2 ? atol(argv[1]) : 0, copies = argc > 3 ? atol(argv[3]) : 1, i;
	char line[16], *names;
	size_t len;

	if (n <= 0 || copies < 1 || copies > 65536) {
		fprintf(stderr, "usage: objwork CALLS NAME [COPIES]\n");
		return 2;
	}
	len = strlen(argv[2]) + 1;
	names = malloc(len * (size_t)copies);
	if (!names)
		return 1;
	for (i = 0; i < copies; i++)
		memcpy(names + len * (size_t)i, argv[2], len);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (i = 0; i < n; i++)
		utimensat(AT_FDCWD, names + len * (size_t)(i % copies), ts, 0);
	printf("done\n");
	fflush(stdout);
	return fgets(line, sizeof(line), stdin) ? 0 : 1;
}
