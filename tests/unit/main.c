// SPDX-License-Identifier: GPL-2.0
/* Unit test runner: TAP on stdout, exit 1 if anything failed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recfile/recfile.h"
#include "test.h"
#include "lib/util.h"

struct test {
	const char *name;
	void (*fn)(void);
};

static struct test tests[512];
static int ntests;
int test_fails;
char test_skipped[200];
const char *fixtures_dir = "tests/fixtures";

void test_register(const char *name, void (*fn)(void))
{
	if (ntests == (int)(sizeof(tests) / sizeof(tests[0]))) {
		fprintf(stderr, "too many unit tests\n");
		exit(2);
	}
	tests[ntests++] = (struct test){ name, fn };
}

const char *fixture(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", fixtures_dir, name);
	return path;
}

int test_stack(struct record *r, const char *const *frames, size_t n)
{
	char **f = xcalloc(n + 1, sizeof(char *));
	size_t i;

	for (i = 0; i < n; i++)
		f[i] = xstrdup(frames[i]);
	return record_add_stack(r, f, n);
}

int read_text_n(const char *text, size_t len, struct record *r, struct rec_read *rd, char *err,
		size_t n)
{
	FILE *f = fmemopen((void *)text, len, "r");
	int rc;

	if (!f) {
		snprintf(err, n, "fmemopen: %s", strerror(errno));
		return -2;
	}
	rc = recfile_read_opts(f, "t.jsonl", r, rd, err, n);
	fclose(f);
	return rc;
}

int read_text(const char *text, struct record *r, char *err, size_t n)
{
	return read_text_n(text, strlen(text), r, NULL, err, n);
}

void expect_error(const char *text, const char *msg)
{
	struct record r;
	char err[512] = "";

	ASSERT_EQ(read_text(text, &r, err, sizeof(err)), -1);
	ASSERT_HAS(err, msg);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(((const struct test *)a)->name, ((const struct test *)b)->name);
}

int main(int argc, char **argv)
{
	int i, failed = 0;
	const char *only = NULL;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--fixtures") && i + 1 < argc)
			fixtures_dir = argv[++i];
		else
			only = argv[i];
	}
	setvbuf(stdout, NULL, _IOLBF, 0);   /* a crashing test keeps the lines before it */
	qsort(tests, (size_t)ntests, sizeof(tests[0]), cmp);
	printf("1..%d\n", ntests);
	for (i = 0; i < ntests; i++) {
		if (only && !strstr(tests[i].name, only)) {
			printf("ok %d - %s # skip not selected\n", i + 1, tests[i].name);
			continue;
		}
		test_fails = 0;
		test_skipped[0] = '\0';
		tests[i].fn();
		if (test_skipped[0] && !test_fails)
			printf("ok %d - unit: %s # skip %s\n", i + 1, tests[i].name, test_skipped);
		else
			printf("%s %d - unit: %s\n", test_fails ? "not ok" : "ok", i + 1,
			       tests[i].name);
		failed += test_fails != 0;
	}
	fflush(stdout);
	return failed ? 1 : 0;
}
