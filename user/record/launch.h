/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Start the audited command with exactly a given capability set, as root
 * or as another user (capaudit run --caps). Runs in the forked child, just
 * before execvp().
 */
#ifndef CA_LAUNCH_H
#define CA_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct launch {
	bool set_caps;           /* apply caps below */
	uint64_t caps;           /* bit per capability */
	bool set_user;
	uid_t uid;
	gid_t gid;
	const char *user;        /* for initgroups() */
	const char *home;        /* the user's home directory (passwd), or NULL */
	bool keep_path;          /* --keep-path: the caller's PATH, not the login one */
	char user_buf[64], home_buf[512];   /* (getpwnam()'s buffer is reused) */
	/* a cgroup namespace of its own, rooted at the cgroup it starts in:
	 * where cgroup2 is mounted with nsdelegate, the kernel then refuses
	 * to move it out (lib/cgroup.h cgroup_v2_nsdelegate()) */
	bool cgroupns;
	/* record --service: the unit's credentials and sets instead of the
	 * above (record/service.c), and its commands to exec */
	const struct service *service;
};

/* Whether p (privs_read()) holds what launch_apply() needs: CAP_SETPCAP
 * to set the command's sets, and CAP_SETUID and CAP_SETGID to change its
 * user (set_user). */
struct privs;
bool launch_privileged(const struct privs *p, bool set_user);

/* Resolve a user name or number; -1 if unknown. */
int launch_resolve_user(const char *name, struct launch *l);

/*
 * In the child: a cgroup namespace (cgroupns; where the kernel refuses
 * it, without), supplementary groups, gid and uid of the user (keeping
 * capabilities across the change), then bounding set, permitted,
 * effective, inheritable and ambient all equal to l->caps. Returns 0, or
 * -1 with errno set and *stage naming the step that failed.
 */
int launch_apply(const struct launch *l, const char **stage);

/* In the child, for --user: the user's environment, as `runuser -l` gives
 * it: HOME from the passwd entry (else /), USER and LOGNAME, and the
 * system's PATH (root's with the sbin directories), so that the program's
 * own lookups are its user's, not the caller's; with keep_path, the
 * caller's PATH stays. */
void launch_user_env(const struct launch *l);

/* Effective := permitted, so that the next steps may use what we hold. */
int launch_raise_effective(void);

/* Parse "CAP_NET_RAW,cap_chown,bpf" (or "none") into a mask; -1 with the
 * offending name in *bad. */
int parse_capset(const char *s, uint64_t *mask, char *bad, size_t badlen);

/* sh -c TEST as the caller, its standard output on standard error; its
 * shell-style exit status (-1 if it could not be started). */
int run_check(const char *test);

#endif
