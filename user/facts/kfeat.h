/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's BPF features the hooks prefer, and what capaudit does on a
 * kernel without one (Linux 5.10 lacks all four): their names in records
 * and in doctor, the version and commit that added each
 * (docs/kernel-facts.md), the path taken instead, and what a record then
 * lacks. Pure: the tracer probes for them (tracer/probe.h), the
 * BPF side takes the paths (bpf/capaudit.bpf.c, CA_KF_* in capaudit.h:
 * the same bits).
 */
#ifndef CA_KFEAT_H
#define CA_KFEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KF_TASK_BTF     0x01u /* bpf_get_current_task_btf() */
#define KF_TASK_PT_REGS 0x02u /* bpf_task_pt_regs() */
#define KF_FIND_VMA     0x04u /* bpf_find_vma() */
#define KF_TASK_STORAGE 0x08u /* task storage in tracing programs */
#define KF_KRETPROBE_STACK 0x10u /* stacks walked past a kretprobe */
#define KF_ALL          0x1fu
#define KF_NR           5
#define KF_LINE         320  /* a kfeat_degraded() sentence, its NUL included */

struct kfeat_info {
	uint32_t bit;
	const char *name;      /* in records and doctor: "task_btf" */
	const char *what;      /* "bpf_get_current_task_btf()" */
	const char *since;     /* "5.11" */
	const char *commit;    /* the kernel commit that added it (12 hex digits) */
	const char *instead;   /* the path taken without it */
};

/* The features, in bit order (KF_NR of them). */
extern const struct kfeat_info kfeat_table[KF_NR];

/* The entry of one bit, or NULL. */
const struct kfeat_info *kfeat_info(uint32_t bit);
/* The bit named name ("find_vma"), or 0. */
uint32_t kfeat_parse(const char *name);
/* A comma-separated list of names into bits; "" is none. -1 with one line
 * in err naming the word that is not a feature. */
int kfeat_parse_list(const char *s, uint32_t *out, char *err, size_t errlen);

/*
 * What a recording on a kernel lacking `missing` (KF_* bits) loses, given
 * its options (--user-stacks, kprobe mode): one sentence each, into out
 * (at most max). Only losses: a path that records the same (a probe read
 * for a BTF load) is no loss. Returns how many.
 */
size_t kfeat_degraded(uint32_t missing, bool user_stacks, bool kprobe, char out[][KF_LINE],
		      size_t max);

/* Before Linux 5.11 BPF maps and programs are charged to the loader's
 * RLIMIT_MEMLOCK, since to its memory cgroup: the kernel commits, for
 * messages and docs. */
#define KF_MEMCG_SINCE   "5.11"
#define KF_MEMCG_COMMITS "80ee81e0403c, 3ac1f01b43b6"

#endif
