/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test harness in the style of the kernel's BPF selftests:
 * ASSERT_* print what was expected and what was found, and the runner
 * prints TAP so that tools/run-tests.sh can count unit and bats tests
 * together.
 */
#ifndef CA_TEST_H
#define CA_TEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void test_register(const char *name, void (*fn)(void));
extern int test_fails;   /* assertions failed in the current test */
extern char test_skipped[200];   /* why the current test did not run, or "" */

/* The current test cannot run here: TAP "# skip" with the reason. The
 * caller returns after it. */
#define SKIP(...) snprintf(test_skipped, sizeof(test_skipped), __VA_ARGS__)

#define TEST(fn)                                                         \
	static void fn(void);                                            \
	__attribute__((constructor)) static void register_##fn(void)     \
	{                                                                \
		test_register(#fn, fn);                                  \
	}                                                                \
	static void fn(void)

#define FAIL_AT(...)                                                     \
	do {                                                             \
		printf("#   %s:%d: ", __FILE__, __LINE__);               \
		printf(__VA_ARGS__);                                     \
		printf("\n");                                            \
		test_fails++;                                            \
	} while (0)

#define ASSERT_EQ(actual, expected)                                      \
	do {                                                             \
		long long a_ = (long long)(actual), e_ = (long long)(expected); \
		if (a_ != e_)                                            \
			FAIL_AT("%s: actual %lld, expected %lld", #actual, a_, e_); \
	} while (0)

#define ASSERT_U64(actual, expected)                                     \
	do {                                                             \
		uint64_t a_ = (actual), e_ = (expected);                 \
		if (a_ != e_)                                            \
			FAIL_AT("%s: actual %" PRIu64 ", expected %" PRIu64, #actual, a_, e_); \
	} while (0)

#define ASSERT_STR(actual, expected)                                     \
	do {                                                             \
		const char *a_ = (actual), *e_ = (expected);             \
		if (!a_ || !e_ || strcmp(a_, e_))                        \
			FAIL_AT("%s: actual \"%s\", expected \"%s\"", #actual, \
				a_ ? a_ : "(null)", e_ ? e_ : "(null)"); \
	} while (0)

/* actual contains the substring expected */
#define ASSERT_HAS(actual, expected)                                     \
	do {                                                             \
		const char *a_ = (actual), *e_ = (expected);             \
		if (!a_ || !strstr(a_, e_))                              \
			FAIL_AT("%s: \"%s\" does not contain \"%s\"", #actual, \
				a_ ? a_ : "(null)", e_);                 \
	} while (0)

#define ASSERT_TRUE(cond)                                                \
	do {                                                             \
		if (!(cond))                                             \
			FAIL_AT("expected true: %s", #cond);             \
	} while (0)

#define ASSERT_FALSE(cond)                                               \
	do {                                                             \
		if (cond)                                                \
			FAIL_AT("expected false: %s", #cond);            \
	} while (0)

struct record;
struct rec_read;
/* A stack of n frames (copied) added to r; returns its index. */
int test_stack(struct record *r, const char *const *frames, size_t n);

/* Read a record from text (len bytes: it may hold a NUL) as the file
 * "t.jsonl"; rd NULL reads strictly. Returns the reader's rc, err its line. */
int read_text_n(const char *text, size_t len, struct record *r, struct rec_read *rd, char *err,
		size_t n);
int read_text(const char *text, struct record *r, char *err, size_t n);
/* The strict read of text fails with an error containing msg. */
void expect_error(const char *text, const char *msg);

/* Where the fixtures live; set by the runner from argv or the default. */
extern const char *fixtures_dir;
/* Path of a fixture file in a static buffer. */
const char *fixture(const char *name);

#endif
