// SPDX-License-Identifier: GPL-2.0
// tests/e2e/corpus-effects.bats: an XDP program that passes the stricter
// verification too (only packet pointers compared, nothing leaked): it
// loads with CAP_BPF and CAP_NET_ADMIN, though bpf_check() asks
// CAP_PERFMON all the same (kernel/bpf/verifier.c).
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_pass(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	return data + 14 > end ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
