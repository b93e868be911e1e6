// SPDX-License-Identifier: GPL-2.0
/*
 * Names of the operations a check's syscall asked for (sysops.h). The
 * values are the kernel's UAPI: include/uapi/asm-generic/socket.h (SO_*;
 * x86_64 and arm64 use it), include/uapi/linux/tcp.h (TCP_*),
 * include/uapi/linux/in.h (IP_*), include/uapi/linux/bpf.h (enum
 * bpf_cmd), include/uapi/linux/prctl.h (PR_*),
 * include/uapi/asm-generic/fcntl.h and include/uapi/linux/fcntl.h (F_*),
 * include/uapi/linux/ptrace.h (PTRACE_*). They never change once given
 * out; a number not listed is shown as a number.
 */
#include "facts/sysops.h"
#include "facts/objnames.h"

#include <stdio.h>
#include <string.h>

struct opname {
	const char *name;
	long value;
};

static const struct opname so_names[] = {
	{ "SO_DEBUG", 1 }, { "SO_REUSEADDR", 2 }, { "SO_TYPE", 3 }, { "SO_ERROR", 4 },
	{ "SO_DONTROUTE", 5 }, { "SO_BROADCAST", 6 }, { "SO_SNDBUF", 7 }, { "SO_RCVBUF", 8 },
	{ "SO_SNDBUFFORCE", 32 }, { "SO_RCVBUFFORCE", 33 }, { "SO_KEEPALIVE", 9 },
	{ "SO_OOBINLINE", 10 }, { "SO_NO_CHECK", 11 }, { "SO_PRIORITY", 12 }, { "SO_LINGER", 13 },
	{ "SO_BSDCOMPAT", 14 }, { "SO_REUSEPORT", 15 }, { "SO_PASSCRED", 16 }, { "SO_PEERCRED", 17 },
	{ "SO_RCVLOWAT", 18 }, { "SO_SNDLOWAT", 19 }, { "SO_RCVTIMEO_OLD", 20 },
	{ "SO_SNDTIMEO_OLD", 21 }, { "SO_SECURITY_AUTHENTICATION", 22 },
	{ "SO_SECURITY_ENCRYPTION_TRANSPORT", 23 }, { "SO_SECURITY_ENCRYPTION_NETWORK", 24 },
	{ "SO_BINDTODEVICE", 25 }, { "SO_ATTACH_FILTER", 26 }, { "SO_DETACH_FILTER", 27 },
	{ "SO_PEERNAME", 28 }, { "SO_ACCEPTCONN", 30 }, { "SO_PEERSEC", 31 }, { "SO_PASSSEC", 34 },
	{ "SO_MARK", 36 }, { "SO_PROTOCOL", 38 }, { "SO_DOMAIN", 39 }, { "SO_RXQ_OVFL", 40 },
	{ "SO_WIFI_STATUS", 41 }, { "SO_PEEK_OFF", 42 }, { "SO_NOFCS", 43 },
	{ "SO_LOCK_FILTER", 44 }, { "SO_SELECT_ERR_QUEUE", 45 }, { "SO_BUSY_POLL", 46 },
	{ "SO_MAX_PACING_RATE", 47 }, { "SO_BPF_EXTENSIONS", 48 }, { "SO_INCOMING_CPU", 49 },
	{ "SO_ATTACH_BPF", 50 }, { "SO_ATTACH_REUSEPORT_CBPF", 51 },
	{ "SO_ATTACH_REUSEPORT_EBPF", 52 }, { "SO_CNX_ADVICE", 53 }, { "SO_MEMINFO", 55 },
	{ "SO_INCOMING_NAPI_ID", 56 }, { "SO_COOKIE", 57 }, { "SO_PEERGROUPS", 59 },
	{ "SO_ZEROCOPY", 60 }, { "SO_TXTIME", 61 }, { "SO_BINDTOIFINDEX", 62 },
	{ "SO_TIMESTAMP_OLD", 29 }, { "SO_TIMESTAMPNS_OLD", 35 }, { "SO_TIMESTAMPING_OLD", 37 },
	{ "SO_DETACH_REUSEPORT_BPF", 68 }, { "SO_PREFER_BUSY_POLL", 69 },
	{ "SO_BUSY_POLL_BUDGET", 70 }, { "SO_NETNS_COOKIE", 71 }, { "SO_BUF_LOCK", 72 },
	{ "SO_RESERVE_MEM", 73 }, { "SO_TXREHASH", 74 }, { "SO_RCVMARK", 75 },
};
static const struct opname tcp_names[] = {
	{ "TCP_NODELAY", 1 }, { "TCP_MAXSEG", 2 }, { "TCP_CORK", 3 }, { "TCP_KEEPIDLE", 4 },
	{ "TCP_KEEPINTVL", 5 }, { "TCP_KEEPCNT", 6 }, { "TCP_SYNCNT", 7 }, { "TCP_LINGER2", 8 },
	{ "TCP_DEFER_ACCEPT", 9 }, { "TCP_WINDOW_CLAMP", 10 }, { "TCP_INFO", 11 },
	{ "TCP_QUICKACK", 12 }, { "TCP_CONGESTION", 13 }, { "TCP_MD5SIG", 14 },
	{ "TCP_THIN_LINEAR_TIMEOUTS", 16 }, { "TCP_THIN_DUPACK", 17 }, { "TCP_USER_TIMEOUT", 18 },
	{ "TCP_REPAIR", 19 }, { "TCP_REPAIR_QUEUE", 20 }, { "TCP_QUEUE_SEQ", 21 },
	{ "TCP_REPAIR_OPTIONS", 22 }, { "TCP_FASTOPEN", 23 }, { "TCP_TIMESTAMP", 24 },
	{ "TCP_NOTSENT_LOWAT", 25 }, { "TCP_CC_INFO", 26 }, { "TCP_SAVE_SYN", 27 },
	{ "TCP_SAVED_SYN", 28 }, { "TCP_REPAIR_WINDOW", 29 }, { "TCP_FASTOPEN_CONNECT", 30 },
	{ "TCP_ULP", 31 }, { "TCP_MD5SIG_EXT", 32 }, { "TCP_FASTOPEN_KEY", 33 },
	{ "TCP_FASTOPEN_NO_COOKIE", 34 }, { "TCP_ZEROCOPY_RECEIVE", 35 }, { "TCP_INQ", 36 },
	{ "TCP_TX_DELAY", 37 },
};
static const struct opname ip_names[] = {
	{ "IP_TOS", 1 }, { "IP_TTL", 2 }, { "IP_HDRINCL", 3 }, { "IP_OPTIONS", 4 },
	{ "IP_ROUTER_ALERT", 5 }, { "IP_RECVOPTS", 6 }, { "IP_RETOPTS", 7 }, { "IP_PKTINFO", 8 },
	{ "IP_PKTOPTIONS", 9 }, { "IP_MTU_DISCOVER", 10 }, { "IP_RECVERR", 11 },
	{ "IP_RECVTTL", 12 }, { "IP_RECVTOS", 13 }, { "IP_MTU", 14 }, { "IP_FREEBIND", 15 },
	{ "IP_IPSEC_POLICY", 16 }, { "IP_XFRM_POLICY", 17 }, { "IP_PASSSEC", 18 },
	{ "IP_TRANSPARENT", 19 }, { "IP_ORIGDSTADDR", 20 }, { "IP_MINTTL", 21 },
	{ "IP_NODEFRAG", 22 }, { "IP_CHECKSUM", 23 }, { "IP_BIND_ADDRESS_NO_PORT", 24 },
	{ "IP_RECVFRAGSIZE", 25 }, { "IP_RECVERR_RFC4884", 26 }, { "IP_MULTICAST_IF", 32 },
	{ "IP_MULTICAST_TTL", 33 }, { "IP_MULTICAST_LOOP", 34 }, { "IP_ADD_MEMBERSHIP", 35 },
	{ "IP_DROP_MEMBERSHIP", 36 }, { "IP_UNBLOCK_SOURCE", 37 }, { "IP_BLOCK_SOURCE", 38 },
	{ "IP_ADD_SOURCE_MEMBERSHIP", 39 }, { "IP_DROP_SOURCE_MEMBERSHIP", 40 },
	{ "IP_MSFILTER", 41 }, { "IP_MULTICAST_ALL", 49 }, { "IP_LOCAL_PORT_RANGE", 51 },
	{ "IP_PROTOCOL", 52 },
};
static const struct opname pr_names[] = {
	{ "PR_SET_PDEATHSIG", 1 }, { "PR_GET_PDEATHSIG", 2 }, { "PR_GET_DUMPABLE", 3 },
	{ "PR_SET_DUMPABLE", 4 }, { "PR_GET_UNALIGN", 5 }, { "PR_SET_UNALIGN", 6 },
	{ "PR_GET_KEEPCAPS", 7 }, { "PR_SET_KEEPCAPS", 8 }, { "PR_GET_FPEMU", 9 },
	{ "PR_SET_FPEMU", 10 }, { "PR_GET_FPEXC", 11 }, { "PR_SET_FPEXC", 12 },
	{ "PR_GET_TIMING", 13 }, { "PR_SET_TIMING", 14 }, { "PR_SET_NAME", 15 },
	{ "PR_GET_NAME", 16 }, { "PR_GET_ENDIAN", 19 }, { "PR_SET_ENDIAN", 20 },
	{ "PR_GET_SECCOMP", 21 }, { "PR_SET_SECCOMP", 22 }, { "PR_CAPBSET_READ", 23 },
	{ "PR_CAPBSET_DROP", 24 }, { "PR_GET_TSC", 25 }, { "PR_SET_TSC", 26 },
	{ "PR_GET_SECUREBITS", 27 }, { "PR_SET_SECUREBITS", 28 }, { "PR_SET_TIMERSLACK", 29 },
	{ "PR_GET_TIMERSLACK", 30 }, { "PR_TASK_PERF_EVENTS_DISABLE", 31 },
	{ "PR_TASK_PERF_EVENTS_ENABLE", 32 }, { "PR_MCE_KILL", 33 }, { "PR_SET_MM", 35 },
	{ "PR_SET_PTRACER", 1499557217 }, { "PR_SET_CHILD_SUBREAPER", 36 },
	{ "PR_GET_CHILD_SUBREAPER", 37 }, { "PR_SET_NO_NEW_PRIVS", 38 },
	{ "PR_GET_NO_NEW_PRIVS", 39 }, { "PR_GET_TID_ADDRESS", 40 }, { "PR_SET_THP_DISABLE", 41 },
	{ "PR_GET_THP_DISABLE", 42 }, { "PR_MPX_ENABLE_MANAGEMENT", 43 },
	{ "PR_MPX_DISABLE_MANAGEMENT", 44 }, { "PR_SET_FP_MODE", 45 }, { "PR_GET_FP_MODE", 46 },
	{ "PR_CAP_AMBIENT", 47 }, { "PR_SVE_SET_VL", 50 }, { "PR_SVE_GET_VL", 51 },
	{ "PR_GET_SPECULATION_CTRL", 52 }, { "PR_SET_SPECULATION_CTRL", 53 },
	{ "PR_PAC_RESET_KEYS", 54 }, { "PR_SET_TAGGED_ADDR_CTRL", 55 },
	{ "PR_GET_TAGGED_ADDR_CTRL", 56 }, { "PR_SET_IO_FLUSHER", 57 }, { "PR_GET_IO_FLUSHER", 58 },
	{ "PR_SET_SYSCALL_USER_DISPATCH", 59 }, { "PR_SCHED_CORE", 62 }, { "PR_SME_SET_VL", 63 },
	{ "PR_SME_GET_VL", 64 }, { "PR_SET_VMA", 1398164801 },
};
static const struct opname bpf_names[] = {
	{ "BPF_MAP_CREATE", 0 }, { "BPF_MAP_LOOKUP_ELEM", 1 }, { "BPF_MAP_UPDATE_ELEM", 2 },
	{ "BPF_MAP_DELETE_ELEM", 3 }, { "BPF_MAP_GET_NEXT_KEY", 4 }, { "BPF_PROG_LOAD", 5 },
	{ "BPF_OBJ_PIN", 6 }, { "BPF_OBJ_GET", 7 }, { "BPF_PROG_ATTACH", 8 },
	{ "BPF_PROG_DETACH", 9 }, { "BPF_PROG_TEST_RUN", 10 }, { "BPF_PROG_GET_NEXT_ID", 11 },
	{ "BPF_MAP_GET_NEXT_ID", 12 }, { "BPF_PROG_GET_FD_BY_ID", 13 },
	{ "BPF_MAP_GET_FD_BY_ID", 14 }, { "BPF_OBJ_GET_INFO_BY_FD", 15 },
	{ "BPF_PROG_QUERY", 16 }, { "BPF_RAW_TRACEPOINT_OPEN", 17 }, { "BPF_BTF_LOAD", 18 },
	{ "BPF_BTF_GET_FD_BY_ID", 19 }, { "BPF_TASK_FD_QUERY", 20 },
	{ "BPF_MAP_LOOKUP_AND_DELETE_ELEM", 21 }, { "BPF_MAP_FREEZE", 22 },
	{ "BPF_BTF_GET_NEXT_ID", 23 }, { "BPF_MAP_LOOKUP_BATCH", 24 },
	{ "BPF_MAP_LOOKUP_AND_DELETE_BATCH", 25 }, { "BPF_MAP_UPDATE_BATCH", 26 },
	{ "BPF_MAP_DELETE_BATCH", 27 }, { "BPF_LINK_CREATE", 28 }, { "BPF_LINK_UPDATE", 29 },
	{ "BPF_LINK_GET_FD_BY_ID", 30 }, { "BPF_LINK_GET_NEXT_ID", 31 }, { "BPF_ENABLE_STATS", 32 },
	{ "BPF_ITER_CREATE", 33 }, { "BPF_LINK_DETACH", 34 }, { "BPF_PROG_BIND_MAP", 35 },
	{ "BPF_TOKEN_CREATE", 36 },
};
static const struct opname fcntl_names[] = {
	{ "F_DUPFD", 0 }, { "F_GETFD", 1 }, { "F_SETFD", 2 }, { "F_GETFL", 3 }, { "F_SETFL", 4 },
	{ "F_GETLK", 5 }, { "F_SETLK", 6 }, { "F_SETLKW", 7 }, { "F_SETOWN", 8 },
	{ "F_GETOWN", 9 }, { "F_SETSIG", 10 }, { "F_GETSIG", 11 }, { "F_SETOWN_EX", 15 },
	{ "F_GETOWN_EX", 16 }, { "F_OFD_GETLK", 36 }, { "F_OFD_SETLK", 37 },
	{ "F_OFD_SETLKW", 38 }, { "F_SETLEASE", 1024 }, { "F_GETLEASE", 1025 },
	{ "F_NOTIFY", 1026 }, { "F_DUPFD_CLOEXEC", 1030 }, { "F_SETPIPE_SZ", 1031 },
	{ "F_GETPIPE_SZ", 1032 }, { "F_ADD_SEALS", 1033 }, { "F_GET_SEALS", 1034 },
	{ "F_GET_RW_HINT", 1035 }, { "F_SET_RW_HINT", 1036 },
};
static const struct opname ptrace_names[] = {
	{ "PTRACE_TRACEME", 0 }, { "PTRACE_PEEKTEXT", 1 }, { "PTRACE_PEEKDATA", 2 },
	{ "PTRACE_PEEKUSR", 3 }, { "PTRACE_POKETEXT", 4 }, { "PTRACE_POKEDATA", 5 },
	{ "PTRACE_POKEUSR", 6 }, { "PTRACE_CONT", 7 }, { "PTRACE_KILL", 8 },
	{ "PTRACE_SINGLESTEP", 9 }, { "PTRACE_ATTACH", 16 }, { "PTRACE_DETACH", 17 },
	{ "PTRACE_SYSCALL", 24 }, { "PTRACE_SETOPTIONS", 0x4200 }, { "PTRACE_GETEVENTMSG", 0x4201 },
	{ "PTRACE_GETSIGINFO", 0x4202 }, { "PTRACE_SETSIGINFO", 0x4203 },
	{ "PTRACE_GETREGSET", 0x4204 }, { "PTRACE_SETREGSET", 0x4205 }, { "PTRACE_SEIZE", 0x4206 },
	{ "PTRACE_INTERRUPT", 0x4207 }, { "PTRACE_LISTEN", 0x4208 },
	{ "PTRACE_PEEKSIGINFO", 0x4209 }, { "PTRACE_GETSIGMASK", 0x420a },
	{ "PTRACE_SETSIGMASK", 0x420b }, { "PTRACE_SECCOMP_GET_FILTER", 0x420c },
	{ "PTRACE_SECCOMP_GET_METADATA", 0x420d }, { "PTRACE_GET_SYSCALL_INFO", 0x420e },
};
/* setsockopt levels with option names here */
static const struct opname level_names[] = {
	{ "SOL_IP", 0 }, { "SOL_SOCKET", 1 }, { "SOL_TCP", 6 }, { "SOL_UDP", 17 },
	{ "SOL_IPV6", 41 }, { "SOL_RAW", 255 }, { "SOL_PACKET", 263 }, { "SOL_NETLINK", 270 },
};

#define LOOKUP(tab, v) lookup(tab, sizeof(tab) / sizeof(tab[0]), v)

static const char *lookup(const struct opname *t, size_t n, long v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].value == v)
			return t[i].name;
	return NULL;
}

enum opkind { OK_NONE, OK_SOCKOPT, OK_SOCKET, OK_BPF, OK_PRCTL, OK_IOCTL, OK_FCNTL, OK_PTRACE,
	      OK_KEYCTL, OK_MODE };

static enum opkind kind_of(const char *s)
{
	static const struct { const char *name; enum opkind k; } t[] = {
		{ "setsockopt", OK_SOCKOPT }, { "getsockopt", OK_SOCKOPT }, { "socket", OK_SOCKET },
		{ "bpf", OK_BPF }, { "prctl", OK_PRCTL }, { "ioctl", OK_IOCTL }, { "fcntl", OK_FCNTL },
		{ "ptrace", OK_PTRACE }, { "keyctl", OK_KEYCTL }, { "chmod", OK_MODE },
		{ "fchmod", OK_MODE }, { "fchmodat", OK_MODE }, { "fchmodat2", OK_MODE },
	};
	size_t i;

	for (i = 0; s && i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].name, s))
			return t[i].k;
	return OK_NONE;
}

const char *sysop_level_name(long level)
{
	return LOOKUP(level_names, level);
}

bool sysop_carried(const char *sysname)
{
	return kind_of(sysname) != OK_NONE;
}

/* an option name of a setsockopt level */
static const char *opt_name(long level, long opt)
{
	switch (level) {
	case 1:
		return LOOKUP(so_names, opt);
	case 6:
		return LOOKUP(tcp_names, opt);
	case 0:
		return LOOKUP(ip_names, opt);
	default:
		return NULL;
	}
}

const char *sysop_label(const char *sysname, int64_t op)
{
	if (op < 0)
		return NULL;
	switch (kind_of(sysname)) {
	case OK_SOCKOPT:
		return opt_name((long)(op >> 16), (long)(op & 0xffff));
	case OK_BPF:
		return LOOKUP(bpf_names, (long)op);
	case OK_PRCTL:
		return LOOKUP(pr_names, (long)op);
	case OK_FCNTL:
		return LOOKUP(fcntl_names, (long)op);
	case OK_PTRACE:
		return LOOKUP(ptrace_names, (long)op);
	default:
		return NULL;
	}
}

const char *sysop_name(const char *sysname, int64_t op, char *buf, size_t len)
{
	enum opkind k = kind_of(sysname);
	const char *a, *b;

	if (op < 0 || k == OK_NONE || !len)
		return NULL;
	switch (k) {
	case OK_SOCKOPT:
		a = LOOKUP(level_names, (long)(op >> 16));
		b = opt_name((long)(op >> 16), (long)(op & 0xffff));
		if (a && b)
			snprintf(buf, len, "%s %s", a, b);
		else if (a)
			snprintf(buf, len, "%s option %ld", a, (long)(op & 0xffff));
		else
			snprintf(buf, len, "level %ld option %ld", (long)(op >> 16), (long)(op & 0xffff));
		return buf;
	case OK_SOCKET:
		a = objname_family((long)(op >> 16));
		b = objname_socktype((long)(op & 0xf));
		if (a && b)
			snprintf(buf, len, "%s %s", a, b);
		else
			snprintf(buf, len, "family %ld type %ld", (long)(op >> 16), (long)(op & 0xf));
		return buf;
	case OK_IOCTL:
		snprintf(buf, len, "ioctl 0x%lx", (unsigned long)op);
		return buf;
	case OK_KEYCTL:
		snprintf(buf, len, "keyctl operation %ld", (long)op);
		return buf;
	case OK_MODE:
		if (!op)
			return NULL;   /* no set-ID or sticky bit: nothing to say */
		snprintf(buf, len, "mode 0%lo", (unsigned long)op);
		return buf;
	default:
		a = sysop_label(sysname, op);
		if (a)
			snprintf(buf, len, "%s", a);
		else
			snprintf(buf, len, "%s %ld", k == OK_BPF ? "command" : k == OK_PRCTL ? "option" :
				 k == OK_FCNTL ? "command" : "request", (long)op);
		return buf;
	}
}
