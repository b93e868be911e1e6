/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capabilities by name and number. The numbers are the kernel's (records
 * store them): CAP_SYS_ADMIN, CAP_BPF, ... come from <linux/capability.h>,
 * the header libcap's <sys/capability.h> includes itself, so a file may
 * include both. Names as text come from libcap: "CAP_BPF" for 39, "41" for
 * an unknown 41.
 */
#ifndef CA_CAPNAMES_H
#define CA_CAPNAMES_H

#include <linux/capability.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CAP_NAME_LEN 32
/* Room for capset_str() of any mask: 64 names and their separators. */
#define CAPSET_STR_LEN (64 * (CAP_NAME_LEN + 2))

/* The bit of capability cap in a mask (bit n: capability n, 0..63). */
#define CAP_BIT(cap) (1ULL << (cap))

/* Whether capability cap is in mask (bit n: capability n); false for a
 * number outside 0..63. */
static inline bool capset_has(uint64_t mask, int cap)
{
	return cap >= 0 && cap < 64 && (mask >> cap) & 1;
}

/* The lowest capability of mask above `after` (-1: the lowest of all), or
 * -1 when there is none. */
static inline int cap_next(uint64_t mask, int after)
{
	if (after >= 63)
		return -1;
	if (after >= 0)
		mask &= ~0ULL << (after + 1);
	return mask ? __builtin_ctzll(mask) : -1;
}

/* for_each_cap(c, mask) { ... }: every capability in mask, lowest first
 * (mask is read again at each step). */
#define for_each_cap(c, mask) \
	for ((c) = cap_next((mask), -1); (c) >= 0; (c) = cap_next((mask), (c)))

/* Upper-case name of cap into buf; an unknown number prints as itself. */
const char *cap_name(int cap, char buf[CAP_NAME_LEN]);
/* What capability cap lets a program do, in plain words that follow "lets
 * a program": "open raw sockets, which send and receive network packets
 * the program builds itself" for CAP_NET_RAW (after capabilities(7));
 * NULL for a number without words. */
const char *cap_words(int cap);
/* The names of mask's capabilities, lowest first, joined by sep, into buf
 * (none when mask is empty); as many as fit. */
const char *capset_join(uint64_t mask, const char *sep, const char *none, char *buf,
			size_t len);
/* "CAP_PERFMON, CAP_BPF" for a bit mask (or "none") into buf. */
const char *capset_str(uint64_t mask, char *buf, size_t len);
/* Number for "CAP_BPF", "cap_bpf", "bpf" or "39"; -1 if unknown. */
int cap_number(const char *name);
/* Add the capabilities of "CAP_NET_RAW,cap_chown,bpf,21" (cap_number()'s
 * names, comma-separated) to *mask. 0, or -1 with the offending name in
 * bad ("" for an empty one: "a,,b", a trailing comma); *mask is then
 * unchanged. */
int cap_list_parse(const char *s, uint64_t *mask, char *bad, size_t badlen);
/* The capability a mistyped name (as cap_list_parse()'s bad gives it)
 * most likely meant, "CAP_NET_BIND_SERVICE" for "CAP_NET_BINDSERVICE" or
 * "net_bind_servce", into buf; NULL when none is close (lib/spell.h) or
 * the name is a capability. */
const char *cap_suggest(const char *typed, char buf[CAP_NAME_LEN]);

#endif
