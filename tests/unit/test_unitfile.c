// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "facts/capnames.h"
#include "facts/unitfile.h"

#define ALL ((1ULL << 41) - 1)   /* CAP_CHOWN .. CAP_CHECKPOINT_RESTORE */

static int parse(const char *text, struct unit_file *u, char *err)
{
	err[0] = '\0';
	return unitfile_parse(text, strlen(text), "t.service", ALL, u, err, 512);
}

TEST(unitfile_reads_the_settings_that_decide_privileges)
{
	struct unit_file u;
	char err[512];

	ASSERT_EQ(parse("[Unit]\nDescription=x\nUser=ignored\n\n"
			"[Service]\n"
			"# a comment\n"
			"; another\n"
			"ExecStart=/bin/chown 1:1 /tmp/f\n"
			"User=nobody\n"
			"Group=nogroup\n"
			"SupplementaryGroups=adm\n"
			"SupplementaryGroups=tty  disk\n"
			"AmbientCapabilities=CAP_CHOWN cap_net_raw\n"
			"NoNewPrivileges=yes\n"
			"[Install]\nWantedBy=multi-user.target\n", &u, err), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(u.nexec, 1);
	ASSERT_STR(u.exec[0].path, "/bin/chown");
	ASSERT_EQ(u.exec[0].argc, 3);
	ASSERT_STR(u.exec[0].argv[0], "/bin/chown");
	ASSERT_STR(u.exec[0].argv[2], "/tmp/f");
	ASSERT_TRUE(u.exec[0].argv[3] == NULL);
	ASSERT_EQ(u.exec[0].line, 8);
	ASSERT_STR(u.user, "nobody");
	ASSERT_STR(u.group, "nogroup");
	ASSERT_EQ(u.ngroups, 3);
	ASSERT_STR(u.groups[2], "disk");
	ASSERT_U64(u.ambient, CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_NET_RAW));
	ASSERT_FALSE(u.has_bounding);
	ASSERT_U64(u.bounding, ALL);
	ASSERT_TRUE(u.no_new_privs);
	ASSERT_EQ(u.nnotes, 0);
	unitfile_free(&u);
}

TEST(unitfile_capability_lists_accumulate_reset_and_invert)
{
	struct unit_file u;
	char err[512];

	/* repeated: merged; '~' after a list takes away */
	ASSERT_EQ(parse("[Service]\nExecStart=/bin/true\n"
			"CapabilityBoundingSet=CAP_CHOWN CAP_NET_RAW\n"
			"CapabilityBoundingSet=CAP_KILL\n"
			"CapabilityBoundingSet=~CAP_NET_RAW\n"
			"AmbientCapabilities=CAP_KILL\n"
			"AmbientCapabilities=CAP_CHOWN\n", &u, err), 0);
	ASSERT_TRUE(u.has_bounding);
	ASSERT_U64(u.bounding, CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_KILL));
	ASSERT_U64(u.ambient, CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_KILL));
	unitfile_free(&u);

	/* '~' first: every capability but those */
	ASSERT_EQ(parse("[Service]\nExecStart=/bin/true\n"
			"CapabilityBoundingSet=~CAP_SYS_ADMIN CAP_SYS_PTRACE\n", &u, err), 0);
	ASSERT_U64(u.bounding, ALL & ~(CAP_BIT(CAP_SYS_ADMIN) | CAP_BIT(CAP_SYS_PTRACE)));
	unitfile_free(&u);

	/* an empty assignment resets: the bounding set to empty, ambient to none */
	ASSERT_EQ(parse("[Service]\nExecStart=/bin/true\n"
			"CapabilityBoundingSet=CAP_CHOWN\nCapabilityBoundingSet=\n"
			"AmbientCapabilities=CAP_CHOWN\nAmbientCapabilities=\n"
			"AmbientCapabilities=CAP_KILL\n", &u, err), 0);
	ASSERT_TRUE(u.has_bounding);
	ASSERT_U64(u.bounding, 0);
	/* CAP_KILL is outside the (empty) bounding set: not raised, and said */
	ASSERT_U64(u.ambient, 0);
	ASSERT_EQ(u.nnotes, 1);
	ASSERT_HAS(u.nnotes ? u.notes[0] : "", "t.service:7: AmbientCapabilities= CAP_KILL outside");
	unitfile_free(&u);

	ASSERT_EQ(parse("[Service]\nExecStart=/bin/true\nCapabilityBoundingSet=CAP_CHOWN\n"
			"CapabilityBoundingSet=~\n", &u, err), 0);
	ASSERT_U64(u.bounding, ALL);
	unitfile_free(&u);
}

TEST(unitfile_exec_start_quoting_and_escapes)
{
	struct unit_file u;
	char err[512];

	ASSERT_EQ(parse("[Service]\n"
			"ExecStart=/bin/echo \"two words\" 'single \"q\"' a\\sb \\x41\\101 "
			"tab\\there \"\\u00e9\" 100%%\n", &u, err), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(u.exec[0].argc, 8);
	ASSERT_STR(u.exec[0].argv[7], "100%");
	ASSERT_STR(u.exec[0].argv[1], "two words");
	ASSERT_STR(u.exec[0].argv[2], "single \"q\"");
	ASSERT_STR(u.exec[0].argv[3], "a b");
	ASSERT_STR(u.exec[0].argv[4], "AA");
	ASSERT_STR(u.exec[0].argv[5], "tab\there");
	ASSERT_STR(u.exec[0].argv[6], "\xc3\xa9");
	unitfile_free(&u);
}

TEST(unitfile_continuation_lines)
{
	struct unit_file u;
	char err[512];

	ASSERT_EQ(parse("[Service]\n"
			"ExecStart=/bin/echo one \\\n"
			"  two \\\n"
			"# a comment inside is left out\n"
			"  three\n"
			"User=nobody\n"
			"ExecStart=\n"
			"ExecStart=/bin/sh -c \\\n"
			"  'echo a; echo b'\n", &u, err), 0);
	ASSERT_STR(err, "");
	/* the empty ExecStart= reset the first */
	ASSERT_EQ(u.nexec, 1);
	ASSERT_EQ(u.exec[0].line, 8);
	ASSERT_EQ(u.exec[0].argc, 3);
	ASSERT_STR(u.exec[0].argv[2], "echo a; echo b");
	unitfile_free(&u);

	ASSERT_EQ(parse("[Service]\n"
			"ExecStart=/bin/echo one \\\n"
			"  two \\\n"
			"# left out\n"
			"  three\n", &u, err), 0);
	ASSERT_EQ(u.exec[0].argc, 4);
	ASSERT_STR(u.exec[0].argv[3], "three");
	unitfile_free(&u);
}

TEST(unitfile_prefixes_and_several_commands)
{
	struct unit_file u;
	char err[512];

	ASSERT_EQ(parse("[Service]\nType=oneshot\n"
			"ExecStart=-/bin/false\n"
			"ExecStart=@/bin/sleep mysleep 0\n"
			"ExecStart=!!/bin/true ; :/bin/echo $HOME\n"
			"ExecStart=!/bin/id\n", &u, err), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(u.nexec, 5);
	ASSERT_TRUE(u.exec[0].ignore_failure);
	ASSERT_STR(u.exec[0].path, "/bin/false");
	ASSERT_STR(u.exec[1].path, "/bin/sleep");
	ASSERT_STR(u.exec[1].argv[0], "mysleep");
	ASSERT_STR(u.exec[1].argv[1], "0");
	ASSERT_FALSE(u.exec[2].no_setuid);
	ASSERT_STR(u.exec[2].path, "/bin/true");
	ASSERT_STR(u.exec[3].argv[1], "$HOME");
	ASSERT_EQ(u.exec[3].line, 5);
	ASSERT_TRUE(u.exec[4].no_setuid);
	unitfile_free(&u);
}

TEST(unitfile_environment_and_variables)
{
	struct unit_file u;
	char err[512];

	ASSERT_EQ(parse("[Service]\n"
			"Environment=\"A=one two\" B=x\n"
			"Environment=B=y\n"
			"ExecStart=/bin/echo $A ${B}z $$B\n", &u, err), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(u.nenv, 2);
	ASSERT_STR(u.env[0], "A=one two");
	ASSERT_STR(u.env[1], "B=y");
	ASSERT_EQ(u.exec[0].argc, 5);
	ASSERT_STR(u.exec[0].argv[1], "one");
	ASSERT_STR(u.exec[0].argv[2], "two");
	ASSERT_STR(u.exec[0].argv[3], "yz");
	ASSERT_STR(u.exec[0].argv[4], "$B");
	unitfile_free(&u);
}

TEST(unitfile_errors_name_file_and_line)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "[Service]\nUser=%i\nExecStart=/bin/true\n",
		  "t.service:2: User= uses the specifier %i" },
		{ "[Service]\nExecStart=/bin/echo %n\n",
		  "t.service:2: ExecStart= uses the specifier %n" },
		{ "[Service]\nExecStart=+/bin/true\n",
		  "t.service:2: ExecStart= prefix '+' runs the command with full privileges" },
		{ "[Service]\nExecStart=/bin/true\nExecStart=/bin/false\n",
		  "t.service:3: a second ExecStart= command (the first is on line 2): only "
		  "Type=oneshot" },
		{ "[Service]\n\nExecStart=/bin/echo \"open\n",
		  "t.service:3: ExecStart= has an unterminated double quote" },
		{ "[Service]\nExecStart=/bin/echo \\q\n", "t.service:2: ExecStart= has an unknown "
		  "escape '\\q'" },
		{ "[Service]\nExecStart=/bin/true\nAmbientCapabilities=CAP_CHOWN CAP_BOGUS\n",
		  "t.service:3: AmbientCapabilities=: unknown capability 'CAP_BOGUS'" },
		{ "[Service]\nExecStart=/bin/true\nCapabilityBoundingSet=chown\n",
		  "t.service:3: CapabilityBoundingSet=: unknown capability 'chown'" },
		{ "[Service]\nExecStart=/bin/true\nNoNewPrivileges=maybe\n",
		  "t.service:3: NoNewPrivileges=: 'maybe' is not a boolean" },
		{ "[Service]\nExecStart=/bin/echo $NOPE\n", "t.service:2: ExecStart= uses $NOPE, "
		  "which no Environment= of this file sets" },
		{ "[Service]\nExecStart=/bin/true\njunk\n", "t.service:3: 'junk' is neither" },
		{ "ExecStart=/bin/true\n", "t.service:1: ExecStart= comes before any [Section]" },
		{ "[Service\n", "t.service:1: '[Service' is not a section header" },
		{ "[Unit]\nDescription=x\n", "t.service:1: no [Service] section" },
		{ "[Unit]\n[Service]\nUser=root\n", "t.service:2: [Service] has no ExecStart=" },
		{ "[Service]\nExecStart=@/bin/true\n", "t.service:2: ExecStart= prefix '@' needs" },
		{ "[Service]\nExecStart=/bin/true ;\n", "t.service:2: ExecStart= has an empty "
		  "command around ';'" },
		{ "[Service]\nEnvironment=1X=y\nExecStart=/bin/true\n",
		  "t.service:2: Environment=: '1X=y' is not NAME=value" },
		{ "[Service]\nExecStart=/bin/true \\\n  \\x0\n",
		  "t.service:2: ExecStart= has an incomplete escape" },
	};
	struct unit_file u;
	char err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(parse(cases[i].text, &u, err), -1);
		if (strncmp(err, cases[i].want, strlen(cases[i].want)))
			FAIL_AT("case %zu: \"%s\" does not start with \"%s\"", i, err,
				cases[i].want);
	}
}

TEST(unitfile_notes_settings_not_applied)
{
	struct unit_file u;
	char err[512];

	ASSERT_EQ(parse("[Service]\nExecStart=/bin/true\nDynamicUser=no\nDynamicUser=yes\n"
			"PrivateUsers=false\nWorkingDirectory=/srv\n", &u, err), 0);
	ASSERT_EQ(u.nnotes, 2);
	ASSERT_HAS(u.nnotes > 0 ? u.notes[0] : "", "t.service:4: DynamicUser= is not applied");
	ASSERT_HAS(u.nnotes > 1 ? u.notes[1] : "", "t.service:6: WorkingDirectory= is not applied");
	unitfile_free(&u);
}

/* text into a new file under dir; its path in path */
static void put(const char *dir, const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

TEST(unitfile_dropins_go_on_from_the_unit_and_name_their_own_lines)
{
	char dir[] = "/tmp/capaudit-unit.XXXXXX", unit[256], d1[256], d2[256], err[512];
	char *drops[2] = { d1, d2 };
	struct unit_file u;

	if (!mkdtemp(dir)) {
		SKIP("no temporary directory");
		return;
	}
	put(dir, "u.service", "[Service]\nUser=nobody\nExecStart=/bin/false\n"
	    "AmbientCapabilities=CAP_CHOWN CAP_KILL\nEnvironment=A=unit B=unit\n", unit,
	    sizeof(unit));
	/* resets, a replaced command, variables of every file expanded */
	put(dir, "10.conf", "[Service]\nAmbientCapabilities=\nAmbientCapabilities=CAP_NET_RAW\n"
	    "ExecStart=\nExecStart=/bin/echo $A ${B}\n", d1, sizeof(d1));
	put(dir, "20.conf", "# last\n[Service]\nEnvironment=B=drop\nUser=\n", d2, sizeof(d2));
	ASSERT_EQ(unitfile_load_dropins(unit, drops, 2, ALL, &u, err, sizeof(err)), 0);
	ASSERT_EQ(u.nfiles, 3);
	ASSERT_EQ(u.nexec, 1);
	ASSERT_STR(u.exec[0].file, d1);
	ASSERT_EQ(u.exec[0].line, 5);
	ASSERT_STR(u.exec[0].argv[1], "unit");
	ASSERT_STR(u.exec[0].argv[2], "drop");
	ASSERT_U64(u.ambient, CAP_BIT(CAP_NET_RAW));
	ASSERT_TRUE(u.user == NULL);
	unitfile_free(&u);

	/* an error names the drop-in; a key before any section in a drop-in
	 * is one, whatever the unit's last section was */
	put(dir, "20.conf", "User=nobody\n", d2, sizeof(d2));
	ASSERT_EQ(unitfile_load_dropins(unit, drops, 2, ALL, &u, err, sizeof(err)), -1);
	{
		char want[600];

		snprintf(want, sizeof(want), "%s:1: User= comes before any [Section]", d2);
		ASSERT_STR(err, want);
	}
	unlink(unit);
	unlink(d1);
	unlink(d2);
	rmdir(dir);
}
