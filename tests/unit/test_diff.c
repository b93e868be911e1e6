// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <string.h>

#include "analyze/diff.h"
#include "facts/capnames.h"
#include "facts/syscalls.h"
#include "test.h"
#include "lib/util.h"

/* x86_64 syscall numbers (the table the build made) */
#define NR_IOCTL 16
#define NR_KILL 62
#define NR_CHOWN 92
#define NR_FCHOWNAT 260

static const char *const chown_st[] = { "cap_capable+0x83", "setattr_prepare+0x12" };
static const char *const ioctl_st[] = { "cap_capable+0x83", "dev_ioctl+0x40" };
static const char *const mount_st[] = { "cap_capable+0x83", "path_mount+0x9" };
static const char *const kill_st[] = { "cap_capable+0x83", "kill_ok_by_cred+0x5" };
static const char *const probe_st[] = { "cap_capable+0x83", "security_vm_enough_memory_mm+0x36" };

static void add_proc(struct record *r, uint32_t pid, const char *exe)
{
	struct rec_process *p = record_add_process(r, pid, 0, 0);

	p->exe = xstrdup(exe);
	p->comm = xstrdup(strrchr(exe, '/') + 1);
}

static struct rec_check *add_check(struct record *r, uint32_t pid, int cap, int ret,
				   uint64_t count, int sys, const char *const *frames)
{
	struct rec_check *c = record_add_check(r);

	c->pid = pid;
	c->cap = cap;
	c->ret = ret;
	c->count = count;
	c->syscall = sys;
	c->sysname = syscall_name_arch("x86_64", sys);   /* as the reader names it */
	c->init_ns = true;
	c->opts_known = true;   /* noaudit from the hook's opts, not the frames */
	c->comm = record_intern(r, "t", 1);
	c->stack = test_stack(r, frames, 2);
	return c;
}

/* OLD: a chowns (chown), b kills; a probes (noaudit). */
static void make_old(struct record *r)
{
	memset(r, 0, sizeof(*r));
	add_proc(r, 10, "/bin/a");
	add_proc(r, 20, "/bin/b");
	add_check(r, 10, CAP_CHOWN, 0, 2, NR_CHOWN, chown_st);
	add_check(r, 20, CAP_KILL, 0, 1, NR_KILL, kill_st);
	add_check(r, 10, CAP_SYS_ADMIN, 0, 5, NR_IOCTL, probe_st)->opt_noaudit = true;
}

/* NEW: a chowns with fchownat, uses CAP_NET_ADMIN, is denied CAP_SYS_ADMIN;
 * b is gone, c runs and makes no check; a's probe is gone. */
static void make_new(struct record *r)
{
	memset(r, 0, sizeof(*r));
	add_proc(r, 30, "/bin/a");
	add_proc(r, 40, "/bin/c");
	add_check(r, 30, CAP_CHOWN, 0, 3, NR_FCHOWNAT, chown_st);
	add_check(r, 30, CAP_NET_ADMIN, 0, 4, NR_IOCTL, ioctl_st);
	add_check(r, 30, CAP_SYS_ADMIN, -1, 1, NR_IOCTL, mount_st);
}

static void expect_item(const struct diff_item *it, bool added, enum diff_kind kind, int cap,
			const char *name, uint64_t checks)
{
	ASSERT_EQ(it->added, added);
	ASSERT_STR(diff_kind_name(it->kind), diff_kind_name(kind));
	ASSERT_EQ(it->cap, cap);
	if (name)
		ASSERT_STR(it->name, name);
	else
		ASSERT_TRUE(it->name == NULL);
	ASSERT_U64(it->checks, checks);
}

TEST(diff_lists_what_each_program_gained_and_lost)
{
	struct diff_opts o = { 0 };
	struct record old, new;
	struct diff d;
	const struct diff_item *it;

	make_old(&old);
	make_new(&new);
	ASSERT_EQ(diff_build(&old, &new, &o, &d), 0);
	ASSERT_EQ(d.nprogs, 2);   /* c has no checks: nothing to list */
	ASSERT_STR(d.progs[0].program, "/bin/a");
	ASSERT_TRUE(d.progs[0].in_old && d.progs[0].in_new);
	ASSERT_EQ(d.progs[0].nadded, 7);
	ASSERT_EQ(d.progs[0].nremoved, 1);
	ASSERT_EQ(d.progs[0].nitems, 8);
	it = &d.items[d.progs[0].first];
	/* by capability (CAP_CHOWN 0, CAP_NET_ADMIN 12, CAP_SYS_ADMIN 21),
	 * then kind, then name; the unchanged call site is not listed */
	expect_item(&it[0], false, DK_SYSCALL, CAP_CHOWN, "chown", 2);
	expect_item(&it[1], true, DK_SYSCALL, CAP_CHOWN, "fchownat", 3);
	expect_item(&it[2], true, DK_CAPABILITY, CAP_NET_ADMIN, NULL, 4);
	ASSERT_U64(it[2].granted, 4);
	ASSERT_U64(it[2].denied, 0);
	expect_item(&it[3], true, DK_SYSCALL, CAP_NET_ADMIN, "ioctl", 4);
	expect_item(&it[4], true, DK_CALLSITE, CAP_NET_ADMIN, "dev_ioctl", 4);
	/* denied only: a capability row, its syscall and the denial */
	expect_item(&it[5], true, DK_CAPABILITY, CAP_SYS_ADMIN, NULL, 1);
	ASSERT_U64(it[5].granted, 0);
	ASSERT_U64(it[5].denied, 1);
	expect_item(&it[6], true, DK_SYSCALL, CAP_SYS_ADMIN, "ioctl", 1);
	expect_item(&it[7], true, DK_DENIAL, CAP_SYS_ADMIN, "path_mount", 1);

	ASSERT_STR(d.progs[1].program, "/bin/b");
	ASSERT_TRUE(d.progs[1].in_old && !d.progs[1].in_new);
	ASSERT_EQ(d.progs[1].nitems, 3);
	it = &d.items[d.progs[1].first];
	expect_item(&it[0], false, DK_CAPABILITY, CAP_KILL, NULL, 1);
	expect_item(&it[1], false, DK_SYSCALL, CAP_KILL, "kill", 1);
	expect_item(&it[2], false, DK_CALLSITE, CAP_KILL, "kill_ok_by_cred", 1);

	ASSERT_EQ(d.nadded, 7);
	ASSERT_EQ(d.nremoved, 4);
	ASSERT_EQ(d.added[DK_CAPABILITY], 2);
	ASSERT_EQ(d.added[DK_SYSCALL], 3);
	ASSERT_EQ(d.added[DK_CALLSITE], 1);
	ASSERT_EQ(d.added[DK_DENIAL], 1);
	ASSERT_EQ(d.removed[DK_CAPABILITY], 1);
	ASSERT_EQ(d.removed[DK_SYSCALL], 2);
	ASSERT_EQ(d.removed[DK_CALLSITE], 1);
	ASSERT_EQ(d.removed[DK_DENIAL], 0);
	ASSERT_U64(d.old_required, CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_KILL));
	ASSERT_U64(d.new_required, CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_NET_ADMIN));
	ASSERT_U64(d.new_denied, CAP_BIT(CAP_SYS_ADMIN));
	ASSERT_EQ(d.old_programs, 2);
	ASSERT_EQ(d.new_programs, 2);
	diff_free(&d);
	record_free(&old);
	record_free(&new);
}

TEST(diff_of_a_record_with_itself_is_empty)
{
	struct diff_opts o = { .noaudit = true };
	struct record old, same;
	struct diff d;

	make_old(&old);
	make_old(&same);
	ASSERT_EQ(diff_build(&old, &same, &o, &d), 0);
	ASSERT_EQ(d.nitems, 0);
	ASSERT_EQ(d.nprogs, 0);
	ASSERT_EQ(d.nadded + d.nremoved, 0);
	ASSERT_U64(d.old_required, d.new_required);
	diff_free(&d);
	record_free(&old);
	record_free(&same);
}

TEST(diff_compares_noaudit_checks_only_when_asked)
{
	struct diff_opts o = { 0 };
	struct record old, new;
	struct diff d;
	const struct diff_item *it;

	make_old(&old);
	make_old(&new);
	/* NEW's probe at another function, in another syscall */
	new.checks[2].syscall = NR_KILL;
	new.checks[2].sysname = syscall_name_arch("x86_64", NR_KILL);
	new.checks[2].stack = test_stack(&new, mount_st, 2);
	ASSERT_EQ(diff_build(&old, &new, &o, &d), 0);
	ASSERT_EQ(d.nitems, 0);
	diff_free(&d);
	o.noaudit = true;
	ASSERT_EQ(diff_build(&old, &new, &o, &d), 0);
	ASSERT_EQ(d.nitems, 4);
	it = d.items;
	ASSERT_TRUE(it[0].noaudit && it[3].noaudit);
	expect_item(&it[0], false, DK_SYSCALL, CAP_SYS_ADMIN, "ioctl", 5);
	expect_item(&it[1], true, DK_SYSCALL, CAP_SYS_ADMIN, "kill", 5);
	expect_item(&it[2], true, DK_CALLSITE, CAP_SYS_ADMIN, "path_mount", 5);
	expect_item(&it[3], false, DK_CALLSITE, CAP_SYS_ADMIN, "security_vm_enough_memory_mm", 5);
	ASSERT_U64(d.old_required, d.new_required);   /* noaudit is never required */
	diff_free(&d);
	record_free(&old);
	record_free(&new);
}

TEST(diff_tells_a_host_capability_from_one_inside_a_user_namespace)
{
	struct diff_opts o = { 0 };
	struct record old, new;
	struct diff d;

	make_old(&old);
	make_old(&new);
	new.checks[0].userns = RU_INSIDE;   /* a's chown, now in its own namespace */
	new.checks[0].init_ns = false;
	ASSERT_EQ(diff_build(&old, &new, &o, &d), 0);
	ASSERT_EQ(d.nitems, 6);
	ASSERT_EQ(d.nadded, 3);
	ASSERT_EQ(d.nremoved, 3);
	/* host (0) before inside (1): the host row removed, the inside one added */
	expect_item(&d.items[0], false, DK_CAPABILITY, CAP_CHOWN, NULL, 2);
	ASSERT_EQ(d.items[0].userns, RU_HOST);
	expect_item(&d.items[3], true, DK_CAPABILITY, CAP_CHOWN, NULL, 2);
	ASSERT_EQ(d.items[3].userns, RU_INSIDE);
	/* no longer a host requirement */
	ASSERT_U64(d.new_required, CAP_BIT(CAP_KILL));
	diff_free(&d);
	record_free(&old);
	record_free(&new);
}
