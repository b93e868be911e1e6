/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A systemd service unit file, as far as record --service applies it
 * (docs/service.md): the [Service] keys that decide the credentials and
 * capability sets ExecStart= runs with (User=, Group=,
 * SupplementaryGroups=, AmbientCapabilities=, CapabilityBoundingSet=,
 * NoNewPrivileges=), Environment=, Type= and ExecStart= itself, read with
 * systemd's rules (systemd.syntax(7), systemd.service(5), systemd.exec(5)),
 * from the unit file and then its drop-ins, in their order, as one
 * (systemd.unit(5): each drop-in is "parsed after the main unit file";
 * an empty assignment resets a list, as in the file itself).
 * Pure: no user lookup, no capability of this process; record/service.c
 * turns it into a launch. Every error is one line "FILE:LINE: what is
 * wrong".
 */
#ifndef CA_UNITFILE_H
#define CA_UNITFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UNIT_MAX_SIZE (4 << 20)    /* a unit file or drop-in (systemd refuses longer) */
#define UNIT_MAX_TOTAL (16 << 20)  /* the unit and its drop-ins together */

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
	const char *file;       /* the unit or drop-in it is in (unit_file.files) */
	unsigned line;
};

struct unit_file {
	char *name;             /* the unit file, as given, for messages */
	char **files;           /* it, then its drop-ins: where each key was set */
	size_t nfiles;
	char *type;             /* Type=, NULL when not set */
	struct unit_exec *exec;
	size_t nexec;
	char *user, *group;     /* User=, Group=; NULL when not set */
	const char *user_file, *group_file, *groups_file;   /* into files */
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
/* The same, then each of the n drop-ins, in order, as one unit. Each file
 * at most UNIT_MAX_SIZE, all of them together at most UNIT_MAX_TOTAL. */
int unitfile_load_dropins(const char *path, char *const *dropins, size_t n, uint64_t all_caps,
			  struct unit_file *u, char *err, size_t errlen);
void unitfile_free(struct unit_file *u);

#endif
