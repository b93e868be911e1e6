// SPDX-License-Identifier: GPL-2.0
// tests/e2e/corpus-effects.bats: an XDP program the verifier accepts only
// with CAP_PERFMON. It writes a pointer (the map slot's own address) into
// a map value: kernel/bpf/verifier.c check_mem_access() refuses that with
// "R0 leaks addr into map" unless env->allow_ptr_leaks, which bpf_check()
// sets from bpf_allow_ptr_leaks() (perfmon_capable(): CAP_PERFMON, or
// CAP_SYS_ADMIN). Loaded with `ip link set dev DEV xdpgeneric obj
// xdp_leak.o sec xdp`.
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} slot SEC(".maps");

SEC("xdp")
int xdp_leak(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&slot, &k);

	if (v)
		*v = (__u64)(unsigned long)v;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
