/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A systemd service unit file, as far as record --service applies it
 * (docs/service.md): the [Service] keys that decide the credentials and
 * capability sets ExecStart= runs with (User=, Group=,
 * SupplementaryGroups=, AmbientCapabilities=, CapabilityBoundingSet=,
 * NoNewPrivileges=), Environment=, Type= and ExecStart= itself, read with
 * systemd's rules (systemd.syntax(7), systemd.service(5), systemd.exec(5)).
 * Pure: no user lookup, no capability of this process; record/service.c
 * turns it into a launch. Every error is one line "FILE:LINE: what is
 * wrong".
 */
#ifndef CA_UNITFILE_H
#define CA_UNITFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One command of ExecStart= (several only for Type=oneshot, or a line
 * joining commands with a lone ";"). */
struct unit_exec {
	char *path;             /* the file to execute: the first word */
	char **argv;            /* NULL-terminated; argv[0] is path, or the
				 * second word with the '@' prefix */
	size_t argc;
	bool ignore_failure;    /* '-': its failure does not stop the next */
	bool no_setuid;         /* '!': User=, Group=, SupplementaryGroups= not
				 * applied, capabilities still are */
	unsigned line;
};

struct unit_file {
	char *name;             /* as given, for messages */
	char *type;             /* Type=, NULL when not set */
	struct unit_exec *exec;
	size_t nexec;
	char *user, *group;     /* User=, Group=; NULL when not set */
	unsigned user_line, group_line;
	char **groups;          /* SupplementaryGroups=, in order */
	size_t ngroups;
	unsigned groups_line;
	bool has_bounding;      /* CapabilityBoundingSet= given */
	uint64_t bounding;      /* else every capability (the caller's all_caps) */
	uint64_t ambient;       /* AmbientCapabilities= */
	unsigned bounding_line, ambient_line;  /* their last assignment */
	bool no_new_privs;      /* NoNewPrivileges= */
	char **env;             /* Environment=: "NAME=value", one per name */
	size_t nenv;
	char **notes;           /* "FILE:LINE: Key= is not applied: ..." */
	size_t nnotes;
};

/*
 * Parse text (len bytes, from the file called name). all_caps is the mask
 * of every capability ("~" inverts within it, and it is the bounding set
 * when none is given). 0, or -1 with "name:LINE: why" in err; u is then
 * freed.
 */
int unitfile_parse(const char *text, size_t len, const char *name, uint64_t all_caps,
		   struct unit_file *u, char *err, size_t errlen);
/* Read the file at path and parse it ("path: why" when it cannot be read). */
int unitfile_load(const char *path, uint64_t all_caps, struct unit_file *u, char *err,
		  size_t errlen);
void unitfile_free(struct unit_file *u);

#endif
