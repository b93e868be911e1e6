// SPDX-License-Identifier: GPL-2.0
/* The sentences text and html share (words.h). */
#include "output/words.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analyze/report.h"
#include "facts/capnames.h"

const char *sys_list_str(const struct sys_count *sys, size_t n, char *buf, size_t len)
{
	size_t i, o = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < n && i < 4 && o < len; i++) {
		const char *sn = sys[i].name;  /* the record's, not this host's */
		const char *sep = i ? ", " : "";

		if (sys[i].nr < 0)
			o += snprintf(buf + o, len - o, "%s(no syscall)", sep);
		else if (sn)
			o += snprintf(buf + o, len - o, "%s%s", sep, sn);
		else
			o += snprintf(buf + o, len - o, "%ssyscall_%d", sep, sys[i].nr);
	}
	if (n > 4 && o < len)
		snprintf(buf + o, len - o, ", ...");
	return buf;
}

const char *denial_meaning(const struct sg_denial *d, bool syscall_results, char *buf,
			   size_t len)
{
	const char *name = strerrorname_np(d->sys_errno);

	switch (d->kind) {
	case DENY_BLOCKING:
		if (d->in_ack)
			return "denied, and the netlink request failed (the kernel says so in its "
			       "netlink ack, not in the syscall's return value)";
		snprintf(buf, len, "denied, and the syscall failed (EPERM/EACCES, %" PRIu64
			 "x): the program may have failed here", d->sys_failed);
		return buf;
	case DENY_OTHER_ERROR:
		snprintf(buf, len, "denied, and the syscall then failed with %s (%" PRIu64 "x), "
			 "not EPERM/EACCES: maybe for another reason", name ? name : "an error",
			 d->sys_other);
		return buf;
	case DENY_INCONCLUSIVE:
		snprintf(buf, len, "denied; the syscall was interrupted (EINTR or restarted, %"
			 PRIu64 "x): inconclusive", d->sys_restart);
		return buf;
	case DENY_ADVISORY:
		return syscall_results ? "denied, advisory (the syscall went on)" :
					 "denied, advisory (kernel fact)";
	default:
		return "denied (this record has no syscall results)";
	}
}

const char *aside_meaning(const struct sg_aside *a, char *buf, size_t len)
{
	switch (a->why) {
	case ASIDE_INSIDE:
		return userns_meaning(RU_INSIDE);
	case ASIDE_OWNER:
		return userns_meaning(RU_OWNER);
	case ASIDE_CHILD:
		return userns_meaning(RU_CHILD);
	case ASIDE_NO_EFFECT:
		if (a->cap == CAP_SETUID || a->cap == CAP_SETGID)
			return "the answer could not change the outcome (the ids asked for were "
			       "the program's own, which kernel/sys.c allows without it)";
		if (a->cap == CAP_FSETID)
			return "the answer could not change the outcome (a refusal only clears "
			       "the set-group-ID bit, and the mode asked for had none)";
		return "the answer could not change the outcome (capset() kept the inheritable "
		       "set within the permitted one)";
	case ASIDE_FOREIGN:
		return "checked against credentials that were not the program's own (an "
		       "override: overlayfs acts as its mounter, a container engine, when it "
		       "copies a file up)";
	default:
		snprintf(buf, len, "the outcome only tunes behaviour (%s; %s); capaudit "
			 "verify proves it for this program", a->fact ? a->fact->operation : "",
			 a->fact ? a->fact->source : "kernel fact");
		return buf;
	}
}
