// SPDX-License-Identifier: GPL-2.0
/* report --fleet's grouping and stability (analyze/fleet.c) on synthetic
 * records: hosts and processes per build, monitor runs, records folded out
 * of time order, a record without a host, two builds of one path. */
#include <stdlib.h>
#include <string.h>

#include "analyze/fleet.h"
#include "facts/capnames.h"
#include "recfile/recfile.h"
#include "test.h"

/* a checkpoint of HOST's monitor run started at SINCE, written at END */
#define MON(host, since, end)                                                          \
	"{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":5,"           \
	"\"kernel\":\"6.12.0\"" host ",\"attach\":\"tp_btf\",\"scope\":\"monitor\","   \
	"\"start_ns\":" #since ",\"end_ns\":" #end ",\"monitor\":{\"interval\":60,"    \
	"\"checkpoint\":1,\"since_ns\":" #since "}}\n"
#define PLAIN(start, end)                                                              \
	"{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":5,"           \
	"\"kernel\":\"6.12.0\",\"attach\":\"tp_btf\",\"scope\":\"all\","               \
	"\"start_ns\":" #start ",\"end_ns\":" #end "}\n"
#define PROC(pid, build, pids)                                                         \
	"{\"type\":\"process\",\"pid\":" #pid ",\"start_ns\":1,\"exec_id\":0,"        \
	"\"ppid\":0,\"uid\":0,\"comm\":\"x\",\"exe\":\"/bin/x\",\"build_id\":\"" build \
	"\"" pids "}\n"
#define STACKS                                                                         \
	"{\"type\":\"stack\",\"id\":0,\"frames\":[\"cap_capable+0x5\",\"chown_common+0x1c\"]}\n" \
	"{\"type\":\"stack\",\"id\":1,\"frames\":[\"cap_capable+0x5\",\"kill_ok_by_cred+0x1c\"]}\n"
#define CHECK(pid, cap, stack, first, last)                                            \
	"{\"type\":\"check\",\"pid\":" #pid ",\"start_ns\":1,\"exec_id\":0,"          \
	"\"comm\":\"x\",\"cap\":" #cap ",\"ret\":0,\"count\":1,\"stack\":" #stack      \
	",\"first_ns\":" #first ",\"last_ns\":" #last "}\n"
#define END(p, c) "{\"type\":\"end\",\"processes\":" #p ",\"stacks\":2,\"checks\":" #c "}\n"

#define HOST_A ",\"host\":\"a\""
#define HOST_B ",\"host\":\"b\""

/* host a, run 1: CAP_CHOWN at 2000, CAP_KILL too at 4000; run 2 (restarted) */
static const char a1[] = MON(HOST_A, 1000, 2000) PROC(9, "aa", ",\"pids\":2") STACKS
	CHECK(9, 0, 0, 1500, 1600) END(1, 1);
static const char a2[] = MON(HOST_A, 1000, 4000) PROC(9, "aa", ",\"pids\":3") STACKS
	CHECK(9, 0, 0, 1500, 3500) CHECK(9, 5, 1, 3900, 3950) END(1, 2);
static const char a3[] = MON(HOST_A, 5000, 6000) PROC(9, "aa", ",\"pids\":4") STACKS
	CHECK(9, 0, 0, 5100, 5900) END(1, 1);
/* host b: the same build, and another build of the same path */
static const char b1[] = MON(HOST_B, 500, 3000) PROC(9, "aa", ",\"pids\":1")
	PROC(10, "bb", ",\"pids\":1") STACKS CHECK(9, 0, 0, 900, 950)
	CHECK(10, 0, 0, 800, 2900) END(2, 2);
/* a record from before headers named their host; a plain process line */
static const char old[] = PLAIN(2400, 2500) PROC(9, "aa", "") STACKS
	CHECK(9, 0, 0, 2410, 2420) END(1, 1);

static int fold(struct fleet *f, const char *name, const char *text)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	char err[512] = "";
	struct record r;
	int rc;

	if (!in)
		return -1;
	rc = recfile_read_opts(in, name, &r, NULL, err, sizeof(err));
	fclose(in);
	if (rc) {
		printf("#   %s: %s\n", name, err);
		return rc;
	}
	fleet_add(f, &r, name);
	record_free(&r);
	return 0;
}

static const struct fleet_ident *build(const struct fleet *f, const char *id)
{
	size_t i;

	for (i = 0; i < f->nids; i++)
		if (!strcmp(f->ids[i].build_id, id))
			return &f->ids[i];
	return NULL;
}

TEST(fleet_counts_hosts_runs_and_dates_the_set_over_records_out_of_order)
{
	const struct fleet_ident *aa, *bb;
	struct fleet f;

	fleet_init(&f);
	/* out of time order: the view orders them */
	if (fold(&f, "a2.jsonl", a2) || fold(&f, "b1.jsonl", b1) || fold(&f, "old.jsonl", old) ||
	    fold(&f, "a3.jsonl", a3) || fold(&f, "a1.jsonl", a1)) {
		FAIL_AT("fixture records do not read");
		fleet_free(&f);
		return;
	}
	fleet_finish(&f);
	ASSERT_EQ(f.nfiles, 5);
	ASSERT_EQ(f.nhosts, 3);
	ASSERT_STR(f.hosts[2], "old.jsonl");   /* named by its file */
	ASSERT_TRUE(f.host_from_file[2] && !f.host_from_file[0]);
	ASSERT_EQ(f.nids, 2);
	aa = build(&f, "aa");
	bb = build(&f, "bb");
	ASSERT_TRUE(aa && bb);
	if (!aa || !bb) {
		fleet_free(&f);
		return;
	}
	/* a: run 1's latest (3) + run 2 (4); b: 1; old: 1 */
	ASSERT_EQ(aa->nhosts, 3);
	ASSERT_U64(aa->pids, 9);
	ASSERT_EQ(aa->nfiles, 5);
	ASSERT_U64(aa->required, CAP_BIT(0) | CAP_BIT(5));
	ASSERT_EQ(aa->first_ns, 900);   /* b's check */
	ASSERT_EQ(aa->last_ns, 5900);
	/* first record a1 (2000); CAP_KILL first in a2 (4000): stable since */
	ASSERT_EQ(aa->first_at_ns, 2000);
	ASSERT_EQ(aa->stable_ns, 4000);
	ASSERT_STR(f.hosts[aa->stable_host], "a");
	ASSERT_STR(f.files[aa->stable_file], "a2.jsonl");
	ASSERT_EQ(aa->nchanges, 1);
	ASSERT_U64(aa->changes[0].added, CAP_BIT(5));
	ASSERT_EQ(aa->nbuilds, 2);
	/* the other build: b only, never changed */
	ASSERT_EQ(bb->nhosts, 1);
	ASSERT_U64(bb->pids, 1);
	ASSERT_U64(bb->required, CAP_BIT(0));
	ASSERT_EQ(bb->stable_ns, 3000);
	ASSERT_EQ(bb->nchanges, 0);
	ASSERT_EQ(bb->nbuilds, 2);
	ASSERT_EQ(f.first_ns, 500);
	ASSERT_EQ(f.last_ns, 6000);
	fleet_free(&f);
}

/* CAP_SYS_ADMIN at alloc_pid (clone3 with set_tid), which the kernel also
 * accepts CAP_CHECKPOINT_RESTORE for: the build's replacement */
static const char c1[] = MON(HOST_A, 1000, 2000)
	"{\"type\":\"process\",\"pid\":9,\"start_ns\":1,\"exec_id\":0,\"ppid\":0,\"uid\":0,"
	"\"comm\":\"y\",\"exe\":\"/bin/y\",\"build_id\":\"cc\",\"pids\":1}\n"
	"{\"type\":\"stack\",\"id\":0,\"frames\":[\"cap_capable+0x83\",\"security_capable+0x3b\","
	"\"ns_capable+0x2d\",\"alloc_pid+0x1bc\",\"copy_process+0x1234\",\"kernel_clone+0x99\","
	"\"__do_sys_clone3+0x1f0\",\"do_syscall_64+0x71\"]}\n"
	"{\"type\":\"stack\",\"id\":1,\"frames\":[\"cap_capable+0x5\"]}\n"
	CHECK(9, 21, 0, 1500, 1600) END(1, 1);

TEST(fleet_names_a_builds_narrower_replacement)
{
	const struct fleet_ident *cc;
	struct fleet f;

	fleet_init(&f);
	if (fold(&f, "c1.jsonl", c1)) {
		FAIL_AT("fixture record does not read");
		fleet_free(&f);
		return;
	}
	fleet_finish(&f);
	cc = build(&f, "cc");
	ASSERT_TRUE(cc != NULL);
	if (cc) {
		ASSERT_U64(cc->required, CAP_BIT(40));
		ASSERT_EQ(cc->nrepl, 1);
		ASSERT_EQ(cc->nrepl ? cc->repl[0].replace : -1, 21);
		ASSERT_EQ(cc->nrepl ? cc->repl[0].with : -1, 40);
	}
	fleet_free(&f);
}
