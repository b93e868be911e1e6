// SPDX-License-Identifier: GPL-2.0
#include "facts/capnames.h"
#include "test.h"

TEST(cap_names_from_libcap)
{
	char b[CAP_NAME_LEN];

	ASSERT_STR(cap_name(0, b), "CAP_CHOWN");
	ASSERT_STR(cap_name(21, b), "CAP_SYS_ADMIN");
	ASSERT_STR(cap_name(37, b), "CAP_AUDIT_READ");
	ASSERT_STR(cap_name(38, b), "CAP_PERFMON");
	ASSERT_STR(cap_name(39, b), "CAP_BPF");
	ASSERT_STR(cap_name(40, b), "CAP_CHECKPOINT_RESTORE");
	/* unknown numbers print as themselves */
	ASSERT_STR(cap_name(55, b), "55");
	ASSERT_STR(cap_name(-3, b), "-3");
}

TEST(cap_words_for_every_capability)
{
	int c;

	/* every capability the kernel headers know has its plain words */
	for (c = 0; c <= CAP_LAST_CAP; c++)
		if (!cap_words(c) || !*cap_words(c))
			FAIL_AT("capability %d has no plain words", c);
	ASSERT_STR(cap_words(CAP_NET_RAW), "open raw sockets, which send and receive network "
		   "packets the program builds itself");
	ASSERT_TRUE(cap_words(CAP_LAST_CAP + 1) == NULL);
	ASSERT_TRUE(cap_words(-1) == NULL);
}

TEST(cap_numbers_from_names)
{
	ASSERT_EQ(cap_number("CAP_BPF"), 39);
	ASSERT_EQ(cap_number("cap_perfmon"), 38);
	ASSERT_EQ(cap_number("checkpoint_restore"), 40);
	ASSERT_EQ(cap_number("SYS_ADMIN"), 21);
	ASSERT_EQ(cap_number("12"), 12);
	ASSERT_EQ(cap_number("CAP_NOPE"), -1);
	ASSERT_EQ(cap_number(""), -1);
	ASSERT_EQ(cap_number("cap_12"), -1);
}

TEST(cap_list_parse_takes_names_and_numbers_strictly)
{
	uint64_t m = CAP_BIT(CAP_KILL);
	char bad[64];

	ASSERT_EQ(cap_list_parse("CAP_SYS_ADMIN,net_admin,cap_bpf,0", &m, bad, sizeof(bad)), 0);
	ASSERT_U64(m, CAP_BIT(CAP_KILL) | CAP_BIT(CAP_SYS_ADMIN) | CAP_BIT(CAP_NET_ADMIN) |
		   CAP_BIT(CAP_BPF) | CAP_BIT(CAP_CHOWN));   /* added to what was there */
	m = 0;
	ASSERT_EQ(cap_list_parse("63", &m, bad, sizeof(bad)), 0);
	ASSERT_U64(m, 1ULL << 63);
	/* each bad one named, the mask left as it was */
	ASSERT_EQ(cap_list_parse("CAP_CHOWN,CAP_NOPE", &m, bad, sizeof(bad)), -1);
	ASSERT_STR(bad, "CAP_NOPE");
	ASSERT_U64(m, 1ULL << 63);
	ASSERT_EQ(cap_list_parse("chown,,kill", &m, bad, sizeof(bad)), -1);
	ASSERT_STR(bad, "");
	ASSERT_EQ(cap_list_parse("chown,", &m, bad, sizeof(bad)), -1);
	ASSERT_EQ(cap_list_parse("", &m, bad, sizeof(bad)), -1);
	ASSERT_EQ(cap_list_parse("64", &m, bad, sizeof(bad)), -1);
	ASSERT_STR(bad, "64");
	ASSERT_EQ(cap_list_parse("-1", &m, bad, sizeof(bad)), -1);
	ASSERT_EQ(cap_list_parse(" chown", &m, bad, sizeof(bad)), -1);
	ASSERT_EQ(cap_list_parse("CAP_SYS_ADMIN_AND_A_VERY_LONG_NAME_INDEED", &m, bad, sizeof(bad)), -1);
	ASSERT_STR(bad, "CAP_SYS_ADMIN_AND_A_VERY_LONG_NAME_INDEED");
	ASSERT_U64(m, 1ULL << 63);
}

TEST(capset_str_lists_names_in_number_order)
{
	char b[128];

	ASSERT_STR(capset_str((1ULL << 39) | (1ULL << 38), b, sizeof(b)), "CAP_PERFMON, CAP_BPF");
	ASSERT_STR(capset_str(0, b, sizeof(b)), "none");
	ASSERT_STR(capset_str(1ULL << 50, b, sizeof(b)), "50");
}

TEST(for_each_cap_visits_set_bits_lowest_first)
{
	uint64_t masks[] = { 0, 1, 1ULL << 63, (1ULL << 63) | 1, 0x8000000100000202ULL, ~0ULL };
	size_t i;

	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		uint64_t seen = 0;
		int c, prev = -1, n = 0;

		for_each_cap(c, masks[i]) {
			ASSERT_TRUE(c > prev && c < 64);
			ASSERT_TRUE(capset_has(masks[i], c));
			seen |= 1ULL << c;
			prev = c;
			n++;
		}
		ASSERT_U64(seen, masks[i]);
		ASSERT_EQ(n, __builtin_popcountll(masks[i]));
	}
	ASSERT_EQ(cap_next(1ULL << 63, 62), 63);
	ASSERT_EQ(cap_next(1ULL << 63, 63), -1);
	ASSERT_FALSE(capset_has(~0ULL, 64));
	ASSERT_FALSE(capset_has(~0ULL, -1));
}

TEST(capset_join_separator_and_empty)
{
	char b[CAPSET_STR_LEN];

	ASSERT_STR(capset_join((1ULL << 0) | (1ULL << 13), ",", "", b, sizeof(b)),
		   "CAP_CHOWN,CAP_NET_RAW");
	ASSERT_STR(capset_join(0, ",", "", b, sizeof(b)), "");
	/* every capability fits */
	capset_join(~0ULL, ", ", "none", b, sizeof(b));
	ASSERT_TRUE(strlen(b) + 1 < sizeof(b));
	ASSERT_TRUE(strstr(b, ", 63") != NULL);
}
