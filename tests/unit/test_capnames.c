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

TEST(capset_str_lists_names_in_number_order)
{
	char b[128];

	ASSERT_STR(capset_str((1ULL << 39) | (1ULL << 38), b, sizeof(b)), "CAP_PERFMON, CAP_BPF");
	ASSERT_STR(capset_str(0, b, sizeof(b)), "none");
	ASSERT_STR(capset_str(1ULL << 50, b, sizeof(b)), "50");
}
