// SPDX-License-Identifier: GPL-2.0
/* Kernel symbols from the iter/ksym BPF iterator, or /proc/kallsyms. */
#include "tracer/ksyms_iter.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracer/bpfiter.h"
#include "tasks.skel.h"
#include "tracer/iters.h"
#include "tracer/probe.h"
#include "lib/util.h"

void ksyms_iter_prepare(void)
{
	char err[512];

	iters_keep();
	iters_get(err, sizeof(err));   /* (ksyms_best() says why, if it failed) */
}

void ksyms_iter_release(void)
{
	iters_release();
}

bool ksym_iter_supported(void)
{
	return btf_has_name("bpf_iter__ksym") > 0;
}

static void feed(void *ks, const char *buf, size_t len)
{
	ksyms_feed(ks, buf, len);
}

/* Symbols through iter/ksym: needs only CAP_BPF and CAP_PERFMON. */
static struct ksyms *ksyms_from_iter(char *err, size_t errlen)
{
	struct tasks_bpf *skel;
	struct ksyms *ks;
	char why[512];

	if (!ksym_iter_supported()) {
		snprintf(err, errlen, "no iter/ksym BPF iterator (needs Linux 6.0+)");
		return NULL;
	}
	skel = iters_get(why, sizeof(why));
	if (!skel || bpf_program__fd(skel->progs.dump_ksym) < 0) {
		snprintf(err, errlen, "iter/ksym: %.200s", skel ? "load failed" : why);
		if (skel)
			iters_put();
		return NULL;
	}
	/* parsed as it is read: the whole text (7-8 MB) is never held */
	ks = ksyms_new();
	if (bpf_iter_read_chunks(skel->progs.dump_ksym, "iter/ksym", feed, ks, err, errlen)) {
		ksyms_free(ks);
		ks = NULL;
	}
	iters_put();
	return ks ? ksyms_finish(ks, err, errlen) : NULL;
}

struct ksyms *ksyms_best(const char **source, char *err, size_t errlen)
{
	char e1[256] = "", e2[256] = "";
	struct ksyms *ks;

	ks = ksyms_from_iter(e1, sizeof(e1));
	if (ks) {
		*source = "iter/ksym";
		return ks;
	}
	ks = ksyms_load(e2, sizeof(e2));
	if (ks) {
		*source = "/proc/kallsyms";
		return ks;
	}
	*source = NULL;
	snprintf(err, errlen, "kernel symbols unavailable: %s; /proc/kallsyms: %s", e1, e2);
	return NULL;
}
