// SPDX-License-Identifier: GPL-2.0
#include "tracer/bpfiter.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

int bpf_iter_read_all(struct bpf_program *prog, const char *what, char **out, size_t *len,
		      char *err, size_t errlen)
{
	struct bpf_link *link = bpf_program__attach_iter(prog, NULL);
	size_t n = 0, cap = 0;
	char *buf = NULL;
	ssize_t r = 0;
	int fd = -1, rc = -1;

	if (!link) {
		snprintf(err, errlen, "%s: attach failed: %s", what, strerror(errno));
		return -1;
	}
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", what, strerror(errno));
		goto out;
	}
	do {
		grow_array((void **)&buf, &cap, n + 65536, 1);
		r = read(fd, buf + n, cap - n - 1);
		if (r > 0)
			n += (size_t)r;
	} while (r > 0 || (r < 0 && errno == EINTR));
	if (r < 0) {
		snprintf(err, errlen, "%s: read: %s", what, strerror(errno));
		goto out;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	buf = NULL;
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	bpf_link__destroy(link);
	free(buf);
	return rc;
}

int bpf_iter_read_chunks(struct bpf_program *prog, const char *what,
			 void (*fn)(void *ctx, const char *buf, size_t len), void *ctx,
			 char *err, size_t errlen)
{
	struct bpf_link *link = bpf_program__attach_iter(prog, NULL);
	char *buf = NULL;
	ssize_t r = 0;
	int fd = -1, rc = -1;

	if (!link) {
		snprintf(err, errlen, "%s: attach failed: %s", what, strerror(errno));
		return -1;
	}
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", what, strerror(errno));
		goto out;
	}
	buf = xcalloc(65536, 1);
	do {
		r = read(fd, buf, 65536);
		if (r > 0)
			fn(ctx, buf, (size_t)r);
	} while (r > 0 || (r < 0 && errno == EINTR));
	if (r < 0) {
		snprintf(err, errlen, "%s: read: %s", what, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	bpf_link__destroy(link);
	free(buf);
	return rc;
}
