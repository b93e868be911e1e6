// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "lib/ksyms.h"
#include "test.h"

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81100000 T cap_capable\n"
	"ffffffff81100200 t security_capable\n"
	"ffffffff81200000 D some_data\n"
	"ffffffffc0001000 t ext4_thing\t[ext4]\n";

TEST(ksyms_resolve_and_format)
{
	char err[256] = "", b[128];
	struct ksyms *ks = ksyms_parse(kallsyms, strlen(kallsyms), err, sizeof(err));

	ASSERT_TRUE(ks != NULL);
	ASSERT_EQ(ksyms_count(ks), 4);  /* data symbols are left out */
	ksyms_format(ks, 0xffffffff81100083ULL, b, sizeof(b));
	ASSERT_STR(b, "cap_capable+0x83");
	ksyms_format(ks, 0xffffffff81200010ULL, b, sizeof(b));
	ASSERT_STR(b, "security_capable+0xffe10");
	ksyms_format(ks, 0xffffffffc0001010ULL, b, sizeof(b));
	ASSERT_STR(b, "ext4_thing+0x10 [ext4]");
	ksyms_format(ks, 0x1000, b, sizeof(b));
	ASSERT_STR(b, "0x1000");
	ksyms_free(ks);
}

TEST(ksyms_all_zero_addresses_are_an_error)
{
	static const char hidden[] = "0000000000000000 T _stext\n0000000000000000 T cap_capable\n";
	char err[256] = "";

	ASSERT_TRUE(ksyms_parse(hidden, strlen(hidden), err, sizeof(err)) == NULL);
	ASSERT_HAS(err, "hidden (all zero)");
	ASSERT_TRUE(ksyms_parse("", 0, err, sizeof(err)) == NULL);
	ASSERT_HAS(err, "no kernel text symbols");
}
