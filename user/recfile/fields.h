/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record format, described once: a table of fields per JSON object of
 * a record line (docs/record-format.md), read by both the writer (write.c,
 * jansson) and the reader (read_fields.cpp, simdjson). A row says the field's
 * name, what kind of value it holds and where in the C struct, the format
 * version that introduced it, from which version it is required, when
 * the writer leaves it out and its default. Adding a header or process
 * field is one row here (and its line in docs/record-format.md).
 *
 * Order matters: the writer writes the rows in table order, and the reader
 * tries that order first and names the first missing required field in
 * it. Members of the structs that are not rows (cgroup_id, mon_gen,
 * input, file_pid, ...) are the recorder's or a merge's, not the file's.
 */
#ifndef CA_RECFILE_FIELDS_H
#define CA_RECFILE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "recfile/recfile.h"

enum rec_ftype {
	RF_TYPE,        /* "type": the table's line type; read by the caller */
	RF_DERIVED,     /* written from other members (write_fn), ignored on read */
	RF_I32, RF_U32, RF_I64, RF_U64,   /* an integer in lo..hi */
	RF_BOOL,
	RF_DOUBLE,      /* non-negative, at most 1e12 */
	RF_STR,         /* char *, a copy; NULL: absent */
	RF_ISTR,        /* const char *, interned in the record (check comms) */
	RF_STRV,        /* char ** at off, its count (size_t) at off2 */
	RF_CAPSET,      /* uint64_t mask, as an array of capability names */
	RF_ENUM,        /* int member; names[value] in the file, NULL: not written */
	RF_OBJECT,      /* a nested object: sub's rows, at base + off */
	RF_ARRAY,       /* an array of sub objects: elements (elem bytes) at *off,
			 * their count (size_t) at off2, at most max */
	/* hooks: what one field of one object means beyond its JSON type */
	RF_FORMAT,      /* "format": REC_FORMAT, not stored */
	RF_VERSION,     /* "version": 1..REC_VERSION, written as REC_VERSION */
	RF_KFEAT,       /* uint32_t mask of facts/kfeat.h bits, as their names */
	RF_ERRNO,       /* int errno, as its name (a number if it has none) */
	RF_STACK_REF,   /* int index of an earlier stack line, or null: -1 */
	RF_USTACK_REF,  /* int index of an earlier ustack line */
	RF_SYSCALL_NAME,   /* written by write_fn; read_fields.cpp keeps the name where
			    * the arch's table does not say the same */
};

/* When the writer leaves a field out (RF_STR: also whenever it is NULL). */
enum rec_fwhen {
	RW_ALWAYS = 0,
	RW_NONZERO,     /* 0, false, NULL or an empty set: left out */
	RW_HAS,         /* only when the bool at has_off is true */
	RW_HOOK,        /* only when written(obj, record) says so */
};

/* A string's shape, beyond being a string without NUL bytes. */
enum rec_fshape {
	RS_ANY = 0,
	RS_ARCH,        /* letters, digits, '_': 1..32 */
	RS_SYSCALL,     /* letters, digits, '_': 1..64 */
	RS_HEX,         /* lowercase hex, 1..64 digits (build ids) */
	RS_PATH,        /* starts with '/' */
	RS_NONEMPTY,
};

struct rec_table;

struct rec_field {
	const char *name;
	enum rec_ftype type;
	size_t off, off2;       /* where in the object (offsetof) */
	int64_t lo, hi;         /* integers: the range read */
	int since;              /* the format version that introduced it */
	int required;           /* required in records of this version on; 0: optional */
	enum rec_fwhen when;
	size_t has_off;         /* RW_HAS: a bool member, set by the reader when present */
	bool (*written)(const void *obj, const struct record *r);   /* RW_HOOK */
	enum rec_fshape shape;  /* RF_STR, RF_ISTR */
	bool empty_if_null;     /* RF_STR, RF_ISTR: NULL is written "" and absent is read "" */
	int64_t def;            /* integers: the value when absent */
	const char *const *names;    /* RF_ENUM: max of them */
	const struct rec_table *sub; /* RF_OBJECT, RF_ARRAY */
	size_t elem, max;            /* RF_ARRAY: element size, count limit (0: none) */
	const char *item_error;      /* RF_ARRAY: an item is not an object ("%zu": its index) */
	/* RF_DERIVED: the value written (a new reference) or NULL */
	struct json_t *(*write_fn)(const void *obj, const struct record *r);
};

/* Which table: the reader keeps its matching state per table. */
enum rec_table_id {
	RT_HEADER, RT_LOST, RT_TARGET, RT_KERNEL_BPF, RT_OVERFLOW, RT_LOADER, RT_AGGREGATION,
	RT_MONITOR, RT_CACHE,
	RT_PROCESS, RT_CAPSET, RT_PTRACE, RT_PTRACE_EXAMPLE, RT_CONTAINER,
	RT_STACK, RT_USTACK, RT_UFRAME, RT_CHECK, RT_OPTS, RT_OBJECT, RT_END,
	RT_NR
};

struct rec_table {
	enum rec_table_id id;
	const char *type;       /* a line's "type" ("header"), NULL for nested objects */
	const struct rec_field *rows;
	size_t nrows;
};

extern const struct rec_table rec_header_table, rec_process_table, rec_stack_table,
	rec_ustack_table, rec_check_table, rec_end_table, rec_lost_table, rec_target_table,
	rec_kernel_bpf_table, rec_uframe_table;

/* A stack or ustack line as the tables see it. */
struct rec_stack_line {
	int64_t id;
	char **frames;
	size_t nframes;
	struct rec_uframe *uframes;
	size_t nuframes;
};

/* The end line: the counts of the lines before it. */
struct rec_end_line {
	int64_t processes, stacks, checks, ustacks;
};

/* Free what the rows of t own in obj (strings, string arrays, arrays). */
void rec_fields_free(const struct rec_table *t, void *obj);

#endif
