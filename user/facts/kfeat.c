// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks' preferred BPF features (facts/kfeat.h). Versions and commits:
 * the kernel's include/uapi/linux/bpf.h helper list and the commits that
 * added each, as docs/kernel-facts.md cites them.
 */
#include "facts/kfeat.h"

#include <stdio.h>
#include <string.h>

const struct kfeat_info kfeat_table[KF_NR] = {
	{ KF_TASK_BTF, "task_btf", "bpf_get_current_task_btf()", "5.11", "3ca1032ab7ab",
	  "the current task's fields read with BPF_CORE_READ (bpf_get_current_task())" },
	{ KF_TASK_PT_REGS, "task_pt_regs", "bpf_task_pt_regs()", "5.15", "dd6e10fbd9fb",
	  "the syscall registers read from the top of the task's kernel stack, where "
	  "task_pt_regs() finds them" },
	{ KF_FIND_VMA, "find_vma", "bpf_find_vma()", "5.17", "7c7e3d31e785",
	  "user stacks (--user-stacks) without the leaf frame" },
	{ KF_TASK_STORAGE, "task_storage", "task storage in tracing programs", "5.12",
	  "a10787e6d58c",
	  "--syscall-results keeps a syscall's denied checks in a hash map by thread id" },
	/* the unwinder of the architecture capaudit runs on (and records) */
	{ KF_KRETPROBE_STACK, "kretprobe_stack", "stack walks past a kretprobe",
#if defined(__aarch64__)
	  "5.16", "cd9bc2c92588",
#else
	  "5.15", "19138af1bd88",
#endif
	  "kprobe mode walks the stack at the entry probe, for every check" },
};

const struct kfeat_info *kfeat_info(uint32_t bit)
{
	size_t i;

	for (i = 0; i < KF_NR; i++)
		if (kfeat_table[i].bit == bit)
			return &kfeat_table[i];
	return NULL;
}

uint32_t kfeat_parse(const char *name)
{
	size_t i;

	for (i = 0; name && i < KF_NR; i++)
		if (!strcmp(kfeat_table[i].name, name))
			return kfeat_table[i].bit;
	return 0;
}

int kfeat_parse_list(const char *s, uint32_t *out, char *err, size_t errlen)
{
	const char *p = s ? s : "", *e;
	char word[32];
	size_t n;

	*out = 0;
	if (!*p)
		return 0;
	for (;;) {
		e = strchr(p, ',');
		n = e ? (size_t)(e - p) : strlen(p);
		snprintf(word, sizeof(word), "%.*s", (int)(n < sizeof(word) ? n : 0), p);
		if (n >= sizeof(word) || !kfeat_parse(word)) {
			_Static_assert(KF_NR == 5, "the message names every feature");
			snprintf(err, errlen, "'%.*s' is not a BPF feature capaudit knows: %s, %s, %s, "
				 "%s or %s, comma-separated", (int)(n > 40 ? 40 : n), p,
				 kfeat_table[0].name, kfeat_table[1].name, kfeat_table[2].name,
				 kfeat_table[3].name, kfeat_table[4].name);
			return -1;
		}
		*out |= kfeat_parse(word);
		if (!e)
			return 0;
		p = e + 1;
	}
}

size_t kfeat_degraded(uint32_t missing, bool user_stacks, bool kprobe, char out[][KF_LINE],
		      size_t max)
{
	const struct kfeat_info *k = kfeat_info(KF_FIND_VMA),
				 *r = kfeat_info(KF_KRETPROBE_STACK);
	size_t n = 0;

	if (kprobe && (missing & KF_KRETPROBE_STACK) && n < max)
		snprintf(out[n++], sizeof(out[0]), "kprobe mode without the call-site cache: "
			 "every check walks the stack, at the entry probe (the return probe's "
			 "walk ends at kretprobe_trampoline); %s need Linux %s (commit %s)",
			 r->what, r->since, r->commit);
	/* the leaf frame: the caller of a leaf syscall wrapper, which the
	 * frame-pointer walk skips; bpf_find_vma() names its file */
	if (user_stacks && (missing & KF_FIND_VMA) && n < max)
		snprintf(out[n++], sizeof(out[0]), "--user-stacks without leaf frames: the caller "
			 "of a syscall wrapper without a frame pointer (libc's) is missing from "
			 "user stacks; %s needs Linux %s (commit %s)", k->what, k->since, k->commit);
	return n;
}
