// SPDX-License-Identifier: GPL-2.0
#include "facts/objnames.h"

#include <linux/audit.h>
#include <linux/bpf.h>
#include <linux/genetlink.h>
#include <linux/netfilter/ipset/ip_set.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_conntrack.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <linux/sock_diag.h>
#include <linux/xfrm.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "lib/util.h"

struct objname {
	const char *name;
	long value;
};

#define N(x) { #x, (long)(x) }
#define LOOKUP(tab, v) lookup(tab, sizeof(tab) / sizeof(tab[0]), v)

static const char *lookup(const struct objname *t, size_t n, long v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].value == v)
			return t[i].name;
	return NULL;
}

/* rtnetlink, linux/rtnetlink.h */
static const struct objname rtm_names[] = {
	N(RTM_NEWLINK), N(RTM_DELLINK), N(RTM_GETLINK), N(RTM_SETLINK), N(RTM_NEWADDR),
	N(RTM_DELADDR), N(RTM_GETADDR), N(RTM_NEWROUTE), N(RTM_DELROUTE), N(RTM_GETROUTE),
	N(RTM_NEWNEIGH), N(RTM_DELNEIGH), N(RTM_GETNEIGH), N(RTM_NEWRULE), N(RTM_DELRULE),
	N(RTM_GETRULE), N(RTM_NEWQDISC), N(RTM_DELQDISC), N(RTM_GETQDISC), N(RTM_NEWTCLASS),
	N(RTM_DELTCLASS), N(RTM_GETTCLASS), N(RTM_NEWTFILTER), N(RTM_DELTFILTER),
	N(RTM_GETTFILTER), N(RTM_NEWACTION), N(RTM_DELACTION), N(RTM_GETACTION), N(RTM_NEWPREFIX),
	N(RTM_GETMULTICAST), N(RTM_GETANYCAST), N(RTM_NEWNEIGHTBL), N(RTM_GETNEIGHTBL),
	N(RTM_SETNEIGHTBL), N(RTM_NEWNDUSEROPT), N(RTM_NEWADDRLABEL), N(RTM_DELADDRLABEL),
	N(RTM_GETADDRLABEL), N(RTM_GETDCB), N(RTM_SETDCB), N(RTM_NEWNETCONF), N(RTM_DELNETCONF),
	N(RTM_GETNETCONF), N(RTM_NEWMDB), N(RTM_DELMDB), N(RTM_GETMDB), N(RTM_NEWNSID),
	N(RTM_DELNSID), N(RTM_GETNSID), N(RTM_NEWSTATS), N(RTM_GETSTATS), N(RTM_NEWCACHEREPORT),
	N(RTM_NEWCHAIN), N(RTM_DELCHAIN), N(RTM_GETCHAIN), N(RTM_NEWNEXTHOP), N(RTM_DELNEXTHOP),
	N(RTM_GETNEXTHOP), N(RTM_NEWLINKPROP), N(RTM_DELLINKPROP), N(RTM_GETLINKPROP),
	N(RTM_NEWVLAN), N(RTM_DELVLAN), N(RTM_GETVLAN), N(RTM_NEWNEXTHOPBUCKET),
	N(RTM_DELNEXTHOPBUCKET), N(RTM_GETNEXTHOPBUCKET), N(RTM_NEWTUNNEL), N(RTM_DELTUNNEL),
	N(RTM_GETTUNNEL),
};

/* nfnetlink's nf_tables subsystem (NFNL_SUBSYS_NFTABLES), linux/netfilter/nf_tables.h */
static const struct objname nft_names[] = {
	N(NFT_MSG_NEWTABLE), N(NFT_MSG_GETTABLE), N(NFT_MSG_DELTABLE), N(NFT_MSG_NEWCHAIN),
	N(NFT_MSG_GETCHAIN), N(NFT_MSG_DELCHAIN), N(NFT_MSG_NEWRULE), N(NFT_MSG_GETRULE),
	N(NFT_MSG_DELRULE), N(NFT_MSG_NEWSET), N(NFT_MSG_GETSET), N(NFT_MSG_DELSET),
	N(NFT_MSG_NEWSETELEM), N(NFT_MSG_GETSETELEM), N(NFT_MSG_DELSETELEM), N(NFT_MSG_NEWGEN),
	N(NFT_MSG_GETGEN), N(NFT_MSG_TRACE), N(NFT_MSG_NEWOBJ), N(NFT_MSG_GETOBJ),
	N(NFT_MSG_DELOBJ), N(NFT_MSG_GETOBJ_RESET), N(NFT_MSG_NEWFLOWTABLE),
	N(NFT_MSG_GETFLOWTABLE), N(NFT_MSG_DELFLOWTABLE),
};

/* conntrack (NFNL_SUBSYS_CTNETLINK), linux/netfilter/nfnetlink_conntrack.h */
static const struct objname ct_names[] = {
	N(IPCTNL_MSG_CT_NEW), N(IPCTNL_MSG_CT_GET), N(IPCTNL_MSG_CT_DELETE),
	N(IPCTNL_MSG_CT_GET_CTRZERO), N(IPCTNL_MSG_CT_GET_STATS_CPU), N(IPCTNL_MSG_CT_GET_STATS),
	N(IPCTNL_MSG_CT_GET_DYING), N(IPCTNL_MSG_CT_GET_UNCONFIRMED),
};

/* conntrack expectations (NFNL_SUBSYS_CTNETLINK_EXP) */
static const struct objname exp_names[] = {
	N(IPCTNL_MSG_EXP_NEW), N(IPCTNL_MSG_EXP_GET), N(IPCTNL_MSG_EXP_DELETE),
	N(IPCTNL_MSG_EXP_GET_STATS_CPU),
};

/* ipset (NFNL_SUBSYS_IPSET): the command, linux/netfilter/ipset/ip_set.h */
static const struct objname ipset_names[] = {
	N(IPSET_CMD_PROTOCOL), N(IPSET_CMD_CREATE), N(IPSET_CMD_DESTROY), N(IPSET_CMD_FLUSH),
	N(IPSET_CMD_RENAME), N(IPSET_CMD_SWAP), N(IPSET_CMD_LIST), N(IPSET_CMD_SAVE),
	N(IPSET_CMD_ADD), N(IPSET_CMD_DEL), N(IPSET_CMD_TEST), N(IPSET_CMD_HEADER),
	N(IPSET_CMD_TYPE), N(IPSET_CMD_GET_BYNAME), N(IPSET_CMD_GET_BYINDEX),
};

/* xfrm, linux/xfrm.h */
static const struct objname xfrm_names[] = {
	N(XFRM_MSG_NEWSA), N(XFRM_MSG_DELSA), N(XFRM_MSG_GETSA), N(XFRM_MSG_NEWPOLICY),
	N(XFRM_MSG_DELPOLICY), N(XFRM_MSG_GETPOLICY), N(XFRM_MSG_ALLOCSPI), N(XFRM_MSG_ACQUIRE),
	N(XFRM_MSG_EXPIRE), N(XFRM_MSG_UPDPOLICY), N(XFRM_MSG_UPDSA), N(XFRM_MSG_POLEXPIRE),
	N(XFRM_MSG_FLUSHSA), N(XFRM_MSG_FLUSHPOLICY), N(XFRM_MSG_NEWAE), N(XFRM_MSG_GETAE),
	N(XFRM_MSG_REPORT), N(XFRM_MSG_MIGRATE), N(XFRM_MSG_NEWSADINFO), N(XFRM_MSG_GETSADINFO),
	N(XFRM_MSG_NEWSPDINFO), N(XFRM_MSG_GETSPDINFO), N(XFRM_MSG_MAPPING),
	N(XFRM_MSG_SETDEFAULT), N(XFRM_MSG_GETDEFAULT),
};

/* audit's control messages, linux/audit.h */
static const struct objname audit_names[] = {
	N(AUDIT_GET), N(AUDIT_SET), N(AUDIT_LIST), N(AUDIT_ADD), N(AUDIT_DEL), N(AUDIT_USER),
	N(AUDIT_LOGIN), N(AUDIT_WATCH_INS), N(AUDIT_WATCH_REM), N(AUDIT_WATCH_LIST),
	N(AUDIT_SIGNAL_INFO), N(AUDIT_ADD_RULE), N(AUDIT_DEL_RULE), N(AUDIT_LIST_RULES),
	N(AUDIT_TRIM), N(AUDIT_MAKE_EQUIV), N(AUDIT_TTY_GET), N(AUDIT_TTY_SET),
	N(AUDIT_SET_FEATURE), N(AUDIT_GET_FEATURE),
};

/* bpf(2) program types, linux/bpf.h */
static const struct objname prog_names[] = {
	N(BPF_PROG_TYPE_UNSPEC), N(BPF_PROG_TYPE_SOCKET_FILTER), N(BPF_PROG_TYPE_KPROBE),
	N(BPF_PROG_TYPE_SCHED_CLS), N(BPF_PROG_TYPE_SCHED_ACT), N(BPF_PROG_TYPE_TRACEPOINT),
	N(BPF_PROG_TYPE_XDP), N(BPF_PROG_TYPE_PERF_EVENT), N(BPF_PROG_TYPE_CGROUP_SKB),
	N(BPF_PROG_TYPE_CGROUP_SOCK), N(BPF_PROG_TYPE_LWT_IN), N(BPF_PROG_TYPE_LWT_OUT),
	N(BPF_PROG_TYPE_LWT_XMIT), N(BPF_PROG_TYPE_SOCK_OPS), N(BPF_PROG_TYPE_SK_SKB),
	N(BPF_PROG_TYPE_CGROUP_DEVICE), N(BPF_PROG_TYPE_SK_MSG), N(BPF_PROG_TYPE_RAW_TRACEPOINT),
	N(BPF_PROG_TYPE_CGROUP_SOCK_ADDR), N(BPF_PROG_TYPE_LWT_SEG6LOCAL),
	N(BPF_PROG_TYPE_LIRC_MODE2), N(BPF_PROG_TYPE_SK_REUSEPORT),
	N(BPF_PROG_TYPE_FLOW_DISSECTOR), N(BPF_PROG_TYPE_CGROUP_SYSCTL),
	N(BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE), N(BPF_PROG_TYPE_CGROUP_SOCKOPT),
	N(BPF_PROG_TYPE_TRACING), N(BPF_PROG_TYPE_STRUCT_OPS), N(BPF_PROG_TYPE_EXT),
	N(BPF_PROG_TYPE_LSM), N(BPF_PROG_TYPE_SK_LOOKUP), N(BPF_PROG_TYPE_SYSCALL),
};

/* bpf(2) map types, linux/bpf.h */
static const struct objname map_names[] = {
	N(BPF_MAP_TYPE_UNSPEC), N(BPF_MAP_TYPE_HASH), N(BPF_MAP_TYPE_ARRAY),
	N(BPF_MAP_TYPE_PROG_ARRAY), N(BPF_MAP_TYPE_PERF_EVENT_ARRAY), N(BPF_MAP_TYPE_PERCPU_HASH),
	N(BPF_MAP_TYPE_PERCPU_ARRAY), N(BPF_MAP_TYPE_STACK_TRACE), N(BPF_MAP_TYPE_CGROUP_ARRAY),
	N(BPF_MAP_TYPE_LRU_HASH), N(BPF_MAP_TYPE_LRU_PERCPU_HASH), N(BPF_MAP_TYPE_LPM_TRIE),
	N(BPF_MAP_TYPE_ARRAY_OF_MAPS), N(BPF_MAP_TYPE_HASH_OF_MAPS), N(BPF_MAP_TYPE_DEVMAP),
	N(BPF_MAP_TYPE_SOCKMAP), N(BPF_MAP_TYPE_CPUMAP), N(BPF_MAP_TYPE_XSKMAP),
	N(BPF_MAP_TYPE_SOCKHASH), N(BPF_MAP_TYPE_CGROUP_STORAGE),
	N(BPF_MAP_TYPE_REUSEPORT_SOCKARRAY), N(BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE),
	N(BPF_MAP_TYPE_QUEUE), N(BPF_MAP_TYPE_STACK), N(BPF_MAP_TYPE_SK_STORAGE),
	N(BPF_MAP_TYPE_DEVMAP_HASH), N(BPF_MAP_TYPE_STRUCT_OPS), N(BPF_MAP_TYPE_RINGBUF),
	N(BPF_MAP_TYPE_INODE_STORAGE), N(BPF_MAP_TYPE_TASK_STORAGE), N(BPF_MAP_TYPE_BLOOM_FILTER),
	N(BPF_MAP_TYPE_USER_RINGBUF),
};

/* netlink protocols, linux/netlink.h */
static const struct objname nlproto_names[] = {
	N(NETLINK_ROUTE), N(NETLINK_UNUSED), N(NETLINK_USERSOCK), N(NETLINK_FIREWALL),
	N(NETLINK_SOCK_DIAG), N(NETLINK_NFLOG), N(NETLINK_XFRM), N(NETLINK_SELINUX),
	N(NETLINK_ISCSI), N(NETLINK_AUDIT), N(NETLINK_FIB_LOOKUP), N(NETLINK_CONNECTOR),
	N(NETLINK_NETFILTER), N(NETLINK_IP6_FW), N(NETLINK_DNRTMSG), N(NETLINK_KOBJECT_UEVENT),
	N(NETLINK_GENERIC), N(NETLINK_SCSITRANSPORT), N(NETLINK_ECRYPTFS), N(NETLINK_RDMA),
	N(NETLINK_CRYPTO), N(NETLINK_SMC),
};

/* clone(2) and unshare(2) flags, linux/sched.h */
static const struct objname clone_names[] = {
	N(CLONE_VM), N(CLONE_FS), N(CLONE_FILES), N(CLONE_SIGHAND), N(CLONE_PIDFD),
	N(CLONE_PTRACE), N(CLONE_VFORK), N(CLONE_PARENT), N(CLONE_THREAD), N(CLONE_NEWNS),
	N(CLONE_SYSVSEM), N(CLONE_SETTLS), N(CLONE_PARENT_SETTID), N(CLONE_CHILD_CLEARTID),
	N(CLONE_DETACHED), N(CLONE_UNTRACED), N(CLONE_CHILD_SETTID), N(CLONE_NEWCGROUP),
	N(CLONE_NEWUTS), N(CLONE_NEWIPC), N(CLONE_NEWUSER), N(CLONE_NEWPID), N(CLONE_NEWNET),
	N(CLONE_IO), N(CLONE_NEWTIME),
	N(CLONE_CLEAR_SIGHAND), N(CLONE_INTO_CGROUP),
};

/* address families, sys/socket.h */
static const struct objname af_names[] = {
	N(AF_UNIX), N(AF_INET), N(AF_AX25), N(AF_IPX), N(AF_APPLETALK), N(AF_NETROM),
	N(AF_BRIDGE), N(AF_ATMPVC), N(AF_X25), N(AF_INET6), N(AF_ROSE), N(AF_DECnet),
	N(AF_NETBEUI), N(AF_SECURITY), N(AF_KEY), N(AF_NETLINK), N(AF_PACKET), N(AF_ASH),
	N(AF_ECONET), N(AF_ATMSVC), N(AF_RDS), N(AF_SNA), N(AF_IRDA), N(AF_PPPOX), N(AF_WANPIPE),
	N(AF_LLC), N(AF_IB), N(AF_MPLS), N(AF_CAN), N(AF_TIPC), N(AF_BLUETOOTH), N(AF_IUCV),
	N(AF_RXRPC), N(AF_ISDN), N(AF_PHONET), N(AF_IEEE802154), N(AF_CAIF), N(AF_ALG), N(AF_NFC),
	N(AF_VSOCK), N(AF_KCM), N(AF_QIPCRTR), N(AF_SMC), N(AF_XDP),
};
/* socket types, sys/socket.h */
static const struct objname socktype_names[] = {
	N(SOCK_STREAM), N(SOCK_DGRAM), N(SOCK_RAW), N(SOCK_RDM), N(SOCK_SEQPACKET),
	N(SOCK_DCCP), N(SOCK_PACKET),
};

/* sock_diag, linux/sock_diag.h */
static const struct objname diag_names[] = {
	N(SOCK_DIAG_BY_FAMILY), N(SOCK_DESTROY),
};

const char *objname_family(long af)
{
	return LOOKUP(af_names, af);
}

const char *objname_socktype(long type)
{
	return LOOKUP(socktype_names, type);
}

const char *objname_netlink_proto(long proto)
{
	return LOOKUP(nlproto_names, proto);
}

/* nfnetlink: the subsystem in the high byte, its message in the low
 * (include/uapi/linux/netfilter/nfnetlink.h NFNL_SUBSYS_ID, NFNL_MSG_TYPE) */
static const char *nfnetlink_msg(long type)
{
	long msg = type & 0xff;

	switch ((type >> 8) & 0xff) {
	case NFNL_SUBSYS_NFTABLES:
		return LOOKUP(nft_names, msg);
	case NFNL_SUBSYS_CTNETLINK:
		return LOOKUP(ct_names, msg);
	case NFNL_SUBSYS_CTNETLINK_EXP:
		return LOOKUP(exp_names, msg);
	case NFNL_SUBSYS_IPSET:
		return LOOKUP(ipset_names, msg);
	default:
		return NULL;
	}
}

const char *objname_netlink_msg(long proto, long type, char *buf, size_t len)
{
	if (type < 0)
		return NULL;
	switch (proto) {
	case NETLINK_ROUTE:
		return LOOKUP(rtm_names, type);
	case NETLINK_NETFILTER:
		return nfnetlink_msg(type);
	case NETLINK_XFRM:
		return LOOKUP(xfrm_names, type);
	case NETLINK_AUDIT:
		return LOOKUP(audit_names, type);
	case NETLINK_SOCK_DIAG:
		return LOOKUP(diag_names, type);
	case NETLINK_GENERIC:
		if (type == GENL_ID_CTRL)
			return "GENL_ID_CTRL";
		if (type < GENL_MIN_ID || !len)
			return NULL;
		snprintf(buf, len, "generic netlink family %ld", type);
		return buf;
	default:
		return NULL;
	}
}

const char *objname_bpf_prog_type(long type)
{
	return LOOKUP(prog_names, type);
}

const char *objname_bpf_map_type(long type)
{
	return LOOKUP(map_names, type);
}

const char *objname_clone_flags(uint64_t flags, bool exit_signal, char *buf, size_t len)
{
	size_t i, at = 0;
	uint64_t left = flags, signal = flags;
	int n;

	if (!len)
		return NULL;
	buf[0] = '\0';
	if (exit_signal) {
		/* clone(2)'s low byte: the signal the parent gets (CSIGNAL) */
		left &= ~(uint64_t)CSIGNAL;
		flags &= ~(uint64_t)CSIGNAL;
	}
	for (i = 0; i < sizeof(clone_names) / sizeof(clone_names[0]); i++) {
		uint64_t bit = (uint64_t)(unsigned long)clone_names[i].value;

		if (!(flags & bit))
			continue;
		left &= ~bit;
		n = snprintf(buf + at, len - at, "%s%s", at ? "|" : "", clone_names[i].name);
		if (n < 0 || (size_t)n >= len - at)
			return buf;   /* cut: what fits */
		at += (size_t)n;
	}
	if (left) {
		n = snprintf(buf + at, len - at, "%s0x%llx", at ? "|" : "", (unsigned long long)left);
		if (n < 0 || (size_t)n >= len - at)
			return buf;
		at += (size_t)n;
	}
	if (exit_signal && (signal & CSIGNAL))
		snprintf(buf + at, len - at, "%s%s", at ? "|" : "", sig_name((int)(signal & CSIGNAL)));
	return buf;
}
