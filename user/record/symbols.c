// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbols for a recording: the text ranges the call-site cache's
 * proofs need, and the names of the stacks at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/symbols.h"
#include "lib/util.h"
#include "facts/callsite.h"
#include "tracer/ksyms_iter.h"
#include "tracer/proofranges.h"

static char *read_modules(void)
{
	FILE *f = fopen("/proc/modules", "re"), *m;
	char *line = NULL, *buf = NULL, name[128];
	size_t cap = 0, len = 0;
	unsigned long size;

	if (!f)   /* a kernel without modules: nothing to change */
		return errno == ENOENT ? xstrdup("") : NULL;
	m = open_memstream(&buf, &len);
	if (!m) {
		fclose(f);
		return NULL;
	}
	/* name and size: use counts change by themselves */
	while (getline(&line, &cap, f) > 0)
		if (sscanf(line, "%127s %lu", name, &size) == 2)
			fprintf(m, "%s %lu\n", name, size);
	free(line);
	fclose(f);
	fclose(m);
	return buf;
}

/*
 * Once attached: the kernel's symbols, for the call-site cache's proofs
 * (the capability API's text ranges; until they are set every cached hit
 * walks the stack) and, when no module came or went meanwhile, for the
 * stacks at the end. Read on a thread of its own while the main one
 * handles the events (a quarter of a second here: events wait for no
 * one, and /proc of short-lived processes is read while they are there).
 * Root read them from /proc/kallsyms before dropping its privileges.
 */
static void *symbols_thread(void *arg)
{
	struct rec_symbols *y = arg;
	struct ca_ranges r;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);   /* signals are the main thread's */
	y->ksyms_start = ksyms_best(&y->ksyms_start_source, y->ksyms_start_err,
				    sizeof(y->ksyms_start_err));
	if (y->set_at_join)   /* the tracer may not be loaded yet */
		y->thread_ranges_ok = !proof_ranges_from_ksyms(y->ksyms_start, &y->thread_ranges);
	else if (!proof_ranges_from_ksyms(y->ksyms_start, &r) && !tracer_set_ranges(y->tr, &r))
		y->ranges_set = true;
	return NULL;
}

char **symbolize_kstack(const struct ksyms *ks, const uint64_t *ips, size_t n, size_t *nf)
{
	char **frames = xcalloc(n + 1, sizeof(char *)), frame[256];
	size_t i, skip;

	for (i = 0; i < n; i++) {
		ksyms_format(ks, ips[i], frame, sizeof(frame));
		frames[i] = xstrdup(frame);
	}
	/* the stack starts at the hook: drop the tracer's own frames (none
	 * without symbols: every frame would look like JIT code) */
	skip = ks ? callsite_hook_frames(frames, n) : 0;
	for (i = 0; i < skip; i++)
		free(frames[i]);
	memmove(frames, frames + skip, (n - skip + 1) * sizeof(char *));
	*nf = n - skip;
	return frames;
}

void start_symbols(struct rec_symbols *y)
{
	if (y->ranges_set || y->started)
		return;   /* from /proc/kallsyms, before the privilege drop; or read */
	y->started = true;
	y->modules_start = read_modules();
	if (y->ksyms) {   /* read before the drop: no iter/ksym here */
		struct ca_ranges r;

		y->ranges_set = !proof_ranges_from_ksyms(y->ksyms, &r) &&
				!tracer_set_ranges(y->tr, &r);
		return;
	}
	y->symbols_thread_started = !pthread_create(&y->symbols_tid, NULL, symbols_thread, y);
	if (!y->symbols_thread_started)
		symbols_thread(y);
}

/*
 * Reading the kernel's symbols takes about as long as loading the object
 * (the verifier: 120-170 ms of CPU each, here); on a thread started once
 * the privileges are dropped (a thread keeps the capabilities it was
 * created with), the two share the start-up's wall time. The ranges go
 * into the tracer's map at join_symbols(), once it is loaded.
 */
void start_symbols_early(struct rec_symbols *y)
{
	if (!y->before_command || y->ksyms || y->started)
		return;
	y->set_at_join = true;
	start_symbols(y);
}

/* The thread of start_symbols() is done (its table and ranges set). */
void join_symbols(struct rec_symbols *y)
{
	if (!y->symbols_thread_started)
		return;
	pthread_join(y->symbols_tid, NULL);
	y->symbols_thread_started = false;
	if (y->set_at_join && y->thread_ranges_ok && !y->ranges_set && tracer_loaded(y->tr))
		y->ranges_set = !tracer_set_ranges(y->tr, &y->thread_ranges);
	if (!y->ranges_set && y->verbose)
		fprintf(stderr, "capaudit: no call-site proofs (every cached check walked the "
			"stack): %s\n", y->ksyms_start_err[0] ? y->ksyms_start_err :
			"the capability API's symbols are missing");
}

struct ksyms *end_symbols(struct rec_symbols *y, char *kerr, size_t n)
{
	struct ksyms *ks;
	char *modules = read_modules();

	join_symbols(y);
	bool same = y->ksyms_start && modules && y->modules_start &&
		    !strcmp(modules, y->modules_start);

	free(modules);
	if (!same) {   /* not needed any more: never two tables at once */
		ksyms_free(y->ksyms_start);
		y->ksyms_start = NULL;
	}
	if (same) {   /* the symbols read at the start still hold */
		ks = y->ksyms_start;
		y->ksyms_start = NULL;
		y->ksyms_source = y->ksyms_start_source;
		return ks;
	}
	ks = ksyms_best(&y->ksyms_source, kerr, n);

	if (!ks && y->ksyms) {
		ks = y->ksyms;   /* read at the start, while we could */
		y->ksyms = NULL;
		y->ksyms_source = "/proc/kallsyms (at start)";
	}
	if (!ks)
		fprintf(stderr, "capaudit: warning: stacks left unsymbolized: %s\n", kerr);
	return ks;
}

/* Into the record: the maps are read through their descriptors, and the
 * executables symbolized (libdwfl), with no capability left. */

const struct ksyms *symbols_now(struct rec_symbols *y)
{
	/* root read /proc/kallsyms before the drop for the proofs only: the
	 * call sites need the table, from the kernel (iter/ksym) now */
	if (!y->ksyms_start && !y->ksyms)
		y->ksyms_start = ksyms_best(&y->ksyms_start_source, y->ksyms_start_err,
					    sizeof(y->ksyms_start_err));
	y->ksyms_source = y->ksyms_start ? y->ksyms_start_source : y->ksyms ? "/proc/kallsyms" : NULL;
	return y->ksyms_start ? y->ksyms_start : y->ksyms;
}
