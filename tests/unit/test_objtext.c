// SPDX-License-Identifier: GPL-2.0
/* What a check was about, in words (analyze/objtext.c), and the bounded
 * union of a row's objects (analyze/objset.c). */
#include <jansson.h>
#include <string.h>

#include "analyze/objset.h"
#include "analyze/objtext.h"
#include "test.h"

/* an object with nothing known but its kind */
static struct rec_object obj(int kind)
{
	return (struct rec_object){ .kind = kind, .pid = -1, .uid = -1, .gid = -1, .mode = -1,
				    .num = -1, .count = 1 };
}

static const char *text(const struct rec_object *o)
{
	static char buf[2048];

	return object_text(o, buf, sizeof(buf));
}

TEST(objtext_each_kind)
{
	struct rec_object o;

	o = obj(OBJ_FILE);
	o.path = "/srv/app/config.yml", o.uid = 65534, o.gid = 65534, o.mode = 0100600;
	ASSERT_STR(text(&o), "/srv/app/config.yml (owner 65534:65534, mode 0600)");
	o.late = true;
	ASSERT_STR(text(&o), "/srv/app/config.yml (owner 65534:65534, mode 0600, read after the check)");
	o = obj(OBJ_FILE);
	o.path = "/srv", o.mode = 040755, o.uid = 0;
	ASSERT_STR(text(&o), "/srv (directory, owner 0, mode 0755)");
	o = obj(OBJ_FILE);
	o.path = "/x";
	ASSERT_STR(text(&o), "/x");

	o = obj(OBJ_PROCESS);
	o.pid = 4242, o.name = "sleep", o.uid = 65534;
	ASSERT_STR(text(&o), "process 4242 (sleep, uid 65534)");
	o.name = NULL;
	ASSERT_STR(text(&o), "process 4242 (uid 65534)");

	o = obj(OBJ_SOCKOPT);
	o.detail = "SOL_SOCKET", o.name = "SO_RCVBUFFORCE", o.num = 33;
	ASSERT_STR(text(&o), "SOL_SOCKET SO_RCVBUFFORCE");
	o.name = NULL;
	ASSERT_STR(text(&o), "SOL_SOCKET option 33");

	o = obj(OBJ_SOCKET);
	o.detail = "AF_INET", o.name = "SOCK_RAW";
	ASSERT_STR(text(&o), "socket AF_INET SOCK_RAW");
	o.num = 1;
	ASSERT_STR(text(&o), "socket AF_INET SOCK_RAW protocol 1");

	o = obj(OBJ_BIND);
	o.detail = "AF_INET", o.num = 80;
	ASSERT_STR(text(&o), "bind AF_INET port 80");

	o = obj(OBJ_NETLINK);
	o.detail = "NETLINK_ROUTE", o.name = "RTM_NEWLINK", o.num = 16;
	ASSERT_STR(text(&o), "netlink NETLINK_ROUTE RTM_NEWLINK");

	o = obj(OBJ_IOCTL);
	o.name = "SIOCSIFFLAGS", o.path = "/dev/net/tun";
	ASSERT_STR(text(&o), "ioctl SIOCSIFFLAGS on /dev/net/tun");
	o.name = NULL, o.num = 0x8914;
	ASSERT_STR(text(&o), "ioctl request 0x8914 on /dev/net/tun");

	o = obj(OBJ_BPF);
	o.name = "BPF_PROG_LOAD", o.detail = "BPF_PROG_TYPE_XDP";
	ASSERT_STR(text(&o), "BPF_PROG_LOAD (BPF_PROG_TYPE_XDP)");

	o = obj(OBJ_MOUNT);
	o.detail = "tmpfs", o.path = "/mnt";
	ASSERT_STR(text(&o), "mount tmpfs on /mnt");

	o = obj(OBJ_SYSCTL);
	o.name = "net.ipv4.ip_forward", o.path = "/proc/sys/net/ipv4/ip_forward";
	ASSERT_STR(text(&o), "sysctl net.ipv4.ip_forward");

	o = obj(OBJ_FLAGS);
	o.detail = "clone", o.name = "CLONE_NEWNET|CLONE_NEWNS";
	ASSERT_STR(text(&o), "clone CLONE_NEWNET|CLONE_NEWNS");
}

TEST(objtext_escapes)
{
	struct rec_object o = obj(OBJ_FILE);
	char buf[256];
	FILE *f;
	size_t n;

	o.path = "/tmp/a\nb";
	ASSERT_STR(text(&o), "/tmp/a\\x0ab");
	o.path = "/tmp/\x1b[31mred";
	ASSERT_STR(text(&o), "/tmp/\\x1b[31mred");
	o.path = "/tmp/\xe2\x80\xaegpj.exe";   /* U+202E RIGHT-TO-LEFT OVERRIDE */
	ASSERT_STR(text(&o), "/tmp/\\xe2\\x80\\xaegpj.exe");
	o.path = "/home/jos\xc3\xa9/a\\b";
	ASSERT_STR(text(&o), "/home/jos\xc3\xa9/a\\\\b");
	o = obj(OBJ_PROCESS);
	o.pid = 7, o.name = "sle\x1b" "ep";
	ASSERT_STR(text(&o), "process 7 (sle\\x1bep)");

	/* html: markup and controls */
	{
		struct obj_set s = { 0 };
		struct rec_object h = obj(OBJ_FILE);

		h.path = "/tmp/<b>&\"x\"\n";
		obj_set_add(&s, &h, 1);
		f = fmemopen(buf, sizeof(buf), "w");
		objects_html(f, &s, OBJ_SHOW);
		n = (size_t)ftell(f);
		fclose(f);
		buf[n < sizeof(buf) ? n : sizeof(buf) - 1] = '\0';
		ASSERT_STR(buf, "/tmp/&lt;b&gt;&amp;&quot;x&quot;\\x0a");
	}
}

TEST(objset_union_bounded)
{
	struct rec_object a[OBJSET_MAX + 2], dup = obj(OBJ_FILE);
	struct rec_check c = { 0 };
	struct obj_set s = { 0 }, owned;
	char names[OBJSET_MAX + 2][16], buf[1024];
	json_t *j = json_object();
	size_t i;

	for (i = 0; i < OBJSET_MAX + 2; i++) {
		snprintf(names[i], sizeof(names[i]), "/f%zu", i);
		a[i] = obj(OBJ_FILE);
		a[i].path = names[i];
		a[i].count = 2;
	}
	c.objects = a;
	c.nobjects = 3;
	c.objects_more = 5;
	obj_set_add_check(&s, &c);
	ASSERT_EQ(s.n, 3);
	ASSERT_U64(s.more, 5);
	ASSERT_STR(objects_text(&s, OBJ_SHOW, buf, sizeof(buf)),
		   "/f0, /f1, /f2 and others in 5 checks");
	dup.path = "/f1";   /* another check about /f1: counted, not listed twice */
	obj_set_add(&s, &dup, 4);
	ASSERT_EQ(s.n, 3);
	ASSERT_U64(s.e[1].count, 6);
	c.objects = a + 3;
	c.nobjects = OBJSET_MAX + 2 - 3;
	c.objects_more = 0;
	obj_set_add_check(&s, &c);
	ASSERT_EQ(s.n, OBJSET_MAX);
	ASSERT_U64(s.more, 5 + 2 * 2);
	ASSERT_STR(objects_text(&s, OBJ_SHOW, buf, sizeof(buf)),
		   "/f0, /f1, /f2, 5 more and others in 9 checks");
	ASSERT_STR(objects_text(&s, 1, buf, sizeof(buf)), "/f0, 7 more and others in 9 checks");

	obj_set_own(&owned, &s);
	objects_json_set(j, &owned);
	obj_set_release(&owned);
	ASSERT_EQ(json_array_size(json_object_get(j, "objects")), OBJSET_MAX);
	ASSERT_EQ(json_integer_value(json_object_get(j, "objects_more")), 9);
	ASSERT_STR(json_string_value(json_object_get(json_array_get(json_object_get(j, "objects"), 1),
						     "text")), "/f1");
	ASSERT_EQ(json_integer_value(json_object_get(json_array_get(json_object_get(j, "objects"), 1),
						     "count")), 6);
	json_decref(j);

	/* two and none */
	memset(&s, 0, sizeof(s));
	ASSERT_STR(objects_text(&s, OBJ_SHOW, buf, sizeof(buf)), "");
	j = json_object();
	objects_json_set(j, &s);
	ASSERT_EQ(json_object_size(j), 0);   /* old records: unchanged JSON */
	json_decref(j);
	obj_set_add(&s, &a[0], 1);
	obj_set_add(&s, &a[1], 1);
	ASSERT_STR(objects_text(&s, OBJ_SHOW, buf, sizeof(buf)), "/f0 and /f1");
	obj_set_add(&s, &a[2], 1);
	obj_set_add(&s, &a[3], 1);
	ASSERT_STR(objects_text(&s, OBJ_SHOW, buf, sizeof(buf)), "/f0, /f1, /f2 and 1 more");
}
