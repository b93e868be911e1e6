// SPDX-License-Identifier: GPL-2.0
/*
 * Replay the committed fuzz corpus through the fuzz targets, without
 * libFuzzer: part of make test (and make test-asan, where the sanitizers
 * watch). TAP: one result per target. A crash or an abort is a failure the
 * test runner sees as a runner that died.
 *   fuzz-replay CORPUS_DIR   (with record/ and baseline/ below it)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets.h"
#include "lib/util.h"

static const struct {
	const char *name;
	int (*fn)(const uint8_t *, size_t);
} targets[] = {
	{ "record", fuzz_record },
	{ "baseline", fuzz_baseline },
};

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file in dir through fn; returns how many, -1 if dir is unreadable. */
static long replay_dir(const char *dir, int (*fn)(const uint8_t *, size_t))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0, i;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			grow_array((void **)&names, &cap, n + 1, sizeof(*names));
			names[n++] = xstrdup(e->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	for (i = 0; i < n; i++) {
		FILE *f;
		char *buf = NULL;
		size_t len = 0, got;
		char chunk[65536];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		f = fopen(path, "rb");
		if (!f) {
			perror(path);
			exit(1);
		}
		while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
			buf = xrealloc(buf, len + got);
			memcpy(buf + len, chunk, got);
			len += got;
		}
		fclose(f);
		/* the name goes to stderr first: if this input crashes, it is named */
		fprintf(stderr, "# replay %s\n", path);
		fn((const uint8_t *)buf, len);
		free(buf);
		free(names[i]);
	}
	free(names);
	return (long)n;
}

int main(int argc, char **argv)
{
	char dir[4096];
	size_t t, nt = sizeof(targets) / sizeof(targets[0]);
	int failed = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: fuzz-replay CORPUS_DIR\n");
		return 2;
	}
	printf("1..%zu\n", nt);
	fflush(stdout);
	for (t = 0; t < nt; t++) {
		long n;

		snprintf(dir, sizeof(dir), "%s/%s", argv[1], targets[t].name);
		n = replay_dir(dir, targets[t].fn);
		if (n <= 0) {
			printf("not ok %zu - fuzz corpus %s: %s\n", t + 1, dir,
			       n < 0 ? "cannot read the directory" : "empty");
			failed = 1;
		} else {
			printf("ok %zu - fuzz corpus %s: %ld inputs, no crash, every property held\n",
			       t + 1, targets[t].name, n);
		}
		fflush(stdout);
	}
	return failed;
}
