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

/*
 * What is compared (--match): capabilities always; then the syscalls that
 * led to each (where the baseline lists them: version 2); kernel call
 * sites only with MATCH_CALLSITE, since a baseline written on one kernel
 * names functions another kernel inlines or renames.
 */
enum check_match {
	MATCH_CAPABILITY,
	MATCH_SYSCALL,     /* the default */
	MATCH_CALLSITE,
};

/* "capability", "syscall", "callsite"; and back (-1: unknown). */
const char *check_match_name(enum check_match m);
int check_match_parse(const char *s);

enum finding_kind {
	FK_NEW_CAP,        /* a capability the baseline does not allow */
	FK_NEW_SYSCALL,    /* an allowed capability asked for in a new syscall */
	FK_NEW_SITE,       /* an allowed capability asked for at a new call site */
	FK_NEW_DENIAL,     /* a denial the baseline does not expect */
	FK_UNUSED_CAP,     /* allowed, not used by these records (hint) */
	FK_UNUSED_SYSCALL, /* allowed syscall not seen (hint) */
	FK_UNUSED_SITE,    /* allowed call site not seen (hint) */
	FK_UNUSED_DENIAL,  /* expected denial not seen (hint) */
	FK_ALLOWED,        /* seen and allowed: no finding, listed for JUnit */
	FK_NR,
};

struct finding {
	enum finding_kind kind;
	int cap;
	char *func;            /* call site; NULL for FK_UNUSED_CAP; for a syscall's
				* finding the call sites it reached ("a, b"), or NULL */
	char *syscall;         /* the syscall a finding is about (new-syscall,
				* unused-syscall, a denial compared by syscall), or NULL */
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
	struct obj_set objects;  /* what its checks were about (owned) */
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
		struct obj_set objects;   /* owned: the records are freed */
	} *extra;
	size_t nextra, capextra;
	struct hindex extra_idx;   /* extras by (cap, denied, site) */
	/* per (cap, syscall): the same, seen by syscall */
	struct obs_sys {
		int cap;
		bool denied;
		char *name;           /* check_syscall_label() */
		uint64_t count;
		char *sites;          /* "alloc_pid, ..." */
		size_t sites_len, sites_cap;
		bool replaces;
		enum denial_kind kind;
		char *usrc, *ufunc;
		int uline;
		struct obj_set objects;   /* owned */
	} *sx;
	size_t nsx, capsx;
	struct hindex sx_idx;
	/* the sites already in each sx[].sites: (sx position, site) pairs, so
	 * that a syscall reached from 100,000 sites is listed in linear time */
	struct obs_sx_site {
		size_t sx;
		char *site;
	} *sxsite;
	size_t nsxsite, capsxsite;
	struct hindex sxsite_idx;
};

struct check_result {
	struct finding *f;
	size_t n, capn;
	size_t nfail, nhint, nallowed;
	bool strict;
	enum check_match match;
};

/* Everything an output format needs to print a verdict. */
struct check_view {
	const struct check_result *r;
	const char *baseline;     /* path as given */
	/* the baseline named as annotations name files: relative to
	 * source_root when it lies under it, else as given; NULL: baseline */
	const char *baseline_shown;
	char **records;           /* paths as given */
	size_t nrecords;
	/* user places (and baseline_shown) are named relative to it: --source-root,
	 * else the top of the git work tree check runs in, else the current
	 * directory */
	const char *source_root;
	/* the command that accepts the findings (check --update with the same
	 * baseline, records and choices), ready to paste; NULL: not known */
	const char *update_cmd;
};

/* Room for check_message(): its sentences and the whole update_cmd. */
#define CHECK_MSG_LEN 16384

/* Add one record's suggestion to the observation. */
void observation_add(struct observation *o, const struct suggestion *s);
void observation_free(struct observation *o);
/* Then the user places of that record's checks (--user-stacks), by
 * capability and kernel call site: the first one with a source line. */
void observation_add_user_sites(struct observation *o, const struct record *rec);

/* Compare at the level match asks; strict makes unused entries failures
 * too. */
void check_compare(const struct observation *o, struct baseline *b, bool strict,
		   enum check_match match, struct check_result *r);
/* How a check's syscall (number nr, name as the record gives it or NULL)
 * is named in baselines and findings: its name, "(none)" outside a
 * syscall, "syscall_N" when unknown. Returns buf (>= 32 bytes), name or a
 * static name. */
const char *check_syscall_label(int nr, const char *name, char *buf, size_t len);
/* The baseline entries that list no syscalls (version 1): at --match
 * syscall their syscalls are not compared (check --update adds them). */
size_t check_entries_without_syscalls(const struct baseline *b);
void check_result_free(struct check_result *r);

/* The baseline the observation implies, keeping old's notes where the
 * entry or call site stays. Caller frees with baseline_free(). */
void check_updated_baseline(const struct observation *o, const struct baseline *old,
			    struct baseline *out);

/* One thing check --update adds to a baseline or removes from it. */
struct bl_change {
	bool added;                   /* else removed */
	bool denied;                  /* an expected denial's entry */
	int cap;
	const char *syscall, *site;   /* what was added or removed; both NULL:
				       * the whole entry */
	const char *note;             /* a removed thing's note, or NULL */
	const struct bl_entry *entry; /* the entry: the new baseline's when
				       * added, the old one's when removed */
};

/* What goes from old (NULL: none yet) to upd: what is added, then what
 * is removed, by capability (borrowed from both). The number; *out is
 * malloc'd. */
size_t check_update_changes(const struct baseline *old, const struct baseline *upd,
			    struct bl_change **out);

const char *finding_kind_name(enum finding_kind k);   /* "new-capability", ... */

/* The baseline as v's annotations name it (v->baseline_shown, else as given). */
const char *check_baseline_shown(const struct check_view *v);

/* What a finding says in an annotation, a JUnit failure or a SARIF result
 * (raw bytes: each output format escapes it): what is new and where (the
 * kernel call site, and the program's line with --user-stacks, relative to
 * v->source_root), against which baseline; what the capability lets a
 * program do (cap_words()); for a failing finding, the command that
 * accepts it (v->update_cmd), last, so that it is copied whole. about:
 * what its checks were about, in words (analyze/objtext.h objects_raw()),
 * said after where; NULL or "": nothing. */
void check_message(const struct finding *x, const struct check_view *v, const char *about,
		   char *buf, size_t len);

#endif
