/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --service UNIT: the unit's ExecStart= run with the credentials
 * and capability sets the unit file and its drop-ins give it, as systemd's
 * exec would (docs/service.md), so that the recording is of the unit as
 * configured. The files are found by facts/unitpath.c and read by
 * facts/unitfile.c; names are resolved here, in capaudit, before the
 * fork; service_apply() runs in the child (through launch_apply()),
 * service_exec() replaces it with the command. run --service and verify
 * --service start it the same way with a set of their own.
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
	char *name;             /* the unit's name (foo.service), or NULL */
	bool set_user;          /* User= (and no '!' prefix): change uid */
	uid_t uid;              /* the uid the commands run as */
	gid_t gid;              /* and gid */
	gid_t *groups;          /* supplementary groups, set whatever they are */
	size_t ngroups;
	uint64_t bounding, ambient;   /* as applied (ambient within bounding) */
	char **envp;            /* the commands' environment (NULL-terminated) */
	char **paths;           /* each command's executable, found */
};

/* How a unit is to start. */
struct service_opts {
	bool quiet;             /* no notes (verify says them once, its runs not) */
	bool set_caps;          /* run --caps: the command holds exactly caps: the
				 * bounding set, and the ambient set of a user
				 * other than root (root's stays the unit's,
				 * within caps), as a drop-in setting both would */
	uint64_t caps;
};

/*
 * Find the unit (a file, or a name on systemd's unit path) and its
 * drop-ins, read them and resolve them against this host: users, groups,
 * the executables, whether capaudit can hand the sets on. 0, or after one
 * line ("FILE:LINE: what is wrong") the exit status: EXIT_USAGE for the
 * files (or a name this host lacks), EXIT_FAIL when capaudit lacks the
 * privileges. Which files were read and the settings not applied are
 * noted on standard error. o may be NULL.
 */
int service_prepare(const char *arg, const struct service_opts *o, struct service *svc);

/* What the unit's command holds after exec: the bounding set as root, the
 * ambient set as another user. */
uint64_t service_granted(const struct service *svc);
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
