// SPDX-License-Identifier: GPL-2.0
/* report --by container|unit|cgroup and the --container / --unit filter
 * (analyze/attrib.c, report.c), on tests/fixtures/workloads-v4.jsonl: two
 * podman containers (web: runc's setup, nginx x2, sh then entry; db:
 * postgres), cron.service (cron x2), ip in a login session, true with no
 * cgroup. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/attrib.h"
#include "analyze/report.h"
#include "analyze/suggest.h"
#include "facts/capnames.h"
#include "lib/util.h"
#include "test.h"

#define WEB "3f1c9a7e5b2d4c6f8a0e1b3d5f7a9c2e4b6d8f0a1c3e5a7b9d1f3b5d7e9a0c2e"
#define DB  "3f1d08b6e4c2a0f8d6b4a2c0e8f6d4b2a0c8e6f4d2b0a8c6e4f2d0b8a6c4e2f0"

static void load(struct record *r)
{
	char err[512];

	memset(r, 0, sizeof(*r));
	if (recfile_load(fixture("workloads-v4.jsonl"), r, err, sizeof(err)))
		FAIL_AT("%s", err);
}

static uint64_t caps2(int a, int b)
{
	return 1ULL << a | 1ULL << b;
}

TEST(by_container_one_block_per_container_host_last)
{
	struct report_opts o = { .by = BY_CONTAINER };
	const struct wl_block *b;
	struct report rep;
	struct record r;

	load(&r);
	report_build(&r, &o, &rep);
	ASSERT_EQ(rep.nblocks, 3);
	b = &rep.blocks[0];          /* by name: db before web */
	ASSERT_STR(b->label, "db");
	ASSERT_EQ(b->no_cgroup, 0);
	ASSERT_STR(b->key, DB);
	ASSERT_EQ(b->npids, 1);
	ASSERT_U64(b->checks, 2);
	ASSERT_U64(b->required, 1ULL << CAP_CHOWN);
	ASSERT_U64(b->denied, 1ULL << CAP_FOWNER);
	b = &rep.blocks[1];
	ASSERT_STR(b->label, "web");
	ASSERT_STR(b->proc->container_runtime, "podman");
	ASSERT_EQ(b->npids, 3);      /* pid 103's two images are one process;
				      * runc (pid 100) is not the container */
	ASSERT_EQ(b->nrows, 4);
	ASSERT_U64(b->checks, 7);    /* nor are runc's 6 CAP_SYS_ADMIN */
	ASSERT_U64(b->required, caps2(CAP_SETUID, CAP_SETGID) | caps2(CAP_NET_BIND_SERVICE,
								     CAP_DAC_OVERRIDE));
	b = &rep.blocks[2];
	ASSERT_TRUE(b->key == NULL && b->label == NULL);
	ASSERT_EQ(b->npids, 4);
	ASSERT_EQ(b->no_cgroup, 1);  /* true: where it ran was not resolved */
	ASSERT_U64(b->checks, 11);
	ASSERT_U64(b->hidden, 5);    /* ip's noaudit CAP_SYS_ADMIN */
	report_free(&rep);
	record_free(&r);
}

TEST(by_container_one_row_per_program_with_its_processes)
{
	struct report_opts o = { .by = BY_CONTAINER };
	const struct proc_row *pr;
	struct report rep;
	struct record r;

	load(&r);
	report_build(&r, &o, &rep);
	ASSERT_EQ(rep.nprocs, 8);
	pr = &rep.procs[rep.blocks[1].first];   /* web, programs by path */
	ASSERT_STR(pr[0].program, "/bin/sh");
	ASSERT_EQ(pr[0].npids, 1);
	ASSERT_EQ(pr[0].ncaps, 0);
	ASSERT_STR(pr[1].program, "/usr/sbin/nginx");
	ASSERT_EQ(pr[1].npids, 2);
	ASSERT_U64(pr[1].checks, 4);
	ASSERT_EQ(pr[1].ncaps, 3);   /* both processes' checks in one row */
	ASSERT_STR(pr[2].program, "entry");   /* no exe: its comm */
	ASSERT_TRUE(pr[2].proc->exe == NULL);
	ASSERT_U64(pr[2].checks, 3);
	ASSERT_STR(pr[3].program, "/dev/fd/6");   /* the runtime's, last */
	ASSERT_TRUE(pr[3].runtime_setup);
	ASSERT_U64(pr[3].checks, 6);
	ASSERT_FALSE(pr[2].runtime_setup);
	pr = &rep.procs[rep.blocks[2].first + 1];
	ASSERT_STR(pr->program, "/usr/sbin/cron");
	ASSERT_EQ(pr->npids, 2);
	ASSERT_EQ(pr->ncaps, 2);
	ASSERT_EQ(pr->caps[1].cap, CAP_SETUID);
	ASSERT_U64(pr->caps[1].granted, 5);   /* 4 + 1 from two processes */
	ASSERT_U64(rep.total_checks, 31);
	ASSERT_TRUE(rep.required & 1ULL << CAP_SYS_ADMIN);   /* the record's */
	report_free(&rep);
	record_free(&r);
}

TEST(by_unit_and_by_cgroup_key_by_what_the_record_says)
{
	struct report_opts o = { .by = BY_UNIT };
	struct report rep;
	struct record r;

	load(&r);
	report_build(&r, &o, &rep);
	ASSERT_EQ(rep.nblocks, 2);
	ASSERT_STR(rep.blocks[0].key, "cron.service");
	ASSERT_EQ(rep.blocks[0].npids, 2);
	ASSERT_U64(rep.blocks[0].checks, 9);
	ASSERT_TRUE(rep.blocks[1].key == NULL);
	ASSERT_EQ(rep.blocks[1].npids, 7);   /* runc too: only --by container sets
					      * a container's runtime apart */
	report_free(&rep);
	o.by = BY_CGROUP;
	report_build(&r, &o, &rep);
	ASSERT_EQ(rep.nblocks, 5);
	ASSERT_STR(rep.blocks[2].key, "/system.slice/cron.service");
	ASSERT_STR(rep.blocks[3].key, "/user.slice/user-1000.slice/session-3.scope");
	ASSERT_TRUE(rep.blocks[4].key == NULL);   /* true: no cgroup recorded */
	ASSERT_EQ(rep.blocks[4].npids, 1);
	report_free(&rep);
	record_free(&r);
}

TEST(by_program_is_one_row_per_image_as_before)
{
	struct report_opts o = { 0 };
	struct report rep;
	struct record r;

	load(&r);
	report_build(&r, &o, &rep);
	ASSERT_EQ(rep.nprocs, r.nprocs);
	ASSERT_EQ(rep.nblocks, 0);
	ASSERT_EQ(rep.procs[0].proc->pid, 100);
	ASSERT_EQ(rep.procs[4].proc->pid, 103);   /* entry, after sh */
	ASSERT_STR(rep.procs[4].program, "entry");
	report_free(&rep);
	record_free(&r);
}

/* The filter views what x names; returns the processes in the view (-1:
 * error). */
static long keep(const char *container, const char *unit, char *err, size_t n)
{
	struct workload_filter f = { .container = container, .unit = unit };
	const struct record *v;
	struct rec_view view;
	struct record r;
	long left = -1;
	size_t i;

	load(&r);
	err[0] = '\0';
	if (!record_view_workload(&view, &r, &f, err, n)) {
		v = rec_view_record(&view);
		left = (long)v->nprocs;
		/* every check viewed is of a process viewed, found through
		 * the view's table */
		for (i = 0; i < v->nchecks; i++)
			if (!check_process(v, &v->checks[i]))
				FAIL_AT("check %zu lost its process", i);
	}
	ASSERT_EQ(r.nprocs, 10);   /* the record as loaded */
	rec_view_free(&view);
	record_free(&r);
	return left;
}

TEST(container_filter_takes_id_name_or_unique_prefix)
{
	char err[1024];

	ASSERT_EQ(keep("web", NULL, err, sizeof(err)), 4);
	ASSERT_EQ(keep(DB, NULL, err, sizeof(err)), 1);
	ASSERT_EQ(keep("3f1c", NULL, err, sizeof(err)), 4);
	ASSERT_EQ(keep("3f1d0", NULL, err, sizeof(err)), 1);
	ASSERT_EQ(keep("web", "cron", err, sizeof(err)) , 0);   /* both: none is both */
}

TEST(container_filter_errors_name_x_and_list_the_containers)
{
	char err[1024];

	ASSERT_EQ(keep("3f1", NULL, err, sizeof(err)), -1);
	ASSERT_STR(err, "--container 3f1: ambiguous, the id prefix of: web (podman 3f1c9a7e5b2d), "
		   "db (podman 3f1d08b6e4c2)");
	ASSERT_EQ(keep("nope", NULL, err, sizeof(err)), -1);
	ASSERT_STR(err, "--container nope: no container has that id or name; the record has: "
		   "web (podman 3f1c9a7e5b2d), db (podman 3f1d08b6e4c2)");
	ASSERT_EQ(keep("3f", NULL, err, sizeof(err)), -1);   /* too short to be a prefix */
	ASSERT_HAS(err, "(an id prefix has 3 hex digits or more)");
	ASSERT_EQ(keep("3F1C", NULL, err, sizeof(err)), -1);   /* ids are lowercase */
}

TEST(container_filter_error_ends_in_dots_when_the_list_is_long)
{
	char err[80];

	ASSERT_EQ(keep("nope", NULL, err, sizeof(err)), -1);
	ASSERT_EQ(strlen(err), sizeof(err) - 1);
	ASSERT_STR(err + strlen(err) - 3, "...");
}

TEST(unit_filter_with_or_without_service)
{
	char err[1024];

	ASSERT_EQ(keep(NULL, "cron", err, sizeof(err)), 2);
	ASSERT_EQ(keep(NULL, "cron.service", err, sizeof(err)), 2);
	ASSERT_EQ(keep(NULL, "cro", err, sizeof(err)), -1);
	ASSERT_STR(err, "--unit cro: no process ran in that unit; the record has: cron.service");
	ASSERT_EQ(keep(NULL, "cron.timer", err, sizeof(err)), -1);
}

TEST(filter_on_a_version_3_record_says_why_nothing_matches)
{
	struct workload_filter f = { .container = "web" };
	struct rec_view view;
	struct record r;
	char err[512];

	memset(&r, 0, sizeof(r));
	r.hdr.version = 3;
	record_add_process(&r, 1, 0, 0)->comm = xstrdup("a");
	ASSERT_EQ(record_view_workload(&view, &r, &f, err, sizeof(err)), -1);
	ASSERT_STR(err, "--container web: no container has that id or name; a version 3 record "
		   "does not say where processes ran (format 4 does)");
	ASSERT_EQ(rec_view_record(&view)->nprocs, 0);   /* a failed filter views nothing */
	ASSERT_EQ(r.nprocs, 1);   /* unchanged */
	rec_view_free(&view);
	record_free(&r);
}

TEST(filtered_record_suggests_for_that_workload_only)
{
	struct workload_filter f = { .container = "db" };
	struct suggest_opts so = { 0 };
	struct suggestion sg;
	struct rec_view db;
	struct record r;
	char err[512];

	load(&r);
	ASSERT_EQ(record_view_workload(&db, &r, &f, err, sizeof(err)), 0);
	ASSERT_EQ(rec_view_record(&db)->nchecks, 2);
	suggest_build(rec_view_record(&db), &so, &sg);
	ASSERT_U64(sg.required, 1ULL << CAP_CHOWN);
	ASSERT_U64(sg.denied, 1ULL << CAP_FOWNER);
	suggest_free(&sg);
	rec_view_free(&db);
	record_free(&r);
}

TEST(report_by_names_round_trip)
{
	enum report_by by = BY_PROCESS;

	ASSERT_TRUE(report_by_parse("cgroup", &by));
	ASSERT_EQ(by, BY_CGROUP);
	ASSERT_STR(report_by_name(by), "cgroup");
	ASSERT_FALSE(report_by_parse("user-site", &by));   /* cmd_report's own */
	ASSERT_FALSE(report_by_parse("Container", &by));
	ASSERT_EQ(by, BY_CGROUP);
}

TEST(container_filter_leaves_the_runtime_setting_it_up_out)
{
	struct workload_filter f = { .container = "web" };
	const struct record *v;
	struct rec_view web;
	struct record r;
	char err[512];
	size_t i;

	load(&r);
	ASSERT_EQ(record_view_workload(&web, &r, &f, err, sizeof(err)), 0);
	v = rec_view_record(&web);
	ASSERT_EQ(v->nprocs, 4);
	for (i = 0; i < v->nprocs; i++)
		ASSERT_FALSE(v->procs[i].runtime_setup);
	for (i = 0; i < v->nchecks; i++)
		ASSERT_TRUE(v->checks[i].cap != CAP_SYS_ADMIN);   /* runc's mount */
	rec_view_free(&web);
	record_free(&r);
}

/* --pid: the processes of those pids (every image of one), and their
 * checks; a pid the record lacks is an error listing those it has. */
static long keep_pids(const uint32_t *pids, size_t n, char *err, size_t errlen)
{
	struct workload_filter f = { .pids = pids, .npids = n };
	struct rec_view view;
	struct record r;
	long left;

	load(&r);
	err[0] = '\0';
	left = record_view_workload(&view, &r, &f, err, errlen) ? -1 :
	       (long)rec_view_record(&view)->nprocs;
	ASSERT_EQ(r.nprocs, 10);   /* unchanged */
	rec_view_free(&view);
	record_free(&r);
	return left;
}

TEST(pid_filter_keeps_every_image_of_the_pids_given)
{
	const uint32_t sh_entry[] = { 103 }, two[] = { 301, 201 }, gone[] = { 301, 7 };
	struct workload_filter f = { .pids = two, .npids = 2 };
	struct report_opts o = { 0 };
	struct rec_view two_pids;
	struct report rep;
	struct record r;
	char err[1024];

	ASSERT_EQ(keep_pids(sh_entry, 1, err, sizeof(err)), 2);   /* sh, then entry */
	ASSERT_EQ(keep_pids(two, 2, err, sizeof(err)), 2);
	ASSERT_EQ(keep_pids(gone, 2, err, sizeof(err)), -1);
	ASSERT_STR(err, "--pid 7: no process had that pid in the record; it has: 100, 101, 102, "
		   "103, 201, 301, 302, 401, 501");
	load(&r);
	ASSERT_EQ(record_view_workload(&two_pids, &r, &f, err, sizeof(err)), 0);
	report_build(rec_view_record(&two_pids), &o, &rep);
	ASSERT_EQ(rep.nprocs, 2);
	ASSERT_EQ(rep.procs[0].proc->pid, 201);
	ASSERT_EQ(rep.procs[1].proc->pid, 301);
	ASSERT_U64(rep.required, caps2(CAP_CHOWN, CAP_SETUID) | 1ULL << CAP_SETGID);
	ASSERT_U64(rep.denied, 1ULL << CAP_FOWNER);
	report_free(&rep);
	rec_view_free(&two_pids);
	record_free(&r);
}

TEST(pid_filter_and_a_monitors_program_lines)
{
	const uint32_t pid[] = { 5 };
	struct workload_filter f = { .pids = pid, .npids = 1 };
	struct rec_view view;
	struct record r;
	char err[512];

	memset(&r, 0, sizeof(r));
	record_add_process(&r, 5, 0, 0)->pids = 3;   /* a monitor's synthetic pid */
	ASSERT_EQ(record_view_workload(&view, &r, &f, err, sizeof(err)), -1);
	ASSERT_STR(err, "--pid 5: no process had that pid in the record; it has no processes, "
		   "only a monitor's programs (their lines name programs, not processes)");
	rec_view_free(&view);
	record_free(&r);
}

TEST(cap_filter_keeps_those_checks_and_the_processes_that_made_one)
{
	struct report_opts o = { .noaudit = true };
	struct rec_view setuid_fowner, bpf;
	const struct record *v;
	struct report rep;
	struct record r;
	size_t i;

	load(&r);
	/* CAP_SETUID: nginx 102, cron 301 and 302; CAP_FOWNER: postgres, denied */
	ASSERT_EQ(record_view_caps(&setuid_fowner, &r, 1ULL << CAP_SETUID | 1ULL << CAP_FOWNER), 4);
	v = rec_view_record(&setuid_fowner);
	ASSERT_EQ(v->nprocs, 4);
	for (i = 0; i < v->nchecks; i++)
		ASSERT_TRUE(check_process(v, &v->checks[i]) != NULL);
	report_build(v, &o, &rep);
	ASSERT_U64(rep.required, 1ULL << CAP_SETUID);
	ASSERT_U64(rep.denied, 1ULL << CAP_FOWNER);
	ASSERT_U64(rep.total_checks, 1 + 4 + 1 + 1);
	report_free(&rep);
	/* a view of a view: of those, none is CAP_BPF's */
	ASSERT_EQ(record_view_caps(&bpf, v, 1ULL << CAP_BPF), 0);
	ASSERT_EQ(rec_view_record(&bpf)->nprocs, 0);
	ASSERT_EQ(r.nprocs, 10);   /* the record as loaded */
	rec_view_free(&bpf);
	rec_view_free(&setuid_fowner);
	record_free(&r);
}
