// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "test.h"
#include "lib/util.h"

TEST(parse_u64_is_strict)
{
	uint64_t v = 7;
	uint32_t w = 7;

	ASSERT_EQ(parse_u64("12", &v), 0);
	ASSERT_U64(v, 12);
	ASSERT_EQ(parse_u64("12abc", &v), -1);
	ASSERT_EQ(parse_u64("", &v), -1);
	ASSERT_EQ(parse_u64(" 1", &v), -1);
	ASSERT_EQ(parse_u64("-1", &v), -1);
	ASSERT_EQ(parse_u64("+1", &v), -1);
	ASSERT_EQ(parse_u64("99999999999999999999", &v), -1);
	ASSERT_EQ(parse_u32("4294967295", &w), 0);
	ASSERT_EQ(w, 4294967295u);
	ASSERT_EQ(parse_u32("4294967296", &w), -1);
}

TEST(parse_int_range_bounds)
{
	long v = 0;

	ASSERT_EQ(parse_int_range("-1", -1, 5, &v), 0);
	ASSERT_EQ(v, -1);
	ASSERT_EQ(parse_int_range("6", -1, 5, &v), -1);
	ASSERT_EQ(parse_int_range("5x", -1, 5, &v), -1);
	ASSERT_EQ(parse_int_range("-", -1, 5, &v), -1);
}

TEST(parse_seconds_rejects_junk)
{
	double d = 0;

	ASSERT_EQ(parse_seconds("1.5", &d), 0);
	ASSERT_TRUE(d == 1.5);
	ASSERT_EQ(parse_seconds("0", &d), -1);
	ASSERT_EQ(parse_seconds("1s", &d), -1);
	ASSERT_EQ(parse_seconds("-2", &d), -1);
	ASSERT_EQ(parse_seconds("nan", &d), -1);
}

TEST(text_escape_makes_terminal_safe)
{
	char buf[64];

	ASSERT_STR(text_escape("ab\x1b[31mc", buf, sizeof(buf)), "ab\\x1b[31mc");
	ASSERT_STR(text_escape("a\\b", buf, sizeof(buf)), "a\\\\b");
	ASSERT_STR(text_escape("\x7f\xff", buf, sizeof(buf)), "\\x7f\\xff");
	/* readable UTF-8 is kept, 2, 3 and 4 bytes */
	ASSERT_STR(text_escape("/home/jos\xc3\xa9/\xe6\x97\xa5/\xf0\x9f\x90\xa7", buf, sizeof(buf)),
		   "/home/jos\xc3\xa9/\xe6\x97\xa5/\xf0\x9f\x90\xa7");
	/* C1 CSI (U+009B), RLO (U+202E), LRI (U+2066), BOM, an overlong '/',
	 * a cut sequence: byte by byte */
	ASSERT_STR(text_escape("a\xc2\x9b" "31m", buf, sizeof(buf)), "a\\xc2\\x9b" "31m");
	ASSERT_STR(text_escape("x\xe2\x80\xaey\xe2\x81\xa6", buf, sizeof(buf)),
		   "x\\xe2\\x80\\xaey\\xe2\\x81\\xa6");
	ASSERT_STR(text_escape("\xef\xbb\xbf\xc0\xaf\xe6\x97", buf, sizeof(buf)),
		   "\\xef\\xbb\\xbf\\xc0\\xaf\\xe6\\x97");
	/* a character that does not fit whole is not cut: it ends the text */
	ASSERT_STR(text_escape("ab\xe6\x97\xa5", buf, 7), "ab");
	/* never overflows: truncates */
	ASSERT_TRUE(strlen(text_escape("\x01\x01\x01\x01\x01\x01", buf, 10)) < 10);
}

/* markup_escape into a string (caller frees) */
static char *markup_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	markup_escape(f, s);
	fclose(f);
	return buf;
}

#define ASSERT_MARKUP(in, expected)                                      \
	do {                                                             \
		char *m_ = markup_of(in);                                \
		ASSERT_STR(m_, expected);                                \
		free(m_);                                                \
	} while (0)

/* A comm, a path or an argv word can hold markup: none of it may become
 * an element, an attribute's end or an entity in a page. */
TEST(markup_escape_makes_markup_inert)
{
	ASSERT_MARKUP("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;");
	ASSERT_MARKUP("a&b \"q\" 'p'", "a&amp;b &quot;q&quot; &#39;p&#39;");
	/* an entity in the input stays text, not the character it names */
	ASSERT_MARKUP("&lt;&#60;", "&amp;lt;&amp;#60;");
	ASSERT_MARKUP("plain /usr/bin/chown-1.2_x", "plain /usr/bin/chown-1.2_x");
	ASSERT_MARKUP("", "");
	ASSERT_MARKUP(NULL, "");
}

/* What a terminal could act on is written as text_escape writes it, so
 * that text and html show a string alike; readable UTF-8 is kept. */
TEST(markup_escape_is_text_escape_then_markup)
{
	ASSERT_MARKUP("a\x1b[31m\n\x7f", "a\\x1b[31m\\x0a\\x7f");
	ASSERT_MARKUP("back\\slash", "back\\\\slash");
	ASSERT_MARKUP("h\xc3\xa9<", "h\xc3\xa9&lt;");
	ASSERT_MARKUP("\xe2\x80\xae<\xff", "\\xe2\\x80\\xae&lt;\\xff");
}

/* Whole: no length limit (an exe path can be 4096 bytes, all escaped) */
TEST(markup_escape_does_not_truncate)
{
	char in[5001], *m;
	size_t i;

	memset(in, '<', 5000);
	in[5000] = '\0';
	m = markup_of(in);
	ASSERT_EQ(strlen(m), 5000 * 4);
	for (i = 0; i < 5000 && !strncmp(m + 4 * i, "&lt;", 4); i++)
		;
	ASSERT_EQ(i, 5000);
	free(m);
}

TEST(utf8_sanitize_keeps_valid_and_marks_invalid)
{
	char *s = utf8_sanitize("h\xc3\xa9llo", 6);

	ASSERT_STR(s, "h\xc3\xa9llo");
	free(s);
	s = utf8_sanitize("a\xff" "b", 3);
	ASSERT_STR(s, "a\\xffb");
	free(s);
	/* overlong encoding of '/' and a lone continuation byte */
	s = utf8_sanitize("\xc0\xaf\x80", 3);
	ASSERT_STR(s, "\\xc0\\xaf\\x80");
	free(s);
	/* truncated sequence at the end */
	s = utf8_sanitize("x\xe2\x82", 3);
	ASSERT_STR(s, "x\\xe2\\x82");
	free(s);
}

TEST(iso8601_format)
{
	char buf[40];

	format_iso8601(1796271159329835456LL, buf, sizeof(buf));
	ASSERT_STR(buf, "2026-12-03T04:12:39.329835Z");
}

TEST(shell_word_quotes_what_a_shell_would_change)
{
	char b[64];

	ASSERT_STR(shell_word("caps.json", b, sizeof(b)), "caps.json");
	ASSERT_STR(shell_word("/var/lib/x_1/rec-2.jsonl", b, sizeof(b)), "/var/lib/x_1/rec-2.jsonl");
	ASSERT_STR(shell_word("my caps.json", b, sizeof(b)), "'my caps.json'");
	ASSERT_STR(shell_word("it's", b, sizeof(b)), "'it'\\''s'");
	ASSERT_STR(shell_word("$HOME", b, sizeof(b)), "'$HOME'");
	ASSERT_STR(shell_word("", b, sizeof(b)), "''");
	/* cut whole pieces only, and always closed */
	ASSERT_STR(shell_word("a b c d", b, 6), "'a b'");
}
