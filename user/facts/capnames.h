/* SPDX-License-Identifier: GPL-2.0 */
/* Capability names, from libcap: "CAP_BPF" for 39, "41" for an unknown 41. */
#ifndef CA_CAPNAMES_H
#define CA_CAPNAMES_H

#include <stddef.h>
#include <stdint.h>

#define CAP_NAME_LEN 32

/* Upper-case name of cap into buf; an unknown number prints as itself. */
const char *cap_name(int cap, char buf[CAP_NAME_LEN]);
/* "CAP_PERFMON, CAP_BPF" for a bit mask (or "none") into buf. */
const char *capset_str(uint64_t mask, char *buf, size_t len);
/* Number for "CAP_BPF", "cap_bpf", "bpf" or "39"; -1 if unknown. */
int cap_number(const char *name);

#endif
