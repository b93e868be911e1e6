// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/msg.h"
#include "output/output.h"
#include "analyze/suggest.h"
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

/* ---- report --emit: the snippets, from a suggestion made by hand ---- */

static char *emit_of(const char *kind, const struct suggestion *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ASSERT_EQ(emit_snippet(f, kind, s), 0);
	fclose(f);
	return buf;
}

#define ASSERT_EMIT(kind, s, expected)                                   \
	do {                                                             \
		char *out_ = emit_of(kind, s);                           \
		ASSERT_STR(out_, expected);                              \
		free(out_);                                              \
	} while (0)

/* uid 4000000000: no passwd entry anywhere, so User= is the number */
#define NOBODY_UID 4000000000u

static void one_user(struct suggestion *s, uint32_t uid)
{
	memset(s, 0, sizeof(*s));
	s->runas.version = REC_VERSION;
	s->runas.nuids = 1;
	s->runas.uids[0] = uid;
	s->runas.gain = GAIN_NONE;
}

/* Nothing required: drop everything, add nothing, and still forbid gains. */
TEST(emit_empty_set_as_root)
{
	struct suggestion s;

	one_user(&s, 0);
	ASSERT_EMIT("systemd", &s,
		    "# /etc/systemd/system/NAME.service.d/capaudit.conf\n"
		    "# then: systemctl daemon-reload && systemctl restart NAME.service\n"
		    "[Service]\n"
		    "# each empty assignment resets what the unit itself set\n"
		    "CapabilityBoundingSet=\n"
		    "AmbientCapabilities=\n"
		    "NoNewPrivileges=yes\n");
	ASSERT_EMIT("docker", &s, "--cap-drop ALL --security-opt no-new-privileges\n");
	ASSERT_EMIT("compose", &s,
		    "# compose.yaml: under services: NAME:\n"
		    "cap_drop: [\"ALL\"]\n"
		    "security_opt: [\"no-new-privileges:true\"]\n");
	ASSERT_EMIT("kubernetes", &s,
		    "securityContext:\n"
		    "  capabilities:\n"
		    "    drop: [\"ALL\"]\n"
		    "  allowPrivilegeEscalation: false\n");
}

/* One non-root user: systemd gives the set as ambient capabilities (they
 * work with NoNewPrivileges=); a container runtime puts it in the bounding
 * set only, so the program needs file capabilities, which forbidding
 * privilege gains would disable: said, and left out. */
TEST(emit_one_non_root_user)
{
	struct suggestion s;

	one_user(&s, NOBODY_UID);
	s.required = 1ULL << 10;
	s.runas.unit = "web.service";
	ASSERT_EMIT("systemd", &s,
		    "# /etc/systemd/system/web.service.d/capaudit.conf\n"
		    "# then: systemctl daemon-reload && systemctl restart web.service\n"
		    "[Service]\n"
		    "# each empty assignment resets what the unit itself set\n"
		    "CapabilityBoundingSet=\n"
		    "CapabilityBoundingSet=CAP_NET_BIND_SERVICE\n"
		    "AmbientCapabilities=\n"
		    "AmbientCapabilities=CAP_NET_BIND_SERVICE\n"
		    "# every process ran as uid 4000000000\n"
		    "User=4000000000\n"
		    "NoNewPrivileges=yes\n");
	ASSERT_EMIT("kubernetes", &s,
		    "securityContext:\n"
		    "  capabilities:\n"
		    "    drop: [\"ALL\"]\n"
		    "    add: [\"NET_BIND_SERVICE\"]\n"
		    "  # uid 4000000000 is not root: Kubernetes adds capabilities to a non-root user's\n"
		    "  # bounding set only, not to its effective set. The program gets them\n"
		    "  # from file capabilities in the image (capaudit report --emit setcap),\n"
		    "  # which allowPrivilegeEscalation: false would make the kernel ignore: left out\n"
		    "  runAsUser: 4000000000\n"
		    "  runAsNonRoot: true\n");
	ASSERT_EMIT("docker", &s,
		    "# uid 4000000000 is not root: Docker adds capabilities to a non-root user's\n"
		    "# bounding set only, not to its effective set. The program gets them\n"
		    "# from file capabilities in the image (capaudit report --emit setcap),\n"
		    "# which --security-opt no-new-privileges would make the kernel ignore: left out\n"
		    "--cap-drop ALL --cap-add NET_BIND_SERVICE --user 4000000000\n");
	/* with nothing to add, nothing stands in the way */
	s.required = 0;
	ASSERT_EMIT("kubernetes", &s,
		    "securityContext:\n"
		    "  capabilities:\n"
		    "    drop: [\"ALL\"]\n"
		    "  allowPrivilegeEscalation: false\n"
		    "  runAsUser: 4000000000\n"
		    "  runAsNonRoot: true\n");
	ASSERT_EMIT("compose", &s,
		    "# compose.yaml: under services: NAME:\n"
		    "cap_drop: [\"ALL\"]\n"
		    "security_opt: [\"no-new-privileges:true\"]\n"
		    "user: \"4000000000\"\n");
}

/* An exec that gained privilege: the setting that forbids it is left
 * out, and the note names the program (escaped: the path is the
 * workload's). */
TEST(emit_privilege_gained_at_exec)
{
	struct rec_process ping = { .pid = 7, .comm = "ping", .exe = "/usr/bin/pi\nng",
				    .secure_exec = true };
	struct suggestion s;

	one_user(&s, 0);
	s.required = 1ULL << 13;
	s.runas.gain = GAIN_SEEN;
	s.runas.gainer = &ping;
	s.runas.ngainers = 3;
	ASSERT_EMIT("kubernetes", &s,
		    "securityContext:\n"
		    "  capabilities:\n"
		    "    drop: [\"ALL\"]\n"
		    "    add: [\"NET_RAW\"]\n"
		    "  # allowPrivilegeEscalation: false left out: /usr/bin/pi\\x0ang (and 2 more) "
		    "gained privilege at exec\n"
		    "  # (a setuid or setgid bit, or file capabilities): with it the kernel would "
		    "refuse that\n");
	ASSERT_EMIT("docker", &s,
		    "# --security-opt no-new-privileges left out: /usr/bin/pi\\x0ang (and 2 more) "
		    "gained privilege at exec\n"
		    "# (a setuid or setgid bit, or file capabilities): with it the kernel would "
		    "refuse that\n"
		    "--cap-drop ALL --cap-add NET_RAW\n");
}

/* What the record cannot tell leaves the setting out too, with the reason;
 * several users, no user setting. */
TEST(emit_unknowns_are_said)
{
	struct suggestion s;
	char *out;

	one_user(&s, 0);
	s.runas.gain = GAIN_UNKNOWN;
	s.runas.version = 3;
	s.runas.nuids = 2;
	s.runas.uids[1] = 1000;
	out = emit_of("systemd", &s);
	ASSERT_HAS(out, "\n# no User=: the processes ran as more than one user (uids 0, 1000)\n"
		   "# NoNewPrivileges=yes left out: a version 3 record does not say whether an "
		   "exec\n# gained privilege (setuid bit, file capabilities); record again to know\n");
	ASSERT_FALSE(strstr(out, "\nNoNewPrivileges=yes") != NULL);
	free(out);
	s.runas.nuids = 3;
	out = emit_of("kubernetes", &s);
	ASSERT_HAS(out, "  # no runAsUser: the processes ran as more than one user "
		   "(uids 0, 1000, ...)\n");
	free(out);
	s.runas.version = REC_VERSION;
	s.runas.events_lost = 4;
	out = emit_of("compose", &s);
	ASSERT_HAS(out, "# security_opt no-new-privileges left out: process events of the "
		   "record were lost");
	ASSERT_HAS(out, "# no user: process lines were lost, so not every user is known\n");
	ASSERT_FALSE(strstr(out, "security_opt: [") != NULL);
	free(out);
}

/* The unit name goes into a path and a comment: only systemd's characters,
 * a service; else the placeholder. A user manager's service is told that
 * these settings need a system service. */
TEST(emit_systemd_unit_names)
{
	struct suggestion s;
	char *out;

	one_user(&s, 0);
	s.runas.unit = "evil\n[Service]\nExecStart=/bin/sh.service";
	out = emit_of("systemd", &s);
	ASSERT_HAS(out, "# /etc/systemd/system/NAME.service.d/capaudit.conf\n");
	free(out);
	s.runas.unit = "session-3.scope";
	out = emit_of("systemd", &s);
	ASSERT_HAS(out, "# /etc/systemd/system/NAME.service.d/capaudit.conf\n");
	free(out);
	s.runas.unit = "getty@tty1.service";
	s.runas.user_unit = true;
	out = emit_of("systemd", &s);
	ASSERT_HAS(out, "# /etc/systemd/system/getty@tty1.service.d/capaudit.conf\n"
		   "# then: systemctl daemon-reload && systemctl restart getty@tty1.service\n"
		   "# (a system service: it ran under a user manager");
	free(out);
}
