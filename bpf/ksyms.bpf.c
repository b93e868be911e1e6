// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbols through a BPF iterator (iter/ksym, Linux 6.0+): the loader
 * needs only CAP_BPF and CAP_PERFMON, while /proc/kallsyms shows zeros
 * without CAP_SYSLOG when kernel.perf_event_paranoid > 1. Prints the
 * /proc/kallsyms line format ("ADDR TYPE NAME [MODULE]"), text symbols only.
 * A separate object, so that a kernel without iter/ksym still records.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("iter/ksym")
int dump_ksym(struct bpf_iter__ksym *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct kallsym_iter *it = ctx->ksym;
	char t;

	if (!it)
		return 0;
	t = it->type;
	/* text, and the end of the kernel's text, whatever its type (arm64's
	 * _etext is 'D'): the call-site cache's proofs need it */
	if (t != 't' && t != 'T' && t != 'w' && t != 'W' &&
	    !(it->name[0] == '_' && it->name[1] == 'e' && it->name[2] == 't' &&
	      it->name[3] == 'e' && it->name[4] == 'x' && it->name[5] == 't' && !it->name[6]))
		return 0;
	if (it->module_name[0])
		BPF_SEQ_PRINTF(seq, "%llx %c %s\t[%s]\n", it->value, t, it->name, it->module_name);
	else
		BPF_SEQ_PRINTF(seq, "%llx %c %s\n", it->value, t, it->name);
	return 0;
}
