// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/msg.h"
#include "output/output.h"
#include "test.h"

static char said[256];   /* what the last pick() wrote on stderr */

/* formatter_select() with its message caught, not shown in the TAP */
static const struct formatter *pick(const char *name, enum formatter_use use)
{
	const struct formatter *f;
	FILE *tmp = tmpfile();
	int saved;

	said[0] = '\0';
	if (!tmp)
		return formatter_select(name, use);
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	f = formatter_select(name, use);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	if (!fgets(said, sizeof(said), tmp))
		said[0] = '\0';
	fclose(tmp);
	return f;
}

/* A format is chosen only for what it can print (the CI formats print
 * check's verdict and nothing else); the error names those that can. */
TEST(formatter_select_by_what_it_prints)
{
	ASSERT_EQ(pick("text", FOR_REPORT) == &output_text, 1);
	ASSERT_STR(said, "");
	ASSERT_EQ(pick("sarif", FOR_CHECK) == &output_sarif, 1);
	ASSERT_EQ(pick("junit", FOR_REPORT) == NULL, 1);
	ASSERT_STR(said, "capaudit: unknown format 'junit' for report (text, json)\n");
	ASSERT_EQ(pick("github", FOR_DOCTOR) == NULL, 1);
	ASSERT_STR(said, "capaudit: unknown format 'github' for doctor (text, json)\n");
	ASSERT_EQ(pick("xml", FOR_CHECK) == NULL, 1);
	ASSERT_STR(said, "capaudit: unknown format 'xml' for check "
		   "(text, json, junit, sarif, github)\n");
	ASSERT_EQ(cli_json_errors, 0);
}

/* json makes errors JSON too, so that stdout stays parseable */
TEST(formatter_select_json_makes_errors_json)
{
	ASSERT_EQ(pick("json", FOR_VERIFY) == &output_json, 1);
	ASSERT_EQ(cli_json_errors, 1);
	cli_json_errors = false;   /* the other tests' errors stay text */
}
