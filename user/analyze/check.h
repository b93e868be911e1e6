/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capaudit check: what records show against what a baseline allows.
 * Pure C: the records are analysed with suggest_build(), merged, compared.
 */
#ifndef CA_CHECK_H
#define CA_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/baseline.h"
#include "lib/hindex.h"
#include "analyze/suggest.h"

enum finding_kind {
	FK_NEW_CAP,        /* a capability the baseline does not allow */
	FK_NEW_SITE,       /* an allowed capability asked for at a new call site */
	FK_NEW_DENIAL,     /* a denial the baseline does not expect */
	FK_UNUSED_CAP,     /* allowed, not used by these records (hint) */
	FK_UNUSED_SITE,    /* allowed call site not seen (hint) */
	FK_UNUSED_DENIAL,  /* expected denial not seen (hint) */
	FK_ALLOWED,        /* seen and allowed: no finding, listed for JUnit */
	FK_NR,
};

struct finding {
	enum finding_kind kind;
	int cap;
	char *func;            /* call site; NULL for FK_UNUSED_CAP */
	char *syscalls;        /* "socket, bind" or NULL */
	uint64_t count;
	bool replaces_sys_admin; /* a narrow capability suggested for CAP_SYS_ADMIN */
	enum denial_kind dkind;  /* FK_NEW_DENIAL */
	const char *note;      /* the baseline's note (borrowed), unused entries */
	bool fails;
	/* the place in the program's own code that led here (a record made
	 * with --user-stacks, debug info present), or NULL / 0 */
	char *usrc, *ufunc;
	int uline;
};

/* What the records show, merged: capability -> call sites; denials. */
struct observation {
	struct bl_entry *caps, *denied;
	size_t ncaps, capcaps, ndenied, capdenied;
	/* per (cap, site): count, syscalls, kind; parallel to the sites */
	struct obs_extra {
		int cap;
		bool denied;
		char *func;
		uint64_t count;
		char *syscalls;
		bool replaces;
		enum denial_kind kind;
		char *usrc, *ufunc;   /* user place (see struct finding) */
		int uline;
	} *extra;
	size_t nextra, capextra;
	struct hindex extra_idx;   /* extras by (cap, denied, site) */
};

struct check_result {
	struct finding *f;
	size_t n, capn;
	size_t nfail, nhint, nallowed;
	bool strict;
};

/* Everything an output format needs to print a verdict. */
struct check_view {
	const struct check_result *r;
	const char *baseline;     /* path as given */
	char **records;           /* paths as given */
	size_t nrecords;
	const char *source_root;  /* user places are shown relative to it */
};

/* Add one record's suggestion to the observation. */
void observation_add(struct observation *o, const struct suggestion *s);
void observation_free(struct observation *o);
/* Then the user places of that record's checks (--user-stacks), by
 * capability and kernel call site: the first one with a source line. */
void observation_add_user_sites(struct observation *o, const struct record *rec);

/* Compare; strict makes unused entries failures too. */
void check_compare(const struct observation *o, struct baseline *b, bool strict,
		   struct check_result *r);
void check_result_free(struct check_result *r);

/* The baseline the observation implies, keeping old's notes where the
 * entry or call site stays. Caller frees with baseline_free(). */
void check_updated_baseline(const struct observation *o, const struct baseline *old,
			    struct baseline *out);

const char *finding_kind_name(enum finding_kind k);   /* "new-capability", ... */

/* One sentence about a finding, for annotations and reports (raw bytes:
 * each output format escapes it). */
void check_message(const struct finding *x, const char *baseline, char *buf, size_t len);

#endif
