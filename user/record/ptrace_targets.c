// SPDX-License-Identifier: GPL-2.0
#include "record/ptrace_targets.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* The initial user namespace's inode number (include/linux/proc_ns.h
 * PROC_USER_INIT_INO) */
#define USER_INIT_INO 0xEFFFFFFDU

static const char *const proc_entries[] = { CA_PROC_ENTRY_NAMES };

_Static_assert(sizeof(proc_entries) / sizeof(proc_entries[0]) == CA_PROC_ENTRIES,
	       "capaudit.h's count matches its list");

/* "ptrace", "/proc/PID/mem", ...: how an event reached its target. */
static const char *ptrace_via_name(const struct ca_event *e, char *buf, size_t n)
{
	switch (e->pt_via) {
	case CA_PT_PTRACE:
		return "ptrace";
	case CA_PT_VM_RW:
		return "process_vm_readv/writev";
	case CA_PT_KCMP:
		return "kcmp";
	case CA_PT_ROBUST_LIST:
		return "get_robust_list";
	case CA_PT_PERF:
		return "perf_event_open";
	case CA_PT_PIDFD:
		return "pidfd_getfd";
	case CA_PT_PROC:
		if (e->pt_entry >= 1 && e->pt_entry <= CA_PROC_ENTRIES) {
			const char *name = proc_entries[e->pt_entry - 1];

			snprintf(buf, n, "/proc/PID/%s", name);
			return buf;
		}
		return "/proc/PID";
	}
	return "unknown";
}

/* /proc's 16 hex digits of a capability set, strictly. */
static bool parse_capset_hex(const char *s, uint64_t *out)
{
	char *end;

	if (strspn(s, "0123456789abcdef") != 16)
		return false;
	*out = strtoull(s, &end, 16);
	return *end == '\n' || *end == '\0';
}

/* The target's name and permitted set from /proc/PID/status, and whether
 * it is in the initial user namespace (its uid_map maps every id to
 * itself, which only the initial namespace's does: user_namespaces(7)).
 * false when it is gone or unreadable. */
static bool read_target(uint32_t pid, char *comm, size_t n, uint64_t *prm, bool *init_ns,
			uint32_t *tgid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	bool have_prm = false, have_tgid = false;
	FILE *f;
	unsigned long long lo, count, first;

	comm[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/status", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		if (!strncmp(line, "Name:\t", 6)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(comm, n, "%s", line + 6);
		} else if (!strncmp(line, "Tgid:\t", 6)) {
			line[strcspn(line, "\n")] = '\0';
			have_tgid = !parse_u32(line + 6, tgid);
		} else if (!strncmp(line, "CapPrm:\t", 8)) {
			have_prm = parse_capset_hex(line + 8, prm);
		}
	}
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/uid_map", pid);
	f = fopen(path, "re");
	*init_ns = f && fscanf(f, "%llu %llu %llu", &first, &lo, &count) == 3 && first == 0 &&
		   lo == 0 && count == 4294967295ULL && getline(&line, &cap, f) > 0 &&
		   getline(&line, &cap, f) < 0;
	if (f)
		fclose(f);
	free(line);
	return have_prm && have_tgid;
}

void ptrace_target_note(struct rec_process *p, const struct ca_event *e,
			bool (*ours)(void *ctx, uint32_t target, uint32_t caller), void *ctx)
{
	char comm[64], via[48];
	uint64_t prm = 0, caller;
	uint32_t tgid = 0;
	bool init_ns = false;

	/* a pidfd's target is read as a pid of the initial pid namespace
	 * (bpf/ptrace_access.bpf.h pidfd_target()); the others as the
	 * caller named it */
	bool global = !e->pt_pidns_level || e->pt_via == CA_PT_PIDFD;

	/* a process the workload made (gone already, or not) */
	if (e->pt_target && global && ours(ctx, e->pt_target, e->tgid))
		return;
	/* a pid of another pid namespace, a caller in another user
	 * namespace (the rule compares namespaces this cannot see), a pidfd
	 * not read: not known */
	if (!e->pt_target || !global || e->pt_userns != USER_INIT_INO ||
	    !read_target(e->pt_target, comm, sizeof(comm), &prm, &init_ns, &tgid)) {
		p->ptrace_unknown++;
		return;
	}
	/* a thread of a process the workload made */
	if (tgid != e->pt_target && ours(ctx, tgid, e->tgid))
		return;
	/* another namespace's target: the kernel asked CAP_SYS_PTRACE there,
	 * and the record has that check; a target holding nothing: any set
	 * covers it */
	if (!init_ns || !prm)
		return;
	/* a set that does not cover the target's: the kernel asked, and the
	 * record has the check (PTRACE_MODE_FSCREDS compares the effective
	 * set, /proc's files; the others the permitted set) */
	caller = e->pt_via == CA_PT_PROC ? e->pt_caller_eff : e->pt_caller_prm;
	if (prm & ~caller)
		return;
	p->ptrace_targets++;
	p->ptrace_prm |= prm;
	if (!p->ptrace_ex_comm) {
		p->ptrace_ex_pid = e->pt_target;
		p->ptrace_ex_comm = xstrdup(comm);
		p->ptrace_ex_via = xstrdup(ptrace_via_name(e, via, sizeof(via)));
	}
}
