/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --service FILE.service: the unit's ExecStart= run with the
 * credentials and capability sets the unit file gives it, as systemd's
 * exec would (docs/service.md), so that the recording is of the unit as
 * configured. The file is read by facts/unitfile.c; names are resolved
 * here, in capaudit, before the fork; service_apply() runs in the child
 * (through launch_apply()), service_exec() replaces it with the command.
 */
#ifndef CA_SERVICE_H
#define CA_SERVICE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "facts/unitfile.h"
#include "recfile/recfile.h"

struct service {
	struct unit_file unit;
	bool set_user;          /* User= (and no '!' prefix): change uid */
	uid_t uid;              /* the uid the commands run as */
	gid_t gid;              /* and gid */
	gid_t *groups;          /* supplementary groups, set whatever they are */
	size_t ngroups;
	uint64_t bounding, ambient;   /* as applied (ambient within bounding) */
	char **envp;            /* the commands' environment (NULL-terminated) */
	char **paths;           /* each command's executable, found */
};

/*
 * Read the unit file and resolve it against this host: users, groups, the
 * executables, whether capaudit can hand the sets on. 0, or after one
 * line ("FILE:LINE: what is wrong") the exit status: EXIT_USAGE for the
 * file (or a name this host lacks), EXIT_FAIL when capaudit lacks the
 * privileges. Notes about settings not applied go to standard error.
 */
int service_prepare(const char *path, struct service *svc);
void service_free(struct service *svc);

/* In the child: groups, gid, the bounding set, the inheritable and ambient
 * sets, uid (keeping the ambient set), no_new_privs, the environment.
 * 0, or -1 with errno set and *stage naming the step that failed. */
int service_apply(const struct service *svc, const char **stage);

/* In the child, once released: exec the command; with several (oneshot)
 * run them one after another, as systemd does, and exit with the status
 * of the one that stopped them. report_fd (the exec-failure pipe) is
 * closed before a second command runs. Returns only when the single
 * command's exec failed (errno). */
void service_exec(const struct service *svc, int report_fd);

/* The header's scope and target: the unit file and its granted sets. */
void service_header(const struct service *svc, struct rec_header *h);

/* The recording's last word on the unit: its removal candidates (stderr). */
void service_summary(const struct service *svc, const struct record *r);

#endif
