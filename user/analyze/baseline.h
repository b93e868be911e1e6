/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The baseline: what a workload is allowed to use, committed next to its
 * code and reviewed like it (docs/baseline.md). Capabilities with the
 * syscalls that led to them (version 2) and their kernel call sites, and
 * the denials that are expected; each entry, syscall and call site may
 * carry a note saying why. check compares capabilities, then syscalls;
 * call sites (which differ between kernels) only when asked.
 */
#ifndef CA_BASELINE_H
#define CA_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BASELINE_FORMAT  "capaudit-baseline"
#define BASELINE_VERSION 2   /* 2: syscalls per entry; 1 is still read */

struct bl_site {
	char *func;
	char *note;              /* may be NULL */
};

struct bl_entry {
	int cap;
	char *note;              /* may be NULL */
	struct bl_site *sites;
	size_t nsites, capsites;
	/* sites by name (open addressing: 1 + index, 0 empty), so that a
	 * baseline of a million call sites is read and compared in linear
	 * time; rebuilt when stale (after the sites are sorted) */
	uint32_t *idx;
	size_t idxcap;
	bool idx_stale;
	/* the syscalls that led to it (name: "chown", "(none)" outside a
	 * syscall), each with its note; a few, looked up in order */
	struct bl_site *sys;
	size_t nsys, capsys;
	bool has_sys;            /* listed (version 2): compared at --match syscall */
};

struct baseline {
	char *note;
	struct bl_entry *caps;   /* allowed capabilities */
	size_t ncaps, capcaps;
	struct bl_entry *denied; /* expected denials */
	size_t ndenied, capdenied;
};

/*
 * Load and validate. On error -1 and one line "FILE[:LINE:COL]: what" in
 * err; *missing is set when the file does not exist.
 */
int baseline_load(const char *path, struct baseline *b, bool *missing, char *err, size_t n);
/* The same from an open file; path names it in messages. */
int baseline_read(FILE *f, const char *path, struct baseline *b, char *err, size_t n);
int baseline_write(FILE *f, const struct baseline *b);
/*
 * check --update on the baseline's own text (len bytes that
 * baseline_read() accepted): the text of a baseline that allows exactly
 * want, where what stays keeps its bytes (its place, its layout, its
 * notes), what goes is cut out with its separator and what comes goes
 * where it sorts (last in a list that is not sorted), laid out as its
 * neighbours. malloc'd, its length in *outlen; NULL when the text is not
 * one this editor follows. The caller reads it back and compares
 * (baseline_same()) before it writes it.
 */
char *baseline_edit(const char *text, size_t len, const struct baseline *want, size_t *outlen);
/* Whether a and b allow the same (entries, syscalls, call sites, with the
 * same notes), in whatever order. */
bool baseline_same(const struct baseline *a, const struct baseline *b);
void baseline_free(struct baseline *b);

/* Lookups; NULL when absent. */
struct bl_entry *bl_find(struct bl_entry *list, size_t n, int cap);
struct bl_site *bl_find_site(struct bl_entry *e, const char *func);
/* Add (or find) an entry / a site. */
struct bl_entry *bl_add(struct bl_entry **list, size_t *n, size_t *cap, int capnum);
struct bl_site *bl_add_site(struct bl_entry *e, const char *func);
/* The same for the entry's syscalls (has_sys set by bl_add_sys). */
struct bl_site *bl_find_sys(const struct bl_entry *e, const char *name);
struct bl_site *bl_add_sys(struct bl_entry *e, const char *name);

#endif
