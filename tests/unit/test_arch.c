// SPDX-License-Identifier: GPL-2.0
/* Records of several architectures: the syscall tables (facts/syscalls.c),
 * the header's arch and the checks' syscall names as the reader keeps them
 * (recfile/read.cpp), and what the analyses count a syscall as. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report.h"
#include "analyze/syscount.h"
#include "facts/syscalls.h"
#include "recfile/recfile.h"
#include "test.h"

#define HDR5(arch) \
	"{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":5," \
	"\"kernel\":\"6.12.0\",\"machine\":\"aarch64\"" arch ",\"attach\":\"kprobe\"," \
	"\"start_ns\":1,\"end_ns\":2}\n"
#define PROC5 "{\"type\":\"process\",\"pid\":10,\"start_ns\":5,\"exec_id\":1,\"ppid\":1,\"comm\":\"x\"}\n"
#define CHECK5(cap, extra) "{\"type\":\"check\",\"pid\":10,\"start_ns\":5,\"exec_id\":1," \
	"\"cap\":" #cap ",\"ret\":0,\"count\":1" extra "}\n"
#define END5(c) "{\"type\":\"end\",\"processes\":1,\"stacks\":0,\"checks\":" #c "}\n"

TEST(syscall_tables_number_each_architecture_its_own_way)
{
	/* x86_64: arch/x86/entry/syscalls/syscall_64.tbl */
	ASSERT_STR(syscall_name_arch("x86_64", 92), "chown");
	ASSERT_STR(syscall_name_arch("x86_64", 260), "fchownat");
	ASSERT_STR(syscall_name_arch("x86_64", 435), "clone3");
	/* arm64: include/uapi/asm-generic/unistd.h (no chown, only fchownat) */
	ASSERT_STR(syscall_name_arch("arm64", 54), "fchownat");
	ASSERT_STR(syscall_name_arch("arm64", 92), "personality");
	ASSERT_STR(syscall_name_arch("arm64", 91), "capset");
	ASSERT_STR(syscall_name_arch("arm64", 116), "syslog");
	ASSERT_STR(syscall_name_arch("arm64", 221), "execve");
	ASSERT_STR(syscall_name_arch("arm64", 435), "clone3");
	/* 3264 names resolved to their 64-bit numbers */
	ASSERT_STR(syscall_name_arch("arm64", 25), "fcntl");
	ASSERT_STR(syscall_name_arch("arm64", 79), "newfstatat");
	/* holes, negative numbers, unknown architectures: not known */
	ASSERT_TRUE(syscall_name_arch("arm64", 300) == NULL);
	ASSERT_TRUE(syscall_name_arch("arm64", -1) == NULL);
	ASSERT_TRUE(syscall_name_arch("riscv64", 54) == NULL);
	/* no arch: the records made before it was written, all x86_64 */
	ASSERT_STR(syscall_name_arch(NULL, 92), "chown");
	ASSERT_TRUE(syscall_arch_known("arm64") && syscall_arch_known("x86_64"));
	ASSERT_FALSE(syscall_arch_known("aarch64") || syscall_arch_known(NULL));
#if defined(__x86_64__)
	ASSERT_STR(syscall_arch_native(), "x86_64");
	ASSERT_STR(syscall_name(92), "chown");
#elif defined(__aarch64__)
	ASSERT_STR(syscall_arch_native(), "arm64");
	ASSERT_STR(syscall_name(92), "personality");
#endif
}

TEST(recfile_names_syscalls_with_the_records_architecture)
{
	struct record r;
	char err[256] = "";

	/* arm64, no names in the file: its table, not the reader's */
	ASSERT_EQ(read_text(HDR5(",\"arch\":\"arm64\"") PROC5 CHECK5(0, ",\"syscall\":54")
			    CHECK5(40, ",\"syscall\":435") END5(2), &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_STR(r.hdr.arch, "arm64");
	ASSERT_EQ(r.nchecks, 2);
	if (r.nchecks == 2) {
		ASSERT_EQ(r.checks[0].syscall, 54);
		ASSERT_STR(r.checks[0].sysname, "fchownat");
		ASSERT_STR(r.checks[1].sysname, "clone3");
	}
	record_free(&r);
	/* no arch (before version 5): x86_64's table */
	ASSERT_EQ(read_text(HDR5("") PROC5 CHECK5(0, ",\"syscall\":54") END5(1), &r, err,
			    sizeof(err)), 0);
	ASSERT_TRUE(r.hdr.arch == NULL);
	if (r.nchecks == 1)
		ASSERT_STR(r.checks[0].sysname, "setsockopt");
	record_free(&r);
	/* the recorded name is kept, whatever a table says: the recording
	 * machine knew it (a syscall newer than this build's table, an
	 * architecture it has no table for) */
	ASSERT_EQ(read_text(HDR5(",\"arch\":\"riscv64\"")
			    PROC5 CHECK5(0, ",\"syscall\":54,\"syscall_name\":\"fchownat\"")
			    CHECK5(1, ",\"syscall\":462,\"syscall_name\":\"mseal\"")
			    CHECK5(2, ",\"syscall\":7") END5(3), &r, err, sizeof(err)), 0);
	if (r.nchecks == 3) {
		ASSERT_STR(r.checks[0].sysname, "fchownat");
		ASSERT_STR(r.checks[1].sysname, "mseal");
		ASSERT_TRUE(r.checks[2].sysname == NULL);   /* no table, no name */
	}
	record_free(&r);
}

TEST(recfile_arch_and_syscall_name_are_checked)
{
	expect_error(HDR5(",\"arch\":\"arm 64\"") END5(0),
		     "t.jsonl:1: field 'arch' must be an architecture name (letters, digits, '_')");
	expect_error(HDR5(",\"arch\":\"\"") END5(0), "t.jsonl:1: field 'arch' must be");
	expect_error(HDR5(",\"arch\":7") END5(0), "t.jsonl:1: field 'arch' must be a string");
	expect_error(HDR5(",\"arch\":\"arm64\"") PROC5 CHECK5(0, ",\"syscall\":54,\"syscall_name\":\"a\\u001bb\"")
		     END5(1), "t.jsonl:3: field 'syscall_name' must be a syscall name");
	expect_error(HDR5(",\"arch\":\"arm64\"") PROC5 CHECK5(0, ",\"syscall_name\":\"chown\"") END5(1),
		     "t.jsonl:3: field 'syscall_name' without a syscall");
	/* version 7 is read; 8 is not */
	expect_error("{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":8,"
		     "\"kernel\":\"k\",\"attach\":\"a\",\"start_ns\":1,\"end_ns\":2}\n",
		     "t.jsonl:1: record version 8 is newer than this capaudit reads (7)");
}

/* Written back, an arm64 record still says arm64 and names its syscalls as
 * it did: a report of it anywhere reads the same. */
TEST(recfile_arm64_record_writes_back_the_same)
{
	struct record r, back;
	char err[256] = "", *buf = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(read_text(HDR5(",\"arch\":\"arm64\"") PROC5 CHECK5(0, ",\"syscall\":54") END5(1),
			    &r, err, sizeof(err)), 0);
	f = open_memstream(&buf, &len);
	ASSERT_EQ(recfile_write(f, &r), 0);
	fclose(f);
	ASSERT_TRUE(strstr(buf, "\"arch\":\"arm64\"") != NULL);
	ASSERT_TRUE(strstr(buf, "\"syscall\":54,\"syscall_name\":\"fchownat\"") != NULL);
	ASSERT_EQ(read_text(buf, &back, err, sizeof(err)), 0);
	ASSERT_STR(back.hdr.arch, "arm64");
	if (back.nchecks == 1)
		ASSERT_STR(back.checks[0].sysname, "fchownat");
	record_free(&back);
	record_free(&r);
	free(buf);
}

/* A syscall is its name: fchownat is 260 on x86_64 and 54 on arm64, and a
 * merge of both counts it once; numbers count only where no name is known. */
TEST(syscount_counts_a_syscall_by_name_across_architectures)
{
	struct sys_count *v = NULL;
	size_t n = 0, cap = 0;

	sys_count_add(&v, &n, &cap, 260, "fchownat", 2);
	sys_count_add(&v, &n, &cap, 54, "fchownat", 3);
	sys_count_add(&v, &n, &cap, 54, "setsockopt", 1);
	sys_count_add(&v, &n, &cap, 999, NULL, 1);
	sys_count_add(&v, &n, &cap, 999, NULL, 4);
	sys_count_add(&v, &n, &cap, -1, NULL, 1);
	ASSERT_EQ(n, 4);
	sys_count_sort(v, n);
	ASSERT_STR(v[0].name, "fchownat");
	ASSERT_U64(v[0].count, 5);
	ASSERT_EQ(v[1].nr, 999);
	ASSERT_U64(v[1].count, 5);
	ASSERT_TRUE(v[1].name == NULL);
	free(v);
}

/* The report of an arm64 record names the syscalls arm64 made, and a merge
 * with an x86_64 record keeps each record's names. */
TEST(report_of_arm64_and_x86_records_merged)
{
	static const char arm[] = HDR5(",\"arch\":\"arm64\"") PROC5
		CHECK5(0, ",\"syscall\":54") END5(1);
	static const char x86[] = HDR5(",\"arch\":\"x86_64\"")
		"{\"type\":\"process\",\"pid\":20,\"start_ns\":5,\"exec_id\":1,\"ppid\":1,\"comm\":\"y\"}\n"
		"{\"type\":\"check\",\"pid\":20,\"start_ns\":5,\"exec_id\":1,\"cap\":0,\"ret\":0,"
		"\"count\":2,\"syscall\":92}\n" END5(1);
	struct record a, b;
	struct report rep;
	struct report_opts o = { 0 };
	char err[256] = "";
	size_t i;
	int seen = 0;

	ASSERT_EQ(read_text(arm, &a, err, sizeof(err)), 0);
	ASSERT_EQ(read_text(x86, &b, err, sizeof(err)), 0);
	ASSERT_EQ(record_merge(&a, &b, err, sizeof(err)), 0);
	ASSERT_STR(a.hdr.arch, REC_ARCH_MIXED);
	ASSERT_STR(a.inputs[0].hdr.arch, "arm64");
	ASSERT_STR(a.inputs[1].hdr.arch, "x86_64");
	ASSERT_EQ(report_build(&a, &o, &rep), 0);
	for (i = 0; i < rep.nprocs; i++) {
		const struct cap_row *cr = &rep.procs[i].caps[0];

		if (rep.procs[i].ncaps != 1 || cr->nsys != 1)
			continue;
		if (!strcmp(rep.procs[i].proc->comm, "x") && cr->sys[0].nr == 54 &&
		    !strcmp(cr->sys[0].name, "fchownat"))
			seen |= 1;
		if (!strcmp(rep.procs[i].proc->comm, "y") && cr->sys[0].nr == 92 &&
		    !strcmp(cr->sys[0].name, "chown"))
			seen |= 2;
	}
	ASSERT_EQ(seen, 3);
	report_free(&rep);
	record_free(&b);
	record_free(&a);
}
