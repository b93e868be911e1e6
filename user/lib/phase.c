// SPDX-License-Identifier: GPL-2.0
/* The phase timer (phase.h). */
#include "lib/phase.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PHASE_MAX 64

struct phase {
	const char *name;
	double wall, cpu;   /* at the mark, seconds */
	long rss_kb, hwm_kb;   /* resident at the mark, and the peak so far */
};

static struct phase phases[PHASE_MAX];
static int nphases;
static int state;   /* 0 not asked yet, 1 on, -1 off */
static double first_wall;
static pid_t owner;   /* a forked child (the keeper, the command) prints nothing */

static double clock_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The process's start on CLOCK_MONOTONIC's scale (boot-based, as
 * /proc/self/stat's starttime is): the exec and the dynamic linker count
 * too. -1 if unknown. */
static double process_start(void)
{
	char buf[1024], *p;
	unsigned long long start = 0;
	FILE *f = fopen("/proc/self/stat", "re");
	size_t n;
	int i;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');   /* comm may hold spaces */
	for (i = 0; p && i < 20; i++)   /* field 22, starttime */
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &start) != 1)
		return -1;
	/* starttime is on CLOCK_BOOTTIME; take the offset to MONOTONIC now */
	return start / (double)sysconf(_SC_CLK_TCK) -
	       (clock_s(CLOCK_BOOTTIME) - clock_s(CLOCK_MONOTONIC));
}

static long rss_kb(void)
{
	long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (f) {
		if (fscanf(f, "%ld %ld", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

/* The peak resident set so far (VmHWM). */
static long hwm_kb(void)
{
	char line[128];
	long kb = 0;
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static void phase_print(void)
{
	const char *to = getenv("CAPAUDIT_PHASES");
	double end_wall = clock_s(CLOCK_MONOTONIC), end_cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	double start = process_start();
	long end_rss = rss_kb(), end_hwm = hwm_kb();
	FILE *f = stderr;
	int i;

	if (getpid() != owner)
		return;
	if (to && to[0] == '/' && !(f = fopen(to, "ae")))
		return;
	for (i = 0; i < nphases; i++) {
		double w = (i + 1 < nphases ? phases[i + 1].wall : end_wall) - phases[i].wall;
		double c = (i + 1 < nphases ? phases[i + 1].cpu : end_cpu) - phases[i].cpu;

		long rss = i + 1 < nphases ? phases[i + 1].rss_kb : end_rss;
		long hwm = i + 1 < nphases ? phases[i + 1].hwm_kb : end_hwm;

		fprintf(f, "capaudit: phase %s wall_ms=%.1f cpu_ms=%.1f rss_kb=%ld hwm_kb=%ld\n",
			phases[i].name, w * 1e3, c * 1e3, rss, hwm);
	}
	/* before the first mark: the exec, the dynamic linker, main()'s
	 * parsing (the clock's tick, 10 ms, is /proc's resolution) */
	if (start >= 0 && start <= first_wall)
		fprintf(f, "capaudit: phase exec wall_ms=%.1f\n", (first_wall - start) * 1e3);
	fprintf(f, "capaudit: phase total wall_ms=%.1f cpu_ms=%.1f hwm_kb=%ld\n",
		(end_wall - (start >= 0 && start <= first_wall ? start : first_wall)) * 1e3,
		end_cpu * 1e3, end_hwm);
	if (f != stderr)
		fclose(f);
}

void phase_mark(const char *name)
{
	if (!state) {
		const char *e = getenv("CAPAUDIT_PHASES");

		state = e && e[0] && strcmp(e, "0") ? 1 : -1;
		if (state > 0) {
			first_wall = clock_s(CLOCK_MONOTONIC);
			owner = getpid();
			atexit(phase_print);
		}
	}
	if (state < 0 || nphases >= PHASE_MAX)
		return;
	phases[nphases].name = name;
	phases[nphases].wall = clock_s(CLOCK_MONOTONIC);
	phases[nphases].cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	phases[nphases].rss_kb = rss_kb();
	phases[nphases].hwm_kb = hwm_kb();
	nphases++;
}
