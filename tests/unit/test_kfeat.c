// SPDX-License-Identifier: GPL-2.0
/* The kernel's BPF features (facts/kfeat.h) and the record header's
 * kernel_bpf, which names the missing ones. */
#include <stdlib.h>

#include "facts/kfeat.h"
#include "recfile/recfile.h"
#include "test.h"
#include "lib/util.h"

#define HDR_WITH(kbpf)                                                          \
	"{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":4,"    \
	"\"kernel\":\"5.10.0-32-cloud-amd64\",\"attach\":\"fexit\",\"start_ns\":1," \
	"\"end_ns\":2" kbpf "}\n"
#define END0 "{\"type\":\"end\",\"processes\":0,\"stacks\":0,\"checks\":0}\n"

TEST(kfeat_names_parse_back_to_their_bits)
{
	size_t i;

	for (i = 0; i < KF_NR; i++) {
		ASSERT_EQ(kfeat_parse(kfeat_table[i].name), kfeat_table[i].bit);
		ASSERT_TRUE(kfeat_info(kfeat_table[i].bit) == &kfeat_table[i]);
		/* a commit id of 12 hex digits and a version: what docs cite */
		ASSERT_EQ(strlen(kfeat_table[i].commit), 12);
		ASSERT_EQ(strspn(kfeat_table[i].commit, "0123456789abcdef"), 12);
	}
	ASSERT_EQ(kfeat_parse("find_vma"), KF_FIND_VMA);
	ASSERT_STR(kfeat_info(KF_TASK_PT_REGS)->since, "5.15");
	ASSERT_STR(kfeat_info(KF_FIND_VMA)->commit, "7c7e3d31e785");
	ASSERT_EQ(kfeat_parse("bpf_find_vma"), 0);
	ASSERT_EQ(kfeat_parse(""), 0);
	ASSERT_EQ(kfeat_parse(NULL), 0);
	ASSERT_TRUE(kfeat_info(0x100) == NULL);
}

TEST(kfeat_lists_parse_strictly)
{
	uint32_t bits = 99;
	char err[256] = "";

	ASSERT_EQ(kfeat_parse_list("", &bits, err, sizeof(err)), 0);
	ASSERT_EQ(bits, 0);
	ASSERT_EQ(kfeat_parse_list(NULL, &bits, err, sizeof(err)), 0);
	ASSERT_EQ(bits, 0);
	ASSERT_EQ(kfeat_parse_list("task_btf,find_vma", &bits, err, sizeof(err)), 0);
	ASSERT_EQ(bits, KF_TASK_BTF | KF_FIND_VMA);
	ASSERT_EQ(kfeat_parse_list("task_btf,,find_vma", &bits, err, sizeof(err)), -1);
	ASSERT_HAS(err, "'' is not a BPF feature capaudit knows");
	ASSERT_EQ(kfeat_parse_list("find_vma,", &bits, err, sizeof(err)), -1);
	ASSERT_EQ(kfeat_parse_list("vma", &bits, err, sizeof(err)), -1);
	ASSERT_HAS(err, "'vma' is not a BPF feature capaudit knows: task_btf, task_pt_regs, "
		   "find_vma, task_storage or kretprobe_stack");
	ASSERT_EQ(kfeat_parse_list("kretprobe_stack", &bits, err, sizeof(err)), 0);
	ASSERT_EQ(bits, KF_KRETPROBE_STACK);
	/* a word longer than any name: named, cut, never overrun */
	ASSERT_EQ(kfeat_parse_list("task_btf_task_btf_task_btf_task_btf_task_btf_x", &bits, err,
				   sizeof(err)), -1);
	ASSERT_HAS(err, "'task_btf_task_btf_task_btf_task_btf_task' is not");
}

TEST(kfeat_degraded_names_only_what_a_recording_loses)
{
	char lines[KF_NR][KF_LINE];

	/* nothing missing, or only paths that record the same */
	ASSERT_EQ(kfeat_degraded(0, true, true, lines, KF_NR), 0);
	ASSERT_EQ(kfeat_degraded(KF_TASK_BTF | KF_TASK_PT_REGS | KF_TASK_STORAGE, true, true, lines,
				 KF_NR), 0);
	/* the leaf frame: only with --user-stacks */
	ASSERT_EQ(kfeat_degraded(KF_FIND_VMA, false, true, lines, KF_NR), 0);
	ASSERT_EQ(kfeat_degraded(KF_FIND_VMA, true, false, lines, KF_NR), 1);
	ASSERT_HAS(lines[0], "--user-stacks without leaf frames");
	ASSERT_HAS(lines[0], "bpf_find_vma() needs Linux 5.17 (commit 7c7e3d31e785)");
	/* the call-site cache: only in kprobe mode */
	ASSERT_EQ(kfeat_degraded(KF_KRETPROBE_STACK, true, false, lines, KF_NR), 0);
	ASSERT_EQ(kfeat_degraded(KF_ALL, true, true, lines, KF_NR), 2);
	ASSERT_HAS(lines[0], "kprobe mode without the call-site cache");
	ASSERT_HAS(lines[0], "Linux 5.15 (commit 19138af1bd88)");
	/* max is kept */
	ASSERT_EQ(kfeat_degraded(KF_ALL, true, true, lines, 1), 1);
}

TEST(kfeat_header_round_trip)
{
	struct record w = { 0 }, r;
	char *buf = NULL, err[256] = "";
	size_t len = 0;
	FILE *f;

	w.hdr.kernel = xstrdup("5.10.0-32-cloud-amd64");
	w.hdr.attach = xstrdup("fexit");
	w.hdr.start_ns = 1;
	w.hdr.end_ns = 2;
	w.hdr.kernel_missing = KF_FIND_VMA | KF_TASK_BTF;
	w.hdr.degraded = xcalloc(2, sizeof(char *));
	w.hdr.degraded[0] = xstrdup("--user-stacks without leaf frames");
	w.hdr.ndegraded = 1;
	f = open_memstream(&buf, &len);
	ASSERT_EQ(recfile_write(f, &w), 0);
	fclose(f);
	ASSERT_HAS(buf, "\"kernel_bpf\":{\"missing\":[\"task_btf\",\"find_vma\"],"
		   "\"degraded\":[\"--user-stacks without leaf frames\"]}");
	ASSERT_EQ(read_text(buf, &r, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	ASSERT_EQ(r.hdr.kernel_missing, KF_FIND_VMA | KF_TASK_BTF);
	ASSERT_EQ(r.hdr.ndegraded, 1);
	if (r.hdr.ndegraded)
		ASSERT_STR(r.hdr.degraded[0], "--user-stacks without leaf frames");
	record_free(&r);
	record_free(&w);
	free(buf);

	/* a kernel that lacked nothing: no key at all (6.18's records) */
	memset(&w, 0, sizeof(w));
	w.hdr.kernel = xstrdup("6.18.44");
	w.hdr.attach = xstrdup("tp_btf");
	buf = NULL;
	f = open_memstream(&buf, &len);
	ASSERT_EQ(recfile_write(f, &w), 0);
	fclose(f);
	ASSERT_TRUE(!strstr(buf, "kernel_bpf"));
	record_free(&w);
	free(buf);
}

TEST(kfeat_header_errors_name_the_line)
{
	struct record r;
	char err[256] = "";

	ASSERT_EQ(read_text(HDR_WITH(",\"kernel_bpf\":{\"missing\":[\"find_vma\",\"bogus\"]}") END0,
			    &r, err, sizeof(err)), -1);
	ASSERT_HAS(err, "t.jsonl:1:");
	ASSERT_HAS(err, "unknown feature 'bogus'");
	ASSERT_EQ(read_text(HDR_WITH(",\"kernel_bpf\":{\"missing\":\"find_vma\"}") END0, &r, err,
			    sizeof(err)), -1);
	ASSERT_HAS(err, "field 'missing' must be an array of strings");
	ASSERT_EQ(read_text(HDR_WITH(",\"kernel_bpf\":{\"degraded\":[1]}") END0, &r, err,
			    sizeof(err)), -1);
	ASSERT_HAS(err, "field 'degraded' item 0 must be a string");
	ASSERT_EQ(read_text(HDR_WITH(",\"kernel_bpf\":[]") END0, &r, err, sizeof(err)), -1);
	ASSERT_HAS(err, "kernel_bpf");
}
