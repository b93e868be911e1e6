// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "lib/ksyms.h"
#include "tracer/proofranges.h"
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

/* arm64's /proc/kallsyms (Debian's 6.12): _etext is a data symbol there,
 * and still where the kernel's text ends for the call-site cache's proofs */
TEST(ksyms_proof_ranges_from_arm64_symbols)
{
	static const char arm64[] =
		"ffff938847600000 T _text\n"
		"ffff938847610000 T _stext\n"
		"ffff938847c0a990 T cap_capable\n"
		"ffff938847c0ab00 T cap_settime\n"
		"ffff938847c16038 T security_capable\n"
		"ffff938847c160c0 T security_ptrace_access_check\n"
		"ffff9388483f0000 D _etext\n"
		"ffff938848400000 D some_data\n";
	char err[256] = "";
	struct ksyms *ks = ksyms_parse(arm64, strlen(arm64), err, sizeof(err));
	struct ca_ranges r;

	ASSERT_TRUE(ks != NULL);
	if (!ks)
		return;
	ASSERT_EQ(ksyms_count(ks), 7);   /* some_data is left out, _etext is not */
	ASSERT_EQ(proof_ranges_from_ksyms(ks, &r), 0);
	ASSERT_U64(r.text_lo, 0xffff938847610000ULL);
	ASSERT_U64(r.text_hi, 0xffff9388483f0000ULL);
	ASSERT_U64(r.capcap_lo, 0xffff938847c0a990ULL);
	ASSERT_U64(r.capcap_hi, 0xffff938847c0ab00ULL);
	ASSERT_TRUE(r.n >= 1);
	ksyms_free(ks);
}

/* Whether addresses are shown is read at the first text symbol: x86-64
 * kernels before 6.15 list per-CPU symbols first, at 0 for anyone (Debian
 * 12's 6.1 and 6.12 amd64: "0000000000000000 A fixed_percpu_data"). */
TEST(ksyms_addresses_shown_at_the_first_text_symbol)
{
	const char *percpu_first = "0000000000000000 A fixed_percpu_data\n"
				   "0000000000000000 A __per_cpu_start\n"
				   "0000000000001000 A cpu_debug_store\n"
				   "ffffffff81000000 T startup_64\n";
	const char *hidden = "0000000000000000 A fixed_percpu_data\n"
			     "0000000000000000 T startup_64\n";
	const char *arm64 = "ffff800008000000 T _text\n";
	FILE *f;

	f = fmemopen((void *)percpu_first, strlen(percpu_first), "r");
	ASSERT_EQ(ksyms_addresses_shown_in(f), 1);
	fclose(f);
	f = fmemopen((void *)hidden, strlen(hidden), "r");
	ASSERT_EQ(ksyms_addresses_shown_in(f), 0);
	fclose(f);
	f = fmemopen((void *)arm64, strlen(arm64), "r");
	ASSERT_EQ(ksyms_addresses_shown_in(f), 1);
	fclose(f);
	f = fmemopen((void *)"", 0, "r");
	ASSERT_EQ(ksyms_addresses_shown_in(f), 0);
	fclose(f);
}
