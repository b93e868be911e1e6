// SPDX-License-Identifier: GPL-2.0
#include "facts/capnames.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "lib/util.h"
#include "lib/spell.h"

const char *cap_name(int cap, char buf[CAP_NAME_LEN])
{
	char *n = NULL;
	size_t i;

	if (cap >= 0)
		n = cap_to_name((cap_value_t)cap);
	/* libcap spells an unknown capability as its number */
	if (!n || strncmp(n, "cap_", 4) != 0) {
		snprintf(buf, CAP_NAME_LEN, "%d", cap);
	} else {
		snprintf(buf, CAP_NAME_LEN, "%s", n);
		for (i = 0; buf[i]; i++)
			buf[i] = (char)toupper((unsigned char)buf[i]);
	}
	cap_free(n);
	return buf;
}

/* One line per capability, in the kernel's order; capabilities(7) says
 * the rest. Each follows "CAP_X lets a program". */
static const char *const cap_words_table[] = {
	[CAP_CHOWN] = "change a file's owner and group to any user and group",
	[CAP_DAC_OVERRIDE] = "read, write and run any file, whatever its permissions say",
	[CAP_DAC_READ_SEARCH] = "read any file and list any directory, whatever their "
				"permissions say",
	[CAP_FOWNER] = "do to any file what only its owner may do: change its mode, times "
		       "and flags",
	[CAP_FSETID] = "keep a file's set-user-ID and set-group-ID bits when it changes the "
		       "file, and set the set-group-ID bit for a group it is not in",
	[CAP_KILL] = "send signals to other users' processes",
	[CAP_SETGID] = "change its group IDs and supplementary groups to any group",
	[CAP_SETUID] = "change its user IDs to any user's: become another user",
	[CAP_SETPCAP] = "drop capabilities from its bounding set, add capabilities to its "
			"inheritable set and change its securebits",
	[CAP_LINUX_IMMUTABLE] = "make files immutable or append-only, and undo it",
	[CAP_NET_BIND_SERVICE] = "listen on network ports below 1024",
	[CAP_NET_BROADCAST] = "send broadcasts and listen to multicast",
	[CAP_NET_ADMIN] = "configure the network: interfaces, addresses, routes and firewall "
			  "rules",
	[CAP_NET_RAW] = "open raw sockets, which send and receive network packets the program "
			"builds itself",
	[CAP_IPC_LOCK] = "lock memory into RAM beyond its limit",
	[CAP_IPC_OWNER] = "use any System V shared memory, message queue or semaphore, "
			  "whatever its permissions say",
	[CAP_SYS_MODULE] = "load and unload kernel modules",
	[CAP_SYS_RAWIO] = "read and write devices and I/O ports directly",
	[CAP_SYS_CHROOT] = "change its root directory (chroot)",
	[CAP_SYS_PTRACE] = "trace and inspect any process: read its memory, stop it and change it",
	[CAP_SYS_PACCT] = "turn process accounting on and off",
	[CAP_SYS_ADMIN] = "do many administration tasks: mount file systems, set the host name, "
			  "create namespaces and more",
	[CAP_SYS_BOOT] = "reboot the machine and load a new kernel",
	[CAP_SYS_NICE] = "raise processes' priority and change how they are scheduled",
	[CAP_SYS_RESOURCE] = "go beyond resource limits and disk quotas",
	[CAP_SYS_TIME] = "set the system clock",
	[CAP_SYS_TTY_CONFIG] = "configure and hang up terminals",
	[CAP_MKNOD] = "create device files",
	[CAP_LEASE] = "take leases on files it does not own",
	[CAP_AUDIT_WRITE] = "write records to the kernel's audit log",
	[CAP_AUDIT_CONTROL] = "configure the kernel's auditing",
	[CAP_SETFCAP] = "give files capabilities",
	[CAP_MAC_OVERRIDE] = "override mandatory access control (Smack)",
	[CAP_MAC_ADMIN] = "configure mandatory access control (Smack, AppArmor)",
	[CAP_SYSLOG] = "read and clear the kernel's log",
	[CAP_WAKE_ALARM] = "set alarms that wake the system from suspend",
	[CAP_BLOCK_SUSPEND] = "keep the system from suspending",
	[CAP_AUDIT_READ] = "read the kernel's audit log as it is written",
	[CAP_PERFMON] = "monitor performance and trace the system (perf events)",
	[CAP_BPF] = "load BPF programs (small programs run in the kernel) and create BPF maps",
	[CAP_CHECKPOINT_RESTORE] = "checkpoint and restore processes, such as choosing a new "
				   "process's ID",
};

const char *cap_words(int cap)
{
	return cap >= 0 && (size_t)cap < ARRAY_SIZE(cap_words_table) ? cap_words_table[cap] : NULL;
}

int cap_number(const char *name)
{
	char lower[CAP_NAME_LEN + 4];
	cap_value_t v;
	long num;
	size_t i, o = 0;

	if (!name || !*name || strlen(name) >= CAP_NAME_LEN)
		return -1;
	if (!parse_int_range(name, 0, 63, &num))
		return (int)num;
	if (strncasecmp(name, "cap_", 4) != 0) {
		memcpy(lower, "cap_", 4);
		o = 4;
	}
	for (i = 0; name[i]; i++)
		lower[o++] = (char)tolower((unsigned char)name[i]);
	lower[o] = '\0';
	if (cap_from_name(lower, &v) != 0 || v < 0)
		return -1;
	/* cap_from_name also takes numbers; we only want real names here */
	if (isdigit((unsigned char)lower[4]))
		return -1;
	return (int)v;
}

const char *cap_suggest(const char *typed, char buf[CAP_NAME_LEN])
{
	char want[CAP_NAME_LEN + 4], names[CAP_LAST_CAP + 1][CAP_NAME_LEN];
	const char *best;
	struct spell sp;
	int i;

	if (!typed || !*typed || strlen(typed) >= CAP_NAME_LEN || cap_number(typed) >= 0)
		return NULL;
	/* compared as the capability is named: CAP_ and the rest */
	snprintf(want, sizeof(want), "%s%s", strncasecmp(typed, "cap_", 4) ? "CAP_" : "", typed);
	spell_init(&sp, want);
	for (i = 0; i <= CAP_LAST_CAP; i++)
		spell_try(&sp, cap_name(i, names[i]));
	best = spell_best(&sp);
	if (!best)
		return NULL;
	snprintf(buf, CAP_NAME_LEN, "%s", best);
	return buf;
}

int cap_list_parse(const char *s, uint64_t *mask, char *bad, size_t badlen)
{
	uint64_t add = 0;
	const char *p = s;

	for (;;) {
		size_t n = strcspn(p, ",");
		char name[CAP_NAME_LEN];
		int c = -1;

		/* each name whole: an empty one is a mistake, not nothing */
		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			c = cap_number(name);
		}
		if (c < 0) {
			snprintf(bad, badlen, "%.*s", (int)n, p);
			return -1;
		}
		add |= CAP_BIT(c);
		if (!p[n])
			break;
		p += n + 1;
	}
	*mask |= add;
	return 0;
}

const char *capset_join(uint64_t mask, const char *sep, const char *none, char *buf,
			size_t len)
{
	char name[CAP_NAME_LEN];
	size_t o = 0;
	int c;

	buf[0] = '\0';
	for_each_cap(c, mask) {
		if (o >= len)
			break;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? sep : "", cap_name(c, name));
	}
	if (!o)
		snprintf(buf, len, "%s", none);
	return buf;
}

const char *capset_str(uint64_t mask, char *buf, size_t len)
{
	return capset_join(mask, ", ", "none", buf, len);
}
