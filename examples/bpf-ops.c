// SPDX-License-Identifier: GPL-2.0
/*
 * Two bpf(2) operations with different capability rules (see
 * docs/kernel-facts.md):
 *   bpf-ops array     create a BPF array map: CAP_BPF, plus an advisory
 *                     CAP_PERFMON check (spectre hardening) that may fail
 *   bpf-ops next-id   BPF_PROG_GET_NEXT_ID: CAP_SYS_ADMIN and nothing narrower
 *   bpf-ops load N    load (and close) a two-instruction socket filter N times:
 *                     one syscall asks for CAP_BPF at several call sites
 *                     (bpf_prog_load, bpf_check, ...), the case a call-site
 *                     cache must not merge
 * Exit 0 on success, 1 when the kernel refused, 2 on usage errors.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

int main(int argc, char **argv)
{
	union bpf_attr attr;
	long r;

	memset(&attr, 0, sizeof(attr));
	if (argc == 2 && !strcmp(argv[1], "array")) {
		attr.map_type = BPF_MAP_TYPE_ARRAY;
		attr.key_size = 4;
		attr.value_size = 8;
		attr.max_entries = 4;
		r = sys_bpf(BPF_MAP_CREATE, &attr);
	} else if (argc == 3 && !strcmp(argv[1], "load")) {
		struct bpf_insn prog[] = {
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
			{ .code = BPF_JMP | BPF_EXIT },
		};
		long n = atol(argv[2]), i;

		attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		attr.insns = (unsigned long)prog;
		attr.insn_cnt = 2;
		attr.license = (unsigned long)"GPL";
		for (i = 0, r = 0; i < n && r >= 0; i++) {
			r = sys_bpf(BPF_PROG_LOAD, &attr);
			if (r >= 0)
				close((int)r);
		}
	} else if (argc == 2 && !strcmp(argv[1], "next-id")) {
		r = sys_bpf(BPF_PROG_GET_NEXT_ID, &attr);
		if (r < 0 && errno == ENOENT)
			r = 0;   /* no program loaded: the permission check passed */
	} else {
		fprintf(stderr, "usage: bpf-ops array|next-id|load N\n");
		return 2;
	}
	printf("bpf-ops %s: %s\n", argv[1], r < 0 ? strerror(errno) : "ok");
	return r < 0 ? 1 : 0;
}
