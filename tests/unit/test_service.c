// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "analyze/service.h"
#include "analyze/suggest.h"
#include "facts/capnames.h"
#include "lib/util.h"
#include "recfile/recfile.h"
#include "test.h"

#define SVC_HDR(target) "{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":4," \
	"\"kernel\":\"6.18.0\",\"attach\":\"tp_btf\",\"scope\":\"service\",\"target\":" target \
	",\"start_ns\":1,\"end_ns\":2}\n"
#define PROC "{\"type\":\"process\",\"pid\":10,\"start_ns\":5,\"exec_id\":4," \
	"\"ppid\":1,\"comm\":\"chown\"}\n"
#define CHECK(cap) "{\"type\":\"check\",\"pid\":10,\"start_ns\":5,\"exec_id\":4," \
	"\"cap\":" #cap ",\"ret\":0,\"count\":1}\n"
#define END(c) "{\"type\":\"end\",\"processes\":1,\"stacks\":0,\"checks\":" #c "}\n"

/* The unit's sets go into the header's target and come back. */
TEST(service_target_round_trip)
{
	struct record w = { 0 }, r;
	char *buf = NULL, err[256] = "";
	size_t len = 0;
	FILE *f;

	w.hdr.version = REC_VERSION;
	w.hdr.kernel = xstrdup("6.18.0");
	w.hdr.attach = xstrdup("tp_btf");
	w.hdr.scope = xstrdup("service");
	w.hdr.target_service = xstrdup("/etc/systemd/system/x.service");
	w.hdr.has_service_caps = true;
	w.hdr.service_uid = 65534;
	w.hdr.service_bounding = CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_NET_RAW) | CAP_BIT(CAP_KILL);
	w.hdr.service_ambient = CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_NET_RAW);
	f = open_memstream(&buf, &len);
	ASSERT_EQ(recfile_write(f, &w), 0);
	fclose(f);
	ASSERT_HAS(buf, "\"target\":{\"service\":\"/etc/systemd/system/x.service\","
		   "\"uid\":65534,\"bounding\":[\"CAP_CHOWN\",\"CAP_KILL\",\"CAP_NET_RAW\"],"
		   "\"ambient\":[\"CAP_CHOWN\",\"CAP_NET_RAW\"]}");
	ASSERT_EQ(read_text(buf, &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_STR(r.hdr.target_service, "/etc/systemd/system/x.service");
	ASSERT_TRUE(r.hdr.has_service_caps);
	ASSERT_EQ(r.hdr.service_uid, 65534);
	ASSERT_U64(r.hdr.service_bounding, w.hdr.service_bounding);
	ASSERT_U64(r.hdr.service_ambient, w.hdr.service_ambient);
	record_free(&r);
	record_free(&w);
	free(buf);
}

TEST(service_sets_come_whole)
{
	struct record r;
	char err[256] = "";

	ASSERT_EQ(read_text(SVC_HDR("{\"service\":\"x.service\",\"uid\":0}") PROC END(0), &r,
			    err, sizeof(err)), -1);
	ASSERT_HAS(err, "'uid', 'bounding' and 'ambient' go together");
	ASSERT_EQ(read_text(SVC_HDR("{\"uid\":0,\"bounding\":[],\"ambient\":[]}") PROC END(0),
			    &r, err, sizeof(err)), -1);
	ASSERT_EQ(read_text(SVC_HDR("{\"service\":\"x.service\",\"uid\":0,\"bounding\":"
				    "[\"CAP_BOGUS\"],\"ambient\":[]}") PROC END(0), &r, err,
			    sizeof(err)), -1);
	ASSERT_HAS(err, "unknown capability");
}

/* Granted: the ambient set for another user, the bounding set for root;
 * removal candidates: granted and never checked. */
TEST(service_removal_candidates_are_granted_and_unchecked)
{
	struct record r;
	struct suggestion s;
	struct suggest_opts so = { 0 };
	uint64_t granted, unused;
	char err[256] = "";

	ASSERT_EQ(read_text(SVC_HDR("{\"service\":\"x.service\",\"uid\":65534,\"bounding\":"
				    "[\"CAP_CHOWN\",\"CAP_NET_RAW\",\"CAP_KILL\"],\"ambient\":"
				    "[\"CAP_CHOWN\",\"CAP_NET_RAW\",\"CAP_SYS_ADMIN\"]}")
			    PROC CHECK(0) END(1), &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_TRUE(service_removal_candidates(&r, &granted, &unused));
	ASSERT_U64(granted, CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_NET_RAW));
	ASSERT_U64(unused, CAP_BIT(CAP_NET_RAW));
	ASSERT_EQ(suggest_build(&r, &so, &s), 0);
	ASSERT_TRUE(s.service);
	ASSERT_U64(s.service_unused, CAP_BIT(CAP_NET_RAW));
	suggest_free(&s);
	record_free(&r);

	/* root: the bounding set; a noaudit probe (CAP_SYS_ADMIN, exec's
	 * vm_enough_memory) is not a use */
	ASSERT_EQ(read_text(SVC_HDR("{\"service\":\"x.service\",\"uid\":0,\"bounding\":"
				    "[\"CAP_CHOWN\",\"CAP_KILL\",\"CAP_SYS_ADMIN\"],"
				    "\"ambient\":[]}")
			    PROC CHECK(0) "{\"type\":\"check\",\"pid\":10,\"start_ns\":5,"
			    "\"exec_id\":4,\"cap\":21,\"ret\":0,\"count\":1,"
			    "\"opts\":{\"noaudit\":true,\"insetid\":false}}\n" END(2), &r, err,
			    sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_TRUE(service_removal_candidates(&r, &granted, &unused));
	ASSERT_U64(granted, CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_KILL) | CAP_BIT(CAP_SYS_ADMIN));
	ASSERT_U64(unused, CAP_BIT(CAP_KILL) | CAP_BIT(CAP_SYS_ADMIN));
	record_free(&r);

	/* not a unit file's record */
	ASSERT_EQ(read_text(SVC_HDR("{\"unit\":\"x.service\"}") PROC CHECK(0) END(1), &r, err,
			    sizeof(err)), 0);
	ASSERT_FALSE(service_removal_candidates(&r, &granted, &unused));
	record_free(&r);
}
