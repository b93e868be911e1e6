// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark workload: a loop of klogctl(SYSLOG_ACTION_SIZE_BUFFER),
 * which with kernel.dmesg_restrict=1 makes exactly one capable(CAP_SYSLOG)
 * check per call and does little else. With JOBS > 1 it forks that many
 * loops at once (one per core). Prints "calls=N ns=NS_PER_CALL rate=CALLS_PER_S"
 * where ns is the mean time of one call in one loop, rate the total.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, i;
	int jobs = argc > 2 ? atoi(argv[2]) : 1, j;
	double *ns = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double t0, t1, sum = 0;

	if (n <= 0 || jobs < 1 || jobs > 64 || ns == MAP_FAILED) {
		fprintf(stderr, "usage: workload CALLS [JOBS]\n");
		return 2;
	}
	t0 = now();
	for (j = 0; j < jobs; j++) {
		if (jobs > 1 && fork() != 0)
			continue;
		double a = now();

		for (i = 0; i < n; i++)
			klogctl(10, NULL, 0);
		ns[j] = (now() - a) / (double)n;
		if (jobs > 1)
			_exit(0);
	}
	while (wait(NULL) > 0)
		;
	t1 = now();
	for (j = 0; j < jobs; j++)
		sum += ns[j];
	printf("calls=%ld ns=%.1f rate=%.0f\n", n * jobs, sum / jobs, n * jobs / ((t1 - t0) / 1e9));
	return 0;
}
