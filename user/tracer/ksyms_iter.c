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
#include "ksyms.skel.h"
#include "tracer/probe.h"
#include "lib/util.h"

static struct ksyms_bpf *prepared;

void ksyms_iter_prepare(void)
{
	if (!prepared && ksym_iter_supported())
		prepared = ksyms_bpf__open_and_load();
}

void ksyms_iter_release(void)
{
	ksyms_bpf__destroy(prepared);
	prepared = NULL;
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
	struct ksyms_bpf *skel;
	struct ksyms *ks;

	if (!ksym_iter_supported()) {
		snprintf(err, errlen, "no iter/ksym BPF iterator (needs Linux 6.0+)");
		return NULL;
	}
	skel = prepared ? prepared : ksyms_bpf__open_and_load();
	if (!skel) {
		snprintf(err, errlen, "iter/ksym: load failed: %s", strerror(errno));
		return NULL;
	}
	/* parsed as it is read: the whole text (7-8 MB) is never held */
	ks = ksyms_new();
	if (bpf_iter_read_chunks(skel->progs.dump_ksym, "iter/ksym", feed, ks, err, errlen)) {
		ksyms_free(ks);
		ks = NULL;
	}
	if (skel != prepared)
		ksyms_bpf__destroy(skel);
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
