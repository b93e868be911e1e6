// SPDX-License-Identifier: GPL-2.0
/* User stacks in the record (ustack lines) and user places (usite.c). */
#include <stdlib.h>

#include "analyze/check.h"
#include "recfile/recfile.h"
#include "analyze/report.h"
#include "test.h"
#include "analyze/usite.h"
#include "lib/util.h"

#define HDR "{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":1," \
	    "\"kernel\":\"6.18.0\",\"attach\":\"tp_btf\",\"start_ns\":1,\"end_ns\":2}\n"
#define PROC "{\"type\":\"process\",\"pid\":10,\"ppid\":1,\"comm\":\"privops\"," \
	     "\"exe\":\"/src/build/privops\"}\n"
#define STACK "{\"type\":\"stack\",\"id\":0,\"frames\":[\"cap_capable+0x1\"," \
	      "\"capable_wrt_inode_uidgid+0x3c\",\"setattr_prepare+0x11f\"]}\n"
/* libc's wrapper, the leaf caller in the program, main, libc's start */
#define USTACK "{\"type\":\"ustack\",\"id\":0,\"frames\":[" \
	"{\"build_id\":\"93ac\",\"offset\":1021207,\"object\":\"/lib/libc.so.6\",\"function\":\"chown\",\"func_off\":7}," \
	"{\"build_id\":\"607f\",\"offset\":4793,\"object\":\"/src/build/privops\",\"function\":\"do_chown\"," \
	"\"func_off\":25,\"source\":\"/src/examples/privops.c\",\"line\":44,\"leaf\":true}," \
	"{\"build_id\":\"607f\",\"offset\":4373,\"object\":\"/src/build/privops\",\"function\":\"main\"," \
	"\"source\":\"/src/examples/privops.c\",\"line\":85}]}\n"
#define CHECK(extra) "{\"type\":\"check\",\"pid\":10,\"cap\":0,\"ret\":0,\"count\":2,\"stack\":0" \
	extra "}\n"
#define END(u) "{\"type\":\"end\",\"processes\":1,\"stacks\":1,\"checks\":1" u "}\n"

TEST(ustack_lines_read_and_write_back_the_same)
{
	static const char text[] = HDR PROC STACK USTACK CHECK(",\"ustack\":0") END(",\"ustacks\":1");
	struct record r, r2;
	const struct rec_ustack *us;
	char err[256] = "", *buf = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(read_text(text, &r, err, sizeof(err)), 0);
	ASSERT_EQ(r.nustacks, 1);
	us = check_ustack(&r, &r.checks[0]);
	ASSERT_TRUE(us != NULL);
	ASSERT_EQ(us->n, 3);
	ASSERT_STR(us->frames[1].source, "/src/examples/privops.c");
	ASSERT_EQ(us->frames[1].line, 44);
	ASSERT_TRUE(us->frames[1].leaf);
	ASSERT_FALSE(us->frames[0].leaf);
	ASSERT_U64(us->frames[0].offset, 1021207);
	f = open_memstream(&buf, &len);
	ASSERT_EQ(recfile_write(f, &r), 0);
	fclose(f);
	ASSERT_HAS(buf, "\"type\":\"ustack\",\"id\":0");
	ASSERT_HAS(buf, "\"ustack\":0");
	ASSERT_HAS(buf, "\"ustacks\":1}");
	ASSERT_EQ(read_text(buf, &r2, err, sizeof(err)), 0);
	ASSERT_EQ(r2.nustacks, 1);
	ASSERT_EQ(r2.ustacks[0].n, 3);
	ASSERT_STR(r2.ustacks[0].frames[2].function, "main");
	ASSERT_EQ(r2.checks[0].ustack, 0);
	record_free(&r2);
	record_free(&r);
	free(buf);
}

TEST(ustack_errors_name_the_line_and_the_fault)
{
	expect_error(HDR PROC STACK CHECK(",\"ustack\":0") END(""),
		     "t.jsonl:4: ustack 0 is not defined before this line");
	expect_error(HDR PROC STACK "{\"type\":\"ustack\",\"id\":1,\"frames\":[]}\n",
		     "t.jsonl:4: ustack id 1 out of order (expected 0)");
	expect_error(HDR PROC STACK "{\"type\":\"ustack\",\"id\":0,\"frames\":[{\"build_id\":\"XYZ\","
		     "\"offset\":1}]}\n", "t.jsonl:4: field 'build_id' must be lowercase hex");
	expect_error(HDR PROC STACK "{\"type\":\"ustack\",\"id\":0,\"frames\":[{\"line\":3}]}\n",
		     "t.jsonl:4: missing field 'offset'");
	expect_error(HDR PROC STACK "{\"type\":\"ustack\",\"id\":0,\"frames\":[{\"offset\":-5}]}\n",
		     "t.jsonl:4: field 'offset' is -5");
	expect_error(HDR PROC STACK "{\"type\":\"ustack\",\"id\":0,\"frames\":[7]}\n",
		     "t.jsonl:4: a user frame must be an object");
	expect_error(HDR PROC STACK USTACK CHECK(",\"ustack\":0") END(""),
		     "t.jsonl:6: the end line counts 1 process, 1 stack, 1 check, 0 user stacks; "
		     "the file holds 1, 1, 1, 1");
}

TEST(ustack_too_many_frames_is_refused)
{
	char *text = xcalloc(1, 64 * 1024);
	int i;

	strcpy(text, HDR PROC STACK "{\"type\":\"ustack\",\"id\":0,\"frames\":[");
	for (i = 0; i <= REC_MAX_UFRAMES; i++)
		strcat(text, i ? ",{\"offset\":1}" : "{\"offset\":1}");
	strcat(text, "]}\n");
	expect_error(text, "t.jsonl:4: more than 128 user frames");
	free(text);
}

TEST(usite_own_frame_prefers_the_executable_then_source_outside_libc)
{
	struct rec_uframe fr[4] = {
		{ .object = "/lib/libc.so.6", .function = "chown", .source = "io/chown.S", .line = 1 },
		{ .object = "/src/build/privops", .function = "do_chown", .source = "/src/p.c",
		  .line = 44, .leaf = true },
		{ .object = "/src/build/libhelper.so", .source = "/src/h.c", .line = 9 },
		{ .object = "/lib/libc.so.6", .function = "__libc_start_call_main" },
	};
	struct rec_ustack us = { fr, 4 };

	ASSERT_EQ(usite_own_frame(&us, "/src/build/privops"), 1);
	/* a relative exe as the command line gave it */
	ASSERT_EQ(usite_own_frame(&us, "build/privops"), 1);
	/* another exe: the first frame with a source line outside libc */
	ASSERT_EQ(usite_own_frame(&us, "/usr/bin/python3"), 1);
	fr[1].source = NULL;
	ASSERT_EQ(usite_own_frame(&us, "/usr/bin/python3"), 2);
	/* the executable deleted while it ran */
	fr[1].object = "/src/build/privops (deleted)";
	ASSERT_EQ(usite_own_frame(&us, "/src/build/privops"), 1);
	ASSERT_EQ(usite_own_frame(NULL, "/x"), -1);
	/* runtimes called through (C++, the loader) are not the program's
	 * own either: its own library below them is */
	{
		struct rec_uframe rt[3] = {
			{ .object = "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", .source = "fstream.tcc",
			  .line = 3 },
			{ .object = "/lib64/ld-linux-x86-64.so.2", .source = "dl-open.c", .line = 7 },
			{ .object = "/opt/app/lib/libapp.so", .source = "app.cc", .line = 12 },
		};
		struct rec_ustack rus = { rt, 3 };

		ASSERT_EQ(usite_own_frame(&rus, "/opt/app/bin/app"), 2);
	}
	/* a static binary: its own libc wrapper has no source line, the
	 * caller below it has */
	{
		struct rec_uframe st[2] = {
			{ .object = "/set-pid", .function = "syscall" },
			{ .object = "/set-pid", .function = "main", .source = "set-pid.c", .line = 9 },
		};
		struct rec_ustack sus = { st, 2 };

		ASSERT_EQ(usite_own_frame(&sus, "/set-pid"), 1);
		st[1].source = NULL;
		ASSERT_EQ(usite_own_frame(&sus, "/set-pid"), 0);
	}
}

TEST(usite_format_degrades_step_by_step)
{
	struct rec_uframe f = { .build_id = "607ffdeb80b102de1cb13ba4ca28fd604edc9ea4",
				.offset = 0x12b9, .object = "/bin/privops", .function = "do_chown",
				.func_off = 0x19, .source = "/src/p.c", .line = 44 };
	char buf[256];

	usite_format(&f, buf, sizeof(buf));
	ASSERT_STR(buf, "/src/p.c:44 (do_chown)");
	f.source = NULL;
	usite_format(&f, buf, sizeof(buf));
	ASSERT_STR(buf, "do_chown+0x19 in /bin/privops");
	f.function = NULL;
	usite_format(&f, buf, sizeof(buf));
	ASSERT_STR(buf, "/bin/privops+0x12b9");
	f.object = NULL;
	usite_format(&f, buf, sizeof(buf));
	ASSERT_STR(buf, "build id 607ffdeb80b102de..+0x12b9");
	f.build_id = NULL;
	f.address = true;
	usite_format(&f, buf, sizeof(buf));
	ASSERT_STR(buf, "address 0x12b9");
	ASSERT_STR(usite_relative("/src/examples/p.c", "/src"), "examples/p.c");
	ASSERT_STR(usite_relative("/src/examples/p.c", "/src/"), "examples/p.c");
	ASSERT_STR(usite_relative("/srcx/p.c", "/src"), "/srcx/p.c");
	ASSERT_STR(usite_relative("./io/chown.S", "/src"), "./io/chown.S");
}

TEST(report_groups_checks_by_user_place)
{
	static const char text[] = HDR PROC STACK USTACK CHECK(",\"ustack\":0")
		"{\"type\":\"check\",\"pid\":10,\"cap\":21,\"ret\":-1,\"count\":3,\"stack\":0,"
		"\"syscall\":92}\n"
		"{\"type\":\"end\",\"processes\":1,\"stacks\":1,\"checks\":2,\"ustacks\":1}\n";
	struct report_opts o = { .by_user_site = true };
	struct report rep;
	struct record r;
	char err[256] = "";
	const struct site_stat *s;

	ASSERT_EQ(read_text(text, &r, err, sizeof(err)), 0);
	ASSERT_EQ(report_build(&r, &o, &rep), 0);
	ASSERT_EQ(rep.nprocs, 1);
	/* CAP_CHOWN at setattr_prepare, from p.c:44 (do_chown), 2x */
	s = &rep.procs[0].caps[0].sites[0];
	ASSERT_EQ(rep.procs[0].caps[0].cap, 0);
	ASSERT_EQ(s->nusers, 1);
	ASSERT_EQ(s->users[0].own, 1);
	ASSERT_U64(s->users[0].count, 2);
	/* by place: p.c:44 first, the check without a user stack last */
	ASSERT_EQ(rep.nurows, 2);
	ASSERT_STR(rep.urows[0].where->source, "/src/examples/privops.c");
	ASSERT_EQ(rep.urows[0].where->line, 44);
	ASSERT_STR(rep.urows[0].func, "setattr_prepare");
	ASSERT_U64(rep.urows[0].granted, 2);
	ASSERT_TRUE(rep.urows[1].where == NULL);
	ASSERT_EQ(rep.urows[1].cap, 21);
	ASSERT_U64(rep.urows[1].denied, 3);
	report_free(&rep);
	record_free(&r);
}

/* Places without a source line: the rows of one place stay adjacent (the
 * text output prints a place once, above its rows). */
TEST(report_keeps_rows_of_one_place_together)
{
	static const char text[] = HDR
		"{\"type\":\"process\",\"pid\":10,\"ppid\":1,\"comm\":\"x\",\"exe\":\"/x\"}\n"
		STACK
		"{\"type\":\"ustack\",\"id\":0,\"frames\":[{\"offset\":1,\"object\":\"/lib/libc.so.6\"},"
		"{\"offset\":16,\"object\":\"/b\"}]}\n"
		"{\"type\":\"ustack\",\"id\":1,\"frames\":[{\"offset\":1,\"object\":\"/lib/libc.so.6\"},"
		"{\"offset\":32,\"object\":\"/a\"}]}\n"
		"{\"type\":\"check\",\"pid\":10,\"cap\":0,\"ret\":0,\"count\":1,\"stack\":0,\"ustack\":0}\n"
		"{\"type\":\"check\",\"pid\":10,\"cap\":1,\"ret\":0,\"count\":1,\"stack\":0,\"ustack\":1}\n"
		"{\"type\":\"check\",\"pid\":10,\"cap\":2,\"ret\":0,\"count\":1,\"stack\":0,\"ustack\":0}\n"
		"{\"type\":\"end\",\"processes\":1,\"stacks\":1,\"checks\":3,\"ustacks\":2}\n";
	struct report_opts o = { .by_user_site = true };
	struct report rep;
	struct record r;
	char err[256] = "";

	ASSERT_EQ(read_text(text, &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(report_build(&r, &o, &rep), 0);
	ASSERT_EQ(rep.nurows, 3);
	ASSERT_STR(rep.urows[0].where->object, "/a");
	ASSERT_STR(rep.urows[1].where->object, "/b");
	ASSERT_STR(rep.urows[2].where->object, "/b");
	ASSERT_EQ(rep.urows[1].cap, 0);
	ASSERT_EQ(rep.urows[2].cap, 2);
	report_free(&rep);
	record_free(&r);
}

/* Two capabilities at one kernel call site, asked for on two lines: each
 * finding gets its own capability's line. */
TEST(check_findings_take_their_own_capabilitys_line)
{
	static const char text[] = HDR PROC STACK
		"{\"type\":\"ustack\",\"id\":0,\"frames\":[{\"offset\":1,\"object\":\"/lib/libc.so.6\"},"
		"{\"offset\":16,\"object\":\"/src/build/privops\",\"source\":\"/src/p.c\",\"line\":44}]}\n"
		"{\"type\":\"ustack\",\"id\":1,\"frames\":[{\"offset\":1,\"object\":\"/lib/libc.so.6\"},"
		"{\"offset\":32,\"object\":\"/src/build/privops\",\"source\":\"/src/p.c\",\"line\":50}]}\n"
		"{\"type\":\"check\",\"pid\":10,\"cap\":0,\"ret\":0,\"count\":1,\"stack\":0,\"ustack\":0}\n"
		"{\"type\":\"check\",\"pid\":10,\"cap\":3,\"ret\":0,\"count\":1,\"stack\":0,\"ustack\":1}\n"
		"{\"type\":\"end\",\"processes\":1,\"stacks\":1,\"checks\":2,\"ustacks\":2}\n";
	struct suggest_opts so = { 0 };
	struct observation obs = { 0 };
	struct baseline empty = { 0 };
	struct check_result res;
	struct suggestion sg;
	struct record r;
	char err[256] = "";
	size_t i, seen = 0;

	ASSERT_EQ(read_text(text, &r, err, sizeof(err)), 0);
	suggest_build(&r, &so, &sg);
	observation_add(&obs, &sg);
	observation_add_user_sites(&obs, &r);
	check_compare(&obs, &empty, false, MATCH_SYSCALL, &res);
	for (i = 0; i < res.n; i++) {
		if (res.f[i].kind != FK_NEW_CAP)
			continue;
		seen++;
		ASSERT_STR(res.f[i].usrc, "/src/p.c");
		ASSERT_EQ(res.f[i].uline, res.f[i].cap == 0 ? 44 : 50);
	}
	ASSERT_EQ(seen, 2);
	check_result_free(&res);
	observation_free(&obs);
	suggest_free(&sg);
	record_free(&r);
}
