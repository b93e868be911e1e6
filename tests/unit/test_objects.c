// SPDX-License-Identifier: GPL-2.0
/* The record's objects from the hook's events (record/objects.c), their
 * names (facts/objnames.c) and the union of two lines' (recfile/objects.c). */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "facts/objnames.h"
#include "recfile/recfile.h"
#include "record/objects.h"

static void ev_init(struct ca_obj_event *e, int kind)
{
	memset(e, 0, sizeof(*e));
	e->type = CA_EV_OBJECT;
	e->kind = (__u16)kind;
	e->num = -1;
	e->detail = -1;
}

TEST(objects_file_relative_joined)
{
	struct ca_obj_event e;
	struct rec_object o;

	ev_init(&e, CA_OBJ_FILE);
	strcpy(e.path, "./a/b");
	strcpy(e.base, "/srv/x");
	e.oflags = CA_OBJF_REL | CA_OBJF_INODE;
	e.uid = 65534;
	e.gid = 7;
	e.mode = 0100640;
	objtab_object_of(&e, &o);
	ASSERT_EQ(o.kind, OBJ_FILE);
	ASSERT_STR(o.path, "/srv/x/a/b");
	ASSERT_EQ(o.uid, 65534);
	ASSERT_EQ(o.gid, 7);
	ASSERT_EQ(o.mode, 0100640);
	ASSERT_EQ(o.late, 0);
	rec_object_clear(&o);
	/* the cwd is the root; a walk that was cut says so */
	strcpy(e.path, "etc");
	strcpy(e.base, "/");
	objtab_object_of(&e, &o);
	ASSERT_STR(o.path, "/etc");
	rec_object_clear(&o);
	e.oflags |= CA_OBJF_BASE_CUT;
	strcpy(e.base, "/deep/er");
	objtab_object_of(&e, &o);
	ASSERT_STR(o.path, ".../deep/er/etc");
	rec_object_clear(&o);
	/* a dirfd that was not found: the path stays relative */
	e.oflags = CA_OBJF_REL | CA_OBJF_NOBASE;
	objtab_object_of(&e, &o);
	ASSERT_STR(o.path, "etc");
	rec_object_clear(&o);
}

TEST(objects_file_bytes_kept)
{
	struct ca_obj_event e;
	struct rec_object o;

	ev_init(&e, CA_OBJ_FILE);
	/* a path of 256 bytes without its NUL, and bytes that are not UTF-8 */
	memset(e.path, 'a', sizeof(e.path));
	e.path[0] = '/';
	e.path[5] = '\xff';
	e.oflags = CA_OBJF_INODE;
	objtab_object_of(&e, &o);
	ASSERT_EQ(strlen(o.path), CA_PATH_LEN + 3);
	ASSERT_EQ(strncmp(o.path, "/aaaa\\xffaa", 11), 0);
	rec_object_clear(&o);
}

TEST(objects_sysctl_from_proc_sys)
{
	struct ca_obj_event e;
	struct rec_object o;

	ev_init(&e, CA_OBJ_FILE);
	strcpy(e.path, "/proc/sys/net/ipv4/ip_forward");
	e.oflags = CA_OBJF_INODE;
	objtab_object_of(&e, &o);
	ASSERT_EQ(o.kind, OBJ_SYSCTL);
	ASSERT_STR(o.name, "net.ipv4.ip_forward");
	ASSERT_STR(o.path, "/proc/sys/net/ipv4/ip_forward");
	rec_object_clear(&o);
}

TEST(objects_named_numbers)
{
	struct ca_obj_event e;
	struct rec_object o;
	char buf[64];

	ev_init(&e, CA_OBJ_NETLINK);
	e.detail = 12;            /* NETLINK_NETFILTER */
	e.num = 10 << 8 | 0;      /* NFNL_SUBSYS_NFTABLES, NFT_MSG_NEWTABLE */
	objtab_object_of(&e, &o);
	ASSERT_STR(o.detail, "NETLINK_NETFILTER");
	ASSERT_STR(o.name, "NFT_MSG_NEWTABLE");
	ASSERT_EQ(o.num, 2560);
	rec_object_clear(&o);
	ASSERT_STR(objname_netlink_msg(16, 28, buf, sizeof(buf)), "generic netlink family 28");
	ASSERT_STR(objname_netlink_msg(16, 16, buf, sizeof(buf)), "GENL_ID_CTRL");
	ASSERT_STR(objname_netlink_msg(0, 20, buf, sizeof(buf)), "RTM_NEWADDR");
	ASSERT_STR(objname_netlink_msg(12, 6 << 8 | 2, buf, sizeof(buf)), "IPSET_CMD_CREATE");
	ASSERT_EQ(objname_netlink_msg(0, 9999, buf, sizeof(buf)) == NULL, 1);

	ev_init(&e, CA_OBJ_SOCKOPT);
	e.detail = 1;
	e.num = 33;
	objtab_object_of(&e, &o);
	ASSERT_STR(o.detail, "SOL_SOCKET");
	ASSERT_STR(o.name, "SO_RCVBUFFORCE");
	rec_object_clear(&o);

	ev_init(&e, CA_OBJ_BPF);
	e.num = 5;
	e.detail = 6;
	objtab_object_of(&e, &o);
	ASSERT_STR(o.name, "BPF_PROG_LOAD");
	ASSERT_STR(o.detail, "BPF_PROG_TYPE_XDP");
	rec_object_clear(&o);

	ev_init(&e, CA_OBJ_FLAGS);
	e.detail = CA_FLAGS_CLONE;
	e.num = 0x40000000 | 0x00020000 | 17;   /* CLONE_NEWNET|CLONE_NEWNS, SIGCHLD */
	objtab_object_of(&e, &o);
	ASSERT_STR(o.detail, "clone");
	ASSERT_STR(o.name, "CLONE_NEWNS|CLONE_NEWNET|SIGCHLD");
	rec_object_clear(&o);

	ev_init(&e, CA_OBJ_FLAGS);
	e.detail = CA_FLAGS_UNSHARE;
	e.num = 0x40000000 | 0x80 | 0x400000000ULL;  /* CLONE_NEWTIME here; a bit unnamed */
	objtab_object_of(&e, &o);
	ASSERT_STR(o.name, "CLONE_NEWNET|CLONE_NEWTIME|0x400000000");
	rec_object_clear(&o);

	ev_init(&e, CA_OBJ_BIND);
	e.detail = 10;
	e.num = 80;
	objtab_object_of(&e, &o);
	ASSERT_STR(o.detail, "AF_INET6");
	ASSERT_EQ(o.num, 80);
	rec_object_clear(&o);

	ev_init(&e, 99);          /* a kind this build does not know */
	objtab_object_of(&e, &o);
	ASSERT_EQ(o.kind, OBJ_NONE);
	rec_object_clear(&o);
}

/* A process in a child pid namespace is not looked up in ours. */
TEST(objects_process_other_pidns)
{
	struct ca_obj_event e;
	struct rec_object o;

	ev_init(&e, CA_OBJ_PROCESS);
	e.pid = 1;
	e.oflags = CA_OBJF_PIDNS;
	objtab_object_of(&e, &o);
	ASSERT_EQ(o.pid, 1);
	ASSERT_EQ(o.name == NULL, 1);
	ASSERT_EQ(o.uid, -1);
	ASSERT_EQ(o.late, 0);
	rec_object_clear(&o);
}

/* The events of a key, attached with the drained counts: an object whose
 * event was lost is counted, not named; the union of two lines is bounded. */
TEST(objects_attach_and_union)
{
	struct objtab *t = objtab_new();
	struct ca_obj_event e;
	struct agg_objs ao = { 0 };
	struct rec_check c = { 0 }, d = { 0 };
	size_t i;

	ev_init(&e, CA_OBJ_SOCKOPT);
	e.key.tgid = 42;
	e.detail = 1;
	for (i = 0; i < 3; i++) {
		e.num = 30 + (long long)i;
		e.fp = 100 + i;
		objtab_on_event(t, &e);
		objtab_on_event(t, &e);   /* sent again after a drain: once */
	}
	ao.n = 4;
	for (i = 0; i < 4; i++) {
		ao.fp[i] = 100 + i;   /* 103: its event was lost */
		ao.count[i] = i + 1;
	}
	ao.more = 5;
	objtab_attach(t, &e.key, &ao, &c);
	ASSERT_EQ(c.nobjects, 3);
	ASSERT_EQ(c.objects[2].num, 32);
	ASSERT_EQ(c.objects[2].count, 3);
	ASSERT_U64(c.objects_more, 5 + 4);
	/* another line of the same check: its objects join, the 17th is counted */
	for (i = 0; i < REC_MAX_OBJECTS; i++) {
		struct rec_object o = { .kind = OBJ_PROCESS, .pid = 1000 + (int64_t)i, .uid = -1,
					.gid = -1, .mode = -1, .num = -1, .count = 2 };

		rec_check_objects_add(&d, &o);
	}
	rec_check_objects_union(&c, &d);
	ASSERT_EQ(c.nobjects, REC_MAX_OBJECTS);
	ASSERT_U64(c.objects_more, 9 + 3 * 2);
	ASSERT_EQ(d.nobjects, 0);
	rec_check_objects_free(&c);
	rec_check_objects_free(&d);
	objtab_free(t);
}
