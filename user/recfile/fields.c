// SPDX-License-Identifier: GPL-2.0
/*
 * The tables of fields of every record object (fields.h says what a row
 * means). One row per field, in the order the writer writes them; the
 * reader (read_fields.cpp) walks the same rows.
 */
#include "recfile/fields.h"

#include <jansson.h>
#include <stdlib.h>

#include "facts/capnames.h"
#include "facts/syscalls.h"
#include "facts/sysops.h"
#include "lib/util.h"

/* Rows, short. S: the struct the table's offsets are in. */
#define ROW(n, t, m, ...) { .name = n, .type = t, .off = offsetof(S, m), __VA_ARGS__ }
#define INT(n, t, m, l, h, ...) ROW(n, t, m, .lo = l, .hi = h, __VA_ARGS__)
#define TYPE_ROW { .name = "type", .type = RF_TYPE }
#define HAS(m) .when = RW_HAS, .has_off = offsetof(S, m)
#define HOOK(fn) .when = RW_HOOK, .written = fn
#define NONZERO .when = RW_NONZERO
#define TABLE(var, tid, ty, rows) \
	const struct rec_table var = { tid, ty, rows, sizeof(rows) / sizeof(rows[0]) }

/* ---- derived values and write conditions ------------------------------ */

static json_t *iso_time(int64_t ns)
{
	char ts[40];

	format_iso8601(ns, ts, sizeof(ts));
	return json_string(ts);
}
static json_t *header_start(const void *o, const struct record *r)
{
	return iso_time(((const struct rec_header *)o)->start_ns);
}
static json_t *header_end(const void *o, const struct record *r)
{
	return iso_time(((const struct rec_header *)o)->end_ns);
}
static json_t *cap_name_of(int cap)
{
	char name[CAP_NAME_LEN];

	return json_string(cap_name(cap, name));
}
static json_t *overflow_cap_name(const void *o, const struct record *r)
{
	return cap_name_of(((const struct rec_overflow *)o)->cap);
}
static json_t *check_cap_name(const void *o, const struct record *r)
{
	return cap_name_of(((const struct rec_check *)o)->cap);
}
/* the record's syscall_name, else the record's arch's table's */
static json_t *check_syscall_name(const void *o, const struct record *r)
{
	const struct rec_check *c = o;
	const char *sys = c->sysname ? c->sysname : syscall_name_arch(r->hdr.arch, c->syscall);

	return sys ? json_string(sys) : NULL;
}

/* the op's name, for a reader (facts/sysops.h); ignored when read */
static json_t *check_op_name(const void *o, const struct record *r)
{
	const struct rec_check *c = o;
	const char *sys = c->sysname ? c->sysname : syscall_name_arch(r->hdr.arch, c->syscall);
	char buf[96];

	return sysop_name(sys, c->op, buf, sizeof(buf)) ? json_string(buf) : NULL;
}
static bool has_op(const void *o, const struct record *r)
{
	return ((const struct rec_check *)o)->op >= 0;
}

static bool has_target(const void *o, const struct record *r)
{
	const struct rec_header *h = o;

	return h->target_cgroup || h->target_container || h->target_unit || h->target_service;
}
static bool has_kernel_bpf(const void *o, const struct record *r)
{
	const struct rec_header *h = o;

	return h->kernel_missing || h->ndegraded;
}
static bool has_loader(const void *o, const struct record *r)
{
	return ((const struct rec_header *)o)->loader_rss_kb;
}
static bool has_aggregation(const void *o, const struct record *r)
{
	return ((const struct rec_header *)o)->agg_keys;
}
static bool has_ptrace(const void *o, const struct record *r)
{
	const struct rec_process *p = o;

	return p->ptrace_targets || p->ptrace_unknown;
}
static bool has_ptrace_example(const void *o, const struct record *r)
{
	return ((const struct rec_process *)o)->ptrace_ex_comm;
}
static bool has_container(const void *o, const struct record *r)
{
	return ((const struct rec_process *)o)->container_id;
}
static bool has_func(const void *o, const struct record *r)
{
	return ((const struct rec_uframe *)o)->function;
}
static bool has_line(const void *o, const struct record *r)
{
	return ((const struct rec_uframe *)o)->line > 0;
}
/* a check's syscall results: only denied checks have them */
static bool denied(const void *o, const struct record *r)
{
	return ((const struct rec_check *)o)->ret;
}
static bool has_other(const void *o, const struct record *r)
{
	const struct rec_check *c = o;

	return c->ret && c->sys_other;
}
static bool has_restart(const void *o, const struct record *r)
{
	const struct rec_check *c = o;

	return c->ret && c->sys_restart;
}
static bool has_ustack(const void *o, const struct record *r)
{
	return check_ustack(r, o);
}

/* ---- the header ------------------------------------------------------- */

#define S struct rec_lost
/* from rec_lost_kinds (model.c), the one list of loss kinds: filled below */
static struct rec_field lost_rows[sizeof(S) / sizeof(uint64_t)];
TABLE(rec_lost_table, RT_LOST, NULL, lost_rows);
__attribute__((constructor)) static void fill_lost_rows(void)
{
	size_t i;

	for (i = 0; i < rec_lost_nkinds; i++)
		lost_rows[i] = (struct rec_field){ .name = rec_lost_kinds[i].key, .type = RF_U64,
						   .off = rec_lost_kinds[i].off, .hi = INT64_MAX,
						   .since = 1 };
}
#undef S

#define S struct rec_overflow
static const struct rec_field overflow_rows[] = {
	INT("cap", RF_I32, cap, 0, REC_MAX_CAP, .since = 1, .required = 1),
	{ .name = "cap_name", .type = RF_DERIVED, .write_fn = overflow_cap_name, .since = 1 },
	ROW("denied", RF_BOOL, denied, .since = 1, .required = 1),
	INT("count", RF_U64, count, 0, INT64_MAX, .since = 1, .required = 1),
};
static TABLE(overflow_table, RT_OVERFLOW, NULL, overflow_rows);
#undef S

#define S struct rec_header
static const struct rec_field target_rows[] = {
	ROW("cgroup", RF_STR, target_cgroup, .since = 4),
	ROW("container", RF_STR, target_container, .since = 4),
	ROW("name", RF_STR, target_name, .since = 4),
	ROW("unit", RF_STR, target_unit, .since = 4),
	ROW("service", RF_STR, target_service, .since = 4),
	/* read_fields.cpp: the three come together, with "service" */
	INT("uid", RF_U32, service_uid, 0, UINT32_MAX, .since = 4, HAS(has_service_caps)),
	ROW("bounding", RF_CAPSET, service_bounding, .since = 4, HAS(has_service_caps)),
	ROW("ambient", RF_CAPSET, service_ambient, .since = 4, HAS(has_service_caps)),
};
TABLE(rec_target_table, RT_TARGET, NULL, target_rows);

static const struct rec_field kernel_bpf_rows[] = {
	ROW("missing", RF_KFEAT, kernel_missing, .since = 5),
	ROW("degraded", RF_STRV, degraded, .off2 = offsetof(S, ndegraded), .since = 5),
};
TABLE(rec_kernel_bpf_table, RT_KERNEL_BPF, NULL, kernel_bpf_rows);

static const struct rec_field loader_rows[] = {
	ROW("cpu_s", RF_DOUBLE, loader_cpu_s, .since = 1),
	INT("max_rss_kb", RF_I64, loader_rss_kb, 0, INT64_MAX, .since = 1),
};
static TABLE(loader_table, RT_LOADER, NULL, loader_rows);

static const struct rec_field aggregation_rows[] = {
	INT("drains", RF_U64, agg_drains, 0, INT64_MAX, .since = 2),
	INT("max_keys", RF_U32, agg_keys, 0, UINT32_MAX, .since = 2),
	INT("spilled", RF_U64, agg_spilled, 0, INT64_MAX, .since = 7, NONZERO),
};
static TABLE(aggregation_table, RT_AGGREGATION, NULL, aggregation_rows);

static const struct rec_field monitor_rows[] = {
	ROW("interval", RF_DOUBLE, monitor_interval, .since = 4),
	INT("checkpoint", RF_U64, monitor_checkpoint, 0, INT64_MAX, .since = 4),
	INT("since_ns", RF_I64, monitor_since_ns, 0, INT64_MAX, .since = 4),
	INT("images", RF_U64, monitor_images, 0, INT64_MAX, .since = 7, NONZERO),
	INT("forgotten", RF_U64, monitor_forgotten, 0, INT64_MAX, .since = 7, NONZERO),
	INT("extra_folds", RF_U64, monitor_extra_folds, 0, INT64_MAX, .since = 7, NONZERO),
	INT("programs_past", RF_U64, monitor_ids_past, 0, INT64_MAX, .since = 7, NONZERO),
	INT("rows_past", RF_U64, monitor_rows_past, 0, INT64_MAX, .since = 7, NONZERO),
};
static TABLE(monitor_table, RT_MONITOR, NULL, monitor_rows);

static const struct rec_field cache_rows[] = {
	INT("misses", RF_U64, cache_misses, 0, INT64_MAX, .since = 3),
	INT("hit_walks", RF_U64, cache_hit_walks, 0, INT64_MAX, .since = 3),
	INT("splits", RF_U64, cache_splits, 0, INT64_MAX, .since = 3),
	INT("unproven", RF_U64, cache_unproven, 0, INT64_MAX, .since = 3),
	INT("path_proofs", RF_U64, cache_path_proofs, 0, INT64_MAX, .since = 7, NONZERO),
	INT("path_splits", RF_U64, cache_path_splits, 0, INT64_MAX, .since = 7, NONZERO),
};
static TABLE(cache_table, RT_CACHE, NULL, cache_rows);

static const struct rec_field header_rows[] = {
	TYPE_ROW,
	{ .name = "format", .type = RF_FORMAT, .since = 1, .required = 1 },
	ROW("version", RF_VERSION, version, .since = 1, .required = 1),
	ROW("capaudit", RF_STR, capaudit_version, .since = 1),
	ROW("kernel", RF_STR, kernel, .since = 1, .required = 1),
	ROW("machine", RF_STR, machine, .since = 1),
	ROW("host", RF_STR, host, .since = 5),
	ROW("arch", RF_STR, arch, .since = 5, .shape = RS_ARCH),
	ROW("attach", RF_STR, attach, .since = 1, .required = 1),
	ROW("scope", RF_STR, scope, .since = 1),
	{ .name = "target", .type = RF_OBJECT, .sub = &rec_target_table, .since = 4,
	  HOOK(has_target) },
	ROW("symbols", RF_STR, symbols, .since = 1),
	{ .name = "kernel_bpf", .type = RF_OBJECT, .sub = &rec_kernel_bpf_table, .since = 5,
	  HOOK(has_kernel_bpf) },
	ROW("argv", RF_STRV, argv, .off2 = offsetof(S, argc), .since = 1),
	{ .name = "start", .type = RF_DERIVED, .write_fn = header_start, .since = 1 },
	{ .name = "end", .type = RF_DERIVED, .write_fn = header_end, .since = 1 },
	INT("start_ns", RF_I64, start_ns, 0, INT64_MAX, .since = 1, .required = 1),
	INT("end_ns", RF_I64, end_ns, 0, INT64_MAX, .since = 1, .required = 1),
	INT("checks", RF_U64, checks, 0, INT64_MAX, .since = 1),
	ROW("lost", RF_OBJECT, lost, .sub = &rec_lost_table, .since = 1),
	ROW("syscall_results", RF_BOOL, syscall_results, .since = 1),
	ROW("ptrace_watched", RF_BOOL, ptrace_watched, .since = 4, HAS(has_ptrace_watched)),
	ROW("overflow", RF_ARRAY, overflow, .off2 = offsetof(S, noverflow), .since = 1,
	    .sub = &overflow_table, .elem = sizeof(struct rec_overflow),
	    .item_error = "overflow item %zu must be an object"),
	INT("exit_status", RF_I32, exit_status, 0, 255 + 128, .since = 1, HAS(has_exit_status)),
	ROW("stop", RF_STR, stop, .since = 1),
	ROW("command_running", RF_BOOL, command_running, .since = 1, NONZERO),
	{ .name = "loader", .type = RF_OBJECT, .sub = &loader_table, .since = 1,
	  HOOK(has_loader) },
	INT("pids_reused", RF_U64, pids_reused, 0, INT64_MAX, .since = 2, NONZERO),
	{ .name = "aggregation", .type = RF_OBJECT, .sub = &aggregation_table, .since = 2,
	  HOOK(has_aggregation) },
	{ .name = "monitor", .type = RF_OBJECT, .sub = &monitor_table, .since = 4,
	  HAS(has_monitor) },
	{ .name = "cache", .type = RF_OBJECT, .sub = &cache_table, .since = 3, HAS(has_cache) },
};
TABLE(rec_header_table, RT_HEADER, "header", header_rows);
#undef S

/* ---- process lines ---------------------------------------------------- */

#define S struct rec_process
static const struct rec_field capset_rows[] = {
	ROW("effective", RF_CAPSET, capset_eff, .since = 3),
	ROW("permitted", RF_CAPSET, capset_prm, .since = 3),
	ROW("inheritable", RF_CAPSET, capset_inh, .since = 3),
};
static TABLE(capset_table, RT_CAPSET, NULL, capset_rows);

static const struct rec_field ptrace_example_rows[] = {
	INT("pid", RF_U32, ptrace_ex_pid, 1, INT32_MAX, .since = 4, .required = 1),
	ROW("comm", RF_STR, ptrace_ex_comm, .since = 4, .required = 1),
	ROW("via", RF_STR, ptrace_ex_via, .since = 4, .required = 1, .empty_if_null = true),
};
static TABLE(ptrace_example_table, RT_PTRACE_EXAMPLE, NULL, ptrace_example_rows);

static const struct rec_field ptrace_rows[] = {
	INT("targets", RF_U32, ptrace_targets, 0, UINT32_MAX, .since = 4, .required = 1),
	INT("unknown", RF_U32, ptrace_unknown, 0, UINT32_MAX, .since = 4, .required = 1),
	ROW("permitted", RF_CAPSET, ptrace_prm, .since = 4, .required = 1),
	{ .name = "example", .type = RF_OBJECT, .sub = &ptrace_example_table, .since = 4,
	  HOOK(has_ptrace_example) },
};
static TABLE(ptrace_table, RT_PTRACE, NULL, ptrace_rows);

/* read_fields.cpp: the id must not be empty */
static const struct rec_field container_rows[] = {
	ROW("id", RF_STR, container_id, .since = 4, .required = 1),
	ROW("name", RF_STR, container_name, .since = 4),
	ROW("runtime", RF_STR, container_runtime, .since = 4),
};
static TABLE(rec_container_table, RT_CONTAINER, NULL, container_rows);

static const struct rec_field process_rows[] = {
	TYPE_ROW,
	INT("pid", RF_U32, pid, 1, INT32_MAX, .since = 1, .required = 1),
	INT("start_ns", RF_I64, start_ns, 0, INT64_MAX, .since = 2, .required = 2),
	INT("exec_id", RF_U32, exec_id, 0, UINT32_MAX, .since = 1),
	INT("ppid", RF_U32, ppid, 0, INT32_MAX, .since = 1),
	INT("uid", RF_U32, uid, 0, UINT32_MAX, .since = 1),
	ROW("comm", RF_STR, comm, .since = 1, .empty_if_null = true),
	ROW("exe", RF_STR, exe, .since = 1),
	INT("exit_code", RF_I32, exit_code, 0, 255, .since = 1, HAS(exited)),
	{ .name = "capset", .type = RF_OBJECT, .sub = &capset_table, .since = 3,
	  HAS(has_capset) },
	{ .name = "ptrace_access", .type = RF_OBJECT, .sub = &ptrace_table, .since = 4,
	  HOOK(has_ptrace) },
	ROW("build_id", RF_STR, build_id, .since = 4, .shape = RS_HEX),
	ROW("cgroup", RF_STR, cgroup, .since = 4, .shape = RS_PATH),
	{ .name = "container", .type = RF_OBJECT, .sub = &rec_container_table, .since = 4,
	  HOOK(has_container) },
	ROW("unit", RF_STR, unit, .since = 4, .shape = RS_NONEMPTY),
	ROW("secure_exec", RF_BOOL, secure_exec, .since = 4, NONZERO),
	ROW("runtime_setup", RF_BOOL, runtime_setup, .since = 4, NONZERO),
	INT("pids", RF_U64, pids, 1, INT64_MAX, .since = 4, NONZERO),
};
TABLE(rec_process_table, RT_PROCESS, "process", process_rows);
#undef S

/* ---- stack and ustack lines ------------------------------------------- */

#define S struct rec_uframe
static const struct rec_field uframe_rows[] = {
	ROW("build_id", RF_STR, build_id, .since = 1, .shape = RS_HEX),
	INT("offset", RF_U64, offset, 0, INT64_MAX, .since = 1, .required = 1),
	ROW("object", RF_STR, object, .since = 1),
	ROW("function", RF_STR, function, .since = 1),
	INT("func_off", RF_U64, func_off, 0, INT64_MAX, .since = 1, HOOK(has_func)),
	ROW("source", RF_STR, source, .since = 1),
	INT("line", RF_I32, line, 1, INT32_MAX, .since = 1, HOOK(has_line)),
	ROW("leaf", RF_BOOL, leaf, .since = 1, NONZERO),
	ROW("address", RF_BOOL, address, .since = 1, NONZERO),
};
TABLE(rec_uframe_table, RT_UFRAME, NULL, uframe_rows);
#undef S

#define S struct rec_stack_line
static const struct rec_field stack_rows[] = {
	TYPE_ROW,
	INT("id", RF_I64, id, 0, INT32_MAX, .since = 1, .required = 1),
	ROW("frames", RF_STRV, frames, .off2 = offsetof(S, nframes), .since = 1, .required = 1),
};
TABLE(rec_stack_table, RT_STACK, "stack", stack_rows);

static const struct rec_field ustack_rows[] = {
	TYPE_ROW,
	INT("id", RF_I64, id, 0, INT32_MAX, .since = 1, .required = 1),
	ROW("frames", RF_ARRAY, uframes, .off2 = offsetof(S, nuframes), .since = 1,
	    .required = 1, .sub = &rec_uframe_table, .elem = sizeof(struct rec_uframe),
	    .max = REC_MAX_UFRAMES, .item_error = "a user frame must be an object"),
};
TABLE(rec_ustack_table, RT_USTACK, "ustack", ustack_rows);
#undef S

/* ---- check lines ------------------------------------------------------ */

#define S struct rec_check
static const struct rec_field opts_rows[] = {
	ROW("noaudit", RF_BOOL, opt_noaudit, .since = 1, .required = 1),
	ROW("insetid", RF_BOOL, opt_insetid, .since = 1, .required = 1),
};
static TABLE(opts_table, RT_OPTS, NULL, opts_rows);

#undef S
#define S struct rec_object
/* enum rec_obj_kind's names in the file */
static const char *const obj_kind_names[] = {
	NULL, "file", "process", "sockopt", "socket", "bind", "netlink", "ioctl", "bpf",
	"mount", "sysctl", "flags",
};
_Static_assert(sizeof(obj_kind_names) / sizeof(obj_kind_names[0]) == OBJ_KIND_NR,
	       "a name for each object kind");
static bool obj_has_pid(const void *o, const struct record *r)
{
	return ((const struct rec_object *)o)->pid >= 0;
}
static bool obj_has_uid(const void *o, const struct record *r)
{
	return ((const struct rec_object *)o)->uid >= 0;
}
static bool obj_has_gid(const void *o, const struct record *r)
{
	return ((const struct rec_object *)o)->gid >= 0;
}
static bool obj_has_mode(const void *o, const struct record *r)
{
	return ((const struct rec_object *)o)->mode >= 0;
}
static bool obj_has_num(const void *o, const struct record *r)
{
	return ((const struct rec_object *)o)->num >= 0;
}
/* for a reader: the permission bits as ls and chmod write them */
static json_t *obj_mode_octal(const void *o, const struct record *r)
{
	const struct rec_object *b = o;
	char buf[8];

	if (b->mode < 0)
		return NULL;
	snprintf(buf, sizeof(buf), "%04o", (unsigned)(b->mode & 07777));
	return json_string(buf);
}
static const struct rec_field object_rows[] = {
	ROW("kind", RF_ENUM, kind, .since = 7, .required = 7, .names = obj_kind_names,
	    .max = OBJ_KIND_NR),
	ROW("path", RF_STR, path, .since = 7),
	ROW("name", RF_STR, name, .since = 7),
	ROW("detail", RF_STR, detail, .since = 7),
	INT("pid", RF_I64, pid, 0, INT32_MAX, .since = 7, .def = -1, HOOK(obj_has_pid)),
	INT("uid", RF_I64, uid, 0, UINT32_MAX, .since = 7, .def = -1, HOOK(obj_has_uid)),
	INT("gid", RF_I64, gid, 0, UINT32_MAX, .since = 7, .def = -1, HOOK(obj_has_gid)),
	INT("mode", RF_I64, mode, 0, 0177777, .since = 7, .def = -1, HOOK(obj_has_mode)),
	{ .name = "mode_octal", .type = RF_DERIVED, .write_fn = obj_mode_octal, .since = 7 },
	INT("num", RF_I64, num, 0, INT64_MAX, .since = 7, .def = -1, HOOK(obj_has_num)),
	INT("count", RF_U64, count, 1, INT64_MAX, .since = 7, .required = 7),
	ROW("late", RF_BOOL, late, .since = 7, NONZERO),
};
static TABLE(object_table, RT_OBJECT, NULL, object_rows);
#undef S
#define S struct rec_check

/* enum rec_userns: what the file names (host and child are said by init_ns) */
static const char *const userns_names[] = { NULL, "inside", "owner", NULL };

static const struct rec_field check_rows[] = {
	TYPE_ROW,
	INT("pid", RF_U32, pid, 1, INT32_MAX, .since = 1, .required = 1),
	INT("start_ns", RF_I64, start_ns, 0, INT64_MAX, .since = 2, .required = 2),
	INT("exec_id", RF_U32, exec_id, 0, UINT32_MAX, .since = 1),
	INT("tid", RF_U32, tid, 0, INT32_MAX, .since = 1),
	INT("uid", RF_U32, uid, 0, UINT32_MAX, .since = 1),
	ROW("comm", RF_ISTR, comm, .since = 1, .empty_if_null = true),
	INT("cgroup", RF_U64, cgroup, 0, INT64_MAX, .since = 1),
	INT("cap", RF_I32, cap, 0, REC_MAX_CAP, .since = 1, .required = 1),
	{ .name = "cap_name", .type = RF_DERIVED, .write_fn = check_cap_name, .since = 1 },
	INT("ret", RF_I32, ret, -4095, 0, .since = 1, .required = 1),
	INT("count", RF_U64, count, 1, INT64_MAX, .since = 1, .required = 1),
	INT("syscall", RF_I32, syscall, -1, 4095, .since = 1, .def = -1),
	ROW("syscall_name", RF_SYSCALL_NAME, sysname, .since = 5, .shape = RS_SYSCALL,
	    .write_fn = check_syscall_name),
	INT("op", RF_I64, op, 0, UINT32_MAX, .since = 6, .def = -1, HOOK(has_op)),
	{ .name = "op_name", .type = RF_DERIVED, .write_fn = check_op_name, .since = 6 },
	ROW("init_ns", RF_BOOL, init_ns, .since = 1),
	ROW("userns", RF_ENUM, userns, .since = 3, .names = userns_names, .max = 4),
	ROW("no_effect", RF_BOOL, no_effect, .since = 3, NONZERO),
	ROW("args_checked", RF_BOOL, args_checked, .since = 3, NONZERO),
	ROW("foreign_cred", RF_BOOL, foreign_cred, .since = 4, NONZERO),
	{ .name = "opts", .type = RF_OBJECT, .sub = &opts_table, .since = 1,
	  HAS(opts_known) },
	INT("first_ns", RF_I64, first_ns, 0, INT64_MAX, .since = 1),
	INT("last_ns", RF_I64, last_ns, 0, INT64_MAX, .since = 1),
	INT("syscall_failed", RF_U64, sys_failed, 0, INT64_MAX, .since = 1, HOOK(denied)),
	INT("syscall_other", RF_U64, sys_other, 0, INT64_MAX, .since = 3, HOOK(has_other)),
	ROW("syscall_errno", RF_ERRNO, sys_errno, .since = 3, HOOK(has_other)),
	INT("syscall_restart", RF_U64, sys_restart, 0, INT64_MAX, .since = 3,
	    HOOK(has_restart)),
	ROW("stack", RF_STACK_REF, stack, .since = 1, .def = -1),
	ROW("stack_error", RF_STR, stack_error, .since = 1),
	ROW("ustack", RF_USTACK_REF, ustack, .since = 1, .def = -1, HOOK(has_ustack)),
	ROW("objects", RF_ARRAY, objects, .off2 = offsetof(S, nobjects), .since = 7,
	    NONZERO, .sub = &object_table, .elem = sizeof(struct rec_object),
	    .max = REC_MAX_OBJECTS, .item_error = "objects item %zu must be an object"),
	INT("objects_more", RF_U64, objects_more, 0, INT64_MAX, .since = 7, NONZERO),
};
TABLE(rec_check_table, RT_CHECK, "check", check_rows);
#undef S

/* ---- the end line ----------------------------------------------------- */

#define S struct rec_end_line
static const struct rec_field end_rows[] = {
	TYPE_ROW,
	INT("processes", RF_I64, processes, 0, INT64_MAX, .since = 1, .required = 1),
	INT("stacks", RF_I64, stacks, 0, INT64_MAX, .since = 1, .required = 1),
	INT("checks", RF_I64, checks, 0, INT64_MAX, .since = 1, .required = 1),
	INT("ustacks", RF_I64, ustacks, 0, INT64_MAX, .since = 1, NONZERO),
};
TABLE(rec_end_table, RT_END, "end", end_rows);
#undef S

/* ---- what the rows own ------------------------------------------------ */

void rec_fields_free(const struct rec_table *t, void *obj)
{
	char *base = obj;
	size_t i, k;

	for (i = 0; i < t->nrows; i++) {
		const struct rec_field *f = &t->rows[i];
		void **p = (void **)(base + f->off);

		switch (f->type) {
		case RF_STR:
			free(*p);
			*p = NULL;
			break;
		case RF_STRV:
			for (k = 0; k < *(size_t *)(base + f->off2); k++)
				free(((char **)*p)[k]);
			free(*p);
			*p = NULL;
			*(size_t *)(base + f->off2) = 0;
			break;
		case RF_OBJECT:
			rec_fields_free(f->sub, base + f->off);
			break;
		case RF_ARRAY:
			for (k = 0; k < *(size_t *)(base + f->off2); k++)
				rec_fields_free(f->sub, (char *)*p + k * f->elem);
			free(*p);
			*p = NULL;
			*(size_t *)(base + f->off2) = 0;
			break;
		default:
			break;
		}
	}
}
