// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a record file (docs/record-format.md): JSON Lines, one jansson
 * object per line, in the order the reader expects (header, processes,
 * stacks, user stacks, checks) and ending with the counts of the end line.
 * What each line holds is the tables of fields.c: rec_fields_json() writes
 * any object by its table, which is also how report --format json shows a
 * user frame, what was lost, a target and the kernel's missing features.
 */
#include "recfile/fields.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "facts/capjson.h"
#include "facts/kfeat.h"
#include "lib/jsonutil.h"

static json_t *rec_fields_json(const struct rec_table *t, const void *obj,
			       const struct record *r);

/* Whether obj's row f is written (its when); r: the record written. */
static bool rec_field_written(const struct rec_field *f, const void *obj, const struct record *r)
{
	const char *m = (const char *)obj + f->off;

	switch (f->when) {
	case RW_HAS:
		return *(const bool *)((const char *)obj + f->has_off);
	case RW_HOOK:
		return f->written(obj, r);
	case RW_NONZERO:
		switch (f->type) {
		case RF_BOOL:
			return *(const bool *)m;
		case RF_I32: case RF_U32:
			return *(const uint32_t *)m;
		default:   /* 64-bit integers, sets */
			return *(const uint64_t *)m;
		}
	case RW_ALWAYS:
		break;
	}
	return true;
}

static json_t *kfeat_names(uint32_t mask)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < KF_NR; i++)
		if (mask & kfeat_table[i].bit)
			json_array_append_new(a, json_string(kfeat_table[i].name));
	return a;
}

/* "ENODEV", or the number when glibc has no name for it */
static json_t *errno_name(int e)
{
	const char *en = e > 0 ? strerrorname_np(e) : NULL;
	char num[16];

	snprintf(num, sizeof(num), "%d", e);
	return json_string(en ? en : num);
}

/* One row's value, a new reference; NULL: no key. */
static json_t *field_json(const struct rec_field *f, const void *obj, const struct record *r)
{
	const char *m = (const char *)obj + f->off;
	json_t *a;
	size_t i, n;

	switch (f->type) {
	case RF_TYPE:
		return NULL;   /* written first, by the caller */
	case RF_DERIVED: case RF_SYSCALL_NAME:
		return f->write_fn(obj, r);
	case RF_I32:
		return json_integer(*(const int32_t *)m);
	case RF_U32:
		return json_integer(*(const uint32_t *)m);
	case RF_I64:
		return json_integer(*(const int64_t *)m);
	case RF_U64:
		return json_uint(*(const uint64_t *)m);
	case RF_BOOL:
		return json_boolean(*(const bool *)m);
	case RF_DOUBLE:
		return json_real(*(const double *)m);
	case RF_STR: case RF_ISTR:
		if (!*(const char *const *)m)
			return f->empty_if_null ? json_string("") : NULL;
		return json_bytes(*(const char *const *)m);
	case RF_STRV:
		a = json_array();
		n = *(const size_t *)((const char *)obj + f->off2);
		for (i = 0; i < n; i++)
			json_array_append_new(a, json_bytes((*(char *const *const *)m)[i]));
		return a;
	case RF_CAPSET:
		return json_capset(*(const uint64_t *)m);
	case RF_ENUM:
		return f->names[*(const int *)m] ? json_string(f->names[*(const int *)m]) : NULL;
	case RF_OBJECT:
		return rec_fields_json(f->sub, m, r);
	case RF_ARRAY:
		a = json_array();
		n = *(const size_t *)((const char *)obj + f->off2);
		for (i = 0; i < n; i++)
			json_array_append_new(a, rec_fields_json(f->sub, *(const char *const *)m +
								 i * f->elem, r));
		return a;
	case RF_FORMAT:
		return json_string(REC_FORMAT);
	case RF_VERSION:
		return json_integer(REC_VERSION);   /* what this writer writes */
	case RF_KFEAT:
		return kfeat_names(*(const uint32_t *)m);
	case RF_ERRNO:
		return errno_name(*(const int *)m);
	case RF_STACK_REF:
		return *(const int *)m >= 0 ? json_integer(*(const int *)m) : json_null();
	case RF_USTACK_REF:
		return json_integer(*(const int *)m);
	}
	return NULL;
}

/* obj as a JSON object by t's rows (jansson; the writer's and the json
 * report's view of an object) */
static json_t *rec_fields_json(const struct rec_table *t, const void *obj,
			       const struct record *r)
{
	json_t *o = json_object();
	size_t i;

	if (t->type)
		json_set(o, "type", json_string(t->type));
	for (i = 0; i < t->nrows; i++)
		if (rec_field_written(&t->rows[i], obj, r))
			json_set(o, t->rows[i].name, field_json(&t->rows[i], obj, r));   /* NULL: no key */
	return o;
}

json_t *rec_lost_json(const struct rec_lost *l)
{
	return rec_fields_json(&rec_lost_table, l, NULL);
}

json_t *rec_kernel_bpf_json(const struct rec_header *h)
{
	return h->kernel_missing || h->ndegraded ? rec_fields_json(&rec_kernel_bpf_table, h, NULL)
						 : NULL;
}

json_t *rec_target_json(const struct rec_header *h)
{
	if (!h->target_cgroup && !h->target_container && !h->target_unit && !h->target_service)
		return NULL;
	return rec_fields_json(&rec_target_table, h, NULL);
}

json_t *rec_uframe_json(const struct rec_uframe *f)
{
	return rec_fields_json(&rec_uframe_table, f, NULL);
}

static int put(FILE *f, json_t *o)
{
	int rc = json_write_line(f, o);

	json_decref(o);
	return rc;
}

int recfile_write(FILE *f, const struct record *r)
{
	struct rec_end_line end = { (int64_t)r->nprocs, (int64_t)r->nstacks, (int64_t)r->nchecks,
				    (int64_t)r->nustacks };
	size_t i;

	if (put(f, rec_fields_json(&rec_header_table, &r->hdr, r)))
		return -1;
	for (i = 0; i < r->nprocs; i++)
		if (put(f, rec_fields_json(&rec_process_table, &r->procs[i], r)))
			return -1;
	for (i = 0; i < r->nstacks; i++) {
		struct rec_stack_line s = { .id = (int64_t)i, .frames = r->stacks[i].frames,
					    .nframes = r->stacks[i].n };

		if (put(f, rec_fields_json(&rec_stack_table, &s, r)))
			return -1;
	}
	for (i = 0; i < r->nustacks; i++) {
		struct rec_stack_line s = { .id = (int64_t)i, .uframes = r->ustacks[i].frames,
					    .nuframes = r->ustacks[i].n };

		if (put(f, rec_fields_json(&rec_ustack_table, &s, r)))
			return -1;
	}
	for (i = 0; i < r->nchecks; i++)
		if (put(f, rec_fields_json(&rec_check_table, &r->checks[i], r)))
			return -1;
	/* the last line: a reader knows the file is whole */
	if (put(f, rec_fields_json(&rec_end_table, &end, r)))
		return -1;
	if (fflush(f) == EOF || ferror(f))
		return -1;
	return 0;
}
