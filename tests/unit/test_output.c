// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/msg.h"
#include "output/output.h"
#include "analyze/report.h"
#include "analyze/suggest.h"
#include "analyze/views.h"
#include "facts/capnames.h"
#include "recfile/recfile.h"
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
	ASSERT_STR(said, "capaudit: unknown format 'junit' for report (text, json, html)\n");
	ASSERT_EQ(pick("html", FOR_REPORT) == &output_html, 1);
	ASSERT_EQ(pick("html", FOR_CHECK) == NULL, 1);
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
	/* a daemon started as root that changes user: no ambient set (the
	 * service starts as root; a change of user would clear it) */
	s.required = 1ULL << 10;
	out = emit_of("systemd", &s);
	ASSERT_HAS(out, "AmbientCapabilities=\n# no AmbientCapabilities: without User= the service "
		   "starts as root, which\n# has the bounding set's capabilities; the kernel clears "
		   "ambient ones when\n# the program changes user\n");
	ASSERT_FALSE(strstr(out, "AmbientCapabilities=CAP") != NULL);
	free(out);
	s.required = 0;
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

/* ---- report --format html: a record whose strings are markup ---------- */

/* comm, exe, argv and a stack frame written to be elements, attributes
 * and entities, as a crafted record file can hold them */
static const char hostile_record[] =
	"{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":4,"
	"\"kernel\":\"6.12<b>\",\"machine\":\"x86_64\",\"attach\":\"tp_btf\","
	"\"scope\":\"command\",\"argv\":[\"capaudit\",\"record\",\"--\","
	"\"/tmp/<script>alert(1)</script>\",\"a&b='c'\"],\"start_ns\":1796300625000000000,"
	"\"end_ns\":1796300626000000000,\"checks\":3,\"syscall_results\":true}\n"
	"{\"type\":\"process\",\"pid\":600,\"start_ns\":1796300625100000000,\"exec_id\":2,"
	"\"ppid\":599,\"uid\":0,\"comm\":\"<img src=x onerror=alert(1)>\","
	"\"exe\":\"/tmp/<script>alert(1)</script>\\\"q\"}\n"
	"{\"type\":\"stack\",\"id\":0,\"frames\":[\"cap_capable+0x5\",\"security_capable+0x3c\","
	"\"ns_capable+0x10\",\"x</pre><script>y+0x1c8\",\"do_syscall_64+0x57\"]}\n"
	"{\"type\":\"check\",\"pid\":600,\"start_ns\":1796300625100000000,\"exec_id\":2,"
	"\"uid\":0,\"cap\":0,\"ret\":0,\"count\":2,\"syscall\":92,\"init_ns\":true,"
	"\"stack\":0}\n"
	"{\"type\":\"check\",\"pid\":600,\"start_ns\":1796300625100000000,\"exec_id\":2,"
	"\"uid\":0,\"cap\":0,\"ret\":-1,\"count\":1,\"syscall\":92,\"init_ns\":true,"
	"\"stack\":0}\n"
	"{\"type\":\"end\",\"processes\":1,\"stacks\":1,\"checks\":2}\n";

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/* The page, from the record in text (caller frees). */
static char *page_of(const char *text)
{
	struct report_opts ro = { 0 };
	struct suggest_opts so = { 0 };
	struct suggestion sg;
	struct report rep;
	struct record r;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(read_text(text, &r, err, sizeof(err)), 0);
	ASSERT_EQ(report_build(&r, &ro, &rep), 0);
	ASSERT_EQ(suggest_build(&r, &so, &sg), 0);
	f = open_memstream(&buf, &len);
	ASSERT_EQ(output_html.page(f, &rep, &sg, "<in>.jsonl"), 0);
	fclose(f);
	suggest_free(&sg);
	report_free(&rep);
	record_free(&r);
	return buf;
}

TEST(html_page_escapes_every_record_string)
{
	char *page = page_of(hostile_record);

	/* no element but the page's own: its one <table> per section and
	 * list, never the record's <script>, <img>, <b> or </pre> */
	ASSERT_EQ(count_of(page, "<script"), 0);
	ASSERT_EQ(count_of(page, "<img"), 0);
	ASSERT_EQ(count_of(page, "</pre><script"), 0);
	ASSERT_HAS(page, "<b>&lt;img src=x onerror=alert(1)&gt;</b>");
	ASSERT_HAS(page, "<code>capaudit record -- /tmp/&lt;script&gt;alert(1)&lt;/script&gt; "
		   "a&amp;b=&#39;c&#39;</code>");
	ASSERT_HAS(page, "/tmp/&lt;script&gt;alert(1)&lt;/script&gt;&quot;q</code>");
	ASSERT_HAS(page, "<td class=\"kernel\">6.12&lt;b&gt; ");
	ASSERT_HAS(page, "<title>capaudit report: &lt;in&gt;.jsonl</title>");
	/* the frame, in the stack's <pre> (the call site's frame, in bold) */
	ASSERT_HAS(page, "<b>x&lt;/pre&gt;&lt;script&gt;y+0x1c8</b>");
	/* nothing to fetch, and a policy that forbids fetching */
	ASSERT_EQ(count_of(page, "http:"), 0);
	ASSERT_EQ(count_of(page, "https:"), 0);
	ASSERT_HAS(page, "content=\"default-src 'none'; style-src 'unsafe-inline'\"");
	free(page);
}

/* The numbers the tables hold are the report's: one tbody per image, a
 * row per capability, granted and denied apart; the call paths sum them. */
TEST(html_page_tables_hold_the_counts)
{
	char *page = page_of(hostile_record);

	ASSERT_EQ(count_of(page, "<tbody class=\"proc\""), 1);
	ASSERT_HAS(page, "<tbody class=\"proc\" data-pid=\"600\" data-exec-id=\"2\">");
	ASSERT_HAS(page, "<td class=\"cap\"><span class=\"chip\">CAP_CHOWN</span></td>"
		   "<td class=\"num granted some\">2</td><td class=\"num denied some\">1</td>"
		   "<td class=\"syscalls\">chown &times;3</td>");
	ASSERT_HAS(page, "id=\"total-checks\">3</td>");
	ASSERT_HAS(page, "<span class=\"caps\" id=\"required\"><span class=\"chip\">CAP_CHOWN"
		   "</span></span>");
	ASSERT_HAS(page, "<span class=\"caps\" id=\"sg-required\"><span class=\"chip\">"
		   "CAP_CHOWN</span></span>");
	ASSERT_HAS(page, "<details class=\"cap-paths\" data-cap=\"CAP_CHOWN\" open><summary>"
		   "<span class=\"chip\">CAP_CHOWN</span> 1 call site: granted 2, denied 1");
	/* nothing lost: one line, not a row of zeros per kind */
	ASSERT_HAS(page, "<tr><th>Lost</th><td id=\"lost\">Nothing lost</td></tr>");
	ASSERT_EQ(count_of(page, "data-key="), 0);
	free(page);
}

/* The answer comes first: the required set, the replacements and the
 * --emit snippets, before the first program's table; the details of the
 * suggestion and the record after them. */
TEST(html_page_puts_the_answer_first)
{
	char *page = page_of(hostile_record);
	const char *answer = strstr(page, "<section id=\"answer\">");
	const char *programs = strstr(page, "<section id=\"programs\">");
	const char *details = strstr(page, "<section id=\"suggest\">");
	const char *record = strstr(page, "<section id=\"record\">");

	ASSERT_TRUE(answer && programs && details && record);
	ASSERT_TRUE(answer < programs && programs < details && details < record);
	ASSERT_TRUE(strstr(page, "id=\"sg-required\"") < programs);
	ASSERT_TRUE(strstr(page, "<h3 id=\"narrower\">Narrower capabilities") < programs);
	/* each --emit kind, its lines as report --emit prints them, escaped */
	ASSERT_TRUE(strstr(page, "<details class=\"emit\" data-kind=\"capsh\">") < programs);
	ASSERT_EQ(count_of(page, "<details class=\"emit\""), 6);
	ASSERT_HAS(page, "<pre>setcap cap_chown+ep &#39;/tmp/&lt;script&gt;alert(1)&lt;/script&gt;"
		   "&quot;q&#39;\n</pre>");
	free(page);
}

/* Something lost: each kind in its row. A check made with the mounter's
 * credentials (overlayfs) and a noaudit one: the Note cells and the text
 * report's note lines say the same, the term explained once. */
static const char noted_record[] =
	"{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":4,"
	"\"kernel\":\"6.12.0\",\"machine\":\"x86_64\",\"attach\":\"tp_btf\","
	"\"scope\":\"command\",\"argv\":[\"capaudit\",\"record\",\"--\",\"cp\"],"
	"\"start_ns\":1796300625000000000,\"end_ns\":1796300626000000000,\"checks\":3,"
	"\"syscall_results\":true,\"lost\":{\"map_full\":2}}\n"
	"{\"type\":\"process\",\"pid\":700,\"start_ns\":1796300625100000000,\"exec_id\":2,"
	"\"ppid\":699,\"uid\":0,\"comm\":\"cp\",\"exe\":\"/usr/bin/cp\"}\n"
	"{\"type\":\"stack\",\"id\":0,\"frames\":[\"cap_capable+0x5\",\"security_capable+0x3c\","
	"\"capable_wrt_inode_uidgid+0x10\",\"chown_ok+0x1c8\",\"do_syscall_64+0x57\"]}\n"
	"{\"type\":\"stack\",\"id\":1,\"frames\":[\"cap_capable+0x5\",\"security_capable+0x3c\","
	"\"capable_wrt_inode_uidgid+0x10\",\"generic_permission+0x1c8\",\"do_syscall_64+0x57\"]}\n"
	"{\"type\":\"check\",\"pid\":700,\"start_ns\":1796300625100000000,\"exec_id\":2,"
	"\"uid\":0,\"cap\":0,\"ret\":0,\"count\":1,\"syscall\":92,\"init_ns\":true,"
	"\"foreign_cred\":true,\"stack\":0}\n"
	"{\"type\":\"check\",\"pid\":700,\"start_ns\":1796300625100000000,\"exec_id\":2,"
	"\"uid\":0,\"cap\":1,\"ret\":0,\"count\":2,\"syscall\":257,\"init_ns\":true,"
	"\"stack\":1}\n"
	"{\"type\":\"end\",\"processes\":1,\"stacks\":2,\"checks\":2}\n";

static const char foreign_note[] = "checked against credentials that were not the program's "
	"own (an override: overlayfs acts as its mounter, a container engine, when it copies a "
	"file up), so not a requirement of the program";
static const char file_note[] = "a file-permission check: the record does not name the "
	"file; record with --user-stacks to see which line of the program asked";

TEST(html_page_notes_and_losses)
{
	char *page = page_of(noted_record), want[800];

	/* foreign_note, its apostrophes escaped as every text is */
	ASSERT_HAS(page, "<td class=\"small note\">checked against credentials that were not "
		   "the program&#39;s own (an override: overlayfs acts as its mounter");
	snprintf(want, sizeof(want), "<td class=\"small note\">%s</td>", file_note);
	ASSERT_HAS(page, want);
	ASSERT_HAS(page, "<td class=\"num lost\" data-key=\"map_full\">2</td>");
	ASSERT_HAS(page, "<td class=\"num lost zero\" data-key=\"ringbuf_full\">0</td>");
	ASSERT_EQ(count_of(page, "Nothing lost"), 0);
	/* call site explained once, in the suggestion's heading */
	ASSERT_EQ(count_of(page, "(call site: the kernel function that asked"), 1);
	free(page);
}

/* The text report's note lines are the html's Note cells. */
TEST(text_report_notes_say_what_the_html_says)
{
	struct report_opts ro = { 0 };
	struct report rep;
	struct record r;
	char err[256], *buf = NULL, want[800];
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(read_text(noted_record, &r, err, sizeof(err)), 0);
	ASSERT_EQ(report_build(&r, &ro, &rep), 0);
	f = open_memstream(&buf, &len);
	ASSERT_EQ(output_text.report(f, &rep, "cp.jsonl"), 0);
	fclose(f);
	snprintf(want, sizeof(want), "  CAP_CHOWN                granted 1        denied 0       \n"
		 "    note: %s\n", foreign_note);
	ASSERT_HAS(buf, want);
	snprintf(want, sizeof(want), "    note: %s\n    syscalls: openat x2\n", file_note);
	ASSERT_HAS(buf, want);
	/* the term explained at its first use only */
	ASSERT_HAS(buf, "    call site chown_ok                         granted 1 (call site: the "
		   "kernel function that asked for the capability; docs/glossary.md)\n");
	ASSERT_HAS(buf, "    call site generic_permission               granted 2\n");
	/* the mounter's chown is no requirement */
	ASSERT_HAS(buf, "Required (granted in audited checks): CAP_DAC_OVERRIDE\n");
	free(buf);
	report_free(&rep);
	record_free(&r);
}

/* report --suggest in text: the overlayfs chown set aside under its plain
 * heading, explained once; the file-permission capability points to
 * --user-stacks. */
TEST(text_suggest_explains_set_aside_and_which_file)
{
	struct suggest_opts so = { 0 };
	struct suggestion sg;
	struct record r;
	char err[256], *buf = NULL, want[800];
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(read_text(noted_record, &r, err, sizeof(err)), 0);
	ASSERT_EQ(suggest_build(&r, &so, &sg), 0);
	f = open_memstream(&buf, &len);
	ASSERT_EQ(output_text.suggest(f, &sg, "cp.jsonl"), 0);
	fclose(f);
	ASSERT_HAS(buf, "\nChecked, but not needed in the set (the kernel asked, but the answer "
		   "did not depend on the capabilities the program is given on this host, so the "
		   "set needs none of these; docs/glossary.md):\n  CAP_CHOWN at chown_ok, "
		   "granted 1: checked against credentials that were not the program's own");
	snprintf(want, sizeof(want), "  CAP_DAC_OVERRIDE: generic_permission\n    (%s)\n",
		 file_note);
	ASSERT_HAS(buf, want);
	ASSERT_HAS(buf, "\nRequired capabilities: CAP_DAC_OVERRIDE\n");
	free(buf);
	suggest_free(&sg);
	record_free(&r);
}

/* verify's "without it" line, and a dropped member's refusals, say what
 * the denial was about (issue 44), from copies that outlive the run's
 * record */
TEST(output_verify_says_what_a_denial_was_about)
{
	struct rec_object file = { .kind = OBJ_FILE, .path = "/etc/app/key.pem", .uid = 0,
				   .gid = 0, .mode = 0100600, .pid = -1, .num = -1, .count = 1 };
	struct rec_object opt = { .kind = OBJ_SOCKOPT, .detail = "SOL_SOCKET",
				  .name = "SO_RCVBUFFORCE", .pid = -1, .uid = -1, .gid = -1,
				  .mode = -1, .num = 33, .count = 1 };
	static char *cmd[] = { "app", NULL };
	struct verify_result v = { 0 };
	struct obj_set s = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	v.cmd = cmd;
	v.runs = 3;
	v.proven = true;
	v.set = 1ULL << CAP_DAC_OVERRIDE;
	v.nmembers = 2;
	v.members[0] = (struct verify_member){ .cap = CAP_DAC_OVERRIDE, .kept = true,
					       .replaced_by = -1, .exit_status = 1,
					       .deny_cap = CAP_DAC_OVERRIDE,
					       .deny_func = "generic_permission" };
	obj_set_add(&s, &file, 1);
	obj_set_own(&v.members[0].deny_objects, &s);
	v.members[1] = (struct verify_member){ .cap = CAP_NET_ADMIN, .replaced_by = -1,
					       .nrefusals = 1 };
	v.members[1].refusals[0] = (struct verify_refusal){ .func = "sk_setsockopt",
		.kind = DENY_DONE_WITHOUT, .count = 1 };
	memset(&s, 0, sizeof(s));
	obj_set_add(&s, &opt, 1);
	obj_set_own(&v.members[1].refusals[0].objects, &s);
	f = open_memstream(&buf, &len);
	output_text.verify(f, &v);
	fclose(f);
	ASSERT_TRUE(strstr(buf, "  CAP_DAC_OVERRIDE: without it, exit status 1; denied "
			   "CAP_DAC_OVERRIDE at generic_permission\n    about /etc/app/key.pem "
			   "(owner 0:0, mode 0600)\n") != NULL);
	ASSERT_TRUE(strstr(buf, "    at sk_setsockopt: about SOL_SOCKET SO_RCVBUFFORCE\n") != NULL);
	if (test_fails)
		printf("# %s\n", buf);
	free(buf);
	obj_set_release(&v.members[0].deny_objects);
	obj_set_release(&v.members[1].refusals[0].objects);
}
