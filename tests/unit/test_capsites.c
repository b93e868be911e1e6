// SPDX-License-Identifier: GPL-2.0
/* The capability-site tables' chain rows, case labels and netlink acks
 * (docs/capsites.md), on the tables built in: ksite_lookup_op(),
 * ksite_chain(), ks_effect_ack(). */
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>

#include "facts/capsites.h"
#include "test.h"

static const struct ktable *table(const char *release)
{
	bool exact;

	return ktable_for(release, &exact);
}

/* net/core/sock.c sk_setsockopt(): one switch, many options */
TEST(capsites_lookup_op_narrows_to_the_case)
{
	const struct ktable *t = table("6.12.118");
	struct ks_answer all, a;

	ksite_lookup(t, "sk_setsockopt", CAP_NET_ADMIN, &all);
	ASSERT_TRUE(all.nsites > 1);
	/* SO_RCVBUFFORCE: if (!sockopt_capable(CAP_NET_ADMIN)) { ret = -EPERM; break; } */
	ksite_lookup_op(t, "sk_setsockopt", CAP_NET_ADMIN, "SO_RCVBUFFORCE", &a);
	ASSERT_EQ(a.nsites, 1);
	ASSERT_STR(a.effect, "EPERM");
	ASSERT_STR(a.when, "SO_RCVBUFFORCE");
	ASSERT_STR(a.first->file, "net/core/sock.c");
	ASSERT_TRUE(a.change == NULL);
	ksite_lookup_op(t, "sk_setsockopt", CAP_NET_ADMIN, "SO_SNDBUFFORCE", &a);
	ASSERT_EQ(a.nsites, 1);
	ASSERT_STR(a.effect, "EPERM");
	/* an option no row has, or none: every matching row, as ksite_lookup() */
	ksite_lookup_op(t, "sk_setsockopt", CAP_NET_ADMIN, "SO_NO_SUCH_OPTION", &a);
	ASSERT_EQ(a.nsites, all.nsites);
	ASSERT_TRUE(a.first == all.first);
	ASSERT_TRUE(a.effect == all.effect);
	ksite_lookup_op(t, "sk_setsockopt", CAP_NET_ADMIN, NULL, &a);
	ASSERT_EQ(a.nsites, all.nsites);
	ASSERT_U64(a.alts, all.alts);
	/* a label is one of the '|'-separated ones, not a part of one */
	ksite_lookup_op(t, "sk_setsockopt", CAP_NET_ADMIN, "SO_RCVBUF", &a);
	ASSERT_EQ(a.nsites, all.nsites);
}

TEST(capsites_chain_rows_say_what_the_caller_does)
{
	const struct ktable *t = table("6.12.118");
	struct ks_answer a;

	/* fs/attr.c setattr_prepare(): the chmod goes on, S_ISGID cleared */
	ksite_chain(t, "setattr_prepare", "in_group_or_capable", CAP_FSETID, NULL, &a);
	ASSERT_EQ(a.nsites, 1);
	ASSERT_STR(a.effect, "silent");
	ASSERT_HAS(a.change, "S_ISGID");
	ASSERT_STR(a.first->via, "in_group_or_capable");
	ASSERT_STR(a.first->file, "fs/attr.c");
	/* fs/inode.c mode_strip_sgid(): the mode returned without it */
	ksite_chain(t, "mode_strip_sgid", "in_group_or_capable", CAP_FSETID, NULL, &a);
	ASSERT_EQ(a.nsites, 1);
	ASSERT_STR(a.effect, "value");
	ASSERT_STR(a.change, "return mode & ~S_ISGID");
	/* kernel/sys.c set_one_prio(): EACCES; also by the syscall it is
	 * inlined into */
	ksite_chain(t, "set_one_prio", "can_nice", CAP_SYS_NICE, NULL, &a);
	ASSERT_EQ(a.nsites, 1);
	ASSERT_STR(a.effect, "EACCES");
	ASSERT_TRUE(ks_effect_is_errno(a.effect));
	ksite_chain(t, "SYSCALL_DEFINE3", "can_nice", CAP_SYS_NICE, NULL, &a);
	ASSERT_TRUE(a.nsites >= 1);
	ASSERT_STR(a.effect, "EACCES");
	/* another capability, another callee, no callee: no row */
	ksite_chain(t, "set_one_prio", "can_nice", CAP_SYS_ADMIN, NULL, &a);
	ASSERT_EQ(a.nsites, 0);
	ksite_chain(t, "set_one_prio", "in_group_or_capable", CAP_SYS_NICE, NULL, &a);
	ASSERT_EQ(a.nsites, 0);
	ksite_chain(t, "set_one_prio", NULL, CAP_SYS_NICE, NULL, &a);
	ASSERT_EQ(a.nsites, 0);
	/* mm/mmap.c do_mmap(): mlock_future_ok() false is EAGAIN */
	ksite_chain(t, "do_mmap", "mlock_future_ok", CAP_IPC_LOCK, NULL, &a);
	ASSERT_EQ(a.nsites, 1);
	ASSERT_STR(a.effect, "EAGAIN");
}

/* ksite_lookup() reads the rows that ask themselves, as before */
TEST(capsites_lookup_leaves_chain_rows_out)
{
	const struct ktable *t = table("6.12.118");
	struct ks_answer a;

	/* setattr_prepare() asks CAP_FSETID only through in_group_or_capable() */
	ksite_lookup(t, "setattr_prepare", CAP_FSETID, &a);
	ASSERT_EQ(a.nsites, 0);
	ksite_lookup(t, "setattr_prepare", CAP_FOWNER, &a);
	ASSERT_TRUE(a.nsites >= 1);
	ASSERT_TRUE(a.first->via == NULL);
	ASSERT_STR(a.effect, "EPERM");
	/* the callee's own row */
	ksite_lookup(t, "in_group_or_capable", CAP_FSETID, &a);
	ASSERT_EQ(a.nsites, 1);
	ASSERT_STR(a.effect, "false");
	ksite_lookup(t, "mlock_future_ok", CAP_IPC_LOCK, &a);
	ASSERT_EQ(a.nsites, 1);
	ASSERT_STR(a.effect, "false");
	ASSERT_STR(a.allowed_without, "locked_pages <= limit_pages");
	/* mm/mlock.c do_mlock(): int error = -ENOMEM; ... error = apply_...() */
	ksite_lookup(t, "do_mlock", CAP_IPC_LOCK, &a);
	ASSERT_EQ(a.nsites, 2);
}

/* net/netfilter/nfnetlink.c nfnetlink_rcv(): netlink_ack(skb, nlh, -EPERM, NULL) */
TEST(capsites_netlink_ack_effect)
{
	const struct ktable *t = table("6.12.118");
	struct ks_answer a;
	const char *err = NULL;

	ksite_lookup(t, "nfnetlink_rcv", CAP_NET_ADMIN, &a);
	ASSERT_EQ(a.nsites, 1);
	ASSERT_STR(a.effect, "ack:EPERM");
	ASSERT_TRUE(ks_effect_ack(a.effect, &err));
	ASSERT_STR(err, "EPERM");
	ASSERT_FALSE(ks_effect_is_errno(a.effect));
	ASSERT_TRUE(ks_effect_is_errno("EPERM"));
	ASSERT_FALSE(ks_effect_ack("EPERM", &err));
	ASSERT_FALSE(ks_effect_ack("ack:", &err));
	ASSERT_FALSE(ks_effect_ack("ack:eperm", &err));
	ASSERT_FALSE(ks_effect_ack(NULL, &err));
	ASSERT_TRUE(ks_effect_ack("ack:ENOENT", NULL));
}

/* Every table has chain rows and case labels; a chain row names another
 * function than its own, and the index answers as a scan of a copy of the
 * table does (for every chain row, and for every row with case labels). */
static void same_chain(const struct ktable *t, const struct ktable *copy, const char *fn,
		       const char *via, int cap, const char *op)
{
	struct ks_answer a, b;

	if (via) {
		ksite_chain(t, fn, via, cap, op, &a);
		ksite_chain(copy, fn, via, cap, op, &b);
	} else {
		ksite_lookup_op(t, fn, cap, op, &a);
		ksite_lookup_op(copy, fn, cap, op, &b);
	}
	ASSERT_TRUE(a.nsites >= 1);
	ASSERT_EQ(a.nsites, b.nsites);
	ASSERT_TRUE(a.first == b.first);
	ASSERT_U64(a.alts, b.alts);
	ASSERT_TRUE(a.effect == b.effect);
	ASSERT_TRUE(a.change == b.change);
	ASSERT_TRUE(a.when == b.when);
	ASSERT_TRUE(a.allowed_without == b.allowed_without);
}

TEST(capsites_chain_rows_in_every_table)
{
	size_t nt, t, i;
	const struct ktable *all = ktable_all(&nt);

	ASSERT_EQ(nt, 4);
	for (t = 0; t < nt; t++) {
		struct ktable copy = all[t];
		size_t chain = 0, when = 0;

		for (i = 0; i < all[t].n; i++) {
			const struct ksite *k = &all[t].sites[i];
			int cap = k->caps[0] >= 0 ? k->caps[0] : CAP_CHOWN;
			char op[128];
			const char *bar;

			if (k->via) {
				chain++;
				ASSERT_TRUE(strcmp(k->via, k->func) != 0);
				same_chain(&all[t], &copy, k->func, k->via, cap, NULL);
			}
			if (k->when && (k->caps[0] >= 0 || k->via)) {
				when++;
				bar = strchr(k->when, '|');
				snprintf(op, sizeof(op), "%.*s",
					 (int)(bar ? (size_t)(bar - k->when) : strlen(k->when)), k->when);
				same_chain(&all[t], &copy, k->func, k->via, cap, op);
			}
			/* change only where a denial runs or stores something */
			if (k->change)
				ASSERT_TRUE(!strcmp(k->effect, "silent") || !strcmp(k->effect, "value"));
		}
		ASSERT_TRUE(chain > 100);
		ASSERT_TRUE(when > 100);
	}
}
