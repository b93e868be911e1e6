/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of what capability checks are about (the record's objects,
 * docs/record-format.md "objects"): address families, socket types,
 * netlink protocols and their message types (rtnetlink, nfnetlink's
 * nf_tables, conntrack and ipset, xfrm, audit, sock_diag, generic
 * netlink's controller), bpf(2) program and map types, clone(2) flags.
 * Names and numbers come from this build's C headers (linux/...h); a
 * number they do not name gets no name (NULL), never a guess.
 */
#ifndef CA_OBJNAMES_H
#define CA_OBJNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

const char *objname_family(long af);           /* "AF_INET" */
const char *objname_socktype(long type);       /* "SOCK_RAW" */
const char *objname_netlink_proto(long proto); /* "NETLINK_ROUTE" */
/* The message type of a netlink protocol: "RTM_NEWADDR", "NFT_MSG_NEWTABLE",
 * "IPSET_CMD_CREATE", "generic netlink family 28" (generic netlink's
 * family ids are given out at run time); into buf when it is made up. */
const char *objname_netlink_msg(long proto, long type, char *buf, size_t len);
const char *objname_bpf_prog_type(long type);  /* "BPF_PROG_TYPE_XDP" */
const char *objname_bpf_map_type(long type);   /* "BPF_MAP_TYPE_HASH" */
/* clone(2)/unshare(2) flags by name, "|" between ("CLONE_NEWNET|CLONE_NEWNS"),
 * unnamed bits in hex, then (exit_signal: clone's low byte) the signal
 * ("SIGCHLD"); buf is returned. */
const char *objname_clone_flags(uint64_t flags, bool exit_signal, char *buf, size_t len);

#endif
