// SPDX-License-Identifier: GPL-2.0
/* The floor for any tracer on this hook: an empty program on cap_capable. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tp_btf/cap_capable")
int empty(void *ctx)
{
	return 0;
}
