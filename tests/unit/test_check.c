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
	check_message(&x, &v, m, sizeof(m));
	ASSERT_STR(m, "New capability CAP_NET_RAW at kernel call site inet_create (socket): "
		   "not allowed by ci/b.json. CAP_NET_RAW lets a program open raw sockets, which "
		   "send and receive network packets the program builds itself.");
	/* the program's line, relative to the root; the command last */
	x.usrc = "/src/app/ping.c";
	x.uline = 24;
	x.ufunc = "open_ping";
	v.update_cmd = "capaudit check --baseline ../b.json --update caps.jsonl";
	check_message(&x, &v, m, sizeof(m));
	ASSERT_STR(m, "New capability CAP_NET_RAW at kernel call site inet_create (socket), asked "
		   "for at app/ping.c:24 (open_ping): not allowed by ci/b.json. CAP_NET_RAW lets a "
		   "program open raw sockets, which send and receive network packets the program "
		   "builds itself. If this is intended, accept it (then review the diff and commit "
		   "it): capaudit check --baseline ../b.json --update caps.jsonl");
	x = (struct finding){ .kind = FK_NEW_DENIAL, .cap = 34, .func = "do_syslog",
			      .dkind = DENY_BLOCKING, .fails = true };
	v.update_cmd = NULL;
	v.baseline_shown = NULL;
	check_message(&x, &v, m, sizeof(m));
	ASSERT_STR(m, "New denied CAP_SYSLOG check at do_syslog (the syscall failed): not "
		   "expected by ../b.json. CAP_SYSLOG lets a program read and clear the kernel's "
		   "log.");
	ASSERT_STR(finding_kind_name(FK_UNUSED_CAP), "unused-capability");
	x = (struct finding){ .kind = FK_NEW_SYSCALL, .cap = 0, .func = "setattr_prepare",
			      .syscall = "chown" };
	check_message(&x, &v, m, sizeof(m));
	ASSERT_STR(m, "CAP_CHOWN used in a new syscall chown (at kernel call site "
		   "setattr_prepare): not allowed by ../b.json. CAP_CHOWN lets a program change a "
		   "file's owner and group to any user and group.");
	/* --strict: an unused entry fails, and the command drops it */
	x = (struct finding){ .kind = FK_UNUSED_CAP, .cap = 21, .fails = true };
	v.update_cmd = "capaudit check --baseline ../b.json --update r.jsonl";
	check_message(&x, &v, m, sizeof(m));
	ASSERT_HAS(m, "CAP_SYS_ADMIN is allowed by ../b.json but no record used it. CAP_SYS_ADMIN "
		   "lets a program do many administration tasks");
	ASSERT_HAS(m, ". If it is no longer needed, drop it (then review the diff and commit it): "
		   "capaudit check --baseline ../b.json --update r.jsonl");
	/* a number without words: no words, no crash */
	x = (struct finding){ .kind = FK_NEW_CAP, .cap = 55, .func = "f" };
	check_message(&x, &v, m, sizeof(m));
	ASSERT_STR(m, "New capability 55 at kernel call site f: not allowed by ../b.json.");
	ASSERT_STR(finding_kind_name(FK_NEW_SYSCALL), "new-syscall");
	ASSERT_STR(check_match_name(MATCH_SYSCALL), "syscall");
	ASSERT_EQ(check_match_parse("callsite"), MATCH_CALLSITE);
	ASSERT_EQ(check_match_parse("site"), -1);
}
