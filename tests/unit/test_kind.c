// SPDX-License-Identifier: GPL-2.0
#include "test.h"
#include "recfile/kind.h"

static enum input_kind kind(const char *s)
{
	return input_kind_of(s, strlen(s));
}

TEST(input_kind_from_the_first_bytes)
{
	ASSERT_EQ(kind("{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":5}\n"
		       "{\"type\":\"end\"}\n"), INPUT_RECORD);
	ASSERT_EQ(kind("{\"type\":\"header\",\"format\":\"capaudit-record\",\"scope\":\"monitor\"}\n"),
		  INPUT_CHECKPOINT);
	ASSERT_EQ(kind("{\n  \"format\": \"capaudit-baseline\",\n  \"version\": 2\n}\n"),
		  INPUT_BASELINE);
	ASSERT_EQ(kind("{\"format\":\"capaudit-baseline\",\"version\":2}"), INPUT_BASELINE);
	ASSERT_EQ(kind("{\"ts\":1700000000.5,\"kind\":\"first_use\",\"cap\":\"CAP_CHOWN\"}\n"),
		  INPUT_EVENTS);
	ASSERT_EQ(input_kind_of("\x1f\x8b\x08\x00", 4), INPUT_GZIP);
	/* the parser says what is wrong with these */
	ASSERT_EQ(kind(""), INPUT_UNKNOWN);
	ASSERT_EQ(kind("[1,2]"), INPUT_UNKNOWN);
	ASSERT_EQ(kind("{\"type\":\"process\"}\n"), INPUT_UNKNOWN);
	ASSERT_EQ(kind("{\"format\":\"capaudit-baselinex\"}"), INPUT_UNKNOWN);
	/* a record's later lines are not looked at for its header: a process
	 * named "capaudit-baseline" does not make it a baseline */
	ASSERT_EQ(kind("{\"type\":\"header\"}\n{\"format\":\"capaudit-baseline\"}\n"), INPUT_RECORD);
	/* "type" and "header" only as a member and its value */
	ASSERT_EQ(kind("{\"note\":\"type\",\"x\":\"header\"}\n"), INPUT_UNKNOWN);
	ASSERT_EQ(kind("{\"type\" : \"header\"}"), INPUT_RECORD);
}

TEST(input_expect_keeps_every_byte)
{
	static const char rec[] = "{\"type\":\"header\"}\nrest of the file\n";
	char err[512] = "", buf[128] = "";
	FILE *f = fmemopen((void *)rec, sizeof(rec) - 1, "r"), *s;
	size_t n;

	s = input_expect(f, "r.jsonl", INPUT_RECORD, err, sizeof(err));
	ASSERT_TRUE(s != NULL);
	if (s) {
		n = fread(buf, 1, sizeof(buf) - 1, s);
		ASSERT_EQ(n, sizeof(rec) - 1);
		ASSERT_STR(buf, rec);
		fclose(s);
	}
	rewind(f);
	s = input_expect(f, "r.jsonl", INPUT_BASELINE, err, sizeof(err));
	ASSERT_TRUE(s == NULL);
	ASSERT_STR(err, "r.jsonl: a record, not a baseline: a baseline is made from it with "
		   "capaudit check --baseline capaudit-baseline.json --update r.jsonl");
	fclose(f);
}
