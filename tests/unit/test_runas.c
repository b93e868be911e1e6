// SPDX-License-Identifier: GPL-2.0
/* analyze/runas.c: who ran the images, and whether an exec gained privilege. */
#include <stdlib.h>
#include <string.h>

#include "analyze/runas.h"
#include "lib/util.h"
#include "test.h"

static struct record rec;

static struct rec_process *image(uint32_t pid, uint32_t uid)
{
	struct rec_process *p = record_add_process(&rec, pid, 1000 + pid, 1);

	p->uid = uid;
	p->comm = xstrdup("app");
	return p;
}

static struct rec_check *check_by(uint32_t pid, uint32_t uid)
{
	struct rec_check *c = record_add_check(&rec);

	c->pid = pid;
	c->start_ns = 1000 + pid;
	c->exec_id = 1;
	c->uid = uid;
	c->cap = 10;
	c->count = 1;
	c->syscall = -1;
	c->stack = c->ustack = -1;
	return c;
}

static void fresh(int version)
{
	record_free(&rec);
	memset(&rec, 0, sizeof(rec));
	rec.hdr.version = version;
}

/* One non-root user, nothing gained: every snippet may set the user and
 * forbid privilege gains. */
TEST(runas_one_user_no_gain)
{
	struct runas r;

	fresh(REC_VERSION);
	image(100, 1000);
	image(101, 1000);
	check_by(101, 1000);
	runas_build(&rec, NULL, &r);
	ASSERT_EQ(r.nuids, 1);
	ASSERT_EQ(r.uids[0], 1000);
	ASSERT_TRUE(runas_one_user(&r));
	ASSERT_FALSE(runas_all_root(&r));
	ASSERT_EQ(r.gain, GAIN_NONE);
	record_free(&rec);
}

/* A daemon that starts as root and switches to its user after exec: the
 * process line says 0, its checks 33. Not "one user": runAsUser 33 would
 * keep it from starting as root. */
TEST(runas_reads_the_checks_uids_too)
{
	struct runas r;

	fresh(REC_VERSION);
	image(100, 0);
	check_by(100, 33);
	runas_build(&rec, NULL, &r);
	ASSERT_EQ(r.nuids, 2);
	ASSERT_FALSE(runas_one_user(&r));
	ASSERT_FALSE(runas_all_root(&r));
	image(101, 33);
	image(102, 1000);
	image(103, 1001);
	runas_build(&rec, NULL, &r);
	ASSERT_EQ(r.nuids, 3);   /* three or more */
	ASSERT_EQ(r.uids[0], 0);
	ASSERT_EQ(r.uids[1], 33);
	record_free(&rec);
}

/* runc's setup stages run as root inside the container's cgroup before
 * its program: not the container's user. */
TEST(runas_leaves_the_runtime_setup_out)
{
	struct runas r;

	fresh(REC_VERSION);
	image(100, 0)->runtime_setup = true;
	check_by(100, 0);
	image(101, 1000)->secure_exec = false;
	check_by(101, 1000);
	runas_build(&rec, NULL, &r);
	ASSERT_TRUE(runas_one_user(&r));
	ASSERT_EQ(r.uids[0], 1000);
	record_free(&rec);
}

/* secure_exec on any selected image is a privilege gain; one left out by
 * --program is not. */
TEST(runas_secure_exec_of_the_selected_images)
{
	bool matched[3] = { true, false, true };
	struct runas r;

	fresh(REC_VERSION);
	image(100, 1000);
	image(101, 1000)->secure_exec = true;
	image(102, 1000)->secure_exec = true;
	runas_build(&rec, NULL, &r);
	ASSERT_EQ(r.gain, GAIN_SEEN);
	ASSERT_EQ(r.ngainers, 2);
	ASSERT_EQ(r.gainer->pid, 101);
	runas_build(&rec, matched, &r);
	ASSERT_EQ(r.gain, GAIN_SEEN);
	ASSERT_EQ(r.ngainers, 1);
	ASSERT_EQ(r.gainer->pid, 102);
	matched[2] = false;
	runas_build(&rec, matched, &r);
	ASSERT_EQ(r.gain, GAIN_NONE);
	record_free(&rec);
}

/* No secure_exec seen is "none" only when the record would have said so:
 * version 4, no process line lost. Lost lines also leave the users open. */
TEST(runas_gain_unknown_without_the_evidence)
{
	struct runas r;

	fresh(3);
	image(100, 1000);
	runas_build(&rec, NULL, &r);
	ASSERT_EQ(r.gain, GAIN_UNKNOWN);
	ASSERT_EQ(r.version, 3);
	ASSERT_TRUE(runas_one_user(&r));   /* uids are in every version */
	fresh(REC_VERSION);
	image(100, 1000);
	rec.hdr.lost.ringbuf_full = 2;
	runas_build(&rec, NULL, &r);
	ASSERT_EQ(r.gain, GAIN_UNKNOWN);
	ASSERT_U64(r.events_lost, 2);
	ASSERT_FALSE(runas_one_user(&r));
	fresh(REC_VERSION);
	image(100, 0);
	rec.input.skipped = 1;
	runas_build(&rec, NULL, &r);
	ASSERT_EQ(r.gain, GAIN_UNKNOWN);
	ASSERT_FALSE(runas_all_root(&r));
	record_free(&rec);
}

/* Inside a user namespace the record's uids are the host's view. */
TEST(runas_user_namespace_uids_are_not_the_workloads)
{
	struct runas r;

	fresh(REC_VERSION);
	image(100, 100000);
	check_by(100, 100000)->userns = RU_INSIDE;
	runas_build(&rec, NULL, &r);
	ASSERT_TRUE(r.userns);
	ASSERT_FALSE(runas_one_user(&r));
	record_free(&rec);
}

/* The unit: the recording's target, else the one every image names. */
TEST(runas_unit)
{
	struct runas r;

	fresh(REC_VERSION);
	image(100, 0)->unit = xstrdup("web.service");
	image(101, 0);   /* not known: does not disagree */
	runas_build(&rec, NULL, &r);
	ASSERT_STR(r.unit, "web.service");
	ASSERT_FALSE(r.user_unit);
	image(102, 0)->unit = xstrdup("cron.service");
	runas_build(&rec, NULL, &r);
	ASSERT_TRUE(r.unit == NULL);
	rec.hdr.target_unit = xstrdup("web.service");
	runas_build(&rec, NULL, &r);
	ASSERT_STR(r.unit, "web.service");
	/* record -- COMMAND: the command ran in its caller's unit */
	fresh(REC_VERSION);
	rec.hdr.scope = xstrdup("command");
	image(100, 0)->unit = xstrdup("gitlab-runner.service");
	runas_build(&rec, NULL, &r);
	ASSERT_TRUE(r.unit == NULL);
	free(rec.hdr.scope);
	rec.hdr.scope = xstrdup("pid");   /* record -p: the process's own unit */
	runas_build(&rec, NULL, &r);
	ASSERT_STR(r.unit, "gitlab-runner.service");
	fresh(REC_VERSION);
	image(100, 1000)->unit = xstrdup("app.service");
	rec.procs[0].cgroup =
		xstrdup("/user.slice/user-1000.slice/user@1000.service/app.slice/app.service");
	runas_build(&rec, NULL, &r);
	ASSERT_STR(r.unit, "app.service");
	ASSERT_TRUE(r.user_unit);
	record_free(&rec);
}
