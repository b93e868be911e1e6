/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where systemd finds a service unit and its drop-ins (systemd.unit(5):
 * "Unit File Load Path", the drop-in paragraphs of "Description"): the
 * system manager's unit path, or $SYSTEMD_UNIT_PATH as systemd(1)
 * "Environment" reads it; a unit by name is the first file of that name
 * along it (a template's for an instance); its drop-ins are the *.conf
 * files of NAME.service.d/, of the dash prefixes' directories
 * (foo-bar-.service.d/, foo-.service.d/), of the template's and of the
 * type's (service.d/) in every directory of the path, the first file of a
 * name masking the others, applied in the order of their file names
 * (src/shared/dropin.c unit_file_find_dropin_paths(), conf_files_list()).
 * A unit given as a file reads the drop-ins of its own directory too, as
 * systemd-analyze verify does (it goes first, unless it is on the path).
 */
#ifndef CA_UNITPATH_H
#define CA_UNITPATH_H

#include <stdbool.h>
#include <stddef.h>

/* At most this many *.conf files are looked at, masked ones included. */
#define UNIT_MAX_DROPINS 1024

struct unit_sources {
	char *unit;              /* the unit file's path */
	char *name;              /* the unit's name (foo.service), or NULL when the
				  * file's name is not a service unit's */
	bool by_name;            /* found on the unit path by name */
	char **dropins;          /* in the order they apply (masks left out) */
	size_t ndropins;
};

/*
 * arg: a file (a path with a '/', or a file of that name in the current
 * directory), else a unit name (".service" added when it has no suffix)
 * looked up on the unit path. 0, or -1 with one line in err ("--service
 * NAME: why", "DIR: why").
 */
int unitpath_find(const char *arg, struct unit_sources *s, char *err, size_t errlen);
void unitpath_free(struct unit_sources *s);

/* The unit path, ", "-joined into buf (for messages and tests). */
const char *unitpath_dirs(char *buf, size_t len);

#endif
