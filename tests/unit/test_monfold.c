// SPDX-License-Identifier: GPL-2.0
/* capaudit monitor's folding (monitor/monfold.c) and the record's "pids"
 * and "monitor" fields, both ways. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recfile/recfile.h"
#include "monitor/monfold.h"
#include "test.h"
#include "lib/util.h"

static char **frames2(const char *site)
{
	char **f = xcalloc(3, sizeof(char *));

	f[0] = xstrdup("cap_capable+0x10");
	f[1] = xstrdup(site);
	return f;
}

static struct ca_key key(uint32_t tgid, int cap, int ret, int syscall)
{
	struct ca_key k;

	memset(&k, 0, sizeof(k));
	k.tgid = tgid;
	k.cap = (uint16_t)cap;
	k.ret = ret;
	k.syscall = syscall;
	k.kstack = 7;
	return k;
}

/* Many images of one program in one cgroup as one uid: one identity;
 * another uid, cgroup or executable: another. An unknown executable is
 * named by comm. */
TEST(monfold_identities)
{
	struct mon_fold f = { 0 };
	uint32_t a, i;

	a = fold_ident(&f, "/usr/bin/chown", NULL, "chown", NULL, "/", 0, 5);
	for (i = 0; i < 1000; i++)
		ASSERT_EQ(fold_ident(&f, "/usr/bin/chown", NULL, "renamed", NULL, "/", 0, 9), a);
	ASSERT_TRUE(fold_ident(&f, "/usr/bin/chown", NULL, "chown", NULL, "/", 1000, 5) != a);
	ASSERT_TRUE(fold_ident(&f, "/usr/bin/chown", NULL, "chown", NULL, "/system.slice/x.service", 0,
			       5) != a);
	ASSERT_TRUE(fold_ident(&f, NULL, NULL, "chown", NULL, "/", 0, 5) != a);
	/* the same path, another build (an upgrade): another identity */
	ASSERT_TRUE(fold_ident(&f, "/usr/bin/chown", "aa01", "chown", NULL, "/", 0, 5) != a);
	ASSERT_EQ(fold_ident(&f, "/usr/bin/chown", "aa01", "chown", NULL, "/", 0, 5),
		  fold_ident(&f, "/usr/bin/chown", "aa01", "chown", NULL, "/", 0, 7));
	ASSERT_EQ(fold_ident(&f, NULL, NULL, "chown", NULL, "/", 0, 5),
		  fold_ident(&f, NULL, NULL, "chown", NULL, "/", 0, 6));
	ASSERT_TRUE(fold_ident(&f, NULL, NULL, "chmod", NULL, "/", 0, 5) !=
		    fold_ident(&f, NULL, NULL, "chown", NULL, "/", 0, 5));
	ASSERT_U64(f.nids, 6);
	ASSERT_STR(f.ids[a].comm, "chown");   /* the first image's */
	fold_free(&f);
}

/* Rows are (identity, cap, verdict, call site function, syscall, flags):
 * two stacks through one function are one row; another function, verdict
 * or syscall is another. */
TEST(monfold_rows)
{
	struct mon_fold f = { 0 };
	uint32_t a = fold_ident(&f, "/bin/x", NULL, "x", NULL, "/", 0, 1);
	int s1 = fold_add_stack(&f, 7, frames2("setattr_prepare+0x1c"), 2);
	int s2 = fold_add_stack(&f, 8, frames2("setattr_prepare+0x44"), 2);
	int s3 = fold_add_stack(&f, 9, frames2("chown_common+0x10"), 2);
	struct ca_key k = key(1, 0, 0, 92), k2 = key(2, 0, 0, 92);
	struct mon_row *r = fold_row(&f, a, &k, s1, 10);

	ASSERT_STR(fold_site(&f, s1), "setattr_prepare");
	ASSERT_STR(fold_site(&f, -1), "?");
	ASSERT_EQ(fold_find_stack(&f, 8), s2);
	ASSERT_EQ(fold_find_stack(&f, 99), -1);
	r->count = 3;
	ASSERT_TRUE(fold_row(&f, a, &k2, s2, 11) == r);   /* another pid, same site */
	ASSERT_TRUE(fold_row(&f, a, &k, s3, 10) != r);
	k2.ret = -1;
	ASSERT_TRUE(fold_row(&f, a, &k2, s1, 10) != r);
	k2.ret = 0;
	k2.syscall = 260;
	ASSERT_TRUE(fold_row(&f, a, &k2, s1, 10) != r);
	k2.syscall = 92;
	k2.flags = CA_F_NOAUDIT | CA_F_OPTS_KNOWN;
	ASSERT_TRUE(fold_row(&f, a, &k2, s1, 10) != r);
	ASSERT_U64(f.nrows, 5);
	ASSERT_EQ(r->stack, s1);   /* the first stack seen */
	fold_free(&f);
}

/* The bounds: past MON_IDENT_MAX identities a new program's checks go to
 * one identity that says so; past MON_ROW_MAX rows a new row's go to that
 * identity's row of the capability and verdict; both counted, and no
 * more than those rows are added. */
TEST(monfold_bounds)
{
	struct mon_fold f = { 0 };
	char exe[32];
	uint32_t i, past, a;
	struct ca_key k = key(1, 21, 0, 165);
	struct mon_row *r, *r2;

	for (i = 0; i < MON_IDENT_MAX; i++) {
		snprintf(exe, sizeof(exe), "/bin/p%u", i);
		ASSERT_EQ(fold_ident(&f, exe, NULL, "p", NULL, "/", 0, 1), i);
	}
	past = fold_ident(&f, "/bin/one-more", NULL, "one-more", NULL, "/", 0, 2);
	ASSERT_EQ(past, MON_IDENT_MAX);
	ASSERT_STR(f.ids[past].comm, MON_PAST_COMM);
	ASSERT_TRUE(f.ids[past].exe == NULL);
	ASSERT_EQ(fold_ident(&f, "/bin/two-more", NULL, "two-more", NULL, "/", 0, 3), past);
	ASSERT_EQ(fold_ident(&f, "/bin/p7", NULL, "p", NULL, "/", 0, 1), 7);   /* kept ones stay */
	ASSERT_U64(f.ids_past, 2);
	ASSERT_U64(f.nids, MON_IDENT_MAX + 1);
	/* rows: one per identity kept, up to the bound */
	for (i = 0; f.nrows < MON_ROW_MAX; i++) {
		k.syscall = (int)(i / MON_IDENT_MAX);
		fold_row(&f, i % MON_IDENT_MAX, &k, -1, 1);
	}
	a = 3;
	k.syscall = 9999;
	r = fold_row(&f, a, &k, -1, 5);
	ASSERT_EQ(r->ident, past);
	ASSERT_EQ(r->syscall, -1);
	ASSERT_EQ(r->cap, 21);
	k.syscall = 9998;
	r2 = fold_row(&f, a, &k, -1, 5);
	ASSERT_TRUE(r2 == r);                 /* the same past row */
	k.ret = -1;
	r2 = fold_row(&f, a, &k, -1, 5);
	ASSERT_TRUE(r2 != r);                 /* the denied one is another */
	ASSERT_U64(f.nrows, MON_ROW_MAX + 2);
	ASSERT_U64(f.rows_past, 3);
	fold_free(&f);
}

/* The checkpoint: a line per identity with a count (synthetic pid, pids),
 * a check per row with a count, counts from folded and pending; and it
 * reads back, pids and the monitor object included. */
TEST(monfold_checkpoint_round_trip)
{
	struct mon_fold f = { 0 };
	struct record cp = { 0 }, r;
	uint32_t a = fold_ident(&f, "/bin/x", NULL, "x", NULL, "/", 0, 100);
	uint32_t idle = fold_ident(&f, "/bin/idle", NULL, "idle", NULL, "/", 0, 100);
	int s = fold_add_stack(&f, 7, frames2("setattr_prepare+0x1c"), 2);
	struct ca_key k = key(1, 0, 0, 92);
	struct mon_row *row;
	char *buf = NULL, err[256] = "";
	size_t len = 0;
	FILE *mf;

	f.ids[a].pids = 20009;
	row = fold_row(&f, a, &k, s, 100);
	row->count = 39998;
	row->pending = 2;
	row->last_ns = 200;
	(void)idle;   /* no row with a count: no line */
	cp.hdr.version = REC_VERSION;
	cp.hdr.kernel = xstrdup("6.18.44");
	cp.hdr.attach = xstrdup("tp_btf");
	cp.hdr.scope = xstrdup("monitor");
	cp.hdr.start_ns = 50;
	cp.hdr.end_ns = 300;
	cp.hdr.has_monitor = true;
	cp.hdr.monitor_interval = 60;
	cp.hdr.monitor_checkpoint = 3;
	cp.hdr.monitor_since_ns = 50;
	cp.hdr.checks = fold_to_record(&f, &cp);
	ASSERT_U64(cp.hdr.checks, 40000);
	ASSERT_U64(cp.nprocs, 1);
	ASSERT_U64(cp.nchecks, 1);
	ASSERT_U64(cp.nstacks, 1);
	mf = open_memstream(&buf, &len);
	ASSERT_EQ(recfile_write(mf, &cp), 0);
	fclose(mf);
	ASSERT_HAS(buf, "\"pids\":20009");
	ASSERT_HAS(buf, "\"monitor\":{\"interval\":60");
	ASSERT_EQ(read_text(buf, &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_U64(r.nprocs, 1);
	ASSERT_EQ(r.procs[0].pid, MON_PID_BASE + a);
	ASSERT_U64(r.procs[0].pids, 20009);
	ASSERT_STR(r.procs[0].exe, "/bin/x");
	ASSERT_U64(r.checks[0].count, 40000);
	ASSERT_TRUE(check_process(&r, &r.checks[0]) == &r.procs[0]);
	ASSERT_TRUE(r.hdr.has_monitor);
	ASSERT_U64(r.hdr.monitor_checkpoint, 3);
	ASSERT_STR(r.hdr.scope, "monitor");
	record_free(&r);
	record_free(&cp);
	fold_free(&f);
	free(buf);
}

TEST(recfile_pids_strict)
{
	expect_error("{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":4,"
		     "\"kernel\":\"6.18.0\",\"attach\":\"tp_btf\",\"start_ns\":1,\"end_ns\":2}\n"
		     "{\"type\":\"process\",\"pid\":10,\"start_ns\":1,\"comm\":\"x\",\"pids\":0}\n",
		     "pids");
}

static void file_event(struct ca_obj_event *e, const struct ca_key *k, uint64_t fp,
		       const char *path)
{
	memset(e, 0, sizeof(*e));
	e->type = CA_EV_OBJECT;
	e->kind = CA_OBJ_FILE;
	e->key = *k;
	e->fp = fp;
	e->num = e->detail = -1;
	e->oflags = CA_OBJF_INODE;   /* owner and mode from the hook: no stat() */
	e->uid = e->gid = 65534;
	e->mode = 0100644;
	snprintf(e->path, sizeof(e->path), "%s", path);
}

/* A row keeps its first MON_OBJ_PER_ROW distinct objects, the monitor
 * MON_OBJ_MAX in all; the checks about others (and the kernel's own
 * overflow) are counted in objects_more, on the checkpoint's line too. */
TEST(monfold_objects_bounded)
{
	struct mon_fold f = { 0 };
	uint32_t a = fold_ident(&f, "/bin/x", NULL, "x", NULL, "/", 0, 1);
	int s = fold_add_stack(&f, 7, frames2("setattr_prepare+0x1c"), 2);
	struct ca_key k = key(1, 3, 0, 280), k2 = key(1, 0, 0, 92);
	struct mon_row *r = fold_row(&f, a, &k, s, 10), *r2;
	struct ca_obj_event e;
	struct agg_objs ao = { .n = 3, .more = 1 };
	struct record cp = { 0 };
	char path[64];
	uint64_t i;

	for (i = 1; i <= 6; i++) {
		snprintf(path, sizeof(path), "/srv/f%llu", (unsigned long long)i);
		file_event(&e, &k, i, path);
		fold_row_object(&f, r, &e);
		fold_row_object(&f, r, &e);   /* sent again after a drain */
	}
	ASSERT_EQ(r->nobjs, MON_OBJ_PER_ROW);
	ASSERT_U64(f.nobjs, 4);
	ASSERT_STR(r->objs[3].o.path, "/srv/f4");
	/* fingerprint 2 kept, 6 not, 9 never sent (its event lost) */
	ao.fp[0] = 2, ao.count[0] = 3;
	ao.fp[1] = 6, ao.count[1] = 2;
	ao.fp[2] = 9, ao.count[2] = 1;
	fold_row_objcounts(r, &ao);
	ASSERT_U64(r->objs[1].count, 3);
	ASSERT_U64(r->objs_more, 4);
	r->count = 7;
	/* the monitor's cap: another row gets none, its checks counted */
	f.nobjs = MON_OBJ_MAX;
	r2 = fold_row(&f, a, &k2, s, 10);
	file_event(&e, &k2, 1, "/srv/g");
	fold_row_object(&f, r2, &e);
	ASSERT_EQ(r2->nobjs, 0);
	f.nobjs = 4;
	ASSERT_TRUE(fold_find_row(&f, a, &k2, s) == r2);
	fold_to_record(&f, &cp);
	ASSERT_U64(cp.nchecks, 1);
	ASSERT_U64(cp.checks[0].nobjects, 4);
	ASSERT_U64(cp.checks[0].objects[1].count, 3);
	ASSERT_U64(cp.checks[0].objects[0].count, 1);   /* seen, not yet folded */
	ASSERT_U64(cp.checks[0].objects_more, 4);
	ASSERT_STR(cp.checks[0].objects[0].path, "/srv/f1");
	record_free(&cp);
	fold_free(&f);
}
