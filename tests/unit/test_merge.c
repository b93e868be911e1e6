// SPDX-License-Identifier: GPL-2.0
/* record_merge (recfile/merge.c): records of many nodes read as one, and
 * what report makes of a merge. */
#include <stdlib.h>

#include "analyze/report.h"
#include "output/output.h"
#include "recfile/recfile.h"
#include "test.h"
#include "lib/util.h"

#define HDR4(kernel, extra) \
	"{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":4," \
	"\"kernel\":\"" kernel "\",\"attach\":\"fexit\",\"scope\":\"all\",\"start_ns\":1000," \
	"\"end_ns\":2000" extra "}\n"
#define PROC4(pid, ppid, start, comm) \
	"{\"type\":\"process\",\"pid\":" #pid ",\"start_ns\":" #start ",\"exec_id\":1," \
	"\"ppid\":" #ppid ",\"uid\":0,\"comm\":\"" comm "\",\"exe\":\"/bin/" comm "\"}\n"
#define CHECK4(pid, start, cap, count, stack) \
	"{\"type\":\"check\",\"pid\":" #pid ",\"start_ns\":" #start ",\"exec_id\":1," \
	"\"comm\":\"x\",\"cap\":" #cap ",\"ret\":0,\"count\":" #count ",\"stack\":" #stack "}\n"
#define STACK(id, site) \
	"{\"type\":\"stack\",\"id\":" #id ",\"frames\":[\"cap_capable+0x5\"," \
	"\"ns_capable+0x10\",\"" site "+0x1c\"]}\n"
#define END4(p, s, c) \
	"{\"type\":\"end\",\"processes\":" #p ",\"stacks\":" #s ",\"checks\":" #c "}\n"

/* text read strictly as the file name */
static int load(const char *name, const char *text, struct record *r)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char err[512] = "";
	int rc;

	if (!f)
		return -2;
	rc = recfile_read_opts(f, name, r, NULL, err, sizeof(err));
	fclose(f);
	if (rc)
		printf("#   %s: %s\n", name, err);
	return rc;
}

static uint64_t total_count(const struct record *r)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < r->nchecks; i++)
		n += r->checks[i].count;
	return n;
}

/* node A: pid 100 and its child 101; node B: the same pid 100 (the same
 * start too: another host's), its child 101, and a pid 200 A lacks */
static const char node_a[] =
	HDR4("6.12.0", ",\"checks\":5") PROC4(100, 1, 5000, "nginx") PROC4(101, 100, 5001, "worker")
	STACK(0, "inet_bind_sk") STACK(1, "chown_common")
	CHECK4(100, 5000, 10, 2, 0) CHECK4(101, 5001, 0, 3, 1) END4(2, 2, 2);
static const char node_b[] =
	HDR4("6.1.0", ",\"checks\":8") PROC4(100, 1, 5000, "nginx") PROC4(101, 100, 5001, "worker")
	PROC4(200, 101, 6000, "helper")
	STACK(0, "chown_common")
	CHECK4(100, 5000, 0, 4, 0) CHECK4(101, 5001, 0, 1, 0) CHECK4(200, 6000, 0, 3, 0)
	END4(3, 1, 3);

TEST(merge_renumbers_colliding_pids_with_their_checks_and_children)
{
	struct record a, b;
	struct rec_process *p100, *p101, *p200;
	char err[512] = "";
	size_t i;

	if (load("a.jsonl", node_a, &a) || load("b.jsonl", node_b, &b)) {
		FAIL_AT("fixture records do not read");
		return;
	}
	ASSERT_EQ(record_merge(&a, &b, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(a.nprocs, 5);
	ASSERT_EQ(a.nchecks, 5);
	ASSERT_EQ(a.ninputs, 2);
	ASSERT_STR(a.inputs[0].name, "a.jsonl");
	ASSERT_STR(a.inputs[1].name, "b.jsonl");
	ASSERT_EQ(a.inputs[1].renumbered, 2);   /* 100 and 101; 200 is free */
	ASSERT_EQ(b.nprocs, 0);                  /* src is left empty */
	/* A's own keep their pids */
	ASSERT_TRUE(record_find_process(&a, 100, 5000, 1) && record_find_process(&a, 100, 5000, 1)->input == 0);
	p100 = &a.procs[2];
	p101 = &a.procs[3];
	p200 = &a.procs[4];
	ASSERT_EQ(p100->input, 1);
	ASSERT_TRUE(p100->pid > 200 && p101->pid > 200 && p100->pid != p101->pid);
	ASSERT_EQ(rec_process_file_pid(&a, p100), 100);
	ASSERT_EQ(rec_process_file_pid(&a, p101), 101);
	ASSERT_EQ(p101->ppid, p100->pid);         /* its parent, renumbered with it */
	ASSERT_EQ(rec_process_file_ppid(&a, p101), 100);
	ASSERT_EQ(p200->pid, 200);
	ASSERT_EQ(p200->ppid, p101->pid);
	ASSERT_EQ(p100->ppid, 1);                 /* not a process of B: as it was */
	ASSERT_STR(rec_process_input(&a, p200), "b.jsonl");
	/* every check finds its own node's process */
	for (i = 0; i < a.nchecks; i++) {
		const struct rec_process *p = check_process(&a, &a.checks[i]);

		ASSERT_TRUE(p != NULL);
		if (p)
			ASSERT_EQ(p->input, i < 2 ? 0 : 1);
	}
	ASSERT_TRUE(check_process(&a, &a.checks[2]) == p100);
	ASSERT_U64(a.checks[2].count, 4);
	ASSERT_EQ(record_count_reused_pids(&a), 0);
	record_free(&b);
	record_free(&a);
}

TEST(merge_shifts_stack_indexes_and_interns_call_sites_once)
{
	struct record a, b;
	char err[512] = "";

	if (load("a.jsonl", node_a, &a) || load("b.jsonl", node_b, &b)) {
		FAIL_AT("fixture records do not read");
		return;
	}
	ASSERT_EQ(record_merge(&a, &b, err, sizeof(err)), 0);
	ASSERT_EQ(a.nstacks, 3);
	ASSERT_EQ(a.checks[2].stack, 2);   /* B's stack 0 */
	ASSERT_EQ(a.checks[4].stack, 2);
	ASSERT_STR(check_stack(&a, &a.checks[2])->frames[2], "chown_common+0x1c");
	/* one name, one pointer: the analyses key call sites by it */
	ASSERT_TRUE(a.stacks[2].site_func == a.stacks[1].site_func);
	ASSERT_STR(a.stacks[2].site_func, "chown_common");
	ASSERT_TRUE(a.checks[2].comm == a.checks[0].comm);
	record_free(&b);
	record_free(&a);
}

TEST(merge_sums_counts_and_losses_keeps_the_first_identity)
{
	static const char lossy_a[] =
		HDR4("6.12.0", ",\"checks\":10,\"syscall_results\":true,\"machine\":\"x86_64\","
		     "\"argv\":[\"capaudit\",\"record\",\"-a\"],\"target\":{\"unit\":\"cron.service\"},"
		     "\"lost\":{\"map_full\":3,\"ringbuf_full\":1,\"stack_errors\":0,\"proc_full\":0,"
		     "\"result_lost\":0,\"hook_skipped\":0},"
		     "\"overflow\":[{\"cap\":21,\"denied\":false,\"count\":5}],"
		     "\"pids_reused\":1,\"aggregation\":{\"drains\":2,\"max_keys\":100}")
		PROC4(100, 1, 5000, "cron") CHECK4(100, 5000, 6, 2, null) END4(1, 0, 1);
	static const char lossy_b[] =
		"{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":3,"
		"\"kernel\":\"5.15.0\",\"attach\":\"kprobe\",\"scope\":\"unit\",\"start_ns\":500,"
		"\"end_ns\":1500,\"checks\":20,\"syscall_results\":false,"
		"\"argv\":[\"capaudit\",\"record\",\"--unit\",\"x\"],"
		"\"lost\":{\"map_full\":2,\"ringbuf_full\":0,\"stack_errors\":4,\"proc_full\":0,"
		"\"result_lost\":0,\"hook_skipped\":7},"
		"\"overflow\":[{\"cap\":21,\"denied\":false,\"count\":1},"
		"{\"cap\":12,\"denied\":true,\"count\":2}],"
		"\"aggregation\":{\"drains\":3,\"max_keys\":400}}\n"
		PROC4(300, 1, 5000, "x") CHECK4(300, 5000, 6, 7, null) END4(1, 0, 1);
	struct record a, b;
	char err[512] = "";

	if (load("a.jsonl", lossy_a, &a) || load("b.jsonl", lossy_b, &b)) {
		FAIL_AT("fixture records do not read");
		return;
	}
	ASSERT_EQ(record_merge(&a, &b, err, sizeof(err)), 0);
	ASSERT_U64(a.hdr.checks, 30);
	ASSERT_U64(a.hdr.lost.map_full, 5);
	ASSERT_U64(a.hdr.lost.ringbuf_full, 1);
	ASSERT_U64(a.hdr.lost.stack_errors, 4);
	ASSERT_U64(a.hdr.lost.hook_skipped, 7);
	ASSERT_U64(rec_lost_total(&a.hdr.lost), 17);
	ASSERT_EQ(a.hdr.noverflow, 2);
	ASSERT_EQ(a.hdr.overflow[0].cap, 21);
	ASSERT_U64(a.hdr.overflow[0].count, 6);
	ASSERT_EQ(a.hdr.overflow[1].cap, 12);
	ASSERT_TRUE(a.hdr.overflow[1].denied);
	ASSERT_U64(a.hdr.overflow[1].count, 2);
	ASSERT_U64(a.hdr.pids_reused, 1);
	ASSERT_U64(a.hdr.agg_drains, 5);
	ASSERT_EQ(a.hdr.agg_keys, 400);
	/* how much the record knows: the least of them */
	ASSERT_EQ(a.hdr.version, 3);
	ASSERT_FALSE(a.hdr.syscall_results);
	ASSERT_EQ(a.hdr.start_ns, 500);
	ASSERT_EQ(a.hdr.end_ns, 2000);
	/* identity: the first's; a target only if every input had it */
	ASSERT_STR(a.hdr.kernel, "6.12.0");
	ASSERT_STR(a.hdr.attach, "fexit");
	ASSERT_STR(a.hdr.argv[2], "-a");
	ASSERT_TRUE(a.hdr.target_unit == NULL);
	ASSERT_STR(record_oldest_kernel(&a), "5.15.0");
	/* each input keeps what its header said */
	ASSERT_STR(a.inputs[0].hdr.target_unit, "cron.service");
	ASSERT_U64(a.inputs[0].hdr.lost.map_full, 3);
	ASSERT_U64(a.inputs[1].hdr.lost.map_full, 2);
	ASSERT_STR(a.inputs[1].hdr.attach, "kprobe");
	ASSERT_EQ(a.inputs[1].hdr.version, 3);
	ASSERT_U64(total_count(&a), 9);
	record_free(&b);
	record_free(&a);
}

/* capaudit monitor's lines: pid 2^30 + n in every file */
#define MON_HDR "{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":4," \
	"\"kernel\":\"6.12.0\",\"attach\":\"fexit\",\"scope\":\"monitor\",\"start_ns\":1000," \
	"\"end_ns\":2000,\"monitor\":{\"interval\":60,\"checkpoint\":1,\"since_ns\":1000}}\n"
#define MON_PROC(n, comm, pids) \
	"{\"type\":\"process\",\"pid\":" #n ",\"start_ns\":1000,\"exec_id\":0,\"ppid\":0," \
	"\"uid\":0,\"comm\":\"" comm "\",\"exe\":\"/usr/sbin/" comm "\",\"pids\":" #pids "}\n"
#define MON_CHECK(n, cap, count) \
	"{\"type\":\"check\",\"pid\":" #n ",\"start_ns\":1000,\"exec_id\":0,\"comm\":\"x\"," \
	"\"cap\":" #cap ",\"ret\":0,\"count\":" #count ",\"stack\":0}\n"

TEST(merge_two_monitor_records_keep_their_programs_apart)
{
	static const char mon1[] = MON_HDR MON_PROC(1073741824, "nginx", 3)
		MON_PROC(1073741825, "cron", 1) STACK(0, "inet_bind_sk")
		MON_CHECK(1073741824, 10, 5) MON_CHECK(1073741825, 6, 1) END4(2, 1, 2);
	static const char mon2[] = MON_HDR MON_PROC(1073741824, "nginx", 7) STACK(0, "inet_bind_sk")
		MON_CHECK(1073741824, 10, 2) END4(1, 1, 1);
	struct report_opts ro = { 0 };
	struct record a, b;
	struct report rep;
	char err[512] = "", *buf = NULL;
	size_t len = 0, i, nginx = 0;
	FILE *m;

	if (load("node1.jsonl", mon1, &a) || load("node2.jsonl", mon2, &b)) {
		FAIL_AT("fixture records do not read");
		return;
	}
	ASSERT_EQ(record_merge(&a, &b, err, sizeof(err)), 0);
	ASSERT_EQ(a.nprocs, 3);
	ASSERT_TRUE(a.procs[2].pid != 1073741824 && a.procs[2].pid != 1073741825);
	report_build(&a, &ro, &rep);
	ASSERT_EQ(rep.nprocs, 3);
	for (i = 0; i < rep.nprocs; i++) {
		const struct proc_row *pr = &rep.procs[i];

		if (strcmp(pr->proc->comm, "nginx"))
			continue;
		nginx++;
		ASSERT_EQ(pr->ncaps, 1);
		/* each line its own count and its own number of processes */
		ASSERT_U64(pr->caps[0].granted, pr->proc->input ? 2 : 5);
		ASSERT_U64(pr->proc->pids, pr->proc->input ? 7 : 3);
	}
	ASSERT_EQ(nginx, 2);
	ASSERT_U64(rep.total_checks, 8);
	m = open_memstream(&buf, &len);
	output_text.report(m, &rep, "node1.jsonl, node2.jsonl");
	fclose(m);
	ASSERT_HAS(buf, "Records: 2 (node1.jsonl, node2.jsonl)\n  node1.jsonl: kernel 6.12.0");
	ASSERT_HAS(buf, "\nPROGRAM nginx  /usr/sbin/nginx  (3 processes, uid 0)  [node1.jsonl]\n");
	ASSERT_HAS(buf, "\nPROGRAM nginx  /usr/sbin/nginx  (7 processes, uid 0)  [node2.jsonl]\n");
	free(buf);
	report_free(&rep);
	record_free(&b);
	record_free(&a);
}

TEST(merge_of_a_record_with_itself_doubles_its_counts)
{
	struct record a, b;
	char err[512] = "";

	if (load("a.jsonl", node_a, &a) || load("a.jsonl", node_a, &b)) {
		FAIL_AT("fixture records do not read");
		return;
	}
	ASSERT_EQ(record_merge(&a, &b, err, sizeof(err)), 0);
	ASSERT_EQ(a.nprocs, 4);
	ASSERT_EQ(a.nchecks, 4);
	ASSERT_U64(total_count(&a), 10);
	ASSERT_U64(a.hdr.checks, 10);
	ASSERT_EQ(a.inputs[1].renumbered, 2);
	record_free(&b);
	record_free(&a);
}

TEST(merge_refuses_records_of_other_unit_files)
{
	static const char svc_a[] = HDR4("6.12.0", ",\"target\":{\"service\":\"/etc/a.service\","
		"\"uid\":0,\"bounding\":[\"CAP_CHOWN\"],\"ambient\":[]}")
		PROC4(100, 1, 5000, "a") END4(1, 0, 0);
	static const char svc_b[] = HDR4("6.12.0", ",\"target\":{\"service\":\"/etc/a.service\","
		"\"uid\":0,\"bounding\":[\"CAP_CHOWN\",\"CAP_SETUID\"],\"ambient\":[]}")
		PROC4(100, 1, 5000, "a") END4(1, 0, 0);
	struct record a, b, c;
	char err[512] = "";

	if (load("a.jsonl", svc_a, &a) || load("b.jsonl", svc_b, &b) ||
	    load("c.jsonl", node_b, &c)) {
		FAIL_AT("fixture records do not read");
		return;
	}
	ASSERT_EQ(record_merge(&a, &b, err, sizeof(err)), -1);
	ASSERT_HAS(err, "b.jsonl: cannot be merged with a.jsonl");
	/* nothing moved */
	ASSERT_EQ(a.nprocs, 1);
	ASSERT_EQ(b.nprocs, 1);
	ASSERT_EQ(a.ninputs, 0);
	err[0] = '\0';
	ASSERT_EQ(record_merge(&a, &c, err, sizeof(err)), -1);   /* not a --service record */
	ASSERT_HAS(err, "c.jsonl: cannot be merged");
	record_free(&a);
	record_free(&b);
	record_free(&c);
}
