/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who ran the selected program images, and whether one of their execs
 * gained privilege: what a snippet needs to set a user (runAsUser, --user,
 * User=) or to forbid privilege gains (allowPrivilegeEscalation: false,
 * no-new-privileges, NoNewPrivileges=yes) without breaking the workload.
 * Plain data read from the record; output/emit.c words it. Pure C.
 */
#ifndef CA_RUNAS_H
#define CA_RUNAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "recfile/recfile.h"

/* Whether an exec of the images gained privilege (setuid/setgid bit or
 * file capabilities: secure_exec). */
enum runas_gain {
	GAIN_NONE,      /* none did, and the record would have said so */
	GAIN_SEEN,      /* at least one did (gainer) */
	GAIN_UNKNOWN,   /* the record cannot tell: older than version 4, or
			 * process lines lost (version, events_lost, lines_lost) */
};

struct runas {
	/* the real uids of the images' process lines and of their checks, as
	 * the host saw them: how many distinct ones (3: three or more), the
	 * first two of them */
	size_t nuids;
	uint32_t uids[2];
	/* a check was decided inside a user namespace: the uids are the
	 * host's view, not what the workload calls itself (a rootless or
	 * user-namespaced container's root is a high host uid) */
	bool userns;
	enum runas_gain gain;
	const struct rec_process *gainer;   /* GAIN_SEEN: the first such image */
	size_t ngainers;
	/* GAIN_UNKNOWN: why */
	int version;                /* the record's format version */
	uint64_t events_lost;       /* process events dropped or processes not followed */
	size_t lines_lost;          /* lines a lenient read left out or found missing */
	/* the systemd unit: the recording's target (--unit, --service), else
	 * the one unit every image that names one ran in (not for a command
	 * capaudit started: that ran in its caller's unit); NULL if none or
	 * more than one. The record's string: it lives as long as the record. */
	const char *unit;
	bool user_unit;             /* it runs under a user manager (user@UID.service) */
};

/* The images are rec->procs[i] with matched[i] (NULL: all of them),
 * except a container runtime's setup (runtime_setup). */
void runas_build(const struct record *rec, const bool *matched, struct runas *out);

/* Every image and check ran as uid 0 / as one uid, not 0, and the uids
 * are the workload's own (no user namespace, nothing lost). */
bool runas_all_root(const struct runas *r);
bool runas_one_user(const struct runas *r);

#endif
