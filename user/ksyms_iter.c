// SPDX-License-Identifier: GPL-2.0
/* Kernel symbols from the iter/ksym BPF iterator, or /proc/kallsyms. */
#include "ksyms_iter.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksyms.skel.h"
#include "probe.h"
#include "util.h"

bool ksym_iter_supported(void)
{
	return btf_has_name("bpf_iter__ksym") > 0;
}

struct ksyms *ksyms_from_iter(char *err, size_t errlen)
{
	struct ksyms_bpf *skel = NULL;
	struct bpf_link *link = NULL;
	struct ksyms *ks = NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd = -1;

	if (!ksym_iter_supported()) {
		snprintf(err, errlen, "no iter/ksym BPF iterator (needs Linux 6.0+)");
		return NULL;
	}
	skel = ksyms_bpf__open_and_load();
	if (!skel) {
		snprintf(err, errlen, "iter/ksym: load failed: %s", strerror(errno));
		goto out;
	}
	link = bpf_program__attach_iter(skel->progs.dump_ksym, NULL);
	if (!link) {
		snprintf(err, errlen, "iter/ksym: attach failed: %s", strerror(errno));
		goto out;
	}
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		snprintf(err, errlen, "iter/ksym: %s", strerror(errno));
		goto out;
	}
	do {
		grow_array((void **)&buf, &cap, len + 65536, 1);
		n = read(fd, buf + len, cap - len - 1);
		if (n > 0)
			len += (size_t)n;
	} while (n > 0 || (n < 0 && errno == EINTR));
	if (n < 0) {
		snprintf(err, errlen, "iter/ksym: read: %s", strerror(errno));
		goto out;
	}
	ks = ksyms_parse_owned(buf, len, err, errlen);
	buf = NULL;
out:
	if (fd >= 0)
		close(fd);
	bpf_link__destroy(link);
	ksyms_bpf__destroy(skel);
	free(buf);
	return ks;
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
