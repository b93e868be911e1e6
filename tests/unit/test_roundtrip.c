// SPDX-License-Identifier: GPL-2.0
/*
 * The record format's behaviour, pinned byte for byte: every fixture
 * record and every record of the fuzz corpus is read (strictly, and when
 * that fails, leniently too) and written back, and what comes out (the
 * record as written, or the error line) must be what the reader and
 * writer of commit 916d602 produced, before both were driven by one
 * table of fields (recfile/fields.h). tests/fixtures/roundtrip/expected.txt
 * holds those outputs, one section "=== INPUT" each.
 *
 * To make the file again (only when a change of output is meant):
 *   CAPAUDIT_ROUNDTRIP_WRITE=tests/fixtures/roundtrip/expected.txt \
 *     build/unit-tests --fixtures tests/fixtures
 * Inputs added later (a fuzz-merge) are covered once it is made again.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "recfile/recfile.h"
#include "test.h"
#include "lib/util.h"

/* What the record format makes of one input, as text. */
static char *roundtrip_text(const char *path, const char *name)
{
	char *out = NULL, err[512];
	size_t outlen = 0;
	FILE *o = open_memstream(&out, &outlen);
	int pass;

	for (pass = 0; pass < 2; pass++) {
		struct rec_read rd = { .lenient = pass == 1 };
		struct record r;
		FILE *f = fopen(path, "r");

		if (!f) {
			fprintf(o, "cannot open\n");
			break;
		}
		err[0] = '\0';
		if (recfile_read_opts(f, name, &r, &rd, err, sizeof(err))) {
			fprintf(o, "%s error: %s\n", pass ? "lenient" : "strict", err);
			fclose(f);
			continue;
		}
		fclose(f);
		if (pass)
			fprintf(o, "lenient: lines %zu skipped %zu truncated %d missing %zu: %s\n",
				rd.lines, rd.skipped, rd.truncated, rd.missing, rd.first_problem);
		fflush(o);
		recfile_write(o, &r);
		record_free(&r);
		break;
	}
	fclose(o);
	return out;
}

/* The inputs, as paths below tests/: fixtures, then the fuzz corpus. */
static size_t roundtrip_inputs(glob_t *g)
{
	static const char *const pats[] = { "fixtures/*.jsonl", "fixtures/kernels/*.jsonl",
		"fixtures/roundtrip/*.jsonl", "fuzz/corpus/record/*" };
	char pat[4096];
	size_t i;

	memset(g, 0, sizeof(*g));
	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		snprintf(pat, sizeof(pat), "%s/../%s", fixtures_dir, pats[i]);
		glob(pat, i ? GLOB_APPEND : 0, NULL, g);
	}
	return g->gl_pathc;
}

/* path's name below tests/ ("fixtures/bad-cap.jsonl") */
static const char *below_tests(const char *path)
{
	const char *p = strstr(path, "/../");

	return p ? p + 4 : path;
}

static int write_expected(const char *to)
{
	FILE *f = fopen(to, "w");
	glob_t g;
	size_t i;

	if (!f)
		return -1;
	roundtrip_inputs(&g);
	for (i = 0; i < g.gl_pathc; i++) {
		char *t = roundtrip_text(g.gl_pathv[i], below_tests(g.gl_pathv[i]));

		fprintf(f, "=== %s\n%s", below_tests(g.gl_pathv[i]), t);
		free(t);
	}
	globfree(&g);
	return fclose(f);
}

TEST(recfile_roundtrip_as_before)
{
	const char *to = getenv("CAPAUDIT_ROUNDTRIP_WRITE");
	char *want = NULL, *sec, *next, path[4096];
	size_t len = 0, n = 0;
	FILE *f;

	if (to) {
		ASSERT_EQ(write_expected(to), 0);
		return;
	}
	f = fopen(fixture("roundtrip/expected.txt"), "r");
	ASSERT_TRUE(f != NULL);
	if (!f)
		return;
	ASSERT_TRUE(getdelim(&want, &len, '\0', f) > 0);
	fclose(f);
	for (sec = want; sec && !strncmp(sec, "=== ", 4); sec = next) {
		char *nl = strchr(sec, '\n'), *body, *got;

		if (!nl)
			break;
		*nl = '\0';
		body = nl + 1;
		next = strstr(body, "\n=== ");
		if (next)
			*++next = '\0';
		snprintf(path, sizeof(path), "%s/../%s", fixtures_dir, sec + 4);
		got = roundtrip_text(path, sec + 4);
		if (strcmp(got, body)) {
			size_t i = 0, line = 1;

			while (got[i] && got[i] == body[i])
				line += got[i++] == '\n';
			FAIL_AT("%s: output differs from 916d602's at its line %zu", sec + 4, line);
		}
		free(got);
		if (next)
			next[-1] = '\n', next[0] = '=';
		n++;
	}
	/* the fixtures and the corpus at least (a cut file would pass) */
	ASSERT_TRUE(n > 800);
	free(want);
}
