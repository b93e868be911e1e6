// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "recfile/recfile.h"
#include "test.h"
#include "lib/util.h"

#define HDR "{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":1," \
	    "\"kernel\":\"6.18.0\",\"attach\":\"tp_btf\",\"start_ns\":1,\"end_ns\":2}\n"
#define PROC "{\"type\":\"process\",\"pid\":10,\"ppid\":1,\"comm\":\"x\"}\n"
#define CHECK(extra) "{\"type\":\"check\",\"pid\":10,\"cap\":0,\"ret\":0,\"count\":1" extra "}\n"
#define END(p, s, c) "{\"type\":\"end\",\"processes\":" #p ",\"stacks\":" #s ",\"checks\":" #c "}\n"

/* Read text as a record; returns rc, error in err. */
TEST(recfile_round_trip)
{
	struct record w = { 0 }, r;
	struct rec_process *p;
	struct rec_check *c;
	char *buf = NULL, err[256] = "";
	size_t len = 0;
	FILE *f;

	w.hdr.version = 1;
	w.hdr.kernel = xstrdup("6.18.44");
	w.hdr.attach = xstrdup("tp_btf");
	w.hdr.start_ns = 1000;
	w.hdr.end_ns = 2000;
	w.hdr.lost.stack_errors = 3;
	w.hdr.has_exit_status = true;
	w.hdr.exit_status = 3;
	p = record_add_process(&w, 42, 1234567, 3);
	p->comm = xstrdup("evil\x1b\xff");
	p->exe = xstrdup("/bin/x");
	p->cgroup = xstrdup("/libpod_parent/libpod-abc");
	p->container_id = xstrdup("abc");
	p->container_name = xstrdup("web");
	p->container_runtime = xstrdup("podman");
	p->secure_exec = true;
	p->build_id = xstrdup("0bc3267c77e8ab495e750bd3ac630400d379908c");
	p = record_add_process(&w, 43, 1234567, 0);
	p->comm = xstrdup("cron");
	p->cgroup = xstrdup("/system.slice/cron.service");
	p->unit = xstrdup("cron.service");
	w.hdr.scope = xstrdup("container");
	w.hdr.target_cgroup = xstrdup("/libpod_parent/libpod-abc");
	w.hdr.target_container = xstrdup("abc");
	w.hdr.target_name = xstrdup("web");
	c = record_add_check(&w);
	c->pid = 42;
	c->start_ns = 1234567;
	c->exec_id = 3;
	c->cap = 40;
	c->ret = -1;
	c->count = 7;
	c->syscall = 435;
	c->init_ns = true;
	c->opts_known = true;
	c->opt_noaudit = true;
	c->foreign_cred = true;
	c->comm = record_intern(&w, "x", 1);
	{
		static const char *const fr[] = { "cap_capable+0x83", "alloc_pid+0xcd" };

		c->stack = test_stack(&w, fr, 2);
	}

	f = open_memstream(&buf, &len);
	ASSERT_EQ(recfile_write(f, &w), 0);
	fclose(f);
	/* every byte is printable ASCII or the line feed */
	for (size_t i = 0; i < len; i++)
		ASSERT_TRUE(buf[i] == '\n' || (buf[i] >= 0x20 && buf[i] < 0x7f));
	ASSERT_EQ(read_text(buf, &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_STR(r.hdr.kernel, "6.18.44");
	ASSERT_U64(r.hdr.lost.stack_errors, 3);
	ASSERT_EQ(r.hdr.exit_status, 3);
	ASSERT_EQ(r.nprocs, 2);
	ASSERT_EQ(r.procs[0].exec_id, 3);
	/* where they ran (version 4) */
	ASSERT_STR(r.procs[0].cgroup, "/libpod_parent/libpod-abc");
	ASSERT_STR(r.procs[0].container_id, "abc");
	ASSERT_STR(r.procs[0].container_name, "web");
	ASSERT_STR(r.procs[0].container_runtime, "podman");
	ASSERT_TRUE(r.procs[0].secure_exec);
	ASSERT_STR(r.procs[0].build_id, "0bc3267c77e8ab495e750bd3ac630400d379908c");
	ASSERT_TRUE(r.procs[1].build_id == NULL);
	ASSERT_TRUE(r.procs[0].unit == NULL);
	ASSERT_STR(r.procs[1].unit, "cron.service");
	ASSERT_TRUE(r.procs[1].container_id == NULL);
	ASSERT_FALSE(r.procs[1].secure_exec);
	ASSERT_STR(r.hdr.scope, "container");
	ASSERT_STR(r.hdr.target_cgroup, "/libpod_parent/libpod-abc");
	ASSERT_STR(r.hdr.target_container, "abc");
	ASSERT_STR(r.hdr.target_name, "web");
	ASSERT_TRUE(r.hdr.target_unit == NULL);
	ASSERT_EQ(r.checks[0].exec_id, 3);
	ASSERT_EQ(r.hdr.version, REC_VERSION);
	ASSERT_EQ(r.procs[0].start_ns, 1234567);
	ASSERT_EQ(r.checks[0].start_ns, 1234567);
	ASSERT_TRUE(check_process(&r, &r.checks[0]) == &r.procs[0]);
	ASSERT_STR(r.procs[0].comm, "evil\x1b\\xff");
	ASSERT_EQ(r.nchecks, 1);
	ASSERT_EQ(r.checks[0].cap, 40);
	ASSERT_EQ(r.checks[0].ret, -1);
	ASSERT_U64(r.checks[0].count, 7);
	ASSERT_EQ(r.checks[0].syscall, 435);
	ASSERT_TRUE(r.checks[0].opts_known && r.checks[0].opt_noaudit);
	ASSERT_TRUE(r.checks[0].foreign_cred);
	ASSERT_EQ(r.nstacks, 1);
	ASSERT_EQ(r.checks[0].stack, 0);
	ASSERT_EQ(r.stacks[0].n, 2);
	ASSERT_STR(r.stacks[0].frames[1], "alloc_pid+0xcd");
	ASSERT_EQ(r.stacks[0].site, 1);
	record_free(&r);
	record_free(&w);
	free(buf);
}

TEST(recfile_minimal_is_valid)
{
	struct record r;
	char err[256] = "";

	ASSERT_EQ(read_text(HDR PROC CHECK("") END(1, 0, 1), &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(r.nchecks, 1);
	if (r.nchecks)
		ASSERT_EQ(r.checks[0].syscall, -1);
	record_free(&r);
}

TEST(recfile_errors_name_file_and_line)
{
	expect_error("", "t.jsonl:1: empty file: no record header");
	expect_error(HDR PROC "{not json\n", "t.jsonl:3: invalid JSON");
	expect_error(PROC, "t.jsonl:1: first line must be the header");
	expect_error("[1,2]\n", "t.jsonl:1: a line must be a JSON object");
	expect_error(HDR HDR, "t.jsonl:2: a second header");
	expect_error(HDR "{\"type\":\"bogus\"}\n", "t.jsonl:2: unknown line type 'bogus'");
	expect_error(HDR PROC PROC, "t.jsonl:3: process 10 (start_ns 0, exec_id 0) appears twice");
	expect_error(HDR CHECK(""), "t.jsonl:2: check for pid 10 (start_ns 0, exec_id 0) comes before");
	expect_error(HDR PROC CHECK(",\"exec_id\":2"), "t.jsonl:3: check for pid 10 (start_ns 0, exec_id 2)");
}

TEST(recfile_rejects_foreign_and_newer_formats)
{
	expect_error("{\"type\":\"header\",\"format\":\"other\",\"version\":1}\n",
		     "t.jsonl:1: format is 'other', not a capaudit record");
	expect_error("{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":8,"
		     "\"kernel\":\"k\",\"attach\":\"a\",\"start_ns\":1,\"end_ns\":2}\n",
		     "t.jsonl:1: record version 8 is newer than this capaudit reads (7)");
	/* version 4's fields are checked as strictly as the others */
	expect_error(HDR "{\"type\":\"process\",\"pid\":10,\"cgroup\":\"x\"}\n",
		     "t.jsonl:2: field 'cgroup' must be a path starting with '/'");
	expect_error(HDR "{\"type\":\"process\",\"pid\":10,\"container\":{\"name\":\"w\"}}\n",
		     "t.jsonl:2: ");
	expect_error(HDR "{\"type\":\"process\",\"pid\":10,\"container\":{\"id\":\"\"}}\n",
		     "t.jsonl:2: field 'id' of 'container' is empty");
}

/* Version 2: a process is (pid, start_ns); a pid given out again is a
 * second process with lines of its own, and each check names its own. */
#define HDR2 "{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":2," \
	     "\"kernel\":\"6.18.0\",\"attach\":\"tp_btf\",\"start_ns\":1,\"end_ns\":2}\n"
#define PROC2(start, comm) "{\"type\":\"process\",\"pid\":10,\"start_ns\":" #start \
	",\"exec_id\":4,\"ppid\":1,\"comm\":\"" comm "\"}\n"
#define CHECK2(start, cap) "{\"type\":\"check\",\"pid\":10,\"start_ns\":" #start \
	",\"exec_id\":4,\"cap\":" #cap ",\"ret\":0,\"count\":1}\n"

TEST(recfile_v2_names_processes_by_pid_and_start)
{
	struct record r;
	char err[256] = "";

	ASSERT_EQ(read_text(HDR2 PROC2(100, "churn") PROC2(200, "true") CHECK2(100, 34)
			    CHECK2(200, 0) END(2, 0, 2), &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(r.nprocs, 2);
	ASSERT_EQ(r.nchecks, 2);
	if (r.nchecks == 2) {
		ASSERT_STR(check_process(&r, &r.checks[0])->comm, "churn");
		ASSERT_EQ(r.checks[0].cap, 34);
		ASSERT_STR(check_process(&r, &r.checks[1])->comm, "true");
		ASSERT_EQ(r.checks[1].cap, 0);
	}
	ASSERT_U64(record_count_reused_pids(&r), 1);
	record_free(&r);
	/* the same pid and start twice is one image twice */
	expect_error(HDR2 PROC2(100, "a") PROC2(100, "b"),
		     "t.jsonl:3: process 10 (start_ns 100, exec_id 4) appears twice");
	/* a check of a process that has no line */
	expect_error(HDR2 PROC2(100, "a") CHECK2(300, 34),
		     "t.jsonl:3: check for pid 10 (start_ns 300, exec_id 4) comes before");
	/* version 2 lines must say which process */
	expect_error(HDR2 PROC, "t.jsonl:2: missing field 'start_ns'");
	expect_error(HDR2 PROC2(0, "a") CHECK(",\"exec_id\":4"), "t.jsonl:3: missing field 'start_ns'");
	expect_error(HDR2 "{\"type\":\"process\",\"pid\":10,\"start_ns\":-1}\n",
		     "t.jsonl:2: field 'start_ns' is -1, outside 0..");
}

/* Version 3: what decided a check as to user namespaces, answers that
 * could not matter, syscalls' other endings, capset() requests, the
 * call-site cache's work; all written and read back, bad values refused. */
#define HDR3 "{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":3," \
	     "\"kernel\":\"6.18.0\",\"attach\":\"tp_btf\",\"start_ns\":1,\"end_ns\":2," \
	     "\"cache\":{\"misses\":3,\"hit_walks\":4,\"splits\":1,\"unproven\":2}}\n"
#define PROC3 "{\"type\":\"process\",\"pid\":10,\"start_ns\":5,\"exec_id\":4," \
	      "\"comm\":\"ping\",\"capset\":{\"effective\":[\"CAP_NET_RAW\"]," \
	      "\"permitted\":[\"CAP_NET_ADMIN\",\"CAP_NET_RAW\"],\"inheritable\":[]}}\n"
#define CHECK3(extra) "{\"type\":\"check\",\"pid\":10,\"start_ns\":5,\"exec_id\":4," \
	"\"cap\":12,\"ret\":-1,\"count\":3,\"init_ns\":false" extra "}\n"

TEST(recfile_v3_fields_read_and_write_back)
{
	struct record r;
	char err[256] = "", *buf = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(read_text(HDR3 PROC3
			    CHECK3(",\"userns\":\"inside\",\"syscall_other\":2,"
				   "\"syscall_errno\":\"ENODEV\",\"syscall_restart\":1")
			    "{\"type\":\"check\",\"pid\":10,\"start_ns\":5,\"exec_id\":4,\"cap\":8,"
			    "\"ret\":0,\"count\":1,\"init_ns\":true,\"no_effect\":true}\n"
			    CHECK3("") END(1, 0, 3), &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_TRUE(r.hdr.has_cache);
	ASSERT_U64(r.hdr.cache_hit_walks, 4);
	ASSERT_U64(r.hdr.cache_unproven, 2);
	ASSERT_TRUE(r.procs[0].has_capset);
	ASSERT_U64(r.procs[0].capset_prm, 1ULL << 12 | 1ULL << 13);
	ASSERT_U64(r.procs[0].capset_eff, 1ULL << 13);
	ASSERT_EQ(r.nchecks, 3);
	if (r.nchecks == 3) {
		ASSERT_EQ(r.checks[0].userns, RU_INSIDE);
		ASSERT_U64(r.checks[0].sys_other, 2);
		ASSERT_EQ(r.checks[0].sys_errno, 19);
		ASSERT_U64(r.checks[0].sys_restart, 1);
		ASSERT_TRUE(r.checks[1].no_effect);
		/* version 3: a child namespace without "userns" was the host's to decide */
		ASSERT_EQ(r.checks[2].userns, RU_HOST);
	}
	f = open_memstream(&buf, &len);
	ASSERT_EQ(recfile_write(f, &r), 0);
	fclose(f);
	ASSERT_HAS(buf, "\"userns\":\"inside\"");
	ASSERT_HAS(buf, "\"syscall_errno\":\"ENODEV\"");
	ASSERT_HAS(buf, "\"no_effect\":true");
	ASSERT_HAS(buf, "\"permitted\":[\"CAP_NET_ADMIN\",\"CAP_NET_RAW\"]");
	ASSERT_HAS(buf, "\"cache\":{\"misses\":3,\"hit_walks\":4,\"splits\":1,\"unproven\":2}");
	free(buf);
	record_free(&r);

	expect_error(HDR3 PROC3 CHECK3(",\"userns\":\"elsewhere\""),
		     "t.jsonl:3: field 'userns' is 'elsewhere', not inside or owner");
	expect_error(HDR3 PROC3 CHECK3(",\"syscall_other\":1,\"syscall_errno\":\"EWHAT\""),
		     "t.jsonl:3: field 'syscall_errno' is 'EWHAT', not an errno name");
	expect_error(HDR3 PROC3 CHECK3(",\"syscall_other\":1"),
		     "t.jsonl:3: fields 'syscall_other' and 'syscall_errno' come together");
	expect_error(HDR3 PROC3 CHECK3(",\"syscall_restart\":9"),
		     "t.jsonl:3: a syscall result count exceeds 'count' (3)");
	expect_error(HDR3 "{\"type\":\"process\",\"pid\":10,\"start_ns\":5,\"build_id\":\"0BC3\"}\n",
		     "t.jsonl:2: field 'build_id' must be lowercase hex (at most 64 digits)");
	expect_error(HDR3 "{\"type\":\"process\",\"pid\":10,\"start_ns\":5,"
		     "\"capset\":{\"permitted\":[\"CAP_BOGUS\"]}}\n",
		     "t.jsonl:2: field 'permitted' item 0: unknown capability 'CAP_BOGUS'");
}

/* Before version 3, a check against a child namespace is set aside as
 * RU_CHILD: whether the process was inside it or owned it is not known. */
TEST(recfile_v2_child_namespace_checks_are_not_host_ones)
{
	struct record r;
	char err[256] = "";

	ASSERT_EQ(read_text(HDR2 PROC2(100, "ip")
			    "{\"type\":\"check\",\"pid\":10,\"start_ns\":100,\"exec_id\":4,"
			    "\"cap\":12,\"ret\":0,\"count\":1,\"init_ns\":false}\n"
			    "{\"type\":\"check\",\"pid\":10,\"start_ns\":100,\"exec_id\":4,"
			    "\"cap\":13,\"ret\":0,\"count\":1,\"init_ns\":true}\n"
			    END(1, 0, 2), &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(r.checks[0].userns, RU_CHILD);
	ASSERT_EQ(r.checks[1].userns, RU_HOST);
	record_free(&r);
}

/* Version 1 records (no start times) still read: each pid is one process. */
TEST(recfile_v1_still_reads)
{
	struct record r;
	char err[256] = "";

	ASSERT_EQ(read_text(HDR PROC CHECK("") END(1, 0, 1), &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(r.hdr.version, 1);
	ASSERT_EQ(r.procs[0].start_ns, 0);
	ASSERT_TRUE(r.nchecks == 1 && check_process(&r, &r.checks[0]) == &r.procs[0]);
	ASSERT_U64(record_count_reused_pids(&r), 0);
	record_free(&r);
}

TEST(recfile_rejects_out_of_range_values)
{
	expect_error(HDR PROC "{\"type\":\"check\",\"pid\":10,\"cap\":9999,\"ret\":0,\"count\":1}\n",
		     "t.jsonl:3: field 'cap' is 9999, outside 0..63");
	expect_error(HDR PROC "{\"type\":\"check\",\"pid\":10,\"cap\":1,\"ret\":0,\"count\":-5}\n",
		     "t.jsonl:3: field 'count' is -5, outside 1..");
	expect_error(HDR PROC "{\"type\":\"check\",\"pid\":10,\"cap\":1,\"ret\":3,\"count\":1}\n",
		     "t.jsonl:3: field 'ret' is 3");
	expect_error(HDR PROC "{\"type\":\"check\",\"pid\":10,\"cap\":\"x\",\"ret\":0,\"count\":1}\n",
		     "t.jsonl:3: field 'cap' must be an integer");
	expect_error(HDR PROC "{\"type\":\"check\",\"pid\":10,\"ret\":0,\"count\":1}\n",
		     "t.jsonl:3: missing field 'cap'");
	expect_error(HDR PROC CHECK(",\"stack\":[1]"), "t.jsonl:3: field 'stack' must be an integer");
	expect_error(HDR PROC CHECK(",\"stack\":0"), "t.jsonl:3: stack 0 is not defined before this line");
	expect_error(HDR PROC "{\"type\":\"stack\",\"id\":1,\"frames\":[]}\n",
		     "t.jsonl:3: stack id 1 out of order (expected 0)");
	expect_error(HDR PROC "{\"type\":\"stack\",\"id\":0,\"frames\":[\"a\",2]}\n",
		     "t.jsonl:3: field 'frames' item 1 must be a string");
	expect_error(HDR PROC CHECK(",\"count\":1.5"), "t.jsonl:3: duplicate field 'count'");
	expect_error(HDR PROC "{\"type\":\"check\",\"pid\":10,\"cap\":1,\"ret\":0,\"count\":1.5}\n",
		     "t.jsonl:3: field 'count' must be an integer");
	expect_error(HDR PROC "{\"type\":\"check\",\"pid\":10,\"cap\":1,\"ret\":0,"
		     "\"count\":99999999999999999999}\n", "t.jsonl:3: field 'count' is out of range");
	expect_error(HDR PROC CHECK("") "x\n", "t.jsonl:4: invalid JSON");
	expect_error(HDR "{\"type\":\"process\",\"pid\":10} {}\n", "t.jsonl:2: invalid JSON: trailing");
}

TEST(recfile_rejects_duplicate_keys_and_nul)
{
	expect_error(HDR "{\"type\":\"process\",\"pid\":1,\"pid\":2}\n", "t.jsonl:2: duplicate field 'pid'");
	expect_error(HDR "{\"type\":\"process\",\"pid\":1,\"comm\":\"a\\u0000b\"}\n",
		     "t.jsonl:2: field 'comm' contains a NUL character");
	expect_error(HDR "{\"type\":\"process\",\"pid\":1,\"comm\":\"\xff\"}\n",
		     "t.jsonl:2: invalid JSON: invalid UTF-8");
	{
		static const char text[] = HDR "{\"type\":\0\"process\"}\n";
		struct record r;
		char err[256] = "";

		ASSERT_EQ(read_text_n(text, sizeof(text) - 1, &r, NULL, err, sizeof(err)), -1);
		ASSERT_HAS(err, "t.jsonl:2: NUL byte");
	}
}

TEST(recfile_escapes_control_bytes_in_errors)
{
	expect_error(HDR "{\"type\":\"\\u001b[2J\"}\n", "unknown line type '\\x1b[2J'");
}

TEST(recfile_detects_cut_and_pasted_files)
{
	/* cut at a line boundary: no end line */
	expect_error(HDR PROC CHECK(""), "t.jsonl:3: truncated: the file ends without its end line");
	/* lines lost in the middle: the end line's counts disagree */
	expect_error(HDR PROC END(1, 0, 2), "t.jsonl:3: the end line counts 1 process, 0 stacks, "
		     "2 checks; the file holds 1, 0, 0");
	expect_error(HDR PROC END(1, 0, 0) CHECK(""), "t.jsonl:4: a line after the end line");
	/* the same check twice (a file pasted together) */
	expect_error(HDR PROC CHECK("") CHECK("") END(1, 0, 2),
		     "t.jsonl:4: the same check as line 3");
	expect_error(HDR PROC "{\"type\":\"end\",\"processes\":1}\n",
		     "t.jsonl:3: missing field 'stacks'");
}

TEST(recfile_skips_blank_lines)
{
	struct record r;
	char err[256] = "";

	ASSERT_EQ(read_text(HDR "\n" PROC "   \n" CHECK("") END(1, 0, 1), &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(r.nchecks, 1);
	if (r.nchecks)
		ASSERT_EQ(r.checks[0].line, 5);
	record_free(&r);
}

TEST(recfile_lenient_reads_what_is_valid)
{
	static const char text[] = HDR PROC CHECK("") "{broken\n"
		"{\"type\":\"check\",\"pid\":10,\"cap\":9999,\"ret\":0,\"count\":1}\n"
		CHECK(",\"syscall\":5") CHECK("");
	struct rec_read rd = { .lenient = true };
	struct record r;
	char err[256] = "";

	ASSERT_EQ(read_text_n(text, sizeof(text) - 1, &r, &rd, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(r.nchecks, 2);            /* lines 3 and 6 */
	ASSERT_U64(rd.skipped, 3);          /* 4 (JSON), 5 (cap), 7 (duplicate of 3) */
	ASSERT_TRUE(rd.truncated);          /* and no end line */
	ASSERT_U64(rd.lines, 7);
	ASSERT_STR(rd.first_problem, "t.jsonl:4: invalid JSON: unclosed object or array");
	record_free(&r);
	/* a bad header is fatal even when lenient */
	ASSERT_EQ(read_text_n("{\"type\":\"process\"}\n", 21, &r, &rd, err, sizeof(err)), -1);
	ASSERT_HAS(err, "t.jsonl:1: first line must be the header");
}

TEST(recfile_merge_checks_with_the_same_identity)
{
	struct record r = { 0 };
	struct rec_check *c;
	size_t removed = 0, dup = 0, orig = 0;
	int i;

	/* what the recorder gets when the child's pre-exec checks are aliased
	 * to the command's image: one key, two map entries */
	for (i = 0; i < 3; i++) {
		c = record_add_check(&r);
		c->pid = 10;
		c->exec_id = 5;
		c->cap = 21;
		c->stack = i == 2 ? -1 : 3;
		c->syscall = 59;
		c->count = (uint64_t)i + 1;
		c->first_ns = 100 - i;
		c->last_ns = 200 + i;
		c->tid = 10 + (uint32_t)i;
		if (i == 2)
			c->stack_error = xstrdup("stack not captured: Bad address");
	}
	/* strict: nothing changes, the pair is named */
	ASSERT_EQ(record_dedup_checks(&r, DEDUP_FAIL, &removed, &dup, &orig), -1);
	ASSERT_U64(dup, 1);
	ASSERT_U64(orig, 0);
	ASSERT_EQ(r.nchecks, 3);
	ASSERT_EQ(record_dedup_checks(&r, DEDUP_MERGE, &removed, &dup, &orig), 0);
	ASSERT_U64(removed, 1);
	ASSERT_EQ(r.nchecks, 2);              /* a check without a stack stays apart */
	ASSERT_U64(r.checks[0].count, 3);
	ASSERT_EQ(r.checks[0].first_ns, 99);  /* the earlier one's, with its thread */
	ASSERT_EQ(r.checks[0].tid, 11);
	ASSERT_EQ(r.checks[0].last_ns, 201);
	ASSERT_U64(r.checks[1].count, 3);
	ASSERT_STR(r.checks[1].stack_error, "stack not captured: Bad address");
	record_free(&r);
}

TEST(recfile_lenient_keeps_checks_whose_stack_line_was_lost)
{
	/* stack 0 lost from the middle, stack 1 cut: their checks keep
	 * their counts with an unknown call site */
	static const char text[] = HDR PROC
		"{\"type\":\"stack\",\"id\":1,\"frames\":[\"cap_capable+0x1\",\"alloc_pid+0x2\"]}\n"
		"{\"type\":\"stack\",\"id\":2,\"frames\":[\"cap_capable+0x1\"\n"
		CHECK(",\"stack\":0") CHECK(",\"stack\":1") END(1, 3, 2);
	struct rec_read rd = { .lenient = true };
	struct record r;
	char err[256] = "";

	ASSERT_EQ(read_text_n(text, sizeof(text) - 1, &r, &rd, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(r.nchecks, 2);
	ASSERT_EQ(r.nstacks, 2);             /* a hole for 0, then 1 */
	ASSERT_U64(rd.skipped, 1);           /* line 4 */
	ASSERT_U64(rd.missing, 1);           /* stack 0's line */
	ASSERT_TRUE(r.input.lenient);
	ASSERT_U64(r.input.missing, 1);
	if (r.nstacks == 2) {
		ASSERT_STR(r.stacks[0].site_func, "?");
		ASSERT_STR(r.stacks[1].site_func, "alloc_pid");
	}
	record_free(&r);
	/* strict: the same gap is an error */
	expect_error(HDR PROC "{\"type\":\"stack\",\"id\":1,\"frames\":[]}\n",
		     "t.jsonl:3: stack id 1 out of order (expected 0)");
	/* lenient, but an id beyond the line number: no huge allocation */
	static const char huge[] = HDR PROC "{\"type\":\"stack\",\"id\":2000000000,\"frames\":[]}\n";
	ASSERT_EQ(read_text_n(huge, sizeof(huge) - 1, &r, &rd, err, sizeof(err)), 0);
	ASSERT_EQ(r.nstacks, 0);
	ASSERT_U64(rd.skipped, 1);
	record_free(&r);
}

/* An end line that counts more lines than fit in 64 bits: the lines
 * missing saturate (no signed overflow), and the report says INCOMPLETE. */
TEST(recfile_lenient_huge_end_counts_saturate)
{
	static const char text[] = HDR PROC CHECK("")
		"{\"type\":\"end\",\"processes\":9223372036854775807,\"stacks\":9223372036854775807,"
		"\"checks\":9223372036854775807,\"ustacks\":9223372036854775807}\n";
	struct rec_read rd = { .lenient = true };
	struct record r;
	char err[256] = "";

	ASSERT_EQ(read_text_n(text, sizeof(text) - 1, &r, &rd, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_U64(rd.missing, (uint64_t)SIZE_MAX - 2);
	ASSERT_FALSE(rd.truncated);
	record_free(&r);
}

/* Version 6's op: what the syscall asked for, part of a check's identity
 * (two lines that differ only in it are two checks), -1 where absent. */
#define HDR6 "{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":6," \
	     "\"kernel\":\"6.18.0\",\"attach\":\"tp_btf\",\"start_ns\":1,\"end_ns\":2}\n"
#define PROC6 "{\"type\":\"process\",\"pid\":10,\"start_ns\":5,\"ppid\":1,\"comm\":\"x\"}\n"
#define CHECK6(extra) "{\"type\":\"check\",\"pid\":10,\"start_ns\":5,\"cap\":12,\"ret\":0," \
		      "\"count\":1,\"syscall\":54" extra "}\n"
TEST(recfile_op_is_read_named_and_part_of_the_identity)
{
	static const char text[] = HDR6 PROC6
		CHECK6(",\"op\":65569,\"op_name\":\"anything\"")
		CHECK6(",\"op\":65636")
		CHECK6("") END(1, 0, 3);
	struct record r;
	char err[256] = "", *buf = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(read_text(text, &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(r.nchecks, 3);
	ASSERT_EQ(r.checks[0].op, 65569);
	ASSERT_EQ(r.checks[1].op, 65636);
	ASSERT_EQ(r.checks[2].op, -1);
	/* written back with the name this build gives it, not the file's */
	f = open_memstream(&buf, &len);
	ASSERT_EQ(recfile_write(f, &r), 0);
	fclose(f);
	ASSERT_TRUE(strstr(buf, "\"op\":65569,\"op_name\":\"SOL_SOCKET SO_RCVBUFFORCE\"") != NULL);
	ASSERT_TRUE(strstr(buf, "\"op\":65636,\"op_name\":\"SOL_SOCKET option 100\"") != NULL);
	free(buf);
	record_free(&r);
	/* the same op twice is the same check twice */
	expect_error(HDR6 PROC6 CHECK6(",\"op\":7") CHECK6(",\"op\":7")
		     END(1, 0, 2), "t.jsonl:4: ");
	expect_error(HDR6 PROC6 CHECK6(",\"op\":-1") END(1, 0, 1),
		     "t.jsonl:3: field 'op'");
	expect_error(HDR6 PROC6 CHECK6(",\"op\":4294967296") END(1, 0, 1),
		     "t.jsonl:3: field 'op'");
}
