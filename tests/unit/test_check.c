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
	check_compare(&o, &b, false, &r);
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
	check_compare(&o, &b, true, &r);
	ASSERT_EQ(r.nfail, 4);
	ASSERT_TRUE(r.f[3].fails);
	check_result_free(&r);
	observation_free(&o);
	baseline_free(&b);
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
	check_compare(&o, &b, true, &r);
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
			     .syscalls = "socket" };
	char m[512];

	check_message(&x, "b.json", m, sizeof(m));
	ASSERT_STR(m, "New capability CAP_NET_RAW at kernel call site inet_create (socket): "
		   "not allowed by b.json");
	x.kind = FK_NEW_DENIAL;
	x.cap = 34;
	x.func = "do_syslog";
	x.syscalls = NULL;
	x.dkind = DENY_BLOCKING;
	check_message(&x, "b.json", m, sizeof(m));
	ASSERT_STR(m, "New denied CAP_SYSLOG check at do_syslog (the syscall failed): not "
		   "expected by b.json");
	ASSERT_STR(finding_kind_name(FK_UNUSED_CAP), "unused-capability");
}
