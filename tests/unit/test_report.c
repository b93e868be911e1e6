// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "analyze/report.h"
#include "test.h"
#include "lib/util.h"

static void add_check(struct record *r, uint32_t pid, int cap, int ret, uint64_t count,
		      int sys, const char *const *frames, size_t n)
{
	struct rec_check *c = record_add_check(r);
	c->pid = pid;
	c->cap = cap;
	c->ret = ret;
	c->count = count;
	c->syscall = sys;
	c->init_ns = true;
	c->comm = record_intern(r, "t", 1);
	c->stack = test_stack(r, frames, n);
}

static const char *const bpf_check_a[] = { "cap_capable+0x83", "security_capable+0x3b",
	"ns_capable+0x2d", "bpf_token_capable+0x22", "bpf_check+0x124" };
static const char *const bpf_check_b[] = { "cap_capable+0x83", "security_capable+0x3b",
	"ns_capable+0x2d", "bpf_token_capable+0x22", "bpf_check+0x546" };
static const char *const map_create[] = { "cap_capable+0x83", "security_capable+0x3b",
	"ns_capable+0x2d", "bpf_token_capable+0x22", "map_create+0x28d" };
static const char *const vm_enough[] = { "cap_capable+0x83",
	"security_vm_enough_memory_mm+0x36", "do_mmap+0x494" };

static void make_record(struct record *r)
{
	memset(r, 0, sizeof(*r));
	r->hdr.kernel = xstrdup("6.18");
	r->hdr.attach = xstrdup("tp_btf");
	record_add_process(r, 20, 0, 0)->comm = xstrdup("b");
	record_add_process(r, 10, 0, 0)->comm = xstrdup("a");
	add_check(r, 10, 38, 0, 2, 321, bpf_check_a, 5);
	add_check(r, 10, 38, 0, 3, 321, bpf_check_b, 5);
	add_check(r, 10, 39, -1, 1, 321, map_create, 5);
	add_check(r, 10, 39, 0, 4, 321, map_create, 5);
	add_check(r, 10, 21, 0, 9, 9, vm_enough, 3);
	add_check(r, 20, 21, 0, 5, 12, vm_enough, 3);
}

TEST(report_groups_offsets_of_one_function_into_one_call_site)
{
	struct record r;
	struct report rep;
	struct report_opts o = { 0 };
	const struct proc_row *pr;

	make_record(&r);
	ASSERT_EQ(report_build(&r, &o, &rep), 0);
	ASSERT_EQ(rep.nprocs, 2);
	pr = &rep.procs[0];
	ASSERT_EQ(pr->proc->pid, 10);  /* sorted by pid */
	ASSERT_EQ(pr->ncaps, 2);       /* 38 and 39; noaudit 21 hidden */
	ASSERT_EQ(pr->caps[0].cap, 38);
	ASSERT_U64(pr->caps[0].granted, 5);
	ASSERT_EQ(pr->caps[0].nsites, 1);
	ASSERT_STR(pr->caps[0].sites[0].func, "bpf_check");
	ASSERT_EQ(pr->caps[1].cap, 39);
	ASSERT_U64(pr->caps[1].granted, 4);
	ASSERT_U64(pr->caps[1].denied, 1);
	ASSERT_STR(pr->caps[1].sites[0].func, "map_create");
	ASSERT_EQ(pr->caps[1].nsys, 1);
	ASSERT_EQ(pr->caps[1].sys[0].nr, 321);
	ASSERT_U64(pr->caps[1].sys[0].count, 5);
	ASSERT_U64(pr->hidden, 9);
	ASSERT_U64(rep.hidden_checks, 14);
	ASSERT_U64(rep.total_checks, 24);
	ASSERT_U64(rep.required, (1ULL << 38) | (1ULL << 39));
	ASSERT_U64(rep.denied, 1ULL << 39);
	report_free(&rep);
	record_free(&r);
}

TEST(report_all_shows_noaudit_but_never_requires_it)
{
	struct record r;
	struct report rep;
	struct report_opts o = { .noaudit = true };

	make_record(&r);
	report_build(&r, &o, &rep);
	ASSERT_EQ(rep.procs[0].ncaps, 3);
	ASSERT_EQ(rep.procs[0].caps[2].cap, 21);  /* noaudit rows sort last */
	ASSERT_TRUE(rep.procs[0].caps[2].noaudit);
	ASSERT_EQ(rep.procs[0].caps[2].noaudit_by, NOAUDIT_CALLER);
	ASSERT_U64(rep.hidden_checks, 0);
	ASSERT_FALSE(rep.required & (1ULL << 21));
	report_free(&rep);
	record_free(&r);
}

TEST(report_opts_override_the_stack_rule)
{
	struct record r;
	struct report rep;
	struct report_opts o = { 0 };

	make_record(&r);
	/* fexit/kprobe saw opts: an audited vm_enough check is a real one */
	r.checks[4].opts_known = true;
	r.checks[4].opt_noaudit = false;
	r.checks[0].opts_known = true;
	r.checks[0].opt_noaudit = true;
	ASSERT_EQ(check_noaudit(&r, &r.checks[4]), NOAUDIT_NO);
	ASSERT_EQ(check_noaudit(&r, &r.checks[0]), NOAUDIT_OPTS);
	report_build(&r, &o, &rep);
	ASSERT_TRUE(rep.required & (1ULL << 21));
	ASSERT_EQ(rep.procs[0].caps[0].cap, 21);
	ASSERT_FALSE(rep.procs[0].caps[0].noaudit);
	ASSERT_U64(rep.procs[0].caps[0].granted, 9);
	ASSERT_EQ(rep.procs[0].caps[1].cap, 38);
	ASSERT_U64(rep.procs[0].caps[1].granted, 3);  /* CAP_PERFMON minus the noaudit one */
	report_free(&rep);
	record_free(&r);
}

TEST(report_process_without_checks_is_listed)
{
	struct record r = { 0 };
	struct report rep;
	struct report_opts o = { 0 };

	record_add_process(&r, 5, 0, 0)->comm = xstrdup("true");
	report_build(&r, &o, &rep);
	ASSERT_EQ(rep.nprocs, 1);
	ASSERT_EQ(rep.procs[0].ncaps, 0);
	ASSERT_U64(rep.required, 0);
	report_free(&rep);
	record_free(&r);
}

TEST(report_keeps_program_images_of_one_pid_apart)
{
	struct record r = { 0 };
	struct report rep;
	struct report_opts o = { 0 };

	/* setpriv (exec 1) drops privileges, then execs chown (exec 2) */
	record_add_process(&r, 7, 0, 2)->comm = xstrdup("chown");
	record_add_process(&r, 7, 0, 1)->comm = xstrdup("setpriv");
	add_check(&r, 7, 7, 0, 1, 117, map_create, 5);
	r.checks[0].exec_id = 1;
	add_check(&r, 7, 0, -1, 1, 260, map_create, 5);
	r.checks[1].exec_id = 2;
	report_build(&r, &o, &rep);
	ASSERT_EQ(rep.nprocs, 2);
	ASSERT_STR(rep.procs[0].proc->comm, "setpriv");
	ASSERT_EQ(rep.procs[0].ncaps, 1);
	ASSERT_EQ(rep.procs[0].caps[0].cap, 7);
	ASSERT_STR(rep.procs[1].proc->comm, "chown");
	ASSERT_EQ(rep.procs[1].caps[0].cap, 0);
	ASSERT_U64(rep.procs[1].caps[0].denied, 1);
	report_free(&rep);
	record_free(&r);
}

/* Counts read from a file are each at most INT64_MAX; sums of them
 * saturate (never wrap), and JSON never shows a negative count. */
TEST(report_sums_saturate)
{
	struct record r = { 0 };
	struct report rep;
	struct report_opts o = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	r.hdr.kernel = xstrdup("6.18");
	r.hdr.attach = xstrdup("tp_btf");
	record_add_process(&r, 10, 0, 0)->comm = xstrdup("a");
	add_check(&r, 10, 39, 0, INT64_MAX, 1, map_create, 5);
	add_check(&r, 10, 39, 0, INT64_MAX, 2, map_create, 5);
	add_check(&r, 10, 39, 0, INT64_MAX, 3, map_create, 5);
	report_build(&r, &o, &rep);
	ASSERT_EQ(rep.procs[0].ncaps, 1);
	ASSERT_U64(rep.procs[0].caps[0].granted, UINT64_MAX);
	ASSERT_U64(rep.total_checks, UINT64_MAX);
	f = open_memstream(&buf, &len);
	ASSERT_EQ(output_json.report(f, &rep, "t.jsonl"), 0);
	fclose(f);
	ASSERT_HAS(buf, "\"granted\": 9223372036854775807");
	ASSERT_TRUE(!strstr(buf, "\"granted\": -"));
	ASSERT_HAS(buf, "\"total_checks\": 9223372036854775807");
	free(buf);
	report_free(&rep);
	record_free(&r);
}
