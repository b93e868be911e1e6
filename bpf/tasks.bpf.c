// SPDX-License-Identifier: GPL-2.0
/*
 * A snapshot of the live processes through a BPF iterator (iter/task,
 * Linux 5.8+): for each thread-group leader its identity as capaudit's
 * hooks see it (tgid and start time, capaudit.h), its exec count, parent
 * and name. /proc cannot give the start time to the nanosecond (stat's
 * field 22 is in clock ticks), and without it a pid that was given out
 * again cannot be told from the process that had it. Binary records
 * (struct ca_task), read by user/tracer/tasks_iter.c. A separate object: the
 * loader runs it before the capability hook is loaded.
 *
 * And kernel symbols through iter/ksym (Linux 6.0+): the loader needs only
 * CAP_BPF and CAP_PERFMON, while /proc/kallsyms shows zeros without
 * CAP_SYSLOG when kernel.perf_event_paranoid > 1. Prints the /proc/kallsyms
 * line format ("ADDR TYPE NAME [MODULE]"), text symbols only. In the same
 * object so that one load (one parse of the kernel's BTF by libbpf, 12-20
 * ms and 11 MB for a moment) serves both; not loaded where the kernel has
 * no iter/ksym (user/tracer/tasks_iter.c), so that such a kernel still
 * records.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "capaudit.h"

char LICENSE[] SEC("license") = "GPL";

#define PF_EXITING 0x00000004 /* include/linux/sched.h */

SEC("iter/task")
int dump_task(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *t = ctx->task, *parent;
	struct ca_task r;

	if (!t || t->pid != t->tgid)
		return 0;   /* threads: their process is its leader */
	__builtin_memset(&r, 0, sizeof(r));
	parent = t->real_parent;
	r.tgid = t->tgid;
	r.exec_id = (__u32)t->self_exec_id;
	r.uid = BPF_CORE_READ(t, cred, uid.val);
	r.euid = BPF_CORE_READ(t, cred, euid.val);
	if (t->exit_state || (t->flags & PF_EXITING))
		r.flags |= CA_TASK_EXITING;
	r.pstart = t->start_time;
	r.boot_start = t->start_boottime;
	r.ppid = BPF_CORE_READ(parent, tgid);
	r.parent_start = BPF_CORE_READ(parent, group_leader, start_time);
	/* what bpf_get_current_cgroup_id() gives the hooks for it */
	r.cgroup_id = BPF_CORE_READ(t, cgroups, dfl_cgrp, kn, id);
	BPF_CORE_READ_STR_INTO(&r.comm, t, comm);
	bpf_seq_write(seq, &r, sizeof(r));
	return 0;
}

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
