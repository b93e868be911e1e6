// SPDX-License-Identifier: GPL-2.0
#include "test.h"
#include "lib/spell.h"

TEST(spell_distance_counts_edits)
{
	ASSERT_EQ(spell_distance("", ""), 0);
	ASSERT_EQ(spell_distance("report", "report"), 0);
	ASSERT_EQ(spell_distance("", "run"), 3);
	ASSERT_EQ(spell_distance("run", ""), 3);
	ASSERT_EQ(spell_distance("kitten", "sitting"), 3);
	/* one swap of adjacent letters is one edit, not two */
	ASSERT_EQ(spell_distance("reprot", "report"), 1);
	ASSERT_EQ(spell_distance("sugest", "suggest"), 1);
	ASSERT_EQ(spell_distance("CAP_NET_BINDSERVICE", "CAP_NET_BIND_SERVICE"), 1);
	/* without case */
	ASSERT_EQ(spell_distance("REPORT", "report"), 0);
	ASSERT_EQ(spell_distance("net_bind_service", "NET_BIND_SERVICE"), 0);
	/* symmetric */
	ASSERT_EQ(spell_distance("check", "chekc"), spell_distance("chekc", "check"));
	ASSERT_EQ(spell_distance("abc", "ca"), 3);   /* optimal string alignment */
}

TEST(spell_distance_of_long_words_is_far)
{
	char big[SPELL_MAX_LEN + 2];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ASSERT_TRUE(spell_distance(big, "a") == SPELL_FAR);
	ASSERT_TRUE(spell_distance("a", big) == SPELL_FAR);
	big[SPELL_MAX_LEN] = '\0';   /* exactly the longest word compared */
	ASSERT_EQ(spell_distance(big, big), 0);
	ASSERT_FALSE(spell_close("report", SPELL_FAR));
}

TEST(spell_close_is_relative_to_the_length)
{
	ASSERT_TRUE(spell_close("rn", 1));         /* -> run */
	ASSERT_FALSE(spell_close("x", 2));
	ASSERT_TRUE(spell_close("x", 1));
	ASSERT_TRUE(spell_close("reprot", 2));
	ASSERT_FALSE(spell_close("repor", 3));
	ASSERT_FALSE(spell_close("a-long-option-name", 3));   /* never more than 2 */
	ASSERT_TRUE(spell_close("a-long-option-name", 2));
}

TEST(spell_best_is_the_one_nearest)
{
	static const char *const cmds[] = { "record", "monitor", "report", "check", "diff",
					    "run", "verify", "doctor", "version", "help", NULL };
	const char *const *c;
	struct spell s;

	spell_init(&s, "reprot");
	for (c = cmds; *c; c++)
		spell_try(&s, *c);
	ASSERT_STR(spell_best(&s), "report");

	spell_init(&s, "chek");
	for (c = cmds; *c; c++)
		spell_try(&s, *c);
	ASSERT_STR(spell_best(&s), "check");

	/* nothing near */
	spell_init(&s, "frobnicate");
	for (c = cmds; *c; c++)
		spell_try(&s, *c);
	ASSERT_TRUE(spell_best(&s) == NULL);

	/* two equally near: neither */
	spell_init(&s, "rexort");
	spell_try(&s, "report");
	spell_try(&s, "resort");
	ASSERT_TRUE(spell_best(&s) == NULL);
	spell_init(&s, "reort");
	for (c = cmds; *c; c++)
		spell_try(&s, *c);
	ASSERT_STR(spell_best(&s), "report");

	/* no candidate at all */
	spell_init(&s, "x");
	ASSERT_TRUE(spell_best(&s) == NULL);
}
