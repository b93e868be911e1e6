// SPDX-License-Identifier: GPL-2.0
// tests/e2e/corpus-effects.bats: a tc classifier the verifier accepts only
// with CAP_PERFMON. It counts the packet's first byte's low nibble in a
// histogram on the stack, indexed by that value: a stack access at a
// variable offset, which kernel/bpf/verifier.c
// adjust_ptr_min_max_vals() checks with
// check_stack_access_for_ptr_arithmetic() ("variable stack access
// prohibited for !root", EACCES) unless env->bypass_spec_v1, which
// bpf_check() sets from bpf_bypass_spec_v1() (cpu_mitigations_off() or
// perfmon_capable()): with the CPU mitigations on, only CAP_PERFMON
// (or CAP_SYS_ADMIN) lets it load. Loaded with `tc filter
// replace dev DEV ingress ... bpf da obj tc_varstack.o sec tc`.
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int tc_hist(struct __sk_buff *skb)
{
	unsigned char hist[16] = {};
	unsigned char *p = (void *)(long)skb->data;
	unsigned char *end = (void *)(long)skb->data_end;

	if (p + 1 > end)
		return TC_ACT_OK;
	hist[p[0] & 15]++;
	return hist[0] ? TC_ACT_OK : TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
