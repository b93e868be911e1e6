// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-fact table. Every row names its source as something that
 * ships or can be looked up: the kernel source file and function, a
 * commit where one is known, and "observed on 6.18.44" where capaudit
 * itself recorded it (docs/kernel-facts.md lists those runs). A row's
 * `since` is set only where the first accepting version is known;
 * otherwise it is NULL and the suggester says the fact was verified on
 * 6.18 only. docs/kernel-facts.md renders this table for people.
 */
#include "facts/kfacts.h"

#include <stdio.h>
#include <string.h>

#include "facts/capnames.h"

#define OBS "observed on 6.18.44 (docs/kernel-facts.md)"
#define CR "include/linux/capability.h checkpoint_restore_ns_capable(), merged for 5.9 " \
	"(CAP_CHECKPOINT_RESTORE, first proposed as CAP_RESTORE)"
#define BPFCAP "include/linux/capability.h bpf_capable(); kernel/bpf/token.c " \
	"bpf_token_capable() since 6.9; CAP_BPF merged for 5.8"
#define PERFMON "include/linux/capability.h perfmon_capable(); CAP_PERFMON merged for 5.8"

static const struct kfact facts[] = {
	/* checkpoint_restore_ns_capable(): CAP_CHECKPOINT_RESTORE || CAP_SYS_ADMIN */
	{ "alloc_pid", CAP_CHECKPOINT_RESTORE, KF_NARROW_OR_SYSADMIN, "5.9", NULL,
	  "clone3() with set_tid", NULL, "kernel/pid.c alloc_pid(); " CR "; " OBS, NULL, NULL },
	{ "pid_ns_ctl_handler", CAP_CHECKPOINT_RESTORE, KF_NARROW_OR_SYSADMIN, "5.9", NULL,
	  "write to /proc/sys/kernel/ns_last_pid", NULL,
	  "kernel/pid_namespace.c pid_ns_ctl_handler(); " CR "; " OBS, NULL, NULL },
	{ "proc_map_files_get_link", CAP_CHECKPOINT_RESTORE, KF_NARROW_OR_SYSADMIN, "5.9", NULL,
	  "open /proc/PID/map_files/*", NULL,
	  "fs/proc/base.c proc_map_files_get_link(); " CR "; " OBS, NULL, NULL },
	{ "prctl_set_mm_map", CAP_CHECKPOINT_RESTORE, KF_NARROW_OR_SYSADMIN, NULL, NULL,
	  "prctl(PR_SET_MM, PR_SET_MM_MAP) with exe_fd", NULL,
	  "kernel/sys.c prctl_set_mm_map(); " OBS, NULL, NULL },
	{ "tty_mode_ioctl", CAP_CHECKPOINT_RESTORE, KF_NARROW_OR_SYSADMIN, NULL, NULL,
	  "ioctl(TIOCSLCKTRMIOS)", NULL, "drivers/tty/tty_ioctl.c tty_mode_ioctl(); " OBS, NULL, NULL },

	/* bpf_capable() / bpf_token_capable(): CAP_BPF || CAP_SYS_ADMIN */
	{ "map_create", CAP_BPF, KF_NARROW_OR_SYSADMIN, "5.8", NULL,
	  "bpf(BPF_MAP_CREATE)", NULL, "kernel/bpf/syscall.c map_create(); " BPFCAP "; " OBS, NULL, NULL },
	{ "bpf_prog_load", CAP_BPF, KF_NARROW_OR_SYSADMIN, "5.8", NULL, "bpf(BPF_PROG_LOAD)",
	  "CAP_PERFMON for kprobe/tracepoint/perf_event/tracing programs, CAP_NET_ADMIN for "
	  "tc/XDP and other networking programs",
	  "kernel/bpf/syscall.c bpf_prog_load() (is_perfmon_prog_type(), "
	  "is_net_admin_prog_type()); " BPFCAP "; " OBS, NULL, NULL },
	{ "__sys_bpf", CAP_BPF, KF_NARROW_OR_SYSADMIN, "5.8", NULL, "bpf(BPF_BTF_LOAD)", NULL,
	  "kernel/bpf/syscall.c bpf_btf_load() (inlined in __sys_bpf); " BPFCAP "; " OBS, NULL, NULL },
	{ "bpf_prog_get_info_by_fd", CAP_BPF, KF_NARROW_OR_SYSADMIN, NULL, NULL,
	  "bpf(BPF_OBJ_GET_INFO_BY_FD) on a program", NULL,
	  "kernel/bpf/syscall.c bpf_prog_get_info_by_fd(); " OBS, NULL, NULL },

	/* perfmon_capable(): CAP_PERFMON || CAP_SYS_ADMIN */
	{ "perf_allow_kernel", CAP_PERFMON, KF_NARROW_OR_SYSADMIN, "5.8", NULL,
	  "perf_event_open() including kernel samples", NULL,
	  "kernel/events/core.c perf_allow_kernel(); " PERFMON "; " OBS, NULL, NULL },
	{ "find_get_context", CAP_PERFMON, KF_NARROW_OR_SYSADMIN, "5.8", NULL,
	  "CPU-wide perf_event_open()", NULL,
	  "kernel/events/core.c find_get_context() (perf_allow_cpu()); " PERFMON "; " OBS, NULL, NULL },
	{ "perf_trace_event_init", CAP_PERFMON, KF_NARROW_OR_SYSADMIN, "5.8", NULL,
	  "perf_event_open() of a tracepoint with raw samples", NULL,
	  "kernel/trace/trace_event_perf.c perf_trace_event_init(); " PERFMON "; " OBS, NULL, NULL },
	{ "__do_sys_perf_event_open", CAP_PERFMON, KF_NARROW_OR_SYSADMIN, "5.8", NULL,
	  "perf_event_open() on another task", NULL,
	  "kernel/events/core.c perf_check_permission(); " PERFMON "; " OBS, NULL, NULL },
	{ "mm_access", CAP_PERFMON, KF_NARROW_OR_SYSADMIN, NULL, NULL,
	  "read /proc/PID/maps (and similar) of another user's process", NULL,
	  "kernel/fork.c mm_access() (may_access_mm(): perfmon_capable() after "
	  "ptrace_may_access()); " OBS, NULL, NULL },

	/* only the narrow capability: CAP_SYS_ADMIN does not substitute */
	{ "audit_multicast_bind", CAP_AUDIT_READ, KF_ONLY, "3.16", NULL,
	  "bind a NETLINK_AUDIT socket to the read-log group", NULL,
	  "kernel/audit.c audit_multicast_bind(), commit 3a101b8de0d3 (3.16); " OBS, NULL, NULL },
	{ "do_syslog", CAP_SYSLOG, KF_ONLY, NULL, "6.8", "syslog(2), klogctl(), /proc/kmsg", NULL,
	  "kernel/printk/printk.c check_syslog_permissions(): CAP_SYS_ADMIN fallback removed "
	  "by commit 09ce61e27db8 (6.9); " OBS, NULL, NULL },
	{ "devkmsg_open", CAP_SYSLOG, KF_ONLY, NULL, "6.8", "open /dev/kmsg for reading", NULL,
	  "kernel/printk/printk.c devkmsg_open() (check_syslog_permissions()): CAP_SYS_ADMIN "
	  "fallback removed by commit 09ce61e27db8 (6.9); " OBS, NULL, NULL },
	{ "bpf_token_create", CAP_BPF, KF_ONLY, NULL, NULL, "bpf(BPF_TOKEN_CREATE)", NULL,
	  "kernel/bpf/token.c bpf_token_create(): ns_capable(userns, CAP_BPF), no fallback", NULL, NULL },

	/* only CAP_SYS_ADMIN: nothing narrower is accepted */
	{ "bpf_obj_get_next_id", CAP_SYS_ADMIN, KF_SYSADMIN_ONLY, NULL, NULL,
	  "bpf(BPF_*_GET_NEXT_ID): iterating BPF objects", NULL,
	  "kernel/bpf/syscall.c bpf_obj_get_next_id(): capable(CAP_SYS_ADMIN); " OBS, NULL, NULL },
	{ "perf_uprobe_event_init", CAP_SYS_ADMIN, KF_SYSADMIN_ONLY, NULL, NULL,
	  "perf_event_open() of a uprobe (libbpf/bpftrace uprobes)", NULL,
	  "kernel/trace/trace_event_perf.c perf_uprobe_init() via perf_uprobe_event_init(): "
	  "CAP_SYS_ADMIN; CAP_PERFMON refused (EACCES), " OBS, NULL, NULL },

	/* decided later, by the BPF verifier */
	{ "bpf_check", CAP_PERFMON, KF_VERIFIER, NULL, NULL,
	  "the BPF verifier's rules for pointers and speculation (allow_ptr_leaks, "
	  "allow_uninit_stack, bypass_spec_v1, bypass_spec_v4)",
	  "the verifier checks the program more strictly: one that compares or leaks "
	  "pointers or reads uninitialised stack is rejected (bpf() fails, EACCES); others load",
	  "kernel/bpf/verifier.c bpf_check(): env->allow_ptr_leaks = bpf_allow_ptr_leaks(token) "
	  "and the three beside it, each bpf_token_capable(token, CAP_PERFMON) "
	  "(include/linux/bpf.h; perfmon_capable() before 6.9)", NULL, NULL },
	{ "bpf_check", CAP_BPF, KF_VERIFIER, NULL, NULL,
	  "the BPF verifier's limits (env->bpf_capable: bounded loops, programs over 4,096 "
	  "instructions, more helpers)",
	  "the verifier checks the program more strictly: one with a loop or beyond the "
	  "unprivileged limits is rejected (bpf() fails); others load",
	  "kernel/bpf/verifier.c bpf_check(): env->bpf_capable = bpf_token_capable(token, "
	  "CAP_BPF) (bpf_capable() before 6.9)", NULL, NULL },

	/* operations programs try and fall back from */
#define BUFFORCE(f) { f, CAP_NET_ADMIN, KF_FALLBACK, NULL, NULL, \
	  "setsockopt(SO_RCVBUFFORCE or SO_SNDBUFFORCE): a socket buffer above " \
	  "net.core.rmem_max / wmem_max", \
	  "setsockopt() fails with EPERM; programs then set SO_RCVBUF / SO_SNDBUF, which the " \
	  "kernel caps at that sysctl", \
	  "net/core/sock.c " f "(): case SO_SNDBUFFORCE, SO_RCVBUFFORCE: if " \
	  "(!sockopt_capable(CAP_NET_ADMIN)) { ret = -EPERM; break; } (Debian 5.10, 6.1, 6.12, " \
	  "7.2 sources)", "setsockopt", "SO_RCVBUFFORCE SO_SNDBUFFORCE" }
	BUFFORCE("sk_setsockopt"),
	BUFFORCE("sock_setsockopt"),
#undef BUFFORCE
#define SCM_CREDS(f, c) { f, c, KF_FALLBACK, NULL, NULL, \
	  "sendmsg() with SCM_CREDENTIALS naming another process's pid, uid or gid", \
	  "sendmsg() fails with EPERM; programs then send without them, and the " \
	  "receiver gets the sender's own (SO_PASSCRED; systemd's sd_notify does so)", \
	  "net/core/scm.c scm_check_creds() (inlined into __scm_send()): the pid needs " \
	  "CAP_SYS_ADMIN, the uid CAP_SETUID, the gid CAP_SETGID, each only when it is not " \
	  "the sender's own (Debian 5.10, 6.1, 6.12, 7.2 sources)", NULL, NULL }
	SCM_CREDS("scm_check_creds", CAP_SYS_ADMIN),
	SCM_CREDS("scm_check_creds", CAP_SETUID),
	SCM_CREDS("scm_check_creds", CAP_SETGID),
	SCM_CREDS("__scm_send", CAP_SYS_ADMIN),
	SCM_CREDS("__scm_send", CAP_SETUID),
	SCM_CREDS("__scm_send", CAP_SETGID),
#undef SCM_CREDS

	/* listings and look-ups by id: the program's to need or tolerate */
#define BPF_IDS "BPF_PROG_GET_NEXT_ID BPF_MAP_GET_NEXT_ID BPF_BTF_GET_NEXT_ID " \
	"BPF_LINK_GET_NEXT_ID BPF_PROG_GET_FD_BY_ID BPF_MAP_GET_FD_BY_ID BPF_BTF_GET_FD_BY_ID " \
	"BPF_LINK_GET_FD_BY_ID"
#define BPF_ID(f, what) { f, CAP_SYS_ADMIN, KF_PROGRAM, NULL, NULL, \
	  "bpf(" what "): " "listing the system's BPF objects, or opening one by its id", \
	  "bpf() fails with EPERM: a program that lists them (bpftool prog show) fails; one " \
	  "that only tries (to name its own objects) carries on", \
	  "kernel/bpf/syscall.c " f "(): capable(CAP_SYS_ADMIN), nothing narrower (Debian " \
	  "5.10, 6.1, 6.12, 7.2 sources)", "bpf", BPF_IDS }
	BPF_ID("bpf_obj_get_next_id", "BPF_*_GET_NEXT_ID"),
	BPF_ID("bpf_prog_get_fd_by_id", "BPF_PROG_GET_FD_BY_ID"),
	BPF_ID("bpf_map_get_fd_by_id", "BPF_MAP_GET_FD_BY_ID"),
	BPF_ID("bpf_btf_get_fd_by_id", "BPF_BTF_GET_FD_BY_ID"),
	BPF_ID("bpf_link_get_fd_by_id", "BPF_LINK_GET_FD_BY_ID"),
	/* the static ones inlined into the syscall's body */
	BPF_ID("__sys_bpf", "BPF_*_GET_FD_BY_ID, BPF_*_GET_NEXT_ID"),
#undef BPF_ID
#undef BPF_IDS

	/* refusals that change something only for some calls */
#define SGID_SETATTR(f) { f, CAP_FSETID, KF_MATTERS_DURING, NULL, NULL, \
	  "keeping the set-group-ID bit of a mode being set (" f "())", \
	  "the kernel clears S_ISGID from the new mode; only chmod() asks for a mode: for " \
	  "chown(), truncate() and write() the kernel has already cleared the bit itself, or " \
	  "kept it after asking at setattr_should_drop_sgid()", \
	  "fs/attr.c " f "(): if (!in_group_or_capable(...)) mode &= ~S_ISGID; " \
	  "fs/attr.c notify_change(): ATTR_KILL_SGID strips S_ISGID from the mode before it, " \
	  "set by setattr_should_drop_sgid() (Debian 6.1, 6.12, 7.2 sources; 5.10: " \
	  "should_remove_suid())", "chmod fchmod fchmodat fchmodat2", NULL }
	SGID_SETATTR("setattr_prepare"),
	SGID_SETATTR("setattr_copy"),
#undef SGID_SETATTR

	/* denials that change nothing for the caller */
	{ "array_map_alloc", CAP_PERFMON, KF_ADVISORY, NULL, NULL, "array map spectre hardening",
	  NULL,
	  "kernel/bpf/arraymap.c array_map_alloc(): bpf_bypass_spec_v1(); the map is created "
	  "without, " OBS, NULL, NULL },
	{ "bpf_prog_kallsyms_add", CAP_BPF, KF_ADVISORY, NULL, NULL, "program in kallsyms", NULL,
	  "kernel/bpf/core.c bpf_prog_kallsyms_add(): the program is loaded either way", NULL, NULL },
	{ "bpf_prog_alloc_no_stats", CAP_BPF, KF_ADVISORY, NULL, NULL, "JIT constant blinding",
	  NULL, "kernel/bpf/core.c bpf_jit_blinding_enabled() (bpf_jit_harden 1): blinding "
	  "or not, the program loads", NULL, NULL },

	/* feature probes: a program tries the feature and does without it
	 * when refused; whether this one needs it, only verify can tell */
#define DIAG(f, file) { f, CAP_NET_ADMIN, KF_PROBE, NULL, NULL, \
	  "socket diagnostics (ss): extra fields of a socket (its mark, class id, ...)", \
	  "without it the dump succeeds with those fields left out", \
	  file " " f "(): net_admin = netlink_net_capable(skb, CAP_NET_ADMIN), passed on " \
	  "to the fill function (Debian 5.10, 6.1, 6.12, 7.2 sources)", NULL, NULL }
	{ "__do_sys_fsopen", CAP_SYS_ADMIN, KF_PROBE, NULL, NULL,
	  "fsopen(): the new mount API (5.2)", "the call fails with EPERM; mount(2) is the older way",
	  "fs/fsopen.c SYSCALL_DEFINE2(fsopen): ns_capable(mnt_ns->user_ns, CAP_SYS_ADMIN) "
	  "(5.10), may_mount() (6.1 and later)", NULL, NULL },
	{ "__do_sys_fspick", CAP_SYS_ADMIN, KF_PROBE, NULL, NULL,
	  "fspick(): the new mount API (5.2)", "the call fails with EPERM; mount(2) is the older way",
	  "fs/fsopen.c SYSCALL_DEFINE3(fspick): as fsopen()", NULL, NULL },
	{ "may_mount", CAP_SYS_ADMIN, KF_PROBE, NULL, NULL,
	  "fsopen()/fspick(): the new mount API (5.2)", "the call fails with EPERM; mount(2) is the older way",
	  "fs/fsopen.c SYSCALL_DEFINE2(fsopen), SYSCALL_DEFINE3(fspick): may_mount() "
	  "(fs/namespace.c), 6.1 and later", "fsopen fspick", NULL },
	{ "pagemap_read", CAP_SYS_ADMIN, KF_PROBE, NULL, NULL,
	  "reading /proc/PID/pagemap: physical page frame numbers",
	  "without it the read succeeds with the frame numbers zeroed",
	  "fs/proc/task_mmu.c pagemap_read(): pm.show_pfn = file_ns_capable(file, "
	  "&init_user_ns, CAP_SYS_ADMIN) (Debian 5.10, 6.1, 6.12, 7.2 sources)", NULL, NULL },
	{ "tcp_can_repair_sock", CAP_NET_ADMIN, KF_PROBE, NULL, NULL,
	  "TCP_REPAIR (checkpoint/restore of TCP connections)",
	  "setsockopt()/getsockopt() fails with EPERM",
	  "net/ipv4/tcp.c tcp_can_repair_sock(): ns_capable(CAP_NET_ADMIN) "
	  "(sockopt_ns_capable() since 6.1)", NULL, NULL },
	{ "do_tcp_setsockopt", CAP_NET_ADMIN, KF_PROBE, NULL, NULL,
	  "TCP_REPAIR (tcp_can_repair_sock(), inlined), or TCP_CONGESTION with an algorithm "
	  "not in net.ipv4.tcp_allowed_congestion_control",
	  "setsockopt() fails with EPERM",
	  "net/ipv4/tcp.c do_tcp_setsockopt(): tcp_can_repair_sock(); "
	  "tcp_set_congestion_control(..., ns_capable(CAP_NET_ADMIN))", NULL, NULL },
	{ "do_tcp_getsockopt", CAP_NET_ADMIN, KF_PROBE, NULL, NULL,
	  "TCP_REPAIR_WINDOW, TCP_QUEUE_SEQ (tcp_can_repair_sock(), inlined)",
	  "getsockopt() fails with EPERM",
	  "net/ipv4/tcp.c do_tcp_getsockopt(): tcp_can_repair_sock()", NULL, NULL },
	DIAG("inet_diag_dump_icsk", "net/ipv4/inet_diag.c"),
	DIAG("inet_diag_dump_one_icsk", "net/ipv4/inet_diag.c"),
	DIAG("tcp_diag_dump", "net/ipv4/tcp_diag.c"),
	DIAG("tcp_diag_dump_one", "net/ipv4/tcp_diag.c"),
	DIAG("udp_dump", "net/ipv4/udp_diag.c"),
	DIAG("udp_dump_one", "net/ipv4/udp_diag.c"),
	DIAG("udp_diag_dump", "net/ipv4/udp_diag.c"),
	DIAG("udp_diag_dump_one", "net/ipv4/udp_diag.c"),
	DIAG("raw_diag_dump", "net/ipv4/raw_diag.c"),
	DIAG("raw_diag_dump_one", "net/ipv4/raw_diag.c"),
	DIAG("mptcp_diag_dump", "net/mptcp/mptcp_diag.c"),
	DIAG("mptcp_diag_dump_one", "net/mptcp/mptcp_diag.c"),
	DIAG("sctp_diag_dump", "net/sctp/diag.c"),
	DIAG("sctp_diag_dump_one", "net/sctp/diag.c"),
	{ "packet_diag_dump", CAP_NET_ADMIN, KF_PROBE, NULL, NULL,
	  "socket diagnostics (ss -0): a packet socket's filter",
	  "without it the dump succeeds without the filter",
	  "net/packet/diag.c packet_diag_dump(): may_report_filterinfo = "
	  "netlink_net_capable(cb->skb, CAP_NET_ADMIN)", NULL, NULL },
#undef DIAG
	{ "audit_receive_msg", CAP_AUDIT_WRITE, KF_PROBE, NULL, NULL,
	  "sending a user message to the audit log (PAM, login, su, runuser, sudo)",
	  "the request's netlink ack carries EPERM; sendmsg() itself succeeds",
	  "kernel/audit.c audit_netlink_ok() (inlined in audit_receive_msg()): "
	  "netlink_capable(skb, CAP_AUDIT_WRITE) for AUDIT_USER and the user message ranges", NULL, NULL },
	{ "audit_netlink_ok", CAP_AUDIT_WRITE, KF_PROBE, NULL, NULL,
	  "sending a user message to the audit log (PAM, login, su, runuser, sudo)",
	  "the request's netlink ack carries EPERM; sendmsg() itself succeeds",
	  "kernel/audit.c audit_netlink_ok(): netlink_capable(skb, CAP_AUDIT_WRITE) for "
	  "AUDIT_USER and the user message ranges", NULL, NULL },
};

/* A syscall's body under the name the table uses: SYSCALL_DEFINE makes
 * __do_sys_X, inlined into __se_sys_X and the architecture's entry
 * (__x64_sys_X, __ia32_sys_X, __arm64_sys_X), any of which a stack shows. */
static const char *sys_body(const char *func)
{
	static const char *const pre[] = { "__do_sys_", "__se_sys_", "__x64_sys_",
					   "__ia32_sys_", "__arm64_sys_" };
	size_t i, n;

	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		n = strlen(pre[i]);
		if (!strncmp(func, pre[i], n))
			return func + n;
	}
	return NULL;
}

static bool func_eq(const char *fact, const char *func)
{
	const char *a, *b;

	if (!strcmp(fact, func))
		return true;
	a = sys_body(fact);
	b = sys_body(func);
	return a && b && !strcmp(a, b);
}

/* word is one of the space-separated words of list (NULL list: any
 * word; NULL word: none) */
static bool in_list(const char *list, const char *word)
{
	const char *p = list;
	size_t n;

	if (!list)
		return true;
	if (!word)
		return false;
	n = strlen(word);
	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

bool kfact_during(const struct kfact *f, const char *sysname)
{
	return in_list(f->during, sysname);
}

bool kfact_op(const struct kfact *f, const char *label)
{
	return in_list(f->op, label);
}

const struct kfact *kfact_next(const char *func, int cap, enum kfact_kind kind, int *iter)
{
	size_t i;

	for (i = (size_t)*iter; i < sizeof(facts) / sizeof(facts[0]); i++) {
		if (facts[i].kind != kind || !func_eq(facts[i].func, func))
			continue;
		if (cap >= 0 && facts[i].cap != cap)
			continue;
		*iter = (int)i + 1;
		return &facts[i];
	}
	*iter = (int)i;
	return NULL;
}

static int parse_ver(const char *s, int v[3])
{
	int n;

	v[0] = v[1] = v[2] = 0;
	n = s ? sscanf(s, "%d.%d.%d", &v[0], &v[1], &v[2]) : 0;
	return n >= 2 ? 0 : -1;
}

int kver_cmp(const char *a, const char *b)
{
	int x[3], y[3], i;

	if (parse_ver(a, x) || parse_ver(b, y))
		return -2;
	for (i = 0; i < 3; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

const char *cap_since(int cap)
{
	switch (cap) {
	/* include/uapi/linux/capability.h */
	case CAP_SYSLOG: return "2.6.37";
	case CAP_AUDIT_READ: return "3.16";
	case CAP_PERFMON: return "5.8";
	case CAP_BPF: return "5.8";
	case CAP_CHECKPOINT_RESTORE: return "5.9";
	default: return NULL;
	}
}
