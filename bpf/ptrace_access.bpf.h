/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ptrace access the kernel allowed without asking for a capability.
 * Included once, at the end of capaudit.bpf.c (it uses its maps and its
 * followed()); one job: tell user space which processes a followed
 * process reached through a ptrace access check.
 *
 * Why: __ptrace_may_access() (kernel/ptrace.c) calls the LSM hook
 * cap_ptrace_access_check() (security/commoncap.c), which asks
 * ns_capable(CAP_SYS_PTRACE) only when the caller's permitted set (its
 * effective set for PTRACE_MODE_FSCREDS) does not cover the target's, or
 * the two are in different user namespaces:
 *
 *	if (cred->user_ns == child_cred->user_ns &&
 *	    cap_issubset(child_cred->cap_permitted, *caller_caps))
 *		goto out;
 *	if (ns_capable(child_cred->user_ns, CAP_SYS_PTRACE))
 *		goto out;
 *
 * A program recorded as root reaches a root process with no check at all;
 * run with a smaller set it is refused (EPERM), for want of the
 * CAP_SYS_PTRACE no record showed. Without kprobes or fentry (the host
 * capaudit is built on has neither) the decision itself cannot be hooked,
 * so the syscalls that make it are: each event names the target as the
 * caller named it, and user space reads the target's permitted set
 * (user/record/ptrace_targets.c).
 *
 * The syscalls and /proc files that make the check (Linux 5.10 to 7.2):
 *   ptrace(PTRACE_ATTACH/PTRACE_SEIZE)  ptrace_attach(), ATTACH_REALCREDS
 *   process_vm_readv/writev             process_vm_rw_core(): mm_access()
 *   kcmp                                kcmp(): READ_REALCREDS, both pids
 *   get_robust_list                     READ_REALCREDS
 *   perf_event_open(pid > 0)            perf_check_permission()
 *   pidfd_getfd                         pidfd_getfd(): target not read here
 *   open, openat, openat2, readlink, readlinkat of /proc/PID/ENTRY for
 *   the entries of CA_PROC_ENTRY_NAMES (capaudit.h) (fs/proc/base.c proc_mem_open(),
 *   lock_trace(), proc_fd_access_allowed(), do_io_accounting(),
 *   map_files; fs/proc/namespaces.c; fs/proc/fd.c; fs/proc/task_mmu.c)
 * Each is a tracepoint of the syscalls group (tracefs): only these
 * syscalls run a program; the others pay the tracepoint's bitmap test.
 */

/* PTRACE_ATTACH, PTRACE_SEIZE (include/uapi/linux/ptrace.h) */
#define CA_PTRACE_ATTACH 16
#define CA_PTRACE_SEIZE  0x4206
#define CA_PERF_FLAG_PID_CGROUP 4   /* include/uapi/linux/perf_event.h */
#define CA_AT_FDCWD (-100)
#define CA_PROC_SUPER_MAGIC 0x9fa0  /* include/uapi/linux/magic.h */
#define CA_PID_FS_MAGIC 0x50494446  /* include/uapi/linux/magic.h, 6.9+ */

/* Each (process, target) once; user space dedupes what the LRU forgets. */
struct ptrace_seen_key {
	__u32 tgid, target;
	__u16 via;
	__u16 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, struct ptrace_seen_key);
	__type(value, __u8);
} ptrace_seen SEC(".maps");

/* /proc/PID entries whose use asks ptrace_may_access() and fails without
 * it (not wchan or stat, which show less instead), each name zero-padded
 * to 16 bytes and compared as two words. "fd" and "ns" count only with a
 * name below them: the directories themselves are checked as files
 * (generic_permission()). */
static const char ca_proc_entries[CA_PROC_ENTRIES][16] __attribute__((aligned(8))) = {
	CA_PROC_ENTRY_NAMES
};

static __always_inline void ptrace_event(struct task_struct *task, __u32 tgid, __u32 target,
					 __u16 via, __u16 entry)
{
	const struct cred *cred = BPF_CORE_READ(task, cred);
	struct ptrace_seen_key k = { .tgid = tgid, .target = target, .via = via };
	struct ca_event *e;
	__u8 one = 1;

	if (hooks_stopped || bpf_map_lookup_elem(&ptrace_seen, &k))
		return;
	e = bpf_ringbuf_reserve(&events, CA_EVENT_SMALL, 0);
	if (!e) {
		stat_add(CA_STAT_RINGBUF_FULL, 1);
		return;   /* not marked seen: the next access tries again */
	}
	bpf_map_update_elem(&ptrace_seen, &k, &one, BPF_ANY);
	__builtin_memset(e, 0, CA_EVENT_SMALL);
	e->type = CA_EV_PTRACE;
	event_ids(e, task);
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->ts_ns = bpf_ktime_get_ns();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	e->pt_target = target;
	e->pt_via = via;
	/* kernel_cap_t: one u64 since 6.3, two u32 before; 8 bytes either way */
	bpf_probe_read_kernel(&e->pt_caller_prm, 8, &cred->cap_permitted);
	bpf_probe_read_kernel(&e->pt_caller_eff, 8, &cred->cap_effective);
	e->pt_userns = BPF_CORE_READ(cred, user_ns, ns.inum);
	e->pt_pidns_level = BPF_CORE_READ(task, thread_pid, level);
	e->pt_entry = entry;
	bpf_ringbuf_submit(e, RB_WAKE_NOW);
}

/* The current process is recorded, and target is another process. */
static __always_inline struct task_struct *ptrace_caller(__u32 target, __u32 *tgid)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();

	*tgid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	if ((__s32)target < 0 || target == *tgid)
		return NULL;
	if (!followed(*tgid, proc_start(task)) || !uid_allowed(task))
		return NULL;
	return task;
}

static __always_inline void ptrace_pid(__u64 pid, __u16 via)
{
	struct task_struct *task;
	__u32 tgid;

	if (!pid || (__s64)pid < 0)
		return;   /* 0: the caller itself (get_robust_list, perf_event_open) */
	task = ptrace_caller((__u32)pid, &tgid);
	if (task)
		ptrace_event(task, tgid, (__u32)pid, via, 0);
}

SEC("tracepoint/syscalls/sys_enter_ptrace")
int pt_ptrace(struct trace_event_raw_sys_enter *ctx)
{
	if (ctx->args[0] == CA_PTRACE_ATTACH || ctx->args[0] == CA_PTRACE_SEIZE)
		ptrace_pid(ctx->args[1], CA_PT_PTRACE);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_process_vm_readv")
int pt_vm_readv(struct trace_event_raw_sys_enter *ctx)
{
	ptrace_pid(ctx->args[0], CA_PT_VM_RW);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_process_vm_writev")
int pt_vm_writev(struct trace_event_raw_sys_enter *ctx)
{
	ptrace_pid(ctx->args[0], CA_PT_VM_RW);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_kcmp")
int pt_kcmp(struct trace_event_raw_sys_enter *ctx)
{
	ptrace_pid(ctx->args[0], CA_PT_KCMP);
	ptrace_pid(ctx->args[1], CA_PT_KCMP);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_get_robust_list")
int pt_robust(struct trace_event_raw_sys_enter *ctx)
{
	ptrace_pid(ctx->args[0], CA_PT_ROBUST_LIST);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_perf_event_open")
int pt_perf(struct trace_event_raw_sys_enter *ctx)
{
	if ((__s64)ctx->args[1] > 0 && !(ctx->args[4] & CA_PERF_FLAG_PID_CGROUP))
		ptrace_pid(ctx->args[1], CA_PT_PERF);
	return 0;
}

/*
 * The process a pidfd names, as a pid of the initial pid namespace, or 0.
 * Linux 6.9+ keeps pidfds on pidfs, with the struct pid in the inode's
 * i_private (fs/pidfs.c pidfd_pid()); before, an anonymous inode file
 * "[pidfd]" with the struct pid in private_data (kernel/pid.c,
 * pidfd_create()). The number is the pid's first level: the initial
 * namespace's (include/linux/pid.h struct pid numbers[]).
 */
static __always_inline __u32 pidfd_target(struct task_struct *task, int fd)
{
	struct file *f = fd_file(task, fd);
	struct dentry *d;
	struct pid *pid;
	char name[8] = {};

	if (!f)
		return 0;
	d = BPF_CORE_READ(f, f_path.dentry);
	if (BPF_CORE_READ(d, d_sb, s_magic) == CA_PID_FS_MAGIC) {
		pid = BPF_CORE_READ(f, f_inode, i_private);
	} else {
		bpf_probe_read_kernel_str(name, sizeof(name), BPF_CORE_READ(d, d_name.name));
		if (name[0] != '[' || name[1] != 'p' || name[2] != 'i' || name[3] != 'd' ||
		    name[4] != 'f' || name[5] != 'd' || name[6] != ']')
			return 0;
		pid = BPF_CORE_READ(f, private_data);
	}
	return pid ? (__u32)BPF_CORE_READ(pid, numbers[0].nr) : 0;
}

/* pidfd_getfd(): the target is the pidfd's (0: not one capaudit can read,
 * shown unknown). */
SEC("tracepoint/syscalls/sys_enter_pidfd_getfd")
int pt_pidfd_getfd(struct trace_event_raw_sys_enter *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u32 tgid = (__u32)(bpf_get_current_pid_tgid() >> 32), target;

	if (!followed(tgid, proc_start(task)) || !uid_allowed(task))
		return 0;
	target = pidfd_target(task, (int)ctx->args[0]);
	if (target != tgid)
		ptrace_event(task, tgid, target, CA_PT_PIDFD, 0);
	return 0;
}

/* Decimal digits at s[*i] (a pid), up to the next '/' or the end. */
static __always_inline __u32 proc_pid_at(const char *s, __u32 *i)
{
	__u32 pid = 0, n = 0;

	for (int k = 0; k < 10; k++) {
		__u32 j = *i & (CA_PT_PATH - 1);
		char ch = s[j];

		if (ch < '0' || ch > '9')
			break;
		pid = pid * 10 + (ch - '0');
		n++;
		(*i)++;
	}
	return n && s[*i & (CA_PT_PATH - 1)] == '/' ? pid : 0;
}

/* The entry at s[i] (up to '/' or the end) is one of ca_proc_entries:
 * its index, or -1. The name is copied into two words (unrolled: constant
 * offsets) and compared with each entry's: a loop the verifier walks in
 * a few hundred instructions per program. */
static __always_inline int proc_entry_at(const char *s, __u32 i)
{
	union {
		char c[16];
		__u64 w[2];
	} name = {};
	char term = 1;

#pragma unroll
	for (int k = 0; k < 13; k++) {
		char ch = s[(i + k) & (CA_PT_PATH - 1)];

		if (ch == '\0' || ch == '/') {
			term = ch;
			break;
		}
		name.c[k] = ch;
	}
	if (term == 1)
		return -1;   /* longer than any entry's name */
	for (int e = 0; e < CA_PROC_ENTRIES; e++) {
		const __u64 *w = (const __u64 *)ca_proc_entries[e];

		if (w[0] == name.w[0] && w[1] == name.w[1])
			return ((CA_PROC_ENTRY_DIRS >> e) & 1) && term != '/' ? -1 : e;
	}
	return -1;
}

/*
 * The directory dirfd names, in procfs: 1 for /proc itself, 2 for a
 * /proc/PID directory (its pid in *pid), 0 for anything else.
 */
static __always_inline int proc_dirfd(struct task_struct *task, int dirfd, __u32 *pid)
{
	struct file *f = fd_file(task, dirfd);
	struct dentry *d, *parent, *root;
	struct super_block *sb;
	char name[12] = {};
	__u32 i = 0;

	if (!f)
		return 0;
	d = BPF_CORE_READ(f, f_path.dentry);
	sb = BPF_CORE_READ(d, d_sb);
	if (BPF_CORE_READ(sb, s_magic) != CA_PROC_SUPER_MAGIC)
		return 0;
	root = BPF_CORE_READ(sb, s_root);
	if (d == root)
		return 1;
	parent = BPF_CORE_READ(d, d_parent);
	if (parent != root)
		return 0;
	bpf_probe_read_kernel_str(name, sizeof(name), BPF_CORE_READ(d, d_name.name));
	for (int k = 0; k < 11; k++) {
		char ch = name[k];

		if (ch == '\0')
			break;
		if (ch < '0' || ch > '9')
			return 0;
		i = i * 10 + (ch - '0');
	}
	*pid = i;
	return i ? 2 : 0;
}

/*
 * The same index, as a value the verifier no longer knows (a copy through
 * bpf_probe_read_kernel() leaves it an unknown scalar), within the path
 * buffer. Each place a digit loop can stop would otherwise be a state of
 * its own for everything after it, multiplied by the next loop's: loading
 * took seconds.
 */
static __always_inline __u32 forget(__u32 v)
{
	__u32 out = 0;

	bpf_probe_read_kernel(&out, sizeof(out), &v);
	return out & (CA_PT_PATH - 1);
}

/* open()/openat()/readlink...() of path relative to dirfd (CA_AT_FDCWD:
 * absolute paths only). */
static __always_inline void ptrace_path(int dirfd, const char *upath)
{
	struct task_struct *task;
	struct ca_cache *scratch;
	__u32 tgid, zero = 0, i = 0, pid = 0;
	char *s, head[8] = {};
	int kind = 0, e;

	if (bpf_probe_read_user_str(head, sizeof(head), upath) <= 0)
		return;
	/* cheap tests first: every open of every followed process comes here */
	if (head[0] == '/') {
		if (head[1] != 'p' || head[2] != 'r' || head[3] != 'o' || head[4] != 'c' ||
		    head[5] != '/' || head[6] < '0' || head[6] > '9')
			return;
	} else if (dirfd == CA_AT_FDCWD || head[0] < ' ') {
		return;
	}
	task = (struct task_struct *)bpf_get_current_task();
	tgid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	if (!followed(tgid, proc_start(task)) || !uid_allowed(task))
		return;
	if (head[0] != '/') {
		kind = proc_dirfd(task, dirfd, &pid);
		if (!kind)
			return;
	}
	/* the path, in the per-CPU cache's scratch words (nothing else uses
	 * them outside a capability check, which cannot run in the middle
	 * of this program on this CPU) */
	scratch = bpf_map_lookup_elem(&cache, &zero);
	if (!scratch)
		return;
	s = (char *)scratch->scan;
	if (bpf_probe_read_user_str(s, CA_PT_PATH, upath) <= 0)
		return;
	s[CA_PT_PATH - 1] = '\0';
	if (kind == 0) {          /* "/proc/PID/..." */
		i = 6;
		pid = proc_pid_at(s, &i);
		i++;
	} else if (kind == 1) {   /* /proc, "PID/..." */
		pid = proc_pid_at(s, &i);
		i++;
	}                         /* kind 2: /proc/PID, "ENTRY..." */
	if (!pid || pid == tgid)
		return;
	i = forget(i);
	/* /proc/PID/task/TID/ENTRY: the thread is the target */
	if (s[i & (CA_PT_PATH - 1)] == 't' && s[(i + 1) & (CA_PT_PATH - 1)] == 'a' &&
	    s[(i + 2) & (CA_PT_PATH - 1)] == 's' && s[(i + 3) & (CA_PT_PATH - 1)] == 'k' &&
	    s[(i + 4) & (CA_PT_PATH - 1)] == '/') {
		i += 5;
		pid = proc_pid_at(s, &i);
		i++;
		if (!pid || pid == tgid)
			return;
		i = forget(i);
	}
	e = proc_entry_at(s, i);
	if (e < 0 || e >= CA_PROC_ENTRIES)
		return;
	ptrace_event(task, tgid, pid, CA_PT_PROC, (__u16)(e + 1));
}

SEC("tracepoint/syscalls/sys_enter_openat")
int pt_openat(struct trace_event_raw_sys_enter *ctx)
{
	ptrace_path((int)ctx->args[0], (const char *)ctx->args[1]);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_openat2")
int pt_openat2(struct trace_event_raw_sys_enter *ctx)
{
	ptrace_path((int)ctx->args[0], (const char *)ctx->args[1]);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_readlinkat")
int pt_readlinkat(struct trace_event_raw_sys_enter *ctx)
{
	ptrace_path((int)ctx->args[0], (const char *)ctx->args[1]);
	return 0;
}

/* open(2) and readlink(2): not on arm64 (the loader leaves them out
 * where the tracepoint does not exist) */
SEC("tracepoint/syscalls/sys_enter_open")
int pt_open(struct trace_event_raw_sys_enter *ctx)
{
	ptrace_path(CA_AT_FDCWD, (const char *)ctx->args[0]);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_readlink")
int pt_readlink(struct trace_event_raw_sys_enter *ctx)
{
	ptrace_path(CA_AT_FDCWD, (const char *)ctx->args[0]);
	return 0;
}
