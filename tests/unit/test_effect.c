// SPDX-License-Identifier: GPL-2.0
/*
 * What a refusal really does (analyze/effect.c) and the verdict it gives a
 * run (analyze/verdict.c), on stacks as the 6.18 host records them, with
 * the kernel's own tables (6.12's for a 6.18 record).
 */
#include <errno.h>
#include <string.h>

#include "analyze/effect.h"
#include "analyze/suggest.h"
#include "analyze/verdict.h"
#include "facts/capnames.h"
#include "lib/util.h"
#include "test.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define INODE_HEAD "cap_capable+0x83", "security_capable+0x40", "capable_wrt_inode_uidgid+0x39"

/* in_group_or_capable() ends in a tail call: its frame is gone */
static const char *const chmod_prepare[] = { INODE_HEAD, "setattr_prepare+0x115",
	"ext4_setattr+0x71", "notify_change+0x38a", "chmod_common+0xb6", "do_fchmodat+0x5e" };
/* ... and on a kernel where it keeps its frame */
static const char *const chmod_framed[] = { INODE_HEAD, "in_group_or_capable+0x2e",
	"setattr_prepare+0x115", "notify_change+0x38a", "chmod_common+0xb6" };
static const char *const nfnl[] = { "cap_capable+0x83", "security_capable+0x40",
	"netlink_net_capable+0x2e", "nfnetlink_rcv+0x5a", "netlink_unicast+0x241",
	"netlink_sendmsg+0x214", "__sys_sendto+0x1d7" };
static const char *const sockopt[] = { "cap_capable+0x83", "security_capable+0x40",
	"ns_capable+0x2d", "sk_setsockopt+0x4d0", "do_sock_setsockopt+0xc0",
	"__sys_setsockopt+0x8a" };
static const char *const verifier[] = { "cap_capable+0x83", "security_capable+0x40",
	"ns_capable+0x2d", "bpf_token_capable+0x22", "bpf_check+0x2a1", "bpf_prog_load+0x6b2",
	"__sys_bpf+0x1c0" };
static const char *const nice_stack[] = { "cap_capable+0x83", "security_capable+0x40",
	"capable+0x29", "can_nice+0x35", "set_one_prio+0x8b", "__do_sys_setpriority+0x1a3" };
static const char *const mlock[] = { "cap_capable+0x83", "security_capable+0x40",
	"capable+0x29", "do_mlock+0x10e", "__x64_sys_mlock+0x14" };
static const char *const dac[] = { INODE_HEAD, "generic_permission+0x16a",
	"inode_permission+0x6d", "may_open+0x74", "path_openat+0x3b1" };

static struct record rec;

static void fresh(void)
{
	record_free(&rec);
	memset(&rec, 0, sizeof(rec));
	rec.hdr.kernel = xstrdup("6.18.44");
	rec.hdr.attach = xstrdup("tp_btf");
	rec.hdr.syscall_results = true;
	record_add_process(&rec, 100, 0, 1)->comm = xstrdup("app");
}

static struct rec_check *chk(int cap, int ret, const char *sys, int64_t op,
			     const char *const *frames, size_t n)
{
	struct rec_check *c = record_add_check(&rec);

	c->pid = 100;
	c->exec_id = 1;
	c->cap = cap;
	c->ret = ret;
	c->count = 1;
	c->syscall = 1;   /* any: the name says which */
	c->sysname = record_intern(&rec, sys, strlen(sys));
	c->op = op;
	c->init_ns = true;
	c->comm = record_intern(&rec, "app", 3);
	c->stack = test_stack(&rec, frames, n);
	return c;
}

static void eff(const struct rec_check *c, struct effect *e)
{
	bool exact;

	effect_of(ktable_for(rec.hdr.kernel, &exact), &rec, c, check_stack(&rec, c)->site_func, e);
}

TEST(effect_a_cleared_set_group_id_bit_is_a_silent_change_of_chmod_only)
{
	struct rec_check *c;
	struct effect e;

	fresh();
	c = chk(CAP_FSETID, -1, "fchmodat", 02000, chmod_prepare, N(chmod_prepare));
	eff(c, &e);
	ASSERT_STR(eff_kind_name(e.kind), "silent-change");
	ASSERT_STR(e.at, "setattr_prepare");
	ASSERT_STR(e.words_past, "cleared the set-group-ID bit");
	ASSERT_TRUE(e.change && strstr(e.change, "S_ISGID"));
	/* the callee's frame kept: followed up to the caller */
	c = chk(CAP_FSETID, -1, "fchmodat", 02000, chmod_framed, N(chmod_framed));
	eff(c, &e);
	ASSERT_STR(eff_kind_name(e.kind), "silent-change");
	ASSERT_STR(e.at, "setattr_prepare");
	/* chown reaches the same statement with the bit already cleared */
	c = chk(CAP_FSETID, 0, "fchownat", -1, chmod_prepare, N(chmod_prepare));
	eff(c, &e);
	ASSERT_STR(eff_kind_name(e.kind), "no-effect");
	ASSERT_TRUE(e.fact && e.fact->kind == KF_MATTERS_DURING);
	/* the hook's own reading of the mode */
	c = chk(CAP_FSETID, 0, "fchmodat", 0, chmod_prepare, N(chmod_prepare));
	c->no_effect = true;
	eff(c, &e);
	ASSERT_STR(eff_kind_name(e.kind), "no-effect");
}

TEST(effect_netlink_fallback_verifier_errno_and_lookups)
{
	struct rec_check *c;
	struct effect e;

	fresh();
	c = chk(CAP_NET_ADMIN, -1, "sendto", -1, nfnl, N(nfnl));
	eff(c, &e);
	ASSERT_STR(eff_kind_name(e.kind), "netlink-ack");
	ASSERT_STR(e.err, "EPERM");
	/* SO_RCVBUFFORCE: tried, then SO_RCVBUF; SO_MARK at the same site is not */
	c = chk(CAP_NET_ADMIN, -1, "setsockopt", 1 << 16 | 33, sockopt, N(sockopt));
	eff(c, &e);
	ASSERT_STR(eff_kind_name(e.kind), "done-without");
	ASSERT_TRUE(e.fact && e.fact->kind == KF_FALLBACK);
	c = chk(CAP_NET_ADMIN, -1, "setsockopt", 1 << 16 | 36, sockopt, N(sockopt));
	eff(c, &e);
	ASSERT_TRUE(e.kind != EFF_DONE_WITHOUT);
	c = chk(CAP_PERFMON, -1, "bpf", 5, verifier, N(verifier));
	eff(c, &e);
	ASSERT_STR(eff_kind_name(e.kind), "verifier");
	/* can_nice() returns the answer; set_one_prio() fails with EACCES */
	c = chk(CAP_SYS_NICE, -1, "setpriority", -1, nice_stack, N(nice_stack));
	eff(c, &e);
	ASSERT_STR(eff_kind_name(e.kind), "fails");
	ASSERT_STR(e.err, "EACCES");
	ASSERT_STR(e.at, "set_one_prio");
	/* do_mlock()'s rows disagree (silent, ENOMEM): ENOMEM is among them */
	c = chk(CAP_IPC_LOCK, -1, "mlock", -1, mlock, N(mlock));
	eff(c, &e);
	ASSERT_STR(eff_kind_name(e.kind), "fails");
	ASSERT_TRUE(e.nerrs >= 1);
	ASSERT_STR(e.errs[0], "ENOMEM");
	c = chk(CAP_DAC_READ_SEARCH, -1, "openat", -1, dac, N(dac));
	eff(c, &e);
	ASSERT_STR(eff_kind_name(e.kind), "fails");
	ASSERT_TRUE(e.lookup);
}

/* The verdict of a run by what the kernel did: a silent change fails the
 * set whatever the exit status and --check; a refusal the program went on
 * from is for --check to judge; a file it did without, an operation
 * programs fall back from and the verifier accepting anyway do not count;
 * only the capabilities counted count (verify: those it withheld). */
TEST(verdict_by_what_the_kernel_did)
{
	struct suggestion s;
	struct suggest_opts o = { 0 };
	struct verdict v;
	struct rec_check *c;

	fresh();
	chk(CAP_FSETID, -1, "fchmodat", 02000, chmod_prepare, N(chmod_prepare));
	suggest_build(&rec, &o, &s);
	ASSERT_EQ(s.ndeny, 1);
	ASSERT_STR(denial_kind_name(s.deny[0].kind), "changed");
	run_verdict(&s, 0, false, 0, ~0ULL, &v);
	ASSERT_STR(run_verdict_name(v.v), "changed");
	run_verdict(&s, 0, true, 0, ~0ULL, &v);
	ASSERT_STR(run_verdict_name(v.v), "changed");
	run_verdict(&s, 0, false, 0, CAP_BIT(CAP_FOWNER), &v);   /* not withheld */
	ASSERT_STR(run_verdict_name(v.v), "enough");
	run_verdict(&s, 1, false, 0, ~0ULL, &v);
	ASSERT_STR(run_verdict_name(v.v), "failed");
	suggest_free(&s);

	fresh();
	chk(CAP_NET_ADMIN, -1, "sendto", -1, nfnl, N(nfnl));   /* sendto() succeeded */
	suggest_build(&rec, &o, &s);
	ASSERT_STR(denial_kind_name(s.deny[0].kind), "blocking");
	ASSERT_TRUE(s.deny[0].in_ack);
	run_verdict(&s, 0, false, 0, ~0ULL, &v);
	ASSERT_STR(run_verdict_name(v.v), "refused");
	ASSERT_TRUE(v.why == &s.deny[0]);
	run_verdict(&s, 0, true, 0, ~0ULL, &v);   /* --check passed: it did its job */
	ASSERT_STR(run_verdict_name(v.v), "enough");
	suggest_free(&s);

	fresh();
	c = chk(CAP_DAC_READ_SEARCH, -1, "openat", -1, dac, N(dac));
	c->sys_failed = 1;
	c = chk(CAP_NET_ADMIN, -1, "setsockopt", 1 << 16 | 33, sockopt, N(sockopt));
	c->sys_failed = 1;
	c = chk(CAP_PERFMON, -1, "bpf", 5, verifier, N(verifier));   /* it loaded */
	suggest_build(&rec, &o, &s);
	ASSERT_EQ(s.ndeny, 3);
	run_verdict(&s, 0, false, 0, ~0ULL, &v);
	ASSERT_STR(run_verdict_name(v.v), "enough");
	suggest_free(&s);

	/* a refusal that failed with the error the source returns there */
	fresh();
	c = chk(CAP_IPC_LOCK, -1, "mlock", -1, mlock, N(mlock));
	c->sys_other = 1;
	c->sys_errno = ENOMEM;
	c = chk(CAP_PERFMON, -1, "bpf", 5, verifier, N(verifier));   /* rejected */
	c->sys_failed = 1;
	suggest_build(&rec, &o, &s);
	ASSERT_EQ(s.ndeny, 2);
	ASSERT_STR(denial_kind_name(s.deny[0].kind), "blocking");
	ASSERT_STR(denial_kind_name(s.deny[1].kind), "blocking");
	run_verdict(&s, 0, false, 0, ~0ULL, &v);
	ASSERT_STR(run_verdict_name(v.v), "refused");
	ASSERT_U64(v.refused, 2);
	suggest_free(&s);
	record_free(&rec);
	memset(&rec, 0, sizeof(rec));
}

/* record format 7: a check without an op whose objects name the option
 * (issue 44): the object decides as the op would; the op, when recorded,
 * decides over it; objects that disagree decide nothing */
TEST(effect_sockopt_object_decides_without_an_op)
{
	static struct rec_object force = { .kind = OBJ_SOCKOPT, .detail = "SOL_SOCKET",
					   .name = "SO_RCVBUFFORCE", .num = 33, .pid = -1,
					   .uid = -1, .gid = -1, .mode = -1, .count = 1 };
	static struct rec_object mark = { .kind = OBJ_SOCKOPT, .detail = "SOL_SOCKET",
					  .name = "SO_MARK", .num = 36, .pid = -1, .uid = -1,
					  .gid = -1, .mode = -1, .count = 1 };
	static struct rec_object both[2];
	struct rec_check *c;
	struct effect e;

	fresh();
	c = chk(CAP_NET_ADMIN, -1, "setsockopt", -1, sockopt, N(sockopt));
	c->objects = &force;
	c->nobjects = 1;
	eff(c, &e);
	ASSERT_STR(eff_kind_name(e.kind), "done-without");
	c = chk(CAP_NET_ADMIN, -1, "setsockopt", -1, sockopt, N(sockopt));
	c->objects = &mark;
	c->nobjects = 1;
	eff(c, &e);
	ASSERT_TRUE(e.kind != EFF_DONE_WITHOUT);
	/* the op says SO_MARK: it decides, whatever an object says */
	c = chk(CAP_NET_ADMIN, -1, "setsockopt", 1 << 16 | 36, sockopt, N(sockopt));
	c->objects = &force;
	c->nobjects = 1;
	eff(c, &e);
	ASSERT_TRUE(e.kind != EFF_DONE_WITHOUT);
	/* two options in one check: neither decides for the other */
	both[0] = force;
	both[1] = mark;
	c = chk(CAP_NET_ADMIN, -1, "setsockopt", -1, sockopt, N(sockopt));
	c->objects = both;
	c->nobjects = 2;
	eff(c, &e);
	ASSERT_TRUE(e.kind != EFF_DONE_WITHOUT);
	c->objects = NULL;   /* the record must not free the statics */
	c->nobjects = 0;
	rec.checks[rec.nchecks - 2].objects = NULL;
	rec.checks[rec.nchecks - 2].nobjects = 0;
	rec.checks[rec.nchecks - 3].objects = NULL;
	rec.checks[rec.nchecks - 3].nobjects = 0;
	rec.checks[rec.nchecks - 4].objects = NULL;
	rec.checks[rec.nchecks - 4].nobjects = 0;
}

/* The same in the suggestion: a granted SO_RCVBUFFORCE named only by its
 * object is an operation programs fall back from (verify decides), as
 * with the op; SO_MARK's object leaves it required */
TEST(suggest_sockopt_object_is_the_operation_without_an_op)
{
	struct suggest_opts o = { 0 };
	struct suggestion s;
	struct rec_object x = { .kind = OBJ_SOCKOPT, .pid = -1, .uid = -1, .gid = -1, .mode = -1,
				.num = 33, .count = 1 };
	struct rec_check *c;

	fresh();
	c = chk(CAP_NET_ADMIN, 0, "setsockopt", -1, sockopt, N(sockopt));
	x.detail = xstrdup("SOL_SOCKET");
	x.name = xstrdup("SO_RCVBUFFORCE");
	rec_check_objects_add(c, &x);
	suggest_build(&rec, &o, &s);
	ASSERT_TRUE(!(s.required & CAP_BIT(CAP_NET_ADMIN)));
	ASSERT_TRUE(s.undecided_caps & CAP_BIT(CAP_NET_ADMIN));
	ASSERT_EQ(s.nundecided, 1);
	ASSERT_EQ(s.undecided[0].why, UD_FALLBACK);
	ASSERT_EQ(s.undecided[0].objects.n, 1);   /* and it says what it was about */
	suggest_free(&s);

	fresh();
	c = chk(CAP_NET_ADMIN, 0, "setsockopt", -1, sockopt, N(sockopt));
	x.detail = xstrdup("SOL_SOCKET");
	x.name = xstrdup("SO_MARK");
	x.num = 36;
	rec_check_objects_add(c, &x);
	suggest_build(&rec, &o, &s);
	ASSERT_TRUE(s.required & CAP_BIT(CAP_NET_ADMIN));
	suggest_free(&s);
}
