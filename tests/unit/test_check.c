// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <unistd.h>

#include "analyze/check.h"
#include "test.h"
#include "lib/util.h"

/* Write text to a temporary file; returns its path (static buffer). */
static const char *tmpfile_with(const char *text)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/capaudit-unit.XXXXXX");
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static int load_text(const char *text, struct baseline *b, char *err, size_t n)
{
	const char *p = tmpfile_with(text);
	bool missing;
	int rc = baseline_load(p, b, &missing, err, n);

	unlink(p);
	return rc;
}

#define HEAD "{\"format\":\"capaudit-baseline\",\"version\":1,"

static void expect_bad(const char *text, const char *msg)
{
	struct baseline b;
	char err[512] = "";

	ASSERT_EQ(load_text(text, &b, err, sizeof(err)), -1);
	ASSERT_HAS(err, msg);
}

TEST(baseline_reads_names_sites_and_notes)
{
	struct baseline b;
	char err[512] = "";

	ASSERT_EQ(load_text(HEAD "\"note\":\"svc\",\"capabilities\":["
			    "{\"cap\":\"CAP_CHOWN\",\"note\":\"state\",\"callsites\":[\"setattr_prepare\"]},"
			    "{\"cap\":\"net_bind_service\",\"callsites\":[{\"function\":\"__inet_bind\","
			    "\"note\":\"listener\"}]}],"
			    "\"denied\":[{\"cap\":\"CAP_PERFMON\",\"callsites\":[\"array_map_alloc\"]}]}",
			    &b, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_STR(b.note, "svc");
	ASSERT_EQ(b.ncaps, 2);
	ASSERT_EQ(b.caps[0].cap, 0);
	ASSERT_STR(b.caps[0].note, "state");
	ASSERT_STR(b.caps[0].sites[0].func, "setattr_prepare");
	ASSERT_EQ(b.caps[1].cap, 10);
	ASSERT_STR(b.caps[1].sites[0].note, "listener");
	ASSERT_EQ(b.ndenied, 1);
	ASSERT_EQ(b.denied[0].cap, 38);
	baseline_free(&b);
}

TEST(baseline_errors_are_precise)
{
	struct baseline b;
	bool missing = false;
	char err[512];

	expect_bad("{\"format\":\"capaudit-baseline\",\n\"version\":1,,}", ":2:13: invalid JSON");
	expect_bad("{\"format\":\"other\",\"version\":1}", "format is 'other', not 'capaudit-baseline'");
	expect_bad("{\"format\":\"capaudit-baseline\",\"version\":7}", "baseline version 7 is newer");
	expect_bad(HEAD "\"capabilities\":[{\"cap\":\"CAP_NOPE\"}]}",
		   "capabilities[0]: unknown capability 'CAP_NOPE'");
	expect_bad(HEAD "\"capabilities\":[{\"cap\":\"CAP_BPF\"},{\"cap\":\"bpf\"}]}",
		   "capabilities[1]: bpf is listed twice");
	expect_bad(HEAD "\"capabilities\":[{\"cap\":\"CAP_BPF\",\"callsites\":[3]}]}",
		   "capabilities[0].callsites[0] must be a function name");
	expect_bad(HEAD "\"capabilities\":[{\"cap\":\"CAP_BPF\",\"callsites\":[{\"note\":\"x\"}]}]}",
		   "capabilities[0]: missing field 'function'");
	expect_bad(HEAD "\"capabilites\":[]}", "unknown field 'capabilites'");
	expect_bad(HEAD "\"capabilities\":{}}", "'capabilities' must be an array");
	ASSERT_EQ(baseline_load("/nonexistent/b.json", &b, &missing, err, sizeof(err)), -1);
	ASSERT_TRUE(missing);
	ASSERT_HAS(err, "/nonexistent/b.json: No such file or directory");
}

/* An observation by hand: caps with sites, and denials. */
static void observe(struct observation *o, int cap, const char *func, bool denied)
{
	struct bl_entry *e = denied ? bl_add(&o->denied, &o->ndenied, &o->capdenied, cap) :
				      bl_add(&o->caps, &o->ncaps, &o->capcaps, cap);

	bl_add_site(e, func);
}

static void baseline_of(struct baseline *b)
{
	struct bl_entry *e;

	memset(b, 0, sizeof(*b));
	e = bl_add(&b->caps, &b->ncaps, &b->capcaps, 0);
	e->note = xstrdup("state file");
	bl_add_site(e, "setattr_prepare")->note = xstrdup("fchown");
	e = bl_add(&b->caps, &b->ncaps, &b->capcaps, 10);
	bl_add_site(e, "__inet_bind");
	e = bl_add(&b->caps, &b->ncaps, &b->capcaps, 21);   /* allowed, unused */
	bl_add_site(e, "path_mount");
}

TEST(check_compare_finds_new_capabilities_sites_and_denials)
{
	struct observation o = { 0 };
	struct baseline b;
	struct check_result r;

	baseline_of(&b);
	observe(&o, 0, "setattr_prepare", false);
	observe(&o, 0, "notify_change", false);       /* new call site */
	observe(&o, 10, "__inet_bind", false);
	observe(&o, 13, "inet_create", false);        /* new capability */
	observe(&o, 34, "do_syslog", true);           /* new denial */
	check_compare(&o, &b, false, MATCH_CALLSITE, &r);
	ASSERT_EQ(r.nfail, 3);
	ASSERT_EQ(r.nhint, 1);
	ASSERT_EQ(r.nallowed, 2);
	ASSERT_EQ(r.f[0].kind, FK_NEW_CAP);
	ASSERT_EQ(r.f[0].cap, 13);
	ASSERT_STR(r.f[0].func, "inet_create");
	ASSERT_EQ(r.f[1].kind, FK_NEW_SITE);
	ASSERT_STR(r.f[1].func, "notify_change");
	ASSERT_EQ(r.f[2].kind, FK_NEW_DENIAL);
	ASSERT_EQ(r.f[2].cap, 34);
	ASSERT_EQ(r.f[3].kind, FK_UNUSED_CAP);
	ASSERT_EQ(r.f[3].cap, 21);
	ASSERT_FALSE(r.f[3].fails);
	check_result_free(&r);
	/* --strict: the unused CAP_SYS_ADMIN fails too */
	check_compare(&o, &b, true, MATCH_CALLSITE, &r);
	ASSERT_EQ(r.nfail, 4);
	ASSERT_TRUE(r.f[3].fails);
	check_result_free(&r);
	observation_free(&o);
	baseline_free(&b);
}

/* The syscalls of one observed (cap, site): as observation_add() adds them. */
static void observe_sys(struct observation *o, int cap, const char *sys)
{
	bl_add_sys(bl_add(&o->caps, &o->ncaps, &o->capcaps, cap), sys);
}

TEST(check_compare_by_syscall_leaves_call_sites_to_callsite)
{
	struct observation o = { 0 };
	struct baseline b;
	struct check_result r;

	baseline_of(&b);
	bl_add_sys(&b.caps[0], "fchown")->note = xstrdup("the state file");
	bl_add_sys(&b.caps[1], "bind");
	/* b.caps[2] (CAP_SYS_ADMIN) lists no syscalls: a version 1 entry */
	ASSERT_EQ(check_entries_without_syscalls(&b), 1);
	observe(&o, 0, "setattr_prepare", false);
	observe(&o, 0, "notify_change", false);       /* another kernel's call site */
	observe_sys(&o, 0, "fchown");
	observe_sys(&o, 0, "chown");                  /* new syscall */
	observe(&o, 10, "__inet_bind", false);
	observe_sys(&o, 10, "bind");
	observe(&o, 21, "path_mount", false);
	observe_sys(&o, 21, "mount");                 /* not compared: no syscalls listed */
	check_compare(&o, &b, false, MATCH_SYSCALL, &r);
	ASSERT_EQ(r.nfail, 1);
	ASSERT_EQ(r.nhint, 0);
	ASSERT_EQ(r.nallowed, 4);                     /* notify_change among them */
	ASSERT_EQ(r.f[0].kind, FK_NEW_SYSCALL);
	ASSERT_EQ(r.f[0].cap, 0);
	ASSERT_STR(r.f[0].syscall, "chown");
	check_result_free(&r);
	/* capabilities only: nothing new */
	check_compare(&o, &b, true, MATCH_CAPABILITY, &r);
	ASSERT_EQ(r.nfail, 0);
	check_result_free(&r);
	/* call sites too: notify_change is new, and setattr_prepare's syscall */
	check_compare(&o, &b, false, MATCH_CALLSITE, &r);
	ASSERT_EQ(r.nfail, 2);
	ASSERT_EQ(r.f[0].kind, FK_NEW_SYSCALL);
	ASSERT_EQ(r.f[1].kind, FK_NEW_SITE);
	ASSERT_STR(r.f[1].func, "notify_change");
	check_result_free(&r);
	observation_free(&o);
	/* a syscall allowed but not seen: a hint at syscall level, with its note */
	observe(&o, 0, "setattr_prepare", false);
	observe_sys(&o, 0, "chown");
	observe(&o, 10, "__inet_bind", false);
	observe_sys(&o, 10, "bind");
	observe(&o, 21, "path_mount", false);
	check_compare(&o, &b, true, MATCH_SYSCALL, &r);
	ASSERT_EQ(r.nfail, 2);                        /* --strict */
	ASSERT_EQ(r.f[0].kind, FK_NEW_SYSCALL);
	ASSERT_EQ(r.f[1].kind, FK_UNUSED_SYSCALL);
	ASSERT_STR(r.f[1].syscall, "fchown");
	ASSERT_STR(r.f[1].note, "the state file");
	check_result_free(&r);
	observation_free(&o);
	baseline_free(&b);
}

TEST(baseline_syscalls_read_written_and_kept_by_update)
{
	struct baseline b, r, u;
	struct observation o = { 0 };
	char *buf = NULL, err[512] = "";
	size_t len = 0;
	FILE *f;

	/* version 1 stays readable; version 2 lists syscalls */
	ASSERT_EQ(load_text(HEAD "\"capabilities\":[{\"cap\":\"CAP_CHOWN\","
			    "\"callsites\":[\"setattr_prepare\"]}]}", &b, err, sizeof(err)), 0);
	ASSERT_FALSE(b.caps[0].has_sys);
	baseline_free(&b);
	ASSERT_EQ(load_text("{\"format\":\"capaudit-baseline\",\"version\":2,\"capabilities\":["
			    "{\"cap\":\"CAP_CHOWN\",\"syscalls\":[\"chown\",{\"syscall\":\"fchown\","
			    "\"note\":\"state\"}],\"callsites\":[\"setattr_prepare\"]}]}",
			    &b, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_TRUE(b.caps[0].has_sys);
	ASSERT_EQ(b.caps[0].nsys, 2);
	ASSERT_STR(bl_find_sys(&b.caps[0], "fchown")->note, "state");
	expect_bad(HEAD "\"capabilities\":[{\"cap\":\"CAP_BPF\",\"syscalls\":[3]}]}",
		   "capabilities[0]: syscalls[0] must be a syscall name");
	expect_bad(HEAD "\"capabilities\":[{\"cap\":\"CAP_BPF\",\"syscalls\":\"bpf\"}]}",
		   "capabilities[0]: syscalls must be an array");
	expect_bad("{\"format\":\"capaudit-baseline\",\"version\":3}", "baseline version 3 is newer");
	/* --update: the observed syscalls, notes kept where they stay */
	observe(&o, 0, "setattr_prepare", false);
	observe_sys(&o, 0, "fchown");
	observe_sys(&o, 0, "fchownat");
	check_updated_baseline(&o, &b, &u);
	ASSERT_TRUE(u.caps[0].has_sys);
	ASSERT_EQ(u.caps[0].nsys, 2);
	ASSERT_STR(bl_find_sys(&u.caps[0], "fchown")->note, "state");
	ASSERT_TRUE(bl_find_sys(&u.caps[0], "chown") == NULL);
	/* written as version 2, read back the same */
	f = open_memstream(&buf, &len);
	ASSERT_EQ(baseline_write(f, &u), 0);
	fclose(f);
	ASSERT_HAS(buf, "\"version\": 2");
	ASSERT_EQ(load_text(buf, &r, err, sizeof(err)), 0);
	ASSERT_EQ(r.caps[0].nsys, 2);
	ASSERT_STR(r.caps[0].sys[0].func, "fchown");
	ASSERT_STR(r.caps[0].sys[0].note, "state");
	ASSERT_STR(r.caps[0].sys[1].func, "fchownat");
	baseline_free(&r);
	baseline_free(&u);
	baseline_free(&b);
	observation_free(&o);
	free(buf);
}

TEST(check_compare_nothing_new_passes)
{
	struct observation o = { 0 };
	struct baseline b;
	struct check_result r;

	baseline_of(&b);
	observe(&o, 0, "setattr_prepare", false);
	observe(&o, 10, "__inet_bind", false);
	observe(&o, 21, "path_mount", false);
	check_compare(&o, &b, true, MATCH_CALLSITE, &r);
	ASSERT_EQ(r.nfail, 0);
	ASSERT_EQ(r.nhint, 0);
	ASSERT_EQ(r.nallowed, 3);
	check_result_free(&r);
	observation_free(&o);
	baseline_free(&b);
}

TEST(check_update_keeps_notes_and_drops_what_is_gone)
{
	struct observation o = { 0 };
	struct baseline b, u;

	baseline_of(&b);
	b.note = xstrdup("svc");
	observe(&o, 0, "setattr_prepare", false);
	observe(&o, 13, "inet_create", false);
	check_updated_baseline(&o, &b, &u);
	ASSERT_STR(u.note, "svc");
	ASSERT_EQ(u.ncaps, 2);
	ASSERT_EQ(u.caps[0].cap, 0);
	ASSERT_STR(u.caps[0].note, "state file");
	ASSERT_STR(u.caps[0].sites[0].note, "fchown");
	ASSERT_EQ(u.caps[1].cap, 13);
	ASSERT_TRUE(u.caps[1].note == NULL);
	baseline_free(&u);
	baseline_free(&b);
	observation_free(&o);
}

TEST(baseline_write_then_load_round_trips)
{
	struct baseline b, r;
	char *buf = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	baseline_of(&b);
	ASSERT_EQ(baseline_write(f, &b), 0);
	fclose(f);
	ASSERT_EQ(load_text(buf, &r, err, sizeof(err)), 0);
	ASSERT_EQ(r.ncaps, 3);
	ASSERT_STR(r.caps[0].sites[0].note, "fchown");
	ASSERT_STR(r.caps[2].sites[0].func, "path_mount");
	baseline_free(&r);
	baseline_free(&b);
	free(buf);
}

TEST(check_messages_name_capability_site_and_baseline)
{
	struct finding x = { .kind = FK_NEW_CAP, .cap = 13, .func = "inet_create",
			     .syscalls = "socket", .fails = true };
	struct check_view v = { .baseline = "../b.json", .baseline_shown = "ci/b.json",
				.source_root = "/src" };
	char m[CHECK_MSG_LEN];

	/* without a command to accept: what, where, the words */
	check_message(&x, &v, NULL, m, sizeof(m));
	ASSERT_STR(m, "New capability CAP_NET_RAW at kernel call site inet_create (socket): "
		   "not allowed by ci/b.json. CAP_NET_RAW lets a program open raw sockets, which "
		   "send and receive network packets the program builds itself.");
	/* the program's line, relative to the root; the command last */
	x.usrc = "/src/app/ping.c";
	x.uline = 24;
	x.ufunc = "open_ping";
	v.update_cmd = "capaudit check --baseline ../b.json --update caps.jsonl";
	check_message(&x, &v, NULL, m, sizeof(m));
	ASSERT_STR(m, "New capability CAP_NET_RAW at kernel call site inet_create (socket), asked "
		   "for at app/ping.c:24 (open_ping): not allowed by ci/b.json. CAP_NET_RAW lets a "
		   "program open raw sockets, which send and receive network packets the program "
		   "builds itself. If this is intended, accept it (then review the diff and commit "
		   "it): capaudit check --baseline ../b.json --update caps.jsonl");
	x = (struct finding){ .kind = FK_NEW_DENIAL, .cap = 34, .func = "do_syslog",
			      .dkind = DENY_BLOCKING, .fails = true };
	v.update_cmd = NULL;
	v.baseline_shown = NULL;
	check_message(&x, &v, NULL, m, sizeof(m));
	ASSERT_STR(m, "New denied CAP_SYSLOG check at do_syslog (the syscall failed): not "
		   "expected by ../b.json. CAP_SYSLOG lets a program read and clear the kernel's "
		   "log.");
	ASSERT_STR(finding_kind_name(FK_UNUSED_CAP), "unused-capability");
	x = (struct finding){ .kind = FK_NEW_SYSCALL, .cap = 0, .func = "setattr_prepare",
			      .syscall = "chown" };
	check_message(&x, &v, NULL, m, sizeof(m));
	ASSERT_STR(m, "CAP_CHOWN used in a new syscall chown (at kernel call site "
		   "setattr_prepare): not allowed by ../b.json. CAP_CHOWN lets a program change a "
		   "file's owner and group to any user and group.");
	/* --strict: an unused entry fails, and the command drops it */
	x = (struct finding){ .kind = FK_UNUSED_CAP, .cap = 21, .fails = true };
	v.update_cmd = "capaudit check --baseline ../b.json --update r.jsonl";
	check_message(&x, &v, NULL, m, sizeof(m));
	ASSERT_HAS(m, "CAP_SYS_ADMIN is allowed by ../b.json but no record used it. CAP_SYS_ADMIN "
		   "lets a program do many administration tasks");
	ASSERT_HAS(m, ". If it is no longer needed, drop it (then review the diff and commit it): "
		   "capaudit check --baseline ../b.json --update r.jsonl");
	/* a number without words: no words, no crash */
	x = (struct finding){ .kind = FK_NEW_CAP, .cap = 55, .func = "f" };
	check_message(&x, &v, NULL, m, sizeof(m));
	ASSERT_STR(m, "New capability 55 at kernel call site f: not allowed by ../b.json.");
	ASSERT_STR(finding_kind_name(FK_NEW_SYSCALL), "new-syscall");
	ASSERT_STR(check_match_name(MATCH_SYSCALL), "syscall");
	ASSERT_EQ(check_match_parse("callsite"), MATCH_CALLSITE);
	ASSERT_EQ(check_match_parse("site"), -1);
}

/* ---- check --update on the file's own text (baseline_edit) ---- */

/* text edited into want; the result must read back as want */
static char *edit_to(const char *text, const struct baseline *want)
{
	struct baseline back;
	char err[512] = "", *out;
	size_t len = 0;
	FILE *m;

	out = baseline_edit(text, strlen(text), want, &len);
	if (!out) {
		FAIL_AT("baseline_edit gave NULL");
		return xstrdup("");
	}
	ASSERT_EQ(strlen(out), len);
	m = fmemopen(out, len, "r");
	if (baseline_read(m, "edited", &back, err, sizeof(err))) {
		FAIL_AT("the edited text does not read: %s\n%s", err, out);
	} else {
		ASSERT_TRUE(baseline_same(&back, want));
		baseline_free(&back);
	}
	fclose(m);
	return out;
}

static struct bl_entry *want_entry(struct baseline *b, bool denied, int cap, const char *sys,
				   const char *sites)
{
	struct bl_entry *e = denied ? bl_add(&b->denied, &b->ndenied, &b->capdenied, cap) :
				      bl_add(&b->caps, &b->ncaps, &b->capcaps, cap);
	char *copy = xstrdup(sites), *tok, *save = NULL;

	if (sys) {
		char *c2 = xstrdup(sys);

		e->has_sys = true;
		for (tok = strtok_r(c2, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			bl_add_sys(e, tok);
		free(c2);
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		bl_add_site(e, tok);
	free(copy);
	return e;
}

TEST(baseline_edit_keeps_order_layout_and_notes)
{
	struct baseline want = { 0 };
	struct bl_entry *e;
	char *out;

	/* a sorted file: the new entry and the new syscall go where they sort;
	 * the first call site goes with its separator; notes stay where they are */
	want.note = xstrdup("svc");
	e = want_entry(&want, false, 0, "chown,fchown", "setattr_prepare");
	e->note = xstrdup("state");
	bl_find_sys(e, "fchown")->note = xstrdup("the state file");
	want_entry(&want, false, 13, "socket", "inet_create");
	want_entry(&want, false, 21, "sethostname", "__x64_sys_sethostname");
	out = edit_to("{\n"
		      "  \"format\": \"capaudit-baseline\",\n"
		      "  \"version\": 2,\n"
		      "  \"note\": \"svc\",\n"
		      "  \"capabilities\": [\n"
		      "    {\n"
		      "      \"cap\": \"CAP_CHOWN\",\n"
		      "      \"note\": \"state\",\n"
		      "      \"syscalls\": [\n"
		      "        {\n"
		      "          \"syscall\": \"fchown\",\n"
		      "          \"note\": \"the state file\"\n"
		      "        }\n"
		      "      ],\n"
		      "      \"callsites\": [\n"
		      "        \"notify_change\",\n"
		      "        \"setattr_prepare\"\n"
		      "      ]\n"
		      "    },\n"
		      "    {\n"
		      "      \"cap\": \"sys_admin\",\n"
		      "      \"syscalls\": [\"sethostname\"],\n"
		      "      \"callsites\": [\"__x64_sys_sethostname\"]\n"
		      "    }\n"
		      "  ],\n"
		      "  \"denied\": []\n"
		      "}\n", &want);
	ASSERT_STR(out, "{\n"
		   "  \"format\": \"capaudit-baseline\",\n"
		   "  \"version\": 2,\n"
		   "  \"note\": \"svc\",\n"
		   "  \"capabilities\": [\n"
		   "    {\n"
		   "      \"cap\": \"CAP_CHOWN\",\n"
		   "      \"note\": \"state\",\n"
		   "      \"syscalls\": [\n"
		   "        \"chown\",\n"
		   "        {\n"
		   "          \"syscall\": \"fchown\",\n"
		   "          \"note\": \"the state file\"\n"
		   "        }\n"
		   "      ],\n"
		   "      \"callsites\": [\n"
		   "        \"setattr_prepare\"\n"
		   "      ]\n"
		   "    },\n"
		   "    {\n"
		   "      \"cap\": \"CAP_NET_RAW\",\n"
		   "      \"syscalls\": [\n"
		   "        \"socket\"\n"
		   "      ],\n"
		   "      \"callsites\": [\n"
		   "        \"inet_create\"\n"
		   "      ]\n"
		   "    },\n"
		   "    {\n"
		   "      \"cap\": \"sys_admin\",\n"
		   "      \"syscalls\": [\"sethostname\"],\n"
		   "      \"callsites\": [\"__x64_sys_sethostname\"]\n"
		   "    }\n"
		   "  ],\n"
		   "  \"denied\": []\n"
		   "}\n");
	free(out);
	baseline_free(&want);
}

TEST(baseline_edit_fills_empty_lists_adds_missing_members_and_empties_lists)
{
	struct baseline want = { 0 };
	char *out;

	/* a version 1 entry gets its syscalls before its call sites; "denied"
	 * is added where it was missing (tabs, as the file is indented) */
	want_entry(&want, false, 10, "bind", "__inet_bind");
	want_entry(&want, true, 38, "bpf", "array_map_alloc");
	out = edit_to("{\n\t\"format\": \"capaudit-baseline\",\n\t\"version\": 1,\n"
		      "\t\"capabilities\": [\n\t\t{\n\t\t\t\"cap\": \"CAP_NET_BIND_SERVICE\",\n"
		      "\t\t\t\"callsites\": [\"__inet_bind\"]\n\t\t}\n\t]\n}", &want);
	ASSERT_STR(out, "{\n\t\"format\": \"capaudit-baseline\",\n\t\"version\": 2,\n"
		   "\t\"capabilities\": [\n\t\t{\n\t\t\t\"cap\": \"CAP_NET_BIND_SERVICE\",\n"
		   "\t\t\t\"syscalls\": [\n\t\t\t\t\"bind\"\n\t\t\t],\n"
		   "\t\t\t\"callsites\": [\"__inet_bind\"]\n\t\t}\n\t],\n"
		   "\t\"denied\": [\n\t\t{\n\t\t\t\"cap\": \"CAP_PERFMON\",\n"
		   "\t\t\t\"syscalls\": [\n\t\t\t\t\"bpf\"\n\t\t\t],\n"
		   "\t\t\t\"callsites\": [\n\t\t\t\t\"array_map_alloc\"\n\t\t\t]\n\t\t}\n\t]\n}");
	free(out);
	baseline_free(&want);
	/* an empty list filled, a list emptied, a file on one line stays on one */
	memset(&want, 0, sizeof(want));
	want_entry(&want, false, 0, "fchown", "setattr_prepare");
	out = edit_to("{\"format\":\"capaudit-baseline\",\"version\":2,\"capabilities\":"
		      "[{\"cap\":\"CAP_CHOWN\",\"syscalls\":[],\"callsites\":[\"setattr_prepare\"]}],"
		      "\"denied\":[{\"cap\":\"CAP_BPF\",\"syscalls\":[\"bpf\"],\"callsites\":[\"x\"]}]}",
		      &want);
	ASSERT_STR(out, "{\"format\":\"capaudit-baseline\",\"version\":2,\"capabilities\":"
		   "[{\"cap\":\"CAP_CHOWN\",\"syscalls\":[\"fchown\"],\"callsites\":[\"setattr_prepare\"]}],"
		   "\"denied\":[]}");
	free(out);
	baseline_free(&want);
	/* an empty list in an entry on lines: one level below its line */
	memset(&want, 0, sizeof(want));
	want_entry(&want, false, 0, "fchown", "setattr_prepare");
	out = edit_to("{\n  \"format\": \"capaudit-baseline\",\n  \"version\": 2,\n"
		      "  \"capabilities\": [\n    {\n      \"cap\": \"CAP_CHOWN\",\n"
		      "      \"syscalls\": [],\n      \"callsites\": [\"setattr_prepare\"]\n    }\n  ]\n}\n",
		      &want);
	ASSERT_HAS(out, "      \"syscalls\": [\n        \"fchown\"\n      ],\n");
	free(out);
	baseline_free(&want);
}

TEST(baseline_edit_reads_escapes_and_refuses_what_it_cannot_follow)
{
	struct baseline want = { 0 }, a = { 0 }, b = { 0 };
	size_t len;
	char *out;

	/* names written with escapes are the names they stand for */
	bl_find_site(want_entry(&want, false, 0, "fchown", "setattr_prepare"),
		     "setattr_prepare")->note = xstrdup("n\"q");
	out = edit_to("{\"format\":\"capaudit-baseline\",\"version\":2,\"capabilities\":"
		      "[{\"cap\":\"CAP_\\u0043HOWN\",\"syscalls\":[\"fch\\u006fwn\",\"chown\"],"
		      "\"callsites\":[{\"function\":\"setattr\\u005fprepare\",\"note\":\"n\\\"q\"}]}]}",
		      &want);
	ASSERT_STR(out, "{\"format\":\"capaudit-baseline\",\"version\":2,\"capabilities\":"
		   "[{\"cap\":\"CAP_\\u0043HOWN\",\"syscalls\":[\"fch\\u006fwn\"],"
		   "\"callsites\":[{\"function\":\"setattr\\u005fprepare\",\"note\":\"n\\\"q\"}]}]}");
	free(out);
	/* not an object, or more after it: NULL */
	ASSERT_TRUE(baseline_edit("[]", 2, &want, &len) == NULL);
	ASSERT_TRUE(baseline_edit("{} {}", 5, &want, &len) == NULL);
	ASSERT_TRUE(baseline_edit("{\"capabilities\": [{\"cap\": \"CAP_NOPE\"}]}", 39, &want, &len) ==
		    NULL);
	baseline_free(&want);
	/* the same baseline in any order; a note differs: not the same */
	want_entry(&a, false, 0, "chown,fchown", "x,y");
	want_entry(&a, false, 13, "socket", "inet_create");
	want_entry(&b, false, 13, "socket", "inet_create");
	want_entry(&b, false, 0, "fchown,chown", "y,x");
	ASSERT_TRUE(baseline_same(&a, &b));
	bl_find_site(&b.caps[1], "x")->note = xstrdup("why");
	ASSERT_TRUE(!baseline_same(&a, &b));
	baseline_free(&a);
	baseline_free(&b);
}
